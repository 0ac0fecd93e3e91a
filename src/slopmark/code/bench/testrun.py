"""Run a problem's hidden tests against a workspace in a fresh sandbox, and read the verdicts.

The session is laid out by `testlayout` (SCB's layout or the native one);
pytest runs with ``--entrypoint`` (the workspace environment's python and the
entry script) and ``--checkpoint``, and a plugin writes a machine-readable
report. Each test is grouped and given its outcome by SCB's rules
(`grouping`). A session that pytest could not collect or run (SCB's
"infrastructure failure": exit status 2–5 or nothing collected) is a
``collect_error``: errored, not failed. The network is off unless the
evaluation turns it on; a test that failed reaching it says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slopmark.code.bench.grouping import record_group, status_of
from slopmark.code.bench.problem import Checkpoint, Problem
from slopmark.code.bench.profiles import EvalEnvironment
from slopmark.code.bench.results import CaseOutcome, CheckpointStatus
from slopmark.code.bench.sandbox.base import Execution, Limits, Sandbox
from slopmark.code.bench.testlayout import (
    command,
    environment_variables,
    keep_artefacts,
    mounts,
    open_session,
    prepare,
)

#: How a test error starts when the harness, not the submission, is at fault.
NO_REPORT = "pytest wrote no report"
#: pytest's exit statuses SCB counts as an infrastructure failure
#: (``pytest_runner.py``: ``INFRA_FAILURE_CODES``).
INFRA_FAILURE = {2: "interrupted", 3: "internal error", 4: "usage error", 5: "no tests collected"}
#: What a failure says when it could not reach the network.
NETWORK_MARKS = (
    "Temporary failure in name resolution", "Name or service not known",
    "Could not resolve host", "Network is unreachable", "No address associated with hostname",
    "nodename nor servname", "getaddrinfo failed", "Failed to establish a new connection",
    "Could not resolve hostname", "failed to lookup address",
)  # fmt: skip
NETWORK_OFF = "network is off during tests (turn it on with --test-network or evaluation.network)"


@dataclass(frozen=True)
class HiddenTestRun:
    tests: tuple[CaseOutcome, ...]
    #: Why there are no verdicts (a limit, a crashed or uncollectable session); None when there are.
    error: str | None
    status: CheckpointStatus = "scored"


def session_limits(problem: Problem, checkpoint: Checkpoint, network: bool) -> Limits:
    per_test = checkpoint.timeout_s or problem.timeout_s
    return Limits(wall_s=max(300.0, per_test * 20), memory_mb=4096, max_procs=256, network=network)


def run_tests(
    problem: Problem,
    checkpoint: Checkpoint,
    workspace: Path,
    folder: Path,
    *,
    sandbox: Sandbox,
    environment: EvalEnvironment,
    test_env: Path,
    ws_env: Path,
    limits: Limits | None = None,
) -> HiddenTestRun:
    """Run the hidden tests of ``checkpoint`` (and earlier ones) against ``workspace``.

    ``folder`` keeps the session's report and log afterwards.
    """
    session = open_session(folder, environment.scb_layout)
    try:
        prepare(problem, checkpoint, workspace, session)
        execution = sandbox.run(
            command(problem, checkpoint, session, test_env, ws_env),
            workdir=session.workspace,
            mounts=mounts(session, environment, test_env, ws_env),
            limits=limits or session_limits(problem, checkpoint, environment.network),
            env=environment_variables(problem, checkpoint, session, environment, ws_env),
        )
        log = session.root / "pytest.log"
        log.write_text(execution.stdout + execution.stderr, encoding="utf-8")
        return read_report(
            _load(session.report), execution, checkpoint, problem, environment.network
        )
    finally:
        keep_artefacts(session, folder)


def _load(report: Path) -> dict[str, Any] | None:
    try:
        payload: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return payload


def network_failure(text: str | None) -> bool:
    return bool(text) and any(mark in str(text) for mark in NETWORK_MARKS)


def _reason(message: str | None, detail: str | None, network: bool) -> str | None:
    """The failure's message, prefixed by the network's absence when that was the cause."""
    if not network and (network_failure(detail) or network_failure(message)):
        return f"{NETWORK_OFF}: {message}" if message else NETWORK_OFF
    return message


def _no_report(execution: Execution) -> HiddenTestRun:
    if execution.limit is not None:
        return HiddenTestRun((), f"the test session was stopped by the {execution.limit} limit",
                             "test_error")  # fmt: skip
    tail = (execution.stderr or execution.stdout).strip().splitlines()[-3:]
    why = " / ".join(tail) or f"exit code {execution.returncode}"
    return HiddenTestRun((), f"{NO_REPORT} ({why})", "test_error")


def _collect_error(payload: dict[str, Any], network: bool) -> HiddenTestRun | None:
    """A session pytest could not collect or run (SCB's infrastructure failure), else None."""
    errors = payload.get("collect_errors") or []
    status = int(payload.get("exitstatus", 0))
    if errors:
        first = errors[0]
        why = _reason(first.get("message"), first.get("detail"), network)
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return HiddenTestRun((), f"collection error in {first['nodeid']}{more}: {why}",
                             "collect_error")  # fmt: skip
    if status in INFRA_FAILURE or not payload.get("collected", len(payload["tests"])):
        meaning = INFRA_FAILURE.get(status, "no tests collected")
        return HiddenTestRun((), f"pytest could not run the tests (exit status {status}: "
                             f"{meaning})", "collect_error")  # fmt: skip
    return None


def read_report(
    payload: dict[str, Any] | None,
    execution: Execution,
    checkpoint: Checkpoint,
    problem: Problem,
    network: bool,
) -> HiddenTestRun:
    """The verdicts of a finished session; an errored run when there are none."""
    if payload is None:
        return _no_report(execution)
    failed = _collect_error(payload, network)
    if failed is not None:
        return failed
    tests = tuple(
        CaseOutcome(
            nodeid=str(record["nodeid"]),
            group=record_group(record, checkpoint.name, problem.markers),
            outcome=status_of(str(record["outcome"])),
            duration_s=float(record.get("duration_s", 0.0)),
            message=_reason(record.get("message"), record.get("detail"), network),
        )
        for record in payload["tests"]
    )
    return HiddenTestRun(tests, None)
