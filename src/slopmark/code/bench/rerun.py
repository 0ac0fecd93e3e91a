"""Load-sensitive tests: a failure caused by the test's own timeout is rerun once.

A hidden test that runs the entry point with a timeout of its own
(``subprocess.run(..., timeout=10)``) fails with ``subprocess.TimeoutExpired``
when the machine is busy and passes when it is idle: its verdict measures the
load, not the submission. Such a test is **load-sensitive**: after the
session, the harness runs just those tests (by node id) in a second session
laid out, sandboxed and given the same environment as the first, and keeps
both outcomes on the test. The rerun's verdict is the one that counts.

What counts as the test's own timeout: `timeouts.timed_out`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from slopmark.code.bench.results import CaseOutcome
from slopmark.code.bench.testrun import HiddenTestRun

#: Runs the given node ids in a fresh session and returns its verdicts.
Rerun = Callable[[Sequence[str]], HiddenTestRun]


def to_rerun(run: HiddenTestRun) -> tuple[str, ...]:
    """The node ids of the load-sensitive tests of a scored session."""
    if run.status != "scored":
        return ()
    return tuple(test.nodeid for test in run.tests if test.load_sensitive)


def _merged(first: CaseOutcome, again: CaseOutcome | None, why: str | None) -> CaseOutcome:
    """The rerun's verdict with the first one kept beside it; the first alone (saying why)
    when the rerun gave none."""
    if again is None:
        missing = why or "the rerun did not report the test"
        said = first.message or first.outcome
        return replace(first, message=f"{said} (rerun gave no verdict: {missing})")
    return replace(
        again, group=first.group, load_sensitive=True,
        first_outcome=first.outcome, first_message=first.message,
    )  # fmt: skip


def merge(first: HiddenTestRun, again: HiddenTestRun) -> HiddenTestRun:
    """``first`` with each load-sensitive test's verdict taken from ``again``."""
    rerun = {test.nodeid: test for test in again.tests}
    tests = tuple(
        _merged(test, rerun.get(test.nodeid), again.error) if test.load_sensitive else test
        for test in first.tests
    )
    return replace(first, tests=tests)


def rerun_load_sensitive(first: HiddenTestRun, run_again: Rerun) -> HiddenTestRun:
    """Run the load-sensitive tests of ``first`` once more (``run_again``) and merge the
    verdicts; ``first`` itself when it has none."""
    nodeids = to_rerun(first)
    if not nodeids:
        return first
    return merge(first, run_again(nodeids))
