"""The online server (issue 19): accounts, challenges, the lobby, games on one authoritative
round, spectators and chat, for ``emergo serve --online`` (docs/online.md).

A package between the game flow (:mod:`emergo.round`, :mod:`emergo.clock`) and the interfaces
(:mod:`emergo.web`, :mod:`emergo.cli`).  Modules by what players do, as lichess's lila:

* :mod:`~emergo.online.config` -- the options and the TOML config file (standard library only);
* :mod:`~emergo.online.db` -- the database: engine, transactions, migrations, schema check;
  :mod:`~emergo.online.models` -- its tables;
* :mod:`~emergo.online.users` -- accounts, passwords (argon2), sessions;
  :mod:`~emergo.online.tokens` -- personal API tokens with scopes;
  :mod:`~emergo.online.limits` -- rate limits that hold across processes;
* :mod:`~emergo.online.challenges` -- direct challenges, open seeks (the lobby), invitation links;
* :mod:`~emergo.online.rounds` -- the service that plays a command on a game: a locked read,
  :func:`emergo.round.apply`, one transaction, then the bus;
* :mod:`~emergo.online.chat` -- the players' and spectators' rooms of a game;
* :mod:`~emergo.online.timers` -- loss on time, deadlines and housekeeping, swept by any process;
* :mod:`~emergo.online.presence` -- who is connected to which game, across processes;
* :mod:`~emergo.online.bus` -- events after commit: in process (SQLite) or PostgreSQL
  LISTEN/NOTIFY;
* :mod:`~emergo.online.site` -- all of it put together for one server process.

Nothing here imports Starlette: the HTTP and WebSocket edges are in :mod:`emergo.web`
(``online_*`` modules).  It needs the ``online`` extra (argon2-cffi) and, for PostgreSQL, the
``postgres`` extra (psycopg 3).
"""
