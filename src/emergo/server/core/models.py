"""The site's tables (SQLAlchemy Core), the same for SQLite and PostgreSQL.

The migrations in ``emergo/server/core/migrations/versions`` build exactly these tables; a test
compares the two (tests/site/core/test_db.py).  Every time is a float of seconds since the epoch
(the round's clocks are such timestamps too), every game and challenge id 8 letters and digits
(unguessable: an invitation link is its challenge's id).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
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
    # the board's look and feel kept for the account (emergo.server.user.preferences)
    Column("preferences", JSON, nullable=True),
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

login_clients = Table(
    "login_clients",
    metadata,
    # the clients an account logged in from (a hash of the address): emergo.server.user.logins
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("client", String(64), primary_key=True),
    Column("seen", Double, nullable=False),
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
    Column("position", Text, nullable=True),  # a game from this position (R22); None: the start
    Column("start", String(16), nullable=True),
    # a fair start the server draws (emergo.server.challenge.starts): ballot, swap-N; None: none
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
    Column("turn_id", ForeignKey("users.id"), nullable=True),
    # no longer written (migration 0010: an indexed column changing each move made every update
    # of the row a full one); kept, empty, because SQLite cannot drop it without rebuilding games
    Column("player_chat", Boolean, nullable=False, default=True),
    # the players' room is open; either player may close it
    Column("challenge_id", String(8), nullable=True),
    # tags a record of the game carries beside the site's (an imported game's players' names)
    Column("tags", JSON, nullable=True),
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
    # the game's version it made (its event is derived from this row: no game_events row for a
    # version that is a move alone); None for the moves an imported game began with
    Column("version", Integer, nullable=True),
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
    # a line is a game's or an event's (issue 30), never both
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), nullable=True),
    Column(
        "tournament_id",
        ForeignKey("tournaments.id", ondelete="CASCADE", name="fk_chat_tournament_id"),
        nullable=True,
    ),
    Column("room", String(10), nullable=False),  # player, spectator; event
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("text", String(140), nullable=False),
    Column("at", Double, nullable=False),
    Column("removed", Boolean, nullable=False, default=False),
    Index("ix_chat_game_id", "game_id", "id"),
    Index("ix_chat_tournament_id", "tournament_id", "id"),
    CheckConstraint("(game_id IS NULL) <> (tournament_id IS NULL)", name="ck_chat_one_owner"),
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
    Column("stopped", Double, nullable=True),  # when it stopped cleanly (None: running or killed)
)

crowds = Table(
    "crowds",
    metadata,
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("process_id", String(32), primary_key=True),
    Column("count", Integer, nullable=False),  # the spectators of the game on that process
    Column("seen", Double, nullable=False),
)


perfs = Table(
    "perfs",
    metadata,
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("perf", String(24), primary_key=True),  # emergo.server.user.perfs: 9x9-live ...
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
    Column("data", JSON, nullable=False),  # emergo.server.notify.letters.Notice.to_json()
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
    Column(
        "tree", JSON, nullable=False
    ),  # emergo.server.correspondence.conditional.Conditional.to_json()
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
    # how far a correspondence game's vacation time was given back
    # (emergo.server.correspondence.vacation)
    Column("game_id", ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("credited_until", Double, nullable=False),
)


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

studies = Table(
    "studies",
    metadata,
    # an account's study (emergo.server.study): chapters of annotated lines, shared by address
    Column("id", String(8), primary_key=True),
    Column("owner_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("name", String(200), nullable=False),
    Column("visibility", String(10), nullable=False),  # private, unlisted, public
    Column("created", Double, nullable=False),
    Column("updated", Double, nullable=False),
)

chapters = Table(
    "chapters",
    metadata,
    # one chapter of a study: its record (docs/records.md), a tree of variations with comments
    Column("id", String(8), primary_key=True),
    Column("study_id", ForeignKey("studies.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("place", Integer, nullable=False),  # the chapters' order in the study
    Column("name", String(200), nullable=False),
    Column("variant", String(8), nullable=False),
    Column("record", Text, nullable=False),
    Column("nodes", Integer, nullable=False),
    Column("updated", Double, nullable=False),
)

imports = Table(
    "imports",
    metadata,
    # what was brought over once from an older store (the local app's emergo.sqlite3)
    Column("source", String(400), primary_key=True),
    Column("at", Double, nullable=False),
    Column("summary", JSON, nullable=False),
)

learn_progress = Table(
    "learn_progress",
    metadata,
    # a player's stars in the levels of /learn (emergo.server.learn.progress): the best kept
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("level", String(80), primary_key=True),  # the course's id: stage/level
    Column("stars", Integer, nullable=False),  # 1 to 3
    Column("updated", Double, nullable=False),
)

relations = Table(
    "relations",
    metadata,
    # a player follows or blocks another (emergo.server.relation); migration 0008
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("other_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("kind", String(8), primary_key=True),  # follow, block
    Column("created", Double, nullable=False),
    Index("ix_relations_other", "other_id", "kind"),
)

reports = Table(
    "reports",
    metadata,
    # a player or one of his chat lines reported to the moderators (emergo.server.report)
    Column("id", Integer, primary_key=True),
    Column("reporter_id", ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("target_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("reason", String(20), nullable=False),  # emergo.server.report.service.REASONS
    Column("text", Text, nullable=False),  # the reporter's words
    Column("game_id", String(8), nullable=True),
    Column("line_id", Integer, nullable=True),  # a chat line reported: its id and its text then
    Column("line_text", Text, nullable=True),
    Column("created", Double, nullable=False),
    Column("status", String(8), nullable=False),  # open, closed
    Index("ix_reports_status", "status", "id"),
)

moderation_log = Table(
    "moderation_log",
    metadata,
    # every moderator's action: warn, mute, unmute, disable, enable, dismiss
    Column("id", Integer, primary_key=True),
    Column("at", Double, nullable=False),
    Column("moderator", String(40), nullable=False),
    Column("target_id", ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
    Column("action", String(10), nullable=False),
    Column("report_id", Integer, nullable=True),
    Column("note", Text, nullable=False),
)

chat_mutes = Table(
    "chat_mutes",
    metadata,
    # the players the moderators muted in chat
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("since", Double, nullable=False),
)

online = Table(
    "online",
    metadata,
    # when a signed-in player's pages last said he was there (emergo.server.relation.online)
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("seen", Double, nullable=False, index=True),
)

# --- issue 30: tournaments (emergo.server.tournament.service, docs/tournaments.md) -------------

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(8), primary_key=True),
    Column("kind", String(8), nullable=False),  # arena, swiss, robin, match
    Column("name", String(80), nullable=False),
    Column("created_by", ForeignKey("users.id"), nullable=True, index=True),
    # None: the site's (the admin's command or the config's schedule)
    Column("variant", String(8), nullable=False),
    Column("clock_limit", Double, nullable=True),  # a live clock; or days a move
    Column("clock_increment", Double, nullable=True),
    Column("days", Integer, nullable=True),
    Column("rated", Boolean, nullable=False),
    Column("status", String(10), nullable=False, index=True),  # created, started, finished
    Column("starts_at", Double, nullable=False),
    Column("ends_at", Double, nullable=True),  # an arena's end; else when it finished
    Column("rounds", Integer, nullable=True),  # Swiss, round robin, match: rounds planned
    Column("round", Integer, nullable=False, default=0),  # the round paired last
    Column("round_due", Double, nullable=True),  # when the next round is paired
    Column("settings", JSON, nullable=False),
    # the event's options: the fair start of its games, berserk, streaks, the round interval,
    # a round robin's schedule, the entry conditions (emergo.server.tournament.service.Settings)
    Column("schedule_key", String(60), nullable=True, unique=True),
    # an event made by the config's schedule: its slot (no two processes make it twice)
    Column("created", Double, nullable=False),
)

tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("rating", Integer, nullable=False),  # when they joined: a Swiss's seed
    Column("joined", Double, nullable=False),
    Column("joined_round", Integer, nullable=False),  # the first round they could be paired in
    Column("status", String(10), nullable=False),  # active, paused, withdrawn
    Column("waiting", Double, nullable=True),  # an arena's lobby: since when (None: not there)
    Column("playing", String(8), nullable=True),  # the event's game they are in now
    Column("rank", Integer, nullable=True),  # once the event finished: their place
    Column("score", Double, nullable=True),  # and their score (an arena's points, else points)
    Index("ix_tournament_players_user", "user_id"),
)

tournament_games = Table(
    "tournament_games",
    metadata,
    # a pairing of the event, stored in the pass that made it; its result in the transaction
    # that ended its game
    Column("id", Integer, primary_key=True),
    Column("tournament_id", ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
    Column("round", Integer, nullable=False),  # an arena's: 0
    Column("board", Integer, nullable=False),
    Column("white_id", ForeignKey("users.id"), nullable=False),
    Column("black_id", ForeignKey("users.id"), nullable=False),
    Column("game_id", String(8), nullable=True, unique=True),  # None: a forfeit never played
    Column("opening", String(12), nullable=True),  # a ballot's id
    Column("status", String(10), nullable=False),  # playing, over, aborted
    Column("result", String(8), nullable=False),  # 1-0, 0-1, 1/2-1/2, * (playing, aborted)
    Column("forfeit", Boolean, nullable=False),  # the loser never played (a no-show)
    Column("movement_plies", Integer, nullable=False),
    Column("berserk_white", Boolean, nullable=False),
    Column("berserk_black", Boolean, nullable=False),
    Column("white_rating", Integer, nullable=False),
    Column("black_rating", Integer, nullable=False),
    Column("created", Double, nullable=False),
    Column("ended", Double, nullable=True),
    Index("ix_tournament_games_event", "tournament_id", "round", "board"),
    Index("ix_tournament_games_white", "white_id"),
    Index("ix_tournament_games_black", "black_id"),
)

tournament_byes = Table(
    "tournament_byes",
    metadata,
    # a Swiss round's pairing-allocated bye (a round robin's: its odd player out)
    Column("tournament_id", ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("round", Integer, primary_key=True, autoincrement=False),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
)

tournament_timers = Table(
    "tournament_timers",
    metadata,
    # when an event needs its director next: its start, a pairing pass, a round, its end
    Column("tournament_id", ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("due", Double, nullable=False, index=True),
)

# --- issue 29: puzzles (emergo.server.puzzle.service, docs/training.md) ----------------------

puzzles = Table(
    "puzzles",
    metadata,
    # a puzzle of the site: the shipped set's (emergo.puzzles) or an imported file's
    Column("id", String(8), primary_key=True),  # emergo.puzzles.puzzle_id: 6 letters and digits
    Column("variant", String(8), nullable=False),
    Column("position", Text, nullable=False),  # R22: what the solver faces
    Column("solution", Text, nullable=False),  # R21 texts, space-separated, solver first
    Column("themes", String(400), nullable=False),  # comma-separated, emergo.puzzles.THEMES
    Column("rating", Double, nullable=False),  # Glicko-2, from the generator's estimate
    Column("rd", Double, nullable=False),
    Column("volatility", Double, nullable=False),
    Column("plays", Integer, nullable=False),
    Column("gain", Integer, nullable=False),
    Column("proof", String(8), nullable=False),
    Column("source", String(120), nullable=False),  # selfplay:... or record:GAME
    Column("initial_ply", Integer, nullable=False),
    Column("game", Text, nullable=False),  # the game's moves up to the position, space-separated
    Column("start", Text, nullable=True),  # the game's start when not the variant's
    Column("imported", Double, nullable=False),
    Index("ix_puzzles_variant_rating", "variant", "rating"),
)

puzzle_imports = Table(
    "puzzle_imports",
    metadata,
    # the puzzle files a site has imported (the shipped set's at first start): by content
    Column("digest", String(64), primary_key=True),  # sha256 of the file's bytes
    Column("name", String(200), nullable=False),
    Column("puzzles", Integer, nullable=False),
    Column("added", Integer, nullable=False),
    Column("at", Double, nullable=False),
)

puzzle_rounds = Table(
    "puzzle_rounds",
    metadata,
    # a player's attempts at a puzzle: the first one rated, the latest kept (replay)
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("puzzle_id", ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True),
    Column("win", Boolean, nullable=False),  # the first try's result (the rated one)
    Column("fixed", Boolean, nullable=False),  # failed first, solved on a later try
    Column("rating_diff", Integer, nullable=True),  # the player's change (None: not rated)
    Column("puzzle_rating", Integer, nullable=False),  # the puzzle's rating at the first try
    Column("tries", Integer, nullable=False),
    Column("created", Double, nullable=False),
    Column("updated", Double, nullable=False),
    Index("ix_puzzle_rounds_user_created", "user_id", "created"),
)

puzzle_perfs = Table(
    "puzzle_perfs",
    metadata,
    # a player's puzzle rating (Glicko-2, emergo.server.user.glicko2)
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("rating", Double, nullable=False),
    Column("rd", Double, nullable=False),
    Column("volatility", Double, nullable=False),
    Column("games", Integer, nullable=False),
    Column("latest", Double, nullable=True),
)

puzzle_daily = Table(
    "puzzle_daily",
    metadata,
    # the puzzle of a day (UTC), the same for everyone
    Column("day", String(10), primary_key=True),  # YYYY-MM-DD
    Column("puzzle_id", ForeignKey("puzzles.id", ondelete="CASCADE"), nullable=False),
)

storm_runs = Table(
    "storm_runs",
    metadata,
    # a timed run (as lichess's Storm): its score, checked by the server
    Column("id", Integer, primary_key=True),
    Column("user_id", ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("score", Integer, nullable=False),  # puzzles solved
    Column("moves", Integer, nullable=False),
    Column("errors", Integer, nullable=False),
    Column("combo", Integer, nullable=False),  # the longest run of right moves
    Column("seconds", Integer, nullable=False),
    Column("highest", Integer, nullable=False),  # the highest rating solved
    Column("created", Double, nullable=False),
    Index("ix_storm_runs_user", "user_id", "score"),
)
explorer_moves = Table(
    "explorer_moves",
    metadata,
    # the opening explorer (emergo.server.explorer): how often each move was played from a
    # position (its key: the position under its least symmetric image, hashed) and how the
    # games went on; the move in the key's orientation
    Column("source", String(8), primary_key=True),  # archive, engine
    Column("variant", String(8), primary_key=True),
    Column("key", String(32), primary_key=True),
    Column("move", String(200), primary_key=True),
    Column("white", Integer, nullable=False),  # games White won
    Column("draws", Integer, nullable=False),
    Column("black", Integer, nullable=False),
    Column("rating_sum", BigInteger, nullable=False),  # the movers' ratings, rated games only
    Column("rating_count", Integer, nullable=False),
)

explorer_games = Table(
    "explorer_games",
    metadata,
    # a position's top games (highest average rating) and recent games, bounded lists (JSON)
    Column("source", String(8), primary_key=True),
    Column("variant", String(8), primary_key=True),
    Column("key", String(32), primary_key=True),
    Column("top", JSON, nullable=False),
    Column("recent", JSON, nullable=False),
)

explorer_indexed = Table(
    "explorer_indexed",
    metadata,
    # every game the explorer counted, once: a game's end and a rebuild never count it twice
    Column("source", String(8), primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("at", Double, nullable=False),
)
