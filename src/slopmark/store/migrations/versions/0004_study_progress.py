"""A study's progress and the web pages' reads: its repository count and two indexes.

``studies.repos_total`` is how many repositories the REPOS file names, so a
running study shows done/total; ``ix_studies_created`` lists studies newest
first a page at a time; ``ix_study_repos_status`` counts a study's finished
and failed repositories from the index alone.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("studies", sa.Column("repos_total", sa.Integer))
    op.create_index("ix_studies_created", "studies", ["created_at"])
    op.create_index("ix_study_repos_status", "study_repos", ["study_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_study_repos_status", table_name="study_repos")
    op.drop_index("ix_studies_created", table_name="studies")
    with op.batch_alter_table("studies") as batch:
        batch.drop_column("repos_total")
