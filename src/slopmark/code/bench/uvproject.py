"""SlopCodeBench's entry-point convention: the submission run by ``uv run`` in a project.

SCB's evaluation environment (``configs/environments/docker-python3.12-uv-artnet.yaml``)
runs ``uv init`` and ``uv add -r requirements.txt`` in the workspace before
the tests and hands them ``--entrypoint='uv run main.py'``. With
``--entrypoint-style uv`` (or a problem's ``evaluation: {entrypoint: uv}``)
slopmark does the same, in three steps kept apart from the agent's work:

- **the project** is made beside the snapshot, in the run's ``envs/`` folder,
  never in the workspace, so the snapshot that is measured and kept is the
  one the agent left: ``uv init --bare`` (a ``pyproject.toml`` named
  ``workspace``, like SCB's ``/workspace``), then ``uv add -r`` of the
  workspace's requirement lines (``uv sync`` when there are none);
- **the install** runs in the sandbox with the network on (or from
  ``--wheelhouse`` alone), with the evaluation's interpreter (``UV_PYTHON``),
  no Python downloads, no uv configuration files, and uv's cache inside the
  project folder, removed once the environment is made; projects are cached
  per interpreter, uv, requirements and wheelhouse, like the workspace venv;
- **the tests** start ``uv run --project P --offline --no-sync --no-config
  <workspace>/<entry>`` (`testlayout.entry_point`): the project's environment
  is used as it was built, nothing is resolved or fetched (no network is
  needed during tests), and a ``uv.toml`` the submission wrote configures
  nothing.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from slopmark.code.bench.envs import (
    INSTALL_LIMITS,
    _building,
    _digest,
    _interpreter_key,
    index_args,
    requirement_lines,
    source_mounts,
    workspace_environment,
)
from slopmark.code.bench.profiles import EvalEnvironment
from slopmark.code.bench.toolchains import Toolchains
from slopmark.sandbox.base import Execution, Mount, Sandbox
from slopmark.sandbox.private import hidden_mounts

#: The project's name: SCB's project is its workspace folder, ``/workspace``.
PROJECT_NAME = "workspace"
#: How the lines of uv's report of a failure start (without a terminal).
_REPORT = ("error:", "cause:")


def entry_environment(
    workspace: Path,
    envs: Path,
    sandbox: Sandbox,
    environment: EvalEnvironment,
    hidden: Sequence[Path] = (),
) -> tuple[Path, str | None]:
    """The environment the entry point runs in (cached in ``envs``) and an install error, if
    any: the workspace venv, or the environment of a uv project under the uv convention."""
    uv = environment.uv_entry
    if uv is None:
        return workspace_environment(
            workspace, envs, sandbox, environment.interpreter, hidden, environment.wheelhouse
        )
    requirements = requirement_lines(workspace)
    python = environment.interpreter
    key = [*_interpreter_key(python), f"uv={uv}", *requirements,
           *index_args(environment.wheelhouse)]  # fmt: skip
    project = envs / f"uv-project-{python.version}-{_digest(key)}"
    with _building(project) as missing:
        error = _build(project, requirements, sandbox, environment, hidden) if missing else None
    return project / ".venv", error


def _commands(uv: Path, project: Path, requirements: Sequence[str], wheelhouse: Path | None
              ) -> list[list[str]]:  # fmt: skip
    """The uv commands that make the project and its environment (the requirement lines
    they add are written into the project folder first)."""
    init = [str(uv), "init", "--bare", "--no-workspace", "--no-config", "--name", PROJECT_NAME]
    if not requirements:
        return [init, [str(uv), "sync", "--no-config"]]
    listed = project / "requirements.txt"  # the lines read, not a file the agent controls
    listed.write_text("\n".join(requirements) + "\n", encoding="utf-8")
    return [init, [str(uv), "add", "--no-config", *index_args(wheelhouse), "-r", str(listed)]]


def _build(
    project: Path,
    requirements: Sequence[str],
    sandbox: Sandbox,
    environment: EvalEnvironment,
    hidden: Sequence[Path],
) -> str | None:
    """Make the project and its environment in ``sandbox``; the failure's reason, if any."""
    uv = environment.toolchains.tools["uv"]
    shutil.rmtree(project, ignore_errors=True)
    cache = project / ".uv-cache"
    cache.mkdir(parents=True)
    tools = Toolchains({"uv": uv}, None).folders()
    mounts = [*hidden_mounts(hidden), Mount(project, writable=True),
              Mount(environment.interpreter.prefix), *(Mount(path) for path in tools),
              *source_mounts(environment.wheelhouse)]  # fmt: skip
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cache), "UV_CACHE_DIR": str(cache),
           "UV_PYTHON": str(environment.interpreter.executable),
           "UV_PYTHON_DOWNLOADS": "never", "UV_NO_PROGRESS": "1"}  # fmt: skip
    try:
        for command in _commands(uv, project, requirements, environment.wheelhouse):
            done = sandbox.run(command, workdir=project, mounts=mounts, limits=INSTALL_LIMITS,
                               env=env)  # fmt: skip
            if not done.ok:
                return _install_error(command[1], done)
    finally:
        shutil.rmtree(cache, ignore_errors=True)  # the environment holds its own links or copies
    (project / ".complete").write_text("\n".join(requirements) + "\n")
    return None


def _install_error(verb: str, done: Execution) -> str:
    """The submission's error when ``uv VERB`` failed: the limit it hit, else uv's reason."""
    why = done.limit or failure_reason(done.stderr)
    return f"`uv {verb}` could not install requirements.txt: {why}"


def failure_reason(stderr: str) -> str:
    """uv's account of a failure on one line: its ``error:`` and each ``cause:``, outermost
    first (its hints and progress lines left out); else its last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    parts = [line.split(":", 1)[1].strip() for line in lines if line.startswith(_REPORT)]
    reason = ": ".join(parts) or (lines[-1] if lines else "no output")
    return reason[:1000]
