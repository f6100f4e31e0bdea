"""Fair starts on the site (emergo.server.round.starts, docs/fair-starts.md): a challenge or a
seek asks for a ballot, one man fewer for White, the swap rule or the board's recommendation;
the server draws it when the game is made, a rated game records it (its tags), and the game's
page and the archive show it."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from emergo.ballots import find_ballot
from emergo.server.core import models as m
from emergo.server.round.starts import canonical_start, draw_start, tags_of
from tests.plugins.game_helpers import Player
from tests.plugins.site import account


@pytest.fixture
def two(site, client):
    _a, ann = account(site, "ann")
    _b, bob = account(site, "bob")
    return Player(client, "ann", ann), Player(client, "bob", bob)


def _game(site, game_id):
    with site.db.read() as c:
        return c.execute(select(m.games).where(m.games.c.id == game_id)).first()


def test_a_rated_challenge_from_a_ballot(site, client, two):
    ann, bob = two
    challenge = ann.ok(
        "/api/challenge/bob", data={"rated": "true", "start": "ballot", "clock.limit": "300"}
    )
    assert challenge["start"] == "ballot" and challenge["rated"] is True
    game_id = bob.accept(challenge["id"])
    row = _game(site, game_id)
    ballot = find_ballot(row.tags["Ballot"])
    assert row.rated and row.state["root"] == ballot.board().position()
    assert tags_of(site.db, game_id) == {"Ballot": ballot.id}
    page = client.get(f"/game/{game_id}").text
    assert f"Start: ballot {ballot.id}" in page
    # the archive shows it once the game is over
    bob.ok(f"/api/board/game/{game_id}/resign")
    games = client.get("/games").text
    assert f"ballot {ballot.id}" in games


def test_handicap_swap_and_the_recommendation(site, two):
    ann, bob = two
    game = bob.accept(ann.challenge("bob", start="handicap"))
    assert _game(site, game).state["root"] == "w 11/12"
    assert tags_of(site.db, game) == {"Start": "handicap"}
    game = bob.accept(ann.challenge("bob", start="recommended", variant="7x7"))
    assert tags_of(site.db, game) == {"Swap": "swap-1"}
    game = bob.accept(ann.challenge("bob", start="recommended", variant="hex"))
    assert "Ballot" in tags_of(site.db, game)
    assert _game(site, game).state["root"].startswith("hex ")
    seek = ann.ok("/api/lobby/seek", data={"start": "ballot", "clock.limit": "180"})
    assert seek["start"] == "ballot"


def test_bad_starts_are_refused(two):
    ann, _bob = two
    for data, words in (
        ({"start": "pie"}, "start must be"),
        ({"start": "swap-2/30"}, "margin"),
        ({"start": "ballot", "fen": "w 11/12"}, "not both"),
    ):
        r = ann.post("/api/challenge/bob", data=data)
        assert r.status_code == 400 and words in r.json()["error"], r.text


def test_the_starts_in_words():
    assert canonical_start("swap") == "swap-1" and canonical_start("none") is None
    assert canonical_start("recommended", "9x9") == "handicap"
    assert draw_start("ballot", "7x7", seed=3) == draw_start("ballot", "7x7", seed=3)
    assert draw_start("swap-2").tags == {"Swap": "swap-2"}
