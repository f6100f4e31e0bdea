"""What a client's address counts as for the per-address limits (emergo.server.core.limits)."""

from __future__ import annotations

from emergo.server.core.limits import address_key


def test_addresses_count_as_their_client() -> None:
    assert address_key("192.0.2.1") == "192.0.2.1"
    assert address_key("::ffff:192.0.2.1") == "192.0.2.1"
    assert address_key("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert address_key("2001:DB8:1:2::9") == "2001:db8:1:2::/64"
    assert address_key("::1") == "::/64"
    assert address_key("testclient") == "testclient"
    assert address_key("x" * 300) == "x" * 64
