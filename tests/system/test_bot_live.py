"""Bots on a real server process (issue 20's proof): two ``emergo bot`` processes play a live
match, a bot finishes its game across a server restart and a ``kill -9``, and the house bots
(run by the server itself) answer "play the computer".  Slow: real processes, real engines."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from emergo import record
from emergo.server.core import models as m
from emergo.server.core.config import Config
from emergo.server.site import Site
from tests.plugins.game_helpers import Player, legal_texts, wait_for
from tests.plugins.postgres import free_port
from tests.plugins.site import FAST

httpx = pytest.importorskip("httpx2")
pytestmark = pytest.mark.slow

SHORT = ["--variant", "7x7", "--tc", "30+1"]


class Server:
    """One ``emergo serve --online`` process on a port (kept across restarts)."""

    def __init__(self, db: str, log: Path, port: int, config: Path | None = None) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log = log
        self.handle = open(log, "a")  # noqa: SIM115 - closed in stop()
        command = [sys.executable, "-m", "emergo", "serve", "--online", "--db", db]
        command += ["--port", str(port), "--no-browser"]
        # the bots of these tests are `emergo bot` processes of their own, unless a config asks
        command += ["--config", str(config)] if config is not None else ["--no-house-bots"]
        self.proc = subprocess.Popen(
            command,
            stdout=self.handle,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            wait_for(self._up, 30, f"the server on port {port}")
        except BaseException:  # never left running by a test that failed to start it
            self.stop(signal.SIGKILL)
            raise

    def _up(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"the server exited: {self.log.read_text()}")
        try:
            return httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self, sig: int = signal.SIGINT) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.handle.close()


def bot_process(server: Server, token: str, log: Path, *args: str) -> subprocess.Popen[bytes]:
    handle = open(log, "a")  # noqa: SIM115 - the child holds it
    return subprocess.Popen(
        [sys.executable, "-m", "emergo", "bot", "--server", server.base, *args],
        stdout=handle,
        stderr=subprocess.STDOUT,
        env={**os.environ, "EMERGO_BOT_TOKEN": token, "PYTHONUNBUFFERED": "1"},
    )


@pytest.fixture
def world(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """An SQLite site with two bots and a person (tokens), and a way to start its server."""
    db = str(tmp_path / "site.sqlite3")
    site = Site.open(Config(db=db, **FAST), migrate=True)
    tokens = {}
    for name in ("weak", "strong"):
        user = site.users.create(name, None, bot=True)
        tokens[name] = site.tokens.create(user.id, ("bot:play",))
    ann = site.users.create("ann", "a good password")
    tokens["ann"] = site.tokens.create(ann.id)
    site.close()
    port = free_port()
    servers: list[Server] = []
    children: list[subprocess.Popen[bytes]] = []

    def start(config: Path | None = None) -> Server:
        server = Server(db, tmp_path / "server.log", port, config)
        servers.append(server)
        return server

    yield {"db": db, "tokens": tokens, "start": start, "tmp": tmp_path, "children": children}
    for child in children:
        if child.poll() is None:
            child.kill()
            child.wait(10)
    for server in servers:
        server.stop()
    text = (tmp_path / "server.log").read_text()
    for token in tokens.values():
        assert token not in text


def _games(db: str) -> list[Any]:
    site = Site.open(Config(db=db, **FAST))
    try:
        with site.db.read() as c:
            return list(c.execute(select(m.games).order_by(m.games.c.created)).all())
    finally:
        site.close()


def test_two_bot_processes_play_a_ten_game_match(world):
    server = world["start"]()
    tmp = world["tmp"]
    strong = bot_process(
        server, world["tokens"]["strong"], tmp / "strong.log", "--level", "5", "--games", "10"
    )
    weak = bot_process(
        server,
        world["tokens"]["weak"],
        tmp / "weak.log",
        "--level",
        "1",
        "--challenge",
        "strong",
        "--games",
        "10",
        *SHORT,
    )
    world["children"] += [strong, weak]
    assert weak.wait(150) == 0, (tmp / "weak.log").read_text()[-3000:]
    strong.wait(30)
    games = _games(world["db"])
    assert len(games) == 10
    assert all(g.status == "over" for g in games)
    names = {}
    site = Site.open(Config(db=world["db"], **FAST))
    for name in ("weak", "strong"):
        user = site.users.by_name(name)
        assert user is not None
        names[user.id] = name
    site.close()
    score = {"weak": 0.0, "strong": 0.0}
    with httpx.Client(base_url=server.base, timeout=10) as http:
        for g in games:
            if g.result == "1-0":
                score[names[g.white_id]] += 1
            elif g.result == "0-1":
                score[names[g.black_id]] += 1
            else:
                score["weak"] += 0.5
                score["strong"] += 0.5
            text = http.get(f"/game/export/{g.id}").text
            parsed = record.read_game(text)
            board = parsed.end().board()  # every record replays with the library, move by move
            assert board.variant == "7x7"
            assert [str(x) for x in board.move_stack] == list(g.state["moves"])
            if board.outcome() is not None:
                assert board.outcome().result() == g.result
    print(f"the match: {score}")  # shown with -s
    assert score["strong"] > score["weak"], score


def _answered(ann: Player, game: str, count: int) -> bool:
    now = ann.state(game)
    return len(now["moves"].split()) > count or now["status"] not in ("created", "started")


def _play_against_bot(
    server: Server, ann: Player, game: str, plies: int | None, rng: random.Random
) -> dict[str, Any]:
    """Ann plays random moves in her turn (White) until ``plies`` or the end."""
    while True:
        state = ann.state(game)
        if state["status"] not in ("created", "started"):
            return state
        moves = state["moves"].split()
        if plies is not None and len(moves) >= plies:
            return state
        if len(moves) % 2 == 0:
            r = ann.move(game, rng.choice(legal_texts(state, "7x7")))
            if r.status_code == 429:  # a level-1 bot answers in milliseconds: past 20 moves a
                # second Ann is told to wait, as any client that plays this fast would be
                time.sleep(float(r.headers["retry-after"]))
                continue
            assert r.status_code in (200, 400, 409), r.text
        else:
            wait_for(partial(_answered, ann, game, len(moves)), 30, "the bot's move")


@pytest.mark.parametrize("how", ["restart", "kill -9"])
def test_the_bot_finishes_its_game_across_a_server_restart(world, how):
    server = world["start"]()
    tmp = world["tmp"]
    bot = bot_process(server, world["tokens"]["strong"], tmp / "bot.log", "--level", "1")
    world["children"].append(bot)
    rng = random.Random(7)
    with httpx.Client(base_url=server.base, timeout=10) as http:
        ann = Player(http, "ann", world["tokens"]["ann"])
        challenge = ann.challenge(
            "strong", color="white", variant="7x7", **{"clock.limit": 120, "clock.increment": 2}
        )
        game = wait_for(
            lambda: (ann.get("/api/account/playing").json()["nowPlaying"] or [{}])[0].get("gameId"),
            20,
            f"the bot to accept {challenge}",
        )
        _play_against_bot(server, ann, game, 6, rng)
    server.stop(signal.SIGINT if how == "restart" else signal.SIGKILL)
    server = world["start"]()
    with httpx.Client(base_url=server.base, timeout=10) as http:
        ann = Player(http, "ann", world["tokens"]["ann"])
        state = _play_against_bot(server, ann, game, None, rng)
    assert state["status"] in ("mate", "resign", "draw", "outoftime", "stalemate", "over") or (
        state["status"] not in ("created", "started")
    )
    moves = state["moves"].split()
    assert len(moves) > 6
    assert bot.poll() is None, (tmp / "bot.log").read_text()[-2000:]


def test_the_house_bots_answer_play_the_computer(world):
    config = world["tmp"] / "emergo.toml"
    config.write_text("[bots]\nhouse_bots = true\nlevels = [1]\nconcurrency = 2\n")
    server = world["start"](config)
    rng = random.Random(3)
    with httpx.Client(base_url=server.base, timeout=20) as http:
        ann = Player(http, "ann", world["tokens"]["ann"])
        terms = {"level": 1, "variant": "7x7", "clock.limit": 120, "clock.increment": 2}

        def ask() -> Any:
            r = ann.post("/api/challenge/ai", json={**terms, "color": "white"})
            assert r.status_code in (200, 503), r.text  # 503: its process is still starting
            return r if r.status_code == 200 else None

        r = wait_for(ask, 40, "the house bot to answer")
        game = r.json()["gameId"]
        full = ann.get(f"/api/game/{game}").json()
        assert full["black"]["name"] == "emergo-1" and full["black"]["title"] == "BOT"
        state = _play_against_bot(server, ann, game, None, rng)
        assert state["status"] not in ("created", "started")
        # a level no house bot plays: a clear 404
        r = ann.post("/api/challenge/ai", json={**terms, "level": 7})
        assert r.status_code == 404 and "levels: 1" in r.json()["error"]
