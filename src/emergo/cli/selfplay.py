"""``emergo selfplay``: engine self-play games written as training data (:mod:`emergo.selfplay`)."""

from __future__ import annotations

import argparse
import time

from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    CliError,
    Progress,
    add_concurrency,
    add_force,
    add_hash,
    add_quiet,
    add_ray,
    add_seed,
    add_variant,
    check_output,
    close_runner,
    int_range,
    kernel_problem,
    ray_runner,
)
from emergo.levels import LEVEL_MAX
from emergo.parallel import WORKERS_MAX, Runner, ThreadRunner
from emergo.selfplay import (
    GAMES_MAX,
    PLIES_MAX,
    RANDOM_PLIES_MAX,
    GameData,
    SelfplayConfig,
    SelfplayInterrupted,
    run_selfplay,
    write_npz,
)
from emergo.wire import NODES_MAX

DEFAULT_NODES = 2000

DESCRIPTION = """Play games of the engine against itself and write every position with the
search's evaluation (score, for the side to move), its best move, the game's result
for the side to move, the side to move and the position string (R22), as a NumPy
.npz file (the schema: docs/research.md).  Each game opens with a few random moves
and is made from its own seed (--seed and its number): the same options give the
same file, with any --concurrency or on a Ray cluster (--ray).  Progress shows on
standard error; Ctrl-C writes the games finished so far and exits with status 130."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "selfplay",
        help="engine self-play games as training data (see 'emergo selfplay --help')",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "-o",
        "--output",
        default="selfplay.npz",
        metavar="FILE",
        help="the .npz file (default selfplay.npz; not overwritten without --force)",
    )
    add_force(parser)
    parser.add_argument(
        "-n",
        "--games",
        type=int_range(1, GAMES_MAX),
        default=100,
        help=f"games (1..{GAMES_MAX:,}, default 100)",
    )
    parser.add_argument(
        "--nodes",
        type=int_range(1, NODES_MAX),
        help=f"nodes a move (default {DEFAULT_NODES} at full strength; with --level, its cap)",
    )
    parser.add_argument(
        "--level",
        type=int_range(1, LEVEL_MAX),
        default=LEVEL_MAX,
        help=f"playing level 1..{LEVEL_MAX} (docs/engine.md; default {LEVEL_MAX}, full strength)",
    )
    add_variant(parser, "board (R4; default 9x9)")
    add_seed(parser, "the run's seed", default=0)
    parser.add_argument(
        "--random-plies",
        type=int_range(0, RANDOM_PLIES_MAX),
        default=8,
        metavar="N",
        help="each game opens with up to N random moves (default 8)",
    )
    parser.add_argument(
        "--random-min",
        type=int_range(0, RANDOM_PLIES_MAX),
        default=2,
        metavar="N",
        help="and at least N (default 2; at most --random-plies)",
    )
    parser.add_argument(
        "--max-plies",
        type=int_range(1, PLIES_MAX),
        default=300,
        metavar="N",
        help="a game still going after N plies is a draw (default 300)",
    )
    add_hash(parser, "transposition table per game in MB", default=8)
    parser.add_argument(
        "--weights", metavar="FILE", help="evaluation weights (default: the shipped file)"
    )
    add_concurrency(parser, WORKERS_MAX, "games at once in this process")
    add_ray(parser)
    add_quiet(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Exit status 0 done, 1 no kernel or Ray, 2 bad usage, 130 interrupted (games written)."""
    why = kernel_problem()
    if why is not None:
        raise CliError(f"self-play is the C kernel's search: {why}", EXIT_FAILURE)
    from emergo import kernel  # (the command line starts without the kernel)

    if args.random_min > args.random_plies:
        raise CliError(
            f"--random-min {args.random_min} is above --random-plies {args.random_plies}"
        )
    nodes = args.nodes
    if nodes is None and args.level == LEVEL_MAX:
        nodes = DEFAULT_NODES
    weights = kernel.load_weights(args.weights) if args.weights else None
    config = SelfplayConfig(
        nodes=nodes,
        level=args.level,
        variant=args.variant,
        seed=args.seed,
        random_plies=(args.random_min, args.random_plies),
        max_plies=args.max_plies,
        hash_mb=args.hash,
        weights=weights,
    )
    check_output(args.output, args.force, "--output")
    runner: Runner = ray_runner(args.ray) if args.ray else ThreadRunner(args.concurrency)
    positions = 0
    started = time.monotonic()
    with Progress("selfplay", args.games, unit="games", enabled=not args.quiet) as bar:

        def on_game(game: GameData) -> None:
            nonlocal positions
            positions += len(game.rows)
            bar.update(1, f"{positions} positions")

        try:
            games = run_selfplay(config, args.games, runner=runner, on_game=on_game)
        except SelfplayInterrupted as e:
            bar.close()
            count = write_npz(args.output, e.games, config) if e.games else 0
            note = (
                f"{len(e.games)} games, {count} positions to {args.output}"
                if e.games
                else ("no game finished: nothing written")
            )
            raise CliError(f"interrupted: {note}", EXIT_INTERRUPTED) from None
        except ValueError as e:
            raise CliError(str(e), EXIT_FAILURE) from None
        finally:
            close_runner(runner)
    count = write_npz(args.output, games, config)
    white = sum(g.result == 1 for g in games)
    black = sum(g.result == -1 for g in games)
    draws = len(games) - white - black
    elapsed = time.monotonic() - started
    print(
        f"{len(games)} games ({white} white wins, {draws} draws, {black} black wins), "
        f"{count} positions in {elapsed:.1f} s: {args.output}"
    )
    return EXIT_OK
