"""The study pages: ``/study`` (your studies, the newest public ones, a new study) and a study
on the analysis board (``/study/{id}``, a chapter ``/study/{id}/{chapter}``), which
``frontend/src/page/study.js`` fills from the study API; the list of a player's studies that
the profile and (in local mode) the front page show.

Every value written into the HTML is escaped.  A private study is refused to anyone but its
owner, with a page that says so.
"""

from __future__ import annotations

import asyncio
from html import escape as e
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from emergo.server.analysis.pages import board_page, house_levels
from emergo.server.core.auth import Actor, actor_of, check_csrf, fields_of, site_of
from emergo.server.core.errors import SiteError
from emergo.server.core.frame import hidden_fields, page
from emergo.server.core.inputs import clean_name
from emergo.server.site import Site
from emergo.server.study.chapters import new_chapter, read_chapters
from emergo.server.study.service import VISIBILITIES, Study, visibility_of

_VISIBILITY_WORDS = {
    "private": "private: only you",
    "unlisted": "unlisted: anyone with the link",
    "public": "public: anyone, listed on your profile",
}


def _study_item(study: Study) -> str:
    chapters = len(study.chapters)
    return (
        f'<li data-study="{e(study.id)}"><a href="/study/{e(study.id)}">{e(study.name)}</a>'
        f' <span class="note">{chapters} chapter{"s" if chapters != 1 else ""} · '
        f"{e(study.visibility)}</span></li>"
    )


def study_list_html(site: Site, owner_id: int, viewer: Actor | None, *, heading: str) -> str:
    """A panel of an account's studies (in a worker thread): every one to its owner, the
    public ones to others; empty when there is none to show to another."""
    own = viewer is not None and viewer.user.id == owner_id
    studies = site.studies.of_owner(owner_id, listed_only=not own, limit=50)
    if not studies and not own:
        return ""
    items = "".join(_study_item(s) for s in studies) or '<li class="none">None yet</li>'
    new = '<p><a class="button" href="/study">New study</a></p>' if own else ""
    return (
        '<section class="panel studies" aria-labelledby="studies-title">'
        f'<h2 id="studies-title">{e(heading)}</h2><ul class="list" id="studies">{items}</ul>'
        f"{new}</section>"
    )


def _new_study_form(actor: Actor) -> str:
    options = "".join(
        f'<option value="{v}"{" selected" if v == "private" else ""}>{e(_VISIBILITY_WORDS[v])}'
        "</option>"
        for v in VISIBILITIES
    )
    return (
        '<h2>New study</h2><form method="post" action="/study" class="new-study">'
        f"{hidden_fields(actor)}"
        '<label>Name <input name="name" maxlength="100" required value="My study"></label>'
        f'<label>Who may read it <select name="visibility">{options}</select></label>'
        '<label>A record to import (optional: each game a chapter) <textarea name="record" '
        'rows="5" spellcheck="false"></textarea></label>'
        '<button type="submit" class="primary">Create</button></form>'
    )


def _studies_body(site: Site, actor: Actor | None, message: str = "") -> str:
    error = f'<p class="error" role="alert">{e(message)}</p>' if message else ""
    if actor is None:
        mine = (
            '<p><a href="/login">Log in</a> or <a href="/signup">sign up</a> to keep studies: '
            "chapters of annotated lines, shared by link.</p>"
        )
    else:
        mine = study_list_html(site, actor.user.id, actor, heading="Your studies")
        mine += _new_study_form(actor)
    public = site.studies.public(limit=30)
    items = "".join(
        _study_item(s).replace("</li>", f' <span class="note">by {e(s.owner)}</span></li>')
        for s in public
    )
    listed = (
        f'<h2>Public studies</h2><ul class="list">{items}</ul>'
        if items
        else "<h2>Public studies</h2><p>None yet.</p>"
    )
    return f"{error}{mine}{listed}"


async def studies_page(request: Request) -> Response:
    """``/study``: your studies and a new one, the newest public ones."""
    site = site_of(request)
    actor = await actor_of(request)
    body = await asyncio.to_thread(_studies_body, site, actor)
    return page("Studies", body, actor)


async def study_create_post(request: Request) -> Response:
    """``POST /study`` (the form): a new study, then its page."""
    site = site_of(request)
    actor = await actor_of(request)
    fields = await fields_of(request)
    if actor is None:
        return RedirectResponse("/login?next=/study", status_code=303)
    try:
        check_csrf(
            request, actor, fields.get("csrf") if isinstance(fields.get("csrf"), str) else None
        )
        name = clean_name(fields.get("name"), "the study's name", limit=100, default="Study")
        visibility = visibility_of(fields.get("visibility"))
        text = fields.get("record")
        text = text if isinstance(text, str) else ""
        chapters = await asyncio.to_thread(
            lambda: read_chapters(text) if text.strip() else [new_chapter(None, "Chapter 1")]
        )
        study = await asyncio.to_thread(site.studies.create, actor.user, name, visibility, chapters)
    except SiteError as err:
        body = await asyncio.to_thread(_studies_body, site, actor, str(err))
        return page("Studies", body, actor, err.status if err.status < 500 else 400)
    return RedirectResponse(f"/study/{study.id}", status_code=303)


def _refused(actor: Actor | None, status: int, text: str) -> Response:
    return page("Study", f"<p>{e(text)}</p>", actor, status)


async def study_page(request: Request) -> Response:
    """``/study/{id}`` and ``/study/{id}/{chapter}``: the study on the analysis board."""
    site = site_of(request)
    actor = await actor_of(request)
    study = await asyncio.to_thread(site.studies.get, request.path_params["id"])
    if study is None:
        return _refused(actor, 404, "There is no study with this address.")
    if study.visibility == "private" and (
        actor is None or actor.user.id != study.owner_id or "study:read" not in actor.scopes
    ):
        return _refused(actor, 403, "This study is private: only its owner can open it.")
    chapter = request.path_params.get("chapter") or study.chapters[0].id
    if not any(c.id == chapter for c in study.chapters):
        return _refused(actor, 404, "This study has no such chapter.")
    mine = actor is not None and actor.user.id == study.owner_id
    levels = await asyncio.to_thread(house_levels, site)
    return board_page(
        f"Study: {study.name}",
        actor,
        site.analysis.engine,
        panel=STUDY_PANEL,
        current="/study",
        levels=levels,
        study=study.id,
        chapter=chapter,
        mine="1" if mine else "",
    )


STUDY_PANEL = (Path(__file__).with_name("panel.html")).read_text(encoding="utf-8")
"""The study's panel: first of the side column, above the board's own panels."""
