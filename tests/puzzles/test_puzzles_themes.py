"""The puzzle themes: each tagger on hand-made lines, with and without its theme (docs/puzzles.md).

The lines are built by hand on the 9x9 board (R1); the taggers read them as they are (whether a
line is a puzzle is the generator's question, not theirs).
"""

from __future__ import annotations

import pytest

from emergo.board import BLACK, WHITE, Board
from emergo.puzzles import THEMES
from emergo.puzzles.line import balance, free_men, groups, hops, revisits, settle
from emergo.puzzles.themes import TAGGERS, Line, tag

FEEDER = ("w 0/0 c5:w d5:w e5:w e7:b g3:b", ["e5-e6", "e7xe5", "d5xf5"])
"""White steps into the black man's jump (a feed, R8), Black must take it (R8) and lands on
e5 with the white man under him, and d5 jumps him: the man is free again (R9)."""
MINDSPORTS = ("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b", ["e4xc4xc6xe6xe4xc4"])
"""Seed 004's capture: five men, d4 jumped twice, c4 landed on twice (R10, R11), the two
white prisoners of d4 liberated (R9); Black has nothing left (R18)."""


def themes(position: str, moves: list[str]) -> tuple[str, ...]:
    return tag(Line.play(position, moves))


def test_every_theme_has_a_tagger_in_the_order_of_the_list() -> None:
    assert list(TAGGERS) == list(THEMES)
    assert all(THEMES[name] for name in THEMES)  # each says what it means


def test_a_line_keeps_every_position_fresh() -> None:
    line = Line.play(*FEEDER)
    assert len(line.boards) == 4 and [str(m) for m in line.moves] == FEEDER[1]
    assert line.solver == WHITE
    assert all(not b.move_stack for b in line.boards)
    assert line.boards[-1].position() == "b 0/0 c5:w e5:w f5:bw g3:b"
    assert [i for i, *_ in line.solver_moves()] == [0, 2]
    with pytest.raises(ValueError, match="illegal"):
        Line.play(FEEDER[0], ["e5-e4", "e7xe5"])


# --- feed, decapitation, liberation, the feeder --------------------------------------------------


def test_feed_a_quiet_move_that_makes_the_opponent_capture() -> None:
    assert TAGGERS["feed"](Line.play(*FEEDER))
    # the same position, a step that gives nothing: no capture follows
    assert not TAGGERS["feed"](Line.play(FEEDER[0], ["e5-f5"]))
    # a capture is not a feed, even when a capture answers it
    assert not TAGGERS["feed"](Line.play("w 0/0 d5:w e5:wb2 g3:b", ["d5xf5"]))


def test_decapitation_takes_a_guard_off_a_piece_with_prisoners() -> None:
    # two black guards over a white man: one goes, one stays (no liberation)
    line = Line.play("w 0/0 d5:w e5:wb2 g3:b", ["d5xf5"])
    assert TAGGERS["decapitation"](line) and not TAGGERS["liberation"](line)
    assert line.boards[-1].stack("e5") == (BLACK, 1, 1)
    # a man without prisoners: a capture, no decapitation
    plain = Line.play("w 0/0 d5:w e5:b g3:b", ["d5xf5"])
    assert not TAGGERS["decapitation"](plain) and not TAGGERS["liberation"](plain)


def test_liberation_takes_the_last_guard() -> None:
    line = Line.play("w 0/0 d5:w e5:wb g3:b", ["d5xf5"])
    assert TAGGERS["liberation"](line) and TAGGERS["decapitation"](line)
    assert line.boards[-1].stack("e5") == (WHITE, 1, 0)  # the prisoner is White's piece again
    # the opponent's liberation is not the solver's theme (and a5-b5 gives him nothing: the
    # capture was his already, so it is no feed either)
    theirs = Line.play("w 0/0 a5:w e3:b e4:b e5:bw", ["a5-b5", "e4xe6"])
    assert theirs.boards[-1].stack("e5") == (BLACK, 1, 0)
    assert not TAGGERS["liberation"](theirs) and not TAGGERS["feed"](theirs)


def test_the_feeder_combination_feeds_then_liberates_the_captor() -> None:
    assert TAGGERS["feederCombination"](Line.play(*FEEDER))
    # a feed to a piece of two guards: the capture after it takes one, the fed man stays
    guarded = Line.play("w 0/0 c5:w d5:w e5:w e7:b2 g3:b", ["e5-e6", "e7xe5", "d5xf5"])
    assert TAGGERS["feed"](guarded) and TAGGERS["decapitation"](guarded)
    assert not TAGGERS["liberation"](guarded) and not TAGGERS["feederCombination"](guarded)
    # a liberation without a feed before it
    assert not TAGGERS["feederCombination"](Line.play("w 0/0 d5:w e5:wb g3:b", ["d5xf5"]))


def test_the_feeder_follows_the_captor_when_it_moves() -> None:
    # Black's captor steps on from e5 to d5; the liberation there still completes the feeder
    position = "w 0/0 a5:w d4:w e5:w e7:b i5:b"
    line = Line.play(position, ["e5-e6", "e7xe5", "a5-b5", "e5-d5", "d4xd6"])
    assert not TAGGERS["feederCombination"](Line.play(position, ["e5-e6", "e7xe5", "a5-b5"]))
    assert TAGGERS["feederCombination"](line)


# --- the capture itself -----------------------------------------------------------------------


def test_majority_capture_when_tied_routes_end_apart() -> None:
    two = Line.play("w 0/0 e5:w e6:b d5:b g3:b", ["e5xe7"])
    assert len(groups(two.boards[0])) == 2 and TAGGERS["majorityCapture"](two)
    # one route only (R11 leaves the shorter one out)
    assert not TAGGERS["majorityCapture"](Line.play(*MINDSPORTS))
    # a choice of quiet moves is not a capture's choice
    assert not TAGGERS["majorityCapture"](Line.play(FEEDER[0], ["e5-f5"]))


def test_long_capture_revisits_a_square_or_jumps_a_piece_twice() -> None:
    line = Line.play(*MINDSPORTS)
    assert revisits(line.moves[0]) and TAGGERS["longCapture"](line)
    assert [h.square for h in hops(line.boards[0], line.moves[0])].count(
        line.boards[0].geometry.parse_square("d4")
    ) == 2
    second_jump = [h for h in hops(line.boards[0], line.moves[0])][-1]
    assert (second_jump.caps, second_jump.prisoners) == (1, 2)  # one guard left the 2nd time
    assert not TAGGERS["longCapture"](Line.play("w 0/0 e5:w e6:b d5:b g3:b", ["e5xe7"]))


# --- entering, the shadowpiece, blockade, the endgame, quiet moves ----------------------------


def test_the_shadowpiece_and_the_entering_phase() -> None:
    line = Line.play("w 3/0 a5:b e9:b", ["d4"])
    assert line.moves[0].entered == 3  # R14: all three men at once
    assert TAGGERS["shadowpiece"](line) and TAGGERS["entering"](line)
    single = Line.play("w 3/1 a5:b e9:b", ["d4"])
    assert not TAGGERS["shadowpiece"](single) and TAGGERS["entering"](single)
    assert not TAGGERS["entering"](Line.play(*FEEDER))


def test_blockade_leaves_the_opponent_three_moves_at_most() -> None:
    # a black man in the corner a5 has one square to go to
    line = Line.play("w 0/0 a5:b e1:w e2:w", ["e2-e3"])
    assert len(line.boards[1].moves()) == 1 and TAGGERS["blockade"](line)
    # the same man in the centre has four
    assert not TAGGERS["blockade"](Line.play("w 0/0 e5:b e1:w e2:w", ["e2-e3"]))
    # a capture is no blockade, nor a move the opponent answers by capturing
    assert not TAGGERS["blockade"](Line.play("w 0/0 d5:w e5:wb a5:b", ["d5xf5"]))


def test_the_endgame_has_no_men_in_hand_and_five_pieces_at_most() -> None:
    assert TAGGERS["endgame"](Line.play(*MINDSPORTS))  # five pieces
    six = "w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b i5:b"
    assert not TAGGERS["endgame"](Line.play(six, ["e4xc4xc6xe6xe4xc4"]))
    assert not TAGGERS["endgame"](Line.play("w 3/1 a5:b e9:b", ["d4"]))


def test_a_quiet_move_neither_captures_nor_feeds_and_is_not_forced() -> None:
    assert TAGGERS["quietMove"](Line.play("w 0/0 e5:b e1:w e2:w", ["e2-e3"]))
    assert not TAGGERS["quietMove"](Line.play(*FEEDER))  # its quiet move feeds
    assert not TAGGERS["quietMove"](Line.play(*MINDSPORTS))
    # a forced step (the only legal move) is nothing to find
    forced = "w 0/0 a5:w c5:b"
    assert len(Board(forced).moves()) == 1
    assert not TAGGERS["quietMove"](Line.play(forced, ["a5-b5"]))


def test_win_and_the_length_themes() -> None:
    assert themes(*MINDSPORTS) == (
        "decapitation",
        "liberation",
        "longCapture",
        "endgame",
        "win",
        "oneMove",
    )
    assert not TAGGERS["win"](Line.play(*FEEDER))
    assert TAGGERS["short"](Line.play(*FEEDER)) and not TAGGERS["oneMove"](Line.play(*FEEDER))
    position = "w 0/0 a5:w d4:w e5:w e7:b i5:b"
    long = Line.play(position, ["e5-e6", "e7xe5", "a5-b5", "e5-d5", "d4xd6"])
    assert TAGGERS["long"](long) and not TAGGERS["short"](long)


# --- material ---------------------------------------------------------------------------------


def test_material_is_free_men_and_counts_the_captures_that_follow() -> None:
    board = Board("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b")
    assert (free_men(board, WHITE), free_men(board, BLACK)) == (3, 5)
    assert balance(board, WHITE) == -2 and balance(board, BLACK) == 2
    assert free_men(Board("w 3/1 a5:b e9:b"), WHITE) == 3  # men in hand count
    # after the feed, the forced capture and the liberation are counted: White gains 2
    after_feed = Line.play(FEEDER[0], ["e5-e6"]).boards[-1]
    assert balance(after_feed, WHITE) == 1  # nothing taken yet
    total, where = settle(after_feed, WHITE)
    assert where.position() == "b 0/0 c5:w e5:w f5:bw g3:b"
    assert total == 2
    # a quiet position settles to itself
    quiet = Board(FEEDER[0])
    total, where = settle(quiet, WHITE)
    assert total == balance(quiet, WHITE) == 1 and where == quiet
