"""Tests of emergo.record: the game-record format (docs/records.md), reading and writing.

The main line, tags, results and errors; the tree (variations, NAGs, commands, JSON) and the
lossless writing are tested in test_record_tree.py.
"""

from __future__ import annotations

import doctest
import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import emergo.record
import emergo.record.commands
import emergo.record.tree
from emergo import Board, Termination
from emergo.board import Outcome
from emergo.errors import AmbiguousMoveError, IllegalMoveError, NamingError
from emergo.record import (
    TAG_ROSTER,
    ChildNode,
    Game,
    Headers,
    RecordError,
    read_game,
    read_games,
    read_headers,
    write_game,
    write_games,
)
from tests.plugins.common import DATA, ROOT, examples

RECORDS = DATA / "records"
DOCS = ROOT / "docs" / "records.md"
SEED_000 = "w 0/0 c5:b d6:b e5:b f4:w4 g4:w h4:b2"


def ap_games() -> list[dict[str, Any]]:
    with open(DATA / "abstractplay-dev.jsonl") as f:
        return [json.loads(line) for line in f]


def ap_board(game: dict[str, Any]) -> Board:
    board = Board()
    for ply in game["plies"]:
        board.push_move(ply["played"])
    return board


def read_one(text: str, **kw: object) -> Game:
    game = read_game(io.StringIO(text), **kw)  # type: ignore[arg-type]
    assert game is not None
    return game


def error_of(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_one(text)
    return info.value


def texts(game: Game) -> list[str]:
    return [str(move) for move in game.mainline_moves()]


def comments(game: Game) -> dict[int, str]:
    """The main line's comments by ply: 0 before the first move, n after the n-th."""
    nodes = [game, *game.mainline()]
    return {ply: node.comment for ply, node in enumerate(nodes) if node.comment}


def marks(game: Game) -> dict[int, set[int]]:
    """The main line's NAGs by ply."""
    return {ply: node.nags for ply, node in enumerate(game.mainline(), 1) if node.nags}


class LineStream:
    """A stream that only offers readline and counts the lines handed out."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines(keepends=True)
        self.given = 0

    def readline(self) -> str:
        if self.given == len(self.lines):
            return ""
        self.given += 1
        return self.lines[self.given - 1]


# --- canonical writing and round trips ------------------------------------------------------------


def test_canonical_file_round_trips_exactly() -> None:
    text = (RECORDS / "canonical.egn").read_text()
    with open(RECORDS / "canonical.egn") as f:
        games = list(read_games(f))
    assert len(games) == 5
    out = io.StringIO()
    assert write_games(games, out) == 5
    assert out.getvalue() == text


def test_tolerant_file_reads_as_the_canonical_games_R21() -> None:
    with open(RECORDS / "tolerant.egn") as f:
        tolerant = list(read_games(f))
    with open(RECORDS / "canonical.egn") as f:
        canonical = list(read_games(f))
    assert len(tolerant) == 4  # the first four games of canonical.egn
    assert [marks(g) for g in tolerant] == [{17: {1}, 18: {1}}, {}, {}, {}]  # "d6!", "$1"
    for a, b in zip(tolerant, canonical[:4], strict=True):
        assert a.mainline_moves() == b.mainline_moves()
        assert dict(a.headers) == dict(b.headers)
        assert comments(a) == comments(b)
        for node in a.mainline():
            node.nags.clear()  # the canonical file has no marks
        assert a.to_json() == b.to_json()
        assert write_game(a, canonical=True, names="oblique") == str(b)
    assert str(tolerant[0]) != str(canonical[0])  # each is written as it was read


def test_docs_example_is_canonical_and_is_abstractplay_game_1() -> None:
    block = re.search(r"```text\n(.*?)```", DOCS.read_text(), re.S)
    assert block is not None
    text = block.group(1)
    game = read_one(text)
    assert write_game(game) == text
    assert texts(game) == [p["played"] for p in ap_games()[0]["plies"]]


@pytest.mark.slow
def test_abstractplay_games_stream_back_with_results_and_terminations_R18_R19(
    tmp_path: Path,
) -> None:
    data = ap_games()
    assert len(data) == 50
    games = []
    for d in data:
        game = Game.from_board(ap_board(d), Event="AbstractPlay", Round=str(d["game"]))
        game.end().comment = f"game {d['game']} is over"
        games.append(game)
    path = tmp_path / "fifty.egn"
    with open(path, "w") as f:
        assert write_games(games, f) == 50
    with open(path) as f:
        back = list(read_games(f))
    assert len(back) == 50
    for d, game in zip(data, back, strict=True):
        assert game.headers["Round"] == str(d["game"])
        assert texts(game) == [p["played"] for p in d["plies"]]
        end = game.end().board()
        assert end.position() == d["final"]
        assert game.headers["Result"] == d["result"] == end.result()
        assert game.headers["Termination"] == d["termination"]
        assert game.termination is Termination(d["termination"])
    assert sum(g.termination is Termination.REPETITION for g in back) == 1  # game 34, R19b
    assert sum(g.termination is Termination.BLOCKED for g in back) == 2  # games 6 and 25, R19a
    assert path.read_text() == "\n".join(write_game(g) for g in back)


def test_end_knows_the_repetitions_R19b() -> None:
    game = Game.from_board(ap_board(ap_games()[33]))
    end = read_one(write_game(game)).end().board()
    assert end.repetitions() == 3
    assert len(end.move_stack) == 416


def test_reading_is_streaming() -> None:
    text = (RECORDS / "canonical.egn").read_text()
    stream = LineStream(text)
    games = read_games(stream)
    first = next(games)
    assert first.headers["Round"] == "1"
    assert stream.given < len(stream.lines) // 3  # only the first game's lines were read
    assert len(list(games)) == 4
    assert stream.given == len(stream.lines)


def test_empty_and_blank_streams_hold_no_game() -> None:
    assert read_game(io.StringIO("")) is None
    assert read_game(io.StringIO("\n  \n% only an escape line\n")) is None
    assert list(read_games(io.StringIO("\n\n"))) == []


def test_byte_order_mark_and_crlf_are_accepted() -> None:
    game = read_one('\ufeff[White "Ann"]\r\n\r\n1. d7 e1 *\r\n')
    assert game.headers["White"] == "Ann"
    assert texts(game) == ["d7", "e1"]


# --- tolerance ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "capture",
    [
        "e4xc4xc6xe6xe4xc4",
        "ec4x",
        "e4-c4-c6-e6-e4-c4",
        "E4XC4XC6XE6XE4XC4",
        "e4 x c4 x c6 x e6 x e4 x c4",
        "e4:c4:c6:e6:e4:c4",
    ],
)
def test_seed_000_abbreviations_resolve_R21(capture: str) -> None:
    text = f'[Position "{SEED_000}"]\n\n1. fe4 hd4x 2. {capture} *\n'
    game = read_one(text)
    assert texts(game) == ["f4-e4", "h4xf4xd4", "e4xc4xc6xe6xe4xc4"]
    # White's clockwise capture takes Black's last men: R18, so * becomes 1-0.
    assert game.headers["Result"] == "1-0"
    assert game.termination is Termination.NO_PIECES


def test_seed_000_record_file() -> None:
    with open(RECORDS / "seed000.egn") as f:
        game = read_game(f)
    assert game is not None
    assert texts(game) == ["f4-e4", "h4xf4xd4", "e4xc4xc6xe6xe4xc4"]
    assert comments(game)[1] == "feeding"
    assert comments(game)[3].startswith("clockwise: White liberates a piece of two")
    assert game.board().position() == SEED_000
    assert game.end().board().position() == "b 0/0 c4:b5w3 d4:w2"  # d4's prisoners liberated (R9)


def test_anticlockwise_capture_is_refused_by_majority_R11() -> None:
    e = error_of(f'[Position "{SEED_000}"]\n\n1. fe4 hd4x\n2. e4xe6xc6xc4xe4 *\n')
    assert e.line == 4
    assert e.move == "e4xe6xc6xc4xe4"
    assert "takes 4 men but e4xc4xc6xe6xe4xc4 takes 5 men (R11)" in str(e)


def test_glued_numbers_nags_annotations_and_remarks() -> None:
    text = "1.d7! e1?! $3 2...c7 ; a remark 1-0 {not read}\n% escape\n2.e9 3. g7 *\n"
    game = read_one(text)
    assert texts(game) == ["d7", "e1", "c7", "e9", "g7"]
    assert comments(game) == {}
    assert marks(game) == {1: {1}, 2: {6, 3}}
    assert write_game(game) == text  # the remark and the escape line are written back too


def test_game_without_result_ends_at_next_tags() -> None:
    stream = io.StringIO('[Round "1"]\n1. d7 e1\n\n2. c7\n[Round "2"]\n1. e1\n')
    first, second = list(read_games(stream))
    assert texts(first) == ["d7", "e1", "c7"]
    assert first.headers["Result"] == "*"
    assert texts(second) == ["e1"]


def test_games_without_tags() -> None:
    games = list(read_games(io.StringIO("1. d7 e1 *\n1. c7 *\n")))
    assert [texts(g) for g in games] == [["d7", "e1"], ["c7"]]


def test_checker_names_tag_R3() -> None:
    game = read_one('[Names "checker"]\n\n1. f8 a1 2. e9 *\n')
    assert texts(game) == ["d7", "e1", "c7"]
    assert "Names" not in game.headers and game.names == "checker"
    assert write_game(game) == '[Names "checker"]\n\n1. f8 a1 2. e9 *\n'  # as it was read
    oblique = write_game(game, names="oblique")
    assert oblique.splitlines()[-1] == "1. d7 e1 2. c7 *" and "Names" not in oblique
    checker = write_game(read_one(oblique), names="checker")
    assert checker.splitlines()[-1] == "1. f8 a1 2. e9 *"
    assert '[Names "checker"]' in checker
    assert read_one(checker).mainline_moves() == game.mainline_moves()
    # A stream's default naming, for sources without the tag
    assert texts(read_one("1. f8 a1 *\n", names="checker")) == ["d7", "e1"]


def test_comments_are_kept_per_ply() -> None:
    text = (
        '[Event "c"]\n\n{before  the\n  first move} 1. d7 {after d7} {and more} e1\n'
        "2. c7 {after\n\nthe third} e9 {last} *\n"
    )
    game = read_one(text)
    assert comments(game) == {
        0: "before the first move",
        1: "after d7 and more",
        3: "after the third",
        4: "last",
    }
    assert write_game(game) == text
    out = write_game(game, canonical=True)
    assert out.endswith(
        "{before the first move} 1. d7 {after d7 and more} 1... e1 2. c7 {after the\n"
        "third} 2... e9 {last} *\n"
    )
    assert comments(read_one(out)) == comments(game)


def test_move_marks_are_nags_written_after_their_moves() -> None:
    # marks glued to moves (as in PGN) are the NAGs $1-$6; other NAGs are kept as they are
    text = "1. d7!? e1?? 2. c7 $1 e9 $14 3. c6?! *\n"
    game = read_one(text)
    assert marks(game) == {1: {5}, 2: {4}, 3: {1}, 4: {14}, 5: {6}}
    assert write_game(game) == text
    out = write_game(game, canonical=True)
    assert "1. d7!? e1?? 2. c7! e9 $14 3. c6?! *" in out
    assert marks(read_one(out)) == marks(game)
    list(game.mainline())[3].nags.add(3)
    assert "e9!! $14 " in write_game(game)


@pytest.mark.parametrize(("nag", "message"), [(256, "NAGs are 0 to 255"), (-1, "is -1")])
def test_bad_nags_are_refused_when_written(nag: int, message: str) -> None:
    game = read_one("1. d7 e1 *\n")
    game.end().nags.add(nag)
    with pytest.raises(RecordError, match=message):
        write_game(game)


# --- errors ---------------------------------------------------------------------------------------

BROKEN = [
    ("good 1", None, None, ""),
    (
        "illegal move",
        9,
        "c5-c4",
        'line 9: move 1... "c5-c4": illegal move c5-c4: you must capture: h4xf4xd4 takes 2 men'
        " (R8, R11)",
    ),
    ("?", 11, None, "line 11: bad tag pair"),
    (
        "result contradicts",
        20,
        None,
        'line 20: Result "0-1" contradicts the final position: Black has no pieces and no men in'
        " hand (R18), so the result is 1-0",
    ),
    ("good 2", None, None, ""),
    (
        "unterminated comment",
        29,
        None,
        "line 29: unterminated comment: the { on line 29 is never closed",
    ),
]


def test_broken_file_errors_collected_with_lines() -> None:
    with open(RECORDS / "broken.egn") as f:
        games = list(read_games(f, errors="collect"))
    assert len(games) == len(BROKEN)
    for game, (event, line, move, message) in zip(games, BROKEN, strict=True):
        assert game.headers["Event"] == event
        if line is None:
            assert game.errors == []
            continue
        (error,) = game.errors
        assert (error.line, error.move) == (line, move)
        assert str(error).startswith(message)
    assert texts(games[1]) == ["f4-e4"]  # the moves before the error are kept
    assert texts(games[4]) == ["c3", "e4"]
    assert games[4].end().board().variant == "7x7"


def test_broken_file_raises_and_the_next_call_goes_on() -> None:
    outcomes: list[object] = []
    with open(RECORDS / "broken.egn") as f:
        while True:
            try:
                game = read_game(f)
            except RecordError as e:
                outcomes.append(e.line)
                continue
            if game is None:
                break
            outcomes.append(game.headers["Event"])
    assert outcomes == ["good 1", 9, 11, 20, "good 2", 29]


def test_read_games_raises_on_first_error() -> None:
    with open(RECORDS / "broken.egn") as f:
        games = read_games(f)
        assert next(games).headers["Event"] == "good 1"
        with pytest.raises(RecordError, match=r"^line 9: "):
            next(games)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('[Event "a"]\n[Event "b"]\n\n*\n', 2, "tag Event is given twice (first on line 1)"),
        ('[Event "a"\n\n*\n', 1, "bad tag pair"),
        ('[Event "a"] junk\n\n*\n', 1, "bad tag pair 'junk'"),
        ('[Round "1"]\n[Variant "8x8"]\n\n*\n', 2, 'unknown Variant "8x8"'),
        ('[Variant "hex"]\n\n1. d4 *\n', 3, 'move 1. "d4": illegal move d4: White may not enter'),
        ('[Variant "hex"]\n[Names "checker"]\n\n*\n', 2, "hex board has no checkerboard"),
        ('[Variant "hex"]\n\n1. d5 a5 *\n', 3, "a5 is not a square of the hex board"),
        ('[Position "w 12/13"]\n\n*\n', 1, 'bad Position "w 12/13": Black has 13 men'),
        ('[Position "x 1/1"]\n\n*\n', 1, "side to move must be 'w' or 'b'"),
        ('[Variant "9x9"]\n[Position "7x7 w 8/8"]\n\n*\n', 2, "position is for 7x7"),
        ('[Names "diagonal"]\n\n*\n', 1, 'unknown Names "diagonal"'),
        ('[Result "2-0"]\n\n*\n', 1, 'bad Result "2-0"'),
        ('[Termination "normal"]\n\n*\n', 1, 'unknown Termination "normal"'),
        ("1. d7 e1 } *\n", 1, "unexpected: '}'"),
        ("1. d7 e1 * 2. c7\n", 1, "unexpected text after the result *: '2. c7'"),
        ("1. d7\n2. d7 *\n", 2, 'move 1... "d7": illegal move d7: d7 is occupied (R13)'),
        ("\n\n1. e5 *\n", 3, 'move 1. "e5": illegal move e5: White may not enter on e5'),
        ("1. d7 e1 2. z7 *\n", 1, "move 2. \"z7\": 'z7' is not a move"),
        ("1. d7 e1 2. c9 *\n", 1, "c9 is not a square of the 9x9 board"),
    ],
)
def test_errors_name_the_line(text: str, line: int, message: str) -> None:
    e = error_of(text)
    assert e.line == line
    assert message in str(e)
    assert str(e) == f"line {line}: {e.reason}"


def test_ambiguous_abbreviation_lists_candidates_R21() -> None:
    # Two white men on c4 and c6 may both step to c5: "c5" alone is an entry, "cc5" ambiguous.
    e = error_of('[Position "w 0/0 c4:w c6:w g4:b"]\n\n1. cc5 *\n')
    assert e.line == 3
    assert e.move == "cc5"
    assert "is ambiguous: it could be c4-c5, c6-c5" in str(e)


def test_result_contradicting_the_rules_R18() -> None:
    text = f'[Position "{SEED_000}"]\n[Result "1/2-1/2"]\n\n1. fe4 hd4x 2. ec4x\n'
    e = error_of(text)
    assert e.line == 2  # no result token: the Result tag is at fault
    assert "contradicts the final position" in str(e)
    assert "so the result is 1-0" in str(e)
    e = error_of(f'[Position "{SEED_000}"]\n\n1. fe4 hd4x 2. ec4x 0-1\n')
    assert e.line == 3
    e = error_of(f'[Position "{SEED_000}"]\n[Result "0-1"]\n\n1. fe4 hd4x\n2. ec4x *\n')
    assert e.line == 2  # the token * says nothing: the tag is at fault


def test_result_token_contradicting_result_tag() -> None:
    e = error_of('[Result "1-0"]\n\n1. d7 e1 0-1\n')
    assert (e.line, e.reason) == (3, 'the result 0-1 contradicts [Result "1-0"]')
    # * gives way to the other side
    assert read_one('[Result "1-0"]\n\n1. d7 e1 *\n').headers["Result"] == "1-0"
    assert read_one("1. d7 e1 0-1\n").headers["Result"] == "0-1"


def test_move_after_repetition_is_an_error_R19b() -> None:
    board = ap_board(ap_games()[33])
    assert board.outcome() is not None
    extra = board.move_text(board.moves()[0])
    text = write_game(Game.from_board(board)).removesuffix(" 1/2-1/2\n")
    text += f"\n209. {extra} 1/2-1/2\n"
    e = error_of(text)
    assert e.line == text.count("\n")
    assert e.move == extra
    assert e.reason == (
        f'move 209. "{extra}" is played after the game ended: '
        "the same position occurred three times: draw (R19b)"
    )
    assert e.reason in DOCS.read_text().replace("\n", " ")


def test_move_after_no_pieces_is_an_error_R18() -> None:
    e = error_of(f'[Position "{SEED_000}"]\n\n1. fe4 hd4x 2. ec4x c4-c5 *\n')
    assert e.move == "c4-c5"
    assert "played after the game ended: Black has no pieces and no men in hand (R18)" in str(e)


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ('[Termination "resignation"]', "needs a result of 1-0 or 0-1, not * (R20)"),
        ('[Result "1/2-1/2"][Termination "time forfeit"]', "needs a result of 1-0 or 0-1"),
        ('[Result "1-0"]\n[Termination "agreement"]', "needs the result 1/2-1/2, not 1-0 (R19c)"),
        ('[Result "1/2-1/2"]\n[Termination "repetition"]', "not over by the rules"),
        ('[Result "0-1"]\n[Termination "no-pieces"]', "not over by the rules"),
        ('[Result "1-0"]\n[Termination "aborted"]', 'Termination "aborted" needs the result *'),
        ('[Termination "abandoned"]', "needs a result of 1-0, 0-1 or 1/2-1/2, not * (R20)"),
    ],
)
def test_termination_must_fit_the_game_R19_R20(tags: str, message: str) -> None:
    e = error_of(f"{tags}\n\n1. d7 e1 2. c7\n")
    assert message in str(e)
    assert e.line == tags.count("\n") + 1


def test_player_endings_are_kept_R19c_R20() -> None:
    game = read_one('[Result "0-1"]\n[Termination "Time_Forfeit"]\n\n1. d7 e1 2. c7 0-1\n')
    assert game.headers["Termination"] == "time-forfeit"
    assert game.termination is Termination.TIME_FORFEIT
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is False
    assert outcome.reason() == "White lost on time (R20)"
    # A decided result without Termination stands too; its ending is unknown.
    game = read_one('[Result "1-0"]\n\n1. d7 e1 1-0\n')
    assert (game.termination, game.outcome()) == (None, None)


def test_aborted_and_abandoned_games_read_back_R20() -> None:
    aborted = Game.from_board(Board(), Result="*", Termination="aborted")
    aborted.add_variation("d4")
    text = write_game(aborted)
    assert '[Result "*"]' in text and '[Termination "aborted"]' in text
    again = read_one(text)
    assert write_game(again) == text
    assert again.termination is Termination.ABORTED
    assert again.outcome() == Outcome(Termination.ABORTED, None)
    assert Outcome(Termination.ABORTED, None).result() == "*"
    claimed = read_one('[Result "0-1"]\n[Termination "Abandoned"]\n\n1. d7 e1 2. c7 0-1\n')
    assert claimed.termination is Termination.ABANDONED
    outcome = claimed.outcome()
    assert outcome == Outcome(Termination.ABANDONED, False) and outcome is not None
    assert outcome.reason() == "White left the game: Black claimed the win (R20)"
    drawn = Outcome(Termination.ABANDONED, None)
    assert drawn.result() == "1/2-1/2" and "claimed a draw" in drawn.reason()


def test_termination_contradicting_the_rules_R19a() -> None:
    blocked = Game.from_board(ap_board(ap_games()[5]))
    text = write_game(blocked).replace('"blocked"', '"agreement"')
    e = error_of(text)
    assert 'Termination "agreement" contradicts the final position' in str(e)
    assert "(R19a)" in str(e)
    assert e.line == 9


# --- variants and set-up positions ------------------------------------------------------------


def test_position_tag_with_7x7_variant_R4_R22() -> None:
    position = "b 3/4 b5:b c2:w c6:b d2:w d5:b d6:b e3:w f3:w f4:w"
    with_tag = read_one(f'[Variant "7x7"]\n[Position "{position}"]\n\n1... a4 2. f5 *\n')
    prefixed = read_one(f'[Position "7x7 {position}"]\n\n1... a4 2. f5 *\n')
    for game in (with_tag, prefixed):
        assert game.headers["Variant"] == "7x7"
        assert game.headers["Position"] == f"7x7 {position}"
        assert game.board().variant == "7x7"
        assert texts(game) == ["a4", "f5"]
    out = write_game(with_tag, canonical=True)
    assert out == write_game(prefixed, canonical=True)
    assert out.endswith("\n1... a4 2. f5 *\n")


def test_start_position_tag_is_not_written() -> None:
    text = '[Variant "7x7"]\n[Position "7x7 w 8/8"]\n\n1. c3 *\n'
    game = read_one(text)
    assert "Position" not in game.headers
    assert write_game(game) == text  # as it was read
    assert '[Variant "7x7"]' in write_game(game, canonical=True)
    assert "Position" not in write_game(game, canonical=True)


# --- building games in code -------------------------------------------------------------------


def test_from_board_records_start_moves_and_outcome() -> None:
    board = Board(SEED_000)
    for text in ("fe4", "hd4x", "ec4x"):
        board.push_move(text)
    game = Game.from_board(board, White="Ann", Event="example")
    assert game.headers["Position"] == SEED_000
    assert game.headers["Result"] == "1-0"
    assert game.headers["Termination"] == "no-pieces"
    assert game.headers["White"] == "Ann"
    assert game.mainline_moves() == board.move_stack
    assert game.end().board() == board


def test_add_variation_validates_and_keeps_state() -> None:
    game = Game(White="Ann")
    with pytest.raises(IllegalMoveError, match="R16"):
        game.add_variation("e5")
    assert game.variations == []
    game.add_variation("d7").add_variation(Board().parse_move("e1"))
    with pytest.raises(AmbiguousMoveError):
        Game(Position="w 0/0 c4:w c6:w g4:b").add_variation("cc5")
    assert texts(game) == ["d7", "e1"]
    # The rules' end is the record's: further moves are refused, the result is written.
    ended = Game(Position=SEED_000)
    end = ended.add_line(["fe4", "hd4x", "ec4x"])
    assert ended.outcome() == Outcome(Termination.NO_PIECES, True)
    assert '[Result "1-0"]' in str(ended) and '[Termination "no-pieces"]' in str(ended)
    with pytest.raises(RecordError, match=r'move 2\.\.\. "c4-c5" is played after the game ended'):
        end.add_variation("c4-c5")
    with pytest.raises(TypeError):
        game.add_variation(42)  # type: ignore[arg-type]


def test_writer_checks_the_game() -> None:
    game = Game()
    e1 = game.add_variation("d7").add_variation("e1")
    e1.variations.append(ChildNode(e1, Board().parse_move("d7")))  # d7 is occupied now
    with pytest.raises(RecordError, match=r'^move 2\. "d7": illegal move: d7 is occupied'):
        write_game(game)
    e1.variations.clear()
    game.headers["Result"] = "1/2-1/2"
    game.headers["Termination"] = "blocked"
    with pytest.raises(RecordError, match="not over by the rules"):
        write_game(game)
    del game.headers["Termination"]
    e1.comment = "a } brace"
    with pytest.raises(RecordError, match=r"the comment of 1\.\.\. e1 contains a }"):
        write_game(game)
    e1.comment = "see [%clk 0:01:00]"
    with pytest.raises(RecordError, match=r"holds a command \(\[%\.\.\.\]\): set the node's clock"):
        write_game(game)
    e1.comment, e1.clock = "", -1.0
    with pytest.raises(RecordError, match="a clock is 0 or more seconds"):
        write_game(game)
    e1.clock, game.headers["Position"] = None, "w 1/1 d7:b"
    with pytest.raises(RecordError, match=r'move 1\. "d7": illegal move'):
        write_game(game)  # the moves are checked from the start as the tags now say


def test_headers_order_defaults_and_escapes() -> None:
    headers = Headers(Zeta="z", Termination="agreement", Position="w 1/1", White='A "B" \\ C')
    assert list(headers)[: len(TAG_ROSTER)] == list(TAG_ROSTER)
    assert list(headers)[len(TAG_ROSTER) :] == ["Variant", "Position", "Termination", "Zeta"]
    assert headers["Date"] == "????.??.??"
    with pytest.raises(ValueError, match="bad tag name"):
        headers["Bad Name"] = "x"
    with pytest.raises(ValueError, match="one line"):
        headers["Event"] = "two\nlines"
    game = Game(White='A "B" \\ C', Black="\\", Annotator="x")
    text = write_game(game)
    assert '[White "A \\"B\\" \\\\ C"]' in text
    assert '[Black "\\\\"]' in text
    assert text.index("[Variant") < text.index("[Annotator")
    assert dict(read_one(text).headers) == dict(game.headers)


def test_read_headers_skips_the_movetext() -> None:
    with open(RECORDS / "canonical.egn") as f:
        events = []
        while (headers := read_headers(f)) is not None:
            events.append(headers["Event"])
    assert events[0] == "AbstractPlay random game 1"
    assert len(events) == 5
    raw = read_headers(io.StringIO('[Variant "7X7"]\n\n1. zz {x\n}\n'))
    assert raw is not None and raw["Variant"] == "7X7"  # as written, unplayed


def test_option_values_are_checked() -> None:
    with pytest.raises(ValueError, match="errors must be"):
        read_game(io.StringIO(""), errors="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="oblique, checker"):
        list(read_games(io.StringIO(""), names="upright"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "module", [emergo.record, emergo.record.commands, emergo.record.tree], ids=lambda m: m.__name__
)
def test_module_doctests(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


# --- issue 10: the reader takes text, paths and streams, fails clearly and keeps nothing -----


def test_huge_count_in_a_position_tag_is_a_record_error_with_its_line_R22() -> None:
    text = '[Event "1"]\n[Position "w ' + "1" * 5000 + '/12"]\n\n*\n\n[Event "2"]\n\n1. d4 *\n'
    with pytest.raises(RecordError) as info:
        read_one(text)
    assert info.value.line == 2 and "bad Position" in str(info.value)
    assert len(str(info.value)) < 400
    first, second = read_games(io.StringIO(text), errors="collect")
    assert first.errors and first.errors[0].line == 2
    assert second.headers["Event"] == "2" and texts(second) == ["d4"]  # reading went on


def test_carriage_return_in_a_tag_value_is_collected() -> None:
    text = '[White "A\rB"]\n[Black "C"]\n\n1. d4 *\n\n[Event "next"]\n\n1. d4 *\n'
    first, second = read_games(io.StringIO(text), errors="collect")
    (error,) = first.errors
    assert error.line == 1 and "must be one line" in error.reason
    assert second.headers["Event"] == "next" and not second.errors
    with pytest.raises(RecordError, match="line 1: tag White"):
        read_one(text)
    with pytest.raises(RecordError, match="line 1: tag White"):
        read_headers(io.StringIO(text))


def test_headers_refuse_bad_tags_with_record_errors() -> None:
    headers = Headers()
    with pytest.raises(RecordError, match="one line"):
        headers["White"] = "a\rb"
    with pytest.raises(RecordError, match="bad tag name"):
        headers["Bad Name"] = "x"


def test_non_ascii_digits_are_no_move_numbers() -> None:
    e = error_of("١. d4 *\n")
    assert e.line == 1 and "is not a move" in str(e)


def test_reading_keeps_no_stream_alive() -> None:
    import gc
    import weakref

    text = "".join(f'[Round "{i}"]\n\n1. d7 e1 {{a comment}} 2. c7 *\n\n' for i in range(50))
    stream = io.StringIO(text)
    alive = weakref.ref(stream)
    assert read_game(stream) is not None
    assert len(list(read_games(stream))) == 49  # the place is kept between calls...
    del stream
    gc.collect()
    assert alive() is None  # ...but not the stream itself


def test_reading_many_streams_does_not_grow_memory() -> None:
    import tracemalloc

    text = '[Event "x"]\n\n1. d7 e1 2. c7 *\n\n' + "% " + "x" * 200_000 + "\n"
    read_game(io.StringIO(text))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(100):
            read_game(io.StringIO(text))
            read_game(text)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 2_000_000  # one kept stream would be 800 KB; all of them 160 MB


def test_read_game_takes_text_a_path_or_a_stream(tmp_path: Path) -> None:
    text = (RECORDS / "canonical.egn").read_text()
    path = tmp_path / "games.egn"
    path.write_text(text, encoding="utf-8")
    by_stream = list(read_games(io.StringIO(text)))
    assert [write_game(g) for g in read_games(text)] == [write_game(g) for g in by_stream]
    assert [write_game(g) for g in read_games(path)] == [write_game(g) for g in by_stream]
    first = read_game(path)
    assert first is not None and write_game(first) == write_game(by_stream[0])
    again = read_game(text)
    assert again is not None and again.mainline_moves() == first.mainline_moves()
    headers = read_headers(path)
    assert headers is not None and headers["Event"] == first.headers["Event"]
    assert read_game("") is None


def test_a_str_naming_a_file_is_refused_with_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "games.egn"
    path.write_text("1. d4 *\n", encoding="utf-8")
    with pytest.raises(TypeError, match=r"pass pathlib\.Path"):
        read_game(str(path))


def test_binary_input_is_a_type_error(tmp_path: Path) -> None:
    path = tmp_path / "games.egn"
    path.write_bytes(b"1. d4 *\n")
    with open(path, "rb") as f, pytest.raises(TypeError, match="text stream, not a binary one"):
        read_game(f)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not bytes"):
        read_game(b"1. d4 *\n")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text stream, not a binary one"):
        read_games(io.BytesIO(b"1. d4 *\n"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not int"):
        read_headers(42)  # type: ignore[arg-type]


def test_errors_of_a_path_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.egn"
    path.write_text('[Event "a"]\n\n1. d7 d7 *\n', encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_game(path)
    assert info.value.file == str(path) and info.value.line == 3
    assert str(info.value).startswith(f"{path}: line 3: move 1... ")
    (game,) = read_games(path, errors="collect")
    assert str(game.errors[0]).startswith(f"{path}: line 3: ")


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_non_utf8_file_names_the_file_and_line(tmp_path: Path, newline: bytes) -> None:
    path = tmp_path / "latin1.egn"
    lines = [b'[Event "a"]', b"", b"1. d7 e1", b"{caf\xe9} 2. c7 *"]
    path.write_bytes(newline.join(lines) + newline)
    with pytest.raises(RecordError) as info:
        read_game(path, errors="collect")
    assert (info.value.file, info.value.line) == (str(path), 4)
    assert "not UTF-8" in str(info.value) and "0xe9" in str(info.value)
    with open(path, encoding="utf-8") as f, pytest.raises(RecordError, match="UTF-8"):
        read_game(f)


def test_many_comments_in_a_row_are_joined() -> None:
    text = "1. d7 " + "{a} " * 5000 + "*\n"
    game = read_one(text)
    assert comments(game) == {1: " ".join(["a"] * 5000)}
    assert write_game(game) == text


# --- property tests -------------------------------------------------------------------------------

TAG_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=12)
COMMENT_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="}"), max_size=40)


@st.composite
def random_games(draw: st.DrawFn) -> tuple[Game, Board]:
    """A random game of the rules library (seeded RNG), possibly from a set-up position."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    board = Board(variant=draw(st.sampled_from(["9x9", "7x7", "hex"])))
    for _ in range(draw(st.integers(0, 12))):  # a set-up start: some plies, then restart
        if board.outcome() is None:
            board.push(rng.choice(board.moves()))
    board = Board(board.position())
    for _ in range(draw(st.integers(0, 150))):
        if board.outcome() is not None:
            break
        board.push(rng.choice(board.moves()))
    game = Game.from_board(board, White=draw(TAG_TEXT), Event=draw(TAG_TEXT))
    game.headers["Xtra"] = draw(TAG_TEXT)
    nodes = [game, *game.mainline()]
    for ply, text in draw(
        st.dictionaries(st.integers(0, len(nodes) - 1), COMMENT_TEXT, max_size=5)
    ).items():
        nodes[ply].comment = text
    return game, board


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_games(), st.sampled_from(["oblique", "checker"]))
def test_write_read_round_trip(case: tuple[Game, Board], names: str) -> None:
    game, board = case
    if board.variant == "hex" and names == "checker":  # R4: the hexagon has no checkerboard
        with pytest.raises(NamingError, match="no checkerboard"):
            write_game(game, names=names)
        return
    text = write_game(game, names=names)  # type: ignore[arg-type]
    # Movetext wraps at 80 columns; a tag pair is one line however long (a set-up position).
    movetext = text.split("\n\n", 1)[1]
    assert all(len(line) <= 80 or " " not in line for line in movetext.splitlines())
    back = read_one(text)
    assert back.mainline_moves() == game.mainline_moves()
    end = back.end().board()
    assert end.position() == board.position()
    assert end.repetitions() == board.repetitions()
    assert back.headers["Result"] == board.result() or board.outcome() is None
    assert comments(back) == {
        ply: " ".join(c.split()) for ply, c in comments(game).items() if c.split()
    }
    assert back.headers["White"] == game.headers["White"]
    assert write_game(back) == text
    assert write_game(back, names=names, canonical=True) == text  # type: ignore[arg-type]


@settings(max_examples=examples(15), deadline=None)
@given(random_games())
def test_other_spellings_read_as_the_same_game_R21(case: tuple[Game, Board]) -> None:
    game, _ = case
    text = write_game(game)
    tags, movetext = text.split("\n\n", 1)
    movetext = re.sub(r"\d+\.(\.\.)? ", "", movetext)  # no move numbers
    movetext = movetext.replace("x", "-").upper()  # ArenA separators, upper case
    respelled = f"{tags}\n\n{movetext}"
    back = read_one(respelled)
    assert back.mainline_moves() == game.mainline_moves()
    assert write_game(back) == respelled  # written back as it was spelled
