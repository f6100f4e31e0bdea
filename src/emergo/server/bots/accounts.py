"""Bots on the site (issue 20): bot accounts, a person's answer to bots, the house bots' accounts
and the lease of the process that runs them.

* A bot account plays only through the Bot API (``/api/bot/...``), never the Board API, and is
  marked ``BOT`` wherever its name shows.  An account becomes one by ``emergo admin add-user
  --bot`` or, once and for good, by ``POST /api/bot/account/upgrade`` before it has played a
  game (lichess's rule).
* Bots play by challenge: they may not post seeks in the lobby nor accept one, and a bot may
  not play a person who declines bots (:meth:`Bots.accepts_bots`; no row: bots are welcome).
* The house bots are the engine's levels as bot accounts (``emergo-1`` ... ``emergo-11``), made
  on start-up; "play the computer" challenges them.  Their processes (``emergo bot``) run apart
  from every web process: one web process holds the ``house-bots`` lease
  (:class:`Lease`) and supervises them (:mod:`emergo.server.bots.house`), or systemd does.
"""

from __future__ import annotations

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now
from emergo.server.user.accounts import AccountError, User, _user
from emergo.server.user.credentials import CHANGED, user_topic

HOUSE_PREFIX = "emergo-"
"""The house bots' names: ``emergo-`` and the level."""


class Bots:
    def __init__(self, db: Database) -> None:
        self.db = db

    # --- bot accounts -----------------------------------------------------------------------------

    def upgrade(self, user: User) -> User:
        """Make ``user`` a bot account, for good; :class:`AccountError` when it already is one or
        has played a game (lichess's errors)."""
        with self.db.write() as tx:
            row = tx.execute(tx.locked(select(m.users).where(m.users.c.id == user.id))).first()
            if row is None or row.deleted:
                raise AccountError("no such account", 404)
            if row.bot:
                raise AccountError("this account is already a bot account")
            played = tx.execute(
                select(m.games.c.id)
                .where(or_(m.games.c.white_id == user.id, m.games.c.black_id == user.id))
                .limit(1)
            ).first()
            if played is not None:
                raise AccountError(
                    "this account has played games: only an account that never played may "
                    "become a bot"
                )
            tx.execute(update(m.users).where(m.users.c.id == user.id).values(bot=True))
            tx.execute(delete(m.bot_prefs).where(m.bot_prefs.c.user_id == user.id))
            tx.notify(user_topic(user.id), CHANGED)  # every process reads its credentials again
        return User(id=user.id, name=user.name, bot=True, disabled=user.disabled)

    # --- a person's answer to bots ----------------------------------------------------------------

    def accepts_bots(self, user_id: int, tx: Tx | None = None) -> bool:
        query = select(m.bot_prefs.c.accept_bots).where(m.bot_prefs.c.user_id == user_id)
        if tx is not None:
            value = tx.execute(query).scalar()
        else:
            with self.db.read() as c:
                value = c.execute(query).scalar()
        return value is None or bool(value)

    def set_accepts_bots(self, user_id: int, accept: bool) -> None:
        with self.db.write() as tx:
            tx.execute(delete(m.bot_prefs).where(m.bot_prefs.c.user_id == user_id))
            tx.execute(insert(m.bot_prefs).values(user_id=user_id, accept_bots=accept))

    # --- the house bots ---------------------------------------------------------------------------

    def house(self) -> dict[int, User]:
        """The house bots by level."""
        with self.db.read() as c:
            rows = c.execute(
                select(m.house_bots.c.level, m.users).join(
                    m.users, m.users.c.id == m.house_bots.c.user_id
                )
            ).all()
        return {r.level: _user(r) for r in rows if not r.deleted}

    def ensure_house(self, levels: tuple[int, ...]) -> dict[int, User]:
        """Make the house bots of ``levels`` that are missing (idempotent, any process may call
        it at once); the house bots by level."""
        have = self.house()
        for level in levels:
            if level in have:
                continue
            name = f"{HOUSE_PREFIX}{level}"
            try:
                with self.db.write() as tx:
                    row = tx.execute(
                        select(m.users).where(m.users.c.name_key == name.lower())
                    ).first()
                    if row is None:
                        user_id = tx.execute(
                            insert(m.users).values(
                                name=name,
                                name_key=name.lower(),
                                password_hash=None,
                                created=now(),
                                disabled=False,
                                deleted=False,
                                bot=True,
                            )
                        ).inserted_primary_key[0]
                    elif row.bot and row.password_hash is None:
                        user_id = row.id  # made by an admin for this (add-user --bot)
                    else:
                        raise AccountError(
                            f"the house bot's name {name} is a person's account: rename it"
                        )
                    tx.execute(insert(m.house_bots).values(level=level, user_id=user_id))
            except IntegrityError:
                pass  # another process made it at the same time
        return self.house()


class Lease:
    """A named job that one process holds at a time: held until ``expires``, renewed by its
    holder, taken by another process once it lapses (the holder died or hung)."""

    def __init__(self, db: Database, name: str, holder: str, seconds: float = 15.0) -> None:
        self.db = db
        self.name = name
        self.holder = holder
        self.seconds = seconds

    def acquire(self) -> bool:
        """Take or renew the lease; whether this process holds it now."""
        t = now()
        try:
            with self.db.write() as tx:
                row = tx.execute(
                    tx.locked(select(m.leases).where(m.leases.c.name == self.name))
                ).first()
                if row is None:
                    tx.execute(
                        insert(m.leases).values(
                            name=self.name, holder=self.holder, expires=t + self.seconds
                        )
                    )
                    return True
                if row.holder != self.holder and row.expires > t:
                    return False
                tx.execute(
                    update(m.leases)
                    .where(m.leases.c.name == self.name)
                    .values(holder=self.holder, expires=t + self.seconds)
                )
                return True
        except IntegrityError:
            return False  # another process inserted it first

    def release(self) -> None:
        with self.db.write() as tx:
            tx.execute(
                delete(m.leases)
                .where(m.leases.c.name == self.name)
                .where(m.leases.c.holder == self.holder)
            )

    def holder_now(self) -> str | None:
        with self.db.read() as c:
            row = c.execute(select(m.leases).where(m.leases.c.name == self.name)).first()
        return row.holder if row is not None and row.expires > now() else None
