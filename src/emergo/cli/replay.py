"""``emergo replay``: check game record files, print each game's final position and result.

The reader checks every move, variations' too, each from its own position (docs/records.md).
"""

from __future__ import annotations

import argparse
import sys

from emergo.cli.common import EXIT_FAILURE, EXIT_OK, CliError, read_text
from emergo.geometry import NAMINGS, Names
from emergo.record import Game, GameNode, RecordError, read_games


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="check game record files and print each game's final position and result",
        description=(
            "Each FILE ('-': standard input) is read in turn and every move is checked, "
            "those of variations too.  A file that cannot be read, "
            "is not UTF-8 text or holds no game is reported and the next one is read; so is a "
            "broken game (the error names its line and move).  Exit status 1 when anything "
            "was reported, 2 when a file could not be read at all."
        ),
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
    status = EXIT_OK

    def report(message: str, worst: int = EXIT_FAILURE) -> None:
        nonlocal status
        status = max(status, worst)
        sys.stdout.flush()
        print(f"{PROG}: {message}", file=sys.stderr)

    for path in args.files:
        label = "standard input" if path == "-" else path
        try:
            text = read_text(path)
        except CliError as e:  # status 2 when it cannot be read, 1 when it is not text
            report(str(e), e.status)
            continue
        number = 0
        # "collect": a broken game is reported and the next one is still read.
        for number, game in enumerate(read_games(text, names=names, errors="collect"), 1):
            where = f"{label}: game {number}"
            if game.errors:
                for error in game.errors:
                    report(f"{where}: {error}")
                continue
            try:
                print(f"{where}: {game_summary(game)}")
            except RecordError as e:
                report(f"{where}: {e}")
        if number == 0:
            report(f"no games in {label}")
    return status


PROG = "emergo replay"


def game_summary(game: Game) -> str:
    """``result (how it ended), N plies[, V variations (M moves)], final: <R22 position>`` of a
    replayed game: the main line's plies and final position."""
    board = game.end().board()
    outcome = game.outcome()
    result = game.headers.get("Result", "*")
    reason = outcome.reason() if outcome is not None else "unfinished"
    plies = len(board.move_stack)
    variations, moves = 0, 0
    stack: list[GameNode] = [game]
    while stack:
        node = stack.pop()
        variations += max(len(node.variations) - 1, 0)
        moves += len(node.variations)
        stack.extend(node.variations)
    extra = f", {variations} variations ({moves - plies} moves)" if variations else ""
    return f"{result} ({reason}), {plies} plies{extra}, final: {board.position()}"
