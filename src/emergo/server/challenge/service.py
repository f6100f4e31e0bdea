"""Challenges: a direct challenge to a named player, an open seek in the lobby, an invitation link.

A challenge says the game it offers (variant, time control, rated, the challenger's colour) and
who may accept it: the named player (``direct``), anyone from the lobby (``seek``) or anyone
who has the link (``link``: its id is 8 random letters and digits).  Accepting makes the game
in the same transaction (:meth:`emergo.server.round.service.Rounds.create`), so two people accepting
one seek at once get one game: the challenge row is locked.  A challenge not answered expires:
live ones after :data:`LIVE_EXPIRY`, correspondence and unlimited ones after
:data:`CORRESPONDENCE_EXPIRY` (the housekeeping sweep marks them).  A challenge to a bot
account is just a challenge: the bot's own process (issue 20) accepts it through the API.
Bots play by challenge only (lichess): a bot may not post a seek nor accept one, and may not
challenge, nor accept the challenge of, a person who declines bots
(:mod:`emergo.server.bots.accounts`).

Time controls (lichess's limits, but a clock starts with some time): ``clock.limit`` 1-10800
seconds and ``clock.increment`` 0-180 for a live Fischer clock; ``days`` 1, 2, 3, 5, 7, 10 or
14 a move for correspondence; neither for unlimited.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, insert, or_, select, update

from emergo.board import Board
from emergo.geometry import VARIANTS
from emergo.server.bots.accounts import Bots
from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now
from emergo.server.core.errors import SiteError
from emergo.server.core.text import valid_id
from emergo.server.notify.events import user_event
from emergo.server.relation.service import blocked_between
from emergo.server.round.starts import StartError, canonical_start
from emergo.server.user.accounts import DELETED_NAME, User

LIVE_EXPIRY = 20 * 60.0
CORRESPONDENCE_EXPIRY = 7 * 86400.0
DAYS = (1, 2, 3, 5, 7, 10, 14)
CLOCK_LIMIT = (1, 10800)
CLOCK_INCREMENT = (0, 180)
COLORS = ("random", "white", "black")
KINDS = ("direct", "seek", "link")
MAX_OPEN = 50
"""Open challenges a user may have at once."""
MAX_SEEKS = 5
"""Of them, seeks in the lobby: the lobby shows the newest 200 seeks, which a few accounts
could otherwise fill."""
_ALPHABET = string.ascii_letters + string.digits
DECLINE_REASONS = {
    "generic": "I am not accepting challenges at the moment.",
    "later": "This is not the right time for me: please ask again later.",
    "toofast": "This time control is too fast for me: please send a slower game.",
    "tooslow": "This time control is too slow for me: please send a faster game.",
    "timecontrol": "I am not accepting challenges with this time control.",
    "rated": "Please send me a rated challenge instead.",
    "casual": "Please send me a casual challenge instead.",
    "standard": "I am not accepting variant challenges right now.",
    "variant": "I am not willing to play this variant right now.",
    "nobot": "I am not accepting challenges from bots.",
    "onlybot": "I am only accepting challenges from bots.",
}
"""lichess's decline reasons (keys lower-cased) and the words the challenger reads."""
_REASON_KEYS = {
    "toofast": "tooFast",
    "tooslow": "tooSlow",
    "timecontrol": "timeControl",
    "nobot": "noBot",
    "onlybot": "onlyBot",
}
"""lichess's spelling of the keys (``declineReasonKey``)."""


_GONE_WORDS = {
    "expired": "this challenge has expired",
    "accepted": "someone else accepted this challenge first",
    "declined": "this challenge was declined",
    "canceled": "this challenge was canceled",
}


def decline_key(reason: Any) -> str:
    """A decline reason's lichess key (any case); ``generic`` for anything else, as lila's
    ``DeclineReason``: a decline carries no text of the decliner's own to the challenger."""
    key = reason.lower() if isinstance(reason, str) else ""
    if key not in DECLINE_REASONS:
        return "generic"
    return _REASON_KEYS.get(key, key)


class ChallengeError(SiteError):
    """A challenge that cannot be made or answered; ``words`` says it to a player in the pages
    (the message names the API's fields)."""

    def __init__(self, message: str, status: int = 400, words: str | None = None) -> None:
        super().__init__(message, status, words=words or message)


def new_id() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(8))


@dataclass(frozen=True)
class Terms:
    """The game a challenge offers."""

    variant: str = "9x9"
    clock_limit: float | None = None
    clock_increment: float | None = None
    days: int | None = None
    rated: bool = False
    color: str = "random"
    position: str | None = None
    """A game from this position (R22, canonical; lichess's ``fen``): never rated; None: the
    variant's start."""
    start: str | None = None
    """A fair start the server draws when the game is made (issue 30,
    :mod:`emergo.server.round.starts`: ``ballot``, ``handicap``, ``swap-N``); may be rated."""

    @property
    def speed(self) -> str:
        return "live" if self.clock_limit is not None else "correspondence"

    @property
    def perf(self) -> str:
        """The rating the game counts for (:data:`emergo.server.user.perfs.PERF_KEYS`)."""
        return f"{self.variant}-{self.speed}"

    def time_control_json(self) -> dict[str, Any]:
        if self.clock_limit is not None:
            inc = self.clock_increment or 0
            return {
                "type": "clock",
                "limit": self.clock_limit,
                "increment": inc,
                "show": f"{_minutes(self.clock_limit)}+{inc:g}",
            }
        if self.days is not None:
            return {"type": "correspondence", "daysPerTurn": self.days}
        return {"type": "unlimited"}


def final_color(challenge_id: str, color: str) -> str:
    """The challenger's colour: ``color``, or for ``random`` one drawn from the challenge's id
    (random itself, and known before the challenge is accepted: lichess's ``finalColor``).

    >>> final_color("abcdefgh", "black"), final_color("abcdefgh", "random") in ("white", "black")
    ('black', True)
    """
    if color != "random":
        return color
    return ("white", "black")[hashlib.sha256(challenge_id.encode()).digest()[0] & 1]


def _minutes(seconds: float) -> str:
    value = seconds / 60
    return {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(value, f"{value:g}")


_FIELD_WORDS = {
    "clock.limit": "the time",
    "clock.increment": "the increment",
    "limit": "the time",
    "increment": "the increment",
    "days": "the days a move",
}


def _number(data: dict[str, Any], key: str, label: str | None = None) -> float | None:
    """The number of a field (JSON number or form text); a 400 naming the field (``label``)
    for anything else: a word, NaN, infinity, ``1e400``, a JSON integer of 400 digits."""
    label = label or key
    words = f"{_FIELD_WORDS.get(label, label)} is a number"
    value = data.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ChallengeError(f"{label} must be a number", words=words)
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise ChallengeError(
            f"{label} must be a number, not {str(value)[:20]!r}", words=words
        ) from None
    if not math.isfinite(number):
        raise ChallengeError(f"{label} must be a finite number", words=words)
    return number


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if value is True or value is False:
        return bool(value)
    if value in ("true", "false"):
        return bool(value == "true")
    raise ChallengeError(f"{key} must be true or false", words="choose Rated or Casual")


def terms_of(data: dict[str, Any]) -> Terms:
    """The terms of a request (JSON or form fields, lichess's names), or a :class:`ChallengeError`
    saying what is wrong."""
    variant = data.get("variant", "9x9")
    if variant == "standard":
        variant = "9x9"
    if variant not in VARIANTS:
        raise ChallengeError(
            f"variant must be one of {', '.join(VARIANTS)}",
            words=f"choose a board: {', '.join(VARIANTS)}",
        )
    clock = data.get("clock") if isinstance(data.get("clock"), dict) else {}
    limit = _number(data, "clock.limit")
    increment = _number(data, "clock.increment")
    if limit is None and isinstance(clock, dict):
        limit = _number(clock, "limit", "clock.limit")
        if increment is None:
            increment = _number(clock, "increment", "clock.increment")
    days_value = _number(data, "days")
    if limit is not None or increment is not None:
        if days_value is not None:
            raise ChallengeError(
                "give a clock or days, not both", words="choose a live clock or days a move"
            )
        if limit is None:
            raise ChallengeError(
                "a clock needs clock.limit (seconds)", words="write the minutes each player has"
            )
        increment = increment or 0.0
        if not CLOCK_LIMIT[0] <= limit <= CLOCK_LIMIT[1]:
            raise ChallengeError(
                f"clock.limit must be in {CLOCK_LIMIT[0]}..{CLOCK_LIMIT[1]} s",
                words=f"the time is {CLOCK_LIMIT[0]} second to {CLOCK_LIMIT[1] // 60} minutes"
                f" a player (not {_minutes(limit)} minutes)",
            )
        if not CLOCK_INCREMENT[0] <= increment <= CLOCK_INCREMENT[1]:
            raise ChallengeError(
                f"clock.increment must be in {CLOCK_INCREMENT[0]}..{CLOCK_INCREMENT[1]} s",
                words=f"the increment is {CLOCK_INCREMENT[0]} to {CLOCK_INCREMENT[1]} seconds"
                f" a move (not {increment:g})",
            )
    days = None
    if days_value is not None:
        if days_value not in DAYS:
            raise ChallengeError(
                f"days must be one of {', '.join(map(str, DAYS))}",
                words=f"the days a move are {', '.join(map(str, DAYS))}",
            )
        days = int(days_value)
    color = data.get("color", "random")
    if color not in COLORS:
        raise ChallengeError(
            f"color must be one of {', '.join(COLORS)}",
            words="choose a colour: random, white or black",
        )
    rated = _flag(data, "rated")
    position = position_of(data.get("fen"), variant if "variant" in data else None)
    if position is not None:
        if rated:  # lichess: a game from a position is casual
            raise ChallengeError(
                "a game from a position (fen) cannot be rated",
                words="a game from a position is always casual",
            )
        variant = Board(position).variant
    try:
        start = canonical_start(data.get("start"), variant)
    except StartError as e:
        raise ChallengeError(
            str(e), words="choose a start: ballot, handicap, swap, recommended"
        ) from None
    if start is not None and position is not None:
        raise ChallengeError(
            "give fen or start, not both", words="a game from a position has no fair start"
        )
    return Terms(
        variant=variant,
        clock_limit=limit,
        clock_increment=increment,
        days=days,
        rated=rated,
        color=color,
        position=position,
        start=start,
    )


def position_of(value: Any, variant: str | None = None) -> str | None:
    """A challenge's start position (``fen``: an R22 position string) checked and canonical,
    or None (absent, or the variant's own start); a :class:`ChallengeError` saying why not."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 400:
        raise ChallengeError("fen must be a position string (R22) of at most 400 characters")
    try:
        board = Board(value)
    except ValueError as e:
        raise ChallengeError(f"fen: {e}", words=f"that position cannot be played: {e}") from None
    if variant is not None and board.variant != variant:
        raise ChallengeError(
            f"fen is a {board.variant} position, not {variant}",
            words=f"that position is on the {board.variant} board, not {variant}",
        )
    ended = board.outcome()
    if ended is not None:
        raise ChallengeError(
            f"fen: the game is over there ({ended.reason()})",
            words="that position is the end of a game already",
        )
    if board.position() == Board(variant=board.variant).position():
        return None
    return board.position()


@dataclass(frozen=True)
class Challenge:
    id: str
    kind: str
    status: str
    challenger: str
    dest: str | None
    terms: Terms
    created: float
    expires: float
    game_id: str | None = None
    decline_reason: str | None = None
    challenger_bot: bool = False
    dest_bot: bool = False

    def json(self, base_url: str = "") -> dict[str, Any]:
        """The challenge as lichess shows it (docs/online.md lists what differs)."""

        def user(name: str | None, bot: bool) -> dict[str, Any] | None:
            if name is None:
                return None
            return {"id": name.lower(), "name": name, "title": "BOT" if bot else None}

        out: dict[str, Any] = {
            "id": self.id,
            "url": f"{base_url}/challenge/{self.id}",
            "status": self.status,
            "kind": self.kind,
            "challenger": user(self.challenger, self.challenger_bot),
            "destUser": user(self.dest, self.dest_bot),
            "variant": {"key": self.terms.variant, "name": self.terms.variant},
            "rated": self.terms.rated,
            "speed": self.terms.speed,
            "timeControl": self.terms.time_control_json(),
            "color": self.terms.color,
            # lichess's: the challenger's colour once a random one is drawn (drawn from the id,
            # so the challenge shows it before it is accepted, as lichess's does)
            "finalColor": final_color(self.id, self.terms.color),
            "perf": {"key": self.terms.perf, "name": self.terms.perf.replace("-", " ")},
            "initialFen": self.terms.position or Board(variant=self.terms.variant).position(),
            "start": self.terms.start,
            "createdAt": int(self.created * 1000),
            "expiresAt": int(self.expires * 1000),
        }
        if self.game_id is not None:
            out["gameId"] = self.game_id
        if self.decline_reason is not None:  # lichess: the words, and the key
            key = self.decline_reason
            out["declineReason"] = DECLINE_REASONS.get(key.lower(), DECLINE_REASONS["generic"])
            out["declineReasonKey"] = key
        return out


_challenger = m.users.alias("challenger")
_dest = m.users.alias("dest")
_SELECT = (
    select(
        m.challenges,
        _challenger.c.name.label("challenger_name"),
        _challenger.c.bot.label("challenger_bot"),
        _dest.c.name.label("dest_name"),
        _dest.c.bot.label("dest_bot"),
    )
    .join(_challenger, _challenger.c.id == m.challenges.c.challenger_id)
    .outerjoin(_dest, _dest.c.id == m.challenges.c.dest_id)
)


def _challenge(row: Any) -> Challenge:
    return Challenge(
        id=row.id,
        kind=row.kind,
        status=row.status,
        challenger=row.challenger_name or DELETED_NAME,
        dest=(row.dest_name or DELETED_NAME) if row.dest_id is not None else None,
        terms=Terms(
            variant=row.variant,
            clock_limit=row.clock_limit,
            clock_increment=row.clock_increment,
            days=row.days,
            rated=row.rated,
            color=row.color,
            position=row.position,
            start=row.start,
        ),
        created=row.created,
        expires=row.expires,
        game_id=row.game_id,
        decline_reason=row.decline_reason,
        challenger_bot=bool(row.challenger_bot),
        dest_bot=bool(row.dest_bot),
    )


class Challenges:
    """Challenges and seeks of one database; game creation is the rounds service's."""

    def __init__(self, db: Database, create_game: Any) -> None:
        self.db = db
        self.create_game = create_game
        """``create_game(tx, challenge_row, white_id, black_id, t) -> game id`` (the rounds
        service's, called inside the acceptance's transaction)."""
        self.on_start: Callable[[Tx, str, int, int, float], None] | None = None
        """Called in the acceptance's transaction with the new game (id, White's and Black's
        ids, the time): the site tells the players' followers."""

    def create(
        self, challenger: User, terms: Terms, *, kind: str = "direct", dest: User | None = None
    ) -> Challenge:
        if kind not in KINDS:
            raise ChallengeError(f"kind must be one of {', '.join(KINDS)}")
        if kind == "direct":
            if dest is None:
                raise ChallengeError("no such user", 404, words="there is no player of that name")
            if dest.id == challenger.id:
                raise ChallengeError("you cannot challenge yourself")
            if dest.disabled:
                raise ChallengeError(f"{dest.name} cannot be challenged", 404)
        elif dest is not None:
            raise ChallengeError("a seek or a link is open to anyone: no destination")
        if kind == "seek" and challenger.bot:
            raise ChallengeError("bots cannot seek in the lobby: they play by challenge", 403)
        t = now()
        expiry = LIVE_EXPIRY if terms.clock_limit is not None else CORRESPONDENCE_EXPIRY
        challenge_id = new_id()
        with self.db.write() as tx:
            # one request of a player at a time here: two clicks at once cannot both create
            tx.execute(tx.locked(select(m.users.c.id).where(m.users.c.id == challenger.id)))
            same = self._same_pending(tx, challenger, terms, kind, dest, t)
            if same is not None:  # a second click on the same button: the one challenge
                return same
            kinds = (
                tx.execute(
                    select(m.challenges.c.kind)
                    .where(m.challenges.c.challenger_id == challenger.id)
                    .where(m.challenges.c.status == "created")
                    .where(m.challenges.c.expires > t)
                    .limit(MAX_OPEN + 1)
                )
                .scalars()
                .all()
            )
            if len(kinds) >= MAX_OPEN:
                raise ChallengeError(
                    f"you have {MAX_OPEN} open challenges: cancel some",
                    429,
                    words=f"you have {MAX_OPEN} open challenges: cancel some first",
                )
            if kind == "seek" and kinds.count("seek") >= MAX_SEEKS:
                raise ChallengeError(
                    f"you have {MAX_SEEKS} seeks in the lobby: cancel some",
                    429,
                    words=f"you have {MAX_SEEKS} seeks in the lobby: cancel one first",
                )
            if dest is not None and blocked_between(tx, dest.id, challenger.id):
                raise ChallengeError(
                    f"{dest.name} does not take challenges from you",
                    403,
                    words=f"you cannot challenge {dest.name}: one of you blocks the other",
                )
            if (
                dest is not None
                and challenger.bot
                and not dest.bot
                and not Bots(self.db).accepts_bots(dest.id, tx)
            ):
                raise ChallengeError(f"{dest.name} does not play bots", 403)
            tx.execute(
                insert(m.challenges).values(
                    id=challenge_id,
                    challenger_id=challenger.id,
                    dest_id=dest.id if dest is not None else None,
                    kind=kind,
                    variant=terms.variant,
                    clock_limit=terms.clock_limit,
                    clock_increment=terms.clock_increment,
                    days=terms.days,
                    rated=terms.rated,
                    color=terms.color,
                    position=terms.position,
                    start=terms.start,
                    status="created",
                    created=t,
                    expires=t + expiry,
                )
            )
            challenge = Challenge(
                id=challenge_id,
                kind=kind,
                status="created",
                challenger=challenger.name,
                dest=dest.name if dest is not None else None,
                terms=terms,
                created=t,
                expires=t + expiry,
                challenger_bot=challenger.bot,
                dest_bot=dest.bot if dest is not None else False,
            )
            if kind == "direct" and dest is not None:
                data = {"type": "challenge", "challenge": challenge.json()}
                user_event(tx, dest.id, data, t)
                user_event(tx, challenger.id, data, t)
            if kind == "seek":
                tx.notify("lobby")
        return challenge

    def _same_pending(
        self, tx: Tx, challenger: User, terms: Terms, kind: str, dest: User | None, t: float
    ) -> Challenge | None:
        """The challenger's pending challenge of this kind to this player on these very terms,
        if one is open: creating it again gives it back rather than a second one (a double
        click on *Post a seek* must not let two people start a game with one player)."""
        c = m.challenges.c

        def equal(column: Any, value: Any) -> Any:
            return column.is_(None) if value is None else column == value

        row = tx.execute(
            _SELECT.where(c.challenger_id == challenger.id)
            .where(c.status == "created")
            .where(c.expires > t)
            .where(c.kind == kind)
            .where(equal(c.dest_id, dest.id if dest is not None else None))
            .where(c.variant == terms.variant)
            .where(equal(c.clock_limit, terms.clock_limit))
            .where(equal(c.clock_increment, terms.clock_increment))
            .where(equal(c.days, terms.days))
            .where(c.rated == terms.rated)
            .where(c.color == terms.color)
            .where(equal(c.position, terms.position))
            .order_by(c.created)
            .limit(1)
        ).first()
        return _challenge(row) if row is not None else None

    def get(self, challenge_id: str) -> Challenge | None:
        if not valid_id(challenge_id):
            return None
        with self.db.read() as c:
            row = c.execute(_SELECT.where(m.challenges.c.id == challenge_id)).first()
        return _challenge(row) if row is not None else None

    def _locked(self, tx: Tx, challenge_id: str) -> Any:
        if not valid_id(challenge_id):
            raise ChallengeError("no such challenge", 404)
        row = tx.execute(tx.locked(select(m.challenges).where(m.challenges.c.id == challenge_id)))
        found = row.first()
        if found is None:
            raise ChallengeError("no such challenge", 404)
        return found

    def accept(self, challenge_id: str, user: User) -> str:
        """Accept a challenge: the new game's id."""
        t = now()
        with self.db.write() as tx:
            row = self._locked(tx, challenge_id)
            if row.kind == "direct" and row.dest_id != user.id:
                raise ChallengeError("this challenge is not for you", 403)
            if row.challenger_id == user.id:
                raise ChallengeError("you cannot accept your own challenge")
            if row.status != "created" or row.expires <= t:
                status = "expired" if row.status == "created" else row.status
                raise ChallengeError(
                    f"the challenge is {status}",
                    409 if status else 400,
                    words=_GONE_WORDS.get(status, f"the challenge is {status}"),
                )
            if user.bot:
                if row.kind == "seek":
                    raise ChallengeError("bots play by challenge, not from the lobby", 403)
                challenger = tx.execute(
                    select(m.users.c.bot).where(m.users.c.id == row.challenger_id)
                ).scalar()
                declines = not Bots(self.db).accepts_bots(row.challenger_id, tx)
                if row.kind != "direct" and not challenger and declines:
                    raise ChallengeError("the challenger does not play bots", 403)
            if blocked_between(tx, row.challenger_id, user.id):
                raise ChallengeError(
                    "you cannot play this player: one of you blocks the other",
                    403,
                    words="you cannot play this player: one of you blocks the other",
                )
            color = final_color(row.id, row.color)
            white, black = (
                (row.challenger_id, user.id) if color == "white" else (user.id, row.challenger_id)
            )
            game_id: str = self.create_game(tx, row, white, black, t)
            if self.on_start is not None:
                self.on_start(tx, game_id, white, black, t)
            tx.execute(
                update(m.challenges)
                .where(m.challenges.c.id == row.id)
                .values(status="accepted", game_id=game_id, dest_id=user.id)
            )
            if row.kind == "seek":
                tx.notify("lobby")
        return game_id

    def quick(self, user: User, terms: Terms) -> tuple[str, Challenge | None, str | None]:
        """Quick pairing (lichess's grid of time controls): join the oldest open seek of
        another player on these terms (variant, clock, mode; either colour), or post one.
        ``("game", None, game_id)`` when a game started, ``("seek", seek, None)`` when the
        player's own seek now waits (a second click gives the same seek back)."""
        if terms.position is not None:
            raise ChallengeError(
                "quick pairing plays from the start", words="quick pairing plays from the start"
            )
        c = m.challenges.c
        t = now()

        def equal(column: Any, value: Any) -> Any:
            return column.is_(None) if value is None else column == value

        with self.db.read() as conn:
            candidates = (
                conn.execute(
                    select(c.id)
                    .where(c.kind == "seek")
                    .where(c.status == "created")
                    .where(c.expires > t)
                    .where(c.challenger_id != user.id)
                    .where(c.variant == terms.variant)
                    .where(equal(c.clock_limit, terms.clock_limit))
                    .where(equal(c.clock_increment, terms.clock_increment))
                    .where(equal(c.days, terms.days))
                    .where(c.rated == terms.rated)
                    .where(c.position.is_(None))
                    .order_by(c.created)
                    .limit(20)
                )
                .scalars()
                .all()
            )
        for challenge_id in candidates:
            try:
                return "game", None, self.accept(str(challenge_id), user)
            except ChallengeError:  # taken meanwhile, or the two block each other: the next
                continue
        return "seek", self.create(user, terms, kind="seek"), None

    def decline(self, challenge_id: str, user: User, reason: Any = "generic") -> None:
        """Decline a direct challenge for one of lichess's reasons (:data:`DECLINE_REASONS`):
        the challenger's event stream gets the challenge with the reason in words."""
        key = decline_key(reason)
        t = now()
        with self.db.write() as tx:
            row = self._locked(tx, challenge_id)
            if row.kind != "direct" or row.dest_id != user.id:
                raise ChallengeError("only the challenged player may decline", 403)
            if row.status != "created":
                raise ChallengeError(f"the challenge is {row.status}", 409)
            tx.execute(
                update(m.challenges)
                .where(m.challenges.c.id == row.id)
                .values(status="declined", decline_reason=key)
            )
            declined = tx.execute(_SELECT.where(m.challenges.c.id == row.id)).one()
            data = {"type": "challengeDeclined", "challenge": _challenge(declined).json()}
            user_event(tx, row.challenger_id, data, t)

    def cancel(self, challenge_id: str, user: User) -> None:
        t = now()
        with self.db.write() as tx:
            row = self._locked(tx, challenge_id)
            if row.challenger_id != user.id:
                raise ChallengeError("only the challenger may cancel", 403)
            if row.status != "created":
                raise ChallengeError(f"the challenge is {row.status}", 409)
            tx.execute(
                update(m.challenges).where(m.challenges.c.id == row.id).values(status="canceled")
            )
            if row.dest_id is not None:
                user_event(
                    tx, row.dest_id, {"type": "challengeCanceled", "challenge": {"id": row.id}}, t
                )
            if row.kind == "seek":
                tx.notify("lobby")

    def of_user(self, user: User) -> dict[str, list[Challenge]]:
        """``{"in": [...], "out": [...]}``: the open challenges to and from a user."""
        t = now()
        with self.db.read() as c:
            rows = c.execute(
                _SELECT.where(m.challenges.c.status == "created")
                .where(m.challenges.c.expires > t)
                .where(
                    or_(
                        m.challenges.c.challenger_id == user.id,
                        m.challenges.c.dest_id == user.id,
                    )
                )
                .order_by(m.challenges.c.created.desc())
                .limit(2 * MAX_OPEN)
            ).all()
        return {
            "in": [_challenge(r) for r in rows if r.dest_id == user.id],
            "out": [_challenge(r) for r in rows if r.challenger_id == user.id],
        }

    def seeks(self, limit: int = 200) -> list[Challenge]:
        """The lobby: open seeks, newest first."""
        t = now()
        with self.db.read() as c:
            rows = c.execute(
                _SELECT.where(
                    and_(
                        m.challenges.c.kind == "seek",
                        m.challenges.c.status == "created",
                        m.challenges.c.expires > t,
                    )
                )
                .order_by(m.challenges.c.created.desc())
                .limit(limit)
            ).all()
        return [_challenge(r) for r in rows]

    def expire(self, t: float | None = None) -> int:
        """Mark the challenges past their time expired (the housekeeping sweep); how many."""
        t = t or now()
        with self.db.write() as tx:
            rows = tx.execute(
                select(m.challenges.c.id, m.challenges.c.kind, m.challenges.c.challenger_id)
                .where(m.challenges.c.status == "created")
                .where(m.challenges.c.expires <= t)
                .limit(1000)
            ).all()
            if not rows:
                return 0
            tx.execute(
                update(m.challenges)
                .where(m.challenges.c.id.in_([r.id for r in rows]))
                .values(status="expired")
            )
            for r in rows:
                user_event(
                    tx, r.challenger_id, {"type": "challengeCanceled", "challenge": {"id": r.id}}, t
                )
            if any(r.kind == "seek" for r in rows):
                tx.notify("lobby")
        return len(rows)
