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

#: The condition of the browser's partial index ``ix_runs_domain``: true of every run.
BROWSER_ONLY = "paste IS NOT NULL"

#: The runs browser's indexes (migration 0008): a filter's column, then store order.
BROWSER_INDEXES = {
    "ix_runs_template": ("template_id", "id"),
    "ix_runs_status": ("status", "id"),
    "ix_runs_source": ("source", "id"),
    "ix_runs_harness": ("harness_version", "id"),
    "ix_runs_created": ("created_at", "id"),
}
#: The matrix's index (migration 0009): a group, then each row (template, task) and column
#: (model) of ``/matrix``, then the fields of a cell, so the matrix never reads the table.
MATRIX_INDEX_COLUMNS = (
    "domain", "harness_version", "task_set_version", "mode", "template_id", "task_id",
    "model", "status", "passed", "id",
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
    # The runs browser's filters, each read newest first by id (migration 0008).
    *(Index(name, *columns) for name, columns in BROWSER_INDEXES.items()),
    # A domain's runs in store order, for the browser only: partial on a condition that
    # holds for every run and that only the browser's reads state (`BROWSER_ONLY`), so
    # the board's reads (``ORDER BY id`` with models named) keep ``ix_runs_model_domain``.
    Index(
        "ix_runs_domain", "domain", "id",
        sqlite_where=text(BROWSER_ONLY), postgresql_where=text(BROWSER_ONLY),
    ),  # fmt: skip
    Index("ix_runs_matrix", *MATRIX_INDEX_COLUMNS),
)

#: One repository study (`slopmark code study`): its settings, named by its id.
studies = Table(
    "studies",
    metadata,
    Column("study_id", String(80), primary_key=True),
    Column("repos_file", Text, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    #: how many repositories its REPOS file names (None: stored before revision 0004)
    Column("repos_total", Integer),
    #: each grouped repository's group, from its REPOS line's ``group=NAME``, as the
    #: last run read it (None: stored before revision 0011)
    Column("groups", JSON),
    Index("ix_studies_created", "created_at"),
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
    #: the root commits behind HEAD, the first-parent line's first (migration 0008)
    Column("roots", JSON),
    UniqueConstraint("study_id", "repo", name="uq_study_repos_repo"),
    Index("ix_study_repos_status", "study_id", "status"),
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
    #: mainline, branch or second-root (migration 0012)
    Column("lineage", String(12)),
    #: each scope's files, SLOC, erosion and verbosity, and the files --language/--scope
    #: left out (migration 0013)
    Column("by_scope", JSON),
    Column("excluded", JSON),
    UniqueConstraint("study_id", "repo", "position", name="uq_study_commits_position"),
)

#: One checkpoint of a ``code bench run`` (`slopmark.store.benchrows`): the numbers the
#: /bench pages aggregate, beside its run (``run_id``: the `runs` row, whose details
#: hold the rest). ``run`` is the run folder's name.
bench_checkpoints = Table(
    "bench_checkpoints",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("run_id", Integer),
    Column("run", String(200), nullable=False),
    Column("problem_set", String(200), nullable=False),
    Column("problem", String(200), nullable=False),
    Column("checkpoint", String(200), nullable=False),
    Column("position", Integer, nullable=False),
    Column("count", Integer, nullable=False),
    Column("phase", String(10), nullable=False),
    Column("agent", String(200), nullable=False),
    Column("model", String(200)),
    Column("prompt", String(200), nullable=False),
    Column("status", String(20), nullable=False),
    Column("errored", Boolean, nullable=False),
    Column("strict", Boolean),
    Column("isolated", Boolean),
    Column("core", Boolean),
    Column("erosion", Float),
    Column("verbosity", Float),
    Column("sloc", Integer),
    Column("complex_callables", Integer),
    Column("churn", Float),
    Column("cost_usd", Float),
    Column("wall_s", Float),
    Column("created_at", UTCDateTime, nullable=False),
    UniqueConstraint("run", "problem", "checkpoint", name="uq_bench_checkpoint"),
    # /bench sums a problem set's checkpoints per agent × model × prompt, problem and phase.
    Index("ix_bench_board", "problem_set", "agent", "model", "prompt", "problem", "phase"),
)

#: The agent's log of one stored checkpoint (migration 0010): the files the agent wrote
#: in its log folder (prompt, command, output, transcript), each cut to a bound (see
#: `slopmark.store.benchlogs`). Keyed by the checkpoint's run; shown only to a reader
#: with the server's token (a log can hold what the agent printed of its environment).
bench_logs = Table(
    "bench_logs",
    metadata,
    Column("run_id", Integer, primary_key=True, autoincrement=False),
    Column("files", JSON, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)

# --- code reports (`code measure --store`, `code history --store`; migration 0006) ----------

#: One stored code report: a measured tree (``kind`` measure) or a repository's history
#: (``kind`` history). ``summary`` holds the totals exactly as ``--json`` prints them;
#: ``bounds`` says, per stored part, how many rows the report had and how many were kept.
code_reports = Table(
    "code_reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(10), nullable=False),
    Column("root", Text, nullable=False),
    Column("rev", String(200)),
    Column("slopmark_version", String(40), nullable=False),
    Column("settings", JSON, nullable=False),
    Column("summary", JSON, nullable=False),
    Column("bounds", JSON, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)

#: A measured tree's totals per language, as ``code measure --json`` lists them.
code_report_languages = Table(
    "code_report_languages",
    metadata,
    Column("report_id", Integer, primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("language", String(40), nullable=False),
    Column("files", Integer, nullable=False),
    Column("sloc", Integer, nullable=False),
    Column("callables", Integer, nullable=False),
    Column("complex_callables", Integer, nullable=False),
    Column("rule_lines", Integer, nullable=False),
    Column("clone_lines", Integer, nullable=False),
    Column("flagged_lines", Integer, nullable=False),
    Column("erosion", Float),
    Column("verbosity", Float),
)

#: The report's heaviest callables by mass (``rank`` 0 is the heaviest), up to a cap.
code_report_callables = Table(
    "code_report_callables",
    metadata,
    Column("report_id", Integer, primary_key=True),
    Column("rank", Integer, primary_key=True),
    Column("path", Text, nullable=False),
    Column("qualname", Text, nullable=False),
    Column("start", Integer, nullable=False),
    Column("end", Integer, nullable=False),
    Column("cc", Integer, nullable=False),
    Column("sloc", Integer, nullable=False),
    Column("mass", Float, nullable=False),
)

#: One rule that hit in the report: its counts and its explanation at measure time.
code_report_rules = Table(
    "code_report_rules",
    metadata,
    Column("report_id", Integer, primary_key=True),
    Column("rule", String(200), primary_key=True),
    Column("severity", String(20), nullable=False),
    Column("category", String(60), nullable=False),
    Column("hits", Integer, nullable=False),
    Column("lines", Integer, nullable=False),
    Column("stored", Integer, nullable=False),
    Column("message", Text, nullable=False),
    Column("what", Text, nullable=False),
    Column("why", Text, nullable=False),
)

#: A rule's hits in file order (``position`` per rule), up to a cap per rule.
code_report_hits = Table(
    "code_report_hits",
    metadata,
    Column("report_id", Integer, primary_key=True),
    Column("rule", String(200), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("path", Text, nullable=False),
    Column("start", Integer, nullable=False),
    Column("end", Integer, nullable=False),
    Column("message", Text, nullable=False),
)

#: A clone group (``rank`` 0 is the biggest), up to a cap.
code_report_clones = Table(
    "code_report_clones",
    metadata,
    Column("report_id", Integer, primary_key=True),
    Column("rank", Integer, primary_key=True),
    Column("digest", String(64), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("sloc", Integer, nullable=False),
    Column("members", Integer, nullable=False),
)

#: A clone group's members with their source text (None: not read), up to a cap per group.
code_report_clone_members = Table(
    "code_report_clone_members",
    metadata,
    Column("report_id", Integer, primary_key=True),
    Column("rank", Integer, primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("path", Text, nullable=False),
    Column("start", Integer, nullable=False),
    Column("end", Integer, nullable=False),
    Column("sloc", Integer, nullable=False),
    Column("text", Text),
)

#: A history's measured commits in order (``position`` 0 is the oldest).
code_report_commits = Table(
    "code_report_commits",
    metadata,
    Column("report_id", Integer, primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("sha", String(64), nullable=False),
    Column("committed_at", String(40), nullable=False),
    Column("subject", Text, nullable=False),
    Column("files", Integer, nullable=False),
    Column("sloc", Integer, nullable=False),
    Column("callables", Integer, nullable=False),
    Column("complex_callables", Integer, nullable=False),
    Column("erosion", Float),
    Column("verbosity", Float),
    Index("ix_code_report_commits_sha", "report_id", "sha"),
)

#: One paper measured with ``paper measure --store`` (migration 0007); ``label`` is
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
