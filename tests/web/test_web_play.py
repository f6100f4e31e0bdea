"""Games in the browser (real headless Chromium): a whole game against the engine played by
clicks on the destinations the page shows, hot-seat, takeback, reload, two tabs in sync, the
saved-games list (resume, replay).  Screenshots go to docs/web/."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.web.conftest import SHOTS, centre

expect = pytest.importorskip("playwright.sync_api").expect

SEVEN = "7x7 w 8/8"


def open_page(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("html[data-ready='1']")


def click(page: Any, selector: str) -> None:
    """Click the centre of the element (a square, a dot, a ring)."""
    page.mouse.click(*centre(page.locator(selector).first))


def start(page: Any, server: str, opponent: str, color: str = "white", level: str = "1") -> int:
    open_page(page, f"{server}/?pos={SEVEN}&animation=0&view=diamond&flip=0&names=oblique")
    page.select_option("#opponent", opponent)
    if opponent == "engine":
        page.select_option("#level", level)
    page.select_option("#color", color)
    page.click("#start-game")
    page.wait_for_url(re.compile(r"\?game=\d+"))
    expect(page.locator("#game-info")).to_contain_text("Game ")
    return int(page.url.rsplit("=", 1)[1])


MY_TURN = "#board .dest.entry, #board .movable"


def play_one(page: Any) -> None:
    """Play a move by clicks: an entry dot, or a ringed piece then its destinations in turn."""
    dots = page.locator("#board .dest.entry")
    if dots.count():
        click(page, "#board .dest.entry")
        return
    square = page.locator("#board .movable").first.get_attribute("data-square")
    click(page, f"#board .piece[data-square='{square}']")
    for _ in range(20):  # a capture is entered landing by landing
        dests = page.locator("#board .input .dest")
        if not dests.count():
            return
        click(page, "#board .input .dest")


def wait_turn_or_end(page: Any) -> bool:
    """Wait until the person may move (True) or the game is over (False)."""
    page.wait_for_function(
        f"""() => document.querySelector("{MY_TURN}")
                || document.getElementById("result").textContent !== "" """,
        timeout=30000,
    )
    return page.locator("#result").inner_text() == ""


def test_a_whole_game_against_the_engine_by_clicks(page: Any, server: str) -> None:
    game_id = start(page, server, "engine", "white", "1")
    plies, shot = 0, False
    for _ in range(400):
        if not wait_turn_or_end(page):
            break
        before = page.locator("#moves button").count()
        play_one(page)
        page.wait_for_function(
            f"""() => document.querySelectorAll("#moves button").length > {before}
                    || document.getElementById("message").textContent !== "" """
        )
        plies = page.locator("#moves button").count()
        if plies >= 6 and not shot:
            shot = True
            page.check("#show-thinking")
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "game-engine.png"))
    result = page.locator("#result").inner_text()
    assert re.match(r"(1-0|0-1|1/2-1/2) \(.*\(R\d+[abc]?\)\)", result), result
    assert plies > 4
    saved = page.request.get(f"{server}/api/games/{game_id}").json()
    assert saved["result"] != "*" and len(saved["moves"]) == page.locator("#moves button").count()
    page.reload()  # the finished game comes back as it was
    page.wait_for_selector("html[data-ready='1']")
    assert page.locator("#result").inner_text() == result


def test_hot_seat_takeback_reload_and_two_tabs(page: Any, server: str) -> None:
    game_id = start(page, server, "human")
    other = page.context.new_page()  # a second tab on the same game
    open_page(other, f"{server}/?game={game_id}")
    click(page, "#board .dest.entry[data-square='c4']")
    expect(page.locator("#moves button")).to_have_count(1)
    expect(other.locator("#moves button")).to_have_count(1)  # the other tab follows
    assert "Black to enter" in page.locator("#status").inner_text()
    click(other, "#board .dest.entry[data-square='e5']")  # Black moves from the other tab
    expect(page.locator("#moves button")).to_have_count(2)
    page.click("#takeback")
    expect(page.locator("#moves button")).to_have_count(1)
    expect(other.locator("#moves button")).to_have_count(1)
    page.reload()
    page.wait_for_selector("html[data-ready='1']")
    expect(page.locator("#moves button")).to_have_count(1)
    assert page.locator("#moves button").first.inner_text() == "c4"
    saved = page.request.get(f"{server}/api/games/{game_id}").json()
    assert saved["moves"] == ["c4"]
    other.close()


def test_saved_games_resume_replay_delete(page: Any, server: str) -> None:
    game_id = start(page, server, "human")
    click(page, "#board .dest.entry[data-square='c4']")
    expect(page.locator("#moves button")).to_have_count(1)
    click(page, "#board .dest.entry[data-square='e5']")
    expect(page.locator("#moves button")).to_have_count(2)
    page.click("#leave")
    page.click("#refresh-games")
    row = page.locator(f"#games li[data-game='{game_id}']")
    expect(row).to_contain_text("in progress")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "saved-games.png"))
    row.get_by_role("button", name="Replay").click()
    expect(page.locator("#moves button")).to_have_count(2)
    page.click("#last")
    expect(page.locator("#moves button.current")).to_have_text("e5")
    page.click("#back")
    expect(page.locator("#moves button.current")).to_have_text("c4")
    row.get_by_role("button", name="Resume").click()
    page.wait_for_url(re.compile(rf"\?game={game_id}$"))
    expect(page.locator("#moves button")).to_have_count(2)
    expect(page.locator("#status")).to_contain_text("White to enter")  # drawn after the moves
    record = page.request.get(f"{server}/api/games/{game_id}/record").text()
    assert "1. c4 e5" in record
    page.locator(f"#games li[data-game='{game_id}']").get_by_role("button", name="Delete").click()
    expect(page.locator(f"#games li[data-game='{game_id}']")).to_have_count(0)
    assert page.request.get(f"{server}/api/games/{game_id}").status == 404


def test_hex_board_renders_and_takes_a_move(page: Any, server: str) -> None:
    open_page(page, f"{server}/?pos=hex%20w%2012/12&animation=0&view=diamond&flip=0")
    assert page.locator("#board").get_attribute("data-view") == "hexagon"
    assert page.locator("#board .cell.hex").count() == 37
    assert page.locator("#board .dest.entry").count() == 36  # the centre d4 is banned (R16)
    assert page.locator("#board .forbidden[data-square='d4']").count() == 1
    click(page, "#board .dest.entry[data-square='c3']")
    expect(page.locator("#moves button")).to_have_count(1)
    click(page, "#board .dest.entry[data-square='e5']")
    expect(page.locator("#moves button")).to_have_count(2)
    # and a game against the engine on the hexagon (the backend that plays hex)
    page.select_option("#opponent", "engine")
    page.select_option("#level", "1")
    page.click("#start-game")
    page.wait_for_url(re.compile(r"\?game=\d+"))
    assert wait_turn_or_end(page)
    play_one(page)
    expect(page.locator("#moves button")).to_have_count(4)
    assert wait_turn_or_end(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "hex.png"))


RECORD = """[Event "replay test"]
[Variant "7x7"]

1. c4 e5 2. b3 d5 *
"""


def test_replay_import_step_annotate_export(page: Any, server: str) -> None:
    open_page(page, f"{server}/?pos={SEVEN}&animation=0&view=diamond&flip=0&names=oblique")
    page.fill("#record", RECORD)
    page.click("#import")
    expect(page.locator("#moves button")).to_have_count(4)
    page.click("#first")
    expect(page.locator("#moves button.current")).to_have_count(0)
    page.locator("body").press("ArrowRight")
    expect(page.locator("#moves button.current")).to_have_text("c4")
    page.locator("body").press("End")
    expect(page.locator("#moves button.current")).to_have_text(re.compile("^d5"))
    page.click("#review")
    expect(page.locator("#message")).to_contain_text("reviewed", timeout=30000)
    text = page.locator("#record").input_value()
    assert '[Annotator "emergo analyse"]' in text and "1. c4 {" in text
    assert page.locator("#moves button").first.get_attribute("title")  # the evaluation
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "replay.png"))
    page.click("#export")
    expect(page.locator("#record")).to_have_value(re.compile(r"1\. c4 e5 2\. b3 d5"))


def test_position_editor_is_checked_by_the_server(page: Any, server: str) -> None:
    open_page(page, f"{server}/?pos={SEVEN}&animation=0&view=diamond&flip=0&names=oblique")
    page.click("#edit")
    page.fill("#hand-w", "8")
    page.fill("#hand-b", "8")
    page.select_option("#brush", "white")
    click(page, "#board .cell[data-square='c4']")
    expect(page.locator("#hand-w")).to_have_value("7")  # the man came from White's hand
    page.fill("#hand-w", "8")
    page.click("#edit-done")
    expect(page.locator("#message")).to_contain_text("9 men")  # 8 in hand + 1: too many
    page.fill("#hand-w", "6")
    page.select_option("#brush", "black")
    click(page, "#board .cell[data-square='e5']")
    page.fill("#hand-b", "7")
    page.select_option("#edit-turn", "b")
    page.click("#edit-done")
    expect(page.locator("#pos-text")).to_have_value("7x7 b 6/7 c4:w e5:b")
    assert page.locator("#board .piece").count() == 2
    # start a game from here: hot-seat from the edited position
    page.select_option("#opponent", "human")
    page.click("#start-game")
    page.wait_for_url(re.compile(r"\?game=\d+"))
    expect(page.locator("#status")).to_contain_text("Black to enter")


def test_variations_are_kept_in_the_tree(page: Any, server: str) -> None:
    open_page(page, f"{server}/?pos={SEVEN}&moves=c4%20e5%20b3&animation=0&names=oblique")
    page.click("#back")
    page.click("#back")
    expect(page.locator("#moves button.current")).to_have_text("c4")
    page.fill("#move-text", "e3")
    page.press("#move-text", "Enter")
    expect(page.locator("#moves button.current")).to_have_text("e3")
    main = page.locator("#moves button.main")
    expect(main).to_have_count(3)  # the main line stays; e3 is a variation of e5
    branches = page.locator("#moves .variation .vline")
    expect(branches).to_have_count(1)
    assert re.sub(r"\s+", " ", branches.first.inner_text()) == "1... e3"
    page.click("#moves button.main[data-ply='2']")  # back to the main line
    expect(page.locator("#moves button.current")).to_have_text("e5")
    page.click("#back")
    page.fill("#move-text", "e3")  # a move played here before: its node, not a copy
    page.press("#move-text", "Enter")
    expect(page.locator("#moves button.current")).to_have_text("e3")
    expect(branches).to_have_count(1)
    expect(page.locator("#moves button")).to_have_count(4)


def test_engine_thinking_hint_draw_resign(page: Any, server: str) -> None:
    page.add_init_script(  # keep the page's sockets, so that the test can drop them
        """const Native = window.WebSocket; window.__sockets = [];
        window.WebSocket = class extends Native {
          constructor(...a) { super(...a); window.__sockets.push(this); } };"""
    )
    open_page(page, f"{server}/?pos={SEVEN}&animation=0&view=diamond&flip=0&names=oblique")
    page.select_option("#opponent", "movetime")
    page.select_option("#movetime", "3")
    page.select_option("#color", "black")  # the engine opens
    page.click("#start-game")
    page.wait_for_url(re.compile(r"\?game=\d+"))
    page.check("#show-thinking")
    expect(page.locator("#lines li").first).to_contain_text("/", timeout=5000)  # score/depth
    assert page.locator("#board").get_attribute("data-flipped") == "true"  # Black at the bottom
    assert wait_turn_or_end(page)
    page.click("#hint")
    expect(page.locator("#message")).to_contain_text("Hint:", timeout=10000)
    page.click("#draw")
    page.click("#confirm-yes")  # an offer is confirmed first
    expect(page.locator("#message")).to_contain_text("declines", timeout=10000)
    page.evaluate("() => window.__sockets.forEach((s) => s.close())")  # the connection drops
    expect(page.locator("#message")).to_contain_text("reconnecting")
    page.wait_for_function("() => window.__sockets.filter((s) => s.readyState === 1).length")
    page.click("#resign")
    page.click("#confirm-yes")  # so is resigning
    expect(page.locator("#result")).to_contain_text("1-0 (Black resigned (R20))", timeout=10000)
    assert page.locator("#status").inner_text().startswith("Game over")
