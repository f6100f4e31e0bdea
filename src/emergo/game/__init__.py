"""Game flow: two players of any kind, a clock, takebacks, draw offers and the outcome (R18-R20).

A :class:`Game` is the round (:mod:`emergo.round`) played on one machine, in process: the
terminal game (``emergo play``) and notebooks drive it; a server applies the round itself.
It holds the board and decides who may do what; the interface only passes on what people do
and shows the events it gets.

Players are a :class:`Human` (moves come from the interface) or a :class:`Computer` (a
:class:`~emergo.search.Searcher` with a :class:`~emergo.search.Limit`), which thinks in a
background thread and plays when its search ends.  The rules end the game (R18 no pieces,
R19a blocked, R19b repetition); the players end it by resignation or agreement (R19c,
R20); the clock ends it by time forfeit (R20).

>>> from emergo.board import WHITE, BLACK
>>> game = Game(Human("Ann"), Human("Bob"))
>>> str(game.play("d4", by=WHITE)), str(game.play("e6", by=BLACK))
('d4', 'e6')
>>> game.offer_draw(by=WHITE) is None        # pending: Bob answers when he likes
True
>>> game.answer_draw(by=BLACK, accept=True)
>>> game.outcome.reason(), game.version
('draw by agreement (R19c)', 4)
>>> game.record().headers["Result"]
'1/2-1/2'

Thread safety: every method may be called from any thread.  One lock guards the state, so a
read (``game.board``, ``game.moves``, ``game.clock(WHITE)``...) sees one consistent moment,
and a request that is refused (:class:`GameError`, or a parser error such as
:class:`~emergo.errors.IllegalMoveError`) changes nothing.

Events: ``game.subscribe(callback)`` registers ``callback(event)``.  The events are the
round's (:mod:`emergo.round`: ``MovePlayed``, ``TakenBack``, ``DrawOffered``, ...), as a
server applying the round itself sends them, and two that only a local game has: a
computer's :class:`Thinking` and :class:`ComputerFailed`.  Callbacks run in the thread that
made the change -- the caller's for ``play``/``takeback``/..., the engine's thread for a
computer's :class:`Thinking` reports and moves, the clock's thread for a time forfeit -- or,
when two threads change the game at once, in the one already delivering; never while the
game's lock is held (a callback may call the game), one at a time, in the order of the
changes.  So an interface with a thread of its own (an event loop) hands events over to it
(``loop.call_soon_threadsafe``).  :attr:`Game.version` is the round's: every change bumps
it by one and all events of that change carry the new version, so a client that saw
version ``v`` knows what it missed; and a command it sends with ``version=v``
(:meth:`Game.play`, :meth:`~Game.takeback`, :meth:`~Game.offer_draw`,
:meth:`~Game.answer_draw`, :meth:`~Game.resign`) is refused with a
:class:`StaleVersionError` when the game has changed since -- checked under the lock, so an
engine's reply or a falling flag cannot slip in between the check and the change.

One module per concern, everything public imported here (``emergo.game.Game``...):

* :mod:`emergo.game.game`: :class:`Game`, the round behind a lock, the clock's watcher;
* :mod:`emergo.game.players`: :class:`Human`, :class:`Computer` and a computer's limit;
* :mod:`emergo.game.draws`: how a computer answers a draw offer (:func:`accepts_draw`);
* :mod:`emergo.game.feed`: the events a game sends and their delivery;
* :mod:`emergo.game.errors`: :class:`GameError`, :class:`StaleVersionError`.
"""

from __future__ import annotations

from emergo.clock import TimeControl
from emergo.game.draws import DRAW_ACCEPT_BELOW, DRAW_THINK_TIME, accepts_draw
from emergo.game.errors import GameError, StaleVersionError
from emergo.game.feed import ComputerFailed, Event, Thinking, events
from emergo.game.game import Game
from emergo.game.players import Computer, Human, Player
from emergo.levels import DEFAULT_MOVETIME

__all__ = [
    "DEFAULT_MOVETIME",
    "DRAW_ACCEPT_BELOW",
    "DRAW_THINK_TIME",
    "Computer",
    "ComputerFailed",
    "Event",
    "Game",
    "GameError",
    "Human",
    "Player",
    "StaleVersionError",
    "Thinking",
    "TimeControl",
    "accepts_draw",
    "events",
]
