"""Issue 27: a game row whose indexed columns do not change with each move, the clean stop of a
process, the clients a log-in is known from.

* ``games.turn_id`` is no longer written, and its index goes (an indexed foreign key that changed
  with every move: no update of the row could be a heap-only one, and each checked the users
  table); whose turn it is is the state's.  The column stays, empty: SQLite drops a column with
  a foreign key only by rebuilding the table, and dropping the old ``games`` would delete every
  row that refers to it (``ON DELETE CASCADE``).  On PostgreSQL the table keeps room in each page
  for the new versions of its rows (``fillfactor`` 70), so that a move's update stays on the
  row's page.
* ``moves.version``: the version a move made, so that a version that is only a move needs no
  row of ``game_events`` (its event is derived from the move's row).
* ``processes.stopped``: when a process stopped cleanly (the restart rule gives the clocks back
  the time no process served).
* ``login_clients``: the clients (a hash of the address) each account logged in from, so that
  failed log-ins from elsewhere cannot lock its owner out.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_games_turn_id", table_name="games")
    op.execute("UPDATE games SET turn_id = NULL")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games SET (fillfactor = 70)")
    op.add_column("moves", sa.Column("version", sa.Integer(), nullable=True))
    op.add_column("processes", sa.Column("stopped", sa.Double(), nullable=True))
    op.create_table(
        "login_clients",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(length=64), nullable=False),
        sa.Column("seen", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "client"),
    )


def downgrade() -> None:
    op.drop_table("login_clients")
    op.drop_column("processes", "stopped")
    op.drop_column("moves", "version")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games RESET (fillfactor)")
    op.create_index("ix_games_turn_id", "games", ["turn_id"], unique=False)
