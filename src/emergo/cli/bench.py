"""``emergo bench``: kernel vs pure-Python speed in one run, and the search's node signature.

The measurements are :mod:`emergo.bench`; this module reads the options and prints them.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial

from emergo.bench import SEARCH_DEPTH, parts, table
from emergo.bench import run as measure
from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    PROG,
    CliError,
    Progress,
    add_force,
    add_quiet,
    add_seed,
    add_variant,
    check_output,
    in_background,
    int_range,
    kernel_problem,
    seconds,
    write_file,
)
from emergo.wire import DEPTH_MAX, SECONDS_MAX

GAMES_MAX = 10**9
"""The largest ``--games``."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "bench",
        help="speed of the kernel and the reference, and the search's node signature",
        description=(
            "Speed of the C kernel and the pure-Python reference, measured in one run.  Each "
            "part shows on standard error as it is done; Ctrl-C stops (exit status 130)."
        ),
    )
    add_variant(parser, "board (default 9x9)", default="9x9")
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--kernel-only", action="store_true", help="measure the C kernel only")
    side.add_argument(
        "--reference-only", "--reference", action="store_true", help="measure the reference only"
    )
    side.add_argument(
        "--search",
        action="store_true",
        help="only the search part: the suite to a fixed depth, total nodes (signature), nodes/s",
    )
    parser.add_argument(
        "--no-search", action="store_true", help="leave out the search part of the kernel figures"
    )
    parser.add_argument(
        "--depth",
        type=int_range(1, DEPTH_MAX),
        default=SEARCH_DEPTH,
        metavar="N",
        help=f"depth of the search part (1..{DEPTH_MAX}, default {SEARCH_DEPTH})",
    )
    parser.add_argument(
        "--seconds",
        type=seconds(0.01, SECONDS_MAX),
        default=2.0,
        metavar="S",
        help="time budget of each figure on each side (0.01 to a week, default 2)",
    )
    parser.add_argument(
        "--games",
        type=int_range(1, GAMES_MAX),
        metavar="N",
        help="play exactly N random games per side",
    )
    add_seed(parser, "random seed", default=1)
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="FILE",
        help="write the figures as JSON to FILE too ('-' or no FILE: standard output, "
        "instead of the table)",
    )
    add_quiet(parser)
    add_force(parser)
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when a target (60,000 games/s, 25x the reference, 5 M search nodes/s) "
        "is missed",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Exit status 0, or 1 when the kernel is missing or ``--check`` finds a target missed."""
    check_output(args.json, args.force, "--json")
    kernel_side = not args.reference_only
    why = kernel_problem() if kernel_side else None
    if why is not None:
        if args.kernel_only or args.search or args.check:
            raise CliError(f"{why}; --reference-only measures the reference alone", EXIT_FAILURE)
        print(f"{PROG}: note: {why}: measuring the reference only", file=sys.stderr)
        kernel_side = False
    sides = {
        "kernel_side": kernel_side and not args.search,
        "reference_side": not args.kernel_only and not args.search,
    }
    depth = args.depth if kernel_side and not args.no_search else None
    total = parts(**sides, search=depth is not None)
    with Progress("bench", total, unit="parts", enabled=not args.quiet, delay=0.0) as bar:
        # (a part: each search position, then the kernel's figures, then the reference's)
        work = partial(
            measure,
            args.variant,
            args.seconds,
            args.games,
            args.seed,
            search_depth=depth,
            progress=lambda part: bar.update(1, f"{part} done"),
            **sides,
        )
        try:
            report = in_background(work)
        except KeyboardInterrupt:
            bar.close()
            print("emergo bench: interrupted before the figures were complete", file=sys.stderr)
            return EXIT_INTERRUPTED
    if args.json == "-":
        print(json.dumps(report, indent=2))
    else:
        if args.json is not None:
            write_file(args.json, json.dumps(report, indent=2) + "\n")
        print(table(report))
    if args.check and not all(report.get("targets", {}).values()):
        return EXIT_FAILURE
    return EXIT_OK
