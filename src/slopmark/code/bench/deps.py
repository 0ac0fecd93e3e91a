"""The dependency phase of a test session: what the workspace declares, fetched online.

SlopCodeBench's evaluator runs the hidden tests with the network on, so a test
that builds the submission's Rust or JavaScript code fetches its crates or
packages as it goes. slopmark runs the tests with the network off; this phase
runs just before them, in the same session (the same copy of the workspace,
the same home, so the same ``CARGO_HOME``), with the network on, and fetches
what the workspace's manifests declare:

- ``Cargo.toml`` → ``cargo fetch`` (crates into the session's ``CARGO_HOME``;
  the tests then run cargo offline, ``CARGO_NET_OFFLINE``);
- ``package.json`` → ``npm ci`` beside a ``package-lock.json`` or
  ``npm-shrinkwrap.json``, ``npm install`` without one (``node_modules`` in
  the workspace's copy).

Python requirements are installed before any session (`envs`). Manifests are
looked for in the workspace and up to `MAX_DEPTH` folders down (not in
``node_modules``, ``target`` or hidden folders); each is read only as a
regular file. The hidden tests and the harness's files are hidden from this
phase: it runs what the submission declares, with the network on.

No code of the submission runs in this phase: ``cargo fetch`` builds nothing
and npm is told to ignore every package's scripts (``--ignore-scripts``).

A step is the environment's error (the checkpoint gets no verdict) when its
sandbox did not start, or when it could not reach its source or a limit
stopped it *and* the evaluator's own probe of its registries fails too
(`probe`): the manifest and the workspace's configuration are the
submission's, so a source they name that never answers is the submission's
failure. Any other failed step (a crate that does not exist, a broken
manifest, an unreachable source while the registries answer) is the
submission's: it is recorded with the checkpoint and the tests run all the
same — under SCB they would have failed the same way when they needed what was
missing.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.bench.network import unreachable
from slopmark.code.bench.probe import Probe, registries_answer
from slopmark.code.bench.profiles import EvalEnvironment
from slopmark.code.bench.results import SetupStep
from slopmark.code.bench.testlayout import SYSTEM_PATH, Session, toolchain_variables
from slopmark.sandbox.base import Execution, Limits, Mount, Sandbox
from slopmark.sandbox.private import hidden_mounts

#: How far below the workspace a manifest is looked for.
MAX_DEPTH = 3
#: At most this many manifests are fetched (a workspace of vendored projects stops there).
MAX_MANIFESTS = 8
#: Folders never searched: fetched or built output, version control, environments.
SKIPPED = frozenset({"node_modules", "target", "__pycache__", "venv", "build", "dist"})
LOCKFILES = ("package-lock.json", "npm-shrinkwrap.json")
FETCH_LIMITS = Limits(wall_s=900.0, memory_mb=4096, max_procs=256, network=True)


@dataclass(frozen=True)
class Fetch:
    """One command to run: its argv, the tool it needs and the manifest it reads."""

    argv: tuple[str, ...]
    tool: str
    manifest: Path


@dataclass(frozen=True)
class Setup:
    """What the phase did, and an environment error when the network could not be reached."""

    steps: tuple[SetupStep, ...]
    env_error: str | None = None


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _folders(workspace: Path) -> Iterator[Path]:
    """The workspace and its folders down to `MAX_DEPTH`, in a stable order."""
    for top, names, _ in os.walk(workspace):
        depth = len(Path(top).relative_to(workspace).parts)
        names[:] = sorted(
            name for name in names
            if depth < MAX_DEPTH and not name.startswith(".") and name not in SKIPPED
        )  # fmt: skip
        yield Path(top)


def _fetch_of(folder: Path) -> Fetch | None:
    if _regular(folder / "Cargo.toml"):
        return Fetch(("cargo", "fetch"), "cargo", folder / "Cargo.toml")
    if _regular(folder / "package.json"):
        locked = any(_regular(folder / name) for name in LOCKFILES)
        verb = ("ci",) if locked else ("install",)
        argv = ("npm", *verb, "--ignore-scripts", "--no-audit", "--no-fund")
        return Fetch(argv, "npm", folder / "package.json")
    return None


def fetches(workspace: Path) -> list[Fetch]:
    """The commands that fetch what ``workspace`` declares (at most `MAX_MANIFESTS`)."""
    found = []
    for folder in _folders(workspace):
        fetch = _fetch_of(folder)
        if fetch is not None:
            found.append(fetch)
        if len(found) == MAX_MANIFESTS:
            break
    return found


def _why(text: str) -> str:
    """A failed step's reason: its first line that says error (cargo's ``error: ...``, npm's
    ``npm error ...``), else its last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    said = [line for line in lines if line.lower().startswith(("error", "npm err"))]
    return (said or lines[-1:] or ["no output"])[0]


@dataclass(frozen=True)
class Phase:
    """Where the phase runs: the session, its sandbox, its mounts and its variables (the
    problem's ``env:`` first, the harness's after)."""

    session: Session
    sandbox: Sandbox
    mounts: list[Mount]
    env: dict[str, str]

    def probe(self) -> Probe:
        """The evaluator's probe, in a folder of the session outside the workspace."""
        return Probe(self.sandbox, self.session.root / "probe", self.mounts, self.env)


def fetch_dependencies(
    session: Session, sandbox: Sandbox, environment: EvalEnvironment, hidden: Sequence[Path],
    variables: Mapping[str, str],
) -> Setup:  # fmt: skip
    """Run the phase in ``session`` (network on); ``hidden`` as for the tests, ``variables``
    the problem's."""
    env = {**variables, **_variables(session, environment)}
    phase = Phase(session, sandbox, _mounts(session, environment, hidden), env)
    steps: list[SetupStep] = []
    for fetch in fetches(session.workspace):
        step, env_error = _run(fetch, phase, environment)
        steps.append(step)
        if env_error is not None:
            return Setup(tuple(steps), env_error)
    return Setup(tuple(steps))


def _run(
    fetch: Fetch, phase: Phase, environment: EvalEnvironment
) -> tuple[SetupStep, str | None]:
    """One step's record, and the environment error it met (None when it met none)."""
    manifest = str(fetch.manifest.relative_to(phase.session.workspace))
    name = " ".join(fetch.argv[:2])
    if fetch.tool not in environment.toolchains.tools:
        absent = f"{fetch.tool} is not among the evaluation's toolchains (evaluation.toolchains)"
        return SetupStep(name, manifest, False, 0.0, absent, skipped=True), None
    done = phase.sandbox.run(
        list(fetch.argv), workdir=fetch.manifest.parent, mounts=phase.mounts,
        limits=FETCH_LIMITS, env=phase.env,
    )  # fmt: skip
    if done.ok:
        return SetupStep(name, manifest, True, round(done.wall_s, 3)), None
    error = done.limit or _why(done.stderr or done.stdout)
    why = _environment_error(done, fetch, phase)
    if why is None and (done.limit or unreachable(done.stderr + done.stdout)):
        error = f"{error} (the evaluator's registries answered: the source is the submission's)"
    step = SetupStep(name, manifest, False, round(done.wall_s, 3), error)
    return step, None if why is None else f"{why}: {name} ({manifest}): {error}"


def _environment_error(done: Execution, fetch: Fetch, phase: Phase) -> str | None:
    """Why a failed step is the environment's, not the submission's: its sandbox did not
    start (bubblewrap's own ``bwrap: ...`` error), or it could not reach its source or a
    limit stopped it (900 s of fetching) and the evaluator's registries do not answer
    the probe either."""
    if done.stderr.lstrip().startswith("bwrap:"):
        return "the dependency phase's sandbox did not start"
    cut_off = unreachable(done.stderr + done.stdout)
    if not (cut_off or done.limit) or registries_answer(phase.probe(), fetch.tool, fetch.manifest):
        return None
    if cut_off:
        return "the dependency phase could not reach the network"
    return f"the dependency phase was stopped by the {done.limit} limit"


def _mounts(
    session: Session, environment: EvalEnvironment, hidden: Sequence[Path]
) -> list[Mount]:
    """The session writable, with the hidden tests and the harness's files emptied; the
    toolchains read-only."""
    secret = hidden_mounts([session.tests, session.harness])
    tools = [Mount(path) for path in environment.toolchains.folders()]
    return [*hidden_mounts(hidden), Mount(session.root, writable=True), *secret, *tools]


def _variables(session: Session, environment: EvalEnvironment) -> dict[str, str]:
    return {
        "PATH": f"{session.tools}:{SYSTEM_PATH}",
        "HOME": str(session.home),
        "npm_config_update_notifier": "false",
        **toolchain_variables(environment, session),
    }
