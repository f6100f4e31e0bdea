"""The OpenAPI description of what players do to each other and find (issue 31): quick
pairing (emergo.server.lobby), who is here (.people), follows and blocks (.relation), reports
(.report) and TV (.tv); :mod:`emergo.server.openapi` puts it in the one description."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from emergo.server.openapi.schema import ANY, path_id, query
from emergo.server.report.terms import REASONS


def players_paths(op: Callable[..., dict[str, Any]], terms: dict[str, Any]) -> dict[str, Any]:
    """The paths of quick pairing, who is here, follows and blocks, reports and TV; ``op`` makes
    an operation and ``terms`` is a challenge's terms (:mod:`emergo.server.openapi.schema`)."""
    user = [path_id("username", "a user name")]
    users = {
        "type": "object",
        "properties": {"users": {"type": "array", "items": {"type": "object"}}},
        "required": ["users"],
    }
    relation: dict[str, Any] = {
        "type": "object",
        "properties": {
            k: {"type": "boolean"} for k in ("following", "blocking", "followsYou", "blocksYou")
        },
    }
    report = {
        "type": "object",
        "properties": {
            "username": {"type": "string", "maxLength": 30},
            "reason": {"type": "string", "enum": list(REASONS)},
            "text": {"type": "string", "maxLength": 1000},
            "line": {"type": "integer", "minimum": 1, "description": "a chat line's id"},
        },
        "required": ["username", "reason"],
    }
    paths: dict[str, Any] = {
        "/api/lobby/quick": {
            "post": op(
                "quick pairing: join a matching seek at once ({gameId}) or post one ({seek})",
                body=terms,
                ok=ANY,
                scope="challenge:write",
            )
        },
        "/api/users": {
            "post": {
                **op(
                    "public users (as /api/user/{username}) of up to 300 names, unknown ones left"
                    " out",
                    ok={"type": "array", "items": {"type": "object"}},
                    codes=[400, 401, 413, 429],
                    public=True,
                ),
                "requestBody": {
                    "required": True,
                    "content": {
                        "text/plain": {
                            "schema": {
                                "type": "string",
                                "maxLength": 6600,
                                "description": "user names, comma-separated",
                            }
                        }
                    },
                },
            }
        },
        "/api/users/status": {
            "get": op(
                "up to 100 players' statuses: online, playing (playingId with withGameIds)",
                params=[
                    {
                        **query("ids", {"type": "string"}, "user names, comma-separated"),
                        "required": True,
                    },
                    query(
                        "withGameIds",
                        {"type": "string", "enum": ["true", "false", "1", "0"]},
                        "the game each one plays",
                    ),
                ],
                ok={"type": "array", "items": {"type": "object"}},
                codes=[400, 401, 429],
                public=True,
            )
        },
        "/api/players/online": {
            "get": op("the players online now", ok=users, codes=[401], public=True)
        },
        "/api/players/search": {
            "get": op(
                "players whose names start so",
                params=[query("q", {"type": "string", "maxLength": 20}, "the start of a name")],
                ok=users,
                codes=[400, 401],
                public=True,
            )
        },
        "/api/players/{username}/status": {
            "get": op(
                "a player's status: online, and the game he plays now",
                params=user,
                ok=ANY,
                codes=[401, 404],
                public=True,
            )
        },
        "/api/rel/with/{username}": {
            "get": op(
                "what you and a player are to each other",
                params=user,
                ok=relation,
                codes=[401, 403, 404],
                scope="follow:read",
            )
        },
        "/api/report": {
            "post": op("report a player or one chat line of his to the moderators", body=report)
        },
        "/api/tv": {
            "get": op(
                "the best-rated live game now (game: null when none)",
                ok=ANY,
                codes=[401],
                public=True,
            )
        },
    }
    for kind in ("following", "blocking"):
        paths[f"/api/rel/{kind}"] = {
            "get": op(
                f"the players you are {kind}", ok=users, codes=[401, 403], scope="follow:read"
            )
        }
    for action in ("follow", "unfollow", "block", "unblock"):
        paths[f"/api/rel/{action}/{{username}}"] = {
            "post": op(
                f"{action} a player",
                params=user,
                ok={
                    **relation,
                    "properties": {**relation["properties"], "ok": {"type": "boolean"}},
                },
                scope="follow:write",
            )
        }
    return paths
