"""The store reads behind the study pages: the study list, one study, one repository.

Every read is an indexed query on the study tables (never the runs table): the
list takes one page of studies newest first (``ix_studies_created``) and counts
only their repositories (``ix_study_repos_status``); a study and a repository
are read by their study id (the tables' unique keys start with it). A study's
numbers come from `slopmark.code.study.stored.stored_study`, the same reader
``code study report`` uses, so a page and the report cannot differ.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, case, func, select

from slopmark.code.study.records import FAILED
from slopmark.code.study.report import LoadedStudy
from slopmark.code.study.stored import stored_study
from slopmark.errors import BadInput
from slopmark.store.schema import studies, study_repos

#: studies per page of ``/studies``
PAGE_SIZE = 50
#: the largest page, line or commit count an address may name (SQL keeps it in 64 bits)
MAX_NUMBER = 10**9
#: what `slopmark.code.study.records.study_id` makes: a file stem and a digest
_STUDY_ID = re.compile(r"[A-Za-z0-9._-]{1,80}")


@dataclass(frozen=True)
class StudyRow:
    """A stored study and its progress: repositories stored (finished or failed) of total."""

    study_id: str
    repos_file: str
    settings: dict[str, Any]
    created_at: datetime
    total: int | None
    stored: int
    failed: int
    #: the newest repository row: with the counts, it changes whenever a repository is stored
    last_id: int | None = None
    #: each grouped repository's group (REPOS ``group=NAME``): a rerun may change them alone
    groups: tuple[tuple[str, str], ...] = ()

    @property
    def status(self) -> str:
        """``running`` until every repository of its REPOS file is stored, then ``finished``;
        ``unknown`` for a study stored before its total was recorded."""
        if self.total is None:
            return "unknown"
        return "finished" if self.stored >= self.total else "running"

    @property
    def ok(self) -> int:
        return self.stored - self.failed


@dataclass(frozen=True)
class StudyPage:
    """One page of the study list."""

    rows: tuple[StudyRow, ...]
    page: int
    pages: int
    count: int


def check_study_id(study_id: str) -> str:
    """``study_id`` when it is shaped like a study id; BadInput otherwise."""
    if not _STUDY_ID.fullmatch(study_id):
        raise BadInput(
            f"{study_id[:100]!r} is not a study id (letters, digits, '.', '_' and '-'; "
            "see /studies)"
        )
    return study_id


def whole_number(text: str | None, name: str, default: int) -> int:
    """``text`` as a whole number from 1 to `MAX_NUMBER` (``default`` when absent);
    BadInput naming ``name`` otherwise."""
    if not text:
        return default
    if not text.isdecimal() or not 1 <= int(text) <= MAX_NUMBER:
        raise BadInput(f"{name} {text[:40]!r}: must be a whole number from 1 to {MAX_NUMBER}")
    return int(text)


_Counts = dict[str, tuple[int, int, int | None]]


def _counts(engine: Engine, ids: list[str]) -> _Counts:
    """(stored, failed, newest row id) per study of ``ids``, from ``ix_study_repos_status``."""
    failed = func.sum(case((study_repos.c.status == FAILED, 1), else_=0))
    query = (
        select(study_repos.c.study_id, func.count(), failed, func.max(study_repos.c.id))
        .where(study_repos.c.study_id.in_(ids))
        .group_by(study_repos.c.study_id)
    )
    with engine.connect() as connection:
        found = connection.execute(query).all()
    return {row[0]: (int(row[1]), int(row[2] or 0), row[3]) for row in found}


def _row(found: Any, counts: _Counts) -> StudyRow:
    stored, failed, last_id = counts.get(found.study_id, (0, 0, None))
    groups = tuple(sorted((found.groups or {}).items()))
    return StudyRow(found.study_id, found.repos_file, dict(found.settings), found.created_at,
                    found.repos_total, stored, failed, last_id, groups)  # fmt: skip


def study_page(engine: Engine, page: int) -> StudyPage:
    """The ``page``-th page of stored studies, newest first, with their progress."""
    query = (
        select(studies)
        .order_by(studies.c.created_at.desc(), studies.c.study_id)
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
    )
    with engine.connect() as connection:
        count = connection.execute(select(func.count()).select_from(studies)).scalar() or 0
        found = connection.execute(query).all()
    counts = _counts(engine, [row.study_id for row in found])
    pages = max(1, -(-count // PAGE_SIZE))
    return StudyPage(tuple(_row(row, counts) for row in found), page, pages, count)


def study_row(engine: Engine, study_id: str) -> StudyRow | None:
    """One stored study with its progress; None when the store does not hold it."""
    with engine.connect() as connection:
        found = connection.execute(select(studies).where(studies.c.study_id == study_id)).first()
    if found is None:
        return None
    return _row(found, _counts(engine, [study_id]))


class StudyCache:
    """The last few studies read, by store, id, ``min_commits`` and progress.

    A stored repository row is never changed, only added, or a failed one replaced
    by a finished one, so (stored, failed, newest row id) changes whenever what a
    study holds does; its groups, which a rerun may change alone, are in the key too.
    A finished study is read and summarised once, not on every view.
    """

    def __init__(self, size: int = 4) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[Any, ...], LoadedStudy] = OrderedDict()
        self._lock = threading.Lock()

    def study(self, engine: Engine, row: StudyRow, min_commits: int) -> LoadedStudy | None:
        """``row``'s study as `stored_study` reads it, from the cache when unchanged."""
        key = (str(engine.url), row.study_id, min_commits, row.stored, row.failed, row.last_id,
               row.groups)  # fmt: skip
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        found = stored_study(engine, row.study_id, min_commits)
        if found is not None:
            with self._lock:
                self._kept[key] = found
                while len(self._kept) > self._size:
                    self._kept.popitem(last=False)
        return found
