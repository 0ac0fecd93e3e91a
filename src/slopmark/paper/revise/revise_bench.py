"""revise-bench: revision methods over a corpus, scored by their distance to a reference.

For each method and each round r, a measure's distance is the mean score of
the corpus papers after round r minus the reference mean (the mean score of
the reference papers, e.g. human-written ones), and the gap is the sum of the
absolute distances over the measures ("Science or Slop?", Appendix C.5). A
paper whose run stopped before round r counts with its last retained
manuscript. A mean over no scored paper is undefined (None), and so is a
distance to it; the gap sums the defined distances and is None when none is.

A corpus is a folder of paper folders (or one paper folder); a paper's
records are its ``records/`` subfolder when it has one. One paper failing
(bad input, a model failure) is recorded and the others go on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean

from slopmark.errors import BadInput, SlopmarkError
from slopmark.paper.revise.rounds import RevisionRun
from slopmark.paper.score import PaperScore

RECORDS = "records"


@dataclass(frozen=True)
class Failure:
    paper: str
    method: str
    error: str


@dataclass(frozen=True)
class MethodCurve:
    """One method's distances to the reference after each round (index = round)."""

    method: str
    distances: tuple[dict[str, float | None], ...]
    gaps: tuple[float | None, ...]
    papers: int


@dataclass(frozen=True)
class BenchResult:
    reference: dict[str, float | None]
    curves: tuple[MethodCurve, ...]
    failures: tuple[Failure, ...] = field(default=())


def paper_folders(path: Path) -> list[Path]:
    """``path`` itself when it holds a ``.tex`` file, else its subfolders that do."""
    if not path.is_dir():
        raise BadInput(f"{path}: not a folder; pass a folder of paper folders (or one paper)")
    if any(path.glob("*.tex")):
        return [path]
    found = [sub for sub in sorted(path.iterdir()) if sub.is_dir() and any(sub.glob("*.tex"))]
    if not found:
        raise BadInput(f"{path}: no paper folder (with a .tex file) inside")
    return found


def records_of(paper: Path) -> Path | None:
    folder = paper / RECORDS
    return folder if folder.is_dir() else None


def mean_scores(scores: Sequence[PaperScore], measures: Sequence[str]) -> dict[str, float | None]:
    """Per measure, the mean score of the papers where it is defined (None when none is)."""
    means: dict[str, float | None] = {}
    for measure in measures:
        values = [v for s in scores if (r := s.result(measure)) and (v := r.score) is not None]
        means[measure] = fmean(values) if values else None
    return means


def score_at(run: RevisionRun, number: int) -> PaperScore:
    """The measurement after round ``number`` (the last round's when the run stopped earlier)."""
    return run.rounds[min(number, len(run.rounds) - 1)].score


def curve(
    method: str, runs: Sequence[RevisionRun], reference: Mapping[str, float | None], rounds: int
) -> MethodCurve:
    """The distances and gaps of one method's runs after rounds 0..``rounds``."""
    distances, gaps = [], []
    for number in range(rounds + 1):
        means = mean_scores([score_at(run, number) for run in runs], list(reference))
        distance = {m: _minus(means[m], reference[m]) for m in reference}
        defined = [abs(d) for d in distance.values() if d is not None]
        distances.append(distance)
        gaps.append(sum(defined) if defined else None)
    return MethodCurve(method, tuple(distances), tuple(gaps), len(runs))


def _minus(value: float | None, reference: float | None) -> float | None:
    return None if value is None or reference is None else value - reference


def run_bench(
    papers: Sequence[Path],
    methods: Sequence[str],
    revise_one: Callable[[Path, str], RevisionRun],
    reference: Mapping[str, float | None],
    rounds: int,
    progress: Callable[[int, int], None] | None = None,
) -> BenchResult:
    """Every method on every paper (``revise_one``), then each method's curve;
    ``progress(done, total)`` after each run."""
    curves, failures, done = [], [], 0
    for method in methods:
        runs = []
        for paper in papers:
            try:
                runs.append(revise_one(paper, method))
            except SlopmarkError as error:
                failures.append(Failure(str(paper), method, str(error)))
            done += 1
            if progress is not None:
                progress(done, len(methods) * len(papers))
        curves.append(curve(method, runs, reference, rounds))
    return BenchResult(dict(reference), tuple(curves), tuple(failures))
