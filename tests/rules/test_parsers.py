"""Every parser, fuzzed (issue 10): only the library's own errors, and time linear in the input.

The parsers are the position string (R22), move texts (R21: ``Board.parse_move``,
``Move.from_text``), square names (R1, R3) and game records (tags, comments, movetext).
Whatever the text, each either reads it or raises its own ``ValueError`` subclass with a
message, and takes time linear in the length of the text.
"""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import emergo
from emergo import (
    AmbiguousMoveError,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidSquareError,
    Move,
)
from emergo.record import (
    RecordError,
    read_game,
    read_games,
    read_headers,
    write_game,
    write_games,
)
from tests.plugins.common import examples

MOVE_ERRORS = (InvalidMoveError, IllegalMoveError, AmbiguousMoveError)
POSITIONS = [
    "w 12/12",
    "b 11/12 d4:w",
    "b 0/0 c5:b d6:b e4:w4 e5:b g4:w h4:b2",
    "w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b",
    "w 0/0 d5:b e5:w f5:b",
    "w 0/0 a5:w i5:b",
    "7x7 w 8/8",
    "7x7 b 0/3 a4:w d4:b3w2",
]


def texts_from(fragments: list[str]) -> st.SearchStrategy[str]:
    """Text built from the pieces a parser looks for, mixed with arbitrary characters."""
    piece = st.one_of(st.sampled_from(fragments), st.text(max_size=3))
    return st.lists(piece, max_size=30).map("".join)


MOVE_TEXT = texts_from(
    [*"abcdeghijwxz0123456789-x:!?+# \tXE", "d4", "e4", "c4", "h4", "f4", "e5", "١", "ｅ", "\n"]
)
POSITION_TEXT = texts_from(
    [
        *"wb /:0123456789",
        *("12/12", "0/0", "d4", "e5", "a4", "b2w3", "w2", "7x7 ", "9x9 ", "hex "),
        *("١٢", "\u00a0", "d4:w ", "e4:w4 ", "b4:bw2 "),
    ]
)
RECORD_TEXT = texts_from(
    [
        *'[]"\\{}();%$*.\n\r -x:',
        *("1.", "1...", "1-0", "0-1", "1/2-1/2", "½-½", "$1", "١."),
        *("d7", "e1", "c7", "e9", "d4", "h4xf4xd4", "hd4x", "\ufeff", '[Event "x"]\n'),
        *('[Variant "7x7"]\n', '[Position "w 1/1 d4:w"]\n', '[Names "checker"]\n'),
        *('[Result "1-0"]\n', '[Termination "blocked"]\n', '[White "a\rb"]\n', "\n\n"),
    ]
)


# --- fuzz: only the library's own errors ----------------------------------------------------


@settings(max_examples=examples(300), deadline=None)
@given(POSITION_TEXT, st.sampled_from([None, "9x9", "7x7"]))
def test_fuzz_position_strings_R22(text: str, variant: str | None) -> None:
    try:
        board = Board(text, variant=variant)
    except InvalidPositionError as e:
        assert str(e)
        return
    assert Board(board.position()) == board  # what reads, writes back canonically


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(POSITIONS), MOVE_TEXT, st.sampled_from(["oblique", "checker"]))
def test_fuzz_move_texts_R21(position: str, text: str, names: str) -> None:
    board = Board(position)
    try:
        move = board.parse_move(text, names)  # type: ignore[arg-type]
    except MOVE_ERRORS as e:
        assert str(e)
        assert board.position() == position
        return
    assert move in board.legal_moves


@settings(max_examples=examples(300), deadline=None)
@given(MOVE_TEXT, st.sampled_from(["9x9", "7x7"]))
def test_fuzz_move_from_text_R21(text: str, variant: str) -> None:
    try:
        move = Move.from_text(text, variant)
    except InvalidMoveError as e:
        assert str(e)
        return
    assert Move.from_text(str(move), variant) == move
    assert eval(repr(move), {"Move": Move}) == move


@settings(max_examples=examples(300), deadline=None)
@given(MOVE_TEXT, st.sampled_from(["9x9", "7x7"]), st.sampled_from(["oblique", "checker"]))
def test_fuzz_square_names_R1_R3(text: str, variant: str, names: str) -> None:
    try:
        sq = emergo.square(text, variant, names=names)  # type: ignore[arg-type]
    except InvalidSquareError as e:
        assert str(e)
        return
    assert emergo.square_name(sq, variant, names=names) == text.lower()  # type: ignore[arg-type]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(RECORD_TEXT)
def test_fuzz_records(text: str) -> None:
    games = list(read_games(io.StringIO(text), errors="collect"))  # collect never raises
    for game in games:
        assert all(isinstance(e, RecordError) and str(e) for e in game.errors)
        if not game.errors:  # a clean game writes, and reads back the same
            back = read_game(write_game(game))
            assert back is not None and back.to_json() == game.to_json()
            assert write_game(back) == write_game(game)
    if games and not any(game.errors for game in games):  # what was read is written back
        out = io.StringIO()
        write_games(games, out)
        read = text.removeprefix("\ufeff")  # (a byte order mark is no text)
        assert read.startswith(out.getvalue())
        rest = read[len(out.getvalue()) :]  # after the last game: blank and escape lines only
        assert all(not line.strip() or line.startswith("%") for line in rest.split("\n"))
    stream = io.StringIO(text)
    while True:
        try:
            if read_game(stream) is None:
                break
        except RecordError as e:
            assert e.line is not None
    with contextlib.suppress(RecordError):
        read_headers(text + "\n")  # a str with a line break is always record text


# --- time: linear in the length of the input -------------------------------------------------


def _quietly(parse: Callable[[str], object]) -> Callable[[str], object]:
    def run(text: str) -> object:
        try:
            return parse(text)
        except (ValueError, RecordError):  # every error here is a ValueError subclass
            return None

    return run


def _read_all(text: str) -> object:
    return list(read_games(io.StringIO(text), errors="collect"))


PARSERS: dict[str, Callable[[str], object]] = {
    "parse_move": _quietly(Board().parse_move),
    "from_text": _quietly(Move.from_text),
    "square": _quietly(emergo.square),
    "position": _quietly(Board),
    "record": _read_all,
}

ADVERSARIAL: list[tuple[str, Callable[[int], str]]] = [
    ("parse_move", lambda n: "!" * n + "a"),
    ("parse_move", lambda n: "a" * n),
    ("parse_move", lambda n: "x" * n),
    ("parse_move", lambda n: "h4x" * (n // 3)),
    ("parse_move", lambda n: " " * n + "d4"),
    ("from_text", lambda n: "d4x" * (n // 3)),
    ("square", lambda n: "e" * n),
    ("position", lambda n: "w 12/12 " + "d4:w " * (n // 5)),
    ("position", lambda n: "w " + "1" * n + "/12"),
    ("record", lambda n: "1. " + "!" * n + "a *\n"),
    ("record", lambda n: "1. " + "x" * n + " *\n"),
    ("record", lambda n: "{" * n + "\n"),
    ("record", lambda n: "}" * n + "\n"),
    ("record", lambda n: "(" * n + "\n"),
    ("record", lambda n: "{a}" * (n // 3) + "\n"),
    ("record", lambda n: "{\n" * (n // 2)),
    ("record", lambda n: "1. d7 " + "- " * (n // 2) + "*\n"),
    ("record", lambda n: "1" * n + "\n"),
    ("record", lambda n: "[" * n + "\n"),
    ("record", lambda n: '[Event "' + "\\" * n + "\n"),
    ("record", lambda n: '[Event "a"]' * (n // 11) + "\n\n*\n"),
    ("record", lambda n: '[Position "w ' + "1" * n + '/12"]\n\n*\n'),
    ("record", lambda n: "\n" * n),
]


def _seconds(parse: Callable[[str], object], text: str) -> float:
    """The best of three runs, in this process's CPU time: the machine is shared, and only the
    parser's own time counts."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        parse(text)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize(("parser", "make"), ADVERSARIAL)
def test_parsers_take_linear_time(parser: str, make: Callable[[int], str]) -> None:
    parse = PARSERS[parser]
    n = 20_000
    small = _seconds(parse, make(n))
    assert small < 0.5
    large = _seconds(parse, make(4 * n))
    assert large < 8 * small + 0.2  # quadratic would be 16 times slower
