"""Reports and the moderators (issue 31, emergo.server.report): a player or a chat line
reported from the site, the queue in ``emergo admin reports``, and each action (warn, mute,
unmute, disable, dismiss) done and logged."""

from __future__ import annotations

import pytest

from emergo.server.core.errors import SiteError
from tests.plugins.game_helpers import Player, new_game
from tests.plugins.site import HOST, account, bearer
from tests.plugins.site import session_of as _session


@pytest.fixture
def reported(site, client):
    """Ann (signed in in ``client``) and Bob play; Bob wrote a rude chat line."""
    _user, token = account(site, "bob")
    bob = Player(client, "bob", token)
    csrf = _session(client, "ann")
    ann_token = site.tokens.create(site.users.by_name("ann").id)
    game = new_game(Player(client, "ann", ann_token), bob)
    line = bob.ok(f"/api/board/game/{game}/chat", data={"room": "player", "text": "you fool"})
    return {"csrf": csrf, "game": game, "line": line.get("id"), "bob": bob}


def _report(client, csrf, **fields):
    headers = {"Origin": HOST, "X-CSRF-Token": csrf}
    return client.post("/api/report", json=fields, headers=headers)


def test_a_chat_line_reported_a_mute_removes_it_and_stops_his_chat(site, client, reported):
    line_id = site.chat.lines(reported["game"])[-1].id
    r = _report(client, reported["csrf"], username="bob", reason="abuse", text="rude", line=line_id)
    assert r.status_code == 200, r.text
    again = _report(client, reported["csrf"], username="bob", reason="abuse", line=line_id)
    assert again.json()["report"]["id"] == r.json()["report"]["id"]  # the same report
    (queued,) = site.reports.queue()
    assert queued.target == "bob" and queued.reporter == "ann" and queued.line_text == "you fool"
    site.moderate("mod", "mute", "bob", report_id=queued.id, note="insults")
    assert site.reports.queue() == []
    assert site.chat.lines(reported["game"]) == []  # the line removed
    chat = f"/api/board/game/{reported['game']}/chat"
    refused = reported["bob"].post(chat, data={"room": "player", "text": "sorry"})
    assert refused.status_code == 403 and "muted" in refused.json()["error"]
    site.moderate("mod", "unmute", "bob")
    assert reported["bob"].post(chat, data={"room": "player", "text": "sorry"}).status_code == 200
    log = site.reports.log()
    assert [(x["action"], x["user"], x["moderator"]) for x in log] == [
        ("unmute", "bob", "mod"),
        ("mute", "bob", "mod"),
    ]
    assert log[1]["report"] == queued.id and log[1]["note"] == "insults"


def test_warn_is_a_notice_and_disable_ends_the_account(site, client, reported):
    _report(client, reported["csrf"], username="bob", reason="stall", text="left two games")
    (queued,) = site.reports.queue()
    with pytest.raises(SiteError, match="what the player did"):
        site.moderate("mod", "warn", "bob", report_id=queued.id)  # a warning has words
    site.moderate("mod", "warn", "bob", report_id=queued.id, note="please finish your games")
    feed = site.notices.feed(site.users.by_name("bob").id)[0]
    assert feed[0]["kind"] == "warning" and feed[0]["result"] == "please finish your games"
    _report(client, reported["csrf"], username="bob", reason="cheat")
    site.moderate("mod", "disable", "bob", note="engine")
    assert site.users.by_name("bob").disabled
    assert site.reports.queue() == []  # his open reports closed with it
    assert reported["bob"].get("/api/account").status_code == 401


def test_who_may_report(site, client, reported):
    assert client.post("/api/report", json={"username": "bob", "reason": "spam"}).status_code == 403
    token = site.tokens.create(site.users.by_name("ann").id)
    by_token = client.post(
        "/api/report", json={"username": "bob", "reason": "spam"}, headers=bearer(token)
    )
    assert by_token.status_code == 403  # from the site's pages only
    csrf = reported["csrf"]
    assert _report(client, csrf, username="ann", reason="spam").status_code == 400  # yourself
    assert _report(client, csrf, username="nobody", reason="spam").status_code == 404
    assert _report(client, csrf, username="bob", reason="ugly").status_code == 400
    assert _report(client, csrf, username="bob", reason="spam", line=999_999).status_code == 404
    for line in ("²", "¹²", [1], -1):  # "²" is a digit to str.isdigit, not to int(): once a 500
        r = _report(client, csrf, username="bob", reason="spam", line=line)
        assert 400 <= r.status_code < 500 and "error" in r.json(), (line, r.text)
    assert site.reports.queue() == []
    client.post("/logout", headers={"Origin": HOST}, data={"csrf": csrf})
    anonymous = client.post("/api/report", json={"username": "bob", "reason": "spam"})
    assert anonymous.status_code in (401, 403)
