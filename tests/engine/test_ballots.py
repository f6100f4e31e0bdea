"""Fair starts (emergo.ballots, docs/fair-starts.md): the shipped ballots, drawing one, the swap
rule, what a game records, matches from ballots, and tools/fair_starts.py."""

from __future__ import annotations

import importlib.util
import random
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import pytest

from emergo.ballots import (
    BALLOTS_FILE,
    BALLOTS_FILES,
    Ballot,
    FairStart,
    SwapRule,
    ballots_file,
    board_of,
    draw_ballot,
    find_ballot,
    load_ballots,
    parse_ballots,
)
from emergo.board import Board, MoveKind
from emergo.cli import main
from emergo.geometry import VARIANTS
from emergo.match import EngineSpec, run_match
from emergo.record import read_games
from emergo.search import Limit, Score, SearchInfo, SearchResult
from tests.plugins.common import ROOT

# --- the shipped ballots --------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_ballot_is_reached_by_legal_entries_from_the_start_R13_R15_R16(variant: str) -> None:
    ballots = load_ballots(variant=variant)
    assert len(ballots) >= 24
    positions = set()
    for number, ballot in enumerate(ballots, 1):
        assert ballot.id == f"{variant}-{number}" and ballot.variant == variant
        assert 3 <= len(ballot.moves) <= 5  # "a few entries into the game"
        board = Board(variant=variant)
        assert ballot.position in (None, board.position())  # from the variant's start
        for text in ballot.moves:  # each one a legal entry where it is played
            legal = {str(m): m for m in board.moves()}
            assert text in legal and legal[text].kind is MoveKind.ENTER, (ballot.id, text)
            board.push(legal[text])
        assert board.position() == ballot.board().position()
        # Still entering, no capture pending (R8): every legal move is an entry.
        assert board.outcome() is None and board.is_entering()
        assert all(m.kind is MoveKind.ENTER for m in board.moves())
        positions.add(board.position())
    assert len(positions) == len(ballots)  # no two alike


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_ballots_file_names_its_board_and_loads_as_an_openings_file_R4(variant: str) -> None:
    shipped = load_ballots(variant=variant)
    assert ballots_file(variant) == BALLOTS_FILES[variant]
    assert load_ballots(BALLOTS_FILES[variant]) == [
        Ballot(b.moves, b.position, None) for b in shipped
    ]  # a file of another board names its start, so it loads without the variant
    assert all(b.id is None for b in load_ballots(BALLOTS_FILES[variant]))  # ids: the lists'
    text = BALLOTS_FILES[variant].read_text(encoding="utf-8")
    assert f"# Made by python tools/fair_starts.py make --variant {variant} " in text


def test_the_default_board_is_9x9() -> None:
    assert load_ballots() == load_ballots(variant="9x9") == load_ballots(variant=None)
    assert ballots_file() == BALLOTS_FILE and BALLOTS_FILE.name == "ballots.txt"


def test_parse_ballots_with_positions_comments_and_errors() -> None:
    text = "# comment\n\nd4 e5  # trailing\nb 11/12 d4:w | e5 f6\n"
    assert parse_ballots(text) == [Ballot(("d4", "e5")), Ballot(("e5", "f6"), "b 11/12 d4:w")]
    with pytest.raises(ValueError, match=r"line 2: .*e5.*R16"):
        parse_ballots("d4\ne5\n")  # R16: White may not open on the centre


def test_ballots_of_another_variant_are_refused_R4() -> None:
    with pytest.raises(ValueError, match=r"line 2: a hex opening, not 9x9"):
        parse_ballots("d3\nhex w 12/12 | d3\n", variant="9x9")
    with pytest.raises(ValueError, match=r"line 1: .*h4.*\(moves of a 9x9 opening\?\)"):
        parse_ballots("h4 c3\n", variant="7x7")
    with pytest.raises(ValueError, match="no ballots ship for 8x8"):
        ballots_file("8x8")


def test_bad_files_are_named(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(ValueError, match="holds no opening"):
        load_ballots(empty)
    with pytest.raises(ValueError, match="cannot read openings file"):
        load_ballots(tmp_path / "missing.txt")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"d4 e5\n\xff\n")
    with pytest.raises(ValueError, match="line 2: not UTF-8"):
        load_ballots(binary)


# --- ids and drawing ------------------------------------------------------------------------


def test_find_ballot_by_its_id() -> None:
    for variant in VARIANTS:
        for ballot in load_ballots(variant=variant):
            assert ballot.id is not None and find_ballot(ballot.id) == ballot
    last = len(load_ballots(variant="hex"))
    for bad, message in (
        ("nine", "not a ballot id"),
        ("9x9-", "not a ballot id"),
        ("8x8-1", "no ballots ship for '8x8'"),
        ("9x9-0", "9x9 has ballots 1 to"),
        (f"hex-{last + 1}", f"hex has ballots 1 to {last}"),
    ):
        with pytest.raises(ValueError, match=re.escape(message)):
            find_ballot(bad)


def test_draw_ballot_is_seeded_and_reaches_the_whole_list() -> None:
    for variant in VARIANTS:
        ballots = load_ballots(variant=variant)
        drawn = [draw_ballot(variant, seed=s) for s in range(400)]
        assert drawn == [draw_ballot(variant, seed=s) for s in range(400)]  # the same seeds
        assert set(drawn) == set(ballots)  # 400 draws meet every ballot of a list of 24-100
        rng, again = random.Random(5), random.Random(5)
        assert [draw_ballot(variant, rng=rng) for _ in range(5)] == [
            draw_ballot(variant, rng=again) for _ in range(5)
        ]
    assert draw_ballot().variant == "9x9"


def test_a_game_begins_from_its_recorded_start() -> None:
    ballot = find_ballot("hex-2")
    assert board_of(FairStart("hex-2")).position() == ballot.board().position()
    assert board_of(FairStart(swap=SwapRule()), "7x7").position() == "7x7 w 8/8"


# --- the swap rule --------------------------------------------------------------------------


@dataclass
class FixedSearcher:
    """A searcher whose score of a position (for the side to move) is looked up by position."""

    scores: dict[str, int]
    searched: list[str] = field(default_factory=list)

    def search(self, board: Board, limit: Limit, **_: object) -> SearchResult:
        self.searched.append(board.position())
        score = Score.cp(self.scores.get(board.position(), 0))
        return SearchResult(board.moves()[0], infos=(SearchInfo(1, score, ()),))

    def clear(self) -> None:
        pass


def test_swap_rule_text() -> None:
    assert SwapRule.parse("swap") == SwapRule(1) and str(SwapRule()) == "swap-1"
    assert SwapRule.parse(" swap-2/30 ") == SwapRule(2, 30) and str(SwapRule(2, 30)) == "swap-2/30"
    assert SwapRule.parse("swap-3/-20") == SwapRule(3, -20)
    for bad in ("pie", "swap-", "swap-x", "swap-1/"):
        with pytest.raises(ValueError, match="not a swap rule"):
            SwapRule.parse(bad)
    for entries in (0, 13):
        with pytest.raises(ValueError, match=r"entries must be 1\.\.12"):
            SwapRule(entries)


def test_the_swap_is_due_after_whites_first_entries_only_R7_R13() -> None:
    one, two = SwapRule(1), SwapRule(2)
    board = Board()
    assert not one.due(board) and not two.due(board)
    board.push_move("d4")
    assert one.due(board) and not two.due(board)  # ply 1: White entered once
    board.push(board.moves()[-1])
    assert not one.due(board) and not two.due(board)
    board.push(board.moves()[0])
    assert two.due(board) and not one.due(board)  # ply 3: White twice, Black once
    elsewhere = Board("w 11/11 d4:w f6:b")  # not from the start: no swap
    elsewhere.push(elsewhere.moves()[0])
    assert not any(SwapRule(n).due(elsewhere) for n in range(1, 13))
    hexboard = Board(variant="hex")
    hexboard.push(hexboard.moves()[0])
    assert one.due(hexboard)


def test_the_engine_swaps_when_whites_side_scores_above_the_margin() -> None:
    board = Board()
    board.push_move("d4")  # Black to move: the searcher's scores are Black's
    for black_score, margin, swaps in ((-50, 0, True), (50, 0, False), (0, 0, False),
                                       (-50, 60, False), (10, -20, True)):  # fmt: skip
        searcher = FixedSearcher({board.position(): black_score})
        assert SwapRule(1, margin).decide(board, searcher, Limit(nodes=1)) is swaps
    with pytest.raises(ValueError, match="no swap is due"):
        SwapRule(2).decide(board, FixedSearcher({}), Limit(nodes=1))
    won = Board()
    won.push_move("d4")
    searcher = FixedSearcher({})
    searcher.search = lambda b, limit, **_: SearchResult(  # type: ignore[method-assign]
        b.moves()[0], infos=(SearchInfo(1, Score.loss(5), ()),)
    )
    assert SwapRule(1, 5000).decide(won, searcher, Limit(nodes=1))  # Black lost: swap


def test_white_enters_where_the_search_sees_the_most_even_game() -> None:
    board = Board()
    after = {}
    for move in board.moves():
        child = board.copy()
        child.push(move)
        after[str(move)] = child.position()
    # Scores for Black (to move after White's entry): d4 leaves 80 for White, c3 +5, g5 -5.
    scores = {p: 100 for p in after.values()}
    scores |= {after["d4"]: -80, after["g5"]: 5, after["c3"]: -5}
    searcher = FixedSearcher(scores)
    rule = SwapRule(1)
    assert str(rule.balanced_entry(board, searcher, Limit(nodes=1))) == "c3"  # first of equals
    assert len(searcher.searched) == len(board.moves())
    assert str(SwapRule(1, 80).balanced_entry(board, FixedSearcher(scores), Limit(nodes=1))) == "d4"
    board.push_move("c3")
    assert rule.balanced_entry(board, searcher, Limit(nodes=1)) is None  # the choice is due
    assert rule.balanced_entry(Board("b 12/12"), searcher, Limit(nodes=1)) is None


@pytest.mark.requires_kernel
def test_the_kernel_decides_a_swap() -> None:
    from emergo.kernel import Searcher

    searcher = Searcher(hash_mb=1)
    rule = SwapRule(1)
    board = Board(variant="7x7")
    entry = rule.balanced_entry(board, searcher, Limit(nodes=300))
    assert entry is not None and entry.kind is MoveKind.ENTER
    board.push(entry)
    assert rule.decide(board, searcher, Limit(nodes=300)) in (True, False)


# --- what a game records --------------------------------------------------------------------


def test_fair_start_tags_round_trip() -> None:
    starts = [
        FairStart(),
        FairStart("9x9-4"),
        FairStart(swap=SwapRule(2, 30)),
        FairStart(swap=SwapRule(), swapped=True),
        FairStart("hex-1", SwapRule(1), swapped=False),
    ]
    for start in starts:
        assert FairStart.from_tags(start.tags()) == start
    assert FairStart().tags() == {}
    assert FairStart("7x7-2", SwapRule(), True).tags() == {
        "Ballot": "7x7-2",
        "Swap": "swap-1 taken",
    }
    assert FairStart(swap=SwapRule(3), swapped=False).tags() == {"Swap": "swap-3 declined"}
    with pytest.raises(ValueError, match="not a swap rule"):
        FairStart.from_tags({"Swap": "pie taken"})
    for bad in ("swap-1 maybe", "swap-1 taken twice"):
        with pytest.raises(ValueError, match="not a swap tag"):
            FairStart.from_tags({"Swap": bad})


def test_a_match_plays_its_pairs_from_the_ballots_and_records_them(tmp_path: Path) -> None:
    records = tmp_path / "games.egn"
    ballots = load_ballots(variant="7x7")
    result = run_match(
        [EngineSpec.builtin("random"), EngineSpec.builtin("greedy")],
        games=4,
        openings=ballots,
        records=records,
        seed=3,
    )
    with records.open(encoding="utf-8") as handle:
        games = list(read_games(handle))
    assert len(games) == len(result.games) == 4
    by_id = {b.id: b for b in ballots}
    for game in games:
        ballot = by_id[game.headers["Ballot"]]  # the record names the ballot it was drawn
        assert [str(m) for m in game.mainline_moves()[: len(ballot.moves)]] == list(ballot.moves)
        assert FairStart.from_tags(game.headers) == FairStart(ballot.id)
    pairs = {(g.headers["Ballot"], g.headers["Opening"]) for g in games}
    assert len(pairs) == 2  # two pairs, each from one ballot


def test_emergo_match_plays_the_boards_ballots(tmp_path: Path) -> None:
    records = tmp_path / "hex.egn"
    argv = ["match", "--variant", "hex", "-e", "random", "-e", "greedy", "-n", "2", "-q"]
    assert main([*argv, "--records", str(records)]) == 0
    with records.open(encoding="utf-8") as handle:
        games = list(read_games(handle))
    assert {g.headers["Ballot"] for g in games} <= {b.id for b in load_ballots(variant="hex")}
    own = tmp_path / "own.txt"
    own.write_text("hex w 12/12 | d3 e7\n", encoding="utf-8")
    assert main([*argv, "--openings", str(own), "--records", str(records), "--force"]) == 0
    with records.open(encoding="utf-8") as handle:
        assert all("Ballot" not in g.headers for g in read_games(handle))  # not a ballot


# --- tools/fair_starts.py -------------------------------------------------------------------


def load_tool() -> ModuleType:
    path = ROOT / "tools" / "fair_starts.py"
    spec = importlib.util.spec_from_file_location("fair_starts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fair_starts"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.requires_kernel  # the tool imports the kernel's search
def test_the_commands_of_the_docs_parse() -> None:
    tool = load_tool()
    lines = []
    for page in ("fair-starts.md", "engine.md"):
        text = re.sub(r"\\\n\s*", " ", (ROOT / "docs" / page).read_text(encoding="utf-8"))
        lines += re.findall(r"python tools/fair_starts\.py ([^`\n]*)", text)
    assert len(lines) >= 4
    for line in lines:
        tool.build_parser().parse_args(shlex.split(line))  # exits (fails) if it does not


@pytest.mark.requires_kernel
def test_make_keeps_entering_positions_whose_pair_split(tmp_path: Path) -> None:
    tool = load_tool()
    out = tmp_path / "ballots.txt"
    args = ["make", "--variant", "7x7", "--count", "2", "--nodes", "2000", "--margin", "300"]
    assert tool.main([*args, "--play-nodes", "300", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "# Made by python tools/fair_starts.py make --variant 7x7 --count 2 --nodes 2000" in text
    ballots = load_ballots(out, variant="7x7")
    assert len(ballots) == 2
    for ballot in ballots:
        assert 3 <= len(ballot.moves) <= 5 and ballot.board().is_entering()
        # Step 3 by hand: of the pair's two games one went to each colour.
        games = [tool.self_play(ballot.board(), 300, f"make {' '.join(ballot.moves)} {g}")[0]
                 for g in (0, 1)]  # fmt: skip
        assert sorted(games) == ["0-1", "1-0"]


@pytest.mark.requires_kernel
def test_measure_prints_the_table_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = load_tool()
    results = tmp_path / "games.jsonl"
    argv = ["measure", "--variant", "7x7", "--nodes", "200", "--pairs", "2", "--results",
            str(results)]  # fmt: skip
    assert tool.main(argv) == 0
    first = capsys.readouterr().out
    for start in tool.STARTS:
        assert re.search(rf"\| 7x7 \| {start} \| 200 \| 2 \| .*%", first), start
    assert len(results.read_text(encoding="utf-8").splitlines()) == 2 * 2 * len(tool.STARTS)
    assert tool.main(argv) == 0  # every game is in the file: none is played again
    again = capsys.readouterr().out
    assert again.split("\n\n")[1] == first.split("\n\n")[1]
    assert "20 games" in again
    swap_row = next(line for line in first.splitlines() if "| swap |" in line)
    assert re.search(r"\| [0-4] of 4 \|", swap_row)  # each game's swap decided
    assert tool.start_position("hex", "handicap") == "hex w 11/12"
    assert tool.start_position("7x7", "black-first") == "7x7 b 8/8"
