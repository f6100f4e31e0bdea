"""Playing levels: the table, the caps they add to a limit, and the softmax draw among lines."""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest

from emergo import Board
from emergo.board import Move
from emergo.levels import (
    HEX_NODES,
    LEVEL_MAX,
    LEVELS,
    LevelSearcher,
    choose_line,
    level_limit,
    level_setting,
    levels,
)
from emergo.players import backend
from emergo.pysearch import PythonSearcher
from emergo.search import InfoCallback, Limit, Score, SearchInfo, SearchResult


class Ranked:
    """A fake inner searcher: the first legal moves, ranked with the given scores."""

    def __init__(self, scores: list[int]) -> None:
        self.scores = scores
        self.calls: list[tuple[Limit, int]] = []

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
        self.calls.append((limit, multipv))
        moves = board.moves()[: min(multipv, len(self.scores))]
        infos = tuple(
            SearchInfo(depth=1, score=Score.cp(score), pv=(move,), multipv=rank)
            for rank, (move, score) in enumerate(zip(moves, self.scores, strict=False), 1)
        )
        if on_info is not None:
            for info in infos:
                on_info(info)
        return SearchResult(moves[0], None, infos)


def opening() -> Board:
    board = Board()
    for text in ["d4", "e5", "f6", "c5"]:
        board.push_move(text)
    return board


def test_the_table_runs_from_beginner_to_full_strength() -> None:
    assert [s.level for s in LEVELS] == list(range(1, LEVEL_MAX + 1))
    full = level_setting(LEVEL_MAX)
    assert (full.depth, full.nodes, full.lines, full.temperature) == (None, None, 1, 0.0)
    temperatures = [s.temperature for s in LEVELS]
    assert temperatures == sorted(temperatures, reverse=True)  # falls with the level
    assert LEVELS[0].temperature >= 100 and LEVELS[0].depth == 1
    nodes = [s.nodes for s in LEVELS if s.nodes is not None]
    assert nodes == sorted(nodes)
    for bad in (0, LEVEL_MAX + 1, True, "3"):
        with pytest.raises(ValueError, match=rf"level must be a whole number in 1\.\.{LEVEL_MAX}"):
            level_setting(bad)  # type: ignore[arg-type]


def test_level_limit_keeps_the_tighter_cap() -> None:
    assert level_limit(1, Limit(time=2.0)) == Limit(depth=1, time=2.0)
    assert level_limit(1, Limit(depth=5)).depth == 1
    eight = next(s for s in LEVELS if s.nodes is not None)
    assert level_limit(eight.level, Limit(nodes=10)).nodes == 10
    assert level_limit(eight.level, Limit()).nodes == eight.nodes
    assert level_limit(LEVEL_MAX, Limit(time=0.5)) == Limit(time=0.5)


def test_choose_line_prefers_better_lines_and_zero_temperature_takes_the_best() -> None:
    board = opening()
    moves = board.moves()
    infos = tuple(
        SearchInfo(depth=1, score=Score.cp(v), pv=(m,), multipv=k)
        for k, (m, v) in enumerate(
            zip(moves[:4], [100, 100, -200, Score.loss(3).to_value()], strict=True), 1
        )
    )
    assert choose_line(infos, 0, random.Random(1)) is infos[0]
    rng = random.Random(7)
    picks = Counter(choose_line(infos, 100.0, rng).multipv for _ in range(3000))
    # Equal scores, equal chances; 3 men worse is rare; a proven loss next to never.
    assert abs(picks[1] - picks[2]) < 250
    assert 0 < picks[3] < picks[1] / 5
    assert picks[4] == 0
    with pytest.raises(ValueError, match="no line"):
        choose_line((), 1.0, rng)


def test_low_level_plays_worse_moves_sometimes_high_level_the_best() -> None:
    board = opening()
    best = board.moves()[0]
    low = [LevelSearcher(Ranked([0, -30, -60, -400]), 1, seed=s) for s in range(40)]
    played = Counter(s.search(board, Limit(time=1.0)).move for s in low)
    assert played[best] < 40 and len(played) >= 3  # a beginner errs, plausibly
    inner = Ranked([0, -30, -60, -400])
    top = LevelSearcher(inner, LEVEL_MAX, seed=3)
    assert all(top.search(board, Limit(time=1.0)).move == best for _ in range(5))
    assert inner.calls[0] == (Limit(time=1.0), 1)  # full strength: the search as it is


def test_level_draw_is_deterministic_given_the_seed() -> None:
    board = opening()

    def move(seed: int) -> Move | None:
        return LevelSearcher(Ranked([0, 0, 0, 0, 0, 0]), 2, seed=seed).search(board, Limit()).move

    assert [move(5) for _ in range(3)] == [move(5)] * 3
    assert len({move(seed) for seed in range(20)}) > 1


def test_level_asks_for_its_lines_and_reports_only_what_was_asked() -> None:
    board = opening()
    inner = Ranked([0, -10, -20, -30, -40, -50, -60, -70, -80, -90, -100, -110])
    seen: list[SearchInfo] = []
    result = LevelSearcher(inner, 1, seed=0).search(board, Limit(time=0.5), on_info=seen.append)
    limit, multipv = inner.calls[0]
    assert limit == Limit(depth=1, time=0.5) and multipv == LEVELS[0].lines
    assert {info.multipv for info in seen} == {1}
    # The last report describes the move played, whichever line was drawn.
    assert seen[-1].pv[0] == result.move
    assert result.infos[0].pv[0] == result.move


def test_hex_levels_differ_only_in_their_node_caps_and_the_searched_board_picks_them() -> None:
    hexagon = levels("hex")
    assert levels() == levels("9x9") == levels("7x7") == LEVELS and hexagon != LEVELS
    for square, hexa in zip(LEVELS, hexagon, strict=True):
        assert hexa.nodes == HEX_NODES.get(square.level, square.nodes)
        assert (hexa.depth, hexa.lines, hexa.temperature) == (
            square.depth,
            square.lines,
            square.temperature,
        )
    caps = [s.nodes for s in hexagon if s.nodes is not None]
    assert caps == sorted(caps)  # a higher level never searches less
    level = next(iter(HEX_NODES))
    assert level_setting(level, "hex").nodes == HEX_NODES[level] != level_setting(level).nodes
    assert level_limit(level, Limit(), "hex").nodes == HEX_NODES[level]
    inner = Ranked([0])
    searcher = LevelSearcher(inner, level)
    searcher.search(Board("hex w 12/12"), Limit(time=5))
    searcher.search(opening(), Limit(time=5))
    assert [limit.nodes for limit, _ in inner.calls] == [HEX_NODES[level], LEVELS[level - 1].nodes]


@pytest.mark.parametrize("level", [1, 5, 9, LEVEL_MAX])
def test_levels_play_legal_moves_with_the_real_backend(level: int) -> None:
    board = opening()
    searcher = LevelSearcher(backend("auto"), level, seed=1)
    result = searcher.search(board, Limit(time=0.2, nodes=3000))
    assert result.move in board.legal_moves
    assert board.position() == opening().position()  # the board is left alone


def test_a_novice_misses_the_two_men_that_full_strength_wins_R9_R11() -> None:
    # White to move must choose; at depth 2 the Python search sees which moves give a man.
    board = opening()
    full = PythonSearcher().search(board, Limit(depth=2))
    assert full.infos[0].score == Score.cp(200)  # d5 wins two men (R9, R11)
    moves = Counter(LevelSearcher(PythonSearcher(), 3, seed=s).search(board, Limit()).move
                    for s in range(20))  # fmt: skip
    assert moves[full.move] < 20  # level 3 misses it in some games
