"""Indexes for the runs browser (``/runs``): each filter it offers, in store order.

The browser lists the matching runs newest first and pages by id (keyset), so each
index ends in ``id``: a filter on its first column reads the index backwards from
the page's last id and stops after one page, with no sort. Model and task already
have such indexes (``ix_runs_model_domain``, the unique ``uq_runs_attempt``); these
add the filters that had none. Without them a selective filter (an old harness
version, one template, a day) read the whole table, and a domain's failed runs were
read through ``ix_runs_board`` and sorted (0.4 s at a million runs).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

#: index name → its columns (kept equal to `slopmark.store.schema.BROWSER_INDEXES`)
_INDEXES = {
    "ix_runs_domain": ("domain", "id"),
    "ix_runs_template": ("template_id", "id"),
    "ix_runs_status": ("status", "id"),
    "ix_runs_source": ("source", "id"),
    "ix_runs_harness": ("harness_version", "id"),
    "ix_runs_created": ("created_at", "id"),
}


def upgrade() -> None:
    for name, columns in _INDEXES.items():
        op.create_index(name, "runs", list(columns))


def downgrade() -> None:
    for name in _INDEXES:
        op.drop_index(name, table_name="runs")
