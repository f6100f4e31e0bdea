"""Tests of emergo.record's trees: variations, NAGs, comments and their commands, the visitors,
the JSON form, and writing back what was read byte for byte (docs/records.md)."""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emergo import Board
from emergo.errors import IllegalMoveError
from emergo.record import (
    SKIP,
    BaseVisitor,
    BoardBuilder,
    ChildNode,
    Eval,
    Game,
    GameNode,
    HeadersBuilder,
    MoveCounter,
    RecordError,
    Shape,
    read_game,
    read_games,
    read_headers,
    skip_game,
    write_game,
    write_games,
)
from tests.plugins.common import DATA, ROOT, examples

RECORDS = DATA / "records"
ANNOTATED = RECORDS / "annotated.egn"


def read_one(text: str, **kw: Any) -> Game:
    game = read_game(io.StringIO(text), **kw)
    assert game is not None
    return game


def error_of(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_one(text)
    return info.value


def texts(node: GameNode) -> list[str]:
    return [str(child.move) for child in node.variations]


# --- the hand-written record ----------------------------------------------------------------------


def test_annotated_record_round_trips_byte_identical() -> None:
    text = ANNOTATED.read_text(encoding="utf-8")
    game = read_one(text)
    assert not game.errors
    out = io.StringIO()
    write_games([game], out)  # with the escape lines before the game
    assert out.getvalue() == text
    assert write_game(game) == text[text.index("[Event") :]


def test_annotated_record_is_read_into_its_tree() -> None:
    game = read_one(ANNOTATED.read_text(encoding="utf-8"))
    assert game.headers["White"] == "Ann" and game.headers["Black"] == "Bob"
    assert game.comment == "The centre e5 is closed to White's first entry (R16)."
    assert game.shapes == [Shape("e5", brush="green")]
    d7 = game.next()
    assert d7 is not None and str(d7.move) == "d7"
    assert (d7.clock, d7.eval) == (300.0, Eval.cp(10, depth=8))
    assert texts(d7) == ["e1", "e9", "f2", "c3", "a5"]  # f2 was nested inside e9's variation
    e1, e9, f2, c3, a5 = d7.variations
    assert (e1.nags, e1.clock, e1.comment) == ({6}, 298.5, "Black goes to the edge.")
    assert e9.starting_comment == "Instead:" and e9.comment == "mirrored back to e9"
    assert e9.arrows() == [Shape("e9", "e1", "red")] and e9.circles() == []
    assert texts(e9) == ["c7", "g7"] and e9.variations[1].comment == "also"
    assert (f2.nags, f2.eval) == ({5}, Eval.cp(-5))
    assert texts(f2) == ["c7"] and texts(c3) == []
    assert (a5.starting_comment, a5.nags) == ("two ways that fail", {4, 14})
    c7 = e1.next()
    assert c7 is not None and c7.nags == {1} and c7.clock == 295.0
    assert c7.shapes == [
        Shape("c7", brush="red"),
        Shape("d7"),
        Shape("c7", "c5"),
        Shape("d7", "f7", "yellow"),
    ]
    g7 = game.end().parent
    assert isinstance(g7, ChildNode) and texts(g7.parent) == ["g7", "g5", "f5"]
    assert [str(m) for m in game.mainline_moves()] == ["d7", "e1", "c7", "f2", "g7", "h4"]


def test_annotated_record_written_canonically_reads_as_the_same_tree() -> None:
    game = read_one(ANNOTATED.read_text(encoding="utf-8"))
    text = write_game(game, canonical=True)
    assert "(1... f2!? {[%eval -0.05]} 2. c7)" in text  # the nested alternative, flattened
    assert "2. c7! {[%clk 0:04:55] [%csl Rc7,Gd7] [%cal Gc7c5,Yd7f7]}" in text
    back = read_one(text)
    assert back.to_json() == game.to_json()
    assert write_game(back) == text


# --- edits change only what was edited ------------------------------------------------------------

REST_OF_THE_MAIN_LINE = """
2. c7! {[%clk 0:04:55] [%csl Rc7,Gd7][%cal Gc7c5,Yd7f7]}
; a remark the record does not keep
2... f2 3. g7 {quiet} ( 3. g5 ( 3. f5 ) ) 3... h4 *"""
EDITS: list[tuple[str, Any, list[tuple[str, str]]]] = [
    (
        "comment",
        lambda g: setattr(g.variations[0].variations[1].variations[0], "comment", "new"),
        [("  2. c7 (2. g7", "  2. c7 {new} (2. g7")],
    ),
    (
        "clock",
        lambda g: setattr(g.variations[0].variations[0], "clock", 297.0),
        [("[%clk 0:04:58.5] Black", "[%clk 0:04:57] Black")],
    ),
    ("nag", lambda g: g.variations[0].nags.add(3), [("1. d7 {", "1. d7!! {")]),
    (
        "shape",
        lambda g: g.end().parent.shapes.append(Shape("a5", "b5", "blue")),
        [("3. g7 {quiet}", "3. g7 {[%cal Ba5b5] quiet}")],
    ),
    ("tag", lambda g: g.headers.update(White="Anna"), [('[White "Ann"]', '[White "Anna"]')]),
    (
        "new tag",
        lambda g: g.headers.update(ECO="X00"),
        [('[Annotator "by hand"]\n', '[Annotator "by hand"]\n[ECO "X00"]\n')],
    ),
    (
        "a variation removed",
        lambda g: g.variations[0].remove_variation(3),
        [("2... f2 )\n  ( 1... c3 ) {two", "2... f2 ) {two")],
    ),
    (
        "a variation added inside one",
        lambda g: g.variations[0].variations[1].variations[0].add_variation("a5"),
        [("2. c7 (2. g7 {also}) 2... f2 )", "2. c7 (2. g7 {also}) 2... f2 (2... a5) )")],
    ),
    (
        "a comment added",
        lambda g: setattr(g.node_at((0, 0, 0, 0)), "comment", "new"),
        [("\n2... f2 3. g7", "\n2... f2 {new} 3. g7")],
    ),
    (
        "a comment changed",
        lambda g: setattr(g.node_at((0, 0, 0, 0, 0)), "comment", "loud"),
        [("3. g7 {quiet}", "3. g7 {loud}")],
    ),
    (
        "a variation added",
        lambda g: g.node_at((0, 0, 0)).add_variation("e9"),
        [("\n2... f2 3. g7", "\n2... f2 (2... e9) 3. g7")],
    ),
    (
        "a move added at the end",
        lambda g: g.end().add_variation("a5"),
        [("3... h4 *", "3... h4 4. a5 *")],
    ),
    (
        "the main line cut",
        lambda g: g.variations[0].variations[0].remove_variation(0),
        [(REST_OF_THE_MAIN_LINE, " *")],
    ),
]


@pytest.mark.parametrize(
    ("edit", "change"), [(e[1], e[2]) for e in EDITS], ids=[e[0] for e in EDITS]
)
def test_an_edit_changes_only_its_own_text(edit: Any, change: list[tuple[str, str]]) -> None:
    text = ANNOTATED.read_text(encoding="utf-8")
    text = text[text.index("[Event") :]
    game = read_one(text)
    edit(game)
    expected = text
    for old, new in change:
        assert old in expected
        expected = expected.replace(old, new, 1)
    written = write_game(game)
    assert written == expected
    assert read_one(written).to_json() == game.to_json()


def test_what_follows_an_insertion_keeps_its_text() -> None:
    text = "1. d7 ; the centre\n   e1 2. c7 *\n"
    game = read_one(text)
    d7 = game.node_at((0,))
    d7.comment = "new"
    # Black's move gets the number a comment before it calls for; the rest is as it was.
    assert write_game(game) == "1. d7 {new} ; the centre\n   1... e1 2. c7 *\n"
    d7.comment = ""
    d7.nags.add(1)
    assert write_game(game) == "1. d7! ; the centre\n   e1 2. c7 *\n"
    game.add_variation("c7")  # an alternative to d7
    assert write_game(game) == "1. d7! (1. c7) ; the centre\n   1... e1 2. c7 *\n"
    d7.add_variation("c7")  # and one to e1
    assert write_game(game) == "1. d7! (1. c7) ; the centre\n   1... e1 (1... c7) 2. c7 *\n"


def test_what_follows_a_rewritten_piece_keeps_its_text() -> None:
    text = "1. d7 {old} ; a remark\n   e1 2. c7 *\n"
    game = read_one(text)
    d7 = game.node_at((0,))
    d7.comment = "new"
    game.add_variation("c7")  # new text after the rewritten comment
    assert write_game(game) == "1. d7 {new} (1. c7) ; a remark\n   1... e1 2. c7 *\n"
    d7.comment = ""  # a piece left out: what followed it keeps its lead
    game.remove_variation(1)
    assert write_game(game) == "1. d7 ; a remark\n   e1 2. c7 *\n"
    game.headers["Event"] = "x"
    del game.headers["Event"]
    assert write_game(game) == "1. d7 ; a remark\n   e1 2. c7 *\n"


def test_promoting_a_variation_rewrites_the_lines_it_swaps() -> None:
    game = read_one("1. d7 e1 {edge} (1... e9 {mirror} 2. c7) 2. c7 *\n")
    game.variations[0].promote_to_main(1)
    assert write_game(game) == "1. d7 e9 {mirror} (1... e1 {edge} 2. c7) 2. c7 *\n"
    game.variations[0].demote(0)  # back again: the text as it was read
    assert write_game(game) == "1. d7 e1 {edge} (1... e9 {mirror} 2. c7) 2. c7 *\n"


def test_a_read_game_copied_writes_the_same_text() -> None:
    text = ANNOTATED.read_text(encoding="utf-8")
    game = read_one(text)
    twin = game.copy()
    assert write_game(twin) == write_game(game) and twin.to_json() == game.to_json()
    twin.variations[0].comment = "changed"
    assert "changed" not in write_game(game)


def test_write_games_keeps_what_stood_between_games() -> None:
    text = (RECORDS / "tolerant.egn").read_text(encoding="utf-8")
    out = io.StringIO()
    assert write_games(read_games(text), out) == 4
    assert out.getvalue() == text
    built = [Game(Event="a"), Game(Event="b")]
    out = io.StringIO()
    write_games([*read_games("1. d4 *"), *built], out)
    assert out.getvalue().startswith('1. d4 *\n[Event "a"]')  # a newline where the text had none
    assert '[Variant "9x9"]\n\n*\n\n[Event "b"]' in out.getvalue()


# --- the tree -------------------------------------------------------------------------------------


def test_tree_navigation_and_editing_as_python_chess() -> None:
    game = Game()
    d7 = game.add_variation("d7")
    e1 = d7.add_variation("e1")
    e9 = d7.add_variation("e9", comment="mirror", starting_comment="or", nags=[5])
    c7 = e1.add_variation("c7")
    assert [n.ply() for n in (game, d7, e1, c7)] == [0, 1, 2, 3]
    assert (game.turn(), d7.turn()) == (True, False)
    assert game.end() is c7 and c7.is_end() and not d7.is_end()
    assert e9.starts_variation() and not e1.starts_variation() and not game.starts_variation()
    assert c7.is_mainline() and not e9.is_mainline() and e9.is_main_variation() is False
    assert d7.next() is e1 and c7.next() is None and c7.game() is game
    assert list(game.mainline()) == [d7, e1, c7] and list(e9.mainline()) == []
    assert (e9.path(), c7.path(), game.node_at((0, 1))) == ((0, 1), (0, 0, 0), e9)
    with pytest.raises(IndexError, match=r"no node at \(0, 2\)"):
        game.node_at((0, 2))
    assert d7.variation(1) is d7.variation(e9.move) is d7.variation(e9) is e9
    with pytest.raises(KeyError):
        d7.variation(5)
    assert d7.has_variation(e9.move) and not d7.has_variation(c7.move)
    d7.promote(e9)
    assert d7.variations == [e9, e1]
    d7.demote(0)
    assert d7.variations == [e1, e9]
    d7.promote_to_main(e9.move)
    assert d7.next() is e9 and game.end() is e9
    main = d7.add_main_variation("c7", comment="first now")
    assert d7.variations == [main, e9, e1] and main.comment == "first now"
    d7.remove_variation(main)
    assert d7.variations == [e9, e1]
    assert c7.board().position() == "b 10/11 c7:w d7:w e1:b"
    assert c7.move_text("checker") == "e9" and repr(c7) == "<ChildNode 2. c7>"
    last = e1.add_line(["g7", "f2"], comment="a line", nags=[1])
    assert isinstance(last, ChildNode) and last.comment == "a line" and last.nags == {1}
    assert texts(e1) == ["c7", "g7"] and last.parent is e1.variations[1]


def test_boards_of_nodes_know_the_moves_before_them_R19b() -> None:
    game = Game(Position="w 0/0 c4:w e6:b")
    node: GameNode = game
    for text in ["c4-c5", "e6-e5", "c5-c4", "e5-e6"] * 2:
        node = node.add_variation(text)
    assert node.board().repetitions() == 3 and node.board().outcome() is not None
    with pytest.raises(RecordError, match=r"played after the game ended: the same position"):
        node.add_variation("c4-c5")
    assert game.outcome() is not None and "repetition" in str(game)
    with pytest.raises(IllegalMoveError):
        game.add_variation("c4-c6")
    assert len(game.variations) == 1  # nothing changed


# --- reading: variations, NAGs, commands ----------------------------------------------------------


def test_variations_are_played_from_the_position_before_their_move() -> None:
    game = read_one("1. d7 e1 (1... e9 2. c7 (2. g7 e1)) 2. e9 *\n")  # e1 again in a variation
    e9 = game.variations[0].variations[1]
    assert texts(e9) == ["c7", "g7"] and texts(e9.variations[1]) == ["e1"]
    e = error_of("1. d7 e1 (1... d7) *\n")
    assert e.line == 1 and e.move == "d7" and 'move 1... "d7": illegal move d7' in e.reason
    e = error_of("1. d7 e1\n(1... e9\n2. e9) *\n")  # e9 is taken in the variation
    assert e.line == 3 and 'move 2. "e9"' in e.reason


def test_comment_places_in_a_tree() -> None:
    game = read_one("{start} 1. d7 {after} ({before} 1. c7 {c7}) {back} 1... e1 *\n")
    d7, c7 = game.variations
    assert (game.comment, d7.comment, c7.starting_comment, c7.comment) == (
        "start",
        "after back",  # a comment after a variation is the move's the variations follow
        "before",
        "c7",
    )
    game = read_one("1. d7 (1. c7) {between} (1. g7) *\n")
    assert game.variations[2].starting_comment == "between"  # it introduces the next one


def test_marks_and_nags() -> None:
    game = read_one("1. d7 ! e1 !? $146 $0 2. c7!!! *\n")
    d7, e1, c7 = game.mainline()
    assert (d7.nags, e1.nags, c7.nags) == ({1}, {5, 146, 0}, set())  # !!! is no mark
    assert write_game(game, canonical=True).endswith("1. d7! e1!? $0 $146 2. c7 *\n")
    assert write_game(game) == "1. d7 ! e1 !? $146 $0 2. c7!!! *\n"


def test_command_values() -> None:
    game = read_one(
        "1. d7 {[%eval #-7,3] [%clk 12:00:01.25]} e1 {[%eval draw] a [%foo x] b} "
        "2. c7 {[%eval +1.3] [%eval #0]} *\n"
    )
    d7, e1, c7 = game.mainline()
    assert (d7.eval, d7.clock) == (Eval.loss(7, depth=3), 43201.25)
    assert (e1.eval, e1.comment) == (Eval.draw(), "a [%foo x] b")  # unknown commands are text
    assert c7.eval == Eval.win(0)  # a later command replaces an earlier one
    assert Eval.parse("1.3") == Eval.cp(130) and Eval.cp(-5).text() == "-0.05"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("(1. d7) *\n", 1, "a variation ( must follow the move it is an alternative to"),
        ("1. d7 ( (1. c7) ) *\n", 1, "a variation ( must follow the move"),
        ("1. d7 ) *\n", 1, "unexpected ')': no variation is open"),
        ("1. d7 (\n) *\n", 2, "empty variation: the ( on line 1 holds no move"),
        ("1. d7 (1. c7 *\n", 1, "the variation opened on line 1 is not closed before the result *"),
        ("1. d7\n(1. c7\n", 2, "the variation opened on line 2 is never closed"),
        ("$1 1. d7 *\n", 1, "the NAG $1 follows no move"),
        ("1. d7 (1. c7) $1 *\n", 1, "the NAG $1 follows no move"),
        ("1. d7 $256 *\n", 1, "bad NAG $256: NAGs are $0 to $255"),
        ("1. d7 {[%clk 5 min]} *\n", 1, "bad [%clk 5 min]: expected [%clk h:mm:ss]"),
        ("1. d7 {[%clk 0:61:00]} *\n", 1, "bad [%clk 0:61:00]"),
        ("1. d7 {[%eval +-1]} *\n", 1, "bad [%eval +-1]: expected men with up to two decimals"),
        ("1. d7 {[%csl Xd4]} *\n", 1, "'Xd4' is not a colour (G R Y B) and a square, e.g. Rd4"),
        ("1. d7 {[%cal Gd4]} *\n", 1, "'Gd4' is not a colour (G R Y B) and two squares"),
        ("1. d7 {[%cal Gd4d4]} *\n", 1, "an arrow from d4 to itself"),
        ("1. d7 {[%csl Gz9]} *\n", 1, "z9 is not a square of the 9x9 board"),
        ("1. d7 {[%csl G10]} *\n", 1, "'G10' is not a colour"),
        ("1. d7 {\n[%csl Ga9]} *\n", 1, "a9 is not a square of the 9x9 board"),
        ('[Variant "7x7"]\n\n1. c3 {[%csl Gg7]} *\n', 3, "g7 is not a square of the 7x7 board"),
        ("1. d7 {[%clk 0:01:00} *\n", 1, "bad command '[%clk 0:01:00': no closing ]"),
        ("1. d7 ({[%csl Gd4]} 1. c7) *\n", 1, "goes in the comment right after its move"),
        ("1. d7 (1. c7) {[%clk 0:01:00]} *\n", 1, "goes in the comment right after its move"),
    ],
)
def test_tree_errors_name_the_line(text: str, line: int, message: str) -> None:
    e = error_of(text)
    assert e.line == line
    assert message in e.reason, e.reason


DOCUMENTED_ERRORS = {  # docs/records.md, Errors: each line and a record that gives it
    "1. d7 (1. c7) (1. g7) ( (1. c5) ) *\n": "line 1: a variation ( must follow the move it is "
    "an alternative to",
    "1. d7 ) *\n": "line 1: unexpected ')': no variation is open",
    "1. d7 (\n) *\n": "line 2: empty variation: the ( on line 1 holds no move",
    "1. d7 (1. c7 *\n": "line 1: the variation opened on line 1 is not closed before the result *",
    "1. d7\n(1. c7\n": "line 2: the variation opened on line 2 is never closed",
    "$1 1. d7 *\n": "line 1: the NAG $1 follows no move: it goes right after its move",
    "1. d7 $256 *\n": "line 1: bad NAG $256: NAGs are $0 to $255",
    "1. d7 {[%clk 5 min]} *\n": "line 1: bad [%clk 5 min]: expected [%clk h:mm:ss], e.g. "
    "[%clk 0:05:00]",
    "1. d7 {[%eval +-1]} *\n": "line 1: bad [%eval +-1]: expected men with up to two decimals "
    "(1.35), #N or #-N (White wins or loses in N plies) or draw, then ,depth if known",
    "1. d7 {[%csl Xd4]} *\n": "line 1: bad [%csl Xd4]: 'Xd4' is not a colour (G R Y B) and a "
    "square, e.g. Rd4",
    "1. d7 {[%cal Gd4d4]} *\n": "line 1: bad [%cal Gd4d4]: an arrow from d4 to itself",
    "1. d7 {[%csl Ga9]} *\n": "line 1: a9 is not a square of the 9x9 board",
    "1. d7 {[%clk 0:01:00} *\n": "line 1: bad command '[%clk 0:01:00': no closing ]",
    "1. d7 (1. c7) {[%clk 0:01:00]} *\n": "line 1: a command ([%clk], [%eval], [%csl], [%cal]) "
    "goes in the comment right after its move, not after ( or )",
}


@pytest.mark.parametrize(("text", "message"), DOCUMENTED_ERRORS.items())
def test_the_documented_errors_are_the_readers(text: str, message: str) -> None:
    assert str(error_of(text)) == message
    docs = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    assert message in docs


def test_broken_trees_are_collected_up_to_the_error() -> None:
    text = "1. d7 e1 (1... e9 2. e9) 2. c7 *\n\n1. d7 *\n"
    first, second = read_games(text, errors="collect")
    (error,) = first.errors
    assert str(error) == 'line 1: move 2. "e9": illegal move e9: e9 is occupied (R13)'
    d7 = first.variations[0]
    assert texts(d7) == ["e1", "e9"] and texts(d7.variations[1]) == []
    assert not second.errors
    assert write_game(first).endswith('[Variant "9x9"]\n\n1. d7 e1 (1... e9) *\n')  # canonical


# --- visitors -------------------------------------------------------------------------------------


class Recorder(BaseVisitor[list[str]]):
    """Every call, and the source pieces (which put together are the text read)."""

    def begin_game(self) -> None:
        self.calls: list[str] = []
        self.source: list[str] = []

    def visit_source(self, lead: str, text: str) -> None:
        self.source += [lead, text]

    def visit_header(self, name: str, value: str) -> None:
        self.calls.append(f"tag {name}={value}")

    def visit_move(self, board: Board, move: Any) -> None:
        self.calls.append(f"move {board.move_text(move)}")

    def visit_nag(self, nag: int) -> None:
        self.calls.append(f"nag {nag}")

    def visit_comment(self, text: str) -> None:
        self.calls.append(f"comment {text}")

    def begin_variation(self) -> None:
        self.calls.append("(")

    def end_variation(self) -> None:
        self.calls.append(")")

    def visit_result(self, result: str) -> None:
        self.calls.append(f"result {result}")

    def visit_end(self, board: Board, result: str, termination: str | None) -> None:
        self.calls.append(f"end {board.position()} {result} {termination}")

    def result(self) -> list[str]:
        return self.calls


def test_a_visitor_hears_the_game_in_the_order_of_the_text() -> None:
    text = '% escape\n[White "Ann"]\n\n1. d7!? {c} (1. c7 $2) e1 ; remark\n1/2-1/2\n'
    visitor = Recorder()
    calls = read_game(text, Visitor=lambda: visitor)
    assert calls == [
        "tag White=Ann",
        "move d7",
        "nag 5",
        "comment c",
        "(",
        "move c7",
        "nag 2",
        ")",
        "move e1",
        "result 1/2-1/2",
        "end w 11/11 d7:w e1:b 1/2-1/2 None",
    ]
    assert "".join(visitor.source) == text


class SkipVariations(MoveCounter):
    def begin_variation(self) -> Any:
        return SKIP


def test_builtin_visitors() -> None:
    text = ANNOTATED.read_text(encoding="utf-8") + '\n[Event "two"]\n\n1. d7 *\n'
    assert list(read_games(text, Visitor=MoveCounter)) == [16, 1]
    assert list(read_games(text, Visitor=SkipVariations)) == [6, 1]
    boards = list(read_games(text, Visitor=BoardBuilder))
    assert boards[0] is not None and len(boards[0].move_stack) == 6
    headers = list(read_games(text, Visitor=HeadersBuilder))
    assert [h["Event"] for h in headers] == ["Annotated sample", "two"]
    stream = io.StringIO(text)
    assert skip_game(stream) and read_headers(stream)["Event"] == "two"  # type: ignore[index]
    assert not skip_game(stream)


def test_errors_reach_any_visitor() -> None:
    with pytest.raises(RecordError, match="illegal move"):
        read_game("1. d7 d7 *\n", Visitor=MoveCounter)
    assert read_game("1. d7 d7 *\n", Visitor=MoveCounter, errors="collect") == 1


# --- JSON -----------------------------------------------------------------------------------------


def test_json_form_of_a_tree() -> None:
    game = read_one(
        '[White "Ann"]\n\n{[%csl Re5]} 1. d7 {[%clk 0:05:00] [%eval 0.10,8] good} e1 $6 '
        "({or} 1... e9!? {[%cal Ge9e1] [%eval #-3]}) *\n"
    )
    data = game.to_json()
    assert data == {
        "headers": {
            "Event": "?",
            "Site": "?",
            "Date": "????.??.??",
            "Round": "?",
            "White": "Ann",
            "Black": "?",
            "Result": "*",
            "Variant": "9x9",
        },
        "shapes": [{"orig": "e5", "brush": "red"}],
        "children": [
            {
                "move": "d7",
                "comment": "good",
                "clock": 300.0,
                "eval": {"kind": "cp", "value": 10, "depth": 8},
                "children": [
                    {"move": "e1", "nags": [6], "children": []},
                    {
                        "move": "e9",
                        "starting_comment": "or",
                        "nags": [5],
                        "eval": {"kind": "loss", "value": 3},
                        "shapes": [{"orig": "e9", "dest": "e1", "brush": "green"}],
                        "children": [],
                    },
                ],
            }
        ],
    }
    again = Game.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert read_one(write_game(again)).to_json() == data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "a game is a JSON object, not list"),
        ({"headers": {"White": 1}}, "headers must be an object of strings"),
        ({"headers": {"Bad Name": "x"}}, "bad tag name"),
        ({"children": {}}, "node root: children must be a list"),
        ({"children": [{"move": 5}]}, "node 0 must be an object with a move text"),
        ({"children": [{"move": "e5"}]}, "node 0 ('e5'): illegal move e5"),
        ({"children": [{"move": "d7", "children": [{"move": "z9"}]}]}, "node 0.0 ('z9'): "),
        ({"children": [{"move": "d7", "nags": [300]}]}, "node 0: nags must be a list of ints"),
        ({"children": [{"move": "d7", "clock": -1}]}, "node 0: clock must be 0 or more"),
        ({"children": [{"move": "d7", "eval": {"kind": "mate"}}]}, "node 0: an evaluation is"),
        ({"shapes": [{"orig": "a9"}]}, "node root: a9 is not a square of the 9x9 board"),
        ({"shapes": [{"orig": "d4", "brush": "pink"}]}, "node root: a brush is green"),
        ({"nags": [1]}, "node root: the game has no NAGs"),
        ({"comment": 3}, "node root: comment must be a string"),
        (
            {"headers": {"Position": "w 0/0 a5:b"}, "children": [{"move": "d4"}]},
            "node 0 ('d4') follows the end of the game",
        ),
    ],
)
def test_bad_json_is_refused_naming_the_node(data: Any, message: str) -> None:
    with pytest.raises(RecordError, match=re.escape(message)):
        Game.from_json(data)


# --- properties -----------------------------------------------------------------------------------

WORDS = ["a", "Ab", "xyz", "0.5", "!?", "(R8)", "-", "é", "it's", "[%foo]", "e4-e5", "{"]
NAGS = [1, 2, 3, 4, 5, 6, 10, 14, 146]
BRUSHES: list[Any] = ["green", "red", "yellow", "blue"]


def random_comment(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.choice([0, 0, 1, 3, 8])))


def random_eval(rng: random.Random) -> Eval | None:
    kind = rng.choice(["cp", "cp", "win", "loss", "draw", None])
    if kind is None:
        return None
    value = rng.randint(-999, 999) if kind == "cp" else 0 if kind == "draw" else rng.randint(0, 40)
    return Eval(kind, value, rng.choice([None, rng.randint(0, 60)]))  # type: ignore[arg-type]


def annotate(node: GameNode, rng: random.Random, squares: list[str]) -> None:
    """Random annotations of every kind; a starting comment only where a record has one."""
    node.comment = random_comment(rng)
    node.clock = rng.choice([None, rng.randint(0, 10**7) / 1000])
    node.eval = random_eval(rng)
    circles = [
        Shape(rng.choice(squares), brush=rng.choice(BRUSHES)) for _ in range(rng.randrange(3))
    ]
    arrows = [tuple(rng.sample(squares, 2)) for _ in range(rng.randint(0, 2))]
    node.shapes = circles + [Shape(a, b, rng.choice(BRUSHES)) for a, b in arrows]
    if isinstance(node, ChildNode):
        node.nags = set(rng.sample(NAGS, rng.choice([0, 0, 1, 2])))
        if node.starts_variation():
            node.starting_comment = random_comment(rng)


@st.composite
def trees(draw: st.DrawFn) -> Game:
    """A random tree: a random start, a main line, nested variations, all annotations."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    variant = draw(st.sampled_from(["9x9", "7x7", "hex"]))
    start = Board(variant=variant)
    for _ in range(draw(st.integers(0, 6))):
        if start.outcome() is None:
            start.push(rng.choice(start.moves()))
    game = Game.from_board(Board(start.position()), White=random_comment(rng) or "?")
    squares = [start.geometry.square_name(sq) for sq in start.geometry.squares]
    branching = draw(st.sampled_from([0.15, 0.3, 0.5]))

    def line(node: GameNode, length: int, depth: int) -> None:
        for _ in range(length):
            board = node.board()
            if board.outcome() is not None:
                return
            moves = board.moves()
            child = node.add_variation(rng.choice(moves))
            annotate(child, rng, squares)
            while depth < 3 and rng.random() < branching:
                other = [m for m in moves if not node.has_variation(m)]
                if not other:
                    break
                variation = node.add_variation(rng.choice(other))
                annotate(variation, rng, squares)
                line(variation, rng.randint(0, 4), depth + 1)
            node = child

    annotate(game, rng, squares)
    line(game, rng.choice([0, 2, 6, 12, 24]), 0)
    outcome = game.end().board().outcome()
    if outcome is not None:
        game.headers["Result"] = outcome.result()
        game.headers["Termination"] = outcome.termination.value
    return game


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees())
def test_random_trees_written_canonically_read_back_as_the_same_tree(game: Game) -> None:
    text = write_game(game)
    back = read_one(text)
    assert back.to_json() == game.to_json()
    assert write_game(back) == text
    assert write_game(back, canonical=True) == text


SPACES = [" ", " ", "  ", "\n", "\t", " \n ", "\n\n", " \t\n"]


def respell(move: str, rng: random.Random) -> str:
    """Another way to write a canonical move (R21): case, separators, spaced out."""
    choice = rng.randrange(5)
    if choice == 0:
        return move.upper()
    if choice == 1:
        return move.replace("x", ":")
    if choice == 2:
        return move.replace("x", "-")
    if choice == 3 and ("x" in move or "-" in move):
        return re.sub(r"([x-])", r" \1 ", move)
    return move


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees(), st.integers(0, 2**32 - 1))
def test_respaced_and_respelled_records_are_written_back_byte_identical(
    game: Game, seed: int
) -> None:
    rng = random.Random(seed)
    tags, movetext = write_game(game).split("\n\n", 1)
    tag_lines = [f"{' ' * rng.randrange(3)}{t}" for t in tags.splitlines()]
    tags = "".join(t + (" " if rng.random() < 0.3 else "\n") for t in tag_lines).rstrip(" ")
    words, out, depth = movetext.split(), [], 0
    for word in words:
        core = word
        if depth == 0 and not word.startswith("{"):
            m = re.fullmatch(r"(\(*)([a-i][1-9](?:[x-][a-i][1-9])*)([!?]*)(\)*)", word)
            if m is not None:
                mark = m[3] if not m[3] or rng.random() < 0.5 else " " + m[3]
                core = m[1] + respell(m[2], rng) + mark + m[4]
            elif re.fullmatch(r"\(*\d+\.(\.\.)?", word) and rng.random() < 0.3:
                core = word.lstrip("0123456789.")  # no move number
        depth += word.count("{") - word.count("}")
        out.append(core)
    spaced = "".join(w + rng.choice(SPACES) for w in out[:-1] if w) + out[-1] + "\n"
    text = f"{tags}{rng.choice(SPACES)}\n{spaced}"
    back = read_one(text)
    assert back.to_json() == game.to_json()
    assert write_game(back) == text


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees())
def test_json_round_trip(game: Game) -> None:
    data = game.to_json()
    again = Game.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert write_game(again) == write_game(game)
