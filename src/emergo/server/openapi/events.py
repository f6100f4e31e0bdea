"""The OpenAPI description of the tournaments' routes (emergo.server.tournament.http, and the
events' chat in emergo.server.chat.http; docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from emergo.geometry import VARIANTS
from emergo.server.challenge.service import DAYS
from emergo.server.openapi.schema import ANY, NDJSON, op, path_id, query

EVENT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 60},
        "system": {"type": "string", "enum": ["arena", "robin", "match"], "description": "ours"},
        "clockTime": {"type": "number", "description": "minutes a player"},
        "clockIncrement": {"type": "number", "description": "seconds a move"},
        "clock.limit": {"type": "number", "description": "seconds a player (Swiss)"},
        "clock.increment": {"type": "number"},
        "days": {"type": "integer", "enum": list(DAYS), "description": "a correspondence event"},
        "minutes": {"type": "integer", "minimum": 5, "maximum": 600, "description": "an arena's"},
        "nbRounds": {"type": "integer", "minimum": 3, "maximum": 100, "description": "Swiss"},
        "nbGames": {"type": "integer", "minimum": 1, "maximum": 100, "description": "a match's"},
        "opponent": {"type": "string", "maxLength": 30, "description": "a match's"},
        "startDate": {"type": "number", "description": "milliseconds since the epoch"},
        "startsAt": {"type": "number", "description": "milliseconds since the epoch (Swiss)"},
        "waitMinutes": {"type": "number"},
        "roundInterval": {"type": "number", "description": "seconds; -1: when the last ends"},
        "variant": {"type": "string", "enum": [*VARIANTS, "standard"]},
        "rated": {"type": "boolean"},
        "berserkable": {"type": "boolean"},
        "streakable": {"type": "boolean"},
        "microMatch": {"type": "boolean"},
        "cycles": {"type": "integer", "minimum": 1, "maximum": 2},
        "maxPlayers": {"type": "integer", "minimum": 2, "maximum": 20},
        "start": {"type": "string", "enum": ["none", "ballot", "recommended"]},
        "password": {"type": "string", "maxLength": 60},
        "description": {"type": "string", "maxLength": 400},
    },
}


CHAT_LINE = {
    "type": "object",
    "properties": {"text": {"type": "string", "minLength": 1, "maxLength": 140}},
    "required": ["text"],
}
CHAT_SAID = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}, "id": {"type": "integer"}},
    "required": ["ok", "id"],
}
CHAT_READ = {
    "type": "object",
    "properties": {
        "lines": {"type": "array", "items": {"type": "object"}},
        "removed": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["lines", "removed"],
}


def tournament_paths() -> dict[str, Any]:
    """The tournaments' routes (emergo.server.tournament.http, docs/tournaments.md)."""
    password = {
        "type": "object",
        "properties": {"password": {"type": "string", "maxLength": 60}},
    }
    nb = {
        "name": "nb",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 1, "maximum": 10000},
    }
    since = query("since", {"type": "integer", "minimum": 0}, "the last line's id the reader has")
    wait = query(
        "wait", {"type": "string", "enum": ["true", "false"]}, "wait for a line (a long poll)"
    )
    out: dict[str, Any] = {
        "/api/tournament": {
            "get": op("the arenas, round robins and matches", ok=ANY, codes=[], public=True),
            "post": op("make an arena", body=EVENT, ok=ANY, scope="tournament:write"),
        },
        "/api/swiss/new": {
            "post": op("make a Swiss event", body=EVENT, ok=ANY, scope="tournament:write")
        },
    }
    for prefix in ("/api/tournament", "/api/swiss"):
        out[f"{prefix}/{{id}}"] = {
            "get": op(
                "an event, its standing", params=[path_id()], ok=ANY, codes=[404], public=True
            )
        }
        out[f"{prefix}/{{id}}/join"] = {
            "post": op(
                "join, or come back", params=[path_id()], body=password, scope="tournament:write"
            )
        }
        out[f"{prefix}/{{id}}/withdraw"] = {
            "post": op("withdraw (pause)", params=[path_id()], scope="tournament:write")
        }
        for what, summary in (("results", "the standings"), ("games", "the pairings and games")):
            out[f"{prefix}/{{id}}/{what}"] = {
                "get": op(
                    summary,
                    params=[path_id(), nb] if what == "results" else [path_id()],
                    ok=NDJSON,
                    codes=[400, 404],
                    kind="application/x-ndjson",
                    public=True,
                )
            }
        out[f"{prefix}/{{id}}/chat"] = {
            "get": op(
                "the event's chat: the lines after since, the removed ones; wait=true: a long "
                "poll that answers when a line is said",
                params=[path_id(), since, wait],
                ok=CHAT_READ,
                codes=[400, 404],
                public=True,
            ),
            "post": op(
                "a line in the event's chat (any signed-in account not muted)",
                params=[path_id()],
                body=CHAT_LINE,
                ok=CHAT_SAID,
                codes=[400, 401, 403, 404, 429],
                scope="board:play",
            ),
        }
    return out
