"""Fixtures of the online site's tests: a database on SQLite and on a real PostgreSQL, the site,
an in-process client, accounts with tokens.

PostgreSQL: a server of its own for the session (tests/online/pg.py: initdb in a temporary
folder, a free port, ``pg_ctl -w start``), a fresh database a test made from a migrated
template.  Skipped, saying why, only when the PostgreSQL binaries are not installed
(tools/test.sh installs Debian's ``postgresql`` package).
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from emergo.server.core.config import Bots, Config, Limits
from emergo.server.site import Site
from tests.plugins.postgres import Cluster, binaries

FAST: dict[str, Any] = {
    "argon2_time_cost": 1,
    "argon2_memory_kib": 64,
    "limits": Limits(moves_per_second=10_000, challenges_per_minute=10_000),
    "bots": Bots(house_bots=False),
}
"""Cheap password hashing for tests (the site's default costs ~0.1 s a hash), limits that
games played as fast as a test plays them do not reach (tests/online/test_limits.py tests the
limits), and no house bots (the tests that play them start them)."""
HOST = "http://127.0.0.1:8765"


@pytest.fixture(scope="session")
def pg() -> Iterator[Cluster]:
    """A PostgreSQL server of the session, with a migrated template database."""
    pytest.importorskip("psycopg")
    found = binaries()
    if found is None:
        pytest.skip("PostgreSQL is not installed (tools/test.sh installs Debian's postgresql)")
    cluster = Cluster(found)
    try:
        make_template(cluster.create_database("emergo_template"))
        yield cluster
    finally:
        cluster.stop()


def make_template(url: str) -> None:
    """Migrate the tests' template database and import the shipped puzzles into it, as every
    server does at its start (:meth:`emergo.server.puzzle.service.Puzzles.start_import`): a
    test's app finds them there at once, not a third of a second of its CPU each start (and
    its stop waiting for the import).  tests/site/puzzle/test_puzzle_service.py empties them
    to see the import itself."""
    from emergo.server.core.db import Database
    from emergo.server.puzzle.service import Puzzles

    db = Database(url)
    try:
        db.migrate()
        Puzzles(db).ensure_shipped()
    finally:
        db.close()


def pg_database(cluster: Cluster) -> str:
    return cluster.create_database(f"t{uuid.uuid4().hex[:12]}", template="emergo_template")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite database of the session (of the worker): the tests' databases are its
    copies, as PostgreSQL's are made from its template (migrating takes a second on a busy
    machine, a copy milliseconds)."""

    path = tmp_path_factory.mktemp("sqlite-template") / "template.sqlite3"
    make_template(f"sqlite:///{path}")
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, migrated database: SQLite, then PostgreSQL (dropped after the test: a worker's
    cluster would hold hundreds, gigabytes written and removed at the end of the run, where
    each new copy of the template got slower as they piled up)."""
    if request.param == "sqlite":
        path = tmp_path / "online.sqlite3"
        template: Path = request.getfixturevalue("sqlite_template")
        # the backup API: the whole database, whatever its journal (WAL) holds
        with closing(sqlite3.connect(template)) as source, closing(sqlite3.connect(path)) as copy:
            source.backup(copy)
        yield f"sqlite:///{path}"
        return
    cluster: Cluster = request.getfixturevalue("pg")
    url = pg_database(cluster)
    yield url
    cluster.drop_later(url.rsplit("/", 1)[1])


@pytest.fixture
def site(db_url: str) -> Iterator[Site]:
    s = Site.open(Config(db=db_url, **FAST), migrate=True)
    yield s
    s.close()


@pytest.fixture
def client(site: Site) -> Iterator[Any]:
    """The site's app in process (its bus and timers running), as a TestClient."""
    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app

    with TestClient(create_app(site), base_url=HOST) as c:
        yield c


@pytest.fixture
def steady_limits(monkeypatch: pytest.MonkeyPatch) -> float:
    """The rate limits' clock stopped in the middle of their windows (a second's, a minute's,
    an hour's), so that a test counting up to a limit never sees a window end: the time."""
    from emergo.server.core import limits

    t = limits.now() // 3600 * 3600 + 30.5
    monkeypatch.setattr(limits, "now", lambda: t)
    return t


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def account(site: Site, name: str, password: str = "a good password") -> tuple[Any, str]:
    """A new account and a token with the default scopes."""
    user = site.users.create(name, password)
    return user, site.tokens.create(user.id)


@pytest.fixture
def live(site: Site) -> Iterator[str]:
    """The site served by a real uvicorn on a free port (a thread of this process): its URL."""
    import threading
    import time

    import uvicorn

    from emergo.server.app import create_app
    from tests.plugins.postgres import free_port

    port = free_port()
    config = uvicorn.Config(
        create_app(site),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    site.begin_stop()  # as emergo serve's stop: streams and sockets end now
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def players(site: Site, client: Any) -> tuple[Any, Any]:
    """Ann and Bob, each with a token, on the in-process client."""
    from tests.plugins.game_helpers import Player

    _a, ann = account(site, "ann")
    _b, bob = account(site, "bob")
    return Player(client, "ann", ann), Player(client, "bob", bob)


def session_of(client, name):
    """Sign up in the page; returns the session's CSRF token (the cookie stays in client)."""
    client.get("/signup")
    form = client.cookies.get("emergo_csrf")
    r = client.post(
        "/signup",
        data={
            "username": name,
            "password": "pass word 1",
            "password2": "pass word 1",
            "csrf": form,
        },
        headers={"Origin": HOST},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    return client.get("/api/account").json()["csrf"]
