"""An index for the board's reads: one domain's runs, grouped as the board groups them.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

#: the board's group, then the (model, task) a run counts for, then store order
_BOARD = ("domain", "harness_version", "task_set_version", "mode", "model", "task_id", "id")


def upgrade() -> None:
    op.create_index("ix_runs_board", "runs", list(_BOARD))


def downgrade() -> None:
    op.drop_index("ix_runs_board", table_name="runs")
