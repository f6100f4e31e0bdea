"""The one server's ASGI application: the route table (:mod:`emergo.server.routes`), errors as
JSON, the request deadline and the lifecycle of the site (:class:`emergo.server.site.Site`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import exc as sql_exc
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from emergo import round as rnd
from emergo.server.bots.inprocess import in_process
from emergo.server.core.db import RETRY_AFTER, Window, deadline, driver_errors, unavailable
from emergo.server.core.errors import SiteError
from emergo.server.core.guard import Guard
from emergo.server.routes import ROUTES
from emergo.server.site import Site
from emergo.server.user.local import LocalSignIn

log = logging.getLogger(__name__)


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _handle(request: Request, exc: Exception) -> Response:
    if isinstance(exc, SiteError):  # every module's refusal (emergo.server.core.errors)
        return JSONResponse(exc.json(), status_code=exc.status, headers=exc.headers)
    if isinstance(exc, rnd.RoundError):  # the pure round's: the message says why
        return _error(400, str(exc))
    if unavailable(exc):
        # the database is away or stalled: nothing was committed, the client may retry
        log.warning(
            "the database did not answer %s %s: %s",
            getattr(request, "method", "WS"),
            request.url.path,
            type(exc).__name__,
        )
        return _error(
            503,
            "the database is not answering: try again in a few seconds",
            {"retry-after": str(RETRY_AFTER)},
        )
    # a socket's error comes here too (a WebSocket has no method)
    log.exception("unexpected error on %s %s", getattr(request, "method", "WS"), request.url.path)
    return _error(500, "the server failed on this request (it is logged)")


async def _router_refusal(request: Request, exc: Exception) -> Response:
    """The router's own 404 (no route) and 405 (a route without the method): JSON naming the
    request under ``/api/``, as every other error of the API; the pages keep the plain text."""
    assert isinstance(exc, HTTPException)
    if not request.url.path.startswith("/api/"):
        return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=exc.headers)
    asked = f"{request.method} {request.url.path[:80]}"
    if exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        message = f"{asked}: the method is not allowed here (allowed: {allowed})"
    else:
        message = f"no such endpoint: {asked}" if exc.status_code == 404 else exc.detail
    return _error(exc.status_code, message, dict(exc.headers or {}))


class Deadline:
    """ASGI middleware: an HTTP request whose answer has not started within ``seconds`` is
    answered 503 with ``Retry-After``, but only when that is true: when none of its commits is
    under way or done (:class:`emergo.server.core.db.Window`; its work is then abandoned and
    can commit nothing any more); else the answer waits for the work.  A stream is bounded only
    until its first line; sockets bound their own opening (:mod:`emergo.server.core.sockets`).
    One timer a request, no task of its own."""

    def __init__(self, app: Any, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        window = Window(self.seconds)
        started = False
        abandoned = False
        task = asyncio.current_task()
        assert task is not None

        async def sending(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        def at_deadline() -> None:
            nonlocal abandoned
            if started or window.expire():  # answering, or a commit under way: wait for it
                return
            abandoned = True
            task.cancel()

        timer = asyncio.get_running_loop().call_later(self.seconds, at_deadline)
        try:
            with deadline(window):
                await self.app(scope, receive, sending)
        except asyncio.CancelledError:
            if not abandoned:
                raise
            task.uncancel()
        finally:
            timer.cancel()
        if not abandoned:
            return
        log.warning(
            "no answer within %.0f s to %s %s", self.seconds, scope["method"], scope["path"][:80]
        )
        response = _error(
            503,
            "the server could not answer in time: nothing was done; try again in a few seconds",
            {"retry-after": str(RETRY_AFTER)},
        )
        await response(scope, receive, send)


def create_app(site: Site, *, start: bool = True) -> Any:
    """The site's ASGI app (wrapped in :class:`Guard`; in local mode every request is the
    one player's, :class:`emergo.server.user.local.LocalSignIn`); ``start``: the lifespan
    starts the site's bus and periodic work (:meth:`Site.start`) and stops them."""

    if site.config.local and site.house_transport is None:  # house bots call the site, not HTTP
        site.house_transport = in_process(site)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if start:
            site.start()
        try:
            yield
        finally:
            if start:
                await site.stop()

    handlers: dict[Any, Any] = {
        cls: _handle
        for cls in (
            SiteError,
            rnd.RoundError,
            # the database away: handled here (503), not by the server-error middleware, which
            # would print a traceback after the answer; the hot path's raw statements raise
            # the drivers' own errors (core/db.py unavailable)
            sql_exc.DBAPIError,
            sql_exc.TimeoutError,
            *driver_errors(),
            Exception,
        )
    }
    handlers[HTTPException] = _router_refusal
    app = Starlette(routes=ROUTES, lifespan=lifespan, exception_handlers=handlers)
    app.state.site = site
    hosts = [*site.config.allow_hosts]
    if site.config.host not in ("0.0.0.0", "::"):
        hosts.append(site.config.host)
    bounded: Any = Deadline(app, site.config.database.request_timeout)
    if site.local_user is not None:
        bounded = LocalSignIn(bounded, site)
    return Guard(bounded, hosts, https=site.config.https)
