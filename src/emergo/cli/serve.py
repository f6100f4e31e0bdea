"""``emergo serve``: Emergo in the browser, a thin wrapper over :func:`emergo.web.server.run`.

The options are declared once, in :mod:`emergo.web.options` (no dependency: ``--help`` works
without the ``web`` extra); the server itself needs the extra (``pip install 'emergo[web]'``)
and says so when it is missing.
"""

from __future__ import annotations

import argparse

from emergo.cli.common import int_range
from emergo.web import options


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help=options.HELP, description=options.DESCRIPTION)
    options.add_arguments(p, int_range)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from emergo.web.server import run as serve

    return serve(args)
