"""The notices' page (``/notifications``) and the mail and vacation settings
(``/account/notifications``).
"""

from __future__ import annotations

import asyncio
from html import escape as e
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from emergo.server.archive.pages import iso_time
from emergo.server.core.auth import Actor, ApiError, actor_of, check_csrf, fields_of, site_of
from emergo.server.core.db import now
from emergo.server.core.frame import hidden_fields, page
from emergo.server.correspondence.vacation import VacationError
from emergo.server.notify.letters import EMAIL_CHOICES
from emergo.server.notify.notices import NoticeError


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
    from emergo.server.notify.notices import _notice

    def item(n: dict[str, object]) -> str:
        text = e(_notice(n).line(t))
        game = str(n.get("gameId") or "")
        shown = f'<a href="/game/{e(game)}">{text}</a>' if game else text  # a warning: no game
        return f'<li class="{"unread" if not n["read"] else "read"}">{shown}</li>'

    items = "".join(item(n) for n in feed)
    body = (
        f'<p class="unread-count"><span id="unread">{unread}</span> unread</p>'
        f'<form method="post" action="/notifications/read">{hidden_fields(actor)}'
        '<button type="submit">Mark all read</button></form>'
        f'<ul class="notifications">{items or "<li>Nothing yet.</li>"}</ul>'
        '<p><a href="/account/notifications">Mail and vacation</a></p>'
    )
    return page("Notifications", body, actor)


async def session_post(request: Request) -> tuple[Actor, dict[str, Any]]:
    fields = await fields_of(request)
    actor = await actor_of(request)
    if actor is None or actor.via != "session":
        raise ApiError("sign in first", 401)
    given = fields.get("csrf") if isinstance(fields.get("csrf"), str) else None
    check_csrf(request, actor, given)
    return actor, fields


async def notifications_read(request: Request) -> Response:
    site = site_of(request)
    actor, _fields = await session_post(request)
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
            f"<p>You are on vacation until {iso_time(ends)[:16].replace('T', ' ')} UTC at the "
            f"latest ({days:.1f} days left).</p>"
            '<form method="post" action="/account/notifications/vacation-stop">'
            f"{hidden_fields(actor)}"
            '<button type="submit">End the vacation</button></form>'
        )
    else:
        vacation = (
            f"<p>You hold {days:.1f} days of vacation (30 a year, 30 at most).</p>"
            '<form method="post" action="/account/notifications/vacation-start">'
            f"{hidden_fields(actor)}"
            '<button type="submit">Start a vacation</button></form>'
        )
    return (
        (f'<p class="error" role="alert">{e(message)}</p>' if message else "")
        + "<h2>Mail</h2><p>Your turn, time running out and game over in correspondence games.</p>"
        f'<form method="post" action="/account/notifications/mail">{hidden_fields(actor)}'
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
    return page("Mail and vacation", _settings_body(actor, mail, away), actor)


async def settings_post(request: Request) -> Response:
    site = site_of(request)
    actor, fields = await session_post(request)
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
    return page("Mail and vacation", _settings_body(actor, mail, away, message), actor, status)
