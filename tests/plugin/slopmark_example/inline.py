"""An executor: every unit of a sweep in this process, one after another (for debugging)."""

import socket
from collections.abc import Generator, Sequence
from typing import Any

from slopmark.executor import (
    Event,
    Finished,
    Message,
    Started,
    Unit,
    error_line,
    install_outbox,
    outbox,
    register,
)


class Collected:
    """What the running unit sends its driver, handed on once the unit returns."""

    def __init__(self) -> None:
        self.payloads: list[Any] = []

    def send(self, payload: Any, *, wait: bool = False) -> None:
        self.payloads.append(payload)


class InlineExecutor:
    name = "inline"

    def node_count(self) -> int:
        return 1

    def run(self, units: Sequence[Unit]) -> Generator[Event, None, None]:
        node = socket.gethostname()
        for unit in units:
            yield Started(unit.key, node)
            sent, before = Collected(), outbox()
            install_outbox(sent)
            try:
                value, error = unit.prepare()(), None
            except Exception as failure:  # one unit fails alone, as on any executor
                value, error = None, error_line(failure)
            finally:
                install_outbox(before)
            yield from (Message(unit.key, payload) for payload in sent.payloads)
            yield Finished(unit.key, error is None, value, error, node)

    def close(self) -> None:
        pass


@register("inline")
def inline(*, address: str | None = None, jobs: int = 0) -> InlineExecutor:
    return InlineExecutor()
