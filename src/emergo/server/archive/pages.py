"""The archive's pages: ``/games`` (the search form and its results), and the pieces of HTML
other pages show games with (the games table, a result in words).
"""

from __future__ import annotations

import asyncio
from html import escape as e
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from emergo.geometry import VARIANTS
from emergo.server.archive.search import ArchivedGame, ArchiveError, Query, query_of
from emergo.server.core.auth import actor_of, site_of
from emergo.server.core.frame import page, player_link, rating_html, select_html
from emergo.server.user.perfs import SPEEDS


def end_words(termination: str, result: str) -> str:
    """How a game ended, in words for people (the rule numbers are the rulebook's, not here):
    ``Black resigned``, ``draw by agreement``."""
    loser = {"1-0": "Black", "0-1": "White"}.get(result, "")
    words = {
        "no-pieces": f"{loser} has no pieces left",
        "blocked": "no legal move: draw",
        "repetition": "the same position three times: draw",
        "resignation": f"{loser} resigned",
        "agreement": "draw by agreement",
        "time-forfeit": f"{loser} ran out of time",
        "aborted": "aborted before both sides moved",
        "abandoned": f"{loser} left the game" if loser else "a player left: draw",
    }
    return words.get(termination, termination.replace("-", " "))


def _start_and_event(g: ArchivedGame) -> str:
    """A game's fair start and its event's link (issue 30), after its kind."""
    from emergo.server.round.starts import describe

    tags = g.tags or {}
    start = describe(tags)
    out = f' <span class="fair-start">({e(start)})</span>' if start else ""
    if "Tournament" in tags:
        event = tags.get("Event", "an event")
        path = (
            f"/swiss/{tags['Tournament']}"
            if event.endswith("Swiss")
            else f"/tournament/{tags['Tournament']}"
        )
        out += f' <a class="event-link" href="{e(path)}">{e(event)}</a>'
    return out


def games_table(games: list[ArchivedGame]) -> str:
    """The archive's games as a table: players with ratings, variant, speed, result, date."""
    if not games:
        return "<p>No games found.</p>"
    rows = "".join(
        f'<tr><td><a href="/game/{e(g.id)}">{e(g.result)}</a></td>'
        f"<td>{player_link(g.white)}"
        f"{rating_html(g.white_rating, g.white_diff, g.white_provisional)}</td>"
        f"<td>{player_link(g.black)}"
        f"{rating_html(g.black_rating, g.black_diff, g.black_provisional)}</td>"
        f"<td>{e(g.variant)} {e(g.speed)}{' rated' if g.rated else ''}{_start_and_event(g)}</td>"
        f"<td>{e(end_words(g.termination, g.result))}</td>"
        f'<td><time datetime="{iso_time(g.ended)}">{iso_time(g.ended)[:10]}</time></td></tr>'
        for g in games
    )
    return (
        '<table class="games"><tr><th>Result</th><th>White</th><th>Black</th><th>Game</th>'
        f"<th>How it ended</th><th>Date</th></tr>{rows}</table>"
    )


def iso_time(t: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%MZ")


def search_form(action: str, q: Query, *, player: bool) -> str:
    fields = []
    if player:
        fields.append(
            f'<label>Player <input name="player" value="{e(q.player or "")}" maxlength="20">'
            "</label>"
        )
    fields.append(
        f'<label>Opponent <input name="vs" value="{e(q.vs or "")}" maxlength="20"></label>'
    )
    fields.append(select_html("variant", [("", "any"), *[(v, v) for v in VARIANTS]], q.variant))
    fields.append(select_html("speed", [("", "any"), *[(s, s) for s in SPEEDS]], q.speed))
    results = [("", "any"), ("white", "White won"), ("black", "Black won"), ("draw", "draw")]
    results += [("aborted", "aborted")]
    if not player:
        results += [("win", "won"), ("loss", "lost")]
    shown_result = {"1-0": "white", "0-1": "black", "1/2-1/2": "draw", "*": "aborted"}
    fields.append(select_html("result", results, shown_result.get(q.result or "", q.result)))
    if not player:
        fields.append(
            select_html("color", [("", "any"), ("white", "White"), ("black", "Black")], q.color)
        )
    rated = None if q.rated is None else ("true" if q.rated else "false")
    fields.append(
        select_html("rated", [("", "any"), ("true", "rated"), ("false", "casual")], rated)
    )
    if player:
        since = iso_time(q.since)[:10] if q.since is not None else ""
        until = iso_time(q.until - 1)[:10] if q.until is not None else ""
        fields.append(f'<label>From <input name="since" type="date" value="{e(since)}"></label>')
        fields.append(f'<label>To <input name="until" type="date" value="{e(until)}"></label>')
    return (
        f'<form method="get" action="{e(action)}" class="search">{"".join(fields)}'
        '<button type="submit">Search</button></form>'
    )


def next_link(path: str, q: Query, cursor: str | None, fixed: tuple[str, ...] = ()) -> str:
    if cursor is None:
        return ""
    params = {k: v for k, v in q.params().items() if k not in fixed}
    params["before"] = cursor
    return f'<p><a rel="next" href="{e(path)}?{e(urlencode(params))}">Older games</a></p>'


async def archive(request: Request) -> Response:
    """``/games``: the archive's search (player, opponent, variant, speed, result, rating,
    dates)."""
    site = site_of(request)
    actor = await actor_of(request)
    message = ""
    try:
        q = query_of(dict(request.query_params))
        games, cursor = await asyncio.to_thread(site.archive.search, q)
    except ArchiveError as err:
        q, games, cursor, message = Query(), [], None, str(err)
    body = (
        (f'<p class="error" role="alert">{e(message)}</p>' if message else "")
        + search_form("/games", q, player=True)
        + games_table(games)
        + next_link("/games", q, cursor)
    )
    return page("Archive", body, actor, 404 if message.startswith("no player") else 200)
