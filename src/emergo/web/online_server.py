"""``emergo serve --online``: open the site's database, build the app, run uvicorn.

Any number of these processes may serve one PostgreSQL database (each on its own port, behind a
balancer): they share nothing but the database.  On SQLite run one.
"""

from __future__ import annotations

import argparse
import sys
import threading
import webbrowser
from typing import Any

EXIT_FAILURE = 1


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from emergo.online.config import ConfigError, from_arguments
        from emergo.online.db import SchemaError, shown, url_of
        from emergo.online.site import Site
        from emergo.web.online_app import create_online_app
        from emergo.web.online_security import MAX_BODY
    except ImportError as e:
        print(
            f"emergo serve --online needs the online extra: pip install 'emergo[online]' ({e})",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    try:
        config = from_arguments(args)
    except (ConfigError, ValueError) as e:
        print(f"emergo serve: {e}", file=sys.stderr)
        return 2
    try:
        site = Site.open(config)
    except SchemaError as e:
        print(f"emergo serve: {e}", file=sys.stderr)
        return EXIT_FAILURE
    except ImportError as e:
        print(
            f"emergo serve: this database needs the postgres extra: pip install "
            f"'emergo[postgres]' ({e})",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    except Exception as e:  # a bad URL, an unreachable server, an unwritable file
        where = shown(url_of(config.db))
        print(f"emergo serve: cannot open the database {where}: {e}", file=sys.stderr)
        return EXIT_FAILURE
    app = create_online_app(site)
    uv_config = uvicorn.Config(
        app,
        host=config.host,
        port=config.port,
        log_level="warning",
        ws="auto",
        ws_max_size=MAX_BODY,
        ws_per_message_deflate=False,
        server_header=False,
        proxy_headers=config.trust_proxy,
        forwarded_allow_ips="*" if config.trust_proxy else None,
        # uvicorn's access log would print request lines: paths carry no secret, but keep the
        # log to what the site writes itself
        access_log=False,
        # the event and game streams never end by themselves: Ctrl-C closes them after this
        timeout_graceful_shutdown=3,
    )

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            # the streams and sockets end now, cleanly, rather than being cancelled (with a
            # traceback each) when the graceful shutdown's time is up
            site.bus.close_readers()
            super().handle_exit(sig, frame)

    server = Server(uv_config)
    shown_host = config.host if config.host not in ("0.0.0.0", "::") else "127.0.0.1"
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    url = f"{'https' if config.https else 'http'}://{shown_host}:{config.port}/"
    where = shown(site.db.url)

    def announce() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if server.started:
            print(f"emergo serve --online: {url}  ({where}; Ctrl-C stops)", flush=True)
            if config.open_browser:
                webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run()
    finally:
        site.close()
    return 0 if server.started else 1
