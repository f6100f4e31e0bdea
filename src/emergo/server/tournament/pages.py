"""The tournaments' pages: ``/tournament`` (the events, and a form to make one), an event's page
(``/tournament/{id}``, ``/swiss/{id}``: its countdown, standings, pairings and games, its chat,
join, withdraw and pause), and the forms' posts.  The page works without script; its controller
(``frontend/src/page/event.js``) keeps the standings and the countdown live and takes a player
to their game when a pairing is made.
"""

from __future__ import annotations

import asyncio
from html import escape as e
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from emergo.server.core.auth import Actor, ApiError, actor_of, check_csrf, fields_of, site_of
from emergo.server.core.db import now
from emergo.server.core.frame import (
    CHAT_PANEL,
    data_attributes,
    document,
    hidden_fields,
    player_link,
)
from emergo.server.tournament.event import PAGE_PAIRINGS, Event, Line, Pairing
from emergo.server.tournament.service import TournamentError
from emergo.server.tournament.spec import SpecError, arena_spec, swiss_spec

KIND_WORDS = {"arena": "Arena", "swiss": "Swiss", "robin": "Round robin", "match": "Match"}


def _when(t: float) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(t, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _control(event: Event) -> str:
    if event.days is not None:
        return f"{event.days} day{'s' if event.days != 1 else ''} a move"
    limit = (event.clock_limit or 0) / 60
    return f"{limit:g}+{event.clock_increment or 0:g}"


def _row(event: Event) -> str:
    return (
        f'<tr><td><a href="{e(event.path())}">{e(event.full_name)}</a></td>'
        f"<td>{e(KIND_WORDS[event.kind])}</td><td>{e(event.variant)}</td>"
        f"<td>{e(_control(event))}</td><td>{event.nb_players}</td>"
        f"<td>{e(_when(event.starts_at))}</td></tr>"
    )


async def tournaments_page(request: Request) -> Response:
    """``/tournament``: the events made and to come, and the form to make one."""
    site = site_of(request)
    actor = await actor_of(request)
    listing = await asyncio.to_thread(
        site.tournaments.listing, kinds=("arena", "swiss", "robin", "match")
    )
    sections = []
    for status, title in (
        ("started", "Playing now"),
        ("created", "Starting soon"),
        ("finished", "Finished"),
    ):
        rows = "".join(_row(ev) for ev in listing[status]) or '<tr><td colspan="6">None.</td></tr>'
        sections.append(
            f'<section class="events {status}"><h2>{title}</h2><table class="events">'
            "<thead><tr><th>Event</th><th>System</th><th>Board</th><th>Clock</th>"
            f"<th>Players</th><th>Starts</th></tr></thead><tbody>{rows}</tbody></table></section>"
        )
    form = ""
    if actor is not None and actor.via == "session":
        form = (
            '<section class="new-event"><h2>Make an event</h2>'
            f'<form method="post" action="/tournament/new">{hidden_fields(actor)}'
            '<label>Name <input name="name" maxlength="60" value="My"></label>'
            '<label>System <select name="system"><option value="arena">Arena</option>'
            '<option value="swiss">Swiss</option><option value="robin">Round robin</option>'
            "</select></label>"
            '<label>Board <select name="variant"><option>9x9</option><option>7x7</option>'
            "<option>hex</option></select></label>"
            '<label>Minutes a player <input name="clockTime" value="3" size="4"></label>'
            '<label>Increment <input name="clockIncrement" value="2" size="4"></label>'
            '<label>Arena minutes <input name="minutes" value="45" size="4"></label>'
            '<label>Swiss rounds <input name="nbRounds" value="7" size="4"></label>'
            '<label>Starts in (minutes) <input name="waitMinutes" value="5" size="4"></label>'
            '<label>Start of the games <select name="start"><option value="none">the empty '
            'board</option><option value="ballot">a ballot</option><option value="recommended">'
            "the board's fair start</option></select></label>"
            '<label><input type="checkbox" name="rated" value="true" checked> Rated</label>'
            '<button type="submit">Make it</button></form></section>'
        )
    body = f'<main class="forms events-page"><h1>Tournaments</h1>{"".join(sections)}{form}</main>'
    return document("Tournaments", body, actor)


async def _session_post(request: Request) -> tuple[Actor, dict[str, Any]]:
    fields = await fields_of(request)
    actor = await actor_of(request)
    if actor is None or actor.via != "session":
        raise ApiError("sign in first", 401)
    given = fields.get("csrf") if isinstance(fields.get("csrf"), str) else None
    check_csrf(request, actor, given)
    return actor, fields


async def tournament_new_post(request: Request) -> Response:
    """The form of ``/tournament``: the new event's page."""
    site = site_of(request)
    actor, fields = await _session_post(request)
    fields = {k: v for k, v in fields.items() if k != "csrf"}
    fields.setdefault("rated", "false")
    try:
        spec = swiss_spec(fields) if fields.get("system") == "swiss" else arena_spec(fields)
        event = await asyncio.to_thread(site.tournaments.create, spec, actor.user)
    except (SpecError, TournamentError) as error:
        raise ApiError(str(error), getattr(error, "status", 400)) from None
    return RedirectResponse(event.path(), status_code=303)


def _standings(event: Event, lines: list[Line]) -> str:
    if event.kind == "arena":
        head = "<th>#</th><th>Player</th><th>Rating</th><th>Sheet</th><th>Score</th>"
        rows = "".join(
            f'<tr class="{"fire" if line.fire else ""} {e(line.status)}"><td>{line.rank}</td>'
            f"<td>{player_link(line.name)}{' (paused)' if line.status != 'active' else ''}</td>"
            f'<td>{line.rating}</td><td class="sheet">{e(line.sheet)}</td>'
            f'<td class="score">{int(line.score)}</td></tr>'
            for line in lines
        )
    else:
        ties = "<th>SB</th><th>Buchholz</th>" if event.kind == "swiss" else "<th>SB</th>"
        head = f"<th>#</th><th>Player</th><th>Rating</th><th>Points</th>{ties}"
        rows = "".join(
            f'<tr class="{e(line.status)}"><td>{line.rank}</td><td>{player_link(line.name)}'
            f"{' (withdrawn)' if line.status != 'active' else ''}</td><td>{line.rating}</td>"
            f'<td class="score">{line.score:g}</td>'
            + "".join(f"<td>{value:g}</td>" for value in line.tie_breaks)
            + "</tr>"
            for line in lines
        )
    empty = '<tr><td colspan="6">No one has joined yet.</td></tr>'
    return (
        f'<table class="standings"><thead><tr>{head}</tr></thead>'
        f'<tbody id="standings">{rows or empty}</tbody></table>'
    )


def _pairings(pairings: list[Pairing]) -> str:
    rows = "".join(
        f'<tr class="{e(p.status)}"><td>{p.round or ""}</td><td>{player_link(p.white)}</td>'
        f"<td>{player_link(p.black)}</td><td>"
        + (f'<a href="/game/{e(p.game_id)}">{e(p.result)}</a>' if p.game_id else e(p.result))
        + f"{' (forfeit)' if p.forfeit else ''}</td><td>{e(p.opening or '')}</td></tr>"
        for p in reversed(pairings[-PAGE_PAIRINGS:])
    )
    return (
        '<table class="pairings"><thead><tr><th>Round</th><th>White</th><th>Black</th>'
        f'<th>Game</th><th>Ballot</th></tr></thead><tbody id="pairings">{rows}</tbody></table>'
    )


async def _event_page(request: Request, swiss: bool) -> Response:
    site = site_of(request)
    actor = await actor_of(request)
    event_id = request.path_params["id"]
    try:
        event, players, pairings, lines = await asyncio.to_thread(site.tournaments.view, event_id)
    except TournamentError:
        event = None
    if event is None or (event.kind == "swiss") != swiss:
        body = '<main class="forms"><h1>No such tournament</h1></main>'
        return document("No such tournament", body, actor, status=404)
    t = now()
    me = actor.user.id if actor is not None else None
    mine = players.status.get(me) if me is not None else None
    facts = [
        KIND_WORDS[event.kind],
        event.variant,
        _control(event),
        "rated" if event.rated else "casual",
    ]
    if event.rounds:
        facts.append(f"{event.rounds} {'games' if event.kind == 'match' else 'rounds'}")
    if event.settings.start != "none":
        facts.append(f"start: {event.settings.start}")
    facts += event.settings.entry().describe()
    if event.status == "created":
        clock = f"Starts in {_countdown(event.starts_at, t)}"
    elif event.status == "started" and event.kind == "arena" and event.ends_at:
        clock = f"Ends in {_countdown(event.ends_at, t)}"
    elif event.status == "started":
        clock = f"Round {event.round} of {event.rounds}"
    else:
        clock = "Finished"
    actions = ""
    if actor is not None and actor.via == "session" and event.status != "finished":
        base = event.path()
        code = (
            '<input name="password" placeholder="entry code" size="10">'
            if event.settings.entry().password is not None and mine is None
            else ""
        )
        if mine == "active":
            word = (
                "Pause"
                if event.status == "started" and event.kind in ("arena", "swiss")
                else "Withdraw"
            )
            actions = (
                f'<form method="post" action="{e(base)}/withdraw">{hidden_fields(actor)}'
                f'<button type="submit" class="withdraw">{word}</button></form>'
            )
        else:
            word = "Join" if mine is None else "Come back"
            actions = (
                f'<form method="post" action="{e(base)}/join">{hidden_fields(actor)}{code}'
                f'<button type="submit" class="join">{word}</button></form>'
            )
    creator = f" by {player_link(event.created_by)}" if event.created_by else ""
    trf = f' · <a href="/swiss/{e(event.id)}.trf">TRF</a>' if event.kind == "swiss" else ""
    api = f"/api/swiss/{event.id}" if swiss else f"/api/tournament/{event.id}"
    body = (
        f'<main class="forms event"{data_attributes(actor, event=event.id, api=api)}>'
        f"<h1>{e(event.full_name)}</h1>"
        f'<p class="facts">{e(" · ".join(facts))}{creator}{trf}</p>'
        f'<p class="clock" id="event-clock">{clock}</p>'
        + (
            f'<p class="description">{e(event.settings.description)}</p>'
            if event.settings.description
            else ""
        )
        + f'<div class="actions">{actions}</div>'
        # the chat beside the standings on a desktop, below them on a phone (online.css)
        f'<div class="event-body"><div class="event-tables">'
        f"<h2>Standings</h2>{_standings(event, lines)}"
        f"<h2>Games</h2>{_pairings(pairings)}</div>"
        f'<aside class="event-side">{CHAT_PANEL}</aside></div></main>'
    )
    return document(event.full_name, body, actor, script="event")


def _countdown(at: float, t: float) -> str:
    return f'<span class="countdown" data-at="{at}">{_left(at - t)}</span>'


def _left(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


async def tournament_page(request: Request) -> Response:
    """``/tournament/{id}``: an arena's, a round robin's or a match's page."""
    return await _event_page(request, swiss=False)


async def swiss_page(request: Request) -> Response:
    """``/swiss/{id}``: a Swiss event's page."""
    return await _event_page(request, swiss=True)


async def event_post(request: Request) -> Response:
    """The page's join and withdraw (pause) buttons: back to the page."""
    site = site_of(request)
    actor, fields = await _session_post(request)
    event_id = request.path_params["id"]
    action = request.path_params["action"]
    password = fields.get("password") if isinstance(fields.get("password"), str) else None
    if action == "join":
        event = await asyncio.to_thread(site.join_event, event_id, actor.user, password or None)
    else:
        event = await asyncio.to_thread(site.tournaments.withdraw, event_id, actor.user)
    return RedirectResponse(event.path(), status_code=303)
