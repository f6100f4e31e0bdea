"""The opening explorer's panel beside the analysis board (issue 29), in real headless Chromium on
a local site whose archive holds games: each move played from the position shown with its count
and a bar of results as ``GET /api/explorer`` answers (itself checked against a slow count in
tests/site/explorer), a click on a move plays it on the board and the panel follows, the top and
recent games link to their games, the engine's games a switch away."""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from emergo import BLACK, WHITE, Board, Outcome, Termination
from emergo import round as rnd
from emergo.server.explorer.http import explore
from emergo.server.round.service import GameView, Seats
from emergo.server.site import Site
from tests.plugins.browser import SHOTS, free_port, local_site, open_page

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser

T0 = 1_790_000_000.0


def line(seed: int, plies: int) -> list[str]:
    """A game's moves: each among the first three legal ones (games share their openings)."""
    rng = random.Random(seed)
    board = Board()
    texts = []
    for _ in range(plies):
        if board.outcome() is not None:
            break
        move = rng.choice(board.moves()[:3])
        texts.append(str(move))
        board.push(move)
    return texts


def archive(site: Site, white: int, black: int, moves: list[str], result: str, t: float) -> str:
    """End a game with these moves and result the way the round ends one (the explorer's hook
    runs in its transaction); its id."""
    state = rnd.RoundState.new(now=t - 60, moves=moves)
    if state.outcome is None:
        winner = {"1-0": WHITE, "0-1": BLACK}.get(result)
        kind = Termination.AGREEMENT if winner is None else Termination.RESIGNATION
        state = dataclasses.replace(state, outcome=Outcome(kind, winner))
    with site.db.write() as tx:
        game_id = site.rounds.start(tx, state, white, black, rated=True, t=t)
        view = GameView(
            game_id, Seats(white, black, "w", "b"), state, "9x9", "correspondence", None,
            True, "over", True, t - 60, t,
        )  # fmt: skip
        site.ratings.game_over(tx, view, state, t)
    return str(game_id)


@pytest.fixture(scope="module")
def explored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Site]]:
    """A local site with 12 games in its archive, served by uvicorn: (its URL, the site)."""
    import uvicorn

    from emergo.server.app import create_app

    site = local_site(Path(tmp_path_factory.mktemp("explorer")) / "site.sqlite3")
    ann = site.users.by_name("ann") or site.users.create("ann", None)
    bob = site.users.create("bob", None)
    for i in range(12):
        white, black = (ann.id, bob.id) if i % 2 else (bob.id, ann.id)
        archive(site, white, black, line(i, 8 + i), ("1-0", "0-1", "1/2-1/2")[i % 3], T0 + i)
    port = free_port()
    config = uvicorn.Config(create_app(site), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", site
    server.should_exit = True
    thread.join(5)
    site.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))

    def console(message: Any) -> None:
        # a 4xx answer the page handles (the analysis board's study saves: /api/studies) is not
        # an error of the page; the explorer's answers are checked below
        if message.type == "error" and "status of 4" not in message.text:
            errors.append(message.text)

    def response(r: Any) -> None:
        if "/api/explorer" in r.url and r.status != 200:
            errors.append(f"{r.status} {r.url}")

    pg.on("console", console)
    pg.on("response", response)
    yield pg
    context.close()
    assert not errors, errors


def shows(page: Any, answer: dict[str, Any]) -> None:
    """The panel shows the API's answer: every move in its order with its count and share, the
    bar's titles, the totals, the games listed."""
    panel = page.locator("#explorer")
    expect(panel).not_to_have_class("stale")
    # the panel follows the board every 200 ms: until then it shows the position before
    page.wait_for_function(
        "want => [...document.querySelectorAll('#explorer tr.explorer-move')]"
        ".map(r => r.dataset.move).join(' ') === want",
        arg=" ".join(m["move"] for m in answer["moves"]),
    )
    rows = panel.locator("tr.explorer-move")
    expect(rows).to_have_count(len(answer["moves"]))
    total = answer["white"] + answer["draws"] + answer["black"]
    for k, m in enumerate(answer["moves"]):
        row = rows.nth(k)
        games = m["white"] + m["draws"] + m["black"]
        assert row.get_attribute("data-move") == m["move"]
        assert row.locator(".explorer-text").inner_text() == m["move"]
        share = round(100 * games / total)
        assert row.locator(".explorer-count").inner_text() == f"{games} ({share}%)"
        title = row.locator(".explorer-bar").get_attribute("title")
        assert title == f"White won {m['white']}, {m['draws']} drawn, Black won {m['black']}"
    assert panel.locator("tr.explorer-total .explorer-count").inner_text() == str(total)
    links = [a.get_attribute("href") for a in panel.locator("a.explorer-game").all()]
    listed = answer["topGames"] + answer["recentGames"]
    assert links == [f"/game/{g['id']}" for g in listed]


def test_the_panel_shows_the_moves_plays_one_and_follows_the_board(
    page: Any, explored: tuple[str, Site]
) -> None:
    url, site = explored
    open_page(page, url, "w 12/12")
    start = explore(site, {})
    assert start["white"] + start["draws"] + start["black"] == 12
    assert len(start["moves"]) >= 2  # the games opened differently
    shows(page, start)
    # lila's lists: the 4 rated games of the highest average rating, the 8 newest but those
    assert page.locator("#explorer .explorer-top a").count() == len(start["topGames"]) == 4
    assert page.locator("#explorer .explorer-recent a").count() == len(start["recentGames"]) > 0
    # a click on the second move plays it on the analysis board; the panel follows
    move = start["moves"][1]["move"]
    page.locator(f"#explorer tr.explorer-move[data-move='{move}']").click()
    expect(page.locator("#moves button")).to_have_count(1)
    assert page.locator("#moves button").first.inner_text() == move
    after = explore(site, {"play": move})
    assert after["moves"] and after != start
    shows(page, after)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#explorer").screenshot(path=str(SHOTS / "explorer.png"))
    # by keyboard: the first move there, Enter
    second = after["moves"][0]["move"]
    page.locator(f"#explorer tr.explorer-move[data-move='{second}']").press("Enter")
    expect(page.locator("#moves button")).to_have_count(2)
    shows(page, explore(site, {"play": f"{move},{second}"}))
    # back to the start with the board's keys: the panel shows the start again
    page.keyboard.press("Home")
    shows(page, start)


def test_a_listed_game_opens_and_the_engine_source_is_a_switch_away(
    page: Any, explored: tuple[str, Site]
) -> None:
    url, site = explored
    open_page(page, url, "w 12/12")
    start = explore(site, {})
    shows(page, start)
    page.locator("#explorer button[data-source='engine']").click()
    expect(page.locator("#explorer .explorer-note")).to_have_text(
        "No engine game reached this position."
    )
    expect(page.locator("#explorer button[data-source='engine']")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.locator("#explorer button[data-source='archive']").click()
    shows(page, start)
    first = start["topGames"][0]["id"]
    page.locator(f"#explorer a.explorer-game[href='/game/{first}']").click()
    page.wait_for_url(f"**/game/{first}")
