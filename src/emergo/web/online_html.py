"""The frame of the online site's server-rendered pages: the navigation, the title, the
stylesheet (:mod:`emergo.web.online_pages`, :mod:`emergo.web.online_player_pages`)."""

from __future__ import annotations

import html

from starlette.responses import HTMLResponse

from emergo.web.online_auth import Actor

e = html.escape


def page(title: str, body: str, actor: Actor | None, status: int = 200) -> HTMLResponse:
    more = '<a href="/leaderboard">Players</a> · <a href="/games">Archive</a> · '
    nav = (
        f'<a href="/">Lobby</a> · {more}signed in as <a href="/@/{e(actor.user.name)}">'
        f"<b>{e(actor.user.name)}</b></a> · "
        '<a href="/notifications">Notifications</a> · '
        f'<a href="/account">Account</a> · <form class="inline" method="post" action="/logout">'
        f'<input type="hidden" name="csrf" value="{e(actor.csrf or "")}">'
        f'<button type="submit">Log out</button></form>'
        if actor is not None
        else f'<a href="/">Lobby</a> · {more}<a href="/login">Log in</a> · '
        '<a href="/signup">Sign up</a>'
    )
    text = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)} · Emergo</title>"
        '<link rel="stylesheet" href="/static/online.css"></head>'
        f"<body><header><nav>{nav}</nav></header><main><h1>{e(title)}</h1>{body}</main>"
        "</body></html>\n"
    )
    return HTMLResponse(text, status_code=status, headers={"cache-control": "no-store"})
