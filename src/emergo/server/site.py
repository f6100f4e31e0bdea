"""The site of one server process: every service on one database, and their lifecycle.

:meth:`Site.open` opens the database and checks its schema (SQLite migrates itself; PostgreSQL
must be migrated by ``emergo admin migrate``); :meth:`Site.start` (on the server's event loop)
starts the bus, registers the process (the restart rule) and starts the periodic work;
:meth:`Site.stop` undoes it.  The HTTP and WebSocket edges of the modules call the
services through it; ``emergo admin`` uses it without starting anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import select

from emergo import round as rnd
from emergo.botclient.api import Transport
from emergo.server.analysis.engine import Analysis
from emergo.server.archive.search import Archive
from emergo.server.bots.accounts import Bots
from emergo.server.bots.house import Supervisor
from emergo.server.challenge.service import Challenge, ChallengeError, Challenges, terms_of
from emergo.server.chat.service import Chat, Line
from emergo.server.core import models as m
from emergo.server.core.bus import Bus, LocalBus, PgBus
from emergo.server.core.config import Config
from emergo.server.core.db import Database, now
from emergo.server.core.limits import Connections, LocalLimiter, RateLimited, SharedLimiter
from emergo.server.correspondence.extension import Correspondence
from emergo.server.explorer.service import Explorer
from emergo.server.learn.practice import Practice
from emergo.server.notify.letters import Notice
from emergo.server.notify.notices import Mailer, Notices, describe_control
from emergo.server.people.service import People
from emergo.server.periodic import Periodic
from emergo.server.puzzle.service import Puzzles
from emergo.server.relation.service import Relations, followers
from emergo.server.report.service import Reports
from emergo.server.round import processes
from emergo.server.round.commands import make_command
from emergo.server.round.presence import Presence
from emergo.server.round.service import GameError, Played, Rounds, control_of
from emergo.server.round.starts import game_of_challenge
from emergo.server.study.service import Studies
from emergo.server.tournament.director import Director
from emergo.server.tournament.event import Event
from emergo.server.tournament.schedule import Schedule, entries_of
from emergo.server.tournament.service import Tournaments
from emergo.server.user.accounts import DELETED_NAME, AccountError, User, Users, local_name
from emergo.server.user.credentials import Credentials
from emergo.server.user.logins import Logins
from emergo.server.user.passwords import PasswordWork
from emergo.server.user.preferences import Preferences
from emergo.server.user.ratings import Ratings
from emergo.server.user.tokens import Tokens

HOTSEAT_AGAIN = 10.0
"""Seconds within which a second *New game* on the same terms, nobody having moved, is the
same hot-seat game (a double click makes one game)."""

log = logging.getLogger(__name__)


def workers(config: Config) -> int:
    """Worker threads of a server process for database calls: one a connection of the pool
    (``[database] pool_size + max_overflow``, 30 + 0 by default)."""
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
        self.passwords = PasswordWork(
            config.password_slots, config.password_queue, config.password_per_client
        )
        self.logins = Logins(db, config.argon2_memory_kib)
        """The argon2id hashes of sign-up and log-in, apart from the database workers."""
        self.tokens = Tokens(db)
        self.credentials = Credentials(self.users, self.tokens)
        """Tokens and sessions known to this process (emergo.server.user.credentials)."""
        self.preferences = Preferences(db)
        self.shared_limits = SharedLimiter(db)
        self.local_limits = LocalLimiter()
        self.connections = Connections(config.limits.connections_per_client)
        self.rounds = Rounds(db)
        # issue 21: ratings, the archive, notices and mail, vacations, conditional moves
        self.ratings = Ratings(db)
        self.archive = Archive(db)
        self.explorer = Explorer(db)  # issue 29: counts each game as it is archived
        self.ratings.archived.append(self.explorer.game_over)
        self.notices = Notices(db, mailer_of(config))
        self.correspondence = Correspondence(db, self.ratings, self.notices)
        self.rounds.extension = self.correspondence
        self.correspondence.present = lambda game, user: (game, user) in self.presence.local
        self.challenges = Challenges(db, functools.partial(game_of_challenge, self.rounds))
        # issue 31: follows and blocks, reports and the moderators
        self.relations = Relations(db)
        self.reports = Reports(db)
        self.people = People(db, self.rounds)
        self.challenges.on_start = self._tell_followers
        self.chat = Chat(db)
        # issue 30: tournaments, run by their director from the timers; an event's game's end
        # records its result in the transaction that ends it
        self.tournaments = Tournaments(db, self.ratings)
        self.director = Director(db, self.rounds, self.notices)
        self.correspondence.game_over_hooks.append(self.director.game_over)
        # issue 28: a practice game of /learn gives its stars in the transaction of the command
        # that meets its level (a hold's par reached, a win)
        self.practice = Practice(db, self.rounds)
        self.correspondence.command_hooks.append(self.practice.played)
        self.director.schedule = Schedule(self.tournaments, entries_of(config.tournament_schedule))
        self.presence = Presence(db)
        self.bots = Bots(db)  # issue 20
        self.puzzles = Puzzles(db)  # issue 29: the shipped set imported at the first start
        self.studies = Studies(db)
        self.bus: Bus = PgBus(db) if db.postgres else LocalBus(db)
        # this process's copy of its games follows every process's commits (round/cache.py)
        self.bus.watch("g:", self.rounds.cache.noted, lost=self.rounds.cache.clear)
        self.bus.watch("a:u:", self.rounds.cache.player_noted)  # a deleted account's games
        self.bus.watch("c:", self._chat_noted)
        self.bus.watch("a:", self.credentials.noted, lost=self.credentials.clear)
        self.rounds.cache.trusted = self.credentials.trusted = self.bus.hears
        a = config.analysis.resolved(config.local)
        self.analysis = Analysis(
            engine=a.engine,
            threads=a.threads or 2,
            max_seconds=a.max_seconds or 10.0,
            infinite=bool(a.infinite),
        )
        """The engine's analysis (emergo.server.analysis): its threads and limits."""
        self.local_user: User | None = None
        """Local mode's one player (:meth:`open`), signed in by itself
        (:mod:`emergo.server.user.local`)."""
        self.process_id: str | None = None
        self.stopping_at: float | None = None
        """When :meth:`begin_stop` ended the streams and sockets (the restart rule's end)."""
        self._periodic: Periodic | None = None
        self.house: Supervisor | None = None
        self.house_transport: Callable[[int], Transport] | None = None
        """Local mode: the house bots' in-process transport (set by the app,
        :func:`emergo.server.bots.inprocess.in_process`: it reads the round's JSON views,
        which import this module), so that they run as threads; else processes over HTTP."""

    @classmethod
    def open(cls, config: Config, *, migrate: bool | None = None) -> Site:
        """Open the database of ``config`` and check its schema; ``migrate`` None: SQLite
        migrates itself, PostgreSQL does not (module docstring).  Raises
        :class:`emergo.server.core.db.SchemaError` with what to run."""
        db = Database(config.db, config.database)
        try:
            if migrate if migrate is not None else db.sqlite:
                db.migrate()
            db.check_schema()
            site = cls(config, db)
            if config.local:
                site.local_user = site.users.ensure_local(local_name(config.player))
        except BaseException:
            db.close()
            raise
        return site

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
        self.process_id = processes.register(self.rounds)
        self._periodic = Periodic(self)
        self._periodic.start()
        loop.run_in_executor(None, self.puzzles.start_import)  # issue 29
        # issue 20: the engine levels' bot processes, when this site runs them (the supervisor
        # makes their accounts; else `emergo admin house-bots` and systemd)
        if self.config.bots.house_bots:
            self.house = Supervisor(
                self.config, self.db, holder=self.process_id, connect=self.house_transport
            )
            self.house.start()

    def begin_stop(self) -> None:
        """The server is about to stop (Ctrl-C, SIGTERM): the streams and sockets end now, and
        the house bots leave (their event streams would hold the server's shutdown); without
        waiting.  :meth:`stop` then waits for everything."""
        if self.house is not None:  # first: a bot told to leave takes its stream's end quietly
            self.house.request_stop()
        if self.stopping_at is None:  # players can no longer play from now: the restart rule
            self.stopping_at = self.rounds.clock()
            self.rounds.served_until = self.stopping_at
        self.bus.close_readers()

    async def stop(self) -> None:
        if self.house is not None:
            await asyncio.to_thread(self.house.stop)
            self.house = None
        if self._periodic is not None:
            await self._periodic.stop()
        if self.process_id is not None:
            await asyncio.to_thread(
                processes.unregister, self.rounds, self.process_id, self.stopping_at
            )
        self.bus.stop()

    def close(self) -> None:
        self.passwords.close()
        self.analysis.close()
        self.db.close()

    # --- what the edges call: rate limits, then the service -----------------------------------

    def signup(self, name: str, password: str, client: str) -> User:
        limits = self.config.limits
        if self.config.local:
            raise AccountError("this is emergo on your own machine: you are signed in already", 403)
        if not self.config.signup:
            raise AccountError("sign-up is closed on this site: ask its admin", 403)
        self.shared_limits.hit("sign-ups", client, limits.signup_per_hour, 3600)
        user = self.users.create(name, password)
        # signed in from here: a known client of the account
        self.logins.seen(user.id, self.logins.key(user.id, client))
        return user

    def login(self, name: str, password: str, client: str) -> User | None:
        """Every attempt counts against its address; failures count against the name, whose
        limit a client the account logged in from before passes (:mod:`emergo.server.user.logins`:
        nobody elsewhere can lock the owner out)."""
        limits = self.config.limits
        self.shared_limits.hit("log-in attempts", client, limits.login_per_minute, 60)
        failures = (
            "failed log-ins as one name",
            str(name).lower()[:40],
            limits.login_per_minute,
            60,
        )
        account = self.users.by_name(name) if isinstance(name, str) else None
        # the client's hash for the account, once (a memory-hard hash, like the password's)
        key = self.logins.key(account.id, client) if account is not None else ""
        known = account is not None and self.logins.known(account.id, key)
        if not known:
            self.shared_limits.check(*failures)
        user = self.users.authenticate(name, password)
        if user is None:
            try:
                self.shared_limits.hit(*failures)
            except RateLimited:  # counted; a known client is not held: its mistyped password
                if not known:  # is said so, not "wait" (its right one passes at once)
                    raise
        else:  # the account found by its name (unless made between the two reads)
            same = account is not None and account.id == user.id
            self.logins.seen(user.id, key if same else self.logins.key(user.id, client))
        return user

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
        self.count_challenge(user)
        return self.challenges.create(user, terms, kind=kind, dest=dest)

    def count_challenge(self, user: User) -> None:
        """A game asked for (a challenge, a seek, a hot-seat or practice game): at most
        ``limits.challenges_per_minute`` a minute a player, all of them counted together."""
        limits = self.config.limits
        self.shared_limits.hit("challenges", str(user.id), limits.challenges_per_minute, 60)

    def practice_game(self, user: User, level: str) -> str:
        """A practice game of /learn's ``level`` against its house bot (issue 28), limited as
        a challenge to the computer: each is a game a bot searches for."""
        self.count_challenge(user)
        house = self.bots.house()
        offered = {n: bot for n, bot in house.items() if n in self.config.bots.levels}
        return self.practice.start(user, level, offered)

    def join_event(self, event_id: str, user: User, password: str | None) -> Event:
        """Join an event (:meth:`Tournaments.join`); its entry code tried at most as often a
        minute as a log-in, per player and event (a short code fell to a loop otherwise)."""
        if password is not None:
            tries = self.config.limits.login_per_minute
            self.shared_limits.hit("entry code tries", f"{user.id}:{event_id[:20]}", tries, 60)
        return self.tournaments.join(event_id, user, password=password)

    def play(self, game_id: str, user: User, action: str, **fields: Any) -> Played:
        """A player's action on a game (:mod:`emergo.server.round.commands`), rate-limited per
        process; claims get the opponent's absence from :mod:`emergo.server.round.presence`."""
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
        played = self.rounds.play(game_id, user.id, make, action)
        if action == "move":
            self.presence.moved(game_id, user.id)
        if action == "move" and not any(isinstance(e, rnd.MovePlayed) for e in played.events):
            # the mover's time had run out: the round ended the game on time instead (stored)
            outcome = played.state.outcome
            reason = outcome.reason() if outcome is not None else "the move was not played"
            raise GameError(f"the game is over: {reason}", 409)
        return played

    def hotseat(self, user: User, data: dict[str, Any]) -> str:
        """A hot-seat game: ``user`` holds both seats (two people at one screen; the side to
        move is the seat), from the terms of ``data`` (a challenge's: variant, ``fen``, clock or
        days), never rated, a local round (no first-move deadline); its id."""
        terms = terms_of({**data, "rated": "false"})
        control = control_of(terms.clock_limit, terms.clock_increment, terms.days)
        self.count_challenge(user)
        t = now()
        state = rnd.RoundState.new(
            variant=terms.variant, root=terms.position, time_control=control, now=t, local=True
        )
        with self.db.write() as tx:
            # one request of a player at a time here: two clicks at once cannot both create
            tx.execute(tx.locked(select(m.users.c.id).where(m.users.c.id == user.id)))
            # a second click on New game: the game the first made, while nobody moved in it
            same = tx.execute(
                select(m.games.c.id, m.games.c.state, m.games.c.time_control)
                .where(m.games.c.white_id == user.id)
                .where(m.games.c.black_id == user.id)
                .where(m.games.c.status == "started")
                .where(m.games.c.created > t - HOTSEAT_AGAIN)
                .order_by(m.games.c.created.desc())
                .limit(1)
            ).first()
            if same is not None:
                old = same.state if isinstance(same.state, dict) else {}
                tag = control.tag() if control is not None else None
                if (
                    not old.get("moves")
                    and (old.get("variant"), old.get("root")) == (state.variant, state.root)
                    and same.time_control == tag
                ):
                    return str(same.id)
            return self.rounds.start(tx, state, user.id, user.id, rated=False, t=t)

    def say(self, game_id: str, user: User, room: str, text: Any) -> Line:
        limits = self.config.limits
        self.shared_limits.hit("chat lines", str(user.id), limits.chat_per_minute, 60)
        return self.chat.post(game_id, user, room, text)

    def say_event(self, tournament_id: str, user: User, text: Any) -> Line:
        """A line in an event's chat, under the same limit as a game's (one count for both)."""
        limits = self.config.limits
        self.shared_limits.hit("chat lines", str(user.id), limits.chat_per_minute, 60)
        return self.chat.post_event(tournament_id, user, text)

    def _chat_noted(self, topic: str, payload: str) -> None:
        if payload == "room":  # the players' room opened or closed: read the game again
            self.rounds.cache.set_chat(topic[2:], None)

    # --- what several services do together -------------------------------------------------------

    def _tell_followers(self, tx: Any, game_id: str, white: int, black: int, t: float) -> None:
        """A game started: a notice to each player who follows one of its players (in the
        game's transaction; a player who follows both hears it once)."""
        row = tx.execute(
            select(m.games.c.variant, m.games.c.time_control).where(m.games.c.id == game_id)
        ).first()
        names = {
            r.id: r.name
            for r in tx.execute(
                select(m.users.c.id, m.users.c.name).where(m.users.c.id.in_((white, black)))
            )
        }
        players = " – ".join(str(names.get(i) or DELETED_NAME) for i in (white, black))
        told: set[int] = {white, black}
        for player in (white, black):
            for follower in followers(tx, player):
                if follower in told:
                    continue
                told.add(follower)
                notice = Notice(
                    kind="game-started",
                    game_id=game_id,
                    opponent=str(names.get(player) or DELETED_NAME),
                    variant=row.variant if row is not None else "",
                    control=describe_control(row.time_control if row is not None else None),
                    at=t,
                    result=players,
                )
                self.notices.add(tx, follower, notice)

    def moderate(
        self,
        moderator: str,
        action: str,
        name: str,
        *,
        report_id: int | None = None,
        note: str = "",
    ) -> int:
        """A moderator's ``action`` on the player ``name`` (:data:`report.service.ACTIONS`),
        logged: a warning is a notice in the moderators' words, a disabling ends the account's
        sessions and its games as a deleted account's are not (it may be enabled again). The
        log row's id."""
        user = self.users.by_name(name)
        if user is None:
            raise AccountError(f"no player named {str(name)[:30]!r}", 404)
        if action == "warn" and not note.strip():
            raise AccountError("a warning says what the player did: give its words (--note)")
        with self.db.write() as tx:
            logged = self.reports.act(
                moderator, action, user.id, report_id=report_id, note=note, tx=tx
            )
            if action == "warn":
                warning = Notice(
                    kind="warning",
                    game_id="",
                    opponent="",
                    variant="",
                    control="",
                    at=now(),
                    result=note.strip(),
                )
                self.notices.add(tx, user.id, warning)
        if action == "disable":
            self.users.disable(user.id)
        return logged

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
        self.rounds.cache.forget_player(user.id)  # here at once; elsewhere by the bus (a:u:)


def mailer_of(config: Config) -> Mailer | None:
    """The mailer of the ``[mail]`` section; None when the site sends no mail."""
    mail = config.mail
    if mail.host is None:
        return None
    from emergo.server.notify.letters import Site as MailSite
    from emergo.server.notify.mail import SmtpSettings

    smtp = SmtpSettings(
        host=mail.host,
        port=mail.port,
        security=mail.security,  # type: ignore[arg-type]  # checked by config.check_mail
        username=mail.username,
        password=mail.password,
        cafile=mail.cafile,
    )
    return Mailer(MailSite(mail.site_name, mail.base_url, mail.sender), smtp)
