"""Issue 30: tournaments.  ``tournaments`` (arenas, Swiss events, round robins, matches),
``tournament_players`` (who joined, their lobby and their game now), ``tournament_games`` (the
pairings and their results), ``tournament_byes`` (a round's bye), ``tournament_timers`` (when an
event's director is due), and the fair start a challenge asks for (``challenges.start``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("challenges", sa.Column("start", sa.String(length=16), nullable=True))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=8), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("clock_limit", sa.Double(), nullable=True),
        sa.Column("clock_increment", sa.Double(), nullable=True),
        sa.Column("days", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("starts_at", sa.Double(), nullable=False),
        sa.Column("ends_at", sa.Double(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("round_due", sa.Double(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("schedule_key", sa.String(length=60), nullable=True),
        sa.Column("created", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("schedule_key"),
    )
    op.create_index("ix_tournaments_created_by", "tournaments", ["created_by"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(length=8), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("joined", sa.Double(), nullable=False),
        sa.Column("joined_round", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("waiting", sa.Double(), nullable=True),
        sa.Column("playing", sa.String(length=8), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("score", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "user_id"),
    )
    op.create_index("ix_tournament_players_user", "tournament_players", ["user_id"])
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=8), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("white_id", sa.Integer(), nullable=False),
        sa.Column("black_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=8), nullable=True),
        sa.Column("opening", sa.String(length=12), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("forfeit", sa.Boolean(), nullable=False),
        sa.Column("movement_plies", sa.Integer(), nullable=False),
        sa.Column("berserk_white", sa.Boolean(), nullable=False),
        sa.Column("berserk_black", sa.Boolean(), nullable=False),
        sa.Column("white_rating", sa.Integer(), nullable=False),
        sa.Column("black_rating", sa.Integer(), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
        sa.Column("ended", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["white_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["black_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id"),
    )
    op.create_index(
        "ix_tournament_games_event", "tournament_games", ["tournament_id", "round", "board"]
    )
    op.create_index("ix_tournament_games_white", "tournament_games", ["white_id"])
    op.create_index("ix_tournament_games_black", "tournament_games", ["black_id"])
    op.create_table(
        "tournament_byes",
        sa.Column("tournament_id", sa.String(length=8), nullable=False),
        sa.Column("round", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "round"),
    )
    op.create_table(
        "tournament_timers",
        sa.Column("tournament_id", sa.String(length=8), nullable=False),
        sa.Column("due", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id"),
    )
    op.create_index("ix_tournament_timers_due", "tournament_timers", ["due"])


def downgrade() -> None:
    op.drop_index("ix_tournament_timers_due", "tournament_timers")
    op.drop_table("tournament_timers")
    op.drop_table("tournament_byes")
    op.drop_index("ix_tournament_games_black", "tournament_games")
    op.drop_index("ix_tournament_games_white", "tournament_games")
    op.drop_index("ix_tournament_games_event", "tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_players_user", "tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_index("ix_tournaments_created_by", "tournaments")
    op.drop_table("tournaments")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("start")
