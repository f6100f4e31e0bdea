"""The opening explorer (issue 29; lila-openingexplorer): for a position, each move played from
it with how the games went on (White's wins, draws, Black's wins), the movers' average rating,
and the top and recent games, from the site's archive and from the engine's own games.

Positions are merged across move orders and the board's symmetries (:mod:`emergo.symmetry`).
:mod:`~emergo.server.explorer.index` is what a game counts (pure), :mod:`~emergo.server.
explorer.service` the store, kept up to date in the transaction that ends a game,
:mod:`~emergo.server.explorer.selfplay` the engine's games, :mod:`~emergo.server.explorer.http`
``GET /api/explorer`` (docs/explorer.md).
"""
