"""A real lichess client against the real server (issue 27): berserk, the lichess Python client,
with its ``base_url`` pointed at the site.  lichess starts the game of an accepted challenge
under the challenge's id, and berserk relies on it (its ``accept`` drops the answer)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.plugins.site import account

berserk = pytest.importorskip("berserk", reason="berserk (the lichess client) is not installed")


def _client(live: str, token: str) -> Any:
    return berserk.Client(berserk.TokenSession(token), base_url=live)


def _state(lines: Any) -> dict[str, Any]:
    """The next ``gameState`` of a game's stream (past chat lines and ``opponentGone``)."""
    for line in lines:
        if line.get("type") == "gameState":
            return dict(line)
    raise AssertionError("the stream ended")


def test_a_persons_game_through_berserk(site, live):
    _ann, ann_token = account(site, "ann")
    _bob, bob_token = account(site, "bob")
    ann, bob = _client(live, ann_token), _client(live, bob_token)
    made = ann.challenges.create("bob", rated=False, clock_limit=300, clock_increment=2,
                                 color="white")  # fmt: skip
    game = made["id"]
    bob.challenges.accept(game)
    lines = ann.board.stream_game_state(game)  # the challenge's id is the game's
    full = next(lines)
    assert full["type"] == "gameFull" and full["id"] == game
    ann.board.make_move(game, "d4")
    assert _state(lines)["moves"] == "d4"
    bob.board.make_move(game, "e6")
    assert _state(lines)["moves"] == "d4 e6"
    bob.board.resign_game(game)
    assert _state(lines)["status"] == "resign"


def _until(lines: Any, wanted: Any) -> dict[str, Any]:
    """The next line of a stream that ``wanted(line)`` holds for (at most 20 lines on)."""
    for _ in range(20):
        line = dict(next(lines))
        if wanted(line):
            return line
    raise AssertionError("not in the next 20 lines")


def test_offers_exports_and_users_through_berserk(site, live):
    """A person's draw and takeback offers, the game exported as lichess's JSON and as a
    record, the players' public users and statuses, and the e-mail address."""
    ann_user, ann_token = account(site, "ann")
    _bob, bob_token = account(site, "bob")
    ann, bob = _client(live, ann_token), _client(live, bob_token)
    game = ann.challenges.create("bob", rated=False, clock_limit=300, clock_increment=2,
                                 color="white")["id"]  # fmt: skip
    bob.challenges.accept(game)
    ann_lines, bob_lines = ann.board.stream_game_state(game), bob.board.stream_game_state(game)
    next(ann_lines), next(bob_lines)
    ann.board.make_move(game, "d4")
    _state(bob_lines)
    ann.board.offer_draw(game)
    assert _state(bob_lines)["wdraw"] is True  # Bob sees Ann's offer
    bob.board.decline_draw(game)
    assert _until(ann_lines, lambda x: x.get("type") == "gameState" and not x["wdraw"])
    bob.board.make_move(game, "e6")
    _until(ann_lines, lambda x: x.get("moves") == "d4 e6")
    bob.board.offer_takeback(game)
    offered = _until(ann_lines, lambda x: x.get("type") == "gameState" and x["btakeback"])
    assert offered["moves"] == "d4 e6"  # Ann sees Bob's offer
    ann.board.accept_takeback(game)
    assert _until(ann_lines, lambda x: x.get("type") == "gameState")["moves"] == "d4"

    statuses = ann.users.get_realtime_statuses("ann", "bob", "nobody", with_game_ids=True)
    assert [(s["id"], s.get("playing"), s.get("playingId")) for s in statuses] == [
        ("ann", True, game),
        ("bob", True, game),
    ]
    users = ann.users.get_by_id("bob", "ann")
    assert [u["username"] for u in users] == ["bob", "ann"]
    assert users[0]["count"]["playing"] == 1

    with pytest.raises(berserk.exceptions.ResponseError) as early:
        ann.board.claim_victory(game)  # berserk's path ends in "/": the site's answer, not a 404
    assert early.value.status_code == 409 and "nothing to claim" in str(early.value)
    bob.board.make_move(game, "e6")
    _state(ann_lines)
    bob.board.resign_game(game)
    assert _state(ann_lines)["status"] == "resign"
    exported = ann.games.export(game)  # Accept: application/json: lichess's game object
    assert exported["id"] == game and exported["status"] == "resign"
    assert exported["winner"] == "white" and exported["moves"] == "d4 e6"
    assert exported["players"]["black"]["user"]["name"] == "bob"
    assert exported["clock"] == {"initial": 300, "increment": 2, "totalTime": 380}
    assert exported["createdAt"].year >= 2024  # berserk read lichess's milliseconds
    record = ann.games.export(game, as_pgn=True)
    assert "1. d4 {[%clk 0:05:00]} 1... e6" in record and '[Result "1-0"]' in record
    (mine,) = list(ann.games.export_by_player("ann"))  # NDJSON
    assert mine["id"] == game and mine["winner"] == "white"

    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        ann.account.get_email()  # the default scopes lack email:read
    assert refused.value.status_code == 403
    site.notices.set_settings(ann_user.id, "ann@example.org", "off")
    reader = _client(live, site.tokens.create(ann_user.id, ("email:read",)))
    assert reader.account.get_email() == "ann@example.org"


def test_a_bots_game_through_berserk(site, live):
    """A bot account (upgraded through berserk) sees a person's challenge on its event stream,
    accepts it, plays, chats, sees the person's draw offer, and is online meanwhile."""
    from emergo.server.user.tokens import BOT_SCOPES

    robo = site.users.create("robo", None)
    bot = _client(live, site.tokens.create(robo.id, BOT_SCOPES))
    bot.account.upgrade_to_bot()
    _ann, ann_token = account(site, "ann")
    ann = _client(live, ann_token)
    events = bot.bots.stream_incoming_events()
    game = ann.challenges.create("robo", rated=False, clock_limit=300, clock_increment=2,
                                 color="white")["id"]  # fmt: skip
    challenge = _until(events, lambda x: x["type"] == "challenge")["challenge"]
    assert challenge["id"] == game and challenge["challenger"]["name"] == "ann"
    assert [b["username"] for b in ann.bots.get_online_bots()] == ["robo"]  # its stream is open
    bot.bots.accept_challenge(game)
    assert _until(events, lambda x: x["type"] == "gameStart")["game"]["id"] == game
    bot_lines = bot.bots.stream_game_state(game)
    full = next(bot_lines)
    assert full["type"] == "gameFull" and full["black"]["title"] == "BOT"
    ann_lines = ann.board.stream_game_state(game)
    next(ann_lines)
    ann.board.make_move(game, "d4")
    assert _state(bot_lines)["moves"] == "d4"
    bot.bots.make_move(game, "e6")
    assert _until(ann_lines, lambda x: x.get("moves") == "d4 e6")  # Ann sees the bot's move
    bot.bots.post_message(game, "good luck")
    said = _until(ann_lines, lambda x: x.get("type") == "chatLine")
    assert said["username"] == "robo" and said["text"] == "good luck"  # Ann reads the bot
    ann.board.offer_draw(game)
    assert _until(bot_lines, lambda x: x.get("wdraw"))  # the bot sees Ann's offer
    (status,) = ann.users.get_realtime_statuses("robo")
    assert status["online"] is True and status["playing"] is True and status["title"] == "BOT"
    bot.bots.resign_game(game)
    end = _until(ann_lines, lambda x: x.get("status") == "resign")
    assert end["winner"] == "white"
