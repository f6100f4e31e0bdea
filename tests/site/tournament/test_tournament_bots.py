"""Bots join events through the Bot API as on lichess: ``emergo bot --join ID`` (the bot
client's ``BotConfig.events``) joins an arena with the bot's one token, and the director
pairs it like anyone (emergo.botclient, emergo.server.tournament)."""

from __future__ import annotations

import threading
import time

import pytest

from emergo.botclient.api import Api
from emergo.botclient.config import BotConfig
from emergo.botclient.runner import Bot
from emergo.server.tournament.spec import arena_spec

pytest.importorskip("py4swiss")


@pytest.mark.slow
def test_a_bot_joins_an_arena_and_is_paired(site, live) -> None:
    ann = site.users.create("ann", "a good password")
    robot = site.users.create("robot", "a good password", bot=True)
    token = site.tokens.create(robot.id, ("bot:play",))
    open_to_bots = arena_spec({"minutes": 30, "waitMinutes": 0, "conditions.bots": "true"})
    closed = site.tournaments.create(arena_spec({"minutes": 30}), ann)
    event = site.tournaments.create(open_to_bots, ann)
    bot = Bot(Api(live, token), BotConfig(events=(closed.id, event.id)))
    runner = threading.Thread(target=bot.run, daemon=True)
    runner.start()
    try:
        deadline = time.monotonic() + 30
        while site.tournaments.get(event.id).nb_players == 0:
            assert time.monotonic() < deadline, "the bot did not join"
            time.sleep(0.1)
        assert site.tournaments.get(closed.id).nb_players == 0  # no bots there: refused
        site.tournaments.join(event.id, ann)
        while not site.tournaments.view(event.id)[2]:  # the live site's director pairs them
            assert time.monotonic() < deadline, "no pairing was made"
            time.sleep(0.2)
        pairing = site.tournaments.view(event.id)[2][0]
        assert {pairing.white, pairing.black} == {"ann", "robot"}
    finally:
        bot.stop()
        runner.join(20)
