"""The round: how one game is played, as a pure function (issue 19; lila's round module).

``apply(state, command, now) -> (state, events)`` is the whole of it.  A :class:`RoundState` is
a value (a database row, a message); a command is what a player (or the timer) does; ``now``
is the wall time in seconds, passed in, never read here.  Nothing here starts a thread or
touches a store: the online server reads a state, applies one command and writes the result
in one transaction; the local :class:`emergo.game.Game` is the same round behind a lock.

>>> from emergo.board import WHITE, BLACK
>>> state = RoundState.new(time_control=TimeControl.fischer(300, 2), now=0.0)
>>> state, events = apply(state, Move(WHITE, "d4"), now=3.0)
>>> state, events = apply(state, Move(BLACK, "E6"), now=5.0)   # any text the parser takes
>>> state.moves, state.version, state.clock.running == WHITE     # both moved: White's runs
(('d4', 'e6'), 2, True)
>>> [e.to_json()["t"] for e in apply(state, Resign(BLACK), now=9.0)[1]]
['gameOver']
>>> try:
...     apply(state, Move(BLACK, "d5"), now=9.0)
... except RoundError as refused:
...     print(refused)
it is not Black's turn

The contract (docs/architecture.md, "The round"):

* A refused command raises :class:`RoundError` (a ``ValueError`` saying why: "it is not
  Black's turn", "the game is over: ...", the board's ``IllegalMoveError`` text) and nothing
  changed.  A command that changes nothing (a ``Timeout`` before anything is due) returns the
  same state and no events.  Every change bumps :attr:`RoundState.version` by exactly 1, and
  all events of that change carry the new version.
* Time is settled first.  A move by the side to move is charged on its clock first (its
  ``lag`` compensated up to the quota, :mod:`emergo.clock`): a move that comes after its flag
  fell ends the game on time instead, and a first move after its deadline aborts it.  Any
  other command first does what :class:`Timeout` would do at ``now``; when that ends the game,
  that is the result and the command is not applied.
* :func:`due` is the next wall time at which ``Timeout()`` changes the state; the online server
  stores it as the game's timer.

The rules chosen (lichess's facts, our code):

* **When the clock starts.**  Online (``local=False``) the clock starts when both sides have
  made their first move; until then each first move has a deadline, counted from the game's
  creation (or the previous move, or a takeback), of :data:`FIRST_MOVE_SECONDS` by the
  control's category: 15 s ultrabullet, 20 s bullet, 25 s blitz, 30 s rapid, 35 s classical,
  and the whole days of a correspondence move.  A missed deadline aborts the game
  (``Termination.ABORTED``, no result).  Unlimited games have no deadlines.  A local game
  (``local=True``, :class:`emergo.game.Game`) starts its clock with :class:`StartClock` (or
  its first move), has no deadlines, and no lag compensation.
* **Flags.**  A timer flags the running side :meth:`~emergo.clock.Clock.flag_grace` seconds
  (its lag quota, at most 2 s) after its time ran out, so that a move on the wire that would be
  compensated is not pre-empted.  Loss on time: ``Termination.TIME_FORFEIT`` (R20).
* **Abort**: either side, only before both sides have moved (fewer than 2 plies in the round).
* **Resign**: either side, any time while the game goes on (lichess asks for an abort before
  both sides have moved; a resignation then is the player's choice here).
* **Draw offers** (R19c): a side may offer at any time; its offer stands through its own moves;
  the other side accepts (:class:`AnswerDraw`, or an offer of its own, or a move with
  ``offering_draw``) or declines (:class:`AnswerDraw`, or any other move of its).  An offer
  twice is refused.
* **Takebacks**: a side with a move in the round may propose; the other side accepts or
  declines; a proposal meets a proposal as an acceptance; any move ends the proposal (the
  event says declined, by the mover).  Accepted, it takes back the proposer's last move and
  the reply after it when there is one (one or two plies, as lila's ``Takebacker``).  The
  clocks go back to what they were after the ply the game returns to (the time since is
  given back; ``clock_history`` keeps them), or stay as they are when the round does not know
  that ply (a game resumed later).  Online, going back before both sides' first moves stops
  the clock again.  A local game may also take back a move that ended it by the rules (R18,
  R19a, R19b): the game goes on.
* **Claims** (lila's ``RoundSocket``): when the server has seen the opponent gone longer than
  :func:`claim_grace` (40 s; 80 s rapid; 120 s classical; 30 days for correspondence and
  unlimited games), after both sides have moved, a side may claim the win (only while the
  opponent is to move) or a draw: ``Termination.ABANDONED``.  Presence is the server's to
  measure: the command carries ``opponent_gone_since``.

The board of a state (:meth:`RoundState.board`) comes from a cache keyed by (variant, root,
moves), so a server that builds the state from a database row for each command does not
replay the game each time; a miss replays the canonical move texts with checked pushes (about
8 microseconds a ply, ``tools/bench_round.py``).

One module per concern, everything public imported here (``emergo.round.apply``...):

* :mod:`emergo.round.commands`: what players (and the timer) do;
* :mod:`emergo.round.events`: what happened, each event with its version and ``to_json()``;
* :mod:`emergo.round.state`: :class:`RoundState`, the game as a value, and its JSON;
* :mod:`emergo.round.boards`: the boards of states, cached by (variant, root, moves);
* :mod:`emergo.round.timing`: first-move deadlines, flags, claim graces, :func:`due`;
* :mod:`emergo.round.rules`: :func:`apply`, the rules of the round command by command;
* :mod:`emergo.round.errors`: :class:`RoundError`.
"""

from __future__ import annotations

from emergo.clock import TimeControl
from emergo.round.boards import BOARD_CACHE_SIZE
from emergo.round.commands import (
    Abort,
    AnswerDraw,
    AnswerTakeback,
    ClaimDraw,
    ClaimVictory,
    Command,
    Move,
    OfferDraw,
    ProposeTakeback,
    Resign,
    StartClock,
    Timeout,
)
from emergo.round.errors import RoundError
from emergo.round.events import (
    ClockStarted,
    DrawDeclined,
    DrawOffered,
    Event,
    GameOver,
    MovePlayed,
    TakebackDeclined,
    TakebackProposed,
    TakenBack,
)
from emergo.round.rules import Result, apply
from emergo.round.state import RoundState
from emergo.round.timing import (
    CLAIM_GRACE_CORRESPONDENCE,
    CLAIM_GRACE_FACTOR,
    CLAIM_GRACE_LIVE,
    FIRST_MOVE_SECONDS,
    claim_grace,
    due,
    first_move_time,
)

__all__ = [
    "BOARD_CACHE_SIZE",
    "CLAIM_GRACE_CORRESPONDENCE",
    "CLAIM_GRACE_FACTOR",
    "CLAIM_GRACE_LIVE",
    "FIRST_MOVE_SECONDS",
    "Abort",
    "AnswerDraw",
    "AnswerTakeback",
    "ClaimDraw",
    "ClaimVictory",
    "ClockStarted",
    "Command",
    "DrawDeclined",
    "DrawOffered",
    "Event",
    "GameOver",
    "Move",
    "MovePlayed",
    "OfferDraw",
    "ProposeTakeback",
    "Resign",
    "Result",
    "RoundError",
    "RoundState",
    "StartClock",
    "TakebackDeclined",
    "TakebackProposed",
    "TakenBack",
    "TimeControl",
    "Timeout",
    "apply",
    "claim_grace",
    "due",
    "first_move_time",
]
