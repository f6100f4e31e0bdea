"""Minimum-cost matching of a general graph (the arena's pairing and the Swiss checker).

A thin layer over rustworkx's blossom algorithm (Edmonds' primal-dual method, O(n³), in Rust):
among the matchings of maximum cardinality, the one of least total cost.  lila runs the same
algorithm (its ``WMMatching``, a port of van Rantwijk's); networkx has it too, but in pure
Python it takes 0.8 s for a group of 100 players where rustworkx takes 9 ms
(tools/bench_pairing.py, docs/tournaments.md).

>>> sorted(min_cost_matching(4, {(0, 1): 10, (2, 3): 10, (0, 2): 1, (1, 3): 1}))
[(0, 2), (1, 3)]
>>> min_cost_matching(3, {(0, 1): 5, (1, 2): 1})   # one edge at most: the cheaper
[(1, 2)]
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import rustworkx

EXTRA = "pip install 'emergo[tournament]'"


def missing() -> str | None:
    """The pairing library a site without the tournament extra lacks (its events need it: the
    site runs without it and says so when one is made), or None."""
    for module in ("rustworkx", "py4swiss"):
        try:
            importlib.import_module(module)
        except ImportError:
            return module
    return None


def min_cost_matching(nodes: int, costs: Mapping[tuple[int, int], int]) -> list[tuple[int, int]]:
    """The pairs ``(i, j)``, ``i < j``, of a maximum-cardinality matching of least total cost.

    ``nodes`` vertices numbered from 0; ``costs`` the allowed edges and their costs (integers
    >= 0); an edge not in ``costs`` is forbidden.  The pairs come sorted.
    """
    import rustworkx  # the tournament extra's (missing())

    if not costs:
        return []
    top = max(costs.values()) + 1
    graph: rustworkx.PyGraph[int, int] = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(nodes))
    # maximum weight among maximum-cardinality matchings = minimum cost among them
    graph.add_edges_from([(i, j, top - cost) for (i, j), cost in costs.items()])
    mates = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=_weight)
    return sorted((min(i, j), max(i, j)) for i, j in mates)


def _weight(weight: int) -> int:
    return weight
