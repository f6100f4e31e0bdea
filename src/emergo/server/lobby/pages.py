"""The lobby's page (``/``): the create form (seek, challenge, play the computer) and the shell that
``static/page/lobby.js`` fills over ``/ws/lobby``.
"""

from __future__ import annotations

import asyncio
from html import escape as e
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from emergo.server.core.auth import actor_of, site_of
from emergo.server.core.frame import data_attributes, document
from emergo.server.puzzle.pages import daily_panel
from emergo.server.study.pages import study_list_html

_PRESETS = ((1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 20))
QUICK = (
    (1, 0),
    (2, 1),
    (3, 0),
    (3, 2),
    (5, 0),
    (5, 3),
    (10, 0),
    (10, 5),
    (15, 10),
    (30, 0),
    (30, 20),
)
"""lichess's quick pairing grid (minutes + increment); with the days-a-move button last."""


def _quick_grid() -> str:
    """One click seeks, or joins a matching seek at once (``POST /api/lobby/quick``): the
    variant and the mode are the create form's."""
    cells = "".join(
        f'<button type="button" class="quick" data-limit="{m * 60}" data-increment="{i}">'
        f'<span class="tc">{m}+{i}</span><span class="speed">{_speed(m, i)}</span></button>'
        for m, i in QUICK
    )
    days = (
        '<button type="button" class="quick" data-days="3"><span class="tc">3 days</span>'
        '<span class="speed">Correspondence</span></button>'
    )
    return (
        '<section class="panel quick-panel" aria-labelledby="quick-title">'
        '<h2 id="quick-title">Quick pairing</h2>'
        f'<div class="quick-grid" id="quick" role="group" aria-label="Quick pairing">{cells}{days}'
        "</div>"
        '<p class="note" id="quick-note">One click: a game with whoever waits on these terms, '
        "or your seek until someone takes it.</p>"
        '<p id="quick-message" class="message" role="alert" aria-live="assertive"></p></section>'
    )


def _speed(minutes: int, increment: int) -> str:
    """lichess's names of the speeds, from the estimate base + 40 increments."""
    estimate = minutes * 60 + 40 * increment
    for limit, name in ((30, "UltraBullet"), (180, "Bullet"), (480, "Blitz"), (1500, "Rapid")):
        if estimate < limit:
            return name
    return "Classical"


_TV = (
    '<section class="panel tv-panel" id="tv-panel" aria-labelledby="tv-title" hidden>'
    '<h2 id="tv-title"><a href="/watch">Emergo TV</a></h2>'
    '<p class="tv-players" id="tv-players"></p><div id="tv-board" class="tv-board"></div>'
    '<p><a id="tv-watch" class="button" href="/watch">Watch</a></p></section>'
)
"""The best-rated live game now (static/page/lobby.js asks ``/api/tv`` and switches)."""
_DAYS = (1, 2, 3, 5, 7, 10, 14)


def _options(pairs: Any, chosen: str) -> str:
    return "".join(
        f'<option value="{e(str(v))}"{" selected" if str(v) == chosen else ""}>{e(t)}</option>'
        for v, t in pairs
    )


def _create_form(ai: bool, levels: tuple[int, ...] = tuple(range(1, 12))) -> str:
    presets = "".join(
        f'<button type="button" class="preset" data-limit="{m * 60}" data-increment="{i}"'
        f' aria-pressed="{"true" if (m, i) == (5, 3) else "false"}">{m}+{i}</button>'
        for m, i in _PRESETS
    )
    days = _options(((d, f"{d} day{'s' if d > 1 else ''}") for d in _DAYS), "3")
    speeds = (("live", "Live"), ("correspondence", "Correspondence"), ("unlimited", "Unlimited"))
    chosen = 3 if 3 in levels else (levels[0] if levels else 1)
    level_options = _options(((n, f"level {n}") for n in levels), str(chosen))
    computer = (
        '<div class="row computer"><select id="ai-level" aria-label="The computer\'s level">'
        f"{level_options}</select>"
        '<button type="button" id="play-ai">Play the computer</button></div>'
        if ai
        else ""
    )
    return (
        '<form id="terms" class="terms" autocomplete="off">'
        '<div class="row"><label>Variant <select id="variant">'
        f"{_options((('9x9', '9x9'), ('7x7', '7x7'), ('hex', 'Hex')), '9x9')}</select></label>"
        '<label>Time <select id="speed">'
        f"{_options(speeds, 'live')}"
        "</select></label></div>"
        '<div class="row presets" id="presets" role="group" aria-label="Live presets">'
        f"{presets}</div>"
        '<div class="row" id="custom"><label>Minutes <input id="minutes" type="number" min="0.25"'
        ' max="180" step="0.25" value="5"></label><label>Increment <input id="increment"'
        ' type="number" min="0" max="180" step="1" value="3"> s</label></div>'
        f'<div class="row" id="days-row" hidden><label>Days a move <select id="days">{days}'
        "</select></label></div>"
        '<div class="row"><label>Mode <select id="rated">'
        f"{_options((('false', 'Casual'), ('true', 'Rated')), 'false')}</select></label>"
        '<label>Colour <select id="color">'
        f"{_options((('random', 'Random'), ('white', 'White'), ('black', 'Black')), 'random')}"
        "</select></label></div>"
        '<div class="row actions"><button type="button" id="post-seek" class="primary">'
        "Post a seek</button>"
        '<button type="button" id="make-link">Invite a friend (link)</button></div>'
        '<div class="row challenge"><input id="opponent" type="text" maxlength="20"'
        ' placeholder="a player\'s name" aria-label="A player to challenge" spellcheck="false"'
        ' autocomplete="off"><button type="button" id="challenge">Challenge</button></div>'
        f"{computer}"
        '<div class="row hotseat"><button type="button" id="play-hotseat">Play a friend at this'
        " screen (hot-seat)</button></div></form>"
    )


async def lobby(request: Request) -> Response:
    """``/``: the lobby (static/page/lobby.js fills its lists over ``/ws/lobby``)."""
    actor = await actor_of(request)
    ai = True
    if actor is not None:
        # the levels its house bots play (none: no play-the-computer button)
        site = site_of(request)
        house = await asyncio.to_thread(site.bots.house)
        levels = tuple(n for n in site.config.bots.levels if n in house)
        ai = bool(levels)
        create = _create_form(ai, levels) + (
            '<p id="message" class="message" role="alert" aria-live="assertive"></p>'
        )
        quick = _quick_grid()
        # in local mode the front page is the player's desk: his studies beside his games
        studies = (
            await asyncio.to_thread(
                study_list_html, site, actor.user.id, actor, heading="Your studies"
            )
            if site.config.local
            else ""
        )
        # the challenges to you at the top, above the create form (a phone puts them first)
        incoming = (
            '<section class="panel" id="incoming-panel" aria-labelledby="incoming-title" hidden>'
            '<h2 id="incoming-title">Challenges to you</h2><ul id="incoming" class="list"></ul>'
            "</section>"
        )
        mine = (
            '<section class="panel" id="outgoing-panel" aria-labelledby="outgoing-title" hidden>'
            '<h2 id="outgoing-title">Your challenges</h2><ul id="outgoing" class="list"></ul>'
            "</section>"
            '<section class="panel" aria-labelledby="turn-title"><h2 id="turn-title">Your turn'
            '</h2><ul id="your-turn" class="list"><li class="none">None</li></ul></section>'
            '<section class="panel" aria-labelledby="playing-title"><h2 id="playing-title">'
            'Your games in progress</h2><ul id="playing" class="list"><li class="none">None</li>'
            f"</ul></section>{studies}"
        )
    else:
        create = (
            '<p><a class="button primary" href="/signup">Sign up</a> or '
            '<a href="/login">log in</a> to post a seek, challenge a player or accept a seek.</p>'
        )
        mine = incoming = quick = ""
    mine += await asyncio.to_thread(daily_panel, site_of(request))  # issue 29
    body = (
        f'<main class="lobby" id="lobby"{data_attributes(actor, ai="1" if ai else "")}>'
        f'<div class="lobby-main">{incoming}{quick}'
        '<section class="panel" aria-labelledby="create-title"><h2 id="create-title">'
        f"Create a game</h2>{create}</section>"
        '<section class="panel seeks-panel" aria-labelledby="seeks-title">'
        '<h2 id="seeks-title">Open challenges</h2>'
        '<table class="seeks"><thead><tr><th>Player</th><th>Variant</th><th>Time</th>'
        '<th>Mode</th><th>Colour</th><th></th></tr></thead><tbody id="seeks">'
        '<tr class="none"><td colspan="6">None yet</td></tr></tbody></table></section></div>'
        f'<div class="lobby-side">{_TV}{mine}'
        '<details class="appearance panel" id="appearance"></details></div></main>'
    )
    return document("Lobby", body, actor, script="lobby", kind="app", current="/")
