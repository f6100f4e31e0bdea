"""Behind a proxy (``trust_proxy``), a client's address comes from ``X-Forwarded-For`` only
when the connection comes from one of ``[server] proxies`` (issue 27, finding 11: a process
reached directly took any header, so each request could claim an address of its own and pass
the per-address limits).  Seen through the per-address log-in limit of a real
``emergo serve --public`` process."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugins.servers import Server, httpx

pytestmark = pytest.mark.system


def _server(tmp_path: Path, proxies: str) -> Server:
    config = tmp_path / "emergo.toml"
    config.write_text(
        "[server]\ntrust_proxy = true\n"
        f"proxies = {proxies}\n"
        "[limits]\nlogin_per_minute = 1\n"
        "[accounts]\nargon2_time_cost = 1\nargon2_memory_kib = 8\n"
    )
    return Server(f"sqlite:///{tmp_path / 'site.sqlite3'}", tmp_path / "server.log", config)


def _log_in(base: str, name: str, forwarded: str) -> int:
    """A wrong log-in as a new name (the per-name limit never counts), as sent from
    ``forwarded``: the answer's status (401 wrong password, 429 the address's limit)."""
    with httpx.Client(base_url=base) as client:
        client.get("/login")
        csrf = client.cookies.get("emergo_csrf")
        r = client.post(
            "/login",
            data={"username": name, "password": "not the password", "csrf": csrf},
            headers={"Origin": base, "X-Forwarded-For": forwarded},
        )
        return r.status_code


@pytest.mark.parametrize(
    ("proxies", "trusted"),
    [('["127.0.0.1", "::1"]', True), ('["10.9.9.9"]', False)],
    ids=["from-the-proxy", "reached-directly"],
)
def test_the_forwarded_address_is_taken_from_the_proxies_alone(
    tmp_path: Path, proxies: str, trusted: bool
) -> None:
    server = _server(tmp_path, proxies)
    try:
        assert _log_in(server.base, "anna", "192.0.2.1") == 401
        # another forwarded address: its own count when the header is believed, else the
        # connection's address (loopback), whose one try a minute is spent
        assert _log_in(server.base, "berta", "192.0.2.2") == (401 if trusted else 429)
    finally:
        server.stop()
    assert "Traceback" not in server.log.read_text()


def test_the_proxies_setting_is_read_and_checked() -> None:
    from emergo.server.core.config import ConfigError, from_mapping

    assert from_mapping({"server": {}}).proxies == ("127.0.0.1", "::1")
    given = from_mapping({"server": {"proxies": ["10.0.0.0/8"]}})
    assert given.proxies == ("10.0.0.0/8",)
    for bad in (["*"], [""], [1], "10.0.0.1"):
        with pytest.raises(ConfigError, match="proxies"):
            from_mapping({"server": {"proxies": bad}})
