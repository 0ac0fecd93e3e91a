"""What `slopmark code bench validate` prints: a line per checkpoint as it finishes, a total.

Test ids and messages are printed as plain text (never as Rich markup, which
would eat a parametrize id like ``[abc-1]``) and never hard-wrapped, so a
piped output keeps each node id whole on one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from slopmark.code.bench.results import CaseOutcome, CheckpointResult
from slopmark.code.bench.runner import ProblemFailure
from slopmark.code.bench.validation import (
    Verdict,
    case_key,
    failure_keys,
    group_tallies,
    judge,
    tally,
    write_expected,
)
from slopmark.plurals import count

#: Unexpected failing tests listed under a checkpoint (the rest are counted; --json has all).
LISTED = 20
_WORDS = {True: ("ok", "green"), False: ("FAIL", "red")}
_NOT_SCORED = {
    "missing_reference": "missing reference",
    "not_run": "not run (an earlier checkpoint's reference is missing)",
    "test_error": "test session error",
}


def plain_console(stderr: bool = False) -> Console:
    """A console that neither wraps lines nor reads markup or highlights."""
    return Console(stderr=stderr, soft_wrap=True, highlight=False)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {name}" for name, n in counts.items() if n)


def _group_cell(group: str, counts: dict[str, int]) -> str:
    total = sum(counts.values())
    rest = {k: v for k, v in counts.items() if k != "passed" and v}
    return f"{group} {counts['passed']}/{total}" + (f" ({_counts(rest)})" if rest else "")


def scored_summary(result: CheckpointResult) -> str:
    """``9 tests: 8 passed, 1 failed — core 3/3, regression 5/6 (1 failed)``."""
    groups = ", ".join(_group_cell(g, c) for g, c in group_tallies(result).items())
    count = len(result.tests)
    return f"{count} test{'s' * (count != 1)}: {_counts(tally(result.tests))} — {groups}"


def _summary(verdict: Verdict) -> str:
    result = verdict.result
    if verdict.kind in ("ok", "failed"):
        text = scored_summary(result)
        if verdict.expected:
            text += f" ({count(len(verdict.expected), 'expected failure')})"
        if verdict.load_sensitive:
            text += f" ({len(verdict.load_sensitive)} load-sensitive)"
        return text
    label = _NOT_SCORED.get(verdict.kind)
    why = result.error or ""
    text = f"{label}: {why}" if label and verdict.kind != "not_run" else (label or why)
    return text + (" (pinned)" if verdict.pinned else "")


def _word(verdict: Verdict) -> tuple[str, str]:
    if verdict.errored and not verdict.pinned:
        return "ERROR", "red"
    return _WORDS[verdict.ok]


def _test_line(test: CaseOutcome) -> Text:
    message = _first_line(test.message)
    return Text(f"      {test.outcome:7} {test.group:13} {test.nodeid}  {message}".rstrip())


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()[:1]
    return lines[0][:200] if lines else ""


def load_sensitive_line(test: CaseOutcome) -> Text:
    """``load-sensitive core  ID  failed, rerun passed  (subprocess.TimeoutExpired: ...)``."""
    if test.first_outcome is None:
        outcomes = f"{test.outcome}, rerun gave no verdict"
    else:
        outcomes = f"{test.first_outcome}, rerun {test.outcome}"
    why = _first_line(test.first_message or test.message)
    line = f"      load-sensitive {test.group:13} {test.nodeid}  {outcomes}"
    return Text(line + (f"  ({why})" if why else ""))


class ValidateView:
    """Prints each checkpoint's verdict as it comes, then the total."""

    def __init__(self, console: Console, total: int, expected: frozenset[str]) -> None:
        self.console = console
        self.total = total
        self.expected = expected
        self.verdicts: list[Verdict] = []

    def on_result(self, result: CheckpointResult) -> None:
        verdict = judge(result, self.expected)
        self.verdicts.append(verdict)
        word, style = _word(verdict)
        line = Text(f"[{len(self.verdicts)}/{self.total}] ")
        line.append(f"{word:5}", style=style)
        line.append(f" {result.problem}/{result.checkpoint}  {_summary(verdict)}")
        self.console.print(line)
        for step in result.setup:
            if not step.ok:  # failed, or skipped for want of its tool
                said = f"      setup   {step.step} ({step.manifest})  {step.error}"
                self.console.print(Text(said))
        for test in verdict.unexpected[:LISTED]:
            self.console.print(_test_line(test))
        if len(verdict.unexpected) > LISTED:
            more = count(len(verdict.unexpected) - LISTED, "more failing test")
            self.console.print(Text(f"      and {more} (--json lists all)"))
        for test in verdict.load_sensitive:
            self.console.print(load_sensitive_line(test))

    def pin(self, results: Sequence[CheckpointResult], path: Path) -> None:
        """Write today's failures to ``path`` and judge every checkpoint with them pinned."""
        keys = failure_keys(results)
        write_expected(path, keys)
        self.console.print(Text(f"wrote {count(len(keys), 'expected failure')} to {path}"))
        self.expected = self.expected | frozenset(keys)
        self.verdicts = [judge(result, self.expected) for result in results]

    def finish(self, failures: Sequence[ProblemFailure]) -> int:
        """Print the problems that could not run and the total; the number of checkpoints
        (and problems) that are not ok."""
        for failure in failures:
            line = Text("FAIL ", style="red")
            line.append(f" {failure.problem}: {failure.error}")
            self.console.print(line)
        bad = sum(not v.ok for v in self.verdicts) + len(failures)
        self.console.print(Text(total_line(self.verdicts, failures)))
        for verdict in self.verdicts:
            for key in verdict.fixed:
                self.console.print(Text(f"now passes (drop it from the expected failures): {key}"))
        return bad


def total_line(verdicts: Sequence[Verdict], failures: Sequence[ProblemFailure]) -> str:
    ok = sum(v.ok for v in verdicts)
    errored = sum(v.errored and not v.pinned for v in verdicts)
    failed = len(verdicts) - ok - errored
    pinned = sum(v.ok and (bool(v.expected) or v.pinned) for v in verdicts)
    text = f"{ok}/{len(verdicts)} reference checkpoints ok"
    text += f" ({pinned} with expected failures)" if pinned else ""
    text += f", {failed} failed, {errored} errored"
    text += f"; {count(len(failures), 'problem')} could not run" if failures else ""
    flaky = sum(len(v.load_sensitive) for v in verdicts)
    return text + (f"; {count(flaky, 'load-sensitive test')}, judged apart" if flaky else "")


def _test_json(result: CheckpointResult, test: CaseOutcome) -> dict[str, Any]:
    return {"id": test.nodeid, "key": case_key(result, test), "group": test.group,
            "outcome": test.outcome, "message": test.message,
            "load_sensitive": test.load_sensitive, "first_outcome": test.first_outcome,
            "first_message": test.first_message}  # fmt: skip


def _verdict_json(verdict: Verdict) -> dict[str, Any]:
    result = verdict.result
    return {
        "problem": result.problem, "checkpoint": result.checkpoint, "ok": verdict.ok,
        "verdict": verdict.kind, "status": result.status, "error": result.error,
        "pinned": verdict.pinned, "strict": result.strict, "isolated": result.isolated,
        "core": result.core, "totals": tally(result.tests), "groups": group_tallies(result),
        "unexpected": [_test_json(result, t) for t in verdict.unexpected],
        "expected": [_test_json(result, t) for t in verdict.expected],
        "fixed": list(verdict.fixed),
        "load_sensitive": [_test_json(result, t) for t in verdict.load_sensitive],
        "tests": [_test_json(result, t) for t in result.tests],
        "network": result.network, "network_from": result.network_from,
        "setup": [asdict(step) for step in result.setup],
    }  # fmt: skip


def validation_json(
    verdicts: Sequence[Verdict], failures: Sequence[ProblemFailure]
) -> dict[str, Any]:
    return {
        "ok": all(v.ok for v in verdicts) and not failures,
        "summary": total_line(verdicts, failures),
        "checkpoints": [_verdict_json(v) for v in verdicts],
        "problems_not_run": [{"problem": f.problem, "error": f.error} for f in failures],
    }
