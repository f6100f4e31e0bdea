"""The players of a local game: a :class:`Human`, or a :class:`Computer` and its limit."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TypeAlias

from emergo.board import BLACK, WHITE
from emergo.clock import TimeControl
from emergo.levels import LEVEL_MAX, LevelSearcher, default_movetime
from emergo.players import backend as make_backend
from emergo.round import RoundState
from emergo.search import Limit, Searcher

__all__ = ["Computer", "Human", "Player", "computer_limit"]


@dataclass(frozen=True)
class Human:
    """A person: the interface passes on the moves and the answers.

    >>> Human("Ann").name
    'Ann'
    """

    name: str = "Human"


class Computer:
    """A computer player: a :class:`~emergo.search.Searcher` and the limit of its searches.

    ``limit`` ``None`` lets the game decide: the clock when it has one, else
    :func:`~emergo.levels.default_movetime` seconds a move (1, 4 on the hexagon).  A limit of
    its own is kept under a clock too (the tighter bound wins, :func:`emergo.search.time_budget`).
    ``on_close`` releases what the player holds (an engine process); :meth:`close` calls it once.

    >>> Computer.engine(level=3).name
    'emergo engine, level 3'
    >>> Computer.engine(movetime=0.5).limit.time
    0.5
    """

    def __init__(
        self,
        searcher: Searcher,
        limit: Limit | None = None,
        *,
        name: str | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        if limit is not None and limit.infinite:
            raise ValueError("a computer player needs a finite limit, not infinite")
        self.searcher = searcher
        self.limit = limit
        self.name: str = name or str(getattr(searcher, "name", "")) or type(searcher).__name__
        self._on_close = on_close

    @classmethod
    def engine(
        cls,
        level: int | None = None,
        *,
        movetime: float | None = None,
        seed: int = 0,
        backend: str = "auto",
        hash_mb: int = 16,
        name: str | None = None,
    ) -> Computer:
        """The built-in engine at ``level`` (1 weakest; default full strength), ``movetime`` a move.

        Without ``movetime`` the game decides the time (see :class:`Computer`).
        """
        if level is None:
            level = LEVEL_MAX
        if movetime is not None and not (math.isfinite(movetime) and movetime > 0):
            raise ValueError(f"movetime must be more than 0 seconds, not {movetime!r}")
        searcher = LevelSearcher(make_backend(backend, hash_mb=hash_mb), level, seed=seed)
        limit = Limit(time=movetime) if movetime is not None else None
        return cls(searcher, limit, name=name or f"emergo engine, level {searcher.level}")

    @classmethod
    def protocol(
        cls,
        command: str | list[str],
        *,
        limit: Limit | None = None,
        options: Mapping[str, object] | None = None,
        name: str | None = None,
        timeout: float | None = 10.0,
    ) -> Computer:
        """An external engine speaking the emergo protocol, started from ``command``.

        ``options`` are set after the handshake (e.g. ``{"Level": 5}``); :meth:`close` (or
        :meth:`Game.close`) ends the process.
        """
        from emergo.engine import ProtocolSearcher

        searcher = ProtocolSearcher.popen(command, timeout=timeout, options=options)
        return cls(searcher, limit, name=name or searcher.name, on_close=searcher.close)

    def close(self) -> None:
        """Release the player's resources (an engine process); idempotent."""
        on_close, self._on_close = self._on_close, None
        if on_close is not None:
            on_close()

    def __repr__(self) -> str:
        return f"Computer({self.name!r}, {self.limit!r})"


Player: TypeAlias = Human | Computer


def computer_limit(player: Computer, state: RoundState, now: float) -> Limit:
    """The limit of ``player``'s search in ``state`` at ``now``: its own, with the clock's time.

    Without a clock, its own limit or the variant's default time a move; under a Fischer
    clock both sides' time and increments (the search plans its own share); under a clock a
    move, the time left less a margin for the thread's start and the move's round trip.
    """
    clock = state.clock
    if clock is None:
        return player.limit or Limit(time=default_movetime(state.variant))
    control: TimeControl = clock.control
    own = player.limit or Limit()
    if control.kind == "fischer":
        return replace(
            own,
            wtime=clock.remaining(WHITE, now),
            btime=clock.remaining(BLACK, now),
            winc=control.increment,
            binc=control.increment,
        )
    left = clock.remaining(state.turn, now)
    budget = max(left - min(0.25, 0.1 * left), 0.0)  # thread start and move round trip
    return replace(own, time=budget if own.time is None else min(own.time, budget))
