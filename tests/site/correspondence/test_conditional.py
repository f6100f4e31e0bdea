"""Conditional moves (emergo.server.correspondence.conditional): built against real positions,
answered, JSON."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from emergo.board import BLACK, WHITE, Board
from emergo.server.correspondence.conditional import (
    MAX_LINE_PLIES,
    MAX_MOVES,
    Conditional,
    ConditionalError,
    answer,
    build,
    validate,
)

# A real 9x9 game (seeded random moves) that reached a position where Black, to move, must
# capture (R8) one of two ways, and White then has captures of his own.
GAME_9X9 = (
    "c7 h6 c3 e7 d2 i5 f8 e6 e4 g7 e1 d6 b6 g6 a5 g4 f3 f6 b4 h4 g3 d8 g3xg5 g6xg4 e9 c5 "
    "a5-b5 c5xa5 f8-e8 d8xf8 e4-e3 h6-g6 c7-c6 g5-f5 b4-b5 a5xc5xc7 f3-f4"
)
# A real hex game where White, to move, has three captures and Black answers with one.
GAME_HEX = (
    "b5 b1 d7 a4 g6 a4xc6 d7xb5 e6 d4 c1 a4 f7 a1 g7 d5 e6xc4xe4 e6 f7xd5 f5 g7xg5xe5 e2 d7 "
    "f3 c4 d6 a2"
)

GAME_7X7_END = (
    "c6 g4 d6 d3 e6 f5 c5 d7 e2 d7xd5xb5 f3 c2 d6 f4 a4 d2 e2-e3 c2-c3 e3-e4 f4xd4 e6-e5 "
    "f5xd5xd7 c6-c5 b5xd5 f3-e3 d3xf3 a4-b4 f3-e3 b4-c4"
)


def played(moves: str, variant: str = "9x9") -> Board:
    board = Board(variant=variant)
    for text in moves.split():
        board.push_move(text)
    return board


def test_if_he_captures_one_way_i_take_back_the_other_way_9x9() -> None:
    board = played(GAME_9X9)
    assert board.turn == BLACK and board.is_capturing()
    # abbreviated and differently written texts are read and kept canonical (R21)
    tree = build(board, ["f5xd3 c3xe3 e6-e5 e3-e4", ["G4XE2", "d2-f2"]], WHITE)
    assert tree.lines() == [
        ["f5xf3xd3", "c3xe3", "e6-e5", "e3-e4"],
        ["g4xe4xe2", "d2xf2"],
    ]
    reply, rest = answer(tree, "f5xf3xd3")
    assert reply == "c3xe3" and rest.lines() == [["e6-e5", "e3-e4"]]
    reply, rest = answer(rest, "e6-e5")
    assert reply == "e3-e4" and not rest
    assert answer(tree, "g4xe4xe2") == ("d2xf2", Conditional())
    # the replies really are the moves the position allows after the opponent's capture
    after = board.copy()
    after.push_move("g4xe4xe2")
    assert "d2xf2" in [after.move_text(m) for m in after.moves()]


def test_hex_conditional_capture_answered_by_a_capture() -> None:
    board = played(GAME_HEX, "hex")
    assert board.turn == WHITE
    tree = build(board, ["d6xd4xf4 e5xe3xg5"], BLACK)
    assert answer(tree, "d6xd4xf4") == ("e5xe3xg5", Conditional())
    assert answer(tree, "d6xd4xb4") == (None, Conditional())  # not foreseen: nothing, and no tree
    with pytest.raises(ConditionalError, match="your reply"):
        build(board, ["d6xd4xb4 e5xe3xg5"], BLACK)  # after the other capture it is not legal


def test_lines_sharing_a_beginning_become_one_tree() -> None:
    board = Board()
    board.push_move("d4")
    tree = build(board, ["e6 f4 c6 c4", "e6 f4 d6 d5", "c6 b4"], WHITE)
    assert tree.lines() == [["e6", "f4", "c6", "c4"], ["e6", "f4", "d6", "d5"], ["c6", "b4"]]
    assert len(tree) == 8
    reply, rest = answer(tree, "e6")
    assert reply == "f4" and sorted(rest.branches) == ["c6", "d6"]


def test_contradicting_lines_are_refused() -> None:
    board = Board()
    board.push_move("d4")
    with pytest.raises(ConditionalError, match=r"line 2: after e6 you reply both f4 and b4"):
        build(board, ["e6 f4", "e6 b4"], WHITE)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["e6"], "line 1 ends with the opponent's move e6: say what you reply"),
        ([""], "line 1 is empty"),
        (["e6 f4", "a1 b2"], r"line 2, first move: the opponent's move 'a1' cannot be played"),
        (["e6 d4"], r"line 1, after e6: your reply 'd4' cannot be played: illegal move"),
        ([["e6", 7]], "moves are texts"),
    ],
)
def test_bad_lines_are_refused_naming_line_and_move(lines: list[str], message: str) -> None:
    board = Board()
    board.push_move("d4")
    with pytest.raises(ConditionalError, match=message):
        build(board, lines, WHITE)


def test_only_the_waiting_side_and_only_while_the_game_goes_on() -> None:
    board = Board()
    board.push_move("d4")
    with pytest.raises(ConditionalError, match="it is Black's turn"):
        build(board, ["e4 f4"], BLACK)
    over = Board("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b")
    over.push_move("e4xc4xc6xe6xe4xc4")  # White's capture takes Black's last pieces (R18)
    with pytest.raises(ConditionalError, match="the game is over"):
        build(over, ["a5 a6"], WHITE)


def test_no_reply_after_a_move_that_ends_the_game() -> None:
    # a real 7x7 game in which Black's capture c3xc5 takes White's last piece (R18)
    board = played(GAME_7X7_END, "7x7")
    assert board.turn == BLACK
    with pytest.raises(ConditionalError, match=r"after c3xc5: the game is over there \(White"):
        build(board, ["c3xc5 a4"], WHITE)


def test_a_capture_the_priority_forbids_is_refused() -> None:
    """R8: with a capture on the board the opponent cannot step: such a line could never happen."""
    board = played(GAME_9X9)
    with pytest.raises(ConditionalError, match="cannot be played"):
        build(board, ["e6-e5 c3xe3"], WHITE)


def test_json_round_trip_and_stored_trees_checked() -> None:
    board = played(GAME_9X9)
    tree = build(board, ["f5xf3xd3 c3xe3 e6-e5 e3-e4", "g4xe4xe2 d2xf2"], WHITE)
    stored = json.loads(json.dumps(tree.to_json()))
    again = Conditional.from_json(stored)
    assert again == tree
    validate(board, again, WHITE)
    validate(board, Conditional(), WHITE)
    # the same tree no longer fits after the opponent moved otherwise
    elsewhere = board.copy()
    elsewhere.push_move("g4xe4xe2")
    with pytest.raises(ConditionalError):
        validate(elsewhere, tree, BLACK)
    # a tree written with non-canonical texts is refused
    with pytest.raises(ConditionalError, match="canonically"):
        validate(board, Conditional({"f5xd3": ("c3xe3", Conditional())}), WHITE)


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"e6": "f4"},
        {"e6": {"reply": "f4"}},
        {"e6": {"reply": 4, "then": {}}},
        {"e6": {"reply": "f4", "then": {}, "extra": 1}},
        {"": {"reply": "f4", "then": {}}},
    ],
)
def test_from_json_refuses_bad_shapes(data: object) -> None:
    with pytest.raises(ConditionalError):
        Conditional.from_json(data)


def test_size_limits() -> None:
    deep: dict[str, object] = {}
    node = deep
    for i in range(MAX_LINE_PLIES // 2 + 1):
        node[f"m{i}"] = {"reply": f"r{i}", "then": {}}
        node = node[f"m{i}"]["then"]  # type: ignore[index]
    with pytest.raises(ConditionalError, match="at most"):
        Conditional.from_json(deep)
    wide = {f"m{i}": {"reply": "r", "then": {}} for i in range(MAX_MOVES // 2 + 1)}
    with pytest.raises(ConditionalError, match="at most"):
        Conditional.from_json(wide)
    board = Board()
    board.push_move("d4")
    with pytest.raises(ConditionalError, match="at most"):
        build(board, [" ".join(["e6"] * (MAX_LINE_PLIES + 2))], WHITE)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["9x9", "7x7", "hex"]), st.integers(0, 30))
def test_random_lines_are_answered_as_written(seed: int, variant: str, prefix: int) -> None:
    """Random games: a random prefix, then random lines; playing any line along the tree
    gives its replies, and any other move gives none."""
    rng = random.Random(seed)
    board = Board(variant=variant)
    for _ in range(prefix):
        if board.is_game_over():
            return
        board.push(rng.choice(board.moves()))
    if board.is_game_over():
        return
    me = not board.turn
    lines = []
    for _ in range(rng.randint(1, 4)):
        play, line = board.copy(), []
        for _ in range(rng.randint(1, 4)):
            if play.is_game_over():
                break
            theirs = rng.choice(play.moves())
            line.append(play.move_text(theirs))
            play.push(theirs)
            if play.is_game_over():
                line.pop()
                break
            mine = rng.choice(play.moves())
            line.append(play.move_text(mine))
            play.push(mine)
        if line:
            lines.append(line)
    try:
        tree = build(board, lines, me)
    except ConditionalError as e:
        assert "reply both" in str(e)  # random lines may contradict each other; nothing else
        return
    for line in lines:
        node = tree
        for i in range(0, len(line), 2):
            reply, node = answer(node, line[i])
            assert reply == line[i + 1]
    others = [board.move_text(m) for m in board.moves() if board.move_text(m) not in tree.branches]
    for text in others:
        assert answer(tree, text) == (None, Conditional())
