"""The pages of /learn: the course map (``/learn``) and a level's page
(``/learn/{stage}/{level}``), signed in or out.

Both are shells in the site's frame, written from the course and its catalogue (every word is
the catalogue's): the map lists the stages and their levels as links, the level's page its goal
and the stage's intro; the front end's controller (``frontend/src/page/learn.js``) fills in the
stars, the board and the steps from ``GET /api/learn`` and ``POST /api/learn/judge``.
"""

from __future__ import annotations

import asyncio
from html import escape as e

from starlette.requests import Request
from starlette.responses import Response

from emergo.server.core.auth import actor_of
from emergo.server.core.frame import data_attributes, document
from emergo.server.learn import Course, Level, Stage
from emergo.server.learn.practice import shipped_course
from emergo.server.learn.texts import GROUPS


def _level_href(level: Level) -> str:
    return f"/learn/{e(level.id)}"


def _stage_html(course: Course, stage: Stage) -> str:
    cat = course.catalogue
    links = "".join(
        f'<li><a class="dot" href="{_level_href(level)}" data-level="{e(level.id)}"'
        f' aria-label="{e(cat.text("page.dot", n=n))}">{n}</a></li>'
        for n, level in enumerate(stage.levels, 1)
    )
    first = _level_href(stage.levels[0])
    return (
        f'<li class="stage panel" id="stage-{e(stage.id)}" data-stage="{e(stage.id)}">'
        f'<h3><a href="{first}"><span class="number">{stage.number}</span> '
        f"{e(cat.text(f'{stage.id}.title'))}</a></h3>"
        f'<ol class="dots" aria-label="{e(cat.text(f"{stage.id}.title"))}">{links}</ol></li>'
    )


def map_html(course: Course) -> str:
    """The course map's body: the intro, where the player stands, the stages by group."""
    cat = course.catalogue
    starts = {first: key for key, first in GROUPS}
    groups: list[tuple[str, list[Stage]]] = []
    for stage in course.stages:
        if stage.id in starts or not groups:
            groups.append((starts.get(stage.id, GROUPS[0][0]), []))
        groups[-1][1].append(stage)
    sections = "".join(
        f'<section class="learn-group"><h2>{e(cat.text(f"page.{key}"))}</h2>'
        f'<ol class="stages">{"".join(_stage_html(course, s) for s in stages)}</ol></section>'
        for key, stages in groups
    )
    first = _level_href(course.stages[0].levels[0])
    return (
        f"<h1>{e(cat.text('page.title'))}</h1>"
        f'<p class="intro">{e(cat.text("page.intro"))}</p>'
        '<div class="where row">'
        f'<a class="button primary" id="continue" href="{first}">{e(cat.text("page.start"))}</a>'
        '<p id="learn-progress" class="note" aria-live="polite"></p></div>'
        '<p id="learn-kept" class="note"></p>'
        f"{sections}"
    )


async def course_map(request: Request) -> Response:
    """``/learn``: the course map (the controller adds the stars)."""
    actor = await actor_of(request)
    course = await asyncio.to_thread(shipped_course)
    body = (
        f'<main class="learn-map" id="learn"{data_attributes(actor, view="map")}>'
        f"{map_html(course)}</main>"
    )
    return document(
        course.catalogue.text("page.title"), body, actor, script="learn", current="/learn"
    )


def level_html(course: Course, level: Level) -> str:
    """A level's shell: where it is in the course, its goal, the stage's intro (open on the
    stage's first level), the board's place and the controls the controller shows."""
    cat = course.catalogue
    stage = next(s for s in course.stages if s.id == level.stage)
    n = stage.levels.index(level) + 1
    stage_title = cat.text(f"{stage.id}.title")
    dots = "".join(
        f'<li><a class="dot{" current" if other is level else ""}" href="{_level_href(other)}"'
        f' data-level="{e(other.id)}"{" aria-current=page" if other is level else ""}'
        f' aria-label="{e(cat.text("page.dot", n=i))}">{i}</a></li>'
        for i, other in enumerate(stage.levels, 1)
    )
    where = cat.text("page.level", n=n, count=len(stage.levels))
    intro = (
        f'<details class="panel learn-intro" id="intro"{" open" if n == 1 else ""}>'
        f"<summary>{e(cat.text('page.about'))}</summary>"
        f"<p>{e(cat.text(f'{stage.id}.intro'))}</p></details>"
    )
    return (
        '<section class="panel learn-head" id="learn-head">'
        f'<p class="crumbs"><a href="/learn">{e(cat.text("page.map"))}</a> · '
        f"{e(cat.text('page.stage', n=stage.number))}: {e(stage_title)}</p>"
        f'<div class="where"><span id="where">{e(where)}</span>'
        f'<ol class="dots" aria-label="{e(stage_title)}">{dots}</ol></div>'
        f'<p class="goal" id="goal">{e(cat.text(f"{level.key}.goal"))}</p>'
        '<p id="status" class="status" role="status" aria-live="polite"></p>'
        '<p id="message" class="message" role="alert" aria-live="assertive"></p>'
        "</section>"
        '<section class="board-area" aria-label="Board">'
        '<div class="player" id="player-top"></div>'
        '<div class="board-wrap"><div id="board"></div></div>'
        '<div class="player" id="player-bottom"></div>'
        "</section>"
        f"{_controls(course, level)}{intro}"
    )


def next_level(course: Course, level: Level) -> Level | None:
    """The level after ``level`` in the course that this site can play (None: the end)."""
    order = list(course.levels.values())
    missing = set(course.unavailable())
    later = order[order.index(level) + 1 :]
    return next((other for other in later if other.id not in missing), None)


def _controls(course: Course, level: Level) -> str:
    """The side of a level's page: the move or answer, hints, retry, the stars at the end and
    the next level, or the game against the computer of a practice level."""
    cat = course.catalogue
    after = next_level(course, level)
    if after is None:
        href, next_text = "/learn", cat.text("page.course-done")
    elif after.stage != level.stage:
        href = _level_href(after)
        next_text = cat.text("page.next-stage", title=cat.text(f"{after.stage}.title"))
    else:
        href, next_text = _level_href(after), cat.text("page.next")
    choices = "".join(
        f'<button type="button" class="choice" data-choice="{e(choice)}">'
        f"<kbd>{n}</kbd> {e(cat.text(f'choice.{choice}'))}</button>"
        for n, choice in enumerate(level.choices, 1)
    )
    side = "white" if course.start_board(level).turn else "black"
    practice = ""
    if level.opponent == "bot":
        note = cat.text("page.practice-note", color=cat.text(f"color.{side}"), level=level.bot)
        login = f"/login?next={e(_level_href(level))}"
        practice = (
            '<div class="practice" id="practice">'
            f'<p class="note">{e(note)}</p>'
            f'<button type="button" id="practice-start" class="primary">'
            f"{e(cat.text('page.practice'))}</button>"
            f'<a class="button primary" id="practice-login" href="{login}" hidden>'
            f"{e(cat.text('page.practice-login'))}</a>"
            '<p class="message" id="practice-message" role="alert"></p></div>'
        )
    return (
        '<aside class="side learn-side" id="learn-side">'
        '<section class="panel learn-controls">'
        '<form id="move-form" class="row move-form" autocomplete="off" hidden>'
        f'<label for="move-text">{e(cat.text("page.type-move"))}</label>'
        '<input id="move-text" type="text" autocapitalize="off" autocorrect="off"'
        f' spellcheck="false" maxlength="60" placeholder="{e(cat.text("page.move-example"))}">'
        f'<button type="submit">{e(cat.text("page.play"))}</button></form>'
        '<form id="answer-form" class="row move-form" autocomplete="off" hidden>'
        f'<label for="answer-text">{e(cat.text("page.your-answer"))}</label>'
        '<input id="answer-text" type="text" inputmode="numeric" maxlength="20">'
        f'<button type="submit">{e(cat.text("page.answer"))}</button></form>'
        f'<div class="row choices" id="choices" role="group" hidden>{choices}</div>'
        '<div class="row actions">'
        f'<button type="button" id="hint" aria-keyshortcuts="?">{e(cat.text("page.hint"))}</button>'
        f'<button type="button" id="retry" aria-keyshortcuts="r" hidden>'
        f"{e(cat.text('page.retry'))}</button>"
        f'<button type="button" id="restart">{e(cat.text("page.restart"))}</button></div>'
        '<ol class="hints" id="hints" aria-live="polite"></ol>'
        '<div class="done" id="done" hidden tabindex="-1">'
        f'<h2>{e(cat.text("page.done"))} <span class="stars" id="stars"></span></h2>'
        '<p id="stars-said"></p><p id="done-text"></p><ul class="notes" id="notes"></ul>'
        f'<button type="button" id="replay">{e(cat.text("page.replay"))}</button> '
        f'<button type="button" id="replay-solution" hidden>'
        f"{e(cat.text('page.replay-solution'))}</button> "
        f'<a class="button primary" id="next" href="{href}" '
        'aria-keyshortcuts="Enter Space ArrowRight n">'
        f"{e(next_text)}</a></div>"
        f"{practice}"
        f'<p class="note" id="unavailable" hidden>{e(cat.text("page.unavailable"))} '
        f'<a href="{href}">{e(next_text)}</a></p>'
        "</section>"
        f'<p class="note keys">{e(cat.text("page.keys"))}</p>'
        "</aside>"
    )


async def level_page(request: Request) -> Response:
    """``/learn/{stage}/{level}``: a level (the controller plays it)."""
    actor = await actor_of(request)
    course = await asyncio.to_thread(shipped_course)
    level_id = f"{request.path_params['stage']}/{request.path_params['level']}"
    level = course.levels.get(level_id)
    cat = course.catalogue
    if level is None:
        body = (
            '<main class="forms">'
            f"<h1>{e(cat.text('page.not-found'))}</h1>"
            f'<p><a href="/learn">{e(cat.text("page.map"))}</a></p></main>'
        )
        return document(cat.text("page.title"), body, actor, status=404, current="/learn")
    stage = next(s for s in course.stages if s.id == level.stage)
    title = f"{cat.text(f'{stage.id}.title')} {stage.levels.index(level) + 1}"
    body = (
        f'<main class="layout learn-page" id="learn"'
        f"{data_attributes(actor, view='level', level=level.id)}>"
        f"{level_html(course, level)}</main>"
    )
    return document(title, body, actor, script="learn", kind="app", current="/learn")
