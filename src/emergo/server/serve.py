"""``emergo serve``: open the site's database, build the app, run uvicorn, open the browser.

Local mode (the default) is the site on this machine for one player, signed in by itself; a
first start in the default place takes over the data of the two servers before this one (the
old site's ``emergo-online.sqlite3``, the local app's games and studies: :mod:`.local_import`).
``--public`` (or ``[server] mode = "public"``) serves everyone who reaches it: any number of these
processes may serve one PostgreSQL database (each on its own port, behind a balancer); they
share nothing but the database.  On SQLite run one.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import threading
import webbrowser
from collections.abc import Sequence
from typing import Any

from emergo.server import options

EXIT_FAILURE = 1
"""A needed part is missing (an extra) or the database cannot be opened."""


def parser() -> argparse.ArgumentParser:
    """The parser of ``python -m emergo.server`` (the options of ``emergo serve``)."""
    p = argparse.ArgumentParser(prog="emergo serve", description=options.DESCRIPTION)
    options.add_arguments(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (the arguments after ``emergo serve``) and run; the exit status."""
    try:
        args = parser().parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (2), already printed
        return e.code if isinstance(e.code, int) else 2
    return run(args)


def url_for(host: str, port: int, https: bool = False) -> str:
    """The address to open: the listening one, a wildcard shown as this machine."""
    shown = host if host not in ("0.0.0.0", "::") else "127.0.0.1"
    if ":" in shown:
        shown = f"[{shown}]"
    return f"{'https' if https else 'http'}://{shown}:{port}/"


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from emergo.server.app import create_app
        from emergo.server.core.config import ConfigError, from_arguments, trusted_proxies
        from emergo.server.core.db import SchemaError, shown, url_of
        from emergo.server.core.guard import MAX_BODY
        from emergo.server.local_import import import_old_data
        from emergo.server.site import Site
    except ImportError as e:
        print(
            f"emergo serve needs the server's extra: pip install 'emergo[server]' ({e})",
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
    except Exception as e:  # a bad URL, an unreachable server, an unwritable file, a bad name
        where = shown(url_of(config.db))
        print(f"emergo serve: cannot open the database {where}: {e}", file=sys.stderr)
        return EXIT_FAILURE
    if config.local and config.db is None:
        for line in import_old_data(site):  # once: the local app's games and studies
            print(f"emergo serve: {line}", flush=True)
    app = create_app(site)
    uv_config = uvicorn.Config(
        app,
        host=config.host,
        port=config.port,
        log_level="warning",
        ws="auto",
        ws_max_size=MAX_BODY,
        # no permessage-deflate: compressing every frame costs CPU at both ends (about a tenth
        # of a millisecond a frame) to save bandwidth a game's small messages do not need
        ws_per_message_deflate=False,
        server_header=False,
        proxy_headers=config.trust_proxy,
        forwarded_allow_ips=trusted_proxies(config.proxies) if config.trust_proxy else None,
        # uvicorn's access log would print request lines: keep the log to what the site writes
        access_log=False,
        # a request's headers in [server] header_timeout or the connection closes (slowloris)
        http=bounded_headers(config.header_timeout),
        # the event and game streams never end by themselves: Ctrl-C closes them after this
        timeout_graceful_shutdown=3,
    )

    server = stopping_server(site, uv_config)
    url = url_for(config.host, config.port, config.https)
    where = shown(site.db.url)
    mode = f"local, signed in as {site.local_user.name}" if site.local_user else "public"

    def announce() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if not server.started:
            return
        print(f"emergo serve: {url}  ({mode}; {where}; Ctrl-C stops)", flush=True)
        if config.open_browser and not webbrowser.open(url):
            print(
                f"emergo serve: no web browser found on this machine: open {url} in one",
                flush=True,
            )

    threading.Thread(target=announce, daemon=True).start()
    # what was loaded to start (modules, the schema, the site) lives as long as the process: out
    # of the collector's sight, so that its collections walk only what requests allocate, and
    # fewer of them (a request's objects are freed by their counts, not by the collector; at
    # Python's 700 a move paid about 5 % of its CPU in collections)
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    try:
        server.run()
    finally:
        site.close()
    return 0 if server.started else 1


def bounded_headers(timeout: float, base: Any = None) -> Any:
    """An HTTP protocol of uvicorn (``base``; None: the one ``http="auto"`` takes, httptools
    when installed, else h11) that closes a connection whose request has not sent all its
    headers ``timeout`` seconds after the connection opened or the request's first byte came.

    uvicorn bounds only the idle time between two requests (``timeout_keep_alive``): a client
    that opened connections and sent their headers a byte at a time held each forever (the
    slowloris attack), as nginx's ``client_header_timeout`` bounds it in front but nothing did
    for a process reached directly.

    A request answered before its body came in whole (refused as too large, or at its deadline,
    ``[database] request_timeout``, while a client sent the body a byte at a time) closes its
    connection: uvicorn kept it open for the next request and read the rest of the body as it
    came, each byte putting off the idle bound, so that such a client held it forever too."""
    import h11
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.http.h11_impl import H11Protocol

    base = AutoHTTPProtocol if base is None else base

    class Bounded(base):  # type: ignore[misc]
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(timeout, self._headers_late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        if issubclass(base, H11Protocol):

            def on_response_complete(self) -> None:
                if self.conn.their_state is h11.SEND_BODY:  # answered before its body came
                    self.transport.close()
                    return
                super().on_response_complete()

            def data_received(self, data: bytes) -> None:
                super().data_received(data)
                # still IDLE after bytes came: a request's start, its headers not all in
                if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                    self._arm()
                else:
                    self._disarm()

        else:  # httptools: the parser says when a request starts and its headers end

            def on_response_complete(self) -> None:
                if self.cycle is not None and self.cycle.more_body:  # answered before its body
                    self.transport.close()
                    return
                super().on_response_complete()

            def on_message_begin(self) -> None:
                super().on_message_begin()
                self._arm()

            def on_headers_complete(self) -> None:
                self._disarm()
                super().on_headers_complete()

    return Bounded


def stopping_server(site: Any, uv_config: Any) -> Any:
    """A uvicorn server whose stop (Ctrl-C, SIGTERM) begins the site's (``site.begin_stop``):
    the streams and sockets end now, cleanly, rather than being cancelled (with a traceback
    each) when the graceful shutdown's time is up, and the house bots leave.

    Not in the signal handler itself: a handler runs between two bytecodes of this thread and
    may have interrupted it while it held a lock the stop takes (a second signal during the
    first stop hung the process); the event loop runs it, once."""
    import uvicorn

    class Server(uvicorn.Server):
        stopping = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            if not self.stopping:
                self.stopping = True
                try:
                    asyncio.get_running_loop().call_soon_threadsafe(site.begin_stop)
                except RuntimeError:  # no loop yet: a signal while starting
                    site.begin_stop()
            super().handle_exit(sig, frame)

    return Server(uv_config)
