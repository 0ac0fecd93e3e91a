"""What ``slopmark eval suite`` does once its options are parsed: the sweep and its table."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.table import Table

from slopmark.cli import sweep_options
from slopmark.cli.tables import print_table, sized_console
from slopmark.evals.slices import SliceJob, slice_units, suite_jobs
from slopmark.evals.suitefile import read_suite
from slopmark.evals.summary import summarise
from slopmark.sweep.drive import Tally


def _slice_rows(jobs: list[SliceJob], tally: Tally, db_url: str) -> list[dict[str, Any]]:
    """Each slice's summary from the store (the same whichever executor ran it)."""
    from slopmark.store import open_store, series_runs

    engine = open_store(db_url)
    rows = []
    for job in jobs:
        request, series = job.request, job.plan.series
        summary = summarise([t.id for t in job.plan.suite.tasks], series_runs(engine, series))
        finished = tally.finished.get(job.key)
        rows.append({
            "model": f"{request.provider}:{request.model}", "base_url": request.base_url,
            "domain": request.domain, "series": asdict(series),
            "status": "not_finished" if finished is None else "ok" if finished.ok else "failed",
            "error": finished.error if finished is not None else None,
            "summary": summary.to_json(),
        })  # fmt: skip
    return rows


def _rate(summary: dict[str, Any]) -> str:
    rate = summary["pass_rate"]
    return "undefined" if rate is None else f"{100 * rate:.1f}%"


def _print_table(rows: list[dict[str, Any]]) -> None:
    table = Table("model", "domain", "pass rate", "n", "errors", "not run", "slice")
    for row in rows:
        s = row["summary"]
        table.add_row(row["model"], row["domain"], _rate(s), str(s["n"]), str(s["errors"]),
                      str(s["not_run"]), row["status"])  # fmt: skip
    print_table(sized_console(), table)


def run_suite_file(path: Path, where: tuple[str, str | None, int], db: str | None,
                   as_json: bool) -> int:  # fmt: skip
    """Run every slice of the suite at ``path``; 130 cancelled, 1 a slice failed or errored."""
    from slopmark.cli.sweep_view import sweep_view
    from slopmark.sweep.drive import run_sweep

    suite = read_suite(path)
    jobs = suite_jobs(suite)  # every domain's tasks load (a bad task file is one line, first)
    store = sweep_options.shared_store(db)
    executor = sweep_options.open_sweep(*where, store)
    url = store.url
    with sweep_view("suite") as view:
        tally = run_sweep(executor, slice_units(jobs, url), view=view)
    rows = _slice_rows(jobs, tally, url)
    if as_json:
        print(json.dumps({"suite": str(path), "slices": rows, "sweep": tally.to_json()}, indent=1))
    else:
        _print_table(rows)
    sweep_options.print_ending(tally, "slices")
    errored = sum(row["summary"]["errors"] for row in rows)
    return sweep_options.exit_code(tally, errored)
