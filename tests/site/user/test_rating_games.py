"""Rated games on the site (issue 21), on SQLite and PostgreSQL: ratings in the transaction that
ends the game, the archive and its search, a player's games as records, profiles, leaderboards."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from sqlalchemy import insert, select

from emergo.server.core import models as m
from emergo.server.round.jsonview import add_game_ratings
from tests.plugins.game_helpers import Player, legal_texts, new_game
from tests.plugins.site import account


def finish(white: Player, black: Player, *, loser: Player | None = None, **terms: Any) -> str:
    """A game both sides moved in, ended by ``loser``'s resignation (White's by default)."""
    game = new_game(white, black, **terms)
    if terms.get("variant", "9x9") == "9x9":
        white.play(game, "d4")
        black.play(game, "e6")
    else:
        for side in (white, black):
            side.play(game, legal_texts(side.state(game), terms["variant"])[0])
    (loser or white).ok(f"/api/board/game/{game}/resign")
    return game


def perfs(player: Player, name: str | None = None) -> dict[str, Any]:
    r = player.get(f"/api/user/{name or player.name}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()["perfs"]
    return data


def test_a_rated_game_rates_both_players_when_it_ends(site, players):
    ann, bob = players
    assert perfs(ann)["9x9-live"] == {"rating": 1500, "rd": 500, "prov": True, "games": 0}
    game = finish(ann, bob, rated="true")  # Ann resigns
    a, b = perfs(ann)["9x9-live"], perfs(bob)["9x9-live"]
    assert a["games"] == b["games"] == 1 and a["prov"] and b["prov"]
    assert a["rating"] == 1258 and b["rating"] == 1741  # two newcomers (scalachess's figures)
    assert a["rd"] == b["rd"] == 396
    assert perfs(ann)["hex-live"]["games"] == 0 and perfs(ann)["9x9-correspondence"]["games"] == 0
    # the archive holds the ratings before the game and what it changed
    (found,) = ann.get("/api/games/search", params={"player": "ann"}).json()["games"]
    assert found["id"] == game and found["rated"] and found["winner"] == "black"
    assert found["players"]["white"]["rating"] == 1500
    assert found["players"]["white"]["ratingDiff"] == -242
    assert found["players"]["black"]["ratingDiff"] == 241
    history = ann.get("/api/user/bob/rating-history").json()
    assert [h["name"] for h in history] == ["9x9-live"] and history[0]["points"][0][1] == 1741
    user = ann.get("/api/user/bob").json()
    assert user["count"] == {"all": 1, "rated": 1, "win": 1, "loss": 0, "draw": 0, "playing": 0}
    assert user["username"] == "bob" and user["createdAt"] > 0


def test_the_ratings_are_in_the_transaction_that_ends_the_game(site, client, players, monkeypatch):
    ann, bob = players
    game = new_game(ann, bob, rated="true")
    ann.play(game, "d4")
    bob.play(game, "e6")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the ratings failed")

    monkeypatch.setattr(site.ratings, "_rate", broken)
    with pytest.raises(RuntimeError, match="the ratings failed"):  # a 500 to a real client
        ann.post(f"/api/board/game/{game}/resign")
    assert ann.state(game)["status"] == "started"  # no game over without its ratings
    assert site.archive.one(game) is None
    monkeypatch.undo()
    ann.ok(f"/api/board/game/{game}/resign")
    assert ann.state(game)["status"] == "resign"
    assert perfs(ann)["9x9-live"]["games"] == 1


def test_casual_aborted_and_unplayed_games_are_not_rated(site, players):
    ann, bob = players
    casual = finish(ann, bob)  # rated is false by default
    aborted = new_game(ann, bob, rated="true")
    ann.play(aborted, "d4")
    bob.ok(f"/api/board/game/{aborted}/abort")
    early = new_game(ann, bob, rated="true")
    ann.play(early, "d4")
    bob.ok(f"/api/board/game/{early}/resign")  # before Black's first move: not rated (lichess)
    assert perfs(ann)["9x9-live"]["games"] == 0 and perfs(bob)["9x9-live"]["games"] == 0
    listed = {g["id"] for g in ann.get("/api/games/search?player=ann").json()["games"]}
    assert listed == {casual, early}  # aborted games are left out unless asked for (lichess)
    found = ann.get("/api/games/search?player=ann&aborted=true").json()["games"]
    games = {g["id"]: g for g in found}
    assert set(games) == {casual, aborted, early}
    only = ann.get("/api/games/search?player=ann&result=aborted").json()["games"]
    assert [g["id"] for g in only] == [aborted]
    assert games[aborted]["status"] == "aborted" and games[aborted]["result"] == "*"
    assert "rating" not in games[casual]["players"]["white"]
    results = site.archive.results(site.users.by_name("ann").id)
    assert results["all"] == {"win": 1, "draw": 0, "loss": 1}  # the aborted game not counted
    # nor among the games played (the profile's "2 games (1 rated)"): an aborted game counts nowhere
    counts = site.archive.counts(site.users.by_name("ann").id)
    assert counts == {"all": 2, "rated": 1, "win": 1, "loss": 1, "draw": 0}
    assert "2 games (1 rated)" in ann.get("/@/ann").text


def test_each_variant_and_speed_has_its_own_rating(site, players):
    ann, bob = players
    finish(ann, bob, rated="true", variant="hex")
    challenge = ann.challenge("bob", days=2, color="white", rated="true", variant="7x7")
    game = bob.accept(challenge)
    for side in (ann, bob):
        side.play(game, legal_texts(side.state(game), "7x7")[0])
    bob.ok(f"/api/board/game/{game}/resign")
    p = perfs(ann)
    assert p["hex-live"]["games"] == 1 and p["7x7-correspondence"]["games"] == 1
    assert p["hex-live"]["rating"] < 1500 < p["7x7-correspondence"]["rating"]
    assert p["9x9-live"]["games"] == 0


# --- leaderboards ---------------------------------------------------------------------------------


def seed_perfs(site: Any, rows: list[tuple[str, float, float, int]], key: str = "9x9-live") -> None:
    """Accounts with a rating each: (name, rating, deviation, games), rated a moment ago."""
    t = time.time()
    for name, rating, rd, games in rows:
        user, _token = account(site, name)
        with site.db.write() as tx:
            tx.execute(
                insert(m.perfs).values(
                    user_id=user.id,
                    perf=key,
                    rating=rating,
                    rd=rd,
                    volatility=0.06,
                    games=games,
                    latest=t,
                )
            )


def test_leaderboards_leave_provisional_players_out(site, client):
    seed_perfs(
        site,
        [("strong", 2100, 60, 80), ("newcomer", 2400, 200, 3), ("fair", 1700, 80, 40)],
    )
    top = client.get("/api/player/top/10/9x9-live").json()["users"]
    assert [u["username"] for u in top] == ["strong", "fair"]
    assert top[0]["perfs"]["9x9-live"]["rating"] == 2100
    assert client.get("/api/player/top/10/hex-live").json()["users"] == []
    assert client.get("/api/player/top/10/chess-live").status_code == 404
    assert client.get("/api/player/top/0/9x9-live").status_code == 400
    page = client.get("/leaderboard/9x9-live").text
    assert "strong" in page and "fair" in page and "newcomer" not in page
    assert "strong" in client.get("/leaderboard").text


def test_a_player_away_for_a_year_leaves_the_leaderboard(site, client):
    seed_perfs(site, [("gone", 2000, 60, 50)])
    with site.db.write() as tx:
        tx.execute(m.perfs.update().values(latest=time.time() - 400 * 86400))
    assert client.get("/api/player/top/10/9x9-live").json()["users"] == []
    assert client.get("/api/user/gone").json()["perfs"]["9x9-live"]["prov"] is True


# --- the archive ----------------------------------------------------------------------------------


def test_archive_search_by_player_variant_speed_result_and_date(site, client, players):
    ann, bob = players
    _c, carol_token = account(site, "carol")
    carol = Player(client, "carol", carol_token)
    g1 = finish(ann, bob)  # Black won
    g2 = finish(bob, ann, variant="7x7")  # Bob is White and resigns: Black (Ann) won
    g3 = finish(ann, carol, loser=carol)  # White (Ann) won

    def ids(params: dict[str, Any]) -> list[str]:
        found = client.get("/api/games/search", params=params).json()["games"]
        return [g["id"] for g in found]

    assert ids({}) == [g3, g2, g1]  # newest first
    assert ids({"player": "ann"}) == [g3, g2, g1]
    assert ids({"player": "bob"}) == [g2, g1]
    assert ids({"player": "ann", "vs": "bob"}) == [g2, g1]
    assert ids({"variant": "7x7"}) == [g2]
    assert ids({"speed": "correspondence"}) == []
    assert ids({"result": "white"}) == [g3]
    assert ids({"result": "black"}) == [g2, g1]
    assert ids({"player": "ann", "result": "win"}) == [g3, g2]
    assert ids({"player": "ann", "color": "black"}) == [g2]
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert ids({"since": today, "until": today}) == [g3, g2, g1]
    assert ids({"until": "2000-01-01"}) == []
    # pages by keyset
    first = client.get("/api/games/search", params={"max": 2}).json()
    assert [g["id"] for g in first["games"]] == [g3, g2] and first["next"]
    second = client.get("/api/games/search", params={"max": 2, "before": first["next"]}).json()
    assert [g["id"] for g in second["games"]] == [g1] and second["next"] is None
    head = site.archive.head_to_head(site.users.by_name("ann").id, site.users.by_name("bob").id)
    assert head == {"win": 1, "draw": 0, "loss": 1}


@pytest.mark.parametrize(
    ("params", "status", "message"),
    [
        ({"player": "nobody"}, 404, "no player named 'nobody'"),
        ({"variant": "chess"}, 400, "variant is one of"),
        ({"result": "win"}, 400, "needs a player"),
        ({"since": "yesterday"}, 400, "since is a date"),
        ({"max": "lots"}, 400, "max"),
        ({"before": "x"}, 400, "cursor"),
        ({"player": "<script>"}, 400, "user name"),
    ],
)
def test_archive_search_says_what_is_wrong(client, params, status, message):
    r = client.get("/api/games/search", params=params)
    assert r.status_code == status and message in r.json()["error"], r.text


def test_a_players_games_as_records_and_as_ndjson(site, client, players):
    ann, bob = players
    games = [finish(ann, bob, rated="true") for _ in range(3)]
    r = client.get("/api/games/user/ann")
    assert r.status_code == 200 and r.headers["content-type"].startswith(
        "application/x-emergo-record"
    )
    text = r.text
    assert all(f'[Site "{g}"]' in text for g in games) and text.count("[White ") == 3
    assert '[Result "0-1"]' in text
    r = client.get(
        "/api/games/user/ann", headers={"Accept": "application/x-ndjson"}, params={"max": 2}
    )
    lines = [json.loads(line) for line in r.text.splitlines() if line]
    assert [g["id"] for g in lines] == games[::-1][:2]
    assert lines[0]["moves"] == "d4 e6" and lines[0]["players"]["white"]["user"]["name"] == "ann"
    assert lines[0]["perf"] == "9x9-live" and lines[0]["rated"] is True
    assert client.get("/api/games/user/nobody").status_code == 404
    assert client.get("/api/games/user/ann", params={"vs": "carol"}).status_code == 404


# --- pages ----------------------------------------------------------------------------------------


def test_the_profile_page(site, client, players):
    ann, bob = players
    finish(ann, bob, rated="true")
    ongoing = new_game(bob, ann)
    page = client.get("/@/bob").text
    assert "1741?" in page  # provisional
    assert "<svg" in page and "Rating history of bob" in page and "9x9 live" in page
    assert "Results by colour" in page and "Games in progress" in page
    assert f'href="/game/{ongoing}"' in page
    vs = client.get("/@/bob", params={"vs": "ann"}).text
    assert "bob against" in vs and "1 won, 0 drawn, 0 lost" in vs
    filtered = client.get("/@/bob", params={"result": "loss"}).text
    assert "No games found" in filtered
    assert client.get("/@/nobody").status_code == 404


def test_pages_escape_what_they_are_given(client):
    evil = '"><script>alert(1)</script>'
    for path, params in (
        ("/games", {"player": evil}),
        ("/games", {"vs": "x", "player": "ann", "variant": evil}),
        ("/@/ann", {"vs": evil}),
    ):
        r = client.get(path, params=params)
        assert "<script>alert(1)" not in r.text, (path, r.text[:300])
    archive = client.get("/games", params={"player": evil}).text
    assert "&lt;script&gt;" in archive or "user name" in archive


def test_the_archive_page_and_a_finished_games_page(site, client, players):
    ann, bob = players
    game = finish(ann, bob, rated="true")
    page = client.get("/games", params={"player": "ann"}).text
    assert f'href="/game/{game}"' in page and "0-1" in page
    shown = client.get(f"/game/{game}").text
    assert 'id="replay"' in shown and 'data-moves="d4 e6"' in shown
    # both were provisional before it (no rated game yet): the "?" stays after the game
    assert "(1500? -242)" in shown and "(1500? +241)" in shown
    assert "1500? -242" in page
    full: dict[str, Any] = {"white": {}, "black": {}}
    add_game_ratings(site, full, site.rounds.get(game), time.time())
    assert full["white"]["provisional"] and full["black"]["provisional"]
    # bob settled before the next game (a history row of deviation 60): no "?" for him
    with site.db.write() as c:
        c.execute(
            insert(m.rating_history).values(
                user_id=site.users.by_name("bob").id,
                perf="9x9-live",
                game_id="settled0",
                at=time.time(),
                rating=1741.0,
                rd=60.0,
            )
        )
    later = finish(ann, bob, rated="true")
    shown = client.get(f"/game/{later}").text
    assert "(1741 +" in shown and "1741?" not in shown
    assert re.search(r"\(1258\? [+-]\d+\)", shown), shown
    (found, _) = ann.get("/api/games/search", params={"player": "ann"}).json()["games"]
    assert found["id"] == later and found["players"]["white"]["provisional"]
    assert "provisional" not in found["players"]["black"]


# --- the migration --------------------------------------------------------------------------------


def test_the_migration_archives_the_games_that_ended_before(tmp_path):
    """A database at schema 0001 with a finished game: 0002 puts it in the archive."""
    from alembic import command
    from alembic.config import Config as AlembicConfig

    from emergo.server.core import db as online_db
    from emergo.server.core.config import Config
    from emergo.server.site import Site

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    old = online_db.Database(url)
    config = AlembicConfig()
    config.set_main_option(
        "script_location", str(online_db.Path(online_db.__file__).with_name("migrations"))
    )
    with old.engine.connect() as connection, connection.begin():
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    t = time.time()
    with old.engine.begin() as c:
        for i, name in enumerate(("ann", "bob"), 1):
            c.execute(insert(m.users).values(id=i, name=name, name_key=name, created=t))
        c.execute(
            insert(m.games).values(
                id="Old12345", white_id=1, black_id=2, variant="9x9", speed="live",
                time_control="300+2", rated=False, state={}, version=3, status="over",
                result="1-0", termination="resignation", turn_id=None, created=t, updated=t + 5,
            )
        )  # fmt: skip
        c.execute(insert(m.moves).values(game_id="Old12345", ply=1, text="d4", at=t))
    old.close()
    site = Site.open(Config(db=url), migrate=True)
    try:
        with site.db.read() as c:
            archived = c.execute(select(m.archive)).one()
            sides = c.execute(select(m.player_games).order_by(m.player_games.c.user_id)).all()
        assert archived.game_id == "Old12345" and archived.plies == 1 and archived.ended == t + 5
        assert [(s.color, s.score) for s in sides] == [("white", "win"), ("black", "loss")]
    finally:
        site.close()


def test_ratings_beside_names_in_seeks_and_the_game(site, client):
    """The lobby's seeks and a game carry their players' ratings for that kind of game (the
    player's review, item 5): settled, provisional (a new player's), none for a deleted one."""
    seed_perfs(site, [("strong", 2100, 60, 80)])
    users = site.users
    newcomer = users.create("newcomer", "a good password")
    strong = users.by_name("strong")
    t = time.time()
    shown = site.ratings.shown(
        [("STRONG", "9x9-live"), ("newcomer", "9x9-live"), ("nobody", "9x9-live")], t
    )
    assert shown == {("strong", "9x9-live"): (2100, False), ("newcomer", "9x9-live"): (1500, True)}
    assert site.ratings.shown([("strong", "chess-live")], t) == {}
    from emergo.server.challenge.service import Terms

    site.challenges.create(strong, Terms(clock_limit=300, rated=True), kind="seek")
    site.challenges.create(newcomer, Terms(days=3), kind="seek")
    seeks = {
        s["challenger"]["name"]: s["challenger"]
        for s in client.get("/api/lobby/seeks").json()["seeks"]
    }
    assert seeks["strong"]["rating"] == 2100 and seeks["strong"]["provisional"] is False
    assert seeks["newcomer"]["rating"] == 1500 and seeks["newcomer"]["provisional"] is True
