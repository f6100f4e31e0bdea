"""Issue 29: puzzles on the site.  ``puzzles`` (the set, each with its Glicko-2 rating and
plays), ``puzzle_imports`` (the files imported, by digest), ``puzzle_rounds`` (a player's
attempts: the first rated), ``puzzle_perfs`` (a player's puzzle rating), ``puzzle_daily`` (the
puzzle of each day) and ``storm_runs`` (timed runs and their scores).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
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
        "puzzles",
        sa.Column("id", sa.String(length=8), nullable=False),
        sa.Column("variant", sa.String(length=8), nullable=False),
        sa.Column("position", sa.Text(), nullable=False),
        sa.Column("solution", sa.Text(), nullable=False),
        sa.Column("themes", sa.String(length=400), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
        sa.Column("gain", sa.Integer(), nullable=False),
        sa.Column("proof", sa.String(length=8), nullable=False),
        sa.Column("source", sa.String(length=120), nullable=False),
        sa.Column("initial_ply", sa.Integer(), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("start", sa.Text(), nullable=True),
        sa.Column("imported", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_puzzles_variant_rating", "puzzles", ["variant", "rating"])
    op.create_table(
        "puzzle_imports",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("puzzles", sa.Integer(), nullable=False),
        sa.Column("added", sa.Integer(), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("digest"),
    )
    op.create_table(
        "puzzle_rounds",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.String(length=8), nullable=False),
        sa.Column("win", sa.Boolean(), nullable=False),
        sa.Column("fixed", sa.Boolean(), nullable=False),
        sa.Column("rating_diff", sa.Integer(), nullable=True),
        sa.Column("puzzle_rating", sa.Integer(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
        sa.Column("updated", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["puzzle_id"], ["puzzles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "puzzle_id"),
    )
    op.create_index("ix_puzzle_rounds_user_created", "puzzle_rounds", ["user_id", "created"])
    op.create_table(
        "puzzle_perfs",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("latest", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "puzzle_daily",
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column("puzzle_id", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(["puzzle_id"], ["puzzles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("day"),
    )
    op.create_table(
        "storm_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("errors", sa.Integer(), nullable=False),
        sa.Column("combo", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Integer(), nullable=False),
        sa.Column("highest", sa.Integer(), nullable=False),
        sa.Column("created", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_storm_runs_user", "storm_runs", ["user_id", "score"])


def downgrade() -> None:
    op.drop_table("storm_runs")
    op.drop_table("puzzle_daily")
    op.drop_table("puzzle_perfs")
    op.drop_table("puzzle_rounds")
    op.drop_table("puzzle_imports")
    op.drop_index("ix_puzzles_variant_rating", table_name="puzzles")
    op.drop_table("puzzles")
