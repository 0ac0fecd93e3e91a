"""The store reads behind ``/papers``: stored papers, their measures and findings.

Every read is an indexed query on one paper or one page of papers: a paper's
measures and findings by ``paper_id``; where a score stands among the stored
papers labelled human is a count over ``ix_paper_measures_rank`` (measure,
label, score) or ``ix_papers_rank`` (label, aggregate). The standing is the
mid-rank percentile: the share of those papers scoring lower plus half of those
scoring the same. The paper itself is left out of its own comparison; with no
other human paper the standing is undefined (None) with n = 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Column, Connection, Engine, case, func, select

from slopmark.errors import BadInput
from slopmark.paper.score import flag_planes, rests_on
from slopmark.server.paper_chart import BINS, Strip, strip
from slopmark.store.schema import paper_findings, paper_measures, papers

#: Papers on one page of the list.
PAGE = 50
HUMAN = "human"


@dataclass(frozen=True)
class Standing:
    """Where a score stands among the other stored human papers (percent lower, mid-rank),
    and their scores' histogram with this one marked (None when there is no score)."""

    percentile: float | None
    n: int
    strip: Strip | None = None


@dataclass(frozen=True)
class MeasureRow:
    measure: str
    plane: str
    status: str
    score: float | None
    flagged: int
    units: int
    unit_name: str
    weak: bool
    reason: str | None
    standing: Standing
    #: The located instances this paper has for the measure.
    instances: int


@dataclass(frozen=True)
class Finding:
    position: int
    measure: str
    section: str
    file: str
    line: int
    text: str
    repair: str


@dataclass(frozen=True)
class PaperRow:
    id: int
    paper: str
    label: str | None
    profile: str
    aggregate: float | None
    findings: int
    created_at: datetime
    #: Score of each measure that applied (by measure name).
    scores: dict[str, float | None]


@dataclass(frozen=True)
class PaperView:
    row: PaperRow
    planes: dict[str, float | None]
    notes: list[str]
    standing: Standing
    measures: list[MeasureRow]
    #: Sections holding findings, in order of first appearance, with their counts.
    sections: list[tuple[str, int]]
    #: Per plane, the measures its value rests on (`slopmark.paper.score.rests_on`).
    rests_on: dict[str, list[str]]
    #: The planes resting on a single 0/1 measure.
    flag_planes: tuple[str, ...]


def percentile(lower: int, same: int, n: int) -> float | None:
    """The mid-rank percentile of a score: 100 (lower + same / 2) / n; None when n = 0."""
    return None if n == 0 else 100.0 * (lower + same / 2) / n


def paper_id(text: str) -> int | None:
    """A paper id from a URL segment; None when it is not one (the page says so)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


def _bin(column: Column[Any], index: int) -> Any:
    """1 when ``column`` falls in bin ``index`` of [0, 1] (the last bin holds 1.0)."""
    inside = column >= index / BINS
    if index < BINS - 1:
        inside = inside & (column < (index + 1) / BINS)
    return func.coalesce(func.sum(case((inside, 1), else_=0)), 0)


def _bin_of(score: float) -> int:
    """The bin `_bin` puts ``score`` in (the same comparisons, so the two agree)."""
    return next((k for k in reversed(range(BINS)) if score >= k / BINS), 0)


def _counts(column: Column[Any], score: float) -> list[Any]:
    """n, the lower and the same counts, then one count per histogram bin."""
    lower = func.coalesce(func.sum(case((column < score, 1), else_=0)), 0)
    same = func.coalesce(func.sum(case((column == score, 1), else_=0)), 0)
    return [func.count(column), lower, same, *(_bin(column, k) for k in range(BINS))]


def _standing(
    connection: Connection, column: Column[Any], where: Sequence[Any], score: float | None,
    own: bool,
) -> Standing:  # fmt: skip
    """Where ``score`` stands among the rows of ``where`` (one pass over their index
    range); ``own``: the paper is one of them, and is left out."""
    if score is None:
        return Standing(None, 0)
    query = select(*_counts(column, score)).where(*where, column.is_not(None))
    n, lower, same, *bins = connection.execute(query).one()
    if own:
        n, same = n - 1, same - 1
        bins[_bin_of(score)] -= 1
    return Standing(percentile(lower, same, n), n, strip(bins, score))


def _row(row: Any, scores: dict[str, float | None]) -> PaperRow:
    return PaperRow(row.id, row.paper, row.label, row.profile, row.aggregate, row.findings,
                    row.created_at, scores)  # fmt: skip


def list_papers(
    engine: Engine, before: int | None = None, label: str | None = None
) -> list[PaperRow]:
    """One page of stored papers, newest first (``before``: ids below it; ``label``: only
    papers with that label)."""
    clauses = [papers.c.id < before] if before is not None else []
    if label is not None:
        clauses.append(papers.c.label == label)
    query = select(papers).where(*clauses).order_by(papers.c.id.desc()).limit(PAGE)
    with engine.connect() as connection:
        rows = connection.execute(query).all()
        ids = [row.id for row in rows]
        scored = connection.execute(
            select(paper_measures.c.paper_id, paper_measures.c.measure, paper_measures.c.score)
            .where(paper_measures.c.paper_id.in_(ids))
        ).all()  # fmt: skip
    scores: dict[int, dict[str, float | None]] = {pid: {} for pid in ids}
    for pid, measure, score in scored:
        scores[pid][measure] = score
    return [_row(row, scores[row.id]) for row in rows]


def _measure_rows(
    connection: Connection, pid: int, own: bool, counts: dict[str, int]
) -> list[MeasureRow]:
    rank = paper_measures.c
    stored = connection.execute(
        select(paper_measures).where(rank.paper_id == pid).order_by(rank.position)
    ).all()
    return [
        MeasureRow(m.measure, m.plane, m.status, m.score, m.flagged, m.units, m.unit_name,
                   m.weak, m.reason,
                   _standing(connection, rank.score, (rank.measure == m.measure,
                             rank.label == HUMAN), m.score, own and m.score is not None),
                   counts.get(m.measure, 0))
        for m in stored
    ]  # fmt: skip


def _groups(connection: Connection, pid: int) -> list[tuple[str, str, int, int]]:
    """(measure, section, findings, first position) of one paper's findings."""
    f = paper_findings.c
    query = (
        select(f.measure, f.section, func.count(), func.min(f.position))
        .where(f.paper_id == pid)
        .group_by(f.measure, f.section)
    )
    return [(m, s, n, first) for m, s, n, first in connection.execute(query)]


def _sections(groups: list[tuple[str, str, int, int]]) -> list[tuple[str, int]]:
    first: dict[str, int] = {}
    total: dict[str, int] = {}
    for _, section, n, at in groups:
        first[section] = min(first.get(section, at), at)
        total[section] = total.get(section, 0) + n
    return [(section, total[section]) for section in sorted(first, key=first.__getitem__)]


def paper_view(engine: Engine, pid: int) -> PaperView | None:
    """One stored paper with its measures, standings and finding sections; None if absent."""
    with engine.connect() as connection:
        row = connection.execute(select(papers).where(papers.c.id == pid)).first()
        if row is None:
            return None
        own = row.label == HUMAN
        groups = _groups(connection, pid)
        counts: dict[str, int] = {}
        for measure, _, n, _ in groups:
            counts[measure] = counts.get(measure, 0) + n
        measures = _measure_rows(connection, pid, own, counts)
        standing = _standing(connection, papers.c.aggregate, (papers.c.label == HUMAN,),
                             row.aggregate, own and row.aggregate is not None)  # fmt: skip
    scores = {m.measure: m.score for m in measures}
    return PaperView(_row(row, scores), dict(row.planes), list(row.notes), standing, measures,
                     _sections(groups), rests_on(measures), flag_planes(measures))  # fmt: skip


def check_filter(view: PaperView, measure: str | None, section: str | None) -> None:
    """`BadInput` for a measure or section this paper does not have."""
    names = [m.measure for m in view.measures]
    if measure not in (None, *names):
        raise BadInput(f"measure {measure!r}: not a measure of paper {view.row.id} "
                       f"(measures: {', '.join(names)})")  # fmt: skip
    if section not in (None, *(name for name, _ in view.sections)):
        raise BadInput(f"section {section!r}: no finding of paper {view.row.id} is in it; "
                       "choose a section from the filter")  # fmt: skip


def findings(
    engine: Engine, pid: int, measure: str | None = None, section: str | None = None
) -> list[Finding]:
    """The paper's findings in ``--findings`` order, only ``measure``'s and ``section``'s."""
    f = paper_findings.c
    chosen = {f.measure: measure, f.section: section}
    clauses = [column == value for column, value in chosen.items() if value is not None]
    query = select(paper_findings).where(f.paper_id == pid, *clauses).order_by(f.position)
    with engine.connect() as connection:
        return [
            Finding(r.position, r.measure, r.section, r.file, r.line, r.text, r.repair)
            for r in connection.execute(query)
        ]
