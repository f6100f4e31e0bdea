"""A user's pages: sign up, log in, the account (password, tokens, deletion), a profile and the
leaderboards.

Plain HTML forms in the site's frame (:mod:`emergo.server.core.frame`: the header every page
shares); they work without script.  Every value shown is escaped (:func:`html.escape`), every
form posts to the site with a CSRF token (the session's; before sign-in, the ``emergo_csrf``
cookie's), and the strict CSP stays (with ``form-action 'self'``).
"""

from __future__ import annotations

import asyncio
import html
import secrets
from typing import Any
from urllib.parse import quote, urlsplit

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from emergo.server.archive.pages import games_table, iso_time, next_link, search_form
from emergo.server.archive.search import ArchivedGame, ArchiveError, Query, query_of
from emergo.server.core.auth import (
    COOKIE,
    FORM_COOKIE,
    Actor,
    ApiError,
    actor_of,
    check_csrf,
    client_address,
    fields_of,
    row_id,
    same_secret,
    site_of,
)
from emergo.server.core.db import now
from emergo.server.core.frame import page, perf_label, player_link
from emergo.server.core.limits import RateLimited
from emergo.server.people.pages import who_is_here
from emergo.server.report.terms import REASONS
from emergo.server.site import Site
from emergo.server.study.pages import study_list_html
from emergo.server.user.accounts import (
    NAME_RULE,
    PASSWORD_LENGTH,
    PASSWORD_RULE,
    AccountError,
    clean_name,
    name_problem,
)
from emergo.server.user.charts import Series, rating_chart
from emergo.server.user.passwords import ClientBusy, PasswordsBusy
from emergo.server.user.perfs import PERF_KEYS

e = html.escape


def _form_token(request: Request) -> tuple[str, bool]:
    """The pre-session CSRF token (the cookie's, or a new one to set)."""
    token = request.cookies.get(FORM_COOKIE)
    if token and 20 <= len(token) <= 64:
        return token, False
    return secrets.token_urlsafe(24), True


def _set_form_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(
        FORM_COOKIE,
        token,
        httponly=True,
        samesite="strict",
        secure=site_of(request).config.https,
        path="/",
    )


def error_html(message: str) -> str:
    return f'<p class="error" role="alert">{e(message)}</p>'


def safe_next(value: Any) -> str:
    """Where to go after logging in or signing up: ``value`` when it is a path of this site
    (``/challenge/Ab12Cd34``), else the lobby: never another site (no open redirect)."""
    if not isinstance(value, str) or not value.startswith("/") or len(value) > 300:
        return "/"
    if value.startswith("//") or "\\" in value or any(c <= " " or c == "\x7f" for c in value):
        return "/"
    parts = urlsplit(value)
    if parts.scheme or parts.netloc:
        return "/"
    return value


def next_query(next_path: str) -> str:
    """``?next=...`` for a link to the log-in or sign-up page (nothing for the lobby)."""
    return "" if next_path == "/" else f"?next={quote(next_path, safe='/')}"


def _account_form(
    action: str,
    button: str,
    token: str,
    error: str = "",
    *,
    twice: bool,
    next_path: str = "/",
    name: str = "",
) -> str:
    """The sign-up (``twice``: the password again, and the rules stated) or log-in form; it
    keeps ``next_path``, where to go once in, and links to the other form with it. The name
    has no pattern nor length for the browser to enforce: its own bubble does not say which
    rule, and a length cuts silently; the server says which rule (``name``: as typed, kept)."""
    low, high = PASSWORD_LENGTH
    again = (
        '<label>Password again <input name="password2" type="password" required '
        f'autocomplete="new-password" minlength="{low}" maxlength="{high}"></label>'
        if twice
        else ""
    )
    name_rule = (
        f'<small class="rule" id="name-rule">{e(NAME_RULE).capitalize()}.</small>' if twice else ""
    )
    password_rule = (
        f'<small class="rule" id="password-rule">{e(PASSWORD_RULE).capitalize()}.</small>'
        if twice
        else ""
    )
    described = ' aria-describedby="name-rule"' if twice else ""
    described_pw = f' aria-describedby="password-rule" minlength="{low}"' if twice else ""
    other = (
        f'<p>Already have an account? <a href="/login{next_query(next_path)}">Log in</a>.</p>'
        if twice
        else f'<p>New here? <a href="/signup{next_query(next_path)}">Sign up</a>.</p>'
    )
    keep = f'<input type="hidden" name="next" value="{e(next_path)}">' if next_path != "/" else ""
    return (
        f"{error_html(error) if error else ''}"
        f'<form method="post" action="{action}"><input type="hidden" name="csrf" '
        f'value="{e(token)}">{keep}<label>Name <input name="username" required '
        f'autocomplete="username" autocapitalize="none" spellcheck="false" '
        f'value="{e(name)}"{described}>'
        f"{name_rule}</label>"
        f'<label>Password <input name="password" type="password" required maxlength="{high}" '
        f'autocomplete="{"new-password" if twice else "current-password"}"{described_pw}>'
        f"{password_rule}</label>{again}"
        f'<button type="submit">{button}</button></form>{other}'
    )


async def signup_page(request: Request) -> Response:
    token, fresh = _form_token(request)
    next_path = safe_next(request.query_params.get("next"))
    body = _account_form("/signup", "Sign up", token, twice=True, next_path=next_path)
    response = page("Sign up", body, await actor_of(request))
    if fresh:
        _set_form_cookie(request, response, token)
    return response


async def login_page(request: Request) -> Response:
    token, fresh = _form_token(request)
    next_path = safe_next(request.query_params.get("next"))
    body = _account_form("/login", "Log in", token, twice=False, next_path=next_path)
    response = page("Log in", body, await actor_of(request))
    if fresh:
        _set_form_cookie(request, response, token)
    return response


def _check_form_csrf(request: Request, fields: dict[str, Any]) -> None:
    cookie = request.cookies.get(FORM_COOKIE)
    given = fields.get("csrf")
    if request.headers.get("origin") is None:
        raise ApiError("this form must be sent from the site (no Origin header)", 403)
    if not same_secret(given, cookie):
        raise ApiError("the form's CSRF token is missing or wrong: reload the page", 403)


async def _end_old_session(request: Request) -> None:
    """Signing in ends the session the browser had (a new session id every log-in: a cookie
    planted or left before it is worth nothing after it)."""
    old = request.cookies.get(COOKIE)
    if old:
        await asyncio.to_thread(site_of(request).users.close_session, old)


def _signed_in(request: Request, cookie: str, next_path: str = "/") -> Response:
    site = site_of(request)
    response = RedirectResponse(safe_next(next_path), status_code=303)
    response.set_cookie(
        COOKIE,
        cookie,
        max_age=int(site.config.session_days * 86400),
        httponly=True,
        samesite="lax",
        secure=site.config.https,
        path="/",
    )
    return response


async def signup_post(request: Request) -> Response:
    site = site_of(request)
    fields = await fields_of(request)
    _check_form_csrf(request, fields)
    name, password = clean_name(fields.get("username", "")), fields.get("password", "")
    token = request.cookies.get(FORM_COOKIE, "")
    next_path = safe_next(fields.get("next"))
    shown = name if isinstance(name, str) else ""

    def again(error: str, status: int) -> Response:
        body = _account_form(
            "/signup", "Sign up", token, error, twice=True, next_path=next_path, name=shown
        )
        return page("Sign up", body, None, status)

    problem = name_problem(name)
    if problem is not None:
        return again(problem, 400)
    if password != fields.get("password2"):
        return again("the passwords differ", 400)
    try:
        client = client_address(request)
        user = await site.passwords.run(client, site.signup, name, password, client)
    except (AccountError, RateLimited, PasswordsBusy, ClientBusy) as err:
        refused = again(str(err), 429 if isinstance(err, RateLimited) else err.status)
        refused.headers.update(err.headers or {})  # Retry-After
        return refused
    await _end_old_session(request)
    cookie, _csrf = await asyncio.to_thread(site.users.open_session, user.id)
    return _signed_in(request, cookie, next_path)


async def login_post(request: Request) -> Response:
    site = site_of(request)
    fields = await fields_of(request)
    _check_form_csrf(request, fields)
    token = request.cookies.get(FORM_COOKIE, "")
    next_path = safe_next(fields.get("next"))
    name = clean_name(fields.get("username", ""))
    shown = name if isinstance(name, str) else ""

    def again(error: str, status: int) -> Response:
        body = _account_form(
            "/login", "Log in", token, error, twice=False, next_path=next_path, name=shown
        )
        return page("Log in", body, None, status)

    problem = name_problem(name)
    if problem is not None:  # no account can have it: say why rather than "wrong name"
        return again(f"there is no such account: {problem}", 400)
    try:
        client = client_address(request)
        user = await site.passwords.run(
            client, site.login, name, fields.get("password", ""), client
        )
    except (RateLimited, PasswordsBusy, ClientBusy) as err:
        refused = again(str(err), err.status)
        refused.headers.update(err.headers or {})  # Retry-After
        return refused
    if user is None:
        return again("wrong name or password", 401)
    await _end_old_session(request)
    cookie, _csrf = await asyncio.to_thread(site.users.open_session, user.id)
    return _signed_in(request, cookie, next_path)


async def session_form(request: Request) -> tuple[Actor, dict[str, Any]]:
    """A signed-in browser's form post: its actor and fields, CSRF checked."""
    fields = await fields_of(request)
    actor = await actor_of(request)
    if actor is None or actor.via != "session":
        raise ApiError("sign in first", 401)
    given = fields.get("csrf") if isinstance(fields.get("csrf"), str) else None
    check_csrf(request, actor, given)
    return actor, fields


async def logout_post(request: Request) -> Response:
    site = site_of(request)
    actor, _fields = await session_form(request)
    if actor.cookie:
        await asyncio.to_thread(site.users.close_session, actor.cookie)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response


def _account_body(actor: Actor, tokens: list[Any], message: str = "", new_token: str = "") -> str:
    csrf = e(actor.csrf or "")
    hidden = f'<input type="hidden" name="csrf" value="{csrf}">'
    rows = "".join(
        f"<tr><td>{e(t.hint)}…</td><td>{e(' '.join(t.scopes))}</td><td>{e(t.description)}</td>"
        f'<td><form method="post" action="/account/token/{int(t.id)}/revoke">{hidden}'
        '<button type="submit">Revoke</button></form></td></tr>'
        for t in tokens
    )
    shown = (
        f'<p class="token">Your new token (shown once): <code>{e(new_token)}</code></p>'
        if new_token
        else ""
    )
    scopes = "".join(
        f'<label><input type="checkbox" name="scope" value="{s}"{" checked" if c else ""}> '
        f"{s}</label>"
        for s, c in (
            ("board:play", True),
            ("challenge:read", True),
            ("challenge:write", True),
            ("bot:play", False),
            ("preference:read", False),
            ("preference:write", False),
            ("study:read", False),
            ("study:write", False),
        )
    )
    return (
        f"{error_html(message) if message else ''}{shown}"
        "<h2>Change the password</h2>"
        f'<form method="post" action="/account/password">{hidden}'
        '<label>Current password <input name="password" type="password" required '
        'autocomplete="current-password" maxlength="200"></label>'
        '<label>New password <input name="new" type="password" required '
        'autocomplete="new-password" maxlength="200"></label>'
        '<button type="submit">Change</button></form>'
        "<h2>API tokens</h2>"
        f"<table><tr><th>Token</th><th>Scopes</th><th>For</th><th></th></tr>{rows}</table>"
        f'<form method="post" action="/account/token">{hidden}{scopes}'
        '<label>For <input name="description" maxlength="100"></label>'
        '<button type="submit">New token</button></form>'
        "<h2>Delete the account</h2><p>Your games stay, without your name.</p>"
        f'<form method="post" action="/account/delete">{hidden}'
        '<label>Password <input name="password" type="password" required '
        'autocomplete="current-password" maxlength="200"></label>'
        '<button type="submit">Delete my account</button></form>'
    )


async def account_page(request: Request) -> Response:
    site = site_of(request)
    actor = await actor_of(request)
    if actor is None or actor.via != "session":
        return RedirectResponse("/login?next=/account", status_code=303)
    tokens = await asyncio.to_thread(site.tokens.list, actor.user.id)
    return page("Account", _account_body(actor, tokens), actor)


async def account_post(request: Request) -> Response:
    """The account page's forms: password, token, revoke, delete."""
    site = site_of(request)
    actor, fields = await session_form(request)
    action = request.path_params["action"]
    user = actor.user
    message, new_token, status = "", "", 200
    if action in ("password", "delete"):
        client = client_address(request)
        checked = await site.passwords.run(
            client, site.login, user.name, fields.get("password", ""), client
        )
        if checked is None or checked.id != user.id:
            message, status = "wrong password", 403
        elif action == "delete":
            await asyncio.to_thread(site.delete_account, user)
            response = RedirectResponse("/", status_code=303)
            response.delete_cookie(COOKIE, path="/")
            return response
        else:
            try:
                await site.passwords.run(
                    client, site.users.set_password, user.id, fields.get("new", "")
                )
                await asyncio.to_thread(site.users.close_sessions, user.id, keep=actor.cookie)
                message = "password changed; your other sessions were logged out"
            except AccountError as err:
                message, status = str(err), 400
    elif action == "token":
        raw = await request.body()
        from urllib.parse import parse_qsl

        scopes = tuple(v for k, v in parse_qsl(raw.decode(errors="replace")) if k == "scope")
        try:
            new_token = await asyncio.to_thread(
                site.tokens.create, user.id, scopes, str(fields.get("description", ""))[:100]
            )
        except ValueError as err:
            message, status = str(err), 400
    tokens = await asyncio.to_thread(site.tokens.list, user.id)
    return page("Account", _account_body(actor, tokens, message, new_token), actor, status)


async def token_revoke_post(request: Request) -> Response:
    site = site_of(request)
    actor, _fields = await session_form(request)
    token_id = row_id(request.path_params["token_id"], "token")
    await asyncio.to_thread(site.tokens.revoke, token_id, actor.user.id)
    return RedirectResponse("/account", status_code=303)


e = html.escape


async def profile(request: Request) -> Response:
    """``/@/{username}``: ratings with the chart, results by colour, head-to-head (``?vs=``),
    games in progress, and the player's games with filters."""
    site = site_of(request)
    actor = await actor_of(request)
    name = request.path_params["username"]
    found = await asyncio.to_thread(site.archive.user, name)
    if found is None:
        return page("No such player", "", actor, 404)
    user_id, name, created, bot = found
    try:
        q = query_of({**request.query_params, "player": name})
    except ArchiveError as err:
        q, message = Query(player=name), str(err)
    else:
        message = ""
    body = await asyncio.to_thread(_profile_body, site, user_id, name, q, message, created)
    body += await asyncio.to_thread(study_list_html, site, user_id, actor, heading="Studies")
    here = await asyncio.to_thread(_status_and_actions, site, actor, user_id, name)
    return page(name + (" (BOT)" if bot else ""), here + body, actor)


def _status_and_actions(site: Site, actor: Actor | None, user_id: int, name: str) -> str:
    """Online now or playing now (a link to watch); for another signed-in player, Follow,
    Block and Report (static/page/people.js; issue 31)."""
    status = site.people.status(user_id)
    words = []
    if status.playing is not None:
        words.append(
            f'<a class="playing-now" href="/game/{e(status.playing)}">Playing now: watch</a>'
        )
    if status.online:
        words.append('<span class="online-now">Online now</span>')
    line = f'<p class="status" id="player-status">{" · ".join(words)}</p>' if words else ""
    if actor is None or actor.user.id == user_id or actor.via != "session":
        return line
    other = site.users.get(user_id)
    if other is None:
        return line
    rel = site.relations.between(actor.user, other)
    reasons = "".join(f'<option value="{k}">{e(v)}</option>' for k, v in REASONS.items())
    return (
        f'{line}<div class="rel" id="relation" data-user="{e(name)}">'
        f'<button type="button" id="follow" aria-pressed="{str(rel.following).lower()}">'
        f"{'Unfollow' if rel.following else 'Follow'}</button>"
        f'<button type="button" id="block" aria-pressed="{str(rel.blocking).lower()}">'
        f"{'Unblock' if rel.blocking else 'Block'}</button>"
        '<details id="report"><summary>Report</summary>'
        '<form id="report-form" class="report"><label>Why <select name="reason">'
        f'{reasons}</select></label><label>What happened <textarea name="text" '
        'maxlength="1000" rows="3"></textarea></label>'
        '<button type="submit">Send to the moderators</button></form></details>'
        '<p id="rel-message" class="message" role="status" aria-live="polite"></p></div>'
    )


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
    since = iso_time(created)[:10]
    games = f"{counts['all']} game{'s' if counts['all'] != 1 else ''}"
    if counts["rated"]:
        games += f" ({counts['rated']} rated)"
    last = f" · last seen {_ago(max(0.0, t - seen))}" if seen is not None else ""
    return (
        f'<p class="facts">Member since <time datetime="{since}">{since}</time> · {games}{last}</p>'
    )


def _events_section(site: Site, user_id: int) -> str:
    """The player's tournaments (issue 30): each event, and the place and score once over."""
    items = "".join(
        f'<li><a href="{e(event.path())}">{e(event.full_name)}</a> '
        + (
            f"{rank}{_ordinal(rank)} place, {score:g} points</li>"
            if rank is not None and score is not None
            else f"({e(event.status)})</li>"
        )
        for event, rank, score in site.tournaments.results_of(user_id)
    )
    return (
        f'<section class="events"><h2>Tournaments</h2><ul>{items or "<li>none</li>"}</ul></section>'
    )


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


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
            f'<tr><td><a href="/leaderboard/{e(key)}">{e(perf_label(key))}</a></td>'
            f'<td class="rating">{shown["rating"]}{mark}</td><td>±{shown["rd"]}</td>'
            f"<td>{shown['games']}</td></tr>"
        )
    puzzle, solved = site.puzzles.perf(user_id)  # issue 29: the puzzle rating
    if solved:
        mark = "?" if puzzle.provisional else ""
        rows += (
            f'<tr class="puzzle-rating"><td><a href="/training">puzzles</a></td>'
            f'<td class="rating">{round(puzzle.rating)}{mark}</td><td>±{round(puzzle.rd)}</td>'
            f"<td>{solved}</td></tr>"
        )
    chart = rating_chart(
        [Series(perf_label(key), history[key]) for key in PERF_KEYS if key in history],
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
                f"<p>{e(name)} against {player_link(found[1])}: {score['win']} won, "
                f"{score['draw']} drawn, {score['loss']} lost.</p>"
            )
    body += (
        f'<form method="get" action="/@/{e(name)}"><label>Opponent <input name="vs" '
        f'value="{e(q.vs or "")}" maxlength="20"></label><button type="submit">Compare</button>'
        "</form></section>"
    )
    body += _events_section(site, user_id)
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
        + search_form(f"/@/{name}", q, player=False)
        + games_table(games)
        + next_link(f"/@/{name}", q, cursor, fixed=("player",))
        + "</section>"
    )
    return body


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
        f"<tr><td>{i}</td><td>{player_link(x.name)}</td><td>{x.rating}</td><td>{x.games}</td></tr>"
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
            f'<section><h2><a href="/leaderboard/{e(key)}">{e(perf_label(key))}</a></h2>'
            f"{_leaders_table(leaders, waiting)}</section>"
        )
    top = await asyncio.to_thread(who_is_here, site, "")  # who is here, then the best
    return page("Players", top + LEADERS_NOTE + body, actor)


async def leaderboard(request: Request) -> Response:
    """``/leaderboard/{perf}``: the best hundred of one rating."""
    site = site_of(request)
    actor = await actor_of(request)
    key = request.path_params["perf"]
    if key not in PERF_KEYS:
        return page("No such leaderboard", "", actor, 404)
    t = now()
    leaders = await asyncio.to_thread(site.ratings.leaderboard, key, t, 100)
    waiting = 0 if leaders else await asyncio.to_thread(site.ratings.provisional_count, key, t)
    return page(
        f"Leaderboard: {perf_label(key)}", LEADERS_NOTE + _leaders_table(leaders, waiting), actor
    )
