"""``emergo match``: engine-vs-engine matches over the protocol (runner: :mod:`emergo.match`)."""

from __future__ import annotations

import argparse
import sys

from emergo.cli.common import EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, CliError
from emergo.match import (
    SPRT,
    Adjudication,
    MatchError,
    load_openings,
    parse_engine_spec,
    run_match,
)
from emergo.players import PLAYERS

DESCRIPTION = (
    """Play a match between engines speaking the emergo engine protocol.

Each --engine is a built-in name (emergo.players: """
    + ", ".join(PLAYERS)
    + """)
or key=value words:
  cmd="COMMAND LINE" name=NAME depth=N nodes=N move-time=SECONDS tc=BASE+INC
  timeout=SECONDS option.NAME=VALUE
--each adds words to every engine.  Games are played in colour-swapped pairs from
the openings; the summary gives W/D/L, pentanomial counts, Elo +/- 95% error, LOS
and the SPRT state."""
)


def _sprt_arg(text: str) -> SPRT:
    values: dict[str, float] = {}
    for word in text.replace(",", " ").split():
        key, eq, value = word.partition("=")
        if not eq or key not in ("elo0", "elo1", "alpha", "beta"):
            raise argparse.ArgumentTypeError(
                f"bad SPRT setting {word!r}: expected elo0=, elo1=, alpha=, beta="
            )
        try:
            values[key] = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{key}={value!r} is not a number") from None
    try:
        return SPRT(**values)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "match",
        help="engine matches with statistics (see 'emergo match --help')",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-e", "--engine", action="append", default=[], metavar="SPEC")
    parser.add_argument("--each", default="", metavar="SPEC", help="words added to every engine")
    parser.add_argument(
        "-n", "--games", type=int, default=20, help="games per pairing (default 20)"
    )
    parser.add_argument(
        "-c", "--concurrency", type=int, default=1, help="games at once (default 1)"
    )
    parser.add_argument(
        "--openings", metavar="FILE", help="openings file (default: the shipped suite)"
    )
    parser.add_argument("--seed", type=int, help="shuffle the openings with this seed")
    parser.add_argument("--sprt", type=_sprt_arg, metavar="'elo0=0 elo1=10 alpha=0.05 beta=0.05'")
    parser.add_argument(
        "--adjudicate-score", type=int, metavar="CP", help="win adjudication threshold"
    )
    parser.add_argument(
        "--adjudicate-moves", type=int, default=4, metavar="N", help="moves each (default 4)"
    )
    parser.add_argument("--draw-score", type=int, metavar="CP", help="draw adjudication threshold")
    parser.add_argument(
        "--draw-moves", type=int, default=8, metavar="N", help="moves each (default 8)"
    )
    parser.add_argument(
        "--draw-after",
        type=int,
        default=60,
        metavar="PLIES",
        help="no draw adjudication before this ply (default 60)",
    )
    parser.add_argument(
        "--max-plies",
        type=int,
        default=400,
        metavar="N",
        help="draw after N plies (default 400; 0: never)",
    )
    parser.add_argument(
        "--records", default="match-games.txt", metavar="FILE", help="game records file"
    )
    parser.add_argument("--no-records", action="store_true", help="do not write game records")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Exit status 0 done, 1 the match failed, 2 bad usage, 130 interrupted."""
    if len(args.engine) < 2:
        raise CliError("name at least two engines with --engine")
    specs = [parse_engine_spec(text, args.each) for text in args.engine]
    suite = load_openings(args.openings)
    adjudication = Adjudication(
        score=args.adjudicate_score,
        moves=max(args.adjudicate_moves, 1),
        draw_score=args.draw_score,
        draw_moves=max(args.draw_moves, 1),
        draw_after=max(args.draw_after, 0),
        max_plies=args.max_plies or None,
    )
    try:
        result = run_match(
            specs,
            games=args.games,
            concurrency=args.concurrency,
            openings=suite,
            adjudication=adjudication,
            sprt=args.sprt,
            records=None if args.no_records else args.records,
            progress=None if args.quiet else sys.stderr,
            seed=args.seed,
        )
    except MatchError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    except KeyboardInterrupt:
        raise CliError("match interrupted", EXIT_INTERRUPTED) from None
    print(result.summary())
    return EXIT_OK
