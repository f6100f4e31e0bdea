"""Every route of the one server in one table (lila's ``conf/routes``): pages, the HTTP API
(lichess's Board and Bot API and the pages' JSON), the sockets and the static files.

Each module's thin edges (``http``, ``socket``, ``pages``) hold the handlers; this table is the
only place that says which address reaches which.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from emergo.server import openapi
from emergo.server.analysis import http as analysis_http
from emergo.server.analysis import pages as analysis_pages
from emergo.server.analysis import socket as analysis_socket
from emergo.server.archive import http as archive_http
from emergo.server.archive import pages as archive_pages
from emergo.server.board import http as board_http
from emergo.server.bots import http as bots_http
from emergo.server.challenge import http as challenge_http
from emergo.server.challenge import pages as challenge_pages
from emergo.server.chat import http as chat_http
from emergo.server.core import health
from emergo.server.core.auth import ApiError
from emergo.server.correspondence import http as correspondence_http
from emergo.server.correspondence import pages as correspondence_pages
from emergo.server.explorer import http as explorer_http
from emergo.server.learn import http as learn_http
from emergo.server.learn import pages as learn_pages
from emergo.server.lobby import http as lobby_http
from emergo.server.lobby import pages as lobby_pages
from emergo.server.lobby import socket as lobby_socket
from emergo.server.notify import http as notify_http
from emergo.server.notify import pages as notify_pages
from emergo.server.notify import socket as notify_socket
from emergo.server.people import http as people_http
from emergo.server.people import pages as people_pages
from emergo.server.puzzle import http as puzzle_http
from emergo.server.puzzle import pages as puzzle_pages
from emergo.server.relation import http as relation_http
from emergo.server.report import http as report_http
from emergo.server.round import http as round_http
from emergo.server.round import pages as round_pages
from emergo.server.round import socket as round_socket
from emergo.server.study import http as study_http
from emergo.server.study import pages as study_pages
from emergo.server.tournament import http as tournament_http
from emergo.server.tournament import pages as tournament_pages
from emergo.server.tv import http as tv_http
from emergo.server.user import http as user_http
from emergo.server.user import pages as user_pages
from emergo.server.watch import http as watch_http
from emergo.server.watch import pages as watch_pages

STATIC = Path(__file__).with_name("static")
"""The front end: the built bundle, styles, sounds (shipped in the package, no CDN)."""


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


def player_routes(prefix: str, *extra: Route) -> list[Route]:
    """A player's game routes under ``prefix``: lichess's Board API (``/api/board``) and Bot API
    (``/api/bot``) are the same handlers (:mod:`emergo.server.bots.rules` says who may use
    which); ``extra`` come before the catch-all ``{kind}/{answer}`` and ``{action}`` routes."""
    game = f"{prefix}/game"
    return [
        Route(f"{game}/stream/{{id}}", round_http.board_game_stream, methods=["GET"]),
        Route(f"{game}/{{id}}/move/{{move}}", round_http.board_move, methods=["POST"]),
        Route(f"{game}/{{id}}/chat", chat_http.board_chat_post, methods=["POST"]),
        Route(f"{game}/{{id}}/chat", chat_http.board_chat_get, methods=["GET"]),
        words(
            f"{game}/{{id}}/chat/{{state}}",
            chat_http.board_chat_room,
            ["POST"],
            state={"on", "off"},
        ),
        *extra,
        Route(f"{game}/{{id}}/berserk", tournament_http.board_berserk, methods=["POST"]),
        words(
            f"{game}/{{id}}/swap/{{answer}}", round_http.board_swap, ["POST"], answer={"yes", "no"}
        ),
        words(
            f"{game}/{{id}}/{{kind}}/{{answer}}",
            round_http.board_offer,
            ["POST"],
            kind={"draw", "takeback"},
            answer={"yes", "no"},
        ),
        words(
            f"{game}/{{id}}/{{action}}",
            round_http.board_action,
            ["POST"],
            action={"resign", "abort", "claim-victory", "claim-draw"},
        ),
    ]


ROUTES: list[BaseRoute] = [
    # games first: a route is found by trying each in turn, and a move and its streams are most
    # of the requests (no route above matches their paths, nor these any path above)
    # games: the Board API and the Bot API (the same handlers, emergo.server.bots.rules)
    Route("/api/stream/event", notify_http.event_stream, methods=["GET"]),
    *player_routes(
        "/api/board",
        Route(
            "/api/board/game/{id}/conditional",
            correspondence_http.conditional,
            methods=["GET", "POST"],
        ),
    ),
    Route("/api/bot/account/upgrade", bots_http.upgrade, methods=["POST"]),
    Route("/api/bot/online", bots_http.online_bots, methods=["GET"]),
    Route("/api/token/test", bots_http.token_test, methods=["POST"]),
    *player_routes("/api/bot"),
    Route("/api/stream/game/{id}", round_http.spectator_stream, methods=["GET"]),
    # pages
    Route("/", lobby_pages.lobby, methods=["GET"]),
    Route("/signup", user_pages.signup_page, methods=["GET"]),
    Route("/signup", user_pages.signup_post, methods=["POST"]),
    Route("/login", user_pages.login_page, methods=["GET"]),
    Route("/login", user_pages.login_post, methods=["POST"]),
    Route("/logout", user_pages.logout_post, methods=["POST"]),
    Route("/account", user_pages.account_page, methods=["GET"]),
    Route("/account/token/{token_id}/revoke", user_pages.token_revoke_post, methods=["POST"]),
    words(
        "/account/{action}",
        user_pages.account_post,
        ["POST"],
        action={"password", "delete", "token"},
    ),
    Route("/challenge/{id}", challenge_pages.challenge_page, methods=["GET"]),
    Route("/challenge/{id}/accept", challenge_pages.challenge_accept_post, methods=["POST"]),
    Route("/game/{id}", round_pages.game, methods=["GET"]),
    Route("/game/{id}/analysis", analysis_pages.game_analysis, methods=["GET"]),
    Route("/analysis", analysis_pages.analysis_page, methods=["GET"]),
    Route("/@/{username}", user_pages.profile, methods=["GET"]),
    Route("/leaderboard", user_pages.leaderboards, methods=["GET"]),
    Route("/leaderboard/{perf}", user_pages.leaderboard, methods=["GET"]),
    Route("/games", archive_pages.archive, methods=["GET"]),
    Route("/watch", watch_pages.watch_page, methods=["GET"]),
    Route("/notifications", notify_pages.notifications, methods=["GET"]),
    Route("/notifications/read", notify_pages.notifications_read, methods=["POST"]),
    Route("/account/notifications", notify_pages.settings, methods=["GET"]),
    words(
        "/account/notifications/{action}",
        notify_pages.settings_post,
        ["POST"],
        action={"mail", "vacation-start", "vacation-stop"},
    ),
    Route("/game/{id}/conditional", correspondence_pages.conditional_post, methods=["POST"]),
    Route("/game/export/{id}", archive_http.game_export, methods=["GET"]),
    Route("/study", study_pages.studies_page, methods=["GET"]),
    Route("/study", study_pages.study_create_post, methods=["POST"]),
    Route("/study/{id}.egn", study_http.study_export, methods=["GET"]),
    Route("/study/{id}/{chapter}.egn", study_http.chapter_export, methods=["GET"]),
    Route("/study/{id}", study_pages.study_page, methods=["GET"]),
    Route("/study/{id}/{chapter}", study_pages.study_page, methods=["GET"]),
    # tournaments (issue 30)
    Route("/tournament", tournament_pages.tournaments_page, methods=["GET"]),
    Route("/tournament/new", tournament_pages.tournament_new_post, methods=["POST"]),
    Route("/tournament/{id}", tournament_pages.tournament_page, methods=["GET"]),
    words(
        "/tournament/{id}/{action}",
        tournament_pages.event_post,
        ["POST"],
        action={"join", "withdraw"},
    ),
    Route("/swiss/{id}.trf", tournament_http.swiss_trf, methods=["GET"]),
    Route("/swiss/{id}", tournament_pages.swiss_page, methods=["GET"]),
    words(
        "/swiss/{id}/{action}", tournament_pages.event_post, ["POST"], action={"join", "withdraw"}
    ),
    Route("/learn", learn_pages.course_map, methods=["GET"]),
    Route("/learn/{stage}/{level}", learn_pages.level_page, methods=["GET"]),
    # puzzles (issue 29)
    Route("/training", puzzle_pages.training, methods=["GET"]),
    Route("/training/dashboard", puzzle_pages.dashboard, methods=["GET"]),
    Route("/training/replay", puzzle_pages.replay, methods=["GET"]),
    Route("/training/daily", puzzle_pages.training, methods=["GET"]),
    Route("/training/{id}", puzzle_pages.training, methods=["GET"]),
    Route("/storm", puzzle_pages.storm, methods=["GET"]),
    Route("/players", people_pages.players_page, methods=["GET"]),
    # accounts
    Route("/api/account", user_http.account, methods=["GET"]),
    Route("/api/account/playing", user_http.playing, methods=["GET"]),
    Route("/api/account/email", user_http.account_email, methods=["GET"]),
    Route("/api/account/tokens", user_http.tokens_list, methods=["GET"]),
    Route("/api/account/tokens", user_http.token_create, methods=["POST"]),
    Route("/api/account/tokens/{token_id}/revoke", user_http.token_revoke, methods=["POST"]),
    Route("/api/account/notifications", notify_http.notifications, methods=["GET"]),
    Route("/api/account/notifications/read", notify_http.notifications_read, methods=["POST"]),
    Route("/api/account/preferences", notify_http.preferences, methods=["GET", "POST"]),
    Route("/api/account/preferences/bots", bots_http.bot_prefs, methods=["GET", "POST"]),
    Route("/api/account/vacation", correspondence_http.vacation, methods=["GET"]),
    words(
        "/api/account/vacation/{action}",
        correspondence_http.vacation_post,
        ["POST"],
        action={"start", "stop"},
    ),
    Route("/api/user/{username}", user_http.user_public, methods=["GET"]),
    Route("/api/users", user_http.users_by_id, methods=["POST"]),
    Route("/api/users/status", user_http.users_status, methods=["GET"]),
    Route("/api/user/{username}/rating-history", user_http.rating_history, methods=["GET"]),
    Route("/api/player/top/{nb}/{perf}", user_http.leaderboard, methods=["GET"]),
    Route("/api/games/user/{username}", archive_http.games_of_user, methods=["GET"]),
    Route("/api/games/search", archive_http.games_search, methods=["GET"]),
    Route("/api/games/live", watch_http.live_api, methods=["GET"]),
    # challenges and the lobby
    Route("/api/challenge", challenge_http.challenges_mine, methods=["GET"]),
    Route("/api/challenge/open", challenge_http.challenge_open, methods=["POST"]),
    Route("/api/challenge/ai", bots_http.challenge_ai, methods=["POST"]),
    Route("/api/challenge/{id}/show", challenge_http.challenge_show, methods=["GET"]),
    words(
        "/api/challenge/{id}/{action}",
        challenge_http.challenge_answer,
        ["POST"],
        action={"accept", "decline", "cancel"},
    ),
    Route("/api/challenge/{username}", challenge_http.challenge_create, methods=["POST"]),
    Route("/api/tournament", tournament_http.tournaments, methods=["GET"]),
    Route("/api/tournament", tournament_http.tournament_create, methods=["POST"]),
    Route("/api/tournament/{id}", tournament_http.tournament_show, methods=["GET"]),
    Route("/api/tournament/{id}/join", tournament_http.tournament_join, methods=["POST"]),
    Route("/api/tournament/{id}/withdraw", tournament_http.tournament_withdraw, methods=["POST"]),
    Route("/api/tournament/{id}/results", tournament_http.tournament_results, methods=["GET"]),
    Route("/api/tournament/{id}/games", tournament_http.tournament_games, methods=["GET"]),
    Route("/api/tournament/{id}/chat", chat_http.event_chat_get, methods=["GET"]),
    Route("/api/tournament/{id}/chat", chat_http.event_chat_post, methods=["POST"]),
    Route("/api/swiss/new", tournament_http.swiss_create, methods=["POST"]),
    Route("/api/swiss/{id}", tournament_http.swiss_show, methods=["GET"]),
    Route("/api/swiss/{id}/join", tournament_http.swiss_join, methods=["POST"]),
    Route("/api/swiss/{id}/withdraw", tournament_http.swiss_withdraw, methods=["POST"]),
    Route("/api/swiss/{id}/results", tournament_http.swiss_results, methods=["GET"]),
    Route("/api/swiss/{id}/games", tournament_http.tournament_games, methods=["GET"]),
    Route("/api/swiss/{id}/chat", chat_http.event_chat_get, methods=["GET"]),
    Route("/api/swiss/{id}/chat", chat_http.event_chat_post, methods=["POST"]),
    Route("/api/lobby/seeks", lobby_http.seeks, methods=["GET"]),
    Route("/api/lobby/seek", lobby_http.seek_create, methods=["POST"]),
    Route("/api/lobby/quick", lobby_http.quick_pairing, methods=["POST"]),
    # players: who is here, follows and blocks, reports, TV (issue 31)
    Route("/api/players/online", people_http.online, methods=["GET"]),
    Route("/api/players/search", people_http.search, methods=["GET"]),
    Route("/api/players/{username}/status", people_http.status, methods=["GET"]),
    words(
        "/api/rel/{kind}",
        relation_http.relation_list,
        ["GET"],
        kind={"following", "blocking"},
    ),
    Route("/api/rel/with/{username}", relation_http.relation_with, methods=["GET"]),
    words(
        "/api/rel/{action}/{username}",
        relation_http.relation_post,
        ["POST"],
        action={"follow", "unfollow", "block", "unblock"},
    ),
    Route("/api/report", report_http.report_post, methods=["POST"]),
    Route("/api/tv", tv_http.tv, methods=["GET"]),
    Route("/api/game/{id}", round_http.game_json, methods=["GET"]),
    Route("/api/hotseat", round_http.hotseat_create, methods=["POST"]),
    Route("/api/geometry", board_http.geometry_json, methods=["GET"]),
    Route("/api/position", board_http.position_json, methods=["GET", "POST"]),
    # the analysis board (emergo.server.analysis)
    Route("/api/move", analysis_http.api_move, methods=["POST"]),
    Route("/api/analyse", analysis_http.api_analyse, methods=["POST"]),
    Route("/api/tablebase", analysis_http.api_tablebase, methods=["GET", "POST"]),
    Route("/api/review", analysis_http.api_review, methods=["POST"]),
    Route("/api/record/import", analysis_http.api_record_import, methods=["POST"]),
    Route("/api/record/export", analysis_http.api_record_export, methods=["POST"]),
    Route("/api/explorer", explorer_http.explorer_json, methods=["GET"]),
    Route("/api/settings", user_http.settings, methods=["GET", "PUT", "POST"]),
    # studies (emergo.server.study)
    Route("/api/study", study_http.study_create, methods=["POST"]),
    Route("/api/study/by/{username}", study_http.studies_by, methods=["GET"]),
    Route("/api/study/{id}.egn", study_http.study_export, methods=["GET"]),
    Route("/api/study/{id}/{chapter}.egn", study_http.chapter_export, methods=["GET"]),
    Route("/api/study/{id}", study_http.study, methods=["GET", "POST", "DELETE"]),
    Route("/api/study/{id}/import", study_http.study_import, methods=["POST"]),
    Route("/api/study/{id}/{chapter}", study_http.chapter, methods=["GET", "POST", "DELETE"]),
    # the course of /learn
    Route("/api/learn", learn_http.learn, methods=["GET"]),
    Route("/api/learn/judge", learn_http.judge, methods=["POST"]),
    Route("/api/learn/progress", learn_http.progress, methods=["GET", "POST"]),
    Route("/api/learn/practice", learn_http.practice, methods=["POST"]),
    # puzzles (issue 29)
    Route("/api/puzzle/daily", puzzle_http.daily, methods=["GET"]),
    Route("/api/puzzle/next", puzzle_http.next_puzzle, methods=["GET"]),
    Route("/api/puzzle/activity", puzzle_http.activity, methods=["GET"]),
    Route("/api/puzzle/dashboard/{days}", puzzle_http.dashboard, methods=["GET"]),
    Route("/api/puzzle/replay/{days}/{theme}", puzzle_http.replay, methods=["GET"]),
    Route("/api/puzzle/batch", puzzle_http.batch, methods=["POST"]),
    Route("/api/puzzle/{id}", puzzle_http.show, methods=["GET"]),
    Route("/api/puzzle/{id}/result", puzzle_http.result, methods=["POST"]),
    Route("/api/storm", puzzle_http.storm, methods=["GET"]),
    Route("/api/storm", puzzle_http.storm_result, methods=["POST"]),
    Route("/api/openapi.json", openapi.openapi, methods=["GET"]),
    Route("/api/health", health.health, methods=["GET"]),
    # sockets
    WebSocketRoute("/ws/game/{id}", round_socket.game_socket),
    WebSocketRoute("/ws/lobby", lobby_socket.lobby_socket),
    WebSocketRoute("/ws/site", notify_socket.site_socket),
    WebSocketRoute("/ws/analyse", analysis_socket.analyse_socket),
    WebSocketRoute("/ws/review", analysis_socket.review_socket),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]
"""Every route of the site."""
