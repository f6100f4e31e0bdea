"""What lichess players expect, added to the board page (issue 18), in real headless Chromium:
premoves, arrows and circles, the engine's best move and hints as arrows, sounds with a mute
toggle, abort with a confirmation, comments and marks kept in studies and records."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.web.conftest import SHOTS, centre
from tests.web.test_web_browser import click, open_page, square

expect = pytest.importorskip("playwright.sync_api").expect

SEVEN = "7x7 w 8/8"
# White (to move) has 11 moves; after any of them Black may enter c3 (found with emergo.Board).
PREMOVE = "7x7 w 4/4 b3:b c2:b c5:w d3:w d5:w e6:b f3:b g4:w"


def start_game(page: Any, server: str, pos: str, opponent: str, color: str = "white") -> int:
    open_page(page, server, pos)
    page.select_option("#opponent", opponent)
    if opponent == "movetime":
        page.select_option("#movetime", "3")
    page.select_option("#color", color)
    page.click("#start-game")
    page.wait_for_url(re.compile(r"\?game=\d+"))
    expect(page.locator("#game-info")).to_contain_text("Game ")
    return int(page.url.rsplit("=", 1)[1])


def test_a_premove_is_played_as_soon_as_the_turn_comes(page: Any, server: str) -> None:
    start_game(page, server, PREMOVE, "movetime", color="black")  # the engine thinks 3 s
    expect(page.locator("#game-info")).to_contain_text("thinking")
    click(page, "c3")  # Black's entry queued while White thinks
    expect(page.locator("#board .premove[data-square='c3']")).to_have_count(1)
    expect(page.locator("#message")).to_contain_text("premove c3")
    expect(page.locator("#moves button")).to_have_count(2, timeout=10000)  # the engine's, then c3
    assert page.locator("#moves button").nth(1).inner_text() == "c3"
    expect(page.locator("#board .premove")).to_have_count(0)


def test_a_premove_is_cancelled_by_a_click(page: Any, server: str) -> None:
    start_game(page, server, PREMOVE, "movetime", color="black")
    click(page, "c3")
    expect(page.locator("#board .premove")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("#board .premove")).to_have_count(0)
    expect(page.locator("#message")).to_contain_text("cancelled")
    expect(page.locator("#moves button")).to_have_count(1, timeout=10000)  # the engine's alone
    page.wait_for_timeout(300)
    assert page.locator("#moves button").count() == 1


def right_drag(page: Any, a: str, b: str, modifier: str = "") -> None:
    if modifier:
        page.keyboard.down(modifier)
    page.mouse.move(*centre(square(page, a)))
    page.mouse.down(button="right")
    page.mouse.move(*centre(square(page, b)), steps=4)
    page.mouse.up(button="right")
    if modifier:
        page.keyboard.up(modifier)


def test_arrows_and_circles_with_the_right_button(page: Any, server: str) -> None:
    open_page(page, server, SEVEN, "c4")
    right_drag(page, "c4", "e4")
    arrow = page.locator("#board .shape.user[data-shape='c4>e4']")
    expect(arrow).to_have_count(1)
    assert "brush-green" in (arrow.get_attribute("class") or "")
    right_drag(page, "d5", "d5", "Shift")  # a right click rings a square; Shift draws red
    ring = page.locator("#board .shape.user[data-shape='d5']")
    expect(ring).to_have_count(1)
    assert "brush-red" in (ring.get_attribute("class") or "")
    right_drag(page, "c4", "e4")  # the same arrow again removes it
    expect(arrow).to_have_count(0)
    assert page.locator("#moves button").count() == 1  # drawing plays nothing
    click(page, "c3")  # a left click clears the drawing (and here enters a man)
    expect(page.locator("#board .shape.user")).to_have_count(0)


def test_the_engines_best_move_is_an_arrow(page: Any, server: str) -> None:
    open_page(page, server, SEVEN, "c4 e5")
    page.select_option("#atime", "1")
    page.click("#analyse")
    expect(page.locator("#board .shape.auto.brush-blue")).to_have_count(1)
    expect(page.locator("#analyse")).to_have_text("Analyse", timeout=10000)
    best = page.locator("#lines li").first.locator("button").first.inner_text()
    squares = page.locator("#board .shape.auto.brush-blue").get_attribute("data-shape") or ""
    assert squares.split(">")[0] == re.split(r"[-x]", best)[0]


def test_a_hint_is_an_arrow_and_keeps_the_last_move(page: Any, server: str) -> None:
    start_game(page, server, SEVEN, "engine", color="black")  # the engine opens
    expect(page.locator("#board .dest.entry").first).to_be_attached(timeout=10000)
    expect(page.locator("#board .last-ring")).to_have_count(1)
    page.click("#hint")
    expect(page.locator("#message")).to_contain_text("Hint:", timeout=10000)
    expect(page.locator("#board .shape.auto.brush-green")).to_have_count(1)
    expect(page.locator("#board .last-ring")).to_have_count(1)  # the engine's move still shown


def test_sounds_for_moves_and_captures_and_a_mute_toggle(page: Any, server: str) -> None:
    open_page(page, server, "w 0/0 e5:w2 e6:b d7:b f7:b b5:b", sound="1")
    click(page, "e5")
    click(page, "g7")
    expect(page.locator("html")).to_have_attribute("data-sound", re.compile("^capture "))
    page.click("#sound")  # mute
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    heard = page.locator("html").get_attribute("data-sound")
    page.click("#back")
    page.fill("#move-text", "e5xe7xc7")
    page.press("#move-text", "Enter")
    expect(page.locator("#moves .var, #moves .vline")).not_to_have_count(0)
    assert page.locator("html").get_attribute("data-sound") == heard  # nothing played
    # the sound files are ours, small, and served
    for name in ("move", "capture", "low", "end"):
        r = page.request.get(f"{server}/static/sounds/{name}.wav")
        assert r.ok and r.body()[:4] == b"RIFF" and len(r.body()) < 20_000
    page.click("#sound")


def test_abort_asks_and_deletes_the_game(page: Any, server: str) -> None:
    game = start_game(page, server, SEVEN, "human")
    expect(page.locator("#abort")).to_be_visible()
    page.click("#abort")
    expect(page.locator("#confirm-text")).to_contain_text("Abort")
    page.click("#confirm-yes")
    page.wait_for_url(re.compile(r"/$"))
    assert page.request.get(f"{server}/api/games/{game}").status == 404
    expect(page.locator("#play-panel")).to_be_visible()


def test_comments_and_marks_are_kept_in_studies_and_records(page: Any, server: str) -> None:
    open_page(page, server, SEVEN)
    for name in ("c4", "e5"):
        page.mouse.click(*centre(page.locator(f"#board .dest.entry[data-square='{name}']")))
        expect(page.locator("#moves button.current")).to_have_text(name)
    page.click("#moves button[data-ply='1']")
    page.click("#marks button[data-mark='!?']")
    page.fill("#comment", "the quiet way")
    expect(page.locator("#moves button[data-ply='1']")).to_have_text("c4!?")
    expect(page.locator("#moves .comment")).to_have_text("the quiet way")
    page.wait_for_url(re.compile(r"\?study=\d+"))
    page.wait_for_selector("html[data-study='saved']")
    page.reload()  # kept in the study
    page.wait_for_selector("html[data-ready='1']")
    expect(page.locator("#moves button[data-ply='1']")).to_have_text("c4!?")
    expect(page.locator("#moves .comment")).to_have_text("the quiet way")
    page.click("#export")  # and in the record
    expect(page.locator("#record")).to_have_value(
        re.compile(r"1\. c4!\? \{the quiet way\} 1\.\.\. e5")
    )
    text = page.locator("#record").input_value()
    page.click("#new7")
    page.fill("#record", text)
    page.click("#import")
    expect(page.locator("#moves button[data-ply='1']")).to_have_text("c4!?")
    expect(page.locator("#moves .comment")).to_have_text("the quiet way")


def play_entries(page: Any, names: list[str]) -> None:
    for name in names:
        before = page.locator("#moves button").count()
        page.mouse.click(*centre(page.locator(f"#board .dest.entry[data-square='{name}']")))
        expect(page.locator("#moves button")).to_have_count(before + 1)


@pytest.mark.parametrize("size", [(1200, 860), (390, 844)], ids=["desktop", "phone"])
def test_the_play_and_analysis_pages_as_a_player_sees_them(
    browser: Any, server: str, size: tuple[int, int]
) -> None:
    """The screenshots of docs/web.md (EMERGO_SCREENSHOTS=1 writes them there); the board is at
    the top of the page, whole, on a phone too."""
    name = "desktop" if size[0] > 800 else "phone"
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    open_page(page, server, "w 12/12", "e4 d6 f6 c4", theme="dark" if name == "phone" else "light")
    page.click("#moves button[data-ply='3']")
    page.click("#marks button[data-mark='!?']")
    page.fill("#comment", "White takes the middle")
    page.click("#last")
    page.select_option("#atime", "1")
    page.click("#analyse")
    expect(page.locator("#analyse")).to_have_text("Analyse", timeout=10000)
    right_drag(page, "c4", "c6")
    board = page.locator("#board").bounding_box()
    assert board["y"] < 160 and board["x"] >= 0 and board["x"] + board["width"] <= size[0]
    page.evaluate("window.scrollTo(0, 0)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"analysis-{name}.png"))
    # a game against the engine with a clock, a few moves in
    page.click("#new7")
    page.select_option("#opponent", "engine")
    page.select_option("#level", "1")
    page.select_option("#clock", "fischer")
    page.fill("#clock-base", "5")
    page.fill("#clock-inc", "3")
    page.click("#start-new")
    page.wait_for_url(re.compile(r"\?game=\d+"))
    for ply in (0, 2, 4):
        expect(page.locator("#board .dest.entry").first).to_be_attached(timeout=10000)
        page.evaluate("window.scrollTo(0, 0)")  # the buttons clicked below scrolled the page
        page.mouse.click(*centre(page.locator("#board .dest.entry").nth(3)))
        expect(page.locator("#moves button")).to_have_count(ply + 2, timeout=10000)  # and a reply
    expect(page.locator("#board .dest.entry").first).to_be_attached(timeout=10000)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"play-{name}.png"))
    context.close()
