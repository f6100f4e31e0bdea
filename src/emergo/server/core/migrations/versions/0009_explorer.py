"""Issue 29: the opening explorer.  ``explorer_moves``: per source, variant, position key and
move, the games' results and the movers' ratings; ``explorer_games``: a position's top and recent
games; ``explorer_indexed``: the games counted, each once.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "explorer_moves",
        sa.Column("source", sa.String(length=8), nullable=False),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("move", sa.String(length=200), nullable=False),
        sa.Column("white", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("black", sa.Integer(), nullable=False),
        sa.Column("rating_sum", sa.BigInteger(), nullable=False),
        sa.Column("rating_count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("source", "variant", "key", "move"),
    )
    op.create_table(
        "explorer_games",
        sa.Column("source", sa.String(length=8), nullable=False),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("top", sa.JSON(), nullable=False),
        sa.Column("recent", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("source", "variant", "key"),
    )
    op.create_table(
        "explorer_indexed",
        sa.Column("source", sa.String(length=8), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("source", "game_id"),
    )


def downgrade() -> None:
    op.drop_table("explorer_indexed")
    op.drop_table("explorer_games")
    op.drop_table("explorer_moves")
