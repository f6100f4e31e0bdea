"""The board page in real headless Chromium: both views, flipping, forbidden entries with their
reasons (R15, R16), a capture with tied routes chosen landing by landing (R11), records.

Screenshots go to docs/web/ with EMERGO_SCREENSHOTS=1 (docs/web.md shows them)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.plugins.browser import INVENTOR, SHOTS, TIED, click, hover, open_page, square

expect = pytest.importorskip("playwright.sync_api").expect

# The inventor's capture example (seeds/004, README): Black must take h4xf4xd4, then White's
# e4xc4xc6xe6xe4xc4 takes five men.
# Two capture routes of one length tie (R11): e5xe7xc7 and e5xe7xg7.
# A column that a tower picture would get wrong: 3 White over 5 Black, next to other stacks.
TALL = "w 0/0 c4:b5w3 c5:b d4:b2w5 d5:w e5:w2b3 f5:b"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


def test_position_renders_in_both_views_and_flips(page: Any, server: str) -> None:
    open_page(page, server, INVENTOR, "hd4x")
    pieces = page.locator("#board .piece")
    assert pieces.count() == 5
    assert page.locator("#board .piece[data-square='d4']").get_attribute("data-stack") == "2/2"
    # the last move's route, landings numbered (R12)
    assert page.locator("#board .landing").all_text_contents() == ["1", "2"]
    assert "White must capture 5 men" in page.locator("#status").inner_text()
    assert page.locator("#moves button.current").inner_text() == "h4xf4xd4"
    shot(page, "diamond.png")
    diamond = square(page, "e1").bounding_box()
    page.click("#view")
    assert page.locator("#board").get_attribute("data-view") == "checker"
    checker = square(page, "e1").bounding_box()
    assert checker != diamond
    page.click("#names")
    assert page.locator("#moves button.current").inner_text() == "g1xe3xc5"  # R3 names
    shot(page, "checker.png")
    page.click("#names")
    # flipping puts e1 (White's side) at the top
    low = square(page, "e1").bounding_box()["y"]
    page.click("#flip")
    assert page.locator("#board").get_attribute("data-flipped") == "true"
    assert square(page, "e1").bounding_box()["y"] < low
    page.click("#flip")
    page.click("#view")
    assert page.locator("#board").get_attribute("data-view") == "diamond"


def test_forbidden_entry_shows_its_reason(page: Any, server: str) -> None:
    open_page(page, server, "w 12/12", "d4")
    # d5 would let White capture (R15): marked, refused, and the reason shown on hover
    assert page.locator("#board .forbidden[data-square='d5']").count() == 1
    hover(page, "d5")
    tip = page.locator("#board .eg-tip")
    assert tip.is_visible()
    assert "would let White capture" in tip.inner_text()
    assert "(R15)" in tip.inner_text()
    shot(page, "forbidden.png")
    click(page, "d5")
    assert "(R15)" in page.locator("#message").inner_text()
    assert page.locator("#moves button").count() == 1  # nothing played
    # a legal entry is played by one click
    click(page, "f6")
    expect(page.locator("#moves button")).to_have_count(2)
    assert page.locator("#moves button.current").inner_text() == "f6"


def test_centre_ban_on_the_first_move(page: Any, server: str) -> None:
    open_page(page, server, "w 12/12")
    hover(page, "e5")
    assert "(R16)" in page.locator("#board .eg-tip").inner_text()


def test_tied_capture_routes_are_chosen_on_the_board(page: Any, server: str) -> None:
    open_page(page, server, TIED)
    assert "2 routes tie" in page.locator("#status").inner_text()
    # a piece that cannot capture is refused with the reason (R8)
    click(page, "b5")
    assert page.locator("#moves button").count() == 0
    click(page, "e5")
    # the first landing is shared by both routes and is taken at once; then the board offers
    # the two landings that tie
    page.wait_for_selector("#board .input .partial", state="attached")
    dests = page.locator("#board .input .dest")
    assert sorted(d.get_attribute("data-square") for d in dests.all()) == ["c7", "g7"]
    shot(page, "capture-choice.png")
    click(page, "c7")
    expect(page.locator("#moves button")).to_have_count(1)
    assert page.locator("#moves button.current").inner_text() == "e5xe7xc7"
    assert page.locator("#board .landing").all_text_contents() == ["1", "2"]


def test_capture_by_drag_and_by_text(page: Any, server: str) -> None:
    open_page(page, server, INVENTOR)
    a = square(page, "h4").bounding_box()
    b = square(page, "d4").bounding_box()  # dropped on the last landing: one way leads there
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=5)
    page.mouse.up()
    expect(page.locator("#moves button")).to_have_count(1)
    page.fill("#move-text", "e4-c4-c6-e6-e4-c4")  # ArenA style, parsed by the server
    page.press("#move-text", "Enter")
    expect(page.locator("#moves button")).to_have_count(2)
    assert page.locator("#result").inner_text().startswith("1-0")
    page.fill("#move-text", "zz")
    page.press("#move-text", "Enter")
    expect(page.locator("#message")).not_to_be_empty()


def test_stacks_are_legible_and_show_their_column(page: Any, server: str) -> None:
    open_page(page, server, TALL)
    for name, stack in [("c4", "3/5"), ("d4", "5/2"), ("e5", "3/2")]:
        piece = page.locator(f"#board .piece[data-square='{name}']")
        assert piece.get_attribute("data-stack") == stack
        texts = piece.locator("text.count").all_text_contents()
        caps, prisoners = stack.split("/")
        assert texts == [caps, prisoners]
    hover(page, "c4")
    tip = page.locator("#board .eg-tip")
    assert "3 White over 5 Black" in tip.inner_text()
    assert tip.locator(".man.black").count() == 5
    assert tip.locator(".man.white").count() == 3
    shot(page, "stacks.png")
    page.click("#view")
    shot(page, "stacks-checker.png")


def test_record_round_trip(page: Any, server: str) -> None:
    open_page(page, server, INVENTOR, "hd4x e4xc4xc6xe6xe4xc4")
    page.click("#export")
    expect(page.locator("#record")).to_have_value(re.compile("1-0"))
    text = page.locator("#record").input_value()
    assert "1... h4xf4xd4 2. e4xc4xc6xe6xe4xc4 1-0" in text
    assert page.locator("#download").is_visible()
    page.click("#new9")
    expect(page.locator("#moves button")).to_have_count(0)
    page.fill("#record", text)
    page.click("#import")
    expect(page.locator("#moves button")).to_have_count(2)
    page.click("#first")  # the position box shows the position shown: here the start
    expect(page.locator("#pos-text")).to_have_value(INVENTOR)
    page.click("#export")
    expect(page.locator("#record")).to_have_value(re.compile("1-0"))
    assert page.locator("#record").input_value() == text


def test_keyboard_plays_a_move(page: Any, server: str) -> None:
    open_page(page, server, "w 12/12")
    page.focus("#board svg")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(page.locator("#moves button")).to_have_count(1)


def test_keyboard_steps_and_enters(page: Any, server: str) -> None:
    open_page(page, server, INVENTOR, "hd4x e4xc4xc6xe6xe4xc4")
    page.locator("body").press("Home")
    expect(page.locator("#moves button.current")).to_have_count(0)
    page.locator("body").press("ArrowRight")
    page.wait_for_selector("#moves button.current[data-ply='1']")
    page.click("#moves button[data-ply='2']")
    page.wait_for_selector("#moves button.current[data-ply='2']")


def test_analysis_streams_lines_and_stops(page: Any, server: str) -> None:
    open_page(page, server, "w 12/12", "d4 f6")
    page.select_option("#atime", "inf")
    page.click("#analyse")
    page.wait_for_selector("#lines li")
    page.click("#analyse")  # stop
    expect(page.locator("#analyse")).to_have_text("Analyse")
    assert page.locator("#lines li").count() >= 1
    assert "White's view" in page.locator("#eval").inner_text()
    shot(page, "analysis.png")
    first = page.locator("#lines li").first.locator("button").first
    first.click()
    page.wait_for_selector("#moves button.current[data-ply='3']")


def test_phone_layout_and_dark_theme(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800}, device_scale_factor=2)
    pg = context.new_page()
    open_page(pg, server, INVENTOR, "hd4x", theme="dark")
    board = pg.locator("#board").bounding_box()
    assert board["width"] <= 390 and board["width"] > 300
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / "phone-dark.png"))
    context.close()


def test_page_weight_is_under_300_kb(page: Any, server: str) -> None:
    sizes: list[int] = []
    page.on("response", lambda r: sizes.append(len(r.body())) if r.ok else None)
    open_page(page, server, "w 12/12")
    page.wait_for_load_state("networkidle")
    print(f"page weight {sum(sizes)} bytes in {len(sizes)} responses")
    assert sum(sizes) < 300_000, sizes


def test_seven_by_seven_board(page: Any, server: str) -> None:
    open_page(page, server, "7x7 w 8/8")
    assert page.locator("#board .cell.dark").count() == 25
    assert page.locator("#board .forbidden[data-square='d4']").count() == 1  # centre ban, R16
    click(page, "c3")
    expect(page.locator("#moves button")).to_have_count(1)
    assert page.locator("#player-bottom").get_attribute("data-hand") == "7"


def test_the_page_marks_when_its_first_board_is_drawn(page: Any, server: str) -> None:
    # the mark tools/bench_web.py reads (its time is a benchmark's figure, not a test's)
    open_page(page, server, INVENTOR)
    marks = page.evaluate("() => performance.getEntriesByName('emergo-board-drawn').length")
    assert marks == 1 and page.locator("#board .piece").count() > 0


def test_capture_is_animated_jump_by_jump(page: Any, server: str) -> None:
    open_page(page, server, TIED, animation="1")
    click(page, "e5")
    click(page, "g7")
    ghost = page.locator("#board .anim .ghost")
    expect(ghost).to_have_count(1)  # the mover glides over e6, then f7
    expect(page.locator("#board .piece.hit")).not_to_have_count(0)
    expect(ghost).to_have_count(0)
    expect(page.locator("#board .piece[data-square='g7']")).to_have_attribute("data-stack", "2/2")
    assert page.locator("#board .piece[data-square='e6']").count() == 0
    assert page.locator("#board .landing").all_text_contents() == ["1", "2"]
