"""The kernel's search and evaluation (emergo.kernel.Searcher, evaluate): tactics, scores, limits.

Tactical claims are checked against the rules library before they are
asserted: the winning lines are played out on a Board (R8-R18), and the
pure-Python search agrees on the best move where it can see that far.
"""

from __future__ import annotations

import _thread
import os
import random
import threading
from collections.abc import Iterator

import pytest

from emergo import Board
from emergo.board import WHITE, Termination
from emergo.players import backend
from emergo.pysearch import PythonSearcher
from emergo.search import Limit, Score, SearchInfo
from tests.plugins.common import WAIT, finishes, requires_kernel

kernel = requires_kernel()

SEED_004 = "w 0/0 c5:b d6:b e5:b f4:w4 g4:w h4:b2"
"""The majority-capture example of the rules' seed 004."""
FEEDER = "w 0/0 c3:w c4:w c5:w e5:w2b i5:b"
"""c5-d5 feeds Black's one-man cap over two white prisoners; c4xc6 then frees three men."""
BLOCKADE = "w 0/0 a5:w3b5 b4:w c5:w"
"""White is lost in the long run but b4-b5 leaves Black's only piece no move (R19a)."""

# The bench signature: total nodes of `emergo bench --search` (the suite of
# emergo.bench.SEARCH_POSITIONS to depth SEARCH_DEPTH, fresh table each).  It
# changes only when the search or the evaluation weights change: update it
# deliberately with such a change, never to make a failing run pass.
BENCH_SIGNATURE = 14_661_474


def texts(moves: tuple[object, ...]) -> list[str]:
    return [str(m) for m in moves]


def search(position: str | Board, limit: Limit, **kwargs: object) -> tuple[Board, object]:
    board = Board(position) if isinstance(position, str) else position
    return board, kernel.Searcher().search(board, limit, **kwargs)  # type: ignore[arg-type]


def play_line(position: str, line: list[str]) -> Board:
    board = Board(position)
    for text in line:
        board.push_move(text)
    return board


# --- tactics and exact scores ---------------------------------------------------------------


def test_win_in_one_R18() -> None:
    board = Board("w 0/0 d4:w e4:b")
    result = kernel.Searcher().search(board, Limit(depth=4))
    assert str(result.move) == "d4xf4"
    assert result.infos[0].score == Score.win(1)
    assert play_line("w 0/0 d4:w e4:b", ["d4xf4"]).outcome().winner == WHITE  # type: ignore[union-attr]


def test_seed_004_combination_wins_in_three_R11_R18() -> None:
    line = ["f4-e4", "h4xf4xd4", "e4xc4xc6xe6xe4xc4"]
    end = play_line(SEED_004, line)  # the reference: Black's reply is forced, White's capture wins
    assert end.outcome() is not None and end.outcome().winner == WHITE  # type: ignore[union-attr]
    result = kernel.Searcher().search(Board(SEED_004), Limit(nodes=10_000))
    assert texts(result.infos[0].pv) == line
    assert result.infos[0].score == Score.win(3)
    assert str(result.ponder) == "h4xf4xd4"


def test_the_loser_sees_the_loss_in_two_R18() -> None:
    board = play_line(SEED_004, ["f4-e4"])
    result = kernel.Searcher().search(board, Limit(depth=5))
    assert result.infos[0].score == Score.loss(2)
    assert str(result.move) == "h4xf4xd4"


def test_a_feeder_wins_a_column_R9() -> None:
    # Checked on the reference: the feed, the forced capture, the decapitation.
    end = play_line(FEEDER, ["c5-d5", "e5xc5", "c4xc6"])
    c5, c6 = end.stack(end.geometry.parse_square("c5")), end.stack(end.geometry.parse_square("c6"))
    assert c5 is not None and (c5.owner, c5.caps, c5.prisoners) == (WHITE, 3, 0)  # liberated
    assert c6 is not None and (c6.owner, c6.caps, c6.prisoners) == (WHITE, 1, 1)
    assert str(PythonSearcher().search(Board(FEEDER), Limit(depth=3)).move) == "c5-d5"
    result = kernel.Searcher().search(Board(FEEDER), Limit(nodes=20_000))
    assert texts(result.infos[0].pv)[:3] == ["c5-d5", "e5xc5", "c4xc6"]
    assert result.infos[0].score > Score.cp(300)


def test_blocking_the_last_piece_is_a_draw_R19a() -> None:
    end = play_line(BLOCKADE, ["b4-b5"])
    assert end.outcome() is not None and end.outcome().termination is Termination.BLOCKED  # type: ignore[union-attr]
    result = kernel.Searcher().search(Board(BLOCKADE), Limit(depth=6))
    assert str(result.move) == "b4-b5"
    # Not reported as a proven draw: White's other moves were only evaluated (issue 23).
    assert result.infos[0].score == Score.cp(0)


def _cycle() -> Board:
    """Black, a man against a big stack, has shuffled h5-i5 while White shuffled e5-e6."""
    board = Board("w 0/0 c5:w e5:b2w4 i5:b")
    for text in ["e5-e6", "i5-h5", "e6-e5", "h5-i5", "e5-e6", "i5-h5", "e6-e5"]:
        board.push_move(text)
    return board


def test_repetition_counts_the_game_history_R19b() -> None:
    board = _cycle()
    assert board.repetitions() == 2 and board.outcome() is None
    result = kernel.Searcher().search(board, Limit(depth=6))
    assert str(result.move) == "h5-i5"  # the third occurrence of the start: a draw
    assert result.infos[0].score == Score.cp(0)  # the best line's draw, not a proven one
    board.push(result.move)
    assert board.outcome() is not None
    assert board.outcome().termination is Termination.REPETITION  # type: ignore[union-attr]
    # The same position without its history is simply lost: the history made the draw.
    fresh = kernel.Searcher().search(Board(_cycle().position()), Limit(depth=6))
    assert fresh.infos[0].score < Score.cp(-300)


def test_the_winner_avoids_the_repetition_R19b() -> None:
    board = _cycle()
    board.pop()  # White to move: e6-e5 would let Black repeat a third time
    result = kernel.Searcher().search(board, Limit(depth=8))
    assert str(result.move) != "e6-e5"
    assert result.infos[0].score > Score.cp(300)


def test_no_draw_is_claimed_at_the_root_before_the_third_occurrence_R19b() -> None:
    board = _cycle()
    board.pop()
    board.pop()  # the second occurrence of this position: the game goes on
    assert board.repetitions() == 2 and board.outcome() is None
    result = kernel.Searcher().search(board, Limit(depth=3))
    assert result.move in board.legal_moves


def test_no_move_when_the_game_is_over() -> None:
    searcher = kernel.Searcher()
    assert searcher.search(Board("b 0/0 d4:w"), Limit(depth=2)).move is None  # R18
    assert searcher.search(play_line(BLOCKADE, ["b4-b5"]), Limit(depth=2)).move is None  # R19a
    board = _cycle()
    board.push_move("h5-i5")  # R19b
    assert searcher.search(board, Limit(depth=2)).move is None


# --- the contract of emergo.search.Searcher --------------------------------------------------


def test_backend_builds_the_kernel_searcher() -> None:
    assert isinstance(backend("kernel", hash_mb=4), kernel.Searcher)
    assert isinstance(backend("auto"), kernel.Searcher)


def opening() -> Board:
    board = Board()
    for text in ["d4", "f6", "e3", "c5", "g4", "d7"]:
        board.push_move(text)
    return board


def test_the_board_is_left_as_it_was() -> None:
    board = opening()
    before = (board.position(), list(board.move_stack))
    kernel.Searcher().search(board, Limit(depth=4), multipv=2)
    assert (board.position(), list(board.move_stack)) == before


def test_reports_every_iteration_from_the_search_thread() -> None:
    infos: list[SearchInfo] = []
    threads: set[int] = set()

    def on_info(info: SearchInfo) -> None:
        infos.append(info)
        threads.add(threading.get_ident())

    result = kernel.Searcher().search(opening(), Limit(depth=5), on_info=on_info)
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5]
    assert threads == {threading.get_ident()}
    assert result.move == infos[-1].pv[0] and result.infos[0].pv == infos[-1].pv
    assert infos[-1].nodes > infos[0].nodes and infos[-1].seldepth is not None
    assert all(i.seldepth is not None and i.seldepth >= i.depth for i in infos)


def test_an_info_callback_error_reaches_the_caller() -> None:
    def broken(info: SearchInfo) -> None:
        raise KeyError("callback")

    with pytest.raises(KeyError, match="callback"):
        kernel.Searcher().search(opening(), Limit(depth=3), on_info=broken)


def test_multipv_gives_distinct_lines_best_first() -> None:
    board = opening()
    result = kernel.Searcher().search(board, Limit(depth=4), multipv=4)
    assert [i.multipv for i in result.infos] == [1, 2, 3, 4]
    firsts = [i.pv[0] for i in result.infos]
    assert len(set(firsts)) == 4 and all(m in board.legal_moves for m in firsts)
    scores = [i.score for i in result.infos]
    assert scores == sorted(scores, reverse=True)
    few = kernel.Searcher().search(Board("w 0/0 d4:w e4:b"), Limit(depth=2), multipv=5)
    assert len(few.infos) == 1  # only one legal move


def test_depth_and_node_limits() -> None:
    searcher = kernel.Searcher()
    board = opening()
    result = searcher.search(board, Limit(depth=3))
    assert result.infos[0].depth == 3
    for nodes in (1, 50, 5_000):
        searcher.clear()
        result = searcher.search(board, Limit(nodes=nodes))
        assert result.move in board.legal_moves
        assert result.infos[0].nodes <= nodes


def test_time_limits() -> None:
    # A move time or a clock ends the search, which would otherwise deepen to MAX_DEPTH (for
    # ever); how close to the budget it stops is the benchmarks' (time_budget: test_search.py).
    searcher = kernel.Searcher()
    board = opening()
    for limit in (Limit(time=0.3), Limit(wtime=1.0, btime=1.0)):
        result = finishes(lambda limit=limit: searcher.search(board, limit))
        assert result.move in board.legal_moves
        assert result.infos and result.infos[0].depth < kernel._kernel.MAX_DEPTH


def test_stop_ends_an_infinite_search_with_a_move() -> None:
    stop = threading.Event()
    board = opening()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    result = finishes(lambda: kernel.Searcher().search(board, Limit(infinite=True), stop=stop))
    assert result.move in board.legal_moves


def test_a_search_stopped_before_it_starts_still_moves() -> None:
    stop = threading.Event()
    stop.set()
    board = opening()
    result = kernel.Searcher().search(board, Limit(infinite=True), stop=stop)
    assert result.move in board.legal_moves


def test_one_search_at_a_time_per_searcher() -> None:
    """A second search (or clear) while one runs is a RuntimeError; stop ends the first."""
    searcher = kernel.Searcher(hash_mb=1)
    started = threading.Event()
    results: list[object] = []

    def first() -> None:
        limit = Limit(infinite=True)
        results.append(searcher.search(opening(), limit, on_info=lambda info: started.set()))

    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert started.wait(WAIT)
        with pytest.raises(RuntimeError, match="already searching"):
            searcher.search(opening(), Limit(depth=1))
        for call in (searcher.clear, lambda: searcher.resize(2)):
            with pytest.raises(RuntimeError, match="already searching"):
                call()
    finally:
        searcher.stop()
        thread.join(WAIT)
    assert len(results) == 1
    searcher.clear()  # free again
    assert searcher.search(opening(), Limit(depth=2)).move in opening().legal_moves


def test_the_busy_flag_is_taken_before_any_python_code_runs() -> None:
    """Reading the moves runs Python code (here a generator): a search from there is refused."""
    from emergo import _kernel

    c = _kernel.Searcher(1)
    start = kernel.pack("w 12/12")
    seen: list[str] = []

    def moves() -> Iterator[tuple[int, ...]]:
        try:
            c.search(start, [], 2, 0, -1.0, -1.0, 1, None)
        except RuntimeError as e:
            seen.append(str(e))
        yield from ()

    term, lines, _, _, _, _ = c.search(start, moves(), 2, 0, -1.0, -1.0, 1, None)
    assert seen and "already searching" in seen[0]
    assert term is None and lines
    c.search(start, [], 2, 0, -1.0, -1.0, 1, None)  # the flag is free again


def test_ctrl_c_in_a_search_leaves_the_searcher_usable(python_sigint: None) -> None:
    searcher = kernel.Searcher(hash_mb=1)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):  # an infinite search: only the Ctrl-C ends it
        searcher.search(opening(), Limit(infinite=True))
    timer.join()
    board = opening()
    result = searcher.search(board, Limit(depth=3))  # not busy, table intact
    assert result.move in board.legal_moves and result.infos[0].depth == 3


def test_a_node_limit_past_64_bits_is_a_value_error() -> None:
    # Limit itself bounds every field (search.NODES_MAX, DEPTH_MAX): nothing wraps in the kernel.
    for nodes in (2**64, 18446744073709551617):
        with pytest.raises(
            ValueError, match=rf"Limit nodes must be an integer in 1\.\.\d+, not {nodes}"
        ):
            Limit(nodes=nodes)
    with pytest.raises(ValueError, match="Limit depth"):
        Limit(depth=2**31)
    deep = kernel.Searcher(hash_mb=1).search(Board("w 0/0 d4:w e4:b"), Limit(depth=100))
    assert str(deep.move) == "d4xf4"  # deeper than MAX_DEPTH: as deep as the search goes


def _resident_mb() -> float | None:
    """This process's resident memory (Linux), or ``None`` where /proc does not say."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except OSError:
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def test_clear_is_instant_even_for_a_large_table() -> None:
    """The table is cleared by generation (O(1)) and allocated lazily: no walk over 1 GB.

    Told by the memory, not the clock: a walk (or an eager allocation) would make the 1 GB
    resident; creating the table and clearing it 20 times touches next to none of it.
    """
    before = _resident_mb()
    searcher = kernel.Searcher(hash_mb=1024)
    for _ in range(20):
        searcher.clear()
    after = _resident_mb()
    if before is not None and after is not None:
        assert after - before < 256, f"{after - before:.0f} MB made resident by 20 clears"
    board = opening()
    first = searcher.search(board, Limit(depth=5))
    searcher.clear()
    again = searcher.search(board, Limit(depth=5))
    assert first.infos[0].nodes == again.infos[0].nodes  # cleared: the same search again
    fresh = kernel.Searcher(hash_mb=1024).search(board, Limit(depth=5))
    assert fresh.infos[0].nodes == first.infos[0].nodes


@pytest.mark.parametrize("variant", ["9x9", "7x7"])
def test_the_move_is_legal_in_random_positions(variant: str) -> None:
    rng = random.Random(7)
    searcher = kernel.Searcher(hash_mb=1)
    checked = 0
    for seed in range(40):
        game = kernel.random_game(Board(variant=variant), seed)
        ply = rng.randrange(len(game.moves) + 1)
        board = Board(variant=variant)
        for text in game.moves[:ply]:
            board.push_move(text)
        before = board.position()
        result = searcher.search(board, Limit(nodes=rng.choice([1, 30, 400])))
        assert board.position() == before
        if board.outcome() is not None:
            assert result.move is None
            continue
        assert result.move in board.legal_moves, (board.position(), result.move)
        for info in result.infos:  # every pv is a line of legal moves
            line = board.copy()
            for move in info.pv:
                assert move in line.legal_moves
                line.push(move)
        checked += 1
    assert checked > 20


# --- evaluation -----------------------------------------------------------------------------


def swap_colours(position: str) -> str:
    """The same position with the colours exchanged: stacks, hands and the player to move."""
    board = Board(position)
    flip = {"w": "b", "b": "w"}
    head = [] if board.variant == "9x9" else [board.variant]
    side = "b" if board.turn == WHITE else "w"
    hands = f"{board.hand(False)}/{board.hand(True)}"
    stacks = []
    for item in board.position().split()[len(head) + 2 :]:
        square, stack = item.split(":")
        stacks.append(square + ":" + "".join(flip.get(c, c) for c in stack))
    return " ".join([*head, side, hands, *stacks])


SAMPLES = [SEED_004, FEEDER, BLOCKADE, "w 7/6 d4:w e6:b", "b 0/3 c5:bw2 e5:w3b d6:b f4:bw"]


@pytest.mark.parametrize("position", SAMPLES)
def test_evaluation_is_colour_symmetric(position: str) -> None:
    swapped = swap_colours(position)
    assert Board(swapped).men(True) == Board(position).men(False)
    assert kernel.eval_features(swapped) == kernel.eval_features(position)
    assert kernel.evaluate(swapped) == kernel.evaluate(position)  # for the player to move

    def white_view(text: str) -> int:
        return kernel.evaluate(text) * (1 if Board(text).turn == WHITE else -1)

    assert white_view(swapped) == -white_view(position)


def test_evaluation_sees_material_and_threats_R9() -> None:
    assert kernel.evaluate("w 0/0 a5:w3 i5:b") > 150  # three men against one
    f = kernel.eval_features("b 0/0 d4:w e4:w2b e9:b")  # Black's thin stack can be jumped
    assert f["men"] == 4 - 1 and f["thin_prisoners"] == 2 - 0
    assert f["threat_pieces_move"] == 1 and f["threat_liberate_move"] == 2
    assert kernel.evaluate("w 0/0 d4:w e6:b") != 0  # 0 is kept for proven draws


def test_weights_file_and_errors(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    shipped = kernel.load_weights()
    assert set(shipped) == {t.name for t in kernel.eval_terms()}
    path = tmp_path / "w.txt"
    kernel.write_weights(shipped | {"men": 200}, path, header="test")
    assert kernel.load_weights(path)["men"] == 200
    doubled = kernel.evaluate("w 0/0 a5:w3 i5:b", weights=shipped | {"men": 200})
    assert doubled > kernel.evaluate("w 0/0 a5:w3 i5:b", weights=shipped)
    path.write_text("men 100\nqueens 9\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"w.txt:2: unknown evaluation term 'queens'"):
        kernel.load_weights(path)
    path.write_text("men lots\n", encoding="utf-8")
    with pytest.raises(ValueError, match="men needs an integer"):
        kernel.load_weights(path)
    with pytest.raises(ValueError, match="beyond"):
        kernel.Searcher(weights={"men": 10**6})
    with pytest.raises(ValueError, match="unknown evaluation terms: queens"):
        kernel.Searcher(weights={"queens": 9})


# --- the bench signature --------------------------------------------------------------------


def test_bench_signature_is_stable(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from emergo import bench, cli

    first = bench.measure_search(4)["signature"]
    assert bench.measure_search(4)["signature"] == first
    assert cli.main(["bench", "--search", "--depth", "4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["search"]["signature"] == first and "kernel" not in report
    assert report["search"]["nodes_per_s"] > 0
    assert cli.main(["bench", "--search", "--depth", "3"]) == 0
    assert "signature (total nodes)" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.skipif(
    os.environ.get("EMERGO_SANITIZE") == "1", reason="too slow under the sanitizers"
)
def test_bench_signature_is_pinned() -> None:
    from emergo import bench

    report = bench.measure_search(bench.SEARCH_DEPTH)
    assert report["signature"] == BENCH_SIGNATURE, (
        "the search or the weights changed: if meant, update BENCH_SIGNATURE"
    )
