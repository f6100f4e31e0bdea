"""The rules of the round, command by command: :func:`apply` (the contract: :mod:`emergo.round`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeAlias

from emergo.board import COLOR_NAMES, Color, Outcome, Termination
from emergo.clock import Clock
from emergo.round.boards import BOARDS, parse
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
from emergo.round.state import RULE_ENDINGS, RoundState, check_time
from emergo.round.timing import claim_grace, first_move_deadline, flag_due

__all__ = ["Result", "apply"]

Result: TypeAlias = tuple[RoundState, tuple[Event, ...]]
"""A command's outcome: the new state and the events of the change."""


def apply(state: RoundState, command: Command, now: float) -> Result:
    """The state after ``command`` at wall time ``now``, and what happened (see the module)."""
    if not isinstance(state, RoundState):
        raise RoundError(f"not a round state: {type(state).__name__}")
    now = check_time(now, "now")
    if isinstance(command, Timeout):
        return _timed_out(state, now) or (state, ())
    if isinstance(command, StartClock):
        return _timed_out(state, now) or _start_clock(state, now)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise RoundError(f"not a round command: {command!r}")
    by = command.by
    if not isinstance(by, bool):
        raise RoundError(f"by is a colour (True: White, False: Black), not {by!r}")
    if isinstance(command, Move) and state.outcome is None and by == state.turn:
        return _move(state, command, by, now)  # a move's own time is checked first
    ended = _timed_out(state, now)
    if ended is not None:
        return ended  # time decided the game before this command could count
    return handler(state, command, by, now)


def _timed_out(state: RoundState, now: float) -> Result | None:
    """What time has decided at ``now``: an abort, a flag; ``None`` when nothing."""
    if state.outcome is not None:
        return None
    deadline = first_move_deadline(state)
    if deadline is not None and now >= deadline:
        return _finish(state, now, Outcome(Termination.ABORTED, None))
    clock = state.clock
    if clock is not None and clock.running is not None and now >= flag_due(clock):
        return _finish(state, now, Outcome(Termination.TIME_FORFEIT, not clock.running))
    return None


def _clocks(clock: Clock | None) -> tuple[float, float] | None:
    return None if clock is None else (clock.white, clock.black)


def _finish(
    state: RoundState, now: float, outcome: Outcome, events: Sequence[Event] = ()
) -> Result:
    """End the game: the clock charged and stopped, offers gone."""
    version = state.version + 1
    clock = None if state.clock is None else state.clock.stop(now)
    new = replace(
        state,
        clock=clock,
        outcome=outcome,
        draw_offer=None,
        takeback_offer=None,
        version=version,
    )
    return new, (*events, GameOver(version, outcome))


def _live(state: RoundState) -> None:
    if state.outcome is not None:
        raise RoundError(f"the game is over: {state.outcome.reason()}")


def _name(color: Color) -> str:
    return COLOR_NAMES[color]


def _move(state: RoundState, command: Move, by: Color, now: float) -> Result:
    text, lag = command.text, command.lag
    if not isinstance(text, str):
        raise RoundError(f"a move is a text, not {type(text).__name__}")
    if not isinstance(command.offering_draw, bool):
        raise RoundError(f"offering_draw is true or false, not {command.offering_draw!r}")
    ok = isinstance(lag, int | float) and not isinstance(lag, bool) and math.isfinite(lag)
    if not ok or lag < 0:
        raise RoundError(f"lag must be 0 or more seconds, not {lag!r}")
    deadline = first_move_deadline(state)
    if deadline is not None and now >= deadline:
        return _finish(state, now, Outcome(Termination.ABORTED, None))
    clock = state.clock
    if clock is not None and clock.running is not None:
        clock = clock.switch(now, lag)
        if clock.running is None:  # no time was left: the flag fell before the move (R20)
            return _finish(state, now, Outcome(Termination.TIME_FORFEIT, not by))
    elif clock is not None and state.local:
        clock = clock.start(by, now).switch(now)
    key = state._key()
    board = BOARDS.take(key)
    try:
        move = parse(board, text)
    except ValueError as e:
        BOARDS.give(key, board)
        raise RoundError(str(e)) from None
    canonical = board.move_text(move)
    board.push(move)
    moves = (*state.moves, canonical)
    BOARDS.give((state.variant, state.root, moves), board)
    outcome = board.outcome()
    version = state.version + 1
    draw_offer = state.draw_offer
    late: list[Event] = []
    if draw_offer is not None and draw_offer != by:
        if command.offering_draw and outcome is None:
            outcome = Outcome(Termination.AGREEMENT, None)  # an offer meets an offer
        else:
            late.append(DrawDeclined(version, by))
        draw_offer = None
    elif command.offering_draw and draw_offer is None and outcome is None:
        draw_offer = by
        late.append(DrawOffered(version, by))
    if state.takeback_offer is not None:
        late.append(TakebackDeclined(version, by))
    if clock is not None and not state.local and clock.running is None and len(moves) >= 2:
        clock = clock.start(not by, now)  # both sides have moved: the clock starts
    if outcome is not None and clock is not None:
        clock = clock.stop(now)
    events: list[Event] = [MovePlayed(version, len(moves), canonical, by, _clocks(clock)), *late]
    if outcome is not None:
        events.append(GameOver(version, outcome))
        draw_offer = None
    history = state.clock_history
    if clock is not None:
        history = (*history, (clock.white, clock.black))
    new = replace(
        state,
        moves=moves,
        clock=clock,
        outcome=outcome,
        draw_offer=draw_offer,
        takeback_offer=None,
        version=version,
        last_move_at=now,
        clock_history=history,
    )
    return new, tuple(events)


def _move_refused(state: RoundState, command: Move, by: Color, now: float) -> Result:
    _live(state)
    raise RoundError(f"it is not {_name(by)}'s turn")


def _start_clock(state: RoundState, now: float) -> Result:
    if not state.local:
        raise RoundError("an online game's clock starts by itself, after both first moves")
    _live(state)
    clock = state.clock
    if clock is None:
        raise RoundError("the game has no clock")
    if clock.running is not None:
        return state, ()
    version = state.version + 1
    clock = clock.start(state.turn, now)
    new = replace(state, clock=clock, version=version)
    return new, (ClockStarted(version, state.turn, (clock.white, clock.black)),)


def _resign(state: RoundState, command: Resign, by: Color, now: float) -> Result:
    _live(state)
    return _finish(state, now, Outcome(Termination.RESIGNATION, not by))


def _abort(state: RoundState, command: Abort, by: Color, now: float) -> Result:
    _live(state)
    if len(state.moves) >= 2:
        raise RoundError("too late to abort: both sides have moved (resign instead)")
    return _finish(state, now, Outcome(Termination.ABORTED, None))


def _offer_draw(state: RoundState, command: OfferDraw, by: Color, now: float) -> Result:
    _live(state)
    if state.draw_offer == by:
        raise RoundError(f"{_name(by)} has already offered a draw")
    if state.draw_offer is not None:
        return _finish(state, now, Outcome(Termination.AGREEMENT, None))
    version = state.version + 1
    return replace(state, draw_offer=by, version=version), (DrawOffered(version, by),)


def _accept(command: AnswerDraw | AnswerTakeback) -> bool:
    if not isinstance(command.accept, bool):
        raise RoundError(f"accept is true or false, not {command.accept!r}")
    return command.accept


def _answer_draw(state: RoundState, command: AnswerDraw, by: Color, now: float) -> Result:
    _live(state)
    _accept(command)
    if state.draw_offer is None or state.draw_offer == by:
        raise RoundError(f"no draw offer to {_name(by)} waits for an answer")
    if command.accept:
        return _finish(state, now, Outcome(Termination.AGREEMENT, None))
    version = state.version + 1
    return replace(state, draw_offer=None, version=version), (DrawDeclined(version, by),)


def _takeback_open(state: RoundState) -> None:
    """Takebacks are for a game that goes on, or a local one the rules ended (R18, R19)."""
    ended = state.outcome
    if ended is not None and not (state.local and ended.termination in RULE_ENDINGS):
        _live(state)


def _last_move_of(state: RoundState, color: Color) -> int | None:
    """The index of ``color``'s last move in the round, if any."""
    n = len(state.moves)
    if n and state.mover(n - 1) == color:
        return n - 1
    if n >= 2:
        return n - 2
    return None


def _propose_takeback(state: RoundState, command: ProposeTakeback, by: Color, now: float) -> Result:
    _takeback_open(state)
    if state.takeback_offer == by:
        raise RoundError(f"{_name(by)} has already proposed a takeback")
    if state.takeback_offer is not None:
        return _take_back(state, not by, now)  # a proposal meets a proposal
    if _last_move_of(state, by) is None:
        raise RoundError(f"{_name(by)} has no move to take back")
    version = state.version + 1
    return replace(state, takeback_offer=by, version=version), (TakebackProposed(version, by),)


def _answer_takeback(state: RoundState, command: AnswerTakeback, by: Color, now: float) -> Result:
    _takeback_open(state)
    _accept(command)
    if state.takeback_offer is None or state.takeback_offer == by:
        raise RoundError(f"no takeback proposal to {_name(by)} waits for an answer")
    if command.accept:
        return _take_back(state, not by, now)
    version = state.version + 1
    return replace(state, takeback_offer=None, version=version), (TakebackDeclined(version, by),)


def _take_back(state: RoundState, proposer: Color, now: float) -> Result:
    """Take back the proposer's last move and the reply after it, if any."""
    first = _last_move_of(state, proposer)
    if first is None:
        raise RoundError(f"{_name(proposer)} has no move to take back")
    taken = state.moves[first:]
    key = state._key()
    board = BOARDS.take(key)
    for _ in taken:
        board.pop()
    moves = state.moves[:first]
    BOARDS.give((state.variant, state.root, moves), board)
    clock, history = state.clock, state.clock_history
    if clock is not None:
        ran = clock.running is not None
        clock = clock.stop(now)
        if len(history) > len(taken):  # the clocks as they were at that ply
            values = history[-len(taken) - 1]
            history = history[: -len(taken)]
        else:  # a ply this round never saw (a resumed game): the clocks stay as they are
            base = clock.control.base
            per_move = clock.control.kind != "fischer"
            values = (base, base) if per_move else (clock.white, clock.black)
            history = (values,)
        clock = clock.set_left(*values)
        turn = state.mover(len(moves))
        if (state.local and ran) or (not state.local and len(moves) >= 2):
            clock = clock.start(turn, now)
    version = state.version + 1
    new = replace(
        state,
        moves=moves,
        clock=clock,
        outcome=None,
        draw_offer=None,
        takeback_offer=None,
        version=version,
        last_move_at=now,
        clock_history=history,
    )
    return new, (TakenBack(version, taken, _clocks(clock)),)


def _claim(state: RoundState, by: Color, since: object, now: float, what: str) -> None:
    _live(state)
    gone_since = check_time(since, "opponent_gone_since")
    if len(state.moves) < 2:
        raise RoundError(f"both sides have not moved yet: abort instead of claiming {what}")
    if gone_since > now:
        raise RoundError("the opponent cannot have gone after now")
    grace = claim_grace(state.time_control)
    gone = now - gone_since
    if not gone > grace:
        raise RoundError(
            f"{_name(not by)} has been gone {gone:.0f} s: claiming {what} needs more than "
            f"{grace:.0f} s"
        )


def _claim_victory(state: RoundState, command: ClaimVictory, by: Color, now: float) -> Result:
    _live(state)
    if state.turn == by:
        raise RoundError(f"it is {_name(by)}'s turn: the win is claimed while the opponent moves")
    _claim(state, by, command.opponent_gone_since, now, "the win")
    return _finish(state, now, Outcome(Termination.ABANDONED, by))


def _claim_draw(state: RoundState, command: ClaimDraw, by: Color, now: float) -> Result:
    _claim(state, by, command.opponent_gone_since, now, "a draw")
    return _finish(state, now, Outcome(Termination.ABANDONED, None))


_HANDLERS: dict[type, Callable[[RoundState, Any, Color, float], Result]] = {
    Move: _move_refused,
    Resign: _resign,
    Abort: _abort,
    OfferDraw: _offer_draw,
    AnswerDraw: _answer_draw,
    ProposeTakeback: _propose_takeback,
    AnswerTakeback: _answer_takeback,
    ClaimVictory: _claim_victory,
    ClaimDraw: _claim_draw,
}
