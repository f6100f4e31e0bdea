"""The HTTP side of a bot: requests and NDJSON streams of a lichess-shaped Bot API, stdlib only.

:class:`Api` sends ``Authorization: Bearer TOKEN`` with every request and never puts the token
anywhere else (not in a URL, a log line or an error message).  Failures come back as the
exceptions below, so that the callers can tell what to do: an :class:`AuthError` stops the bot,
a :class:`RateLimited` says how long to wait (``Retry-After``, else a minute as lichess-bot
waits, a second for a move), a :class:`Transient` (network error, server restarting, 5xx) is
retried with back-off, any other :class:`ApiError` (a 4xx: a move the server refuses, a game
that is over) is reported and not retried.
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import json
import math
import random
import socket
import ssl
import threading
import time
import urllib.parse
from collections.abc import Iterator, Mapping
from types import TracebackType
from typing import Any, Protocol

from emergo import __version__

USER_AGENT = f"emergo-bot/{__version__}"

RATE_LIMIT_WAIT = 60.0
"""Seconds to wait after a 429 without ``Retry-After`` (lichess asks for a full minute)."""
MOVE_RATE_LIMIT_WAIT = 1.0
"""The same after a refused move: a move is worth retrying soon (lichess-bot waits a second)."""
REQUEST_TIMEOUT = 10.0
"""Seconds a plain request may take."""
STREAM_TIMEOUT = 30.0
"""Seconds a stream may stay silent before it counts as dead (servers send an empty keep-alive
line every few seconds: lichess every 6 to 7)."""
MAX_BODY = 1 << 20
"""Bytes of an answer read at most."""
MAX_LINE = 1 << 20
"""Bytes of one stream line read at most."""

JSON = Any
"""A decoded JSON value."""


class ApiError(Exception):
    """The server answered a request with an error status (the message says which and why)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class AuthError(ApiError):
    """The server refused the token (401), or the token may not do this (403)."""


class RateLimited(ApiError):
    """A 429: no request to this endpoint before ``retry_after`` seconds have passed."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message, 429)
        self.retry_after = retry_after


class Transient(ApiError):
    """A failure that should pass: the network, a server restarting, a 5xx, a stream gone quiet."""


class Backoff:
    """Exponential back-off with jitter: ``base``, ``2 * base`` ... up to ``cap`` seconds, each
    drawn in ``[delay / 2, delay]`` so that many bots reconnecting do not all come at once."""

    def __init__(self, base: float = 1.0, cap: float = 60.0, rng: random.Random | None = None):
        self.base, self.cap = base, cap
        self.failures = 0
        self._rng = rng or random.Random()

    def next(self) -> float:
        delay = min(self.cap, self.base * 2.0 ** min(self.failures, 30))
        self.failures += 1
        return delay * self._rng.uniform(0.5, 1.0)

    def reset(self) -> None:
        self.failures = 0


def retry_after(value: str | None, default: float, now: float | None = None) -> float:
    """Seconds to wait from a ``Retry-After`` header: a number of seconds or an HTTP date.

    >>> retry_after("7", 60.0), retry_after(None, 60.0), retry_after("soon", 1.0)
    (7.0, 60.0, 1.0)
    >>> retry_after("Thu, 01 Jan 1970 00:01:40 GMT", 60.0, now=40.0)
    60.0
    """
    if value is None or not value.strip():
        return default
    text = value.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return default
        seconds = when.timestamp() - (time.time() if now is None else now)
    if not math.isfinite(seconds):
        return default
    return min(max(seconds, 0.0), 3600.0)


def _message(body: bytes, limit: int = 200) -> str:
    """The server's reason from an error answer: its JSON ``error`` (lichess) or its text."""
    text = body.decode("utf-8", "replace").strip()
    with contextlib.suppress(ValueError):
        data = json.loads(text)
        if isinstance(data, dict):
            for key in ("error", "message", "detail"):
                if isinstance(data.get(key), str):
                    text = data[key]
                    break
    text = "".join(c if c.isprintable() else " " for c in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_server(url: str) -> str:
    """The server's base URL, checked: ``http://`` or ``https://`` and a host (ValueError)."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"the server must be an http:// or https:// URL, not {url!r}")
    try:
        parts.port  # noqa: B018 (raises ValueError for a bad port)
    except ValueError:
        raise ValueError(f"bad port in the server URL {url!r}") from None
    if parts.query or parts.fragment:
        raise ValueError(f"the server URL must not have a query or fragment: {url!r}")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


class Stream:
    """One NDJSON stream: iterate for its messages (``None`` for each keep-alive line).

    The iteration ends when the server closes the stream; a silence longer than the stream
    timeout, a broken connection or a line that is not JSON raise :class:`Transient`.
    :meth:`close` (from any thread) ends it at once.
    """

    def __init__(self, connection: http.client.HTTPConnection, response: http.client.HTTPResponse):
        self._connection = connection
        self._response = response
        self._closed = False

    def __iter__(self) -> Iterator[dict[str, JSON] | None]:
        while True:
            try:
                line = self._response.readline(MAX_LINE + 1)
            except Exception as e:
                if self._closed:  # closed by another thread: whatever the read met, it is over
                    return
                if not isinstance(e, OSError | http.client.HTTPException | ValueError):
                    raise
                raise Transient(f"the stream broke: {_describe(e)}") from None
            if not line:
                return
            if len(line) > MAX_LINE:
                raise Transient("the stream sent a line longer than 1 MB")
            text = line.strip()
            if not text:
                yield None  # keep-alive
                continue
            try:
                message = json.loads(text)
            except ValueError:
                why = _message(text)
                raise Transient(f"the stream sent a line that is not JSON: {why}") from None
            if isinstance(message, dict):
                yield message

    def close(self) -> None:
        """End the stream (a blocked read returns): safe from any thread, more than once."""
        self._closed = True
        sock = self._connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            self._connection.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class _NoDelay:
    """Sends each small request at once (no Nagle wait for the previous packet's ack)."""

    sock: socket.socket | None

    def connect(self) -> None:
        super().connect()  # type: ignore[misc]
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class _HTTPConnection(_NoDelay, http.client.HTTPConnection):
    pass


class _HTTPSConnection(_NoDelay, http.client.HTTPSConnection):
    pass


def _describe(error: BaseException) -> str:
    if isinstance(error, TimeoutError | socket.timeout):
        return "no answer in time"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, http.client.RemoteDisconnected):
        return "the server closed the connection"
    if isinstance(error, ssl.SSLError):
        return f"TLS error: {error.reason or error}"
    text = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return str(text)


class Lines(Protocol):
    """A stream's messages (``None`` for a keep-alive), closed from any thread by :meth:`close`."""

    def __iter__(self) -> Iterator[dict[str, JSON] | None]: ...
    def close(self) -> None: ...


class Transport(Protocol):
    """What a bot speaks to its server through: :class:`Api` over HTTP, or the server's own
    services (its house bots in local mode, :mod:`emergo.server.bots.inprocess`), which answer
    the same templates with the same messages and raise the same errors."""

    server: str

    def get(self, template: str, *args: str) -> JSON: ...
    def post(self, template: str, *args: str, form: Mapping[str, str] | None = None) -> JSON: ...
    def stream(self, template: str, *args: str) -> Lines: ...
    def close(self) -> None: ...


class Api:
    """A lichess-shaped HTTP API at ``server`` (its base URL), as the account of ``token``.

    Plain requests reuse one keep-alive connection per thread; each stream has its own.
    A 429 holds back further requests to the same endpoint (its path template) until the
    wait is over: they raise :class:`RateLimited` at once without reaching the server.
    """

    def __init__(
        self,
        server: str,
        token: str,
        *,
        timeout: float = REQUEST_TIMEOUT,
        stream_timeout: float = STREAM_TIMEOUT,
        user_agent: str = USER_AGENT,
    ) -> None:
        self.server = check_server(server)
        parts = urllib.parse.urlsplit(self.server)
        self._https = parts.scheme == "https"
        self._host = parts.hostname or ""
        self._port = parts.port
        self._prefix = parts.path
        self.__token = token
        self.timeout = timeout
        self.stream_timeout = stream_timeout
        self.user_agent = user_agent
        self._local = threading.local()
        self._limits: dict[str, float] = {}
        self._limits_lock = threading.Lock()

    def __repr__(self) -> str:  # never the token
        return f"Api({self.server!r})"

    # --- plain requests -------------------------------------------------------------------

    def get(self, template: str, *args: str) -> JSON:
        """GET a JSON answer from ``template`` filled with the (quoted) ``args``."""
        return self.request("GET", template, *args)

    def post(self, template: str, *args: str, form: Mapping[str, str] | None = None) -> JSON:
        """POST (a form, when given) to ``template`` filled with the (quoted) ``args``."""
        return self.request("POST", template, *args, form=form)

    def request(
        self, method: str, template: str, *args: str, form: Mapping[str, str] | None = None
    ) -> JSON:
        """One request: its JSON answer (``None`` for an empty one), or this module's errors."""
        self._check_limit(template)
        path = self._path(template, args)
        body = urllib.parse.urlencode(form).encode() if form is not None else None
        headers = self._headers("application/json")
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif method == "POST":
            headers["Content-Length"] = "0"
        for attempt in (1, 2):
            connection, fresh = self._connection()
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read(MAX_BODY)
                if response.will_close or response.length:
                    self._drop_connection()
                break
            except (OSError, http.client.HTTPException) as e:
                self._drop_connection()
                # A kept-alive connection the server has closed meanwhile fails at once:
                # the request never reached it, so it is sent again on a new one.
                stale = isinstance(
                    e, http.client.RemoteDisconnected | BrokenPipeError | ConnectionResetError
                )
                if attempt == 1 and not fresh and stale:
                    continue
                raise Transient(f"{method} {template}: {_describe(e)}") from None
        self._check_status(response.status, response.getheader("Retry-After"), data, template)
        if not data.strip():
            return None
        try:
            return json.loads(data)
        except ValueError:
            return data.decode("utf-8", "replace")

    # --- streams ------------------------------------------------------------------------

    def stream(self, template: str, *args: str) -> Stream:
        """Open the NDJSON stream at ``template``; its errors are raised here, before any line."""
        self._check_limit(template)
        connection = self._new_connection(self.stream_timeout)
        try:
            connection.request(
                "GET", self._path(template, args), headers=self._headers("application/x-ndjson")
            )
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as e:
            connection.close()
            raise Transient(f"GET {template}: {_describe(e)}") from None
        if response.status != 200:
            try:
                data = response.read(MAX_BODY)
            except (OSError, http.client.HTTPException):
                data = b""
            connection.close()
            self._check_status(response.status, response.getheader("Retry-After"), data, template)
            raise ApiError(f"GET {template}: unexpected status {response.status}", response.status)
        return Stream(connection, response)

    # --- the details --------------------------------------------------------------------

    def _path(self, template: str, args: tuple[str, ...]) -> str:
        quoted = [urllib.parse.quote(str(arg), safe="") for arg in args]
        return self._prefix + template.format(*quoted)

    def _headers(self, accept: str) -> dict[str, str]:
        return {
            "Authorization": f"Bearer {self.__token}",
            "User-Agent": self.user_agent,
            "Accept": accept,
        }

    def _new_connection(self, timeout: float) -> http.client.HTTPConnection:
        if self._https:
            return _HTTPSConnection(
                self._host, self._port, timeout=timeout, context=ssl.create_default_context()
            )
        return _HTTPConnection(self._host, self._port, timeout=timeout)

    def _connection(self) -> tuple[http.client.HTTPConnection, bool]:
        """This thread's keep-alive connection, and whether it is new."""
        connection: http.client.HTTPConnection | None = getattr(self._local, "connection", None)
        if connection is not None:
            return connection, False
        connection = self._new_connection(self.timeout)
        self._local.connection = connection
        return connection, True

    def _drop_connection(self) -> None:
        connection = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            with contextlib.suppress(OSError):
                connection.close()

    def close(self) -> None:
        """Close this thread's keep-alive connection."""
        self._drop_connection()

    def _check_limit(self, template: str) -> None:
        with self._limits_lock:
            until = self._limits.get(template)
        if until is not None:
            left = until - time.monotonic()
            if left > 0:
                raise RateLimited(f"{template} is rate limited for {left:.0f} s more", left)

    def _check_status(
        self, status: int, retry_header: str | None, data: bytes, template: str
    ) -> None:
        if 200 <= status < 300:
            return
        why = _message(data)
        detail = f": {why}" if why else ""
        if status == 401:
            raise AuthError(f"the server refused the token (401{detail})", status)
        if status == 403:
            raise AuthError(f"{template}: forbidden for this token (403{detail})", status)
        if status == 429:
            default = MOVE_RATE_LIMIT_WAIT if "/move/" in template else RATE_LIMIT_WAIT
            wait = retry_after(retry_header, default)
            with self._limits_lock:
                self._limits[template] = time.monotonic() + wait
            raise RateLimited(f"{template}: rate limited (429), waiting {wait:g} s", wait)
        if status >= 500:
            raise Transient(f"{template}: server error {status}{detail}", status)
        raise ApiError(f"{template}: {status}{detail}", status)
