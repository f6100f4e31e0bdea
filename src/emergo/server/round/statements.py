"""The raw statements of the round's hot path (:meth:`emergo.server.round.service.Rounds.play`):
a move in one version-compared statement, its row of ``moves``, its events and its timer, as
the driver takes them (``Database.raw_write``: no SQLAlchemy compilation on the hot path)."""

from __future__ import annotations

CAS = (
    "UPDATE games SET state = %(state)s, version = %(version)s, updated = %(t)s "
    "WHERE id = %(id)s AND version = %(old)s"
)
UNANSWERED = " AND NOT EXISTS (SELECT 1 FROM conditionals WHERE game_id = %(id)s)"
"""A correspondence game's move on the hot path: only when no conditional move may answer it."""
CAS_UNANSWERED = CAS + UNANSWERED
MOVE = (
    "INSERT INTO moves (game_id, ply, text, white_left, black_left, at, version) "
    "VALUES (%(id)s, %(ply)s, %(text)s, %(wl)s, %(bl)s, %(t)s, %(version)s)"
)
EVENTS = (
    "INSERT INTO game_events (game_id, version, events, at) "
    "VALUES (%(id)s, %(version)s, %(events)s, %(t)s)"
)
TIMER = (
    "INSERT INTO timers (game_id, due) VALUES (%(id)s, %(due)s) "
    "ON CONFLICT (game_id) DO UPDATE SET due = excluded.due"
)
NO_TIMER = "DELETE FROM timers WHERE game_id = %(id)s"


def fast_pg(moved: bool, events: bool, due: bool, unanswered: bool = False) -> str:
    """The hot path's one statement on PostgreSQL: the version compared and set, the rows
    written only when it was (each part reads the updated row ``g``), the notification sent
    with it; a row back when it was written."""
    parts = [
        "g AS (UPDATE games SET state = %(state)s::json, version = %(version)s, updated = %(t)s "
        "WHERE id = %(id)s AND version = %(old)s"
        + (UNANSWERED if unanswered else "")
        + " RETURNING id)"
    ]
    if moved:
        parts.append(
            "mv AS (INSERT INTO moves (game_id, ply, text, white_left, black_left, at, version) "
            "SELECT id, %(ply)s, %(text)s, %(wl)s, %(bl)s, %(t)s, %(version)s FROM g)"
        )
    if events:
        parts.append(
            "ev AS (INSERT INTO game_events (game_id, version, events, at) "
            "SELECT id, %(version)s, %(events)s::json, %(t)s FROM g)"
        )
    if due:
        parts.append(
            "tm AS (INSERT INTO timers (game_id, due) SELECT id, %(due)s FROM g "
            "ON CONFLICT (game_id) DO UPDATE SET due = excluded.due)"
        )
    else:
        parts.append("tm AS (DELETE FROM timers WHERE game_id IN (SELECT id FROM g))")
    return "WITH " + ", ".join(parts) + " SELECT pg_notify(%(channel)s, %(note)s) FROM g"
