"""Each sampled commit's numbers per scope: ``study_commits.by_scope`` (source, tests,
examples, docs: files, SLOC, erosion, verbosity), which ``study report`` puts side by
side, and ``study_commits.excluded``, the files ``--language``/``--scope`` left out.
Rows stored before this revision hold NULL: a study measured again fills them.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("study_commits", sa.Column("by_scope", sa.JSON))
    op.add_column("study_commits", sa.Column("excluded", sa.JSON))


def downgrade() -> None:
    with op.batch_alter_table("study_commits") as batch:
        batch.drop_column("excluded")
        batch.drop_column("by_scope")
