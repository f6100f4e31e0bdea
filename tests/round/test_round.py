"""The round (emergo.round): every command and rule, the timer, JSON, properties, the oracle."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from emergo.board import BLACK, WHITE, Board, Color, Outcome, Termination
from emergo.clock import DAY, TimeControl
from emergo.round import (
    Abort,
    AnswerDraw,
    AnswerTakeback,
    ClaimDraw,
    ClaimVictory,
    ClockStarted,
    Command,
    DrawDeclined,
    DrawOffered,
    Event,
    GameOver,
    Move,
    MovePlayed,
    OfferDraw,
    ProposeTakeback,
    Resign,
    RoundError,
    RoundState,
    StartClock,
    TakebackDeclined,
    TakebackProposed,
    TakenBack,
    Timeout,
    apply,
    claim_grace,
    due,
    first_move_time,
)
from emergo.round.boards import replay
from tests.plugins.common import examples, oracle_games, oracle_hex_games

T0 = 1_000_000.0
BLITZ = TimeControl.fischer(300, 2)  # 380 s estimated: blitz, 25 s first moves, 40 s claims


def legal_line(n: int, seed: int = 0, variant: str = "9x9") -> list[str]:
    """The texts of ``n`` random legal moves from the start (a game that lasts that long)."""
    while True:
        board, rng = Board(variant=variant), random.Random(seed)
        while len(board.move_stack) < n and board.outcome() is None:
            board.push(rng.choice(board.moves()))
        if len(board.move_stack) == n:
            return [board.move_text(m) for m in board.move_stack]
        seed += 1000


LINE = legal_line(12)


def step(state: RoundState, command: Command, now: float) -> tuple[RoundState, tuple[Event, ...]]:
    """apply(), checking the version rule on the way."""
    new, events = apply(state, command, now)
    if new is state:
        assert events == ()
    else:
        assert new.version == state.version + 1 and events
        assert all(e.version == new.version for e in events)
    return new, events


def play(state: RoundState, texts: list[str], start: float, gap: float = 1.0) -> RoundState:
    """Play ``texts`` one a ``gap`` seconds from ``start``, each by the side to move."""
    for i, text in enumerate(texts):
        state, _ = step(state, Move(state.turn, text), start + i * gap)
    return state


def online(control: TimeControl | None = BLITZ, **kw: Any) -> RoundState:
    return RoundState.new(time_control=control, now=T0, **kw)


# --- a new round -------------------------------------------------------------------------------


def test_new_round_from_the_start_and_from_a_position() -> None:
    state = online()
    assert (state.variant, state.root, state.moves, state.ply, state.turn) == (
        "9x9",
        "w 12/12",
        (),
        0,
        WHITE,
    )
    assert (state.version, state.created_at, state.last_move_at, state.outcome) == (
        0,
        T0,
        None,
        None,
    )
    assert state.clock is not None and state.clock.running is None
    assert state.time_control == BLITZ and not state.local and not state.is_over
    hexa = RoundState.new("hex", now=T0)
    assert hexa.root == "hex w 12/12" and hexa.clock is None
    black = RoundState.new("7x7", "7x7 b 3/4 b5:b c2:w c6:b d2:w d5:b d6:b e3:w f3:w f4:w", now=0)
    assert black.turn == BLACK


def test_new_round_resumes_moves_and_clocks() -> None:
    state = RoundState.new(time_control=BLITZ, now=T0, moves=["D4", "e6"], clocks=(250.5, 260))
    assert state.moves == ("d4", "e6") and state.turn == WHITE
    assert state.clock is not None and (state.clock.white, state.clock.black) == (250.5, 260)
    assert state.clock_history == ((250.5, 260),)


def test_new_round_over_by_the_rules_and_bad_input() -> None:
    over = RoundState.new(root="b 0/0 e5:b12w12", now=0)
    assert over.outcome == Outcome(Termination.NO_PIECES, WHITE) and over.is_over
    for kw, message in [
        ({"root": "w 99/99"}, "99"),
        ({"variant": "10x10"}, "10x10"),
        ({"moves": ["d4", "d4"]}, "illegal move"),
        ({"time_control": BLITZ, "clocks": (-1, 5)}, "bad clocks"),
    ]:
        with pytest.raises(RoundError, match=message):
            RoundState.new(now=0, **kw)  # type: ignore[arg-type]
    with pytest.raises(RoundError, match="finite time"):
        RoundState.new(now=math.nan)


# --- moves -------------------------------------------------------------------------------------


def test_a_move_is_played_in_canonical_text_and_bumps_the_version() -> None:
    state, events = step(online(None), Move(WHITE, "D4"), T0 + 1)
    assert state.moves == ("d4",) and state.turn == BLACK and state.last_move_at == T0 + 1
    assert events == (MovePlayed(1, 1, "d4", WHITE, None),)
    assert events[0].to_json() == {
        "t": "move",
        "version": 1,
        "ply": 1,
        "text": "d4",
        "color": "white",
        "clocks": None,
    }


def test_a_refused_move_changes_nothing() -> None:
    state = play(online(None), LINE[:1], T0)
    with pytest.raises(RoundError, match="it is not White's turn"):
        apply(state, Move(WHITE, LINE[1]), T0 + 5)
    with pytest.raises(RoundError, match="illegal move"):
        apply(state, Move(BLACK, LINE[0]), T0 + 5)  # the square is taken
    with pytest.raises(RoundError, match="'z9' is not a move"):
        apply(state, Move(BLACK, "z9"), T0 + 5)
    with pytest.raises(RoundError, match="lag must be"):
        apply(state, Move(BLACK, LINE[1], lag=-1), T0 + 5)
    with pytest.raises(RoundError, match="by is a colour"):
        apply(state, Move(1, LINE[1]), T0 + 5)  # type: ignore[arg-type]
    with pytest.raises(RoundError, match="not a round command"):
        apply(state, "d4", T0 + 5)  # type: ignore[arg-type]
    assert [str(m) for m in state.board().move_stack] == LINE[:1] and state.version == 1
    assert play(state, LINE[1:3], T0 + 6).moves == tuple(LINE[:3])


def test_no_move_after_the_end() -> None:
    state, _ = step(online(None), Resign(BLACK), T0)
    with pytest.raises(RoundError, match="the game is over: Black resigned"):
        apply(state, Move(WHITE, "d4"), T0 + 1)


def test_a_move_that_ends_the_game_by_the_rules() -> None:
    state = RoundState.new(root="w 0/0 e5:b11w12 e6:b", time_control=BLITZ, now=T0)
    state, events = step(state, Move(WHITE, "e5xe7"), T0 + 1)
    assert state.outcome == Outcome(Termination.NO_PIECES, WHITE)
    assert [type(e) for e in events] == [MovePlayed, GameOver]
    assert due(state) is None and state.clock is not None and state.clock.running is None


# --- the clock online --------------------------------------------------------------------------


def test_online_clock_starts_after_both_first_moves() -> None:
    state, events = step(online(), Move(WHITE, "d4"), T0 + 3)
    assert state.clock is not None and state.clock.running is None
    assert events[0] == MovePlayed(1, 1, "d4", WHITE, (300.0, 300.0))
    state, events = step(state, Move(BLACK, "e6"), T0 + 10)
    assert state.clock is not None and (state.clock.running, state.clock.since) == (WHITE, T0 + 10)
    state, events = step(state, Move(WHITE, LINE[2] if LINE[2] != "e6" else "c5"), T0 + 20)
    assert events[0].clocks == (292.0, 300.0)  # type: ignore[union-attr]
    assert state.clock is not None and state.clock.running == BLACK
    assert state.clock_history == ((300, 300), (300, 300), (300, 300), (292, 300))


def test_first_move_deadlines_abort_the_game() -> None:
    state = online()
    assert first_move_time(BLITZ) == 25 and due(state) == T0 + 25
    assert step(state, Timeout(), T0 + 24.999)[0] is state
    aborted, events = step(state, Timeout(), T0 + 25)
    assert aborted.outcome == Outcome(Termination.ABORTED, None)
    assert events == (GameOver(1, Outcome(Termination.ABORTED, None)),)
    assert events[0].to_json()["result"] == "*"
    white_moved, _ = step(state, Move(WHITE, "d4"), T0 + 10)
    assert due(white_moved) == T0 + 35  # Black's first move: 25 s from White's
    late, events = step(white_moved, Move(BLACK, "e6"), T0 + 35)
    assert late.moves == ("d4",) and late.outcome == Outcome(Termination.ABORTED, None)


@pytest.mark.parametrize(
    ("control", "seconds"),
    [
        (TimeControl.fischer(15), 15),
        (TimeControl.fischer(60, 1), 20),
        (BLITZ, 25),
        (TimeControl.fischer(600, 5), 30),
        (TimeControl.fischer(1800, 20), 35),
        (TimeControl.correspondence(3), 3 * DAY),
    ],
)
def test_first_move_time_by_category(control: TimeControl, seconds: float) -> None:
    assert first_move_time(control) == seconds
    assert due(online(control)) == T0 + seconds


def test_unlimited_games_have_no_timer() -> None:
    state = play(online(None), LINE[:1], T0)
    assert first_move_time(None) is None and due(state) is None
    assert step(state, Timeout(), T0 + 400 * DAY)[0] is state


def test_the_timer_flags_after_the_grace_and_a_late_move_loses() -> None:
    control = TimeControl.fischer(10)  # ultrabullet: quota gain 0.19 s, quota 0.57 s
    state = play(online(control), ["d4", "e6"], T0 + 1)  # White's clock runs from T0 + 2
    assert state.clock is not None and state.clock.flag_at() == T0 + 12
    flag = due(state)
    assert flag is not None and flag == pytest.approx(T0 + 12.57)
    assert step(state, Timeout(), math.nextafter(flag, 0))[0] is state
    flagged, events = step(state, Timeout(), flag)
    assert flagged.outcome == Outcome(Termination.TIME_FORFEIT, BLACK)
    assert flagged.clock is not None and flagged.clock.white == 0 and flagged.clock.black == 10
    assert events[-1].to_json()["reason"] == "White lost on time (R20)"
    late, events = step(state, Move(WHITE, "c5"), T0 + 12.3)  # in the grace, without lag
    assert late.moves == ("d4", "e6") and late.outcome == Outcome(Termination.TIME_FORFEIT, BLACK)
    saved, events = step(state, Move(WHITE, "c5", lag=0.5), T0 + 12.3)  # its lag is forgiven
    assert saved.moves[-1] == "c5" and saved.outcome is None
    assert saved.clock is not None and saved.clock.white == pytest.approx(0.2)


def test_a_command_after_the_flag_ends_the_game_on_time_instead() -> None:
    state = play(online(TimeControl.fischer(10)), ["d4", "e6"], T0)
    ended, events = step(state, OfferDraw(BLACK), T0 + 100)
    assert ended.outcome == Outcome(Termination.TIME_FORFEIT, BLACK)
    assert [type(e) for e in events] == [GameOver]


def test_correspondence_days_per_move() -> None:
    control = TimeControl.correspondence(2)
    state = play(online(control), ["d4", "e6"], T0, gap=DAY)
    assert state.clock is not None and state.clock.running == WHITE
    assert due(state) == T0 + DAY + 2 * DAY  # no grace by days
    state, events = step(state, Move(WHITE, "c5"), T0 + 2.5 * DAY)
    assert events[0].clocks == (2 * DAY, 2 * DAY)  # type: ignore[union-attr]
    over, _ = step(state, Timeout(), T0 + 4.5 * DAY)
    assert over.outcome == Outcome(Termination.TIME_FORFEIT, WHITE)


def test_per_move_clock_resets_the_mover() -> None:
    state = play(online(TimeControl.per_move(30)), ["d4", "e6"], T0)
    state, events = step(state, Move(WHITE, "c5"), T0 + 29)
    assert events[0].clocks == (30, 30)  # type: ignore[union-attr]


# --- a local round -----------------------------------------------------------------------------


def test_a_local_clock_starts_when_asked_without_deadlines_or_grace() -> None:
    state = RoundState.new(time_control=TimeControl.fischer(10, 1), now=T0, local=True)
    assert due(state) is None and state.clock is not None and state.clock.quota_gain == 0
    with pytest.raises(RoundError, match="starts by itself"):
        apply(online(), StartClock(), T0)
    with pytest.raises(RoundError, match="no clock"):
        apply(RoundState.new(now=T0, local=True), StartClock(), T0)
    started, events = step(state, StartClock(), T0 + 5)
    assert events == (ClockStarted(1, WHITE, (10, 10)),) and due(started) == T0 + 15
    assert step(started, StartClock(), T0 + 6)[0] is started
    moved, events = step(started, Move(WHITE, "d4"), T0 + 9)
    assert events[0].clocks == (7, 10)  # type: ignore[union-attr]
    # a first move without StartClock starts the clock with it
    moved, events = step(state, Move(WHITE, "d4"), T0 + 9)
    assert events[0].clocks == (11, 10)  # type: ignore[union-attr]
    assert moved.clock is not None and moved.clock.running == BLACK


# --- abort and resign --------------------------------------------------------------------------


def test_abort_only_before_both_sides_moved() -> None:
    for by in (WHITE, BLACK):
        for texts in ([], ["d4"]):
            state = play(online(), texts, T0)
            ended, _events = step(state, Abort(by), T0 + 3)
            assert ended.outcome == Outcome(Termination.ABORTED, None)
            assert ended.outcome.result() == "*"
    state = play(online(), ["d4", "e6"], T0)
    with pytest.raises(RoundError, match="too late to abort"):
        apply(state, Abort(WHITE), T0 + 3)


def test_resign_any_time_and_the_clock_stops() -> None:
    state = play(online(), ["d4", "e6"], T0)
    ended, _events = step(state, Resign(WHITE), T0 + 11)
    assert ended.outcome == Outcome(Termination.RESIGNATION, BLACK)
    assert ended.clock is not None and ended.clock.running is None
    assert ended.clock.white == 290.0
    assert step(online(), Resign(BLACK), T0)[0].outcome == Outcome(Termination.RESIGNATION, WHITE)
    with pytest.raises(RoundError, match="the game is over: White resigned"):
        apply(ended, Resign(BLACK), T0 + 12)


# --- draws -------------------------------------------------------------------------------------


def test_draw_offer_answered() -> None:
    state = play(online(None), LINE[:1], T0)
    offered, events = step(state, OfferDraw(BLACK), T0 + 1)
    assert offered.draw_offer == BLACK and events == (DrawOffered(2, BLACK),)
    with pytest.raises(RoundError, match="Black has already offered a draw"):
        apply(offered, OfferDraw(BLACK), T0 + 2)
    with pytest.raises(RoundError, match="no draw offer to Black waits"):
        apply(offered, AnswerDraw(BLACK, True), T0 + 2)
    declined, events = step(offered, AnswerDraw(WHITE, False), T0 + 2)
    assert declined.draw_offer is None and events == (DrawDeclined(3, WHITE),)
    agreed, events = step(offered, AnswerDraw(WHITE, True), T0 + 2)
    assert agreed.outcome == Outcome(Termination.AGREEMENT, None)
    met, _ = step(offered, OfferDraw(WHITE), T0 + 2)  # an offer meets an offer
    assert met.outcome == Outcome(Termination.AGREEMENT, None)
    with pytest.raises(RoundError, match="accept is true or false"):
        apply(offered, AnswerDraw(WHITE, "yes"), T0 + 2)  # type: ignore[arg-type]


def test_a_move_declines_the_others_offer_and_keeps_ones_own() -> None:
    state = play(online(None), LINE[:1], T0)
    offered, _ = step(state, OfferDraw(BLACK), T0 + 1)
    kept = play(offered, LINE[1:2], T0 + 2)
    assert kept.draw_offer == BLACK
    declined, events = step(kept, Move(WHITE, LINE[2]), T0 + 3)
    assert declined.draw_offer is None and [type(e) for e in events] == [MovePlayed, DrawDeclined]
    assert events[1] == DrawDeclined(declined.version, WHITE)


def test_a_move_offering_a_draw() -> None:
    state, events = step(online(None), Move(WHITE, LINE[0], offering_draw=True), T0)
    assert state.draw_offer == WHITE and [type(e) for e in events] == [MovePlayed, DrawOffered]
    agreed, events = step(state, Move(BLACK, LINE[1], offering_draw=True), T0 + 1)
    assert agreed.moves == tuple(LINE[:2]) and agreed.outcome == Outcome(
        Termination.AGREEMENT, None
    )
    assert [type(e) for e in events] == [MovePlayed, GameOver]


# --- takebacks ---------------------------------------------------------------------------------


def test_takeback_of_the_proposers_move_alone() -> None:
    state = play(online(None), LINE[:3], T0)  # White moved last
    proposed, events = step(state, ProposeTakeback(WHITE), T0 + 5)
    assert proposed.takeback_offer == WHITE and events == (TakebackProposed(4, WHITE),)
    with pytest.raises(RoundError, match="White has already proposed"):
        apply(proposed, ProposeTakeback(WHITE), T0 + 6)
    with pytest.raises(RoundError, match="no takeback proposal to White"):
        apply(proposed, AnswerTakeback(WHITE, True), T0 + 6)
    back, events = step(proposed, AnswerTakeback(BLACK, True), T0 + 6)
    assert back.moves == tuple(LINE[:2]) and events == (TakenBack(5, (LINE[2],), None),)
    assert back.takeback_offer is None and back.last_move_at == T0 + 6
    assert [str(m) for m in back.board().move_stack] == LINE[:2]


def test_takeback_of_the_proposers_move_and_the_reply() -> None:
    state = play(online(None), LINE[:4], T0)  # Black replied to White's last move
    proposed, _ = step(state, ProposeTakeback(WHITE), T0 + 5)
    back, events = step(proposed, AnswerTakeback(BLACK, True), T0 + 6)
    assert back.moves == tuple(LINE[:2]) and events[0].moves == tuple(LINE[2:4])  # type: ignore[union-attr]
    declined, events = step(proposed, AnswerTakeback(BLACK, False), T0 + 6)
    assert declined.takeback_offer is None and events == (TakebackDeclined(6, BLACK),)
    met, events = step(proposed, ProposeTakeback(BLACK), T0 + 6)  # a proposal meets one
    assert met.moves == tuple(LINE[:2])


def test_takeback_needs_a_move_of_ones_own_and_a_move_ends_it() -> None:
    state = play(online(None), LINE[:1], T0)
    with pytest.raises(RoundError, match="Black has no move to take back"):
        apply(state, ProposeTakeback(BLACK), T0 + 1)
    proposed, _ = step(state, ProposeTakeback(WHITE), T0 + 1)
    moved, events = step(proposed, Move(BLACK, LINE[1]), T0 + 2)
    assert moved.takeback_offer is None
    assert events[1:] == (TakebackDeclined(moved.version, BLACK),)
    over, _ = step(state, Resign(BLACK), T0 + 1)
    with pytest.raises(RoundError, match="the game is over"):
        apply(over, ProposeTakeback(WHITE), T0 + 2)


def test_takeback_restores_the_clocks_of_that_ply() -> None:
    control = TimeControl.fischer(60, 1)
    state = play(online(control), LINE[:2], T0 + 1)  # White's clock from T0 + 2
    state, _ = step(state, Move(WHITE, LINE[2]), T0 + 7)  # White 60 - 5 + 1
    state, _ = step(state, Move(BLACK, LINE[3]), T0 + 10)  # Black 60 - 3 + 1
    assert state.clock is not None and (state.clock.white, state.clock.black) == (56, 58)
    proposed, _ = step(state, ProposeTakeback(BLACK), T0 + 11)  # Black's own move
    back, events = step(proposed, AnswerTakeback(WHITE, True), T0 + 12)
    assert events == (TakenBack(back.version, (LINE[3],), (56.0, 60.0)),)
    assert back.clock is not None and (back.clock.running, back.clock.since) == (BLACK, T0 + 12)
    proposed, _ = step(state, ProposeTakeback(WHITE), T0 + 14)  # White's and Black's reply
    back, events = step(proposed, AnswerTakeback(BLACK, True), T0 + 15)
    assert back.moves == tuple(LINE[:2]) and events[0].clocks == (60.0, 60.0)  # type: ignore[union-attr]
    assert back.clock is not None and (back.clock.running, back.clock.since) == (WHITE, T0 + 15)
    assert back.clock_history == ((60, 60), (60, 60), (60, 60))


def test_online_takeback_before_both_first_moves_stops_the_clock() -> None:
    state = play(online(), LINE[:3], T0)
    proposed, _ = step(state, ProposeTakeback(BLACK), T0 + 5)
    back, _ = step(proposed, AnswerTakeback(WHITE, True), T0 + 6)
    assert back.moves == tuple(LINE[:1]) and back.clock is not None
    assert back.clock.running is None and due(back) == T0 + 6 + 25


def test_a_local_takeback_reopens_a_game_the_rules_ended() -> None:
    root = "w 0/0 e5:b11w12 e6:b"
    for local in (True, False):
        state = RoundState.new(root=root, now=T0, local=local)
        over = play(state, ["e5xe7"], T0)
        assert over.outcome == Outcome(Termination.NO_PIECES, WHITE)
        if not local:
            with pytest.raises(RoundError, match="the game is over"):
                apply(over, ProposeTakeback(WHITE), T0 + 1)
            continue
        proposed, _ = step(over, ProposeTakeback(WHITE), T0 + 1)
        back, _ = step(proposed, AnswerTakeback(BLACK, True), T0 + 1)
        assert back.outcome is None and back.moves == () and back.turn == WHITE


# --- claims ------------------------------------------------------------------------------------


def test_claim_victory_after_the_grace_while_the_opponent_is_to_move() -> None:
    state = play(online(), ["d4", "e6"], T0)  # White to move
    now = T0 + 100
    with pytest.raises(RoundError, match="White has been gone 40 s: claiming the win needs more"):
        apply(state, ClaimVictory(BLACK, now - 40), now)
    won, events = step(state, ClaimVictory(BLACK, now - 40.5), now)
    assert won.outcome == Outcome(Termination.ABANDONED, BLACK)
    assert events[-1].to_json()["reason"] == "White left the game: Black claimed the win (R20)"
    with pytest.raises(RoundError, match="it is White's turn"):
        apply(state, ClaimVictory(WHITE, now - 100), now)
    with pytest.raises(RoundError, match="cannot have gone after now"):
        apply(state, ClaimVictory(BLACK, now + 1), now)
    with pytest.raises(RoundError, match="abort instead"):
        apply(play(online(), ["d4"], T0), ClaimVictory(WHITE, T0 - 100), T0 + 10)


def test_claim_draw_either_side() -> None:
    state = play(online(), ["d4", "e6"], T0)
    drawn, _ = step(state, ClaimDraw(WHITE, T0), T0 + 41)
    assert drawn.outcome == Outcome(Termination.ABANDONED, None)
    assert drawn.outcome.result() == "1/2-1/2"
    with pytest.raises(RoundError, match="claiming a draw needs more than 40 s"):
        apply(state, ClaimDraw(BLACK, T0 + 10), T0 + 41)


@pytest.mark.parametrize(
    ("control", "grace"),
    [
        (BLITZ, 40),
        (TimeControl.fischer(60), 40),
        (TimeControl.fischer(600), 80),
        (TimeControl.fischer(1800), 120),
        (TimeControl.correspondence(1), 30 * DAY),
        (None, 30 * DAY),
    ],
)
def test_claim_grace_by_speed(control: TimeControl | None, grace: float) -> None:
    assert claim_grace(control) == grace


# --- JSON and the board ------------------------------------------------------------------------


def test_json_round_trip_and_events_json() -> None:
    state = play(online(), LINE[:4], T0)
    state, _ = step(state, OfferDraw(WHITE), T0 + 5)
    data = json.loads(json.dumps(state.to_json()))
    assert RoundState.from_json(data) == state
    assert data["clock"]["running"] == "white" and data["draw_offer"] == "white"
    kinds: dict[Event, str] = {
        MovePlayed(1, 1, "d4", WHITE, (1.0, 2.0)): "move",
        DrawOffered(1, WHITE): "drawOffered",
        DrawDeclined(1, WHITE): "drawDeclined",
        TakebackProposed(1, WHITE): "takebackProposed",
        TakebackDeclined(1, BLACK): "takebackDeclined",
        TakenBack(1, ("d4",), None): "takenBack",
        GameOver(1, Outcome(Termination.RESIGNATION, WHITE)): "gameOver",
        ClockStarted(1, WHITE, (1.0, 2.0)): "clockStarted",
    }
    for each, kind in kinds.items():
        assert json.loads(json.dumps(each.to_json()))["t"] == kind


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"moves": ["d4", "d4"]}, "move 2 'd4'"),
        ({"moves": ["D4"]}, "not canonical"),
        ({"root": "w 12/12 "}, "not a canonical"),
        ({"outcome": {"termination": "blocked", "winner": None}}, "did not end the game"),
        ({"outcome": {"termination": "nonsense", "winner": None}}, "bad round state"),
        ({"version": -1}, "version is a count"),
        ({"local": "yes"}, "local is true or false"),
        ({"created_at": "noon"}, "finite time"),
        ({"draw_offer": "red"}, "a colour"),
    ],
)
def test_from_json_refuses_what_is_inconsistent(change: dict[str, Any], message: str) -> None:
    data = play(online(None), LINE[:2], T0).to_json()
    with pytest.raises(RoundError, match=message):
        RoundState.from_json({**data, **change})


def test_from_json_refuses_a_clock_out_of_turn_and_offers_after_the_end() -> None:
    data = play(online(), LINE[:2], T0).to_json()
    data["clock"]["running"] = "black"
    with pytest.raises(RoundError, match="only the side to move's clock runs"):
        RoundState.from_json(data)
    over = step(online(None), Resign(WHITE), T0)[0].to_json()
    with pytest.raises(RoundError, match="no offers"):
        RoundState.from_json({**over, "draw_offer": "white"})
    with pytest.raises(RoundError, match="needs 'moves'"):
        RoundState.from_json({k: v for k, v in over.items() if k != "moves"})
    with pytest.raises(RoundError, match="is an object"):
        RoundState.from_json([])


def test_the_board_is_cached_shared_and_checked() -> None:
    state = play(online(None), LINE[:6], T0)
    board = state.board()
    assert board is state.board() is RoundState.from_json(state.to_json()).board()
    assert [str(m) for m in board.move_stack] == LINE[:6]
    after, _ = step(state, Move(state.turn, LINE[6]), T0 + 10)
    assert [str(m) for m in board.move_stack] == LINE[:6]  # a lent board is never changed
    assert [str(m) for m in after.board().move_stack] == LINE[:7]
    board.pop()  # a caller that breaks the rule: the cache notices and replays
    assert [str(m) for m in state.board().move_stack] == LINE[:6]


# --- the oracle games --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    oracle_games() + oracle_hex_games(),
    ids=lambda g: f"{g['source']}-game{g['game']}",
)
def test_oracle_games_end_as_the_board_says(game: dict[str, Any]) -> None:
    state = RoundState.new(game["variant"], time_control=TimeControl.correspondence(1), now=T0)
    for ply, played in enumerate(game["plies"]):
        assert state.outcome is None, f"ply {ply}"
        state, events = step(state, Move(state.turn, played["played"]), T0 + ply * 60.0)
        assert isinstance(events[0], MovePlayed) and events[0].ply == ply + 1
    assert state.outcome is not None and isinstance(events[-1], GameOver)
    assert state.outcome.result() == game["result"]
    assert state.outcome.termination.value == game["termination"]
    assert state.outcome == state.board().outcome()
    assert RoundState.from_json(json.loads(json.dumps(state.to_json()))) == state


# --- properties --------------------------------------------------------------------------------

CONTROLS = [
    None,
    TimeControl.fischer(5),
    TimeControl.fischer(60, 2),
    TimeControl.per_move(10),
    TimeControl.correspondence(0.001),
]
KINDS = (
    ["move"] * 12
    + ["bad-move", "offer", "answer-draw", "timeout", "start"]
    + ["propose", "answer-takeback"] * 3
    + ["resign", "abort", "claim-win", "claim-draw"]
)
"""Mostly moves, and takebacks often enough to be seen: a game that ends early tests little."""


def _command(data: st.DataObject, kind: str, state: RoundState, now: float) -> Command:
    by: Color = data.draw(st.booleans())
    if kind == "move":
        legal = replay(*state._key()).moves()
        by = state.turn if data.draw(st.integers(0, 4)) else by
        if not legal:
            return Move(by, "d4")
        text = str(data.draw(st.sampled_from(legal)))
        offering = data.draw(st.integers(0, 7)) == 0
        return Move(by, text, data.draw(st.floats(0, 3)), offering)
    if kind == "bad-move":
        return Move(by, data.draw(st.sampled_from(["", "z9", "d4", "e5xe7", "a1-a2", "x"])))
    if kind == "timeout":
        return Timeout()
    if kind == "start":
        return StartClock()
    if kind in ("claim-win", "claim-draw"):
        since = now - data.draw(st.floats(-10, 40 * DAY))
        return (ClaimVictory if kind == "claim-win" else ClaimDraw)(by, since)
    accept = data.draw(st.booleans())
    commands: dict[str, Command] = {
        "resign": Resign(by),
        "abort": Abort(by),
        "offer": OfferDraw(by),
        "answer-draw": AnswerDraw(by, accept),
        "propose": ProposeTakeback(by),
        "answer-takeback": AnswerTakeback(by, accept),
    }
    return commands[kind]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_command_sequences_keep_every_promise(data: st.DataObject) -> None:
    """Only RoundError; refused changes nothing; one version a change, on all its events;
    clocks never below 0 and only the running side's falls (a takeback restores the clocks of
    its ply); JSON round-trips every state; due() is exactly when Timeout() changes it."""
    control = data.draw(st.sampled_from(CONTROLS))
    local = data.draw(st.booleans())
    variant = data.draw(st.sampled_from(["9x9", "7x7", "hex"]))
    now = data.draw(st.floats(0, 2e9))
    state = RoundState.new(variant, time_control=control, now=now, local=local)
    for _ in range(data.draw(st.integers(1, 40))):
        big = data.draw(st.integers(0, 19)) == 0  # now and then a long wait: flags, deadlines
        now += data.draw(st.floats(0, 2 * DAY) if big else st.floats(-2, 6))
        kind = data.draw(st.sampled_from(KINDS))
        command = _command(data, kind, state, now)
        if data.draw(st.booleans()):
            state.board()  # a lent board: the next command copies it instead of moving it on
        before = state.to_json()
        try:
            new, events = apply(state, command, now)
        except RoundError as e:
            event(f"{kind}: refused")
            assert str(e)
            assert state.to_json() == before
            assert [str(m) for m in state.board().move_stack] == list(state.moves)
            continue
        event(f"{kind}: " + (" ".join(type(e).__name__ for e in events) or "no change"))
        if new is state:
            assert events == ()
        else:
            assert new.version == state.version + 1 and events
            assert all(e.version == new.version for e in events)
        if new.clock is not None and state.clock is not None:
            taken_back = any(isinstance(e, TakenBack) for e in events)
            for color in (WHITE, BLACK):
                assert new.clock.left(color) >= 0 and new.clock.remaining(color, now) >= 0
                if color != state.clock.running and not taken_back:
                    assert new.clock.left(color) >= state.clock.left(color)
        assert RoundState.from_json(json.loads(json.dumps(new.to_json()))) == new
        assert [str(m) for m in new.board().move_stack] == list(new.moves)
        when = due(new)
        if when is None:
            assert apply(new, Timeout(), now + 100 * DAY)[0] is new
        else:
            assert apply(new, Timeout(), math.nextafter(when, -math.inf))[0] is new
            assert apply(new, Timeout(), when)[0] is not new
        state = new
