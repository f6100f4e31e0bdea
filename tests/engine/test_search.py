"""The search interface: limits, scores, time budgets and the interim Python search."""

from __future__ import annotations

import threading

import pytest

from emergo import Board
from emergo.players import backend
from emergo.pysearch import PythonSearcher
from emergo.search import Limit, Score, Searcher, SearchInfo, time_budget
from tests.plugins.common import finishes


def opening() -> Board:
    board = Board()
    for text in ["d4", "e5", "f6", "c5"]:
        board.push_move(text)
    return board


def test_score_text_order_and_negation() -> None:
    assert [str(s) for s in (Score.cp(35), Score.win(7), Score.loss(4), Score.draw())] == [
        "cp 35",
        "win 7",
        "loss 4",
        "draw",
    ]
    ranked = [Score.loss(2), Score.loss(6), Score.cp(-500), Score.draw(), Score.cp(80)]
    ranked += [Score.win(9), Score.win(3)]
    assert sorted(reversed(ranked)) == ranked
    assert -Score.win(3) == Score.loss(3) and -Score.cp(-12) == Score.cp(12)
    assert -Score.draw() == Score.draw()


@pytest.mark.parametrize("score", [Score.cp(0), Score.cp(-120), Score.win(7), Score.loss(1)])
def test_score_token_and_text_parse_back(score: Score) -> None:
    assert Score.parse(score.token()) == score
    assert Score.parse(str(score)) == score
    assert Score.from_value(score.to_value()) == score


def test_score_parse_rejects_junk() -> None:
    with pytest.raises(ValueError, match="not a score: 'much'"):
        Score.parse("much")
    with pytest.raises(ValueError, match="not a score"):
        Score.parse("win -3")


def test_limit_rejects_bad_values() -> None:
    with pytest.raises(ValueError, match=r"depth must be an integer in 1\.\.100"):
        Limit(depth=0)
    with pytest.raises(ValueError, match="time must be a number of seconds"):
        Limit(time=-1)
    assert Limit(time=1).is_timed() and not Limit(depth=3).is_timed()
    assert not Limit(time=1, infinite=True).is_timed()


def test_time_budget() -> None:
    assert time_budget(Limit(depth=5), True) == (None, None)
    assert time_budget(Limit(time=1, infinite=True), True) == (None, None)
    soft, hard = time_budget(Limit(time=0.5), True)
    assert soft == hard and hard is not None and 0.45 < hard <= 0.5
    soft, hard = time_budget(Limit(wtime=60, btime=1, winc=1), True)  # White's own clock
    assert soft is not None and hard is not None
    assert 1 < soft < hard < 60
    soft, hard = time_budget(Limit(wtime=60, btime=1), False)  # Black has one second
    assert hard is not None and hard < 1
    soft, hard = time_budget(Limit(wtime=0.01, btime=0.01), True)
    assert hard is not None and 0 < hard <= 0.01


def test_python_searcher_is_a_searcher() -> None:
    searcher: Searcher = PythonSearcher()
    assert isinstance(backend("python"), PythonSearcher)
    assert hasattr(backend(), "search")
    with pytest.raises(ValueError, match="unknown search backend 'gpu'"):
        backend("gpu")
    searcher.clear()


def test_finds_the_winning_capture_R18() -> None:
    # White jumps Black's only piece; Black then has no men in hand and no piece (R18).
    board = Board("w 0/0 d4:w e4:b")
    result = PythonSearcher().search(board, Limit(depth=3))
    assert str(result.move) == "d4xf4"
    assert result.infos[0].score == Score.win(1)


def test_search_leaves_the_board_as_it_was() -> None:
    board = opening()
    before = (board.position(), list(board.move_stack))
    PythonSearcher().search(board, Limit(depth=2))
    assert (board.position(), list(board.move_stack)) == before


def test_reports_each_iteration_and_returns_the_last_best() -> None:
    infos: list[SearchInfo] = []
    result = PythonSearcher().search(opening(), Limit(depth=3), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3]
    assert result.move == infos[-1].pv[0]
    assert result.ponder == infos[-1].pv[1]
    assert infos[-1].nodes > infos[0].nodes and infos[-1].seldepth is not None


def test_multipv_ranks_distinct_moves() -> None:
    result = PythonSearcher().search(opening(), Limit(depth=2), multipv=3)
    assert [i.multipv for i in result.infos] == [1, 2, 3]
    assert len({i.pv[0] for i in result.infos}) == 3
    scores = [i.score for i in result.infos]
    assert scores[0] >= scores[1] >= scores[2]


def test_limits_are_honoured() -> None:
    searcher = PythonSearcher()
    board = opening()
    result = searcher.search(board, Limit(nodes=50))
    assert result.move in board.legal_moves
    assert all(i.nodes <= 50 for i in result.infos)
    # the time limit ends the search (unbounded, it would go on for ever): it returns by itself
    result = finishes(lambda: searcher.search(board, Limit(time=0.2)))
    assert result.move in board.legal_moves


def test_a_stopped_search_still_returns_a_legal_move() -> None:
    stop = threading.Event()
    stop.set()
    board = opening()
    result = PythonSearcher().search(board, Limit(infinite=True), stop=stop)
    assert result.move in board.legal_moves


def test_no_move_when_the_game_is_over_R18() -> None:
    board = Board("b 0/0 d4:w")  # Black has nothing: he has lost
    assert PythonSearcher().search(board, Limit(depth=2)).move is None


MCTS = pytest.param("mcts", marks=[pytest.mark.slow, pytest.mark.requires_kernel])


@pytest.mark.parametrize("make", ["python", "level", MCTS, "protocol"])
def test_a_second_concurrent_search_raises_at_once(make: str) -> None:
    import threading

    from emergo.levels import LevelSearcher

    searcher: Searcher
    if make == "python":
        searcher = PythonSearcher()
    elif make == "level":
        searcher = LevelSearcher(PythonSearcher(), 3)
    elif make == "protocol":  # an engine process over the protocol, the Python player
        import sys

        from emergo.engine import ProtocolSearcher

        command = [sys.executable, "-m", "emergo.cli.engine", "--player", "python"]
        searcher = ProtocolSearcher.popen(command)
    else:
        from emergo.mcts import MCTSSearcher

        searcher = MCTSSearcher()
    started, stop = threading.Event(), threading.Event()
    thread = threading.Thread(
        target=searcher.search,
        args=(opening(), Limit(infinite=True)),
        kwargs={"on_info": lambda info: started.set(), "stop": stop},
    )
    thread.start()
    try:
        assert started.wait(10)
        with pytest.raises(RuntimeError, match="already searching"):
            searcher.search(opening(), Limit(depth=1))
    finally:
        stop.set()
        thread.join()
    assert searcher.search(opening(), Limit(depth=1)).move is not None  # free again
    if make == "protocol":
        searcher.close()  # type: ignore[attr-defined]
