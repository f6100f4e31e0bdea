"""Berserk in an arena (emergo.server.tournament.berserk): before their first move a player
halves their clock in one transaction (a versioned event, the pairing marked, the standings'
extra point for a win); once, before the first move, in an arena that has it; who may."""

from __future__ import annotations

import random
import time

import pytest
from sqlalchemy import select, update

from emergo.server.core import models as m
from emergo.server.tournament.event import arena_games
from emergo.server.tournament.sheet import player_sheet
from emergo.server.tournament.spec import arena_spec
from tests.plugins.events import play_out, playing
from tests.plugins.game_helpers import Player, legal_texts
from tests.plugins.site import account

pytest.importorskip("py4swiss")


def _paired(site, client, **fields):
    people = {}
    for name in ("ann", "bob", "carl"):
        _u, token = account(site, name)
        people[name] = Player(client, name, token)
    spec = arena_spec(
        {"name": "B", "clockTime": 2, "clockIncrement": 0, "minutes": 30, "waitMinutes": 5} | fields
    )
    event = site.tournaments.create(spec, site.users.by_name("ann"))
    for name in ("ann", "bob"):
        site.tournaments.join(event.id, site.users.by_name(name))
    with site.db.write() as tx:
        t = time.time()
        tx.execute(
            update(m.tournaments)
            .where(m.tournaments.c.id == event.id)
            .values(starts_at=t - 1, ends_at=t + 1800)
        )
        tx.execute(
            update(m.tournament_timers)
            .where(m.tournament_timers.c.tournament_id == event.id)
            .values(due=t - 1)
        )
    # the director pairs in a sweep once the start is due (a busy machine may need another)
    for _ in range(100):
        site.director.sweep()
        if games := playing(site, event.id):
            break
        time.sleep(0.1)
    (game,) = games
    return event, game, people


def _pairing(site, game):
    with site.db.read() as c:
        return c.execute(
            select(m.tournament_games).where(m.tournament_games.c.game_id == game)
        ).one()


def test_berserk_halves_the_clock_once_before_the_first_move(site, client):
    event, game, people = _paired(site, client)
    view = site.rounds.get(game)
    white = people[view.seats.white]
    black = people[view.seats.black]
    version = view.version
    white.ok(f"/api/board/game/{game}/berserk")
    state = white.state(game)
    assert 59_000 <= state["wtime"] <= 60_000 and state["btime"] == 120_000
    assert state["version"] == version + 1
    with site.db.read() as c:
        events = c.execute(
            select(m.game_events.c.events).where(m.game_events.c.game_id == game)
        ).scalars()
        kinds = [e for batch in events for e in batch if e["t"] == "berserk"]
    assert [(e["color"], e["version"]) for e in kinds] == [("white", version + 1)]
    assert _pairing(site, game).berserk_white and not _pairing(site, game).berserk_black
    r = white.post(f"/api/board/game/{game}/berserk")
    assert r.status_code == 409 and "already" in r.json()["error"]
    white.play(game, legal_texts(state)[0])
    black.ok(f"/api/board/game/{game}/berserk")  # Black has not moved yet
    assert 59_000 <= black.state(game)["btime"] <= 60_000
    black.play(game, legal_texts(black.state(game))[0])
    # the berserker's win scores a point more (enough movement plies: the sheet's rule)
    play_out(site, game, random.Random(3), plies=60)
    event, _players, pairings, lines = site.tournaments.view(event.id)
    (pairing,) = pairings
    assert pairing.berserk_white and pairing.berserk_black
    counted = arena_games(event, pairings)
    assert {line.name: line.score for line in lines} == {
        line.name: player_sheet(line.name, counted).total for line in lines
    }


def test_who_may_and_when_not(site, client):
    _event, game, people = _paired(site, client, berserkable="false")
    view = site.rounds.get(game)
    white = people[view.seats.white]
    r = white.post(f"/api/board/game/{game}/berserk")
    assert r.status_code == 409 and "no berserk" in r.json()["error"]
    assert people["carl"].post(f"/api/board/game/{game}/berserk").status_code == 404
    assert client.post(f"/api/board/game/{game}/berserk").status_code == 401
    assert white.post(f"/api/bot/game/{game}/berserk").status_code in (401, 403)
    spec = client.get("/api/openapi.json").json()["paths"]
    assert "post" in spec["/api/board/game/{id}/berserk"]
    assert "post" in spec["/api/bot/game/{id}/berserk"]


def test_not_after_the_first_move(site, client):
    _event, game, people = _paired(site, client)
    view = site.rounds.get(game)
    white = people[view.seats.white]
    white.play(game, legal_texts(white.state(game))[0])
    r = white.post(f"/api/board/game/{game}/berserk")
    assert r.status_code == 409 and "before your first move" in r.json()["error"]
    assert not _pairing(site, game).berserk_white
