"""Who may talk to the server: Host and Origin checks, security headers, request size limits.

A local server is reachable from any web page the user opens, so every request and WebSocket is
checked (a pure ASGI middleware, before any route runs):

* the ``Host`` header must name this server (stops DNS rebinding: a hostile name pointed at
  127.0.0.1 arrives with its own name in ``Host``);
* an ``Origin`` header, when present, must be this server's own origin (stops cross-site
  requests and cross-site WebSocket hijacking; browsers always send it on WebSockets and on
  POST), and ``Sec-Fetch-Site: cross-site`` is refused;
* a POST must be ``application/json`` (an HTML form cannot send it without a CORS preflight,
  which this server never grants: there are no CORS headers at all; PUT and DELETE always need
  a preflight);
* bodies above :data:`MAX_BODY` bytes are refused with 413.

Every HTTP response carries a strict Content-Security-Policy (scripts and styles from this
origin only, no inline code, no framing) and the usual hardening headers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:  # only types: the limits and host names are read without the web extra
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 1 << 20
"""Largest request body accepted, in bytes (a record file of a few thousand games)."""

LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})

CSP = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)

HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]

_UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def split_host(value: str) -> tuple[str, int | None]:
    """``(hostname, port)`` of a Host header value; hostname lower case, IPv6 unbracketed."""
    try:
        parts = urlsplit("//" + value)
        host = (parts.hostname or "").lower()
        return host, parts.port
    except ValueError:
        return "", None


class Guard:
    """ASGI middleware: Host/Origin checks, body limit and security headers (module docstring)."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.hosts = LOCAL_HOSTS | {h.lower().strip("[]") for h in hosts}

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """Why a request must be refused (status, message), or ``None`` when it may go on."""
        headers = _headers(scope)
        host_header = headers.get("host", "")
        host, port = split_host(host_header)
        if not host or host not in self.hosts:
            return 421 if host else 400, f"unexpected Host header {host_header!r}"
        origin = headers.get("origin")
        if origin is not None:
            o = urlsplit(origin) if origin != "null" else None
            try:
                o_port = o.port if o is not None else None
            except ValueError:
                o = None
                o_port = None
            if o is None or o.scheme not in ("http", "https", "ws", "wss"):
                return 403, f"cross-origin request refused (Origin {origin!r})"
            o_port = o_port or (443 if o.scheme in ("https", "wss") else 80)
            port = port or (443 if scope.get("scheme") in ("https", "wss") else 80)
            if (o.hostname or "").lower() != host or o_port != port:
                return 403, f"cross-origin request refused (Origin {origin!r})"
        if headers.get("sec-fetch-site") == "cross-site":
            return 403, "cross-site request refused"
        if scope["type"] == "http" and scope["method"] in _UNSAFE_METHODS:
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            # POST is the one unsafe method a cross-site form may send without a preflight
            if scope["method"] == "POST" and kind != "application/json":
                return 415, "send the request body as application/json"
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


class BodyTooLarge(Exception):
    """A request body grew past :data:`MAX_BODY` while being read."""


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


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope.get("headers", []):
        out[key.decode("latin-1").lower()] = value.decode("latin-1")
    return out


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
