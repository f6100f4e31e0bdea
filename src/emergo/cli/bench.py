"""``emergo bench``: kernel vs pure-Python speed in one run, and the search's node signature.

The measurements are :mod:`emergo.bench`; this module reads the options and prints them.
"""

from __future__ import annotations

import argparse
import json
import sys

from emergo.bench import SEARCH_DEPTH, table
from emergo.bench import run as measure
from emergo.cli.common import EXIT_FAILURE, EXIT_OK, PROG, CliError, kernel_problem
from emergo.geometry import VARIANTS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "bench",
        help="speed of the kernel and the reference, and the search's node signature",
        description="Speed of the C kernel and the pure-Python reference, measured in one run.",
    )
    parser.add_argument("--variant", choices=VARIANTS, default="9x9", help="board (default 9x9)")
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
        type=int,
        default=SEARCH_DEPTH,
        metavar="N",
        help=f"depth of the search part (default {SEARCH_DEPTH})",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        metavar="S",
        help="time budget of each figure on each side (default 2)",
    )
    parser.add_argument(
        "--games", type=int, metavar="N", help="play exactly N random games per side"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when a target (60,000 games/s, 25x the reference, 5 M search nodes/s) "
        "is missed",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Exit status 0, or 1 when the kernel is missing or ``--check`` finds a target missed."""
    if args.seconds <= 0:
        raise CliError("--seconds must be positive")
    if args.games is not None and args.games < 1:
        raise CliError("--games must be at least 1")
    if not 1 <= args.depth <= 100:
        raise CliError("--depth must be 1..100")
    kernel_side = not args.reference_only
    why = kernel_problem() if kernel_side else None
    if why is not None:
        if args.kernel_only or args.search or args.check:
            raise CliError(f"{why}; --reference-only measures the reference alone", EXIT_FAILURE)
        print(f"{PROG}: note: {why}: measuring the reference only", file=sys.stderr)
        kernel_side = False
    report = measure(
        args.variant,
        args.seconds,
        args.games,
        args.seed,
        kernel_side=kernel_side and not args.search,
        reference_side=not args.kernel_only and not args.search,
        search_depth=args.depth if kernel_side and not args.no_search else None,
    )
    print(json.dumps(report, indent=2) if args.json else table(report))
    if args.check and not all(report.get("targets", {}).values()):
        return EXIT_FAILURE
    return EXIT_OK
