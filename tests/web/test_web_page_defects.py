"""The defects a newcomer hit on the board page (issue 18, 1-7), each in real headless Chromium.

Each test failed on the page before the rebuild (src/emergo/web/static at 1a5dd73: app.js and
board.js) and passes on the rebuilt one; defect 8 (the command line) is in tests/test_cli.py.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from tests.web.conftest import centre
from tests.web.test_web_browser import INVENTOR, TIED, click, hover, open_page, square

expect = pytest.importorskip("playwright.sync_api").expect

SEVEN = "7x7 w 8/8"
# 7x7: sixteen legal moves with captures in them
LINE = "d5 e3 b3 d7 f4 d3 e5 g4 d2 g4xe4xe6 d2xd4 f4 c2 f5 b5 d1"


def enter(page: Any, name: str) -> None:
    """Enter a man by a click on the square's dot."""
    page.mouse.click(*centre(page.locator(f"#board .dest.entry[data-square='{name}']")))


def start_hot_seat(page: Any, server: str, clock_minutes: str = "") -> int:
    open_page(page, server, SEVEN)
    page.select_option("#opponent", "human")
    if clock_minutes:
        page.select_option("#clock", "fischer")
        page.fill("#clock-base", clock_minutes)
        page.fill("#clock-inc", "0")
    page.click("#start-game")
    page.wait_for_url(re.compile(r"\?game=\d+"))
    expect(page.locator("#status")).to_contain_text("White to enter")
    return int(page.url.rsplit("=", 1)[1])


def moves(page: Any) -> Any:
    return page.locator("#moves button")


# --- 1. a new board leaves the game -----------------------------------------------------------


def test_1_a_new_board_during_a_game_asks_and_leaves_it(page: Any, server: str) -> None:
    game = start_hot_seat(page, server)
    enter(page, "c4")
    expect(moves(page)).to_have_count(1)
    page.click("#new9")
    expect(page.locator("#confirm")).to_be_visible()  # a game under way: asked first
    expect(page.locator("#confirm-text")).to_contain_text(f"Leave game {game}")
    page.click("#confirm-yes")
    expect(page.locator("#board .cell.dark")).to_have_count(41)
    expect(page.locator("#game-info")).to_be_hidden()
    assert "game=" not in page.url  # (5) the address and the header leave the game too
    expect(page.locator("#page-title")).to_have_text("Analysis board")
    enter(page, "c4")  # a click on the new board plays there, not in the game
    expect(moves(page)).to_have_count(1)
    assert page.request.get(f"{server}/api/games/{game}").json()["moves"] == ["c4"]


def test_1_a_new_board_after_a_game_lost_on_time(page: Any, server: str) -> None:
    start_hot_seat(page, server, clock_minutes="0.02")  # 1.2 s
    expect(page.locator("#result")).to_contain_text("time", timeout=8000)
    page.click("#new9")  # the game is over: nothing to ask
    enter(page, "c4")
    expect(moves(page)).to_have_count(1)
    expect(page.locator("#message")).not_to_contain_text("over")


# --- 2. the phone's page does not jump --------------------------------------------------------


def test_2_on_a_phone_the_page_does_not_scroll_to_the_move_list(browser: Any, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    open_page(pg, server, SEVEN, LINE)
    assert pg.evaluate("window.scrollY") == 0
    pg.click("#back")
    expect(pg.locator("#moves button.current")).to_have_text("b5")
    assert pg.evaluate("window.scrollY") == 0
    body = {"pos": SEVEN, "moves": LINE.split(), "white": {"kind": "human"}}
    body["black"] = {"kind": "human"}
    game = pg.request.post(f"{server}/api/games", data=body).json()["id"]
    pg.goto(f"{server}/?game={game}")
    pg.wait_for_selector("html[data-ready='1']")
    expect(pg.locator("#moves button")).to_have_count(16)
    assert pg.evaluate("window.scrollY") == 0
    context.close()


# --- 3. after a game: a new game, named as such ---------------------------------------------


def test_3_after_a_game_a_new_game_starts_from_the_start(page: Any, server: str) -> None:
    game = start_hot_seat(page, server)
    enter(page, "c4")
    page.click("#resign")
    page.click("#confirm-yes")
    expect(page.locator("#result")).to_contain_text("Black resigned (R20)")
    expect(page.locator("#game-over")).to_be_visible()
    page.click("#rematch")
    page.wait_for_url(re.compile(rf"\?game=(?!{game}$)\d+$"))
    expect(page.locator("#status")).to_contain_text("White to enter")
    expect(moves(page)).to_have_count(0)
    page.click("#leave")  # on the analysis board both are offered, named
    expect(page.locator("#start-new")).to_have_text("New game")
    expect(page.locator("#start-game")).to_have_text("From this position")


# --- 4. tied capture routes: the shared landing clicked -----------------------------------------


def test_4_clicking_the_landing_every_route_shares_keeps_the_choice(page: Any, server: str) -> None:
    open_page(page, server, TIED)
    click(page, "e5")  # e7 is on both routes: taken at once
    page.wait_for_selector("#board .input .partial", state="attached")
    click(page, "e7")  # as a player would: it keeps the selection
    dests = page.locator("#board .input .dest")
    expect(dests).to_have_count(2)
    assert sorted(d.get_attribute("data-square") for d in dests.all()) == ["c7", "g7"]
    expect(page.locator("#message")).to_contain_text("choose c7 or g7")
    click(page, "g7")
    expect(page.locator("#moves button.current")).to_have_text("e5xe7xg7")


# --- 5. stale text ------------------------------------------------------------------------------


def test_5_a_tooltip_goes_with_the_position_it_spoke_of(page: Any, server: str) -> None:
    open_page(page, server, INVENTOR, animation="1")
    hover(page, "c5")
    tip = page.locator("#board .eg-tip")
    expect(tip).to_contain_text("must capture")
    page.fill("#move-text", "hd4x")
    page.press("#move-text", "Enter")
    expect(moves(page)).to_have_count(1)
    expect(page.locator("#board .anim .ghost")).to_have_count(0)
    expect(tip).to_be_hidden()


def test_5_a_declined_draw_is_not_news_in_the_next_game(page: Any, server: str) -> None:
    game = start_hot_seat(page, server)
    enter(page, "c4")
    page.request.post(f"{server}/api/games/{game}/draw", data={"by": "black"})
    expect(page.locator("#draw-answer")).to_be_visible()
    page.click("#draw-decline")
    expect(page.locator("#message")).to_contain_text("White declined the draw")
    page.click("#leave")
    page.click("#start-game")
    page.wait_for_url(re.compile(rf"\?game=(?!{game}$)\d+$"))
    expect(page.locator("#status")).to_contain_text("to enter")
    expect(page.locator("#message")).not_to_contain_text("declined")


# --- 6. confirmations, takeback, the keyboard cursor, contrast --------------------------------


def test_6_resign_and_draw_ask_first_and_takeback_ends_with_the_game(
    page: Any, server: str
) -> None:
    start_hot_seat(page, server)
    enter(page, "c4")
    for button in ("#resign", "#draw"):
        page.click(button)
        expect(page.locator("#confirm")).to_be_visible()
        page.click("#confirm-no")
        expect(page.locator("#confirm")).to_be_hidden()
    assert page.locator("#result").inner_text() == ""
    assert page.locator("#draw-answer").is_hidden()  # no offer was made
    expect(page.locator("#takeback")).to_be_enabled()
    page.click("#resign")
    page.click("#confirm-yes")
    expect(page.locator("#result")).to_contain_text("resigned")
    expect(page.locator("#takeback")).to_be_disabled()


def test_6_the_keyboard_cursor_shows_only_while_the_keyboard_is_used(
    page: Any, server: str
) -> None:
    open_page(page, server, "w 12/12")
    click(page, "e5")  # a click (refused: R16) leaves no outline that looks like a selection
    expect(page.locator("#message")).to_contain_text("R16")
    assert page.locator("#board .cursor").count() == 0
    page.keyboard.press("ArrowUp")
    expect(page.locator("#board .cursor")).to_have_count(1)


CONTRAST = """(sel) => {
  const el = document.querySelector(sel);
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => v / 255).map((v) =>
      v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const s = getComputedStyle(el);
  const [a, b] = [lum(s.color), lum(s.backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_6_pressed_buttons_and_the_current_move_are_legible(
    page: Any, server: str, theme: str
) -> None:
    open_page(page, server, SEVEN, "c4 e5", theme=theme)
    for selector in ("#coords[aria-pressed='true']", "#moves button.current"):
        ratio = page.evaluate(CONTRAST, selector)
        assert ratio >= 4.5, (theme, selector, ratio)  # WCAG AA


# --- 7. results, dates, the saved list, the editor, the eval bar, lines, hints, coordinates ----

RESIGNED = """[Event "t"]
[Variant "7x7"]
[Result "0-1"]
[Termination "resignation"]

1. c4 e5 0-1
"""


def test_7_an_imported_record_shows_its_result_and_why(page: Any, server: str) -> None:
    open_page(page, server, SEVEN)
    page.fill("#record", RESIGNED)
    page.click("#import")
    expect(moves(page)).to_have_count(2)
    expect(page.locator("#result")).to_have_text("0-1 (White resigned (R20))")
    expect(page.locator("#status")).to_contain_text("Game over")
    page.click("#back")  # before the end: no result there
    expect(page.locator("#result")).to_have_text("")


def test_7_a_replayed_finished_game_shows_its_result(page: Any, server: str) -> None:
    game = start_hot_seat(page, server)
    enter(page, "c4")
    page.click("#resign")
    page.click("#confirm-yes")
    expect(page.locator("#result")).to_contain_text("resigned")
    page.click("#leave")
    row = page.locator(f"#games li[data-game='{game}']")
    expect(row).to_contain_text("1-0 (resignation)")  # the list says the result at once
    row.get_by_role("button", name="Replay").click()
    expect(page.locator("#result")).to_have_text("1-0 (Black resigned (R20))")


def test_7_an_exported_record_is_dated_today(page: Any, server: str) -> None:
    open_page(page, server, SEVEN, "c4 e5")
    page.click("#export")
    expect(page.locator("#record")).to_have_value(re.compile(r"1\. c4 e5"))
    assert f'[Date "{dt.date.today():%Y.%m.%d}"]' in page.locator("#record").input_value()


def test_7_the_saved_list_follows_games_made_elsewhere(page: Any, server: str) -> None:
    open_page(page, server, SEVEN)
    body = {"pos": SEVEN, "white": {"kind": "human"}, "black": {"kind": "human"}}
    game = page.request.post(f"{server}/api/games", data=body).json()["id"]
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # back to this tab
    expect(page.locator(f"#games li[data-game='{game}']")).to_contain_text("in progress")


def test_7_the_editor_takes_men_from_the_hands_and_says_it_edits(page: Any, server: str) -> None:
    open_page(page, server, SEVEN)
    page.click("#edit")
    expect(page.locator("#hand-w")).to_have_value("8")
    expect(page.locator("#status")).to_contain_text("Editing")
    page.select_option("#brush", "white")
    click(page, "c4")
    expect(page.locator("#hand-w")).to_have_value("7")
    page.click("#edit-done")
    expect(page.locator("#pos-text")).to_have_value("7x7 w 7/8 c4:w")


def test_7_the_board_stays_put_when_the_evaluation_bar_comes(page: Any, server: str) -> None:
    open_page(page, server, "w 12/12", "d4 f6")
    before = square(page, "e5").bounding_box()
    page.select_option("#atime", "1")
    page.click("#analyse")
    page.wait_for_selector("#lines li")
    assert square(page, "e5").bounding_box() == before
    # (7) the lines are numbered as a record numbers them: White's second move first
    expect(page.locator("#lines li").first.locator(".no").first).to_have_text("2.")
    expect(page.locator("#analyse")).to_have_text("Analyse", timeout=10000)


def test_7_oblique_names_in_the_checkerboard_view_stay_on_the_board(page: Any, server: str) -> None:
    open_page(page, server, SEVEN, view="checker", names="oblique")
    edge = page.locator("#board .edge").bounding_box()
    labels = page.locator("#board .coords text")
    assert labels.count() == 25  # every square named, in its own cell
    for box in (labels.nth(i).bounding_box() for i in range(labels.count())):
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert (
            edge["x"] < x < edge["x"] + edge["width"] and edge["y"] < y < edge["y"] + edge["height"]
        )
