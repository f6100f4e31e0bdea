"""The site's frame (one head and header on every page) and small HTML pieces its pages share.

Every page of the site has the same head and header: the site's name (a link to the lobby), the
navigation, and who is signed in with *Account* and *Log out* (or *Log in* and *Sign up*).  The
server-rendered pages of the modules are framed by :func:`page`; the script pages (the lobby,
the game page) by :func:`document`, whose controllers (the front end's bundle) fill them from
the JSON and WebSocket API (docs/online.md).

Every value written into the HTML is escaped (:func:`html.escape`); the controllers write names
and chat with ``textContent`` only.
"""

from __future__ import annotations

import functools
import html
import json
from pathlib import Path

from starlette.responses import HTMLResponse

from emergo.server.core.auth import Actor

e = html.escape

NAV = (
    ("/", "Play"),
    ("/learn", "Learn"),
    ("/training", "Puzzles"),
    ("/analysis", "Analysis"),
    ("/watch", "Watch"),
    ("/leaderboard", "Players"),
    ("/games", "Archive"),
)
"""The header's links (path, text)."""


BUILT = Path(__file__).parent.parent / "static" / "built"
"""The front end's bundle (frontend/build.mjs): ``emergo.js``, the chunks, ``pages.json``."""


@functools.cache
def _preloads() -> dict[str, str]:
    """Page name -> the ``modulepreload`` links of the chunks it runs (``pages.json``, read
    once): the browser fetches them with the entry, not one after another as it finds them."""
    pages: dict[str, list[str]] = json.loads((BUILT / "pages.json").read_text())
    return {
        page: "".join(f'<link rel="modulepreload" href="/static/built/{e(f)}">' for f in files)
        for page, files in pages.items()
    }


def _name_html(actor: Actor) -> str:
    name = e(actor.user.name)
    bot = '<span class="title">BOT</span> ' if getattr(actor.user, "bot", False) else ""
    return f'{bot}<a class="me" href="/@/{name}">{name}</a>'


def header(actor: Actor | None, current: str = "") -> str:
    """The site's header: its name, the navigation, the log-in state."""
    links = "".join(
        f'<a href="{path}"{" aria-current=page" if path == current else ""}>{e(text)}</a>'
        for path, text in NAV
    )
    if actor is not None:
        who = (
            f"{_name_html(actor)}"
            # the challenges to you, counted by the site-wide channel (page/sitewide.js)
            + '<a href="/#incoming-panel" id="challenges-link" class="badge-link" hidden>'
            'Challenges<span class="unread" data-challenges></span></a>'
            + '<a href="/notifications" id="notifications-link">Notifications'
            '<span class="unread" data-unread hidden></span></a>'
            + f'<a href="/account"{" aria-current=page" if current == "/account" else ""}>'
            "Account</a>"
            '<form class="inline" method="post" action="/logout">'
            f'<input type="hidden" name="csrf" value="{e(actor.csrf or "")}">'
            '<button type="submit" class="link">Log out</button></form>'
        )
    else:
        who = '<a href="/login">Log in</a><a class="button primary" href="/signup">Sign up</a>'
    # a signed-in page's site-wide channel (static/page/sitewide.js) reads who and the token here
    data = (
        f' data-me="{e(actor.user.name)}" data-csrf="{e(actor.csrf or "")}"'
        if actor is not None and actor.via == "session"
        else ""
    )
    return (
        '<header class="site-top"><a class="brand" href="/">Emergo</a>'
        f'<nav class="site-nav" aria-label="Site">{links}</nav>'
        f'<div class="who"{data}>{who}</div></header>'
    )


def document(
    title: str,
    body: str,
    actor: Actor | None,
    *,
    status: int = 200,
    script: str = "forms",
    kind: str = "forms",
    current: str = "",
) -> HTMLResponse:
    """A whole page: the head (styles, the page's script), the header, ``body`` in ``<main>``
    (already escaped by the caller)."""
    text = (
        '<!doctype html>\n<html lang="en" data-theme="light"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f"<title>{e(title)} · Emergo</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        '<link rel="stylesheet" href="/static/online.css">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<script type="module" src="/static/built/emergo.js"></script>'
        # an unknown page runs the forms' controller (emergo.js)
        f"{_preloads().get(script) or _preloads()['forms']}</head>"
        f'<body class="online {e(kind)}" data-page="{e(script)}">{header(actor, current)}{body}'
        "</body></html>\n"
    )
    return HTMLResponse(text, status_code=status, headers={"cache-control": "no-store"})


def page(title: str, body: str, actor: Actor | None, status: int = 200) -> HTMLResponse:
    """A server-rendered page (forms): a heading and ``body`` in the site's frame."""
    main = f'<main class="forms"><h1>{e(title)}</h1>{body}</main>'
    current = "/account" if title == "Account" else ""
    return document(title, main, actor, status=status, current=current)


def data_attributes(actor: Actor | None, **more: str) -> str:
    """The data attributes a controller reads: who you are, the session's CSRF token, ..."""
    values = {
        "me": actor.user.name if actor is not None else "",
        "csrf": (actor.csrf or "") if actor is not None else "",
        "profiles": "1",
        **more,
    }
    return "".join(f' data-{k}="{e(v)}"' for k, v in values.items())


def perf_label(perf: str) -> str:
    return perf.replace("-", " ")


def hidden_fields(actor: Actor | None) -> str:
    csrf = e(actor.csrf or "") if actor is not None else ""
    return f'<input type="hidden" name="csrf" value="{csrf}">'


def select_html(name: str, choices: list[tuple[str, str]], chosen: str | None) -> str:
    options = "".join(
        f'<option value="{e(value)}"{" selected" if value == (chosen or "") else ""}>'
        f"{e(text)}</option>"
        for value, text in choices
    )
    return f'<label>{e(name.capitalize())} <select name="{e(name)}">{options}</select></label>'


def player_link(name: str) -> str:
    return f'<a href="/@/{e(name)}">{e(name)}</a>' if name != "(deleted)" else e(name)


def rating_html(rating: int | None, diff: int | None, provisional: bool = False) -> str:
    """`` (1500? +12)``: the rating before the game, "?" when it was provisional, the change."""
    if rating is None:
        return ""
    sign = "+" if (diff or 0) > 0 else ""
    mark = "?" if provisional else ""
    return f" ({rating}{mark}{f' {sign}{diff}' if diff is not None else ''})"


CHAT_PANEL = """<section class="panel chat" id="chat-panel" aria-labelledby="chat-title">
<h2 id="chat-title">Chat</h2>
<label class="chat-switch" id="chat-switch" hidden><input type="checkbox" id="chat-open" checked>
players' chat on</label>
<ol id="chat-lines" class="chat-lines" aria-live="polite"></ol>
<form id="chat-form" class="row" autocomplete="off" hidden>
<input id="chat-text" type="text" maxlength="140" aria-label="A chat message" spellcheck="true">
<button type="submit">Send</button></form>
<p id="chat-note" class="note"></p>
</section>"""
"""The chat panel of a game's page and of an event's (``frontend/src/page/chat.js`` fills it)."""
