"""Time in the round: first-move deadlines, flags, claim graces, and when the timer is due.

The facts are lila's: 15/20/25/30/35 s for each first move by category, a flag
:meth:`~emergo.clock.Clock.flag_grace` after the time ran out, 40 s (rapid 80, classical 120)
before a claim against a player who left.
"""

from __future__ import annotations

from emergo.clock import DAY, Clock, TimeControl
from emergo.round.state import RoundState

__all__ = [
    "CLAIM_GRACE_CORRESPONDENCE",
    "CLAIM_GRACE_FACTOR",
    "CLAIM_GRACE_LIVE",
    "FIRST_MOVE_SECONDS",
    "claim_grace",
    "due",
    "first_move_deadline",
    "first_move_time",
    "flag_due",
]

FIRST_MOVE_SECONDS = {
    "ultrabullet": 15.0,
    "bullet": 20.0,
    "blitz": 25.0,
    "rapid": 30.0,
    "classical": 35.0,
}
"""Seconds for each of the first two moves of an online live game, by category (lila)."""
CLAIM_GRACE_LIVE = 40.0
"""Seconds the opponent must be gone before a claim in a live game (lila's disconnect timeout)."""
CLAIM_GRACE_FACTOR = {"rapid": 2, "classical": 3}
"""Slower live categories wait this many times longer (lila)."""
CLAIM_GRACE_CORRESPONDENCE = 30 * DAY
"""Correspondence and unlimited games: 30 days (lila: no claim without a live clock)."""


def first_move_time(control: TimeControl | None) -> float | None:
    """Seconds for each first move of an online game; ``None`` (unlimited): no deadline.

    >>> first_move_time(TimeControl.fischer(180, 2)), first_move_time(None)
    (25.0, None)
    """
    if control is None:
        return None
    if control.kind == "correspondence":
        return control.base
    return FIRST_MOVE_SECONDS[control.category]


def claim_grace(control: TimeControl | None) -> float:
    """Seconds the opponent must have been gone before a claim (win or draw).

    >>> claim_grace(TimeControl.fischer(180, 2)), claim_grace(TimeControl.fischer(1800))
    (40.0, 120.0)
    """
    if control is None or control.kind == "correspondence":
        return CLAIM_GRACE_CORRESPONDENCE
    return CLAIM_GRACE_LIVE * CLAIM_GRACE_FACTOR.get(control.category, 1)


def due(state: RoundState) -> float | None:
    """The next wall time at which ``Timeout()`` would change the state, or ``None``."""
    if state.outcome is not None:
        return None
    deadline = first_move_deadline(state)
    if deadline is not None:
        return deadline
    if state.clock is not None and state.clock.running is not None:
        return flag_due(state.clock)
    return None


def first_move_deadline(state: RoundState) -> float | None:
    """When the first move now awaited is due (online, before both sides moved), else ``None``."""
    clock = state.clock
    if state.local or clock is None or clock.running is not None or len(state.moves) >= 2:
        return None
    seconds = first_move_time(clock.control)
    if seconds is None:
        return None
    since = state.last_move_at if state.last_move_at is not None else state.created_at
    return since + seconds


def flag_due(clock: Clock) -> float:
    """When the timer flags the running side: its time out, plus the grace of its lag quota."""
    flag = clock.flag_at()
    assert flag is not None
    return flag + clock.flag_grace()
