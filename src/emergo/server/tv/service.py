"""The game on TV: of the live games in progress between two players (no hot-seat game, no
correspondence), the one whose players' ratings for its kind add up highest; the one moved
last among equals. No state of its own: every page asks again and switches when it changes."""

from __future__ import annotations

from typing import Any

from emergo.server.core.db import now
from emergo.server.round.service import GameView
from emergo.server.watch.service import MAX_LIVE, live_games


def perf_of(game: GameView) -> str:
    return f"{game.variant}-{'live' if game.speed == 'live' else 'correspondence'}"


def best_game(site: Any, t: float | None = None) -> tuple[GameView, dict[str, int]] | None:
    """The game on TV and its players' ratings (``{"white": 1600, "black": 1540}``), or None
    when no live game is being played. ``site``: the :class:`emergo.server.site.Site`."""
    t = now() if t is None else t
    games = [
        g for g in live_games(site.db, MAX_LIVE, "live") if not g.seats.hotseat and g.seats.white
    ]
    if not games:
        return None
    wanted = [(name, perf_of(g)) for g in games for name in (g.seats.white, g.seats.black)]
    shown = site.ratings.shown(iter(wanted), t)

    def rating(name: str, key: str) -> int:
        found = shown.get((name.lower(), key))
        return int(found[0]) if found is not None else 1500

    best = max(
        games,
        key=lambda g: (
            rating(g.seats.white, perf_of(g)) + rating(g.seats.black, perf_of(g)),
            g.updated,
        ),
    )
    key = perf_of(best)
    return best, {"white": rating(best.seats.white, key), "black": rating(best.seats.black, key)}
