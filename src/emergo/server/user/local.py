"""Local mode's sign-in: every request to ``emergo serve`` is its one player's (an ASGI
middleware).

``emergo serve`` listens on this machine only (:func:`emergo.server.core.config.check`) and
has one player, who never signs up nor logs in: a request without a valid session gets a new
session of that player (:attr:`emergo.server.site.Site.local_user`), set as the usual
``emergo_session`` cookie, so everything after it (the CSRF token, the Host and Origin checks,
the sockets) is the site's ordinary path.  A request with a token (``Authorization``: the house
bots, a script) is the token's, as on a public site.
"""

from __future__ import annotations

import asyncio
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any

from emergo.server.core.auth import COOKIE

if TYPE_CHECKING:
    from emergo.server.site import Site

Scope = dict[str, Any]


def _cookie_of(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a cookie header that cannot be read: as none
                return None
            morsel = jar.get(COOKIE)
            return morsel.value if morsel is not None else None
    return None


def _has_header(scope: Scope, name: bytes) -> bool:
    return any(key == name for key, _value in scope.get("headers", ()))


class LocalSignIn:
    """ASGI middleware of local mode (module docstring)."""

    def __init__(self, app: Any, site: Site) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket") or self.site.local_user is None:
            await self.app(scope, receive, send)
            return
        if _has_header(scope, b"authorization"):  # a token's (the house bots'): no session
            await self.app(scope, receive, send)
            return
        cookie = _cookie_of(scope)
        credentials = self.site.credentials  # this process's: no thread, no database once known
        if cookie and (
            credentials.cached(cookie) or await asyncio.to_thread(credentials.session, cookie)
        ):
            await self.app(scope, receive, send)
            return
        cookie, _csrf = await asyncio.to_thread(
            self.site.users.open_session, self.site.local_user.id
        )
        headers = [(k, v) for k, v in scope.get("headers", ()) if k != b"cookie"]
        headers.append((b"cookie", f"{COOKIE}={cookie}".encode()))
        scope = {**scope, "headers": headers}
        if scope["type"] == "websocket":  # a page always comes first: it set the cookie
            await self.app(scope, receive, send)
            return
        days = int(self.site.config.session_days * 86400)
        set_cookie = (f"{COOKIE}={cookie}; Path=/; HttpOnly; SameSite=Lax; Max-Age={days}").encode()

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {
                    **message,
                    "headers": [*message.get("headers", ()), (b"set-cookie", set_cookie)],
                }
            await send(message)

        await self.app(scope, receive, sending)
