"""Fixtures of the online site's tests: a database on SQLite and on a real PostgreSQL, the site,
an in-process client, accounts with tokens.

PostgreSQL: a server of its own for the session (tests/online/pg.py: initdb in a temporary
folder, a free port, ``pg_ctl -w start``), a fresh database a test made from a migrated
template.  Skipped, saying why, only when the PostgreSQL binaries are not installed
(tools/test.sh installs Debian's ``postgresql`` package).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from tests.online.pg import Cluster, binaries

from emergo.online.config import Config, Limits
from emergo.online.site import Site

FAST: dict[str, Any] = {
    "argon2_time_cost": 1,
    "argon2_memory_kib": 64,
    "limits": Limits(moves_per_second=10_000, challenges_per_minute=10_000),
}
"""Cheap password hashing for tests (the site's default costs ~0.1 s a hash), and limits
that games played as fast as a test plays them do not reach (tests/online/test_limits.py
tests the limits)."""
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
        from emergo.online.db import Database

        url = cluster.create_database("emergo_template")
        db = Database(url)
        db.migrate()
        db.close()
        yield cluster
    finally:
        cluster.stop()


def pg_database(cluster: Cluster) -> str:
    return cluster.create_database(f"t{uuid.uuid4().hex[:12]}", template="emergo_template")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, migrated database: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'online.sqlite3'}"
    cluster: Cluster = request.getfixturevalue("pg")
    return pg_database(cluster)


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

    from emergo.web.online_app import create_online_app

    with TestClient(create_online_app(site), base_url=HOST) as c:
        yield c


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
    from tests.online.pg import free_port

    from emergo.web.online_app import create_online_app

    port = free_port()
    config = uvicorn.Config(
        create_online_app(site),
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
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def players(site: Site, client: Any) -> tuple[Any, Any]:
    """Ann and Bob, each with a token, on the in-process client."""
    from tests.online.helpers import Player

    _a, ann = account(site, "ann")
    _b, bob = account(site, "bob")
    return Player(client, "ann", ann), Player(client, "bob", bob)
