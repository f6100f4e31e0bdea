"""Differential tests: the C kernel (emergo.kernel) against the rules library and the oracle data.

Every vector in tests/data/ is checked (legal lists, results, whole games,
perft), then perft from starts and mid-game positions against a reference
perft over Board, then thousands of seeded random games per variant where
the kernel returns every ply's legal list and the reference replays the game
and compares ply by ply, on every variant of R4 (9x9, 7x7, hex).
EMERGO_KERNEL_GAMES sets the number of random games per variant (2000 in the
full run, EMERGO_TEST_SCALE=full as tools/test.sh sets it; 200 in the fast
loop); perft.txt counts up to EMERGO_KERNEL_PERFT_MAX nodes run (2e9 in the
full run, a few seconds each; 1e8 in the fast loop); EMERGO_DEEP_PERFT=1 runs
all of them (about four minutes) and the pure-Python hex perft to depth 5.
"""

from __future__ import annotations

import _thread
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from emergo import Board, IllegalMoveError, InvalidMoveError, InvalidPositionError
from emergo.board import Termination
from emergo.geometry import GEOMETRIES, geometry
from emergo.perft import perft
from tests.plugins.common import DATA, WAIT, requires_kernel, scaled

kernel = requires_kernel()
from emergo.differential import compare_game, compare_position, reference_moves  # noqa: E402

GAMES = int(os.environ.get("EMERGO_KERNEL_GAMES", scaled(2000, 200)))
PERFT_MAX = int(float(os.environ.get("EMERGO_KERNEL_PERFT_MAX", scaled(2 * 10**9, 10**8))))
if os.environ.get("EMERGO_DEEP_PERFT") == "1":
    PERFT_MAX = 10**12


def _jsonl(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


POSITIONS = _jsonl("positions.jsonl")
AP_GAMES = _jsonl("abstractplay-dev.jsonl")
HEX_GAMES = _jsonl("hex-dev.jsonl")
VARIANTS = ("9x9", "7x7", "hex")
"""Every variant of R4: each random-game test below runs on each."""


def _perft_rows() -> list[tuple[str, int, int]]:
    rows = []
    for line in (DATA / "perft.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        position, *counts = line.split(";")
        for item in counts:
            depth, n = item.split()
            rows.append((position, int(depth[1:]), int(n)))
    return rows


PERFT = [row for row in _perft_rows() if row[2] <= PERFT_MAX]


# --- oracle vectors ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", POSITIONS, ids=[c["id"] for c in POSITIONS])
def test_r8_r19_oracle_positions(case: dict[str, Any]) -> None:
    assert kernel.legal_moves(case["position"]) == case["legal"]
    game = kernel.replay(case["position"], [])
    assert game.result == case["result"]
    assert game.final == Board(case["position"]).position()


def test_oracle_positions_batch() -> None:
    positions = [c["position"] for c in POSITIONS]
    positions += [p["position"] for g in AP_GAMES for p in g["plies"]]
    expected = [c["legal"] for c in POSITIONS]
    expected += [p["legal"] for g in AP_GAMES for p in g["plies"]]
    assert kernel.legal_moves_batch(positions) == expected


@pytest.mark.parametrize("game", AP_GAMES, ids=[f"ap-{g['game']}" for g in AP_GAMES])
def test_r18_r19_abstractplay_games(game: dict[str, Any]) -> None:
    plies = game["plies"]
    got = kernel.replay(plies[0]["position"], [p["played"] for p in plies])
    assert got.legal == [p["legal"] for p in plies]
    assert got.moves == [p["played"] for p in plies]
    assert got.result == game["result"]
    assert got.termination is not None
    assert got.termination.value == game["termination"]
    assert got.final == game["final"]


def test_r19b_repetition_game_34_is_cut_by_kernel() -> None:
    game = next(g for g in AP_GAMES if g["termination"] == "repetition")
    moves = [p["played"] for p in game["plies"]]
    assert kernel.replay("w 12/12", moves[:-1]).result == "*"
    with pytest.raises(IllegalMoveError, match="already over"):
        kernel.replay("w 12/12", [*moves, moves[-1]])


@pytest.mark.parametrize("game", HEX_GAMES, ids=[f"hex-{g['game']}" for g in HEX_GAMES])
def test_r4_hex_dev_games(game: dict[str, Any]) -> None:
    """The 20 HexEmergo games of the naive implementation: legal lists, moves and outcome."""
    plies = game["plies"]
    assert plies[0]["position"] == "hex w 12/12"
    got = kernel.replay(plies[0]["position"], [p["played"] for p in plies])
    assert got.legal == [p["legal"] for p in plies]
    assert got.moves == [p["played"] for p in plies]
    assert got.result == game["result"]
    assert got.termination is not None
    assert got.termination.value == game["termination"]
    assert got.final == game["final"]
    assert kernel.legal_moves_batch([p["position"] for p in plies]) == [p["legal"] for p in plies]


HEX_PERFT = [(1, 36), (2, 1_164), (3, 36_702), (4, 985_032), (5, 25_811_262)]
"""R4: perft from ``hex w 12/12``; depths 1-4 from RULES.md, depth 5 from emergo.perft (pure
Python, the reference: about 20 s, run with EMERGO_DEEP_PERFT=1)."""


@pytest.mark.parametrize(("depth", "expected"), HEX_PERFT)
def test_r4_hex_perft(depth: int, expected: int) -> None:
    assert kernel.perft("hex w 12/12", depth) == expected
    if depth <= 3 or PERFT_MAX >= 10**12:
        assert perft(Board("hex w 12/12"), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(
    ("position", "depth", "expected"),
    PERFT,
    ids=[f"{r[0][:12]}-D{r[1]}" for r in PERFT],
)
def test_perft_oracle(position: str, depth: int, expected: int) -> None:
    assert kernel.perft(position, depth) == expected


# --- perft against the reference ----------------------------------------------------------------


def _midgame_positions() -> list[str]:
    out = []
    for variant, seed, plies in [
        ("9x9", 1, 20),
        ("9x9", 2, 40),
        ("9x9", 3, 70),
        ("9x9", 4, 100),
        ("7x7", 5, 10),
        ("7x7", 6, 30),
        ("7x7", 7, 45),
        ("hex", 8, 12),
        ("hex", 9, 30),
        ("hex", 10, 60),
        ("hex", 11, 90),
    ]:
        game = kernel.random_game(seed=seed, variant=variant)
        board = Board(variant=variant)
        for text in game.moves[: min(plies, len(game.moves) - 2)]:
            board.push_move(text)
        out.append(board.position())
    out.append("w 0/0 c4:b c6:b d3:b d5:b d7:b e4:b e5:w e6:b f3:b f5:b f7:b g4:b g6:b")
    return out


@pytest.mark.parametrize(
    ("position", "depth"),
    [("w 12/12", 3), ("7x7 w 8/8", 4), ("hex w 12/12", 3)] + [(p, 3) for p in _midgame_positions()],
)
def test_perft_against_reference(position: str, depth: int) -> None:
    expected = perft(Board(position), depth)
    assert kernel.perft(position, depth) == expected
    divide = kernel.perft_divide(position, depth)
    assert list(divide) == kernel.legal_moves(position)
    assert sum(divide.values()) == expected


def test_perft_depth_zero_and_game_over() -> None:
    assert kernel.perft("w 12/12", 0) == 1
    loss = "w 0/0 c4:w8b4 f6:w4b2 g5:b6"  # R18: White has no piece and no men in hand
    assert kernel.perft(loss, 3) == 0
    assert kernel.perft_divide(loss, 2) == {}
    # R18 of the player not to move also ends the game: no moves (tests/data/README.md).
    assert kernel.legal_moves("w 0/0 e5:w3") == []
    assert kernel.perft("w 0/0 e5:w3", 1) == 0


# --- random games ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_against_reference(variant: str) -> None:
    """Per ply legal sets, played moves, results and final positions of GAMES random games."""
    failures = [f for seed in range(GAMES) if (f := compare_game(seed=seed, variant=variant))]
    assert failures == []


def _random_position(rng: random.Random, variant: str) -> str:
    """A valid R22 position of ``variant``: random stacks (R6 shapes), hands, side to move."""
    geo = geometry(variant)
    men = [geo.men, geo.men]  # left to place, by colour
    parts = [] if variant == "9x9" else [variant]
    stacks = []
    for sq in rng.sample(geo.squares, rng.randint(0, 16)):
        owner = rng.randrange(2)
        if not men[owner]:
            continue
        caps = rng.randint(1, min(men[owner], rng.choice([1, 1, 2, 4])))
        pris = rng.randint(0, min(men[1 - owner], rng.choice([0, 0, 1, 3])))
        men[owner] -= caps
        men[1 - owner] -= pris
        letters = ("b", "w")
        low = f"{letters[1 - owner]}{pris}" if pris else ""
        stacks.append(f"{geo.square_name(sq)}:{low}{letters[owner]}{caps}")
    hands = [rng.randint(0, m) if rng.random() < 0.5 else 0 for m in men]
    parts += [rng.choice("wb"), f"{hands[1]}/{hands[0]}", *stacks]
    return " ".join(parts)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_random_positions_against_reference(variant: str) -> None:
    """Arbitrary valid positions (tall stacks, prisoners, hands, R14-R16) and games from them."""
    rng = random.Random(f"2024-{variant}")
    positions = [_random_position(rng, variant) for _ in range(scaled(1500, 300))]
    expected = []
    for p in positions:
        board = Board(p)
        expected.append(reference_moves(board))
    assert kernel.legal_moves_batch(positions) == expected
    deep, games = positions[: scaled(150, 30)], positions[: scaled(300, 60)]
    assert [f for p in deep if (f := compare_position(p, perft_depth=2))] == []
    failures = [(p, f) for seed, p in enumerate(games) if (f := compare_game(p, seed))]
    assert failures == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_reach_every_termination(variant: str) -> None:
    stats = kernel.playouts(Board(variant=variant), 3000, seed=11)
    if variant == "hex":  # six directions: a block (R19a) ends about 1 random game in 20,000
        assert stats.terminations["blocked"] == 0
        for seed in (11059, 48672):  # the first two blocked games from seed 11 on
            assert kernel.random_game(variant="hex", seed=seed).termination is Termination.BLOCKED
            assert compare_game(seed=seed, variant="hex") is None
        stats = stats._replace(terminations=stats.terminations | {"blocked": 2})
    assert all(n > 0 for n in stats.terminations.values()), stats


def test_playouts_are_the_random_games() -> None:
    """Game i of playouts(seed) is random_game(seed + i): counts, lengths, terminations."""
    for variant in VARIANTS:
        start = Board(variant=variant)
        games = [kernel.random_game(start, seed=100 + i) for i in range(60)]
        stats = kernel.playouts(start, 60, seed=100)
        assert stats.games == 60
        assert stats.white_wins == sum(g.result == "1-0" for g in games)
        assert stats.black_wins == sum(g.result == "0-1" for g in games)
        assert stats.draws == sum(g.result == "1/2-1/2" for g in games)
        assert stats.mean_length == sum(len(g.moves) for g in games) / 60
        counts = Counter(g.termination.value for g in games if g.termination)
        assert stats.terminations == {t: counts.get(t, 0) for t in stats.terminations}


def test_playouts_view_of_the_player_to_move() -> None:
    position = "b 0/0 c4:b c5:w d6:w e4:w"
    stats = kernel.playouts(position, 200, seed=3)
    assert stats.wins == stats.black_wins
    assert stats.losses == stats.white_wins
    assert stats.wins + stats.draws + stats.losses == stats.games == 200
    assert kernel.playouts(position, 200, seed=3) == stats  # seeded: reproducible
    batch = kernel.playouts_batch([position, "w 12/12"], 200, seed=3)
    assert batch[0] == stats
    assert batch[1] == kernel.playouts("w 12/12", 200, seed=3)
    assert kernel.playouts(position, 0).games == 0


def test_game_over_at_the_start_has_no_plies() -> None:
    game = kernel.random_game("w 0/4 d4:w5b3 f6:w7b5", seed=1)
    assert (game.legal, game.moves, game.result) == ([], [], "0-1")
    assert game.termination is Termination.NO_PIECES
    stats = kernel.playouts("w 0/4 d4:w5b3 f6:w7b5", 5)
    assert stats.losses == 5 and stats.mean_length == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_self_check(variant: str) -> None:
    """Zobrist key, R6 shapes, men, R8/R11 and make/unmake of every move, at every ply."""
    stats, errors = kernel.self_check(Board(variant=variant), 150, seed=7)
    assert errors == []
    assert stats == kernel.playouts(Board(variant=variant), 150, seed=7)


# --- captures ----------------------------------------------------------------------------------

LATTICE = "w 0/0 c4:b c6:b d3:b d5:b d7:b e4:b e5:w e6:b f3:b f5:b f7:b g4:b g6:b"
"""The most tying routes found (56 routes of 9 jumps): e5 in a 3x3 lattice of single men."""

CAPTURE_CASES = [
    LATTICE,
    "w 0/0 c4:b c6:b d3:b d5:b d7:b e4:b c5:w e6:b f3:b f5:b f7:b g4:b g6:b",
    "w 0/0 d3:b d4:w d5:b e2:b e4:b2 e6:b f3:b f5:b g4:b2 g6:b h5:b",
    "w 0/0 c3:w c4:b d3:b d5:b d7:b e1:w e2:b e4:b e6:b e8:b f3:b f5:b f7:b g3:w g4:b",
    "w 0/7 a5:w11 e3:w e4:b2 f3:b f5:b g4:b",  # revisits and a stack jumped twice (R10)
    "w 0/0 e5:w c5:b3 e3:b3 g5:b3 e7:b3",
    "b 0/0 e5:b d4:w4b4 d6:w4 f4:w f6:w",
    "7x7 w 0/0 c4:b3 d2:w d3:b d5:b d6:w e4:b3",
    # hex (R4): six directions, turns of 60 and 120 degrees but not back (R10)
    "hex w 0/0 d4:w c3:b c4:b d3:b d5:b e4:b e5:b",
    "hex w 0/0 d4:w3 c4:b2 b4:b c3:b e5:b2 f5:b",
    "hex b 0/0 a1:b b2:w c3:w2b d4:w e5:w4b2 f6:w",
    "hex w 0/0 b4:b c2:b c3:b d4:b d6:b e2:b e5:b f3:wb f4:b f5:b f6:wb f7:wb g4:w",  # 6 jumps
    "hex w 0/0 a1:w a4:wb b2:wb b4:wb c1:wb c4:wb d2:b d3:b d4:b d5:b e3:b f3:b f5:b",
]


@pytest.mark.parametrize("position", CAPTURE_CASES)
def test_r9_r11_capture_routes(position: str) -> None:
    assert compare_position(position, perft_depth=3) is None


def test_r11_many_tying_routes_each_a_move() -> None:
    moves = kernel.legal_moves(LATTICE)
    assert len(moves) == 56 == len(set(moves))
    assert {m.count("x") for m in moves} == {9}  # every route takes 9 men
    assert sum(kernel.perft_divide(LATTICE, 2).values()) == kernel.perft(LATTICE, 2)
    game = kernel.random_game(LATTICE, seed=5)
    assert game.legal[0] == moves


def test_zobrist_transpositions() -> None:
    """The key covers stacks, hands and side to move (R19b) and not the path to them."""
    a = kernel.replay(None, ["d4", "f6", "b5", "h5"]).final
    b = kernel.replay(None, ["b5", "h5", "d4", "f6"]).final
    assert a == b == "w 10/10 b5:w d4:w f6:b h5:b"
    key = kernel.zobrist(a)
    assert kernel.zobrist(Board(a)) == key
    assert kernel.zobrist(a.replace("w ", "b ", 1)) != key
    assert kernel.zobrist("w 10/9 b5:w d4:w f6:b h5:b") != key
    assert kernel.zobrist("w 10/9 c4:b d4:w2 f6:b") != kernel.zobrist("w 10/9 c4:b d4:wb f6:b")


def test_r19b_third_occurrence_counts_the_start() -> None:
    shuffle = ["a5-b5", "i5-h5", "b5-a5", "h5-i5"]
    game = kernel.replay("w 0/0 a5:w i5:b", shuffle * 2)
    assert game.termination is Termination.REPETITION
    assert game.result == "1/2-1/2"
    assert kernel.replay("w 0/0 a5:w i5:b", shuffle + shuffle[:3]).result == "*"
    with pytest.raises(IllegalMoveError, match="already over"):
        kernel.replay("w 0/0 a5:w i5:b", [*shuffle, *shuffle, "a5-b5"])


# --- API ---------------------------------------------------------------------------------------


def test_inputs_boards_variants_and_names() -> None:
    board = Board(variant="7x7")
    board.push_move("c3")
    assert kernel.legal_moves(board) == reference_moves(board)
    assert kernel.legal_moves("w 8/8", variant="7x7") == kernel.legal_moves("7x7 w 8/8")
    assert "d4" not in kernel.legal_moves("7x7 w 8/8")  # R16 on 7x7 too
    checker = kernel.replay(None, ["a1", "i9"], names="checker")
    assert checker.moves == ["e1", "e9"]


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(InvalidPositionError):
        kernel.legal_moves("w 12/x")
    with pytest.raises(TypeError, match="R22 string or a Board"):
        kernel.legal_moves(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="depth"):
        kernel.perft("w 12/12", -1)
    with pytest.raises(TypeError, match="n must be an int"):
        kernel.playouts("w 12/12", 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="single position"):
        kernel.legal_moves_batch("w 12/12")
    with pytest.raises(IllegalMoveError, match="move 1: e5 is not legal"):
        kernel.replay(None, ["e5"])  # R16
    with pytest.raises(InvalidMoveError, match="full square names"):
        kernel.replay(None, ["z9"])
    with pytest.raises(ValueError, match="variant"):
        kernel.legal_moves(Board(), variant="7x7")


BIG = [2**31, 2**63, 2**64, 2**64 + 1, 99999999999999999999999]
"""Integers past every C type the kernel uses: never wrapped, always an error."""


def test_out_of_range_integers_are_value_errors_naming_the_argument() -> None:
    with pytest.raises(ValueError, match=r"depth must be 0\.\.64, not 2147483648"):
        kernel.perft("w 12/12", 2**31)
    with pytest.raises(ValueError, match=r"depth must be 1\.\.64, not 0"):
        kernel.perft_divide("w 12/12", 0)
    with pytest.raises(
        ValueError, match=r"n must be 0\.\.18446744073709551615, not 18446744073709551616"
    ):
        kernel.playouts("w 12/12", 2**64)
    with pytest.raises(ValueError, match="seed must be"):
        kernel.random_game(None, 2**64)
    for value in BIG:
        with pytest.raises(ValueError, match="depth"):
            kernel.perft("w 12/12", value)
        with pytest.raises(ValueError, match="n must be"):
            kernel.self_check(None, value * 2**64)
        with pytest.raises(ValueError, match="n must be"):
            kernel.playouts_batch(["w 12/12"], value * 2**64)
        with pytest.raises(ValueError, match=r"hash_mb must be 1\.\.65536"):
            kernel.Searcher(hash_mb=value)
    with pytest.raises(ValueError, match=r"hash_mb must be 1\.\.65536, not 0"):
        kernel.Searcher(hash_mb=0)


def test_the_c_side_never_wraps_an_integer() -> None:
    from emergo import _kernel

    start = kernel.pack("w 12/12")
    for value in BIG:
        with pytest.raises(ValueError, match="depth"):
            _kernel.perft(start, value)
        with pytest.raises(ValueError, match="hash_mb"):
            _kernel.Searcher(value)
        with pytest.raises(ValueError, match="weights"):
            _kernel.evaluate(start, [value] * len(kernel.eval_terms()))
        with pytest.raises(ValueError, match="evasions"):
            _kernel.Searcher(1).set_option("evasions", value)
    for value in (-1, 2**64, 2**64 + 1):  # an unsigned 64-bit count: OverflowError, not a wrap
        with pytest.raises(OverflowError):
            _kernel.playouts(start, value, 0)
        with pytest.raises(OverflowError):
            _kernel.selfcheck(start, 1, value)
        with pytest.raises(OverflowError):
            _kernel.game(start, value, None)
        with pytest.raises(OverflowError):
            _kernel.bench_generate([start], value)
        with pytest.raises(OverflowError):
            _kernel.Searcher(1).search(start, [], 2, value, -1.0, -1.0, 1, None)
    with pytest.raises(ValueError, match="not legal"):  # a square past every C type: no move
        _kernel.game(start, 0, [(2**64 + 60,)])


def test_self_check_of_a_position_without_a_legal_move_R19a() -> None:
    blocked = "b 0/0 a5:w3b5 b5:w c5:w"  # Black's only piece cannot move: blocked
    assert kernel.legal_moves(blocked) == []
    stats, errors = kernel.self_check(blocked, 3)
    assert errors == []
    assert stats.games == 3 and stats.terminations["blocked"] == 3


def _geometry_rows(variant: str) -> list[Any]:
    geo = GEOMETRIES[variant]
    jumps = [(sq, d, over, land) for sq in geo.squares for d, over, land in geo.jumps[sq]]
    names = [geo.square_name(sq) for sq in geo.squares]
    return [geo.name, geo.men, geo.centre, list(geo.directions), list(geo.squares), names, jumps]


def test_a_geometry_is_registered_once() -> None:
    from emergo import _kernel

    rows = _geometry_rows("9x9")
    _kernel.register_geometry(*rows)  # the same tables again: nothing changes
    before = kernel.perft("w 12/12", 3)
    other = _geometry_rows("7x7")
    other[0] = "9x9"
    with pytest.raises(ValueError, match="9x9 is already registered with other tables"):
        _kernel.register_geometry(*other)
    assert kernel.perft("w 12/12", 3) == before == 55172
    assert kernel.legal_moves("7x7 w 8/8") == reference_moves(Board("7x7 w 8/8"))


def test_register_geometry_checks_every_input() -> None:
    from emergo import _kernel

    def bad(index: int, value: Any) -> list[Any]:
        rows = _geometry_rows("7x7")
        rows[0] = "test"
        rows[index] = value
        return rows

    rows = _geometry_rows("7x7")
    dirs, squares, names, jumps = rows[3], rows[4], rows[5], rows[6]
    cases: list[tuple[list[Any], str]] = [
        (bad(3, [-(2**31), 2**31 - 1, *dirs[2:]]), "directions must be"),  # INT_MIN
        (bad(3, [2**40, -(2**40), *dirs[2:]]), "directions must be"),
        (bad(3, [dirs[0], dirs[0], *dirs[2:]]), "not the opposite"),
        (bad(3, [*dirs, *dirs]), "directions: 8 items"),
        (bad(3, [0, 0, *dirs[2:]]), "not the opposite"),
        (bad(3, [100, -100, *dirs[2:]]), "too large"),
        (bad(1, 0), "men must be 1..12"),
        (bad(1, 2**64), "men must be 1..12"),
        (bad(2, -5), "centre must be"),
        (bad(2, squares[0] + 1 if squares[0] + 1 not in squares else 0), "centre"),
        (bad(4, [*squares[:-1], squares[0]]), "out of range or repeated"),
        (bad(4, [*squares[:-1], 128]), "squares must be 0..127"),
        (bad(4, [*squares[:-1], -1]), "squares must be 0..127"),
        (bad(5, names[:-1]), "one name per square"),
        (bad(5, [*names[:-1], names[0]]), "given twice"),
        (bad(5, [*names[:-1], "x y"]), "letters and digits"),
        (bad(5, [*names[:-1], ""]), "letters and digits"),
        (bad(6, jumps[:-1]), "jump table has"),
        (bad(6, [*jumps[:-1], jumps[0]]), "given twice"),
        (bad(6, [*jumps[:-1], (jumps[-1][0], 5, jumps[-1][2], jumps[-1][3])]), "disagrees"),
        (bad(6, [*jumps[:-1], (2**31, 0, 0, 0)]), "jump must be"),
        (bad(6, [*jumps[:-1], (1, 2, 3)]), "a jump is"),
        (bad(6, [jumps[0]] * (128 * 6 + 1)), "at most"),
        (bad(0, ""), "letters and digits"),
        (bad(0, "a b"), "letters and digits"),
        (bad(0, "toolongname"), "letters and digits"),
    ]
    for rows, message in cases:
        with pytest.raises(ValueError, match=message):
            _kernel.register_geometry(*rows)
    with pytest.raises(TypeError):
        _kernel.register_geometry(*bad(5, [*names[:-1], 5]))
    with pytest.raises(ValueError, match="not registered"):
        _kernel.legal(("test", bytes([1, 8, 8])))  # nothing was registered


# --- Ctrl-C ------------------------------------------------------------------------------------

_PRELUDE = """
from emergo import Board, kernel
from emergo.search import Limit
try:
    print("ready", flush=True)
    {call}
except KeyboardInterrupt:
    print("interrupted", flush=True)
    raise
print("finished", flush=True)
"""

LONG_CALLS = [
    "kernel.perft('w 12/12', 9)",
    "kernel.perft_divide('w 12/12', 9)",
    "kernel.playouts('w 12/12', 10**12)",
    "kernel.playouts_batch(['w 12/12', '7x7 w 8/8'], 10**12)",
    "kernel.self_check(None, 10**12)",
    "kernel.Searcher().search(Board(), Limit(infinite=True))",
]


@pytest.mark.parametrize("call", LONG_CALLS, ids=[c.split("(")[0] for c in LONG_CALLS])
def test_ctrl_c_stops_a_long_kernel_call(call: str) -> None:
    """SIGINT half a second into a call that would run for minutes: a KeyboardInterrupt.

    Told by what the call did (interrupted, not finished), not by how fast it stopped (about
    0.02 s when idle): that is a matter of the kernel's polling, not of a test's clock.
    """
    code = _PRELUDE.format(call=call)
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"{call} ran on after Ctrl-C")
    assert "interrupted" in out and "KeyboardInterrupt" in err, (out, err)
    assert "finished" not in out


def test_an_interrupted_call_leaves_the_kernel_usable(python_sigint: None) -> None:
    """KeyboardInterrupt in the caller's thread (as Ctrl-C): the next calls run normally."""
    calls: list[Callable[[], object]] = [
        lambda: kernel.perft("w 12/12", 9),
        lambda: kernel.playouts("w 12/12", 10**12),
    ]
    for call in calls:
        timer = threading.Timer(0.2, _thread.interrupt_main)
        timer.start()
        with pytest.raises(KeyboardInterrupt):  # calls of minutes: only the Ctrl-C ends them
            call()
        timer.join()
    assert kernel.perft("w 12/12", 3) == 55172
    assert kernel.playouts("w 12/12", 10, seed=1) == kernel.playouts("w 12/12", 10, seed=1)


def test_bad_packed_input_is_rejected_by_the_c_side() -> None:
    from emergo import _kernel

    bad = [
        ("9x9", bytes([1, 0, 0, 200, 1, 1, 0])),  # square int off the grid
        ("9x9", bytes([1, 0, 0, 0, 1, 1, 0])),  # padding square
        ("9x9", bytes([1, 13, 0])),  # more men in hand than 9x9 has
        ("9x9", bytes([1, 0, 0, 60, 1, 0, 0])),  # a piece without caps (R6)
        ("9x9", bytes([1, 0, 0, 60, 1, 1, 0, 60, 0, 1, 0])),  # a square given twice
        ("9x9", bytes([1, 0])),  # too short
        ("hex", bytes([1, 13, 12])),  # more men in hand than hex has
        ("hex", bytes([1, 0, 0, 1, 1, 1, 0])),  # square int 1: off the hexagon
        ("5x5", bytes([1, 12, 12])),  # not registered
    ]
    for packed in bad:
        with pytest.raises(ValueError):
            _kernel.legal(packed)
    with pytest.raises(TypeError):
        _kernel.legal(("9x9", "w 12/12"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not legal"):
        _kernel.game(kernel.pack("w 12/12"), 0, [(200,)])


def test_long_calls_release_the_gil() -> None:
    done = threading.Event()

    def work() -> None:
        kernel.playouts("w 12/12", 20000, seed=1)
        done.set()

    thread = threading.Thread(target=work)
    spins = 0
    thread.start()
    start = time.perf_counter()
    while not done.is_set() and time.perf_counter() - start < 30:
        spins += 1
    thread.join()
    assert spins > 10_000
    # Calls running at once in several threads share nothing mutable.
    results: list[object] = [None] * 4

    def one(i: int) -> None:
        results[i] = (kernel.playouts("7x7 w 8/8", 3000, seed=9), kernel.perft("w 12/12", 4))

    threads = [threading.Thread(target=one, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expected = (kernel.playouts("7x7 w 8/8", 3000, seed=9), 1828116)
    assert results == [expected] * 4


def test_bench_reports_both_sides_and_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    from emergo import cli

    assert (
        cli.main(["bench", "--json", "--seconds", "0.05", "--variant", "7x7", "--no-search"]) == 0
    )
    report = json.loads(capsys.readouterr().out)
    for side in ("kernel", "reference"):
        assert report[side]["games_per_s"] > 0
        assert report[side]["generations_per_s"] > 0
        assert report[side]["perft_nodes_per_s"] > 0
    assert set(report["ratio"]) == {"games_per_s", "generations_per_s", "perft_nodes_per_s"}
    assert (
        cli.main(["bench", "--kernel-only", "--games", "100", "--seconds", "0.05", "--no-search"])
        == 0
    )
    assert "random games/s" in capsys.readouterr().out
