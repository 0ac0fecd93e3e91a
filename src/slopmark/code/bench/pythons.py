"""Find a Python interpreter of a given minor version on this machine.

Hidden tests run under the Python the evaluation asks for (SlopCodeBench
evaluates in a Python 3.12 image), not under slopmark's own. Candidates are
looked for, in order, in pyenv's versions (``$PYENV_ROOT/versions/X.Y.*``,
newest patch first), as ``pythonX.Y`` on ``PATH`` (pyenv shims included) and
by ``uv python find X.Y``. Each candidate is asked for its version and its
real executable, so a shim that cannot run that version is skipped.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from slopmark.errors import BadInput

_VERSION = re.compile(r"\d+\.\d+")
_PROBE = (
    "import sys; print('%d.%d' % sys.version_info[:2]); print(sys.executable); "
    "print(sys.base_prefix)"
)


@dataclass(frozen=True)
class Interpreter:
    """A Python interpreter: its minor version, real executable and installation prefix."""

    version: str
    executable: Path
    prefix: Path


@dataclass(frozen=True)
class PythonSearch:
    """Where interpreters are looked for (see the module docstring)."""

    pyenv_root: Path | None
    path: tuple[Path, ...]
    uv: Path | None = None

    @classmethod
    def of_environment(cls, environ: Mapping[str, str], uv: Path | None) -> PythonSearch:
        home = Path(environ.get("HOME") or Path.home())
        root = Path(environ["PYENV_ROOT"]) if environ.get("PYENV_ROOT") else home / ".pyenv"
        dirs = tuple(Path(part) for part in environ.get("PATH", "").split(os.pathsep) if part)
        return cls(root, dirs, uv)

    def describe(self, version: str) -> str:
        places = [f"python{version} on PATH"]
        if self.pyenv_root is not None:
            places.insert(0, f"{self.pyenv_root}/versions/{version}.*")
        if self.uv is not None:
            places.append(f"`uv python find {version}`")
        return ", ".join(places)


def check_version(text: str, where: str) -> str:
    """``text`` when it is a minor version like ``3.12``; BadInput naming ``where`` otherwise."""
    if _VERSION.fullmatch(text.strip()) is None:
        raise BadInput(f"{where}: Python version {text!r} is not of the form X.Y (e.g. 3.12)")
    return text.strip()


@functools.cache
def probe(executable: Path) -> Interpreter | None:
    """Ask ``executable`` for its version, real path and prefix; None when it does not answer."""
    try:
        done = subprocess.run(
            [str(executable), "-I", "-c", _PROBE],
            capture_output=True, text=True, timeout=30, check=False, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = done.stdout.split("\n")
    if done.returncode != 0 or len(lines) < 3 or _VERSION.fullmatch(lines[0]) is None:
        return None
    return Interpreter(lines[0], Path(lines[1]), Path(lines[2]))


def _pyenv_candidates(root: Path | None, version: str) -> list[Path]:
    versions = root / "versions" if root is not None else None
    if versions is None or not versions.is_dir():
        return []
    found = [p for p in versions.iterdir() if re.fullmatch(rf"{re.escape(version)}\.\d+", p.name)]
    found.sort(key=lambda p: int(p.name.rsplit(".", 1)[1]), reverse=True)
    return [p / "bin" / f"python{version}" for p in found]


def _uv_candidate(uv: Path | None, version: str) -> list[Path]:
    if uv is None:
        return []
    try:
        done = subprocess.run(
            [str(uv), "python", "find", version], capture_output=True, text=True, timeout=60,
            check=False, cwd="/", env={**os.environ, "UV_PYTHON_DOWNLOADS": "never"},
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return []
    line = done.stdout.strip()
    return [Path(line)] if done.returncode == 0 and line else []


def candidates(search: PythonSearch, version: str) -> Iterator[Path]:
    """Every place an interpreter of ``version`` may be, in the order they are tried."""
    yield from _pyenv_candidates(search.pyenv_root, version)
    yield from (folder / f"python{version}" for folder in search.path)
    yield from _uv_candidate(search.uv, version)


def find_python(search: PythonSearch, version: str) -> Interpreter | None:
    """The first interpreter of minor ``version`` (see `candidates`), or None."""
    for candidate in candidates(search, version):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            found = probe(candidate)
            if found is not None and found.version == version:
                return found
    return None


def interpreter_at(path: str) -> Interpreter | None:
    """The interpreter a user named by path (``--python /opt/py/bin/python3``)."""
    return probe(Path(path).expanduser().absolute())


def pick(search: PythonSearch, wanted: str) -> Interpreter | None:
    """``wanted`` is a version (``3.12``) or an interpreter's path."""
    if "/" in wanted:
        return interpreter_at(wanted)
    return find_python(search, wanted)
