"""The two Python environments of a checkpoint's test run.

- The **test environment** holds pytest, the plugins the public problems rely
  on and the problem's ``test_dependencies``. It lives outside every
  workspace, is built once per set of requirements and cached.
- The **workspace environment** holds what the agent's ``requirements.txt``
  asks for. It is built in a sandbox that may reach the package index, and
  mounted read-only when the tests run with the network off.

Both are made from the evaluation's interpreter (see `profiles`), and their
cache keys include its version and path, so a 3.11 and a 3.12 environment
never mix.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

from slopmark.code.bench.pythons import Interpreter
from slopmark.code.bench.testrun import read_regular
from slopmark.errors import EngineError
from slopmark.sandbox.base import Limits, Mount, Sandbox
from slopmark.sandbox.private import hidden_mounts

#: What every hidden test session may import (the public problems use these).
BASE_TEST_REQUIREMENTS = ("pytest>=8", "pytest-timeout>=2", "jsonschema>=4", "deepdiff>=6")

INSTALL_LIMITS = Limits(wall_s=900.0, memory_mb=4096, max_procs=256, network=True)


def cache_root() -> Path:
    """``$SLOPMARK_CACHE``, else ``$XDG_CACHE_HOME/slopmark/bench`` (``~/.cache`` by default)."""
    explicit = os.environ.get("SLOPMARK_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "slopmark" / "bench"


def _digest(lines: Sequence[str]) -> str:
    return hashlib.blake2b("\n".join(lines).encode(), digest_size=8).hexdigest()


def _create_venv(path: Path, with_pip: bool, python: Interpreter) -> None:
    command = [str(python.executable), "-m", "venv", str(path)]
    if not with_pip:
        command.insert(3, "--without-pip")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise EngineError(
            f"could not create a virtual environment at {path}: {done.stderr.strip()}"
        )


def _interpreter_key(python: Interpreter) -> list[str]:
    return [f"python={python.version}", f"executable={python.executable}"]


def hidden_test_environment(
    test_dependencies: Sequence[str], python: Interpreter, root: Path | None = None
) -> Path:
    """A cached virtual environment of ``python`` with pytest and ``test_dependencies``.

    Built once per interpreter and set of requirements (under a lock, so
    parallel runs share it).
    """
    requirements = sorted({*BASE_TEST_REQUIREMENTS, *test_dependencies})
    key = _digest([*_interpreter_key(python), *requirements])
    env = (root or cache_root()) / f"test-env-{python.version}-{key}"
    with _building(env) as missing:
        if missing:
            _build_test_environment(env, requirements, python)
    return env


@contextlib.contextmanager
def _building(env: Path) -> Iterator[bool]:
    """Hold ``env``'s build lock (parallel problems share environments); yield whether it
    still has to be built. A finished environment is marked by its ``.complete`` file."""
    if (env / ".complete").is_file():
        yield False
        return
    env.parent.mkdir(parents=True, exist_ok=True)
    with open(env.with_name(env.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield not (env / ".complete").is_file()


def _build_test_environment(env: Path, requirements: Sequence[str], python: Interpreter) -> None:
    shutil.rmtree(env, ignore_errors=True)
    _create_venv(env, with_pip=True, python=python)
    done = subprocess.run(
        [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet",
         "--disable-pip-version-check", *requirements],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise EngineError(
            f"could not install the test environment ({', '.join(requirements)}): "
            f"{_last_line(done.stderr)}; check the network or the names in test_dependencies"
        )
    (env / ".complete").write_text("\n".join(requirements) + "\n")


#: A requirements.txt longer than this is not read (nor installed).
MAX_REQUIREMENTS_BYTES = 1024 * 1024


def requirement_lines(workspace: Path) -> list[str]:
    """The workspace's requirements.txt without comments and blank lines (read only when
    it is a regular file: a link the agent left there is not followed)."""
    data = read_regular(workspace / "requirements.txt", MAX_REQUIREMENTS_BYTES)
    text = data.decode("utf-8", errors="replace")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line]


def index_args(wheelhouse: Path | None) -> list[str]:
    """pip's and uv's options to install from ``wheelhouse`` alone (none: the default index)."""
    return [] if wheelhouse is None else ["--no-index", "--find-links", str(wheelhouse)]


def source_mounts(wheelhouse: Path | None) -> list[Mount]:
    """The wheelhouse, read-only, for an install sandbox (none: nothing to mount)."""
    return [] if wheelhouse is None else [Mount(wheelhouse)]


def workspace_environment(
    workspace: Path,
    envs: Path,
    sandbox: Sandbox,
    python: Interpreter,
    hidden: Sequence[Path] = (),
    wheelhouse: Path | None = None,
) -> tuple[Path, str | None]:
    """The environment of the workspace's requirements (cached in ``envs``) and an error, if any.

    With no requirements this is a bare venv of ``python``. Installing runs in
    ``sandbox`` with the network on and the workspace read-only (from
    ``wheelhouse`` alone when given); a failed install is the submission's
    error (its requirements cannot be installed), reported back.
    """
    requirements = requirement_lines(workspace)
    key = _digest([*_interpreter_key(python), *requirements, *index_args(wheelhouse)])
    env = envs / f"ws-env-{python.version}-{key}"
    with _building(env) as missing:
        if not missing:
            return env, None
        setting = (sandbox, python, hidden, wheelhouse)
        return env, _build_workspace_environment(env, workspace, requirements, setting)


def _build_workspace_environment(
    env: Path,
    workspace: Path,
    requirements: Sequence[str],
    setting: tuple[Sandbox, Interpreter, Sequence[Path], Path | None],
) -> str | None:
    sandbox, python, hidden, wheelhouse = setting
    shutil.rmtree(env, ignore_errors=True)
    _create_venv(env, with_pip=bool(requirements), python=python)
    if requirements:
        listed = env / "requirements.txt"  # the lines read, not a file the agent controls
        listed.write_text("\n".join(requirements) + "\n", encoding="utf-8")
        done = sandbox.run(
            [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet",
             "--disable-pip-version-check", *index_args(wheelhouse), "-r", str(listed)],
            workdir=workspace,
            mounts=[*hidden_mounts(hidden), Mount(workspace), Mount(env, writable=True),
                    Mount(python.prefix), *source_mounts(wheelhouse)],
            limits=INSTALL_LIMITS,
            env={"PATH": f"{env / 'bin'}:/usr/bin:/bin", "HOME": str(env), "PIP_NO_CACHE_DIR": "1"},
        )  # fmt: skip
        if not done.ok:
            why = done.limit or _last_line(done.stderr)
            return f"pip could not install requirements.txt: {why}"
    (env / ".complete").write_text("\n".join(requirements) + "\n")
    return None


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no output"
