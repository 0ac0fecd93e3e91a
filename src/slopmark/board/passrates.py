"""Pass rate with its 95% interval per model: a board's chart when cost cannot be drawn.

A cost–capability chart places a model by its average cost per run, which is
unknown for every pasted answer (paste runs carry no cost, see
`slopmark.board.leaderboard`) and for a model whose provider reported no
price (most local models). When no shown model has a known cost, that chart
would be empty axes; this view draws what is known instead, a dot and whisker
per model, and says why the cost axis is absent. When only some models lack
a cost, `left_off` names the ones the cost view leaves out, with the reason.

Both the web chart (`slopmark.server.passrate_chart`) and the PNG/SVG chart
(`slopmark.plot.passrates`) draw this view.
"""

from __future__ import annotations

from dataclasses import dataclass

from slopmark.board.leaderboard import Board, Group, Row
from slopmark.plurals import count

__all__ = [
    "Mark",
    "PassRates",
    "UnknownCost",
    "cost_unknown",
    "left_off",
    "no_cost_reason",
    "pass_rates",
]

#: why a model's cost is unknown: every counted run was a pasted answer
PASTED = "pasted answers carry no cost"
#: … or its runs went through a provider that reported no price
UNPRICED = "no price was recorded for its runs"


@dataclass(frozen=True)
class Mark:
    """One model's pass rate and its 95% interval (``low``/``high`` None when undefined)."""

    model: str
    rate: float
    low: float | None
    high: float | None
    n: int
    rank: str | None
    provisional: bool


@dataclass(frozen=True)
class UnknownCost:
    model: str
    reason: str


@dataclass(frozen=True)
class PassRates:
    group: Group
    #: the shown models with a pass rate, in board order
    marks: tuple[Mark, ...]
    #: shown models whose pass rate is undefined (no counted run): listed, not drawn
    undefined: tuple[str, ...]
    #: the caption: why the chart has no cost axis
    reason: str

    @property
    def title(self) -> str:
        return self.group.label()


def _mark(row: Row) -> Mark | None:
    rate = row.pass_rate
    if rate.estimate is None:
        return None
    return Mark(row.model, rate.estimate, rate.low, rate.high, row.n, row.rank, row.provisional)


def cost_unknown(board: Board) -> tuple[UnknownCost, ...]:
    """The shown models without a known average cost, each with the reason."""
    return tuple(
        UnknownCost(row.model, PASTED if row.priced_runs == 0 else UNPRICED)
        for row in board.rows
        if row.avg_cost_usd is None
    )


def _reasons(unknown: tuple[UnknownCost, ...]) -> str:
    """``pasted answers carry no cost (a, b); no price … (c)``: the models by reason."""
    by_reason: dict[str, list[str]] = {}
    for item in unknown:
        by_reason.setdefault(item.reason, []).append(item.model)
    return "; ".join(f"{reason} ({', '.join(models)})" for reason, models in by_reason.items())


def no_cost_reason(board: Board) -> str:
    """The caption of a board none of whose shown models has a known cost."""
    unknown = cost_unknown(board)
    everyone = "the one model" if len(unknown) == 1 else f"all {count(len(unknown), 'model')}"
    return (
        f"No cost axis: cost is unknown for {everyone} on this board — {_reasons(unknown)}. "
        "Pass rate is drawn per model instead, with its 95% interval."
    )


def left_off(board: Board) -> str | None:
    """When some shown models have a known cost and some do not: the sentence naming the
    models the cost view leaves out and why; else None."""
    unknown = cost_unknown(board)
    if not unknown or len(unknown) == len(board.rows):
        return None
    return f"Left off the cost view, cost unknown: {_reasons(unknown)}."


def pass_rates(board: Board) -> PassRates:
    """The pass-rate view of ``board``'s shown rows (ranked and provisional)."""
    placed = [(row, _mark(row)) for row in board.rows]
    marks = tuple(mark for _, mark in placed if mark is not None)
    undefined = tuple(row.model for row, mark in placed if mark is None)
    return PassRates(board.group, marks, undefined, no_cost_reason(board))
