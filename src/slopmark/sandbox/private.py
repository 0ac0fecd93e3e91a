"""What no sandboxed command may read: home folders and credential files of the host.

The bubblewrap backend shows the host's root file system read-only, and its
uid inside is the caller's uid outside, so without this a command could read
whatever the caller can: ``~/.ssh/id_rsa``, cloud and registry tokens, the
password hashes. Every sandbox therefore replaces, before anything else is
mounted:

- every home folder: ``/root``, ``/home`` and the caller's ``$HOME``
  (wherever it is), with empty folders;
- credential files outside homes: ``/etc/shadow``, ``/etc/gshadow`` (and
  their ``-`` backups), ``/etc/sudoers``, ``/etc/sudoers.d`` and the SSH host
  keys ``/etc/ssh/ssh_host_*_key``, with empty ones.

What a command needs from inside a home comes back read-only, by name: the
harness's own interpreter and environments (`bwrap.harness_paths`), the
evaluation's Python and toolchains (the hidden tests' mounts), and for agent
CLIs the tools on their ``PATH`` (`tool_roots`). Credential files inside those
tool folders (`TOOL_SECRETS`) stay hidden.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from slopmark.sandbox.base import Mount

#: Folders holding users' homes.
HOMES = (Path("/root"), Path("/home"))
#: Credential files outside the homes (globs).
CREDENTIALS = (
    "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/sudoers",
    "/etc/sudoers.d", "/etc/ssh/ssh_host_*_key",
)  # fmt: skip
#: Files inside a tool folder of a home that hold a login or a token.
TOOL_SECRETS = (
    ".cargo/credentials", ".cargo/credentials.toml", ".local/share/keyrings",
    ".local/share/gnupg", ".pyenv/.netrc", ".npm/_authToken",
)  # fmt: skip
#: Folders that are never a home to hide (hiding them would hide the system).
_NOT_HOMES = frozenset(Path(p) for p in ("/", "/usr", "/etc", "/var", "/opt", "/tmp", "/srv"))


def _home(environ: Mapping[str, str]) -> Path | None:
    value = environ.get("HOME")
    if not value:
        return None
    home = Path(value).resolve()
    return None if home in _NOT_HOMES or any(home.is_relative_to(h) for h in HOMES) else home


def private_paths(environ: Mapping[str, str] = os.environ) -> list[Path]:
    """The host's home folders and credential files that exist here, outer first."""
    found = [path for path in HOMES if path.is_dir()]
    home = _home(environ)
    if home is not None and home.is_dir():
        found.append(home)
    for pattern in CREDENTIALS:
        found.extend(Path(match) for match in sorted(glob.glob(pattern)))
    return found


def is_private(path: Path, private: Iterable[Path]) -> bool:
    """Whether ``path`` lies in (or is) one of the ``private`` paths."""
    return any(path.is_relative_to(folder) for folder in private)


def tool_roots(search_path: str, private: list[Path]) -> list[Path]:
    """The tool folders of a home that a ``PATH`` reaches: for each entry inside a
    private folder, that home's first-level folder holding it (``~/.pyenv`` for
    ``~/.pyenv/shims``, ``~/.cargo`` for ``~/.cargo/bin``), so a CLI installed
    there still runs; the home itself is never returned."""
    roots = []
    for entry in filter(None, search_path.split(os.pathsep)):
        folder = Path(entry)
        if not folder.is_absolute() or not folder.is_dir():
            continue
        folder = folder.resolve()
        for home in _homes_of(folder, private):
            parts = folder.relative_to(home).parts
            if parts:
                roots.append(home / parts[0])
    return sorted(set(roots))


def _homes_of(folder: Path, private: list[Path]) -> list[Path]:
    """The homes ``folder`` lies in: ``/root``, a user's folder under ``/home``, ``$HOME``."""
    homes = []
    for base in private:
        if not folder.is_relative_to(base) or not base.is_dir():
            continue
        if base == Path("/home") and len(folder.relative_to(base).parts) > 1:
            homes.append(base / folder.relative_to(base).parts[0])
        elif base != Path("/home"):
            homes.append(base)
    return homes


def tool_secrets(roots: Iterable[Path]) -> list[Path]:
    """The credential files (`TOOL_SECRETS`) inside the homes of ``roots``, that exist."""
    found = []
    for root in roots:
        home = root.parent
        for name in TOOL_SECRETS:
            candidate = home / name
            if candidate.is_relative_to(root) and candidate.exists():
                found.append(candidate)
    return found


def path_tools(search_path: str) -> list[Mount]:
    """Read-only mounts of the tool folders ``search_path`` reaches inside the homes
    (`tool_roots`), with their credential files hidden again (`tool_secrets`)."""
    roots = tool_roots(search_path, private_paths())
    return [Mount(root) for root in roots] + [
        Mount(secret, hidden=True) for secret in tool_secrets(roots)
    ]


def hidden_mounts(paths: Iterable[Path]) -> list[Mount]:
    """Hidden mounts of ``paths`` (those that exist)."""
    return [Mount(path, hidden=True) for path in paths if path.exists()]
