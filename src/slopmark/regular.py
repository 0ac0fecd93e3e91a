"""Reading only regular files, and only up to a size limit (adapter: the file system).

A FIFO blocks its reader until a writer comes, a character device such as
``/dev/zero`` never ends, a socket cannot be read at all. So a reader of files a
user named looks at what a name is before it opens it (`unusable` on the
``lstat`` a walk made, or the ``stat`` made here), opens it without waiting
(``O_NONBLOCK``; ``O_NOFOLLOW`` when symlinks are not followed), checks that
what it opened is still a regular file (``fstat``: a file swapped for a FIFO
after the walk is caught) and reads at most ``limit + 1`` bytes, so a file that
grew past the limit after it was looked at is refused too.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import BinaryIO

from slopmark.errors import BadInput

__all__ = ["ADVICE", "Unreadable", "not_regular", "over_limit", "read_regular",
           "read_stat", "read_text", "unusable"]  # fmt: skip

#: What a refusal tells the user to do, unless the caller knows better.
ADVICE = "pass a regular file"
_OPEN = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_OPEN |= getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISFIFO, "FIFO"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
    (stat.S_ISDIR, "folder"),
)


class Unreadable(BadInput):
    """A file that was not read: not a regular file, over the size limit, or the system
    refused it. ``reason`` says which ("not a regular file (FIFO)")."""

    def __init__(self, path: str, reason: str, advice: str = ADVICE) -> None:
        super().__init__(f"{path}: {reason}; {advice}")
        self.path = path
        self.reason = reason


def not_regular(mode: int) -> str | None:
    """Why a file of ``mode`` is not read ("not a regular file (FIFO)"); None when it is a
    regular file. A symlink's own mode (from ``lstat``) reads "symlink (not followed)"."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "symlink (not followed)"
    kind = next((name for test, name in _KINDS if test(mode)), "unknown kind")
    return f"not a regular file ({kind})"


def over_limit(size: int, limit: int) -> str:
    """``"12.3 MiB is over the 10 MiB limit"``."""
    return f"{_size(size)} is over the {_size(limit)} limit"


def _size(count: int) -> str:
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{round(count / scale, 1):g} {unit}"
    return f"{count} bytes"


def unusable(found: os.stat_result, limit: int) -> str | None:
    """Why a file a walk found (its ``lstat`` or ``stat``) is not read; None when it is."""
    if reason := not_regular(found.st_mode):
        return reason
    return over_limit(found.st_size, limit) if found.st_size > limit else None


def read_stat(
    path: str | os.PathLike[str], limit: int, *, follow: bool = True, advice: str = ADVICE
) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file ``path`` (at most ``limit``) and its ``fstat``.

    `Unreadable` when it is not a regular file (with ``follow`` False: a symlink too), is
    over ``limit`` bytes, or cannot be opened; a FIFO or a device is never read from."""
    name = os.fspath(path)
    try:
        _refuse(name, (os.stat if follow else os.lstat)(name), limit, advice)
        descriptor = os.open(name, _OPEN | (0 if follow else _NOFOLLOW))
    except OSError as error:
        raise Unreadable(name, f"unreadable: {error.strerror or error}", advice) from error
    with os.fdopen(descriptor, "rb") as handle:
        found = os.fstat(descriptor)
        _refuse(name, found, limit, advice)
        try:
            data = _read_bounded(handle, found.st_size, limit)
        except OSError as error:
            raise Unreadable(name, f"unreadable: {error.strerror or error}", advice) from error
    if len(data) > limit:
        raise Unreadable(name, over_limit(len(data), limit), advice)
    return data, found


def read_regular(
    path: str | os.PathLike[str], limit: int, *, follow: bool = True, advice: str = ADVICE
) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` (see `read_stat`)."""
    return read_stat(path, limit, follow=follow, advice=advice)[0]


def read_text(
    path: str | os.PathLike[str], limit: int, *, follow: bool = True, advice: str = ADVICE
) -> str:
    """The UTF-8 text of the regular file ``path`` (`Unreadable` when it is not UTF-8)."""
    data = read_regular(path, limit, follow=follow, advice=advice)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Unreadable(os.fspath(path), f"not UTF-8 text ({error.reason} at byte "
                         f"{error.start})", advice) from error  # fmt: skip


def _read_bounded(handle: BinaryIO, size: int, limit: int) -> bytes:
    """At most ``limit + 1`` bytes; a buffer of the file's size (not the limit's) first."""
    data = handle.read(min(size, limit) + 1)
    if len(data) <= size:
        return data
    return data + handle.read(limit + 1 - len(data))  # it grew since it was looked at


def _refuse(name: str, found: os.stat_result, limit: int, advice: str) -> None:
    if reason := unusable(found, limit):
        raise Unreadable(name, reason, advice)
