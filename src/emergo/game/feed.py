"""What a :class:`~emergo.game.Game` sends its subscribers, and how (:class:`Feed`).

The events are the round's (:mod:`emergo.round.events`), and two that only a game hosted in
process has: a computer's :class:`Thinking` and :class:`ComputerFailed` (a server hosts no
computer: a bot plays there).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from emergo import round as _round
from emergo.board import Color
from emergo.search import SearchInfo

__all__ = ["ComputerFailed", "Event", "Feed", "Thinking", "events"]

log = logging.getLogger("emergo.game")


@dataclass(frozen=True)
class Thinking:
    """A computer's progress report (no version: it changes nothing)."""

    color: Color
    info: SearchInfo


@dataclass(frozen=True)
class ComputerFailed:
    """A computer's search failed (its engine died...); the game is paused (:meth:`Game.resume`).

    ``version``: the round's, unchanged (the round did not change).
    """

    color: Color
    message: str
    version: int


Event: TypeAlias = _round.Event | Thinking | ComputerFailed
"""What a :class:`Game` sends its subscribers."""


class events:
    """Every event type a :class:`Game` sends, in one namespace: ``events.MovePlayed``...

    All but :class:`Thinking` and :class:`ComputerFailed` are :mod:`emergo.round`'s.
    """

    MovePlayed: TypeAlias = _round.MovePlayed
    TakenBack: TypeAlias = _round.TakenBack
    DrawOffered: TypeAlias = _round.DrawOffered
    DrawDeclined: TypeAlias = _round.DrawDeclined
    TakebackProposed: TypeAlias = _round.TakebackProposed
    TakebackDeclined: TypeAlias = _round.TakebackDeclined
    GameOver: TypeAlias = _round.GameOver
    ClockStarted: TypeAlias = _round.ClockStarted
    Thinking: TypeAlias = Thinking
    ComputerFailed: TypeAlias = ComputerFailed


class Feed:
    """The subscribers of one game and the events queued for them.

    :meth:`emit` queues under the game's lock; :meth:`flush` delivers after the lock is left,
    in order, one thread at a time: a thread that finds another delivering leaves its events to
    it, so a callback that calls the game does not deliver newer events before older ones
    still in its batch.  ``changed`` (the game's condition) hears when a delivery ends.
    """

    def __init__(self, changed: threading.Condition) -> None:
        self._changed = changed
        self._subscribers: list[Callable[[Event], None]] = []
        self._outbox: list[Event] = []
        self._dispatcher: threading.Thread | None = None  # the thread delivering events

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``callback(event)`` on every event from now on; returns the unsubscribe call."""
        with self._changed:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._changed:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def emit(self, event: Event) -> None:
        """Queue an event (under the game's lock); :meth:`flush` delivers it."""
        self._outbox.append(event)

    def delivered(self) -> bool:
        """Is everything delivered, or is this thread the one delivering?  (Under the lock.)"""
        dispatcher = self._dispatcher
        return (not self._outbox and dispatcher is None) or dispatcher is threading.current_thread()

    def flush(self) -> None:
        """Deliver the queued events, in order, outside the lock (see the class)."""
        with self._changed:
            if self._dispatcher is not None:
                return
            self._dispatcher = threading.current_thread()
        try:
            while True:
                with self._changed:
                    if not self._outbox:
                        self._dispatcher = None
                        self._changed.notify_all()  # Game.wait() also waits for the news
                        return
                    batch, self._outbox = self._outbox, []
                    callbacks = list(self._subscribers)
                for event in batch:
                    for callback in callbacks:
                        try:
                            callback(event)
                        except Exception:  # an interface's bug must not stop the game
                            log.exception("game event callback failed on %r", event)
        except BaseException:
            with self._changed:
                self._dispatcher = None
                self._changed.notify_all()
            raise
