"""The repository study in the run store (`slopmark code study`): its tables are the store's.

A repository is written in one transaction: its row and its commits. Writing
is idempotent: a repository already stored ``ok`` is never written again (a
retried unit, or a second worker racing it, changes nothing); a ``failed`` row
is replaced when a later run measures the repository after all.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from slopmark.code.study.panel import DEFAULT_BIRTH, BirthRule
from slopmark.code.study.records import OK, CommitPoint, RepoRecord, StudySettings
from slopmark.code.study.report import LoadedStudy
from slopmark.code.study.summary import summarise_study
from slopmark.store.schema import studies, study_commits, study_repos

_REPO_COLUMNS = tuple(f.name for f in fields(RepoRecord) if f.name != "commits")
_POINT_COLUMNS = tuple(f.name for f in fields(CommitPoint))


def ensure_study(
    engine: Engine,
    study: str,
    repos_file: str,
    settings: StudySettings,
    total: int | None = None,
    groups: dict[str, str] | None = None,
) -> None:
    """Record the study (once): its REPOS file and settings; and ``total``, how many
    repositories the REPOS file names now (a resumed study may name more or fewer),
    and ``groups``, each grouped repository's group as the file says now."""
    values = {"study_id": study, "repos_file": repos_file, "settings": asdict(settings),
              "created_at": datetime.now(UTC), "repos_total": total, "groups": groups}  # fmt: skip
    try:
        with engine.begin() as connection:
            if connection.execute(select(studies.c.study_id).where(_is(study))).first() is None:
                connection.execute(insert(studies).values(values))
            elif total is not None:
                again = {"repos_total": total, "groups": groups}
                connection.execute(update(studies).where(_is(study)).values(again))
    except IntegrityError:
        pass  # another driver recorded it first


def _is(study: str) -> Any:
    return studies.c.study_id == study


def _status(connection: Connection, study: str, repo: str) -> str | None:
    query = select(study_repos.c.status).where(
        study_repos.c.study_id == study, study_repos.c.repo == repo
    )
    return connection.execute(query).scalar()


def _forget(connection: Connection, study: str, repo: str) -> None:
    for table in (study_repos, study_commits):
        connection.execute(delete(table).where(table.c.study_id == study, table.c.repo == repo))


def _write(connection: Connection, study: str, record: RepoRecord) -> None:
    row = {name: getattr(record, name) for name in _REPO_COLUMNS}
    row |= {"study_id": study, "created_at": datetime.now(UTC)}
    connection.execute(insert(study_repos).values(row))
    points = [
        {"study_id": study, "repo": record.repo, **_point_row(point)} for point in record.commits
    ]
    if points:
        connection.execute(insert(study_commits), points)


def _point_row(point: CommitPoint) -> dict[str, Any]:
    row = {name: getattr(point, name) for name in _POINT_COLUMNS}
    row["committed_at"] = row.pop("date")
    return row


def store_repo(engine: Engine, study: str, record: RepoRecord) -> bool:
    """Write ``record`` unless the repository is stored ``ok`` already; True if written now."""
    try:
        with engine.begin() as connection:
            before = _status(connection, study, record.repo)
            if before == OK or (before is not None and record.status != OK):
                return False
            if before is not None:
                _forget(connection, study, record.repo)
            _write(connection, study, record)
    except IntegrityError:
        return False  # a racing worker wrote it first
    return True


def finished_repos(engine: Engine, study: str) -> set[str]:
    """The repositories of ``study`` stored ``ok``: a resumed study skips them."""
    query = select(study_repos.c.repo).where(
        study_repos.c.study_id == study, study_repos.c.status == OK
    )
    with engine.connect() as connection:
        return set(connection.execute(query).scalars())


def study_settings(engine: Engine, study: str) -> tuple[str, StudySettings] | None:
    """The REPOS file and settings of ``study``; None when the store does not hold it."""
    found = _study_row(engine, study)
    return None if found is None else (found.repos_file, StudySettings(**found.settings))


def _study_row(engine: Engine, study: str) -> Any:
    with engine.connect() as connection:
        return connection.execute(select(studies).where(_is(study))).first()


#: the columns of a sampled commit in `CommitPoint`'s order (its date is ``committed_at``)
_POINT_SELECT = tuple(
    study_commits.c["committed_at" if name == "date" else name] for name in _POINT_COLUMNS
)


def study_records(engine: Engine, study: str) -> list[RepoRecord]:
    """Every repository of ``study`` with its commits, in REPOS file order."""
    with engine.connect() as connection:
        repos = connection.execute(
            select(study_repos)
            .where(study_repos.c.study_id == study)
            .order_by(study_repos.c.line, study_repos.c.repo)  # fmt: skip
        ).all()
        commits = connection.execute(
            select(study_commits.c.repo, *_POINT_SELECT)
            .where(study_commits.c.study_id == study)
            .order_by(study_commits.c.repo, study_commits.c.position)  # fmt: skip
        ).all()
    points: dict[str, list[CommitPoint]] = {}
    for repo, *values in commits:
        points.setdefault(repo, []).append(CommitPoint(*values))
    return [
        RepoRecord(
            **{name: getattr(row, name) for name in _REPO_COLUMNS if name != "roots"},
            commits=tuple(points.get(row.repo, ())),
            roots=None if row.roots is None else tuple(row.roots),
        )  # fmt: skip
        for row in repos
    ]


def stored_study(
    engine: Engine, study: str, min_commits: int = 5, birth: BirthRule = DEFAULT_BIRTH
) -> LoadedStudy | None:
    """``study`` as stored, summarised over repositories with ``min_commits`` points (per
    group too; ``birth`` flags near-empty first points); None when the store does not
    hold it (what `code study report` and the pages show)."""
    found = _study_row(engine, study)
    if found is None:
        return None
    records = study_records(engine, study)
    groups = dict(found.groups or {})
    summary = summarise_study(records, min_commits, groups, birth)
    settings = StudySettings(**found.settings)
    return LoadedStudy(
        study, found.repos_file, settings, records, summary, groups, found.repos_total
    )
