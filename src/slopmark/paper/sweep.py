"""Many papers as a sweep: one unit per paper, scored on any executor.

A worker loads the paper from its path (which every node must see: a shared
folder), chooses the measures and, for model-based measures, reads the model
configuration itself; it sends back the score and the reader's notes. A paper
that cannot be read is a failed unit with the reason, and the others go on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from slopmark.executor import Executor, Resources, Unit
from slopmark.paper.document import Note
from slopmark.paper.score import PaperScore, Profile
from slopmark.sweep.drive import SweepView, Tally, run_sweep


@dataclass(frozen=True)
class PaperJob:
    """How to score papers: the measures (``all``, ``deterministic`` or names), models,
    the main file of a folder and the profile (``default`` or ``reference``)."""

    measures: str = "all"
    model_config: Path | None = None
    main: str | None = None
    profile: Profile = "default"


@dataclass(frozen=True)
class Scored:
    score: PaperScore
    notes: tuple[Note, ...]


def score_one(path: Path, job: PaperJob) -> Scored:
    """Load and score one paper (runs on a worker)."""
    from slopmark.paper.load import load_with_reference
    from slopmark.paper.measures.base import choose_measures
    from slopmark.paper.score import score_paper

    models = None
    if job.model_config is not None:
        from slopmark.paper.models import load_model_config

        models = load_model_config(job.model_config)
    document, source = load_with_reference(path, job.main, job.profile == "reference")
    score = score_paper(document, choose_measures(job.measures), models, source)
    return Scored(score, document.notes)


@dataclass
class PaperSweep:
    """Every paper's score (by path as given) or why it could not be scored."""

    scored: dict[str, Scored]
    problems: list[tuple[str, str]]
    tally: Tally


def score_papers(
    executor: Executor, paths: Sequence[Path], job: PaperJob, view: SweepView | None = None
) -> PaperSweep:
    """Score each distinct path once; results keyed by the path as given."""
    keys = list(dict.fromkeys(str(path) for path in paths))
    units = [
        Unit.call(key, score_one, Path(key).resolve(), job, resources=Resources(cpus=1))
        for key in keys
    ]
    tally = run_sweep(executor, units, view=view)
    scored = {k: f.value for k, f in tally.finished.items() if f.ok}
    problems = [(f.key, f.error or "failed") for f in tally.finished.values() if not f.ok]
    order = {key: index for index, key in enumerate(keys)}
    problems.sort(key=lambda item: order[item[0]])
    return PaperSweep(scored, problems, tally)
