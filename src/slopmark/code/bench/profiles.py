"""Evaluation environment profiles: which Python, toolchains, test layout and network.

- ``scb`` (the default): SlopCodeBench's evaluator — Python 3.12 (its image is
  ``ghcr.io/astral-sh/uv:python3.12-trixie-slim``), its toolchains on ``PATH``
  (see `toolchains`), tests run from ``<workspace>/.evaluation_tests`` with
  the workspace as pytest's root (``src/slop_code/common/constants.py``:
  ``WORKSPACE_TEST_DIR``; ``PytestRunner._build_pytest_command``).
- ``native``: slopmark's own interpreter, no toolchains beyond the system
  ``PATH``, tests beside the workspace copy (the layout before profiles).

The choice, most specific first: the run's options (``--env-profile``,
``--python``, ``--test-network``, ``--entrypoint-style``), the problem's
``evaluation:`` settings, the profile's defaults. The entry point runs in the
workspace's venv unless ``uv`` is asked for (SCB's ``uv run`` in a ``uv init``
project, see `uvproject`), which then needs the uv toolchain. When the wanted
Python or a toolchain cannot be found the result is a `MissingEnvironment`
naming each missing piece: the checkpoint is then an environment error, never
a failure of the agent.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.bench.problem import Problem
from slopmark.code.bench.pythons import Interpreter, PythonSearch, pick, probe
from slopmark.code.bench.toolchains import SCB_TOOLCHAINS, Toolchains, find_toolchains

#: SCB's Python minor version (its evaluation image's).
SCB_PYTHON = "3.12"
#: Where SCB runs the hidden tests from, inside the workspace.
SCB_TEST_DIR = ".evaluation_tests"


@dataclass(frozen=True)
class EvalOptions:
    """What a run asked for; None leaves the choice to the problem and the profile."""

    profile: str | None = None
    python: str | None = None
    network: bool | None = None
    #: venv or uv (see `problem.ENTRYPOINTS`).
    entrypoint: str | None = None
    #: A folder of wheels the workspace's requirements are installed from, instead of an index.
    wheelhouse: str | None = None


@dataclass(frozen=True)
class EvalEnvironment:
    """Everything a problem's test sessions run with."""

    profile: str
    interpreter: Interpreter
    toolchains: Toolchains
    network: bool
    #: Who chose ``network``: ``run`` (its options), ``problem`` (its config.yaml), ``default``.
    network_from: str = "default"
    entrypoint: str = "venv"
    wheelhouse: Path | None = None

    @property
    def scb_layout(self) -> bool:
        return self.profile == "scb"

    @property
    def uv_entry(self) -> Path | None:
        """The uv that runs the entry point, when the uv convention was chosen."""
        return self.toolchains.tools.get("uv") if self.entrypoint == "uv" else None


@dataclass(frozen=True)
class MissingEnvironment:
    """What could not be found; `message` says it and what to do."""

    profile: str
    missing: tuple[str, ...]
    message: str


@dataclass(frozen=True)
class Host:
    """This machine's interpreters and toolchains (found lazily, once)."""

    pythons: PythonSearch
    #: The named commands (and their companions) that can be found.
    toolchains: Callable[[tuple[str, ...]], Toolchains]


def host_of(environ: Mapping[str, str]) -> Host:
    """The interpreters and toolchains reachable from ``environ`` (``PATH``, ``HOME``...)."""
    toolchains = functools.cache(lambda names: find_toolchains(environ, names))
    uv = find_toolchains(environ, ("uv",)).tools.get("uv")
    return Host(PythonSearch.of_environment(environ, uv), toolchains)


def _python_wanted(problem: Problem, options: EvalOptions, profile: str) -> str | None:
    """The Python asked for; None means slopmark's own (native without a setting)."""
    wanted = options.python or problem.evaluation.python
    return wanted or (SCB_PYTHON if profile == "scb" else None)


def _interpreter(host: Host, wanted: str | None) -> Interpreter | None:
    if wanted is None:
        return probe(Path(sys.executable))
    return pick(host.pythons, wanted)


def _tools_wanted(problem: Problem, profile: str, entrypoint: str) -> tuple[str, ...]:
    """The problem's toolchains, else the profile's; uv too when it runs the entry point."""
    tools = problem.evaluation.toolchains
    if tools is None:
        tools = SCB_TOOLCHAINS if profile == "scb" else ()
    return tools if entrypoint != "uv" or "uv" in tools else (*tools, "uv")


def _missing_message(problem: Problem, profile: str, python: str | None, host: Host,
                     tools: list[str]) -> str:  # fmt: skip
    parts = []
    if python is not None:
        where = python if "/" in python else host.pythons.describe(python)
        parts.append(f"Python {python} (looked in {where})")
    if tools:
        parts.append(f"toolchain {', '.join(tools)} (not on PATH, in ~/.cargo/bin "
                     "or beside slopmark's Python)")  # fmt: skip
    return (
        f"environment error: {problem.name} needs {' and '.join(parts)} for the {profile} "
        "profile; install it, or pass --python X.Y / --env-profile native"
    )


def _missing(problem: Problem, profile: str, python: str | None, host: Host,
             absent: list[str]) -> MissingEnvironment:  # fmt: skip
    """What is missing: ``python`` (when it was not found) and the ``absent`` toolchains."""
    missing = ((f"python {python}",) if python else ()) + tuple(absent)
    return MissingEnvironment(
        profile, missing, _missing_message(problem, profile, python, host, absent)
    )


def _styles(problem: Problem, options: EvalOptions) -> tuple[str, str]:
    """The profile and the entry point's style: the run's, else the problem's, else the default."""
    setting = problem.evaluation
    return (options.profile or setting.profile or "scb",
            options.entrypoint or setting.entrypoint or "venv")  # fmt: skip


def resolve(
    problem: Problem, options: EvalOptions, host: Host
) -> EvalEnvironment | MissingEnvironment:
    """The environment ``problem``'s tests run in, or what is missing for it."""
    profile, entrypoint = _styles(problem, options)
    wanted = _python_wanted(problem, options, profile)
    interpreter = _interpreter(host, wanted)
    tools = _tools_wanted(problem, profile, entrypoint)
    found = host.toolchains(tools) if tools else Toolchains({}, None)
    if interpreter is None:
        return _missing(problem, profile, wanted or sys.executable, host, found.missing(tools))
    if found.missing(tools):
        return _missing(problem, profile, None, host, found.missing(tools))
    network, network_from = _network(problem, options)
    wheelhouse = Path(options.wheelhouse) if options.wheelhouse else None
    return EvalEnvironment(
        profile, interpreter, found, network, network_from=network_from,
        entrypoint=entrypoint, wheelhouse=wheelhouse,
    )  # fmt: skip


def _network(problem: Problem, options: EvalOptions) -> tuple[bool, str]:
    """Whether the tests have the network, and who said so (off by default)."""
    if options.network is not None:
        return options.network, "run"
    if problem.evaluation.network is not None:
        return problem.evaluation.network, "problem"
    return False, "default"

