"""``slopmark board``: leaderboards, paired comparisons, exports, CI gates and pool adequacy.

The store (SQLAlchemy, Alembic) is imported only when a command runs, so
``slopmark --help`` stays fast. The rules live in `slopmark.board.leaderboard`.
"""

from __future__ import annotations

import functools
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from slopmark.board.checkpoints import CODE_ITERATIVE_DOMAIN, GROUPS
from slopmark.board.leaderboard import MARGIN, board_json
from slopmark.cli.options import DB_HELP, non_empty, none_empty
from slopmark.cli.output import output_file, print_json, write_file
from slopmark.cli.tables import print_table, sized_console
from slopmark.errors import BadInput, CheckFailed
from slopmark.plurals import count

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from slopmark.board.checkpoints import CheckpointMeans
    from slopmark.board.compare import Comparison
    from slopmark.board.gate import GateResult
    from slopmark.board.grouprows import RowSource, RunFilter
    from slopmark.board.leaderboard import Adequacy, Board, Row
    from slopmark.board.stats import Interval

app = typer.Typer(
    help="The board: leaderboards with intervals and tie bands, comparisons, exports, CI gates.",
    no_args_is_help=True,
)

_DB = typer.Option(None, "--db", help=DB_HELP)
_SOURCE = typer.Option(None, "--source", help="Only runs of seed, community or original tasks.")
_HARNESS = typer.Option(None, "--harness-version", help="Only runs under this harness version.")
_TASK_SET = typer.Option(None, "--task-set-version", help="Only runs on this task-set version.")
_MODE = typer.Option(None, "--mode", help="Only runs in this harness mode.")
_TASKS = typer.Option(
    "common", "--tasks", help="common: tasks every listed model ran; all: raw, not comparable."
)


class TaskSet(StrEnum):
    common = "common"
    all = "all"


class ExportFormat(StrEnum):
    json = "json"
    csv = "csv"


class ExportWhat(StrEnum):
    runs = "runs"
    leaderboard = "leaderboard"


#: What each format exports when --what is not given (as before --what existed).
_EXPORT_DEFAULT = {ExportFormat.json: ExportWhat.runs, ExportFormat.csv: ExportWhat.leaderboard}


def _filter(
    db: str | None,
    domain: str | None,
    source: str | None,
    harness: str | None = None,
    task_set: str | None = None,
    mode: str | None = None,
) -> RunFilter:
    from slopmark.board.grouprows import RunFilter
    from slopmark.evals.task import DOMAINS, SOURCES

    given = {"--domain": domain, "--source": source, "--harness-version": harness,
             "--task-set-version": task_set, "--mode": mode}  # fmt: skip
    for option, value in given.items():
        non_empty(value, option)
    if domain is not None and domain not in DOMAINS:  # only then is the store asked
        from slopmark.board.query import known_domain

        known_domain(_open(db), domain)
    if source is not None and source not in SOURCES:
        raise BadInput(f"--source {source!r}: must be one of {', '.join(SOURCES)}")
    return RunFilter(domain, source, harness, task_set, mode)


@functools.cache
def _open(db: str | None) -> Engine:
    from slopmark.cli.store import read_cli_store

    return read_cli_store(db)


def _rows(db: str | None) -> RowSource:
    """The store for the leaderboard's read: a read-only SQLite file at the latest schema
    straight through the standard library, anything else through `_open`."""
    from slopmark.board.grouprows import EngineRows, SqliteRows
    from slopmark.cli.store import read_location
    from slopmark.store.location import read_sqlite

    connection = read_sqlite(read_location(db).url)
    return EngineRows(_open(db)) if connection is None else SqliteRows(connection)


def _num(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _interval(interval: Interval) -> str:
    if interval.estimate is None:
        return f"undefined (n={interval.n})"
    return f"{interval.estimate:.3f} [{_num(interval.low)}, {_num(interval.high)}]"


def _cost(row: Row) -> str:
    if row.avg_cost_usd is None:
        return "unknown"
    partial = "" if row.cost_known == row.priced_runs else f" ({row.cost_known}/{row.priced_runs})"
    return f"${row.avg_cost_usd:.5f}{partial}"


def _cells(row: Row) -> list[str]:
    rank = row.rank or ("prov." if row.provisional else "–")
    coverage = f"{row.coverage.tasks}/{row.coverage.of}"
    cells = [rank, row.model, _interval(row.pass_rate), _interval(row.avg_score)]
    cells += [str(row.n), str(row.templates), coverage, _num(row.avg_latency_ms, 0), _cost(row)]
    cells += [str(row.errors), ",".join(row.sources)]
    if row.calibration is not None:
        report = row.calibration
        cells += [_num(report.ece), _num(report.brier), _num(report.overconfidence)]
    if row.checkpoints is not None:
        cells += _checkpoint_cells(row.checkpoints)
    return cells


#: a `code_iterative` board's own columns (`slopmark.board.checkpoints`)
CHECKPOINT_COLUMNS = [*(f"{g} %" for g in GROUPS), "churn", "CC>10", "wall s"]


def _checkpoint_cells(means: CheckpointMeans) -> list[str]:
    """Per-group pass rates (%), mean relative churn, CC>10 callables, seconds per checkpoint."""
    rates = [_num(None if r is None else 100 * r, 1) for r in means.group_rates.values()]
    return [*rates, _num(means.relative_churn, 2), _num(means.complex_callables, 1),
            _num(means.wall_per_checkpoint_s, 1)]  # fmt: skip


def _caption(board: Board, source: str | None) -> str:
    sources = f"source: {source or 'all'}"
    if not board.comparable:
        tasks = "all tasks: NOT COMPARABLE across models (each model on its own tasks)"
    else:
        used, seen, dropped = board.tasks_used, board.tasks_seen, board.tasks_dropped
        tasks = f"common tasks: {used} of {seen} ({dropped} dropped)"
    hidden = ", ".join(f"{h.model} ({count(h.n, 'run')})" for h in board.hidden)
    lines = [f"{sources} · {tasks}", "prov. = provisional (5–9 runs), not ranked"]
    return "\n".join(lines + ([f"hidden (< 5 runs): {hidden}"] if hidden else []))


def _table(board: Board, source: str | None) -> Table:
    table = Table(title=board.group.label(), title_justify="left", caption_justify="left")
    table.caption = _caption(board, source)
    columns = ["rank", "model", "pass rate [95% CI]", "avg score [95% CI]", "n", "templates"]
    columns += ["coverage", "latency ms", "cost/run", "errors", "sources"]
    if board.group.domain == "calibration":
        columns += ["ECE", "Brier", "overconf."]
    if board.group.domain == CODE_ITERATIVE_DOMAIN:
        columns += CHECKPOINT_COLUMNS
    for column in columns:
        table.add_column(column, justify="left" if column in ("model", "sources") else "right")
    for row in board.rows:
        table.add_row(*_cells(row))
    return table


@app.command()
def show(
    domain: str | None = typer.Option(None, "--domain", help="Only this domain."),
    source: str | None = _SOURCE,
    tasks: TaskSet = _TASKS,
    model: list[str] = typer.Option([], "--model", help="List only these models (repeatable)."),
    harness_version: str | None = _HARNESS,
    task_set_version: str | None = _TASK_SET,
    mode: str | None = _MODE,
    db: str | None = _DB,
    as_json: bool = typer.Option(False, "--json", help="Print the boards as JSON."),
) -> None:
    """One leaderboard per domain, harness version, task-set version and mode."""
    from slopmark.board.grouprows import stream_group_runs
    from slopmark.board.leaderboard import boards as make_boards

    none_empty(model, "--model")
    where = _filter(db, domain, source, harness_version, task_set_version, mode)
    boards = make_boards(stream_group_runs(_rows(db), where), tasks.value, tuple(model))
    if as_json:
        print_json({"filter": where.label(), "boards": [board_json(b) for b in boards]})
        return
    console = sized_console()
    empty = True
    for board in boards:
        print_table(console, _table(board, source), keys=2)
        empty = False
    if empty:
        console.print(f"no runs match {where.label()}")


def _comparison_lines(c: Comparison) -> list[str]:
    p = c.paired
    only_a, only_b = p.discordant
    return [
        c.group.label(),
        f"  tasks: {c.model_a} {c.tasks_a}, {c.model_b} {c.tasks_b}, common {c.common}"
        f" ({count(c.templates, 'template')}); paired n={p.n}, clusters={p.clusters}",
        f"  pass rate on common tasks: {_num(c.pass_rate_a)} vs {_num(c.pass_rate_b)}",
        f"  mean score difference A − B: {_num(p.mean_difference, 4)} (clustered SE "
        f"{_num(p.se, 4)}; 95% CI {_num(p.low, 4)} to {_num(p.high, 4)})",
        f"  correlation: {_num(p.correlation)}",
        f"  McNemar exact p: {_num(p.mcnemar_p, 4)} "
        f"(passed only by A: {only_a}, only by B: {only_b})",
    ]


@app.command()
def compare(
    model_a: str = typer.Argument(..., help="Model A."),
    model_b: str = typer.Argument(..., help="Model B."),
    domain: str = typer.Option(..., "--domain", help="The domain to compare them on."),
    source: str | None = _SOURCE,
    harness_version: str | None = _HARNESS,
    task_set_version: str | None = _TASK_SET,
    mode: str | None = _MODE,
    db: str | None = _DB,
    as_json: bool = typer.Option(False, "--json", help="Print the comparisons as JSON."),
) -> None:
    """Paired comparison of A and B on the tasks both ran: difference, SE, CI, McNemar."""
    non_empty(model_a, "MODEL_A")
    non_empty(model_b, "MODEL_B")
    from slopmark.board.compare import comparison_json
    from slopmark.board.query import compare_stored

    comparisons = compare_stored(
        _open(db),
        _filter(db, domain, source, harness_version, task_set_version, mode),
        model_a,
        model_b,
    )
    if as_json:
        print_json({"comparisons": [comparison_json(c) for c in comparisons]})
        return
    for comparison in comparisons:
        print("\n".join(_comparison_lines(comparison)))


def _write(chunks: Iterable[str], out: Path | None) -> None:
    if out is None:
        sys.stdout.writelines(chunks)
    else:
        write_file(out, chunks, "--out")


def _export_runs(fmt: ExportFormat, db: str | None, where: RunFilter) -> Iterable[str]:
    from slopmark.board.export import csv_rows, json_chunks
    from slopmark.board.query import EXPORT_COLUMNS, stream_records

    records = stream_records(_open(db), where)
    if fmt is ExportFormat.json:
        return json_chunks(records, {"filter": where.label()})
    return csv_rows(EXPORT_COLUMNS, records)


def _export_boards(
    fmt: ExportFormat, db: str | None, where: RunFilter, tasks: str
) -> Iterable[str]:
    from slopmark.board.export import boards_json_chunks, csv_lines
    from slopmark.board.grouprows import stream_group_runs
    from slopmark.board.leaderboard import boards

    found = boards(stream_group_runs(_rows(db), where), tasks)
    if fmt is ExportFormat.json:
        return boards_json_chunks(found, {"filter": where.label(), "tasks": tasks})
    return csv_lines(found)


@app.command()
def export(
    fmt: ExportFormat = typer.Option(..., "--format", help="json or csv."),
    what: ExportWhat | None = typer.Option(
        None,
        "--what",
        help="runs: every matching run, task level; leaderboard: the boards' rows "
        "(default: runs for json, leaderboard for csv).",
    ),
    domain: str | None = typer.Option(None, "--domain", help="Only this domain."),
    source: str | None = _SOURCE,
    tasks: TaskSet | None = typer.Option(
        None, "--tasks", help="With --what leaderboard: common (default) or all tasks."
    ),
    harness_version: str | None = _HARNESS,
    task_set_version: str | None = _TASK_SET,
    mode: str | None = _MODE,
    out: Path | None = typer.Option(None, "--out", help="Write here (default: stdout)."),
    db: str | None = _DB,
) -> None:
    """Stream the matching runs, or the leaderboards' rows, as JSON or CSV."""
    what = what or _EXPORT_DEFAULT[fmt]
    if tasks is not None and what is ExportWhat.runs:
        raise BadInput(f"--tasks {tasks.value}: only a leaderboard export uses it, not runs")
    if out is not None:
        output_file(out, "--out")
    where = _filter(db, domain, source, harness_version, task_set_version, mode)
    if what is ExportWhat.runs:
        chunks = _export_runs(fmt, db, where)
    else:
        chunks = _export_boards(fmt, db, where, (tasks or TaskSet.common).value)
    _write(chunks, out)


_PLOT_OUT = typer.Option(
    None,
    "--out",
    help="The chart file, .png or .svg (default: cost-capability.svg, or reliability.svg "
    "with --reliability). With several boards, one file each, the board added to the name.",
)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._]+", "_", text)


def _chart_paths(boards: Sequence[Board], out: Path) -> list[Path]:
    """``out`` for one board; else one file per board: ``out`` with the domain added to its
    name (and the harness, task set and mode, for a domain with several boards)."""
    if len(boards) == 1:
        return [out]
    per_domain = Counter(board.group.domain for board in boards)
    names = []
    for board in boards:
        group = board.group
        parts = [group.domain]
        if per_domain[group.domain] > 1:
            parts += [group.harness_version, group.task_set_version, group.mode]
        names.append(out.with_name(f"{out.stem}-{'-'.join(map(_slug, parts))}{out.suffix}"))
    return names


def _draw_cost_capability(board: Board, path: Path) -> str:
    from slopmark.board.costcap import cost_capability
    from slopmark.board.passrates import left_off
    from slopmark.plot import cost_capability_chart

    view = cost_capability(board)
    if not view.points:
        return _draw_pass_rates(board, path)
    cost_capability_chart(path, view)
    unknown = left_off(board)
    return f"{count(len(view.points), 'model')} plotted" + (f"; {unknown}" if unknown else "")


def _draw_pass_rates(board: Board, path: Path) -> str:
    """The chart of a board whose models' costs are all unknown: pass rate per model."""
    from slopmark.board.passrates import pass_rates
    from slopmark.plot import pass_rate_chart

    view = pass_rates(board)
    if not view.marks:  # every model hidden: no chart rather than empty axes
        return "not written: no model has the 5 counted runs a board shows"
    pass_rate_chart(path, view)
    return f"{count(len(view.marks), 'model')} drawn by pass rate. {view.reason}"


def _draw_reliability(board: Board, path: Path) -> str:
    from slopmark.board.reliability import reliability
    from slopmark.plot import reliability_chart

    view = reliability(board)
    reliability_chart(path, view)
    unstated = f"; no stated confidence: {', '.join(view.unstated)}"
    return f"{count(len(view.curves), 'model')} drawn" + (unstated if view.unstated else "")


@app.command()
def plot(
    domain: str | None = typer.Option(
        None, "--domain", help="Only this domain (default: every domain, a file each)."
    ),
    reliability: bool = typer.Option(
        False, "--reliability", help="The calibration domain's reliability diagrams instead."
    ),
    out: Path | None = _PLOT_OUT,
    source: str | None = _SOURCE,
    tasks: TaskSet = _TASKS,
    model: list[str] = typer.Option([], "--model", help="Plot only these models (repeatable)."),
    harness_version: str | None = _HARNESS,
    task_set_version: str | None = _TASK_SET,
    mode: str | None = _MODE,
    db: str | None = _DB,
) -> None:
    """Chart each leaderboard as PNG or SVG: the cost–capability view, or reliability diagrams.

    Cost–capability: x = average cost per run (log scale), y = pass rate with
    its 95% interval, a labelled point per model, the Pareto frontier drawn;
    models with unknown cost are listed under the chart, not plotted; when no
    model has a known cost (pasted answers, local models) the chart is pass
    rate [95% CI] per model instead, its caption saying why. The
    numbers are those of `board show`. Each board (domain, harness version,
    task set, mode) is its own chart and domains are never averaged: with
    several boards each gets a file named after --out plus its domain, e.g.
    cost-capability-math.svg. --reliability draws, per model of the
    calibration domain, mean stated confidence against accuracy in 10 bins
    with their counts and the diagonal. Needs matplotlib: the plot extra of slopmark.
    """
    from slopmark.board.grouprows import stream_group_runs
    from slopmark.board.leaderboard import boards as make_boards
    from slopmark.plot import chart_format

    if reliability and domain not in (None, "calibration"):
        raise BadInput(f"--reliability: only the calibration domain has one, not {domain!r}")
    none_empty(model, "--model")
    out = out or Path("reliability.svg" if reliability else "cost-capability.svg")
    chart_format(output_file(out, "--out"))
    where = _filter(db, "calibration" if reliability else domain, source, harness_version,
                    task_set_version, mode)  # fmt: skip
    found = list(make_boards(stream_group_runs(_rows(db), where), tasks.value, tuple(model)))
    if not found:
        raise BadInput(f"nothing to plot: no runs match {where.label()}")
    if len(found) > 1:
        print(_several_charts(len(found), out))
    draw = _draw_reliability if reliability else _draw_cost_capability
    for board, path in zip(found, _chart_paths(found, out), strict=True):
        print(f"{path}: {board.group.label()}: {draw(board, path)}")


def _several_charts(count: int, out: Path) -> str:
    named = out.with_name(f"{out.stem}-<board>{out.suffix}")
    return (
        f"{count} boards, one chart each, named {named} (<board>: the domain, with the harness, "
        f"task set and mode when a domain has several boards); {out} itself is not written"
    )


def _gate_lines(result: GateResult) -> list[str]:
    lines = [f"gate on {result.board}"]
    lines += [f"  {'PASS' if c.passed else 'FAIL'} {c.name}: {c.message}" for c in result.checks]
    return lines


def _write_junit(result: GateResult, path: Path) -> None:
    from slopmark.board.gate import junit_xml

    write_file(path, junit_xml(result), "--junit")


@app.command("gate")
def gate_command(
    model: str = typer.Option(..., "--model", help="The model to gate."),
    domain: str = typer.Option(..., "--domain", help="The domain it is gated on."),
    min_pass_rate: float = typer.Option(
        ..., "--min-pass-rate", min=0.0, max=1.0, help="Required pass rate, e.g. 0.8."
    ),
    baseline: str | None = typer.Option(
        None, "--baseline", help="Also fail if the model is significantly worse than this one."
    ),
    use_lower_bound: bool = typer.Option(
        False, "--use-lower-bound", help="Require the 95% lower bound to clear the threshold."
    ),
    junit: Path | None = typer.Option(None, "--junit", help="Write the result as JUnit XML here."),
    source: str | None = _SOURCE,
    harness_version: str | None = _HARNESS,
    task_set_version: str | None = _TASK_SET,
    mode: str | None = _MODE,
    db: str | None = _DB,
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Exit 1 with the reason unless MODEL clears the gate on DOMAIN.

    Runs on the group (harness version, task-set version, mode) of the model's
    most recent run; narrow it with --harness-version, --task-set-version, --mode.
    """
    from slopmark.board.gate import GateRequest
    from slopmark.board.query import run_gate

    non_empty(model, "--model")
    non_empty(baseline, "--baseline")
    if junit is not None:
        output_file(junit, "--junit")
    where = _filter(db, domain, source, harness_version, task_set_version, mode)
    request = GateRequest(model, min_pass_rate, baseline, use_lower_bound)
    result = run_gate(_open(db), where, request)
    if junit is not None:
        _write_junit(result, junit)
    if as_json:
        print_json(asdict(result) | {"reason": result.reason})
    else:
        print("\n".join(_gate_lines(result)))
    if not result.passed:
        raise CheckFailed(f"gate failed for {model} on {result.board}: {result.reason}")


def _adequacy_rows(engine: Engine, source: str | None) -> list[Adequacy]:
    from slopmark.board.leaderboard import adequacy
    from slopmark.board.query import RunFilter, score_spread
    from slopmark.evals.pool import load_pool
    from slopmark.evals.task import DOMAINS

    rows = []
    for domain in DOMAINS:
        pool = [t for t in load_pool(domain) if source in (None, t.source)]
        templates = len({t.template_id or t.id for t in pool})
        spread = score_spread(engine, RunFilter(domain=domain, source=source))
        rows.append(adequacy(domain, len(pool), templates, spread.n, spread.sigma))
    return rows


@app.command("adequacy")
def adequacy_command(
    source: str | None = _SOURCE,
    db: str | None = _DB,
    as_json: bool = typer.Option(False, "--json", help="Print the rows as JSON."),
) -> None:
    """Per domain: tasks and templates in the pool against n = ⌈(1.96σ/0.03)²⌉ from the runs' σ."""
    rows = _adequacy_rows(_open(db), _filter(db, None, source).source)
    if as_json:
        print_json({"margin": MARGIN, "confidence": 0.95, "domains": [asdict(row) for row in rows]})
        return
    table = Table(title=f"pool adequacy (±{MARGIN} at 95%)", title_justify="left")
    for column in ("domain", "tasks", "templates", "scored runs", "σ", "required", "verdict"):
        table.add_column(column, justify="left" if column in ("domain", "verdict") else "right")
    for row in rows:
        required = "–" if row.required is None else str(row.required)
        cells = (str(row.tasks), str(row.templates), str(row.scores), _num(row.sigma), required)
        table.add_row(row.domain, *cells, row.verdict)
    print_table(sized_console(), table)
