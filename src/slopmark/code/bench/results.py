"""What one checkpoint of a run produced, as written to ``result.json``."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from slopmark.code.bench.agents.base import AgentOutcome
from slopmark.code.bench.integrity import Finding, Integrity
from slopmark.errors import BadInput

#: scored: tests ran. agent_failed: the agent crashed or timed out (correctness 0).
#: not_run: an earlier checkpoint's agent failed (correctness 0, no workspace).
#: test_error: the hidden tests produced no report (see ``error``).
#: env_error: the evaluation environment lacks a piece (a Python version, a toolchain).
#: collect_error: pytest could not collect or run the tests (SCB's infrastructure failure).
CheckpointStatus = Literal[
    "scored", "agent_failed", "not_run", "test_error", "env_error", "collect_error"
]
#: Statuses that are the harness's or the environment's fault, never the agent's:
#: such checkpoints are errored, kept out of every rate until retried.
ERRORED: tuple[CheckpointStatus, ...] = ("env_error", "collect_error")
GROUPS = ("core", "functionality", "error", "regression")


@dataclass(frozen=True)
class CaseOutcome:
    nodeid: str
    group: str
    outcome: str
    duration_s: float = 0.0
    message: str | None = None
    #: The test failed on a timeout of its own (see `rerun`), so it was run a second time.
    load_sensitive: bool = False
    #: The first run's outcome and message when the test was rerun; the fields above are
    #: the rerun's, which counts. None when it ran once (and in results written before).
    first_outcome: str | None = None
    first_message: str | None = None

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"


@dataclass(frozen=True)
class Quality:
    """The quality numbers of one workspace (from `slopmark code measure`) and its churn.

    ``lines_added``/``lines_removed`` count every text file; the ``code_`` ones
    only files of a measured language (`languages.language_of_path`).
    Results written before the code churn existed read it as None.
    """

    erosion: float | None
    verbosity: float | None
    sloc: int
    files: int
    callables: int
    complex_callables: int
    max_cc: int | None
    lines_added: int
    lines_removed: int
    code_lines_added: int | None = None
    code_lines_removed: int | None = None
    #: Lines of the previous checkpoint's code files; None at the first checkpoint.
    previous_code_lines: int | None = None
    #: The rule set verbosity was measured with (results from before the sets: the paper's)
    rule_set: str = "paper"

    @property
    def relative_churn(self) -> float | None:
        """(code lines added + removed) / the previous checkpoint's code lines.

        SCB's ``delta.churn_ratio`` (``metrics/checkpoint/delta.py``). None when
        undefined: the first checkpoint, an empty previous workspace, an old result.
        """
        if not self.previous_code_lines or self.code_lines_added is None:
            return None
        return (self.code_lines_added + (self.code_lines_removed or 0)) / self.previous_code_lines


@dataclass(frozen=True)
class SetupStep:
    """One command of a test session's dependency phase (see `deps`), as stored."""

    #: What ran, e.g. ``cargo fetch``, and for which manifest (relative to the workspace).
    step: str
    manifest: str
    ok: bool
    seconds: float
    #: Why it failed (its last line of output); None when it did not.
    error: str | None = None
    #: Not run: its tool is not among the evaluation's toolchains.
    skipped: bool = False

    @property
    def failed(self) -> bool:
        """It ran and failed (the submission's manifest, not the environment)."""
        return not self.ok and not self.skipped


#: What the agent did at a checkpoint, as stored: the agent's own outcome.
AgentRecord = AgentOutcome


@dataclass(frozen=True)
class CheckpointResult:
    problem: str
    problem_version: int
    checkpoint: str
    order: int
    #: 0-based position of the checkpoint in its problem, and how many it has.
    index: int
    count: int
    status: CheckpointStatus
    agent: AgentRecord | None
    tests: tuple[CaseOutcome, ...] = ()
    quality: Quality | None = None
    error: str | None = None
    #: Seconds spent: agent, environment + tests, metrics, and the whole checkpoint.
    timings: dict[str, float] = field(default_factory=dict)
    source: str = "community"
    #: What the workspace held that aims at its own evaluation (see `integrity`).
    integrity: Integrity | None = None
    #: Whether the hidden tests had the network, and who chose it (``run``, ``problem``,
    #: ``default``); None when they did not run (or for results written before).
    network: bool | None = None
    network_from: str | None = None
    #: The dependency phase before the tests (what the workspace declares, fetched).
    setup: tuple[SetupStep, ...] = ()

    @property
    def errored(self) -> bool:
        """The environment or the harness failed: no verdict on the agent (see `ERRORED`)."""
        return self.status in ERRORED

    @property
    def load_sensitive(self) -> tuple[CaseOutcome, ...]:
        """The tests that failed on their own timeout and were rerun (see `rerun`)."""
        return tuple(test for test in self.tests if test.load_sensitive)

    def group(self, name: str) -> tuple[CaseOutcome, ...]:
        return tuple(test for test in self.tests if test.group == name)

    @property
    def strict(self) -> bool:
        """Every test passes, regression included (and there is at least one)."""
        return self.status == "scored" and bool(self.tests) and all(t.passed for t in self.tests)

    @property
    def isolated(self) -> bool:
        """Every test of this checkpoint itself passes (regression tests aside)."""
        own = [t for t in self.tests if t.group != "regression"]
        return self.status == "scored" and bool(own) and all(t.passed for t in own)

    @property
    def core(self) -> bool:
        """Every core test of this checkpoint passes."""
        core = self.group("core")
        return self.status == "scored" and bool(core) and all(t.passed for t in core)

    @property
    def pass_fraction(self) -> float:
        """Share of tests passed; 0 when the tests did not run (correctness 0)."""
        if self.status != "scored" or not self.tests:
            return 0.0
        return sum(t.passed for t in self.tests) / len(self.tests)


def write_result(path: Path, result: CheckpointResult) -> None:
    """Write atomically: a half-written result never exists."""
    temporary = path.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(asdict(result), indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def read_result(path: Path) -> CheckpointResult:
    """The checkpoint result in ``path``; `BadInput` naming the file when it is malformed."""
    try:
        return _result(json.loads(path.read_text(encoding="utf-8")))
    except json.JSONDecodeError as error:
        what = f"not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})"
    except (OSError, UnicodeDecodeError) as error:
        what = f"cannot be read ({error})"
    except (TypeError, KeyError, AttributeError) as error:
        what = f"not a checkpoint result ({type(error).__name__}: {error})"
    raise BadInput(f"{path}: {what}; restore it, or delete it to run the checkpoint again")


def _result(raw: dict[str, Any]) -> CheckpointResult:
    agent = raw.pop("agent")
    quality = raw.pop("quality")
    tests = tuple(CaseOutcome(**test) for test in raw.pop("tests"))
    integrity = _integrity(raw.pop("integrity", None))
    setup = tuple(SetupStep(**step) for step in raw.pop("setup", ()))
    return CheckpointResult(
        **raw,
        setup=setup,
        agent=AgentRecord(**agent) if agent else None,
        quality=Quality(**quality) if quality else None,
        tests=tests,
        integrity=integrity,
    )


def _integrity(raw: dict[str, Any] | None) -> Integrity | None:
    if raw is None:
        return None
    findings = tuple(Finding(**finding) for finding in raw.get("findings", ()))
    return Integrity(findings, raw.get("guarded"), tuple(raw.get("hidden", ())))
