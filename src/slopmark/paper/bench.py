"""`slopmark paper bench`: score the papers of a comparison and compare AI with human.

Two designs. A PAIRS.jsonl holds matched pairs, one ``{"ai": PATH, "human": PATH,
...metadata}`` per line, paths relative to the file's folder; a paper may sit in
several pairs. Two labelled folders (``--ai DIR --human DIR``) compare every AI
paper with every human paper. A paper is scored once; a line or paper that
cannot be read is reported and left out, the rest is still scored. The
statistics and their paper-level intervals are in `slopmark.paper.pairs`.

Besides each measure and the aggregate S(p), when a paper's plane rests on a
single 0/1 measure (evidence gap alone, without the model measures) the bench
also reports `AGGREGATE_NO_FLAGS`: S(p) of every paper with such planes left
out, so a reader sees how much of the aggregate's separation one flag makes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slopmark.errors import BadInput, SlopmarkError
from slopmark.paper.load import load_with_reference
from slopmark.paper.measures.base import MeasureSpec
from slopmark.paper.pairs import Design, PairReport, evaluate
from slopmark.paper.score import PaperScore, Profile, score_paper, without_planes
from slopmark.regular import read_regular

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet

AGGREGATE = "aggregate"
#: S(p) without the planes that rest on a single 0/1 measure (`score.flag_planes`).
AGGREGATE_NO_FLAGS = "aggregate_without_0/1_planes"
MATCHED = "matched pairs"
CROSSED = "all cross pairs"
#: A PAIRS.jsonl larger than this is refused (a line is a hundred bytes).
MAX_PAIRS_BYTES = 16 * 2**20
Progress = Callable[[int, int], None]


def flag_summary(scores: Mapping[str, PaperScore]) -> dict[str, int]:
    """How many scored papers have each plane resting on a single 0/1 measure."""
    return dict(Counter(plane for score in scores.values() for plane in score.flag_planes))


@dataclass(frozen=True)
class PairLine:
    line: int
    ai: Path
    human: Path
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BenchResult:
    reports: tuple[PairReport, ...]
    #: Pairs whose two papers were both scored.
    pairs: int
    #: (where, what was wrong) for every line or paper left out.
    problems: tuple[tuple[str, str], ...]
    scores: dict[str, PaperScore]
    #: `MATCHED` (a pairs file) or `CROSSED` (two labelled folders).
    design: str = MATCHED


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
    data = read_regular(path, MAX_PAIRS_BYTES, advice="pass a PAIRS.jsonl")
    lines = data.decode("utf-8", errors="replace").splitlines()
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            pairs.append(_pair(path, number, text))
        except ValueError as error:
            problems.append((f"{path}:{number}", str(error)))
    return pairs, problems


def papers_in(folder: Path, option: str) -> list[Path]:
    """The papers of a labelled folder: each subfolder, and each .tex or .pdf file in it."""
    if not folder.is_dir():
        raise BadInput(f"{option} {folder}: not a folder; pass a folder of papers")
    found = sorted(
        p for p in folder.iterdir()
        if p.is_dir() and not p.name.startswith(".") or p.suffix.lower() in (".tex", ".pdf")
    )  # fmt: skip
    if not found:
        raise BadInput(f"{option} {folder}: no paper in it (subfolders, .tex or .pdf files)")
    return found


def _value(score: PaperScore, measure: str) -> float | None:
    if measure == AGGREGATE:
        return score.aggregate
    if measure == AGGREGATE_NO_FLAGS:
        return without_planes(score, score.flag_planes)
    result = score.result(measure)
    return result.score if result is not None else None


#: Scores made elsewhere, by path: a score, or why the paper could not be scored.
Known = Mapping[str, PaperScore | str]


class _Scorer:
    """Scores each paper once; a paper that cannot be read is recorded, not raised.

    ``known`` holds papers scored already (elsewhere, e.g. by a sweep's workers):
    a score, or the reason the paper could not be scored.
    """

    def __init__(
        self,
        specs: Sequence[MeasureSpec],
        models: ModelSet | None,
        profile: Profile,
        known: Known | None = None,
    ) -> None:
        self.specs, self.models, self.profile = specs, models, profile
        self.known = known or {}
        self.scores: dict[str, PaperScore] = {}
        self.problems: list[tuple[str, str]] = []

    def __call__(self, path: Path) -> str | None:
        """The paper's key in `scores`, or None when it could not be scored."""
        key = str(path)
        if key not in self.scores:
            try:
                self.scores[key] = self._score(key, path)
            except SlopmarkError as error:
                self.problems.append((key, str(error)))
                return None
        return key

    def _score(self, key: str, path: Path) -> PaperScore:
        found = self.known.get(key)
        if isinstance(found, str):
            raise SlopmarkError(found)
        if found is not None:
            return found
        document, source = load_with_reference(path, None, self.profile == "reference")
        return score_paper(document, self.specs, self.models, source)


def _design(
    scores: dict[str, PaperScore], pairs: Sequence[tuple[str, str]], measure: str, kind: str
) -> Design:
    """The design of ``measure``: the pairs whose two papers have a value, papers indexed."""
    ai: dict[str, int] = {}
    human: dict[str, int] = {}
    indexed = []
    for a, h in pairs:
        if _value(scores[a], measure) is not None and _value(scores[h], measure) is not None:
            indexed.append((ai.setdefault(a, len(ai)), human.setdefault(h, len(human))))
    ai_values = tuple(_value(scores[k], measure) or 0.0 for k in ai)
    human_values = tuple(_value(scores[k], measure) or 0.0 for k in human)
    return Design(ai_values, human_values, tuple(indexed), kind)


def _reports(scored: _Scorer, pairs: list[tuple[str, str]], kind: str, seed: int
             ) -> tuple[PairReport, ...]:  # fmt: skip
    flagged = any(score.flag_planes for score in scored.scores.values())
    measures = [*(spec.name for spec in scored.specs), AGGREGATE,
                *([AGGREGATE_NO_FLAGS] if flagged else [])]  # fmt: skip
    return tuple(evaluate(m, _design(scored.scores, pairs, m, kind), seed=seed) for m in measures)


def run_bench(
    pairs: Sequence[PairLine],
    specs: Sequence[MeasureSpec],
    models: ModelSet | None = None,
    progress: Progress | None = None,
    seed: int = 0,
    profile: Profile = "default",
    known: Known | None = None,
) -> BenchResult:
    """Matched pairs: score both papers of every pair, then every statistic per measure.
    Papers in ``known`` (by path as the pairs give it) are not scored again."""
    scored = _Scorer(specs, models, profile, known)
    usable = []
    for done, pair in enumerate(pairs, start=1):
        ai, human = scored(pair.ai), scored(pair.human)
        if ai is not None and human is not None:
            usable.append((ai, human))
        if progress is not None:
            progress(done, len(pairs))
    reports = _reports(scored, usable, MATCHED, seed)
    return BenchResult(reports, len(usable), tuple(scored.problems), scored.scores, MATCHED)


def run_folders(
    ai: Sequence[Path],
    human: Sequence[Path],
    specs: Sequence[MeasureSpec],
    models: ModelSet | None = None,
    progress: Progress | None = None,
    seed: int = 0,
    profile: Profile = "default",
    known: Known | None = None,
) -> BenchResult:
    """Two labelled sets of papers: every AI paper against every human paper."""
    scored = _Scorer(specs, models, profile, known)
    keys: dict[str, list[str]] = {"ai": [], "human": []}
    everything = [("ai", p) for p in ai] + [("human", p) for p in human]
    for done, (side, path) in enumerate(everything, start=1):
        key = scored(path)
        if key is not None:
            keys[side].append(key)
        if progress is not None:
            progress(done, len(everything))
    crossed = [(a, h) for a in keys["ai"] for h in keys["human"]]
    reports = _reports(scored, crossed, CROSSED, seed)
    return BenchResult(reports, len(crossed), tuple(scored.problems), scored.scores, CROSSED)
