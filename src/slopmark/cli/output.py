"""Output shared by every command: JSON for machines, and files a user names with an option.

An output file is checked before the work starts (`output_file`), so a typo in
``--sarif`` or ``--out`` costs nothing, and written with `write_file`, which
turns a failed write into one `BadInput` line naming the option.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from slopmark.errors import BadInput


def dumps(data: Any) -> str:
    """JSON text: indented for a person at a terminal, compact (and fast) for a pipe."""
    if sys.stdout.isatty():
        return json.dumps(data, indent=1)
    return json.dumps(data, separators=(",", ":"))


def print_json(data: Any) -> None:
    print(dumps(data))


def _where(option: str, path: Path) -> str:
    return f"{option} {str(path)!r}"


def output_file(path: Path, option: str) -> Path:
    """``path`` when a file can be written there: not a folder, in a folder that exists."""
    if path.is_dir():
        raise BadInput(f"{_where(option, path)}: is a folder; give a file name inside it")
    folder = path.absolute().parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise BadInput(f"{_where(option, path)}: {folder} {what}; create the folder first")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise BadInput(f"{_where(option, path)}: not writable (permission denied)")
    return path


def output_folder(path: Path, option: str) -> Path:
    """``path`` made absolute when it is a folder or can become one (its parents are made)."""
    folder = path.absolute()
    for part in (folder, *folder.parents):
        if part.exists() and not part.is_dir():
            raise BadInput(f"{_where(option, path)}: {part} is a file; give a folder")
        if part.exists():
            break
    return folder


def write_file(path: Path, chunks: str | Iterable[str], option: str) -> None:
    """Write text (or text chunks, as they come) to ``path``; a failure is one `BadInput`."""
    try:
        with path.open("w", encoding="utf-8", newline="") as handle:
            handle.writelines([chunks] if isinstance(chunks, str) else chunks)
    except OSError as error:
        reason = error.strerror or str(error)
        raise BadInput(f"{_where(option, path)}: cannot write it: {reason}") from error
