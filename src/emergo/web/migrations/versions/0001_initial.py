"""The first schema: games, their moves, settings, analyses.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("variant", sa.String(8), nullable=False),
        sa.Column("start", sa.Text, nullable=False),
        sa.Column("white", sa.String(200), nullable=False),
        sa.Column("black", sa.String(200), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("tags", sa.JSON, nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("termination", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "game_id",
            sa.Integer,
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "ply"),
    )
    op.create_index("ix_moves_game_id", "moves", ["game_id"])
    op.create_table(
        "settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.JSON, nullable=True),
    )
    op.create_table(
        "analyses",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("position", sa.Text, nullable=False),
        sa.Column("limit", sa.JSON, nullable=False),
        sa.Column("lines", sa.JSON, nullable=False),
    )
    op.create_index("ix_analyses_position", "analyses", ["position"])


def downgrade() -> None:
    op.drop_index("ix_analyses_position", "analyses")
    op.drop_table("analyses")
    op.drop_table("settings")
    op.drop_index("ix_moves_game_id", "moves")
    op.drop_table("moves")
    op.drop_table("games")
