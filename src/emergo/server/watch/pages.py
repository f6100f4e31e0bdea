"""``/watch``: the games being played now, each with a link to watch it."""

from __future__ import annotations

import asyncio
from html import escape as e

from starlette.requests import Request
from starlette.responses import Response

from emergo.server.core.auth import ApiError, actor_of, site_of
from emergo.server.core.frame import page
from emergo.server.watch.http import BOARD_NAMES, control_words, speed_param
from emergo.server.watch.service import live_games


def _name(name: str) -> str:
    if name != "(deleted)":
        return f'<a href="/@/{e(name)}">{e(name)}</a>'
    return e(name)


async def watch_page(request: Request) -> Response:
    """``/watch``: the games being played now, each with a link to watch it."""
    site = site_of(request)
    actor = await actor_of(request)
    try:
        speed = speed_param(request)
    except ApiError:
        speed = None
    games = await asyncio.to_thread(live_games, site.db, 50, speed)
    rows = "".join(
        f'<tr data-game="{e(g.id)}"><td>{_name(g.seats.white)} – {_name(g.seats.black)}</td>'
        f"<td>{e(BOARD_NAMES.get(g.variant, g.variant))}</td><td>{e(control_words(g.time_control))}"
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
    return page("Watch", body, actor)
