#!/usr/bin/env python3
"""The figures and proofs of the endgame tables (issue 23, docs/tablebase.md).

  tools/tablebase_proof.py figures [--dir DIR]     # per table: states, W/D/L, longest win,
                                                    # size, probe time; builds what is missing
  tools/tablebase_proof.py check [--dir DIR] [--every-position]   # every table's consistency
  tools/tablebase_proof.py convert --seconds 0.1 --games 50       # hard wins converted,
                                                    # without and with the tables
  tools/tablebase_proof.py openings --variant hex --count 40 > endings.txt
                                                    # ending-rich openings for emergo match

``convert`` plays each hard win (a random entry won by the player to move in at least
``--min`` plies, the same entries every run for a ``--seed``) with the kernel search at
``--seconds`` a move for the winner (``--single``: only wins with one winning move), without
the tables and then with them, against the
tables' perfect defence (the longest loss, a draw whenever the rules or a repetition offer
one); a game not won within three times its distance plus 50 plies is a draw.  It counts
the wins, the plies they took against the tables' distance, and the searches that reported
``draw`` (a proven draw: never in a won position).

``openings`` writes positions of four columns (two each) with every man on the board and
no capture pending, drawn at random (``--seed``): games from there reach the tables'
endings, so ``emergo match`` between the engine with and without its tables (option
``Tablebases``) measures what the tables are worth:

  tools/tablebase_proof.py openings --variant hex --count 40 > hex-endings.txt
  emergo match --openings hex-endings.txt -n 80 -c 1 --max-plies 300 \\
      -e 'engine name=tables move-time=0.05' \\
      -e 'engine name=search option.Tablebases=false move-time=0.05' --sprt 'elo0=0 elo1=50'
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from emergo import Board, kernel, tablebase
from emergo.geometry import GEOMETRIES
from emergo.notation import format_position
from emergo.search import Limit

THRESHOLDS = {("7x7", 2): 31, ("9x9", 2): 41, ("hex", 2): 25}
"""The shortest win counted as hard, by table (3 columns: --min, default 61)."""


def _tables(args: argparse.Namespace) -> tablebase.Tablebase:
    return tablebase.Tablebase(args.dir)


def figures(args: argparse.Namespace) -> None:
    folder = Path(args.dir).expanduser() if args.dir else tablebase.tables_dir()
    print("| table | states | entries | positions | won | drawn | lost | longest win | "
          "build | file | probe (kernel) | probe (Board) |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for variant in GEOMETRIES:
        geo = GEOMETRIES[variant]
        n, men = len(geo.squares), geo.men
        for columns in tablebase.COLUMNS:
            pairs, caps, prisoners = (
                (n - 1) * (n - 2) // 2,
                men * (men - 1) // 2,
                men * (men + 1) // 2,
            )
            states = (
                n * (n - 1) * 2 * men * men
                if columns == 2
                else 2 * n * pairs * 2 * caps * prisoners  # both colours may hold the pair
            )
            path = folder / tablebase.table_name(variant, columns)
            started = time.perf_counter()
            if columns == 3 and not path.exists():
                tablebase.build(variant, 3, folder)
                built = f"{time.perf_counter() - started:.1f} s"
            elif columns == 2:
                kernel_table = tablebase._kernel().tb_build(variant, 2, None, None)
                built = f"{(time.perf_counter() - started) * 1000:.0f} ms"
                kernel_table.close()
            else:
                built = "(built before)"
            with tablebase.Tablebase([folder]) as tables:
                info = tables.info(variant, columns)
                table = tables.table(variant, columns)
                rng = random.Random(1)
                boards = [Board(table.decode(rng.randrange(info.entries))) for _ in range(2000)]
                packed = [kernel.pack(b) for b in boards]
                for p in packed:  # the first touch of a mapped page reads it: warm them
                    table.probe(p)
                started = time.perf_counter()
                for p in packed:
                    table.probe(p)
                fast = (time.perf_counter() - started) / len(packed) * 1e6
                started = time.perf_counter()
                for b in boards:
                    tables.probe_dtm(b)
                slow = (time.perf_counter() - started) / len(boards) * 1e6
            size = (
                f"{info.bytes / 1e6:.1f} MB" if info.bytes > 1e6 else f"{info.bytes / 1e3:.0f} KB"
            )
            print(
                f"| {variant} {columns} | {states:,} | {info.entries:,} | {info.positions:,} | "
                f"{info.wins:,} | {info.draws:,} | {info.losses:,} | {info.longest_win} "
                f"(`{info.longest_win_position}`) | {built} | {size} | {fast:.1f} µs | "
                f"{slow:.0f} µs |",
                flush=True,
            )


def check(args: argparse.Namespace) -> int:
    failed = 0
    with _tables(args) as tables:
        for variant in GEOMETRIES:
            for columns in tablebase.COLUMNS:
                if not tables.has(variant, columns):
                    print(f"{variant} {columns}: not built")
                    continue
                started = time.perf_counter()
                checked, bad, why = tables.verify(
                    variant, columns, every_position=args.every_position
                )
                what = "positions" if args.every_position else "entries"
                took = time.perf_counter() - started
                print(
                    f"{variant} {columns}: {checked:,} {what} checked, {bad} bad {why} "
                    f"({took:.1f} s)",
                    flush=True,
                )
                failed += bad
    return 1 if failed else 0


def hard_wins(
    tables: tablebase.Tablebase, table: object, count: int, least: int, seed: int, single: bool
) -> list[str]:
    """``count`` random entries won in ``least`` plies or more (``single``: and by one move
    only, as the issue's `hex w 0/0 c3:b4w12 f3:b8`)."""
    rng = random.Random(seed)
    entries = table.info()["entries"]  # type: ignore[attr-defined]
    found: list[str] = []
    tries = 0
    while len(found) < count and tries < 200 * count + 100_000:
        tries += 1
        i = rng.randrange(entries)
        value = table.value(i)  # type: ignore[attr-defined]
        if value % 2 and value >= least:
            position = table.decode(i)  # type: ignore[attr-defined]
            moves = tables.probe_moves(Board(position)) if single else []
            if not single or sum(m.wdl > 0 for m in moves) == 1:
                found.append(position)
    return found


def play_out(
    position: str, tables: tablebase.Tablebase, searcher: kernel.Searcher, seconds: float
) -> tuple[str, int, int, int]:
    """(won/drawn/lost, plies, the tables' distance, searches that said draw)."""
    board = Board(position)
    winner = board.turn
    dtm = tables.probe_dtm(board)
    cap = 3 * dtm + 50
    searcher.clear()
    said_draw = 0
    while board.outcome() is None and len(board.move_stack) < cap:
        if board.turn == winner:
            result = searcher.search(board, Limit(time=seconds))
            said_draw += bool(result.infos) and result.infos[0].score.kind == "draw"
            assert result.move is not None
            board.push(result.move)
        else:
            move = tables.best_move(board)
            assert move is not None
            board.push(move)
    outcome = board.outcome()
    kind = (
        "drawn"
        if outcome is None or outcome.winner is None
        else "won"
        if outcome.winner == winner
        else "lost"
    )
    return kind, len(board.move_stack), dtm, said_draw


def convert(args: argparse.Namespace) -> None:
    with _tables(args) as tables:
        print("| table | games | tables | won | drawn | lost | plies / distance | "
              "said draw | seconds |")  # fmt: skip
        print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
        for variant in args.variant or list(GEOMETRIES):
            for columns in args.columns or list(tablebase.COLUMNS):
                if not tables.has(variant, columns):
                    continue
                least = THRESHOLDS.get((variant, columns), args.min)
                table = tables.table(variant, columns)
                positions = hard_wins(tables, table, args.games, least, args.seed, args.single)
                for use in (False, True):
                    searcher = kernel.Searcher(tablebase=tables if use else None)
                    counts = {"won": 0, "drawn": 0, "lost": 0}
                    ratios, said = [], 0
                    started = time.perf_counter()
                    for position in positions:
                        kind, plies, dtm, draws = play_out(position, tables, searcher, args.seconds)
                        counts[kind] += 1
                        said += draws
                        if kind == "won":
                            ratios.append(plies / dtm)
                        if kind != "won" and args.verbose:
                            print(f"  {'with' if use else 'without'}: {kind} {position} "
                                  f"(win in {dtm})", file=sys.stderr)  # fmt: skip
                    ratio = f"{statistics.mean(ratios):.2f}" if ratios else "-"
                    print(
                        f"| {variant} {columns} (win >= {least}{', one move' * args.single}) | "
                        f"{len(positions)} | "
                        f"{'with' if use else 'without'} | {counts['won']} | {counts['drawn']} | "
                        f"{counts['lost']} | {ratio} | {said} | "
                        f"{time.perf_counter() - started:.0f} |",
                        flush=True,
                    )


def openings(args: argparse.Namespace) -> None:
    geo = GEOMETRIES[args.variant]
    rng = random.Random(args.seed)
    men = geo.men
    print(f"# {args.count} ending openings: four columns, every man on the board "
          f"(tools/tablebase_proof.py openings --variant {args.variant} --count {args.count} "
          f"--seed {args.seed})")  # fmt: skip
    made = 0
    while made < args.count:
        squares = rng.sample(list(geo.squares), 4)

        # each colour's men: two caps (its columns, at least one each) and two prisoner
        # counts (under the other colour's columns), the rest dealt at random
        def split(total: int) -> list[int]:
            parts = [1, 1, 0, 0]
            for _ in range(total - 2):
                parts[rng.randrange(4)] += 1
            return parts

        w, b = split(men), split(men)
        stacks = {
            squares[0]: (True, w[0], b[2]),
            squares[1]: (True, w[1], b[3]),
            squares[2]: (False, b[0], w[2]),
            squares[3]: (False, b[1], w[3]),
        }
        board = Board(format_position(geo, True, [0, 0], stacks))
        if board.is_capturing() or board.outcome() is not None:
            continue
        # only positions the search at 20,000 nodes calls near even: a match tells more
        score = kernel.Searcher(hash_mb=4).search(board, Limit(nodes=20_000)).infos[0].score
        if score.kind != "cp" or abs(score.value) > args.margin:
            continue
        print(f"{board.position()} |")
        made += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("figures")
    p.add_argument("--dir")
    p = sub.add_parser("check")
    p.add_argument("--dir")
    p.add_argument("--every-position", action="store_true")
    p = sub.add_parser("convert")
    p.add_argument("--dir")
    p.add_argument("--seconds", type=float, default=0.1)
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--min", type=int, default=61, help="3 columns: the shortest hard win")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variant", action="append", choices=list(GEOMETRIES))
    p.add_argument("--columns", action="append", type=int, choices=tablebase.COLUMNS)
    p.add_argument("--single", action="store_true", help="wins by one move only")
    p.add_argument("-v", "--verbose", action="store_true")
    p = sub.add_parser("openings")
    p.add_argument("--variant", choices=list(GEOMETRIES), default="9x9")
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--margin", type=int, default=150, help="centi-men from even at most")
    p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.command == "figures":
        figures(args)
    elif args.command == "check":
        return check(args)
    elif args.command == "convert":
        convert(args)
    else:
        openings(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
