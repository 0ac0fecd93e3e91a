"""Keeping reads inside the folder a user named.

Every path a user names is a root: an ``\\input``, a figure, a spec file or a
symlink found under it is read only when it resolves (symlinks followed,
``..`` folded) to a place inside that root. A name that leaves is refused
before the file system is asked whether it exists, so a refusal tells
nothing about what lies outside.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["inside"]


def inside(root: Path, path: Path) -> bool:
    """Whether ``path`` lies in ``root`` once both are resolved (a symlink loop: no)."""
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte, no access
        return False
