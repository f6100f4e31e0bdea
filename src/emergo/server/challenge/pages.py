"""An invitation's page (``/challenge/{id}``): the challenge in words and its *Accept* form."""

from __future__ import annotations

import asyncio
from html import escape as e
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from emergo.server.challenge.service import ChallengeError
from emergo.server.core.auth import (
    actor_of,
    site_of,
)
from emergo.server.core.frame import page
from emergo.server.user.pages import error_html, next_query, session_form

_BOARDS = {"9x9": "the 9x9 board", "7x7": "the small 7x7 board", "hex": "the hexagonal board"}


def _seconds_words(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:g} second{'' if seconds == 1 else 's'}"
    minutes = seconds / 60
    return f"{minutes:g} minute{'' if minutes == 1 else 's'}"


def _time_words(c: Any) -> str:
    """A challenge's time control in words: ``5 minutes each, plus 3 seconds a move``."""
    tc = c.terms.time_control_json()
    if tc["type"] == "clock":
        inc = tc["increment"]
        plus = f", plus {_seconds_words(inc)} a move" if inc else ", no increment"
        return f"{_seconds_words(tc['limit'])} each{plus}"
    if tc["type"] == "correspondence":
        days = tc["daysPerTurn"]
        return f"{days} day{'' if days == 1 else 's'} a move"
    return "no time limit"


def invitation_sentences(c: Any, viewer: str | None) -> str:
    """An invitation or challenge in sentences for its page (escaped HTML paragraphs)."""
    who = e(c.challenger)
    mode = "rated" if c.terms.rated else "casual"
    game = f"a {mode} game of Emergo on {_BOARDS.get(c.terms.variant, e(c.terms.variant))}"
    time = e(_time_words(c))
    mine = viewer is not None and viewer.lower() == c.challenger.lower()
    if c.kind == "direct":
        dest = "you" if viewer is not None and c.dest and viewer.lower() == c.dest.lower() else None
        opening = f"{who} challenges {dest or e(c.dest or 'a player')} to {game}, {time}."
    elif c.kind == "seek":
        opening = f"{who} seeks {game} in the lobby, {time}."
    else:
        opening = (
            f"{who} invites you to {game}, {time}."
            if not mine
            else (f"Your invitation to {game}, {time}.")
        )
    other = "you play" if not mine else "your opponent plays"
    first = "You play" if mine else f"{who} plays"
    if c.terms.color == "random":
        colours = "The colours are drawn at random."
    else:
        own = "White" if c.terms.color == "white" else "Black"
        rest = "Black" if own == "White" else "White"
        colours = f"{first} {own}; {other} {rest}."
    rated = (
        "The result changes both players' ratings."
        if c.terms.rated
        else "The result does not change the ratings."
    )
    status = {
        "created": "It waits for an answer.",
        "accepted": "It was accepted: the game is on.",
        "canceled": f"{who} canceled it.",
        "expired": "It has expired: nobody accepted it in time.",
    }.get(c.status, "")
    if c.status == "declined":
        reason = c.json().get("declineReason", "")
        status = f"It was declined: “{e(reason)}”" if reason else "It was declined."
    return (
        f'<p class="invitation">{opening}</p><p>{colours} {rated}</p><p class="status">{status}</p>'
    )


async def challenge_page(request: Request) -> Response:
    site = site_of(request)
    actor = await actor_of(request)
    challenge = await asyncio.to_thread(site.challenges.get, request.path_params["id"])
    if challenge is None:
        return page("No such challenge", "<p>It may have expired.</p>", actor, 404)
    viewer = actor.user.name if actor is not None else None
    body = invitation_sentences(challenge, viewer)
    if challenge.game_id:
        body += (
            f'<p><a class="button primary" href="/game/{e(challenge.game_id)}">See the game</a></p>'
        )
    elif challenge.status != "created":
        pass
    elif actor is None:
        back = next_query(f"/challenge/{challenge.id}")
        body += (
            f'<p><a class="button primary" href="/login{back}">Log in</a> or '
            f'<a href="/signup{back}">sign up</a> to accept: you come back here.</p>'
        )
    elif challenge.challenger != actor.user.name:
        body += (
            f'<form method="post" action="/challenge/{e(challenge.id)}/accept">'
            f'<input type="hidden" name="csrf" value="{e(actor.csrf or "")}">'
            '<button type="submit">Accept</button></form>'
        )
    else:
        body += "<p>Send this page's address to the player you invite.</p>"
    title = "Invitation" if challenge.kind == "link" else "Challenge"
    return page(title, body, actor)


async def challenge_accept_post(request: Request) -> Response:
    site = site_of(request)
    actor, _fields = await session_form(request)
    try:
        game_id = await asyncio.to_thread(
            site.challenges.accept, request.path_params["id"], actor.user
        )
    except ChallengeError as err:
        return page("Challenge", error_html(str(err)), actor, err.status)
    return RedirectResponse(f"/game/{game_id}", status_code=303)
