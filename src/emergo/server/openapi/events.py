"""The OpenAPI description of the tournaments' routes (emergo.server.tournament.http,
docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from emergo.geometry import VARIANTS
from emergo.server.challenge.service import DAYS
from emergo.server.openapi.schema import ANY, NDJSON, op, path_id

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
    return out
