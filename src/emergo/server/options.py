"""The options of ``emergo serve``, declared once.

Both ways to start the server build their parser from :func:`add_arguments`: the ``emergo``
command line (``emergo.cli.serve``, with its own number type and error format) and
``python -m emergo.server`` (:func:`emergo.server.serve.parser`).  This module imports nothing
but the standard library, so ``emergo serve --help`` works without the extras; starting the
server without them says what to install (:func:`emergo.server.serve.run`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
PORTS = (1, 65535)

DESCRIPTION = (
    "Play, study and replay Emergo in the browser: start the site on this machine for you "
    "(signed in by yourself: play the computer at every level or a friend at the same screen, "
    "analyse, study, learn), print its address and open the browser; --public serves it to "
    "everyone who reaches it (accounts, live and correspondence games, docs/online.md)."
)
HELP = "play, study and learn in the browser (the site, on this machine or --public)"

NumberType = Callable[[int, int], Callable[[str], int]]
"""Makes an argparse ``type`` for a whole number in ``low..high``."""


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A plain argparse ``type``: a whole number in ``low..high``."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a whole number in {low}..{high}, not {text[:40]!r}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be in {low}..{high}, not {text[:40]!r}")
        return value

    return convert


def add_arguments(parser: argparse.ArgumentParser, number: NumberType = whole_number) -> None:
    """Declare the server's options on ``parser``; ``number(low, high)`` types the numbers."""
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}: this machine only)",
    )
    parser.add_argument(
        "--port",
        type=number(*PORTS),
        default=DEFAULT_PORT,
        help=f"port, {PORTS[0]}..{PORTS[1]} (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="the site's database: a file path (SQLite) or postgresql://USER@HOST:PORT/DB "
        "(default: emergo-site.sqlite3 in the user's data directory)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name the server may be reached by (checked against Host)",
    )
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    # `--public` (`--online`), `--config`, `--https`: the site for everyone (docs/online.md)
    from emergo.server.core.config import add_arguments as add_site_arguments

    add_site_arguments(parser)
