"""A study's groups: ``studies.groups``, each grouped repository's ``group=NAME``.

The REPOS file may give a repository a group (e.g. a star tier); the report
gives every statistic per group. The mapping (repository → group) is written
on every run of the study, so a group added to the file later is read by the
next run without measuring anything again. Studies stored before this
revision hold NULL: no groups.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("studies", sa.Column("groups", sa.JSON))


def downgrade() -> None:
    with op.batch_alter_table("studies") as batch:
        batch.drop_column("groups")
