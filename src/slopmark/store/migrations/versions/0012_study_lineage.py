"""Where a study's sampled commits lie: ``study_repos.roots`` and ``study_commits.lineage``.

``roots`` lists a repository's parentless commits behind HEAD (the first-parent
line's root first), so a report flags unrelated histories merged in;
``lineage`` says whether a sampled commit is on the first-parent line
(``mainline``), on a merged side branch (``branch``) or in a second root's
history (``second-root``). Rows stored before this revision hold NULL: unknown.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("study_repos", sa.Column("roots", sa.JSON))
    op.add_column("study_commits", sa.Column("lineage", sa.String(12)))


def downgrade() -> None:
    with op.batch_alter_table("study_commits") as batch:
        batch.drop_column("lineage")
    with op.batch_alter_table("study_repos") as batch:
        batch.drop_column("roots")
