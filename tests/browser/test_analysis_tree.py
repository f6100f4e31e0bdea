"""The analysis board's variation tree, the stoppable review, clocks and the hexagon's view
buttons, in real headless Chromium.  Screenshots go to docs/web/ with EMERGO_SCREENSHOTS=1."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.plugins.browser import SHOTS, LocalServer, centre, game_from_board

expect = pytest.importorskip("playwright.sync_api").expect

SEVEN = "7x7%20w%208/8"
# 7x7: sixteen legal moves with captures in them (the review's line)
LINE = "d5 e3 b3 d7 f4 d3 e5 g4 d2 g4xe4xe6 d2xd4 f4 c2 f5 b5 d1"


def open_page(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("html[data-ready='1']")


def enter(page: Any, square: str) -> None:
    """Enter a man by a click on the square's dot; the move is then the one shown."""
    dot = page.locator(f"#board .dest.entry[data-square='{square}']")
    page.mouse.click(*centre(dot))
    expect(current(page)).to_have_text(square)


def moves(page: Any, selector: str = "#moves button") -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


def key(page: Any, name: str) -> None:
    """A key for the page (not the board: its arrows move its own cursor once it has the focus)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(name)


def current(page: Any) -> Any:
    return page.locator("#moves button.current")


def test_a_nested_variation_tree_made_by_clicks(page: Any, server: str) -> None:
    open_page(
        page,
        f"{server}/analysis?pos={SEVEN}&moves=c4%20e5%20b3%20d5&animation=0&names=oblique&view=diamond&flip=0",
    )
    assert moves(page, "#moves button.main") == ["c4", "e5", "b3", "d5"]
    # back to 1. c4 and another reply: a variation of the main line, under the move it replaces
    page.click("#moves button[data-ply='1']")
    expect(current(page)).to_have_text("c4")
    expect(page.locator("#pos-text")).to_have_value("7x7 b 7/8 c4:w")  # and its position shown
    enter(page, "e3")
    expect(current(page)).to_have_text("e3")
    assert moves(page, "#moves button.main") == ["c4", "e5", "b3", "d5"]  # the main line stays
    vline = page.locator("#moves .variation .vline")
    expect(vline).to_have_count(1)
    expect(vline).to_have_text(re.compile(r"^1\.\.\.\s*e3$"))
    enter(page, "b5")  # the variation goes on
    enter(page, "f3")
    expect(vline).to_have_text(re.compile(r"^1\.\.\.\s*e3\s*2\.\s*b5\s*f3$"))
    # a variation of the variation: back one move, another move, in parentheses
    key(page, "ArrowLeft")
    expect(current(page)).to_have_text("b5")
    enter(page, "a4")
    expect(current(page)).to_have_text("a4")
    inner = page.locator("#moves .vline .paren")
    expect(inner).to_have_count(1)
    expect(inner).to_have_text(re.compile(r"^2\.\.\.\s*a4$"))
    expect(vline).to_have_text(re.compile(r"^1\.\.\.\s*e3\s*2\.\s*b5\s*f3\s*2\.\.\.\s*a4$"))
    # another variation of the main line: at move 2..., after White's b3
    page.click("#moves button.main[data-ply='3']")
    enter(page, "f5")
    expect(page.locator("#moves .variation")).to_have_count(2)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "variations.png"))
    # keyboard: up/down switch between the moves played here, left/right walk the line
    key(page, "ArrowUp")
    expect(current(page)).to_have_text("d5")
    key(page, "ArrowDown")
    expect(current(page)).to_have_text("f5")
    for expected in ("b3", "e5", "c4"):
        key(page, "ArrowLeft")
        expect(current(page)).to_have_text(expected)
    key(page, "ArrowRight")  # the line through the node shown: the main line
    expect(current(page)).to_have_text("e5")
    # click a node deep in a variation: the line through it is the one the arrows walk
    page.locator("#moves .paren button", has_text="a4").click()
    expect(current(page)).to_have_text("a4")
    key(page, "ArrowLeft")
    expect(current(page)).to_have_text("b5")
    key(page, "ArrowRight")
    expect(current(page)).to_have_text("a4")  # back along the line shown, not the first move
    # promote the e3 variation: the main line becomes its variation
    page.locator("#moves button.var", has_text="e3").click()
    page.click("#promote")
    assert moves(page, "#moves button.main") == ["c4", "e3", "b5", "f3"]
    expect(page.locator("#moves .variation .vline").first).to_have_text(
        re.compile(r"^1\.\.\.\s*e5\s*2\.\s*b3\s*d5")
    )
    expect(page.locator("#promote")).to_be_disabled()  # the main line now
    # export keeps the tree: the main line with every variation in its place (docs/records.md)
    page.click("#export")
    expect(page.locator("#record")).to_have_value(
        re.compile(
            r"\n1\. c4 e3 \(1\.\.\. e5 2\. b3 d5 \(2\.\.\. f5\)\) 2\. b5 f3 \(2\.\.\. a4\) \*"
        )
    )
    # delete a variation: the node shown and all after it
    page.locator("#moves button.var", has_text="e5").click()
    page.click("#delete-var")
    expect(current(page)).to_have_text("c4")
    assert "e5" not in moves(page)
    assert moves(page, "#moves button.main") == ["c4", "e3", "b5", "f3"]


def test_engine_lines_are_clicked_into_the_tree(page: Any, server: str) -> None:
    open_page(
        page,
        f"{server}/analysis?pos={SEVEN}&moves=c4%20e5&animation=0&names=oblique&view=diamond&flip=0",
    )
    page.click("#moves button[data-ply='1']")
    page.select_option("#atime", "1")
    page.click("#analyse")
    expect(page.locator("#analyse")).to_have_text("Stop")
    expect(page.locator("#analyse")).to_have_text("Analyse", timeout=10000)  # done
    best = page.locator("#lines li").first.locator("button")
    first, second = best.nth(0).inner_text(), best.nth(1).inner_text()
    best.nth(1).click()  # two moves of the engine's line, from 1. c4
    expect(current(page)).to_have_text(second)
    if first != "e5":  # a new variation; else the main line's e5 was followed
        expect(page.locator("#moves .variation .vline")).to_have_count(1)
    assert moves(page, "#moves button.main")[:2] == ["c4", "e5"]


def test_a_review_is_stopped_and_keeps_its_marks(page: Any, server: str) -> None:
    moves = LINE.replace(" ", "%20")
    url = f"{server}/analysis?pos={SEVEN}&moves={moves}&animation=0&view=diamond&flip=0"
    open_page(page, url + "&names=oblique")
    page.select_option("#rtime", "0.5")
    page.click("#review")
    expect(page.locator("#review")).to_have_text("Stop")
    expect(page.locator("#review-text")).to_contain_text("positions searched", timeout=10000)
    page.wait_for_function(  # the first moves reviewed, one by one
        "() => document.querySelectorAll('#moves button.main[title]').length >= 6", timeout=20000
    )
    page.click("#review")  # stop
    expect(page.locator("#review-text")).to_contain_text("stopped", timeout=2000)
    expect(page.locator("#review")).to_have_text("Annotate")
    text = page.locator("#review-text").inner_text()
    reviewed = int(re.search(r"stopped: (\d+) of 16", text).group(1))  # type: ignore[union-attr]
    assert 6 <= reviewed < 16
    marked = page.locator("#moves button.main[title]").count()
    assert marked == reviewed
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "review-stopped.png"), full_page=True)
    time.sleep(2.5)  # a review still running would have marked more moves by now
    assert page.locator("#moves button.main[title]").count() == marked
    assert "emergo analyse" in page.locator("#record").input_value()


def test_clocks_tick_and_time_runs_out(page: Any, server: str) -> None:
    """A hot-seat game with a clock from the board: the clock starts with the first move (a
    game at one screen), ticks, adds the increment, shows low time and ends the game on time."""
    open_page(page, f"{server}/analysis?pos={SEVEN}&animation=0&view=diamond&flip=0&names=oblique")
    game_from_board(page, minutes="0.08", increment="1")  # 4.8 s: the site's whole 5 seconds
    clocks = page.locator(".player .clock")
    expect(clocks).to_have_count(2)
    assert page.locator(".player.black .clock").inner_text() == "0:05.0"
    assert page.locator(".player.white .clock").inner_text() == "0:05.0"
    expect(page.locator(".player .clock.running")).to_have_count(0)  # not before the first move
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "clocks.png"))
    enter(page, "c4")
    running = page.locator(".player.black .clock.running")
    expect(running).to_have_count(1)
    before = running.inner_text()
    time.sleep(0.6)
    assert running.inner_text() != before  # ticking
    white = page.locator(".player.white .clock").inner_text()
    assert float(white.split(":")[1]) > 5.0  # what was left plus the increment
    page.wait_for_selector(".player.black .clock.low", timeout=8000)  # low time shows
    expect(page.locator("#result")).to_contain_text("1-0", timeout=10000)
    expect(page.locator("#result")).to_contain_text("time")
    assert page.locator("#status").inner_text().startswith("Game over")
    expect(page.locator(".player.black .clock")).to_have_text("0:00.0")
    expect(page.locator(".player .clock.running")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "time-forfeit.png"))


def test_the_computer_plays_within_its_clock(page: Any, computer: LocalServer) -> None:
    """Against the computer with a clock from the board: it moves, its clock runs and no one
    loses on time."""
    open_page(page, f"{computer.url}/analysis?pos={SEVEN}&animation=0&view=diamond&flip=0")
    game_from_board(page, fresh=True, computer=True, color="black", minutes="1", increment="1")
    expect(page.locator("#moves button")).to_have_count(1, timeout=15000)  # the computer opens
    page.mouse.click(*centre(page.locator("#board .dest.entry").first))
    expect(page.locator("#moves button")).to_have_count(3, timeout=15000)  # and answers
    expect(page.locator(".player.black .clock.running")).to_have_count(1)
    assert page.locator("#result").inner_text() == ""


def test_view_buttons_are_disabled_on_the_hexagon(page: Any, server: str) -> None:
    open_page(page, f"{server}/analysis?pos=hex%20w%2012/12&animation=0&view=diamond&flip=0")
    view = page.locator("#view")
    expect(view).to_be_disabled()
    assert "hexagon" in (view.get_attribute("title") or "")
    expect(page.locator("#names")).to_be_disabled()
    key(page, "v")
    expect(page.locator("#message")).to_contain_text("hexagon")
    assert page.locator("#board").get_attribute("data-view") == "hexagon"
    # flip and coordinates work
    low = page.locator("#board .cell[data-square='a1']").bounding_box()["y"]
    page.click("#flip")
    assert page.locator("#board").get_attribute("data-flipped") == "true"
    assert page.locator("#board .cell[data-square='a1']").bounding_box()["y"] != low
    page.click("#flip")
    labels = page.locator("#board .coords text").count()
    assert labels > 0
    page.click("#coords")
    expect(page.locator("#board .coords text")).to_have_count(0)
    page.click("#coords")
    expect(page.locator("#board .coords text")).to_have_count(labels)
    # back on a square board the buttons work again
    page.click("#new9")
    expect(view).to_be_enabled()
    view.click()
    assert page.locator("#board").get_attribute("data-view") == "checker"
    view.click()
