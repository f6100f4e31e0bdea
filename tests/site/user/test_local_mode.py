"""Local mode (issue 26): ``emergo serve`` is the site for one player on this machine, signed in
by itself (the CSRF and Host checks kept), sign-up closed; it listens on this machine only; its
house bots are threads of the server process, which play the computer's levels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from emergo.server.core.config import Bots, Config, ConfigError, check, from_mapping
from emergo.server.user.accounts import local_name
from tests.plugins.browser import local_site
from tests.plugins.game_helpers import wait_for
from tests.plugins.postgres import free_port

pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")

from starlette.testclient import TestClient

from emergo.server.app import create_app

BASE = "http://127.0.0.1:8765"


def test_a_request_without_a_session_is_the_local_player(tmp_path: Path) -> None:
    site = local_site(tmp_path / "site.sqlite3")
    try:
        with TestClient(create_app(site), base_url=BASE) as c:
            r = c.get("/api/account")
            assert r.status_code == 200 and r.json()["username"] == "ann"
            assert "emergo_session=" in r.headers["set-cookie"]
            again = c.get("/api/account")  # the same session now: no new cookie
            assert "set-cookie" not in again.headers and again.json()["csrf"] == r.json()["csrf"]
            page = c.get("/")
            assert 'data-me="ann"' in page.text and 'href="/signup"' not in page.text
            # sign-up is closed: the one player is signed in already
            c.get("/signup")
            form = {
                "username": "bob",
                "password": "pass word 1",
                "password2": "pass word 1",
                "csrf": c.cookies.get("emergo_csrf"),
            }
            r = c.post("/signup", data=form, headers={"origin": BASE})
            assert r.status_code == 403 and "signed in already" in r.text
            assert site.users.by_name("bob") is None
            # the CSRF check stays: a write without the session's token is refused
            r = c.put("/api/settings", json={"view": "checker"}, headers={"origin": BASE})
            assert r.status_code == 403
            # and the Host check: no DNS rebinding
            assert c.get("/api/account", headers={"host": "evil.example"}).status_code in (400, 421)
    finally:
        site.close()


def test_local_mode_listens_on_this_machine_only() -> None:
    with pytest.raises(ConfigError, match="local mode listens on this machine only"):
        check(Config(mode="local", host="0.0.0.0"))
    with pytest.raises(ConfigError, match="mode is local or public"):
        from_mapping({"server": {"mode": "both"}})
    check(Config(mode="local", host="::1"))


def test_the_local_players_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert local_name("ann") == "ann"
    monkeypatch.setattr("getpass.getuser", lambda: "Zoë Smith")  # not a valid name
    assert local_name() == "player"
    monkeypatch.setattr("getpass.getuser", lambda: "carol")
    assert local_name() == "carol"
    with pytest.raises(ValueError):
        local_name("a b")


def test_the_house_bots_are_threads_that_play_the_computer(tmp_path: Path) -> None:
    import threading

    import httpx2 as httpx
    import uvicorn

    # another test's server may run house bots in this process for the session (the browser
    # tests' `computer`): this test's bots are the threads that were not there before it
    others = set(threading.enumerate())

    def ours() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t not in others]

    port = free_port()
    site = local_site(
        tmp_path / "site.sqlite3",
        port=port,
        bots=Bots(house_bots=True, levels=(1,), concurrency=2),
    )
    server = uvicorn.Server(uvicorn.Config(create_app(site), port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(lambda: server.started, 60, "the server")
        wait_for(lambda: "house-bot-1" in {t.name for t in ours()}, 60, "the bot's thread")
        assert [t.name for t in ours() if t.name.startswith("house-bot-")] == ["house-bot-1"]
        with httpx.Client(base_url=base, timeout=60) as c:
            me = c.get("/api/account").json()
            headers = {"x-csrf-token": me["csrf"], "origin": base}
            terms = {"level": 1, "variant": "7x7", "color": "white"}

            def challenge() -> Any:
                r = c.post("/api/challenge/ai", json=terms, headers=headers)
                assert r.status_code in (200, 503), r.text  # 503: the bot still logging in
                return r.json() if r.status_code == 200 else None

            game = wait_for(challenge, 60, "the house bot to accept")["gameId"]
            r = c.post(f"/api/board/game/{game}/move/c3", headers=headers)
            assert r.status_code == 200, r.text

            def replied() -> bool:
                moves = c.get(f"/api/game/{game}").json()["state"]["moves"].split()
                return len(moves) >= 2

            wait_for(replied, 60, "the computer's reply")
            full = c.get(f"/api/game/{game}").json()
            assert full["black"]["name"] == "emergo-1" and full["black"]["title"] == "BOT"
            # it plays through the site's services, not the server's HTTP: it holds no token
            assert site.tokens.list(site.users.by_name("emergo-1").id) == []
    finally:
        site.begin_stop()  # as emergo serve's Ctrl-C
        server.should_exit = True
        thread.join(60)
        site.close()
    # the bots stopped with the server (they abandon their games: a restart takes them up)
    try:
        wait_for(
            lambda: not any(t.name.startswith("house-bot-") for t in ours()),
            60,
            "the bots' threads to end",
        )
    except AssertionError as e:  # where each of them waits, for whoever reads the failure
        import sys
        import traceback

        frames = sys._current_frames()
        stacks = [
            f"{t.name}:\n{''.join(traceback.format_stack(frames[t.ident]))}"
            for t in ours()
            if t.name.startswith(("house-bot-", "game-", "bot-events")) and t.ident in frames
        ]
        raise AssertionError(f"{e}\n" + "\n".join(stacks)) from None
