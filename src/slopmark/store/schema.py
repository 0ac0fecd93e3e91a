"""The run store's tables (SQLAlchemy Core). Migrations in `migrations/` create them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware.

    SQLite keeps no zone, so a naive value read back is taken as UTC.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"timestamp {value.isoformat()} has no timezone; pass a UTC time")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        stamp: datetime = value
        return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)


metadata = MetaData()

#: The columns that name one series of runs: the same task asked of the same
#: model under the same harness, mode and task set.
SERIES_COLUMNS = ("task_id", "model", "provider", "harness_version", "mode", "task_set_version")

#: The board's index (migration 0002): its group, then each (model, task), then store order.
BOARD_INDEX_COLUMNS = (
    "domain", "harness_version", "task_set_version", "mode", "model", "task_id", "id",
)  # fmt: skip

runs = Table(
    "runs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("task_id", String(200), nullable=False),
    Column("domain", String(40), nullable=False),
    Column("model", String(200), nullable=False),
    Column("provider", String(60), nullable=False),
    Column("upstream", String(200)),
    Column("harness_version", String(40), nullable=False),
    Column("mode", String(20), nullable=False),
    Column("task_set_version", String(40), nullable=False),
    Column("attempt", Integer, nullable=False),
    Column("source", String(20), nullable=False),
    Column("template_id", String(200)),
    Column("output", Text, nullable=False),
    Column("passed", Boolean),
    Column("score", Float),
    Column("details", JSON, nullable=False),
    Column("ambiguous", Boolean, nullable=False),
    Column("latency_first_byte_ms", Float),
    Column("latency_ms", Float),
    Column("input_tokens", Integer),
    Column("output_tokens", Integer),
    Column("finish_reason", String(40)),
    Column("truncated", Boolean, nullable=False),
    Column("cost_usd", Float),
    Column("paste", Boolean, nullable=False),
    Column("status", String(10), nullable=False),
    Column("error", Text),
    Column("created_at", UTCDateTime, nullable=False),
    UniqueConstraint(*SERIES_COLUMNS, "attempt", name="uq_runs_attempt"),
    # At most one finished (ok) model run per series: a resumed suite can never
    # store a task twice, even when two processes race.
    Index(
        "uq_runs_one_ok",
        *SERIES_COLUMNS,
        unique=True,
        sqlite_where=text("status = 'ok' AND paste = 0"),
        postgresql_where=text("status = 'ok' AND paste = false"),
    ),
    Index("ix_runs_model_domain", "model", "domain"),
    # The board reads one domain's runs grouped by (harness, task set, mode), then
    # per model and task: in this index's order, with no sort.
    Index("ix_runs_board", *BOARD_INDEX_COLUMNS),
)

#: One repository study (`slopmark code study`): its settings, named by its id.
studies = Table(
    "studies",
    metadata,
    Column("study_id", String(80), primary_key=True),
    Column("repos_file", Text, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)

#: One repository of a study, written once when it finished (ok) or failed.
#: A failed row is replaced when a rerun measures the repository after all.
study_repos = Table(
    "study_repos",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("study_id", String(80), nullable=False),
    Column("repo", String(1000), nullable=False),
    Column("line", Integer, nullable=False),
    Column("status", String(10), nullable=False),
    Column("error", Text),
    Column("head", String(64)),
    Column("candidates", Integer),
    Column("blobs_measured", Integer),
    Column("erosion_slope", Float),
    Column("verbosity_slope", Float),
    Column("erosion_rose", Boolean),
    Column("verbosity_rose", Boolean),
    Column("node", String(200)),
    Column("seconds", Float),
    Column("created_at", UTCDateTime, nullable=False),
    UniqueConstraint("study_id", "repo", name="uq_study_repos_repo"),
)

#: One sampled commit of a study's repository, in the order measured (``position``).
study_commits = Table(
    "study_commits",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("study_id", String(80), nullable=False),
    Column("repo", String(1000), nullable=False),
    Column("position", Integer, nullable=False),
    Column("sha", String(64), nullable=False),
    Column("committed_at", String(40), nullable=False),
    Column("subject", Text, nullable=False),
    Column("files", Integer, nullable=False),
    Column("sloc", Integer, nullable=False),
    Column("callables", Integer, nullable=False),
    Column("complex_callables", Integer, nullable=False),
    Column("erosion", Float),
    Column("verbosity", Float),
    UniqueConstraint("study_id", "repo", "position", name="uq_study_commits_position"),
)

#: One paper measured with ``paper measure --store`` (migration 0005); ``label`` is
#: human / ai when the user said so (``--label``), else None.
papers = Table(
    "papers",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("paper", Text, nullable=False),
    Column("label", String(10)),
    Column("profile", String(20), nullable=False),
    Column("aggregate", Float),
    Column("planes", JSON, nullable=False),
    Column("recovery", JSON),
    Column("notes", JSON, nullable=False),
    Column("findings", Integer, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Index("ix_papers_rank", "label", "aggregate"),
    # the list of one label's papers, newest first
    Index("ix_papers_label", "label", "id"),
)

#: One measure of a stored paper; the paper's label is copied in so a percentile
#: among human papers is two range counts on ``ix_paper_measures_rank``.
paper_measures = Table(
    "paper_measures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("paper_id", Integer, ForeignKey("papers.id", ondelete="CASCADE"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("measure", String(60), nullable=False),
    Column("plane", String(20), nullable=False),
    Column("status", String(20), nullable=False),
    Column("score", Float),
    Column("flagged", Integer, nullable=False),
    Column("units", Integer, nullable=False),
    Column("unit_name", String(60), nullable=False),
    Column("weak", Boolean, nullable=False),
    Column("reason", Text),
    Column("detail", JSON, nullable=False),
    Column("label", String(10)),
    UniqueConstraint("paper_id", "measure", name="uq_paper_measures_measure"),
    Index("ix_paper_measures_rank", "measure", "label", "score"),
)

#: One located instance of a stored paper, in the order ``--findings F.json`` lists it.
paper_findings = Table(
    "paper_findings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("paper_id", Integer, ForeignKey("papers.id", ondelete="CASCADE"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("measure", String(60), nullable=False),
    Column("section", Text, nullable=False),
    Column("file", Text, nullable=False),
    Column("line", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("repair", Text, nullable=False),
    UniqueConstraint("paper_id", "position", name="uq_paper_findings_position"),
    Index("ix_paper_findings_filter", "paper_id", "measure", "section"),
)
