"""Whole games over the Board API between two accounts, on SQLite and PostgreSQL: to a result by
the rules, a draw offered and accepted, a takeback accepted, a loss on time by the timer sweep
with no one connected, an abort, a win claimed after the opponent left."""

from __future__ import annotations

import random
import time

from sqlalchemy import update

from emergo.round import due
from emergo.server.core import models as m
from emergo.server.notify.letters import Notice
from emergo.server.round.jsonview import summary
from tests.plugins.game_helpers import legal_texts, new_game, wait_for


def test_a_whole_live_game_to_its_end_by_the_rules(players):
    ann, bob = players
    game = new_game(ann, bob, variant="7x7")
    rng = random.Random(7)
    movers = {"white": ann, "black": bob}
    for _ in range(400):
        state = ann.state(game)
        if state["status"] != "started":
            break
        movers[state["turn"]].play(game, rng.choice(legal_texts(state, "7x7")))
    state = ann.state(game)
    assert state["status"] in ("mate", "stalemate", "draw"), state
    record = ann.http.get(f"/game/export/{game}").text
    assert state["moves"].split()[-1] in record


def test_draw_offered_and_accepted(players):
    ann, bob = players
    game = new_game(ann, bob)
    ann.play(game, "d4")
    bob.play(game, "e6")
    ann.ok(f"/api/board/game/{game}/draw/yes")
    assert ann.state(game)["wdraw"] is True
    bob.ok(f"/api/board/game/{game}/draw/yes")
    state = ann.state(game)
    assert state["status"] == "draw" and "winner" not in state
    assert "1/2-1/2" in ann.http.get(f"/game/export/{game}").text


def test_draw_declined_and_no_offer_to_decline(players):
    ann, bob = players
    game = new_game(ann, bob)
    r = bob.post(f"/api/board/game/{game}/draw/no")
    assert r.status_code == 409
    ann.ok(f"/api/board/game/{game}/draw/yes")
    bob.ok(f"/api/board/game/{game}/draw/no")
    assert ann.state(game)["wdraw"] is False


def test_takeback_accepted(players):
    ann, bob = players
    game = new_game(ann, bob)
    ann.play(game, "d4")
    bob.play(game, "e6")
    ann.play(game, "c5")
    bob.ok(f"/api/board/game/{game}/takeback/yes")
    assert ann.state(game)["btakeback"] is True
    ann.ok(f"/api/board/game/{game}/takeback/yes")
    state = ann.state(game)
    # Black proposed: Black's last move and White's reply after it are taken back
    assert state["moves"] == "d4", state
    assert state["turn"] == "black"


def test_a_game_lost_on_time_by_the_sweep_with_no_one_connected(players):
    ann, bob = players
    game = new_game(ann, bob, **{"clock.limit": 2, "clock.increment": 0})
    ann.play(game, "d4")
    bob.play(game, "e6")  # both moved: White's clock runs, 2 s
    state = wait_for(
        lambda: (s := ann.state(game))["status"] != "started" and s, 15, "the flag to fall"
    )
    assert state["status"] == "outoftime" and state["winner"] == "black", state
    assert state["wtime"] == 0
    r = ann.move(game, "c5")
    assert r.status_code == 400 and "over" in r.json()["error"]


def test_abort_before_both_moved_and_not_after(players):
    ann, bob = players
    game = new_game(ann, bob)
    ann.play(game, "d4")
    bob.ok(f"/api/board/game/{game}/abort")
    state = ann.state(game)
    assert state["status"] == "aborted" and "winner" not in state
    game = new_game(ann, bob)
    ann.play(game, "d4")
    bob.play(game, "e6")
    r = ann.post(f"/api/board/game/{game}/abort")
    assert r.status_code == 400, r.text
    assert ann.state(game)["status"] == "started"


def test_a_win_claimed_after_the_opponent_left(site, players):
    ann, bob = players
    game = new_game(ann, bob)
    ann.play(game, "d4")
    bob.play(game, "e6")
    ann.play(game, "c5")
    # Bob (to move) is present: he moved a moment ago
    r = ann.post(f"/api/board/game/{game}/claim-victory")
    assert r.status_code == 409, r.text
    # ... and then gone for 100 s (the presence heartbeats every process writes stopped; a
    # move's own is written with the process's next beat)
    site.presence.beat([])
    with site.db.write() as tx:
        tx.execute(update(m.presence).values(seen=time.time() - 100))
    r = bob.post(f"/api/board/game/{game}/claim-victory")  # not his to claim: his move
    assert r.status_code in (400, 409), r.text
    ann.ok(f"/api/board/game/{game}/claim-victory")
    state = ann.state(game)
    assert state["status"] == "timeout" and state["winner"] == "white", state


def test_correspondence_your_turn_list(players):
    ann, bob = players
    challenge = ann.challenge("bob", days=3, color="white")
    game = bob.accept(challenge)
    mine = ann.get("/api/account/playing").json()["nowPlaying"]
    assert [(g["gameId"], g["isMyTurn"], g["speed"]) for g in mine] == [
        (game, True, "correspondence")
    ]
    ann.play(game, "d4")
    assert ann.get("/api/account/playing").json()["nowPlaying"][0]["isMyTurn"] is False
    assert bob.get("/api/account/playing").json()["nowPlaying"][0]["isMyTurn"] is True
    full = ann.get(f"/api/game/{game}").json()
    assert full["daysPerTurn"] == 3 and full["speed"] == "correspondence"


def test_unlimited_game(players):
    ann, bob = players
    challenge = ann.challenge("bob", color="black")
    game = bob.accept(challenge)
    full = ann.get(f"/api/game/{game}").json()
    assert full["clock"] is None and full["white"]["name"] == "bob"
    bob.play(game, "d4")
    assert ann.state(game)["wtime"] == 2147483647


def test_the_lobbys_time_left_before_the_first_move_is_the_aborts_deadline(site, players):
    """The review: the lobby said "3d 0h left" (the clock stands still before the first move)
    while the notice said "2 days 23 hours left" (the deadline): both are the deadline now."""
    ann, bob = players
    game = bob.accept(ann.challenge("bob", days=3, color="white"))
    view = site.rounds.get(game)
    ann_id = site.users.by_name("ann").id
    later = time.time() + 3600 + 74
    left = summary(view, ann_id, later)["secondsLeft"]
    assert 3 * 86400 - 3600 - 80 <= left <= 3 * 86400 - 3600 - 74
    # the notice's words and the lobby's (clockText: whole days and hours, down) agree
    notice = Notice(
        "your-turn", game, "ann", "9x9", "3 days a move", at=later, deadline=due(view.state)
    )
    assert "2 days 22 hours left" in notice.line(later)
    assert (left // 86400, left % 86400 // 3600) == (2, 22)
