"""The site's guard: Host and Origin checks, body limits and security headers (one ASGI
middleware before any route, in local and public mode alike).

A server on this machine is reachable from any web page its user opens, and a public site from
anyone: cross-site requests are refused by the CSRF rules of :mod:`emergo.server.core.auth`
(a cookie's request needs the session's token), clients of the Board API post forms and empty
bodies as lichess's do, and before any route:

* ``Host`` must be a name of the site (``--allow-host``/``allow_hosts``, localhost and the
  listening address): no DNS rebinding;
* an ``Origin`` header, when present, must be the site's own origin (``https://`` when the site
  says it is served over TLS); ``Sec-Fetch-Site: cross-site`` is refused (a WebSocket from
  another site never opens);
* request bodies above :data:`MAX_BODY` bytes are refused with 413;
* the server's and the site's logs never show a cookie, a token or a CSRF token
  (:class:`HideSecrets`, whatever the log level);
* every response carries a strict Content-Security-Policy (:data:`CSP`: scripts, styles and
  connections from the site only, no inline code, no framing; ``form-action 'self'``: the
  sign-up, log-in and account pages are plain forms that post to the site) and the usual
  hardening headers, with ``Referrer-Policy: same-origin`` (:data:`HEADERS`).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024
"""Largest request body of the site, in bytes (a chat line is 140 characters; a record to
import up to this)."""

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
"""Names of this machine, always the site's."""

CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""The Content-Security-Policy of every answer."""

HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # none to other sites; under no-referrer a browser sends `Origin: null` with a same-origin
    # form post or fetch POST (the Fetch standard), which the Origin check would refuse
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
"""The security headers of every answer."""


class BodyTooLarge(Exception):
    """A request body grew past :data:`MAX_BODY` while it was read."""


def split_host(value: str) -> tuple[str, int | None]:
    """``(hostname, port)`` of a Host header value; hostname lower case, IPv6 unbracketed."""
    try:
        parts = urlsplit("//" + value)
        host = (parts.hostname or "").lower()
        return host, parts.port
    except ValueError:
        return "", None


_SECRETS = (
    # a header line of a handshake (the WebSocket library's debug log): its value
    (
        re.compile(
            r"(?i)\b(cookie|set-cookie|authorization|sec-websocket-protocol)(\s*:\s*)[^\r\n]*"
        ),
        r"\1\2[hidden]",
    ),
    # a CSRF token in a path (``?csrf=``, older pages), a personal token anywhere
    (re.compile(r"(?i)\bcsrf=[^&\s\"']+"), "csrf=[hidden]"),
    (re.compile(r"\bemo_[A-Za-z0-9_-]+"), "emo_[hidden]"),
)
LOGGERS = ("uvicorn.error", "uvicorn.access", "websockets.server", "emergo")
"""The loggers :class:`HideSecrets` guards: the server's (uvicorn writes a socket's path at
info level, its WebSocket library every handshake header at debug level) and the site's."""


class HideSecrets(logging.Filter):
    """A log filter that hides cookies, authorization headers, CSRF tokens and personal tokens
    in what is written (an operator may turn on debug logging: the secrets stay out of it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that does not format: left to the handler to say so
            return True
        hidden = message
        for pattern, replacement in _SECRETS:
            hidden = pattern.sub(replacement, hidden)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


def hide_secrets_in_logs() -> None:
    """Install :class:`HideSecrets` on :data:`LOGGERS` (once)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideSecrets) for f in logger.filters):
            logger.addFilter(HideSecrets())


def headers_of(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope.get("headers", []):
        out[key.decode("latin-1").lower()] = value.decode("latin-1")
    return out


class Guard:
    """ASGI middleware (module docstring)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = (), *, https: bool = False) -> None:
        self.app = app
        self.hosts = LOCAL_HOSTS | {h.lower().strip("[]") for h in hosts}
        self.https = https
        hide_secrets_in_logs()

    def origin_ok(self, origin: str, host_header: str) -> bool:
        """Whether ``origin`` is the site's own, reached as ``host_header``."""
        host, port = split_host(host_header)
        try:
            o = urlsplit(origin)
            o_port = o.port
        except ValueError:
            return False
        if o.scheme not in ("http", "https"):
            return False
        if self.https and o.scheme != "https":
            return False
        scheme = "https" if self.https else "http"
        o_port = o_port or (443 if o.scheme == "https" else 80)
        port = port or (443 if scheme == "https" else 80)
        return (o.hostname or "").lower() == host and o_port == port

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = headers_of(scope)
        host_header = headers.get("host", "")
        host, _port = split_host(host_header)
        if not host or host not in self.hosts:
            return 421 if host else 400, f"unexpected Host header {host_header[:80]!r}"
        origin = headers.get("origin")
        if origin is not None and not self.origin_ok(origin, host_header):
            return 403, f"cross-origin request refused (Origin {origin[:80]!r})"
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "cross-site request refused"
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return 413, f"request body larger than {MAX_BODY} bytes"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is not None:
            status, message = refusal
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
                return
            await _json_response(send, status, {"error": message})
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        await self.app(scope, _capped(receive), send_with_headers)


def _capped(receive: Receive) -> Receive:
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise BodyTooLarge()
        return message

    return wrapped


async def _json_response(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})
