"""`Closes`: a context manager from a `close()` method (``with Thing(...) as thing:``)."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closes:
    """Mix in for a class with ``close()``: ``with`` closes it on the way out."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
