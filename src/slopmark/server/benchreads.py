"""The store reads behind the /bench pages: indexed aggregate SQL over `bench_checkpoints`.

/bench sums the checkpoints per row, problem and phase in one SQL query along
the ``ix_bench_board`` index, so the page never loads a checkpoint row into
Python nor touches the ``runs`` table; `slopmark.board.benchboard` turns the sums into rows. A chain
page reads its own checkpoints (the ``uq_bench_checkpoint`` index) and their
runs by primary key. The human band comes from the newest stored study
(`slopmark.code.study`), whose sampled commits are read by study id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, RowMapping, case, func, select

from slopmark.board.benchboard import MEANS, VERDICTS, CellSums, RowKey
from slopmark.store.schema import bench_checkpoints, bench_logs, runs, studies, study_commits

__all__ = ["Chain", "StudyPoints", "cell_sums", "chain", "newest_study"]

_T = bench_checkpoints.c
_KEY = (_T.problem_set, _T.agent, func.coalesce(_T.model, "").label("model"), _T.prompt)


def _count_true(column: Any) -> Any:
    return func.sum(case((column.is_(True), 1), else_=0))


def _counted(column: Any) -> Any:
    """``column`` on counted checkpoints only (NULL on errored ones: no verdict on the agent)."""
    return case((_T.errored.is_(False), column))


def _key(row: RowMapping) -> RowKey:
    return RowKey(row["problem_set"], row["agent"], row["model"], row["prompt"])


def cell_sums(engine: Engine) -> list[CellSums]:
    """Per row, problem and phase: checkpoints, errored, solved, sums and counts, chains.

    One scan of ``ix_bench_board`` in its order (no sort, no read of ``runs``)."""
    sums = [func.sum(_counted(_T[name])).label(f"sum_{name}") for name in MEANS]
    counts = [func.count(_counted(_T[name])).label(f"n_{name}") for name in MEANS]
    solved = [_count_true(_counted(_T[name])).label(name) for name in VERDICTS]
    query = select(
        *_KEY, _T.problem, _T.phase, func.count().label("checkpoints"),
        _count_true(_T.errored).label("errored"), *solved, *sums, *counts,
        func.sum(case((_T.position == 0, 1), else_=0)).label("chains"),
        func.min(_T.run).label("first_run"),
    ).group_by(_T.problem_set, _T.agent, _T.model, _T.prompt, _T.problem, _T.phase)  # fmt: skip
    with engine.connect() as connection:
        return [_cell(row._mapping) for row in connection.execute(query)]


def _cell(row: RowMapping) -> CellSums:
    return CellSums(
        key=_key(row), problem=row["problem"], phase=row["phase"],
        checkpoints=int(row["checkpoints"]), errored=int(row["errored"] or 0),
        solved={name: int(row[name] or 0) for name in VERDICTS},
        sums={name: row[f"sum_{name}"] for name in MEANS},
        counts={name: int(row[f"n_{name}"]) for name in MEANS},
        chains=int(row["chains"] or 0), first_run=row["first_run"],
    )  # fmt: skip


@dataclass(frozen=True)
class Chain:
    """One chain's checkpoints in order (bench rows) and their runs' details by run id."""

    run: str
    problem: str
    checkpoints: tuple[Mapping[str, Any], ...]
    details: dict[int, Mapping[str, Any]]
    #: the agent's stored log files of each checkpoint's run (`slopmark.store.benchlogs`)
    logs: dict[int, list[Mapping[str, Any]]]


def chain(engine: Engine, run: str, problem: str) -> Chain | None:
    """The chain of ``problem`` in run folder ``run``; None when the store has none."""
    query = select(bench_checkpoints).where(_T.run == run, _T.problem == problem)
    with engine.connect() as connection:
        rows = [dict(row._mapping) for row in connection.execute(query)]
        ids = [row["run_id"] for row in rows if row["run_id"] is not None]
        found = connection.execute(select(runs.c.id, runs.c.details).where(runs.c.id.in_(ids)))
        details = {int(item.id): item.details for item in found}
        kept = connection.execute(select(bench_logs).where(bench_logs.c.run_id.in_(ids)))
        logs = {int(item.run_id): list(item.files) for item in kept}
    if not rows:
        return None
    ordered = tuple(sorted(rows, key=lambda row: row["position"]))
    return Chain(run, problem, ordered, details, logs)


@dataclass(frozen=True)
class StudyPoints:
    """The sampled commits of one stored study: (repo, position, erosion, verbosity)."""

    study_id: str
    points: tuple[tuple[str, int, float | None, float | None], ...]


def newest_study(engine: Engine) -> StudyPoints | None:
    """The newest study with measured commits; None when the store holds none."""
    newest = select(studies.c.study_id).order_by(studies.c.created_at.desc()).limit(5)
    c = study_commits.c
    with engine.connect() as connection:
        for study_id in connection.execute(newest).scalars():
            query = select(c.repo, c.position, c.erosion, c.verbosity).where(c.study_id == study_id)
            points = tuple(map(tuple, connection.execute(query)))
            if points:
                return StudyPoints(study_id, points)
    return None
