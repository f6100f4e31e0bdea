"""Issue 27: the known log-in clients are kept as a salted hash of their address.

Migration 0010's rows hold an unsalted SHA-256 of the client's address, the same for every
account: hashing every IPv4 address once turns them back into addresses.  The rows are now
scrypt of the address salted with the account (:mod:`emergo.server.user.logins`); the old ones
match nothing and are deleted here, so that nothing reversible is kept for 90 days.  The cost:
each account's known clients are forgotten once (the next log-in from one records it again).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DELETE FROM login_clients")


def downgrade() -> None:
    """Nothing to put back: the deleted rows matched nothing."""
