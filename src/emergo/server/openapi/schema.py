"""The pieces every part of the OpenAPI description is made of: an operation (:func:`op`) with
its responses, a path's id, a query parameter, the challenge's terms, the error's shape."""

from __future__ import annotations

from typing import Any

from emergo.server.challenge.service import CLOCK_INCREMENT, CLOCK_LIMIT, COLORS, DAYS

ERROR = {
    "type": "object",
    "properties": {"error": {"type": "string"}},
    "required": ["error"],
}
OK = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
ANY = {"type": "object"}


def path_id(name: str = "id", description: str = "an 8-character id") -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": {"type": "string", "maxLength": 40},
        "description": description,
    }


def responses(ok: dict[str, Any], *codes: int, kind: str = "application/json") -> dict[str, Any]:
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
            "content": {"application/json": {"schema": ERROR}},
        }
    return out


AUTH = [400, 401, 403, 404, 409, 413, 415, 429]
CLOCKS = {
    "name": "clocks",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "enum": ["true", "false"]},
    "description": "each move's [%clk] (lichess's flag)",
}
TERMS = {
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
        "fen": {
            "type": "string",
            "maxLength": 400,
            "description": "a game from this position (R22, our position string): casual",
        },
        "start": {
            "type": "string",
            "maxLength": 20,
            "description": "a fair start the server draws (ours, docs/fair-starts.md): ballot, "
            "handicap (White one man fewer), swap or swap-N (Black may take White's side after "
            "White's first N entries), recommended (the board's); rated games may use it",
        },
    },
}


def body_of(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "required": False,
        "content": {
            "application/json": {"schema": schema},
            "application/x-www-form-urlencoded": {"schema": schema},
        },
    }


def op(
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
    operation: dict[str, Any] = {
        "summary": summary,
        "parameters": params or [],
        "responses": responses(ok or OK, *(codes if codes is not None else AUTH), kind=kind),
    }
    if body is not None:
        operation["requestBody"] = body_of(body)
    if public:
        operation["security"] = [{}, {"bearer": []}]
    else:
        operation["security"] = [{"bearer": [scope] if scope else []}]
    return operation


NDJSON = {"type": "object", "description": "one JSON object a line"}


def query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "schema": schema,
        "description": description,
    }
