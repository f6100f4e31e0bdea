"""``emergo perft``: count the move sequences of a given length (the kernel's when built)."""

from __future__ import annotations

import argparse

from emergo.cli.common import EXIT_OK, CliError, add_common, start_or
from emergo.geometry import Names
from emergo.players import count_divide, count_perft


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "perft",
        help="count the move sequences of a given length",
        description=(
            "Leaf count of whole moves (a capture route is one move, repetition is ignored, "
            "a finished game has no moves).  Uses the C kernel when built, else Python."
        ),
    )
    p.add_argument("depth", type=int, metavar="DEPTH")
    p.add_argument("position", nargs="*", metavar="POSITION", help="default: the start")
    p.add_argument("--divide", action="store_true", help="one line per first move, then total")
    p.add_argument("--reference", action="store_true", help="use the pure Python reference")
    add_common(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise CliError(f"perft depth must be at least 0, not {args.depth}")
    if args.divide and args.depth < 1:
        raise CliError("--divide needs a depth of at least 1")
    board = start_or(args.position, args.variant)
    if not args.divide:
        print(count_perft(board, args.depth, reference=args.reference))
        return EXIT_OK
    names: Names = args.names
    counts = count_divide(board, args.depth, reference=args.reference)
    shown = {str(m): board.move_text(m, names) for m in board.moves()}  # R3
    rows = sorted((shown[text], n) for text, n in counts.items())
    for text, n in rows:
        print(f"{text} {n}")
    print(sum(n for _, n in rows))
    return EXIT_OK
