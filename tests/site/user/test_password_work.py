"""Password hashes apart and bounded (issue 27, attacker's finding 1): log-ins held in their
hash never take the threads of the database calls, past the slots and the queue they are
refused at once with a 503 and Retry-After, and another player's request is answered while
they wait (before, 30 log-ins at once took every worker and 1.3-2 GB)."""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from emergo.server.user.passwords import PasswordWork
from tests.plugins.game_helpers import run_async
from tests.plugins.site import account, bearer

httpx = pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")

HELD = 40  # more than the database workers of the test's site


@pytest.fixture
def db_url(tmp_path: Path) -> str:  # the threads are the process's: one database is enough
    return f"sqlite:///{tmp_path / 'online.sqlite3'}"


class HeldHasher:
    """The site's hasher, each verify held until ``gate`` opens; ``inside`` counts them."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.gate = threading.Event()
        self.inside = 0
        self.lock = threading.Lock()

    def verify(self, stored: str, password: str) -> bool:
        with self.lock:
            self.inside += 1
        self.gate.wait(120)
        return bool(self.real.verify(stored, password))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def _log_in(base: str, name: str) -> httpx.Response:
    with httpx.Client(base_url=base, timeout=180) as client:
        client.get("/login")
        return client.post(
            "/login",
            data={"username": name, "password": "not hers", "csrf": client.cookies["emergo_csrf"]},
            headers={"Origin": base},
        )


def test_log_ins_held_in_their_hash_leave_other_players_served(site, live) -> None:
    _ann, token = account(site, "ann")
    # the per-address log-in limit out of the way: what is counted here is the hashes
    limits = dataclasses.replace(site.config.limits, login_per_minute=1000)
    site.config = dataclasses.replace(site.config, limits=limits)
    site.passwords = PasswordWork(slots=2, queue=6, per_client=HELD)  # one address: the test's
    held = HeldHasher(site.users.hasher)
    site.users.hasher = held
    answers: list[httpx.Response] = []

    def log_in(n: int) -> None:
        answers.append(_log_in(live, f"name{n}"))

    threads = [threading.Thread(target=log_in, args=(n,)) for n in range(HELD)]
    for t in threads:
        t.start()
    try:
        # the refused are answered at once, while the others wait in their hash
        deadline = time.monotonic() + 120  # a bound on a hang, not a budget
        while len(answers) < HELD - 8:
            assert time.monotonic() < deadline, f"{len(answers)} answers while 8 log-ins wait"
            time.sleep(0.05)
        assert all(r.status_code == 503 for r in answers), [r.status_code for r in answers]
        assert all("try again" in r.text and r.headers["retry-after"] for r in answers)
        assert held.inside <= 2  # two hashes at once, never more
        # another player's request, a database read, is answered meanwhile
        seen: list[int] = []
        reader = threading.Thread(
            target=lambda: seen.append(
                httpx.get(f"{live}/api/account", headers=bearer(token), timeout=60).status_code
            )
        )
        reader.start()
        reader.join(60)
        assert seen == [200], "a player's read waited for the log-ins' hashes"
        assert len(answers) == HELD - 8 and held.inside <= 2
    finally:
        held.gate.set()
        for t in threads:
            t.join(60)
    # the eight admitted ones were each checked: a wrong password, said so
    assert sorted(r.status_code for r in answers) == [401] * 8 + [503] * (HELD - 8)
    assert held.inside == 8


def _work_test(coroutine: Any) -> Any:
    return run_async(lambda: coroutine)  # a thread of its own: playwright's loop may run here


def test_one_address_cannot_fill_the_queue() -> None:
    """One client's checks held in their hash take ``per_client`` places, no more (a 429 past
    them): the others' log-ins still find theirs.  Before, one address sending log-ins as fast
    as they were answered filled every place, and everyone's log-in got the 503."""
    import asyncio

    from emergo.server.user.passwords import ClientBusy, PasswordsBusy

    gate = threading.Event()

    async def scenario() -> list[str]:
        work = PasswordWork(slots=1, queue=3, per_client=2)
        said: list[str] = []
        held = [asyncio.ensure_future(work.run("attacker", gate.wait, 60)) for _ in range(2)]
        await asyncio.sleep(0)
        for _ in range(5):  # the attacker's others: refused, for the attacker alone
            try:
                await work.run("attacker", gate.wait, 60)
            except ClientBusy as err:
                said.append(f"{err.status} {err.headers}")
        others = [asyncio.ensure_future(work.run(f"player{n}", lambda: "in")) for n in range(2)]
        await asyncio.sleep(0)
        try:  # the queue itself full now (4 places): a 503 for anyone
            await work.run("player9", lambda: "in")
        except PasswordsBusy as err:
            said.append(f"{err.status}")
        gate.set()
        said += await asyncio.gather(*others)
        await asyncio.gather(*held)
        assert work.taken() == 0
        work.close()
        return said

    said = _work_test(scenario())
    assert said == ["429 {'retry-after': '2'}"] * 5 + ["503", "in", "in"]


def test_a_place_is_held_until_its_hash_ends() -> None:
    """A request that gave up (its deadline, a client gone) on a hash that runs leaves the place
    taken until the hash ends: the hashes at once and the memory they take stay bounded; a
    request that gave up while still waiting gives its place back at once (never run)."""
    import asyncio

    gate = threading.Event()
    ran: list[int] = []

    async def scenario() -> tuple[int, int, int]:
        work = PasswordWork(slots=1, queue=1, per_client=2)
        running = asyncio.ensure_future(work.run("a", gate.wait, 60))
        waiting = asyncio.ensure_future(work.run("a", ran.append, 1))
        await asyncio.sleep(0.1)
        running.cancel()
        waiting.cancel()
        await asyncio.sleep(0.1)
        during = work.taken()  # the running hash still holds its slot; the waiting one is gone
        gate.set()
        for _ in range(100):
            if work.taken() == 0:
                break
            await asyncio.sleep(0.05)
        after = work.taken()
        work.close()
        return during, after, len(ran)

    assert _work_test(scenario()) == (1, 0, 0)


def test_a_place_is_given_back_when_its_work_fails() -> None:

    def fails() -> None:
        raise ValueError("the database away")

    async def scenario() -> int:
        work = PasswordWork(slots=1, queue=0, per_client=1)
        for _ in range(3):  # each failure gave its place back: the next is let in
            with pytest.raises(ValueError):
                await work.run("a", fails)
        taken = work.taken()
        work.close()
        return taken

    assert _work_test(scenario()) == 0


def _deadline_site(tmp_path: Path) -> Any:
    from emergo.server.core.config import Config, DatabaseSettings
    from emergo.server.site import Site
    from tests.plugins.site import FAST

    config = Config(
        db=f"sqlite:///{tmp_path / 'deadline.sqlite3'}",
        database=DatabaseSettings(request_timeout=1.0),
        **FAST,
    )
    return Site.open(config, migrate=True)


def _settled(site: Any) -> None:
    deadline = time.monotonic() + 60  # a bound on a hang
    while site.passwords.taken():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_sign_up_answered_503_at_its_deadline_makes_no_account(tmp_path: Path) -> None:
    """The hash held past the request's deadline: the 503 says nothing was done, and nothing is
    when the hash ends (the password work runs in the request's context).  Before, the work ran
    outside it: the account was made under the 503."""
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app
    from tests.plugins.site import HOST

    site = _deadline_site(tmp_path)
    held = HeldHasher(site.users.hasher)
    site.users.hasher = held
    held.hash = lambda password: (held.gate.wait(3), held.real.hash(password))[1]  # type: ignore[method-assign]
    try:
        with TestClient(create_app(site), base_url=HOST) as client:
            client.get("/signup")
            r = client.post(
                "/signup",
                data={
                    "username": "newcomer",
                    "password": "pass word 1",
                    "password2": "pass word 1",
                    "csrf": client.cookies["emergo_csrf"],
                },
                headers={"Origin": HOST},
                follow_redirects=False,
            )
            assert r.status_code == 503 and "nothing was done" in r.text, r.text
            held.gate.set()
            _settled(site)
            assert site.users.by_name("newcomer") is None
    finally:
        site.close()


def test_a_password_change_past_its_deadline_is_whole(tmp_path: Path) -> None:
    """The new password's hash held past the deadline, after the check of the old one committed
    (the known client): the change is waited for and done whole, the password changed and the
    other sessions ended (an intruder's, say), never a 503 that says nothing was done.  Before,
    the hash ran outside the request's deadline: a 503 "nothing was done", the password changed
    under it and the other sessions left open."""
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app
    from tests.plugins.site import HOST

    site = _deadline_site(tmp_path)
    site.users.create("owner", "old pass word")
    held = HeldHasher(site.users.hasher)
    try:
        with TestClient(create_app(site), base_url=HOST) as client:
            client.get("/login")
            r = client.post(
                "/login",
                data={
                    "username": "owner",
                    "password": "old pass word",
                    "csrf": client.cookies["emergo_csrf"],
                },
                headers={"Origin": HOST},
                follow_redirects=False,
            )
            assert r.status_code == 303, r.text
            other = site.users.open_session(site.users.by_name("owner").id)[0]
            site.users.hasher = held
            held.gate.set()  # the check of the old password passes at once
            # the new password's hash slower than the request's deadline (1 s)
            held.hash = lambda password: (time.sleep(2), held.real.hash(password))[1]  # type: ignore[method-assign]
            r = client.post(
                "/account/password",
                data={
                    "password": "old pass word",
                    "new": "new pass word",
                    "csrf": client.get("/api/account").json()["csrf"],
                },
                headers={"Origin": HOST},
                follow_redirects=False,
            )
            _settled(site)
            assert r.status_code == 200 and "password changed" in r.text, r.text
            assert site.users.authenticate("owner", "new pass word") is not None
            assert site.users.session(other) is None
    finally:
        site.close()


def test_the_password_settings_are_checked() -> None:
    """A slot count of 0 had passed the config and failed at the start with "cannot open the
    database" (the thread pool's ValueError)."""
    from emergo.server.core.config import ConfigError, from_mapping

    assert from_mapping({}).password_per_client == 2
    for key, bad in (
        ("password_slots", 0),
        ("password_queue", -1),
        ("password_per_client", 0),
        ("password_slots", 1000),
    ):
        with pytest.raises(ConfigError, match=key):
            from_mapping({"accounts": {key: bad}})
