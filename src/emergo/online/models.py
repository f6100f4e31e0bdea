"""The online site's tables (SQLAlchemy Core), the same for SQLite and PostgreSQL.

The migrations in ``emergo/online/migrations/versions`` build exactly these tables; a test
compares the two (tests/online/test_db.py).  Every time is a float of seconds since the epoch
(the round's clocks are such timestamps too), every game and challenge id 8 letters and digits
(unguessable: an invitation link is its challenge's id).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(30), nullable=True),
    # the name as shown; None once the account is deleted (its games stay, anonymised)
    Column("name_key", String(80), nullable=False, unique=True),
    # the name in lower case, which no one else may take; a deleted account keeps a hash of it
    Column("password_hash", Text, nullable=True),
    Column("created", Double, nullable=False),
    Column("disabled", Boolean, nullable=False, default=False),
    Column("deleted", Boolean, nullable=False, default=False),
    Column("bot", Boolean, nullable=False, default=False),  # issue 20: bot accounts
)

sessions = Table(
    "sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the cookie's value
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("csrf", String(64), nullable=False),
    Column("created", Double, nullable=False),
    Column("expires", Double, nullable=False),
)

tokens = Table(
    "tokens",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("hash", String(64), nullable=False, unique=True),  # SHA-256 of the token
    Column("hint", String(12), nullable=False),  # the token's first characters, to tell them apart
    Column("description", String(100), nullable=False, default=""),
    Column("scopes", String(200), nullable=False),  # space-separated
    Column("created", Double, nullable=False),
    Column("last_used", Double, nullable=True),
)

rate_limits = Table(
    "rate_limits",
    metadata,
    Column("key", String(200), primary_key=True),
    Column("window", Double, nullable=False),
    Column("count", Integer, nullable=False),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", String(8), primary_key=True),
    Column("challenger_id", ForeignKey("users.id"), nullable=False, index=True),
    Column("dest_id", ForeignKey("users.id"), nullable=True, index=True),
    Column("kind", String(8), nullable=False),  # direct, seek (the lobby), link (a friend)
    Column("variant", String(8), nullable=False),
    Column("clock_limit", Double, nullable=True),
    Column("clock_increment", Double, nullable=True),
    Column("days", Integer, nullable=True),
    Column("rated", Boolean, nullable=False, default=False),
    Column("color", String(6), nullable=False),  # white, black, random: the challenger's
    Column("status", String(10), nullable=False, index=True),
    # created, accepted, declined, canceled, expired
    Column("decline_reason", String(40), nullable=True),
    Column("game_id", String(8), nullable=True),
    Column("created", Double, nullable=False),
    Column("expires", Double, nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", String(8), primary_key=True),
    Column("white_id", ForeignKey("users.id"), nullable=False, index=True),
    Column("black_id", ForeignKey("users.id"), nullable=False, index=True),
    Column("variant", String(8), nullable=False),
    Column("speed", String(16), nullable=False),  # live, correspondence (emergo.clock.speed_of)
    Column("time_control", String(24), nullable=True),  # the clock's tag; None: unlimited
    Column("rated", Boolean, nullable=False, default=False),
    Column("state", JSON, nullable=False),  # emergo.round.RoundState.to_json(): the authority
    Column("version", Integer, nullable=False),
    Column("status", String(10), nullable=False, index=True),  # started, over
    Column("result", String(8), nullable=False, default="*"),
    Column("termination", String(20), nullable=True),
    Column("turn_id", ForeignKey("users.id"), nullable=True, index=True),
    # whose move it is (the "your turn" list); None when the game is over
    Column("player_chat", Boolean, nullable=False, default=True),
    # the players' room is open; either player may close it
    Column("challenge_id", String(8), nullable=True),
    Column("created", Double, nullable=False),
    Column("updated", Double, nullable=False),
)

moves = Table(
    "moves",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("text", String(200), nullable=False),  # canonical R21 text
    Column("white_left", Double, nullable=True),  # the clocks just after it
    Column("black_left", Double, nullable=True),
    Column("at", Double, nullable=False),
)

game_events = Table(
    "game_events",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("events", JSON, nullable=False),  # the round's events of that version, as JSON
    Column("at", Double, nullable=False),
)

timers = Table(
    "timers",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("due", Double, nullable=False, index=True),  # emergo.round.due(state)
)

chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("room", String(10), nullable=False),  # player, spectator
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("text", String(140), nullable=False),
    Column("at", Double, nullable=False),
    Column("removed", Boolean, nullable=False, default=False),
    Index("ix_chat_game_id", "game_id", "id"),
)

user_events = Table(
    "user_events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("data", JSON, nullable=False),  # one line of /api/stream/event
    Column("at", Double, nullable=False, index=True),
    Index("ix_user_events_user_id", "user_id", "id"),
)

presence = Table(
    "presence",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("seen", Double, nullable=False),
    # the last heartbeat of a connection of theirs to the game, from any process (or their move)
)

processes = Table(
    "processes",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("started", Double, nullable=False),
    Column("seen", Double, nullable=False),  # its heartbeat: the restart rule measures downtime
)

crowds = Table(
    "crowds",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("process_id", String(32), primary_key=True),
    Column("count", Integer, nullable=False),  # the spectators of the game on that process
    Column("seen", Double, nullable=False),
)
