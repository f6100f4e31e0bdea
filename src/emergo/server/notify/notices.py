"""The notifications service: each player's feed, the correspondence alarms, and the mail.

* **Notices** (:mod:`emergo.server.notify.letters`) are written in the transaction of what caused
them (a move in a correspondence game: "your turn" to the player to move; its end: "game over" to
  both), one ``notifications`` row each, unread, and marked for mail when the player opted in
  (``user_settings``: an address and ``digest`` or ``instant``).  A ``n:USER`` notification on
  the bus tells the player's open pages.
* **Alarms**: while a correspondence player is to move, an ``alarms`` row holds the moment 80 %
  of his move's time is used; :meth:`Notices.sweep_alarms` (the periodic work of any process,
  ``SKIP LOCKED``) turns the due ones into "time is running out" notices.
* **Mail** (:meth:`Notices.send_mail`, periodic, when the server's configuration has a
  ``[mail]`` section): the pending notices of ``instant`` players go one mail each; those of
  ``digest`` players go as one digest a day.  Rows are claimed (marked ``sent``) in a
  transaction before the mail goes, so two processes never send one notice twice; a mail that
  fails puts its rows back to ``pending`` for the next round; a process that dies between the
  claim and the mail loses those notices' mail (never sends one twice).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, text, update

from emergo import round as rnd
from emergo.board import BLACK, WHITE, Color, Termination
from emergo.clock import DAY
from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx
from emergo.server.core.errors import SiteError
from emergo.server.core.text import plain_text
from emergo.server.notify.letters import (
    EMAIL_CHOICES,
    Notice,
    Recipient,
    Site,
    alarm_at,
    compose,
    digest,
)
from emergo.server.notify.mail import MailError, SmtpSettings, send
from emergo.server.user.accounts import DELETED_NAME

__all__ = ["EMAIL", "FEED_SIZE", "Mailer", "NoticeError", "Notices", "Settings", "describe_control"]


log = logging.getLogger(__name__)


FEED_SIZE = 50
"""Notices a feed shows; older ones are deleted after :data:`KEPT`."""
KEPT = 60 * DAY
"""Seconds a notice is kept."""
EMAIL = re.compile(r"[^@\s<>,;\"'()\[\]\\]{1,64}@[A-Za-z0-9.-]{1,252}\.[A-Za-z]{2,63}")
"""An address the site mails to: one ``local@domain.tld``, nothing a header could misread."""
_UPSERT_ALARM = text(
    "INSERT INTO alarms (game_id, user_id, due, deadline) VALUES (:game, :user, :due, :deadline) "
    "ON CONFLICT (game_id) DO UPDATE SET user_id = excluded.user_id, due = excluded.due, "
    "deadline = excluded.deadline"
)
_UPSERT_SETTINGS = text(
    "INSERT INTO user_settings (user_id, email, email_choice, digest_at) "
    "VALUES (:user, :email, :choice, NULL) "
    "ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, "
    "email_choice = excluded.email_choice"
)


class NoticeError(SiteError):
    """Mail settings that cannot be kept; the message says why."""


@dataclass(frozen=True)
class Settings:
    """A player's mail: his address (or None) and his choice (off, digest, instant)."""

    email: str | None = None
    choice: str = "off"

    def json(self) -> dict[str, Any]:
        return {"email": self.email, "mail": self.choice}


def describe_control(time_control: str | None) -> str:
    """A time control in words for a notice: ``3 days a move``, ``300+2``, ``unlimited``."""
    if time_control is None:
        return "unlimited"
    if time_control.endswith("d"):
        days = time_control[:-1]
        return f"{days} day{'' if days == '1' else 's'} a move"
    return time_control


def _result_for(state: rnd.RoundState, color: Color) -> str:
    outcome = state.outcome
    assert outcome is not None
    if outcome.termination is Termination.ABORTED:
        return f"Aborted: {outcome.reason()}"
    if outcome.winner is None:
        return f"Draw: {outcome.reason()}"
    won = outcome.winner == color
    return f"{'You won' if won else 'You lost'}: {outcome.reason()}"


class Notices:
    """Notices, alarms and mail of one database (module docstring)."""

    def __init__(self, db: Database, mailer: Mailer | None = None) -> None:
        self.db = db
        self.mailer = mailer

    # --- in a command's transaction --------------------------------------------------------------

    def add(self, tx: Tx, user_id: int, notice: Notice) -> None:
        """A notice for a player, marked for mail when he opted in."""
        row = tx.execute(
            select(m.user_settings.c.email, m.user_settings.c.email_choice).where(
                m.user_settings.c.user_id == user_id
            )
        ).first()
        mail = "pending" if row is not None and row.email and row.email_choice != "off" else "none"
        # one line a game in the feed (lichess): a new notice replaces the game's older "your
        # turn" and "time is running out" (their mail, if still pending, goes with them: the
        # new notice is mailed instead)
        tx.execute(
            delete(m.notifications)
            .where(m.notifications.c.user_id == user_id)
            .where(m.notifications.c.game_id == notice.game_id)
            .where(m.notifications.c.kind.in_(("your-turn", "time-running-out")))
        )
        tx.execute(
            insert(m.notifications).values(
                user_id=user_id,
                kind=notice.kind,
                game_id=notice.game_id,
                data=notice.to_json(),
                at=notice.at,
                read=False,
                mail=mail,
            )
        )
        tx.notify(f"n:{user_id}", notice.kind)

    def your_turn(self, tx: Tx, game: Any, state: rnd.RoundState, t: float) -> None:
        """Tell the player to move (a correspondence game); set his alarm."""
        color = state.turn
        user_id = game.seats.id_of(color)
        deadline = rnd.due(state) if state.clock is not None else None
        self.add(tx, user_id, self._notice("your-turn", game, color, t, deadline=deadline))
        self.set_alarm(tx, game, state)

    def set_alarm(self, tx: Tx, game: Any, state: rnd.RoundState) -> None:
        """The alarm of the player to move, at 80 % of his move's time (none without a clock)."""
        clock = state.clock
        if clock is None or clock.running is None or clock.since is None or state.is_over:
            tx.execute(delete(m.alarms).where(m.alarms.c.game_id == game.id))
            return
        deadline = clock.flag_at()
        assert deadline is not None
        tx.execute(
            _UPSERT_ALARM,
            {
                "game": game.id,
                "user": game.seats.id_of(clock.running),
                "due": alarm_at(clock.since, deadline),
                "deadline": deadline,
            },
        )

    def game_over(self, tx: Tx, game: Any, state: rnd.RoundState, t: float) -> None:
        """Tell both players how a correspondence game ended; its alarm goes."""
        tx.execute(delete(m.alarms).where(m.alarms.c.game_id == game.id))
        for color in (WHITE, BLACK):
            notice = self._notice("game-over", game, color, t, result=_result_for(state, color))
            self.add(tx, game.seats.id_of(color), notice)

    def _notice(
        self,
        kind: Any,
        game: Any,
        color: Color,
        t: float,
        *,
        deadline: float | None = None,
        result: str | None = None,
    ) -> Notice:
        return Notice(
            kind,
            game.id,
            game.seats.name_of(not color),
            game.variant,
            describe_control(game.time_control),
            t,
            deadline,
            result,
        )

    # --- the periodic work -----------------------------------------------------------------------

    def sweep_alarms(self, now: float, limit: int = 100) -> int:
        """The due alarms as "time is running out" notices (``SKIP LOCKED``: processes share)."""
        with self.db.read() as c:  # most rounds find nothing: no write lock for that
            if (
                c.execute(select(m.alarms.c.game_id).where(m.alarms.c.due <= now).limit(1)).first()
                is None
            ):
                return 0
        with self.db.write() as tx:
            query = (
                select(
                    m.alarms,
                    m.games.c.variant,
                    m.games.c.time_control,
                    m.games.c.white_id,
                    m.games.c.black_id,
                )
                .join(m.games, m.games.c.id == m.alarms.c.game_id)
                .where(m.alarms.c.due <= now)
                .order_by(m.alarms.c.due)
                .limit(limit)
            )
            if self.db.postgres:
                query = query.with_for_update(of=m.alarms, skip_locked=True)
            rows = tx.execute(query).all()
            for row in rows:
                other = row.black_id if row.user_id == row.white_id else row.white_id
                name = tx.execute(select(m.users.c.name).where(m.users.c.id == other)).scalar()
                notice = Notice(
                    "time-running-out",
                    row.game_id,
                    name or DELETED_NAME,
                    row.variant,
                    describe_control(row.time_control),
                    now,
                    row.deadline,
                )
                self.add(tx, row.user_id, notice)
                tx.execute(delete(m.alarms).where(m.alarms.c.game_id == row.game_id))
            return len(rows)

    def prune(self, now: float) -> None:
        with self.db.write() as tx:
            tx.execute(delete(m.notifications).where(m.notifications.c.at < now - KEPT))

    def send_mail(self, now: float) -> int:
        """Send what is pending: the ``instant`` players' notices, the due digests; how many
        mails went.  Nothing without a mailer."""
        if self.mailer is None:
            return 0
        with self.db.read() as c:  # most rounds find nothing: no write lock for that
            pending = c.execute(
                select(m.notifications.c.id).where(m.notifications.c.mail == "pending").limit(1)
            ).first()
        if pending is None:
            return 0
        return self._send_instant() + self._send_digests(now)

    def _claim(self, tx: Tx, query: Any) -> list[Any]:
        if self.db.postgres:
            query = query.with_for_update(of=m.notifications, skip_locked=True)
        rows = tx.execute(query).all()
        if rows:
            tx.execute(
                update(m.notifications)
                .where(m.notifications.c.id.in_([r.id for r in rows]))
                .values(mail="sent")
            )
        return list(rows)

    def _unclaim(self, ids: Sequence[int]) -> None:
        with self.db.write() as tx:
            tx.execute(
                update(m.notifications).where(m.notifications.c.id.in_(ids)).values(mail="pending")
            )

    def _pending(self) -> Any:
        return (
            select(
                m.notifications.c.id,
                m.notifications.c.user_id,
                m.notifications.c.data,
                m.user_settings.c.email,
                m.user_settings.c.email_choice,
                m.users.c.name,
            )
            .join(m.user_settings, m.user_settings.c.user_id == m.notifications.c.user_id)
            .join(m.users, m.users.c.id == m.notifications.c.user_id)
            .where(m.notifications.c.mail == "pending")
            .where(m.user_settings.c.email.is_not(None))
            .where(m.users.c.deleted.is_(False))
            .order_by(m.notifications.c.id)
        )

    def _send_instant(self) -> int:
        assert self.mailer is not None
        with self.db.write() as tx:
            rows = self._claim(
                tx, self._pending().where(m.user_settings.c.email_choice == "instant").limit(100)
            )
        messages = [
            (r.id, compose(self.mailer.site, Recipient(r.name, r.email), _notice(r.data)))
            for r in rows
        ]
        return self.mailer.deliver(messages, self._unclaim)

    def _send_digests(self, now: float) -> int:
        assert self.mailer is not None
        with self.db.write() as tx:
            due = (
                tx.execute(
                    select(m.user_settings.c.user_id)
                    .where(m.user_settings.c.email_choice == "digest")
                    .where(m.user_settings.c.email.is_not(None))
                    .where(
                        or_(
                            m.user_settings.c.digest_at.is_(None),
                            m.user_settings.c.digest_at <= now - DAY,
                        )
                    )
                    .where(
                        select(m.notifications.c.id)
                        .where(m.notifications.c.user_id == m.user_settings.c.user_id)
                        .where(m.notifications.c.mail == "pending")
                        .exists()
                    )
                    .limit(50)
                )
                .scalars()
                .all()
            )
            rows = (
                self._claim(tx, self._pending().where(m.notifications.c.user_id.in_(due)))
                if due
                else []
            )
            if due:
                tx.execute(
                    update(m.user_settings)
                    .where(m.user_settings.c.user_id.in_(due))
                    .values(digest_at=now)
                )
        by_user: dict[int, list[Any]] = {}
        for r in rows:
            by_user.setdefault(r.user_id, []).append(r)
        messages: list[tuple[int | list[int], EmailMessage]] = []
        for user_rows in by_user.values():
            first = user_rows[0]
            message = digest(
                self.mailer.site,
                Recipient(first.name, first.email),
                [_notice(r.data) for r in user_rows],
                now,
            )
            if message is not None:
                messages.append(([r.id for r in user_rows], message))
        return self.mailer.deliver(messages, self._unclaim)

    # --- reading and settings --------------------------------------------------------------------

    def feed(self, user_id: int, limit: int = FEED_SIZE) -> tuple[list[dict[str, Any]], int]:
        """The player's latest notices (newest first) and how many are unread."""
        with self.db.read() as c:
            rows = c.execute(
                select(m.notifications.c.id, m.notifications.c.data, m.notifications.c.read)
                .where(m.notifications.c.user_id == user_id)
                .order_by(m.notifications.c.id.desc())
                .limit(max(1, min(limit, 200)))
            ).all()
            unread = c.execute(
                select(func.count())
                .select_from(m.notifications)
                .where(m.notifications.c.user_id == user_id)
                .where(m.notifications.c.read.is_(False))
            ).scalar()
        return [{"id": r.id, "read": r.read, **r.data} for r in rows], int(unread or 0)

    def unread(self, user_id: int) -> int:
        with self.db.read() as c:
            value = c.execute(
                select(func.count())
                .select_from(m.notifications)
                .where(m.notifications.c.user_id == user_id)
                .where(m.notifications.c.read.is_(False))
            ).scalar()
        return int(value or 0)

    def mark_read(self, user_id: int, up_to: int | None = None) -> None:
        """Mark the player's notices read (up to the id ``up_to``, or all)."""
        query = (
            update(m.notifications)
            .where(m.notifications.c.user_id == user_id)
            .where(m.notifications.c.read.is_(False))
        )
        if up_to is not None:
            query = query.where(m.notifications.c.id <= up_to)
        with self.db.write() as tx:
            tx.execute(query.values(read=True))
            tx.notify(f"n:{user_id}", "read")  # the player's other pages update their count

    def settings(self, user_id: int) -> Settings:
        with self.db.read() as c:
            row = c.execute(
                select(m.user_settings).where(m.user_settings.c.user_id == user_id)
            ).first()
        if row is None:
            return Settings()
        return Settings(row.email, row.email_choice)

    def set_settings(self, user_id: int, email: Any, choice: Any) -> Settings:
        """A player's mail: an address ('' or None: none) and a choice; nothing pending is
        mailed after he turns mail off."""
        if choice not in EMAIL_CHOICES:
            raise NoticeError(f"mail is one of {', '.join(EMAIL_CHOICES)}")
        if email in (None, ""):
            email = None
        elif not isinstance(email, str) or not EMAIL.fullmatch(email) or not plain_text(email):
            raise NoticeError("not an e-mail address (one address: name@example.org)")
        if choice != "off" and email is None:
            raise NoticeError("mail needs an address")
        with self.db.write() as tx:
            tx.execute(_UPSERT_SETTINGS, {"user": user_id, "email": email, "choice": choice})
            if choice == "off":
                tx.execute(
                    update(m.notifications)
                    .where(m.notifications.c.user_id == user_id)
                    .where(m.notifications.c.mail == "pending")
                    .values(mail="none")
                )
        return Settings(email, choice)


def _notice(data: Any) -> Notice:
    return Notice(
        data["kind"],
        data["gameId"],
        data["opponent"],
        data["variant"],
        data["control"],
        data["at"],
        data.get("deadline"),
        data.get("result"),
    )


class Mailer:
    """Sends composed mails through SMTP (:mod:`emergo.server.notify.mail`) for the site
    ``site``."""

    def __init__(self, site: Site, smtp: SmtpSettings, send: Callable[..., int] = send) -> None:
        self.site = site
        self.smtp = smtp
        self._send = send

    def deliver(
        self,
        messages: Sequence[tuple[int | list[int], EmailMessage]],
        unclaim: Callable[[Sequence[int]], None],
    ) -> int:
        """Send each message; a failure logs (no secret) and gives its notices back."""
        sent = 0
        for ids, message in messages:
            try:
                sent += self._send(self.smtp, [message])
            except MailError as e:
                log.warning("mail not sent (tried again later): %s", e)
                unclaim(ids if isinstance(ids, list) else [ids])
        return sent
