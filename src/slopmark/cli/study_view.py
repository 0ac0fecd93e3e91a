"""A study's run summary, report (table and JSON) and trajectory chart."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table

from slopmark.cli.history_view import roots_note
from slopmark.cli.output import print_json
from slopmark.cli.tables import print_table, sized_console
from slopmark.code.study.intervals import MeanInterval
from slopmark.code.study.panel import BINS, DEFAULT_BIRTH, BirthRule, Share
from slopmark.code.study.records import RepoRecord
from slopmark.code.study.report import LoadedStudy, excluded_at_head, first_last, measured
from slopmark.code.study.summary import MetricSummary, Spread, StudySummary
from slopmark.code.study.sweep import StudyPlan
from slopmark.errors import BadInput
from slopmark.executor import Finished
from slopmark.plurals import count
from slopmark.store.location import StoreLocation, locate
from slopmark.sweep.drive import Tally

if TYPE_CHECKING:
    from rich.console import Console


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


def load_study(
    target: str, db: str | None, min_commits: int, birth: BirthRule = DEFAULT_BIRTH
) -> LoadedStudy:
    from slopmark.cli.store import existing
    from slopmark.code.study.stored import stored_study
    from slopmark.store.db import open_store

    study, store = _target(target, db)
    engine = open_store(existing(store).url, store.origin)
    found = stored_study(engine, study, min_commits, birth)
    if found is None:
        raise BadInput(
            f"study {study!r} is not in the store {store.url}; pass the --db it ran with"
        )
    return found


def _num(value: float | None, form: str = "{:+.5f}") -> str:
    return "–" if value is None else form.format(value)


def _interval(share: Share) -> str:
    if share.low is None or share.high is None:
        return f"undefined (n={share.n})"
    return (
        f"{100 * share.k / share.n:.1f}% ({share.k}/{share.n}, 95% Wilson "
        f"{100 * share.low:.1f}–{100 * share.high:.1f}%)"
    )


def _mean(mean: MeanInterval, form: str = "{:.4f}") -> str:
    if mean.mean is None:
        return f"– (n={mean.n})"
    sd = "" if mean.sd is None else f" ± {form.format(mean.sd)} sd"
    return f"{form.format(mean.mean)}{sd} (n={mean.n})"


def _quantiles(spread: Spread) -> str:
    shown = ", ".join(f"q{round(level * 100)} {_num(v)}" for level, v in spread.quantiles)
    return f"(n={spread.n}) {shown}"


def _bin(low: float, mean: MeanInterval) -> str:
    if mean.low is None or mean.high is None:
        return f"{low:.1f}: {_num(mean.mean, '{:.3f}')} (n={mean.n})"
    return f"{low:.1f}: {mean.mean:.3f} [{mean.low:.3f}, {mean.high:.3f}] (n={mean.n})"


def _metric_lines(metric: MetricSummary) -> list[str]:
    paper, growth = metric.paper, metric.paper.growth
    median = "–" if growth.median is None else f"{100 * growth.median:+.1f}%"
    bins = "; ".join(_bin(b.low, b.mean) for b in paper.trajectory)
    return [
        f"{metric.metric}: rose first→last in {_interval(paper.rose)}; "
        f"without birth-effect repositories {_interval(paper.rose_without_birth)}",
        f"  median growth (last−first)/first {median} (n={growth.n}, "
        f"{growth.zero_first} left out with first value 0); HEAD mean {_mean(paper.head)}",
        f"  slope per commit {_quantiles(metric.slope)}",
        f"  slope per normalised position 0..1 {_quantiles(metric.slope_progress)}",
        f"  mean trajectory, 95% t CI per bin of normalised position (bin start): {bins}",
    ]


def _print_metrics(console: Console, metrics: tuple[MetricSummary, ...]) -> None:
    for metric in metrics:
        for line in _metric_lines(metric):
            console.print(line, highlight=False)


def _repo_table(study: LoadedStudy) -> Table:
    """A row per repository; the group column only when the REPOS file gives groups."""
    grouped = bool(study.groups)
    table = Table("repository", *(["group"] if grouped else []), "commits", "erosion slope",
                  "verbosity slope", "birth effect", "status")  # fmt: skip
    birth = study.summary.birth
    for record in study.records:
        status = record.status if record.error is None else f"{record.status}: {record.error}"
        group = [study.groups.get(record.repo, "–")] if grouped else []
        table.add_row(record.repo, *group, str(len(record.commits)), _num(record.erosion_slope),
                      _num(record.verbosity_slope), "yes" if birth.flags(record) else "",
                      status)  # fmt: skip
    return table


def _progress(study: LoadedStudy) -> str:
    """``12 of 29 repositories measured, 17 pending, 0 failed`` (pending: not stored yet)."""
    summary = study.summary
    pending = study.pending or 0
    waiting = f", {pending} pending" if pending else ""
    return (
        f"{summary.ok} of {summary.repos + pending} repositories measured{waiting}, "
        f"{summary.failed} failed"
    )


def _root_warnings(study: LoadedStudy, console: Console) -> None:
    """A warning per repository whose history holds a second root commit."""
    for record in study.records:
        lineages = [p.lineage or "unknown" for p in record.commits]
        note = roots_note(record.roots or (), lineages, study.settings.all_branches)
        if note is not None:
            console.print(f"[yellow]warning[/yellow] {record.repo}: {note}", highlight=False)


def print_report(study: LoadedStudy) -> None:
    console = sized_console()
    summary = study.summary
    console.print(
        f"[bold]study {study.study}[/bold]: {_progress(study)}; "
        f"{summary.used} with ≥ {summary.min_commits} commits"
    )
    chosen = measured(study.settings)
    left = excluded_at_head(study)
    out = [f"{n} {name}" for kind in ("by_language", "by_scope") for name, n in left[kind].items()]
    console.print(
        f"languages: {', '.join(chosen['languages'])}; scopes: {', '.join(chosen['scopes'])}; "
        f"rule set: {study.settings.rule_set}"
        + (f"; left out at HEAD (all repositories): {', '.join(out)}" if out else ""),
        highlight=False,
    )
    print_table(console, _repo_table(study))
    console.print(
        f"birth effect: {summary.birth_flagged} of {summary.used} repositories start under "
        f"{summary.birth.sloc} SLOC or {summary.birth.files} files; slopes are OLS over sample "
        f"position i and over i/(n−1); the mean trajectory has {BINS} equal bins of i/(n−1)",
        highlight=False,
    )
    _print_metrics(console, summary.metrics)
    for group in summary.groups:
        name = group.group if group.group is not None else "(no group)"
        console.print(f"[bold]group {name}[/bold]: {group.used} repositories, "
                      f"{group.birth_flagged} with the birth effect")  # fmt: skip
        _print_metrics(console, group.metrics)
    if study.by_scope:
        print_table(console, _scope_table(study))
    _root_warnings(study, console)


def _scope_cells(summary: StudySummary) -> list[str]:
    """One column of the scope table: repositories, then per metric its share that rose,
    median growth and HEAD mean."""
    cells = [str(summary.used)]
    for metric in summary.metrics:
        rose, growth, head = metric.paper.rose, metric.paper.growth.median, metric.paper.head
        cells += [f"{rose.k}/{rose.n}", "–" if growth is None else f"{100 * growth:+.1f}%",
                  _num(head.mean, "{:.4f}")]
    return cells  # fmt: skip


def _scope_table(study: LoadedStudy) -> Table:
    """The study's numbers per scope side by side with the whole tree's."""
    columns = {"all": study.summary, **study.by_scope}
    table = Table("per scope", *columns, title="per scope, each measured apart: repositories "
                  "that rose of those that count, median growth, HEAD mean")  # fmt: skip
    labels = ["repositories that count"]
    for metric in study.summary.metrics:
        labels += [f"{metric.metric} rose", f"{metric.metric} median growth",
                   f"{metric.metric} HEAD mean"]  # fmt: skip
    cells = [_scope_cells(summary) for summary in columns.values()]
    for index, label in enumerate(labels):
        table.add_row(label, *(column[index] for column in cells))
    return table


def _group_plot(path: Path, study: LoadedStudy) -> None:
    """Each group's mean trajectory with its 95% interval (the paper's Figure 4)."""
    from slopmark.plot.groups import group_chart

    panels: dict[str, dict[str, list[tuple[float, float | None, float | None, float | None]]]]
    panels = {}
    for group in study.summary.groups:
        label = f"{group.group or '(no group)'} (n={group.used})"
        for metric in group.metrics:
            points = [((b.low + b.high) / 2, b.mean.low, b.mean.mean, b.mean.high)
                      for b in metric.paper.trajectory]  # fmt: skip
            panels.setdefault(metric.metric, {})[label] = points
    title = f"{study.study}: {study.summary.used} repositories by group (mean and 95% CI)"
    group_chart(path, title=title, x_label="normalised commit position (bin centre)", panels=panels)


def write_plot(path: Path, study: LoadedStudy) -> None:
    """With groups, each group's mean trajectory; without, the median and IQR band."""
    from slopmark.plot.band import band_chart

    if study.summary.groups:
        _group_plot(path, study)
        return
    panels = {
        m.metric: [(p.position, p.q1, p.median, p.q3) for p in m.band]
        for m in study.summary.metrics
    }
    title = f"{study.study}: {count(study.summary.used, 'repository')} (median and IQR)"
    band_chart(path, title=title, x_label="normalised commit position", panels=panels)


def _change(record: RepoRecord, metric: str) -> str:
    first, last = first_last(record, metric)
    if first is None or last is None:
        return f"{metric} undefined"
    return f"{metric} {first:.3f}→{last:.3f}"


def finished_line(finished: Finished) -> str:
    """A finished repository in one line: measured with its erosion first→last, or failed."""
    record = finished.value
    if not finished.ok or not isinstance(record, RepoRecord):
        return f"{finished.key}: failed: {finished.error}"
    if record.status != "ok":
        return f"{record.repo}: failed: {record.error}"
    return f"{record.repo}: measured {len(record.commits)} commits ({_change(record, 'erosion')})"


def print_run(
    plan: StudyPlan, tally: Tally, records: list[RepoRecord], folder: Path, as_json: bool
) -> None:
    """What this run did and where the study is."""
    failed = [r for r in records if r.status != "ok"]
    if as_json:
        print_json({
            "study": plan.study, "folder": str(folder), "rule_set": plan.settings.rule_set,
            "sweep": tally.to_json(),
            "repos": {"total": len(plan.entries), "stored": len(records) - len(failed),
                      "failed": len(failed)},
        })  # fmt: skip
        return
    console = sized_console()
    console.print(
        f"study {plan.study}: {len(records) - len(failed)} of "
        f"{count(len(plan.entries), 'repository')} "
        f"stored ({tally.skipped} from earlier runs), {len(failed)} failed; "
        f"{tally.executor}, {tally.seconds:.1f} s; rule set {plan.settings.rule_set}"
    )
    for record in failed:
        console.print(f"[red]failed[/] {record.repo}: {record.error}", highlight=False)
    console.print(f"report: slopmark code study report {folder}")
