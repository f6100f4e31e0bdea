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

# --- issue 21: ratings, the archive, notices, vacation, conditional moves (docs/ratings.md) ---

perfs = Table(
    "perfs",
    metadata,
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("perf", String(24), primary_key=True),  # emergo.online.perfs: 9x9-live ...
    Column("rating", Double, nullable=False),
    Column("rd", Double, nullable=False),  # as of `latest`: it grows with the time since
    Column("volatility", Double, nullable=False),
    Column("games", Integer, nullable=False),
    Column("latest", Double, nullable=True),  # when the last rated game ended
    Index("ix_perfs_perf_rating", "perf", "rating"),  # the leaderboards
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("perf", String(24), nullable=False),
    Column("game_id", String(8), nullable=False),
    Column("at", Double, nullable=False),
    Column("rating", Double, nullable=False),  # after the game
    Column("rd", Double, nullable=False),
    Index("ix_rating_history_user", "user_id", "perf", "at"),
)

archive = Table(
    "archive",
    metadata,
    # one row a finished game, written in the transaction that ends it: the archive's search
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("white_id", ForeignKey("users.id"), nullable=False),
    Column("black_id", ForeignKey("users.id"), nullable=False),
    Column("variant", String(8), nullable=False),
    Column("speed", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("result", String(8), nullable=False),  # 1-0, 0-1, 1/2-1/2, * (aborted)
    Column("termination", String(20), nullable=False),
    Column("plies", Integer, nullable=False),
    Column("white_rating", Integer, nullable=True),  # before the game (rated games)
    Column("black_rating", Integer, nullable=True),
    Column("white_diff", Integer, nullable=True),  # what the game changed
    Column("black_diff", Integer, nullable=True),
    Column("ended", Double, nullable=False),
    Index("ix_archive_ended", "ended"),
    Index("ix_archive_variant_speed_ended", "variant", "speed", "ended"),
)

player_games = Table(
    "player_games",
    metadata,
    # a finished game from each player's side: profiles, a player's search, head-to-head
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("color", String(5), nullable=False),  # white, black
    Column("opponent_id", ForeignKey("users.id"), nullable=False),
    Column("variant", String(8), nullable=False),
    Column("speed", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("score", String(4), nullable=False),  # win, loss, draw, none (aborted)
    Column("ended", Double, nullable=False),
    Index("ix_player_games_user_ended", "user_id", "ended"),
    Index("ix_player_games_user_opponent", "user_id", "opponent_id", "ended"),
)

user_settings = Table(
    "user_settings",
    metadata,
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("email", String(254), nullable=True),
    Column("email_choice", String(8), nullable=False),  # off, digest, instant
    Column("digest_at", Double, nullable=True),  # when the last digest went
)

notifications = Table(
    "notifications",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(20), nullable=False),  # your-turn, time-running-out, game-over
    Column("game_id", String(8), nullable=False),
    Column("data", JSON, nullable=False),  # emergo.online.notify.Notice.to_json()
    Column("at", Double, nullable=False),
    Column("read", Boolean, nullable=False),
    Column("mail", String(8), nullable=False),  # none, pending, sent
    Index("ix_notifications_user", "user_id", "id"),
    Index("ix_notifications_mail", "mail", "user_id"),
)

vacations = Table(
    "vacations",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("started", Double, nullable=False),
    Column("ended", Double, nullable=True),  # None: going on until the days held run out
    Index("ix_vacations_user", "user_id", "started"),
)

conditionals = Table(
    "conditionals",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("tree", JSON, nullable=False),  # emergo.online.conditional.Conditional.to_json()
    Column("version", Integer, nullable=False),  # the game's version it was made for
)

alarms = Table(
    "alarms",
    metadata,
    # a correspondence player's "time is running out" (80 % of the move's time used)
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("due", Double, nullable=False, index=True),
    Column("deadline", Double, nullable=False),
)

credits = Table(
    "credits",
    metadata,
    # how far a correspondence game's vacation time was given back (emergo.online.vacation)
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("credited_until", Double, nullable=False),
)

# --- issue 20: bots on the server (emergo.online.bots) ---

bot_prefs = Table(
    "bot_prefs",
    metadata,
    # a person's answer to bots (lichess's challenge preference); no row: bots are welcome
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("accept_bots", Boolean, nullable=False),
)

house_bots = Table(
    "house_bots",
    metadata,
    # the site's own bot accounts, one an engine level ("play the computer")
    Column("level", Integer, primary_key=True, autoincrement=False),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False, unique=True),
)

leases = Table(
    "leases",
    metadata,
    # a job only one process does at a time (the house bots' supervisor): who, until when
    Column("name", String(40), primary_key=True),
    Column("holder", String(40), nullable=False),
    Column("expires", Double, nullable=False),
)
