"""The toolchains SlopCodeBench's evaluation image ships, found on this machine.

SCB builds its image from ``src/slop_code/execution/docker_runtime/setup_base.docker.j2``
on top of ``ghcr.io/astral-sh/uv:python3.12-trixie-slim``
(``configs/environments/docker-python3.12-uv-artnet.yaml``): uv, Node.js
(nvm), ``build-essential`` (cc, c++) and rustup (cargo, rustc), with
``CARGO_HOME``/``RUSTUP_HOME`` under the home folder. Hidden tests that call
``uv run``, ``node`` or ``cargo build`` need them on ``PATH``.

A tool is looked for on ``PATH``, then in ``$CARGO_HOME/bin`` (``~/.cargo/bin``)
and beside the running Python (where ``pip install uv`` puts uv).
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

#: What SCB's image has, as the commands tests call.
SCB_TOOLCHAINS = ("uv", "node", "cc", "c++", "cargo", "rustc")
#: Commands that come with a toolchain: linked when found, never required.
COMPANIONS = {"uv": ("uvx",), "node": ("npm", "npx"), "cargo": ("rustup", "rustc"),
              "cc": ("gcc",),
              "c++": ("g++",)}  # fmt: skip

_SYSTEM = tuple(Path(p) for p in ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc"))


@dataclass(frozen=True)
class Toolchains:
    """The tools found (command → executable) and the homes their tests need."""

    tools: dict[str, Path]
    #: rustup's toolchains folder (mounted read-only), when cargo comes from rustup.
    rustup_home: Path | None

    def missing(self, wanted: Sequence[str]) -> list[str]:
        return [name for name in wanted if name not in self.tools]

    def folders(self) -> list[Path]:
        """The real folders of the found executables and homes, to mount read-only.

        System folders (``/usr``, ``/bin``...) are left out: a sandbox already
        has its own, and binding the host's over a container's would break it.
        """
        found = {path.resolve().parent for path in self.tools.values()}
        if self.rustup_home is not None:
            found.add(self.rustup_home.resolve())
        return sorted(p for p in found if not any(p.is_relative_to(s) for s in _SYSTEM))


def search_path(environ: Mapping[str, str]) -> list[str]:
    """``PATH``, then cargo's bin folder and the running Python's scripts folder."""
    home = Path(environ.get("HOME") or Path.home())
    cargo_home = Path(environ.get("CARGO_HOME") or home / ".cargo")
    parts = [p for p in environ.get("PATH", "").split(os.pathsep) if p]
    return [*parts, str(cargo_home / "bin"), sysconfig.get_path("scripts")]


def rustup_home(environ: Mapping[str, str]) -> Path | None:
    home = Path(environ.get("HOME") or Path.home())
    folder = Path(environ.get("RUSTUP_HOME") or home / ".rustup")
    return folder if (folder / "toolchains").is_dir() else None


def find_toolchains(
    environ: Mapping[str, str], names: Sequence[str] = SCB_TOOLCHAINS
) -> Toolchains:
    """Each of ``names`` (and its companions) that can be found, with rustup's home."""
    path = os.pathsep.join(search_path(environ))
    tools = {}
    for name in names:
        for command in (name, *COMPANIONS.get(name, ())):
            found = shutil.which(command, path=path)
            if found is not None:
                tools[command] = Path(found)
    return Toolchains(tools, rustup_home(environ) if "cargo" in tools else None)


def link_tools(toolchains: Toolchains, folder: Path) -> Path:
    """A folder of symlinks named after each tool (put on the tests' ``PATH``); its path.

    Links, not the tools' own folders, so that what else lives there (another
    Python, slopmark's scripts) stays off the tests' ``PATH``. rustup's proxies
    tell cargo from rustc by the name they are called by, which a link keeps.
    """
    folder.mkdir(parents=True, exist_ok=True)
    for name, target in toolchains.tools.items():
        (folder / name).symlink_to(target)
    return folder
