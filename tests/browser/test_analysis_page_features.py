"""What lichess players expect, added to the board page (issue 18) and kept on the one server
(issue 26), in real headless Chromium: premoves on a game's page, arrows and circles, the
engine's best move and hints as arrows, sounds with a mute toggle, abort with a confirmation,
comments and marks kept in studies and records."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from emergo import round as rnd
from emergo.server.core.db import now
from tests.plugins.browser import (
    SHOTS,
    LocalServer,
    centre,
    click,
    game_from_board,
    open_page,
    square,
)

expect = pytest.importorskip("playwright.sync_api").expect
PlaywrightError = pytest.importorskip("playwright.sync_api").Error

SEVEN = "7x7 w 8/8"
# White (to move) has 11 moves; after any of them Black may enter c3 (found with emergo.Board).
PREMOVE = "7x7 w 4/4 b3:b c2:b c5:w d3:w d5:w e6:b f3:b g4:w"


class Opponent:
    """Another account of the site, White against the local player in a game from ``pos``: the
    test plays its moves when it chooses (a premove waits for them)."""

    def __init__(self, local: LocalServer, pos: str) -> None:
        self.local = local
        self.user = local.site.users.create(f"w{uuid.uuid4().hex[:8]}", None)
        player = local.site.local_user
        assert player is not None
        t = now()
        state = rnd.RoundState.new(variant="7x7", root=pos, time_control=None, now=t)
        with local.site.db.write() as tx:
            rounds = local.site.rounds
            self.game = rounds.start(tx, state, self.user.id, player.id, rated=False, t=t)

    def play(self, text: str) -> None:
        self.local.site.play(self.game, self.user, "move", text=text)


def game_page(page: Any, server: str, game: str) -> None:
    page.goto(f"{server}/game/{game}?animation=0")
    page.wait_for_selector("html[data-ready='1']")


def test_a_premove_is_played_as_soon_as_the_turn_comes(
    page: Any, server: str, local: LocalServer
) -> None:
    white = Opponent(local, PREMOVE)
    game_page(page, server, white.game)
    expect(page.locator("#status")).to_contain_text("Waiting for White")
    click(page, "c3")  # Black's entry queued while White thinks
    expect(page.locator("#board .premove[data-square='c3']")).to_have_count(1)
    expect(page.locator("#message")).to_contain_text("premove c3")
    assert page.locator("#moves button").count() == 0
    white.play("d4")
    expect(page.locator("#moves button")).to_have_count(2, timeout=10000)  # White's, then c3
    assert page.locator("#moves button").nth(1).inner_text() == "c3"
    expect(page.locator("#board .premove")).to_have_count(0)


def test_a_premove_is_cancelled_by_a_click(page: Any, server: str, local: LocalServer) -> None:
    white = Opponent(local, PREMOVE)
    game_page(page, server, white.game)
    expect(page.locator("#status")).to_contain_text("Waiting for White")
    click(page, "c3")
    expect(page.locator("#board .premove")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(page.locator("#board .premove")).to_have_count(0)
    expect(page.locator("#message")).to_contain_text("cancelled")
    white.play("d4")
    expect(page.locator("#moves button")).to_have_count(1, timeout=10000)  # White's alone
    expect(page.locator("#status")).to_contain_text("Your turn")
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


def test_a_hint_is_an_arrow_and_keeps_the_last_move(page: Any, computer: LocalServer) -> None:
    open_page(page, computer.url, SEVEN)
    game_from_board(page, fresh=True, computer=True, color="black")  # the computer opens
    expect(page.locator("#moves button")).to_have_count(1, timeout=15000)
    expect(page.locator("#board .last-ring")).to_have_count(1)
    expect(page.locator("#hint")).to_be_visible()  # casual, against the computer: hints
    page.click("#hint")
    expect(page.locator("#message")).to_contain_text("Hint:", timeout=15000)
    expect(page.locator("#board .shape.auto.brush-green")).to_have_count(1)
    expect(page.locator("#board .last-ring")).to_have_count(1)  # the computer's move still shown


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


def test_abort_asks_and_ends_the_game_without_a_result(page: Any, server: str) -> None:
    """The local app deleted an aborted game; the site keeps it, ended without a result (as
    lichess: no rating, no record to download), and no longer among the games being played."""
    open_page(page, server, SEVEN)
    game = game_from_board(page)
    expect(page.locator("#abort")).to_be_visible()
    expect(page.locator("#resign")).to_be_hidden()  # before both have moved: abort, not resign
    page.click("#abort")
    expect(page.locator("#confirm-text")).to_contain_text("Abort")
    page.click("#confirm-no")  # asked first: nothing happened
    expect(page.locator("#game-over")).to_be_hidden()
    page.click("#abort")
    page.click("#confirm-yes")
    expect(page.locator("#game-over-text")).to_contain_text("Aborted")
    expect(page.locator("#game-controls")).to_be_hidden()
    expect(page.locator("#download")).to_be_hidden()
    playing = page.request.get(f"{server}/api/account/playing").json()["nowPlaying"]
    assert game not in [g["gameId"] for g in playing]


def test_comments_and_marks_are_kept_in_studies_and_records(page: Any, server: str) -> None:
    """The board's tree saved as a study of the player's (Save as a study), edited there (each
    edit saved), kept across a reload, exported and imported with its variation."""
    open_page(page, server, SEVEN)
    for name in ("c4", "e5"):
        page.mouse.click(*centre(page.locator(f"#board .dest.entry[data-square='{name}']")))
        expect(page.locator("#moves button.current")).to_have_text(name)
    page.click("#moves button[data-ply='1']")
    expect(page.locator("#moves button.current")).to_have_attribute("data-ply", "1")
    page.click("#marks button[data-mark='!?']")
    page.fill("#comment", "the quiet way")
    expect(page.locator("#moves button[data-ply='1']")).to_have_text("c4!?")
    expect(page.locator("#moves .comment")).to_have_text("the quiet way")
    page.click("#save-study")
    page.wait_for_url(re.compile(r"/study/\w{8}/\w{8}$"))
    page.wait_for_selector("html[data-study='saved']")
    expect(page.locator("#study-panel")).to_be_visible()
    expect(page.locator("#chapters li")).to_have_count(1)
    expect(page.locator("#moves button[data-ply='1']")).to_have_text("c4!?")
    expect(page.locator("#moves .comment")).to_have_text("the quiet way")
    # in the study: another reply to c4 (a variation), saved by itself
    page.click("#moves button[data-ply='1']")
    # at the position after c4, shown (the cursor moves at once, the board when its position
    # came; e3 is a White entry after e5 too: a click before the board moved would play on)
    expect(page.locator("#moves button.current")).to_have_attribute("data-ply", "1")
    expect(page.locator("#pos-text")).to_have_value("7x7 b 7/8 c4:w")
    # the click on the move list may have scrolled the board out of the window (a CI run
    # measured e3 at y = -44: the click met nothing)
    page.evaluate("window.scrollTo(0, 0)")
    at = centre(page.locator("#board .dest.entry[data-square='e3']"))
    # the move's answer awaited; an answer that is not a move, or none, says so here
    try:
        with page.expect_response(lambda r: r.url.endswith("/api/move")) as answer:
            page.mouse.click(*at)
    except PlaywrightError as e:  # no move asked for: say what the click met
        met = page.evaluate(
            "([x, y]) => { const e = document.elementFromPoint(x, y);"
            " return [e ? e.outerHTML.slice(0, 300) : null, document.getElementById('message')"
            ".textContent, document.documentElement.dataset.study]; }",
            list(at),
        )
        raise AssertionError(f"the click on e3 at {at} asked for no move: {met}") from e
    assert answer.value.ok, (answer.value.status, answer.value.text())
    expect(page.locator("#moves .variation")).to_have_count(1)
    page.wait_for_selector("html[data-study='saved']")
    page.reload()  # kept in the study
    page.wait_for_selector("html[data-ready='1']")
    expect(page.locator("#moves button[data-ply='1']")).to_have_text("c4!?")
    expect(page.locator("#moves .comment")).to_have_text("the quiet way")
    expect(page.locator("#moves .variation")).to_have_text(re.compile(r"1\.\.\.\s*e3"))
    page.click("#export")  # and in the record
    expect(page.locator("#record")).to_have_value(
        re.compile(r"1\. c4!\? \{the quiet way\} 1\.\.\. e5 \(1\.\.\. e3\) \*")
    )
    text = page.locator("#record").input_value()
    page.click("#new7")  # the free board: the record opens there
    expect(page.locator("#study-panel")).to_be_hidden()
    page.fill("#record", text)
    page.click("#import")
    expect(page.locator("#moves button[data-ply='1']")).to_have_text("c4!?")
    expect(page.locator("#moves .comment")).to_have_text("the quiet way")
    expect(page.locator("#moves .variation")).to_have_count(1)


def click_a_move(page: Any, server: str, game: str) -> None:
    """Click one of the legal moves of the game's position square by square along its route (a
    piece, then each landing; an entry is its square), the fourth if there are that many."""
    full = page.request.get(f"{server}/api/game/{game}").json()
    query = {"pos": full["initialFen"], "moves": full["state"]["moves"]}
    legal = page.request.get(f"{server}/api/position", params=query).json()["moves"]
    made = page.locator("#moves button").count()
    for name in legal[min(3, len(legal) - 1)]["path"]:
        click(page, name)
        if page.locator("#moves button").count() > made:  # played: shared landings go at once
            return


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_play_and_analysis_pages_as_a_player_sees_them(
    browser: Any, computer: LocalServer, size: tuple[int, int]
) -> None:
    """The screenshots of docs/web.md (EMERGO_SCREENSHOTS=1 writes them there): the analysis
    board with the engine's lines, the same board as a study, a game against the computer;
    the board is at the top of the page, whole, on a phone too."""
    name = "desktop" if size[0] > 800 else "phone"
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    server = computer.url
    open_page(page, server, "w 12/12", "e4 d6 f6 c4", theme="dark" if name == "phone" else "light")
    page.click("#moves button[data-ply='3']")
    page.click("#marks button[data-mark='!?']")
    page.fill("#comment", "White takes the middle")
    page.click("#last")
    page.select_option("#atime", "1")
    page.click("#analyse")
    expect(page.locator("#analyse")).to_have_text("Analyse", timeout=10000)
    expect(page.locator("#lines li")).not_to_have_count(0)
    right_drag(page, "c4", "c6")
    board = page.locator("#board").bounding_box()
    assert board["y"] < 160 and board["x"] >= 0 and board["x"] + board["width"] <= size[0]
    page.evaluate("window.scrollTo(0, 0)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"analysis-{name}.png"))
    # the same board kept as a study: its panel on the side (under the board on a phone)
    page.click("#save-study")
    page.wait_for_url(re.compile(r"/study/\w{8}/\w{8}$"))
    page.wait_for_selector("html[data-study='saved']")
    page.click("#moves button[data-ply='2']")
    page.evaluate("window.scrollTo(0, 0)")  # the move list is under the board on a phone
    page.mouse.click(*centre(page.locator("#board .dest.entry[data-square='e5']")))
    expect(page.locator("#moves .variation")).to_have_count(1)
    page.fill("#comment", "or the other wing")
    page.wait_for_selector("html[data-study='saved']")
    board = page.locator("#board").bounding_box()
    assert board["y"] < 160 and board["x"] >= 0 and board["x"] + board["width"] <= size[0]
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"study-{name}.png"))
    if name == "phone":  # the study's panel comes right under the board
        page.locator("#study-panel").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "study-phone-panel.png"))
    # a game against the computer with a clock, a few moves in
    page.goto(f"{server}/analysis?pos=7x7%20w%208/8&animation=0")
    page.wait_for_selector("html[data-ready='1']")
    game = game_from_board(
        page, fresh=True, computer=True, color="white", minutes="5", increment="3"
    )
    for ply in (0, 2, 4):
        expect(page.locator("#moves button")).to_have_count(ply)
        page.evaluate("window.scrollTo(0, 0)")  # the buttons clicked below scrolled the page
        click_a_move(page, server, game)  # an entry, or the capture the computer's move forces
        expect(page.locator("#moves button")).to_have_count(ply + 2, timeout=15000)  # a reply
    expect(page.locator("#status")).to_contain_text("Your turn")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"play-{name}.png"))
    context.close()
