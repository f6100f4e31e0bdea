"""The ``emergo`` command line: moves, perft, show, play, analyse, replay, match, bench, selfplay,
serve, bot, admin, tablebase, puzzles.

One module per command (``emergo.cli.moves`` ...), each a thin layer over library
calls: it reads the options, calls the library and prints.  ``emergo-engine`` is
:mod:`emergo.cli.engine`.  The interface translates, it does not decide rules: every
legality question goes to :class:`emergo.Board`, whose error messages (citing
docs/rules.md) are shown as they are.

Exit status: 0 success; 1 the content is bad (a broken game record) or a needed
part of the package is missing; 2 usage or input errors (a bad option, position,
move or missing file); 130 interrupted (Ctrl-C: a long command prints what it had found);
141 the reader of our output went away (``emergo moves | head``).  Errors go to standard
error as ``emergo COMMAND: <message>``, without a traceback.

Square names (R3): ``--names checker`` switches the squares of the moves we print
and read; position strings are always R22, which uses the oblique names.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from emergo import __version__
from emergo.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    CliError,
    Parser,
    broken_pipe,
    fail,
    quiet_flush,
)

COMMANDS = (
    "moves",
    "perft",
    "show",
    "play",
    "analyse",
    "replay",
    "match",
    "bench",
    "selfplay",
    "serve",
    "bot",
    "admin",
    "tablebase",
    "puzzles",
)
"""The commands, each the module ``emergo.cli.<command>`` with ``add_parser`` and ``run``."""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="Emergo: legal moves, perft, board pictures, games and records.",
        epilog=(
            "Run 'emergo COMMAND --help' for a command's options.  Exit status: 0 ok, "
            "1 broken content, 2 usage or input error, 130 interrupted."
        ),
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        # Imported here, not at the top: the engine's start-up (emergo.cli.engine) stays light.
        importlib.import_module(f"emergo.cli.{name}").add_parser(sub)
    return parser


def _run(argv: list[str], where: list[str]) -> int:
    parser = build_parser()
    if argv[:1] == ["help"]:  # "emergo help" and "emergo help COMMAND" as "--help"
        argv = [*argv[1:2], "--help"]
    args, extra = parser.parse_known_args(argv)
    if args.command is not None:
        where.append(f"{PROG} {_canonical(args.command)}")
    if extra:  # a position may follow the options: "emergo perft 4 --divide 7x7 w 8/8"
        if not hasattr(args, "position") or any(word.startswith("-") for word in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.position = [*args.position, *extra]
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    status: int = args.run(args)
    return status


def _canonical(command: str) -> str:
    return "analyse" if command == "analyze" else command


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (errors never show a traceback)."""
    where: list[str] = []  # "emergo COMMAND" once the command is known: errors name it
    try:
        status = _run(list(sys.argv[1:] if argv is None else argv), where)
        sys.stdout.flush()
        return status
    except SystemExit as e:  # argparse: --help, --version (0) or a usage error (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE if e.code else EXIT_OK
    except CliError as e:
        return fail(where[-1] if where else PROG, str(e), e.status)
    except BrokenPipeError:
        return broken_pipe()
    except (ValueError, OSError) as e:
        return fail(where[-1] if where else PROG, str(e), EXIT_USAGE)
    except KeyboardInterrupt:
        quiet_flush()
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
