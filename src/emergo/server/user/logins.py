"""The clients each account logged in from, so that failed log-ins from elsewhere cannot lock its
owner out (issue 27, the attacker's finding 4: ten wrong tries a minute from other addresses
gave the owner, with the right password from their own, 429 for minutes).

The per-name log-in limit (:meth:`emergo.server.site.Site.login`) counts failures only, and a
client the account has logged in from within :data:`KEPT` is not held to it (as lichess lets
the right password from a known address through); its own address's limit still holds.  A
client is kept as a hash of its address (``login_clients``), never the address: scrypt, salted
with the account (:func:`client_hash`).  A plain SHA-256 of the address, as it was, was the
same for every account and turned back into addresses by hashing all 2**32 IPv4 addresses once
(seconds); now each row would need its own search, each try a memory-hard hash.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import delete, select, text

from emergo.server.core import models as m
from emergo.server.core.db import Database, now

KEPT = 90 * 86400.0
"""Seconds a client stays known after its last log-in."""

_UPSERT = text(
    "INSERT INTO login_clients (user_id, client, seen) VALUES (:user, :client, :seen) "
    "ON CONFLICT (user_id, client) DO UPDATE SET seen = excluded.seen"
)


MEMORY_KIB = 8192
"""The most memory a client's hash takes (scrypt's ``128 * r * n`` bytes): about 25 ms of a core;
less when the password hashes are set cheaper (``argon2_memory_kib``, as the tests do)."""


def client_hash(user_id: int, client: str, memory_kib: int = MEMORY_KIB) -> str:
    """What ``login_clients`` keeps of ``client`` (an address) for an account: scrypt salted
    with the account's id, 64 hex digits."""
    r = 8
    n = 1 << max(1, (min(memory_kib, MEMORY_KIB) * 1024 // (128 * r)).bit_length() - 1)
    return hashlib.scrypt(
        client.encode(),
        salt=f"emergo login client {user_id}".encode(),
        n=n,
        r=r,
        p=1,
        maxmem=2 * 128 * r * n + (1 << 20),
        dklen=32,
    ).hex()


class Logins:
    def __init__(self, db: Database, memory_kib: int = MEMORY_KIB) -> None:
        self.db = db
        self.memory_kib = memory_kib

    def key(self, user_id: int, client: str) -> str:
        """The account's hash of ``client`` (:func:`client_hash`): computed once a log-in, for
        :meth:`known` and :meth:`seen`."""
        return client_hash(user_id, client, self.memory_kib)

    def known(self, user_id: int, key: str) -> bool:
        """Whether the account logged in from the client of ``key`` within :data:`KEPT`."""
        with self.db.read() as c:
            seen = c.execute(
                select(m.login_clients.c.seen)
                .where(m.login_clients.c.user_id == user_id)
                .where(m.login_clients.c.client == key)
            ).scalar()
        return seen is not None and now() - seen < KEPT

    def seen(self, user_id: int, key: str) -> None:
        """The account logged in from the client of ``key`` now."""
        with self.db.write() as tx:
            tx.execute(_UPSERT, {"user": user_id, "client": key, "seen": now()})

    def prune(self, t: float) -> None:
        with self.db.write() as tx:
            tx.execute(delete(m.login_clients).where(m.login_clients.c.seen < t - KEPT))
