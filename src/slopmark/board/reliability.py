"""The reliability diagram of a calibration board: per model, per confidence bin.

Each shown model of a calibration board that stated a confidence on at least
one counted run gets a curve: for every non-empty bin of its
`slopmark.board.calibration.CalibrationReport` (10 equal-width bins), the
mean stated confidence against the accuracy, with the bin's count. A
perfectly calibrated model lies on the diagonal; points below it are
overconfident. The numbers are the board's own (the same report that gives
the ECE column), drawn by `slopmark.server.chart` and `slopmark.plot`.
"""

from __future__ import annotations

from dataclasses import dataclass

from slopmark.board.calibration import Bin, CalibrationReport
from slopmark.board.leaderboard import CALIBRATION_DOMAIN, Board, Group
from slopmark.errors import BadInput

__all__ = ["BinPoint", "Curve", "Reliability", "reliability"]


@dataclass(frozen=True)
class BinPoint:
    """A non-empty bin ``index`` (of [low, high)) as a point of the diagram."""

    index: int
    low: float
    high: float
    count: int
    confidence: float  # the mean stated confidence of the bin's answers
    accuracy: float  # the share of them that were correct


def _bin_point(index: int, b: Bin) -> BinPoint | None:
    if b.mean_confidence is None or b.accuracy is None:
        return None
    return BinPoint(index, b.low, b.high, b.count, b.mean_confidence, b.accuracy)


@dataclass(frozen=True)
class Curve:
    model: str
    report: CalibrationReport

    @property
    def points(self) -> tuple[BinPoint, ...]:
        """The non-empty bins, by confidence."""
        found = (_bin_point(k, b) for k, b in enumerate(self.report.bins))
        return tuple(p for p in found if p is not None)


@dataclass(frozen=True)
class Reliability:
    group: Group
    #: one curve per shown model with stated confidences, in board order
    curves: tuple[Curve, ...]
    #: shown models that stated no confidence on a counted run
    unstated: tuple[str, ...]

    @property
    def title(self) -> str:
        return self.group.label()


def reliability(board: Board) -> Reliability:
    """The reliability curves of a calibration ``board`` (any other domain is `BadInput`)."""
    if board.group.domain != CALIBRATION_DOMAIN:
        raise BadInput(
            f"reliability diagram of {board.group.label()!r}: only the "
            f"{CALIBRATION_DOMAIN!r} domain states confidences; use --domain {CALIBRATION_DOMAIN}"
        )
    curves = [
        Curve(row.model, row.calibration)
        for row in board.rows
        if row.calibration is not None and row.calibration.n
    ]
    stated = {curve.model for curve in curves}
    unstated = tuple(row.model for row in board.rows if row.model not in stated)
    return Reliability(board.group, tuple(curves), unstated)
