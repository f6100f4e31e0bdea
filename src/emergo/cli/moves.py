"""``emergo moves``: the sorted legal moves of a position, or of one position per input line."""

from __future__ import annotations

import argparse
import sys

from emergo.cli.common import (
    EXIT_OK,
    PROG,
    CliError,
    add_common,
    parse_board,
    sorted_move_texts,
)
from emergo.geometry import Names


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "moves",
        help="legal moves of a position (or of many, read from standard input)",
        description=(
            "With POSITION: its legal moves, one per line, in plain string order of the "
            "printed texts.  Without: read R22 "
            "positions from standard input, one per line, and print for each a line with "
            "its sorted legal moves separated by spaces (an empty line when there are none). "
            "A bad line stops with an error naming it (exit status 2)."
        ),
    )
    p.add_argument("position", nargs="*", metavar="POSITION", help="an R22 position (quote it)")
    add_common(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names: Names = args.names
    out = sys.stdout
    if args.position:
        board = parse_board(" ".join(args.position), args.variant)
        for text in sorted_move_texts(board, names):
            out.write(text + "\n")
        return EXIT_OK
    if sys.stdin.isatty():
        print(f"{PROG}: reading positions, one per line (end with Ctrl-D)", file=sys.stderr)
    for number, raw in enumerate(sys.stdin.buffer, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CliError(f"line {number}: not UTF-8 text") from None
        try:
            board = parse_board(line.strip(), args.variant)
        except ValueError as e:
            raise CliError(f"line {number}: {e}") from None
        out.write(" ".join(sorted_move_texts(board, names)) + "\n")
    return EXIT_OK
