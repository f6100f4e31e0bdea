"""The OpenAPI 3.1 description of the online site's HTTP API, served at ``/api/openapi.json``.

Written by hand next to the routes (:mod:`emergo.web.online_app`); tests/online/test_openapi.py
checks that every API route is described and the fuzz test (schemathesis) sends requests built
from it.  The bot issue checks its Bot API against it too.
"""

from __future__ import annotations

from typing import Any, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.geometry import VARIANTS
from emergo.online.challenges import CLOCK_INCREMENT, CLOCK_LIMIT, COLORS, DAYS
from emergo.online.perfs import PERF_KEYS, SPEEDS
from emergo.online.tokens import SCOPES
from emergo.web import online_board

_ERROR = {
    "type": "object",
    "properties": {"error": {"type": "string"}},
    "required": ["error"],
}
_OK = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
_ANY = {"type": "object"}


def _id(name: str = "id", description: str = "an 8-character id") -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": {"type": "string", "maxLength": 40},
        "description": description,
    }


def _responses(ok: dict[str, Any], *codes: int, kind: str = "application/json") -> dict[str, Any]:
    out: dict[str, Any] = {"200": {"description": "done", "content": {kind: {"schema": ok}}}}
    for code in codes:
        out[str(code)] = {
            "description": {
                400: "bad input or refused by the rules",
                401: "no or bad credentials",
                403: "not allowed (scope, not your game or challenge, CSRF)",
                404: "no such thing",
                409: "not now (the game's or challenge's state)",
                413: "body too large",
                415: "body neither JSON nor a form",
                429: "rate limited: see Retry-After",
                503: "not now (the computer did not answer): see Retry-After",
            }[code],
            "content": {"application/json": {"schema": _ERROR}},
        }
    return out


_AUTH = [400, 401, 403, 404, 409, 413, 415, 429]
_TERMS = {
    "type": "object",
    "properties": {
        "variant": {"type": "string", "enum": ["9x9", "7x7", "hex", "standard"]},
        "clock.limit": {"type": "number", "minimum": CLOCK_LIMIT[0], "maximum": CLOCK_LIMIT[1]},
        "clock.increment": {
            "type": "number",
            "minimum": CLOCK_INCREMENT[0],
            "maximum": CLOCK_INCREMENT[1],
        },
        "days": {"type": "integer", "enum": list(DAYS)},
        "rated": {"type": "boolean"},
        "color": {"type": "string", "enum": list(COLORS)},
    },
}


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "required": False,
        "content": {
            "application/json": {"schema": schema},
            "application/x-www-form-urlencoded": {"schema": schema},
        },
    }


def _op(
    summary: str,
    *,
    params: list[dict[str, Any]] | None = None,
    body: dict[str, Any] | None = None,
    ok: dict[str, Any] | None = None,
    codes: list[int] | None = None,
    kind: str = "application/json",
    scope: str | None = None,
    public: bool = False,
) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": summary,
        "parameters": params or [],
        "responses": _responses(ok or _OK, *(codes if codes is not None else _AUTH), kind=kind),
    }
    if body is not None:
        op["requestBody"] = _body(body)
    if public:
        op["security"] = [{}, {"bearer": []}]
    else:
        op["security"] = [{"bearer": [scope] if scope else []}]
    return op


def describe() -> dict[str, Any]:
    """The OpenAPI document."""
    game = [_id()]
    board = "board:play"
    stream = {"type": "string", "description": "NDJSON: one JSON object a line"}
    paths: dict[str, Any] = {
        "/api/account": {"get": _op("who you are", ok=_ANY, codes=[401, 403])},
        "/api/account/playing": {
            "get": _op("your games in progress, your turn first", ok=_ANY, codes=[401, 403])
        },
        "/api/challenge": {
            "get": _op("your open challenges", ok=_ANY, codes=[401, 403], scope="challenge:read")
        },
        "/api/challenge/open": {
            "post": _op(
                "an invitation link",
                body=_TERMS,
                ok=_ANY,
                scope="challenge:write",
            )
        },
        "/api/challenge/{username}": {
            "post": _op(
                "challenge a player",
                params=[_id("username")],
                body=_TERMS,
                ok=_ANY,
                scope="challenge:write",
            )
        },
        "/api/challenge/{id}/show": {
            "get": _op("a challenge", params=[_id()], ok=_ANY, codes=[401, 404], public=True)
        },
        "/api/challenge/{id}/accept": {
            "post": _op("accept a challenge", params=[_id()], scope="challenge:write")
        },
        "/api/challenge/{id}/decline": {
            "post": _op(
                "decline a challenge",
                params=[_id()],
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
            "post": _op("cancel your challenge", params=[_id()], scope="challenge:write")
        },
        "/api/lobby/seeks": {
            "get": _op("the lobby's open seeks", ok=_ANY, codes=[401], public=True)
        },
        "/api/lobby/seek": {
            "post": _op("seek a game in the lobby", body=_TERMS, ok=_ANY, scope="challenge:write")
        },
        "/api/stream/event": {
            "get": _op(
                "your events (NDJSON, endless)",
                ok=stream,
                codes=[401, 403],
                kind="application/x-ndjson",
                scope="challenge:read",
            )
        },
        "/api/board/game/stream/{id}": {
            "get": _op(
                "your game (NDJSON)",
                params=game,
                ok=stream,
                codes=[401, 403, 404],
                kind="application/x-ndjson",
                scope=board,
            )
        },
        "/api/stream/game/{id}": {
            "get": _op(
                "watch a game (NDJSON)",
                params=game,
                ok=stream,
                codes=[401, 404],
                kind="application/x-ndjson",
                public=True,
            )
        },
        "/api/board/game/{id}/move/{move}": {
            "post": _op(
                "play a move (any R21 text the parser takes)",
                params=[
                    *game,
                    _id("move", "the move"),
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
            "post": _op(
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
            "get": _op(
                "the chat you may read",
                params=game,
                ok={"type": "array"},
                codes=[401, 404],
                public=True,
            ),
        },
        "/api/game/{id}": {
            "get": _op("a game (gameFull)", params=game, ok=_ANY, codes=[401, 404], public=True)
        },
        **online_board.openapi_paths(),
        "/game/export/{id}": {
            "get": _op(
                "a game's record",
                params=game,
                ok={"type": "string"},
                codes=[401, 404],
                kind="application/x-emergo-record",
                public=True,
            )
        },
    }
    for action in ("resign", "abort", "claim-victory", "claim-draw"):
        paths[f"/api/board/game/{{id}}/{action}"] = {
            "post": _op(f"{action} (your game)", params=game, scope=board)
        }
    for kind in ("draw", "takeback"):
        for answer in ("yes", "no"):
            paths[f"/api/board/game/{{id}}/{kind}/{answer}"] = {
                "post": _op(f"{kind}: {answer}", params=game, scope=board)
            }
    for state in ("on", "off"):
        paths[f"/api/board/game/{{id}}/chat/{state}"] = {
            "post": _op(f"the players' chat {state}", params=game, scope=board)
        }
    paths.update(_issue_21(game))
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


def _bot_api(paths: dict[str, Any]) -> dict[str, Any]:
    """Issue 20: the Bot API (the Board API's game routes for bot accounts, scope bot:play),
    the upgrade, a person's answer to bots, and "play the computer"."""
    out: dict[str, Any] = {}
    for path, ops in paths.items():
        if not path.startswith("/api/board/game/") or path.endswith("/conditional"):
            continue
        twin = {}
        for method, op in ops.items():
            op = dict(op)
            op["summary"] = op["summary"] + " (a bot account)"
            op["security"] = [{"bearer": ["bot:play"]}]
            responses = dict(op["responses"])
            for code in ("401", "403"):
                responses.setdefault(code, _responses(_OK, int(code))[code])
            op["responses"] = responses
            twin[method] = op
        out[path.replace("/api/board/", "/api/bot/")] = twin
    bools = {"type": "object", "properties": {"accept": {"type": "boolean"}}}
    out["/api/bot/account/upgrade"] = {
        "post": _op("make this account a bot account (for good; before any game)", scope="bot:play")
    }
    out["/api/account/preferences/bots"] = {
        "get": _op("whether bots may play you", ok=bools, codes=[401, 403]),
        "post": _op(
            "let bots play you, or not",
            body={**bools, "required": ["accept"]},
            ok=bools,
        ),
    }
    out["/api/challenge/ai"] = {
        "post": _op(
            "play the computer: challenge the house bot of a level and wait for its answer",
            body={
                **_TERMS,
                "properties": {
                    **cast(dict[str, Any], _TERMS["properties"]),
                    "level": {"type": "integer", "minimum": 1, "maximum": 11},
                },
            },
            ok=_ANY,
            codes=[*_AUTH, 404, 409, 503],
            scope="challenge:write",
        )
    }
    return out


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }


def _archive_params(*, player: bool) -> list[dict[str, Any]]:
    name = {"type": "string", "maxLength": 20}
    day = {"type": "string", "maxLength": 15, "description": "YYYY-MM-DD or milliseconds"}
    params = [
        _query("vs", name, "the opponent's name"),
        _query("variant", {"type": "string", "enum": list(VARIANTS)}, "the variant"),
        _query("speed", {"type": "string", "enum": list(SPEEDS)}, "live or correspondence"),
        _query("perfType", {"type": "string", "enum": list(PERF_KEYS)}, "variant and speed"),
        _query("rated", {"type": "string", "enum": ["true", "false"]}, "rated or casual"),
        _query(
            "result",
            {"type": "string", "enum": ["white", "black", "draw", "aborted"]},
            "how the game ended",
        ),
        _query("since", day, "ended at or after"),
        _query("until", day, "ended before"),
        _query("max", {"type": "string", "pattern": "^[0-9]{1,5}$"}, "at most this many"),
        _query(
            "aborted",
            {"type": "string", "enum": ["true", "false"]},
            "aborted games too (left out unless asked for, as lichess)",
        ),
    ]
    if player:
        params.insert(0, _query("player", name, "a player's name"))
    return params


def _issue_21(game: list[dict[str, Any]]) -> dict[str, Any]:
    """Ratings, profiles, leaderboards, the archive, notices, mail, vacation and conditional
    moves (:mod:`emergo.web.online_players`)."""
    user = [_id("username", "a user name")]
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
            "get": _op(
                "a user with their ratings (perfs)",
                params=user,
                ok=_ANY,
                codes=[401, 404],
                public=True,
            )
        },
        "/api/user/{username}/rating-history": {
            "get": _op(
                "a user's rating history",
                params=user,
                ok={"type": "array"},
                codes=[401, 404],
                public=True,
            )
        },
        "/api/player/top/{nb}/{perf}": {
            "get": _op(
                "the best players of a rating (no provisional ones)",
                params=[
                    _id("nb", "how many, 1-200"),
                    _id("perf", f"one of {', '.join(PERF_KEYS)}"),
                ],
                ok=_ANY,
                codes=[400, 401, 404],
                public=True,
            )
        },
        "/api/games/live": {
            "get": _op(
                "the games being played now, the one moved last first (the watch list)",
                params=[
                    _query("speed", {"type": "string", "enum": list(SPEEDS)}, "live or corr."),
                    _query("nb", {"type": "string", "pattern": "^[0-9]{1,3}$"}, "1 to 100"),
                ],
                ok=_ANY,
                codes=[400],
                public=True,
            )
        },
        "/api/games/search": {
            "get": _op(
                "finished games, newest first",
                params=[
                    *_archive_params(player=True),
                    _query("color", {"type": "string", "enum": ["white", "black"]}, "side"),
                    _query("before", {"type": "string", "maxLength": 40}, "a page's next"),
                ],
                ok=_ANY,
                codes=[400, 401, 404],
                public=True,
            )
        },
        "/api/games/user/{username}": {
            "get": _op(
                "a player's finished games: records, or NDJSON (Accept: application/x-ndjson)",
                params=[
                    *user,
                    *_archive_params(player=False),
                    _query("color", {"type": "string", "enum": ["white", "black"]}, "side"),
                ],
                ok=ndjson,
                codes=[400, 401, 404],
                kind="application/x-emergo-record",
                public=True,
            )
        },
        "/api/account/notifications": {
            "get": _op("your notices and the unread count", ok=_ANY, codes=[401, 403])
        },
        "/api/account/notifications/read": {"post": _op("mark your notices read", body=fields)},
        "/api/account/preferences": {
            "get": _op("your mail settings", ok=_ANY, codes=[401, 403], scope="preference:read"),
            "post": _op(
                "change your mail settings",
                body=preferences,
                ok=_ANY,
                scope="preference:write",
            ),
        },
        "/api/account/vacation": {
            "get": _op("your vacation", ok=_ANY, codes=[401, 403]),
        },
        "/api/account/vacation/start": {"post": _op("start a vacation", ok=_ANY)},
        "/api/account/vacation/stop": {"post": _op("end your vacation", ok=_ANY)},
        "/api/board/game/{id}/conditional": {
            "get": _op(
                "your conditional moves in a game (yours only)",
                params=game,
                ok=_ANY,
                codes=[401, 403, 404],
                scope="board:play",
            ),
            "post": _op(
                "keep your conditional moves (no lines: none)",
                params=game,
                body=lines,
                ok=_ANY,
                scope="board:play",
            ),
        },
    }


async def openapi(request: Request) -> Response:
    return JSONResponse(describe())
