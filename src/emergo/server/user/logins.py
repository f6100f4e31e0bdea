"""The clients each account logged in from, so that failed log-ins from elsewhere cannot lock its
owner out (issue 27, the attacker's finding 4: ten wrong tries a minute from other addresses
gave the owner, with the right password from their own, 429 for minutes).

The per-name log-in limit (:meth:`emergo.server.site.Site.login`) counts failures only, and a
client the account has logged in from within :data:`KEPT` is not held to it (as lichess lets
the right password from a known address through); its own address's limit still holds.  A
client is kept as a hash of its address (``login_clients``), never the address.
"""

from __future__ import annotations

from sqlalchemy import delete, select, text

from emergo.server.core import models as m
from emergo.server.core.db import Database, now
from emergo.server.user.accounts import hash_secret

KEPT = 90 * 86400.0
"""Seconds a client stays known after its last log-in."""

_UPSERT = text(
    "INSERT INTO login_clients (user_id, client, seen) VALUES (:user, :client, :seen) "
    "ON CONFLICT (user_id, client) DO UPDATE SET seen = excluded.seen"
)


class Logins:
    def __init__(self, db: Database) -> None:
        self.db = db

    def known(self, user_id: int, client: str) -> bool:
        """Whether the account logged in from ``client`` within :data:`KEPT`."""
        with self.db.read() as c:
            seen = c.execute(
                select(m.login_clients.c.seen)
                .where(m.login_clients.c.user_id == user_id)
                .where(m.login_clients.c.client == hash_secret(client))
            ).scalar()
        return seen is not None and now() - seen < KEPT

    def seen(self, user_id: int, client: str) -> None:
        """The account logged in from ``client`` now."""
        with self.db.write() as tx:
            tx.execute(_UPSERT, {"user": user_id, "client": hash_secret(client), "seen": now()})

    def prune(self, t: float) -> None:
        with self.db.write() as tx:
            tx.execute(delete(m.login_clients).where(m.login_clients.c.seen < t - KEPT))
