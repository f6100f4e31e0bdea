"""The online site's ASGI application: every route in one table, errors as JSON, the lifecycle.

``emergo serve --online`` serves :func:`create_online_app`; the local app
(:mod:`emergo.web.app`) is untouched.  The handlers are in :mod:`emergo.web.online_api` (HTTP,
the Board API), :mod:`emergo.web.online_socket` (WebSockets) and :mod:`emergo.web.online_pages`
(HTML); :mod:`emergo.web.online_openapi` describes the HTTP API at ``/api/openapi.json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from sqlalchemy import exc as sql_exc
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from emergo import round as rnd
from emergo.online.challenges import ChallengeError
from emergo.online.chat import ChatError
from emergo.online.db import RETRY_AFTER, unavailable
from emergo.online.limits import RateLimited
from emergo.online.rounds import GameError
from emergo.online.site import Site
from emergo.online.tokens import TokenError
from emergo.online.users import AccountError
from emergo.web import online_api as api
from emergo.web import online_board as board
from emergo.web import online_bot as bot
from emergo.web import online_pages as pages
from emergo.web import online_player_pages as player_pages
from emergo.web import online_players as players
from emergo.web import online_shell as shell
from emergo.web import online_socket as sockets
from emergo.web import online_watch as watch
from emergo.web.online_auth import ApiError
from emergo.web.online_openapi import openapi
from emergo.web.online_security import OnlineGuard

log = logging.getLogger("emergo.web.online")
STATIC = Path(__file__).with_name("static")
HEALTH_TIMEOUT = 3.0
"""Seconds the health check waits for the database before it says 503."""


async def health(request: Request) -> Response:
    """``GET /api/health``: 200 when this process is up and its database answers, else 503
    (a balancer or a monitor takes the process out meanwhile)."""
    site: Site = request.app.state.site
    try:
        await asyncio.wait_for(asyncio.to_thread(site.db.ping), HEALTH_TIMEOUT)
    except Exception as e:  # any failure to answer is "not healthy"
        reason = "timed out" if isinstance(e, TimeoutError) else type(e).__name__
        return JSONResponse(
            {"ok": False, "db": False, "error": f"the database does not answer ({reason})"},
            status_code=503,
            headers={"retry-after": str(RETRY_AFTER), "cache-control": "no-store"},
        )
    return JSONResponse({"ok": True, "db": True}, headers={"cache-control": "no-store"})


def words(path: str, endpoint: Any, methods: list[str], **allowed: set[str]) -> Route:
    """A route whose parameters ``allowed`` take only these words: any other is a 404."""

    async def checked(request: Request) -> Response:
        for key, choices in allowed.items():
            value = request.path_params.get(key)
            if value not in choices:
                raise ApiError(f"no such endpoint ({key} {str(value)[:30]!r})", 404)
        response: Response = await endpoint(request)
        return response

    return Route(path, checked, methods=methods, name=endpoint.__name__)


def _player_routes(prefix: str, *extra: Route) -> list[Route]:
    """A player's game routes under ``prefix``: lichess's Board API (``/api/board``) and Bot API
    (``/api/bot``) are the same handlers (online_botrules says who may use which); ``extra``
    come before the catch-all ``{kind}/{answer}`` and ``{action}`` routes."""
    game = f"{prefix}/game"
    return [
        Route(f"{game}/stream/{{id}}", api.board_game_stream, methods=["GET"]),
        Route(f"{game}/{{id}}/move/{{move}}", api.board_move, methods=["POST"]),
        Route(f"{game}/{{id}}/chat", api.board_chat_post, methods=["POST"]),
        Route(f"{game}/{{id}}/chat", api.board_chat_get, methods=["GET"]),
        *extra,
        words(
            f"{game}/{{id}}/{{kind}}/{{answer}}",
            api.board_offer,
            ["POST"],
            kind={"draw", "takeback"},
            answer={"yes", "no"},
        ),
        words(
            f"{game}/{{id}}/{{action}}",
            api.board_action,
            ["POST"],
            action={"resign", "abort", "claim-victory", "claim-draw"},
        ),
    ]


ROUTES: list[BaseRoute] = [
    # pages
    Route("/", shell.lobby, methods=["GET"]),
    Route("/signup", pages.signup_page, methods=["GET"]),
    Route("/signup", pages.signup_post, methods=["POST"]),
    Route("/login", pages.login_page, methods=["GET"]),
    Route("/login", pages.login_post, methods=["POST"]),
    Route("/logout", pages.logout_post, methods=["POST"]),
    Route("/account", pages.account_page, methods=["GET"]),
    Route("/account/token/{token_id}/revoke", pages.token_revoke_post, methods=["POST"]),
    words(
        "/account/{action}", pages.account_post, ["POST"], action={"password", "delete", "token"}
    ),
    Route("/challenge/{id}", pages.challenge_page, methods=["GET"]),
    Route("/challenge/{id}/accept", pages.challenge_accept_post, methods=["POST"]),
    Route("/game/{id}", shell.game, methods=["GET"]),
    # issue 21: profiles, leaderboards, the archive, notifications, mail and vacation
    Route("/@/{username}", player_pages.profile, methods=["GET"]),
    Route("/leaderboard", player_pages.leaderboards, methods=["GET"]),
    Route("/leaderboard/{perf}", player_pages.leaderboard, methods=["GET"]),
    Route("/games", player_pages.archive, methods=["GET"]),
    Route("/watch", watch.watch_page, methods=["GET"]),
    Route("/notifications", player_pages.notifications, methods=["GET"]),
    Route("/notifications/read", player_pages.notifications_read, methods=["POST"]),
    Route("/account/notifications", player_pages.settings, methods=["GET"]),
    words(
        "/account/notifications/{action}",
        player_pages.settings_post,
        ["POST"],
        action={"mail", "vacation-start", "vacation-stop"},
    ),
    Route("/game/{id}/conditional", player_pages.conditional_post, methods=["POST"]),
    Route("/game/export/{id}", api.game_export, methods=["GET"]),
    # accounts
    Route("/api/account", api.account, methods=["GET"]),
    Route("/api/account/playing", api.playing, methods=["GET"]),
    Route("/api/account/tokens", api.tokens_list, methods=["GET"]),
    Route("/api/account/tokens", api.token_create, methods=["POST"]),
    Route("/api/account/tokens/{token_id}/revoke", api.token_revoke, methods=["POST"]),
    Route("/api/account/notifications", players.notifications, methods=["GET"]),
    Route("/api/account/notifications/read", players.notifications_read, methods=["POST"]),
    Route("/api/account/preferences", players.preferences, methods=["GET", "POST"]),
    Route("/api/account/preferences/bots", bot.bot_prefs, methods=["GET", "POST"]),
    Route("/api/account/vacation", players.vacation, methods=["GET"]),
    words(
        "/api/account/vacation/{action}", players.vacation_post, ["POST"], action={"start", "stop"}
    ),
    Route("/api/user/{username}", players.user_public, methods=["GET"]),
    Route("/api/user/{username}/rating-history", players.rating_history, methods=["GET"]),
    Route("/api/player/top/{nb}/{perf}", players.leaderboard, methods=["GET"]),
    Route("/api/games/user/{username}", players.games_of_user, methods=["GET"]),
    Route("/api/games/search", players.games_search, methods=["GET"]),
    Route("/api/games/live", watch.live_api, methods=["GET"]),
    # challenges and the lobby
    Route("/api/challenge", api.challenges_mine, methods=["GET"]),
    Route("/api/challenge/open", api.challenge_open, methods=["POST"]),
    Route("/api/challenge/ai", bot.challenge_ai, methods=["POST"]),
    Route("/api/challenge/{id}/show", api.challenge_show, methods=["GET"]),
    words(
        "/api/challenge/{id}/{action}",
        api.challenge_answer,
        ["POST"],
        action={"accept", "decline", "cancel"},
    ),
    Route("/api/challenge/{username}", api.challenge_create, methods=["POST"]),
    Route("/api/lobby/seeks", api.seeks, methods=["GET"]),
    Route("/api/lobby/seek", api.seek_create, methods=["POST"]),
    # games: the Board API
    Route("/api/stream/event", api.event_stream, methods=["GET"]),
    *_player_routes(
        "/api/board",
        Route("/api/board/game/{id}/conditional", players.conditional, methods=["GET", "POST"]),
        words(
            "/api/board/game/{id}/chat/{state}", api.board_chat_room, ["POST"], state={"on", "off"}
        ),
    ),
    # issue 20: the Bot API: the Board API's handlers for bot accounts (online_botrules)
    Route("/api/bot/account/upgrade", bot.upgrade, methods=["POST"]),
    *_player_routes("/api/bot"),
    Route("/api/stream/game/{id}", api.spectator_stream, methods=["GET"]),
    Route("/api/game/{id}", api.game_json, methods=["GET"]),
    Route("/api/geometry", board.geometry_json, methods=["GET"]),
    Route("/api/position", board.position_json, methods=["GET"]),
    Route("/api/openapi.json", openapi, methods=["GET"]),
    Route("/api/health", health, methods=["GET"]),
    # sockets
    WebSocketRoute("/ws/online/game/{id}", sockets.game_socket),
    WebSocketRoute("/ws/online/lobby", sockets.lobby_socket),
    WebSocketRoute("/ws/online/site", sockets.site_socket),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
"""Every route of the site (lila's conf/routes): pages, the API, sockets, static files."""
shell.know_routes(ROUTES)  # the header links the pages the site has
shell.GAME_EXTRAS.append(player_pages.game_extras)  # issue 21: ratings, conditional moves


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _handle(request: Request, exc: Exception) -> Response:
    if isinstance(exc, ApiError):
        return _error(exc.status, str(exc), exc.headers)
    if isinstance(exc, RateLimited):
        return _error(429, str(exc), {"retry-after": str(exc.retry_after)})
    if isinstance(exc, ChallengeError):  # the API's message, and the pages' words for a player
        return JSONResponse({"error": str(exc), "words": exc.words}, status_code=exc.status)
    if isinstance(exc, GameError | ChatError | AccountError):
        return _error(exc.status, str(exc))
    if isinstance(exc, rnd.RoundError | TokenError):
        return _error(400, str(exc))
    if unavailable(exc):
        # the database is away or stalled: nothing was committed, the client may retry
        log.warning(
            "the database did not answer %s %s: %s",
            request.method,
            request.url.path,
            type(exc).__name__,
        )
        return _error(
            503,
            "the database is not answering: try again in a few seconds",
            {"retry-after": str(RETRY_AFTER)},
        )
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return _error(500, "the server failed on this request (it is logged)")


class Deadline:
    """ASGI middleware: an HTTP request whose answer has not started within ``seconds`` is
    answered 503 with ``Retry-After`` (its work is abandoned: nothing it did is acknowledged).
    A stream is bounded only until its first line; sockets bound their own opening
    (:mod:`emergo.web.online_socket`)."""

    def __init__(self, app: Any, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = asyncio.Event()

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                started.set()
            await send(message)

        task = asyncio.ensure_future(self.app(scope, receive, sending))
        waiter = asyncio.ensure_future(started.wait())
        try:
            await asyncio.wait({task, waiter}, timeout=self.seconds, return_when="FIRST_COMPLETED")
        finally:
            waiter.cancel()
        if started.is_set() or task.done():
            await task
            return
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        log.warning(
            "no answer within %.0f s to %s %s", self.seconds, scope["method"], scope["path"][:80]
        )
        response = _error(
            503,
            "the server could not answer in time: try again in a few seconds",
            {"retry-after": str(RETRY_AFTER)},
        )
        await response(scope, receive, send)


def create_online_app(site: Site, *, start: bool = True) -> Any:
    """The site's ASGI app (wrapped in :class:`OnlineGuard`); ``start``: the lifespan starts
    the site's bus and periodic work (:meth:`Site.start`) and stops them."""

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
            ApiError,
            RateLimited,
            GameError,
            ChallengeError,
            ChatError,
            AccountError,
            rnd.RoundError,
            TokenError,
            # the database away: handled here (503), not by the server-error middleware, which
            # would print a traceback after the answer
            sql_exc.DBAPIError,
            sql_exc.TimeoutError,
            Exception,
        )
    }
    app = Starlette(routes=ROUTES, lifespan=lifespan, exception_handlers=handlers)
    app.state.site = site
    hosts = [*site.config.allow_hosts]
    if site.config.host not in ("0.0.0.0", "::"):
        hosts.append(site.config.host)
    bounded = Deadline(app, site.config.database.request_timeout)
    return OnlineGuard(bounded, hosts, https=site.config.https)
