"""Indexes for the runs browser (``/runs``): each filter it offers, in store order.

The browser lists the matching runs newest first and pages by id (keyset), so each
index ends in ``id``: a filter on its first column reads the index backwards from
the page's last id and stops after one page, with no sort. Model and task already
have such indexes (``ix_runs_model_domain``, the unique ``uq_runs_attempt``); these
add the filters that had none. Without them a selective filter (an old harness
version, one template, a day) read the whole table, and a domain's failed runs were
read through ``ix_runs_board`` and sorted (0.4 s at a million runs). ``ix_runs_domain``
is partial on a condition true of every run that only the browser states: a plain
index on (domain, id) drew the board's ``ORDER BY id`` reads of two models (``board
compare``, ``board gate``) away from ``ix_runs_model_domain``, to a domain's every run.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

#: index name → its columns (kept equal to `slopmark.store.schema.BROWSER_INDEXES`)
_INDEXES = {
    "ix_runs_template": ("template_id", "id"),
    "ix_runs_status": ("status", "id"),
    "ix_runs_source": ("source", "id"),
    "ix_runs_harness": ("harness_version", "id"),
    "ix_runs_created": ("created_at", "id"),
}


#: true of every run; only the browser's reads state it (`slopmark.store.schema.BROWSER_ONLY`)
_BROWSER_ONLY = "paste IS NOT NULL"


def upgrade() -> None:
    for name, columns in _INDEXES.items():
        op.create_index(name, "runs", list(columns))
    where = sa.text(_BROWSER_ONLY)
    op.create_index(
        "ix_runs_domain", "runs", ["domain", "id"], sqlite_where=where, postgresql_where=where
    )


def downgrade() -> None:
    for name in (*_INDEXES, "ix_runs_domain"):
        op.drop_index(name, table_name="runs")
