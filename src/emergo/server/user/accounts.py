"""Accounts: names, passwords (argon2id), log-in sessions, disabling and deleting.

A name is 2-20 letters, digits, ``_`` or ``-``, starting with a letter or digit (as lichess), and
unique without regard to case.  Passwords are hashed with argon2id (argon2-cffi); a password is
8-200 characters.  A session is a random cookie value of which the database keeps only the
SHA-256, with a CSRF token of its own; it lasts ``session_days`` after its last renewal (renewed
at most once a day on use, so most requests do not write).  Deleting an account removes its
password, sessions, tokens, progress through /learn and puzzle history, declines its challenges
and keeps its games, whose player shows as a deleted account: the name is kept only as a hash,
so that no one can take it again.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from emergo.server.core import models as m
from emergo.server.core.db import Database, now
from emergo.server.core.errors import SiteError

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,19}")
PASSWORD_LENGTH = (8, 200)
NAME_RULE = "2 to 20 letters, digits, _ or -, starting with a letter or digit"
""":data:`NAME` in words (the sign-up form states it; a refusal repeats it)."""
PASSWORD_RULE = f"{PASSWORD_LENGTH[0]} to {PASSWORD_LENGTH[1]} characters"
DELETED_NAME = "(deleted)"
"""How a deleted account is shown in its games."""
_RENEW = 86400.0


class AccountError(SiteError):
    """A name or password that cannot be used, a name already taken: the message says which."""


@dataclass(frozen=True)
class User:
    id: int
    name: str
    bot: bool = False
    disabled: bool = False

    def json(self) -> dict[str, Any]:
        return {
            "id": self.name.lower(),
            "username": self.name,
            "title": "BOT" if self.bot else None,
        }


def name_problem(name: Any) -> str | None:
    """Which rule of :data:`NAME` a name (already trimmed) breaks, in words; None when it is a
    good name. Said rather than shown as a pattern: a player learns what to change."""
    if not isinstance(name, str) or not name:
        return "write a name: 2 to 20 letters, digits, _ or -"
    if len(name) > 20:
        return f"a name has at most 20 characters; this one has {len(name)}"
    if len(name) < 2:
        return "a name has at least 2 characters"
    if any(c.isspace() for c in name):
        return "a name has no spaces: use _ or - between words"
    wrong = [c for c in name if not (c.isascii() and (c.isalnum() or c in "_-"))]
    if wrong:
        shown = " ".join(dict.fromkeys(wrong))
        return f"a name has only the letters a-z and A-Z, digits, _ and -: not {shown}"
    if not name[0].isalnum():
        return "a name starts with a letter or a digit"
    return None


def clean_name(name: Any) -> Any:
    """A name as typed, without the spaces around it (a phone's keyboard adds one)."""
    return name.strip() if isinstance(name, str) else name


def check_name(name: Any) -> str:
    """The name trimmed, or :class:`AccountError` saying which rule it breaks (never cut)."""
    name = clean_name(name)
    problem = name_problem(name)
    if problem is not None or not NAME.fullmatch(name):
        raise AccountError(problem or f"a user name is {NAME_RULE}")
    return str(name)


def check_password(password: Any) -> str:
    low, high = PASSWORD_LENGTH
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise AccountError(f"a password is {PASSWORD_RULE}")
    return password


def hash_secret(value: str) -> str:
    """The SHA-256 (hex) the database keeps of a cookie or a token."""
    return hashlib.sha256(value.encode()).hexdigest()


def _deleted_key(name_key: str) -> str:
    return "deleted:" + hash_secret(name_key)[:60]


def _user(row: Any) -> User:
    return User(id=row.id, name=row.name or DELETED_NAME, bot=row.bot, disabled=row.disabled)


class Users:
    """The accounts and sessions of one database."""

    def __init__(
        self, db: Database, *, time_cost: int = 3, memory_kib: int = 65536, session_days: float = 30
    ) -> None:
        from argon2 import PasswordHasher

        self.db = db
        self.hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=1)
        self.session_seconds = session_days * 86400.0
        # verified against when a name is unknown, so that a log-in takes as long either way
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    # --- accounts --------------------------------------------------------------------------------

    def create(self, name: str, password: str | None, *, bot: bool = False) -> User:
        """A new account; :class:`AccountError` for a bad name or password or a name taken.
        ``password`` None: an account that cannot log in (tokens only, e.g. a bot's)."""
        name = check_name(name)
        hashed = self.hasher.hash(check_password(password)) if password is not None else None
        try:
            with self.db.write() as tx:
                reserved = tx.execute(
                    select(m.users.c.id).where(m.users.c.name_key == _deleted_key(name.lower()))
                ).first()
                if reserved is not None:  # a deleted account's name stays taken
                    raise IntegrityError("", None, Exception("reserved"))
                result = tx.execute(
                    insert(m.users).values(
                        name=name,
                        name_key=name.lower(),
                        password_hash=hashed,
                        created=now(),
                        disabled=False,
                        deleted=False,
                        bot=bot,
                    )
                )
                user_id = result.inserted_primary_key[0]
        except IntegrityError:
            raise AccountError(f"the name {name} is taken", 409) from None
        return User(id=int(user_id), name=name, bot=bot)

    def ensure_local(self, name: str) -> User:
        """Local mode's one player: the account ``name`` (made without a password, so it cannot
        log in anywhere else, when there is none)."""
        found = self.by_name(name)
        if found is not None:
            return found
        try:
            return self.create(name, None)
        except AccountError:  # made meanwhile (another start): it is there now
            again = self.by_name(name)
            if again is None:
                raise
            return again

    def get(self, user_id: int) -> User | None:
        with self.db.read() as c:
            row = c.execute(select(m.users).where(m.users.c.id == user_id)).first()
        return _user(row) if row is not None and not row.deleted else None

    def by_name(self, name: str) -> User | None:
        """An active or disabled account by name (any case, spaces around it ignored); None
        when there is none."""
        name = clean_name(name)
        if not isinstance(name, str) or not NAME.fullmatch(name):
            return None
        with self.db.read() as c:
            row = c.execute(select(m.users).where(m.users.c.name_key == name.lower())).first()
        return _user(row) if row is not None and not row.deleted else None

    def authenticate(self, name: str, password: str) -> User | None:
        """The account if ``password`` is its password and it may log in, else None."""
        from argon2.exceptions import InvalidHashError, VerificationError

        row = None
        name = clean_name(name)
        if isinstance(name, str) and NAME.fullmatch(name) and isinstance(password, str):
            with self.db.read() as c:
                row = c.execute(select(m.users).where(m.users.c.name_key == name.lower())).first()
        if not isinstance(password, str) or len(password) > PASSWORD_LENGTH[1]:
            return None
        stored = row.password_hash if row is not None and row.password_hash else self._dummy
        try:
            self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return None
        if row is None or not row.password_hash or row.disabled or row.deleted:
            return None
        if self.hasher.check_needs_rehash(stored):
            with self.db.write() as tx:
                tx.execute(
                    update(m.users)
                    .where(m.users.c.id == row.id)
                    .values(password_hash=self.hasher.hash(password))
                )
        return _user(row)

    def set_password(self, user_id: int, password: str) -> None:
        """A new password; every other session of the account is closed by the caller."""
        hashed = self.hasher.hash(check_password(password))
        with self.db.write() as tx:
            tx.execute(update(m.users).where(m.users.c.id == user_id).values(password_hash=hashed))

    def disable(self, user_id: int, disabled: bool = True) -> None:
        """A disabled account cannot log in or use its tokens; its sessions end."""
        with self.db.write() as tx:
            tx.execute(update(m.users).where(m.users.c.id == user_id).values(disabled=disabled))
            tx.execute(delete(m.sessions).where(m.sessions.c.user_id == user_id))
            tx.notify(f"a:u:{user_id}", "all")  # its credentials end everywhere at once

    def anonymise(self, tx: Any, user_id: int) -> None:
        """Delete an account inside the caller's transaction (module docstring)."""
        row = tx.execute(select(m.users.c.name_key).where(m.users.c.id == user_id)).first()
        if row is None:
            return
        tx.execute(
            update(m.users)
            .where(m.users.c.id == user_id)
            .values(
                name=None,
                name_key=_deleted_key(row.name_key),
                password_hash=None,
                deleted=True,
                disabled=True,
            )
        )
        tx.execute(delete(m.sessions).where(m.sessions.c.user_id == user_id))
        tx.execute(delete(m.tokens).where(m.tokens.c.user_id == user_id))
        tx.execute(delete(m.learn_progress).where(m.learn_progress.c.user_id == user_id))
        for table in (m.puzzle_rounds, m.puzzle_perfs, m.storm_runs):  # issue 29
            tx.execute(delete(table).where(table.c.user_id == user_id))
        tx.notify(f"a:u:{user_id}", "all")

    # --- sessions --------------------------------------------------------------------------------

    def open_session(self, user_id: int) -> tuple[str, str]:
        """A new log-in session: (the cookie's value, its CSRF token)."""
        cookie, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        t = now()
        with self.db.write() as tx:
            tx.execute(
                insert(m.sessions).values(
                    id_hash=hash_secret(cookie),
                    user_id=user_id,
                    csrf=csrf,
                    created=t,
                    expires=t + self.session_seconds,
                )
            )
        return cookie, csrf

    def session(self, cookie: str) -> tuple[User, str] | None:
        """The user and CSRF token of a session cookie, or None (unknown, expired, disabled)."""
        if not cookie or len(cookie) > 100:
            return None
        key = hash_secret(cookie)
        with self.db.read() as c:
            row = c.execute(
                select(m.sessions.c.expires, m.sessions.c.csrf, m.users)
                .join(m.users, m.users.c.id == m.sessions.c.user_id)
                .where(m.sessions.c.id_hash == key)
            ).first()
        t = now()
        if row is None or row.expires < t or row.disabled or row.deleted:
            return None
        if row.expires - t < self.session_seconds - _RENEW:
            with self.db.write() as tx:
                tx.execute(
                    update(m.sessions)
                    .where(m.sessions.c.id_hash == key)
                    .values(expires=t + self.session_seconds)
                )
        return _user(row), row.csrf

    def close_session(self, cookie: str) -> None:
        key = hash_secret(cookie)
        with self.db.write() as tx:
            tx.execute(delete(m.sessions).where(m.sessions.c.id_hash == key))
            tx.notify(f"a:s:{key}")

    def close_sessions(self, user_id: int, *, keep: str | None = None) -> None:
        """End every session of an account (but the one whose cookie is ``keep``)."""
        query = delete(m.sessions).where(m.sessions.c.user_id == user_id)
        if keep:
            query = query.where(m.sessions.c.id_hash != hash_secret(keep))
        with self.db.write() as tx:
            tx.execute(query)
            tx.notify(f"a:u:{user_id}", f"sessions {hash_secret(keep) if keep else ''}")


def local_name(preferred: str | None = None) -> str:
    """Local mode's player name: ``preferred`` (``[local] player``, checked), else the name of
    this machine's user when it is a valid name (:data:`NAME`), else ``player``."""
    if preferred is not None:
        check_name(preferred)
        return preferred
    import getpass

    try:
        login = getpass.getuser()
    except (OSError, KeyError):  # no user name for this process (a container, no $USER)
        login = ""
    return login if NAME.fullmatch(login) else "player"
