"""The ``emergo serve`` command: open the store, build the app, run uvicorn, open the browser."""

from __future__ import annotations

import argparse
import ipaddress
import sys
import threading
import webbrowser
from collections.abc import Sequence

from emergo.web.security import LOCAL_HOSTS, MAX_BODY

DEFAULT_PORT = 8765


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="emergo serve",
        description="Play, study and replay Emergo in the browser (a local web server).",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument(
        "--db",
        default=None,
        help="database: a file path (SQLite) or an SQLAlchemy URL "
        "(default: emergo.sqlite3 in the user's data directory)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name the server may be reached by (checked against Host)",
    )
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
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
    args = parser().parse_args(argv)
    if not 0 < args.port < 65536:
        print(f"emergo serve: --port must be 1-65535, not {args.port}", file=sys.stderr)
        return 2
    try:
        import uvicorn

        from emergo.web import timing
        from emergo.web.app import create_app
        from emergo.web.store import Store, url_of
    except ImportError as e:
        print(f"emergo serve needs the web extra: pip install 'emergo[web]' ({e})", file=sys.stderr)
        return 2
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
    except Exception as e:  # a bad URL, an unwritable file, a failed migration
        print(f"emergo serve: cannot open the database: {e}", file=sys.stderr)
        return 1
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
