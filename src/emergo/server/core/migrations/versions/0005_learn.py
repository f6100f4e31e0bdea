"""Issue 28: the course of /learn.  ``learn_progress``: a player's stars in each level he has
done (the best kept: a visitor's progress from the browser is merged in when he signs up).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "learn_progress",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=80), nullable=False),
        sa.Column("stars", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "level"),
    )


def downgrade() -> None:
    op.drop_table("learn_progress")
