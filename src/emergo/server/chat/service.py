"""The chat of a game: a players' room and a spectators' room (lichess's two rooms).

* The **players' room**: the two players only; either of them may close it for the game
  (:meth:`emergo.server.round.service.Rounds.set_player_chat`), after which no one can write there.
* The **spectators' room**: anyone signed in who does not play the game; the players do not see
  it while the game is on (no help from the audience), and may read and write it once it is
  over.
* An **event's room** (issue 30, lichess's tournament chat): one room per arena or Swiss event
  (``room`` ``event``), read by anyone, written by any signed-in account the moderators have
  not muted, player or spectator; its lines notify ``ec:{event}`` as a game's ``c:{game}``.

A line is 1-140 characters after trimming, without control characters; it is stored as sent and
escaped wherever it is shown (the pages build text nodes; HTML the server renders escapes it).
An admin removes a line (``emergo admin chat-remove ID``): it stays in the database marked
removed, no one is sent it again, and readers are told to drop it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from emergo.server.core import models as m
from emergo.server.core.db import Database, now
from emergo.server.core.errors import SiteError
from emergo.server.relation.service import blocked_between
from emergo.server.report.service import muted
from emergo.server.user.accounts import DELETED_NAME, User

ROOMS = ("player", "spectator")
EVENT_ROOM = "event"


def topic_of(game_id: str | None, tournament_id: str | None) -> str:
    """The bus topic of a line's chat: a game's or an event's."""
    return f"c:{game_id}" if game_id is not None else f"ec:{tournament_id}"


_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
MAX_LENGTH = 140


class ChatError(SiteError):
    """A chat line that cannot be said or a room that cannot be read: the message says why."""


@dataclass(frozen=True)
class Line:
    id: int
    room: str
    user: str
    text: str
    at: float

    def json(self) -> dict[str, Any]:
        """A ``chatLine`` of the Board API's game stream."""
        return {
            "type": "chatLine",
            "id": self.id,
            "room": self.room,
            "username": self.user,
            "text": self.text,
        }


def clean(text: Any) -> str:
    """A chat line as stored: trimmed, control characters (and lone surrogates) refused."""
    if not isinstance(text, str):
        raise ChatError("text must be a string")
    line: str = text.strip()
    if not 1 <= len(line) <= MAX_LENGTH:
        raise ChatError(f"a chat line is 1 to {MAX_LENGTH} characters")
    for ch in line:
        if unicodedata.category(ch) in ("Cc", "Cs") or ch in _BIDI:
            raise ChatError("a chat line has no control characters")
    return line


def may_read(room: str, *, player: bool, over: bool) -> bool:
    return (player or room == "spectator") and (room == "player" or not player or over)


class Chat:
    def __init__(self, db: Database) -> None:
        self.db = db

    def post(self, game_id: str, user: User, room: str, text: Any) -> Line:
        if room not in ROOMS:
            raise ChatError(f"room must be one of {', '.join(ROOMS)}")
        line = clean(text)
        t = now()
        with self.db.write() as tx:
            game = tx.execute(
                select(
                    m.games.c.white_id, m.games.c.black_id, m.games.c.status, m.games.c.player_chat
                ).where(m.games.c.id == game_id)
            ).first()
            if game is None:
                raise ChatError("no such game", 404)
            player = user.id in (game.white_id, game.black_id)
            if room == "player" and not player:
                raise ChatError("only the players write in the players' room", 403)
            if room == "player" and not game.player_chat:
                raise ChatError("the players' chat of this game is closed", 409)
            # a player may write to the spectators during the game (lichess's Bot API: a bot
            # greets them, lichess-bot's hello_spectators) and reads their room once it is over
            if muted(tx, user.id):
                raise ChatError("the moderators muted your chat", 403)
            opponent = game.black_id if user.id == game.white_id else game.white_id
            if room == "player" and blocked_between(tx, user.id, opponent):
                raise ChatError("no chat between these players: one of them blocks the other", 403)
            result = tx.execute(
                insert(m.chat).values(game_id=game_id, room=room, user_id=user.id, text=line, at=t)
            )
            line_id = int(result.inserted_primary_key[0])
            tx.notify(f"c:{game_id}", str(line_id))
        return Line(id=line_id, room=room, user=user.name, text=line, at=t)

    def post_event(self, tournament_id: str, user: User, text: Any) -> Line:
        """A line in an event's room (the site's :meth:`~emergo.server.site.Site.say_event`
        counts it against the same limit as a game's)."""
        line = clean(text)
        if user.disabled:
            raise ChatError("this account is disabled", 403)
        t = now()
        with self.db.write() as tx:
            found = tx.execute(
                select(m.tournaments.c.id).where(m.tournaments.c.id == tournament_id)
            ).first()
            if found is None:
                raise ChatError("no such tournament", 404)
            if muted(tx, user.id):
                raise ChatError("the moderators muted your chat", 403)
            result = tx.execute(
                insert(m.chat).values(
                    tournament_id=tournament_id, room=EVENT_ROOM, user_id=user.id, text=line, at=t
                )
            )
            line_id = int(result.inserted_primary_key[0])
            tx.notify(topic_of(None, tournament_id), str(line_id))
        return Line(id=line_id, room=EVENT_ROOM, user=user.name, text=line, at=t)

    def event_lines(self, tournament_id: str, *, after: int = 0, limit: int = 200) -> list[Line]:
        """The lines of an event's room after id ``after`` (oldest first; the last ``limit``)."""
        return self._lines(m.chat.c.tournament_id == tournament_id, after, (EVENT_ROOM,), limit)

    def event_removed(self, tournament_id: str) -> list[int]:
        """Which of an event's last 200 lines (what a page shows) a moderator removed."""
        with self.db.read() as c:
            rows = c.execute(
                select(m.chat.c.id, m.chat.c.removed)
                .where(m.chat.c.tournament_id == tournament_id)
                .order_by(m.chat.c.id.desc())
                .limit(200)
            ).all()
        return sorted(r.id for r in rows if r.removed)

    def lines(
        self, game_id: str, *, after: int = 0, rooms: tuple[str, ...] = ROOMS, limit: int = 200
    ) -> list[Line]:
        """The lines of ``rooms`` after id ``after`` (oldest first; the last ``limit``)."""
        return self._lines(m.chat.c.game_id == game_id, after, rooms, limit)

    def _lines(self, owner: Any, after: int, rooms: tuple[str, ...], limit: int) -> list[Line]:
        with self.db.read() as c:
            rows = c.execute(
                select(m.chat, m.users.c.name)
                .join(m.users, m.users.c.id == m.chat.c.user_id)
                .where(owner)
                .where(m.chat.c.id > after)
                .where(m.chat.c.room.in_(rooms))
                .where(m.chat.c.removed.is_(False))
                .order_by(m.chat.c.id.desc())
                .limit(limit)
            ).all()
        return [
            Line(id=r.id, room=r.room, user=r.name or DELETED_NAME, text=r.text, at=r.at)
            for r in reversed(rows)
        ]

    def removed(self, game_id: str, ids: list[int]) -> list[int]:
        """Which of these lines of a game's chat were removed."""
        if not ids:
            return []
        with self.db.read() as c:
            rows = c.execute(
                select(m.chat.c.id)
                .where(m.chat.c.game_id == game_id)
                .where(m.chat.c.id.in_(ids))
                .where(m.chat.c.removed.is_(True))
            ).all()
        return [r.id for r in rows]

    def remove(self, line_id: int) -> bool:
        """An admin removes a line; whether there was one."""
        with self.db.write() as tx:
            row = tx.execute(
                select(m.chat.c.game_id, m.chat.c.tournament_id).where(m.chat.c.id == line_id)
            ).first()
            if row is None:
                return False
            tx.execute(update(m.chat).where(m.chat.c.id == line_id).values(removed=True))
            tx.notify(topic_of(row.game_id, row.tournament_id), f"removed:{line_id}")
        return True
