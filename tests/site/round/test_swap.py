"""The swap rule played (emergo.server.round.swap, docs/fair-starts.md): in a game started with
``swap-N``, Black, after White's first N entries, may take White's side; the seats exchange in
one transaction with a versioned event, the clocks follow the players, the game records the
choice (``Swap`` tag, the record), the Board and Bot APIs offer it (authorization), a player's
stream says the new seats, an event's pairing follows, and no takeback reaches over it."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from typing import Any

import pytest
from sqlalchemy import insert, select

from emergo import round as rnd
from emergo.board import BLACK, WHITE
from emergo.clock import Clock, TimeControl
from emergo.server.core import models as m
from emergo.server.round.starts import tags_of
from emergo.server.round.swap import swap_state
from tests.plugins.game_helpers import Player, legal_texts, new_game
from tests.plugins.site import account


@pytest.fixture
def people(site, client):
    out = {}
    for name in ("ann", "bob", "carl"):
        _user, token = account(site, name)
        out[name] = Player(client, name, token)
    return out


def _row(site, game_id):
    with site.db.read() as c:
        return c.execute(select(m.games).where(m.games.c.id == game_id)).first()


def _ids(site):
    with site.db.read() as c:
        return dict(c.execute(select(m.users.c.name, m.users.c.id)).all())


def _swap_game(ann: Player, bob: Player, start: str = "swap-1") -> str:
    return new_game(ann, bob, variant="7x7", start=start)


def _events(site, game_id):
    with site.db.read() as c:
        rows = c.execute(
            select(m.game_events.c.version, m.game_events.c.events)
            .where(m.game_events.c.game_id == game_id)
            .order_by(m.game_events.c.version)
        ).all()
    return [(r.version, e) for r in rows for e in r.events]


def test_black_takes_whites_side(site, client, people):
    ann, bob = people["ann"], people["bob"]
    ids = _ids(site)
    game = _swap_game(ann, bob)
    assert tags_of(site.db, game) == {"Swap": "swap-1"}
    # not before White's first entry, and never White's choice
    r = bob.post(f"/api/board/game/{game}/swap/yes")
    assert r.status_code == 409 and "after White's first 1 entry" in r.json()["error"], r.text
    first = legal_texts(ann.state(game), "7x7")[0]
    ann.play(game, first)
    r = ann.post(f"/api/board/game/{game}/swap/yes")
    assert r.status_code == 403 and "Black's choice" in r.json()["error"], r.text
    version = _row(site, game).version
    bob.ok(f"/api/board/game/{game}/swap/yes")
    row = _row(site, game)
    # the seats exchanged, the position not: Bob plays White's entry on, Ann is Black and to move
    assert (row.white_id, row.black_id) == (ids["bob"], ids["ann"])
    assert row.turn_id == ids["ann"] and row.state["moves"] == [first]
    assert row.tags == {"Swap": "swap-1 taken"} and row.version == version + 1
    (event,) = [e for v, e in _events(site, game) if v == row.version]
    assert event["t"] == "swap" and event["taken"] is True
    assert (event["white"], event["black"]) == ("bob", "ann")
    full = client.get(f"/api/game/{game}").json()
    assert (full["white"]["name"], full["black"]["name"]) == ("bob", "ann")
    assert "swap rule after 1 entries, taken" in client.get(f"/game/{game}").text
    # chosen once: no second swap; Bob (White now) is not to move, Ann (Black) is
    assert bob.post(f"/api/board/game/{game}/swap/no").status_code == 409
    reply = legal_texts(ann.state(game), "7x7")[0]
    assert bob.move(game, reply).status_code != 200
    ann.play(game, reply)
    # no takeback reaches back over the swap
    r = bob.post(f"/api/board/game/{game}/takeback/yes")
    assert r.status_code == 409 and "over the swap" in r.json()["error"], r.text
    # the record says who played which side and the choice
    record = client.get(f"/game/export/{game}").text
    assert '[White "bob"]' in record and '[Black "ann"]' in record
    assert '[Swap "swap-1 taken"]' in record


def test_declining_by_the_answer_or_by_moving(site, people):
    ann, bob = people["ann"], people["bob"]
    ids = _ids(site)
    game = _swap_game(ann, bob)
    ann.play(game, legal_texts(ann.state(game), "7x7")[0])
    version = _row(site, game).version
    bob.ok(f"/api/board/game/{game}/swap/no")
    row = _row(site, game)
    assert (row.white_id, row.black_id) == (ids["ann"], ids["bob"])
    assert row.tags == {"Swap": "swap-1 declined"} and row.version == version + 1
    assert [e["taken"] for v, e in _events(site, game) if e["t"] == "swap"] == [False]
    assert bob.post(f"/api/board/game/{game}/swap/yes").status_code == 409
    bob.play(game, legal_texts(ann.state(game), "7x7")[0])  # Black plays on

    game = _swap_game(ann, bob)
    ann.play(game, legal_texts(ann.state(game), "7x7")[0])
    bob.play(game, legal_texts(ann.state(game), "7x7")[0])  # a move declines it
    assert _row(site, game).tags == {"Swap": "swap-1 declined"}
    assert bob.post(f"/api/board/game/{game}/swap/yes").status_code == 409


def test_a_later_swap_and_a_game_without_one(site, people):
    ann, bob = people["ann"], people["bob"]
    game = _swap_game(ann, bob, "swap-2")
    ann.play(game, legal_texts(ann.state(game), "7x7")[0])
    r = bob.post(f"/api/board/game/{game}/swap/yes")
    assert r.status_code == 409 and "first 2 entries" in r.json()["error"]
    bob.play(game, legal_texts(ann.state(game), "7x7")[0])
    assert _row(site, game).tags == {"Swap": "swap-2"}  # not declined: it was not due
    ann.play(game, legal_texts(ann.state(game), "7x7")[0])
    bob.ok(f"/api/board/game/{game}/swap/yes")
    assert _row(site, game).tags == {"Swap": "swap-2 taken"}

    plain = new_game(ann, bob, variant="7x7")
    ann.play(plain, legal_texts(ann.state(plain), "7x7")[0])
    r = bob.post(f"/api/board/game/{plain}/swap/yes")
    assert r.status_code == 409 and "offers no swap" in r.json()["error"]


def test_who_may_choose(site, client, people):
    ann, bob, carl = people["ann"], people["bob"], people["carl"]
    game = _swap_game(ann, bob)
    ann.play(game, legal_texts(ann.state(game), "7x7")[0])
    path = f"/api/board/game/{game}/swap/yes"
    assert client.post(path).status_code == 401
    assert carl.post(path).status_code == 403
    assert carl.post("/api/board/game/nosuchid/swap/yes").status_code == 404
    assert bob.post(f"/api/board/game/{game}/swap/maybe").status_code == 404
    # a person on the Bot API, a token without board:play
    assert bob.post(f"/api/bot/game/{game}/swap/yes").status_code in (401, 403)
    token = site.tokens.create(_ids(site)["bob"], scopes=("challenge:read",))
    assert client.post(path, headers={"Authorization": f"Bearer {token}"}).status_code == 403
    assert _row(site, game).tags == {"Swap": "swap-1"}  # nothing changed
    spec = client.get("/api/openapi.json").json()["paths"]
    for api in ("board", "bot"):
        for answer in ("yes", "no"):
            assert "post" in spec[f"/api/{api}/game/{{id}}/swap/{answer}"]


def test_the_clocks_follow_the_players():
    control = TimeControl.fischer(300, 2)
    state = rnd.RoundState.new(variant="7x7", time_control=control, now=0.0)
    running = dataclasses.replace(
        state,
        clock=Clock(control, 250.0, 280.0, BLACK, 100.0, 1.0, 2.0, 0.5),
        clock_history=((250.0, 280.0),),
    )
    after = swap_state(running, 110.0)
    assert after.clock is not None and after.version == running.version + 1
    # White had 250 s (now Black's); Black had 280, less the 10 s spent choosing (now White's)
    assert after.clock.remaining(WHITE, 110.0) == 270.0
    assert after.clock.remaining(BLACK, 110.0) == 250.0
    assert after.clock.running == BLACK and after.clock.since == 110.0
    assert (after.clock.white_quota, after.clock.black_quota) == (2.0, 1.0)
    assert after.clock_history == ((270.0, 250.0),)
    stopped = swap_state(state, 50.0)  # no clock running yet: a fresh first-move deadline
    assert stopped.last_move_at == 50.0 and stopped.clock == state.clock


def test_an_events_pairing_follows_the_seats(site, people):
    ann, bob = people["ann"], people["bob"]
    ids = _ids(site)
    game = _swap_game(ann, bob)
    t = time.time()
    with site.db.write() as tx:
        event = tx.execute(
            insert(m.tournaments).values(**_tournament_row(t)).returning(m.tournaments.c.id)
        ).scalar()
        tx.execute(
            insert(m.tournament_games).values(
                tournament_id=event,
                round=0,
                board=1,
                white_id=ids["ann"],
                black_id=ids["bob"],
                game_id=game,
                status="playing",
                result="*",
                forfeit=False,
                movement_plies=0,
                berserk_white=True,
                berserk_black=False,
                white_rating=1600,
                black_rating=1400,
                created=t,
            )
        )
    ann.play(game, legal_texts(ann.state(game), "7x7")[0])
    bob.ok(f"/api/board/game/{game}/swap/yes")
    with site.db.read() as c:
        p = c.execute(select(m.tournament_games).where(m.tournament_games.c.game_id == game)).one()
    assert (p.white_id, p.black_id) == (ids["bob"], ids["ann"])
    assert (p.berserk_white, p.berserk_black) == (False, True)
    assert (p.white_rating, p.black_rating) == (1400, 1600)


def _tournament_row(t: float) -> dict[str, Any]:
    return {
        "id": "swapev01",
        "kind": "arena",
        "name": "Swap arena",
        "variant": "7x7",
        "clock_limit": 300.0,
        "clock_increment": 2.0,
        "rated": False,
        "status": "started",
        "starts_at": t,
        "ends_at": t + 3600,
        "round": 0,
        "settings": {"start": "swap-1"},
        "created": t,
    }


def test_the_players_stream_says_the_new_seats(site, live):
    httpx = pytest.importorskip("httpx2")
    tokens = {}
    for name in ("eve", "fay"):
        _u, tokens[name] = account(site, name)
    http = httpx.Client(base_url=live, timeout=30)
    eve, fay = (Player(http, n, tokens[n]) for n in ("eve", "fay"))
    game = new_game(eve, fay, variant="7x7", start="swap-1")
    fulls: list[dict[str, Any]] = []
    started, done = threading.Event(), threading.Event()

    def read() -> None:
        url = f"{live}/api/board/game/stream/{game}"
        with httpx.stream("GET", url, headers=eve.headers, timeout=30) as r:
            for line in r.iter_lines():
                if line.strip() and json.loads(line).get("type") == "gameFull":
                    fulls.append(json.loads(line))
                    started.set()
                    if len(fulls) == 2:
                        done.set()
                        return

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    assert started.wait(20)
    eve.play(game, legal_texts(eve.state(game), "7x7")[0])
    fay.ok(f"/api/board/game/{game}/swap/yes")
    assert done.wait(20), fulls
    assert fulls[0]["white"]["name"] == "eve" and fulls[1]["white"]["name"] == "fay"
    assert fulls[1]["black"]["name"] == "eve" and fulls[1]["state"]["turn"] == "black"
    http.close()
