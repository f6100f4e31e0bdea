"""Studies over HTTP (lichess's study API, in our records; docs/web.md):

* ``GET /api/study/by/{username}``: a player's studies (the public ones; all of them to their
  owner: a session or a token with ``study:read``);
* ``POST /api/study`` ``{"name", "visibility", "record"? | "pos"?, "chapter"?}``: a new study,
  each game of ``record`` a chapter (else one empty chapter at ``pos``, named ``chapter``);
* ``GET /api/study/{id}``: the study and its chapters; ``POST`` ``{"name"?, "visibility"?}``
  changes it; ``DELETE`` deletes it;
* ``POST /api/study/{id}/import`` ``{"record" | "pos", "name"?}``: new chapters (lichess's
  ``import-pgn``);
* ``GET /api/study/{id}/{chapter}``: a chapter: its tree (the record's JSON form, with each
  move's route and texts), its revision ``rev``; ``POST`` ``{"edits"?, "name"?, "rev"?}``
  edits it by node path (:mod:`emergo.server.study.chapters`); ``DELETE`` deletes it;
* ``GET /api/study/{id}.egn`` and ``GET /api/study/{id}/{chapter}.egn`` (also under
  ``/study/``): the records, ``?comments=false&variations=false&clocks=false`` as lichess's.

Reading a public or unlisted study needs no credentials; a private one is its owner's alone
(a token needs ``study:read``); every change is the owner's (a token needs ``study:write``; a
session its CSRF token).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from emergo.server.core.auth import Actor, ApiError, actor_of, fields_of, require, site_of
from emergo.server.core.inputs import clean_name, text_of
from emergo.server.study.chapters import (
    MAX_CHAPTERS,
    ChapterRecord,
    StudyError,
    chapter_json,
    export_text,
    new_chapter,
    read_chapters,
    study_text,
)
from emergo.server.study.service import MAX_NAME, VISIBILITIES, Study, visibility_of

RECORDS = "application/x-emergo-record"
MAX_RECORD = 1 << 20
"""Longest record text a request may send (the site's body limit is lower)."""


def _name(value: Any, what: str, default: str) -> str:
    return clean_name(value, what, limit=MAX_NAME, default=default)


async def readable(request: Request, study_id: str) -> tuple[Study, Actor | None]:
    """The study a request may read, and who asks; 404 when there is none, 403 when it is
    private and not theirs (or their token lacks ``study:read``)."""
    site = site_of(request)
    actor = await actor_of(request)
    study = await asyncio.to_thread(site.studies.get, study_id)
    if study is None:
        raise StudyError("no such study", 404)
    if study.visibility == "private":
        if actor is None or actor.user.id != study.owner_id:
            raise StudyError(
                "this study is private: only its owner may open it",
                403,
                words="This study is private: only its owner can open it.",
            )
        if "study:read" not in actor.scopes:
            raise ApiError("this token lacks the scope study:read", 403)
    return study, actor


def _chapters_of(data: dict[str, Any], first: int, key: str) -> list[ChapterRecord]:
    """The chapters a request brings: each game of ``record`` (or ``pgn``), else one empty
    chapter at ``pos``; the first named by the field ``key`` when it is given."""
    text = text_of(data, "record", limit=MAX_RECORD)
    if text is None:
        text = text_of(data, "pgn", limit=MAX_RECORD)
    name = _name(data.get(key), "the chapter's name", "")
    if text is not None and text.strip():
        return read_chapters(text, first=first, name=name)
    pos = text_of(data, "pos", limit=2000)
    return [new_chapter(pos, name or f"Chapter {first}")]


async def study_create(request: Request) -> Response:
    fields = await fields_of(request)
    actor = await require(request, "study:write", fields)
    site = site_of(request)
    name = _name(fields.get("name"), "the study's name", "Study")
    visibility = visibility_of(fields.get("visibility"))
    chapters = await asyncio.to_thread(_chapters_of, fields, 1, "chapter")
    study = await asyncio.to_thread(site.studies.create, actor.user, name, visibility, chapters)
    return JSONResponse(study.json(), status_code=201)


async def studies_by(request: Request) -> Response:
    """A player's studies: the public ones, or all of them to their owner."""
    site = site_of(request)
    name = request.path_params["username"]
    found = await asyncio.to_thread(site.archive.user, name)
    if found is None:
        raise ApiError("no such user", 404)
    actor = await actor_of(request)
    own = actor is not None and actor.user.id == found[0] and "study:read" in actor.scopes
    studies = await asyncio.to_thread(site.studies.of_owner, found[0], listed_only=not own)
    return JSONResponse({"studies": [s.json() for s in studies]})


async def study(request: Request) -> Response:
    """``GET|POST|DELETE /api/study/{id}``."""
    site = site_of(request)
    study_id = request.path_params["id"]
    if request.method == "GET":
        found, _actor = await readable(request, study_id)
        return JSONResponse(found.json())
    fields = await fields_of(request) if request.method == "POST" else {}
    actor = await require(request, "study:write", fields)
    if request.method == "DELETE":
        await asyncio.to_thread(site.studies.delete, study_id, actor.user)
        return JSONResponse({"ok": True})
    name = fields.get("name")
    changed = await asyncio.to_thread(
        site.studies.change,
        study_id,
        actor.user,
        name=_name(name, "the study's name", "") if name is not None else None,
        visibility=visibility_of(fields.get("visibility"), "") or None,
    )
    return JSONResponse(changed.json())


async def study_import(request: Request) -> Response:
    """``POST /api/study/{id}/import``: new chapters from a record (or an empty one at a
    position) after the study's last."""
    fields = await fields_of(request)
    actor = await require(request, "study:write", fields)
    site = site_of(request)
    study_id = request.path_params["id"]
    found = await asyncio.to_thread(site.studies.get, study_id)
    if found is None:
        raise StudyError("no such study", 404)
    if found.owner_id != actor.user.id:
        raise StudyError("only the study's owner may change it", 403)
    chapters = await asyncio.to_thread(_chapters_of, fields, len(found.chapters) + 1, "name")
    made = await asyncio.to_thread(site.studies.add_chapters, study_id, actor.user, chapters)
    return JSONResponse({"chapters": [c.json() for c in made]})


async def chapter(request: Request) -> Response:
    """``GET|POST|DELETE /api/study/{id}/{chapter}``."""
    site = site_of(request)
    study_id, chapter_id = request.path_params["id"], request.path_params["chapter"]
    if request.method == "GET":
        found, actor = await readable(request, study_id)
        one = await asyncio.to_thread(site.studies.chapter, study_id, chapter_id)
        if one is None:
            raise StudyError("no such chapter", 404)
        tree = await asyncio.to_thread(chapter_json, one.record)
        mine = actor is not None and actor.user.id == found.owner_id
        return JSONResponse(
            {
                **one.info.json(),
                "study": {**found.json(), "mine": mine},
                "tree": tree,
            }
        )
    fields = await fields_of(request) if request.method == "POST" else {}
    actor = await require(request, "study:write", fields)
    if request.method == "DELETE":
        await asyncio.to_thread(site.studies.delete_chapter, study_id, chapter_id, actor.user)
        return JSONResponse({"ok": True})
    rev = fields.get("rev")
    if rev is not None and (isinstance(rev, bool) or not isinstance(rev, int | float)):
        raise StudyError("rev must be the chapter's revision (a number)")
    name = fields.get("name")
    edited = await asyncio.to_thread(
        site.studies.edit_chapter,
        study_id,
        chapter_id,
        actor.user,
        edits=fields.get("edits"),
        name=_name(name, "the chapter's name", "") if name is not None else None,
        rev=rev,
    )
    return JSONResponse(edited.info.json())


def _flag(request: Request, key: str) -> bool:
    value = request.query_params.get(key, "true").lower()
    if value not in ("true", "false", "1", "0"):
        raise StudyError(f"{key} must be true or false")
    return value in ("true", "1")


def _record_response(text: str, filename: str) -> Response:
    return PlainTextResponse(
        text,
        media_type=RECORDS,
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


def _flags(request: Request) -> dict[str, bool]:
    return {k: _flag(request, k) for k in ("comments", "variations", "clocks")}


async def chapter_export(request: Request) -> Response:
    """``GET /study/{id}/{chapter}.egn``: a chapter's record, as stored."""
    site = site_of(request)
    study_id, chapter_id = request.path_params["id"], request.path_params["chapter"]
    await readable(request, study_id)
    one = await asyncio.to_thread(site.studies.chapter, study_id, chapter_id)
    if one is None:
        raise StudyError("no such chapter", 404)
    text = await asyncio.to_thread(export_text, one.record, **_flags(request))
    return _record_response(text, f"emergo-study-{study_id}-{chapter_id}.egn")


async def study_export(request: Request) -> Response:
    """``GET /study/{id}.egn``: every chapter's record, one after another."""
    site = site_of(request)
    study_id = request.path_params["id"]
    await readable(request, study_id)
    flags = _flags(request)
    records = await asyncio.to_thread(site.studies.records, study_id)
    texts = [await asyncio.to_thread(export_text, r, **flags) for r in records]
    return _record_response(study_text(texts), f"emergo-study-{study_id}.egn")


# --- the OpenAPI description ---------------------------------------------------------------


def openapi_paths() -> dict[str, Any]:
    """The OpenAPI description of these routes (:mod:`emergo.server.openapi`)."""
    said = {
        400: "bad input: the message says which field and why",
        401: "no or bad credentials",
        403: "a private study not yours, not your study, a token without the scope, or CSRF",
        404: "no such study, chapter or player",
        409: "the chapter changed since the revision the edits were made on",
        413: "body too large",
        415: "body neither JSON nor a form",
    }
    error = {
        "type": "object",
        "properties": {"error": {"type": "string"}},
        "required": ["error"],
    }

    def answers(*codes: int, kind: str = "application/json", status: int = 200) -> dict[str, Any]:
        schema = {"type": "string"} if kind == RECORDS else {"type": "object"}
        out: dict[str, Any] = {
            str(status): {"description": "done", "content": {kind: {"schema": schema}}}
        }
        for code in codes:
            out[str(code)] = {
                "description": said[code],
                "content": {"application/json": {"schema": error}},
            }
        return out

    def body(schema: dict[str, Any]) -> dict[str, Any]:
        return {
            "required": False,
            "content": {
                "application/json": {"schema": schema},
                "application/x-www-form-urlencoded": {"schema": schema},
            },
        }

    def path(name: str, what: str) -> dict[str, Any]:
        return {
            "name": name,
            "in": "path",
            "required": True,
            "schema": {"type": "string", "maxLength": 40},
            "description": what,
        }

    sid = path("id", "the study's id (8 characters)")
    cid = path("chapter", "the chapter's id (8 characters)")
    flags = [
        {
            "name": key,
            "in": "query",
            "required": False,
            "schema": {"type": "string", "enum": ["true", "false"]},
            "description": f"keep the {key} (default true)",
        }
        for key in ("comments", "variations", "clocks")
    ]
    name = {"type": "string", "maxLength": MAX_NAME}
    visibility = {"type": "string", "enum": list(VISIBILITIES)}
    chapters = {
        "record": {
            "type": "string",
            "description": f"a record (docs/records.md): each game a chapter (at most "
            f"{MAX_CHAPTERS})",
        },
        "pgn": {"type": "string", "description": "the same as record (lichess's field)"},
        "pos": {"type": "string", "maxLength": 2000, "description": "an empty chapter at R22"},
    }
    edit = {
        "type": "object",
        "properties": {
            "op": {"type": "string", "enum": ["add", "delete", "promote", "set", "tags"]},
            "path": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "move": {"type": "string"},
            "comment": {"type": "string"},
            "starting_comment": {"type": "string"},
            "nags": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            "shapes": {"type": "array", "items": {"type": "object"}},
            "clock": {"type": "number"},
            "eval": {"type": "object"},
            "tags": {"type": "object"},
        },
        "required": ["op"],
    }
    read = [{}, {"bearer": ["study:read"]}]
    write = [{"bearer": ["study:write"]}]
    egn = answers(400, 403, 404, kind=RECORDS)
    return {
        "/api/study": {
            "post": {
                "summary": "a new study of yours: each game of a record a chapter",
                "security": write,
                "requestBody": body(
                    {
                        "type": "object",
                        "properties": {
                            "name": name,
                            "visibility": visibility,
                            "chapter": name,
                            **chapters,
                        },
                    }
                ),
                "responses": answers(400, 401, 403, 413, 415, status=201),
            }
        },
        "/api/study/by/{username}": {
            "get": {
                "summary": "a player's studies: the public ones (all of them to their owner)",
                "parameters": [path("username", "the player's name")],
                "security": read,
                "responses": answers(401, 404),
            }
        },
        "/api/study/{id}.egn": {
            "get": {
                "summary": "a whole study as a record: its chapters one after another",
                "parameters": [sid, *flags],
                "security": read,
                "responses": egn,
            }
        },
        "/api/study/{id}/{chapter}.egn": {
            "get": {
                "summary": "a chapter's record (as stored: an imported record unchanged)",
                "parameters": [sid, cid, *flags],
                "security": read,
                "responses": egn,
            }
        },
        "/api/study/{id}": {
            "get": {
                "summary": "a study and its chapters",
                "parameters": [sid],
                "security": read,
                "responses": answers(401, 403, 404),
            },
            "post": {
                "summary": "rename your study or change who may read it",
                "parameters": [sid],
                "security": write,
                "requestBody": body(
                    {"type": "object", "properties": {"name": name, "visibility": visibility}}
                ),
                "responses": answers(400, 401, 403, 404, 413, 415),
            },
            "delete": {
                "summary": "delete your study",
                "parameters": [sid],
                "security": write,
                "responses": answers(401, 403, 404),
            },
        },
        "/api/study/{id}/import": {
            "post": {
                "summary": "new chapters in your study from a record (lichess's import-pgn)",
                "parameters": [sid],
                "security": write,
                "requestBody": body({"type": "object", "properties": {"name": name, **chapters}}),
                "responses": answers(400, 401, 403, 404, 413, 415),
            }
        },
        "/api/study/{id}/{chapter}": {
            "get": {
                "summary": "a chapter: its tree (the record's JSON form) and revision",
                "parameters": [sid, cid],
                "security": read,
                "responses": answers(401, 403, 404),
            },
            "post": {
                "summary": "edit your chapter by node path, or rename it",
                "parameters": [sid, cid],
                "security": write,
                "requestBody": body(
                    {
                        "type": "object",
                        "properties": {
                            "name": name,
                            "rev": {"type": "number"},
                            "edits": {"type": "array", "items": edit},
                        },
                    }
                ),
                "responses": answers(400, 401, 403, 404, 409, 413, 415),
            },
            "delete": {
                "summary": "delete a chapter of your study (a study keeps one)",
                "parameters": [sid, cid],
                "security": write,
                "responses": answers(400, 401, 403, 404),
            },
        },
    }
