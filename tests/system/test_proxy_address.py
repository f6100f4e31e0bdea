"""Behind a proxy (``trust_proxy``), a client's address comes from ``X-Forwarded-For`` only
when the connection comes from one of ``[server] proxies`` (issue 27, finding 11: a process
reached directly took any header, so each request could claim an address of its own and pass
the per-address limits).  Seen through the per-address log-in limit of a real
``emergo serve --public`` process."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.plugins.game_helpers import run_async
from tests.plugins.servers import Server, httpx

pytestmark = pytest.mark.system


def _server(tmp_path: Path, proxies: str) -> Server:
    tmp_path.mkdir(exist_ok=True)
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


def _log_ins(tmp_path: Path, proxies: str, *tries: tuple[str, str]) -> list[int]:
    """The statuses of these log-ins (a name, the forwarded address) on a new server, all sent
    in one of the limit's minutes.  Its windows are fixed minutes: two tries on either side of
    a minute's turn are each the first of theirs (a CI run's 401 for a 429), so a run that
    spans a turn is made again on a server of its own (two in a row would take a minute)."""
    for attempt in range(3):
        server = _server(tmp_path / str(attempt), proxies)
        try:
            start = time.time()
            statuses = [_log_in(server.base, name, forwarded) for name, forwarded in tries]
            end = time.time()
        finally:
            server.stop()
        assert "Traceback" not in server.log.read_text()
        if start // 60 == end // 60:  # the server read the time between the two
            return statuses
    raise AssertionError("three runs of log-ins each spanned a minute's turn")


@pytest.mark.parametrize(
    ("proxies", "trusted"),
    [('["127.0.0.1", "::1"]', True), ('["10.9.9.9"]', False)],
    ids=["from-the-proxy", "reached-directly"],
)
def test_the_forwarded_address_is_taken_from_the_proxies_alone(
    tmp_path: Path, proxies: str, trusted: bool
) -> None:
    # another forwarded address: its own count when the header is believed, else the
    # connection's address (loopback), whose one try a minute is spent
    statuses = _log_ins(tmp_path, proxies, ("anna", "192.0.2.1"), ("berta", "192.0.2.2"))
    assert statuses == [401, 401 if trusted else 429]


def test_the_proxies_setting_is_read_and_checked() -> None:
    from emergo.server.core.config import ConfigError, from_mapping

    assert from_mapping({"server": {}}).proxies == ("127.0.0.1", "::1")
    given = from_mapping({"server": {"proxies": ["10.0.0.0/8"]}})
    assert given.proxies == ("10.0.0.0/8",)
    for bad in (["*"], [""], [1], "10.0.0.1"):
        with pytest.raises(ConfigError, match="proxies"):
            from_mapping({"server": {"proxies": bad}})


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ("localhost", "'localhost' is neither"),  # a name: uvicorn matched it with no connection
        ("10.0.0.1/8", "the network is 10.0.0.0/8"),  # host bits set: taken for a name too
        ("300.1.2.3", "is neither"),
        (7, "not 7"),
    ],
)
def test_a_proxy_that_is_no_address_is_a_clear_error(bad: object, says: str) -> None:
    """Before, any text was a proxy: uvicorn took it for a name no connection has, so behind
    the real proxy every client counted as its one address (one client's ten tries a minute
    locked everyone out of logging in)."""
    from emergo.server.core.config import ConfigError, from_mapping

    with pytest.raises(ConfigError, match=says):
        from_mapping({"server": {"proxies": ["127.0.0.1", bad]}})


def test_a_bad_proxy_stops_the_start_with_its_reason(tmp_path: Path) -> None:
    import subprocess
    import sys

    config = tmp_path / "emergo.toml"
    config.write_text('[server]\ntrust_proxy = true\nproxies = ["nginx.local"]\n')
    done = subprocess.run(
        [
            *(sys.executable, "-m", "emergo", "serve", "--online", "--no-browser"),
            *("--db", f"sqlite:///{tmp_path / 's.sqlite3'}", "--config", str(config)),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "nginx.local" in done.stderr and "Traceback" not in done.stderr


def _forwarded(proxies: tuple[str, ...], peer: str, *headers: bytes) -> str:
    """The client address the site sees through uvicorn's middleware as ``emergo serve`` sets
    it up, for a connection from ``peer`` with these ``X-Forwarded-For`` headers."""

    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    from emergo.server.core.config import trusted_proxies

    seen: list[str] = []

    async def app(scope: dict, receive: object, send: object) -> None:
        seen.append(scope["client"][0])

    middleware = ProxyHeadersMiddleware(app, trusted_proxies(proxies))  # type: ignore[arg-type]
    scope = {
        "type": "http",
        "client": (peer, 40000),
        "headers": [(b"x-forwarded-for", h) for h in headers],
    }
    run_async(lambda: middleware(scope, None, None))  # type: ignore[arg-type]
    return seen[0]


def test_spoofed_hops_and_headers_give_the_client_the_proxy_saw() -> None:
    """What a client adds to the header before the proxy appends its address is passed over
    (the nearest address that is no proxy counts), in one header or several; a connection
    from elsewhere keeps its own address whatever it sends."""
    proxies = ("127.0.0.1", "10.0.0.0/8")
    loop = "127.0.0.1"
    assert _forwarded(proxies, loop, b"192.0.2.7") == "192.0.2.7"
    assert _forwarded(proxies, loop, b"203.0.113.1, 192.0.2.7") == "192.0.2.7"
    assert _forwarded(proxies, loop, b"203.0.113.1", b"192.0.2.7") == "192.0.2.7"
    assert _forwarded(proxies, loop, b"203.0.113.1, 192.0.2.7, 10.1.2.3") == "192.0.2.7"
    assert _forwarded(proxies, "198.51.100.9", b"192.0.2.7") == "198.51.100.9"
    assert _forwarded(proxies, "::ffff:198.51.100.9", b"192.0.2.7") == "::ffff:198.51.100.9"


def test_an_ipv4_proxy_seen_mapped_into_ipv6_is_the_proxy() -> None:
    """A socket listening on both families sees the IPv4 proxy as ``::ffff:127.0.0.1``: before,
    that was no proxy (uvicorn matches the literal forms), every client the proxy's address."""
    assert _forwarded(("127.0.0.1",), "::ffff:127.0.0.1", b"192.0.2.7") == "192.0.2.7"
    assert _forwarded(("10.0.0.0/8",), "::ffff:10.9.8.7", b"192.0.2.7") == "192.0.2.7"
    assert _forwarded(("10.0.0.0/8",), "::ffff:11.0.0.1", b"192.0.2.7") == "::ffff:11.0.0.1"


@pytest.mark.parametrize(
    ("first", "second"),
    [("2001:db8:1:2::1", "2001:db8:1:2:ffff::9"), ("::ffff:192.0.2.1", "192.0.2.1")],
    ids=["one-ipv6-network", "ipv4-mapped"],
)
def test_one_client_under_two_of_its_addresses_is_counted_once(
    tmp_path: Path, first: str, second: str
) -> None:
    """An IPv6 client counts as its /64 (any of whose 2**64 addresses it may take: before, each
    was a limit of its own), an IPv4 one written mapped into IPv6 as the IPv4 one."""
    tries = (("anna", first), ("berta", second), ("carla", "2001:db8:1:3::1"))
    # the same client's one try a minute spent by its first address; another network's own
    assert _log_ins(tmp_path, '["127.0.0.1", "::1"]', *tries) == [401, 429, 401]
