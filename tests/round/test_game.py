"""The game flow (emergo.game): players, background thinking, takebacks, draws, clocks, records."""

from __future__ import annotations

import io
import json
import random
import re
import sys
import threading
from collections.abc import Callable

import pytest

from emergo import round as rnd
from emergo.board import BLACK, WHITE, Board, Move, Outcome, Termination
from emergo.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from emergo.game import (
    Computer,
    ComputerFailed,
    Event,
    Game,
    GameError,
    Human,
    StaleVersionError,
    Thinking,
    TimeControl,
    accepts_draw,
    events,
)
from emergo.players import greedy_player
from emergo.record import read_game, write_game
from emergo.round import (
    ClockStarted,
    DrawDeclined,
    DrawOffered,
    GameOver,
    MovePlayed,
    RoundError,
    RoundState,
    TakebackProposed,
    TakenBack,
)
from emergo.search import InfoCallback, Limit, Score, SearchInfo, SearchResult
from tests.plugins.common import WAIT

LONG = 3600.0
"""A thought's time limit that only a stop ends (a test never waits for it)."""


# --- cheap searchers ---------------------------------------------------------------------------


class RandomSearcher:
    """A random legal move, reported as a depth-1 line scoring 0."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.limits: list[Limit] = []

    def clear(self) -> None:
        pass

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        self.limits.append(limit)
        moves = board.moves() if board.outcome() is None else []
        if not moves:
            return SearchResult(None)
        move = self.rng.choice(moves)
        info = SearchInfo(1, Score.cp(0), (move,))
        if on_info is not None:
            on_info(info)
        return SearchResult(move, None, (info,))


class GreedySearcher(RandomSearcher):
    name = "greedy"

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        if board.outcome() is not None:
            return SearchResult(None)
        return SearchResult(greedy_player(board.copy(), self.rng))


class WaitingSearcher(RandomSearcher):
    """Thinks until stopped, then plays its first legal move."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()
        self.searches = 0

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        self.searches += 1
        move = board.moves()[0]
        if on_info is not None:
            on_info(SearchInfo(1, Score.cp(7), (move,)))
        self.started.set()
        assert stop is not None
        stop.wait(WAIT)
        return SearchResult(move)


class GatedSearcher(RandomSearcher):
    """Thinks until the test opens its gate, then plays its first legal move: an engine's
    reply that lands exactly when the test wants it to."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()
        self.gate = threading.Event()

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        self.started.set()
        assert self.gate.wait(WAIT)
        self.gate.clear()
        return SearchResult(board.moves()[0])


class FailingSearcher(RandomSearcher):
    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        raise RuntimeError("the engine fell over")


class FixedScore(RandomSearcher):
    """An analyser whose every search scores ``score`` for the side to move."""

    def __init__(self, score: Score) -> None:
        super().__init__()
        self.score = score

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        move = board.moves()[0]
        return SearchResult(move, None, (SearchInfo(3, self.score, (move,)),))


class FakeTime:
    """An injectable time source: seconds move only when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def collect(game: Game) -> list[Event]:
    seen: list[Event] = []
    game.subscribe(seen.append)
    return seen


def computer(searcher: RandomSearcher, limit: Limit | None = None) -> Computer:
    return Computer(searcher, limit or Limit(depth=1), name=searcher.name)


def legal_line(n: int, seed: int = 0) -> list[str]:
    """The texts of ``n`` random legal moves from the start."""
    board, rng = Board(), random.Random(seed)
    for _ in range(n):
        board.push(rng.choice(board.moves()))
    return [str(m) for m in board.move_stack]


def rule_endings() -> tuple[Termination, ...]:
    return (Termination.NO_PIECES, Termination.BLOCKED, Termination.REPETITION)


# --- whole games -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_computer_vs_computer_plays_to_the_end(seed: int) -> None:
    with Game(computer(RandomSearcher(seed)), computer(GreedySearcher(seed))) as game:
        seen = collect(game)
        game.start()
        assert game.wait(WAIT)
        board = game.board
        assert game.is_over() and game.outcome == board.outcome()
        assert game.outcome is not None and game.outcome.termination in rule_endings()
        played = [e for e in seen if isinstance(e, MovePlayed)]
        assert [e.text for e in played] == [str(m) for m in game.moves]
        assert list(game.moves) == board.move_stack
        assert [e.ply for e in played] == list(range(1, len(played) + 1))
        assert isinstance(seen[-1], GameOver) and seen[-1].outcome == game.outcome
        # the round's version: one a move; the end shares the last move's (one change)
        assert [e.version for e in played] == [e.ply for e in played]
        assert seen[-1].version == played[-1].version == game.version == game.state.version


@pytest.mark.requires_kernel
def test_kernel_engine_at_level_1_plays_to_the_end() -> None:
    white = Computer.engine(level=1, movetime=0.01)
    black = Computer.engine(level=1, movetime=0.01, seed=1)
    assert white.name == "emergo engine, level 1"
    with Game(white, black) as game:
        seen = collect(game)
        game.start()
        assert game.wait(WAIT)
        assert game.outcome is not None and game.outcome.termination in rule_endings()
        assert any(isinstance(e, Thinking) for e in seen)
        record = game.record()
        assert record.headers["White"] == "emergo engine, level 1"
        assert record.headers["Result"] == game.outcome.result()


def test_a_game_starting_over_is_over() -> None:
    game = Game(Human(), Human(), board=Board("b 0/0 e5:b12w12"))
    assert game.outcome == Outcome(Termination.NO_PIECES, WHITE)
    with pytest.raises(GameError, match="over"):
        game.play("e5-e4", by=BLACK)


# --- people's moves and errors -----------------------------------------------------------------


def test_human_moves_and_errors_change_nothing() -> None:
    game = Game(Human("Ann"), Human("Bob"))
    assert str(game.play("d4", by=WHITE)) == "d4" and game.turn == BLACK
    before = (game.moves, game.version, game.position())
    for text, error in [("z9", InvalidMoveError), ("d4", IllegalMoveError), ("x", ValueError)]:
        with pytest.raises(error):
            game.play(text, by=BLACK)
        assert (game.moves, game.version, game.position()) == before
    with pytest.raises(GameError, match="not White's turn"):
        game.play("e6", by=WHITE)
    with pytest.raises(IllegalMoveError):
        game.play(Move.enter(game.board.geometry.parse_square("d4")), by=BLACK)
    assert (game.moves, game.version, game.position()) == before
    assert str(game.play("e6")) == "e6"  # by default, the side to move
    assert game.version == 2 and [str(m) for m in game.moves] == ["d4", "e6"]


def test_ambiguous_move_passes_through_unchanged() -> None:
    # Two longest routes from e5 (R11): the short form names both.
    board = Board("w 0/0 e5:w12 d5:b e4:b c5:b4 f5:b e3:b e6:b d3:b d6:b f6:b")
    game = Game(Human(), Human(), board=board)
    try:
        board.parse_move("e5x")
    except AmbiguousMoveError:
        with pytest.raises(AmbiguousMoveError):
            game.play("e5x")
        assert game.moves == () and game.version == 0
    else:  # pragma: no cover - the position turned out not ambiguous
        pytest.skip("no ambiguity in this position")


def test_human_cannot_move_for_a_thinking_computer() -> None:
    searcher = WaitingSearcher()
    with Game(Human("Ann"), computer(searcher)) as game:
        game.play("d4")
        assert searcher.started.wait(WAIT) and game.thinking
        before = (game.moves, game.version)
        with pytest.raises(GameError, match="not White's turn"):
            game.play("e6", by=WHITE)
        with pytest.raises(GameError, match="computer"):
            game.play("e6", by=BLACK)
        with pytest.raises(GameError, match="computer"):
            game.play("e6")
        assert (game.moves, game.version) == before and game.thinking


def test_only_players_objects() -> None:
    with pytest.raises(TypeError):
        Game(Human(), "greedy")  # type: ignore[arg-type]


# --- takebacks ---------------------------------------------------------------------------------


def test_takeback_undoes_the_human_move_and_the_computer_reply() -> None:
    with Game(Human("Ann"), computer(RandomSearcher())) as game:
        seen = collect(game)
        game.play("d4")
        assert game.wait(WAIT) and len(game.moves) == 2
        reply = game.moves[1]
        taken = game.takeback(by=WHITE)
        assert [str(m) for m in taken] == ["d4", str(reply)]
        assert len(game.moves) == 0 and game.turn == WHITE and not game.thinking
        assert isinstance(seen[-1], TakenBack) and seen[-1].moves == tuple(map(str, taken))
        assert seen[-1].version == game.version
        # a takeback is a proposal the game answers at once: the round's two changes
        proposed = seen[-2]
        assert proposed == TakebackProposed(game.version - 1, WHITE)
        with pytest.raises(GameError, match="no move to take back"):
            game.takeback(by=WHITE)
        with pytest.raises(GameError, match="computer"):
            game.takeback(by=BLACK)


def test_takeback_during_a_computer_thought_stops_it_first() -> None:
    searcher = WaitingSearcher()
    with Game(Human(), computer(searcher)) as game:
        game.play("d4")
        assert searcher.started.wait(WAIT)
        assert [str(m) for m in game.takeback(by=WHITE)] == ["d4"]
        assert not game.thinking and game.moves == ()
        game.play("c5")  # the stopped thought never plays: a new one starts for this move
        assert game.thinking and [str(m) for m in game.moves] == ["c5"]
        game.stop_thinking()
        assert len(game.moves) == 2 and searcher.searches == 2


def test_commands_made_at_an_old_version_are_refused_after_the_engine_replied() -> None:
    # The client saw the game while the engine was thinking; the reply lands before its
    # takeback (resignation, draw offer...) is carried out: that would act on a position the
    # client never saw, so the game refuses it, whatever the interface checked before.
    engine = GatedSearcher()
    with Game(Human("Ann"), computer(engine)) as game:
        game.play("d4")
        assert engine.started.wait(WAIT) and game.thinking
        seen = game.version  # what the client knows: its move, the engine thinking
        engine.gate.set()  # the reply lands now
        assert game.wait(WAIT) and len(game.moves) == 2
        now = game.version
        assert now > seen
        tries: list[Callable[[], object]] = [
            lambda: game.takeback(by=WHITE, version=seen),
            lambda: game.resign(by=WHITE, version=seen),
            lambda: game.offer_draw(by=WHITE, version=seen),
            lambda: game.play("c5", version=seen),
        ]
        for attempt in tries:
            with pytest.raises(StaleVersionError, match="the game changed") as refused:
                attempt()
            assert isinstance(refused.value, GameError) and refused.value.version == now
        assert len(game.moves) == 2 and game.version == now and game.outcome is None
        # at the version it has, the same takeback is carried out (both moves), as without one
        assert len(game.takeback(by=WHITE, version=now)) == 2 and game.moves == ()
        game.play("d4", version=game.version)
        assert engine.started.wait(WAIT)
        engine.gate.set()
        assert game.wait(WAIT)
        game.resign(by=WHITE, version=game.version)
        assert game.outcome is not None and game.outcome.termination is Termination.RESIGNATION


def test_a_command_made_before_the_flag_fell_is_refused_as_stale() -> None:
    clock = FakeTime()
    game = Game(Human(), Human(), time_control=TimeControl.fischer(60, 0), now=clock)
    game.play("d4")
    game.play("e6", version=game.version)
    seen = game.version
    clock.advance(61)
    assert game.check_time() is not None  # White's flag falls (the clock's thread would)
    with pytest.raises(StaleVersionError):
        game.answer_draw(by=BLACK, accept=True, version=seen)
    with pytest.raises(StaleVersionError):
        game.takeback(by=BLACK, version=seen)
    assert game.outcome is not None and game.outcome.termination is Termination.TIME_FORFEIT
    assert len(game.moves) == 2
    game.close()


def test_takeback_between_people_needs_the_last_mover() -> None:
    game = Game(Human(), Human())
    game.play("d4")
    game.play("e6")
    with pytest.raises(GameError, match="Black has replied"):
        game.takeback(by=WHITE)
    assert [str(m) for m in game.takeback(by=BLACK)] == ["e6"]
    assert [str(m) for m in game.takeback(by=WHITE)] == ["d4"]


def test_takeback_after_a_rules_ending_reopens_the_game() -> None:
    # White captures Black's last man (R18), then takes the capture back.
    game = Game(Human(), Human(), board=Board("w 0/0 e5:b11w12 e6:b"))
    game.play("e5xe7")
    assert game.outcome == Outcome(Termination.NO_PIECES, WHITE)
    assert [str(m) for m in game.takeback(by=WHITE)] == ["e5xe7"]
    assert game.outcome is None and game.turn == WHITE


# --- draws -------------------------------------------------------------------------------------


def test_accepts_draw_rule() -> None:
    start, late = Board(), Board("w 0/0 a5:w12 i5:b12")
    assert not accepts_draw(Score.cp(0), start)
    assert not accepts_draw(Score.cp(-40), start)
    assert accepts_draw(Score.cp(-60), start)
    assert accepts_draw(Score.loss(9), start)
    assert accepts_draw(Score.draw(), start)
    assert not accepts_draw(Score.win(9), late)
    assert accepts_draw(Score.cp(8), late) and not accepts_draw(Score.cp(30), late)


def test_draw_offer_to_the_engine_in_the_opening_is_declined() -> None:
    # Level 1 stops at depth 1 long before its move time: the same reply (d7) on any machine,
    # where a short move time would cut the search where the load decides -- and a weaker
    # reply (a5) leaves White a man better, which the engine rightly accepts a draw from.
    with Game(Human(), Computer.engine(level=1, movetime=LONG)) as game:
        seen = collect(game)
        game.play("d4")
        assert game.wait(WAIT)
        assert game.offer_draw(by=WHITE) is False
        assert not game.is_over() and game.draw_offer is None
        assert [type(e) for e in seen[-2:]] == [DrawOffered, DrawDeclined]
        assert seen[-1] == DrawDeclined(game.version, BLACK)


def test_draw_offer_to_the_engine_in_a_lost_position_is_accepted() -> None:
    lost = Board("w 0/0 b5:w4 e5:b3w5 h5:w3 e8:b9")  # Black: 9 men against 15
    with Game(Human(), Computer.engine(level=1), board=lost) as game:
        assert game.offer_draw(by=WHITE) is True
        assert game.outcome == Outcome(Termination.AGREEMENT, None)
        record = game.record()
        assert record.headers["Result"] == "1/2-1/2"
        assert record.headers["Termination"] == "agreement"


def test_an_analyser_without_scores_counts_the_men() -> None:
    lost = Board("w 0/0 b5:w4 e5:b3w5 h5:w3 e8:b9")
    with Game(Human(), computer(RandomSearcher()), board=lost, analyser=GreedySearcher()) as game:
        assert game.offer_draw(by=WHITE) is True
    with Game(computer(RandomSearcher()), Human(), board=lost, analyser=GreedySearcher()) as game:
        assert game.offer_draw(by=BLACK) is False  # White, 15 men against 9, plays on


def test_draw_offer_during_the_computers_thought_uses_the_analyser() -> None:
    searcher = WaitingSearcher()
    analyser = FixedScore(Score.cp(200))  # good for Black, the side to move
    with Game(Human(), computer(searcher), analyser=analyser) as game:
        game.play("d4")
        assert searcher.started.wait(WAIT)
        assert game.offer_draw(by=WHITE) is False
        analyser.score = Score.cp(-200)
        assert game.offer_draw(by=WHITE) is True
        assert game.outcome == Outcome(Termination.AGREEMENT, None) and not game.thinking


def test_draw_offer_between_people_waits_for_the_answer() -> None:
    game = Game(Human(), Human())
    seen = collect(game)
    line = legal_line(3)
    game.play(line[0])
    assert game.offer_draw(by=BLACK) is None and game.draw_offer == BLACK
    assert seen[-1] == DrawOffered(game.version, BLACK)
    with pytest.raises(GameError, match="already offered"):
        game.offer_draw(by=BLACK)
    with pytest.raises(GameError, match="no draw offer"):
        game.answer_draw(by=BLACK, accept=True)
    game.answer_draw(by=WHITE, accept=False)
    assert game.draw_offer is None and seen[-1] == DrawDeclined(game.version, WHITE)
    game.offer_draw(by=BLACK)
    game.play(line[1])  # offered with his own move: the offer stands
    assert game.draw_offer == BLACK
    game.play(line[2])  # White moves instead of answering: declined
    assert game.draw_offer is None and seen[-1] == DrawDeclined(game.version, WHITE)
    game.offer_draw(by=WHITE)  # out of turn is fine
    game.answer_draw(by=BLACK, accept=True)
    assert game.outcome == Outcome(Termination.AGREEMENT, None)
    assert isinstance(seen[-1], GameOver) and seen[-1].version == game.version
    with pytest.raises(GameError, match="over"):
        game.offer_draw(by=WHITE)


def test_crossed_offers_agree() -> None:
    game = Game(Human(), Human())
    game.offer_draw(by=WHITE)
    assert game.offer_draw(by=BLACK) is True and game.is_over()


# --- resignation -------------------------------------------------------------------------------


def test_resignation_ends_the_game() -> None:
    with Game(Human("Ann"), computer(RandomSearcher())) as game:
        seen = collect(game)
        game.play("d4")
        game.wait(WAIT)
        game.resign(by=WHITE)
        assert game.outcome == Outcome(Termination.RESIGNATION, BLACK)
        assert game.outcome.reason() == "White resigned (R20)"
        assert seen[-1] == GameOver(game.version, game.outcome)
        with pytest.raises(GameError, match="over"):
            game.play("c5")
        with pytest.raises(GameError, match="over"):
            game.takeback(by=WHITE)
        with pytest.raises(GameError, match="over"):
            game.resign(by=BLACK)


# --- clocks ------------------------------------------------------------------------------------


def test_fischer_clock_and_time_forfeit() -> None:
    now = FakeTime()
    game = Game(Human(), Human(), time_control=TimeControl.fischer(0.2, 0.1), now=now)
    assert game.clock(WHITE) == 0.2 and game.clock(BLACK) == 0.2
    seen = collect(game)
    game.start()
    assert seen == [ClockStarted(1, WHITE, (0.2, 0.2))]
    now.advance(0.15)
    assert game.clock(WHITE) == pytest.approx(0.05)
    game.play("d4")
    assert game.clock(WHITE) == pytest.approx(0.15) and game.clock(BLACK) == pytest.approx(0.2)
    played = seen[-1]
    assert isinstance(played, MovePlayed) and played.clocks == pytest.approx((0.15, 0.2))
    now.advance(0.19)
    game.play("e6")
    now.advance(0.16)
    assert game.check_time() == Outcome(Termination.TIME_FORFEIT, BLACK)
    assert game.outcome is not None and game.outcome.reason() == "White lost on time (R20)"
    assert game.clock(WHITE) == 0.0 and game.clock(BLACK) == pytest.approx(0.11)
    assert isinstance(seen[-1], GameOver)
    record = game.record()
    assert record.headers["Result"] == "0-1" and record.headers["Termination"] == "time-forfeit"
    assert record.headers["TimeControl"] == "0.2+0.1"
    game.close()


def test_a_late_move_loses_on_time_and_is_refused() -> None:
    now = FakeTime()
    game = Game(Human(), Human(), time_control=TimeControl.fischer(1), now=now)
    game.start()
    now.advance(1.5)
    with pytest.raises(GameError, match="lost on time"):
        game.play("d4")
    assert game.moves == () and game.outcome == Outcome(Termination.TIME_FORFEIT, BLACK)
    game.close()


def test_the_timer_ends_the_game_when_nobody_moves() -> None:
    over = threading.Event()
    game = Game(Human(), Human(), time_control=TimeControl.fischer(0.2))
    game.subscribe(lambda e: over.set() if isinstance(e, GameOver) else None)
    game.start()
    assert over.wait(WAIT)
    assert game.outcome == Outcome(Termination.TIME_FORFEIT, BLACK)
    game.close()


def test_a_computer_that_thinks_too_long_loses_on_time() -> None:
    searcher = WaitingSearcher()  # ignores its limit: only the game's timer can stop it
    game = Game(computer(searcher), Human(), time_control=TimeControl.per_move(0.2))
    over = threading.Event()
    game.subscribe(lambda e: over.set() if isinstance(e, GameOver) else None)
    game.start()
    assert over.wait(WAIT) and game.wait(WAIT)
    assert game.outcome == Outcome(Termination.TIME_FORFEIT, BLACK)
    assert game.moves == () and not game.thinking
    game.close()


def test_moves_carry_the_clocks_and_a_takeback_restores_them() -> None:
    now = FakeTime()
    game = Game(Human(), Human(), time_control=TimeControl.fischer(10.0, 1.0), now=now)
    seen = collect(game)
    game.start()
    now.advance(2.0)
    game.play("d4")
    now.advance(3.0)
    game.play("e6")
    played = [e for e in seen if isinstance(e, MovePlayed)]
    assert [e.clocks for e in played] == [pytest.approx((9.0, 10.0)), pytest.approx((9.0, 8.0))]
    now.advance(4.0)  # White thinks 4 s; then Black takes e6 back
    assert [str(m) for m in game.takeback(by=BLACK)] == ["e6"]
    taken = [e for e in seen if isinstance(e, TakenBack)][-1]
    # the clocks of ply 1: Black gets its 3 s back, White's 4 s since e6 do not count
    assert taken.clocks == pytest.approx((9.0, 10.0))
    assert game.clock(WHITE) == pytest.approx(9.0) and game.clock(BLACK) == pytest.approx(10.0)
    now.advance(1.5)  # the clock of the side to move (Black) runs again
    assert game.clock(BLACK) == pytest.approx(8.5)
    game.close()


def test_a_resumed_game_keeps_its_recorded_clocks_and_takebacks_go_back_to_them() -> None:
    now = FakeTime()
    game = Game(Human(), Human(), time_control=TimeControl.fischer(10.0, 0.0), now=now)
    game.start()
    now.advance(2.0)
    game.play("d4")
    again = Game.from_record(game.record(), now=now)
    game.close()
    assert (again.clock(WHITE), again.clock(BLACK)) == (8.0, 10.0)
    again.start()
    now.advance(1.0)
    again.play("e6")
    now.advance(5.0)
    again.takeback(by=BLACK)
    assert (again.clock(WHITE), again.clock(BLACK)) == (8.0, 10.0)
    again.close()


def test_per_move_clock() -> None:
    now = FakeTime()
    game = Game(Human(), Human(), time_control=TimeControl.per_move(1.0), now=now)
    game.start()
    now.advance(0.9)
    game.play("d4")
    assert game.clock(WHITE) == 1.0 and game.clock(BLACK) == 1.0
    now.advance(0.9)
    game.play("e6")
    now.advance(0.9)
    assert game.check_time() is None
    now.advance(0.2)
    assert game.check_time() == Outcome(Termination.TIME_FORFEIT, BLACK)
    game.close()


@pytest.mark.parametrize(("variant", "seconds"), [("9x9", 1.0), ("7x7", 1.0), ("hex", 4.0)])
def test_a_computer_without_limit_or_clock_thinks_its_variants_default_time(
    variant: str, seconds: float
) -> None:
    # on the hexagon level 10 searches 3 M nodes: level 11 needs 4 s to search well past it
    white = RandomSearcher()
    game = Game(Computer(white), Human(), board=Board(variant=variant))
    game.start()
    game.wait(WAIT)
    game.close()
    assert white.limits[0] == Limit(time=seconds)


def test_a_computer_under_a_clock_gets_its_limit_from_it() -> None:
    now = FakeTime()
    white, black = RandomSearcher(), RandomSearcher()
    game = Game(
        Computer(white, Limit(depth=3)),
        Computer(black),
        time_control=TimeControl.fischer(60, 2),
        now=now,
    )
    game.start()
    game.wait(WAIT)
    game.close()
    first = white.limits[0]
    assert (first.depth, first.wtime, first.btime, first.winc, first.binc) == (3, 60, 60, 2, 2)
    assert (black.limits[0].wtime, black.limits[0].btime) == (62, 60)  # White's increment
    game = Game(Computer(white), Human(), time_control=TimeControl.per_move(10), now=now)
    game.start()
    game.wait(WAIT)
    game.close()
    assert white.limits[-1].time is not None and 9 <= white.limits[-1].time < 10
    assert white.limits[-1].wtime is None


def test_time_control_tags() -> None:
    assert TimeControl.parse("10/move") == TimeControl.per_move(10)
    assert TimeControl.parse("300") == TimeControl.fischer(300)
    for bad in ("", "abc", "0+1", "10+-1"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)


# --- stopping, pausing, failing ----------------------------------------------------------------


def test_stop_thinking_plays_the_best_move_so_far() -> None:
    searcher = WaitingSearcher()
    with Game(Human(), computer(searcher)) as game:
        seen = collect(game)
        game.play("d4")
        assert searcher.started.wait(WAIT)
        game.stop_thinking()
        assert len(game.moves) == 2 and game.turn == WHITE and not game.thinking
        thinking = [e for e in seen if isinstance(e, Thinking)]
        assert thinking and thinking[0].color == BLACK and thinking[0].info.score == Score.cp(7)


def test_pause_and_resume() -> None:
    searcher = WaitingSearcher()
    with Game(Human(), computer(searcher)) as game:
        game.play("d4")
        assert searcher.started.wait(WAIT)
        game.pause()
        assert game.paused and not game.thinking and game.wait(0)
        assert len(game.moves) == 1
        searcher.started.clear()
        game.resume()
        assert searcher.started.wait(WAIT) and game.thinking
        game.stop_thinking()
        assert len(game.moves) == 2


def test_a_failing_computer_pauses_the_game() -> None:
    with Game(Human(), computer(FailingSearcher())) as game:
        seen = collect(game)
        game.play("d4")
        assert game.wait(WAIT)
        failed = [e for e in seen if isinstance(e, ComputerFailed)]
        assert len(failed) == 1 and "fell over" in failed[0].message
        assert failed[0].version == game.version == 1  # the round did not change
        assert game.paused and not game.is_over() and len(game.moves) == 1


def test_close_is_idempotent_and_stops_the_thought() -> None:
    searcher = WaitingSearcher()
    game = Game(Human(), computer(searcher))
    game.play("d4")
    assert searcher.started.wait(WAIT)
    game.close()
    game.close()
    assert not game.thinking and len(game.moves) == 1
    with pytest.raises(GameError, match="closed"):
        game.play("e6")


# --- events ------------------------------------------------------------------------------------


def test_events_come_in_order_with_versions() -> None:
    with Game(Human(), computer(RandomSearcher())) as game:
        seen = collect(game)
        game.start()
        assert seen == []  # nothing changed: White is a person
        game.play("d4")
        game.wait(WAIT)
        kinds = [type(e) for e in seen]
        assert kinds == [MovePlayed, Thinking, MovePlayed]
        first, info, reply = seen
        assert isinstance(first, MovePlayed) and isinstance(reply, MovePlayed)
        assert (first.text, first.ply, first.color, first.version) == ("d4", 1, WHITE, 1)
        assert (reply.ply, reply.color, reply.version) == (2, BLACK, 2) == (2, BLACK, game.version)
        assert isinstance(info, events.Thinking) and info.color == BLACK
        assert events.MovePlayed is MovePlayed and first.to_json()["t"] == "move"


def test_the_events_are_the_rounds_with_its_version() -> None:
    # The same commands applied to a local round by hand give the same events, versions
    # included: one vocabulary and one counter for a game, wherever it is hosted.
    game = Game(Human(), Human(), now=FakeTime())
    seen = collect(game)
    game.play("d4")
    game.offer_draw(by=WHITE)
    game.play("e6")  # declines the offer
    game.takeback(by=BLACK)  # proposed and accepted at once
    game.resign(by=BLACK)
    state = RoundState.new(now=1000.0, local=True)
    expected: list[Event] = []
    for command in [
        rnd.Move(WHITE, "d4"),
        rnd.OfferDraw(WHITE),
        rnd.Move(BLACK, "e6"),
        rnd.ProposeTakeback(BLACK),
        rnd.AnswerTakeback(WHITE, accept=True),
        rnd.Resign(BLACK),
    ]:
        state, news = rnd.apply(state, command, now=1000.0)
        expected.extend(news)
    assert seen == expected and game.version == state.version == 6
    assert game.state == state


def test_unsubscribe_and_failing_callbacks() -> None:
    game = Game(Human(), Human())
    seen: list[Event] = []

    def broken(event: Event) -> None:
        raise RuntimeError("a bug in the interface")

    game.subscribe(broken)
    stop = game.subscribe(seen.append)
    game.play("d4")
    stop()
    game.play("e6")
    assert len(seen) == 1 and len(game.moves) == 2


def test_a_callback_may_call_the_game() -> None:
    game = Game(Human(), Human())
    seen: list[Event] = []

    def reply(event: Event) -> None:
        seen.append(event)
        if isinstance(event, MovePlayed) and event.color == WHITE:
            game.play("e6")  # from inside a callback: delivered after this one

    game.subscribe(reply)
    game.play("d4")
    assert [e.text for e in seen if isinstance(e, MovePlayed)] == ["d4", "e6"]


# --- records -----------------------------------------------------------------------------------


def test_record_round_trip_and_resume() -> None:
    with Game(Human("Ann"), computer(RandomSearcher()), tags={"Event": "club night"}) as game:
        game.play("d4")
        game.wait(WAIT)
        game.play(game.board.moves()[0])
        game.wait(WAIT)
        game.resign(by=WHITE)
        text = write_game(game.record())
    assert re.search(r'\[Date "\d{4}\.\d\d\.\d\d"\]', text)
    record = read_game(io.StringIO(text))
    assert record is not None
    h = record.headers
    assert (h["Event"], h["White"], h["Black"]) == ("club night", "Ann", "random")
    assert (h["Result"], h["Termination"]) == ("0-1", "resignation")
    again = Game.from_record(record)
    assert again.moves == game.moves and again.outcome == game.outcome
    assert write_game(again.record()) == text


def test_resume_an_unfinished_game_and_play_on() -> None:
    now = FakeTime()
    game = Game(Human("Ann"), Human("Bob"), time_control=TimeControl.fischer(300, 2), now=now)
    game.start()
    now.advance(10.5)
    game.play("d4")
    now.advance(1)
    record = read_game(io.StringIO(write_game(game.record())))
    game.close()
    assert record is not None
    assert (record.headers["WhiteClock"], record.headers["BlackClock"]) == ("291.5", "299")
    with Game.from_record(record, black=computer(RandomSearcher()), now=now) as again:
        assert again.time_control == TimeControl.fischer(300, 2)
        assert (again.clock(WHITE), again.clock(BLACK)) == (291.5, 299)
        assert again.players[WHITE] == Human("Ann") and again.turn == BLACK
        again.start()
        assert again.wait(WAIT) and len(again.moves) == 2
        assert again.takeback(by=WHITE) != []  # the resumed move counts as White's


# --- threads -----------------------------------------------------------------------------------


def test_moves_from_other_threads() -> None:
    line = legal_line(12, seed=5)
    game = Game(Human(), Human())
    errors: list[BaseException] = []
    done = threading.Event()

    def player(color: bool) -> Callable[[], None]:
        def run() -> None:
            try:
                for text in line[(0 if color else 1) :: 2]:
                    while True:
                        try:
                            game.play(text, by=color)
                            break
                        except GameError:
                            threading.Event().wait(0.0005)  # not my turn yet
            except BaseException as e:  # pragma: no cover - reported below
                errors.append(e)

        return run

    def reader() -> None:
        while not done.is_set():
            board, version = game.board, game.version
            if board.turn != (len(board.move_stack) % 2 == 0) or version < len(board.move_stack):
                errors.append(AssertionError(f"torn read {board!r} at version {version}"))

    threads = [threading.Thread(target=f) for f in (player(WHITE), player(BLACK))]
    watcher = threading.Thread(target=reader)
    for t in [*threads, watcher]:
        t.start()
    for t in threads:
        t.join(WAIT)
    done.set()
    watcher.join(WAIT)
    assert not errors and [str(m) for m in game.moves] == line and game.version == len(line)


# --- an external engine ------------------------------------------------------------------------


def test_an_engine_over_the_protocol() -> None:
    command = [sys.executable, "-m", "emergo.cli.engine", "--player", "greedy"]
    black = Computer.protocol(command, limit=Limit(depth=1), timeout=WAIT)
    assert "greedy" in black.name
    with Game(Human(), black) as game:
        game.play("d4")
        assert game.wait(WAIT) and len(game.moves) == 2
        assert game.turn == WHITE
    assert black.searcher.engine.process.poll() is not None  # type: ignore[attr-defined]


def test_stopping_an_engine_over_the_protocol() -> None:
    command = [sys.executable, "-m", "emergo.cli.engine"]
    with Game(Human(), Computer.protocol(command, limit=Limit(time=LONG), timeout=WAIT)) as game:
        seen = collect(game)
        game.play("d4")
        assert game.thinking
        while not any(isinstance(e, Thinking) for e in seen):  # the engine reports progress
            assert game.wait(0.01) is False
        game.stop_thinking()
        assert len(game.moves) == 2 and not game.thinking


def test_hint() -> None:
    game = Game(Human(), Human(), analyser=FixedScore(Score.cp(12)))
    result = game.hint()
    assert result.move in game.board.moves() and result.infos[0].score == Score.cp(12)


# --- the round underneath ----------------------------------------------------------------------


def test_the_game_plays_a_local_round() -> None:
    now = FakeTime()
    game = Game(Human(), Human(), time_control=TimeControl.fischer(60, 1), now=now)
    assert game.state.local and game.state.clock is not None and game.state.clock.quota_gain == 0
    game.start()
    now.advance(3)
    game.play("d4")
    game.offer_draw(by=BLACK)
    state = game.state
    assert state.moves == ("d4",) and state.draw_offer == BLACK and state.version == 3
    assert game.version == 3  # one version: the round's (the clock's start, d4, the offer)
    assert RoundState.from_json(json.loads(json.dumps(state.to_json()))) == state
    assert issubclass(GameError, RoundError)
    game.close()


def test_a_resumed_aborted_game_stays_aborted() -> None:
    record = read_game(io.StringIO('[Result "*"]\n[Termination "aborted"]\n\n1. d4 *\n'))
    assert record is not None
    game = Game.from_record(record)
    assert game.outcome == Outcome(Termination.ABORTED, None)
    with pytest.raises(GameError, match="the game was aborted"):
        game.play("e6")
    again = game.record()
    assert (again.headers["Result"], again.headers["Termination"]) == ("*", "aborted")
