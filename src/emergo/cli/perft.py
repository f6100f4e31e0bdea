"""``emergo perft``: count the move sequences of a given length (the kernel's when built)."""

from __future__ import annotations

import argparse
import sys
from functools import partial

from emergo.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    CliError,
    Progress,
    add_common,
    add_quiet,
    in_background,
    int_range,
    start_or,
)
from emergo.geometry import Names
from emergo.players import count_perft

PERFT_DEPTH_MAX = 64
"""The deepest count: the C kernel's ``MAX_PERFT_DEPTH`` (perft.h; a test checks they agree), for
the reference too, so every depth the command takes can be counted by both."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "perft",
        help="count the move sequences of a given length",
        description=(
            "Leaf count of whole moves (a capture route is one move, repetition is ignored, "
            "a finished game has no moves).  Uses the C kernel when built, else Python.  "
            "The count goes first move by first move: work longer than a second shows its "
            "progress on standard error, --divide prints each first move's line as it is "
            "counted, and Ctrl-C stops with what was counted so far (exit status 130)."
        ),
    )
    p.add_argument(
        "depth",
        type=int_range(0, PERFT_DEPTH_MAX),
        metavar="DEPTH",
        help=f"plies, 0..{PERFT_DEPTH_MAX}",
    )
    p.add_argument("position", nargs="*", metavar="POSITION", help="default: the start")
    p.add_argument("--divide", action="store_true", help="one line per first move, then total")
    p.add_argument("--reference", action="store_true", help="use the pure Python reference")
    add_quiet(p)
    add_common(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    depth: int = args.depth
    if args.divide and depth < 1:
        raise CliError("--divide needs a depth of at least 1")
    board = start_or(args.position, args.variant)
    names: Names = args.names
    if depth == 0:
        print(1)
        return EXIT_OK
    # First move by first move, in the printed order (R3 names): progress and Ctrl-C land
    # between them, and --divide prints as it goes.
    firsts = sorted((board.move_text(m, names), m) for m in board.moves())
    total = 0
    with Progress("perft", len(firsts), unit="first moves", enabled=not args.quiet) as bar:
        for done, (text, move) in enumerate(firsts):
            child = board.copy()
            child.push(move)
            try:
                n = in_background(partial(count_perft, child, depth - 1, reference=args.reference))
            except KeyboardInterrupt:
                bar.close()
                sys.stdout.flush()
                print(
                    f"emergo perft: interrupted: {done} of {len(firsts)} first moves counted, "
                    f"{total} leaves so far",
                    file=sys.stderr,
                )
                return EXIT_INTERRUPTED
            total += n
            if args.divide:
                print(f"{text} {n}", flush=True)
            bar.update(1, text)
    print(total)
    return EXIT_OK
