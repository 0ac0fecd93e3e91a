"""What ``slopmark eval run`` and ``eval paste`` do once their options are parsed.

Kept apart from `slopmark.cli.evals` so that the OpenAI SDK and the store are
only imported when an eval command runs, not on every ``slopmark`` call.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from slopmark.cli.progress import progress_bar
from slopmark.cli.store import open_cli_store
from slopmark.errors import BadInput
from slopmark.evals.batch import Outcome as LineOutcome
from slopmark.evals.batch import Refused, Stored, store_batch, tally
from slopmark.evals.pool import load_pool
from slopmark.evals.runner import Outcome
from slopmark.evals.session import SuiteRequest, paste_target, plan_suite, run_plan
from slopmark.evals.summary import Summary, summarise
from slopmark.llm.retry import OnRetry, Retrying
from slopmark.plurals import count
from slopmark.store import Run, Series, series_runs


def run_suite_command(request: SuiteRequest, as_json: bool) -> int:
    """Run the suite, print its summary; the exit code is 1 while errored runs remain.

    The request is checked here, once (`plan_suite`); what runs it takes the plan."""
    plan = plan_suite(request)
    engine = open_cli_store(request.db)
    with progress_bar(f"{request.domain} × {request.model}", lines=True) as advance:
        outcome = run_plan(plan, engine, advance, _retry_notes())
    series = plan.series
    summary = summarise([t.id for t in plan.suite.tasks], series_runs(engine, series))
    show = _summary_json if as_json else _summary_text
    print(show(series, request.domain, outcome, summary))
    return 1 if summary.errors else 0


def _retry_notes() -> OnRetry:
    """Say on stderr, at once, that a request failed and will be tried again: one line per
    failure and attempt number, so many tasks failing alike print one line per round."""
    shown: set[tuple[str, int]] = set()

    def note(retrying: Retrying) -> None:
        seen = (retrying.failure.message, retrying.number)
        if seen not in shown:
            shown.add(seen)
            print(f"slopmark: {retrying.line()}", file=sys.stderr, flush=True)

    return note


def _summary_json(series: Series, domain: str, outcome: Outcome, summary: Summary) -> str:
    this_run = {
        "asked": outcome.planned,
        "stored": len(outcome.stored),
        "skipped": outcome.skipped,
        "duplicates": outcome.duplicates,
    }
    payload = {"series": asdict(series), "domain": domain, "summary": summary.to_json()}
    return json.dumps(payload | {"this_run": this_run}, indent=1)


def _undefined_or(value: float | None, form: str) -> str:
    return "undefined" if value is None else form.format(value)


def _cost(summary: Summary) -> str:
    if summary.ok == 0:
        return "undefined (no finished run)"
    if summary.total_cost_usd is None:
        return f"unknown ({summary.cost_unknown} of {count(summary.ok, 'run')} without a cost)"
    return f"${summary.total_cost_usd:.4f}"


def _errors(summary: Summary) -> str:
    if not summary.errors:
        return ""
    return (
        f"\n{count(summary.errors, 'task')} errored (kept out of the pass rate); most common error "
        f"({summary.top_error_count}×): {summary.top_error}\n"
        "run the same command again, or with --retry-errors to ask only those"
    )


def _summary_text(series: Series, domain: str, outcome: Outcome, summary: Summary) -> str:
    percent = None if summary.pass_rate is None else 100 * summary.pass_rate
    rate = _undefined_or(percent, "{:.1f}%")
    return (
        f"{series.model} ({series.provider}) on {domain}, mode {series.mode}, "
        f"harness {series.harness_version}, task set {series.task_set_version}\n"
        f"asked {count(outcome.planned, 'task')} now; {outcome.skipped} skipped\n"
        f"ok {summary.ok}, error {summary.errors}, not run {summary.not_run} "
        f"of {count(summary.tasks, 'task')}\n"
        f"pass rate {rate} ({summary.passed}/{summary.n}, n={summary.n}), "
        f"mean score {_undefined_or(summary.mean_score, '{:.3f}')}\n"
        f"mean latency {_undefined_or(summary.mean_latency_ms, '{:.0f} ms')}, "
        f"total cost {_cost(summary)}" + _errors(summary)
    )


def paste_command(
    task_id: str,
    model: str,
    read_answer: Callable[[], str],
    paths: tuple[Path, ...],
    db: str | None,
    as_json: bool,
) -> int:
    """Score and store a pasted answer, print the verdict; exit 1 only if it could not be scored.

    The task is found before the answer is read, so nobody types an answer
    for a task id that does not exist.
    """
    target = paste_target(load_pool(None, paths), task_id, model)
    answer = read_answer()
    stored = target.store(open_cli_store(db), answer)
    print(json.dumps(run_json(stored), indent=1) if as_json else verdict_text(stored))
    return 1 if stored.status == "error" else 0


def run_json(run: Run) -> dict[str, Any]:
    """A run as JSON: every field, the timestamp in ISO 8601."""
    record = asdict(run)
    record["created_at"] = run.created_at.isoformat() if run.created_at else None
    return record


def verdict_text(run: Run) -> str:
    """PASS/FAIL with the score, then one line per check (✓ or ✗ and why)."""
    if run.status == "error":
        return f"ERROR {run.task_id}: {run.error}"
    verdict = "PASS" if run.passed else "FAIL"
    ambiguous = " (ambiguous)" if run.ambiguous else ""
    lines = [f"{verdict} {run.task_id}: score {run.score or 0.0:.3f}{ambiguous}"]
    for check in run.details.get("checks", []):
        detail = f": {check['detail']}" if check["detail"] else ""
        lines.append(f"  {'✓' if check['passed'] else '✗'} {check['name']}{detail}")
    lines.append(f"stored as run {run.id} (paste, model {run.model!r}, attempt {run.attempt})")
    return "\n".join(lines)


def _read_batch(path: Path) -> str:
    """The text of a --jsonl file (``-``: stdin)."""
    if str(path) == "-":
        text = sys.stdin.read()
    else:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise BadInput(f"--jsonl {str(path)!r}: cannot read it: {error}") from error
    if not text.strip():
        raise BadInput(f"--jsonl {str(path)!r}: no lines in it; give one JSON object per line")
    return text


def batch_paste_command(path: Path, paths: tuple[Path, ...], db: str | None, as_json: bool) -> int:
    """Score and store each line of ``path``; a refused line is said on stderr as
    ``FILE:LINE: why`` and the rest go on. Exit 2 if any line was refused, else 1 if any
    run errored, else 0."""
    text = _read_batch(path)
    outcomes = store_batch(open_cli_store(db), text, load_pool(None, paths))
    name = "<stdin>" if str(path) == "-" else str(path)
    for outcome in outcomes:
        if isinstance(outcome, Refused):
            print(f"{name}:{outcome.line}: {outcome.error}", file=sys.stderr)
    counts = tally(outcomes)
    show = _batch_json if as_json else _batch_text
    print(show(name, outcomes))
    return 2 if counts.refused else 1 if counts.errored else 0


def _batch_text(name: str, outcomes: list[LineOutcome]) -> str:
    lines = [
        f"{name}:{o.line}: {_verdict_word(o.run)} {o.run.task_id} ({o.run.model}): "
        f"score {o.run.score or 0.0:.3f}, run {o.run.id}"
        for o in outcomes
        if isinstance(o, Stored)
    ]
    return "\n".join([*lines, tally(outcomes).line()])


def _verdict_word(run: Run) -> str:
    if run.status == "error":
        return "ERROR"
    return "PASS" if run.passed else "FAIL"


def _batch_json(name: str, outcomes: list[LineOutcome]) -> str:
    counts = tally(outcomes)
    lines = [
        {"line": o.line, "run": run_json(o.run)} if isinstance(o, Stored)
        else {"line": o.line, "error": o.error}
        for o in outcomes
    ]  # fmt: skip
    summary = asdict(counts) | {"failed": counts.failed}
    return json.dumps({"file": name, "summary": summary, "lines": lines}, indent=1)
