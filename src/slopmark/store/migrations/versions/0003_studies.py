"""The repository study's tables: studies, their repositories and sampled commits.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "studies",
        sa.Column("study_id", sa.String(80), primary_key=True),
        sa.Column("repos_file", sa.Text, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "study_repos",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("study_id", sa.String(80), nullable=False),
        sa.Column("repo", sa.String(1000), nullable=False),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("head", sa.String(64)),
        sa.Column("candidates", sa.Integer),
        sa.Column("blobs_measured", sa.Integer),
        sa.Column("erosion_slope", sa.Float),
        sa.Column("verbosity_slope", sa.Float),
        sa.Column("erosion_rose", sa.Boolean),
        sa.Column("verbosity_rose", sa.Boolean),
        sa.Column("node", sa.String(200)),
        sa.Column("seconds", sa.Float),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("study_id", "repo", name="uq_study_repos_repo"),
    )
    op.create_table(
        "study_commits",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("study_id", sa.String(80), nullable=False),
        sa.Column("repo", sa.String(1000), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("sha", sa.String(64), nullable=False),
        sa.Column("committed_at", sa.String(40), nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("files", sa.Integer, nullable=False),
        sa.Column("sloc", sa.Integer, nullable=False),
        sa.Column("callables", sa.Integer, nullable=False),
        sa.Column("complex_callables", sa.Integer, nullable=False),
        sa.Column("erosion", sa.Float),
        sa.Column("verbosity", sa.Float),
        sa.UniqueConstraint("study_id", "repo", "position", name="uq_study_commits_position"),
    )


def downgrade() -> None:
    op.drop_table("study_commits")
    op.drop_table("study_repos")
    op.drop_table("studies")
