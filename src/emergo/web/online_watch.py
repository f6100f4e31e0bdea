"""Watching: the games being played now (the player's review, item 22), as a page (``/watch``)
and as JSON (``GET /api/games/live``); each links to the game's page, where a spectator sees
the board, the clocks and the spectators' chat."""

from __future__ import annotations

import asyncio
import html
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from emergo.online.db import now
from emergo.online.perfs import SPEEDS
from emergo.online.rounds import GameView
from emergo.online.watch import MAX_LIVE, live_games
from emergo.web.online_auth import ApiError, actor_of, site_of
from emergo.web.online_json import player
from emergo.web.online_shell import has_profiles
from emergo.web.online_shell import page as _page

e = html.escape
_BOARDS = {"9x9": "9x9", "7x7": "7x7", "hex": "Hex"}


def control_words(time_control: str | None) -> str:
    """A stored time control in a list's words: ``5+3``, ``3 days a move``, ``Unlimited``."""
    if not time_control:
        return "Unlimited"
    if time_control.endswith("d") and time_control[:-1].isdigit():
        days = int(time_control[:-1])
        return f"{days} day{'' if days == 1 else 's'} a move"
    base, _, inc = time_control.partition("+")
    try:
        minutes = float(base) / 60
    except ValueError:
        return time_control
    shown = {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(minutes, f"{minutes:g}")
    return f"{shown}+{inc or 0}"


def live_json(game: GameView, base: str, t: float) -> dict[str, Any]:
    s = game.state
    return {
        "id": game.id,
        "url": f"{base}/game/{game.id}",
        "variant": {"key": game.variant, "name": game.variant},
        "speed": game.speed,
        "rated": game.rated,
        "timeControl": game.time_control,
        "players": {
            "white": {"user": player(game.seats.white, game.seats.white_id)},
            "black": {"user": player(game.seats.black, game.seats.black_id)},
        },
        "plies": len(s.moves),
        "turn": "white" if s.turn else "black",
        "lastMoveAt": int(game.updated * 1000),
        "idleSeconds": max(0, int(t - game.updated)),
    }


def _speed(request: Request) -> str | None:
    speed = request.query_params.get("speed") or None
    if speed is not None and speed not in SPEEDS:
        raise ApiError(f"speed is one of {', '.join(SPEEDS)}")
    return speed


def _limit(request: Request) -> int:
    raw = request.query_params.get("nb", "50")
    if not raw.isdigit() or not 1 <= int(raw[:6]) <= MAX_LIVE:
        raise ApiError(f"nb is a number of games, 1 to {MAX_LIVE}")
    return int(raw)


async def live_api(request: Request) -> Response:
    """``GET /api/games/live`` (``?speed=live|correspondence``, ``?nb=1..100``): the games
    being played, the one moved last first."""
    site = site_of(request)
    games = await asyncio.to_thread(live_games, site.db, _limit(request), _speed(request))
    base = str(request.base_url).rstrip("/")
    t = now()
    return JSONResponse({"games": [live_json(g, base, t) for g in games]})


def _name(name: str) -> str:
    if has_profiles() and name != "(deleted)":
        return f'<a href="/@/{e(name)}">{e(name)}</a>'
    return e(name)


async def watch_page(request: Request) -> Response:
    """``/watch``: the games being played now, each with a link to watch it."""
    site = site_of(request)
    actor = await actor_of(request)
    try:
        speed = _speed(request)
    except ApiError:
        speed = None
    games = await asyncio.to_thread(live_games, site.db, 50, speed)
    rows = "".join(
        f'<tr data-game="{e(g.id)}"><td>{_name(g.seats.white)} – {_name(g.seats.black)}</td>'
        f"<td>{e(_BOARDS.get(g.variant, g.variant))}</td><td>{e(control_words(g.time_control))}"
        f"</td><td>{'Rated' if g.rated else 'Casual'}</td><td>{len(g.state.moves)}</td>"
        f'<td><a class="button" href="/game/{e(g.id)}">Watch</a></td></tr>'
        for g in games
    )
    table = (
        '<table class="watch"><thead><tr><th>Players</th><th>Board</th><th>Time</th>'
        f"<th>Mode</th><th>Moves</th><th></th></tr></thead><tbody>{rows}</tbody></table>"
        if games
        else '<p class="none">Nobody is playing right now. <a href="/">Start a game</a>.</p>'
    )
    tabs = " · ".join(
        f'<a href="/watch{q}"{" aria-current=page" if speed == s else ""}>{t}</a>'
        for q, s, t in (
            ("", None, "All"),
            ("?speed=live", "live", "Live"),
            ("?speed=correspondence", "correspondence", "Correspondence"),
        )
    )
    body = (
        "<p>The games being played now, the one moved last first: open one to watch it "
        f'(the board, the clocks, the spectators\' chat).</p><p class="tabs">{tabs}</p>{table}'
    )
    return _page("Watch", body, actor)
