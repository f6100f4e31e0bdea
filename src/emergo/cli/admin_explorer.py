"""``emergo admin explorer``: the opening explorer's index (docs/explorer.md).

* ``rebuild [--resume]`` -- count the archive's games again from nothing (``--resume``: only
  those not counted yet: a rebuild stopped, or a game whose counting failed);
* ``import-selfplay FILE`` -- the games of an ``emergo selfplay`` file as the engine source;
* ``selfplay --games N [--nodes K] [--level L] [--variant V] [--seed S]`` -- play engine games
  and count them as they end (the engine source); run again, it goes on where it stopped.

Each shows its progress, stops at Ctrl-C with what it has counted (exit status 130), and never
counts a game twice (``explorer_indexed``): it may run beside the server.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    CliError,
    Progress,
    add_quiet,
    add_seed,
    add_variant,
    int_range,
    kernel_problem,
)
from emergo.levels import LEVEL_MAX
from emergo.wire import NODES_MAX

if TYPE_CHECKING:
    from emergo.server.site import Site

BATCH = 100
"""Archive games a rebuild reads and counts at once (one short write each)."""
GAMES_MAX = 1_000_000


def add_parser(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``explorer`` action of ``emergo admin`` and its own actions."""
    p = actions.add_parser("explorer", help="the opening explorer's index: rebuild, engine games")
    sub = p.add_subparsers(dest="explorer_action", metavar="ACTION", required=True)
    rebuild = sub.add_parser("rebuild", help="count the archive's games again")
    rebuild.add_argument(
        "--resume",
        action="store_true",
        help="count only the games not counted yet (a rebuild stopped, a game that failed)",
    )
    add_quiet(rebuild)
    imported = sub.add_parser("import-selfplay", help="count an emergo selfplay file's games")
    imported.add_argument("file", metavar="FILE", help="a .npz file of emergo selfplay")
    add_quiet(imported)
    from emergo.server.explorer.selfplay import DEFAULT_LEVEL, DEFAULT_NODES

    play = sub.add_parser("selfplay", help="play engine games and count them (resumable)")
    play.add_argument(
        "-n", "--games", type=int_range(1, GAMES_MAX), required=True, help="games of the run"
    )
    play.add_argument(
        "--nodes",
        type=int_range(1, NODES_MAX),
        default=DEFAULT_NODES,
        help=f"nodes a move (default {DEFAULT_NODES:,})",
    )
    play.add_argument(
        "--level",
        type=int_range(1, LEVEL_MAX),
        default=DEFAULT_LEVEL,
        help=f"playing level 1..{LEVEL_MAX} (default {DEFAULT_LEVEL}: a draw between the two "
        "best lines, so games differ)",
    )
    add_variant(play, "board (R4; default 9x9)")
    add_seed(play, "the run's seed", default=0)
    add_quiet(play)


def run(site: Site, args: argparse.Namespace) -> int:
    action = args.explorer_action
    if action == "rebuild":
        return _rebuild(site, args)
    if action == "import-selfplay":
        return _import(site, args)
    return _selfplay(site, args)


def _rebuild(site: Site, args: argparse.Namespace) -> int:
    explorer = site.explorer
    if not args.resume:
        explorer.clear("archive")
    total = explorer.backlog()
    done = 0
    started = time.monotonic()
    after: str | None = None
    with Progress("explorer rebuild", total, unit="games", enabled=not args.quiet) as bar:
        try:
            while True:
                read, after = explorer.index_archive(after, BATCH)
                if after is None:
                    break
                done += read
                bar.update(read)
        except KeyboardInterrupt:
            bar.close()
            raise CliError(
                f"interrupted after {done} of {total} games: `emergo admin explorer rebuild "
                "--resume` goes on",
                EXIT_INTERRUPTED,
            ) from None
    print(f"counted {done} archive games in {time.monotonic() - started:.1f} s")
    return 0


def _import(site: Site, args: argparse.Namespace) -> int:
    from emergo.server.explorer.selfplay import file_games

    try:
        run_id, count, games = file_games(args.file)
    except (OSError, ValueError) as e:
        raise CliError(f"cannot read {args.file}: {e}", EXIT_FAILURE) from None
    known = site.explorer.indexed("engine", f"{run_id}:")
    new = 0
    with Progress("explorer import", count, unit="games", enabled=not args.quiet) as bar:
        try:
            batch = []
            for game in games:
                if game.id not in known:
                    batch.append(game)
                if len(batch) >= BATCH:
                    new += site.explorer.add_games(batch)
                    bar.update(len(batch))
                    batch = []
            new += site.explorer.add_games(batch)
        except KeyboardInterrupt:
            bar.close()
            raise CliError(
                f"interrupted: {new} new games counted; import the file again to go on",
                EXIT_INTERRUPTED,
            ) from None
        except ValueError as e:
            raise CliError(f"{args.file}: {e}", EXIT_FAILURE) from None
    print(f"{args.file}: {count} games, {new} new (run {run_id})")
    return 0


def _selfplay(site: Site, args: argparse.Namespace) -> int:
    why = kernel_problem()
    if why is not None:
        raise CliError(f"engine games are the C kernel's search: {why}", EXIT_FAILURE)
    from emergo.server.explorer.selfplay import config_of, play, run_of

    try:
        config = config_of(args.variant, nodes=args.nodes, level=args.level, seed=args.seed)
    except ValueError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    run_id = run_of(config.meta())
    known = site.explorer.indexed("engine", f"{run_id}:")
    todo = [n for n in range(args.games) if f"{run_id}:{n}" not in known]
    new = 0
    started = time.monotonic()
    with Progress("explorer selfplay", len(todo), unit="games", enabled=not args.quiet) as bar:
        try:
            for number in todo:  # one by one: each counted as it ends
                new += site.explorer.add_games([play(config, number)])
                bar.update(1)
        except KeyboardInterrupt:
            bar.close()
            raise CliError(
                f"interrupted: {new} games counted, {args.games - len(known) - new} to go; the "
                "same command goes on",
                EXIT_INTERRUPTED,
            ) from None
    print(
        f"run {run_id} ({args.nodes} nodes a move, level {args.level}): {new} games counted in "
        f"{time.monotonic() - started:.1f} s, {len(known)} counted before"
    )
    return 0
