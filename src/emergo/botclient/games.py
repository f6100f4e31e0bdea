"""One game of a bot: its stream (``GET /api/bot/game/stream/{id}``), its engine and its answers.

A :class:`GameHandler` runs in its own thread.  It follows the game's stream, reconnecting with
back-off when it breaks, until the game is over; each ``gameState`` is a snapshot (the moves
from the start, the clocks, the offers), so a reconnection simply carries on from the
``gameFull`` it starts with.  On its turn it searches within its clock (the searchers budget
their time from ``wtime``/``btime``/``winc``/``binc`` with :func:`emergo.search.time_budget`)
and posts the move; as Black under a swap rule, at the ply of the choice, it takes White's side
or stays Black by ``--swap`` (the engine's score: :meth:`emergo.ballots.SwapRule.decide`)
through ``swap/yes|no``; it answers draw offers by the engine's score
(:func:`emergo.game.accepts_draw`) and takeback requests by the bot's option, and claims the
win when ``opponentGone`` says the opponent has been gone long enough.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from emergo.ballots import SwapRule
from emergo.board import BLACK, WHITE, Board, Color
from emergo.botclient.api import ApiError, AuthError, Backoff, RateLimited, Transient, Transport
from emergo.botclient.config import BotConfig
from emergo.botclient.engines import COLORS, EngineError, GameEngine, game_seed
from emergo.botclient.policy import VARIANT_ALIASES
from emergo.game import DRAW_THINK_TIME
from emergo.geometry import VARIANTS
from emergo.levels import default_movetime
from emergo.search import SECONDS_MAX, Limit, time_budget

log = logging.getLogger("emergo.bot")

GAME_STREAM = "/api/bot/game/stream/{}"
MOVE = "/api/bot/game/{}/move/{}"
RESIGN = "/api/bot/game/{}/resign"
DRAW = "/api/bot/game/{}/draw/{}"
TAKEBACK = "/api/bot/game/{}/takeback/{}"
CLAIM_VICTORY = "/api/bot/game/{}/claim-victory"
CHAT = "/api/bot/game/{}/chat"
SWAP = "/api/bot/game/{}/swap/{}"

PLAYING = ("created", "started")
"""Statuses of a game still being played; every other status ends it."""
SEARCH_GRACE = 0.25
"""Seconds past a search's hard time limit before the bot stops it itself (an engine that
overruns its clock)."""
MOVE_ATTEMPTS = 6
"""Tries of a move the network or a rate limit refused."""
CLAIM_MARGIN = 0.5
"""Seconds after ``claimWinInSeconds`` before claiming (the server's clock and ours differ)."""


def _seconds(millis: Any) -> float | None:
    if isinstance(millis, bool) or not isinstance(millis, int | float):
        return None
    return min(max(float(millis) / 1000.0, 0.0), SECONDS_MAX)


@dataclass
class GameInfo:
    """What a ``gameStart`` event or ``gameFull`` message says of the game."""

    variant: str = "9x9"
    initial: str = "startpos"
    live: bool = True
    """The game has a clock."""
    speed: str = ""
    rated: bool = False
    opponent: str = "?"
    days: int | None = None


class Host(Protocol):
    """What a game needs of its bot (:class:`emergo.botclient.runner.Bot`)."""

    api: Transport
    config: BotConfig
    account_id: str

    def fatal(self, error: BaseException) -> None: ...

    def game_known(self, handler: GameHandler) -> None: ...

    def game_ended(self, handler: GameHandler) -> None: ...


class GameHandler:
    """One game the bot plays (see the module)."""

    def __init__(self, bot: Host, game_id: str, start: Mapping[str, Any] | None = None) -> None:
        self.bot = bot
        self.id = game_id
        self.info = GameInfo()
        self.color: Color | None = None
        self.opponent_id = ""
        """The opponent's id (lower case), once the ``gameFull`` has come."""
        if start is not None:
            color = start.get("color")
            if color in COLORS:
                self.color = COLORS[color]
            speed = start.get("speed")
            if isinstance(speed, str):
                self.info.speed = speed
                self.info.live = speed not in ("correspondence", "unlimited")
        self.board: Board | None = None
        self.over = False
        self.result = ""
        """How the game ended, in words (once it is over)."""
        self.engine: GameEngine | None = None
        self.leave = threading.Event()
        """Set to stop following the game (the bot is leaving it: abandon, or after a resign)."""
        self.resigning = False
        self.plies_played = 0
        self._moved_ply = -1
        self._draw_ply = -1
        self._takeback_ply = -1
        self._search_stop: threading.Event | None = None
        self._stream_lock = threading.Lock()
        self._stream: Any = None
        self._claim: threading.Timer | None = None
        self._greeted = False
        self._engine_failures = 0
        self.swap: SwapRule | None = None
        """The game's swap rule while Black's choice is ahead (``gameFull``'s ``swap``)."""
        self.thread = threading.Thread(target=self._run, name=f"game-{game_id}", daemon=True)

    # --- control from the bot -------------------------------------------------------------

    @property
    def live(self) -> bool:
        return self.info.live

    def start(self) -> None:
        self.thread.start()

    def resign(self) -> None:
        """Resign the game now (from any thread): the search stops, ``resign`` is posted."""
        self.resigning = True
        self._stop_search()
        if self.over:
            return
        log.info("game %s: resigning", self.id)
        self._call("resign", RESIGN, self.id)

    def abandon(self) -> None:
        """Stop following the game at once (from any thread); it is left as it stands."""
        self.leave.set()
        self._stop_search()
        self._cancel_claim()
        with self._stream_lock:
            stream = self._stream
        if stream is not None:
            stream.close()

    def _stop_search(self) -> None:
        stop = self._search_stop
        if stop is not None:
            stop.set()

    # --- the stream -----------------------------------------------------------------------

    def _run(self) -> None:
        config = self.bot.config
        backoff = Backoff(config.backoff_base, config.backoff_cap)
        try:
            while not self.leave.is_set() and not self.over:
                wait, why = self._follow(backoff)
                if self.over or self.leave.is_set() or wait is None:
                    break
                log.warning("game %s: %s: reconnecting in %.1f s", self.id, why, wait)
                self.leave.wait(wait)
        except AuthError as e:
            self.bot.fatal(e)
        except Exception as e:  # a defect: say so, and let the other games go on
            log.error("game %s: stopped by an unexpected error: %r", self.id, e, exc_info=True)
        finally:
            self._cancel_claim()
            self._release_engine()
            self.bot.api.close()  # this thread's connection
            self.bot.game_ended(self)

    def _follow(self, backoff: Backoff) -> tuple[float | None, str]:
        """Follow the stream until it ends: ``(seconds to wait before reconnecting, why)``, or
        ``(None, why)`` when the game cannot be followed any more."""
        try:
            stream = self.bot.api.stream(GAME_STREAM, self.id)
        except RateLimited as e:
            return e.retry_after, str(e)
        except Transient as e:
            return backoff.next(), str(e)
        except AuthError as e:
            if e.status == 401:
                raise
            log.error("game %s: %s; leaving the game", self.id, e)  # not the bot's game
            self.over = True
            return None, str(e)
        except ApiError as e:
            if e.status == 404:
                log.warning("game %s: the server does not know this game (404)", self.id)
                self.over = True
                return None, str(e)
            return backoff.next(), str(e)
        with self._stream_lock:
            self._stream = stream
        if self.leave.is_set():
            stream.close()
        try:
            for message in stream:
                backoff.reset()
                if message is not None:
                    self._on_message(message, time.monotonic())
                if self.over or self.leave.is_set():
                    return None, "over"
        except Transient as e:
            return backoff.next(), str(e)
        finally:
            with self._stream_lock:
                self._stream = None
            stream.close()
        return backoff.next(), "the game stream ended"

    def _on_message(self, message: Mapping[str, Any], received: float) -> None:
        kind = message.get("type")
        log.debug("game %s: %s", self.id, _short(message))
        if kind == "gameFull":
            self._on_full(message, received)
        elif kind == "gameState":
            self._on_state(message, received)
        elif kind == "chatLine":
            user, text = message.get("username"), message.get("text")
            log.info("game %s: chat (%s) %s: %s", self.id, message.get("room"), user, _clean(text))
        elif kind == "opponentGone":
            self._on_gone(message)

    def _on_full(self, full: Mapping[str, Any], received: float) -> None:
        info = self.info
        variant = full.get("variant")
        key = variant.get("key") if isinstance(variant, dict) else variant
        key = VARIANT_ALIASES.get(str(key), str(key)) if key else "9x9"
        info.variant = key
        initial = full.get("initialFen")
        info.initial = initial if isinstance(initial, str) and initial else "startpos"
        info.live = isinstance(full.get("clock"), dict)
        info.speed = str(full.get("speed") or info.speed)
        info.rated = full.get("rated") is True
        days = full.get("daysPerTurn")
        info.days = days if isinstance(days, int) else None
        me = self.bot.account_id
        for name, color in COLORS.items():
            player = full.get(name)
            if isinstance(player, dict) and str(player.get("id") or "").lower() == me:
                self.color = color
        if self.color is not None:
            opponent = full.get("black" if self.color == WHITE else "white")
            if isinstance(opponent, dict):
                self.opponent_id = str(opponent.get("id") or "").lower()
                info.opponent = str(opponent.get("name") or opponent.get("id") or "?")
                if opponent.get("title") == "BOT":
                    info.opponent = "BOT " + info.opponent
        if self.color is None:
            log.warning("game %s: %s does not play in this game; leaving it", self.id, me)
            self.over = True
            return
        if key not in VARIANTS:
            log.error("game %s: unknown variant %r; leaving the game", self.id, key)
            self.over = True
            return
        self.swap = _pending_swap(self.id, full.get("swap"))
        first = self.board is None
        self.board = None
        self._moved_ply = self._draw_ply = self._takeback_ply = -1
        if first:
            self.bot.game_known(self)
            log.info(
                "game %s: playing %s against %s (%s, %s%s)",
                self.id,
                "white" if self.color == WHITE else "black",
                info.opponent,
                key,
                info.speed or ("live" if info.live else "correspondence"),
                ", rated" if info.rated else "",
            )
        state = full.get("state")
        if isinstance(state, dict):
            self._greet(state)
            self._on_state(state, received)

    def _greet(self, state: Mapping[str, Any]) -> None:
        text = self.bot.config.greeting
        if text and not self._greeted and not str(state.get("moves") or "").strip():
            self._greeted = True
            self._call("chat", CHAT, self.id, form={"room": "player", "text": text})

    def _sync(self, texts: list[str]) -> bool:
        """The board after ``texts`` (the game's moves from its start); False when they do not
        replay (the server and the library disagree: the game cannot be played)."""
        board = self.board
        known = [str(m) for m in board.move_stack] if board is not None else []
        if board is None or known != texts[: len(known)]:
            initial = self.info.initial
            board = Board(variant=self.info.variant)
            if initial not in ("startpos", board.position()):
                board = Board(initial, variant=self.info.variant)
            known = []
        for number, text in enumerate(texts[len(known) :], len(known) + 1):
            try:
                board.push_move(text)
            except ValueError as e:
                log.error("game %s: move %d (%s) from the server does not replay: %s",
                          self.id, number, text, e)  # fmt: skip
                return False
        self.board = board
        return True

    def _on_state(self, state: Mapping[str, Any], received: float) -> None:
        moves = str(state.get("moves") or "").split()
        try:
            replayed = self._sync(moves)
        except ValueError as e:  # a starting position the library does not read
            log.error("game %s: cannot set up the game: %s; leaving it", self.id, e)
            self.over = True
            return
        if not replayed:
            self.over = True
            return
        status = str(state.get("status") or "started")
        if status not in PLAYING:
            self._finished(status, state.get("winner"))
            return
        if self.resigning or self.leave.is_set() or self.color is None:
            return
        board = self.board
        assert board is not None
        ply = len(moves)
        if ply < self._moved_ply:
            self._moved_ply = -1  # a takeback
        them = "b" if self.color == WHITE else "w"
        if state.get(f"{them}takeback") is True and self._takeback_ply != ply:
            self._takeback_ply = ply
            accept = self.bot.config.accept_takebacks
            # (quiet: an answer may cross a move that withdrew the request)
            if self._call("takeback", TAKEBACK, self.id, "yes" if accept else "no", quiet=True):
                log.info(
                    "game %s: takeback request %s", self.id, "accepted" if accept else "declined"
                )
            if accept:
                return  # the next state has the position after it
        offered = state.get(f"{them}draw") is True and self._draw_ply != ply
        my_turn = board.turn == self.color and board.outcome() is None
        if my_turn and self._moved_ply != ply and self._choose_swap(state, received):
            return  # White's side taken: a gameFull with the seats exchanged comes next
        if my_turn and self._moved_ply != ply:
            self._play(state, ply, received, offered)
        elif offered:
            self._draw_ply = ply
            self._answer_draw(None)

    def _finished(self, status: str, winner: Any) -> None:
        self.over = True
        self._cancel_claim()
        if winner in COLORS:
            mine = COLORS[winner] == self.color
            self.result = f"{'won' if mine else 'lost'} ({status})"
        else:
            self.result = f"drawn ({status})" if status not in ("aborted", "noStart") else status
        plies = len(self.board.move_stack) if self.board is not None else 0
        log.info("game %s over after %d plies: %s", self.id, plies, self.result)

    # --- thinking and moving ----------------------------------------------------------------

    def _limit(self, state: Mapping[str, Any], received: float) -> Limit:
        config = self.bot.config
        assert self.board is not None
        spec = config.engine
        if not self.info.live:
            seconds = spec.movetime or default_movetime(self.info.variant)
            return Limit(time=seconds)
        wtime, btime = _seconds(state.get("wtime")), _seconds(state.get("btime"))
        spent = time.monotonic() - received  # the state waited for us this long
        if self.color == WHITE and wtime is not None:
            wtime = max(wtime - spent, 0.0)
        elif self.color != WHITE and btime is not None:
            btime = max(btime - spent, 0.0)
        return Limit(
            time=spec.movetime,
            wtime=wtime,
            btime=btime,
            winc=_seconds(state.get("winc")),
            binc=_seconds(state.get("binc")),
        )

    def _engine(self) -> GameEngine:
        if self.engine is None:
            self.engine = self.bot.config.engine.open(game_seed(self.id), self.info.variant)
        return self.engine

    def _release_engine(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            engine.close()

    def _play(self, state: Mapping[str, Any], ply: int, received: float, offered: bool) -> None:
        board = self.board
        assert board is not None and self.color is not None
        limit = self._limit(state, received)
        stop = threading.Event()
        self._search_stop = stop
        _, hard = time_budget(limit, self.color)
        watchdog = None
        # an external engine that overruns its budget is stopped; the built-in one keeps to its
        # limit itself (a timer is a thread started a move: milliseconds on a busy machine)
        if hard is not None and self.bot.config.engine.command is not None:
            watchdog = threading.Timer(hard + SEARCH_GRACE, stop.set)
            watchdog.daemon = True
            watchdog.start()
        began = time.monotonic()
        try:
            result = self._engine().play(board, limit, stop)
        except EngineError as e:
            if self._engine_failed(e):
                self._play(state, ply, received, offered)
            return
        finally:
            if watchdog is not None:
                watchdog.cancel()
            self._search_stop = None
        if self.resigning or self.leave.is_set() or result.move is None:
            return
        if offered:
            self._draw_ply = ply
            if self._answer_draw(result):
                return  # accepted: the next state ends the game
        text = str(result.move)
        took = time.monotonic() - began
        info = result.infos[0] if result.infos else None
        about = f", score {info.score}, depth {info.depth}" if info is not None else ""
        log.info("game %s: ply %d: %s (%.2f s%s)", self.id, ply + 1, text, took, about)
        self._moved_ply = ply
        if not self.live:  # days may pass before the next move: hold no tables (or process)
            self._release_engine()
        if self._post_move(text):
            self.plies_played += 1

    def _choose_swap(self, state: Mapping[str, Any], received: float) -> bool:
        """Black's choice under the swap rule, once, at its ply (``--swap``: ``auto``, the
        engine's score within the move's budget; ``always``; ``never``), through the swap
        endpoint; True when White's side was taken."""
        rule, board = self.swap, self.board
        if rule is None or board is None or self.color != BLACK or not rule.due(board):
            return False
        self.swap = None
        policy = self.bot.config.swap
        take = policy == "always"
        if policy == "auto":
            try:
                take = self._engine().takes_swap(board, rule, self._limit(state, received))
            except EngineError as e:
                log.error("game %s: the engine failed on the swap (%s): staying Black", self.id, e)
        if not self._call("swap", SWAP, self.id, "yes" if take else "no"):
            return False  # refused (chosen already, the game over): play on as the stream says
        log.info(
            "game %s: swap rule %s: %s (--swap %s)",
            self.id, rule, "took White's side" if take else "stayed Black", policy,
        )  # fmt: skip
        return take

    def _engine_failed(self, error: EngineError) -> bool:
        """After the engine failed: True to think again with a new engine (the first time),
        False when the game was resigned (the second)."""
        self._engine_failures += 1
        self._release_engine()
        if self._engine_failures == 1:
            log.error("game %s: the engine failed (%s); starting it again", self.id, error)
            return True
        log.error("game %s: the engine failed again (%s); resigning", self.id, error)
        self.resign()
        return False

    def _post_move(self, text: str) -> bool:
        config = self.bot.config
        backoff = Backoff(config.backoff_base / 4, config.backoff_cap / 8)
        for _ in range(MOVE_ATTEMPTS):
            try:
                self.bot.api.post(MOVE, self.id, text)
                return True
            except RateLimited as e:
                log.warning("game %s: move %s: %s", self.id, text, e)
                wait = e.retry_after
            except Transient as e:
                wait = backoff.next()
                log.warning("game %s: move %s: %s: trying again in %.1f s", self.id, text, e, wait)
            except AuthError as e:
                if e.status == 401:
                    raise
                log.error("game %s: move %s refused: %s", self.id, text, e)
                return False
            except ApiError as e:
                log.error("game %s: the server refused the move %s: %s", self.id, text, e)
                return False
            if self.leave.wait(wait) or self.resigning:
                return False
        return False

    def _answer_draw(self, result: Any) -> bool:
        """Answer the opponent's draw offer; True when accepted."""
        board = self.board
        assert board is not None and self.color is not None
        try:
            limit = Limit(time=min(DRAW_THINK_TIME, self.bot.config.engine.movetime or 1.0))
            accept = self._engine().accepts_draw(board, self.color, result, limit)
        except EngineError as e:
            log.error("game %s: the engine failed on a draw offer (%s): declined", self.id, e)
            accept = False
        answered = self._call("draw", DRAW, self.id, "yes" if accept else "no", quiet=True)
        if answered:
            log.info("game %s: draw offer %s", self.id, "accepted" if accept else "declined")
        return accept and answered

    # --- the opponent gone --------------------------------------------------------------------

    def _on_gone(self, message: Mapping[str, Any]) -> None:
        self._cancel_claim()
        if message.get("gone") is not True:
            log.info("game %s: the opponent is back", self.id)
            return
        seconds = message.get("claimWinInSeconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            log.info("game %s: the opponent left", self.id)
            return
        delay = max(float(seconds), 0.0)
        log.info("game %s: the opponent left; claiming the win in %.0f s", self.id, delay)
        self._schedule_claim(delay + (CLAIM_MARGIN if delay > 0 else 0.0), tries=3)

    def _schedule_claim(self, delay: float, tries: int) -> None:
        timer = threading.Timer(delay, self._claim_victory, args=(tries,))
        timer.daemon = True
        self._claim = timer
        timer.start()

    def _claim_victory(self, tries: int) -> None:
        if self.over or self.leave.is_set() or self.resigning:
            return
        try:
            if self._call("claim-victory", CLAIM_VICTORY, self.id, quiet=tries > 1):
                log.info("game %s: claimed the win", self.id)
            elif tries > 1 and not self.over:
                self._schedule_claim(2.0, tries - 1)
        finally:
            self.bot.api.close()  # the timer's thread ends here

    def _cancel_claim(self) -> None:
        timer, self._claim = self._claim, None
        if timer is not None:
            timer.cancel()

    # --- requests -------------------------------------------------------------------------

    def _call(
        self,
        what: str,
        template: str,
        *args: str,
        form: Mapping[str, str] | None = None,
        quiet: bool = False,
    ) -> bool:
        """POST one of the game's requests; True when the server took it.  Failures are logged
        (the stream tells what happened next); a refused token stops the bot."""
        try:
            self.bot.api.post(template, *args, form=form)
            return True
        except AuthError as e:
            if e.status == 401:
                self.bot.fatal(e)
            log.error("game %s: %s: %s", self.id, what, e)
        except ApiError as e:
            (log.info if quiet else log.warning)("game %s: %s: %s", self.id, what, e)
        return False


def _pending_swap(game_id: str, tag: Any) -> SwapRule | None:
    """The swap rule of a ``gameFull``'s ``swap`` (the game's tag: ``swap-N`` while Black's
    choice is ahead, ``swap-N taken`` or ``declined`` after), None when none is ahead."""
    if not isinstance(tag, str) or len(tag.split()) != 1:
        return None
    try:
        return SwapRule.parse(tag)
    except ValueError as e:
        log.warning("game %s: %s; the swap is left to the moves", game_id, e)
        return None


def _clean(text: Any, limit: int = 300) -> str:
    """A text from the network made safe for one log line."""
    value = "".join(c if c.isprintable() else " " for c in str(text))
    return value if len(value) <= limit else value[: limit - 3] + "..."


def _short(message: Mapping[str, Any]) -> str:
    return _clean(dict(message), 500)
