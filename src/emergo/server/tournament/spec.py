"""What an event is asked to be: the fields of a request to make one, checked (lichess's names),
and the settings an event keeps (no database here: the service stores them).

:func:`arena_spec` reads ``POST /api/tournament`` (an arena; with ``system=robin`` or
``system=match`` a round robin or a match, our addition), :func:`swiss_spec` reads ``POST
/api/swiss/new``.  Bad input is a :class:`SpecError` naming the field.

>>> spec = arena_spec({"name": "Friday", "clockTime": 3, "clockIncrement": 2, "minutes": 45})
>>> spec.kind, spec.clock_limit, spec.clock_increment, spec.minutes
('arena', 180.0, 2.0, 45)
>>> swiss_spec({"clock.limit": 300, "clock.increment": 0, "nbRounds": 5}).rounds
5
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from emergo.geometry import VARIANTS
from emergo.server.core.errors import SiteError
from emergo.server.tournament.conditions import Conditions
from emergo.server.tournament.roundrobin import MAX_MATCH_GAMES, MAX_PLAYERS

KINDS = ("arena", "swiss", "robin", "match")
STARTS = ("none", "ballot", "recommended")
"""The start of an event's games: the empty board, a ballot drawn for each game (a pair's
two games share one in round robins and matches), or each board's recommendation
(docs/fair-starts.md: 9x9 one man fewer for White, 7x7 the swap rule, hex ballots)."""
DAYS = (1, 2, 3, 5, 7, 10, 14)
ARENA_MINUTES = (5, 600)
SWISS_ROUNDS = (3, 100)
NAME_LENGTH = 60
MAX_WAIT_DAYS = 60
MAX_AHEAD_DAYS = 366
"""How far ahead an event's start date may be (a club plans its season)."""


class SpecError(SiteError):
    """A request to make an event that cannot be: the message names the field."""


@dataclass(frozen=True)
class Spec:
    """An event to make (the fields of :class:`Settings` besides)."""

    kind: str
    name: str
    variant: str = "9x9"
    clock_limit: float | None = 180.0
    clock_increment: float | None = 0.0
    days: int | None = None
    rated: bool = True
    starts_at: float | None = None  # None: in ``wait_minutes``
    wait_minutes: float = 5.0
    minutes: int | None = None  # an arena's duration
    rounds: int | None = None  # Swiss: rounds planned; match: games
    settings: Settings = field(default_factory=lambda: Settings())


@dataclass(frozen=True)
class Settings:
    """What an event keeps beside its row: the start of its games, the arena's berserk and
    streaks, a Swiss's round interval (``None``: the next round when the last game ends), a
    round robin's cycles and micro-matches, a correspondence round's days, the conditions."""

    start: str = "none"
    berserkable: bool = True
    streakable: bool = True
    round_interval: float | None = None
    round_delay: float = 10.0
    cycles: int = 1
    micro_match: bool = False
    round_days: int | None = None
    max_players: int | None = None
    opponent: str | None = None  # a match's second player (a name), joined when it starts
    description: str = ""
    conditions: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        known = {k: v for k, v in dict(data or {}).items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def entry(self) -> Conditions:
        """The entry conditions (:mod:`emergo.server.tournament.conditions`)."""
        c = self.conditions
        return Conditions(
            min_rated_games=int(c.get("min_rated_games") or 0),
            min_rating=c.get("min_rating"),
            max_rating=c.get("max_rating"),
            bots=bool(c.get("bots", False)),
            password=c.get("password"),
        )


def _get(data: dict[str, Any], *keys: str) -> Any:
    """The first of ``keys`` given: a form's dotted field (``clock.limit``) or the same path
    through JSON objects (``{"clock": {"limit": 300}}``, ``{"conditions": {"minRating":
    {"rating": 1800}}}``); where the path goes on, a value that is no object is named."""
    for key in keys:
        value = data.get(key)
        if value is not None and value != "":
            return value
        inner: Any = data
        parts = key.split(".")
        for depth, part in enumerate(parts[:-1], 1):
            inner = inner.get(part)
            if inner is None:
                break
            if not isinstance(inner, dict):
                raise SpecError(f"{'.'.join(parts[:depth])} must be an object of fields")
        else:
            value = inner.get(parts[-1])
            if value is not None and value != "":
                return value
    return None


def _ranged(
    data: dict[str, Any],
    key: str,
    default: float,
    low: float,
    high: float,
    *,
    integer: bool = False,
) -> float:
    """The number ``key`` in ``low..high``, ``default`` when not given (0 is a number given)."""
    value = _number(data, key, integer=integer)
    return _within(default if value is None else value, low, high, key)


def _number(data: dict[str, Any], *keys: str, integer: bool = False) -> float | None:
    value = _get(data, *keys)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise SpecError(f"{keys[0]} must be a number")
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise SpecError(f"{keys[0]} must be a number, not {str(value)[:20]!r}") from None
    if not math.isfinite(number) or (integer and number != int(number)):
        raise SpecError(f"{keys[0]} must be a {'whole' if integer else 'finite'} number")
    return number


def _within(value: float, low: float, high: float, what: str) -> float:
    if not low <= value <= high:
        raise SpecError(f"{what} must be in {low:g}..{high:g}, not {value:g}")
    return value


def _flag(data: dict[str, Any], key: str, default: bool) -> bool:
    value = _get(data, key)
    if value is None:
        return default
    if value in (True, "true", "1", 1):
        return True
    if value in (False, "false", "0", 0):
        return False
    raise SpecError(f"{key} must be true or false")


def _text(data: dict[str, Any], key: str, default: str, limit: int) -> str:
    value = _get(data, key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise SpecError(f"{key} must be text")
    text = " ".join(value.split())
    if len(text) > limit or any(not c.isprintable() for c in text):
        raise SpecError(f"{key} must be at most {limit} printable characters")
    return text


def _common(data: dict[str, Any], kind: str, default_name: str) -> dict[str, Any]:
    variant = _get(data, "variant") or "9x9"
    if variant == "standard":
        variant = "9x9"
    if variant not in VARIANTS:
        raise SpecError(f"variant must be one of {', '.join(VARIANTS)}")
    days = _number(data, "days", integer=True)
    limit = increment = None
    if days is not None:
        if days not in DAYS:
            raise SpecError(f"days must be one of {', '.join(map(str, DAYS))}")
        if kind == "arena":
            raise SpecError("an arena is live: give clockTime, not days")
    else:
        limit = _number(data, "clock.limit", "clockLimit")
        minutes = _number(data, "clockTime")
        if limit is None and minutes is not None:
            limit = minutes * 60
        limit = _within(limit if limit is not None else 180.0, 15, 10800, "the clock's time (s)")
        increment = _number(data, "clock.increment", "clockIncrement")
        increment = _within(increment or 0.0, 0, 180, "the clock's increment (s)")
    start = _get(data, "start") or "none"
    if start not in STARTS:
        raise SpecError(f"start must be one of {', '.join(STARTS)}")
    starts_at = _number(data, "startDate", "startsAt")
    wait = _number(data, "waitMinutes")
    conditions: dict[str, Any] = {}
    games = _number(data, "conditions.nbRatedGame.nb", integer=True)
    if games:
        conditions["min_rated_games"] = int(_within(games, 0, 200, "conditions.nbRatedGame.nb"))
    for key, name in (("min_rating", "minRating"), ("max_rating", "maxRating")):
        value = _number(data, f"conditions.{name}.rating", integer=True)
        if value is not None:
            conditions[key] = int(_within(value, 400, 3000, f"conditions.{name}.rating"))
    conditions["bots"] = _flag(data, "conditions.bots", False)
    password = _get(data, "password")
    if password is not None:
        if not isinstance(password, str) or not 1 <= len(password) <= 60:
            raise SpecError("password must be 1 to 60 characters")
        conditions["password"] = password
    try:
        Settings(conditions=conditions).entry()
    except ValueError as e:
        raise SpecError(f"conditions: {e}") from None
    return {
        "name": _text(data, "name", default_name, NAME_LENGTH),
        "variant": variant,
        "clock_limit": limit,
        "clock_increment": increment,
        "days": int(days) if days is not None else None,
        "rated": _flag(data, "rated", True),
        "starts_at": None if starts_at is None else starts_at / 1000.0,  # lichess: milliseconds
        "wait_minutes": _within(
            wait if wait is not None else 5.0, 0, MAX_WAIT_DAYS * 1440, "waitMinutes"
        ),
        "settings": {
            "start": start,
            "conditions": conditions,
            "description": _text(data, "description", "", 400),
        },
    }


def arena_spec(data: dict[str, Any]) -> Spec:
    """The event of ``POST /api/tournament``: an arena (lichess's fields: ``name``,
    ``clockTime`` minutes, ``clockIncrement``, ``minutes``, ``startDate`` ms or
    ``waitMinutes``, ``variant``, ``rated``, ``berserkable``, ``streakable``, ``password``,
    ``conditions.*``; ours: ``start``), or with ``system=robin`` a round robin (``days`` for
    correspondence, ``cycles``, ``microMatch``, ``maxPlayers``) and ``system=match`` a match
    of ``nbGames`` against ``opponent``."""
    system = _get(data, "system") or "arena"
    if system not in ("arena", "robin", "match"):
        raise SpecError("system must be arena, robin or match (Swiss: POST /api/swiss/new)")
    names = {"arena": "Arena", "robin": "Round robin", "match": "Match"}
    common = _common(data, system, names[system])
    settings = common.pop("settings")
    if system == "arena":
        minutes = _ranged(data, "minutes", 45, *ARENA_MINUTES, integer=True)
        settings.update(
            berserkable=_flag(data, "berserkable", True),
            streakable=_flag(data, "streakable", True),
        )
        return Spec("arena", minutes=int(minutes), settings=Settings(**settings), **common)
    days = common["days"]
    settings["round_days"] = days
    settings["round_delay"] = _ranged(data, "roundDelay", 10, 0, 3600)
    if system == "robin":
        cycles = int(_ranged(data, "cycles", 1, 1, 2, integer=True))
        size = int(_ranged(data, "maxPlayers", MAX_PLAYERS, 2, MAX_PLAYERS, integer=True))
        settings.update(
            cycles=cycles, micro_match=_flag(data, "microMatch", True), max_players=size
        )
        return Spec("robin", settings=Settings(**settings), **common)
    games = int(_ranged(data, "nbGames", 6, 1, MAX_MATCH_GAMES, integer=True))
    opponent = _get(data, "opponent")
    if not isinstance(opponent, str) or not opponent.strip():
        raise SpecError("a match needs opponent (a username)")
    settings.update(opponent=opponent.strip()[:30], max_players=2)
    return Spec("match", rounds=games, settings=Settings(**settings), **common)


def swiss_spec(data: dict[str, Any]) -> Spec:
    """The event of ``POST /api/swiss/new`` (lichess's fields: ``name``, ``clock.limit``,
    ``clock.increment``, ``nbRounds``, ``startsAt`` ms, ``roundInterval`` seconds (absent or
    ``-1``: the next round when the last game ends), ``variant``, ``rated``, ``password``,
    ``conditions.*``; ours: ``days`` a correspondence Swiss, ``start``, ``roundDelay``)."""
    common = _common(data, "swiss", "Swiss")
    settings = common.pop("settings")
    rounds = _ranged(data, "nbRounds", 7, *SWISS_ROUNDS, integer=True)
    interval = _number(data, "roundInterval")
    if interval is not None and interval < 0:
        interval = None
    if interval is not None:
        interval = _within(interval, 0, 7 * 86400, "roundInterval")
    settings.update(
        round_interval=interval,
        round_delay=_ranged(data, "roundDelay", 10, 0, 3600),
        round_days=common["days"],
    )
    return Spec("swiss", rounds=int(rounds), settings=Settings(**settings), **common)
