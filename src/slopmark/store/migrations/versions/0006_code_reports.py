"""Stored code reports: a measured tree's or a history's summary and bounded findings.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_KEY = sa.Integer  # the report's id, first column of every child table's primary key


def _reports() -> None:
    op.create_table(
        "code_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("root", sa.Text, nullable=False),
        sa.Column("rev", sa.String(200)),
        sa.Column("slopmark_version", sa.String(40), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("bounds", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "code_report_languages",
        sa.Column("report_id", _KEY, primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("language", sa.String(40), nullable=False),
        *(sa.Column(name, sa.Integer, nullable=False) for name in _LANGUAGE_COUNTS),
        sa.Column("erosion", sa.Float),
        sa.Column("verbosity", sa.Float),
    )
    op.create_table(
        "code_report_callables",
        sa.Column("report_id", _KEY, primary_key=True),
        sa.Column("rank", sa.Integer, primary_key=True),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("qualname", sa.Text, nullable=False),
        *(sa.Column(name, sa.Integer, nullable=False) for name in ("start", "end", "cc", "sloc")),
        sa.Column("mass", sa.Float, nullable=False),
    )


_LANGUAGE_COUNTS = (
    "files", "sloc", "callables", "complex_callables", "rule_lines", "clone_lines",
    "flagged_lines",
)  # fmt: skip


def _findings() -> None:
    op.create_table(
        "code_report_rules",
        sa.Column("report_id", _KEY, primary_key=True),
        sa.Column("rule", sa.String(200), primary_key=True),
        sa.Column("severity", sa.String(20), nullable=False),
        sa.Column("category", sa.String(60), nullable=False),
        *(sa.Column(name, sa.Integer, nullable=False) for name in ("hits", "lines", "stored")),
        *(sa.Column(name, sa.Text, nullable=False) for name in ("message", "what", "why")),
    )
    op.create_table(
        "code_report_hits",
        sa.Column("report_id", _KEY, primary_key=True),
        sa.Column("rule", sa.String(200), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("start", sa.Integer, nullable=False),
        sa.Column("end", sa.Integer, nullable=False),
        sa.Column("message", sa.Text, nullable=False),
    )
    op.create_table(
        "code_report_clones",
        sa.Column("report_id", _KEY, primary_key=True),
        sa.Column("rank", sa.Integer, primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("sloc", sa.Integer, nullable=False),
        sa.Column("members", sa.Integer, nullable=False),
    )
    op.create_table(
        "code_report_clone_members",
        sa.Column("report_id", _KEY, primary_key=True),
        sa.Column("rank", sa.Integer, primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("path", sa.Text, nullable=False),
        *(sa.Column(name, sa.Integer, nullable=False) for name in ("start", "end", "sloc")),
        sa.Column("text", sa.Text),
    )


def _commits() -> None:
    op.create_table(
        "code_report_commits",
        sa.Column("report_id", _KEY, primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("sha", sa.String(64), nullable=False),
        sa.Column("committed_at", sa.String(40), nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        *(
            sa.Column(name, sa.Integer, nullable=False)
            for name in ("files", "sloc", "callables", "complex_callables")
        ),
        sa.Column("erosion", sa.Float),
        sa.Column("verbosity", sa.Float),
    )
    op.create_index("ix_code_report_commits_sha", "code_report_commits", ["report_id", "sha"])


def upgrade() -> None:
    _reports()
    _findings()
    _commits()


def downgrade() -> None:
    for table in (
        "code_report_commits", "code_report_clone_members", "code_report_clones",
        "code_report_hits", "code_report_rules", "code_report_callables",
        "code_report_languages", "code_reports",
    ):  # fmt: skip
        op.drop_table(table)
