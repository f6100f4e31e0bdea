"""Issue 27: a game's state stays inline and uncompressed in its row on PostgreSQL.

A row longer than about 2 kB (a game's state past some 60 plies) is compressed and moved out of
line by TOAST at each write: every move of a long game compressed its state again and wrote a
second row into the TOAST table.  ``toast_tuple_target`` 8160 keeps a state up to a page inline
as it is (a move's statement about a quarter less of the backend's CPU at 100-plus plies). SQLite
has no such step.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games SET (toast_tuple_target = 8160)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE games RESET (toast_tuple_target)")
