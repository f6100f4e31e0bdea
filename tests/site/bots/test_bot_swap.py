"""``emergo bot --swap auto|always|never`` on a real server (emergo.botclient.games,
emergo.server.round.swap): a bot playing Black in a ``swap-1`` game chooses at the ply of the
choice through ``POST /api/bot/game/{id}/swap/yes|no``, and plays on with the seat it has."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from emergo.botclient.api import Api
from emergo.botclient.config import BotConfig
from emergo.botclient.engines import EngineSpec
from emergo.botclient.runner import Bot
from emergo.server.challenge.service import Terms
from emergo.server.core import models as m
from emergo.server.round.starts import tags_of


def _wait(check: Any, what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := check()):
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}"
        time.sleep(0.1)
    return value


def _swap_events(site: Any, game_id: str) -> list[bool]:
    with site.db.read() as c:
        rows = c.execute(
            select(m.game_events.c.events).where(m.game_events.c.game_id == game_id)
        ).all()
    return [e["taken"] for r in rows for e in r.events if e.get("t") == "swap"]


def _robot_playing_black(site: Any, start: str = "swap-1") -> tuple[Any, Any, str]:
    ann = site.users.create("ann", "a good password")
    robot = site.users.create("robot", "a good password", bot=True)
    terms = Terms(variant="7x7", clock_limit=300, clock_increment=3, color="white", start=start)
    challenge = site.challenges.create(ann, terms, dest=robot)
    return ann, robot, str(site.challenges.accept(challenge.id, robot))


@pytest.fixture
def bot_for(site: Any, live: str) -> Iterator[Any]:
    """Start a bot with a policy; it is stopped after the test."""
    running: list[tuple[Bot, threading.Thread]] = []

    def start(robot: Any, swap: str) -> Bot:
        token = site.tokens.create(robot.id, ("bot:play",))
        config = BotConfig(
            engine=EngineSpec(level=1, movetime=0.2),
            swap=swap,  # type: ignore[arg-type]
            on_exit="abandon",
        )
        bot = Bot(Api(live, token), config)
        thread = threading.Thread(target=bot.run, daemon=True)
        thread.start()
        running.append((bot, thread))
        return bot

    yield start
    for bot, thread in running:
        bot.stop()
        thread.join(20)


def _first_entry(site: Any, ann: Any, game_id: str) -> None:
    game = site.rounds.get(game_id)
    site.play(game_id, ann, "move", text=str(next(iter(game.state.board().moves()))))


@pytest.mark.parametrize("policy", ["always", "never"])
def test_the_bot_takes_whites_side_or_stays_black_by_its_option(site, bot_for, policy) -> None:
    ann, robot, game_id = _robot_playing_black(site)
    bot_for(robot, policy)
    time.sleep(1.0)  # the bot follows the game before White's entry: no choice is due
    assert tags_of(site.db, game_id) == {"Swap": "swap-1"}
    _first_entry(site, ann, game_id)
    taken = _wait(lambda: _swap_events(site, game_id), "the bot's choice")
    assert taken == [policy == "always"]  # through the endpoint, not by moving
    game = site.rounds.get(game_id)
    choice = "taken" if policy == "always" else "declined"
    assert tags_of(site.db, game_id) == {"Swap": f"swap-1 {choice}"}
    if policy == "always":  # the bot is White now, and Ann (Black) to move: the bot waits
        assert (game.seats.white, game.seats.black) == ("robot", "ann")
        assert len(game.state.moves) == 1
        site.play(game_id, ann, "move", text=str(next(iter(game.state.board().moves()))))
    else:  # the bot stays Black and moves
        assert (game.seats.white, game.seats.black) == ("ann", "robot")
    # either way the bot plays its next move from its seat (White's third ply, Black's second)
    plies = 3 if policy == "always" else 2
    _wait(lambda: len(site.rounds.get(game_id).state.moves) == plies, "the bot's move")
    bot_seat = site.rounds.get(game_id).seats.color_of(robot.id)
    assert bot_seat == (policy == "always")  # True: White
    assert _swap_events(site, game_id) == taken


def test_auto_asks_the_engine_and_answers_once(site, bot_for, caplog) -> None:
    ann, robot, game_id = _robot_playing_black(site)
    caplog.set_level(logging.INFO, logger="emergo.bot")
    bot_for(robot, "auto")
    _first_entry(site, ann, game_id)
    (taken,) = _wait(lambda: _swap_events(site, game_id), "the bot's choice")
    words = "took White's side" if taken else "stayed Black"
    _wait(  # said once the server has answered (after the commit the test saw)
        lambda: any(
            words in r.getMessage() and "--swap auto" in r.getMessage() for r in caplog.records
        ),
        "the bot's word on its choice",
    )
    if taken:
        game = site.rounds.get(game_id)
        site.play(game_id, ann, "move", text=str(next(iter(game.state.board().moves()))))
    plies = 3 if taken else 2
    _wait(lambda: len(site.rounds.get(game_id).state.moves) == plies, "the bot's move")
    assert _swap_events(site, game_id) == [taken]


def test_no_choice_in_a_game_without_the_swap_rule(site, bot_for) -> None:
    ann, robot, game_id = _robot_playing_black(site, start=None)  # type: ignore[arg-type]
    bot_for(robot, "always")
    _first_entry(site, ann, game_id)
    _wait(lambda: len(site.rounds.get(game_id).state.moves) == 2, "the bot's move")
    assert _swap_events(site, game_id) == [] and tags_of(site.db, game_id) == {}
