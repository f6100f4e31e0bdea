"""The endgame tables' panel of the analysis board (issue 23, "shown to players"), in real headless
Chromium: the value of a position of the tables and every legal move's, in the order and words
of emergo.tablebase, a click on a move plays it, the panel only where the tables hold the
position; the engine's lines of such a position said in words; ``/api/tablebase``."""

from __future__ import annotations

from typing import Any

import pytest

from emergo import Board
from tests.plugins.browser import SHOTS, open_page

expect = pytest.importorskip("playwright.sync_api").expect
tablebase = pytest.importorskip("emergo.tablebase")  # the tables need the C kernel

WON = "7x7 w 0/0 d2:b8 d5:w8"  # White wins in 47 plies (the example)
HEX = "hex w 0/0 c3:b4w12 f3:b8"  # one winning move, five drawing ones


def plies(n: int) -> str:
    return f"{n} {'ply' if n == 1 else 'plies'}"


def value_text(board: Board) -> str:
    """The position's value as the panel must say it, from emergo.tablebase."""
    dtm = tablebase.default().probe_dtm(board)
    if dtm == 0:
        return "Draw"
    winner = board.turn if dtm > 0 else not board.turn
    return f"{'White' if winner else 'Black'} wins in {plies(abs(dtm))}"


def expected_rows(board: Board) -> list[tuple[str, str]]:
    """Every legal move with its label, in the panel's order: wins by distance, draws, the
    longest loss first (emergo.tablebase's best-first order)."""
    rows = []
    for item in tablebase.default().probe_moves(board):
        kind = "win" if item.wdl > 0 else "loss" if item.wdl < 0 else "draw"
        label = "draw" if kind == "draw" else f"{kind} in {plies(abs(item.dtm))}"
        rows.append((str(item.move), label))
    return rows


def shown_rows(page: Any) -> list[tuple[str, str]]:
    moves = page.locator("#tb-moves .tb-move")
    return [
        (moves.nth(k).get_attribute("data-move"), moves.nth(k).locator(".tb-label").inner_text())
        for k in range(moves.count())
    ]


def panel_shows(page: Any, board: Board) -> None:
    expect(page.locator("#tablebase-panel")).to_be_visible()
    expect(page.locator("#tablebase-panel")).not_to_have_class("stale")
    expect(page.locator("#tb-value")).to_have_text(value_text(board))
    expect(page.locator("#tb-moves .tb-move")).to_have_count(len(board.legal_moves))
    assert shown_rows(page) == expected_rows(board)


def test_the_panel_shows_the_tables_value_and_every_move_and_a_click_plays_it(
    page: Any, server: str
) -> None:
    board = Board(WON)
    open_page(page, server, WON)
    panel_shows(page, board)
    assert page.locator("#tb-value").inner_text() == "White wins in 47 plies"
    assert page.locator("#tb-moves .tb-group").all_inner_texts() == ["WINNING MOVES"]
    best = expected_rows(board)[0][0]
    assert best == "d5-d4"
    page.click(f"#tb-moves .tb-move[data-move='{best}']")
    expect(page.locator("#moves button")).to_have_count(1)
    assert page.locator("#moves button").first.inner_text() == best
    board.push_move(best)
    expect(page.locator("#board .last-ring, #board .last-path").first).to_be_attached()
    panel_shows(page, board)  # Black to move, losing: "White wins in 46 plies", losses only
    assert page.locator("#tb-value").inner_text() == "White wins in 46 plies"
    assert "loss" in (page.locator("#tb-value").get_attribute("class") or "")
    assert page.locator("#tb-moves .tb-group").all_inner_texts() == ["LOSING MOVES"]
    # a losing move, clicked: the defence that lasts longest is first
    defence = expected_rows(board)[0][0]
    page.click(f"#tb-moves .tb-move[data-move='{defence}']")
    expect(page.locator("#moves button")).to_have_count(2)
    board.push_move(defence)
    panel_shows(page, board)
    # back to the start of the line: the answer kept for that position comes back at once
    page.click("#first")
    expect(page.locator("#tb-value")).to_have_text("White wins in 47 plies")


def test_draws_on_the_hexagon_and_no_panel_outside_the_tables(page: Any, server: str) -> None:
    board = Board(HEX)
    open_page(page, server, HEX)
    panel_shows(page, board)
    groups = page.locator("#tb-moves .tb-group").all_inner_texts()
    assert groups == ["WINNING MOVES", "DRAWING MOVES"]
    page.click("#tb-moves .tb-move[data-move='c3-b2']")  # a drawing move
    board.push_move("c3-b2")
    panel_shows(page, board)
    assert page.locator("#tb-value").inner_text() == "Draw"
    # a position with men in hand, and one of four columns: no panel
    open_page(page, server, "7x7 w 8/8")
    expect(page.locator("#board .dest.entry").first).to_be_attached()
    expect(page.locator("#tablebase-panel")).to_be_hidden()
    open_page(page, server, "7x7 w 0/0 a4:w4 b3:w4 d2:b4 d5:b4")
    expect(page.locator("#board .cell").first).to_be_attached()
    page.wait_for_timeout(300)
    expect(page.locator("#tablebase-panel")).to_be_hidden()


def test_the_engine_says_a_tables_line_in_words(page: Any, server: str) -> None:
    open_page(page, server, WON)
    page.select_option("#atime", "1")
    page.click("#analyse")
    expect(page.locator("#eval")).to_have_text("White wins in 47 plies (tables)", timeout=10000)
    first = page.locator("#lines li").first.locator(".score")
    expect(first).to_have_text("+win47/tb")
    assert first.get_attribute("title") == "White wins in 47 plies, by the endgame tables"


def test_the_tablebase_endpoint(app_client: tuple[Any, Any]) -> None:
    c, _ = app_client
    answer = c.post("/api/tablebase", json={"pos": WON, "moves": ["d5-d4"]}).json()
    tables = answer["tablebase"]
    assert tables["dtm"] == -46 and tables["text"] == "White wins in 46 plies"
    assert answer["missing"] is None
    assert c.get("/api/tablebase", params={"pos": "w 12/12"}).json()["tablebase"] is None
    # a 3-column ending whose table is not built (the tests' data directory is empty)
    missing = c.post("/api/tablebase", json={"pos": "7x7 w 0/0 a4:w4 c3:b8 e4:w4"}).json()
    assert missing["tablebase"] is None and "emergo tablebase build" in missing["missing"]
    # the game over: nothing to say
    assert c.post("/api/tablebase", json={"pos": "7x7 w 0/0 d5:w8"}).json()["tablebase"] is None
    r = c.post("/api/tablebase", json={"pos": "nonsense"})
    assert r.status_code == 400 and r.json()["error"]


@pytest.mark.parametrize("size", [(1200, 860), (390, 844)], ids=["desktop", "phone"])
def test_the_tablebase_panel_as_a_player_sees_it(
    browser: Any, server: str, size: tuple[int, int]
) -> None:
    """The screenshots of docs/tablebase.md and docs/web.md (EMERGO_SCREENSHOTS=1 writes them)."""
    name = "desktop" if size[0] > 800 else "phone"
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    open_page(page, server, HEX, theme="dark" if name == "phone" else "light")
    panel_shows(page, Board(HEX))
    page.select_option("#atime", "1")
    page.click("#analyse")  # the engine's lines of a tables position: in words, "(tables)"
    expect(page.locator("#eval")).to_have_text("White wins in 41 plies (tables)", timeout=10000)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(400)  # the evaluation bar's 0.3 s transition, for the picture
    SHOTS.mkdir(parents=True, exist_ok=True)
    if name == "phone":  # the board first, the panel below it: scrolled to the panel
        page.locator("#tablebase-panel").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"tablebase-{name}.png"))
    context.close()
