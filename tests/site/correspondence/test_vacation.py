"""Vacation (emergo.server.correspondence.vacation): the allowance; correspondence clocks stopped
on the round."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from emergo.board import BLACK, WHITE, Termination
from emergo.clock import DAY, TimeControl
from emergo.round import Move, RoundState, Timeout, apply, due
from emergo.server.correspondence.vacation import (
    DAYS_A_YEAR,
    MAX_DAYS,
    Period,
    VacationError,
    Vacations,
    credit,
    timer_due,
)

T0 = 1_800_000_000.0


# --- the allowance -------------------------------------------------------------------------------


def test_a_new_player_holds_30_days_and_earns_30_a_year() -> None:
    assert DAYS_A_YEAR == MAX_DAYS == 30
    v = Vacations(T0)
    assert v.left(T0) == 30 * DAY and v.left(T0 + 400 * DAY) == 30 * DAY  # at most 30 held
    v = v.start(T0 + 10 * DAY).stop(T0 + 30 * DAY)  # 20 days away
    assert v.left(T0 + 30 * DAY) == pytest.approx(10 * DAY)
    assert v.left(T0 + 30 * DAY + 365 * DAY / 30 * 5) == pytest.approx(15 * DAY)  # 5 earned
    assert v.left(T0 + 30 * DAY + 365 * DAY) == 30 * DAY


def test_a_vacation_ends_by_itself_when_the_days_run_out() -> None:
    v = Vacations(T0).start(T0 + DAY)
    assert v.ends_at() == T0 + 31 * DAY
    assert v.on_vacation(T0 + 30 * DAY) and not v.on_vacation(T0 + 31 * DAY)
    assert v.left(T0 + 31 * DAY) == 0
    assert v.left(T0 + 31 * DAY + 365 * DAY / 30) == pytest.approx(DAY)  # earning again
    assert v.spans() == [(T0 + DAY, T0 + 31 * DAY)]
    with pytest.raises(VacationError, match="not on vacation"):
        v.stop(T0 + 40 * DAY)
    again = v.start(T0 + 31 * DAY + 365 * DAY / 30)  # one day earned: a day's vacation
    assert again.periods[0] == Period(T0 + DAY, T0 + 31 * DAY)
    assert again.ends_at() == pytest.approx(T0 + 32 * DAY + 365 * DAY / 30)


def test_starting_and_stopping_are_refused_when_they_make_no_sense() -> None:
    v = Vacations(T0).start(T0)
    with pytest.raises(VacationError, match="on vacation already"):
        v.start(T0 + DAY)
    with pytest.raises(VacationError, match="no vacation left"):
        v.start(T0 + 30 * DAY)  # it ran out this very moment, nothing earned yet
    with pytest.raises(VacationError, match="not on vacation"):
        Vacations(T0).stop(T0 + DAY)
    with pytest.raises(VacationError, match="time order"):
        Vacations(T0, (Period(T0 - 1, T0),))
    with pytest.raises(VacationError, match="only the last"):
        Vacations(T0, (Period(T0), Period(T0 + DAY, T0 + 2 * DAY)))
    with pytest.raises(VacationError, match="ends after it starts"):
        Period(T0, T0 - 1)
    with pytest.raises(VacationError, match="finite"):
        Vacations(T0).start(float("nan"))


@given(
    st.lists(st.tuples(st.floats(0, 60 * DAY), st.floats(0, 60 * DAY)), max_size=8),
    st.floats(0, 800 * DAY),
)
def test_never_more_than_30_days_held_nor_less_than_0(
    steps: list[tuple[float, float]], later: float
) -> None:
    v, now = Vacations(T0), T0
    for wait, length in steps:
        now += wait
        if v.on_vacation(now) or v.left(now) <= 0:
            continue
        v = v.start(now)
        now += length
        if v.on_vacation(now):
            v = v.stop(now)
    assert 0 <= v.left(now + later) <= MAX_DAYS * DAY
    away = sum(e - s for s, e in v.spans())
    assert away <= MAX_DAYS * DAY + (now - T0) * DAYS_A_YEAR / 365 + 1e-6


# --- the correspondence clock --------------------------------------------------------------------


def correspondence_game(days: float = 3) -> RoundState:
    """Both have moved at T0 and T0 + 1 day: White's clock runs, 3 days a move."""
    state = RoundState.new(time_control=TimeControl.correspondence(days), now=T0)
    state, _ = apply(state, Move(WHITE, "d4"), T0)
    state, _ = apply(state, Move(BLACK, "e6"), T0 + DAY)
    assert state.clock is not None and state.clock.running == WHITE
    return state


def credited(
    state: RoundState, vacations: Vacations, until: float | None, now: float
) -> RoundState:
    assert state.clock is not None
    return replace(state, clock=credit(state.clock, WHITE, vacations, until, now))


def test_vacation_stops_and_restarts_a_correspondence_clock() -> None:
    state = correspondence_game()
    flag = due(state)
    assert flag == T0 + 4 * DAY
    # White goes away a day into his turn, for ten days
    away = Vacations(T0 - 100 * DAY).start(T0 + 2 * DAY)
    # the sweep does not look at the game before his vacation can end
    assert timer_due(flag, state.clock, WHITE, away) == T0 + 32 * DAY
    back = away.stop(T0 + 12 * DAY)
    # back, the server credits the ten days: the clock shows what it showed when he left
    state = credited(state, back, None, T0 + 12 * DAY)
    assert state.clock is not None
    assert state.clock.remaining(WHITE, T0 + 12 * DAY) == pytest.approx(2 * DAY)
    assert due(state) == T0 + 14 * DAY
    assert timer_due(due(state), state.clock, WHITE, back) == T0 + 14 * DAY
    # and it runs again: at the new due the sweep flags him
    same, events = apply(state, Timeout(), T0 + 14 * DAY - 1)
    assert same is state and not events
    over, _ = apply(state, Timeout(), T0 + 14 * DAY)
    assert over.outcome is not None and over.outcome.termination is Termination.TIME_FORFEIT


def test_a_move_on_vacation_is_not_lost_on_time() -> None:
    """Without the credit, his move five days into the turn would lose on time (R20)."""
    state = correspondence_game()
    away = Vacations(T0).start(T0 + 2 * DAY)
    late = T0 + 6 * DAY
    lost, _ = apply(state, Move(WHITE, "f4"), late)
    assert lost.outcome is not None and lost.outcome.termination is Termination.TIME_FORFEIT
    state = credited(state, away, None, late)
    moved, _ = apply(state, Move(WHITE, "f4"), late)
    assert moved.outcome is None and moved.moves[-1] == "f4"
    assert moved.clock is not None and moved.clock.running == BLACK


def test_credit_counts_each_moment_once() -> None:
    state = correspondence_game()
    away = Vacations(T0).start(T0 + 2 * DAY)
    once = credited(state, away, None, T0 + 5 * DAY)  # the sweep, three days into it
    twice = credited(once, away, T0 + 5 * DAY, T0 + 7 * DAY)  # again, two more days
    assert twice.clock is not None and state.clock is not None
    assert twice.clock.white == pytest.approx(state.clock.white + 5 * DAY)
    assert credited(twice, away, T0 + 7 * DAY, T0 + 7 * DAY) == twice


def test_only_his_running_correspondence_clock() -> None:
    state = correspondence_game()
    away = Vacations(T0).start(T0 + 2 * DAY)
    assert state.clock is not None
    # Black's vacation does not stop White's clock
    assert credit(state.clock, BLACK, away, None, T0 + 5 * DAY) == state.clock
    assert timer_due(due(state), state.clock, BLACK, away) == due(state)
    # a live game is not concerned
    live = RoundState.new(time_control=TimeControl.fischer(60), now=T0)
    live, _ = apply(live, Move(WHITE, "d4"), T0)
    live, _ = apply(live, Move(BLACK, "e6"), T0 + 1)
    assert live.clock is not None
    assert credit(live.clock, WHITE, away, None, T0 + 5 * DAY) == live.clock
    assert timer_due(due(live), live.clock, WHITE, away) == due(live)
    # time away before his turn began is not his turn's
    before = Vacations(T0 - 50 * DAY).start(T0 - 20 * DAY).stop(T0 - 10 * DAY)
    assert credit(state.clock, WHITE, before, None, T0 + 2 * DAY) == state.clock
