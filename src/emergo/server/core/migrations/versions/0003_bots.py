"""Issue 20: bots on the server.  ``bot_prefs``: whether a person accepts games with bots
(none: yes); ``house_bots``: the accounts of the engine's levels; ``leases``: which server
process supervises the house bots' processes (renewed; another takes over when it lapses).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bot_prefs",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("accept_bots", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "house_bots",
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("level"),
        sa.UniqueConstraint("user_id"),
    )
    op.create_table(
        "leases",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("holder", sa.String(length=40), nullable=False),
        sa.Column("expires", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("leases")
    op.drop_table("house_bots")
    op.drop_table("bot_prefs")
