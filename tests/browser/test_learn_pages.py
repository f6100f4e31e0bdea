"""The pages of /learn in real headless Chromium (issue 28): the course map and its levels played
as a newcomer plays them.

* a whole stage (Feed: captures, the opponent's scripted replies) done by clicks, its stars on the
  map, and the visitor's progress still there after a reload;
* a whole stage (The board: entries, the checkerboard's names, the hexagon, questions) done by
  keyboard alone, from the map's first link to the next stage, one level by the board's own keys;
* a wrong move shown, explained and taken back, a refused move's rule, the hint's idea then move,
  the line replayed at the end (and stopped);
* a visitor's stars merged into the account he signs up with, and a level done signed in kept
  in the account (another browser sees it);
* the phone layout (390x844): no sideways scrolling, the board whole on the screen, a level done
  by taps with the board's animation on;
* practice against the house bot: the button, and the real game from the level's position
  (its end and stars: test_learn_practice.py).

The screenshots of docs/learn.md are written to docs/learn/ with EMERGO_SCREENSHOTS=1.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.plugins.common import ROOT

pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

from emergo import Board  # noqa: E402
from emergo.server.learn import Course, Level, load_course  # noqa: E402
from emergo.server.learn.progress import Progress  # noqa: E402
from emergo.server.site import Site  # noqa: E402
from tests.plugins.browser import ThreadServer, centre, public_site  # noqa: E402

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PASSWORD = "a good password"
SHOTS = (
    ROOT / "docs" / "learn"
    if os.environ.get("EMERGO_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "emergo-screenshots" / "learn"
)
COURSE: Course = load_course()


@dataclasses.dataclass
class Served:
    url: str
    site: Site


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The public site on SQLite, served in a thread of this process."""
    server = ThreadServer(
        lambda _url: public_site(tmp_path_factory.mktemp("learn") / "site.sqlite3"),
        ws="websockets-sansio",
        timeout_graceful_shutdown=1,
    )
    yield Served(server.url, server.site)
    server.stop()


class Learner:
    """Someone at /learn in a browser context of his own; a JavaScript error fails the test."""

    def __init__(
        self, browser: Any, served: Served, viewport: dict[str, int], *, animation: bool = False
    ) -> None:
        self.served = served
        self.context = browser.new_context(viewport=viewport)
        if not animation:
            self.context.add_init_script(
                "localStorage.setItem('emergo-settings', JSON.stringify({animation: false}))"
            )
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # a refused request is a 4xx answer the page shows: expected, not an error of the page
        if message.type == "error" and "status of 4" not in message.text:
            self.errors.append(message.text)

    def go(self, path: str) -> None:
        self.page.goto(self.served.url + path)
        self.ready()

    def ready(self) -> None:
        self.page.wait_for_selector("html[data-ready='1']")

    def settled(self) -> None:
        """The page waits for the player (a move, a retry, or the level is over)."""
        self.page.wait_for_selector("html[data-mode]:not([data-mode='busy'])")

    def sent(self) -> int:
        return int(self.page.evaluate("() => Number(document.documentElement.dataset.sent || 0)"))

    def click_move(self, level: Level, moves: list[str], text: str) -> None:
        """Play a move by clicks: the squares of its route in turn, until the page sends it."""
        board = COURSE.start_board(level)
        for played in moves:
            board.push_move(played)
        move = board.parse_move(text)
        path = [board.geometry.square_name(sq) for sq in move.path]
        page = self.page
        page.wait_for_selector("#board .dest, #board .movable")
        before = self.sent()
        for square in path:
            page.mouse.click(*centre(page.locator(f"#board .cells [data-square='{square}']")))
            if self.sent() > before:
                self.settled()
                return
        shoot(page, "failed-click.png")
        raise AssertionError(f"clicking {path} did not play {text}")

    def done(self, stars: int) -> None:
        expect(self.page.locator("#done")).to_be_visible()
        expect(self.page.locator("#stars")).to_have_text("★" * stars + "☆" * (3 - stars))

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


def line_of(level: Level) -> list[str]:
    """The level's moves both sides in turn (the solution and the replies between)."""
    out: list[str] = []
    for i, move in enumerate(level.solution):
        out.append(move)
        if i < len(level.replies):
            out.append(level.replies[i])
    return out


def typed(level: Level, moves: list[str], text: str) -> str:
    """A move as the player types it, in the naming the level's board shows (R3)."""
    board = COURSE.start_board(level)
    for played in moves:
        board.push_move(played)
    return board.move_text(board.parse_move(text), level.names)


def next_stage(stage_id: str) -> Any:
    return COURSE.stages[[s.id for s in COURSE.stages].index(stage_id) + 1]


def stage_levels(stage_id: str) -> list[Level]:
    return list(next(s for s in COURSE.stages if s.id == stage_id).levels)


@pytest.fixture
def learner(browser: Any, served: Served) -> Iterator[Learner]:
    person = Learner(browser, served, DESKTOP)
    yield person
    person.close()


def test_a_whole_stage_by_clicks_and_the_visitor_s_stars_kept_across_a_reload(
    learner: Learner,
) -> None:
    page = learner.page
    levels = stage_levels("feed")
    learner.go(f"/learn/{levels[0].id}")
    for n, level in enumerate(levels):
        assert page.url.endswith(f"/learn/{level.id}")
        expect(page.locator("#goal")).to_have_text(COURSE.catalogue.text(f"{level.key}.goal"))
        line = line_of(level)
        moves: list[str] = []
        for i, text in enumerate(level.solution):
            learner.click_move(level, moves, text)
            moves = line[: 2 * i + 2]
            if i + 1 < len(level.solution):  # the reply played by the page: it is on the board
                reply = COURSE.start_board(level)
                for played in moves:
                    reply.push_move(played)
                last = reply.move_stack[-1]
                landing = reply.geometry.square_name(last.path[-1])
                expect(page.locator(f"#board .pieces [data-square='{landing}']")).to_have_count(1)
                expect(page.locator("#message")).to_have_text(
                    COURSE.catalogue.text("verdict.right")
                )
        learner.done(3)
        expect(page.locator("#done-text")).to_have_text(COURSE.catalogue.text(f"{level.key}.done"))
        if n == 0:
            shoot(page, "level-done.png")
        # the next level; after the stage's last, the next stage's first
        after = levels[n + 1] if n + 1 < len(levels) else next_stage("feed").levels[0]
        page.click("#next")
        page.wait_for_url(f"**/learn/{after.id}")
        learner.ready()
    learner.go("/learn")
    for level in levels:
        expect(page.locator(f"a.dot[data-level='{level.id}']")).to_have_attribute("data-stars", "3")
    page.reload()
    learner.ready()
    for level in levels:
        expect(page.locator(f"a.dot[data-level='{level.id}']")).to_have_attribute("data-stars", "3")
    expect(page.locator("#learn-progress")).to_contain_text("4 of")
    expect(page.locator("#continue")).to_have_text(COURSE.catalogue.text("page.continue"))


def cursor(page: Any) -> str | None:
    found = page.locator("#board polygon.cursor")
    return found.get_attribute("data-square") if found.count() else None


def board_keys_to(page: Any, square: str) -> None:
    """Move the board's keyboard cursor to ``square`` with the arrow keys, then Enter."""
    target = page.locator(f"#board .cells [data-square='{square}']").bounding_box()
    goal = (target["x"] + target["width"] / 2, target["y"] + target["height"] / 2)
    for _ in range(40):
        at = cursor(page)
        if at == square:
            page.keyboard.press("Enter")
            return
        box = page.locator("#board polygon.cursor").bounding_box()
        dx, dy = goal[0] - (box["x"] + box["width"] / 2), goal[1] - (box["y"] + box["height"] / 2)
        if abs(dx) > abs(dy):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        else:
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    raise AssertionError(f"the cursor never reached {square}")


def test_a_whole_stage_by_keyboard_alone(learner: Learner) -> None:
    page = learner.page
    learner.go("/learn")
    # from the map: Tab to "Start the course", Enter
    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.id") == (
            "continue"
        ):
            break
    else:
        raise AssertionError("Tab never reached the course's first link")
    page.keyboard.press("Enter")
    learner.ready()
    levels = stage_levels("board")
    for n, level in enumerate(levels):
        assert page.url.endswith(f"/learn/{level.id}"), page.url
        learner.settled()
        if n == 0:
            # the board's own keys: Tab until the board has the focus, arrows, Enter
            for _ in range(40):
                page.keyboard.press("Tab")
                if page.evaluate("() => document.activeElement?.tagName === 'svg'"):
                    break
            else:
                raise AssertionError("Tab never reached the board")
            page.keyboard.press("ArrowUp")
            board_keys_to(page, level.solution[0])
        elif level.is_question:
            assert level.answer is not None
            if level.choices:
                page.keyboard.press(str(level.choices.index(level.answer) + 1))
            else:
                page.keyboard.type(level.answer)  # typed anywhere: it goes into the answer
                page.keyboard.press("Enter")
        else:
            moves: list[str] = []
            for text in level.solution:
                page.keyboard.type(typed(level, moves, text))  # R21 text, typed anywhere
                page.keyboard.press("Enter")
                learner.settled()
                moves = line_of(level)[: len(moves) + 2]
        learner.settled()
        learner.done(3)
        after = levels[n + 1] if n + 1 < len(levels) else COURSE.stages[1].levels[0]
        page.keyboard.press(("Enter", "n", " ", "ArrowRight")[n % 4])  # lichess's keys, and N
        page.wait_for_url(f"**/learn/{after.id}")
        learner.ready()


def test_a_wrong_move_is_explained_and_taken_back_a_refusal_says_the_rule_hints(
    learner: Learner,
) -> None:
    page = learner.page
    level = COURSE.levels["feed/weak-piece"]
    learner.go(f"/learn/{level.id}")
    learner.click_move(level, [], "f4-e4")  # legal, but not the way
    expect(page.locator("#message")).to_have_text(COURSE.catalogue.text("verdict.line"))
    expect(page.locator("#retry")).to_be_visible()
    expect(page.locator("#retry")).to_be_focused()
    # the wrong move is on the board until it is taken back
    expect(page.locator("#board .pieces [data-square='e4']")).to_have_count(1)
    shoot(page, "wrong-move.png")
    page.keyboard.press("r")
    learner.settled()
    expect(page.locator("#board .pieces [data-square='e4']")).to_have_count(0)
    expect(page.locator("#board .pieces [data-square='f4']")).to_have_count(1)
    expect(page.locator("#message")).to_have_text("")
    # the hint: the idea first, the move (and its arrow) only on the second press
    hints = COURSE.catalogue.texts(f"{level.key}.hint")
    page.keyboard.press("?")
    expect(page.locator("#hints li")).to_have_text([hints[0]])
    expect(page.locator("#board .shapes .arrow, #board .shapes [class*='green']")).to_have_count(0)
    expect(page.locator("#hint")).to_have_text(COURSE.catalogue.text("page.hint-move"))
    page.click("#hint")
    expect(page.locator("#hints li")).to_have_count(len(hints) + 1)
    expect(page.locator("#hints li.move")).to_contain_text("f4-f5")
    assert page.locator("#board .shapes *").count() > 0
    shoot(page, "hint.png")
    # the right way: two moves with Black's forced reply between; one mistake costs a star
    page.keyboard.type("f4-f5")
    page.keyboard.press("Enter")
    learner.settled()
    page.keyboard.type("h5xf5")
    page.keyboard.press("Enter")
    learner.settled()
    learner.done(2)
    expect(page.locator("#stars-said")).to_have_text(COURSE.catalogue.text("page.stars-2"))
    # the line replayed from the start, a move at a time, back to where it ended; or stopped
    f4 = page.locator("#board .pieces [data-square='f4']")
    expect(f4).to_have_count(0)
    page.click("#replay")
    expect(page.locator("#replay")).to_have_text(COURSE.catalogue.text("page.replay-stop"))
    expect(f4).to_have_count(1)  # the start: White's man still on f4
    expect(page.locator("#board .pieces [data-square='g5']")).to_have_count(1)  # e5xg5 shown
    expect(page.locator("#replay")).to_have_text(COURSE.catalogue.text("page.replay"))
    expect(f4).to_have_count(0)
    expect(page.locator("#board .pieces [data-square='f5']")).to_have_count(1)
    page.click("#replay")
    expect(f4).to_have_count(1)
    page.click("#replay")  # stopped: the board is back where the level ended
    expect(page.locator("#replay")).to_have_text(COURSE.catalogue.text("page.replay"))
    expect(f4).to_have_count(0)
    expect(page.locator("#next")).to_be_visible()
    # a refused move: the board's reason with its rule, and no mistake counted
    refused = COURSE.levels["feeding/no-feed"]
    learner.go(f"/learn/{refused.id}")
    page.keyboard.type("e4")
    page.keyboard.press("Enter")
    learner.settled()
    expect(page.locator("#message")).to_contain_text("(R15)")
    expect(page.locator("#retry")).to_be_hidden()
    page.keyboard.type(refused.solution[0])
    page.keyboard.press("Enter")
    learner.settled()
    learner.done(3)


def test_a_slower_win_against_the_tables_ends_with_their_fastest_line_to_watch(
    learner: Learner,
) -> None:
    """Issue 28: a practice ending won more slowly than it had to be offers, besides the moves
    played, the tables' fastest line replayed from the level's start."""
    level = COURSE.levels["endings/small-two"]
    tables = COURSE.tables()
    learner.go(f"/learn/{level.id}")
    page = learner.page
    board = COURSE.start_board(level)
    moves = ["f3-f4"]  # a win in 15 where f3-e3 wins in 11 (the tables' own count)
    while True:
        page.keyboard.type(typed(level, moves[:-1], moves[-1]))
        page.keyboard.press("Enter")
        learner.settled()
        board.push_move(moves[-1])
        if page.locator("#done").is_visible():
            break
        reply = tables.best_move(board)
        assert reply is not None
        moves.append(board.move_text(reply))
        board.push(reply)
        best = tables.best_move(board)
        assert best is not None
        moves.append(board.move_text(best))
    expect(page.locator("#done")).to_be_visible()
    assert page.locator("#stars").inner_text() != "★★★"
    fastest = page.locator("#replay-solution")
    expect(fastest).to_have_text(COURSE.catalogue.text("page.replay-solution"))
    # after the line's first move (f3-e3): e3 taken, f3 and f4 empty; never so where it ended
    first_of_the_line = """() => {
        const at = (sq) => document.querySelectorAll(`#board .pieces [data-square='${sq}']`).length;
        return at("e3") > 0 && at("f3") === 0 && at("f4") === 0;
    }"""
    assert not page.evaluate(first_of_the_line)
    fastest.click()
    expect(fastest).to_have_text(COURSE.catalogue.text("page.replay-stop"))
    page.wait_for_function(first_of_the_line)
    expect(fastest).to_have_text(COURSE.catalogue.text("page.replay-solution"), timeout=60_000)
    assert not page.evaluate(first_of_the_line)  # back where the level ended
    # a level won the fastest way has nothing else to show
    learner.go(f"/learn/{level.id}")
    for i, move in enumerate(line_of(level)[::2]):
        page.keyboard.type(typed(level, line_of(level)[: 2 * i], move))
        page.keyboard.press("Enter")
        learner.settled()
    learner.done(3)
    expect(fastest).to_be_hidden()


def test_a_visitor_s_stars_merge_into_his_new_account_and_stay_there(
    browser: Any, served: Served
) -> None:
    visitor = Learner(browser, served, DESKTOP)
    page = visitor.page
    try:
        level = COURSE.levels["capture/jump"]
        visitor.go(f"/learn/{level.id}")
        visitor.click_move(level, [], level.solution[0])
        visitor.done(3)
        # from the map, "sign up to keep it": back on the map once in, the stars in the account
        visitor.go("/learn")
        page.click("#learn-kept a")
        page.fill("input[name=username]", "lena")
        page.fill("input[name=password]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{served.url}/learn")
        visitor.ready()
        expect(page.locator(f"a.dot[data-level='{level.id}']")).to_have_attribute("data-stars", "3")
        expect(page.locator("#learn-kept")).to_have_text(COURSE.catalogue.text("page.kept-account"))
        user = served.site.users.by_name("lena")
        assert user is not None
        assert Progress(served.site.db).stars(user.id) == {level.id: 3}
        assert page.evaluate("() => localStorage.getItem('emergo-learn')") is None
        # a level done signed in goes to the account
        other = COURSE.levels["board/centre"]
        visitor.go(f"/learn/{other.id}")
        visitor.click_move(other, [], "e4")  # a mistake first
        page.keyboard.press("r")
        visitor.settled()
        visitor.click_move(other, [], "e5")
        visitor.done(2)
        expect(page.locator(f"a.dot[data-level='{other.id}']")).to_have_attribute("data-stars", "2")
        assert Progress(served.site.db).stars(user.id) == {level.id: 3, other.id: 2}
    finally:
        visitor.close()
    # another browser: logged in, the same stars
    elsewhere = Learner(browser, served, DESKTOP)
    try:
        page = elsewhere.page
        page.goto(f"{served.url}/login?next=/learn")
        page.fill("input[name=username]", "lena")
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{served.url}/learn")
        elsewhere.ready()
        expect(page.locator("a.dot[data-level='board/centre']")).to_have_attribute(
            "data-stars", "2"
        )
        expect(page.locator("#learn-progress")).to_contain_text("2 of")
    finally:
        elsewhere.close()


def test_the_phone_layout(browser: Any, served: Served) -> None:
    phone = Learner(browser, served, PHONE, animation=True)  # the board's animation on
    page = phone.page

    def no_sideways_scrolling() -> None:
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width

    try:
        phone.go("/learn")
        no_sideways_scrolling()
        shoot(page, "map-phone.png")
        level = COURSE.levels["feed/feed-two"]
        phone.go(f"/learn/{level.id}")
        no_sideways_scrolling()
        board = page.locator("#board svg").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
        assert board["y"] >= 0 and board["y"] + board["height"] <= PHONE["height"]
        goal = page.locator("#goal").bounding_box()
        assert goal["y"] > board["y"] + board["height"] / 2  # the goal just under the board
        shoot(page, "level-phone.png")
        phone.click_move(level, [], level.solution[0])
        # Black's capture was played with the animation: its pieces are where the script says
        expect(page.locator("#board .pieces [data-square='f6']")).to_have_count(1)
        phone.click_move(level, line_of(level)[:2], level.solution[1])
        phone.done(3)
        expect(page.locator("#next")).to_be_in_viewport()
        no_sideways_scrolling()
        shoot(page, "level-done-phone.png")
        # the replay by a tap, with the animation on: it runs to the end and says so
        expect(page.locator("#replay")).to_be_in_viewport()
        page.click("#replay")
        expect(page.locator("#replay")).to_have_text(COURSE.catalogue.text("page.replay-stop"))
        expect(page.locator("#replay")).to_have_text(
            COURSE.catalogue.text("page.replay"), timeout=20_000
        )
        no_sideways_scrolling()
        question = COURSE.levels["prisoners/owner"]
        phone.go(f"/learn/{question.id}")
        page.click(f"#choices [data-choice='{question.answer}']")
        phone.settled()
        phone.done(3)
        expect(page.locator("#replay")).to_be_hidden()  # a question has no moves to replay
    finally:
        phone.close()


def test_desktop_screenshots_and_the_checkerboard_by_click(learner: Learner) -> None:
    page = learner.page
    learner.go("/learn")
    shoot(page, "map.png")
    learner.go("/learn/board/centre")
    expect(page.locator("#intro")).to_have_attribute("open", "")  # a stage's first level
    shoot(page, "level.png")
    learner.go("/learn/board/corner")
    expect(page.locator("#intro")).not_to_have_attribute("open", "")
    # the checkerboard's level: a click sends the board's own (canonical) text, typing its names
    level = COURSE.levels["board/checkerboard"]
    learner.go(f"/learn/{level.id}")
    learner.click_move(level, [], level.solution[0])
    learner.done(3)


def test_practice_shows_the_button_and_a_visitor_is_asked_to_log_in(learner: Learner) -> None:
    page = learner.page
    level = COURSE.levels["middlegames/convert"]
    learner.go(f"/learn/{level.id}")
    expect(page.locator("#practice")).to_be_visible()
    expect(page.locator("#practice-start")).to_be_hidden()
    expect(page.locator("#practice-login")).to_be_visible()
    assert page.locator("#practice-login").get_attribute("href") == (
        f"/login?next=/learn/{level.id}"
    )
    expect(page.locator("#move-form")).to_be_hidden()


def test_practice_starts_a_real_game_from_the_level_s_position(
    browser: Any, tmp_path: Path
) -> None:
    from emergo.server.core.config import Bots

    server = ThreadServer(
        lambda url: public_site(
            tmp_path / "site.sqlite3",
            bots=Bots(house_bots=True, levels=(4,), concurrency=1, url=url),
        )
    )
    url, site = server.url, server.site
    person = Learner(browser, Served(url, site), DESKTOP)
    try:
        site.users.create("mira", PASSWORD)
        page = person.page
        level = COURSE.levels["middlegames/convert"]
        page.goto(f"{url}/login?next=/learn/{level.id}")
        page.fill("input[name=username]", "mira")
        page.fill("input[name=password]", PASSWORD)
        page.click("main form button[type=submit]")
        person.ready()
        deadline = time.monotonic() + 40
        while "/game/" not in page.url:  # the house bot's process may still be starting
            assert time.monotonic() < deadline, page.locator("#practice-message").inner_text()
            page.click("#practice-start")
            try:
                page.wait_for_url(f"{url}/game/*", timeout=12_000)
            except sync_api.TimeoutError:
                continue
        game = site.rounds.get(page.url.rsplit("/", 1)[1])
        assert game is not None
        assert Board(game.state.root).position() == Board(level.position).position()
        assert game.seats.white == "mira"
    finally:
        person.close()
        server.stop()
