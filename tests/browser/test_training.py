"""The training pages in real headless Chromium (issue 29): a signed-in player solves one puzzle
and fails another (the refutation shown, retry), sees his puzzle rating move and the dashboard
change, and plays a timed run to its end; a visitor on a phone solves one (kept in the browser,
no rating), with no sideways scrolling, then signs up and finds it in his account's dashboard.

The screenshots of docs/training.md are written to docs/web/ with EMERGO_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.plugins.common import ROOT

pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

from emergo.puzzles import Puzzle, load  # noqa: E402
from emergo.puzzles.line import result  # noqa: E402
from emergo.server.site import Site  # noqa: E402
from tests.plugins.browser import ThreadServer, centre, public_site  # noqa: E402

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PASSWORD = "a good password"
SHOTS = (
    ROOT / "docs" / "web"
    if os.environ.get("EMERGO_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "emergo-screenshots" / "web"
)


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Site]]:
    """The public site on SQLite with the shipped puzzles, served in a thread of this process."""
    db = tmp_path_factory.mktemp("training") / "site.sqlite3"
    server = ThreadServer(lambda _url: public_site(db))
    server.site.puzzles.ensure_shipped()
    yield server.url, server.site
    server.stop()


class Solver:
    """Someone at /training in a browser context of his own; a JavaScript error fails the test."""

    def __init__(self, browser: Any, url: str, viewport: dict[str, int]) -> None:
        self.url = url
        self.context = browser.new_context(viewport=viewport)
        self.context.add_init_script(
            "localStorage.setItem('emergo-settings', JSON.stringify({animation: false}))"
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on(
            "console",
            lambda m: (
                self.errors.append(m.text)
                if m.type == "error" and "status of 4" not in m.text
                else None
            ),
        )

    def go(self, path: str) -> None:
        self.page.goto(self.url + path)
        self.page.wait_for_selector("html[data-ready='1']")

    def mode(self, mode: str) -> None:
        self.page.wait_for_selector(f"html[data-mode='{mode}']")

    def sent(self) -> int:
        return int(self.page.evaluate("() => Number(document.documentElement.dataset.sent || 0)"))

    def click_move(self, position: str, line: list[str], text: str) -> None:
        """Play a move by clicks: the squares of its route, until the page sends it."""
        from emergo import Board

        board = Board(position)
        for played in line:
            board.push_move(played)
        move = board.parse_move(text)
        path = [board.geometry.square_name(sq) for sq in move.path]
        page = self.page
        page.wait_for_selector("#board .dest, #board .movable")
        before = self.sent()
        for square in path:
            page.mouse.click(*centre(page.locator(f"#board .cells [data-square='{square}']")))
            if self.sent() > before:
                return
        raise AssertionError(f"clicking {path} did not play {text}")

    def solve(self, puzzle: Puzzle) -> None:
        """Play the solution's moves (the page plays the replies)."""
        for i in range(0, len(puzzle.solution), 2):
            self.mode("move")
            self.click_move(puzzle.position, list(puzzle.solution[:i]), puzzle.solution[i])
        self.mode("over")

    def log_in(self, name: str) -> None:
        page = self.page
        page.goto(f"{self.url}/login?next=/training")
        page.fill("input[name=username]", name)
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{self.url}/training**")
        page.wait_for_selector("html[data-ready='1']")

    def no_sideways_scroll(self) -> None:
        width = self.page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= self.page.viewport_size["width"] + 1

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


def wrong_move(puzzle: Puzzle) -> str:
    board = puzzle.board()
    right = board.parse_move(puzzle.solution[0])
    return next(str(m) for m in board.moves() if result(board, m) != result(board, right))


def pick(variant: str, length: int) -> Puzzle:
    return next(p for p in load(variant) if len(p.solution) == length and "win" not in p.themes)


def test_solve_fail_rating_dashboard_and_storm(browser: Any, served: tuple[str, Site]) -> None:
    url, site = served
    user = site.users.create("tess", PASSWORD)
    solver = Solver(browser, url, DESKTOP)
    try:
        page = solver.page
        solver.log_in("tess")
        expect(page.locator("#rating")).to_contain_text("1500")
        # solve one: three moves, the reply played by the page
        solved = pick("7x7", 5)
        solver.go(f"/training/{solved.id}")
        solver.solve(solved)
        expect(page.locator("#feedback")).to_contain_text("Success")
        rating = int(page.evaluate("() => document.documentElement.dataset.rating"))
        assert rating > 1500
        expect(page.locator("#rating")).to_contain_text(f"{rating}? (+{rating - 1500})")
        assert site.puzzles.perf(user.id)[0].rating == pytest.approx(rating, abs=1)
        expect(page.locator("#next")).to_be_visible()
        shoot(page, "training.png")
        # fail one: the refutation shown, then retried and solved (not rated again)
        failed = pick("hex", 3)
        solver.go(f"/training/{failed.id}")
        solver.mode("move")
        solver.click_move(failed.position, [], wrong_move(failed))
        solver.mode("wrong")
        expect(page.locator("#feedback")).to_contain_text("not the move")
        lower = int(page.evaluate("() => document.documentElement.dataset.rating"))
        assert lower < rating
        expect(page.locator("#rating")).to_contain_text(f"({lower - rating})")
        shoot(page, "training-wrong.png")
        page.keyboard.press("r")
        solver.solve(failed)
        expect(page.locator("#feedback")).to_contain_text("Solved, at last")
        assert site.puzzles.perf(user.id)[1] == 2
        # the keyboard: Enter is the next puzzle
        page.locator("body").click(position={"x": 5, "y": 200})
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.documentElement.dataset.puzzle !== '{failed.id}'"
            " && document.documentElement.dataset.mode === 'move'"
        )
        # the dashboard: both attempts, per theme
        solver.go("/training/dashboard")
        expect(page.locator("#dash-global")).to_have_attribute("data-nb", "2")
        expect(page.locator("#dash-global")).to_contain_text("1 solved first try, 1 failed")
        for theme in set(solved.themes) | set(failed.themes):
            expect(page.locator(f"#dash-themes tr[data-theme='{theme}']")).to_have_count(1)
        # the rating chart: the two rated tries after the start, the last point the rating now
        chart = page.locator("#dash-chart")
        expect(chart).to_be_visible()
        expect(chart).to_have_attribute("data-points", "2")
        expect(chart.locator("svg polyline")).to_have_count(1)
        expect(chart.locator("svg circle")).to_have_count(2)
        rating = site.puzzles.perf(user.id)[0].rating
        expect(chart.locator("svg text.last")).to_have_text(str(round(rating)))
        box = chart.locator("svg").bounding_box()
        assert box is not None and box["width"] >= 600 and box["height"] >= 200
        shoot(page, "training-dashboard.png")
        # replay: the failed one was solved since: nothing left
        solver.go("/training/replay")
        expect(page.locator("#feedback")).to_contain_text("Nothing left to replay")
        # the timed run to its end: one solved, one mistake (-10 s), the clock runs out
        solver.go("/storm?seconds=40")
        page.click("#storm-start")
        solver.mode("move")
        first_id = page.evaluate("() => document.documentElement.dataset.puzzle")
        first = site.puzzles.get(first_id).puzzle
        for i in range(0, len(first.solution), 2):
            page.wait_for_function(
                f"() => document.documentElement.dataset.puzzle === '{first.id}'"
                " && document.documentElement.dataset.mode === 'move'"
            )
            solver.click_move(first.position, list(first.solution[:i]), first.solution[i])
        page.wait_for_function(f"() => document.documentElement.dataset.puzzle !== '{first.id}'")
        expect(page.locator("#storm-score")).to_have_text("1")
        solver.mode("move")
        second = site.puzzles.get(page.evaluate("() => document.documentElement.dataset.puzzle"))
        solver.click_move(second.puzzle.position, [], wrong_move(second.puzzle))
        expect(page.locator("#storm-errors")).to_have_text("1")
        page.wait_for_timeout(300)
        shoot(page, "training-storm.png")
        expect(page.locator("#storm-end")).to_be_visible(timeout=60_000)
        expect(page.locator("#storm-summary")).to_contain_text("1 puzzles solved")
        assert site.puzzles.storm_best(user.id)["score"] == 1
        shoot(page, "training-storm-end.png")
    finally:
        solver.close()


def test_a_visitor_on_a_phone(browser: Any, served: tuple[str, Site]) -> None:
    url, _site = served
    visitor = Solver(browser, url, PHONE)
    try:
        page = visitor.page
        puzzle = pick("7x7", 3)
        visitor.go(f"/training/{puzzle.id}")
        visitor.no_sideways_scroll()
        expect(page.locator("#kept")).to_contain_text("kept in this browser")
        visitor.solve(puzzle)
        expect(page.locator("#feedback")).to_contain_text("Success")
        assert page.locator("#rating").text_content() == ""
        kept = page.evaluate("() => JSON.parse(localStorage.getItem('emergo-training')).rounds")
        assert [(r["id"], r["win"]) for r in kept] == [(puzzle.id, True)]
        shoot(page, "training-phone.png")
        visitor.go("/training/dashboard")
        expect(page.locator("#dash-global")).to_have_attribute("data-nb", "1")
        visitor.no_sideways_scroll()
        # he signs up on this browser: the attempt goes into his account (unrated), once
        page.goto(f"{url}/signup")
        page.fill("input[name=username]", "visitor")
        page.fill("input[name=password]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{url}/")
        visitor.go("/training/dashboard")
        expect(page.locator("#dash-global")).to_have_attribute("data-nb", "1")
        expect(page.locator("#dash-global")).to_contain_text("1 solved first try")
        expect(page.locator("#dash-global")).to_contain_text("after 0 puzzles")  # unrated
        kept = page.evaluate("() => JSON.parse(localStorage.getItem('emergo-training')).rounds")
        assert kept == []
        user = _site.users.by_name("visitor")
        assert user is not None
        assert _site.puzzles.dashboard(user.id, 30)["global"]["firstWins"] == 1
        visitor.go("/training/dashboard")  # posted once: nothing more to merge
        expect(page.locator("#dash-global")).to_have_attribute("data-nb", "1")
        expect(page.locator("#dash-chart")).to_have_attribute("data-points", "0")  # unrated
        # a rated try signed in: a point on the chart, legible on the phone
        other = next(p for p in load("7x7") if len(p.solution) == 3 and p.id != puzzle.id)
        visitor.go(f"/training/{other.id}")
        visitor.solve(other)
        visitor.go("/training/dashboard")
        chart = page.locator("#dash-chart")
        expect(chart).to_have_attribute("data-points", "1")
        box = chart.locator("svg").bounding_box()
        assert box is not None and 300 <= box["width"] <= PHONE["width"]
        visitor.no_sideways_scroll()
        for table in ("#dash-themes", "#dash-days"):  # whole, not in a box scrolled sideways
            last = page.locator(f"{table} th:last-child").bounding_box()
            assert last is not None and last["x"] + last["width"] <= PHONE["width"], table
        shoot(page, "training-dashboard-phone.png")
    finally:
        visitor.close()
