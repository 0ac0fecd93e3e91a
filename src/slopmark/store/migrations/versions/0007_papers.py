"""Papers measured with ``slopmark paper measure --store``: scores, measures and findings.

``papers`` holds one measured paper (its label, human / ai / none, when the user
gave one); ``paper_measures`` one row per measure with the paper's label copied
in, so "where does this score stand among human papers" is a range count on
``ix_paper_measures_rank``; ``paper_findings`` every located instance in the
order ``--findings F.json`` lists them.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "papers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("paper", sa.Text, nullable=False),
        sa.Column("label", sa.String(10)),
        sa.Column("profile", sa.String(20), nullable=False),
        sa.Column("aggregate", sa.Float),
        sa.Column("planes", sa.JSON, nullable=False),
        sa.Column("recovery", sa.JSON),
        sa.Column("notes", sa.JSON, nullable=False),
        sa.Column("findings", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_papers_rank", "papers", ["label", "aggregate"])
    op.create_index("ix_papers_label", "papers", ["label", "id"])
    op.create_table(
        "paper_measures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "paper_id", sa.Integer, sa.ForeignKey("papers.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("measure", sa.String(60), nullable=False),
        sa.Column("plane", sa.String(20), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("score", sa.Float),
        sa.Column("flagged", sa.Integer, nullable=False),
        sa.Column("units", sa.Integer, nullable=False),
        sa.Column("unit_name", sa.String(60), nullable=False),
        sa.Column("weak", sa.Boolean, nullable=False),
        sa.Column("reason", sa.Text),
        sa.Column("detail", sa.JSON, nullable=False),
        sa.Column("label", sa.String(10)),
        sa.UniqueConstraint("paper_id", "measure", name="uq_paper_measures_measure"),
    )
    op.create_index("ix_paper_measures_rank", "paper_measures", ["measure", "label", "score"])
    op.create_table(
        "paper_findings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "paper_id", sa.Integer, sa.ForeignKey("papers.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("measure", sa.String(60), nullable=False),
        sa.Column("section", sa.Text, nullable=False),
        sa.Column("file", sa.Text, nullable=False),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("repair", sa.Text, nullable=False),
        sa.UniqueConstraint("paper_id", "position", name="uq_paper_findings_position"),
    )
    op.create_index(
        "ix_paper_findings_filter", "paper_findings", ["paper_id", "measure", "section"]
    )


def downgrade() -> None:
    op.drop_index("ix_paper_findings_filter", table_name="paper_findings")
    op.drop_table("paper_findings")
    op.drop_index("ix_paper_measures_rank", table_name="paper_measures")
    op.drop_table("paper_measures")
    op.drop_index("ix_papers_label", table_name="papers")
    op.drop_index("ix_papers_rank", table_name="papers")
    op.drop_table("papers")
