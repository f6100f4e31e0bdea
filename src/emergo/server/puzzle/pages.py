"""The training pages (docs/training.md): a puzzle (``/training``, ``/training/daily``,
``/training/{id}``), the dashboard (``/training/dashboard``), replay of the failed ones
(``/training/replay``) and the timed run (``/storm``), signed in or out.

Each is a shell in the site's frame; the front end's controller (``frontend/src/page/
training.js``, ``storm.js``) fills it from the puzzle API and plays on the board component.
"""

from __future__ import annotations

import asyncio
from html import escape as e

from starlette.requests import Request
from starlette.responses import Response

from emergo.geometry import VARIANTS
from emergo.server.core.auth import actor_of, site_of
from emergo.server.core.frame import data_attributes, document
from emergo.server.puzzle.service import ANGLES, theme_name
from emergo.server.site import Site

BOARDS = {"9x9": "9×9", "7x7": "7×7", "hex": "Hexagon"}


def _choosers(counts: dict[str, int]) -> str:
    themes = "".join(f'<option value="{e(a)}">{e(theme_name(a))}</option>' for a in ANGLES)
    boards = "".join(
        f'<option value="{e(v)}"{"" if counts.get(v) else " disabled"}>{e(BOARDS[v])}</option>'
        for v in VARIANTS
    )
    return (
        '<div class="row training-choose">'
        f'<label>Theme <select id="angle">{themes}</select></label>'
        f'<label>Board <select id="variant">{boards}</select></label></div>'
    )


def _nav(current: str) -> str:
    links = (
        ("/training", "Puzzles"),
        ("/training/dashboard", "Dashboard"),
        ("/training/replay", "Replay"),
        ("/storm", "Storm"),
    )
    return (
        '<nav class="training-nav row" aria-label="Training">'
        + "".join(
            f'<a href="{p}"{" aria-current=page" if p == current else ""}>{t}</a>' for p, t in links
        )
        + "</nav>"
    )


def _board_area() -> str:
    return (
        '<section class="board-area" aria-label="Board">'
        '<div class="player" id="player-top"></div>'
        '<div class="board-wrap"><div id="board"></div></div>'
        '<div class="player" id="player-bottom"></div>'
        "</section>"
    )


async def training(request: Request) -> Response:
    """A puzzle: the next at your level, the day's, or one by its id (the controller plays)."""
    path = request.url.path
    view = (
        "daily"
        if path == "/training/daily"
        else "puzzle"
        if "id" in request.path_params
        else "next"
    )
    return await _puzzle_page(request, view)


async def replay(request: Request) -> Response:
    """``/training/replay``: the puzzles you failed, again."""
    return await _puzzle_page(request, "replay")


async def _puzzle_page(request: Request, view: str) -> Response:
    actor = await actor_of(request)
    site = site_of(request)
    counts = await asyncio.to_thread(site.puzzles.counts)
    puzzle_id = str(request.path_params.get("id", ""))[:8]
    side = (
        '<aside class="side training-side" id="training-side">'
        '<section class="panel training-head">'
        f"{_nav('/training/replay' if view == 'replay' else '/training')}"
        '<h1 id="title">Puzzle</h1>'
        '<p id="status" class="status" role="status" aria-live="polite"></p>'
        '<p id="feedback" class="feedback" role="alert" aria-live="assertive"></p>'
        '<p id="rating" class="note"></p>'
        '<div class="row actions">'
        '<button type="button" id="retry" aria-keyshortcuts="r" hidden>Retry</button>'
        '<button type="button" id="solution" aria-keyshortcuts="s">View the solution</button>'
        '<button type="button" id="next" class="primary" aria-keyshortcuts="Enter n" hidden>'
        "Next puzzle</button></div>"
        '<ol class="solution-moves" id="moves" aria-label="Moves"></ol>'
        '<p class="note" id="about"></p>'
        '<p class="note"><a id="game-link" href="/analysis">The game it came from</a></p>'
        f"{_choosers(counts)}"
        '<p id="kept" class="note"></p>'
        "</section>"
        '<p class="note keys">Keys: ← and → step through the moves, Enter the next puzzle, '
        "R retry, S the solution.</p></aside>"
    )
    body = (
        f'<main class="layout training" id="training"'
        f"{data_attributes(actor, view=view, puzzle=puzzle_id)}>"
        f"{_board_area()}{side}</main>"
    )
    return document("Puzzles", body, actor, script="training", kind="app", current="/training")


async def dashboard(request: Request) -> Response:
    """``/training/dashboard``: your results per theme, weakest first, and by day."""
    actor = await actor_of(request)
    days = request.query_params.get("days", "30")
    days = days if days in ("1", "2", "3", "7", "10", "14", "21", "30", "60", "90") else "30"
    choices = " · ".join(
        f'<a href="/training/dashboard?days={d}"{" aria-current=page" if d == days else ""}>'
        f"{d} day{'s' if d != '1' else ''}</a>"
        for d in ("1", "7", "14", "30", "90")
    )
    body = (
        f'<main class="training-dashboard forms" id="training"'
        f"{data_attributes(actor, view='dashboard', days=days)}>"
        f"{_nav('/training/dashboard')}<h1>Puzzle dashboard</h1>"
        f'<p class="tabs" id="days">Over the last {choices}</p>'
        '<section class="panel" id="dash-global" aria-live="polite"></section>'
        '<section class="dash-chart" id="dash-chart" hidden></section>'
        '<h2>Themes, weakest first</h2><table class="dash-themes" id="dash-themes">'
        "<thead><tr><th>Theme</th><th>Puzzles</th><th>Solved</th><th>Failed</th>"
        '<th><abbr class="wide" title="Performance">Performance</abbr>'
        '<abbr class="narrow" title="Performance">Perf.</abbr></th></tr></thead>'
        "<tbody></tbody></table>"
        '<h2>By day</h2><table class="dash-days" id="dash-days"><thead><tr><th>Day</th>'
        "<th>Puzzles</th><th>Solved</th><th>Performance</th></tr></thead><tbody></tbody></table>"
        '<p id="kept" class="note"></p></main>'
    )
    return document("Puzzle dashboard", body, actor, script="training", current="/training")


async def storm(request: Request) -> Response:
    """``/storm``: the timed run (as lichess's Storm)."""
    actor = await actor_of(request)
    site = site_of(request)
    counts = await asyncio.to_thread(site.puzzles.counts)
    boards = "".join(
        f'<option value="{e(v)}"{"" if counts.get(v) else " disabled"}>{e(BOARDS[v])}</option>'
        for v in VARIANTS
    )
    side = (
        '<aside class="side training-side storm-side" id="storm-side">'
        '<section class="panel">'
        f"{_nav('/storm')}<h1>Puzzle Storm</h1>"
        '<p class="note" id="storm-rules">Solve as many puzzles as you can in 3 minutes. A wrong '
        "move costs 10 seconds; a combo of right moves wins time back.</p>"
        '<div class="storm-clock" id="storm-clock" role="timer" aria-live="off">3:00</div>'
        '<p class="storm-score">Solved: <strong id="storm-score">0</strong> · Combo: '
        '<strong id="storm-combo">0</strong> · Mistakes: <strong id="storm-errors">0</strong></p>'
        '<p id="feedback" class="feedback" role="alert" aria-live="assertive"></p>'
        f'<div class="row"><label>Board <select id="variant">{boards}</select></label>'
        '<button type="button" id="storm-start" class="primary">Start</button>'
        '<button type="button" id="storm-stop" hidden>End the run</button></div>'
        '<section id="storm-end" hidden tabindex="-1"><h2>Run over</h2>'
        '<p id="storm-summary"></p><button type="button" id="storm-again" class="primary">'
        "Play again</button></section>"
        '<p id="storm-high" class="note"></p>'
        "</section></aside>"
    )
    body = (
        f'<main class="layout training storm" id="training"{data_attributes(actor, view="storm")}>'
        f"{_board_area()}{side}</main>"
    )
    return document("Puzzle Storm", body, actor, script="training", kind="app", current="/training")


def daily_panel(site: Site) -> str:
    """The home page's panel of the daily puzzle: its picture and a link (empty: no puzzles)."""
    from emergo.server.puzzle.service import PuzzleError
    from emergo.svg import board_svg

    try:
        stored = site.puzzles.daily()
    except PuzzleError:
        return ""
    p = stored.puzzle
    board = p.game_board()
    picture = board_svg(board, size=150, coordinates=False, flipped=not board.turn)
    side = "White" if board.turn else "Black"
    return (
        '<section class="panel daily" aria-labelledby="daily-title">'
        '<h2 id="daily-title">Puzzle of the day</h2>'
        f'<a class="daily-puzzle" href="/training/daily" id="daily-link">{picture}'
        f"<span>{e(side)} to play · rating {round(stored.rating)}<br>"
        f"{e(', '.join(theme_name(t) for t in p.themes[:3]))}</span></a></section>"
    )
