"""The house bots' supervisor and lease (issue 20), "play the computer" when the computer does
not answer, the ``[bots]`` config section, and one open stream per token."""

from __future__ import annotations

import signal
import sys
import threading
from typing import Any

import pytest

from emergo.server.bots import house as housebots
from emergo.server.bots.accounts import Lease
from emergo.server.bots.house import Supervisor
from emergo.server.core.config import Bots, Config, ConfigError, from_mapping
from tests.plugins.game_helpers import wait_for
from tests.plugins.site import bearer

SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]


def _config(site: Any, **bots: Any) -> Config:
    return Config(db=site.config.db, bots=Bots(house_bots=True, **bots))


def test_one_process_holds_the_lease_and_another_takes_over(site, monkeypatch):
    monkeypatch.setattr(housebots, "bot_command", lambda level, url, n: SLEEPER)
    config = _config(site, levels=(1, 3))
    a = Supervisor(config, site.db, holder="a")
    b = Supervisor(config, site.db, holder="b")
    a.tick()
    b.tick()
    assert a.holding and not b.holding
    running = {level: (c.runner.process if c.runner else None) for level, c in a.children.items()}
    assert sorted(running) == [1, 3] and all(p and p.poll() is None for p in running.values())
    assert sorted(site.bots.house()) == [1, 3]
    assert site.users.by_name("emergo-3").bot
    # each child has a bot:play token of its own, in its environment (never on its command line)
    tokens = site.tokens.list(site.users.by_name("emergo-1").id)
    assert [t.scopes for t in tokens] == [("bot:play",)]
    # the holder hangs: its lease lapses, the other process takes over and revokes its tokens
    with site.db.write() as tx:
        from sqlalchemy import update

        from emergo.server.core import models as m

        tx.execute(update(m.leases).values(expires=0.0))
    b.tick()
    assert b.holding and sorted(b.children) == [1, 3]
    new_tokens = site.tokens.list(site.users.by_name("emergo-1").id)
    assert len(new_tokens) == 1 and new_tokens[0].hint != tokens[0].hint
    a.tick()  # the old holder sees the lease gone and stops its children
    assert not a.holding and all(p.poll() is not None for p in running.values())
    a._stop_children()
    b._stop_children()
    assert all((c.runner.process if c.runner else None) is None for c in b.children.values())
    assert site.tokens.list(site.users.by_name("emergo-1").id) == []


def test_a_child_that_exits_is_restarted_with_back_off(site, monkeypatch):
    monkeypatch.setattr(housebots, "bot_command", lambda level, url, n: SLEEPER)
    sup = Supervisor(_config(site, levels=(2,)), site.db, holder="a")
    sup.tick()
    child = sup.children[2]
    first = child.runner.process
    assert first is not None
    first.send_signal(signal.SIGKILL)
    first.wait(5)
    sup.tick()  # noticed: restarted at once the first time (back-off 1 s, 2 s, ... 60 s)
    assert child.failures == 1
    wait_for(lambda: (sup.tick(), child.runner is not None)[1], 5, "the restart")
    assert child.runner.process is not first and child.runner.process.poll() is None
    child.runner.process.send_signal(signal.SIGKILL)
    child.runner.process.wait(5)
    sup.tick()
    assert child.failures == 2 and child.runner is None  # waiting out its back-off
    wait_for(lambda: (sup.tick(), child.runner is not None)[1], 5, "the second restart")
    sup._stop_children()


def test_the_supervisor_thread_stops_its_children_and_releases_the_lease(site, monkeypatch):
    monkeypatch.setattr(housebots, "bot_command", lambda level, url, n: SLEEPER)
    monkeypatch.setattr(housebots, "TICK", 0.05)
    sup = Supervisor(_config(site, levels=(1,)), site.db, holder="a")
    sup.start()
    wait_for(lambda: sup.children.get(1) and sup.children[1].runner, 10, "the child")
    process = sup.children[1].runner.process
    sup.stop()
    assert process.poll() is not None
    assert Lease(site.db, housebots.LEASE_NAME, "other").holder_now() is None


def test_play_the_computer_cancels_a_challenge_no_one_answers(site, client, monkeypatch):
    from emergo.server.bots import http as online_bot

    monkeypatch.setattr(online_bot, "AI_WAIT", 0.3)
    site.bots.ensure_house((1,))
    ann = site.users.create("ann", "a good password")
    token = site.tokens.create(ann.id)
    r = client.post("/api/challenge/ai", headers=bearer(token), json={"level": 1, "rated": True})
    assert r.status_code == 503 and r.headers["retry-after"] == "60"
    assert "did not answer" in r.json()["error"]
    out = client.get("/api/challenge", headers=bearer(token)).json()["out"]
    assert out == []  # canceled, not left hanging
    for bad, word in (({"level": 0}, "level"), ({"level": "x"}, "level"), ({"level": 12}, "level")):
        r = client.post("/api/challenge/ai", headers=bearer(token), json=bad)
        assert r.status_code == 400 and word in r.json()["error"]
    r = client.post("/api/challenge/ai", headers=bearer(token), json={"level": 1, "days": 4})
    assert r.status_code == 400 and "days" in r.json()["error"]
    assert client.post("/api/challenge/ai", json={"level": 1}).status_code == 401


def test_play_the_computer_gives_the_game_once_the_bot_accepts(site, client):
    house = site.bots.ensure_house((1,))
    ann = site.users.create("ann", "a good password")
    token = site.tokens.create(ann.id)

    def accept() -> None:  # the house bot's process, by hand
        def found() -> Any:
            return site.challenges.of_user(house[1])["in"]

        challenge = wait_for(found, 10, "the challenge")[0]
        assert challenge.terms.rated  # rated stays rated
        site.challenges.accept(challenge.id, house[1])

    helper = threading.Thread(target=accept)
    helper.start()
    r = client.post(
        "/api/challenge/ai",
        headers=bearer(token),
        data={"level": "1", "rated": "true", "clock.limit": "60", "variant": "7x7"},
    )
    helper.join()
    assert r.status_code == 200, r.text
    game = client.get(f"/api/game/{r.json()['gameId']}").json()
    assert game["rated"] and "BOT" in (game["black"]["title"], game["white"]["title"])


def test_the_bots_section_of_the_config():
    config = from_mapping({"bots": {"house_bots": True, "levels": [1, 5, 5], "concurrency": 4}})
    assert config.bots == Bots(house_bots=True, levels=(1, 5), concurrency=4)
    assert Config().bots.house_bots is True and Config().bots.levels == tuple(range(1, 12))
    for bad in (
        {"levels": [0]},
        {"levels": [12]},
        {"levels": ["1"]},
        {"concurrency": 0},
        {"url": "ftp://x"},
        {"house_bots": "yes"},
        {"nonsense": 1},
    ):
        with pytest.raises(ConfigError):
            from_mapping({"bots": bad})


def test_one_open_stream_per_token(site, live):
    httpx = pytest.importorskip("httpx2")
    ann = site.users.create("ann", "a good password")
    token = site.tokens.create(ann.id)
    other = site.tokens.create(ann.id)
    with httpx.Client(base_url=live, timeout=10) as http:
        with http.stream("GET", "/api/stream/event", headers=bearer(token)) as first:
            assert first.status_code == 200
            second = http.get("/api/stream/event", headers=bearer(token))
            assert second.status_code == 429 and second.headers["retry-after"] == "6"
            # another token of the same account is another client
            with http.stream("GET", "/api/stream/event", headers=bearer(other)) as third:
                assert third.status_code == 200

        # closed: the slot is free again
        def reopened() -> bool:
            with http.stream("GET", "/api/stream/event", headers=bearer(token)) as again:
                return bool(again.status_code == 200)

        wait_for(reopened, 10, "the stream's slot to free")


def test_admin_makes_the_house_bots_for_systemd(tmp_path):
    from tests.plugins.commands import admin

    db = str(tmp_path / "site.sqlite3")
    assert admin(db, "migrate").returncode == 0
    config = tmp_path / "emergo.toml"
    config.write_text(f'[server]\ndb = "{db}"\n[bots]\nlevels = [2, 4]\n')
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "emergo", "admin", "--config", str(config), "house-bots"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["level 2: emergo-2", "level 4: emergo-4"]
    made = admin(db, "token", "emergo-4", "--scope", "bot:play")
    assert made.returncode == 0 and "emo_" in made.stdout
    # a bot account's token by default carries the Bot API's scope, not the Board API's
    made = admin(db, "token", "emergo-4")
    assert made.returncode == 0, made.stderr
    assert "(bot:play challenge:read challenge:write tournament:write)" in made.stdout
