"""Checks of what a caller asks a sandbox to mount, shared by every backend."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from slopmark.errors import BadInput
from slopmark.sandbox.base import Mount


def check_layout(workdir: Path, mounts: Sequence[Mount]) -> None:
    """BadInput unless every mount is an existing absolute path and ``workdir`` lies in one."""
    for mount in mounts:
        _check_mount(mount)
    if not workdir.is_absolute():
        raise BadInput(f"sandbox workdir '{workdir}' is relative; pass an absolute path")
    if not any(workdir.is_relative_to(mount.path) for mount in mounts):
        raise BadInput(
            f"sandbox workdir '{workdir}' is not inside any mount "
            f"({', '.join(str(mount.path) for mount in mounts) or 'none given'}); mount it"
        )
    if not workdir.is_dir():
        raise BadInput(f"sandbox workdir '{workdir}' is not a folder; create it first")


def _check_mount(mount: Mount) -> None:
    if not mount.path.is_absolute():
        raise BadInput(f"sandbox mount '{mount.path}' is relative; pass an absolute path")
    if not mount.path.exists():
        raise BadInput(f"sandbox mount '{mount.path}' does not exist; create it first")


def nested_last(mounts: Sequence[Mount]) -> list[Mount]:
    """``mounts`` with outer folders first, so a mount inside another one stays visible
    (a hidden path before a mount of the same path)."""
    return sorted(mounts, key=lambda mount: (len(mount.path.parts), not mount.hidden))
