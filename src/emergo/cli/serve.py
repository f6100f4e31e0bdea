"""``emergo serve``: the site in the browser, a thin wrapper over :func:`emergo.server.serve.run`.

The options are declared once, in :mod:`emergo.server.options` (no dependency: ``--help`` works
without the extras); the server itself needs the ``online`` extra and says so when it is
missing.
"""

from __future__ import annotations

import argparse

from emergo.cli.common import int_range
from emergo.server import options


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help=options.HELP, description=options.DESCRIPTION)
    options.add_arguments(p, int_range)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from emergo.server.serve import run as serve

    return serve(args)
