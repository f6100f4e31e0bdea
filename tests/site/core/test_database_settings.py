"""The ``[database]`` settings (pool and timeouts), the health check, and a database that does
not answer made a 503 with ``Retry-After`` rather than a 500 (issue 22; the real outages are in
test_faults.py)."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import exc

from emergo.server.core.config import ConfigError, DatabaseSettings, from_mapping
from emergo.server.core.db import Database, unavailable
from tests.plugins.site import HOST


def test_the_database_section_of_the_config():
    config = from_mapping(
        {"database": {"pool_size": 4, "max_overflow": 2, "statement_timeout": 2.5}}
    )
    assert config.database == DatabaseSettings(pool_size=4, max_overflow=2, statement_timeout=2.5)
    assert config.database.connections == 7  # the pool, its overflow and the bus
    for bad in (
        {"pool_size": 0},
        {"pool_size": "10"},
        {"statement_timeout": 0},
        {"statement_timeout": True},
        {"connect_timeout": 4000},
        {"pool": 3},
    ):
        with pytest.raises(ConfigError, match=r"\[database\]|database"):
            from_mapping({"database": bad})


def test_a_server_database_gets_the_pool_and_a_statement_timeout(pg):
    from tests.plugins.site import pg_database

    url = pg_database(pg)
    db = Database(url, DatabaseSettings(pool_size=3, max_overflow=1, statement_timeout=1.5))
    try:
        assert db.engine.pool.size() == 3  # type: ignore[attr-defined]
        with db.read() as c:
            assert c.exec_driver_sql("SHOW statement_timeout").scalar() == "1500ms"
            with pytest.raises(exc.OperationalError) as caught:
                c.exec_driver_sql("SELECT pg_sleep(3)")
        assert unavailable(caught.value)
    finally:
        db.close()
    admin = Database(url)  # emergo admin migrate: no statement timeout (a migration may be long)
    try:
        with admin.read() as c:
            assert c.exec_driver_sql("SHOW statement_timeout").scalar() == "0"
    finally:
        admin.close()


def test_what_counts_as_the_database_not_answering():
    lost = exc.OperationalError("SELECT 1", {}, Exception("server closed the connection"))
    assert unavailable(lost)
    assert unavailable(exc.TimeoutError("QueuePool limit reached"))
    assert not unavailable(exc.IntegrityError("INSERT", {}, Exception("duplicate key")))
    assert not unavailable(ValueError("a bad move"))


def test_health_and_a_503_when_the_database_does_not_answer(site, client, monkeypatch, caplog):
    r = client.get("/api/health")
    assert r.status_code == 200 and r.json() == {"ok": True, "db": True}
    assert r.headers["cache-control"] == "no-store"

    def away(*_args, **_kwargs):
        raise exc.OperationalError("SELECT 1", {}, Exception("connection refused"))

    monkeypatch.setattr(site.db, "ping", away)
    r = client.get("/api/health")
    assert r.status_code == 503 and r.json()["ok"] is False and r.json()["db"] is False
    assert int(r.headers["retry-after"]) > 0
    monkeypatch.setattr(site.rounds, "get", away)
    with caplog.at_level(logging.WARNING):
        r = client.get("/api/game/abcdefgh", headers={"host": HOST.split("//")[1]})
    assert r.status_code == 503, r.text
    assert r.json()["error"].startswith("the database is not answering")
    assert int(r.headers["retry-after"]) > 0
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize("driver", ["sqlite3", "psycopg"])
def test_a_drivers_own_error_is_a_503_without_a_traceback(
    site, client, monkeypatch, caplog, driver
):
    # the hot path's raw statements raise the driver's errors, not SQLAlchemy's (a PostgreSQL
    # restart: AdminShutdown): answered 503 as those, no traceback printed after the answer
    if driver == "psycopg":
        errors = pytest.importorskip("psycopg.errors")
        error: Exception = errors.AdminShutdown("terminating connection")
    else:
        import sqlite3

        error = sqlite3.OperationalError("database is locked")

    def away(*_args, **_kwargs):
        raise error

    monkeypatch.setattr(site.rounds, "get", away)
    with caplog.at_level(logging.WARNING):
        r = client.get("/api/game/abcdefgh", headers={"host": HOST.split("//")[1]})
    assert r.status_code == 503, r.text
    assert int(r.headers["retry-after"]) > 0
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR]


def test_a_request_without_an_answer_in_time_is_a_503(tmp_path, monkeypatch):
    """A database that hangs without refusing (frozen, packets dropped) is bounded by
    ``request_timeout``: 503 with Retry-After, not a hang."""
    import time

    pytest.importorskip("httpx2", reason="the web test extra (httpx2) is not installed")
    from starlette.testclient import TestClient

    from emergo.server.app import create_app
    from emergo.server.core.config import Config
    from emergo.server.site import Site
    from tests.plugins.site import FAST

    config = Config(
        db=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        database=DatabaseSettings(request_timeout=1.0),
        **FAST,
    )
    site = Site.open(config, migrate=True)
    try:
        with TestClient(create_app(site), base_url=HOST) as client:
            assert client.get("/api/game/abcdefgh").status_code == 404  # answers in time
            monkeypatch.setattr(site.rounds, "get", lambda *_a, **_k: time.sleep(3))
            started = time.monotonic()
            r = client.get("/api/game/abcdefgh")
            waited = time.monotonic() - started
            assert r.status_code == 503 and int(r.headers["retry-after"]) > 0, r.text
            assert "in time" in r.json()["error"] and waited < 2.5, waited
    finally:
        site.close()
