"""``emergo serve``: Emergo in the browser, a thin wrapper over :func:`emergo.web.main`.

The options are those of ``python -m emergo.web.server`` (docs/web.md); the web app needs the
``web`` extra (``pip install 'emergo[web]'``), which is imported only when the command runs.
"""

from __future__ import annotations

import argparse

from emergo.cli.common import int_range

DEFAULT_PORT = 8765


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="play, study and replay in the browser (a local web server)",
        description="Start a local web server, print its URL and open the browser.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument(
        "--port",
        type=int_range(1, 65535),
        default=DEFAULT_PORT,
        help=f"port, 1..65535 (default {DEFAULT_PORT})",
    )
    p.add_argument("--db", default=None, help="an SQLite file or an SQLAlchemy URL")
    p.add_argument(
        "--allow-host", action="append", default=[], metavar="NAME", help="another host name"
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.set_defaults(run=run)


def argv_of(args: argparse.Namespace) -> list[str]:
    """The arguments of :func:`emergo.web.main` for the parsed options."""
    argv = ["--host", args.host, "--port", str(args.port)]
    if args.db:
        argv += ["--db", args.db]
    for name in args.allow_host:
        argv += ["--allow-host", name]
    if args.no_browser:
        argv.append("--no-browser")
    return argv


def run(args: argparse.Namespace) -> int:
    from emergo.web import main

    return main(argv_of(args))
