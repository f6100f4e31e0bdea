"""The online site of one server process: every service on one database, and their lifecycle.

:meth:`Site.open` opens the database and checks its schema (SQLite migrates itself; PostgreSQL
must be migrated by ``emergo admin migrate``); :meth:`Site.start` (on the server's event loop)
starts the bus, registers the process (the restart rule) and starts the periodic work;
:meth:`Site.stop` undoes it.  The HTTP and WebSocket edges (:mod:`emergo.web`) call the
services through it; ``emergo admin`` uses it without starting anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from emergo import round as rnd
from emergo.online.archive import Archive
from emergo.online.bots import Bots
from emergo.online.bus import Bus, LocalBus, PgBus
from emergo.online.challenges import Challenge, ChallengeError, Challenges, terms_of
from emergo.online.chat import Chat, Line
from emergo.online.commands import make_command
from emergo.online.config import Config
from emergo.online.correspondence import Correspondence
from emergo.online.db import Database
from emergo.online.housebots import Supervisor
from emergo.online.limits import Connections, LocalLimiter, SharedLimiter
from emergo.online.notices import Mailer, Notices
from emergo.online.presence import Presence
from emergo.online.ratings import Ratings
from emergo.online.rounds import GameError, Played, Rounds
from emergo.online.timers import Periodic
from emergo.online.tokens import Tokens
from emergo.online.users import AccountError, User, Users

log = logging.getLogger("emergo.online")


def workers(config: Config) -> int:
    """Worker threads of a server process for database calls: one a connection of the pool
    (``[database] pool_size + max_overflow``, 10 + 20 by default)."""
    return config.database.pool_size + config.database.max_overflow


class Site:
    def __init__(self, config: Config, db: Database) -> None:
        self.config = config
        self.db = db
        self.users = Users(
            db,
            time_cost=config.argon2_time_cost,
            memory_kib=config.argon2_memory_kib,
            session_days=config.session_days,
        )
        self.tokens = Tokens(db)
        self.shared_limits = SharedLimiter(db)
        self.local_limits = LocalLimiter()
        self.connections = Connections(config.limits.connections_per_client)
        self.rounds = Rounds(db)
        # issue 21: ratings, the archive, notices and mail, vacations, conditional moves
        self.ratings = Ratings(db)
        self.archive = Archive(db)
        self.notices = Notices(db, mailer_of(config))
        self.correspondence = Correspondence(db, self.ratings, self.notices)
        self.rounds.extension = self.correspondence
        self.challenges = Challenges(db, self.rounds.create)
        self.chat = Chat(db)
        self.presence = Presence(db)
        self.bots = Bots(db)  # issue 20
        self.bus: Bus = PgBus(db) if db.postgres else LocalBus(db)
        self.process_id: str | None = None
        self._periodic: Periodic | None = None
        self.house: Supervisor | None = None

    @classmethod
    def open(cls, config: Config, *, migrate: bool | None = None) -> Site:
        """Open the database of ``config`` and check its schema; ``migrate`` None: SQLite
        migrates itself, PostgreSQL does not (module docstring).  Raises
        :class:`emergo.online.db.SchemaError` with what to run."""
        db = Database(config.db, config.database)
        try:
            if migrate if migrate is not None else db.sqlite:
                db.migrate()
            db.check_schema()
        except BaseException:
            db.close()
            raise
        return cls(config, db)

    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Start serving (call on the event loop): bus, process row, periodic work."""
        loop = loop or asyncio.get_running_loop()
        # every database call of the edges runs in a worker thread: as many workers as the
        # connection pool has connections (asyncio's default is 6 on 2 cores: requests queued
        # behind a few slow ones)
        loop.set_default_executor(
            ThreadPoolExecutor(workers(self.config), thread_name_prefix="emergo-db")
        )
        self.bus.start(loop)
        self.process_id = self.rounds.register_process()
        self._periodic = Periodic(self)
        self._periodic.start()
        # issue 20: the engine levels' bot processes, when this site runs them (the supervisor
        # makes their accounts; else `emergo admin house-bots` and systemd)
        if self.config.bots.house_bots:
            self.house = Supervisor(self.config, self.db, holder=self.process_id)
            self.house.start()

    async def stop(self) -> None:
        if self.house is not None:
            await asyncio.to_thread(self.house.stop)
            self.house = None
        if self._periodic is not None:
            await self._periodic.stop()
        if self.process_id is not None:
            await asyncio.to_thread(self.rounds.unregister_process, self.process_id)
        self.bus.stop()

    def close(self) -> None:
        self.db.close()

    # --- what the edges call: rate limits, then the service -----------------------------------

    def signup(self, name: str, password: str, client: str) -> User:
        limits = self.config.limits
        if not self.config.signup:
            raise AccountError("sign-up is closed on this site: ask its admin", 403)
        self.shared_limits.hit("sign-ups", client, limits.signup_per_hour, 3600)
        return self.users.create(name, password)

    def login(self, name: str, password: str, client: str) -> User | None:
        limits = self.config.limits
        self.shared_limits.hit("log-in attempts", client, limits.login_per_minute, 60)
        self.shared_limits.hit(
            "log-ins as one name", str(name).lower()[:40], limits.login_per_minute, 60
        )
        return self.users.authenticate(name, password)

    def challenge(
        self, user: User, data: dict[str, Any], *, kind: str, dest_name: str | None = None
    ) -> Challenge:
        terms = terms_of(data)
        dest = None
        if kind == "direct":
            dest = self.users.by_name(dest_name or "")
            if dest is None:
                name = str(dest_name)[:30]
                raise ChallengeError(
                    f"no user named {name!r}", 404, words=f"there is no player called {name}"
                )
        limits = self.config.limits
        self.shared_limits.hit("challenges", str(user.id), limits.challenges_per_minute, 60)
        return self.challenges.create(user, terms, kind=kind, dest=dest)

    def play(self, game_id: str, user: User, action: str, **fields: Any) -> Played:
        """A player's action on a game (:mod:`emergo.online.commands`), rate-limited per
        process; claims get the opponent's absence from :mod:`emergo.online.presence`."""
        limits = self.config.limits
        self.local_limits.hit("game commands", str(user.id), limits.moves_per_second, 1)
        gone = None
        if action in ("claim-victory", "claim-draw"):
            game = self.rounds.get(game_id)
            if game is None:
                raise GameError("no such game", 404)
            color = game.seats.color_of(user.id)
            if color is None:
                raise GameError("you do not play this game", 403)
            opponent = game.seats.id_of(not color)
            gone = self.presence.gone_since(game_id, opponent, game.created)
        make = make_command(action, opponent_gone_since=gone, **fields)
        played = self.rounds.play(game_id, user.id, make)
        if action == "move" and not any(isinstance(e, rnd.MovePlayed) for e in played.events):
            # the mover's time had run out: the round ended the game on time instead (stored)
            outcome = played.state.outcome
            reason = outcome.reason() if outcome is not None else "the move was not played"
            raise GameError(f"the game is over: {reason}", 409)
        return played

    def say(self, game_id: str, user: User, room: str, text: Any) -> Line:
        limits = self.config.limits
        self.shared_limits.hit("chat lines", str(user.id), limits.chat_per_minute, 60)
        return self.chat.post(game_id, user, room, text)

    # --- what several services do together -------------------------------------------------------

    def delete_account(self, user: User) -> None:
        """Delete an account: its games in progress are aborted (or resigned), its open
        challenges canceled, its name and secrets removed; its games stay, anonymised."""
        for game in self.rounds.playing(user.id, limit=1000):
            for action in ("abort", "resign"):
                try:
                    self.rounds.play(game.id, user.id, make_command(action))
                    break
                except (rnd.RoundError, GameError):
                    continue
        for challenge in self.challenges.of_user(user)["out"]:
            with contextlib.suppress(ValueError):
                self.challenges.cancel(challenge.id, user)
        with self.db.write() as tx:
            self.users.anonymise(tx, user.id)


def mailer_of(config: Config) -> Mailer | None:
    """The mailer of the ``[mail]`` section; None when the site sends no mail."""
    mail = config.mail
    if mail.host is None:
        return None
    from emergo.online.mail import SmtpSettings
    from emergo.online.notify import Site as MailSite

    smtp = SmtpSettings(
        host=mail.host,
        port=mail.port,
        security=mail.security,  # type: ignore[arg-type]  # checked by config.check_mail
        username=mail.username,
        password=mail.password,
        cafile=mail.cafile,
    )
    return Mailer(MailSite(mail.site_name, mail.base_url, mail.sender), smtp)
