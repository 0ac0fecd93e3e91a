"""Verdicts of `code bench validate`: each reference checkpoint, against the known failures (pure).

A checkpoint is **ok** when its reference solves it strictly, or when every
test it fails is pinned in the expected-failures file. Anything else is a
**failure** (tests failed, a missing reference) or an **error** (the
environment lacked a piece, pytest could not collect the tests, the session
produced no report). A pinned test that now passes is reported as fixed, so
the pin can be dropped.

The expected-failures file holds one key a line (``#`` starts a comment):
``PROBLEM/CHECKPOINT::FILE::TEST`` pins one test (its pytest node id without
the tests folder, so the key is the same in either layout), ``PROBLEM/CHECKPOINT``
pins a whole checkpoint that cannot be scored (a collection error, a missing
reference). Environment errors are never pinned: they say this machine
differs from the evaluator, not that a reference is wrong.

A **load-sensitive** test (it failed on its own timeout and was rerun, see
`rerun`) is judged apart: whatever its two outcomes, it is neither an
unexpected failure, nor a pinned one, nor "now passes", and it is never
pinned. Its verdict says how busy the machine was, not whether the reference
is right, so it is listed with both outcomes and never turns validate red.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.bench.results import GROUPS, CaseOutcome, CheckpointResult
from slopmark.errors import BadInput

#: The first folder of a node id that is the tests folder (native or SCB layout).
TEST_FOLDERS = ("tests", ".evaluation_tests")
#: Counted outcomes of a test, in display order.
TALLIES = ("passed", "failed", "skipped", "errored")
HEADER = (
    "# Known failures of the reference solutions, pinned for `slopmark code bench validate`.\n"
    "# One a line: PROBLEM/CHECKPOINT::FILE::TEST (a test) or PROBLEM/CHECKPOINT (a checkpoint).\n"
)


def test_key(nodeid: str) -> str:
    """The node id without its tests folder: ``test_checkpoint_1.py::test_x[abc-1]``."""
    first, sep, rest = nodeid.partition("/")
    return rest if sep and first in TEST_FOLDERS else nodeid


def case_key(result: CheckpointResult, test: CaseOutcome) -> str:
    return f"{checkpoint_key(result)}::{test_key(test.nodeid)}"


def checkpoint_key(result: CheckpointResult) -> str:
    return f"{result.problem}/{result.checkpoint}"


def read_expected(path: Path) -> frozenset[str]:
    """The keys of an expected-failures file; BadInput when there is no such file."""
    if not path.is_file():
        raise BadInput(
            f"--expect-failures {path}: no such file; write one with --write-expect-failures"
        )
    lines = (
        line.strip() for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
    )
    return frozenset(line for line in lines if line and not line.startswith("#"))


def tally(tests: Iterable[CaseOutcome]) -> dict[str, int]:
    """passed / failed / skipped / errored counts."""
    names = {"passed": "passed", "failed": "failed", "skipped": "skipped", "error": "errored"}
    counts = Counter(names.get(test.outcome, "errored") for test in tests)
    return {name: counts[name] for name in TALLIES}


def group_tallies(result: CheckpointResult) -> dict[str, dict[str, int]]:
    """`tally` of each group that has tests, in `GROUPS` order."""
    return {group: tally(result.group(group)) for group in GROUPS if result.group(group)}


@dataclass(frozen=True)
class Verdict:
    result: CheckpointResult
    #: ok, failed, missing_reference, not_run, env_error, collect_error, test_error
    kind: str
    unexpected: tuple[CaseOutcome, ...] = ()
    expected: tuple[CaseOutcome, ...] = ()
    #: Pinned tests of this checkpoint that passed.
    fixed: tuple[str, ...] = ()
    #: The whole checkpoint's failure is pinned.
    pinned: bool = False
    #: Tests that failed on their own timeout and were rerun (judged apart, see above).
    load_sensitive: tuple[CaseOutcome, ...] = ()

    @property
    def ok(self) -> bool:
        return self.kind == "ok" or (self.kind == "failed" and not self.unexpected) or self.pinned

    @property
    def errored(self) -> bool:
        return self.kind in ("env_error", "collect_error", "test_error")


def _kind(result: CheckpointResult) -> str:
    if result.status == "agent_failed":
        return "missing_reference"
    if result.status == "scored":
        return "ok" if result.strict else "failed"
    return result.status


def _split(result: CheckpointResult, expected: frozenset[str]) -> tuple[list[CaseOutcome], ...]:
    """The failing tests not pinned, the failing tests pinned, the passing tests pinned
    (load-sensitive tests left out of all three)."""
    unexpected: list[CaseOutcome] = []
    pinned: list[CaseOutcome] = []
    fixed: list[CaseOutcome] = []
    for test in result.tests:
        if test.load_sensitive:
            continue
        known = case_key(result, test) in expected
        if not test.passed:
            (pinned if known else unexpected).append(test)
        elif known:
            fixed.append(test)
    return unexpected, pinned, fixed


def judge(result: CheckpointResult, expected: frozenset[str]) -> Verdict:
    """The verdict on one reference checkpoint, given the pinned keys."""
    kind = _kind(result)
    unexpected, pinned, fixed = _split(result, expected)
    whole = kind not in ("ok", "failed", "env_error") and checkpoint_key(result) in expected
    return Verdict(
        result, kind, unexpected=tuple(unexpected), expected=tuple(pinned),
        fixed=tuple(case_key(result, t) for t in fixed), pinned=whole,
        load_sensitive=result.load_sensitive,
    )  # fmt: skip


def failure_keys(results: Sequence[CheckpointResult]) -> list[str]:
    """What `--write-expect-failures` pins: every failing test and every checkpoint that
    could not be scored, environment errors and load-sensitive tests aside."""
    keys = []
    for result in results:
        kind = _kind(result)
        if kind == "failed":
            keys += [case_key(result, t) for t in result.tests
                     if not (t.passed or t.load_sensitive)]  # fmt: skip
        elif kind in ("missing_reference", "not_run", "collect_error", "test_error"):
            keys.append(checkpoint_key(result))
    return keys


def write_expected(path: Path, keys: Sequence[str]) -> None:
    """Write ``keys`` (sorted, once each) under a header saying what the file is."""
    path.write_text(HEADER + "".join(f"{key}\n" for key in sorted(set(keys))), encoding="utf-8")
