"""The agent's log of a stored bench checkpoint (`schema.bench_logs`), bounded.

The files an agent writes in its log folder (``prompt.md``, ``command.sh``,
``agent.stdout``/``agent.stderr``, a session agent's transcript) are kept with
the checkpoint so the chain page can show them after the run folder is gone:
at most `MAX_FILES` regular files of the folder itself (sorted by name), each
cut to its first `HEAD_BYTES` and last `TAIL_BYTES` when bigger, saying how
many bytes it had. Text is decoded as UTF-8, bad bytes replaced.
"""

from __future__ import annotations

import os
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, delete, insert, select

from slopmark.store.schema import bench_logs

__all__ = ["log_files", "read_log", "store_log"]

MAX_FILES = 8
HEAD_BYTES = 16 * 1024
TAIL_BYTES = 48 * 1024


def _decoded(data: bytes) -> str:
    """UTF-8 text, bad bytes and NULs (which PostgreSQL's JSON refuses) replaced."""
    return data.decode("utf-8", errors="replace").replace("\0", "\ufffd")


def _text(path: Path, size: int) -> str:
    """The file's text, its middle left out (and said so) when over the bound."""
    with path.open("rb") as handle:
        if size <= HEAD_BYTES + TAIL_BYTES:
            return _decoded(handle.read())
        head = handle.read(HEAD_BYTES)
        handle.seek(size - TAIL_BYTES)
        tail = handle.read(TAIL_BYTES)
    left_out = size - HEAD_BYTES - TAIL_BYTES
    return f"{_decoded(head)}\n[… {left_out} bytes left out …]\n{_decoded(tail)}"


def _regular(path: Path) -> int | None:
    """The size of ``path`` when it is a regular file (a link is not followed), else None."""
    try:
        found = os.lstat(path)
    except OSError:
        return None
    return found.st_size if stat.S_ISREG(found.st_mode) else None


def log_files(folder: Path) -> list[dict[str, Any]]:
    """The log folder's files as stored: name, bytes, whether cut, text."""
    if not folder.is_dir() or folder.is_symlink():
        return []
    found = []
    for path in sorted(folder.iterdir(), key=lambda item: item.name):
        size = _regular(path)
        if size is not None:
            cut = size > HEAD_BYTES + TAIL_BYTES
            found.append({"name": path.name, "bytes": size, "cut": cut, "text": _text(path, size)})
        if len(found) == MAX_FILES:
            break
    return found


def store_log(engine: Engine, run_id: int, files: list[dict[str, Any]]) -> None:
    """Keep ``files`` as the log of the checkpoint stored as run ``run_id`` (replacing any)."""
    row = {"run_id": run_id, "files": files, "created_at": datetime.now(UTC)}
    with engine.begin() as connection:
        connection.execute(delete(bench_logs).where(bench_logs.c.run_id == run_id))
        connection.execute(insert(bench_logs).values(row))


def read_log(engine: Engine, run_id: int) -> list[dict[str, Any]] | None:
    """The stored log of run ``run_id``; None when none was stored."""
    query = select(bench_logs.c.files).where(bench_logs.c.run_id == run_id)
    with engine.connect() as connection:
        files = connection.execute(query).scalar_one_or_none()
    return None if files is None else list(files)
