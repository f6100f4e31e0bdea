"""The Monte-Carlo tree search player: limits, legal moves, exact game ends and the protocol."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from emergo import Board
from emergo.match import EngineSpec, run_match
from emergo.search import Limit, Score, SearchInfo
from emergo.wire import parse_line
from tests.plugins.common import finishes, requires_kernel

mcts = requires_kernel("emergo.mcts")  # its playouts are the kernel's
MCTSSearcher, win_rate_score = mcts.MCTSSearcher, mcts.win_rate_score


def opening() -> Board:
    board = Board()
    for text in ["d4", "e5", "f6", "c5"]:
        board.push_move(text)
    return board


def test_returns_a_legal_move_within_its_time() -> None:
    board = opening()
    result = finishes(lambda: MCTSSearcher(seed=1).search(board, Limit(time=0.2)))
    assert result.move in board.legal_moves
    info = result.infos[0]
    assert info.pv[0] == result.move and info.nodes > 0 and info.score.kind == "cp"
    assert board.position() == opening().position()  # the caller's board is left alone


def test_node_limit_counts_playouts_and_a_seeded_search_repeats() -> None:
    board = opening()
    first = MCTSSearcher(seed=3).search(board, Limit(nodes=2000))
    again = MCTSSearcher(seed=3).search(board, Limit(nodes=2000))
    assert first.move == again.move
    assert [(i.score, i.pv, i.nodes) for i in first.infos] == [
        (i.score, i.pv, i.nodes) for i in again.infos
    ]
    # The root's children are valued before the first check: at most one expansion over.
    assert 2000 <= first.infos[0].nodes <= 2000 + 8 * 60


def test_multipv_ranks_root_moves_by_visits() -> None:
    infos = MCTSSearcher(seed=2).search(opening(), Limit(nodes=3000), multipv=3).infos
    assert [info.multipv for info in infos] == [1, 2, 3]
    assert len({info.pv[0] for info in infos}) == 3


def test_a_winning_move_is_played_at_once_R18() -> None:
    board = Board("w 0/0 c5:w d5:b d6:w")  # either capture takes Black's last man (R18)
    # an hour to think, and it plays at once: a won position needs no search
    result = finishes(lambda: MCTSSearcher().search(board, Limit(time=3600.0)))
    assert result.move in board.legal_moves
    assert result.infos[0].score == Score.win(1)


def test_game_over_gives_no_move_R18() -> None:
    result = MCTSSearcher().search(Board("w 0/0 c4:w8b4 f6:w4b2 g5:b6"), Limit(time=1.0))
    assert result.move is None


def repeated(moves: list[str]) -> Board:
    board = Board("7x7 w 0/0 d2:b8 d5:w8")
    for text in moves:
        board.push_move(text)
    return board


def test_a_move_drawn_by_the_rules_is_cp_0_unless_the_position_is_proven_drawn_R19b() -> None:
    # Black's d3-d2 repeats the start a third time (R19b): that line is a draw, but Black has
    # three other moves, so the position is not a proven draw and "draw" would claim it is.
    board = repeated(["d5-c5", "d2-d3", "c5-d5", "d3-d2", "d5-c5", "d2-d3", "c5-d5"])
    drawing = board.parse_move("d3-d2")
    assert len(board.legal_moves) == 4
    result = MCTSSearcher(seed=1).search(board, Limit(nodes=4000), multipv=4)
    scores = {info.pv[0]: info.score for info in result.infos}
    assert len(scores) == 4 and scores[drawing] == Score.cp(0)
    assert all(score.kind == "cp" for score in scores.values())
    # Here Black's only move, d1-d2, repeats the start a third time: the position is drawn.
    board = repeated(["d5-d4", "d2-d1", "d4-d5", "d1-d2", "d5-d4", "d2-d1", "d4-d5"])
    result = MCTSSearcher(seed=1).search(board, Limit(nodes=100))
    assert [str(m) for m in result.infos[0].pv] == ["d1-d2"]
    assert result.infos[0].score == Score.draw()


def test_stop_ends_an_infinite_search_and_reports_progress() -> None:
    stop = threading.Event()
    seen: list[SearchInfo] = []

    def on_info(info: SearchInfo) -> None:
        seen.append(info)
        stop.set()  # stopped at its first progress report: the search runs until then

    search = MCTSSearcher().search
    result = finishes(lambda: search(opening(), Limit(infinite=True), on_info=on_info, stop=stop))
    assert result.move in opening().legal_moves
    assert len(seen) >= 2  # a report every half second, then a last one when stopped
    assert seen[0].time >= 0.5 and seen[-1].nodes >= seen[0].nodes


def test_the_tree_is_reused_two_plies_later_and_after_clear() -> None:
    board = opening()
    searcher = MCTSSearcher(seed=4)
    first = searcher.search(board, Limit(nodes=3000))
    assert first.move is not None and first.ponder is not None
    board.push(first.move)
    board.push(first.ponder)
    second = searcher.search(board, Limit(nodes=500))
    assert second.move in board.legal_moves
    searcher.clear()
    assert searcher.search(board, Limit(nodes=500)).move in board.legal_moves


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="exploration"):
        MCTSSearcher(exploration=-1)
    with pytest.raises(ValueError, match="playouts"):
        MCTSSearcher(playouts=0)


def test_win_rate_score_is_a_logit_in_centimen() -> None:
    assert win_rate_score(50, 100) == Score.cp(0)
    assert win_rate_score(75, 100) == Score.cp(110)  # 100 ln 3
    assert win_rate_score(0, 100) == Score.cp(-1500)  # clipped
    assert win_rate_score(0, 0) == Score.cp(0)


def test_protocol_player_declares_its_options_and_answers_go() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "emergo.cli.engine", "--player", "mcts"],
        input="emergo\ninit\nset-option name=Exploration value=50\nset-option name=Playouts "
        'value=4\npos moves="d4 e5 f6 c5"\ngo move-time=0.2\nping id=1\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = proc.stdout.splitlines()
    options = [parse_line(line)[1]["name"] for line in lines if line.startswith("option")]
    assert options == ["Hash", "Level", "Seed", "Exploration", "Playouts"]
    assert not any(line.startswith("error") for line in lines), lines
    assert parse_line(lines[0])[1]["name"] == "Emergo mcts"
    done = [parse_line(line)[1] for line in lines if line.startswith("done")]
    assert done and opening().parse_move(done[0]["move"]) in opening().legal_moves


@pytest.mark.slow
def test_mcts_beats_random_in_a_tiny_match() -> None:
    result = run_match(
        [EngineSpec.builtin("mcts", limit=Limit(time=0.02)), EngineSpec.builtin("random")],
        games=2,
        concurrency=2,
    )
    stats = result.pairings[(0, 1)]
    assert stats.games == 2 and stats.points >= 1.5, [g.reason for g in result.games]
