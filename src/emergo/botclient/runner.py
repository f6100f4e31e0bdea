"""The bot: its account, its event stream, its challenges and its games (``emergo bot``).

:class:`Bot` runs in the calling thread (the controller) and owns the state: the event stream
is read by a thread of its own, each game by a :class:`~emergo.botclient.games.GameHandler`,
and all of them report to the controller through one queue, so that the games, the pending
challenges and the counts are only ever changed by one thread.  :meth:`Bot.stop` only sets
an attribute, so a signal handler may call it.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Literal

from emergo.botclient.api import ApiError, AuthError, Backoff, RateLimited, Transient, Transport
from emergo.botclient.config import BotConfig, ChallengeSpec, ExitMode
from emergo.botclient.games import GameHandler
from emergo.botclient.policy import Challenge

log = logging.getLogger("emergo.bot")

ACCOUNT = "/api/account"
UPGRADE = "/api/bot/account/upgrade"
EVENT_STREAM = "/api/stream/event"
JOIN_ARENA = "/api/tournament/{}/join"
JOIN_SWISS = "/api/swiss/{}/join"
ACCEPT = "/api/challenge/{}/accept"
DECLINE = "/api/challenge/{}/decline"
CANCEL = "/api/challenge/{}/cancel"
CHALLENGE = "/api/challenge/{}"

TICK = 0.2
"""Seconds between the controller's looks at its timers (pending challenges, stopping)."""
RESIGN_WAIT = 10.0
"""Seconds to wait, when stopping with ``resign``, for the server to end the resigned games."""
CHALLENGE_RETRY = 5.0
"""Seconds before challenging again after a ``later`` or an unanswered challenge."""
CHALLENGE_TRIES = 5
"""Challenges sent for one game of a match before giving the match up."""


class BotError(Exception):
    """The bot cannot go on: a refused token, an account that is not a bot, no Bot API there."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class _Pending:
    challenge: Challenge
    since: float


@dataclass
class _Match:
    """The state of the bot's own challenges (``--challenge``)."""

    spec: ChallengeSpec
    played: int = 0
    state: Literal["idle", "waiting", "playing", "done"] = "idle"
    challenge_id: str = ""
    game_id: str = ""
    sent_at: float = 0.0
    next_at: float = 0.0
    tries: int = 0
    failed: str = ""


class Bot:
    """A bot account playing on a server: ``Bot(api, config).run()`` until stopped."""

    def __init__(self, api: Transport, config: BotConfig | None = None) -> None:
        self.api = api
        self.config = config or BotConfig()
        self.account_id = ""
        self.account_name = ""
        self.games: dict[str, GameHandler] = {}
        """The games being played, by id."""
        self.ended: list[GameHandler] = []
        """The games that ended (over, or left), in the order they did."""
        self._ended_ids: set[str] = set()
        self._events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._pending: dict[str, _Pending] = {}
        self._reserved: dict[str, tuple[bool, float]] = {}
        self._answered: dict[str, str] = {}
        self._stop_requests = 0
        self._stop_mode: ExitMode | None = None
        self._stopping: ExitMode | None = None
        self._stopped_at = 0.0
        self._closing = threading.Event()
        self._event_stream: Any = None
        self._event_thread: threading.Thread | None = None
        self._match = _Match(self.config.challenge) if self.config.challenge else None
        self.connected = threading.Event()
        """Set once the event stream is open (tests and tools wait for it)."""

    # --- from other threads ---------------------------------------------------------------

    def stop(self, mode: ExitMode | None = None) -> None:
        """Stop the bot: its games end by ``mode`` (default: the config's ``on_exit``); a
        second call abandons them.  Only sets attributes: safe in a signal handler."""
        self._stop_requests += 1
        if self._stop_mode is None:
            self._stop_mode = mode or self.config.on_exit

    def fatal(self, error: BaseException) -> None:
        """A game thread met an error that stops the bot (a refused token)."""
        self._events.put(("fatal", error))

    def game_known(self, handler: GameHandler) -> None:
        """A game's first ``gameFull`` came: who the opponent is is known."""
        self._events.put(("known", handler))

    def game_ended(self, handler: GameHandler) -> None:
        self._events.put(("ended", handler))

    # --- the controller -------------------------------------------------------------------

    def run(self) -> Literal["stopped", "done"]:
        """Play until stopped (``"stopped"``) or until the games asked for are over
        (``"done"``); :class:`BotError` when the bot cannot go on."""
        try:
            if not self._login():
                return "stopped"
            self._event_thread = threading.Thread(
                target=self._read_events, name="bot-events", daemon=True
            )
            self._event_thread.start()
            while True:
                try:
                    kind, value = self._events.get(timeout=TICK)
                except queue.Empty:
                    kind, value = "", None
                if kind == "event":
                    self._on_event(value)
                elif kind == "known":
                    self._on_known(value)
                elif kind == "ended":
                    self._on_ended(value)
                elif kind == "fatal":
                    status = 2 if isinstance(value, AuthError) else 1
                    raise BotError(str(value), status)
                outcome = self._tick()
                if outcome is not None:
                    return outcome
        finally:
            self._close()

    @property
    def match_failed(self) -> str:
        """Why the bot's own challenges stopped before all their games were played ("" if not)."""
        return self._match.failed if self._match is not None else ""

    def _login(self) -> bool:
        backoff = Backoff(self.config.backoff_base, self.config.backoff_cap)
        while True:
            if self._stop_requests:
                return False
            try:
                account = self.api.get(ACCOUNT)
                break
            except AuthError as e:
                raise BotError(str(e)) from None
            except RateLimited as e:
                wait, why = e.retry_after, str(e)
            except Transient as e:
                wait, why = backoff.next(), str(e)
            except ApiError as e:
                if e.status == 404:
                    raise BotError(
                        f"{self.api.server} has no bot API (GET {ACCOUNT}: 404)", 1
                    ) from None
                raise BotError(str(e), 1) from None
            log.warning("cannot reach %s (%s): trying again in %.1f s", self.api.server, why, wait)
            self._sleep(wait)
        if not isinstance(account, dict) or not isinstance(account.get("id"), str):
            raise BotError(f"GET {ACCOUNT}: the answer has no account id", 1)
        self.account_id = account["id"].lower()
        self.account_name = str(account.get("username") or account["id"])
        scopes = account.get("scopes")  # a server that says which (lichess: /api/token/test)
        if isinstance(scopes, list) and "bot:play" not in scopes:
            have = ", ".join(str(s) for s in scopes) or "none"
            raise BotError(f"the token lacks the scope bot:play (it has: {have})")
        if account.get("title") != "BOT":
            if not self.config.upgrade:
                raise BotError(
                    f"{self.account_name} is not a bot account: upgrade it (once, for good) with "
                    "--upgrade, or make a bot account (emergo admin add-user NAME --bot)"
                )
            try:
                self.api.post(UPGRADE)
            except ApiError as e:
                raise BotError(
                    f"cannot upgrade {self.account_name} to a bot account: {e}"
                ) from None
            log.info("%s is now a bot account", self.account_name)
        config = self.config
        log.info(
            "%s: logged in as %s; playing with %s; %s; up to %d live and %d correspondence "
            "games at once",
            self.api.server,
            self.account_name,
            config.engine.describe(),
            config.policy.describe(),
            config.concurrency,
            config.correspondence_concurrency,
        )
        for event in config.events:
            self._join(event)
        return True

    def _join(self, event: str) -> None:
        """Join a tournament (lichess's Bot API: the same endpoints as a player's): an arena's
        id first, a Swiss's when the server knows no such arena."""
        password, _, event_id = event.rpartition("@")
        form = {"password": password} if password else None
        for template in (JOIN_ARENA, JOIN_SWISS):
            try:
                self.api.post(template, event_id, form=form)
            except ApiError as e:
                if e.status == 404 and template == JOIN_ARENA:
                    continue
                log.warning("cannot join the tournament %s: %s", event_id, e)
                return
            log.info("joined the tournament %s", event_id)
            return

    def _sleep(self, seconds: float) -> None:
        """Wait ``seconds``, or less when a stop is asked for."""
        end = time.monotonic() + seconds
        while not self._stop_requests and (left := end - time.monotonic()) > 0:
            time.sleep(min(left, TICK))

    def _read_events(self) -> None:
        """The event stream's thread: read it, reconnecting with back-off, into the queue."""
        backoff = Backoff(self.config.backoff_base, self.config.backoff_cap)
        first = True
        while not self._closing.is_set():
            try:
                stream = self.api.stream(EVENT_STREAM)
            except AuthError as e:
                self._events.put(("fatal", e))
                return
            except RateLimited as e:
                wait, why = e.retry_after, str(e)
            except ApiError as e:  # Transient, or a status the server should not send here
                wait, why = backoff.next(), str(e)
            else:
                self._event_stream = stream
                if self._closing.is_set():
                    stream.close()
                    return
                log.info("event stream %s", "open" if first else "open again")
                first = False
                self.connected.set()
                why = "the event stream ended"
                try:
                    for message in stream:
                        backoff.reset()
                        if message is not None:
                            self._events.put(("event", message))
                except Transient as e:
                    why = str(e)
                finally:
                    stream.close()
                    self._event_stream = None
                wait = backoff.next()
            if self._closing.is_set():
                return
            # a bot told to stop expects its stream's end (the server stops too): no warning
            say = log.info if self._stop_requests else log.warning
            say("event stream: %s: reconnecting in %.1f s", why, wait)
            self._closing.wait(wait)

    # --- events ---------------------------------------------------------------------------

    def _on_event(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        log.debug("event: %s", message)
        if kind == "challenge" and isinstance(message.get("challenge"), dict):
            self._on_challenge(Challenge.from_json(message["challenge"]))
        elif kind == "challengeCanceled" and isinstance(message.get("challenge"), dict):
            cid = str(message["challenge"].get("id") or "")
            if self._pending.pop(cid, None) is not None:
                log.info("challenge %s: cancelled by the challenger", cid)
        elif kind == "challengeDeclined" and isinstance(message.get("challenge"), dict):
            self._on_declined(message["challenge"])
        elif kind == "gameStart" and isinstance(message.get("game"), dict):
            self._on_game_start(message["game"])
        elif kind == "gameFinish" and isinstance(message.get("game"), dict):
            game = message["game"]
            log.debug("game %s: finished (event stream)", game.get("gameId") or game.get("id"))

    def _on_challenge(self, challenge: Challenge) -> None:
        cid = challenge.id
        if not cid or challenge.status not in ("", "created"):
            return
        if challenge.direction == "out" or challenge.challenger == self.account_id:
            return  # our own challenge
        if cid in self._pending or cid in self._reserved:
            return
        what = f"challenge {cid} from {challenge.challenger_name} ({challenge.describe()})"
        if self._stopping is not None or self._limit_reached():
            self._decline(challenge, "later", what)
            return
        reason = self.config.policy.decline_reason(challenge)
        if reason is not None:
            self._decline(challenge, reason, what)
            return
        self._pending[cid] = _Pending(challenge, time.monotonic())
        if not self._has_slot(challenge.live):
            log.info("%s: waiting for a game to end", what)

    def _decline(self, challenge: Challenge, reason: str, what: str) -> None:
        self._pending.pop(challenge.id, None)
        if self._answered.get(challenge.id) == reason:
            return  # replayed after a reconnection, and declined already
        try:
            self.api.post(DECLINE, challenge.id, form={"reason": reason})
            self._answered[challenge.id] = reason
            log.info("%s: declined (%s)", what, reason)
        except AuthError as e:
            self._refused(e, f"{what}: decline")
        except ApiError as e:
            log.warning("%s: decline: %s", what, e)

    def _refused(self, error: AuthError, what: str) -> None:
        """A 401 stops the bot (the token is no longer good); a 403 concerns this request."""
        if error.status == 401:
            self.fatal(error)
        else:
            log.error("%s: %s", what, error)

    def _accept_pending(self) -> None:
        now = time.monotonic()
        for cid, pending in list(self._pending.items()):
            challenge = pending.challenge
            what = f"challenge {cid} from {challenge.challenger_name} ({challenge.describe()})"
            if self._limit_reached():
                self._decline(challenge, "later", what)
            elif self._has_slot(challenge.live):
                del self._pending[cid]
                try:
                    answer = self.api.post(ACCEPT, cid)
                except AuthError as e:
                    self._refused(e, f"{what}: accept")
                    continue
                except ApiError as e:
                    log.warning("%s: accept: %s", what, e)
                    continue
                # The slot is held until the game starts: lichess's game id is the challenge's,
                # a server that says otherwise answers the game's id.
                game_id = answer.get("gameId") if isinstance(answer, dict) else None
                self._reserved[game_id if isinstance(game_id, str) else cid] = (challenge.live, now)
                log.info("%s: accepted", what)
            elif now - pending.since > self.config.queue_wait:
                self._decline(challenge, "later", what)

    def _live_count(self, live: bool) -> int:
        running = sum(1 for g in self.games.values() if g.live == live)
        return running + sum(1 for kind, _ in self._reserved.values() if kind == live)

    def _has_slot(self, live: bool) -> bool:
        config = self.config
        return self._live_count(live) < (
            config.concurrency if live else config.correspondence_concurrency
        )

    def _limit_reached(self) -> bool:
        """Have the games of ``--games`` all been started (or accepted)?"""
        games = self.config.games
        started = len(self.ended) + len(self.games) + len(self._reserved)
        return games is not None and started >= games

    def _on_game_start(self, game: dict[str, Any]) -> None:
        gid = str(game.get("gameId") or game.get("id") or "")
        if not gid or gid in self.games or gid in self._ended_ids:
            return
        self._reserved.pop(gid, None)
        match = self._match
        if match is not None and match.state == "waiting":
            opponent = game.get("opponent")
            who = str(opponent.get("id") or "").lower() if isinstance(opponent, dict) else ""
            if gid == match.challenge_id or who == match.spec.user.lower():
                match.state, match.game_id, match.tries = "playing", gid, 0
        handler = GameHandler(self, gid, game)
        self.games[gid] = handler
        handler.start()

    def _on_known(self, handler: GameHandler) -> None:
        """The game of the bot's own challenge, when the ``gameStart`` did not say (a server
        whose game ids are not its challenge ids, and whose ``gameStart`` has no opponent)."""
        match = self._match
        if (
            match is not None
            and match.state == "waiting"
            and handler.opponent_id == match.spec.user.lower()
            and self.games.get(handler.id) is handler
        ):
            match.state, match.game_id, match.tries = "playing", handler.id, 0

    def _on_ended(self, handler: GameHandler) -> None:
        if self.games.get(handler.id) is not handler:
            return
        del self.games[handler.id]
        self.ended.append(handler)
        if handler.over:
            self._ended_ids.add(handler.id)
        match = self._match
        if match is not None and match.state == "playing" and match.game_id == handler.id:
            if handler.over:
                match.played += 1
            match.state, match.next_at = "idle", time.monotonic() + 0.2

    # --- the bot's own challenges ------------------------------------------------------------

    def _on_declined(self, data: dict[str, Any]) -> None:
        match = self._match
        cid = str(data.get("id") or "")
        if match is None or match.state != "waiting" or cid != match.challenge_id:
            return
        reason = str(data.get("declineReasonKey") or data.get("declineReason") or "generic")
        log.info("challenge %s to %s: declined (%s)", cid, match.spec.user, reason)
        if reason == "later" and match.tries < CHALLENGE_TRIES:
            match.state, match.next_at = "idle", time.monotonic() + CHALLENGE_RETRY
        else:
            self._match_over(f"{match.spec.user} declined the challenge ({reason})")

    def _match_over(self, failed: str = "") -> None:
        match = self._match
        assert match is not None
        match.state = "done"
        match.failed = failed
        if failed:
            log.error("%s: stopping the match after %d games", failed, match.played)
        else:
            log.info("the match against %s is over: %d games", match.spec.user, match.played)

    def _challenge_tick(self) -> None:
        match = self._match
        if match is None:
            return
        now = time.monotonic()
        if match.state == "waiting" and now - match.sent_at > self.config.challenge_timeout:
            log.warning("challenge %s to %s: no answer; cancelling it", match.challenge_id,
                        match.spec.user)  # fmt: skip
            try:
                self.api.post(CANCEL, match.challenge_id)
            except ApiError as e:
                log.warning("challenge %s: cancel: %s", match.challenge_id, e)
            match.state, match.next_at = "idle", now + CHALLENGE_RETRY
        if match.state != "idle" or now < match.next_at:
            return
        if match.played >= match.spec.games:
            self._match_over()
            return
        if self._stopping is not None:
            self._match_over("stopped")
            return
        if match.tries >= CHALLENGE_TRIES:
            self._match_over(f"{match.spec.user} did not take {CHALLENGE_TRIES} challenges")
            return
        if not self._has_slot(match.spec.live):
            return
        match.tries += 1
        try:
            answer = self.api.post(CHALLENGE, match.spec.user, form=match.spec.form(match.played))
        except AuthError as e:
            if e.status == 401:
                self.fatal(e)
            self._match_over(f"challenging {match.spec.user}: {e}")
            return
        except (RateLimited, Transient) as e:
            log.warning("challenging %s: %s", match.spec.user, e)
            match.next_at = now + (e.retry_after if isinstance(e, RateLimited) else CHALLENGE_RETRY)
            return
        except ApiError as e:
            self._match_over(f"challenging {match.spec.user}: {e}")
            return
        cid = _challenge_id(answer)
        if not cid:
            self._match_over(f"challenging {match.spec.user}: the answer has no challenge id")
            return
        match.state, match.challenge_id, match.sent_at = "waiting", cid, now
        log.info("challenge %s to %s: sent (game %d of %d)", cid, match.spec.user,
                 match.played + 1, match.spec.games)  # fmt: skip

    # --- timers and stopping ------------------------------------------------------------------

    def _tick(self) -> Literal["stopped", "done"] | None:
        now = time.monotonic()
        for cid, (_, since) in list(self._reserved.items()):
            if now - since > self.config.accept_wait:
                del self._reserved[cid]  # the game never started: free its slot
        if self._stop_requests and self._stopping is None:
            self._begin_stop(self._stop_mode or self.config.on_exit)
        elif self._stop_requests > 1 and self._stopping != "abandon":
            log.warning("stopping now: the games in progress are abandoned")
            self._stopping = "abandon"
        if self._stopping is None:
            self._accept_pending()
            self._challenge_tick()
            match = self._match
            if match is not None and match.state == "done" and not self._live_games():
                return "done"
            if self._limit_reached() and not self.games and not self._reserved:
                log.info("%d games played: stopping", len(self.ended))
                return "done"
            return None
        live = self._live_games()
        if self._stopping == "abandon" or not live:
            return "stopped"
        if self._stopping == "resign" and now - self._stopped_at > RESIGN_WAIT:
            log.warning("the server did not end %d resigned games: leaving them", len(live))
            return "stopped"
        return None

    def _live_games(self) -> list[GameHandler]:
        return [g for g in self.games.values() if g.live]

    def _begin_stop(self, mode: ExitMode) -> None:
        self._stopping = mode
        self._stopped_at = time.monotonic()
        for cid, pending in list(self._pending.items()):
            self._decline(pending.challenge, "later", f"challenge {cid}")
        live = self._live_games()
        left = [g for g in self.games.values() if not g.live]
        if left:
            log.info("stopping: %d correspondence games are left to go on later", len(left))
        for game in left:
            game.abandon()
        if not live:
            log.info("stopping")
        elif mode == "finish":
            log.info("stopping once the %d live games are over (Ctrl-C again: leave them)",
                     len(live))  # fmt: skip
        elif mode == "resign":
            log.info("stopping: resigning %d live games", len(live))
            for game in live:
                game.resign()
        else:
            log.info("stopping: leaving %d live games as they stand", len(live))

    def _close(self) -> None:
        self._closing.set()
        stream = self._event_stream
        if stream is not None:
            stream.close()
        for game in list(self.games.values()):
            game.abandon()
        for game in list(self.games.values()):
            game.thread.join(timeout=2.0)
        if self._event_thread is not None:
            self._event_thread.join(timeout=2.0)
        self.api.close()


def _challenge_id(answer: Any) -> str:
    """The id in the answer to ``POST /api/challenge/{user}``: lichess's ``{"id": ...}``, or
    ``{"challenge": {"id": ...}}``."""
    if not isinstance(answer, dict):
        return ""
    inner = answer.get("challenge")
    if isinstance(inner, dict) and isinstance(inner.get("id"), str):
        return str(inner["id"])
    return str(answer["id"]) if isinstance(answer.get("id"), str) else ""
