"""The online site's server-rendered pages of issue 21: profiles, leaderboards, the archive,
notifications, mail and vacation settings, and what a game's page adds (ratings, the replay's
data, the owner's conditional moves).

Plain HTML as :mod:`emergo.web.online_pages` (no script; the rating chart is an inline SVG drawn
on the server, :mod:`emergo.online.charts`); every value shown is escaped, every form posts the
session's CSRF token.  The board of a replay is the board page's (issue 18): the page holds its
data (``#replay``: ``data-variant``, ``data-root``, ``data-moves``).
"""

from __future__ import annotations

import asyncio
import html
from typing import Any
from urllib.parse import quote, urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from emergo.geometry import VARIANTS
from emergo.online.archive import ArchivedGame, ArchiveError, Query, query_of
from emergo.online.charts import Series, rating_chart
from emergo.online.conditional import ConditionalError
from emergo.online.db import now
from emergo.online.notices import NoticeError
from emergo.online.notify import EMAIL_CHOICES
from emergo.online.perfs import PERF_KEYS, SPEEDS
from emergo.online.rounds import GameError, GameView
from emergo.online.site import Site
from emergo.online.vacation import VacationError
from emergo.web.online_auth import Actor, ApiError, actor_of, check_csrf, fields_of, site_of
from emergo.web.online_shell import page as _page

e = html.escape


def _label(perf: str) -> str:
    return perf.replace("-", " ")


def _hidden(actor: Actor | None) -> str:
    csrf = e(actor.csrf or "") if actor is not None else ""
    return f'<input type="hidden" name="csrf" value="{csrf}">'


def _select(name: str, choices: list[tuple[str, str]], chosen: str | None) -> str:
    options = "".join(
        f'<option value="{e(value)}"{" selected" if value == (chosen or "") else ""}>'
        f"{e(text)}</option>"
        for value, text in choices
    )
    return f'<label>{e(name.capitalize())} <select name="{e(name)}">{options}</select></label>'


def _player(name: str) -> str:
    return f'<a href="/@/{e(name)}">{e(name)}</a>' if name != "(deleted)" else e(name)


def _rating(rating: int | None, diff: int | None, provisional: bool = False) -> str:
    """`` (1500? +12)``: the rating before the game, "?" when it was provisional, the change."""
    if rating is None:
        return ""
    sign = "+" if (diff or 0) > 0 else ""
    mark = "?" if provisional else ""
    return f" ({rating}{mark}{f' {sign}{diff}' if diff is not None else ''})"


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


def games_table(games: list[ArchivedGame]) -> str:
    """The archive's games as a table: players with ratings, variant, speed, result, date."""
    if not games:
        return "<p>No games found.</p>"
    rows = "".join(
        f'<tr><td><a href="/game/{e(g.id)}">{e(g.result)}</a></td>'
        f"<td>{_player(g.white)}{_rating(g.white_rating, g.white_diff, g.white_provisional)}</td>"
        f"<td>{_player(g.black)}{_rating(g.black_rating, g.black_diff, g.black_provisional)}</td>"
        f"<td>{e(g.variant)} {e(g.speed)}{' rated' if g.rated else ''}</td>"
        f"<td>{e(end_words(g.termination, g.result))}</td>"
        f'<td><time datetime="{_iso(g.ended)}">{_iso(g.ended)[:10]}</time></td></tr>'
        for g in games
    )
    return (
        '<table class="games"><tr><th>Result</th><th>White</th><th>Black</th><th>Game</th>'
        f"<th>How it ended</th><th>Date</th></tr>{rows}</table>"
    )


def _iso(t: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%MZ")


def _search_form(action: str, q: Query, *, player: bool) -> str:
    fields = []
    if player:
        fields.append(
            f'<label>Player <input name="player" value="{e(q.player or "")}" maxlength="20">'
            "</label>"
        )
    fields.append(
        f'<label>Opponent <input name="vs" value="{e(q.vs or "")}" maxlength="20"></label>'
    )
    fields.append(_select("variant", [("", "any"), *[(v, v) for v in VARIANTS]], q.variant))
    fields.append(_select("speed", [("", "any"), *[(s, s) for s in SPEEDS]], q.speed))
    results = [("", "any"), ("white", "White won"), ("black", "Black won"), ("draw", "draw")]
    results += [("aborted", "aborted")]
    if not player:
        results += [("win", "won"), ("loss", "lost")]
    shown_result = {"1-0": "white", "0-1": "black", "1/2-1/2": "draw", "*": "aborted"}
    fields.append(_select("result", results, shown_result.get(q.result or "", q.result)))
    if not player:
        fields.append(
            _select("color", [("", "any"), ("white", "White"), ("black", "Black")], q.color)
        )
    rated = None if q.rated is None else ("true" if q.rated else "false")
    fields.append(_select("rated", [("", "any"), ("true", "rated"), ("false", "casual")], rated))
    if player:
        since = _iso(q.since)[:10] if q.since is not None else ""
        until = _iso(q.until - 1)[:10] if q.until is not None else ""
        fields.append(f'<label>From <input name="since" type="date" value="{e(since)}"></label>')
        fields.append(f'<label>To <input name="until" type="date" value="{e(until)}"></label>')
    return (
        f'<form method="get" action="{e(action)}" class="search">{"".join(fields)}'
        '<button type="submit">Search</button></form>'
    )


def _next_link(path: str, q: Query, cursor: str | None, fixed: tuple[str, ...] = ()) -> str:
    if cursor is None:
        return ""
    params = {k: v for k, v in q.params().items() if k not in fixed}
    params["before"] = cursor
    return f'<p><a rel="next" href="{e(path)}?{e(urlencode(params))}">Older games</a></p>'


# --- profiles -------------------------------------------------------------------------------------


async def profile(request: Request) -> Response:
    """``/@/{username}``: ratings with the chart, results by colour, head-to-head (``?vs=``),
    games in progress, and the player's games with filters."""
    site = site_of(request)
    actor = await actor_of(request)
    name = request.path_params["username"]
    found = await asyncio.to_thread(site.archive.user, name)
    if found is None:
        return _page("No such player", "", actor, 404)
    user_id, name, created, bot = found
    try:
        q = query_of({**request.query_params, "player": name})
    except ArchiveError as err:
        q, message = Query(player=name), str(err)
    else:
        message = ""
    body = await asyncio.to_thread(_profile_body, site, user_id, name, q, message, created)
    return _page(name + (" (BOT)" if bot else ""), body, actor)


def _ago(seconds: float) -> str:
    """A time since, in words: ``just now``, ``5 minutes ago``, ``3 days ago``."""
    for unit, size in (("year", 365 * 86400), ("month", 30 * 86400), ("day", 86400)):
        if seconds >= size:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n > 1 else ''} ago"
    for unit, size in (("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n > 1 else ''} ago"
    return "just now"


def _profile_facts(site: Site, user_id: int, created: float, t: float) -> str:
    """lichess's line under a name: member since, games played, last seen."""
    counts = site.archive.counts(user_id)
    seen = site.archive.last_seen(user_id)
    since = _iso(created)[:10]
    games = f"{counts['all']} game{'s' if counts['all'] != 1 else ''}"
    if counts["rated"]:
        games += f" ({counts['rated']} rated)"
    last = f" · last seen {_ago(max(0.0, t - seen))}" if seen is not None else ""
    return (
        f'<p class="facts">Member since <time datetime="{since}">{since}</time> · {games}{last}</p>'
    )


def _profile_body(
    site: Site, user_id: int, name: str, q: Query, message: str, created: float = 0.0
) -> str:
    t = now()
    perfs = site.ratings.perfs(user_id)
    history = site.ratings.history(user_id)
    rows = ""
    for key, perf in perfs:
        shown = perf.to_json(t)
        mark = "?" if shown["prov"] else ""
        rows += (
            f'<tr><td><a href="/leaderboard/{e(key)}">{e(_label(key))}</a></td>'
            f'<td class="rating">{shown["rating"]}{mark}</td><td>±{shown["rd"]}</td>'
            f"<td>{shown['games']}</td></tr>"
        )
    chart = rating_chart(
        [Series(_label(key), history[key]) for key in PERF_KEYS if key in history],
        title=f"Rating history of {name}",
    )
    results = site.archive.results(user_id)
    by_colour = "".join(
        f"<tr><th>{side.capitalize()}</th><td>{r['win']}</td><td>{r['draw']}</td>"
        f"<td>{r['loss']}</td></tr>"
        for side, r in results.items()
    )
    body = _profile_facts(site, user_id, created, t) + (
        f'<section class="ratings"><h2>Ratings</h2><table><tr><th>Rating</th><th></th>'
        f"<th>Deviation</th><th>Games</th></tr>{rows}</table>"
        '<p class="note">A rating with ? is provisional (deviation 110 or more).</p>'
        f'<figure class="chart">{chart}</figure></section>'
        '<section class="results"><h2>Results by colour</h2>'
        "<table><tr><th></th><th>Won</th><th>Drawn</th><th>Lost</th></tr>"
        f"{by_colour}</table></section>"
    )
    body += '<section class="head-to-head"><h2>Head to head</h2>'
    if q.vs is not None:
        found = site.archive.user(q.vs)
        if found is None:
            body += f"<p>No player named {e(q.vs)}.</p>"
        else:
            score = site.archive.head_to_head(user_id, found[0])
            body += (
                f"<p>{e(name)} against {_player(found[1])}: {score['win']} won, "
                f"{score['draw']} drawn, {score['loss']} lost.</p>"
            )
    body += (
        f'<form method="get" action="/@/{e(name)}"><label>Opponent <input name="vs" '
        f'value="{e(q.vs or "")}" maxlength="20"></label><button type="submit">Compare</button>'
        "</form></section>"
    )
    playing = site.rounds.playing(user_id)
    now_playing = "".join(
        f'<li><a href="/game/{e(g.id)}">{e(g.seats.white)} – {e(g.seats.black)}</a> '
        f"{e(g.variant)} {e(g.speed)}</li>"
        for g in playing
    )
    body += (
        '<section class="playing"><h2>Games in progress</h2>'
        f"<ul>{now_playing or '<li>none</li>'}</ul></section>"
    )
    games: list[ArchivedGame] = []
    cursor = None
    if not message:
        try:
            games, cursor = site.archive.search(q)
        except ArchiveError as err:
            message = str(err)
    body += (
        '<section class="games"><h2>Games</h2>'
        + (f'<p class="error" role="alert">{e(message)}</p>' if message else "")
        + _search_form(f"/@/{name}", q, player=False)
        + games_table(games)
        + _next_link(f"/@/{name}", q, cursor, fixed=("player",))
        + "</section>"
    )
    return body


# --- leaderboards ---------------------------------------------------------------------------------


LEADERS_NOTE = (
    '<p class="note">A player is listed once their rating is settled: a new rating is '
    "provisional (shown 1500?) while its deviation is 110 or more, which takes a number of "
    "rated games, and it becomes provisional again after a long time away.</p>"
)


def _leaders_table(leaders: list[Any], provisional: int = 0) -> str:
    if not leaders:
        waiting = (
            f" {provisional} player{'s have' if provisional != 1 else ' has'} a provisional "
            "rating here so far."
            if provisional
            else ""
        )
        return f'<p class="empty">No one yet: a rating counts once it is settled.{waiting}</p>'

    rows = "".join(
        f"<tr><td>{i}</td><td>{_player(x.name)}</td><td>{x.rating}</td><td>{x.games}</td></tr>"
        for i, x in enumerate(leaders, 1)
    )
    return f"<table><tr><th>#</th><th>Player</th><th>Rating</th><th>Games</th></tr>{rows}</table>"


async def leaderboards(request: Request) -> Response:
    """``/leaderboard``: the best ten of each rating."""
    site = site_of(request)
    actor = await actor_of(request)
    t = now()
    body = ""
    for key in PERF_KEYS:
        leaders = await asyncio.to_thread(site.ratings.leaderboard, key, t, 10)
        waiting = 0 if leaders else await asyncio.to_thread(site.ratings.provisional_count, key, t)
        body += (
            f'<section><h2><a href="/leaderboard/{e(key)}">{e(_label(key))}</a></h2>'
            f"{_leaders_table(leaders, waiting)}</section>"
        )
    return _page("Leaderboards", LEADERS_NOTE + body, actor)


async def leaderboard(request: Request) -> Response:
    """``/leaderboard/{perf}``: the best hundred of one rating."""
    site = site_of(request)
    actor = await actor_of(request)
    key = request.path_params["perf"]
    if key not in PERF_KEYS:
        return _page("No such leaderboard", "", actor, 404)
    t = now()
    leaders = await asyncio.to_thread(site.ratings.leaderboard, key, t, 100)
    waiting = 0 if leaders else await asyncio.to_thread(site.ratings.provisional_count, key, t)
    return _page(
        f"Leaderboard: {_label(key)}", LEADERS_NOTE + _leaders_table(leaders, waiting), actor
    )


# --- the archive ----------------------------------------------------------------------------------


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
        + _search_form("/games", q, player=True)
        + games_table(games)
        + _next_link("/games", q, cursor)
    )
    return _page("Archive", body, actor, 404 if message.startswith("no player") else 200)


# --- notifications and settings -------------------------------------------------------------------


async def _signed_in(request: Request) -> Actor | Response:
    actor = await actor_of(request)
    if actor is None or actor.via != "session":  # back here once logged in
        return RedirectResponse(f"/login?next={quote(request.url.path)}", status_code=303)
    return actor


async def notifications(request: Request) -> Response:
    """``/notifications``: your notices, newest first, with the unread count."""
    site = site_of(request)
    actor = await _signed_in(request)
    if isinstance(actor, Response):
        return actor
    feed, unread = await asyncio.to_thread(site.notices.feed, actor.user.id)
    t = now()
    from emergo.online.notices import _notice

    items = "".join(
        f'<li class="{"unread" if not n["read"] else "read"}">'
        f'<a href="/game/{e(n["gameId"])}">{e(_notice(n).line(t))}</a></li>'
        for n in feed
    )
    body = (
        f'<p class="unread-count"><span id="unread">{unread}</span> unread</p>'
        f'<form method="post" action="/notifications/read">{_hidden(actor)}'
        '<button type="submit">Mark all read</button></form>'
        f'<ul class="notifications">{items or "<li>Nothing yet.</li>"}</ul>'
        '<p><a href="/account/notifications">Mail and vacation</a></p>'
    )
    return _page("Notifications", body, actor)


async def _session_post(request: Request) -> tuple[Actor, dict[str, Any]]:
    fields = await fields_of(request)
    actor = await actor_of(request)
    if actor is None or actor.via != "session":
        raise ApiError("sign in first", 401)
    given = fields.get("csrf") if isinstance(fields.get("csrf"), str) else None
    check_csrf(request, actor, given)
    return actor, fields


async def notifications_read(request: Request) -> Response:
    site = site_of(request)
    actor, _fields = await _session_post(request)
    await asyncio.to_thread(site.notices.mark_read, actor.user.id, None)
    return RedirectResponse("/notifications", status_code=303)


def _settings_body(actor: Actor, mail: Any, away: Any, message: str = "") -> str:
    t = now()
    choices = {"off": "no mail", "digest": "one mail a day", "instant": "a mail for each"}
    radios = "".join(
        f'<label class="choice"><input type="radio" name="mail" value="{c}"'
        f"{' checked' if mail.choice == c else ''}> {choices[c]}</label>"
        for c in EMAIL_CHOICES
    )
    on = away.on_vacation(t)
    days = away.left(t) / 86400
    if on:
        ends = away.ends_at()
        vacation = (
            f"<p>You are on vacation until {_iso(ends)[:16].replace('T', ' ')} UTC at the latest "
            f"({days:.1f} days left).</p>"
            f'<form method="post" action="/account/notifications/vacation-stop">{_hidden(actor)}'
            '<button type="submit">End the vacation</button></form>'
        )
    else:
        vacation = (
            f"<p>You hold {days:.1f} days of vacation (30 a year, 30 at most).</p>"
            f'<form method="post" action="/account/notifications/vacation-start">{_hidden(actor)}'
            '<button type="submit">Start a vacation</button></form>'
        )
    return (
        (f'<p class="error" role="alert">{e(message)}</p>' if message else "")
        + "<h2>Mail</h2><p>Your turn, time running out and game over in correspondence games.</p>"
        f'<form method="post" action="/account/notifications/mail">{_hidden(actor)}'
        f'<label>E-mail <input name="email" type="email" maxlength="254" '
        f'value="{e(mail.email or "")}"></label>{radios}<button type="submit">Save</button></form>'
        "<h2>Vacation</h2><p>Your correspondence clocks stop while you are away.</p>" + vacation
    )


async def settings(request: Request) -> Response:
    """``/account/notifications``: mail (address, digest or at once) and vacation."""
    site = site_of(request)
    actor = await _signed_in(request)
    if isinstance(actor, Response):
        return actor
    mail = await asyncio.to_thread(site.notices.settings, actor.user.id)
    away = await asyncio.to_thread(site.correspondence.vacations, actor.user.id)
    return _page("Mail and vacation", _settings_body(actor, mail, away), actor)


async def settings_post(request: Request) -> Response:
    site = site_of(request)
    actor, fields = await _session_post(request)
    action = request.path_params["action"]
    message, status = "", 200
    try:
        if action == "mail":
            await asyncio.to_thread(
                site.notices.set_settings,
                actor.user.id,
                fields.get("email"),
                fields.get("mail", "off"),
            )
        else:
            service = site.correspondence
            act = service.start_vacation if action == "vacation-start" else service.stop_vacation
            await asyncio.to_thread(act, site.rounds, actor.user.id, now())
    except (NoticeError, VacationError) as err:
        message, status = str(err), 400
    if not message:
        return RedirectResponse("/account/notifications", status_code=303)
    mail = await asyncio.to_thread(site.notices.settings, actor.user.id)
    away = await asyncio.to_thread(site.correspondence.vacations, actor.user.id)
    return _page("Mail and vacation", _settings_body(actor, mail, away, message), actor, status)


# --- what a game's page adds ----------------------------------------------------------------------


def game_extras(site: Site, game: GameView, actor: Actor | None) -> str:
    """For :func:`emergo.web.online_pages.game_page`: a finished game's ratings and the
    replay's data; a correspondence player's own conditional moves while he waits."""
    s = game.state
    out = ""
    if s.is_over:
        row = site.archive.one(game.id)
        if row is not None:
            out += (
                f'<p class="players">{_player(row.white)}'
                f"{_rating(row.white_rating, row.white_diff, row.white_provisional)} – "
                f"{_player(row.black)}"
                f"{_rating(row.black_rating, row.black_diff, row.black_provisional)} · "
                f"{e(row.result)}</p>"
            )
        out += (
            f'<div id="replay" data-variant="{e(game.variant)}" data-root="{e(s.root)}" '
            f'data-moves="{e(" ".join(s.moves))}"></div>'
        )
        return out
    color = game.seats.color_of(actor.user.id) if actor is not None else None
    if (
        actor is None
        or actor.via != "session"
        or color is None
        or game.speed != "correspondence"
        or s.turn == color
    ):
        return out
    tree = site.correspondence.conditional(game.id, actor.user.id)
    lines = "\n".join(" ".join(x) for x in tree.lines()) if tree is not None else ""
    return out + _conditional_form(game.id, actor, lines)


def _conditional_form(game_id: str, actor: Actor, lines: str, error: str = "") -> str:
    """The conditional moves' form, with ``lines`` as the text (kept as typed after a refusal)."""
    rows = max(4, min(20, lines.count("\n") + 2))
    shown = f'<p class="error" role="alert">{e(error)}</p>' if error else ""
    # a newline right after <textarea> is eaten by the HTML parser: one more keeps the first line
    return (
        '<section class="conditional"><h2>Conditional moves</h2>'
        "<p>Only you see them. A line a row: his move, your reply, his next, your reply... "
        "A line that begins a longer one is kept within it.</p>"
        f'{shown}<form method="post" action="/game/{e(game_id)}/conditional">{_hidden(actor)}'
        f'<label>Lines <textarea name="lines" rows="{rows}">\n{e(lines)}</textarea></label>'
        '<button type="submit">Keep</button></form></section>'
    )


async def conditional_post(request: Request) -> Response:
    """The game page's conditional moves form."""
    site = site_of(request)
    actor, fields = await _session_post(request)
    game_id = request.path_params["id"]
    raw = str(fields.get("lines", ""))
    lines = [x for x in raw.splitlines() if x.strip()][:100]
    try:
        await asyncio.to_thread(site.correspondence.set_conditional, game_id, actor.user.id, lines)
    except (ConditionalError, GameError) as err:
        status = getattr(err, "status", 400)
        # the player's lines come back as typed, with the refusal: nothing he wrote is lost
        form = (
            _conditional_form(game_id, actor, "\n".join(lines), str(err))
            if status == 400
            else (f'<p class="error" role="alert">{e(str(err))}</p>')
        )
        return _page(
            "Conditional moves",
            f'{form}<p><a href="/game/{e(game_id)}">Back to the game</a></p>',
            actor,
            status,
        )
    return RedirectResponse(f"/game/{game_id}", status_code=303)
