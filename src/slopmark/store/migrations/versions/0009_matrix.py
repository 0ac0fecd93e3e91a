"""An index for the tasks × models matrix (``/matrix``): one board group's runs in the
order the matrix shows them (template, task, model), carrying every field a cell needs.

The matrix reads one cell per (task, model) — the latest ok run's verdict, the latest
run and the number of runs — with ``GROUP BY template_id, task_id, model``. On this
index that is a walk in index order that never touches the table, so a page stops
reading once its rows are found.

Revision ID: 0009
Revises: 0008 (0008 is written beside it; the two are chained when merged)
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

#: the board's group, the matrix's row and column, then what a cell reads
_MATRIX = ("domain", "harness_version", "task_set_version", "mode", "template_id", "task_id",
           "model", "status", "passed", "id")  # fmt: skip


def upgrade() -> None:
    op.create_index("ix_runs_matrix", "runs", list(_MATRIX))


def downgrade() -> None:
    op.drop_index("ix_runs_matrix", table_name="runs")
