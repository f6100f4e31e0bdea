"""The clocks stored with each move; studies (the analysis board's variation trees).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # nullable: the moves of games without a clock, and every move stored before 0002, have none
    with op.batch_alter_table("moves") as batch:
        batch.add_column(sa.Column("white_left", sa.Float, nullable=True))
        batch.add_column(sa.Column("black_left", sa.Float, nullable=True))
    op.create_table(
        "studies",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("variant", sa.String(8), nullable=False),
        sa.Column("start", sa.Text, nullable=False),
        sa.Column("tree", sa.JSON, nullable=False),
        sa.Column("nodes", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("studies")
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("black_left")
        batch.drop_column("white_left")
