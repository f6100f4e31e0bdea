"""``emergo-engine``: the engine protocol on stdin/stdout (docs/engine-protocol.md).

The session is :class:`emergo.protocol.EngineSession`; this module reads the
command line, picks the searcher from :data:`emergo.players.PLAYERS` and serves.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from emergo import __version__
from emergo.cli.common import (
    EXIT_OK,
    EXIT_USAGE,
    CliError,
    Parser,
    add_backend,
    add_seed,
    broken_pipe,
    check_kernel,
)
from emergo.players import PLAYERS, backend, searcher
from emergo.protocol import EngineSession, serve
from emergo.search import Searcher

PROG = "emergo-engine"


def _player(name: str) -> str:
    if name not in PLAYERS:
        raise argparse.ArgumentTypeError(
            f"unknown player {name!r}: expected one of {', '.join(PLAYERS)}"
        )
    return name


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="Speaks the emergo engine protocol on stdin/stdout (docs/engine-protocol.md).",
        epilog="Exit status: 0 ok, 1 the C kernel is needed but not built, 2 usage error.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    add_backend(parser)
    parser.add_argument(
        "--player",
        type=_player,
        metavar="NAME",
        help="be a built-in computer instead: "
        + "; ".join(f"{e.name} ({e.description})" for e in PLAYERS.values())
        + ".  mcts has the options Exploration and Playouts",
    )
    add_seed(
        parser,
        "random seed of the level draws and of --player, also the option Seed",
        default=0,
        metavar="N",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``emergo-engine`` command: serve the protocol until ``quit`` or end of input."""
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as e:
        return EXIT_USAGE if e.code not in (0, None) else EXIT_OK
    kind: str = args.backend
    player: str | None = args.player
    if player is not None and PLAYERS[player].backend is not None:
        # The engine's search: the session applies the Level option to it.
        kind, player = PLAYERS[player].backend or kind, None
    try:  # without the C kernel: a notice on stderr, or an error for what needs it
        check_kernel([player or "engine"], kind, prog=PROG)
    except CliError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return e.status

    def make(hash_mb: int) -> Searcher:
        values = session.values
        if player is None:
            return backend(kind, hash_mb=hash_mb)
        return searcher(
            player,
            seed=values["seed"],
            hash_mb=hash_mb,
            exploration=values["exploration"] / 100 if "exploration" in values else None,
            playouts=values.get("playouts"),
        )

    out = sys.stdout

    def send(line: str) -> None:
        try:
            out.write(line + "\n")
            out.flush()
        except (BrokenPipeError, ValueError):
            # The front end closed our output (from the reader or the search thread): no one
            # is left to answer, so leave at once and quietly, as a pipe's writer does.
            broken_pipe()
            os._exit(EXIT_OK)

    session = EngineSession(send, make, player=player, seed=args.seed)
    try:
        serve(session, sys.stdin)
    except KeyboardInterrupt:
        session.handle("quit")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
