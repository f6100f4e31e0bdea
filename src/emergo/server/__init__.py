"""The one server: the site in local mode (``emergo serve``) and in public mode (a deployment),
arranged by what players do, as lichess's lila (docs/architecture.md, "The server").

Each module holds its domain code and, beside it, its thin edges: ``http`` (the HTTP API),
``socket`` (WebSockets) and ``pages`` (server-rendered HTML); only the edges import Starlette.
:mod:`~emergo.server.core` is the infrastructure (config, database and migrations, bus, guard,
frame, sockets); :mod:`~emergo.server.site` puts the services of one process together,
:mod:`~emergo.server.routes` lists every route, :mod:`~emergo.server.app` is the ASGI
application and :mod:`~emergo.server.serve` runs it.
"""
