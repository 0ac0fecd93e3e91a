"""The bench checkpoints the /bench pages read, filled from the runs stored before.

Revision ID: 0005
Revises: 0004

Checkpoints stored before this table existed are copied from their runs
(`slopmark.store.benchrows.legacy_rows`): their run folder was not stored, so
each (subject, prompt, attempt) becomes a run named ``stored-<first id>``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: the columns of ``runs`` a bench row is made of
_READ = "id task_id domain model harness_version attempt template_id status details cost_usd"
_RUNS = sa.table("runs", *(sa.column(name) for name in _READ.split()))


def upgrade() -> None:
    from slopmark.store.benchrows import legacy_rows
    from slopmark.store.schema import bench_checkpoints

    op.create_table(
        "bench_checkpoints",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.Integer),
        *(sa.Column(n, sa.String(200), nullable=False)
          for n in ("run", "problem_set", "problem", "checkpoint")),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("phase", sa.String(10), nullable=False),
        sa.Column("agent", sa.String(200), nullable=False),
        sa.Column("model", sa.String(200)),
        sa.Column("prompt", sa.String(200), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("errored", sa.Boolean, nullable=False),
        *(sa.Column(n, sa.Boolean) for n in ("strict", "isolated", "core")),
        sa.Column("erosion", sa.Float),
        sa.Column("verbosity", sa.Float),
        sa.Column("sloc", sa.Integer),
        sa.Column("complex_callables", sa.Integer),
        *(sa.Column(n, sa.Float) for n in ("churn", "cost_usd", "wall_s")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("run", "problem", "checkpoint", name="uq_bench_checkpoint"),
    )  # fmt: skip
    op.create_index(
        "ix_bench_board", "bench_checkpoints",
        ["problem_set", "agent", "model", "prompt", "problem", "phase"],
    )  # fmt: skip
    connection = op.get_bind()
    stored = connection.execute(
        sa.select(_RUNS).where(_RUNS.c.domain == "code_iterative").order_by(_RUNS.c.id)
    )
    rows = legacy_rows(dict(row._mapping) for row in stored)
    if rows:
        connection.execute(sa.insert(bench_checkpoints), rows)


def downgrade() -> None:
    op.drop_index("ix_bench_board", table_name="bench_checkpoints")
    op.drop_table("bench_checkpoints")
