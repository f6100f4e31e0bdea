"""The ``emergo serve`` command: open the store, build the app, run uvicorn, open the browser.

Its options are declared in :mod:`emergo.web.options` (shared with ``emergo.cli.serve``).  This
module imports the ``web`` extra only in :func:`run`, which says what to install when it is
missing.
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
import threading
import webbrowser
from collections.abc import Sequence

from emergo.web import options
from emergo.web.security import LOCAL_HOSTS, MAX_BODY

EXIT_FAILURE = 1
"""A needed part is missing (the web extra) or the database cannot be opened."""


def parser() -> argparse.ArgumentParser:
    """The parser of ``python -m emergo.web.server`` (the options of ``emergo serve``)."""
    p = argparse.ArgumentParser(prog="emergo serve", description=options.DESCRIPTION)
    options.add_arguments(p)
    return p


def is_local(host: str) -> bool:
    if host.lower() in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_for(host: str, port: int) -> str:
    shown = host if host not in ("0.0.0.0", "::") else "127.0.0.1"
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (the arguments after ``emergo serve``) and run; returns the exit status
    (2 for bad arguments, as ``emergo serve`` does)."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (2), already printed
        return e.code if isinstance(e.code, int) else 2
    return run(args)


def run(args: argparse.Namespace) -> int:
    """Serve with parsed options (:func:`emergo.web.options.add_arguments`) until stopped."""
    if getattr(args, "online", False):  # the multi-user site: emergo.web.online_server
        from emergo.web.online_server import run as run_online

        return run_online(args)
    try:
        import uvicorn

        from emergo.web import timing
        from emergo.web.app import create_app
        from emergo.web.store import Store, url_of
    except ImportError as e:
        print(f"emergo serve needs the web extra: pip install 'emergo[web]' ({e})", file=sys.stderr)
        return EXIT_FAILURE
    hosts = tuple(args.allow_host)
    if not is_local(args.host):
        hosts += (args.host,)
        print(
            f"warning: listening on {args.host}, not only this machine: anyone who can reach it "
            "can use the engine and read your saved games (there is no login); clients must "
            "use this address or a name given with --allow-host",
            file=sys.stderr,
        )
    try:
        store = Store.open(url_of(args.db))
    except Exception as e:  # a bad URL, an unwritable file, damaged pages, a failed migration
        print(f"emergo serve: {e}", file=sys.stderr)  # StoreError: one line, what to do
        return EXIT_FAILURE
    app = create_app(store, hosts=hosts)
    url = url_for(args.host, args.port)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws="auto",
        ws_max_size=MAX_BODY,
        # No permessage-deflate: compressing every frame costs CPU at both ends (about a tenth
        # of a millisecond a frame on this server) to save bandwidth a local server lacks none of.
        ws_per_message_deflate=False,
        server_header=False,
    )
    server = uvicorn.Server(config)
    timing.install()

    def announce() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if server.started:
            print(f"emergo serve: {url}  (Ctrl-C stops)", flush=True)
            if not args.no_browser:
                webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run()
    finally:
        store.close()
    return 0 if server.started else 1


if __name__ == "__main__":
    raise SystemExit(main())
