"""Issue 26, the one server: a challenge from a position, an imported game's tags, an account's
board preferences, studies and their chapters (records), and what was imported from the local
app's old store.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("position", sa.Text(), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("tags", sa.JSON(), nullable=True))
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("preferences", sa.JSON(), nullable=True))
    op.create_table(
        "studies",
        sa.Column("id", sa.String(length=8), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("visibility", sa.String(length=10), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
        sa.Column("updated", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_studies_owner_id", "studies", ["owner_id"])
    op.create_table(
        "chapters",
        sa.Column("id", sa.String(length=8), nullable=False),
        sa.Column("study_id", sa.String(length=8), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("nodes", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["study_id"], ["studies.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_chapters_study_id", "chapters", ["study_id"])
    op.create_table(
        "imports",
        sa.Column("source", sa.String(length=400), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("source"),
    )


def downgrade() -> None:
    op.drop_table("imports")
    op.drop_index("ix_chapters_study_id", "chapters")
    op.drop_table("chapters")
    op.drop_index("ix_studies_owner_id", "studies")
    op.drop_table("studies")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("preferences")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("tags")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("position")
