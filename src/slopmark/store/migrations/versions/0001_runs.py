"""The runs table: one scored (or errored) answer of one model to one task.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_SERIES = ("task_id", "model", "provider", "harness_version", "mode", "task_set_version")


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("domain", sa.String(40), nullable=False),
        sa.Column("model", sa.String(200), nullable=False),
        sa.Column("provider", sa.String(60), nullable=False),
        sa.Column("upstream", sa.String(200)),
        sa.Column("harness_version", sa.String(40), nullable=False),
        sa.Column("mode", sa.String(20), nullable=False),
        sa.Column("task_set_version", sa.String(40), nullable=False),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("template_id", sa.String(200)),
        sa.Column("output", sa.Text, nullable=False),
        sa.Column("passed", sa.Boolean),
        sa.Column("score", sa.Float),
        sa.Column("details", sa.JSON, nullable=False),
        sa.Column("ambiguous", sa.Boolean, nullable=False),
        sa.Column("latency_first_byte_ms", sa.Float),
        sa.Column("latency_ms", sa.Float),
        sa.Column("input_tokens", sa.Integer),
        sa.Column("output_tokens", sa.Integer),
        sa.Column("finish_reason", sa.String(40)),
        sa.Column("truncated", sa.Boolean, nullable=False),
        sa.Column("cost_usd", sa.Float),
        sa.Column("paste", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint(*_SERIES, "attempt", name="uq_runs_attempt"),
    )
    op.create_index(
        "uq_runs_one_ok",
        "runs",
        list(_SERIES),
        unique=True,
        sqlite_where=sa.text("status = 'ok' AND paste = 0"),
        postgresql_where=sa.text("status = 'ok' AND paste = false"),
    )
    op.create_index("ix_runs_model_domain", "runs", ["model", "domain"])


def downgrade() -> None:
    op.drop_index("ix_runs_model_domain", table_name="runs")
    op.drop_index("uq_runs_one_ok", table_name="runs")
    op.drop_table("runs")
