"""Correspondence that works (issue 21), on SQLite and PostgreSQL: conditional moves played by the
server at once and shown to no one else, vacation stopping the clock, the sweep ending a game
with no one connected, notices with their unread count, the 80 % alarm, and the mail."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from emergo.clock import DAY
from emergo.server.core import models as m
from emergo.server.core.config import Config, Mail
from emergo.server.site import Site
from emergo.server.user.tokens import DEFAULT_SCOPES
from tests.plugins.game_helpers import Player
from tests.plugins.site import FAST, HOST, account, bearer
from tests.plugins.smtp import Inbox, serve


def corr_game(white: Player, black: Player, days: int = 1, **terms: Any) -> str:
    """A correspondence game, ``white`` playing White; nobody has moved."""
    challenge = white.challenge(black.name, days=days, color="white", **terms)
    return black.accept(challenge)


def feed(player: Player) -> dict[str, Any]:
    r = player.get("/api/account/notifications")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def user_id(site: Site, name: str) -> int:
    user = site.users.by_name(name)
    assert user is not None
    return user.id


def at(site: Site, t: float) -> None:
    """The rounds service's clock stands at ``t`` from now on (the sweep's too)."""
    site.rounds.clock = lambda: t


# --- conditional moves ----------------------------------------------------------------------------


def test_a_conditional_move_is_played_the_moment_the_opponent_moves(site, players):
    ann, bob = players
    game = corr_game(ann, bob)
    ann.play(game, "d4")
    r = ann.post(f"/api/board/game/{game}/conditional", json={"lines": ["e6 f4 c6 c4", "c6 b4"]})
    assert r.status_code == 200, r.text
    assert r.json()["lines"] == ["e6 f4 c6 c4", "c6 b4"]
    version = ann.state(game)["version"]
    bob.play(game, "e6")
    state = bob.state(game)
    # answered in the transaction of Bob's move: the next thing anyone reads is Ann's reply
    assert state["moves"] == "d4 e6 f4" and state["turn"] == "black"
    assert state["version"] == version + 2
    events = site.rounds.events_after(game, version)
    assert [(v, [e["t"] for e in evs]) for v, evs in events] == [
        (version + 1, ["move"]),
        (version + 2, ["move"]),
    ]
    assert events[1][1][0]["text"] == "f4" and events[1][1][0]["color"] == "white"
    # what is left of the tree answers the next move too
    assert ann.get(f"/api/board/game/{game}/conditional").json()["lines"] == ["c6 c4"]
    bob.play(game, "c6")
    assert ann.state(game)["moves"] == "d4 e6 f4 c6 c4"
    assert ann.get(f"/api/board/game/{game}/conditional").json()["lines"] == []
    # Bob was told it is his turn each time, one line for the game (the newest replaces the
    # older, as lichess's feed); Ann, whose replies went at once, never
    bobs = feed(bob)
    assert [n["kind"] for n in bobs["notifications"]] == ["your-turn"]
    assert bobs["unread"] == 1
    assert feed(ann)["notifications"] == []


def test_a_move_the_tree_did_not_foresee_drops_it(site, players):
    ann, bob = players
    game = corr_game(ann, bob)
    ann.play(game, "d4")
    ann.ok(f"/api/board/game/{game}/conditional", json={"lines": ["e6 f4"]})
    bob.play(game, "c6")
    assert ann.state(game)["moves"] == "d4 c6" and ann.state(game)["turn"] == "white"
    assert ann.get(f"/api/board/game/{game}/conditional").json()["lines"] == []


def test_a_takeback_drops_the_conditional_moves(site, players):
    ann, bob = players
    game = corr_game(ann, bob)
    ann.play(game, "d4")
    bob.play(game, "e6")
    ann.play(game, "f4")
    ann.ok(f"/api/board/game/{game}/conditional", json={"lines": ["c5 b4"]})
    ann.ok(f"/api/board/game/{game}/takeback/yes")
    bob.ok(f"/api/board/game/{game}/takeback/yes")
    assert ann.state(game)["moves"] == "d4 e6"
    assert ann.get(f"/api/board/game/{game}/conditional").json()["lines"] == []


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["e6"], "say what you reply"),
        (["a9 f4"], "cannot be played"),
        (["e6 f4", "e6 c4"], "you reply both"),
    ],
)
def test_bad_conditional_moves_are_refused_saying_why(site, players, lines, message):
    ann, bob = players
    game = corr_game(ann, bob)
    ann.play(game, "d4")
    r = ann.post(f"/api/board/game/{game}/conditional", json={"lines": lines})
    assert r.status_code == 400 and message in r.json()["error"], r.text


def test_conditional_moves_only_while_waiting_in_a_correspondence_game(site, players):
    ann, bob = players
    game = corr_game(ann, bob)
    ann.play(game, "d4")
    r = bob.post(f"/api/board/game/{game}/conditional", json={"lines": ["f4 c4"]})
    assert r.status_code == 400 and "it is Black's turn" in r.json()["error"]
    live = ann.challenge("bob", **{"clock.limit": 300, "clock.increment": 2}, color="white")
    live_game = bob.accept(live)
    ann.play(live_game, "d4")
    r = ann.post(f"/api/board/game/{live_game}/conditional", json={"lines": ["e6 f4"]})
    assert r.status_code == 400 and "correspondence" in r.json()["error"]


def test_conditional_moves_are_shown_to_no_one_else(site, client, players):
    ann, bob = players
    _c, carol_token = account(site, "carol")
    carol = Player(client, "carol", carol_token)
    game = corr_game(ann, bob)
    ann.play(game, "d4")
    ann.ok(f"/api/board/game/{game}/conditional", json={"lines": ["e6 f4"]})
    # the opponent reads his own (none), never Ann's
    assert bob.get(f"/api/board/game/{game}/conditional").json() == {"lines": []}
    # a third player, an anonymous visitor, a token without board:play: refused
    assert carol.get(f"/api/board/game/{game}/conditional").status_code == 403
    assert client.get(f"/api/board/game/{game}/conditional").status_code == 401
    reader = site.tokens.create(user_id(site, "carol"), ("challenge:read",))
    r = client.get(f"/api/board/game/{game}/conditional", headers=bearer(reader))
    assert r.status_code == 403
    assert carol.post(f"/api/board/game/{game}/conditional", json={"lines": []}).status_code == 403

    # nothing of it in what others see of the game (gameFull is also the streams' first line);
    # the line as text or as a move of its own, not "f4" anywhere: a random game id or CSRF
    # token may hold those two letters
    def shows_the_line(text: str) -> bool:
        return "e6 f4" in text or '"f4"' in text or '"e6"' in text

    for who in (bob, carol):
        assert not shows_the_line(who.get(f"/api/game/{game}").text)
        page = who.get(f"/game/{game}").text
        assert not shows_the_line(page) and "Conditional moves" not in page
    assert shows_the_line(ann.get(f"/api/board/game/{game}/conditional").text)  # the check sees it
    # and Ann still has them
    assert ann.get(f"/api/board/game/{game}/conditional").json() == {"lines": ["e6 f4"]}


# --- time: the sweep, vacation ------------------------------------------------------------------


def test_a_correspondence_game_out_of_time_is_ended_by_the_sweep_with_no_one_connected(
    site, players
):
    ann, bob = players
    game = corr_game(ann, bob, rated="true")
    ann.play(game, "d4")
    bob.play(game, "e6")  # Ann to move: one day
    t = time.time()
    at(site, t + DAY - 60)
    site.rounds.sweep()
    assert ann.state(game)["status"] == "started"
    at(site, t + DAY + 60)
    site.rounds.sweep()  # nobody connected: the timer row alone
    state = ann.state(game)
    assert state["status"] == "outoftime" and state["winner"] == "black"
    assert ann.get("/api/user/ann").json()["perfs"]["9x9-correspondence"]["games"] == 1
    kinds = {n["kind"] for n in feed(ann)["notifications"]}
    assert "game-over" in kinds
    (over,) = [n for n in feed(bob)["notifications"] if n["kind"] == "game-over"]
    assert over["result"].startswith("You won: White lost on time")


def test_vacation_stops_and_restarts_a_correspondence_clock(site, players):
    ann, bob = players
    game = corr_game(ann, bob, days=2)
    ann.play(game, "d4")
    bob.play(game, "e6")  # Ann to move: two days
    t0 = time.time()
    start = ann.ok("/api/account/vacation/start")
    assert start["onVacation"] is True and start["daysLeft"] == pytest.approx(30, abs=0.01)
    left_then = site.rounds.get(game).state.clock.remaining(True, t0)
    # five days later, on vacation: the sweep leaves the game alone
    at(site, t0 + 5 * DAY)
    site.rounds.sweep()
    assert ann.state(game)["status"] == "started"
    with site.db.read() as c:
        timer = c.execute(select(m.timers.c.due).where(m.timers.c.game_id == game)).scalar()
    assert timer >= t0 + 30 * DAY - 5  # not before the vacation can end
    # back after five days: the time away is given back at once
    site.correspondence.stop_vacation(site.rounds, user_id(site, "ann"), t0 + 5 * DAY)
    stored = site.rounds.get(game)
    assert stored.state.clock.remaining(True, t0 + 5 * DAY) == pytest.approx(left_then, abs=5)
    given = site.rounds.events_after(game, stored.version - 1)[0][1][0]
    assert given["t"] == "timeGiven" and given["why"] == "vacation"
    assert given["seconds"] == pytest.approx(5 * DAY, abs=5)
    # and the clock runs again: the flag falls two days later, by the sweep
    at(site, t0 + 5 * DAY + left_then - 60)
    site.rounds.sweep()
    assert ann.state(game)["status"] == "started"
    at(site, t0 + 5 * DAY + left_then + 60)
    site.rounds.sweep()
    assert ann.state(game)["status"] == "outoftime"
    away = ann.get("/api/account/vacation").json()
    assert away["onVacation"] is False and away["daysLeft"] == pytest.approx(25, abs=0.1)


def test_a_move_made_on_vacation_is_not_lost_on_time(site, players):
    ann, bob = players
    game = corr_game(ann, bob, days=1)
    ann.play(game, "d4")
    bob.play(game, "e6")
    t0 = time.time()
    site.correspondence.start_vacation(site.rounds, user_id(site, "ann"), t0)
    at(site, t0 + 3 * DAY)  # three days: past her one day, all of it on vacation
    version = ann.state(game)["version"]
    # sent with the version she saw (as the page's socket does): the time given back first is
    # no change for her to see
    site.play(game, site.users.by_name("ann"), "move", text="f4", version=version)
    state = ann.state(game)
    assert state["status"] == "started" and state["moves"] == "d4 e6 f4"
    assert state["version"] == version + 2  # timeGiven, then her move


def test_vacation_is_refused_when_it_makes_no_sense(site, players):
    ann, _bob = players
    r = ann.post("/api/account/vacation/stop")
    assert r.status_code == 409 and "not on vacation" in r.json()["error"]
    ann.ok("/api/account/vacation/start")
    r = ann.post("/api/account/vacation/start")
    assert r.status_code == 409 and "already" in r.json()["error"]


# --- notices --------------------------------------------------------------------------------------


def test_notices_in_the_feed_with_an_unread_count(site, client, players):
    ann, bob = players
    game = corr_game(ann, bob, days=3)
    ann.play(game, "d4")
    data = feed(bob)
    assert data["unread"] == 1
    (notice,) = data["notifications"]
    assert notice["kind"] == "your-turn" and notice["gameId"] == game
    assert notice["opponent"] == "ann" and notice["deadline"] > time.time() + 3 * DAY - 60
    bob.play(game, "e6")
    assert feed(ann)["unread"] == 1
    bob.ok("/api/account/notifications/read")
    assert feed(bob)["unread"] == 0 and len(feed(bob)["notifications"]) == 1
    # live games tell no one: the players are there
    live = ann.challenge("bob", **{"clock.limit": 300}, color="white")
    live_game = bob.accept(live)
    ann.play(live_game, "d4")
    assert feed(bob)["unread"] == 0
    assert client.get("/api/account/notifications").status_code == 401


def test_time_running_out_at_80_percent_of_the_move(site, players):
    ann, bob = players
    game = corr_game(ann, bob, days=1)
    ann.play(game, "d4")
    bob.play(game, "e6")
    t = time.time()
    with site.db.read() as c:
        alarm = c.execute(select(m.alarms).where(m.alarms.c.game_id == game)).one()
    assert alarm.user_id == user_id(site, "ann")
    assert alarm.due == pytest.approx(t + 0.8 * DAY, abs=60)
    assert site.notices.sweep_alarms(t + 0.5 * DAY) == 0
    assert site.notices.sweep_alarms(t + 0.85 * DAY) == 1
    assert site.notices.sweep_alarms(t + 0.9 * DAY) == 0  # once
    kinds = [n["kind"] for n in feed(ann)["notifications"]]
    assert kinds[0] == "time-running-out"
    ann.play(game, "f4")  # her move: the alarm is Bob's now
    with site.db.read() as c:
        alarm = c.execute(select(m.alarms).where(m.alarms.c.game_id == game)).one()
    assert alarm.user_id == user_id(site, "bob")


# --- mail -----------------------------------------------------------------------------------------


@pytest.fixture
def mail_site(db_url: str) -> Iterator[tuple[Site, Inbox, Any]]:
    """A site that mails through a test SMTP server; its app in process."""
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app

    with serve("plain") as (inbox, port):
        mail = Mail(
            host="127.0.0.1",
            port=port,
            security="plain",
            sender="noreply@play.example.org",
            base_url="https://play.example.org",
            site_name="Emergo club",
        )
        site = Site.open(Config(db=db_url, mail=mail, **FAST), migrate=True)
        try:
            with TestClient(create_app(site), base_url=HOST) as client:
                yield site, inbox, client
        finally:
            site.close()


def test_mail_at_once_as_a_digest_or_not_at_all(mail_site):
    site, inbox, client = mail_site
    people = {}
    for name in ("ann", "bob", "carol", "dave"):
        user, _token = account(site, name)
        token = site.tokens.create(
            user.id, (*DEFAULT_SCOPES, "preference:read", "preference:write")
        )
        people[name] = Player(client, name, token)
    ann, bob, carol, dave = people.values()
    ann.ok("/api/account/preferences", json={"email": "ann@example.org", "mail": "instant"})
    bob.ok("/api/account/preferences", json={"email": "bob@example.org", "mail": "digest"})
    carol.ok("/api/account/preferences", json={"email": "carol@example.org", "mail": "off"})
    assert bob.get("/api/account/preferences").json() == {
        "email": "bob@example.org",
        "mail": "digest",
    }
    # Ann to move against Bob and against Carol; Bob to move in two games; Carol in one
    g1, g2, g3 = corr_game(bob, ann), corr_game(carol, ann), corr_game(ann, bob)
    for game, white in ((g1, bob), (g2, carol), (g3, ann)):
        white.play(game, "d4")
    g4 = corr_game(dave, bob)
    dave.play(g4, "d4")
    g5 = corr_game(ann, carol)
    ann.play(g5, "d4")
    sent = site.notices.send_mail(time.time())
    assert sent == 3  # Ann's two at once, Bob's one digest; Carol opted out
    to_ann = inbox.to("ann@example.org")
    assert sorted(msg["Subject"] for msg in to_ann) == [
        "Your turn against bob (9x9, 1 day a move)",
        "Your turn against carol (9x9, 1 day a move)",
    ]
    bodies = " ".join(msg.get_body(("plain",)).get_content() for msg in to_ann)
    assert f"https://play.example.org/game/{g1}" in bodies
    assert f"https://play.example.org/game/{g2}" in bodies
    (digest,) = inbox.to("bob@example.org")
    lines = [
        x for x in digest.get_body(("plain",)).get_content().splitlines() if x.startswith("- ")
    ]
    assert len(lines) == 2 and {x.rsplit("/", 1)[1] for x in lines} == {g3, g4}
    assert inbox.to("carol@example.org") == []
    # nothing twice; Bob's next digest waits a day
    bob.play(g3, "e6")
    assert site.notices.send_mail(time.time()) == 1  # Ann's new your-turn, at once
    assert len(inbox.to("bob@example.org")) == 1
    assert site.notices.send_mail(time.time() + DAY + 1) == 0  # nothing new for Bob


def test_mail_settings_are_checked(site, players):
    ann, _bob = players
    ann.headers = bearer(site.tokens.create(site.users.by_name("ann").id, ("preference:write",)))
    for data, message in (
        ({"email": "not an address", "mail": "instant"}, "not an e-mail address"),
        ({"email": "a@example.org, b@example.org", "mail": "instant"}, "not an e-mail"),
        ({"mail": "digest"}, "needs an address"),
        ({"email": "a@example.org", "mail": "weekly"}, "mail is one of"),
    ):
        r = ann.post("/api/account/preferences", json=data)
        assert r.status_code == 400 and message in r.json()["error"], r.text


def test_the_mail_section_of_the_config(tmp_path):
    from emergo.server.core.config import ConfigError, load

    path = tmp_path / "site.toml"
    path.write_text(
        "[mail]\n"
        'host = "smtp.example.org"\n'
        "port = 465\n"
        'security = "ssl"\n'
        'username = "emergo"\n'
        'password = "s3cret-Pa55"\n'
        'sender = "noreply@play.example.org"\n'
        'base_url = "https://play.example.org"\n'
    )
    config = load(path)
    assert config.mail.host == "smtp.example.org" and config.mail.port == 465
    assert "s3cret-Pa55" not in repr(config)
    for text, message in (
        ('[mail]\nhost = "x"\nsender = "a@b"\nbase_url = "https://x"\nhello = 1\n', "hello"),
        ('[mail]\nhost = "x"\nbase_url = "https://x"\n', "sender"),
        ('[mail]\nhost = "x"\nsender = "a@b"\n', "base_url"),
        (
            '[mail]\nhost = "x"\nsender = "a@b"\nbase_url = "https://x"\nsecurity = "plain"\n'
            'username = "u"\npassword = "p"\n',
            "without TLS",
        ),
    ):
        path.write_text(text)
        with pytest.raises(ConfigError, match=message):
            load(path)
    assert Config().mail.host is None  # no mail unless asked
