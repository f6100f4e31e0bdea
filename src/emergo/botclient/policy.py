"""Which challenges a bot accepts: the policy of ``emergo bot --accept`` and its decline reasons.

A challenge is read from the lichess-shaped JSON of the event stream (:class:`Challenge`); the
:class:`Policy` says whether to accept it or which of lichess's decline reason keys to give
(``variant``, ``tooFast``, ``tooSlow``, ``timeControl``, ``rated``, ``casual``, ``noBot``,
``onlyBot``, ``generic``; ``later`` is the bot's own when it is busy or stopping).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from emergo.geometry import VARIANTS

SPEEDS = ("ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence", "unlimited")
"""The speeds, fastest first: lichess's, and ``unlimited`` for a game without a clock or days."""
LIVE_SPEEDS = SPEEDS[:5]
"""The speeds of games with a clock (the others are played at the bot's own pace)."""
VARIANT_ALIASES = {"standard": "9x9"}
"""Variant keys read as ours: a server that calls the 9x9 board lichess's ``standard``."""

DECLINE_REASONS = (
    "generic",
    "later",
    "tooFast",
    "tooSlow",
    "timeControl",
    "rated",
    "casual",
    "standard",
    "variant",
    "noBot",
    "onlyBot",
)
"""lichess's decline reason keys (``POST /api/challenge/{id}/decline`` with ``reason``)."""

BotsRule = Literal["yes", "no", "only"]


def speed_of(limit: float, increment: float) -> str:
    """lichess's speed of a clock of ``limit`` seconds and ``increment`` seconds a move, from
    the estimated duration ``limit + 40 * increment``.

    >>> speed_of(60, 0), speed_of(180, 2), speed_of(600, 5), speed_of(1800, 20)
    ('bullet', 'blitz', 'rapid', 'classical')
    """
    total = limit + 40 * increment
    for bound, speed in ((29, "ultraBullet"), (179, "bullet"), (479, "blitz"), (1499, "rapid")):
        if total <= bound:
            return speed
    return "classical"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


@dataclass(frozen=True)
class Challenge:
    """What the bot needs of a challenge (the ``challenge`` of an event-stream message)."""

    id: str
    challenger: str
    """The challenger's id (lower case), ``""`` when the server sent none."""
    challenger_name: str
    challenger_is_bot: bool
    dest: str
    """The challenged player's id (lower case), ``""`` for an open challenge."""
    variant: str
    """Our variant key (``9x9``, ``7x7``, ``hex``), or the server's key when it is not ours."""
    speed: str
    rated: bool
    time_control: str
    """``clock``, ``correspondence`` or ``unlimited``."""
    limit: float | None
    """Seconds of the clock (``clock`` only)."""
    increment: float | None
    days: int | None
    direction: str
    """``in``, ``out`` or ``""`` (a server that does not say)."""
    status: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Challenge:
        challenger, dest = _object(data.get("challenger")), _object(data.get("destUser"))
        variant = data.get("variant")
        key = _text(variant.get("key")) if isinstance(variant, dict) else _text(variant)
        key = VARIANT_ALIASES.get(key, key) or "9x9"
        tc = _object(data.get("timeControl"))
        kind = _text(tc.get("type")) or ("clock" if "limit" in tc else "unlimited")
        limit, increment = _number(tc.get("limit")), _number(tc.get("increment"))
        days = _number(tc.get("daysPerTurn"))
        speed = _text(data.get("speed"))
        if kind == "unlimited":
            speed = "unlimited"
        elif kind == "correspondence":
            speed = "correspondence"
        elif speed not in SPEEDS and limit is not None:  # none, or the server's own ("live")
            speed = speed_of(limit, increment or 0.0)
        return cls(
            id=_text(data.get("id")),
            challenger=_text(challenger.get("id")).lower(),
            challenger_name=_text(challenger.get("name")) or _text(challenger.get("id")) or "?",
            challenger_is_bot=_text(challenger.get("title")).upper() == "BOT",
            dest=_text(dest.get("id")).lower(),
            variant=key,
            speed=speed or "unlimited",
            rated=data.get("rated") is True,
            time_control=kind,
            limit=limit,
            increment=increment,
            days=None if days is None else int(days),
            direction=_text(data.get("direction")),
            status=_text(data.get("status")),
        )

    @property
    def live(self) -> bool:
        """A game with a clock (it counts against ``--concurrency``)."""
        return self.time_control == "clock"

    def describe(self) -> str:
        """``9x9 5+3 rated`` and the like, for the log."""
        if self.time_control == "clock" and self.limit is not None:
            base = f"{self.limit / 60:g}" if self.limit >= 60 else f"{self.limit:g}s"
            tc = f"{base}+{self.increment or 0:g}"
        elif self.time_control == "correspondence":
            tc = f"{self.days or '?'} days a move"
        else:
            tc = "unlimited"
        return f"{self.variant} {tc} {'rated' if self.rated else 'casual'}"


def _names(text: str) -> frozenset[str]:
    return frozenset(word.strip().lower() for word in text.split(",") if word.strip())


@dataclass(frozen=True)
class Policy:
    """Which challenges to accept.  ``None`` in a set means no restriction of that kind.

    >>> policy = Policy.parse(["variant=9x9,hex", "speed=blitz,rapid", "mode=casual"])
    >>> policy.variants == {"9x9", "hex"}, policy.rated, policy.casual
    (True, False, True)
    """

    variants: frozenset[str] | None = None
    speeds: frozenset[str] | None = None
    rated: bool = True
    casual: bool = True
    users: frozenset[str] | None = None
    """Only these challengers (ids, lower case)."""
    blocked: frozenset[str] = frozenset()
    bots: BotsRule = "yes"
    """Challenges from bots: accepted (``yes``), declined (``no``), the only ones (``only``)."""
    nothing: bool = False
    """``--accept none``: decline every challenge."""

    KEYS = ("variant", "speed", "mode", "users", "block", "bots")

    @classmethod
    def parse(cls, words: Sequence[str]) -> Policy:
        """A policy from ``--accept`` words: ``KEY=V1,V2`` (keys :data:`KEYS`), or ``none``, or
        ``all`` (the default).  ValueError names the word that is wrong."""
        fields: dict[str, Any] = {}
        for word in words:
            if word in ("none", "all"):
                fields["nothing"] = word == "none"
                continue
            key, eq, value = word.partition("=")
            values = [v.strip() for v in value.split(",") if v.strip()]
            if not eq or key not in cls.KEYS:
                raise ValueError(
                    f"bad --accept word {word!r}: expected all, none or KEY=VALUES with KEY one "
                    f"of {', '.join(cls.KEYS)}"
                )
            if not values and key not in ("users", "block"):
                raise ValueError(f"--accept {key}= needs at least one value")
            if key == "variant":
                unknown = [v for v in values if v not in VARIANTS]
                if unknown:
                    raise ValueError(
                        f"--accept variant: unknown variant {unknown[0]!r} "
                        f"(expected {', '.join(VARIANTS)})"
                    )
                fields["variants"] = frozenset(values)
            elif key == "speed":
                unknown = [v for v in values if v not in SPEEDS]
                if unknown:
                    known = ", ".join(SPEEDS)
                    raise ValueError(
                        f"--accept speed: unknown speed {unknown[0]!r} (expected {known})"
                    )
                fields["speeds"] = frozenset(values)
            elif key == "mode":
                unknown = [v for v in values if v not in ("rated", "casual")]
                if unknown:
                    raise ValueError(
                        f"--accept mode: unknown mode {unknown[0]!r} (expected rated, casual)"
                    )
                fields["rated"], fields["casual"] = "rated" in values, "casual" in values
            elif key == "users":
                fields["users"] = _names(value)
            elif key == "block":
                fields["blocked"] = _names(value)
            else:
                if len(values) != 1 or values[0] not in ("yes", "no", "only"):
                    raise ValueError(f"--accept bots: expected yes, no or only, not {value!r}")
                fields["bots"] = values[0]
        return cls(**fields)

    def decline_reason(self, challenge: Challenge) -> str | None:
        """``None`` to accept ``challenge``, else the lichess reason key to decline it with."""
        if self.nothing:
            return "generic"
        who = challenge.challenger
        if who in self.blocked or (self.users is not None and who not in self.users):
            return "generic"
        if self.bots == "no" and challenge.challenger_is_bot:
            return "noBot"
        if self.bots == "only" and not challenge.challenger_is_bot:
            return "onlyBot"
        if challenge.variant not in VARIANTS or (
            self.variants is not None and challenge.variant not in self.variants
        ):
            return "variant"
        if self.speeds is not None and challenge.speed not in self.speeds:
            return self._speed_reason(challenge.speed)
        if challenge.rated and not self.rated:
            return "casual"  # lichess: "I'm only accepting casual games"
        if not challenge.rated and not self.casual:
            return "rated"  # lichess: "I'm only accepting rated games"
        return None

    def _speed_reason(self, speed: str) -> str:
        assert self.speeds is not None
        allowed = [SPEEDS.index(s) for s in self.speeds]
        if speed not in SPEEDS:
            return "timeControl"
        index = SPEEDS.index(speed)
        if index < min(allowed):
            return "tooFast"
        if index > max(allowed):
            return "tooSlow"
        return "timeControl"

    def describe(self) -> str:
        """The policy in words, for the log line at start."""
        if self.nothing:
            return "declining every challenge"
        parts = [
            ", ".join(sorted(self.variants)) if self.variants is not None else "every variant",
            ", ".join(s for s in SPEEDS if s in self.speeds)
            if self.speeds is not None
            else "every speed",
            "rated and casual"
            if self.rated and self.casual
            else "rated only"
            if self.rated
            else "casual only"
            if self.casual
            else "neither rated nor casual",
        ]
        who = "anyone" if self.users is None else "only " + ", ".join(sorted(self.users))
        if self.bots == "no":
            who += ", no bots"
        elif self.bots == "only":
            who += ", bots only"
        if self.blocked:
            who += ", blocking " + ", ".join(sorted(self.blocked))
        return f"accepting {'; '.join(parts)}; from {who}"
