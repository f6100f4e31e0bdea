"""``/players``: who is here (the players online now, each a link to his page) and the search by
name (``?q=``); the leaderboards are a link away."""

from __future__ import annotations

import asyncio
import html
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from emergo.server.core.auth import actor_of, site_of
from emergo.server.core.frame import page

e = html.escape


def _names(names: list[str], none: str) -> str:
    if not names:
        return f'<p class="none">{e(none)}</p>'
    items = "".join(f'<li><a href="/@/{e(n)}">{e(n)}</a></li>' for n in names)
    return f'<ul class="people">{items}</ul>'


def who_is_here(site: Any, q: str) -> str:
    """The search by name (``q``: the start of a name, its results) and the players online
    now: the top of the Players pages (``/players`` and the leaderboards')."""
    q = q[:20]
    here = site.people.online()
    found = site.people.search(q) if q.strip() else []
    results = (
        f'<section aria-labelledby="found-title"><h2 id="found-title">Players called '
        f"{e(q.strip())}…</h2>{_names(found, 'No player has a name that starts so.')}</section>"
        if q.strip()
        else ""
    )
    return (
        '<form class="search" method="get" action="/players" role="search">'
        '<label>Find a player <input name="q" type="search" autocomplete="off" '
        f'spellcheck="false" value="{e(q)}" placeholder="the start of a name"></label>'
        '<button type="submit">Search</button></form>'
        f"{results}"
        f'<section aria-labelledby="online-title"><h2 id="online-title">Online now ({len(here)})'
        f"</h2>{_names(here, 'Nobody else is here just now.')}</section>"
    )


async def players_page(request: Request) -> Response:
    """``/players``: who is here and the search by name (the leaderboards a link away)."""
    site = site_of(request)
    actor = await actor_of(request)
    top = await asyncio.to_thread(who_is_here, site, request.query_params.get("q", ""))
    body = (
        f"{top}"
        '<p><a href="/leaderboard">The leaderboards</a> · <a href="/watch">Games being played</a>'
        "</p>"
    )
    return page("Players", body, actor)
