"""The OpenAPI description covers every HTTP API route, and only those; body size limits."""

from __future__ import annotations

import re

from starlette.routing import Route

from emergo.server.app import ROUTES
from emergo.server.openapi import describe


def _api_routes() -> set[tuple[str, str]]:
    found = set()
    for route in ROUTES:
        if not isinstance(route, Route):
            continue
        path = route.path
        if not (path.startswith("/api/") or path.startswith("/game/export")):
            continue
        if path == "/api/openapi.json" or path == "/api/health" or "tokens" in path:
            continue  # the description itself; tokens are the signed-in account page's
        for method in route.methods or ():
            if method == "HEAD":
                continue
            found.add((method.lower(), path))
    return found


def _described() -> set[tuple[str, str]]:
    out = set()
    for path, ops in describe()["paths"].items():
        for method in ops:
            out.add((method, path))
    return out


def _matches(template: str, concrete: str) -> bool:
    escaped = re.escape(template).replace(r"\{", "{").replace(r"\}", "}")
    pattern = re.sub(r"\{[^}]+\}", "[^/]+", escaped)
    return re.fullmatch(pattern, concrete) is not None


def test_every_api_route_is_described():
    described = _described()
    for method, path in _api_routes():
        assert any(m == method and _matches(path, p) for m, p in described), (method, path)
    for method, path in described:
        assert any(m == method and _matches(r, path) for m, r in _api_routes()), (method, path)


def test_a_body_too_large_is_refused(client, players):
    ann, _bob = players
    r = ann.post("/api/challenge/bob", content=b"x" * (64 * 1024 + 1))
    assert r.status_code == 413
    r = client.post("/signup", content=b"a=" + b"x" * 70000)
    assert r.status_code == 413
