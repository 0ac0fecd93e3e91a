"""Folders a unit made on its worker, carried to the driver's run folder (and back).

A `Parcel` holds some top-level entries of one folder as a gzipped tar. The
driver unpacks it under its own root: each entry replaces what was there, and
is moved into place only once fully written, so a folder never appears half
copied (a bench checkpoint's ``result.json`` only with the rest). Members are
filtered like Python's ``data`` tar filter (no absolute paths, nothing outside
the target, no devices; links pointing outside are dropped), since a workspace
holds whatever an agent wrote.
"""

from __future__ import annotations

import io
import shutil
import tarfile
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from slopmark.errors import BadInput


@dataclass(frozen=True)
class Parcel:
    """Entries for the folder ``into`` (relative to the receiver's root)."""

    into: str
    data: bytes


def pack(folder: Path, names: Iterable[str]) -> bytes:
    """A gzipped tar of ``folder/name`` for each name that exists (stored as ``name``)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as archive:
        for name in names:
            if (folder / name).exists() or (folder / name).is_symlink():
                archive.add(folder / name, arcname=name)
    return buffer.getvalue()


def _safe(member: tarfile.TarInfo, destination: str) -> tarfile.TarInfo | None:
    try:
        return tarfile.data_filter(member, destination)
    except tarfile.FilterError:
        return None  # dropped: it would land outside, or is not a plain file, folder or link


def _inside(root: Path, into: str) -> Path:
    relative = PurePosixPath(into)
    if relative.is_absolute() or ".." in relative.parts:
        raise BadInput(f"parcel for {into!r}: not a folder inside the run folder")
    return root / relative


def unpack(data: bytes, root: Path, into: str) -> list[str]:
    """Put the parcel's entries under ``root/into``, each replacing its old copy; their names."""
    target = _inside(root, into)
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".incoming-", dir=target) as scratch:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            archive.extractall(scratch, filter=_safe)
        names = sorted(entry.name for entry in Path(scratch).iterdir())
        for name in names:
            _replace(Path(scratch) / name, target / name)
    return names


def _replace(new: Path, old: Path) -> None:
    if old.is_dir() and not old.is_symlink():
        shutil.rmtree(old)
    elif old.exists() or old.is_symlink():
        old.unlink()
    new.rename(old)
