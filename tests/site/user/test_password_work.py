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
    site.passwords = PasswordWork(slots=2, queue=6)
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
