"""``emergo match``: engine-vs-engine matches over the protocol (runner: :mod:`emergo.match`)."""

from __future__ import annotations

import argparse
import sys

from emergo.ballots import Ballot, load_ballots
from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    CliError,
    add_concurrency,
    add_force,
    add_quiet,
    add_ray,
    add_seed,
    add_variant,
    check_output,
    close_runner,
    int_range,
    ray_runner,
)
from emergo.match import (
    CONCURRENCY_MAX,
    GAMES_MAX,
    PLIES_MAX,
    SCORE_MAX,
    SPRT,
    Adjudication,
    MatchError,
    MatchInterrupted,
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
the openings (the ballots of --variant, emergo.ballots and docs/fair-starts.md, or
--openings FILE; the engines take the board from the positions); each game's
result shows on standard error as it ends (-q: none), and the summary gives W/D/L,
pentanomial counts, Elo +/- 95% error, LOS and the SPRT state.  Ctrl-C stops the
match (exit status 130) with the summary of the games played.  --ray ADDRESS plays
the game pairs on a Ray cluster instead of --concurrency local games (each game
seeded on its own: the same games)."""
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


def _openings(path: str | None, variant: str | None) -> list[Ballot]:
    """The suite of the match: the file's, checked against an explicit ``--variant``, else the
    variant's shipped one (without ``--variant`` a file plays on the board its positions name)."""
    try:
        return load_ballots(path, variant=variant)
    except ValueError as e:
        raise CliError(f"{'--openings' if path else '--variant'}: {e}") from None


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
        "-n",
        "--games",
        type=int_range(1, GAMES_MAX),
        default=20,
        help=f"games per pairing (1..{GAMES_MAX:,}, default 20)",
    )
    add_concurrency(parser, CONCURRENCY_MAX)
    add_variant(
        parser,
        "board of the match (R4; default 9x9, or the variant of the --openings file): "
        "the variant's ballots; the engines take it from the positions",
    )
    parser.add_argument(
        "--openings",
        metavar="FILE",
        help="openings file, one a line as the ballots (default: the variant's ballots); "
        "an opening of another --variant is an error",
    )
    add_seed(parser, "shuffle the openings with this seed")
    parser.add_argument("--sprt", type=_sprt_arg, metavar="'elo0=0 elo1=10 alpha=0.05 beta=0.05'")
    parser.add_argument(
        "--adjudicate-score",
        type=int_range(1, SCORE_MAX),
        metavar="CP",
        help=f"win adjudication threshold in centi-men (1..{SCORE_MAX})",
    )
    parser.add_argument(
        "--adjudicate-moves",
        type=int_range(1, PLIES_MAX),
        default=4,
        metavar="N",
        help="moves each (default 4)",
    )
    parser.add_argument(
        "--draw-score",
        type=int_range(0, SCORE_MAX),
        metavar="CP",
        help=f"draw adjudication threshold in centi-men (0..{SCORE_MAX})",
    )
    parser.add_argument(
        "--draw-moves",
        type=int_range(1, PLIES_MAX),
        default=8,
        metavar="N",
        help="moves each (default 8)",
    )
    parser.add_argument(
        "--draw-after",
        type=int_range(0, PLIES_MAX),
        default=60,
        metavar="PLIES",
        help="no draw adjudication before this ply (default 60)",
    )
    parser.add_argument(
        "--max-plies",
        type=int_range(0, PLIES_MAX),
        default=400,
        metavar="N",
        help=f"draw after N plies (default 400; 0: never; at most {PLIES_MAX})",
    )
    parser.add_argument(
        "--records",
        default="match-games.txt",
        metavar="FILE",
        help="game records file (default match-games.txt; not overwritten without --force)",
    )
    add_force(parser)
    parser.add_argument("--no-records", action="store_true", help="do not write game records")
    add_ray(parser)
    add_quiet(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Exit status 0 done, 1 the match failed, 2 bad usage, 130 interrupted."""
    if len(args.engine) < 2:
        raise CliError("name at least two engines with --engine")
    specs = [parse_engine_spec(text, args.each) for text in args.engine]
    suite = _openings(args.openings, args.variant)
    if not args.no_records:
        check_output(args.records, args.force, "--records")
    adjudication = Adjudication(
        score=args.adjudicate_score,
        moves=args.adjudicate_moves,
        draw_score=args.draw_score,
        draw_moves=args.draw_moves,
        draw_after=args.draw_after,
        max_plies=args.max_plies or None,
    )
    runner = ray_runner(args.ray) if args.ray else None
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
            runner=runner,
        )
    except MatchError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    except MatchInterrupted as e:
        print(e.result.summary())
        raise CliError(
            f"match interrupted after {len(e.result.games)} games", EXIT_INTERRUPTED
        ) from None
    finally:
        close_runner(runner)
    print(result.summary())
    return EXIT_OK
