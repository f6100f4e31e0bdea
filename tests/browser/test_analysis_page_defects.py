"""The defects a newcomer hit on the board page (issue 18, 1-7; issue 31, 3 and 6), each in real
headless Chromium, on the one server: a game from the analysis board is a game of the site, on
its game page, and *Analyse* brings it back to the board.

Each issue-18 test failed on the local app's page before its rebuild (src/emergo/web/static at
1a5dd73); where it was about a game on the board, it is now about the site game the board
makes.  The issue-31 tests failed on main at e1f1fc1 (the one server's first board).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from emergo import round as rnd
from emergo.server.core.db import now
from tests.plugins.browser import (
    INVENTOR,
    TIED,
    LocalServer,
    click,
    enter,
    game_from_board,
    hover,
    open_page,
    square,
)

expect = pytest.importorskip("playwright.sync_api").expect

SEVEN = "7x7 w 8/8"
# 7x7: sixteen legal moves with captures in them
LINE = "d5 e3 b3 d7 f4 d3 e5 g4 d2 g4xe4xe6 d2xd4 f4 c2 f5 b5 d1"


def moves(page: Any) -> Any:
    return page.locator("#moves button")


def game_state(local: LocalServer, game: str) -> Any:
    found = local.site.rounds.get(game)
    assert found is not None
    return found.state


def play(page: Any, line: str) -> None:
    """Enter the men of ``line`` one by one on a game's page (each move shown before the next)."""
    for n, name in enumerate(line.split(), 1):
        enter(page, name)
        expect(moves(page)).to_have_count(n)


def hotseat_with_moves(local: LocalServer, line: list[str], pos: str = SEVEN) -> str:
    """A hot-seat game of the local player that begins with ``line`` (made on the server)."""
    t = now()
    state = rnd.RoundState.new(
        variant="7x7", root=pos, time_control=None, now=t, moves=line, local=True
    )
    player = local.site.local_user
    assert player is not None
    with local.site.db.write() as tx:
        return local.site.rounds.start(tx, state, player.id, player.id, rated=False, t=t)


# --- 1. a game from the board is the site's; the board keeps its own moves ---------------------


def test_1_a_game_from_the_board_is_a_site_game_and_the_board_keeps_its_moves(
    page: Any, server: str, local: LocalServer
) -> None:
    open_page(page, server, SEVEN, "c4")
    game = game_from_board(page)  # from the position shown: after c4
    assert game_state(local, game).root == "7x7 b 7/8 c4:w"
    expect(page.locator("#status")).to_contain_text("Black to enter a man")
    enter(page, "e5")
    expect(moves(page)).to_have_count(1)
    page.click("#analyse-game")  # a hot-seat game is analysed at any time
    page.wait_for_url(f"{server}/game/{game}/analysis")
    page.wait_for_selector("html[data-ready='1']")
    expect(moves(page)).to_have_count(1)
    enter(page, "c3")  # a move on the board, not in the game
    expect(moves(page)).to_have_count(2)
    assert game_state(local, game).moves == ("e5",)
    page.click("#new9")  # a new board: the free board, its address too
    expect(page.locator("#board .cell.dark")).to_have_count(41)
    assert page.url.endswith("/analysis")
    enter(page, "c4")
    expect(moves(page)).to_have_count(1)
    assert game_state(local, game).moves == ("e5",)


def test_1_a_game_lost_on_time_is_analysed_with_its_clocks_and_result(
    page: Any, server: str
) -> None:
    open_page(page, server, SEVEN)
    game = game_from_board(page, minutes="0.02")  # 1 s: the clock starts with the first move
    enter(page, "c4")
    expect(page.locator("#result")).to_contain_text("time", timeout=15000)
    page.click("#analyse-game")
    page.wait_for_url(f"{server}/game/{game}/analysis")
    page.wait_for_selector("html[data-ready='1']")
    expect(page.locator("#result")).to_contain_text("1-0")
    expect(page.locator("#result")).to_contain_text("time")
    expect(page.locator(".player .clock")).to_have_count(2)  # the record's [%clk]
    page.click("#first")
    expect(page.locator("#result")).to_have_text("")
    enter(page, "e5")  # another first move: a variation; the game's end is no refusal
    expect(page.locator("#moves .variation")).to_have_count(1)
    expect(page.locator("#message")).not_to_contain_text("over")


# --- 2. the phone's page does not jump --------------------------------------------------------


def test_2_on_a_phone_the_page_does_not_scroll_to_the_move_list(
    browser: Any, server: str, local: LocalServer
) -> None:
    # the game first: a game of yours that starts while a page is open opens (sitewide.js)
    game = hotseat_with_moves(local, LINE.split())
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    open_page(pg, server, SEVEN, LINE)
    assert pg.evaluate("window.scrollY") == 0
    pg.click("#back")
    expect(pg.locator("#moves button.current")).to_have_text("b5")
    assert pg.evaluate("window.scrollY") == 0
    pg.goto(f"{server}/game/{game}/analysis")
    pg.wait_for_selector("html[data-ready='1']")
    expect(pg.locator("#moves button")).to_have_count(16)
    assert pg.evaluate("window.scrollY") == 0
    context.close()


# --- 3. a new game, and a game from here, named as such ----------------------------------------


def test_3_new_game_starts_from_the_start_and_the_other_from_the_position_shown(
    page: Any, server: str, local: LocalServer
) -> None:
    open_page(page, server, SEVEN, "c4 e5")
    expect(page.locator("#start-new")).to_have_text("New game")
    expect(page.locator("#start-game")).to_have_text("From this position")
    fresh = game_from_board(page, fresh=True)
    assert game_state(local, fresh).root == SEVEN and game_state(local, fresh).moves == ()
    expect(page.locator("#status")).to_contain_text("White to enter a man")
    open_page(page, server, SEVEN, "c4 e5")
    page.click("#back")  # the position shown: after c4
    expect(page.locator("#moves button.current")).to_have_text("c4")
    here = game_from_board(page)
    assert game_state(local, here).root == "7x7 b 7/8 c4:w"


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


def test_5_a_declined_draw_is_not_news_once_the_game_ended(page: Any, server: str) -> None:
    open_page(page, server, SEVEN)
    game_from_board(page)
    play(page, "c4 e5 c3")  # both have moved: resign replaces abort
    page.click("#draw")  # Black offers, White declines at the same screen
    page.click("#confirm-yes")
    expect(page.locator("#offer")).to_be_visible()
    page.click("#offer-no")
    expect(page.locator("#message")).to_contain_text("declined the draw")
    page.click("#resign")
    page.click("#confirm-yes")
    expect(page.locator("#result")).to_contain_text("resigned")
    expect(page.locator("#message")).not_to_contain_text("declined")


# --- 6. confirmations, takeback, the keyboard cursor, contrast --------------------------------


def test_6_resign_and_draw_ask_first_and_takeback_ends_with_the_game(
    page: Any, server: str
) -> None:
    open_page(page, server, SEVEN)
    game_from_board(page)
    play(page, "c4 e5 c3")  # both have moved: resign replaces abort
    for button in ("#resign", "#draw"):
        page.click(button)
        expect(page.locator("#confirm")).to_be_visible()
        page.click("#confirm-no")
        expect(page.locator("#confirm")).to_be_hidden()
    assert page.locator("#result").inner_text() == ""
    assert page.locator("#offer").is_hidden()  # no offer was made
    expect(page.locator("#takeback")).to_be_enabled()
    page.click("#resign")
    page.click("#confirm-yes")
    expect(page.locator("#result")).to_contain_text("resigned")
    expect(page.locator("#game-controls")).to_be_hidden()  # takeback and all: the game is over


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


# --- 7. results, dates, the games list, the editor, the eval bar, lines, coordinates ----------

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


def test_7_a_finished_game_is_analysed_with_its_result(page: Any, server: str) -> None:
    open_page(page, server, SEVEN)
    game = game_from_board(page)
    play(page, "c4 e5 c3")  # both have moved: resign replaces abort
    page.click("#resign")  # Black, to move, resigns
    page.click("#confirm-yes")
    expect(page.locator("#result")).to_contain_text("resigned")
    page.click("#analyse-game")
    page.wait_for_url(f"{server}/game/{game}/analysis")
    expect(page.locator("#result")).to_have_text("1-0 (Black resigned (R20))")


def test_7_an_exported_record_is_dated_today(page: Any, server: str) -> None:
    open_page(page, server, SEVEN, "c4 e5")
    page.click("#export")
    expect(page.locator("#record")).to_have_value(re.compile(r"1\. c4 e5"))
    assert f'[Date "{dt.date.today():%Y.%m.%d}"]' in page.locator("#record").input_value()


def test_7_the_front_page_lists_a_game_made_from_the_board(page: Any, server: str) -> None:
    open_page(page, server, SEVEN)
    game = game_from_board(page)
    page.goto(server + "/")
    page.wait_for_selector("html[data-ready='1']")
    expect(page.locator(f"#playing a[href='/game/{game}']")).to_have_count(1)


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
    after = square(page, "e5").bounding_box()
    # not a pixel's move (defect 7: the bar took its width from the board's row); under CI's
    # load a sub-pixel difference, 0.84 px, came and went
    assert after == pytest.approx(before, abs=1.5)
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


# --- issue 31: 3. the position box; 6. replay keys and stale messages ---------------------------

BAD_POSITIONS = ["w 12/12 zz:w", "hello", "w 13/12", "7x7 w 8/8 d4:w"]


@pytest.mark.parametrize("bad", BAD_POSITIONS)
def test_31_3_an_invalid_position_leaves_the_board_as_it_was_and_says_why(
    page: Any, server: str, bad: str
) -> None:
    open_page(page, server, SEVEN, "c4")
    address = page.url
    page.fill("#pos-text", bad)
    page.press("#pos-text", "Enter")
    expect(page.locator("#message")).to_contain_text("invalid position")
    expect(page.locator("#board .cell.dark")).to_have_count(25)  # the 7x7 board, still there
    expect(moves(page)).to_have_count(1)
    assert page.url == address  # the address is not the bad text
    enter(page, "e5")  # and it still plays
    expect(moves(page)).to_have_count(2)


def test_31_3_the_position_box_shows_the_position_shown_survives_a_reload_and_enter_loads(
    page: Any, server: str
) -> None:
    open_page(page, server, SEVEN)
    box = page.locator("#pos-text")
    expect(box).to_have_value(SEVEN)
    enter(page, "c4")
    expect(box).to_have_value("7x7 b 7/8 c4:w")  # the position shown, not the start
    enter(page, "e5")
    expect(moves(page)).to_have_count(2)  # e5 shown (else "back" goes back from c4)
    page.click("#back")
    expect(box).to_have_value("7x7 b 7/8 c4:w")
    page.reload()
    page.wait_for_selector("html[data-ready='1']")
    expect(box).to_have_value("7x7 b 7/8 c4:w")  # the address kept the line shown
    expect(page.locator("#moves button.current")).to_have_text("c4")
    page.fill("#pos-text", "w 0/0 e5:w2 e6:b d7:b f7:b b5:b")
    page.press("#pos-text", "Enter")
    expect(page.locator("#board .cell.dark")).to_have_count(41)
    expect(page.locator("#status")).to_contain_text("2 routes tie")
    expect(box).to_have_value("w 0/0 b5:b d7:b e5:w2 e6:b f7:b")  # as the server writes it


def test_31_6_ten_fast_arrow_presses_reach_ply_ten(page: Any, server: str) -> None:
    open_page(page, server, SEVEN, LINE)
    page.locator("body").press("Home")
    expect(page.locator("#moves button.current")).to_have_count(0)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(10):
        page.keyboard.press("ArrowRight", delay=0)
    expect(page.locator("#moves button.current")).to_have_attribute("data-ply", "10")
    expect(page.locator("#moves button.current")).to_have_text("g4xe4xe6")
    for _ in range(7):
        page.keyboard.press("ArrowLeft", delay=0)
    expect(page.locator("#moves button.current")).to_have_attribute("data-ply", "3")
    expect(page.locator("#pos-text")).not_to_have_value(SEVEN)


def test_31_6_ten_fast_arrow_presses_on_a_games_page_reach_ten_plies_back(
    page: Any, server: str, local: LocalServer
) -> None:
    # the game page steps through positions it may not have fetched yet: none of the presses
    # is lost while they come
    game = hotseat_with_moves(local, LINE.split())
    page.goto(f"{server}/game/{game}")
    page.wait_for_selector("html[data-ready='1']")
    expect(moves(page)).to_have_count(16)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(10):
        page.keyboard.press("ArrowLeft", delay=0)
    expect(page.locator("#moves button.current")).to_have_text(LINE.split()[5])
    expect(page.locator("#status")).to_contain_text("Move 6 of 16")
    for _ in range(3):
        page.keyboard.press("ArrowRight", delay=0)
    expect(page.locator("#status")).to_contain_text("Move 9 of 16")


def test_31_6_a_refusal_is_not_news_once_the_board_moved_on(page: Any, server: str) -> None:
    open_page(page, server, SEVEN, "c4")
    click(page, "d4")  # Black next to c4: refused (R15)
    expect(page.locator("#message")).to_contain_text("R15")
    page.click("#back")
    expect(page.locator("#message")).to_have_text("")
    # on a game's page (from the start, the position shown): a refusal, then a takeback
    game_from_board(page)
    click(page, "d4")  # White's first man on the centre: refused (R16)
    expect(page.locator("#message")).to_contain_text("R16")
    enter(page, "c4")  # a move: the refusal is gone
    expect(moves(page)).to_have_count(1)
    expect(page.locator("#message")).not_to_contain_text("R16")
    click(page, "d4")
    expect(page.locator("#message")).to_contain_text("R15")
    page.click("#takeback")  # hot-seat: granted at once
    expect(moves(page)).to_have_count(0)
    expect(page.locator("#message")).not_to_contain_text("R15")


def test_31_6_a_hint_goes_with_its_position(page: Any, server: str) -> None:
    open_page(page, server, SEVEN)
    game_from_board(page)
    expect(page.locator("#hint")).to_be_visible()  # a hot-seat game: hints
    play(page, "c4")
    page.click("#hint")
    expect(page.locator("#message")).to_contain_text("Hint:", timeout=15000)
    expect(page.locator("#board .shape.auto.brush-green")).to_have_count(1)
    expect(page.locator("#board .last-ring")).to_have_count(1)  # the last move still shown
    enter(page, "e5")
    expect(moves(page)).to_have_count(2)
    expect(page.locator("#message")).not_to_contain_text("Hint:")
    expect(page.locator("#board .shape.auto")).to_have_count(0)
