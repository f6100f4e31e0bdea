"""Issue 30: an event's chat.  A chat line belongs to a game or to a tournament (arena or Swiss),
exactly one of them (``ck_chat_one_owner``); the lines of an event are read by
``ix_chat_tournament_id`` as those of a game by ``ix_chat_game_id``.  SQLite alters the table
in batch mode (a copy of the table: no other table refers to ``chat``).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.alter_column("game_id", existing_type=sa.String(length=8), nullable=True)
        batch.add_column(sa.Column("tournament_id", sa.String(length=8), nullable=True))
        batch.create_foreign_key(
            "fk_chat_tournament_id", "tournaments", ["tournament_id"], ["id"], ondelete="CASCADE"
        )
        batch.create_check_constraint(
            "ck_chat_one_owner", "(game_id IS NULL) <> (tournament_id IS NULL)"
        )
    op.create_index("ix_chat_tournament_id", "chat", ["tournament_id", "id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_chat_tournament_id", table_name="chat")
    op.execute("DELETE FROM chat WHERE game_id IS NULL")
    with op.batch_alter_table("chat") as batch:
        batch.drop_constraint("ck_chat_one_owner", type_="check")
        batch.drop_constraint("fk_chat_tournament_id", type_="foreignkey")
        batch.drop_column("tournament_id")
        batch.alter_column("game_id", existing_type=sa.String(length=8), nullable=False)
