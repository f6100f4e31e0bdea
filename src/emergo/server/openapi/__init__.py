"""The OpenAPI 3.1 description of the online site's HTTP API, served at ``/api/openapi.json``.

Written by hand next to the routes (:mod:`emergo.server.routes`), of the pieces in
:mod:`.schema`, the tournaments' part in :mod:`.events` and the players' in :mod:`.players`;
tests/site/core/test_openapi.py checks that every API route is described and the fuzz test
(schemathesis) sends requests built from it.  The bot issue checks its Bot API against it too.
"""

from __future__ import annotations

from typing import Any, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.geometry import VARIANTS
from emergo.server.explorer import http as explorer
from emergo.server.learn import http as learn
from emergo.server.openapi.events import tournament_paths
from emergo.server.openapi.players import players_paths
from emergo.server.openapi.schema import ANY, AUTH, CLOCKS, OK, TERMS, op, path_id, query, responses
from emergo.server.puzzle import http as puzzle
from emergo.server.study import http as study
from emergo.server.user.perfs import PERF_KEYS, SPEEDS
from emergo.server.user.tokens import SCOPES

_LINE: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pos": {"type": "string", "description": "a position (R22); default the start"},
        "moves": {
            "description": "moves after it: a list of move texts or one string of them",
            "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
        },
        "names": {"type": "string", "enum": ["oblique", "checker"]},
    },
}


def _analysis() -> dict[str, Any]:
    """The analysis board's routes (emergo.server.analysis): open to everyone."""

    def line(**more: Any) -> dict[str, Any]:
        return {**_LINE, "properties": {**_LINE["properties"], **more}}

    seconds = {"type": "number", "exclusiveMinimum": 0}
    return {
        "/api/move": {
            "post": op(
                "read a move text against a position: the move and the position after it",
                body=line(text={"type": "string", "maxLength": 200}),
                ok=ANY,
                codes=[400, 413, 415, 429],
                public=True,
            )
        },
        "/api/analyse": {
            "post": op(
                "the engine's lines of a position, bounded by the site's [analysis]",
                body=line(
                    multipv={"type": "integer", "minimum": 1},
                    time=seconds,
                    depth={"type": "integer", "minimum": 1},
                ),
                ok=ANY,
                codes=[400, 403, 413, 415, 429],
                public=True,
            )
        },
        "/api/tablebase": {
            method: op(
                "the endgame tables' value of a position and of each move",
                params=[]
                if method == "post"
                else [
                    {"name": "pos", "in": "query", "required": False, "schema": {"type": "string"}},
                    {
                        "name": "moves",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string"},
                    },
                ],
                body=_LINE if method == "post" else None,
                ok=ANY,
                codes=[400, 413, 415, 429],
                public=True,
            )
            for method in ("get", "post")
        },
        "/api/review": {
            "post": op(
                "the engine's review of a line: every move's loss and mark, the annotated record",
                body=line(time=seconds),
                ok=ANY,
                codes=[400, 403, 413, 415, 429],
                public=True,
            )
        },
        "/api/record/import": {
            "post": op(
                "read a record's games (docs/records.md): each game's main line and its tree",
                body={
                    "type": "object",
                    "properties": {
                        "text": {"type": "string"},
                        "names": _LINE["properties"]["names"],
                    },
                    "required": ["text"],
                },
                ok=ANY,
                codes=[400, 413, 415],
                public=True,
            )
        },
        "/api/record/export": {
            "post": op(
                "a tree (the record's JSON form) or a line with tags, comments and marks by ply, "
                "as a record",
                body=line(
                    tags={"type": "object"},
                    comments={"type": "object"},
                    marks={"type": "object"},
                    tree={"type": "object", "description": "docs/records.md, JSON"},
                ),
                ok=ANY,
                codes=[400, 413, 415],
                public=True,
            )
        },
    }


def describe() -> dict[str, Any]:
    """The OpenAPI document."""
    game = [path_id()]
    board = "board:play"
    stream = {"type": "string", "description": "NDJSON: one JSON object a line"}
    paths: dict[str, Any] = {
        "/api/account": {"get": op("who you are", ok=ANY, codes=[401, 403])},
        "/api/account/playing": {
            "get": op("your games in progress, your turn first", ok=ANY, codes=[401, 403])
        },
        "/api/account/email": {
            "get": op(
                "your e-mail address (null when none)",
                ok={"type": "object", "properties": {"email": {"type": ["string", "null"]}}},
                codes=[401, 403],
                scope="email:read",
            )
        },
        "/api/challenge": {
            "get": op("your open challenges", ok=ANY, codes=[401, 403], scope="challenge:read")
        },
        "/api/challenge/open": {
            "post": op(
                "an invitation link",
                body=TERMS,
                ok=ANY,
                scope="challenge:write",
            )
        },
        "/api/challenge/{username}": {
            "post": op(
                "challenge a player",
                params=[path_id("username")],
                body=TERMS,
                ok=ANY,
                scope="challenge:write",
            )
        },
        "/api/challenge/{id}/show": {
            "get": op("a challenge", params=[path_id()], ok=ANY, codes=[401, 404], public=True)
        },
        "/api/challenge/{id}/accept": {
            "post": op("accept a challenge", params=[path_id()], scope="challenge:write")
        },
        "/api/challenge/{id}/decline": {
            "post": op(
                "decline a challenge",
                params=[path_id()],
                body={
                    "type": "object",
                    "properties": {
                        "reason": {
                            "type": "string",
                            "description": "one of lichess's keys (any case): generic, later, "
                            "tooFast, tooSlow, timeControl, rated, casual, standard, variant, "
                            "noBot, onlyBot",
                        }
                    },
                },
                scope="challenge:write",
            )
        },
        "/api/challenge/{id}/cancel": {
            "post": op("cancel your challenge", params=[path_id()], scope="challenge:write")
        },
        "/api/lobby/seeks": {"get": op("the lobby's open seeks", ok=ANY, codes=[401], public=True)},
        "/api/lobby/seek": {
            "post": op("seek a game in the lobby", body=TERMS, ok=ANY, scope="challenge:write")
        },
        "/api/stream/event": {
            "get": op(
                "your events (NDJSON, endless)",
                ok=stream,
                codes=[401, 403],
                kind="application/x-ndjson",
                scope="challenge:read",
            )
        },
        "/api/board/game/stream/{id}": {
            "get": op(
                "your game (NDJSON)",
                params=game,
                ok=stream,
                codes=[401, 403, 404],
                kind="application/x-ndjson",
                scope=board,
            )
        },
        "/api/stream/game/{id}": {
            "get": op(
                "watch a game (NDJSON)",
                params=game,
                ok=stream,
                codes=[401, 404],
                kind="application/x-ndjson",
                public=True,
            )
        },
        "/api/board/game/{id}/move/{move}": {
            "post": op(
                "play a move (any R21 text the parser takes)",
                params=[
                    *game,
                    path_id("move", "the move"),
                    {
                        "name": "offeringDraw",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "boolean"},
                    },
                ],
                scope=board,
            )
        },
        "/api/board/game/{id}/chat": {
            "post": op(
                "say something",
                params=game,
                body={
                    "type": "object",
                    "properties": {
                        "room": {"type": "string", "enum": ["player", "spectator"]},
                        "text": {"type": "string", "maxLength": 140},
                    },
                    "required": ["text"],
                },
                scope=board,
            ),
            "get": op(
                "the chat you may read",
                params=game,
                ok={"type": "array"},
                codes=[401, 404],
                public=True,
            ),
        },
        "/api/game/{id}": {
            "get": op("a game (gameFull)", params=game, ok=ANY, codes=[401, 404], public=True)
        },
        "/api/geometry": {
            "get": op(
                "a board's squares (the board component's)",
                params=[
                    {
                        "name": "variant",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string", "enum": list(VARIANTS)},
                        "description": "9x9 (default), 7x7 or hex",
                    }
                ],
                ok=ANY,
                codes=[400, 429],
                public=True,
            )
        },
        "/api/position": {
            "get": op(
                "a position's pieces, hands and legal moves as routes (the board's)",
                params=[
                    {
                        "name": name,
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string", "maxLength": length},
                        "description": description,
                    }
                    for name, length, description in (
                        ("pos", 2000, "an R22 position (default: the 9x9 start)"),
                        ("moves", 8000, "move texts separated by spaces, played from pos"),
                    )
                ],
                ok=ANY,
                codes=[400, 429],
                public=True,
            ),
            "post": op(
                "the same for a long line, with the board's squares (the analysis board's)",
                body=_LINE,
                ok=ANY,
                codes=[400, 413, 415, 429],
                public=True,
            ),
        },
        **learn.openapi_paths(),
        **puzzle.openapi_paths(),
        **study.openapi_paths(),
        **tournament_paths(),
        **_analysis(),
        **explorer.openapi_paths(),
        "/api/hotseat": {
            "post": op(
                "a hot-seat game: you hold both seats (two people at one screen), never rated",
                body=TERMS,
                ok=ANY,
                scope=board,
            )
        },
        "/api/settings": {
            "get": op(
                "your board preferences (view, names, theme, sound ...)",
                ok=ANY,
                codes=[401, 403],
                scope="preference:read",
            ),
            "put": op(
                "change some of your board preferences",
                body={"type": "object"},
                ok=ANY,
                scope="preference:write",
            ),
            "post": op(
                "change some of your board preferences (as PUT)",
                body={"type": "object"},
                ok=ANY,
                scope="preference:write",
            ),
        },
        "/game/export/{id}": {"get": _export_op(game)},
    }
    for action in ("resign", "abort", "claim-victory", "claim-draw"):
        paths[f"/api/board/game/{{id}}/{action}"] = {
            "post": op(f"{action} (your game)", params=game, scope=board)
        }
    for kind in ("draw", "takeback"):
        for answer in ("yes", "no"):
            paths[f"/api/board/game/{{id}}/{kind}/{answer}"] = {
                "post": op(f"{kind}: {answer}", params=game, scope=board)
            }
    for answer, does in (("yes", "take White's side"), ("no", "play on as Black")):
        paths[f"/api/board/game/{{id}}/swap/{answer}"] = {
            "post": op(
                f"the swap rule: {does} (Black, when the swap is due)", params=game, scope=board
            )
        }
    paths["/api/board/game/{id}/berserk"] = {
        "post": op(
            "berserk: half your clock, a point more for a win (an arena game, before your move)",
            params=game,
            scope=board,
        )
    }
    for state in ("on", "off"):
        paths[f"/api/board/game/{{id}}/chat/{state}"] = {
            "post": op(f"the players' chat {state}", params=game, scope=board)
        }
    paths.update(_issue_21(game))
    paths.update(players_paths(op, TERMS))  # issue 31
    paths.update(_bot_api(paths))
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Emergo online",
            "version": "1",
            "description": "The Board API, shaped as lichess's (docs/online.md lists the "
            f"differences). Token scopes: {', '.join(SCOPES)}.",
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "paths": paths,
    }


def _export_op(game: list[dict[str, Any]]) -> dict[str, Any]:
    """``GET /game/export/{id}``: the record, or with ``Accept: application/json`` lichess's game
    object (issue 27)."""
    out = op(
        "a game's record, each move's clock as [%clk]; lichess's game JSON with Accept: "
        "application/json",
        params=[*game, CLOCKS],
        ok={"type": "string"},
        codes=[400, 401, 404],
        kind="application/x-emergo-record",
        public=True,
    )
    out["responses"]["200"]["content"]["application/json"] = {"schema": {"type": "object"}}
    return out


def _bot_api(paths: dict[str, Any]) -> dict[str, Any]:
    """Issue 20: the Bot API (the Board API's game routes for bot accounts, scope bot:play),
    the upgrade, a person's answer to bots, and "play the computer"."""
    out: dict[str, Any] = {}
    for path, ops in paths.items():
        if not path.startswith("/api/board/game/") or path.endswith("/conditional"):
            continue
        twin = {}
        for method, board_op in ops.items():
            bot_op = dict(board_op)
            bot_op["summary"] = bot_op["summary"] + " (a bot account)"
            bot_op["security"] = [{"bearer": ["bot:play"]}]
            answers = dict(bot_op["responses"])
            for code in ("401", "403"):
                answers.setdefault(code, responses(OK, int(code))[code])
            bot_op["responses"] = answers
            twin[method] = bot_op
        out[path.replace("/api/board/", "/api/bot/")] = twin
    bools = {"type": "object", "properties": {"accept": {"type": "boolean"}}}
    out["/api/bot/account/upgrade"] = {
        "post": op("make this account a bot account (for good; before any game)", scope="bot:play")
    }
    out["/api/bot/online"] = {
        "get": op(
            "the bot accounts online now (their event stream open): NDJSON, one user a line",
            params=[query("nb", {"type": "integer", "minimum": 1, "maximum": 100}, "at most")],
            ok={"type": "string", "description": "NDJSON: one JSON object a line"},
            codes=[400, 401, 429],
            kind="application/x-ndjson",
            public=True,
        )
    }
    out["/api/token/test"] = {
        "post": {
            **op(
                "lichess's token test: each token's userId, scopes (comma-separated) and"
                " expires, or null for one that is unknown or revoked",
                ok={"type": "object", "additionalProperties": {"type": ["object", "null"]}},
                codes=[400, 401, 413, 429],
                public=True,
            ),
            "requestBody": {
                "required": True,
                "content": {
                    "text/plain": {
                        "schema": {
                            "type": "string",
                            "description": "tokens, comma-separated (1 to 100)",
                        }
                    }
                },
            },
        }
    }
    out["/api/account/preferences/bots"] = {
        "get": op("whether bots may play you", ok=bools, codes=[401, 403]),
        "post": op(
            "let bots play you, or not",
            body={**bools, "required": ["accept"]},
            ok=bools,
        ),
    }
    out["/api/challenge/ai"] = {
        "post": op(
            "play the computer: challenge the house bot of a level and wait for its answer",
            body={
                **TERMS,
                "properties": {
                    **cast(dict[str, Any], TERMS["properties"]),
                    "level": {"type": "integer", "minimum": 1, "maximum": 11},
                },
            },
            ok=ANY,
            codes=[*AUTH, 404, 409, 503],
            scope="challenge:write",
        )
    }
    return out


def _archive_params(*, player: bool) -> list[dict[str, Any]]:
    name = {"type": "string", "maxLength": 20}
    day = {"type": "string", "maxLength": 15, "description": "YYYY-MM-DD or milliseconds"}
    params = [
        query("vs", name, "the opponent's name"),
        query("variant", {"type": "string", "enum": list(VARIANTS)}, "the variant"),
        query("speed", {"type": "string", "enum": list(SPEEDS)}, "live or correspondence"),
        query("perfType", {"type": "string", "enum": list(PERF_KEYS)}, "variant and speed"),
        query("rated", {"type": "string", "enum": ["true", "false"]}, "rated or casual"),
        query(
            "result",
            {"type": "string", "enum": ["white", "black", "draw", "aborted"]},
            "how the game ended",
        ),
        query("since", day, "ended at or after"),
        query("until", day, "ended before"),
        query("max", {"type": "string", "pattern": "^[0-9]{1,5}$"}, "at most this many"),
        query(
            "aborted",
            {"type": "string", "enum": ["true", "false"]},
            "aborted games too (left out unless asked for, as lichess)",
        ),
    ]
    if player:
        params.insert(0, query("player", name, "a player's name"))
    return params


def _issue_21(game: list[dict[str, Any]]) -> dict[str, Any]:
    """Ratings, profiles, leaderboards, the archive, notices, mail, vacation and conditional
    moves (:mod:`emergo.server.user.http`)."""
    user = [path_id("username", "a user name")]
    ndjson = {"type": "string", "description": "NDJSON, or records (docs/records.md)"}
    fields = {"type": "object", "properties": {"upTo": {"type": "integer"}}}
    preferences = {
        "type": "object",
        "properties": {
            "email": {"type": "string", "maxLength": 254},
            "mail": {"type": "string", "enum": ["off", "digest", "instant"]},
        },
    }
    lines = {
        "type": "object",
        "properties": {
            "lines": {"type": "array", "items": {"type": "string"}, "maxItems": 100},
        },
    }
    return {
        "/api/user/{username}": {
            "get": op(
                "a user with their ratings (perfs)",
                params=user,
                ok=ANY,
                codes=[401, 404],
                public=True,
            )
        },
        "/api/user/{username}/rating-history": {
            "get": op(
                "a user's rating history",
                params=user,
                ok={"type": "array"},
                codes=[401, 404],
                public=True,
            )
        },
        "/api/player/top/{nb}/{perf}": {
            "get": op(
                "the best players of a rating (no provisional ones)",
                params=[
                    path_id("nb", "how many, 1-200"),
                    path_id("perf", f"one of {', '.join(PERF_KEYS)}"),
                ],
                ok=ANY,
                codes=[400, 401, 404],
                public=True,
            )
        },
        "/api/games/live": {
            "get": op(
                "the games being played now, the one moved last first (the watch list)",
                params=[
                    query("speed", {"type": "string", "enum": list(SPEEDS)}, "live or corr."),
                    query("nb", {"type": "string", "pattern": "^[0-9]{1,3}$"}, "1 to 100"),
                ],
                ok=ANY,
                codes=[400],
                public=True,
            )
        },
        "/api/games/search": {
            "get": op(
                "finished games, newest first",
                params=[
                    *_archive_params(player=True),
                    query("color", {"type": "string", "enum": ["white", "black"]}, "side"),
                    query("before", {"type": "string", "maxLength": 40}, "a page's next"),
                ],
                ok=ANY,
                codes=[400, 401, 404],
                public=True,
            )
        },
        "/api/games/user/{username}": {
            "get": op(
                "a player's finished games: records, or NDJSON (Accept: application/x-ndjson)",
                params=[
                    *user,
                    *_archive_params(player=False),
                    query("color", {"type": "string", "enum": ["white", "black"]}, "side"),
                    CLOCKS,
                ],
                ok=ndjson,
                codes=[400, 401, 404, 429],
                kind="application/x-emergo-record",
                public=True,
            )
        },
        "/api/account/notifications": {
            "get": op("your notices and the unread count", ok=ANY, codes=[401, 403])
        },
        "/api/account/notifications/read": {"post": op("mark your notices read", body=fields)},
        "/api/account/preferences": {
            "get": op("your mail settings", ok=ANY, codes=[401, 403], scope="preference:read"),
            "post": op(
                "change your mail settings",
                body=preferences,
                ok=ANY,
                scope="preference:write",
            ),
        },
        "/api/account/vacation": {
            "get": op("your vacation", ok=ANY, codes=[401, 403]),
        },
        "/api/account/vacation/start": {"post": op("start a vacation", ok=ANY)},
        "/api/account/vacation/stop": {"post": op("end your vacation", ok=ANY)},
        "/api/board/game/{id}/conditional": {
            "get": op(
                "your conditional moves in a game (yours only)",
                params=game,
                ok=ANY,
                codes=[401, 403, 404],
                scope="board:play",
            ),
            "post": op(
                "keep your conditional moves (no lines: none)",
                params=game,
                body=lines,
                ok=ANY,
                scope="board:play",
            ),
        },
    }


async def openapi(request: Request) -> Response:
    return JSONResponse(describe())
