"""The online site's server-rendered pages: sign up, log in, the account, an invitation.

Plain HTML forms in the site's frame (:mod:`emergo.web.online_shell`: the header every page
shares); they work without script.  Every value shown is escaped (:func:`html.escape`), every
form posts to the site with a CSRF token (the session's; before sign-in, the ``emergo_csrf``
cookie's), and the strict CSP of the local app stays (with ``form-action 'self'``).  The lobby
(``/``) and the game page (``/game/{id}``) are the shells of :mod:`emergo.web.online_shell`,
filled by their controllers from the JSON and WebSocket API.
"""

from __future__ import annotations

import asyncio
import html
import secrets
from typing import Any
from urllib.parse import quote, urlsplit

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from emergo.online.challenges import ChallengeError
from emergo.online.limits import RateLimited
from emergo.online.users import NAME_RULE, PASSWORD_LENGTH, PASSWORD_RULE, AccountError
from emergo.web import online_shell as shell
from emergo.web.online_auth import (
    COOKIE,
    FORM_COOKIE,
    Actor,
    ApiError,
    actor_of,
    check_csrf,
    fields_of,
    row_id,
    same_secret,
    site_of,
)

e = html.escape


def _page(title: str, body: str, actor: Actor | None, status: int = 200) -> HTMLResponse:
    """A page of the site's frame (the header shared with the lobby and the game page)."""
    return shell.page(title, body, actor, status)


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


def _error(message: str) -> str:
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


def _next_query(next_path: str) -> str:
    """``?next=...`` for a link to the log-in or sign-up page (nothing for the lobby)."""
    return "" if next_path == "/" else f"?next={quote(next_path, safe='/')}"


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


# --- sign up, log in, log out ---------------------------------------------------------------------


def _account_form(
    action: str, button: str, token: str, error: str = "", *, twice: bool, next_path: str = "/"
) -> str:
    """The sign-up (``twice``: the password again, and the rules stated) or log-in form; it
    keeps ``next_path``, where to go once in, and links to the other form with it."""
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
        f'<p>Already have an account? <a href="/login{_next_query(next_path)}">Log in</a>.</p>'
        if twice
        else f'<p>New here? <a href="/signup{_next_query(next_path)}">Sign up</a>.</p>'
    )
    keep = f'<input type="hidden" name="next" value="{e(next_path)}">' if next_path != "/" else ""
    return (
        f"{_error(error) if error else ''}"
        f'<form method="post" action="{action}"><input type="hidden" name="csrf" '
        f'value="{e(token)}">{keep}<label>Name <input name="username" required maxlength="20" '
        f'autocomplete="username" pattern="[A-Za-z0-9][A-Za-z0-9_\\-]{{1,19}}"{described}>'
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
    response = _page("Sign up", body, await actor_of(request))
    if fresh:
        _set_form_cookie(request, response, token)
    return response


async def login_page(request: Request) -> Response:
    token, fresh = _form_token(request)
    next_path = safe_next(request.query_params.get("next"))
    body = _account_form("/login", "Log in", token, twice=False, next_path=next_path)
    response = _page("Log in", body, await actor_of(request))
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
    name, password = fields.get("username", ""), fields.get("password", "")
    token = request.cookies.get(FORM_COOKIE, "")
    next_path = safe_next(fields.get("next"))
    if password != fields.get("password2"):
        body = _account_form(
            "/signup", "Sign up", token, "the passwords differ", twice=True, next_path=next_path
        )
        return _page("Sign up", body, None, 400)
    try:
        user = await asyncio.to_thread(site.signup, name, password, _client(request))
    except (AccountError, RateLimited) as err:
        status = 429 if isinstance(err, RateLimited) else err.status
        body = _account_form("/signup", "Sign up", token, str(err), twice=True, next_path=next_path)
        return _page("Sign up", body, None, status)
    await _end_old_session(request)
    cookie, _csrf = await asyncio.to_thread(site.users.open_session, user.id)
    return _signed_in(request, cookie, next_path)


async def login_post(request: Request) -> Response:
    site = site_of(request)
    fields = await fields_of(request)
    _check_form_csrf(request, fields)
    token = request.cookies.get(FORM_COOKIE, "")
    next_path = safe_next(fields.get("next"))
    try:
        user = await asyncio.to_thread(
            site.login, fields.get("username", ""), fields.get("password", ""), _client(request)
        )
    except RateLimited as err:
        body = _account_form("/login", "Log in", token, str(err), twice=False, next_path=next_path)
        return _page("Log in", body, None, 429)
    if user is None:
        body = _account_form(
            "/login", "Log in", token, "wrong name or password", twice=False, next_path=next_path
        )
        return _page("Log in", body, None, 401)
    await _end_old_session(request)
    cookie, _csrf = await asyncio.to_thread(site.users.open_session, user.id)
    return _signed_in(request, cookie, next_path)


async def _session(request: Request) -> tuple[Actor, dict[str, Any]]:
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
    actor, _fields = await _session(request)
    if actor.cookie:
        await asyncio.to_thread(site.users.close_session, actor.cookie)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response


# --- the account ----------------------------------------------------------------------------------


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
        )
    )
    return (
        f"{_error(message) if message else ''}{shown}"
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
    return _page("Account", _account_body(actor, tokens), actor)


async def account_post(request: Request) -> Response:
    """The account page's forms: password, token, revoke, delete."""
    site = site_of(request)
    actor, fields = await _session(request)
    action = request.path_params["action"]
    user = actor.user
    message, new_token, status = "", "", 200
    if action in ("password", "delete"):
        checked = await asyncio.to_thread(
            site.login, user.name, fields.get("password", ""), _client(request)
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
                await asyncio.to_thread(site.users.set_password, user.id, fields.get("new", ""))
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
    return _page("Account", _account_body(actor, tokens, message, new_token), actor, status)


async def token_revoke_post(request: Request) -> Response:
    site = site_of(request)
    actor, _fields = await _session(request)
    token_id = row_id(request.path_params["token_id"], "token")
    await asyncio.to_thread(site.tokens.revoke, token_id, actor.user.id)
    return RedirectResponse("/account", status_code=303)


# --- an invitation or a challenge --------------------------------------------------------------


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
        return _page("No such challenge", "<p>It may have expired.</p>", actor, 404)
    viewer = actor.user.name if actor is not None else None
    body = invitation_sentences(challenge, viewer)
    if challenge.game_id:
        body += (
            f'<p><a class="button primary" href="/game/{e(challenge.game_id)}">See the game</a></p>'
        )
    elif challenge.status != "created":
        pass
    elif actor is None:
        back = _next_query(f"/challenge/{challenge.id}")
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
    return _page(title, body, actor)


async def challenge_accept_post(request: Request) -> Response:
    site = site_of(request)
    actor, _fields = await _session(request)
    try:
        game_id = await asyncio.to_thread(
            site.challenges.accept, request.path_params["id"], actor.user
        )
    except ChallengeError as err:
        return _page("Challenge", _error(str(err)), actor, err.status)
    return RedirectResponse(f"/game/{game_id}", status_code=303)
