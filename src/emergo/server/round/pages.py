"""The game page (``/game/{id}``): the shell that ``static/page/game.js`` fills over the game
socket, for the game's players and its spectators.
"""

from __future__ import annotations

import asyncio
from html import escape as e
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from emergo.server.core.auth import actor_of, site_of
from emergo.server.core.frame import CHAT_PANEL, data_attributes, document, page
from emergo.server.correspondence.pages import game_extras
from emergo.server.round.jsonview import you_of
from emergo.server.round.starts import describe, tags_of
from emergo.server.round.swap import pending

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
<button type="button" id="zen" aria-pressed="false"
title="Zen mode: only the board and the clocks (z)">Zen</button>
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
<button type="button" id="resign">Resign</button>
<button type="button" id="hint" hidden
title="The engine's best move here (hot-seat, and casual games against the computer)">Hint
</button></div>
<form id="move-form" class="move-form" autocomplete="off" hidden>
<label for="move-text">Your move</label>
<input id="move-text" type="text" maxlength="60" spellcheck="false" autocapitalize="none"
aria-describedby="move-help"><button type="submit">Play</button>
<small id="move-help">as the move list writes it (c5, b2xd2xd4), or its first and last squares;
press / to type here</small></form>
<div class="row game-over" id="game-over" hidden><strong id="game-over-text"></strong></div>
<div class="row after" id="after" hidden>
<button type="button" id="rematch" class="primary">Rematch</button>
<a id="new-opponent" class="button" href="/">New opponent</a></div>
<div class="row"><a id="analyse-game" class="button" href="/game/{id}/analysis"
title="The analysis board on this game: its moves, clocks and result, the engine's lines">
Analyse</a>
<a id="download" class="button" hidden title="The game's record (docs/records.md)">
Download the record</a></div>
</section>
<section class="panel" aria-labelledby="moves-title"><h2 id="moves-title">Moves</h2>
<div id="moves" class="moves" role="list"></div><p id="result" class="result"></p></section>
{chat}<details class="appearance panel" id="appearance"></details></aside>"""


def start_and_event(site: Any, tags: dict[str, str]) -> str:
    """The game's fair start and its event, in words (issue 30), for the side of its page."""
    out = ""
    start = describe(tags)
    if start is not None:
        out += f'<p class="fair-start">Start: {e(start)}</p>'
    fair = pending(tags)
    if fair is not None and fair.swap is not None:  # Black's choice (round/swap.py, game.js)
        out += (
            f'<div class="row offer" id="swap-offer" data-swap-ply="{fair.swap.ply}" hidden>'
            "<span>The swap rule: take White's side?</span>"
            '<button type="button" id="swap-yes" class="primary">Take White\'s side</button>'
            '<button type="button" id="swap-no">Stay Black</button></div>'
        )
    if "Tournament" in tags:
        event = site.tournaments.get(tags["Tournament"])
        if event is not None:
            number = f" round {tags['Round']}" if "Round" in tags else ""
            out += (
                f'<p class="event-link">Played in <a href="{e(event.path())}">'
                f"{e(event.full_name)}</a>{e(number)}</p>"
            )
    return out


def practice_box(site: Any, tags: dict[str, str]) -> str:
    """A practice level of /learn (issue 28, learn/practice.py): under the game's end, its
    stars and the way back to the lesson and on (game.js fills it in once the game is over)."""
    said = site.practice.links(tags["Learn"]) if "Learn" in tags else None
    if said is None:
        return ""
    after = (
        f'<a class="button primary" id="learn-next" href="{e(said["next_href"])}">'
        f"{e(said['next'])}</a>"
        if said["next_href"]
        else ""
    )
    return (
        f'<div class="learn-after" id="learn-after" data-level="{e(said["level"])}" '
        f'data-stars="{e(said["stars"])}" data-none="{e(said["none"])}" '
        f'data-held="{e(said["held"])}" data-par="{e(said["par"])}" '
        f'data-replay="{e(said["replay"])}" data-stop="{e(said["stop"])}">'
        f'<p class="learn-game">{e(said["game"])}</p>'
        '<p id="learn-stars" aria-live="polite" hidden></p>'
        '<p class="row" id="learn-links" hidden>'
        f'<button type="button" class="button" id="learn-again">{e(said["again"])}</button>'
        f'<button type="button" class="button" id="learn-replay">{e(said["replay"])}</button>'
        f'<a class="button" id="learn-back" href="{e(said["back_href"])}">'
        f"{e(said['back'])}</a>{after}</p></div>"
    )


async def game(request: Request) -> Response:
    """``/game/{id}``: a game for its players and spectators (static/page/game.js)."""
    site = site_of(request)
    actor = await actor_of(request)
    found = await asyncio.to_thread(site.rounds.get, request.path_params["id"])
    if found is None:
        return page("No such game", "<p>There is no game with this address.</p>", actor, 404)
    you = you_of(found, actor.user.id if actor is not None else None) or ""
    title = f"{found.seats.white} – {found.seats.black}"
    # a finished game's ratings, a correspondence player's conditional moves: after the chat
    extras = await asyncio.to_thread(game_extras, site, found, actor)
    tags = await asyncio.to_thread(tags_of, site.db, found.id)
    extras = await asyncio.to_thread(start_and_event, site, tags) + extras
    shell = _GAME.replace("{id}", e(found.id)).replace("{chat}", CHAT_PANEL)
    after = '<div class="row after" id="after" hidden>'
    shell = shell.replace(after, await asyncio.to_thread(practice_box, site, tags) + after)
    appearance = '<details class="appearance panel" id="appearance">'
    side = shell.replace(appearance, f"{extras}{appearance}") if extras else shell
    body = (
        f'<main class="layout game-page" id="game"{data_attributes(actor, game=found.id, you=you)}>'
        f"{side}</main>"
    )
    return document(title, body, actor, script="game", kind="app")
