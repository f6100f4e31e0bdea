"""The server's shape (docs/architecture.md, "The server"): no import cycle between its modules,
and every module either an edge (HTTP, sockets, pages and the infrastructure they share) or named
in pyproject's contracts of the domain (which import no web framework and no edge)."""

from __future__ import annotations

import tomllib

import pytest

from tests.plugins.common import ROOT

grimp = pytest.importorskip("grimp")

EDGES = {"http", "socket", "pages"}
"""A module's edges, by name."""
EDGE_INFRASTRUCTURE = {
    "emergo.server.app",
    "emergo.server.routes",
    "emergo.server.serve",
    "emergo.server.options",
    "emergo.server.openapi",
    "emergo.server.openapi.events",
    "emergo.server.openapi.players",
    "emergo.server.openapi.schema",
    "emergo.server.__main__",
    "emergo.server.core.auth",
    "emergo.server.core.guard",
    "emergo.server.core.frame",
    "emergo.server.core.sockets",
    "emergo.server.core.streams",
    "emergo.server.core.health",
    "emergo.server.core.inputs",
    "emergo.server.bots.rules",
    "emergo.server.user.local",
}
"""Edges that are not a module's http, socket or pages: the app, its route table, the command,
the frame and what every edge uses (who a request is from, the guard, the sockets' plumbing)."""


def _graph() -> object:
    return grimp.build_graph("emergo", include_external_packages=False)


def _domain() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    found = [c for c in contracts if c["name"].startswith("the server's domain modules import")]
    assert found, "pyproject.toml has no contract of the server's domain"
    return set(found[0]["source_modules"])


def test_no_import_cycle_between_the_modules_of_the_server() -> None:
    graph = _graph()
    modules = sorted(m for m in graph.modules if m.startswith("emergo.server."))  # type: ignore[attr-defined]
    edges = {
        m: {i for i in graph.find_modules_directly_imported_by(m) if i.startswith("emergo.server.")}  # type: ignore[attr-defined]
        for m in modules
    }
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in edges.get(m, ()):
            if n not in edges:
                continue
            if state.get(n) == 1:
                cycle = [*path[path.index(n) :], n] if n in path else [m, n]
                raise AssertionError("an import cycle: " + " -> ".join(cycle))
            if n not in state:
                visit(n, [*path, n])
        state[m] = 2

    for m in modules:
        if m not in state:
            visit(m, [m])


def test_every_module_of_the_server_is_an_edge_or_domain_named_in_the_contracts() -> None:
    domain = _domain()
    graph = _graph()
    unplaced = []
    for m in sorted(graph.modules):  # type: ignore[attr-defined]
        if not m.startswith("emergo.server.") or m in EDGE_INFRASTRUCTURE:
            continue
        if m.rsplit(".", 1)[-1] in EDGES or (m.count(".") == 2 and m in domain):
            continue
        is_package = (ROOT / "src" / (m.replace(".", "/")) / "__init__.py").exists()
        if is_package or m in domain:
            continue
        if any(m.startswith(d + ".") for d in domain):
            continue
        unplaced.append(m)
    assert not unplaced, (
        "modules neither an edge nor in the domain contracts of pyproject.toml: "
        + ", ".join(unplaced)
    )
