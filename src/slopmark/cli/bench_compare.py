"""`slopmark code bench compare`: several runs side by side by phase (SCB paper, Figure 3).

Per run (an agent, model or prompt) and phase: the strict solve rate, mean
erosion, verbosity and relative churn, as a table, as ``--json`` and as one
figure (``--plot``) with a panel per measure and a line per run. A run is
named by its ``run.json``: ``agent · model · prompt`` (the folder added when
two runs share those). A value's n is the number of checkpoints it rests on:
the counted checkpoints for the solve rate, the measured checkpoints where
the measure is defined for the others (relative churn has none at Start).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from slopmark.cli.tables import print_table
from slopmark.code.bench.readrun import ReadRun
from slopmark.code.bench.results import CheckpointResult
from slopmark.code.bench.scoring import (
    EROSION,
    PHASES,
    RELATIVE_CHURN,
    VERBOSITY,
    Rates,
    counted,
    phase,
    summarize,
)
from slopmark.plurals import count

if TYPE_CHECKING:
    from slopmark.plot import Panel

__all__ = [
    "MEASURES",
    "Compared",
    "compare_json",
    "compare_runs",
    "print_compare",
    "shown_phases",
    "write_compare_plots",
]

#: the longest agent, model or prompt a label shows before cutting it with "…"
LONGEST = 40
#: the file name (without suffix) of the figure in the --plot folder
FIGURE = "runs_by_phase"

Reader = Callable[[CheckpointResult], float | None]


def _strict(result: CheckpointResult) -> float:
    return float(result.strict)


@dataclass(frozen=True)
class Measure:
    """One panel: the `Rates` field drawn and how to tell which checkpoints it rests on."""

    field: str
    title: str
    y_label: str
    reader: Reader
    #: only measured checkpoints count (quality); else every counted checkpoint
    measured: bool
    y_high: float | None


MEASURES = (
    Measure("strict", "Strict solve rate", "share of checkpoints", _strict, False, 1.05),
    Measure("erosion", "Erosion (mean)", "erosion", EROSION, True, None),
    Measure("verbosity", "Verbosity (mean)", "verbosity", VERBOSITY, True, None),
    Measure("relative_churn", "Relative churn (mean)", "lines changed / previous lines",
            RELATIVE_CHURN, True, None),
)  # fmt: skip


@dataclass(frozen=True)
class Compared:
    label: str
    run: ReadRun
    phases: dict[str, Rates]
    overall: Rates
    #: measure → phase → the checkpoints its value rests on
    n: dict[str, dict[str, int]]


def _short(text: str) -> str:
    return text if len(text) <= LONGEST else text[: LONGEST - 1] + "…"


def _legend(run: Compared, compared: Sequence[Compared]) -> str:
    """A run's name in a figure's legend: its parts cut to `LONGEST` characters, unless
    that makes two runs alike (tables print the whole label)."""
    short = [" · ".join(map(_short, c.label.split(" · "))) for c in compared]
    mine = short[compared.index(run)]
    return mine if short.count(mine) == 1 else run.label


def _label(run: ReadRun) -> str:
    m = run.manifest
    names = [(m.agent, "agent"), (m.model, "model"), (m.prompt, "prompt")]
    return " · ".join(value or f"{key} unknown" for value, key in names)


def _count(results: Sequence[CheckpointResult], measure: Measure) -> int:
    pool = [r for r in results if r.quality is not None] if measure.measured else results
    return sum(measure.reader(r) is not None for r in pool)


def _counts(results: Sequence[CheckpointResult]) -> dict[str, dict[str, int]]:
    grouped: dict[str, list[CheckpointResult]] = {}
    for result in counted(results):
        grouped.setdefault(phase(result.index, result.count), []).append(result)
    return {
        m.field: {name: _count(grouped[name], m) for name in PHASES if name in grouped}
        for m in MEASURES
    }


def _unique(labels: list[str], runs: Sequence[ReadRun]) -> list[str]:
    """Labels made unique by the run folder's name where two runs share one."""
    return [
        f"{label} [{run.run_dir.resolve().name}]" if labels.count(label) > 1 else label
        for label, run in zip(labels, runs, strict=True)
    ]


def compare_runs(runs: Sequence[ReadRun]) -> list[Compared]:
    """Each run's rates by phase, with its label and the n of every value."""
    labels = _unique([_label(run) for run in runs], runs)
    compared = []
    for label, run in zip(labels, runs, strict=True):
        summary = summarize(run.results)
        compared.append(Compared(label, run, summary.phases, summary.overall, _counts(run.results)))
    return compared


def shown_phases(compared: Sequence[Compared]) -> list[str]:
    """The phases any run has, in `PHASES` order."""
    return [name for name in PHASES if any(name in c.phases for c in compared)]


def compare_json(compared: Sequence[Compared]) -> dict[str, Any]:
    return {
        "phases": shown_phases(compared),
        "runs": [
            {"label": c.label, "run_dir": str(c.run.run_dir), "run": c.run.manifest.record,
             "churn_recomputed": list(c.run.recomputed), "n": c.n,
             "phases": {name: asdict(rates) for name, rates in c.phases.items()},
             "overall": asdict(c.overall)}
            for c in compared
        ],
    }  # fmt: skip


def _value(rates: Rates | None, field: str) -> float | None:
    return None if rates is None else getattr(rates, field)


def _cell(value: float | None, n: int, percent: bool) -> str:
    if value is None:
        return f"– (n={n})"
    return f"{100 * value:.1f}% (n={n})" if percent else f"{value:.3f} (n={n})"


def print_compare(console: Console, compared: Sequence[Compared]) -> None:
    """One row per run and phase: every measure with its n."""
    table = Table("run", "phase", *(m.title for m in MEASURES), title="Runs by phase")
    for c in compared:
        for name in shown_phases(compared):
            cells = [
                _cell(_value(c.phases.get(name), m.field), c.n[m.field].get(name, 0),
                      m.field == "strict")
                for m in MEASURES
            ]  # fmt: skip
            table.add_row(c.label, name, *cells)
    print_table(console, table)
    for c in compared:
        if c.run.recomputed:
            console.print(f"{c.label}: relative churn recomputed from the workspace snapshots "
                          f"for {count(len(c.run.recomputed), 'checkpoint')}")  # fmt: skip


def _tick(name: str, ns: Sequence[int]) -> str:
    return f"{name}\nn={ns[0]}" if len(set(ns)) == 1 else f"{name}\nn={', '.join(map(str, ns))}"


def _panel(measure: Measure, compared: Sequence[Compared], phases: Sequence[str]) -> Panel:
    from slopmark.plot import Panel

    ticks = [_tick(name, [c.n[measure.field].get(name, 0) for c in compared]) for name in phases]
    series = {_legend(c, compared): [_value(c.phases.get(name), measure.field) for name in phases]
              for c in compared}  # fmt: skip
    return Panel(measure.title, ticks, series, measure.y_label, (0.0, measure.y_high))


def write_compare_plots(folder: Path, compared: Sequence[Compared]) -> list[Path]:
    """The comparison figure as PNG and SVG in ``folder`` (made if needed)."""
    from slopmark.plot import panel_chart

    phases = shown_phases(compared)
    panels = [_panel(measure, compared, phases) for measure in MEASURES]
    title = (f"{count(len(compared), 'run')} by phase (means per checkpoint; "
             "n = checkpoints per run, in legend order)")  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / f"{FIGURE}{suffix}" for suffix in (".png", ".svg")]
    for path in written:
        panel_chart(path, title=title, panels=panels)
    return written
