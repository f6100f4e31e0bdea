"""Who a token or a session cookie is, kept in each process's memory, and the end of either
going to every process at once.

Every request names its credential; reading it from the database each time was a transaction a
request (a tenth of a move's CPU).  :class:`Credentials` keeps what a credential says (its
account, scopes, CSRF token) for :data:`TTL` seconds, and forgets it the moment it ends: a
revoked token (``a:t:TOKEN_ID``), a session logged out (``a:s:SESSION_HASH``), an account
disabled or deleted (``a:u:USER_ID`` ``all``), every session of an account but one ended
(``a:u:USER_ID`` ``sessions KEEP_HASH``), an account made a bot (``a:u:USER_ID`` ``changed``:
read again, nothing ends) are notifications of the bus
(:mod:`emergo.server.core.bus`), sent in the transaction that ends them.  The same
notifications end the sockets and streams opened with the credential, on every process
(:func:`ends`).  A bus that lost its connection forgets every
credential (notifications may have been lost); ``emergo admin`` run beside a SQLite server (two
processes, no bus between them) is seen within :data:`TTL` seconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from emergo.server.user.accounts import User, Users, hash_secret
from emergo.server.user.tokens import Tokens

TTL = 30.0
"""Seconds a credential is believed without asking the database again."""
SIZE = 50_000


@dataclass(frozen=True)
class Known:
    """What a credential says: its account, and a token's scopes or a session's CSRF token."""

    user: User
    topic: str
    """The bus topic that ends it: ``a:t:ID`` or ``a:s:HASH``."""
    scopes: frozenset[str] = frozenset()
    csrf: str | None = None


CHANGED = "changed"
"""The payload of ``a:u:ID`` when the account changed (made a bot): what each process knows of
its credentials is read again, and none of them ends."""


def token_topic(token_id: int) -> str:
    return f"a:t:{token_id}"


def session_topic(session_hash: str) -> str:
    return f"a:s:{session_hash}"


def user_topic(user_id: int) -> str:
    return f"a:u:{user_id}"


def ends(known_topic: str, user_id: int, topic: str, payload: str) -> bool:
    """Whether the notification ``topic``/``payload`` ends the credential ``known_topic`` of
    the account ``user_id`` (module docstring)."""
    if topic == known_topic:
        return True
    if topic != user_topic(user_id):
        return False
    if payload == CHANGED:
        return False
    if payload.startswith("sessions"):
        keep = payload.partition(" ")[2]
        return known_topic.startswith("a:s:") and known_topic != session_topic(keep)
    return True


class Credentials:
    """Tokens and sessions of this process (module docstring); thread-safe."""

    def __init__(
        self, users: Users, tokens: Tokens, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.users = users
        self.tokens = tokens
        self.clock = clock
        self._known: dict[str, tuple[float, Known]] = {}
        self._lock = threading.Lock()
        self.trusted: Callable[[], bool] = lambda: True
        """Whether the bus hears every process now (:meth:`emergo.server.core.bus.Bus.hears`):
        while it does not, a credential ended elsewhere would go unheard, so each is asked of
        the database."""

    def cached(self, secret: str) -> Known | None:
        """What ``secret`` (a token or a cookie) says, if this process knows it still."""
        if not self.trusted():
            return None
        key = hash_secret(secret)
        with self._lock:
            found = self._known.get(key)
        if found is None or self.clock() > found[0]:
            return None
        return found[1]

    def token(self, token: str) -> Known | None:
        """The token's account and scopes (the database asked unless known); None: no such
        token (revoked, or its account disabled)."""
        known = self.cached(token)
        if known is not None:
            return known
        found = self.tokens.authenticate(token)
        if found is None:
            return None
        user, scopes, token_id = found
        return self._keep(token, Known(user, token_topic(token_id), scopes=scopes))

    def session(self, cookie: str) -> Known | None:
        """The session's account and CSRF token; None: no such session (ended, expired)."""
        known = self.cached(cookie)
        if known is not None:
            return known
        found = self.users.session(cookie)
        if found is None:
            return None
        user, csrf = found
        return self._keep(cookie, Known(user, session_topic(hash_secret(cookie)), csrf=csrf))

    def _keep(self, secret: str, known: Known) -> Known:
        if not self.trusted():
            return known
        with self._lock:
            if len(self._known) >= SIZE:
                t = self.clock()
                self._known = {k: v for k, v in self._known.items() if v[0] > t}
                if len(self._known) >= SIZE:
                    self._known.clear()
            self._known[hash_secret(secret)] = (self.clock() + TTL, known)
        return known

    def noted(self, topic: str, payload: str) -> None:
        """The bus's watcher of ``a:``: forget what ended."""
        with self._lock:
            for key, (_, known) in list(self._known.items()):
                changed = payload == CHANGED and topic == user_topic(known.user.id)
                if changed or ends(known.topic, known.user.id, topic, payload):
                    del self._known[key]

    def clear(self) -> None:
        with self._lock:
            self._known.clear()
