"""The online site's frame (one header on every page) and the shells of its script pages.

Every page of the site has the same head and header: the site's name (a link to the lobby), the
navigation, and who is signed in with *Account* and *Log out* (or *Log in* and *Sign up*).  The
server-rendered forms of :mod:`emergo.web.online_pages` (sign up, log in, the account, an
invitation) are framed by :func:`page`; the lobby (``/``) and the game page (``/game/{id}``)
are shells framed the same way, whose controllers (``static/page/lobby.js``, ``game.js``, built
into ``static/built/``) fill them from the JSON and WebSocket API (docs/online.md).

Every value written into the HTML is escaped (:func:`html.escape`); the controllers write names
and chat with ``textContent`` only.  The navigation shows the pages of other parts of the site
(players, the archive, a player's profile) when their routes exist, so it needs no change when
they come.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable, Iterable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from emergo.online.rounds import GameView
from emergo.online.site import Site
from emergo.web.online_auth import Actor, actor_of, site_of

e = html.escape

NAV = (("/", "Lobby"), ("/watch", "Watch"), ("/leaderboard", "Players"), ("/games", "Archive"))
"""The header's links (path, text), each shown when the site has the route."""
PROFILE = "/@/{username}"
"""A player's page (issue 21): names link to it when the site has the route."""


_paths: frozenset[str] = frozenset()


def know_routes(routes: Iterable[object]) -> None:
    """Tell the frame the site's routes (:mod:`emergo.web.online_app`, once its table is built)."""
    global _paths
    _paths = frozenset(str(getattr(route, "path", "")) for route in routes)


def routes() -> frozenset[str]:
    """The paths of the site's routes."""
    return _paths


def has_profiles() -> bool:
    return PROFILE in routes()


def _name_html(actor: Actor) -> str:
    name = e(actor.user.name)
    bot = '<span class="title">BOT</span> ' if getattr(actor.user, "bot", False) else ""
    if has_profiles():
        return f'{bot}<a class="me" href="/@/{name}">{name}</a>'
    return f'{bot}<span class="me">{name}</span>'


def header(actor: Actor | None, current: str = "") -> str:
    """The site's header: its name, the navigation, the log-in state."""
    present = routes()
    links = "".join(
        f'<a href="{path}"{" aria-current=page" if path == current else ""}>{e(text)}</a>'
        for path, text in NAV
        if path in present
    )
    if actor is not None:
        who = (
            f"{_name_html(actor)}"
            + (
                '<a href="/notifications" id="notifications-link">Notifications'
                '<span class="unread" data-unread hidden></span></a>'
                if "/notifications" in present
                else ""
            )
            + f'<a href="/account"{" aria-current=page" if current == "/account" else ""}>'
            "Account</a>"
            '<form class="inline" method="post" action="/logout">'
            f'<input type="hidden" name="csrf" value="{e(actor.csrf or "")}">'
            '<button type="submit" class="link">Log out</button></form>'
        )
    else:
        who = '<a href="/login">Log in</a><a class="button primary" href="/signup">Sign up</a>'
    # a signed-in page's site-wide channel (static/page/sitewide.js) reads who and the token here
    data = (
        f' data-me="{e(actor.user.name)}" data-csrf="{e(actor.csrf or "")}"'
        if actor is not None and actor.via == "session"
        else ""
    )
    return (
        '<header class="site-top"><a class="brand" href="/">Emergo</a>'
        f'<nav class="site-nav" aria-label="Site">{links}</nav>'
        f'<div class="who"{data}>{who}</div></header>'
    )


def document(
    title: str,
    body: str,
    actor: Actor | None,
    *,
    status: int = 200,
    script: str = "site",
    kind: str = "forms",
    current: str = "",
) -> HTMLResponse:
    """A whole page: the head (styles, the page's script), the header, ``body`` in ``<main>``
    (already escaped by the caller)."""
    text = (
        '<!doctype html>\n<html lang="en" data-theme="light"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{e(title)} · Emergo</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        '<link rel="stylesheet" href="/static/online.css">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        f'<script type="module" src="/static/built/{e(script)}.js"></script></head>'
        f'<body class="online {e(kind)}">{header(actor, current)}{body}</body></html>\n'
    )
    return HTMLResponse(text, status_code=status, headers={"cache-control": "no-store"})


def page(title: str, body: str, actor: Actor | None, status: int = 200) -> HTMLResponse:
    """A server-rendered page (forms): a heading and ``body`` in the site's frame."""
    main = f'<main class="forms"><h1>{e(title)}</h1>{body}</main>'
    current = "/account" if title == "Account" else ""
    return document(title, main, actor, status=status, current=current)


def _data(actor: Actor | None, **more: str) -> str:
    """The data attributes a controller reads: who you are, the session's CSRF token, ..."""
    values = {
        "me": actor.user.name if actor is not None else "",
        "csrf": (actor.csrf or "") if actor is not None else "",
        "profiles": "1" if has_profiles() else "",
        **more,
    }
    return "".join(f' data-{k}="{e(v)}"' for k, v in values.items())


# --- the lobby ------------------------------------------------------------------------------------

_PRESETS = ((1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 20))
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
        f"{computer}</form>"
    )


async def lobby(request: Request) -> Response:
    """``/``: the lobby (static/page/lobby.js fills its lists over ``/ws/online/lobby``)."""
    actor = await actor_of(request)
    ai = "/api/challenge/ai" in routes()  # issue 20's play-the-computer, when the site has it
    levels: tuple[int, ...] = ()
    if ai and actor is not None:  # the levels its house bots play (none: no button)
        site = site_of(request)
        house = await asyncio.to_thread(site.bots.house)
        levels = tuple(n for n in site.config.bots.levels if n in house)
        ai = bool(levels)
    if actor is not None:
        create = _create_form(ai, levels)
        mine = (
            '<section class="panel" id="incoming-panel" aria-labelledby="incoming-title" hidden>'
            '<h2 id="incoming-title">Challenges to you</h2><ul id="incoming" class="list"></ul>'
            "</section>"
            '<section class="panel" id="outgoing-panel" aria-labelledby="outgoing-title" hidden>'
            '<h2 id="outgoing-title">Your challenges</h2><ul id="outgoing" class="list"></ul>'
            "</section>"
            '<section class="panel" aria-labelledby="turn-title"><h2 id="turn-title">Your turn'
            '</h2><ul id="your-turn" class="list"><li class="none">None</li></ul></section>'
            '<section class="panel" aria-labelledby="playing-title"><h2 id="playing-title">'
            'Your games in progress</h2><ul id="playing" class="list"><li class="none">None</li>'
            "</ul></section>"
        )
    else:
        create = (
            '<p><a class="button primary" href="/signup">Sign up</a> or '
            '<a href="/login">log in</a> to post a seek, challenge a player or accept a seek.</p>'
        )
        mine = ""
    body = (
        f'<main class="lobby" id="lobby"{_data(actor, ai="1" if ai else "")}>'
        '<div class="lobby-main">'
        '<section class="panel" aria-labelledby="create-title"><h2 id="create-title">'
        f"Create a game</h2>{create}"
        '<p id="message" class="message" role="alert" aria-live="assertive"></p></section>'
        '<section class="panel seeks-panel" aria-labelledby="seeks-title">'
        '<h2 id="seeks-title">Open challenges</h2>'
        '<table class="seeks"><thead><tr><th>Player</th><th>Variant</th><th>Time</th>'
        '<th>Mode</th><th>Colour</th><th></th></tr></thead><tbody id="seeks">'
        '<tr class="none"><td colspan="6">None yet</td></tr></tbody></table></section></div>'
        f'<div class="lobby-side">{mine}</div></main>'
    )
    return document("Lobby", body, actor, script="lobby", kind="app", current="/")


# --- the game page --------------------------------------------------------------------------------

GameExtra = Callable[[Site, GameView, Actor | None], str]
GAME_EXTRAS: list[GameExtra] = []
"""Sections other parts of the site add to the game page's side (issue 21: a finished game's
ratings, a correspondence player's conditional moves): each returns escaped HTML, run in a
worker thread; appended after the chat."""

_GAME = """<section class="board-area" aria-label="Board">
<div class="player" id="player-top"></div>
<div class="board-wrap"><div id="board"></div></div>
<div class="player" id="player-bottom"></div>
<p id="status" class="status" role="status" aria-live="polite"></p>
<p id="expiration" class="expiration" role="timer" hidden></p>
<p id="message" class="message" role="alert" aria-live="assertive"></p>
<div class="nav" role="group" aria-label="Step through the moves">
<button type="button" id="first" title="Start (Home)" aria-label="Start">&#x00AB;</button>
<button type="button" id="back" title="Back (Left arrow)" aria-label="Back">&#x2039;</button>
<button type="button" id="forward" title="Forward (Right arrow)" aria-label="Forward">&#x203A;
</button>
<button type="button" id="last" title="End (End)" aria-label="End">&#x00BB;</button>
<button type="button" id="flip" aria-pressed="false" title="Turn the board round (f)">Flip</button>
<button type="button" id="sound" aria-pressed="true" title="Sounds">Sound</button>
<button type="button" id="theme" aria-pressed="false" title="Light or dark colours">Dark</button>
</div></section>
<aside class="side">
<section class="panel" id="game-panel" aria-labelledby="game-title">
<h2 id="game-title">Game</h2><p id="game-info" class="note"></p>
<div class="asks" aria-live="polite">
<div class="row confirm" id="confirm" role="alertdialog" aria-labelledby="confirm-text" hidden>
<span id="confirm-text"></span><button type="button" id="confirm-yes" class="danger">Yes</button>
<button type="button" id="confirm-no">Cancel</button></div>
<div class="row offer" id="offer" hidden><span id="offer-text"></span>
<button type="button" id="offer-yes" class="primary">Accept</button>
<button type="button" id="offer-no">Decline</button></div>
<div class="row offer" id="claim" hidden><span id="claim-text"></span>
<button type="button" id="claim-victory" class="primary">Claim the win</button>
<button type="button" id="claim-draw">Call it a draw</button></div>
<div class="row offer" id="rematch-offer" hidden><span id="rematch-text"></span>
<button type="button" id="rematch-yes" class="primary">Accept</button>
<button type="button" id="rematch-no">Decline</button></div>
</div>
<div class="row" id="game-controls" hidden>
<button type="button" id="abort" hidden>Abort</button>
<button type="button" id="takeback">Takeback</button>
<button type="button" id="draw">Offer draw</button>
<button type="button" id="resign">Resign</button></div>
<div class="row game-over" id="game-over" hidden><strong id="game-over-text"></strong></div>
<div class="row after" id="after" hidden>
<button type="button" id="rematch" class="primary">Rematch</button>
<a id="new-opponent" class="button" href="/">New opponent</a></div>
<div class="row"><a id="download" class="button" hidden
title="The game's record: open it in emergo's analysis board (emergo serve, then Import)">
Analyse: download the record</a></div>
</section>
<section class="panel" aria-labelledby="moves-title"><h2 id="moves-title">Moves</h2>
<div id="moves" class="moves" role="list"></div><p id="result" class="result"></p></section>
<section class="panel chat" id="chat-panel" aria-labelledby="chat-title">
<h2 id="chat-title">Chat</h2>
<label class="chat-switch" id="chat-switch" hidden><input type="checkbox" id="chat-open" checked>
players' chat on</label>
<ol id="chat-lines" class="chat-lines" aria-live="polite"></ol>
<form id="chat-form" class="row" autocomplete="off" hidden>
<input id="chat-text" type="text" maxlength="140" aria-label="A chat message" spellcheck="true">
<button type="submit">Send</button></form>
<p id="chat-note" class="note"></p>
</section></aside>"""


async def game(request: Request) -> Response:
    """``/game/{id}``: a game for its players and spectators (static/page/game.js)."""
    site = site_of(request)
    actor = await actor_of(request)
    found = await asyncio.to_thread(site.rounds.get, request.path_params["id"])
    if found is None:
        return page("No such game", "<p>There is no game with this address.</p>", actor, 404)
    color = found.seats.color_of(actor.user.id) if actor is not None else None
    you = "" if color is None else ("white" if color else "black")
    title = f"{found.seats.white} – {found.seats.black}"
    extras = "".join([await asyncio.to_thread(extra, site, found, actor) for extra in GAME_EXTRAS])
    side = _GAME.replace("</section></aside>", f"</section>{extras}</aside>") if extras else _GAME
    body = (
        f'<main class="layout game-page" id="game"{_data(actor, game=found.id, you=you)}>'
        f"{side}</main>"
    )
    return document(title, body, actor, script="game", kind="app")
