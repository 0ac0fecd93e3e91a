"""The agent's log of each stored bench checkpoint (``bench_logs``), read by the chain page.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bench_logs",
        sa.Column("run_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("files", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bench_logs")
