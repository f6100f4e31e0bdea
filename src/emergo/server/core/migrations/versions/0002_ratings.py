"""Issue 21: ratings and their history, the archive of finished games (from the site and from
each player's side), the players' mail settings, notifications, vacations, conditional moves,
correspondence alarms and vacation credits.  The games that ended before are put in the archive.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _user(nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column("user_id", sa.Integer(), nullable=nullable)


def _cascade(column: str, table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{table}.id"], ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "perfs",
        _user(),
        sa.Column("perf", sa.String(length=24), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("latest", sa.Double(), nullable=True),
        _cascade("user_id", "users"),
        sa.PrimaryKeyConstraint("user_id", "perf"),
    )
    op.create_index("ix_perfs_perf_rating", "perfs", ["perf", "rating"], unique=False)
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        _user(),
        sa.Column("perf", sa.String(length=24), nullable=False),
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        _cascade("user_id", "users"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_rating_history_user", "rating_history", ["user_id", "perf", "at"], unique=False
    )
    op.create_table(
        "archive",
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("white_id", sa.Integer(), nullable=False),
        sa.Column("black_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("speed", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=False),
        sa.Column("termination", sa.String(length=20), nullable=False),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("white_rating", sa.Integer(), nullable=True),
        sa.Column("black_rating", sa.Integer(), nullable=True),
        sa.Column("white_diff", sa.Integer(), nullable=True),
        sa.Column("black_diff", sa.Integer(), nullable=True),
        sa.Column("ended", sa.Double(), nullable=False),
        _cascade("game_id", "games"),
        sa.ForeignKeyConstraint(["white_id"], ["users.id"]),
        sa.ForeignKeyConstraint(["black_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_archive_ended", "archive", ["ended"], unique=False)
    op.create_index(
        "ix_archive_variant_speed_ended", "archive", ["variant", "speed", "ended"], unique=False
    )
    op.create_table(
        "player_games",
        _user(),
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("color", sa.String(length=5), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("speed", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("score", sa.String(length=4), nullable=False),
        sa.Column("ended", sa.Double(), nullable=False),
        _cascade("user_id", "users"),
        _cascade("game_id", "games"),
        sa.ForeignKeyConstraint(["opponent_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("user_id", "game_id"),
    )
    op.create_index(
        "ix_player_games_user_ended", "player_games", ["user_id", "ended"], unique=False
    )
    op.create_index(
        "ix_player_games_user_opponent",
        "player_games",
        ["user_id", "opponent_id", "ended"],
        unique=False,
    )
    op.create_table(
        "user_settings",
        _user(),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("email_choice", sa.String(length=8), nullable=False),
        sa.Column("digest_at", sa.Double(), nullable=True),
        _cascade("user_id", "users"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), nullable=False),
        _user(),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("read", sa.Boolean(), nullable=False),
        sa.Column("mail", sa.String(length=8), nullable=False),
        _cascade("user_id", "users"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_notifications_user", "notifications", ["user_id", "id"], unique=False)
    op.create_index("ix_notifications_mail", "notifications", ["mail", "user_id"], unique=False)
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer(), nullable=False),
        _user(),
        sa.Column("started", sa.Double(), nullable=False),
        sa.Column("ended", sa.Double(), nullable=True),
        _cascade("user_id", "users"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_vacations_user", "vacations", ["user_id", "started"], unique=False)
    op.create_table(
        "conditionals",
        sa.Column("game_id", sa.String(length=8), nullable=False),
        _user(),
        sa.Column("tree", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        _cascade("game_id", "games"),
        _cascade("user_id", "users"),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
    )
    op.create_table(
        "alarms",
        sa.Column("game_id", sa.String(length=8), nullable=False),
        _user(),
        sa.Column("due", sa.Double(), nullable=False),
        sa.Column("deadline", sa.Double(), nullable=False),
        _cascade("game_id", "games"),
        _cascade("user_id", "users"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index(op.f("ix_alarms_due"), "alarms", ["due"], unique=False)
    op.create_table(
        "credits",
        sa.Column("game_id", sa.String(length=8), nullable=False),
        sa.Column("credited_until", sa.Double(), nullable=False),
        _cascade("game_id", "games"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    _archive_finished_games()


def _archive_finished_games() -> None:
    """The games that ended before this schema: into the archive, unrated figures left empty
    (their ratings were never computed), ended at their last update."""
    op.execute(
        "INSERT INTO archive (game_id, white_id, black_id, variant, speed, rated, result, "
        "termination, plies, ended) "
        "SELECT g.id, g.white_id, g.black_id, g.variant, g.speed, g.rated, g.result, "
        "COALESCE(g.termination, ''), "
        "(SELECT COUNT(*) FROM moves mv WHERE mv.game_id = g.id), g.updated "
        "FROM games g WHERE g.status = 'over'"
    )
    for color, me, other, win in (
        ("white", "white_id", "black_id", "1-0"),
        ("black", "black_id", "white_id", "0-1"),
    ):
        op.execute(
            "INSERT INTO player_games (user_id, game_id, color, opponent_id, variant, speed, "
            "rated, score, ended) "
            f"SELECT g.{me}, g.id, '{color}', g.{other}, g.variant, g.speed, g.rated, "
            f"CASE WHEN g.result = '{win}' THEN 'win' WHEN g.result = '1/2-1/2' THEN 'draw' "
            "WHEN g.result = '*' THEN 'none' ELSE 'loss' END, g.updated "
            "FROM games g WHERE g.status = 'over'"
        )


def downgrade() -> None:
    for table in (
        "credits",
        "alarms",
        "conditionals",
        "vacations",
        "notifications",
        "user_settings",
        "player_games",
        "archive",
        "rating_history",
        "perfs",
    ):
        op.drop_table(table)
