"""The endgame tables (issue 23, docs/tablebase.md): the reduction, the values, the API, the file.

The tables are built here: the 2-column ones in milliseconds, the 7x7 3-column one once per
session (2 s) into a folder of its own.  The 9x9 and hex 3-column tables take half a minute
each: tools/tablebase_proof.py checks them.
"""

from __future__ import annotations

import itertools
import os
import random
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from emergo import Board
from emergo.board import BLACK, WHITE
from emergo.geometry import GEOMETRIES, Geometry
from emergo.notation import format_position
from tests.plugins.common import FULL, requires_kernel

kernel = requires_kernel()
from emergo import _kernel, tablebase  # noqa: E402  (after the skip)
from emergo.tablebase import (  # noqa: E402
    MissingTableError,
    OutsideTablesError,
    Tablebase,
    TablebaseError,
)

SANITIZE = bool(os.environ.get("EMERGO_SANITIZE"))
"""tools/sanitize.sh (ASan at -O1): the checks of tens of millions of positions are left out."""

# Every position of the 2-column class before the reduction: two squares (ordered), the side
# to move, the two caps (with every man on the board the prisoners follow, R6).
RAW_TWO = {"7x7": 25 * 24 * 2 * 8 * 8, "9x9": 41 * 40 * 2 * 12 * 12, "hex": 37 * 36 * 2 * 12 * 12}

# The figures of the 2-column tables (docs/tablebase.md): positions (White to move, up to
# symmetry), won, drawn, lost, the longest win.
TWO = {
    "7x7": (5_568, 2_772, 0, 2_796, 51),
    "9x9": (32_832, 16_368, 0, 16_464, 79),
    "hex": (17_712, 5_716, 6_576, 5_420, 47),
}


@pytest.fixture(scope="module")
def two() -> Iterator[dict[str, _kernel.Table]]:
    tables = {variant: _kernel.tb_build(variant, 2, None, None) for variant in GEOMETRIES}
    yield tables
    for table in tables.values():
        table.close()


@pytest.fixture(scope="session")
def tb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the 7x7 3-column table, built once."""
    folder = tmp_path_factory.mktemp("tablebases")
    tablebase.build("7x7", 3, folder)
    return folder


@pytest.fixture
def tables(tb_dir: Path) -> Iterator[Tablebase]:
    with Tablebase(tb_dir) as t:
        yield t


# --- the reduction and the values -----------------------------------------------------------


@pytest.mark.parametrize("variant", list(GEOMETRIES))
def test_the_two_column_reduction_holds_on_every_state(
    two: dict[str, _kernel.Table], variant: str
) -> None:
    """Every position of two columns and no men in hand (every square pair, side, cap), by the
    full rules: its entry holds a symmetric image of it, and its value is what its moves give
    (a win: a move to a loss one ply shorter, none shorter; a loss: only moves to wins, the
    longest one ply shorter; a draw: no move to a loss, one to a draw)."""
    checked, bad, why = two[variant].check_raw(None, None)
    assert (checked, bad, why) == (RAW_TWO[variant], 0, "")


@pytest.mark.parametrize("variant", list(GEOMETRIES))
def test_the_two_column_tables_are_consistent_and_symmetric(
    two: dict[str, _kernel.Table], variant: str
) -> None:
    table = two[variant]
    checked, bad, why = table.verify(None, True, None)
    assert (bad, why) == (0, "") and checked == table.info()["entries"]
    info = table.info()
    got = (info["positions"], info["wins"], info["draws"], info["losses"], info["longest_win"])
    assert got == TWO[variant]
    assert info["symmetries"] == (12 if variant == "hex" else 8)  # D6, D4


def test_the_issues_independent_solutions(two: dict[str, _kernel.Table]) -> None:
    """The wins the issue quotes from an independent exact solution of the 2-column endings."""
    assert two["9x9"].probe(kernel.pack("w 0/0 c4:w12 d2:b12")) == 73
    assert two["7x7"].probe(kernel.pack("7x7 w 0/0 d2:b8 d5:w8")) == 47
    # the hex win the engine threw away with c3-d4: only c3-d3 wins
    with Tablebase([]) as t:
        moves = t.probe_moves(Board("hex w 0/0 c3:b4w12 f3:b8"))
    assert [(str(m.move), m.dtm) for m in moves if m.wdl > 0] == [("c3-d3", 41)]
    assert next(m for m in moves if str(m.move) == "c3-d4").wdl == 0


def test_the_seven_by_seven_three_column_table(tables: Tablebase) -> None:
    table = tables.table("7x7", 3)
    info = tables.info("7x7", 3)
    assert (info.entries, info.positions) == (1_844_640, 1_794_048)
    assert (info.wins, info.draws, info.losses, info.longest_win) == (
        869_124,
        206_074,
        718_850,
        141,
    )
    checked, bad, why = table.verify(tables.table("7x7", 2), False, None)
    assert (checked, bad, why) == (info.entries, 0, "")


@pytest.mark.skipif(SANITIZE, reason="millions of positions: minutes under the sanitizers")
def test_the_seven_by_seven_three_column_reduction(tables: Tablebase) -> None:
    """Every 16th of the 28 M positions of the class before the reduction (both colours with
    the pair, every cap and prisoner count; all of them: tools/tablebase_proof.py check
    --every-position, half a minute)."""
    states = 2 * 25 * 276 * 2 * 28 * 36
    checked, bad, why = tables.verify("7x7", 3, every_position=True, stride=16)
    assert (checked, bad, why) == (-(-states // 16), 0, "")


# --- independent checks in pure Python ------------------------------------------------------


def _symmetries(geo: Geometry) -> list[dict[int, int]]:
    """The board's symmetries from its coordinates (not the kernel's): D4 of the square grid
    about the centre, D6 of the hexagon in cube coordinates."""
    cu, cv = geo.uv(geo.centre)
    at = {geo.uv(sq): sq for sq in geo.squares}
    maps = []
    if geo.name == "hex":  # q = u, r = -v (the axial directions of R4), s = -q - r
        for perm in itertools.permutations(range(3)):
            for sign in (1, -1):

                def f(u: int, v: int, perm: tuple[int, ...] = perm, sign: int = sign) -> tuple:
                    q, r = u - cu, -(v - cv)
                    c = (q, r, -q - r)
                    q2, r2 = sign * c[perm[0]], sign * c[perm[1]]
                    return (q2 + cu, -r2 + cv)

                maps.append(f)
    else:
        for swap, su, sv in itertools.product((False, True), (1, -1), (1, -1)):

            def f(u: int, v: int, swap: bool = swap, su: int = su, sv: int = sv) -> tuple:
                x, y = (v - cv, u - cu) if swap else (u - cu, v - cv)
                return (su * x + cu, sv * y + cv)

            maps.append(f)
    out = []
    for f in maps:
        image = {sq: at.get(f(*geo.uv(sq))) for sq in geo.squares}
        assert set(image.values()) == set(geo.squares)  # a bijection of the board
        out.append(image)  # type: ignore[arg-type]
    return out


def _image(board: Board, sym: dict[int, int], swap: bool) -> Board:
    stacks = {
        sym[sq]: (st.owner != swap, st.caps, st.prisoners) for sq, st in board.stacks().items()
    }
    hands = [board.hand(WHITE if swap else BLACK), board.hand(BLACK if swap else WHITE)]
    return Board(format_position(board.geometry, board.turn != swap, hands, stacks))


def _samples(table: _kernel.Table, n: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    entries = table.info()["entries"]
    return [Board(table.decode(rng.randrange(entries))) for _ in range(n)]


@pytest.mark.parametrize("variant", list(GEOMETRIES))
def test_values_are_invariant_under_the_symmetries_and_the_colour_swap(
    two: dict[str, _kernel.Table], variant: str
) -> None:
    """Each image of a position by a symmetry of the board, found from its coordinates here,
    and by the colour swap, has the same value (probed through the full position)."""
    geo = GEOMETRIES[variant]
    syms = _symmetries(geo)
    assert len(syms) == (12 if variant == "hex" else 8)
    with Tablebase([]) as t:
        for board in _samples(two[variant], 60, 1):
            value = t.probe_dtm(board)
            for sym, swap in itertools.product(syms, (False, True)):
                assert t.probe_dtm(_image(board, sym, swap)) == value, (board.position(), swap)


def test_values_are_invariant_in_the_three_column_table(tables: Tablebase) -> None:
    syms = _symmetries(GEOMETRIES["7x7"])
    for board in _samples(tables.table("7x7", 3), 150, 2):
        value = tables.probe_dtm(board)
        for sym, swap in itertools.product(syms, (False, True)):
            assert tables.probe_dtm(_image(board, sym, swap)) == value


def _solve(board: Board, depth: int) -> tuple[str, int] | None:
    """Exhaustive search by the pure-Python rules (Board: R18, R19a, R19b with the history):
    ``("win", n)``, ``("loss", n)`` or ``("draw", 0)`` for the player to move when every line
    is decided within ``depth`` plies (the winner's shortest, the loser's longest), else None.
    """
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return ("draw", 0)
        return ("loss", 0) if outcome.winner != board.turn else ("win", 0)
    if depth == 0:
        return None
    wins, losses, drawn, unknown = [], [], False, False
    for move in board.moves():
        board.push(move)
        try:
            child = _solve(board, depth - 1)
        finally:
            board.pop()
        if child is None:
            unknown = True
        elif child[0] == "loss":
            wins.append(child[1] + 1)
        elif child[0] == "win":
            losses.append(child[1] + 1)
        else:
            drawn = True
    if wins:
        return ("win", min(wins))
    if unknown:
        return None
    return ("draw", 0) if drawn else ("loss", max(losses))


@pytest.mark.parametrize("variant", list(GEOMETRIES))
def test_short_values_agree_with_exhaustive_search_by_the_python_rules(
    two: dict[str, _kernel.Table], variant: str
) -> None:
    """Positions won or lost in a few plies: the pure-Python rules (with R19b), searched to
    that depth in full, give the same value; one ply less decides nothing."""
    table = two[variant]
    rng = random.Random(3)
    entries = table.info()["entries"]
    found = 0
    for i in rng.sample(range(entries), entries):
        value = table.value(i)
        if value == 0 or value > 5:
            continue
        board = Board(table.decode(i))
        assert _solve(board.copy(), value) == ("win" if value % 2 else "loss", value)
        assert _solve(board.copy(), value - 1) is None, board.position()
        found += 1
        if found == 12:
            break
    assert found == 12


def test_draws_hold_against_every_reply_by_the_python_rules(
    two: dict[str, _kernel.Table],
) -> None:
    """Hex draws (R19b is real there: 37% of the 2-column positions): searched in full by the
    Python rules, neither side forces a result within 5 plies, and the side to move, playing
    the tables' moves, never stands lost against random replies (none of which wins) in 12
    plies."""
    table = two["hex"]
    rng = random.Random(4)
    entries = table.info()["entries"]
    draws = [i for i in rng.sample(range(entries), 400) if table.value(i) == 0][:6]
    assert len(draws) == 6
    with Tablebase([]) as t:
        for i in draws:
            board = Board(table.decode(i))
            assert _solve(board.copy(), 5) is None, board.position()
            for ply in range(12):
                if board.outcome() is not None:
                    assert board.outcome().winner is None  # type: ignore[union-attr]
                    break
                if ply % 2 == 0:
                    move = t.best_move(board)
                    assert move is not None and t.probe_moves(board)[0].wdl >= 0
                else:  # the opponent: every reply keeps the draw (none wins)
                    assert all(m.wdl <= 0 for m in t.probe_moves(board))
                    move = rng.choice(board.moves())
                board.push(move)


def _seven_by_seven_graph(sample: int | None) -> dict[str, list[str]]:
    """Every 2-column 7x7 position before the reduction (76,800), or a seeded sample of
    ``sample`` of them, with its children by the pure-Python rules (Board): a child's position,
    or "WIN" (the move takes the last column, R18) or "DRAW" (the game ends drawn)."""
    geo = GEOMETRIES["7x7"]
    men = geo.men
    states = [
        (a, b, cw, cb, white)
        for a, b in itertools.permutations(geo.squares, 2)
        for cw, cb, white in itertools.product(range(1, men + 1), range(1, men + 1), (True, False))
    ]
    assert len(states) == RAW_TWO["7x7"]
    if sample is not None:
        states = random.Random(76_800).sample(states, sample)
    graph: dict[str, list[str]] = {}
    for a, b, cw, cb, white in states:
        stacks = {a: (True, cw, men - cb), b: (False, cb, men - cw)}
        board = Board(format_position(geo, white, [0, 0], stacks))
        children = []
        for move in board.moves():
            board.push(move)
            end = board.outcome()
            children.append(
                board.position() if end is None else "WIN" if end.winner is not None else "DRAW"
            )
            board.pop()
        graph[board.position()] = children
    return graph


@pytest.mark.slow
@pytest.mark.skipif(SANITIZE, reason="pure Python: nothing of the kernel's to sanitize")
@pytest.mark.skipif(not FULL, reason="every state: the full run (EMERGO_TEST_SCALE=full)")
def test_a_pure_python_retrograde_analysis_agrees_on_every_seven_by_seven_state(
    two: dict[str, _kernel.Table],
) -> None:
    """An independent solution of every 2-column 7x7 position before the reduction (76,800):
    the pure-Python rules (Board) for the moves, a plain fixpoint for the values; ~15 s."""
    graph = _seven_by_seven_graph(None)
    assert len(graph) == RAW_TWO["7x7"]
    value: dict[str, int] = {}
    level, idle = 1, 0
    while idle < 2:  # a level needs the one before it: two empty levels end it
        new = {}
        for pos, children in graph.items():
            if pos in value:
                continue
            if level % 2:  # a move to a loss in level - 1 (or taking the last column)
                if any(value.get(c) == level - 1 or (c == "WIN" and level == 1) for c in children):
                    new[pos] = level
            elif (
                children
                and all(value.get(c, 0) % 2 for c in children)
                and max(value[c] for c in children) == level - 1
            ):
                new[pos] = level
        value.update(new)
        idle = 0 if new else idle + 1
        level += 1
    for pos in graph:
        assert two["7x7"].probe(kernel.pack(pos)) == value.get(pos, 0), pos


@pytest.mark.skipif(SANITIZE, reason="pure Python: nothing of the kernel's to sanitize")
def test_the_seven_by_seven_values_follow_from_their_childrens_by_the_pure_python_rules(
    two: dict[str, _kernel.Table],
) -> None:
    """The fast loop's check of the test above (which the full run alone runs): for 2,000
    seeded 2-column 7x7 positions, the table's value is the one the fixpoint's step gives from
    the table's values of its children, the moves by the pure-Python rules -- 1 for a move that
    takes the last column, one more than the shortest loss among the children, one more than
    the longest win when every child is a win, else 0 (drawn)."""
    probe = two["7x7"].probe
    levels = Counter()
    for pos, children in _seven_by_seven_graph(2_000).items():
        of = [0 if c == "DRAW" else -1 if c == "WIN" else probe(kernel.pack(c)) for c in children]
        losses = [v for v in of if v > 0 and v % 2 == 0]
        if -1 in of:
            expected = 1
        elif losses:
            expected = min(losses) + 1
        elif of and all(v % 2 for v in of):
            expected = max(of) + 1
        else:
            expected = 0
        assert probe(kernel.pack(pos)) == expected, pos
        levels[expected % 2 if expected else "draw"] += 1
    assert levels[1] and levels[0]  # wins and losses among them (7x7 has no drawn 2-column state)


# --- the API ----------------------------------------------------------------------------------


def test_probe_wdl_and_dtm(tables: Tablebase) -> None:
    board = Board("7x7 w 0/0 d2:b8 d5:w8")
    assert (tables.probe_wdl(board), tables.probe_dtm(board)) == (1, 47)
    board.push_move("d5-d4")
    assert (tables.probe_wdl(board), tables.probe_dtm(board)) == (-1, -46)
    draw = Board("hex w 0/0 c3:b4w12 f3:b8")
    draw.push_move("c3-d4")
    with Tablebase([]) as t:
        assert (t.probe_wdl(draw), t.probe_dtm(draw)) == (0, 0)
    assert tablebase.columns_of(Board("7x7 b 0/0 b4:b3 c2:b4w g4:bw7")) == 3
    assert tables.probe_dtm(Board("7x7 b 0/0 b4:b3 c2:b4w g4:bw7")) == 141


def test_probe_moves_is_the_value_one_ply_on(tables: Tablebase) -> None:
    for board in _samples(tables.table("7x7", 3), 40, 5):
        moves = tables.probe_moves(board)
        assert moves and moves[0].dtm == tables.probe_dtm(board)
        for item in moves:
            child = board.copy()
            child.push(item.move)
            if child.outcome() is not None:
                assert (item.wdl, item.dtm) == (1, 1)  # R18: the last column taken
                continue
            inner = tables.probe_dtm(child)
            assert item.dtm == (0 if inner == 0 else -inner + (1 if inner < 0 else -1))


def test_positions_outside_the_tables_say_why(tables: Tablebase) -> None:
    assert tablebase.columns_of(Board("7x7 w 0/0 c3:w2 d2:b8 d5:w6")) == 3
    cases = {
        "w 12/12": "men are in hand",
        "7x7 w 0/0 d2:b d5:w": "all 8 men",
        "7x7 w 0/0 a4:w2 b4:b4 d2:b4 d5:w6": "White has 2 columns and Black 2",
        "7x7 w 0/0 a4:w2 c3:w2 d2:b8 d5:w4": "White has 3 columns and Black 1",
    }
    for position, why in cases.items():
        with pytest.raises(OutsideTablesError, match=why):
            tables.probe_wdl(Board(position))
        assert tables.get_wdl(Board(position)) is None
        assert tables.get_dtm(Board(position), 99) == 99


def test_a_table_not_built_is_named_with_the_command_that_builds_it(tmp_path: Path) -> None:
    with Tablebase(tmp_path) as t:
        assert t.has("9x9", 2) and not t.has("9x9", 3)
        with pytest.raises(
            MissingTableError, match="emergo tablebase build --variant 9x9 --columns 3"
        ):
            t.probe_dtm(Board("w 0/0 a5:wb12 c4:w2 e5:w9"))
        assert t.kernel_tables("9x9")[1] is None
    assert isinstance(MissingTableError("x"), TablebaseError) and issubclass(
        TablebaseError, ValueError
    )


def test_a_closed_tablebase_refuses(tb_dir: Path) -> None:
    t = tablebase.open_tablebase(tb_dir)
    assert t.probe_wdl(Board("7x7 w 0/0 d2:b8 d5:w8")) == 1
    table = t.table("7x7", 2)
    t.close()
    with pytest.raises(TablebaseError, match="closed"):
        t.probe_wdl(Board("7x7 w 0/0 d2:b8 d5:w8"))
    with pytest.raises(ValueError, match="closed"):
        table.probe(kernel.pack("7x7 w 0/0 d2:b8 d5:w8"))


def test_the_data_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(tablebase.ENV, str(tmp_path / "tb"))
    assert tablebase.tables_dir() == tmp_path / "tb"
    monkeypatch.delenv(tablebase.ENV)
    assert tablebase.tables_dir().name == "tablebases"
    assert "emergo" in tablebase.tables_dir().parts


# --- the file -------------------------------------------------------------------------------


def test_the_file_header_and_checksum(tb_dir: Path, tmp_path: Path) -> None:
    path = tb_dir / "7x7-3.etb"
    data = path.read_bytes()
    assert data[:8] == b"EMERGOTB"
    assert int.from_bytes(data[8:12], "little") == _kernel.TB_VERSION == 1
    assert data[12:20].rstrip(b"\0") == b"7x7"
    assert int.from_bytes(data[20:24], "little") == 3  # columns
    assert int.from_bytes(data[36:40], "little") == 1  # bytes per entry
    entries = int.from_bytes(data[40:48], "little")
    assert entries == tablebase.entries("7x7", 3) == len(data) - 128
    assert int.from_bytes(data[52:56], "little") == zlib.crc32(data[128:])
    # a damaged entry: the file opens, its checksum says it is damaged
    bad = tmp_path / "7x7-3.etb"
    bad.write_bytes(data[:1000] + bytes([data[1000] ^ 1]) + data[1001:])
    with Tablebase(tmp_path) as t:
        assert t.verify("7x7", 3)[1:] == (
            1,
            f"{bad}: its checksum does not match: the file is damaged",
        )
    bad.write_bytes(data[:-1])
    with Tablebase(tmp_path) as t, pytest.raises(TablebaseError, match="truncated"):
        t.table("7x7", 3)
    bad.write_bytes(b"NOTATABLE" + data[9:])
    with Tablebase(tmp_path) as t, pytest.raises(TablebaseError, match="bad magic"):
        t.table("7x7", 3)


def test_a_build_writes_the_file_only_when_complete(tmp_path: Path) -> None:
    def stop(phase: str, done: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tablebase.build("7x7", 3, tmp_path, progress=stop)
    assert list(tmp_path.iterdir()) == []
    path = tablebase.build("7x7", 2, tmp_path)
    assert path == tmp_path / "7x7-2.etb" and path.stat().st_size == 128 + 5_568
    with Tablebase(tmp_path) as t:
        assert t.info("7x7", 2).path == path
        assert t.probe_dtm(Board("7x7 w 0/0 d2:b8 d5:w8")) == 47


# --- the command ----------------------------------------------------------------------------


def _emergo(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    from emergo.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_probe_command(capsys: pytest.CaptureFixture[str], tb_dir: Path) -> None:
    status, out, _ = _emergo(capsys, "tablebase", "probe", "--dir", str(tb_dir), "hex", "w",
                             "0/0", "c3:b4w12", "f3:b8")  # fmt: skip
    assert status == 0
    assert out.splitlines()[:3] == [
        "position: hex w 0/0 c3:b4w12 f3:b8 (White to move)",
        "value: White wins in 41 plies (win 41 for White, 2-column table)",
        "  c3-d3  win 41",
    ]
    assert out.count("draw") == 5
    status, out, _ = _emergo(capsys, "tablebase", "probe", "--dir", str(tb_dir),
                             "7x7 b 0/0 b4:b3 c2:b4w g4:bw7")  # fmt: skip
    assert status == 0 and "value: Black wins in 141 plies (win 141 for Black, 3-column" in out
    status, _, err = _emergo(capsys, "tablebase", "probe", "w", "12/12")
    assert (status, err) == (2, "emergo tablebase: w 12/12 is in no table: men are in hand\n")
    status, _, err = _emergo(capsys, "tablebase", "probe", "--dir", str(tb_dir),
                             "w 0/0 a5:wb12 c4:w2 e5:w9")  # fmt: skip
    assert status == 1 and "emergo tablebase build --variant 9x9 --columns 3" in err


def test_the_build_info_and_verify_commands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = _emergo(capsys, "tablebase", "build", "--variant", "hex", "--columns", "2",
                             "--dir", str(tmp_path), "-q")  # fmt: skip
    assert status == 0
    assert out.startswith(f"{tmp_path / 'hex-2.etb'}: 17,712 positions: 5,716 won, 6,576 drawn")
    built = (tmp_path / "hex-2.etb").stat().st_mtime_ns
    status, out, _ = _emergo(capsys, "tablebase", "build", "--variant", "hex", "--columns", "2",
                             "--dir", str(tmp_path))  # fmt: skip
    # what is built already is a success that says so (issue 27), and is not built again
    assert status == 0 and "hex-2.etb: built already (--force builds it again)" in out
    assert (tmp_path / "hex-2.etb").stat().st_mtime_ns == built
    status, out, _ = _emergo(capsys, "tablebase", "info", "--dir", str(tmp_path))
    assert status == 0
    assert f"hex 2 columns: {tmp_path / 'hex-2.etb'}" in out
    assert "9x9 2 columns: in memory, built when needed" in out
    assert "9x9 3 columns: not built (emergo tablebase build --variant 9x9 --columns 3)" in out
    status, out, _ = _emergo(capsys, "tablebase", "verify", "--variant", "hex", "--columns", "2",
                             "--dir", str(tmp_path), "--every-position", "-q")  # fmt: skip
    assert (status, out) == (
        0,
        "hex 2 columns (17,712 entries): 383,616 positions checked, all consistent\n",
    )
    status, _, err = _emergo(capsys, "tablebase", "verify", "--dir", str(tmp_path))
    assert status == 1 and "the 3-column table of 9x9 is not built" in err


def test_analyse_shows_the_tables_answer(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _emergo(capsys, "analyse", "-q", "--depth", "3", "7x7 w 0/0 d2:b8 d5:w8")
    assert status == 0
    assert out.splitlines()[1] == "evaluation: White wins in 47 plies (endgame tables)"
