"""``emergo replay``: check game record files, print each game's final position and result."""

from __future__ import annotations

import argparse
import sys

from emergo.cli.common import EXIT_FAILURE, EXIT_OK, PROG, open_text
from emergo.geometry import NAMINGS, Names
from emergo.record import Game, RecordError, read_games


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="check game record files and print each game's final position and result",
        description="Exit status 1 when any game is broken (the error names its line and move).",
    )
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument(
        "--names",
        choices=NAMINGS,
        default="oblique",
        help="square naming of games without a Names tag (R3)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names: Names = args.names
    broken = 0
    for path in args.files:
        with open_text(path) as handle:
            # "collect": a broken game is reported and the next one is still read.
            for number, game in enumerate(read_games(handle, names=names, errors="collect"), 1):
                label = f"{path}: game {number}"
                if game.errors:
                    broken += 1
                    for error in game.errors:
                        print(f"{PROG}: {label}: {error}", file=sys.stderr)
                    continue
                try:
                    print(f"{label}: {game_summary(game)}")
                except RecordError as e:
                    broken += 1
                    print(f"{PROG}: {label}: {e}", file=sys.stderr)
    return EXIT_FAILURE if broken else EXIT_OK


def game_summary(game: Game) -> str:
    """``result (how it ended), N plies, final: <R22 position>`` of a replayed game."""
    board = game.end()
    outcome = game.outcome()
    result = game.headers.get("Result", "*")
    reason = outcome.reason() if outcome is not None else "unfinished"
    return f"{result} ({reason}), {len(game.moves)} plies, final: {board.position()}"
