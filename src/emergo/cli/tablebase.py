"""``emergo tablebase``: build, probe, list and check the endgame tables (:mod:`emergo.tablebase`).

emergo tablebase build --variant 9x9 --columns 3     # into the data directory
emergo tablebase probe 7x7 w 0/0 d2:b8 d5:w8          # the value and every move's
emergo tablebase info                                 # what is built, with its figures
emergo tablebase verify --variant 7x7 --columns 3     # the checks of docs/tablebase.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from emergo import tablebase
from emergo.analyse import result_text, white_view
from emergo.board import COLOR_NAMES, Board
from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    CliError,
    Progress,
    add_force,
    add_quiet,
    int_range,
    start_or,
)
from emergo.geometry import NAMINGS, VARIANTS, Names
from emergo.search import Score

PHASES = ("moves", "predecessors", "levels", "statistics")
"""The phases of a build (tbgen.c), each a pass over the entries."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "tablebase",
        help="build, probe, list and check the endgame tables",
        description=(
            "The endgame tables: every position with no men in hand and two columns (one "
            "each) or three (two for one side), solved by retrograde analysis.  The 2-column "
            "tables are built in memory when needed (milliseconds); the 3-column ones are "
            "built once into the data directory (--dir, default $EMERGO_TABLEBASES or "
            f"{tablebase.tables_dir()}) and the engine plays them perfectly from then on."
        ),
    )
    commands = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    build = commands.add_parser(
        "build",
        help="build a table into the data directory",
        description=(
            "Build a table by retrograde analysis in C and write it to the data directory.  "
            "Times on a 2-core machine: 3 columns 2 s (7x7), 30 s (9x9, 1.1 GB of memory), "
            "25 s (hex); 2 columns under a second.  Progress shows on standard error; Ctrl-C "
            "stops at once and writes nothing (exit status 130)."
        ),
    )
    build.add_argument(
        "--variant", choices=[*VARIANTS, "all"], default="9x9", help="board (R4; default 9x9)"
    )
    build.add_argument(
        "--columns",
        type=int_range(min(tablebase.COLUMNS), max(tablebase.COLUMNS)),
        default=3,
        help="2 or 3 (default 3)",
    )
    _add_dir(build)
    add_quiet(build)
    add_force(build)
    build.set_defaults(run=run_build)

    probe = commands.add_parser(
        "probe",
        help="the value of a position and of each of its moves",
        description=(
            "The tables' value of POSITION (R22) for the player to move and every legal "
            "move's value for him, best first: win or loss in so many plies (with best play: "
            "the winner hurries, the loser delays) or draw."
        ),
    )
    probe.add_argument("position", nargs="*", metavar="POSITION", help="an R22 position")
    probe.add_argument("--variant", choices=VARIANTS, help="board of a position without prefix")
    probe.add_argument("--names", choices=NAMINGS, default="oblique", help="square names (R3)")
    _add_dir(probe)
    probe.set_defaults(run=run_probe)

    info = commands.add_parser(
        "info",
        help="the tables there are, with their figures",
        description="Every table of every board: where it is (or that it is not built) and "
        "its figures: entries, positions won, drawn and lost, the longest win, size.",
    )
    _add_dir(info)
    info.set_defaults(run=run_info)

    verify = commands.add_parser(
        "verify",
        help="check a table",
        description=(
            "Check a table: its file's checksum, then every entry against the values of its "
            "moves by the full rules (a win has a move to a loss one ply shorter and none "
            "shorter, a loss only moves to wins, the longest one ply shorter, a draw no move "
            "to a loss and one to a draw) and its index under every symmetry and the colour "
            "swap; --every-position checks every position of the class instead, before the "
            "reduction.  Exit status 1 when a check fails."
        ),
    )
    verify.add_argument("--variant", choices=VARIANTS, default="9x9", help="board (default 9x9)")
    verify.add_argument(
        "--columns",
        type=int_range(min(tablebase.COLUMNS), max(tablebase.COLUMNS)),
        default=3,
        help="2 or 3 (default 3)",
    )
    verify.add_argument(
        "--every-position",
        action="store_true",
        help="every position before the reduction (7x7 3 columns: 28 M, half a minute)",
    )
    _add_dir(verify)
    add_quiet(verify)
    verify.set_defaults(run=run_verify)


def _add_dir(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--dir",
        metavar="DIR",
        help=f"the tables' directory (default $EMERGO_TABLEBASES or {tablebase.tables_dir()})",
    )


def _tables(args: argparse.Namespace) -> tablebase.Tablebase:
    return tablebase.Tablebase(args.dir)


def _progress(bar: Progress, entries: int) -> tablebase.ProgressCallback:
    """A build's or check's progress callback over a bar of len(PHASES) * entries units."""

    def hear(phase: str, done: int, total: int) -> None:
        base = PHASES.index(phase) * entries if phase in PHASES else 0
        bar.update(max(0, base + done - bar.done), phase)

    return hear


# --- build ----------------------------------------------------------------------------------


def run_build(args: argparse.Namespace) -> int:
    folder = Path(args.dir).expanduser() if args.dir else tablebase.tables_dir()
    variants = list(VARIANTS) if args.variant == "all" else [args.variant]
    for variant in variants:
        target = folder / tablebase.table_name(variant, args.columns)
        if target.exists() and not args.force:  # built already: what was asked is there
            print(f"{target}: built already (--force builds it again)")
            continue
        status = _build_one(variant, args.columns, folder, args.quiet)
        if status != EXIT_OK:
            return status
    return EXIT_OK


def _build_one(variant: str, columns: int, folder: Path, quiet: bool) -> int:
    name = tablebase.table_name(variant, columns)
    try:
        entries = tablebase.entries(variant, columns)
    except tablebase.TablebaseError as e:  # no C kernel
        raise CliError(str(e), EXIT_FAILURE) from None
    started = time.monotonic()
    with Progress(f"build {name}", len(PHASES) * entries, enabled=not quiet) as bar:
        try:
            path = tablebase.build(variant, columns, folder, progress=_progress(bar, entries))
        except KeyboardInterrupt:
            bar.close()
            print(f"emergo tablebase: interrupted: {name} not written", file=sys.stderr)
            return EXIT_INTERRUPTED
        except MemoryError:
            raise CliError(f"{name}: out of memory", EXIT_FAILURE) from None
    seconds = time.monotonic() - started
    with tablebase.Tablebase([folder]) as tables:
        info = tables.info(variant, columns)
    print(f"{path}: {_figures(info)}, built in {seconds:.1f} s")
    return EXIT_OK


def _figures(info: tablebase.TableInfo) -> str:
    return (
        f"{info.positions:,} positions: {info.wins:,} won, {info.draws:,} drawn, "
        f"{info.losses:,} lost by the player to move; longest win {info.longest_win} plies "
        f"({info.longest_win_position}); {info.bytes:,} bytes"
    )


# --- probe ----------------------------------------------------------------------------------


def _said(dtm: int) -> str:
    """A value for the player to move: ``win 47``, ``loss 12``, ``draw``."""
    return "draw" if dtm == 0 else f"win {dtm}" if dtm > 0 else f"loss {-dtm}"


def run_probe(args: argparse.Namespace) -> int:
    board = start_or(args.position, args.variant)
    names: Names = args.names
    with _tables(args) as tables:
        try:
            dtm = tables.probe_dtm(board)
            moves = tables.probe_moves(board)
        except tablebase.MissingTableError as e:
            raise CliError(str(e), EXIT_FAILURE) from None
    print(probe_report(board, dtm, moves, names))
    return EXIT_OK


def probe_report(
    board: Board, dtm: int, moves: list[tablebase.MoveValue], names: Names = "oblique"
) -> str:
    """What ``emergo tablebase probe`` prints: the position, its value, each move's."""
    mover = COLOR_NAMES[board.turn]
    score = Score.draw() if dtm == 0 else Score.win(dtm) if dtm > 0 else Score.loss(-dtm)
    said = result_text(white_view(score, board.turn)) or ""
    lines = [
        f"position: {board.position()} ({mover} to move)",
        f"value: {said[0].upper()}{said[1:]} ({_said(dtm)} for {mover}, "
        f"{tablebase.columns_of(board)}-column table)",
    ]
    width = max((len(board.move_text(m.move, names)) for m in moves), default=0)
    for item in moves:
        lines.append(f"  {board.move_text(item.move, names):<{width}}  {_said(item.dtm)}")
    return "\n".join(lines)


# --- info and verify ------------------------------------------------------------------------


def run_info(args: argparse.Namespace) -> int:
    with _tables(args) as tables:
        print(f"tables: {', '.join(str(d) for d in tables.directories)}")
        for variant in VARIANTS:
            for columns in tablebase.COLUMNS:
                label = f"{variant} {columns} columns"
                if not tables.has(variant, columns):
                    print(
                        f"{label}: not built (emergo tablebase build --variant {variant} "
                        f"--columns {columns})"
                    )
                    continue
                info = tables.info(variant, columns)
                where = str(info.path) if info.path else "in memory, built when needed"
                print(f"{label}: {where}\n  {_figures(info)}")
    return EXIT_OK


def run_verify(args: argparse.Namespace) -> int:
    with _tables(args) as tables:
        if not tables.has(args.variant, args.columns):
            raise CliError(
                f"the {args.columns}-column table of {args.variant} is not built", EXIT_FAILURE
            )
        entries = tables.info(args.variant, args.columns).entries
        unit = "positions" if args.every_position else "entries"
        with Progress("verify", None, unit=unit, enabled=not args.quiet) as bar:

            def hear(phase: str, done: int, total: int) -> None:
                bar.update(max(0, done - bar.done), phase)

            try:
                checked, bad, why = tables.verify(
                    args.variant, args.columns, every_position=args.every_position, progress=hear
                )
            except KeyboardInterrupt:
                bar.close()
                print("emergo tablebase: interrupted", file=sys.stderr)
                return EXIT_INTERRUPTED
    what = f"{args.variant} {args.columns} columns ({entries:,} entries)"
    if bad:
        print(f"{what}: {bad:,} of {checked:,} {unit} FAILED; the first: {why}")
        return EXIT_FAILURE
    print(f"{what}: {checked:,} {unit} checked, all consistent")
    return EXIT_OK
