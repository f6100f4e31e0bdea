"""The clock as a value: time controls, seconds left, lag compensation (R20; issue 19).

Pure: nothing here reads the time or starts a thread.  Every method that needs the time takes
``now`` (wall time in seconds, e.g. ``time.time()``; a local game may pass monotonic seconds)
and returns a new :class:`Clock`.  The round (:mod:`emergo.round`) decides when a clock starts,
switches and stops; this module only keeps the arithmetic.

Time controls (:class:`TimeControl`):

* ``fischer``: ``base`` seconds for the game, ``increment`` more after each move, added only
  when the mover had time left (scalachess's ``Clock.step``).
* ``per-move``: at most ``base`` seconds for every move; unused time is not kept.
* ``correspondence``: ``base = days * 86400`` seconds for every move (days per move); it
  behaves as ``per-move`` and has no lag compensation.
* Unlimited is ``None``: no clock.

Speeds.  :attr:`TimeControl.speed` is ``"live"`` (fischer, per-move) or ``"correspondence"``;
:func:`speed_of` says ``"correspondence"`` for ``None`` too (unlimited games are rated with
correspondence games, as on lichess).  :attr:`TimeControl.category` is lichess's finer speed
from the estimated time a side uses, ``estimate = base + 40 * increment`` (a per-move control:
``40 * base``): ``ultrabullet`` below 30 s, ``bullet`` below 180 s, ``blitz`` below 480 s,
``rapid`` below 1500 s, else ``classical`` (and ``correspondence``).  The round's first-move
deadlines and claim grace periods depend on it.

Lag compensation (scalachess's ``LagTracker``).  A server measures or is told how long a move
took on the network (``lag``); up to ``quota`` seconds of it are not charged.  Each move refills
the quota by ``quota_gain``, bounded:

* ``quota_gain = min(1.0, 0.15 + 0.004 * estimate)`` seconds (:func:`lag_quota_gain`; a 1+0
  game: 0.39 s, 3+2 and slower: 1 s);
* the quota starts at ``3 * quota_gain`` (:data:`LAG_QUOTA_START`) and never exceeds
  ``7 * quota_gain`` (:data:`LAG_QUOTA_MAX`);
* compensation of a move = ``min(lag, quota)``; then ``quota = min(quota + gain - comp, max)``.

Correspondence clocks and local games (``Clock.new(control, lag_compensation=False)``) have
``quota_gain = 0``: no compensation and no flag grace.

Flag grace.  A timer that finds the running side out of time waits :meth:`Clock.flag_grace`
more seconds, ``min(quota, 2.0)`` (:data:`FLAG_GRACE_MAX`), before it flags: a move may still
be on the wire, and it would be compensated up to that much (scalachess
``outOfTime(withGrace = true)``).

>>> c = Clock.new(TimeControl.fischer(60, 1)).start(True, now=1000.0)
>>> round(c.remaining(True, now=1010.0), 3)
50.0
>>> c = c.switch(now=1010.0, lag=0.25)     # White moved; 0.25 s of lag not charged; +1
>>> (round(c.white, 2), c.black, c.running, c.since)
(51.25, 60.0, False, 1010.0)
>>> c.flag_at()
1070.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeAlias

from emergo.board import BLACK, COLOR_NAMES, WHITE, Color

__all__ = [
    "DAY",
    "ESTIMATED_MOVES",
    "FLAG_GRACE_MAX",
    "LAG_QUOTA_MAX",
    "LAG_QUOTA_START",
    "SPEED_CATEGORIES",
    "Clock",
    "TimeControl",
    "color_key",
    "color_of",
    "lag_quota_gain",
    "speed_of",
]

DAY = 86400.0
"""Seconds in a day: a correspondence control's ``base`` is ``days * DAY``."""
ESTIMATED_MOVES = 40
"""Moves a side is expected to make (lichess): the estimate is ``base + 40 * increment``."""
SPEED_CATEGORIES: tuple[tuple[str, float], ...] = (
    ("ultrabullet", 30.0),
    ("bullet", 180.0),
    ("blitz", 480.0),
    ("rapid", 1500.0),
)
"""A live control's category is the first whose bound its estimate is below, else classical."""
LAG_QUOTA_GAIN_MAX = 1.0
"""Seconds: the most a move refills the lag quota (scalachess: 100 centiseconds)."""
LAG_QUOTA_GAIN_BASE = 0.15
"""Seconds of quota gain of any live control (scalachess: 15 centiseconds)."""
LAG_QUOTA_GAIN_PER_SECOND = 0.004
"""Quota gain per second of the estimate (scalachess: estimate * 2 / 5 centiseconds)."""
LAG_QUOTA_START = 3
"""The quota a side starts with, in quota gains."""
LAG_QUOTA_MAX = 7
"""The most quota a side may hold, in quota gains."""
FLAG_GRACE_MAX = 2.0
"""Seconds: the most a timer waits past the flag for a compensated move (scalachess: 2 s)."""

Kind: TypeAlias = Literal["fischer", "per-move", "correspondence"]
_KINDS = ("fischer", "per-move", "correspondence")
_COLOR_KEYS = {WHITE: "white", BLACK: "black"}


def _seconds(value: object, what: str, *, positive: bool) -> float:
    """``value`` as seconds: a finite number, more than 0 (``positive``) or 0 or more."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = float(value)
        if math.isfinite(number) and (number > 0 or (number == 0 and not positive)):
            return number
    bound = "more than 0" if positive else "0 or more"
    raise ValueError(f"{what} must be {bound} seconds, not {value!r}")


@dataclass(frozen=True)
class TimeControl:
    """How much time the players have (R20: who runs out of it loses).

    ``fischer``: ``base`` seconds for the game and ``increment`` more after each move.
    ``per-move``: at most ``base`` seconds for every move; unused time is not kept.
    ``correspondence``: ``base`` seconds (whole days) for every move, as ``per-move``.

    >>> TimeControl.fischer(300, 2).tag(), TimeControl.per_move(10).tag()
    ('300+2', '10/move')
    >>> TimeControl.correspondence(2).tag(), TimeControl.correspondence(2).base
    ('2d', 172800.0)
    >>> TimeControl.parse("300+2") == TimeControl.fischer(300, 2)
    True
    >>> TimeControl.fischer(600, 5).speed, TimeControl.fischer(600, 5).category
    ('live', 'rapid')
    """

    kind: Kind
    base: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"unknown time control kind {self.kind!r}: expected one of {_KINDS}")
        if not (isinstance(self.base, int | float) and math.isfinite(self.base) and self.base > 0):
            raise ValueError(f"a clock needs more than 0 seconds, not {self.base!r}")
        if not (
            isinstance(self.increment, int | float)
            and math.isfinite(self.increment)
            and self.increment >= 0
        ):
            raise ValueError(f"the increment must be 0 or more seconds, not {self.increment!r}")
        if self.kind != "fischer" and self.increment:
            raise ValueError(f"a {self.kind} clock has no increment")
        object.__setattr__(self, "base", float(self.base))  # one type, for JSON and equality
        object.__setattr__(self, "increment", float(self.increment))

    @classmethod
    def fischer(cls, base: float, increment: float = 0.0) -> TimeControl:
        return cls("fischer", base, increment)

    @classmethod
    def per_move(cls, seconds: float) -> TimeControl:
        return cls("per-move", seconds)

    @classmethod
    def correspondence(cls, days: float) -> TimeControl:
        """``days`` (more than 0) for every move."""
        if not (isinstance(days, int | float) and math.isfinite(days) and days > 0):
            raise ValueError(f"a correspondence clock needs more than 0 days, not {days!r}")
        return cls("correspondence", days * DAY)

    @property
    def days(self) -> float | None:
        """Days per move of a correspondence control, else ``None``."""
        return self.base / DAY if self.kind == "correspondence" else None

    @property
    def speed(self) -> str:
        """``live`` (fischer, per-move) or ``correspondence``."""
        return "correspondence" if self.kind == "correspondence" else "live"

    @property
    def estimate(self) -> float:
        """Seconds a side is expected to use: ``base + 40 * increment``; per move ``40 * base``."""
        if self.kind == "fischer":
            return self.base + ESTIMATED_MOVES * self.increment
        return ESTIMATED_MOVES * self.base

    @property
    def category(self) -> str:
        """lichess's speed: ultrabullet, bullet, blitz, rapid, classical or correspondence."""
        if self.kind == "correspondence":
            return "correspondence"
        estimate = self.estimate
        for name, below in SPEED_CATEGORIES:
            if estimate < below:
                return name
        return "classical"

    def tag(self) -> str:
        """The record's ``TimeControl`` tag: ``300+2`` (Fischer), ``10/move``, ``2d`` (days)."""
        if self.kind == "per-move":
            return f"{self.base:g}/move"
        if self.kind == "correspondence":
            return f"{self.base / DAY:g}d"
        return f"{self.base:g}+{self.increment:g}"

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """The time control of a :meth:`tag` (``300`` alone is Fischer without increment)."""
        t = text.strip()
        try:
            if t.endswith("/move"):
                return cls.per_move(float(t[: -len("/move")]))
            if t.endswith("d"):
                return cls.correspondence(float(t[:-1]))
            base, _, inc = t.partition("+")
            return cls.fischer(float(base), float(inc or 0))
        except ValueError:
            pass
        raise ValueError(f"not a time control: {text!r} (expected e.g. 300+2, 10/move or 2d)")

    def to_json(self) -> dict[str, Any]:
        """Exact (no rounding), unlike :meth:`tag`."""
        return {"kind": self.kind, "base": self.base, "increment": self.increment}

    @classmethod
    def from_json(cls, data: Any) -> TimeControl:
        if not isinstance(data, dict):
            raise ValueError(f"a time control is an object, not {type(data).__name__}")
        try:
            return cls(data["kind"], data["base"], data.get("increment", 0.0))
        except KeyError as e:
            raise ValueError(f"a time control needs {e.args[0]!r}") from None


def speed_of(control: TimeControl | None) -> str:
    """``live`` or ``correspondence``; unlimited (``None``) counts as correspondence (lichess).

    >>> speed_of(None), speed_of(TimeControl.fischer(60))
    ('correspondence', 'live')
    """
    return "correspondence" if control is None else control.speed


def lag_quota_gain(control: TimeControl) -> float:
    """Seconds of lag quota a move refills: ``min(1, 0.15 + 0.004 * estimate)``; 0 by days.

    >>> lag_quota_gain(TimeControl.fischer(60)), lag_quota_gain(TimeControl.fischer(300, 3))
    (0.39, 1.0)
    """
    if control.kind == "correspondence":
        return 0.0
    gain = LAG_QUOTA_GAIN_BASE + LAG_QUOTA_GAIN_PER_SECOND * control.estimate
    return round(min(LAG_QUOTA_GAIN_MAX, gain), 6)


@dataclass(frozen=True)
class Clock:
    """Both players' time as a value (scalachess's ``Clock``); every change returns a new one.

    ``white``/``black``: seconds left; for the running side, as of ``since``.
    ``running``: whose time runs (``None``: stopped); ``since``: when its turn began (wall
    time, seconds).  ``white_quota``/``black_quota``: lag compensation left per side;
    ``quota_gain``: what a move refills (0: no compensation).
    """

    control: TimeControl
    white: float
    black: float
    running: Color | None = None
    since: float | None = None
    white_quota: float = 0.0
    black_quota: float = 0.0
    quota_gain: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.control, TimeControl):
            raise ValueError(f"a clock's control is a TimeControl, not {self.control!r}")
        for name in ("white", "black", "white_quota", "black_quota", "quota_gain"):
            _seconds(getattr(self, name), f"the clock's {name}", positive=False)
        if self.running is not None and not isinstance(self.running, bool):
            raise ValueError(f"the running side is a colour or None, not {self.running!r}")
        if (self.running is None) != (self.since is None):
            raise ValueError("a running clock needs the time its turn began, a stopped one none")
        since = self.since
        if since is not None and not (
            isinstance(since, int | float) and not isinstance(since, bool) and math.isfinite(since)
        ):
            raise ValueError(f"the clock's since is a finite wall time, not {since!r}")

    @classmethod
    def new(cls, control: TimeControl, *, lag_compensation: bool = True) -> Clock:
        """Full time for both sides, stopped; lag compensation as the control gives it."""
        gain = lag_quota_gain(control) if lag_compensation else 0.0
        quota = LAG_QUOTA_START * gain
        return cls(control, control.base, control.base, None, None, quota, quota, gain)

    # --- reading ----------------------------------------------------------------------

    def left(self, color: Color) -> float:
        """Seconds stored for ``color``: for the running side, as of :attr:`since`."""
        return self.white if color else self.black

    def quota(self, color: Color) -> float:
        """Seconds of lag ``color``'s next move may have compensated."""
        return self.white_quota if color else self.black_quota

    def elapsed(self, now: float) -> float:
        """Seconds the running side has used since its turn began (never below 0)."""
        if self.since is None:
            return 0.0
        return max(now - self.since, 0.0)

    def remaining(self, color: Color, now: float) -> float:
        """Seconds ``color`` has left at ``now`` (0 at the least)."""
        left = self.left(color)
        if color == self.running:
            left -= self.elapsed(now)
        return max(left, 0.0)

    def flag_at(self) -> float | None:
        """The wall time the running side runs out of time; ``None`` when stopped."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.left(self.running)

    def flag_grace(self) -> float:
        """Seconds a timer waits past :meth:`flag_at`: ``min(quota, 2.0)`` of the running side."""
        if self.running is None:
            return 0.0
        return min(self.quota(self.running), FLAG_GRACE_MAX)

    def out_of_time(self, now: float) -> Color | None:
        """The running side if its time is up at ``now`` (no grace), else ``None``."""
        flag = self.flag_at()
        if flag is None or now < flag:
            return None
        return self.running

    # --- changing ---------------------------------------------------------------------

    def _with(self, color: Color, left: float) -> Clock:
        return replace(self, white=left) if color else replace(self, black=left)

    def start(self, color: Color, now: float) -> Clock:
        """``color``'s time runs from ``now`` (a running side's elapsed time is charged first)."""
        clock = self.stop(now)
        return replace(clock, running=color, since=now)

    def stop(self, now: float) -> Clock:
        """Charge the running side its elapsed time (down to 0 at the least) and stop."""
        if self.running is None:
            return self
        left = max(self.left(self.running) - self.elapsed(now), 0.0)
        return replace(self._with(self.running, left), running=None, since=None)

    def switch(self, now: float, lag: float = 0.0) -> Clock:
        """The running side moved at ``now``: charge it, refill or reset, start the other side.

        ``lag`` seconds of the elapsed time are not charged, up to the mover's quota.  With
        time left, a Fischer clock adds the increment and a per-move or correspondence clock
        resets the mover to ``base``; without (the move came too late), the mover keeps 0 and
        the clock stops: the round ends the game on time.
        """
        mover = self.running
        if mover is None:
            raise ValueError("the clock is not running: nobody can switch it")
        lag = lag if isinstance(lag, int | float) and math.isfinite(lag) and lag > 0 else 0.0
        quota = self.quota(mover)
        compensation = min(lag, quota)
        refilled = min(quota + self.quota_gain - compensation, LAG_QUOTA_MAX * self.quota_gain)
        refilled = max(refilled, 0.0)
        clock = (
            replace(self, white_quota=refilled) if mover else replace(self, black_quota=refilled)
        )
        left = self.left(mover) - max(self.elapsed(now) - compensation, 0.0)
        if left <= 0:
            return replace(clock._with(mover, 0.0), running=None, since=None)
        control = self.control
        left = left + control.increment if control.kind == "fischer" else control.base
        return replace(clock._with(mover, left), running=not mover, since=now)

    def give_time(self, color: Color, seconds: float) -> Clock:
        """``seconds`` more (0 or more) for ``color``."""
        seconds = _seconds(seconds, "the time given", positive=False)
        return self._with(color, self.left(color) + seconds)

    def set_left(self, white: float, black: float) -> Clock:
        """The seconds left of both sides, as of now for the running side (a takeback's)."""
        return replace(self, white=white, black=black)

    # --- JSON -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "control": self.control.to_json(),
            "white": self.white,
            "black": self.black,
            "running": None if self.running is None else _COLOR_KEYS[self.running],
            "since": self.since,
            "quota": [self.white_quota, self.black_quota],
            "quota_gain": self.quota_gain,
        }

    @classmethod
    def from_json(cls, data: Any) -> Clock:
        if not isinstance(data, dict):
            raise ValueError(f"a clock is an object, not {type(data).__name__}")
        try:
            quota = data.get("quota", [0.0, 0.0])
            if not (isinstance(quota, list) and len(quota) == 2):
                raise ValueError(f"a clock's quota is [white, black], not {quota!r}")
            return cls(
                TimeControl.from_json(data["control"]),
                data["white"],
                data["black"],
                color_of(data.get("running")),
                data.get("since"),
                quota[0],
                quota[1],
                data.get("quota_gain", 0.0),
            )
        except KeyError as e:
            raise ValueError(f"a clock needs {e.args[0]!r}") from None

    def __repr__(self) -> str:
        running = "stopped" if self.running is None else f"{COLOR_NAMES[self.running]} running"
        return f"<Clock {self.control.tag()} {self.white:.3f}/{self.black:.3f}, {running}>"


def color_of(value: object) -> Color | None:
    """A colour from JSON: ``"white"``, ``"black"`` or ``None``."""
    if value is None:
        return None
    if value == "white":
        return WHITE
    if value == "black":
        return BLACK
    raise ValueError(f'a colour is "white", "black" or null, not {value!r}')


def color_key(color: Color | None) -> str | None:
    """A colour for JSON: ``"white"``, ``"black"`` or ``None``."""
    return None if color is None else _COLOR_KEYS[color]
