"""`slopmark paper bench`: score every paper of a PAIRS.jsonl and compare AI with human.

Each line of PAIRS.jsonl is ``{"ai": PATH, "human": PATH, ...metadata}``, paths
relative to the file's folder. A line or paper that cannot be read is reported
and left out; the other pairs are still scored. A paper appearing in several
pairs is scored once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slopmark.errors import SlopmarkError
from slopmark.paper.load import load_paper
from slopmark.paper.measures.base import MeasureSpec
from slopmark.paper.pairs import PairReport, evaluate
from slopmark.paper.score import PaperScore, score_paper

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet

AGGREGATE = "aggregate"


@dataclass(frozen=True)
class PairLine:
    line: int
    ai: Path
    human: Path
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BenchResult:
    reports: tuple[PairReport, ...]
    pairs: int
    #: (where, what was wrong) for every line or paper left out.
    problems: tuple[tuple[str, str], ...]
    scores: dict[str, PaperScore]


def _pair(path: Path, number: int, text: str) -> PairLine:
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg})") from None
    if not isinstance(record, dict):
        raise ValueError("must be a JSON object with 'ai' and 'human' paths")
    missing = [key for key in ("ai", "human") if not isinstance(record.get(key), str)]
    if missing:
        raise ValueError(f"field '{missing[0]}' is missing or not a path string")
    rest = {k: v for k, v in record.items() if k not in ("ai", "human")}
    return PairLine(number, path.parent / record["ai"], path.parent / record["human"], rest)


def read_pairs(path: Path) -> tuple[list[PairLine], list[tuple[str, str]]]:
    """The pairs of ``path`` and a problem per line that cannot be used."""
    pairs, problems = [], []
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            pairs.append(_pair(path, number, text))
        except ValueError as error:
            problems.append((f"{path}:{number}", str(error)))
    return pairs, problems


def _value(score: PaperScore, measure: str) -> float | None:
    if measure == AGGREGATE:
        return score.aggregate
    result = score.result(measure)
    return result.score if result is not None else None


class _Scorer:
    """Scores each paper once; a paper that cannot be read is recorded, not raised."""

    def __init__(self, specs: Sequence[MeasureSpec], models: ModelSet | None) -> None:
        self.specs, self.models = specs, models
        self.scores: dict[str, PaperScore] = {}
        self.problems: list[tuple[str, str]] = []

    def __call__(self, path: Path) -> PaperScore | None:
        key = str(path)
        if key not in self.scores:
            try:
                self.scores[key] = score_paper(load_paper(path), self.specs, self.models)
            except SlopmarkError as error:
                self.problems.append((key, str(error)))
                return None
        return self.scores[key]


def _defined(
    usable: Sequence[tuple[PaperScore, PaperScore]], measure: str
) -> list[tuple[float, float]]:
    values = [(_value(ai, measure), _value(human, measure)) for ai, human in usable]
    return [(a, h) for a, h in values if a is not None and h is not None]


def run_bench(
    pairs: Sequence[PairLine],
    specs: Sequence[MeasureSpec],
    models: ModelSet | None = None,
    progress: Callable[[int, int], None] | None = None,
    seed: int = 0,
) -> BenchResult:
    """Score both papers of every pair, then every statistic per measure and aggregate."""
    scored = _Scorer(specs, models)
    usable = []
    for done, pair in enumerate(pairs, start=1):
        ai, human = scored(pair.ai), scored(pair.human)
        if ai is not None and human is not None:
            usable.append((ai, human))
        if progress is not None:
            progress(done, len(pairs))
    measures = [*(spec.name for spec in specs), AGGREGATE]
    reports = tuple(evaluate(m, _defined(usable, m), seed=seed) for m in measures)
    return BenchResult(reports, len(usable), tuple(scored.problems), scored.scores)
