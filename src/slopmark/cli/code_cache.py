"""The content cache as the code commands open it (``--no-cache``, ``$SLOPMARK_CACHE``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from slopmark.code.measure.cache.store import ResultCache


def open_cache(no_cache: bool) -> ResultCache | None:
    """The user's cache folder, or None with ``--no-cache``."""
    if no_cache:
        return None
    from slopmark.code.measure.cache.store import ResultCache, default_location

    return ResultCache(default_location())


def close_cache(cache: ResultCache | None) -> None:
    """Write what is pending and say, in one line each, if the cache was off or renewed."""
    if cache is None:
        return
    cache.close()
    if cache.reopened:
        print(f"slopmark: note: {cache.reopened}", file=sys.stderr)
    if cache.off:
        print(
            f"slopmark: note: cache off ({cache.off}); results were measured without it",
            file=sys.stderr,
        )
