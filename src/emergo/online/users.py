"""Accounts: names, passwords (argon2id), log-in sessions, disabling and deleting.

A name is 2-20 letters, digits, ``_`` or ``-``, starting with a letter or digit (as lichess), and
unique without regard to case.  Passwords are hashed with argon2id (argon2-cffi); a password is
8-200 characters.  A session is a random cookie value of which the database keeps only the
SHA-256, with a CSRF token of its own; it lasts ``session_days`` after its last renewal (renewed
at most once a day on use, so most requests do not write).  Deleting an account removes its
password, sessions and tokens, declines its challenges and keeps its games, whose player shows
as a deleted account: the name is kept only as a hash, so that no one can take it again.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from emergo.online import models as m
from emergo.online.db import Database, now

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,19}")
PASSWORD_LENGTH = (8, 200)
NAME_RULE = "2 to 20 letters, digits, _ or -, starting with a letter or digit"
""":data:`NAME` in words (the sign-up form states it; a refusal repeats it)."""
PASSWORD_RULE = f"{PASSWORD_LENGTH[0]} to {PASSWORD_LENGTH[1]} characters"
DELETED_NAME = "(deleted)"
"""How a deleted account is shown in its games."""
_RENEW = 86400.0


class AccountError(ValueError):
    """A name or password that cannot be used, a name already taken: the message says which."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


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


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise AccountError(f"a user name is {NAME_RULE}")
    return name


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
        check_name(name)
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

    def get(self, user_id: int) -> User | None:
        with self.db.read() as c:
            row = c.execute(select(m.users).where(m.users.c.id == user_id)).first()
        return _user(row) if row is not None and not row.deleted else None

    def by_name(self, name: str) -> User | None:
        """An active or disabled account by name (any case); None when there is none."""
        if not isinstance(name, str) or not NAME.fullmatch(name):
            return None
        with self.db.read() as c:
            row = c.execute(select(m.users).where(m.users.c.name_key == name.lower())).first()
        return _user(row) if row is not None and not row.deleted else None

    def authenticate(self, name: str, password: str) -> User | None:
        """The account if ``password`` is its password and it may log in, else None."""
        from argon2.exceptions import InvalidHashError, VerificationError

        row = None
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
        with self.db.write() as tx:
            tx.execute(delete(m.sessions).where(m.sessions.c.id_hash == hash_secret(cookie)))

    def close_sessions(self, user_id: int, *, keep: str | None = None) -> None:
        """End every session of an account (but the one whose cookie is ``keep``)."""
        query = delete(m.sessions).where(m.sessions.c.user_id == user_id)
        if keep:
            query = query.where(m.sessions.c.id_hash != hash_secret(keep))
        with self.db.write() as tx:
            tx.execute(query)
