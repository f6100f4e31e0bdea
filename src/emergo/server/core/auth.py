"""Who sends a request to the site, and whether a browser's request is really from the site.

Two ways to be someone:

* **a personal token**: ``Authorization: Bearer emo_...`` (the Board API's clients); its scopes
  say which endpoints it opens.  A browser never adds this header by itself, so a token request
  needs no CSRF check;
* **a session cookie** (``emergo_session``: HttpOnly, SameSite=Lax, Secure when the site is
  served over https): the site's pages.  Every unsafe request (POST) with it and every WebSocket
  opened with it must (1) come from the site's origin: an ``Origin`` header naming the site
  (checked by :class:`~emergo.server.core.guard.Guard`) is required, and (2) carry the
  session's CSRF token: the ``X-CSRF-Token`` header, a form field ``csrf``, or for a WebSocket
  the ``csrf`` query parameter.  The pages get the token from ``GET /api/account``
  (``csrf``) or from the page itself.

The sign-up and log-in forms have no session yet: they carry a CSRF token of a cookie of their
own (``emergo_csrf``, double submit), and need the site's ``Origin`` too.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import HTTPConnection, Request

from emergo.server.core.errors import SiteError
from emergo.server.core.guard import MAX_BODY, BodyTooLarge
from emergo.server.core.limits import address_key
from emergo.server.site import Site
from emergo.server.user.accounts import User
from emergo.server.user.credentials import ends, user_topic
from emergo.server.user.tokens import SCOPES

COOKIE = "emergo_session"
FORM_COOKIE = "emergo_csrf"
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class ApiError(SiteError):
    """A request the edge refuses: not signed in (401), a scope lacking (403), a bad field."""


@dataclass(frozen=True)
class Actor:
    """Who a request is from, and how it proved it."""

    user: User
    via: str  # "token" or "session"
    scopes: frozenset[str]
    csrf: str | None = None
    cookie: str | None = None
    credential: str = ""
    """The bus topic that ends the credential (:mod:`emergo.server.user.credentials`)."""

    @property
    def topics(self) -> tuple[str, ...]:
        """What a socket or stream opened by this actor subscribes to, to end with it."""
        return (self.credential, user_topic(self.user.id)) if self.credential else ()

    def ended(self, fired: dict[str, str]) -> bool:
        """Whether these notifications end this actor's credential (its socket closes)."""
        return bool(self.credential) and any(
            ends(self.credential, self.user.id, topic, payload) for topic, payload in fired.items()
        )


def site_of(conn: HTTPConnection) -> Site:
    site: Site = conn.app.state.site
    return site


async def actor_of(conn: HTTPConnection) -> Actor | None:
    """The request's user, or None (no credentials); a bad token is a 401 :class:`ApiError`."""
    site = site_of(conn)
    auth = conn.headers.get("authorization")
    if auth is not None:
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError("send the token as Authorization: Bearer TOKEN", 401)
        token = token.strip()
        # known to this process (no thread, no database), else asked once
        known = site.credentials.cached(token) or await asyncio.to_thread(
            site.credentials.token, token
        )
        if known is None:
            raise ApiError("no such token (revoked, or its account disabled)", 401)
        return Actor(user=known.user, via="token", scopes=known.scopes, credential=known.topic)
    cookie = conn.cookies.get(COOKIE)
    if cookie:
        known = site.credentials.cached(cookie) or await asyncio.to_thread(
            site.credentials.session, cookie
        )
        if known is not None:
            return Actor(
                user=known.user,
                via="session",
                scopes=frozenset(SCOPES),
                csrf=known.csrf,
                cookie=cookie,
                credential=known.topic,
            )
    return None


READ_SCOPES = frozenset({"challenge:read", "board:play", "bot:play"})
"""Scopes any of which lets a token read its user's events (challenges, game starts): the
event stream and the lobby socket's ``event`` messages."""
MAX_ID = 2**31 - 1
"""The largest row id a path may name (a 32-bit SQL integer)."""
_ID = re.compile(r"[0-9]{1,10}")


def same_secret(given: str | None, expected: str | None) -> bool:
    """Whether a secret sent by a client is the expected one, in constant time: compared as
    UTF-8 bytes (``hmac.compare_digest`` refuses ``str`` with non-ASCII characters: a client's
    ``"é"`` must be a wrong token, not a crash)."""
    if not isinstance(given, str) or not isinstance(expected, str) or not given or not expected:
        return False
    return hmac.compare_digest(
        given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
    )


def row_id(text: str, what: str) -> int:
    """A row id of a path (1 .. :data:`MAX_ID`); a 404 :class:`ApiError` for anything else
    (a word, a sign, a number no column holds)."""
    if not _ID.fullmatch(text) or not 1 <= int(text) <= MAX_ID:
        raise ApiError(f"no such {what}", 404)
    return int(text)


def client_address(conn: HTTPConnection) -> str:
    """The address a connection counts as for the per-address limits (with ``trust_proxy``, the
    one the proxy forwarded): :func:`emergo.server.core.limits.address_key` of it."""
    return address_key(conn.client.host if conn.client is not None else "?")


def client_key(conn: HTTPConnection, actor: Actor | None) -> str:
    """Whom a connection counts against (:class:`emergo.server.core.limits.Connections`): its user,
    or its address when anonymous (:func:`client_address`)."""
    if actor is not None:
        return f"user:{actor.user.id}"
    return f"addr:{client_address(conn)}"


def same_origin(conn: HTTPConnection) -> bool:
    """The request says it comes from the site (the guard refused any other ``Origin``)."""
    return conn.headers.get("origin") is not None


def check_csrf(conn: HTTPConnection, actor: Actor, given: str | None) -> None:
    """A cookie-authenticated unsafe request or WebSocket must come from the site's own pages
    (module docstring); a 403 :class:`ApiError` otherwise."""
    if actor.via != "session":
        return
    if not same_origin(conn):
        raise ApiError("a request with the session cookie needs the site's Origin header", 403)
    if not same_secret(given, actor.csrf):
        raise ApiError("missing or wrong CSRF token", 403)


async def require(
    request: Request, scope: str | None = None, fields: dict[str, Any] | None = None
) -> Actor:
    """The request's user with ``scope``, CSRF checked for a cookie POST; 401/403 otherwise."""
    actor = await actor_of(request)
    if actor is None:
        raise ApiError("sign in, or send a token: Authorization: Bearer TOKEN", 401)
    if scope is not None and scope not in actor.scopes:
        raise ApiError(f"this token lacks the scope {scope}", 403)
    if request.method in _UNSAFE:
        given = request.headers.get("x-csrf-token")
        if given is None and fields is not None and isinstance(fields.get("csrf"), str):
            given = fields["csrf"]
        check_csrf(request, actor, given)
    return actor


def _check_strings(value: Any, depth: int = 0) -> None:
    """Every string of a decoded body is valid Unicode (no lone surrogate: ``"\\ud800"``)."""
    if depth > 20:
        raise ApiError("the request body is nested too deeply")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ApiError("the request body holds text that is not valid Unicode") from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_strings(k, depth + 1)
            _check_strings(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check_strings(v, depth + 1)


async def fields_of(request: Request) -> dict[str, Any]:
    """The fields of a request's body: a JSON object, or form fields
    (``application/x-www-form-urlencoded``, as lichess's clients send); empty: ``{}``."""
    try:
        raw = await request.body()
    except BodyTooLarge:
        raise ApiError(f"request body larger than {MAX_BODY} bytes", 413) from None
    if len(raw) > MAX_BODY:
        raise ApiError(f"request body larger than {MAX_BODY} bytes", 413)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if not raw.strip():
        return {}
    if kind == "application/json":
        try:
            data = json.loads(raw)
        except RecursionError:
            raise ApiError("the request body is nested too deeply") from None
        except (ValueError, UnicodeDecodeError) as e:
            raise ApiError(f"the request body is not valid JSON ({e})") from None
        if not isinstance(data, dict):
            raise ApiError("the request body must be a JSON object")
        _check_strings(data)
        return data
    if kind in ("application/x-www-form-urlencoded", "text/plain", ""):
        try:
            text = raw.decode("utf-8")
            pairs = parse_qsl(
                text,
                keep_blank_values=True,
                strict_parsing=False,
                max_num_fields=50,
                errors="strict",
            )
        except (UnicodeDecodeError, ValueError) as e:
            raise ApiError(f"the form is not valid: {e}") from None
        out: dict[str, Any] = {}
        for key, value in pairs:
            out[key] = value
        _check_strings(out)
        return out
    raise ApiError("send the body as JSON or as form fields (urlencoded)", 415)


def new_form_token() -> str:
    return secrets.token_urlsafe(24)
