"""The online site's first schema: accounts, sessions, tokens, rate limits, challenges, games,
their moves, events, timers, chat, the users' event streams, presence and the processes.

Revision ID: 0001
Revises:
Create Date: 2026-11-27
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
        "processes",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("started", sa.Double(), nullable=False),
        sa.Column("seen", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("window", sa.Double(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=30), nullable=True),
        sa.Column("name_key", sa.String(length=80), nullable=False),
        sa.Column("password_hash", sa.Text(), nullable=True),
        sa.Column("created", sa.Double(), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("bot", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name_key"),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(length=8), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("dest_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("clock_limit", sa.Double(), nullable=True),
        sa.Column("clock_increment", sa.Double(), nullable=True),
        sa.Column("days", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("color", sa.String(length=6), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("decline_reason", sa.String(length=40), nullable=True),
        sa.Column("game_id", sa.String(length=8), nullable=True),
        sa.Column("created", sa.Double(), nullable=False),
        sa.Column("expires", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["challenger_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["dest_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_challenges_challenger_id"), "challenges", ["challenger_id"], unique=False
    )
    op.create_index(op.f("ix_challenges_dest_id"), "challenges", ["dest_id"], unique=False)
    op.create_index(op.f("ix_challenges_status"), "challenges", ["status"], unique=False)
    op.create_table(
        "games",
        sa.Column("id", sa.String(length=8), nullable=False),
        sa.Column("white_id", sa.Integer(), nullable=False),
        sa.Column("black_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("speed", sa.String(length=16), nullable=False),
        sa.Column("time_control", sa.String(length=24), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("termination", sa.String(length=20), nullable=True),
        sa.Column("turn_id", sa.Integer(), nullable=True),
        sa.Column("player_chat", sa.Boolean(), nullable=False),
        sa.Column("challenge_id", sa.String(length=8), nullable=True),
        sa.Column("created", sa.Double(), nullable=False),
        sa.Column("updated", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["black_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["turn_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["white_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_games_black_id"), "games", ["black_id"], unique=False)
    op.create_index(op.f("ix_games_status"), "games", ["status"], unique=False)
    op.create_index(op.f("ix_games_turn_id"), "games", ["turn_id"], unique=False)
    op.create_index(op.f("ix_games_white_id"), "games", ["white_id"], unique=False)
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("csrf", sa.String(length=64), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
        sa.Column("expires", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id_hash"),
    )
    op.create_index(op.f("ix_sessions_user_id"), "sessions", ["user_id"], unique=False)
    op.create_table(
        "tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("hint", sa.String(length=12), nullable=False),
        sa.Column("description", sa.String(length=100), nullable=False),
        sa.Column("scopes", sa.String(length=200), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
        sa.Column("last_used", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("hash"),
    )
    op.create_index(op.f("ix_tokens_user_id"), "tokens", ["user_id"], unique=False)
    op.create_table(
        "user_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_user_events_at"), "user_events", ["at"], unique=False)
    op.create_index("ix_user_events_user_id", "user_events", ["user_id", "id"], unique=False)
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("room", sa.String(length=10), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=140), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("removed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_chat_game_id", "chat", ["game_id", "id"], unique=False)
    op.create_table(
        "crowds",
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("process_id", sa.String(length=32), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("seen", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "process_id"),
    )
    op.create_table(
        "game_events",
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "version"),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("white_left", sa.Double(), nullable=True),
        sa.Column("black_left", sa.Double(), nullable=True),
        sa.Column("at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "ply"),
    )
    op.create_table(
        "presence",
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seen", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
    )
    op.create_table(
        "timers",
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("due", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index(op.f("ix_timers_due"), "timers", ["due"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_timers_due"), table_name="timers")
    op.drop_table("timers")
    op.drop_table("presence")
    op.drop_table("moves")
    op.drop_table("game_events")
    op.drop_table("crowds")
    op.drop_index("ix_chat_game_id", table_name="chat")
    op.drop_table("chat")
    op.drop_index("ix_user_events_user_id", table_name="user_events")
    op.drop_index(op.f("ix_user_events_at"), table_name="user_events")
    op.drop_table("user_events")
    op.drop_index(op.f("ix_tokens_user_id"), table_name="tokens")
    op.drop_table("tokens")
    op.drop_index(op.f("ix_sessions_user_id"), table_name="sessions")
    op.drop_table("sessions")
    op.drop_index(op.f("ix_games_white_id"), table_name="games")
    op.drop_index(op.f("ix_games_turn_id"), table_name="games")
    op.drop_index(op.f("ix_games_status"), table_name="games")
    op.drop_index(op.f("ix_games_black_id"), table_name="games")
    op.drop_table("games")
    op.drop_index(op.f("ix_challenges_status"), table_name="challenges")
    op.drop_index(op.f("ix_challenges_dest_id"), table_name="challenges")
    op.drop_index(op.f("ix_challenges_challenger_id"), table_name="challenges")
    op.drop_table("challenges")
    op.drop_table("users")
    op.drop_table("rate_limits")
    op.drop_table("processes")
