"""The analysis board's page: ``/analysis`` (a position: ``?pos=R22&moves=...``), a game's
analysis (``/game/{id}/analysis``: its moves, clocks and result, from its record), in the site's
frame; ``frontend/src/page/analysis-page.js`` fills it from the JSON and socket API.

The page's layout is ``page.html`` beside this module.  Every value written into the HTML is
escaped; the page works for everyone (signed out too), the engine's lines where the site runs
them (``[analysis] engine``).
"""

from __future__ import annotations

import asyncio
from html import escape as e
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

from emergo.levels import LEVEL_MAX
from emergo.server.core.auth import Actor, actor_of, site_of
from emergo.server.core.frame import data_attributes, document, page
from emergo.server.round.service import GameView
from emergo.server.site import Site

LAYOUT = (Path(__file__).with_name("page.html")).read_text(encoding="utf-8")
"""The analysis board's layout: the toolbar, the board, the panels."""


def _levels(levels: tuple[int, ...]) -> str:
    chosen = 3 if 3 in levels else (levels[0] if levels else 0)
    return "".join(
        f'<option value="{n}"{" selected" if n == chosen else ""}>{n}</option>' for n in levels
    )


def house_levels(site: Site) -> tuple[int, ...]:
    """The levels the site's house bots play (the computer a game from here is against); none
    when the site runs no house bot (in a worker thread)."""
    if not site.config.bots.house_bots:
        return ()
    house = site.bots.house()
    return tuple(n for n in site.config.bots.levels if n in house and 1 <= n <= LEVEL_MAX)


def board_page(
    title: str,
    actor: Actor | None,
    engine: bool,
    *,
    panel: str = "",
    current: str = "/analysis",
    levels: tuple[int, ...] = (),
    **more: str,
) -> Response:
    """The analysis board's page: the layout with ``panel`` (HTML, escaped by the caller) first
    in the side column, the house bots' ``levels`` to play from here, ``more`` as the
    controller's data attributes."""
    data = data_attributes(actor, engine="1" if engine else "", ai="1" if levels else "", **more)
    body = (
        LAYOUT.replace("{data}", data)
        .replace("{levels}", _levels(levels))
        .replace("{study}", panel)
    )
    return document(title, body, actor, script="analysis", kind="app", current=current)


async def analysis_page(request: Request) -> Response:
    """``/analysis``: the analysis board on a position (``?pos=&moves=``, the start by default)."""
    actor = await actor_of(request)
    site = site_of(request)
    levels = await asyncio.to_thread(house_levels, site)
    return board_page("Analysis board", actor, site.analysis.engine, levels=levels)


def analysable(game: GameView) -> bool:
    """Whether a game may be analysed now: once it is over, or a hot-seat game at any time (two
    people at one screen have no opponent to help against); never a game between two players
    while it goes on (lichess's rule: no engine during a game)."""
    return game.state.is_over or game.seats.hotseat


async def game_analysis(request: Request) -> Response:
    """``/game/{id}/analysis``: the analysis board on a game of the site (its record: moves,
    clocks, tags and result), once it is over (:func:`analysable`)."""
    actor = await actor_of(request)
    site = site_of(request)
    found = await asyncio.to_thread(site.rounds.get, request.path_params["id"])
    if found is None:
        return page("No such game", "<p>There is no game with this address.</p>", actor, 404)
    if not analysable(found):
        body = (
            "<p>This game is in progress: it can be analysed when it is over.</p>"
            f'<p><a class="button" href="/game/{e(found.id)}">Back to the game</a></p>'
        )
        return page("Not during the game", body, actor, 403)
    title = f"Analysis: {found.seats.white} – {found.seats.black}"
    levels = await asyncio.to_thread(house_levels, site)
    return board_page(title, actor, site.analysis.engine, levels=levels, game=found.id)
