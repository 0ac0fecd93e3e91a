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
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from slopmark import regular
from slopmark.code.bench.deps import Setup, fetch_dependencies
from slopmark.code.bench.grouping import record_group, status_of
from slopmark.code.bench.network import NETWORK_OFF
from slopmark.code.bench.problem import Checkpoint, Problem
from slopmark.code.bench.profiles import EvalEnvironment
from slopmark.code.bench.results import CaseOutcome, CheckpointStatus, SetupStep
from slopmark.code.bench.testlayout import (
    HARNESS_VARIABLES,
    Session,
    command,
    environment_variables,
    guard_paths,
    keep_artefacts,
    link_toolchains,
    mounts,
    open_session,
    prepare,
    problem_variables,
)
from slopmark.code.bench.timeouts import timed_out
from slopmark.regular import Unreadable
from slopmark.sandbox.base import Channels, Execution, Guards, Limits, Sandbox
from slopmark.sandbox.private import hidden_mounts

#: How a test error starts when the harness, not the submission, is at fault.
NO_REPORT = "pytest wrote no report"
#: pytest's exit statuses SCB counts as an infrastructure failure
#: (``pytest_runner.py``: ``INFRA_FAILURE_CODES``).
INFRA_FAILURE = {2: "interrupted", 3: "internal error", 4: "usage error", 5: "no tests collected"}
@dataclass(frozen=True)
class HiddenTestRun:
    tests: tuple[CaseOutcome, ...]
    #: Why there are no verdicts (a limit, a crashed or uncollectable session); None when there are.
    error: str | None
    status: CheckpointStatus = "scored"
    #: Why the session ended before every collected test finished (those count as failed).
    cut_short: str | None = None
    #: Modules of the submission's folder the session refused to import (they shadowed others).
    kept_out: tuple[str, ...] = ()
    #: Whether the submission ran in a sandbox of its own, away from the hidden tests.
    guarded: bool = False
    #: The dependency phase's steps (see `deps`).
    setup: tuple[SetupStep, ...] = ()


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
    hidden: Sequence[Path] = (),
    only: Sequence[str] = (),
) -> HiddenTestRun:
    """Run the hidden tests of ``checkpoint`` (and earlier ones) against ``workspace``.

    ``folder`` keeps the session's report and log afterwards; ``hidden`` folders
    (the problems, the run folder) are hidden from the whole session; ``only``
    (node ids) runs just those tests (`rerun`).
    """
    session = open_session(folder, environment.scb_layout)
    try:
        prepare(problem, checkpoint, workspace, session)
        link_toolchains(environment, session)
        setup = Setup(()) if environment.network else fetch_dependencies(
            session, sandbox, environment, hidden, problem_variables(problem, checkpoint)
        )
        if setup.env_error is not None:
            return HiddenTestRun((), setup.env_error, "env_error", setup=setup.steps)
        hide, keep = guard_paths(session)
        guard = None
        if isinstance(sandbox, Guards):
            guard = sandbox.guard(hide, keep, HARNESS_VARIABLES)
        with ReportChannel(sandbox, session) as channel:
            execution = sandbox_run(
                sandbox, channel,
                command(problem, checkpoint, session, (test_env, ws_env), guard or (),
                        environment.uv_entry, only),
                workdir=session.workspace,
                mounts=[*hidden_mounts(hidden), *mounts(session, environment, test_env, ws_env)],
                limits=limits or session_limits(problem, checkpoint, environment.network),
                env=environment_variables(
                    problem, checkpoint, session, environment, ws_env, channel.variables
                ),
            )  # fmt: skip
            text = channel.text()
        session.report.write_text(text, encoding="utf-8")
        log = session.root / "pytest.log"
        log.write_text(execution.stdout + execution.stderr, encoding="utf-8")
        found = read_report(
            parse_events(text), execution, checkpoint, problem, environment.network
        )
        return after_setup(replace(found, guarded=guard is not None, setup=setup.steps))
    finally:
        keep_artefacts(session, folder)


def after_setup(run: HiddenTestRun) -> HiddenTestRun:
    """A session whose tests wanted the network after the dependency phase failed on the
    submission's own manifest: those failures are the submission's (scored)."""
    if run.status == "env_error" and any(step.failed for step in run.setup):
        return replace(run, status="scored", error=None)
    return run


def parse_events(text: str) -> dict[str, Any] | None:
    """The report's events gathered (None when the session wrote none); a line cut
    off by a killed session is skipped."""
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for event in _events(text):
        by_kind[str(event.pop("event", ""))].append(event)
    collected, ends = by_kind["collected"], by_kind["end"]
    if not (collected or ends or by_kind["collect_error"]):
        return None
    end = ends[-1] if ends else {}
    expected = collected[-1].get("tests", []) if collected else None
    tests = {str(test.get("nodeid")): test for test in by_kind["test"]}
    return {
        "expected": expected, "tests": list(tests.values()),
        "collect_errors": by_kind["collect_error"], "complete": bool(ends),
        "exitstatus": end.get("exitstatus"), "kept_out": end.get("kept_out", []),
        "collected": end.get("collected", len(expected or ())),
    }  # fmt: skip


def _events(text: str) -> list[dict[str, Any]]:
    """The JSON objects of the report's lines (a torn or foreign line is skipped)."""
    found = []
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict):
            found.append(event)
    return found


def _reason(record: dict[str, Any], network: bool) -> str | None:
    """The failure's message; with the network off and a resolver error or unreachable
    network in the test's exception chain (the plugin's ``offline``, read from the
    exception objects: text the submission prints cannot make it), the network's absence
    and that error instead."""
    offline = record.get("offline")
    if not network and offline:
        return f"{NETWORK_OFF}: {offline}"
    message = record.get("message")
    return None if message is None else str(message)


def _no_report(execution: Execution) -> HiddenTestRun:
    if execution.limit is not None:
        return HiddenTestRun((), f"the test session was stopped by the {execution.limit} limit",
                             "test_error")  # fmt: skip
    tail = (execution.stderr or execution.stdout).strip().splitlines()[-3:]
    why = " / ".join(tail) or f"exit code {execution.returncode}"
    return HiddenTestRun((), f"{NO_REPORT} ({why})", "test_error")


def _collect_error(payload: dict[str, Any]) -> HiddenTestRun | None:
    """A session pytest could not collect or run (SCB's infrastructure failure), else None."""
    errors = payload.get("collect_errors") or []
    if errors:
        first = errors[0]
        why = first.get("message")
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        return HiddenTestRun((), f"collection error in {first['nodeid']}{more}: {why}",
                             "collect_error")  # fmt: skip
    if not payload["complete"]:
        return None
    status = int(payload.get("exitstatus") or 0)
    if status in INFRA_FAILURE or not payload.get("collected", len(payload["tests"])):
        meaning = INFRA_FAILURE.get(status, "no tests collected")
        return HiddenTestRun((), f"pytest could not run the tests (exit status {status}: "
                             f"{meaning})", "collect_error")  # fmt: skip
    return None


def _ended_early(execution: Execution) -> str:
    """Why a session stopped before its last test (for the tests it owed)."""
    if execution.limit is not None:
        return f"the session was stopped by the {execution.limit} limit"
    code = execution.returncode
    if code is not None and (code < 0 or code > 128):
        return f"pytest was killed (signal {-code if code < 0 else code - 128})"
    return f"pytest ended with exit code {code} before its report was complete"


def _owed(payload: dict[str, Any], execution: Execution) -> list[dict[str, Any]]:
    """Records, as failures, of the collected tests a session cut short never finished."""
    done = {str(record.get("nodeid")) for record in payload["tests"]}
    why = f"not run to the end: {_ended_early(execution)}"
    return [
        {**item, "outcome": "failed", "duration_s": 0.0, "message": why, "detail": None}
        for item in payload["expected"] or ()
        if str(item.get("nodeid")) not in done
    ]


def read_report(
    payload: dict[str, Any] | None,
    execution: Execution,
    checkpoint: Checkpoint,
    problem: Problem,
    network: bool,
) -> HiddenTestRun:
    """The verdicts of a session; an errored run when it has none.

    A session that collected its tests but ended before the last one finished
    (a limit, a killed pytest) keeps the verdicts it has, and every test it
    owed counts as failed: only what happened before the submission could run
    (no report, no collection) is the harness's error.
    """
    if payload is None or (payload["expected"] is None and not payload["complete"]
                           and not payload["collect_errors"]):  # fmt: skip
        return _no_report(execution)
    failed = _collect_error(payload)
    if failed is not None:
        return failed
    owed = [] if payload["complete"] else _owed(payload, execution)
    tests = tuple(
        CaseOutcome(
            nodeid=str(record["nodeid"]),
            group=record_group(record, checkpoint.name, problem.markers),
            outcome=status_of(str(record["outcome"])),
            duration_s=float(record.get("duration_s", 0.0)),
            message=_reason(record, network),
            load_sensitive=timed_out(record),
        )
        for record in [*payload["tests"], *owed]
    )
    cut_short = None if payload["complete"] else _ended_early(execution)
    offline = _needed_network(tests)
    return HiddenTestRun(
        tests, offline, "env_error" if offline else "scored", cut_short=cut_short,
        kept_out=tuple(payload["kept_out"]),
    )  # fmt: skip


def _needed_network(tests: Sequence[CaseOutcome]) -> str | None:
    """Why the checkpoint has no verdict when tests failed for want of the network (an
    environment error, never the agent's failure), else None."""
    needing = [test for test in tests if (test.message or "").startswith(NETWORK_OFF)]
    if not needing:
        return None
    first = needing[0]
    reason = (first.message or "")[len(NETWORK_OFF) :].lstrip(": ")
    more = f" and {len(needing) - 1} more" if len(needing) > 1 else ""
    return f"{NETWORK_OFF}: {first.nodeid}{more} needed it ({reason or 'no message'})"



class ReportChannel:
    """How the report reaches the harness: an unnamed file handed to the session as a
    descriptor when the backend passes descriptors, else a file in the session's
    harness folder (hidden from the submission's own sandbox)."""

    #: At most this much of a report is read (a test's detail is capped by the plugin).
    MAX_BYTES = 256 * 1024 * 1024

    def __init__(self, sandbox: Sandbox, session: Session) -> None:
        self.session = session
        self.file: IO[bytes] | None = None
        if isinstance(sandbox, Channels) and sandbox.passes_fds:
            self.file = tempfile.TemporaryFile()  # noqa: SIM115 (closed in __exit__)

    def __enter__(self) -> ReportChannel:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()

    @property
    def fds(self) -> tuple[int, ...]:
        return () if self.file is None else (self.file.fileno(),)

    @property
    def variables(self) -> dict[str, str]:
        if self.file is not None:
            return {"SLOPMARK_BENCH_REPORT_FD": str(self.file.fileno())}
        return {"SLOPMARK_BENCH_REPORT": str(self.session.harness / "report.jsonl")}

    def text(self) -> str:
        if self.file is not None:
            self.file.seek(0)
            data = self.file.read(self.MAX_BYTES)
        else:
            data = read_regular(self.session.harness / "report.jsonl", self.MAX_BYTES)
        return data.decode("utf-8", errors="replace")


def read_regular(path: Path, limit: int) -> bytes:
    """``path``'s bytes if it is a regular file within ``limit`` (no link followed), else b"":
    a file the measured may have left in place of the harness's is not read."""
    try:
        return regular.read_regular(path, limit, follow=False)
    except Unreadable:
        return b""


def sandbox_run(
    sandbox: Sandbox, channel: ReportChannel, argv: list[str], **how: Any
) -> Execution:
    """``sandbox.run`` with the channel's descriptor passed on, when it has one."""
    if channel.fds and isinstance(sandbox, Channels):
        return sandbox.run(argv, pass_fds=channel.fds, **how)
    return sandbox.run(argv, **how)
