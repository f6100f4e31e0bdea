"""Analysis for people: scores from White's view, position reports, game reviews, annotation."""

from __future__ import annotations

import io
import threading

import pytest

from emergo import Board
from emergo.analyse import (
    analyse_position,
    eval_token,
    final_score,
    format_score,
    mark_of,
    review_game,
    white_view,
)
from emergo.board import BLACK, WHITE
from emergo.cli.analyse import position_report, review_summary
from emergo.pysearch import PythonSearcher
from emergo.record import Eval, Game, read_game, write_game
from emergo.search import InfoCallback, Limit, Score, SearchInfo, SearchResult


class Scripted:
    """A fake searcher: per position (R22 string), the score for the mover and the best move."""

    def __init__(self, table: dict[str, tuple[int, str]]) -> None:
        self.table = table

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
        value, best = self.table[board.position()]
        move = board.parse_move(best)
        info = SearchInfo(depth=7, score=Score.cp(value), pv=(move,))
        return SearchResult(move, None, (info,))


def test_scores_for_people_are_from_whites_view() -> None:
    assert white_view(Score.cp(120), WHITE) == Score.cp(120)
    assert white_view(Score.cp(120), BLACK) == Score.cp(-120)
    assert white_view(Score.win(5), BLACK) == Score.loss(5)
    assert [format_score(s) for s in (Score.cp(0), Score.cp(7), Score.draw())] == [
        "0.00",
        "+0.07",
        "draw",
    ]
    assert eval_token(Score.cp(135), 12) == "+1.35/12"
    assert eval_token(Score.loss(4), None) == "-win4"


def test_marks_by_men_lost() -> None:
    assert [mark_of(n)[0] for n in (0, 49, 50, 99, 100, 299, 300, 5000)] == [
        "", "", "?!", "?!", "?", "?", "??", "??",
    ]  # fmt: skip


def test_final_score_of_ended_games_R18_R19() -> None:
    assert final_score(Board("w 0/0 c4:w8b4 f6:w4b2 g5:b6")) == Score.loss(0)  # R18
    assert final_score(Board()) is None


def test_analyse_position_reports_ranked_lines_from_whites_view() -> None:
    board = Board()
    for text in ["d4", "e5", "f6", "c5"]:
        board.push_move(text)
    infos = analyse_position(board, PythonSearcher(), Limit(depth=2), multipv=2)
    assert [info.multipv for info in infos] == [1, 2]
    assert infos[0].score == Score.cp(200) and str(infos[0].pv[0]) == "d5"
    report = position_report(board, infos)
    assert "White to move" in report
    assert "evaluation: +2.00 (White's view)" in report
    assert " 1.      +2.00/2  d5 " in report
    # R3: the same line in checkerboard names
    checker = position_report(board, infos, names="checker")
    assert board.move_text(infos[0].pv[0], "checker") in checker.splitlines()[2]
    assert analyse_position(Board("w 0/0 c4:w8b4 f6:w4b2 g5:b6"), PythonSearcher(), Limit()) == ()
    with pytest.raises(ValueError, match="multipv"):
        analyse_position(board, PythonSearcher(), Limit(depth=1), multipv=0)


def scripted_game() -> tuple[Game, Scripted]:
    """Four moves; Black's second loses three men against the engine's choice."""
    game = Game(White="Ann", Black="Bob")
    boards = [Board()]
    game.add_line(["d4", "e5", "f6", "c5"])
    for text in ["d4", "e5", "f6", "c5"]:
        board = boards[-1].copy()
        board.push_move(text)
        boards.append(board)
    game.node_at((0, 0)).comment = "a sharp reply"
    table = {
        boards[0].position(): (0, "d4"),  # White's view 0.00; d4 is the engine's move
        boards[1].position(): (0, "e5"),  # Black: 0.00, e5 is best
        boards[2].position(): (-40, "g4"),  # White to move: -0.40
        boards[3].position(): (50, "a5"),  # Black +0.50, best a5
        boards[4].position(): (250, "d5"),  # White +2.50: so c5 lost 0.50 + 2.50 = 3 men
    }
    return game, Scripted(table)


def test_review_measures_each_moves_loss_against_the_best() -> None:
    game, searcher = scripted_game()
    review = review_game(game, searcher, Limit(depth=7))
    losses = [(str(r.move), r.loss, r.mark) for r in review.moves]
    # d4 and e5 are the engine's own moves: no loss whatever follows.
    assert losses == [("d4", 0, ""), ("e5", 0, ""), ("f6", 10, ""), ("c5", 300, "??")]
    c5 = review.moves[3]
    assert c5.before == Score.cp(50) and c5.after == Score.cp(-250)  # for Black
    assert review.mistakes(BLACK) == [c5] and review.mistakes(WHITE) == []
    summary = review_summary(review)
    assert "Ann (White) vs Bob (Black): *, 4 plies" in summary
    assert "Black: 1 blunder, 0 mistakes, 0 inaccuracies; mean loss 150 centi-men" in summary
    assert "2... c5 ?? lost 3.00 (best a5, -0.50 -> +2.50)" in summary


def test_annotated_record_has_values_marks_and_the_better_line() -> None:
    game, searcher = scripted_game()
    annotated = review_game(game, searcher, Limit(depth=7)).annotated()
    d4, e5, f6, c5 = annotated.mainline()
    # White's view: after d4 Black's 0.00 is White's 0.00, after f6 Black's +0.50 is -0.50
    assert [n.eval for n in (d4, e5, f6, c5)] == [
        Eval.cp(0, 7),
        Eval.cp(-40, 7),
        Eval.cp(-50, 7),
        Eval.cp(250, 7),
    ]
    assert e5.comment == "a sharp reply" and c5.nags == {4} and not f6.nags  # c5 is a blunder
    (better,) = f6.variations[1:]  # the engine's line where the move lost
    assert str(better.move) == "a5" and better.eval == Eval.cp(-50)
    assert annotated.headers["Annotator"] == "emergo analyse"
    text = write_game(annotated)
    assert text.endswith(
        "1. d4 {[%eval 0.00,7]} 1... e5 {[%eval -0.40,7] a sharp reply} 2. f6\n"
        "{[%eval -0.50,7]} 2... c5?? {[%eval 2.50,7]} (2... a5 {[%eval -0.50]}) *\n"
    )
    again = read_game(io.StringIO(text))
    assert again is not None and again.to_json() == annotated.to_json()
    assert game.next() is not None and game.next().eval is None  # the original is untouched
    assert len(f6.parent.variations) == 1 or game.node_at((0, 0, 0)).variations == []


def test_annotating_a_read_record_keeps_its_text() -> None:
    _, searcher = scripted_game()
    text = '[White "Ann"]   [Black "Bob"]\n\n1. d4 ; opening\n   e5 {a sharp reply} 2.f6  c5!? *\n'
    game = read_game(text)
    assert game is not None
    annotated = write_game(review_game(game, searcher, Limit(depth=7)).annotated())
    assert annotated == (
        '[White "Ann"]   [Black "Bob"]\n[Annotator "emergo analyse"]\n\n'
        "1. d4 {[%eval 0.00,7]} ; opening\n   1... e5 {[%eval -0.40,7] a sharp reply} "
        "2.f6 {[%eval -0.50,7]}  2... c5!?\n{[%eval 2.50,7]} (2... a5 {[%eval -0.50]}) *\n"
    )  # what was there is kept (the !? too: the engine's ?? is no mark of a person's)


def test_review_of_a_finished_game_scores_the_end_exactly_R18() -> None:
    board = Board("w 0/0 c5:w d5:b d6:w")
    game = Game.from_board(board, White="Ann", Black="Bob")
    game.add_variation("c5xe5")  # Black has nothing left (R18)
    review = review_game(game, PythonSearcher(), Limit(depth=2))
    (move,) = review.moves
    assert move.after == Score.win(0) and move.loss == 0 and move.depth is None
    node = review.annotated().next()
    assert node is not None and node.eval == Eval.win(0)
    assert "{[%eval #0]}" in str(review.annotated())


def test_forced_captures_take_the_value_of_the_position_after_them_R8() -> None:
    board = Board()
    for text in ["f3", "f2", "d5"]:
        board.push_move(text)
    assert [str(m) for m in board.moves()] == ["f2xf4"]  # Black must capture (R8)
    game = Game.from_board(board)
    game.end().add_variation("f2xf4")
    after = game.end().board()
    reply = after.moves()[0]
    game.end().add_variation(reply)
    boards = [Board()]
    for move in game.mainline_moves():
        boards.append(boards[-1].copy())
        boards[-1].push(move)
    table = {  # no entry for boards[3]: the forced position must not be searched
        boards[0].position(): (0, "f3"),
        boards[1].position(): (0, "f2"),
        boards[2].position(): (0, "e5"),
        boards[4].position(): (-150, str(reply)),
        boards[5].position(): (150, str(boards[5].moves()[0])),
    }
    review = review_game(game, Scripted(table), Limit(time=0.1))
    d5, capture, last = review.moves[2], review.moves[3], review.moves[4]
    assert d5.after == Score.cp(-150) and d5.loss == 150 and d5.mark == "?"
    assert capture.loss == 0 and capture.best == capture.move and capture.depth == 7
    assert last.loss == 0
    # A position: the forced capture is played through and the next choice searched.
    infos = analyse_position(boards[3], Scripted(table), Limit(time=0.1))
    assert infos[0].score == Score.cp(150) and infos[0].pv[:2] == (capture.move, reply)
