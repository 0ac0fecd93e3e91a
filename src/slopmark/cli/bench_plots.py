"""The charts of `slopmark code bench report --plot`: solve rate and quality by phase.

Each chart names the run (its folder), agent, model and prompt in its title,
as ``run.json`` records them; a phase's tick label gives the number of
checkpoints its values rest on (``Early\\nn=4``). Rates are drawn on 0–100%
with every bar's value written above it (a 0% bar is a marker on the axis);
the quality axis starts at 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from slopmark.code.bench.manifest import NAMED, read_manifest
from slopmark.code.bench.results import CheckpointResult
from slopmark.code.bench.scoring import Rates, summarize

__all__ = ["run_caption", "write_plots"]

#: the longest agent, model or prompt a title shows before cutting it with "…"
LONGEST = 40
#: the rates' y axis: 0 to a little over 100%, room for the value labels
RATE_RANGE = (0.0, 1.1)


def _short(text: str) -> str:
    return text if len(text) <= LONGEST else text[: LONGEST - 1] + "…"


def run_caption(run_dir: Path) -> str:
    """``<folder> · agent A · model M · prompt P``, from RUN_DIR/run.json ("unknown" where
    it records none); a missing or malformed run.json is `BadInput` naming it."""
    manifest = read_manifest(run_dir)
    parts = [run_dir.resolve().name]
    for key in NAMED:
        value = getattr(manifest, key)
        parts.append(f"{key} {_short(value)}" if value else f"{key} unknown")
    return " · ".join(parts)


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%"


def _ticks(phases: dict[str, Rates], counted: str) -> list[str]:
    return [f"{name}\nn={getattr(rates, counted)}" for name, rates in phases.items()]


def write_plots(run_dir: Path, results: Sequence[CheckpointResult]) -> list[Path]:
    """Solve rate and quality by phase, as PNG and SVG in RUN_DIR/plots."""
    from slopmark.plot import bar_chart, line_chart

    summary = summarize(results)
    rates, caption = list(summary.phases.values()), run_caption(run_dir)
    folder = run_dir / "plots"
    folder.mkdir(exist_ok=True)
    written = []
    for suffix in (".png", ".svg"):
        solve = folder / f"solve_rate_by_phase{suffix}"
        bar_chart(solve, title=f"Solve rate by phase\n{caption}",
                  categories=_ticks(summary.phases, "checkpoints"),
                  y_label="share of checkpoints", y_range=RATE_RANGE, value_format=_percent,
                  series={"strict": [r.strict for r in rates],
                          "isolated": [r.isolated for r in rates],
                          "core": [r.core for r in rates]})  # fmt: skip
        quality = folder / f"quality_by_phase{suffix}"
        line_chart(quality, title=f"Quality by phase (means of measured checkpoints)\n{caption}",
                   x_labels=_ticks(summary.phases, "measured"), y_label="ratio",
                   y_range=(0.0, None),
                   series={"erosion": [r.erosion for r in rates],
                           "verbosity": [r.verbosity for r in rates]})  # fmt: skip
        written += [solve, quality]
    return written
