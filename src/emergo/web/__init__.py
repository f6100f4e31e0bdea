"""``emergo serve``: play, study and replay Emergo in the browser (issue 11).

The web app is its own subpackage: it imports the library, nothing in the library imports it.
It needs the ``web`` extra (``pip install 'emergo[web]'``): Starlette, uvicorn, SQLAlchemy,
Alembic and platformdirs.

* :func:`main` -- the command line (``emergo serve``): ``--host``, ``--port``, ``--db``,
  ``--no-browser``, declared once in :mod:`emergo.web.options` (standard library only, shared
  with ``emergo.cli.serve``);
* :func:`emergo.web.app.create_app` -- the ASGI application, for tests and other servers;
* :mod:`emergo.web.store` -- the database; :mod:`emergo.web.positions` -- positions as JSON;
  :mod:`emergo.web.analysis` -- engine analysis off the event loop;
  :mod:`emergo.web.games` -- live games through :mod:`emergo.game`.
"""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``emergo serve`` with ``argv`` (the arguments after ``serve``); returns an exit code."""
    from emergo.web.server import main as serve

    return serve(argv)


__all__ = ["main"]
