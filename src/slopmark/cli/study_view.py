"""A study's run summary, report (table and JSON) and trajectory chart."""

from __future__ import annotations

import json
import os
from pathlib import Path

from rich.table import Table

from slopmark.cli.output import print_json
from slopmark.cli.tables import print_table, sized_console
from slopmark.code.study.records import RepoRecord
from slopmark.code.study.report import LoadedStudy
from slopmark.code.study.summary import MetricSummary
from slopmark.code.study.sweep import StudyPlan
from slopmark.errors import BadInput
from slopmark.plurals import count
from slopmark.store.location import StoreLocation, locate
from slopmark.sweep.drive import Tally


def _target(target: str, db: str | None) -> tuple[str, StoreLocation]:
    """(study id, store) of a study folder or id."""
    folder = Path(target)
    manifest = folder / "study.json"
    if not manifest.is_file():
        if folder.exists() or "/" in target:
            raise BadInput(f"{target}: not a study folder (no study.json); pass `code study --out`")
        return target, locate(db, os.environ)
    try:
        record = json.loads(manifest.read_text(encoding="utf-8"))
        study, saved = str(record["id"]), str(record["db"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise BadInput(f"{manifest}: unreadable study record ({error})") from None
    if db is not None or os.environ.get("SLOPMARK_DB"):
        return study, locate(db, os.environ)
    if "***" in saved:
        raise BadInput(f"{manifest}: the store's password is not kept there; pass --db URL")
    return study, StoreLocation(saved, f"{manifest}: db")


def load_study(target: str, db: str | None, min_commits: int) -> LoadedStudy:
    from slopmark.code.study.stored import stored_study
    from slopmark.store.db import open_store

    study, store = _target(target, db)
    engine = open_store(store.url, store.origin)
    found = stored_study(engine, study, min_commits)
    if found is None:
        raise BadInput(
            f"study {study!r} is not in the store {store.url}; pass the --db it ran with"
        )
    return found


def _num(value: float | None, form: str = "{:+.5f}") -> str:
    return "–" if value is None else form.format(value)


def _share(metric: MetricSummary) -> str:
    share = metric.rose_share
    if share is None:
        return f"undefined (n={metric.rose_n})"
    return f"{100 * share:.1f}% ({metric.rose}/{metric.rose_n})"


def print_report(study: LoadedStudy) -> None:
    console = sized_console()
    summary = study.summary
    console.print(
        f"[bold]study {study.study}[/bold]: {summary.ok} of {count(summary.repos, 'repository')} "
        f"measured, {summary.failed} failed; {summary.used} with ≥ "
        f"{count(summary.min_commits, 'commit')}"
    )
    table = Table("repository", "commits", "erosion slope", "verbosity slope", "status")
    for record in study.records:
        status = record.status if record.error is None else f"{record.status}: {record.error}"
        table.add_row(record.repo, str(len(record.commits)), _num(record.erosion_slope),
                      _num(record.verbosity_slope), status)  # fmt: skip
    print_table(console, table)
    for metric in summary.metrics:
        levels = metric.slope.quantiles
        quantiles = ", ".join(f"q{round(level * 100)} {_num(v)}" for level, v in levels)
        console.print(
            f"{metric.metric}: rose first→last in {_share(metric)}; "
            f"slope per commit (n={metric.slope.n}) {quantiles}"
        )


def write_plot(path: Path, study: LoadedStudy) -> None:
    from slopmark.plot.band import band_chart

    panels = {
        m.metric: [(p.position, p.q1, p.median, p.q3) for p in m.band]
        for m in study.summary.metrics
    }
    title = f"{study.study}: {count(study.summary.used, 'repository')} (median and IQR)"
    band_chart(path, title=title, x_label="normalised commit position", panels=panels)


def print_run(
    plan: StudyPlan, tally: Tally, records: list[RepoRecord], folder: Path, as_json: bool
) -> None:
    """What this run did and where the study is."""
    failed = [r for r in records if r.status != "ok"]
    if as_json:
        print_json({
            "study": plan.study, "folder": str(folder), "sweep": tally.to_json(),
            "repos": {"total": len(plan.entries), "stored": len(records) - len(failed),
                      "failed": len(failed)},
        })  # fmt: skip
        return
    console = sized_console()
    console.print(
        f"study {plan.study}: {len(records) - len(failed)} of "
        f"{count(len(plan.entries), 'repository')} "
        f"stored ({tally.skipped} from earlier runs), {len(failed)} failed; "
        f"{tally.executor}, {tally.seconds:.1f} s"
    )
    for record in failed:
        console.print(f"[red]failed[/] {record.repo}: {record.error}", highlight=False)
    console.print(f"report: slopmark code study report {folder}")
