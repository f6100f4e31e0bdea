"""An event's chat (issue 30, emergo.server.chat): a line posted to an arena's or a Swiss event's
room and read back, its limits (length, control characters, the chat rate), who may write (any
signed-in account not muted; no one anonymous, no token without a player's scope, no one in an
event that does not exist), the long poll the page waits on, and a line reported and removed by
a moderator."""

from __future__ import annotations

import threading

import pytest

from emergo.server.chat.service import ChatError
from tests.plugins.site import HOST, account, bearer
from tests.plugins.site import session_of as _session

pytest.importorskip("py4swiss")


@pytest.fixture
def events(site, client):
    """An arena and a Swiss event made by ann; tokens of ann, bob and a token without scope."""
    tokens = {}
    for name in ("ann", "bob"):
        _user, token = account(site, name)
        tokens[name] = bearer(token)
    dora = site.users.create("dora", "a good password")
    tokens["dora"] = bearer(site.tokens.create(dora.id, ("challenge:read",)))
    arena = client.post(
        "/api/tournament", headers=tokens["ann"], data={"name": "Chat", "minutes": "30"}
    ).json()["id"]
    swiss = client.post(
        "/api/swiss/new", headers=tokens["ann"], data={"name": "Chat", "nbRounds": "3"}
    ).json()["id"]
    return {
        "arena": f"/api/tournament/{arena}",
        "swiss": f"/api/swiss/{swiss}",
        "ids": (arena, swiss),
        **tokens,
    }


def test_a_line_posted_and_read_back_in_both_kinds_of_event(client, events):
    for kind in ("arena", "swiss"):
        path = f"{events[kind]}/chat"
        r = client.post(path, headers=events["bob"], data={"text": f"  hello {kind}  "})
        assert r.status_code == 200, r.text
        line_id = r.json()["id"]
        got = client.get(path).json()  # anyone reads, signed in or not
        assert got["lines"] == [
            {
                "type": "chatLine",
                "id": line_id,
                "room": "event",
                "username": "bob",
                "text": f"hello {kind}",
            }
        ]
        assert got["removed"] == []
        assert client.get(f"{path}?since={line_id}").json()["lines"] == []


def test_the_lines_of_one_event_are_not_anothers(site, client, events):
    arena, swiss = events["ids"]
    client.post(f"{events['arena']}/chat", headers=events["ann"], data={"text": "arena only"})
    assert [x.text for x in site.chat.event_lines(arena)] == ["arena only"]
    assert site.chat.event_lines(swiss) == []


def test_the_limits_of_a_line(client, events):
    path = f"{events['arena']}/chat"
    for text, words in (
        ("", "1 to 140"),
        ("   ", "1 to 140"),
        ("x" * 141, "1 to 140"),
        ("bell\x07", "control"),
        ("\u202eevil", "control"),
        ("two\nlines", "control"),
    ):
        r = client.post(path, headers=events["bob"], json={"text": text})
        assert r.status_code == 400 and words in r.json()["error"], (text, r.text)
    lone = {**events["bob"], "content-type": "application/json"}
    r = client.post(path, headers=lone, content=b'{"text": "half \\ud800 a pair"}')
    assert r.status_code == 400 and "error" in r.json(), r.text  # a lone surrogate
    r = client.post(path, headers=events["bob"], json={"text": ["a list"]})
    assert r.status_code == 400 and "string" in r.json()["error"]
    assert client.post(path, headers=events["bob"], json={"text": "x" * 140}).status_code == 200
    assert len(client.get(path).json()["lines"]) == 1  # nothing of the refused ones


def test_the_chat_rate_is_the_game_chats(site, client, events, monkeypatch):
    import emergo.server.core.limits as limits

    # one fixed window of the limiter for the whole test (not one across a minute's turn)
    monkeypatch.setattr(limits, "now", lambda: 1_000_020.0)
    path = f"{events['arena']}/chat"
    said = [
        client.post(path, headers=events["bob"], data={"text": f"line {i}"}).status_code
        for i in range(site.config.limits.chat_per_minute + 1)
    ]
    assert said[:-1] == [200] * site.config.limits.chat_per_minute and said[-1] == 429
    # the same count as a game's chat: one account, one limit
    assert (
        client.post(
            f"{events['swiss']}/chat", headers=events["bob"], data={"text": "x"}
        ).status_code
        == 429
    )


def test_who_may_write(site, client, events):
    path = f"{events['arena']}/chat"
    anonymous = client.post(path, data={"text": "hi"})
    assert anonymous.status_code == 401
    no_scope = client.post(path, headers=events["dora"], data={"text": "hi"})
    assert no_scope.status_code == 403 and "scope" in no_scope.json()["error"]
    wrong = client.post("/api/tournament/nosuch/chat", headers=events["bob"], data={"text": "hi"})
    assert wrong.status_code == 404
    # an arena's id under /api/swiss, a Swiss one's under /api/tournament: no such event there
    arena, swiss = events["ids"]
    assert (
        client.post(
            f"/api/swiss/{arena}/chat", headers=events["bob"], data={"text": "hi"}
        ).status_code
        == 404
    )
    assert client.get(f"/api/tournament/{swiss}/chat").status_code == 404
    assert client.get("/api/swiss/nosuch/chat").status_code == 404
    # a session needs its CSRF token
    csrf = _session(client, "cat")
    assert client.post(path, data={"text": "hi"}, headers={"Origin": HOST}).status_code == 403
    r = client.post(path, data={"text": "by cat"}, headers={"Origin": HOST, "X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    # a spectator (cat joined nothing) writes as well as a player
    assert [x["username"] for x in client.get(path).json()["lines"]] == ["cat"]
    for bad in ("-1", "x", "1e3", "9" * 40):
        assert client.get(f"{path}?since={bad}").status_code == 400
    assert client.get(f"{path}?wait=maybe").status_code == 400


def test_muted_and_disabled_accounts_do_not_write(site, client, events):
    arena, _swiss = events["ids"]
    path = f"{events['arena']}/chat"
    site.moderate("mod", "mute", "bob", note="spam")
    r = client.post(path, headers=events["bob"], data={"text": "hi"})
    assert r.status_code == 403 and "muted" in r.json()["error"]
    site.moderate("mod", "unmute", "bob")
    assert client.post(path, headers=events["bob"], data={"text": "hi"}).status_code == 200
    bob = site.users.by_name("bob")
    with pytest.raises(ChatError, match="disabled"):
        site.chat.post_event(arena, type(bob)(id=bob.id, name=bob.name, disabled=True), "hi")
    site.moderate("mod", "disable", "bob", note="gone")
    assert client.post(path, headers=events["bob"], data={"text": "hi"}).status_code == 401
    with pytest.raises(ChatError, match="no such tournament"):
        site.chat.post_event("nosuch", site.users.by_name("ann"), "hi")


def test_the_long_poll_wakes_on_a_new_line(site, client, events):
    path = f"{events['arena']}/chat"
    first = client.post(path, headers=events["ann"], data={"text": "first"}).json()["id"]
    got: dict[str, object] = {}

    def wait() -> None:
        got["r"] = client.get(f"{path}?since={first}&wait=true").json()

    waiter = threading.Thread(target=wait)
    waiter.start()
    arena, _swiss = events["ids"]
    # the waiter is asleep on the bus before the line is said (else it would read it at once)
    for _ in range(2000):
        if site.bus.subscribers(f"ec:{arena}"):
            break
        threading.Event().wait(0.005)
    assert site.bus.subscribers(f"ec:{arena}") == 1
    second = client.post(path, headers=events["bob"], data={"text": "second"}).json()["id"]
    waiter.join()
    assert [x["id"] for x in got["r"]["lines"]] == [second]


def test_the_long_poll_answers_before_the_sites_deadline(site, client, events, monkeypatch):
    """Nothing said: an empty answer, not the 503 of the site's deadline (the app's was set at
    its start: a wait of 20 s would meet it)."""
    from dataclasses import replace

    database = replace(site.config.database, request_timeout=2.6)  # a wait of 0.6 s
    monkeypatch.setattr(site, "config", replace(site.config, database=database))
    path = f"{events['arena']}/chat"
    r = client.get(f"{path}?since=0&wait=true")
    assert r.status_code == 200 and r.json() == {"lines": [], "removed": []}


def test_a_line_reported_and_removed_by_a_moderator(site, client, events):
    path = f"{events['swiss']}/chat"
    line = client.post(path, headers=events["bob"], data={"text": "you fool"}).json()["id"]
    csrf = _session(client, "cat")
    r = client.post(
        "/api/report",
        json={"username": "bob", "reason": "abuse", "line": line},
        headers={"Origin": HOST, "X-CSRF-Token": csrf},
    )
    assert r.status_code == 200, r.text
    (queued,) = site.reports.queue()
    assert queued.line_text == "you fool" and queued.game_id is None
    assert queued.json()["gameId"] is None and queued.json()["tournamentId"] == events["ids"][1]
    site.moderate("mod", "mute", "bob", report_id=queued.id, note="insults")
    got = client.get(path).json()
    assert got["lines"] == [] and got["removed"] == [line]
    # and the admin's own removal, of a line nobody reported
    other = client.post(path, headers=events["ann"], data={"text": "bye"}).json()["id"]
    assert site.chat.remove(other) and not site.chat.remove(10**9)
    assert client.get(path).json()["removed"] == [line, other]


def _to(db, revision):
    """Migrate ``db`` down or up to ``revision`` (alembic, as ``Database.migrate`` runs it)."""
    from pathlib import Path

    from alembic import command
    from alembic.config import Config

    import emergo.server.core.db as core_db

    config = Config()
    config.set_main_option("script_location", str(Path(core_db.__file__).with_name("migrations")))
    # the site's own write lock: no write of its periodic work meets the migration's
    with db._write_lock, db.engine.connect() as connection, connection.begin():
        config.attributes["connection"] = connection.execution_options(emergo_write=True)
        if revision < (db.revision() or ""):
            command.downgrade(config, revision)
        else:
            command.upgrade(config, revision)


def test_migration_0011_keeps_the_game_lines_and_holds_one_owner(site, client, events):
    """On SQLite (batch mode: a copy of the table) and on PostgreSQL: down to 0010 (the event's
    lines go, the game's stay) and up again; a line has a game or an event, not none nor both."""
    import sqlalchemy as sa

    from emergo.server.core import models as m
    from tests.plugins.game_helpers import Player, new_game

    ann = Player(client, "ann", events["ann"]["Authorization"].split()[1])
    bob = Player(client, "bob", events["bob"]["Authorization"].split()[1])
    game = new_game(ann, bob)
    ann.ok(f"/api/board/game/{game}/chat", data={"room": "player", "text": "good luck"})
    client.post(f"{events['arena']}/chat", headers=events["ann"], data={"text": "in the event"})
    _to(site.db, "0010")
    assert site.db.revision() == "0010"
    _to(site.db, "0011")
    assert site.db.revision() == "0011"
    assert [x.text for x in site.chat.lines(game)] == ["good luck"]
    arena, _swiss = events["ids"]
    assert site.chat.event_lines(arena) == []
    user_id = site.users.by_name("ann").id
    for owner in ({}, {"game_id": game, "tournament_id": arena}):
        with pytest.raises(sa.exc.IntegrityError), site.db.engine.begin() as c:
            c.execute(
                sa.insert(m.chat).values(
                    room="event", user_id=user_id, text="x", at=0.0, removed=False, **owner
                )
            )
    client.post(f"{events['arena']}/chat", headers=events["bob"], data={"text": "again"})
    assert [x.text for x in site.chat.event_lines(arena)] == ["again"]
