"""The engine behind a bot: a built-in player of :mod:`emergo.players` (by default the engine at
a level) or any program speaking the emergo engine protocol (:mod:`emergo.engine`), one
searcher (or process) a game, so that games think at once without sharing tables."""

from __future__ import annotations

import contextlib
import shlex
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from emergo.ballots import SwapRule
from emergo.board import WHITE, Board, Color
from emergo.engine import EngineError, ProtocolSearcher
from emergo.game import accepts_draw
from emergo.levels import LEVEL_MAX, level_hash_mb
from emergo.players import PLAYERS, searcher
from emergo.search import Limit, Score, Searcher, SearchResult

__all__ = ["EngineError", "EngineSpec", "GameEngine", "game_seed"]


def game_seed(game_id: str) -> int:
    """The random seed of a game's engine: the same game id replays the same choices, and
    different games differ (a level draws among its best moves with it).

    >>> game_seed("abcd1234") == game_seed("abcd1234") != game_seed("abcd1235")
    True
    """
    return zlib.crc32(game_id.encode("utf-8")) & 0x7FFFFFFF


@dataclass(frozen=True)
class EngineSpec:
    """Which engine a bot plays with.

    ``command`` (a command line) starts an external engine for each game; else ``player``
    names a built-in computer (:data:`emergo.players.PLAYERS`).  ``level`` is the built-in
    engine's level, or the ``Level`` option of an external engine (which must declare it);
    ``options`` are more options of an external engine.  ``movetime`` caps the seconds of a
    move; without it the clock decides in live games and :func:`emergo.levels.default_movetime`
    does in the others.
    """

    player: str = "engine"
    command: str | None = None
    level: int | None = None
    hash_mb: int = 16
    options: tuple[tuple[str, str], ...] = field(default=())
    movetime: float | None = None
    timeout: float = 10.0
    """Seconds an external engine may take to answer beyond its search's own time."""

    def __post_init__(self) -> None:
        if self.command is None and self.player not in PLAYERS:
            raise ValueError(
                f"unknown player {self.player!r}: expected one of {', '.join(PLAYERS)}"
            )
        if self.command is not None and not shlex.split(self.command):
            raise ValueError("empty engine command")
        if self.level is not None and not 1 <= self.level <= LEVEL_MAX:
            raise ValueError(f"level must be in 1..{LEVEL_MAX}, not {self.level}")

    def describe(self) -> str:
        if self.command is not None:
            level = f", Level {self.level}" if self.level is not None else ""
            return f"engine {self.command!r}{level}"
        if PLAYERS[self.player].backend is not None:
            return f"the built-in {self.player}, level {self.level or LEVEL_MAX}"
        return f"the built-in player {self.player}"

    def open(self, seed: int = 0, variant: str = "9x9") -> GameEngine:
        """A new engine for one game of ``variant`` (an external engine: a new process, its
        options set); a built-in level below full strength gets the hash its cap fills
        (:func:`emergo.levels.level_hash_mb`), at most :attr:`hash_mb`."""
        if self.command is not None:
            options: dict[str, object] = dict(self.options)
            if self.level is not None:
                options["Level"] = self.level
            found = ProtocolSearcher.popen(self.command, timeout=self.timeout, options=options)
            return GameEngine(found, found.name, found.close)
        level = self.level or LEVEL_MAX
        hash_mb = level_hash_mb(level, variant, self.hash_mb)
        made = searcher(self.player, seed=seed, level=level, hash_mb=hash_mb)
        return GameEngine(made, self.describe(), None)


class GameEngine:
    """One game's searcher, and what the bot asks of it: a move, a view of a draw offer."""

    def __init__(self, found: Searcher, name: str, on_close: Callable[[], None] | None) -> None:
        self.searcher = found
        self.name = name
        self._on_close = on_close

    def play(self, board: Board, limit: Limit, stop: threading.Event | None = None) -> SearchResult:
        """The engine's move in ``board`` (its history included) within ``limit``."""
        return self.searcher.search(board, limit, stop=stop)

    def accepts_draw(
        self, board: Board, me: Color, result: SearchResult | None, limit: Limit
    ) -> bool:
        """Does the bot (``me``) accept a draw here?  The engine's score (``result``'s, when it
        searched this position already, else a short search) by :func:`emergo.game.accepts_draw`;
        an engine that reports no score is judged by the men each side controls (R5, R9)."""
        if result is None:
            result = self.searcher.search(board, limit)
        score = result.infos[0].score if result.infos else _men_score(board)
        return accepts_draw(score if board.turn == me else -score, board)

    def takes_swap(self, board: Board, rule: SwapRule, limit: Limit) -> bool:
        """Does the bot, Black at the swap rule's ply, take White's side?  When the engine's
        search within ``limit`` scores White's side better (than the rule's margin):
        :meth:`emergo.ballots.SwapRule.decide`."""
        return rule.decide(board, self.searcher, limit)

    def close(self) -> None:
        on_close, self._on_close = self._on_close, None
        if on_close is not None:
            with contextlib.suppress(EngineError, OSError):
                on_close()


def _men_score(board: Board) -> Score:
    def men(color: Color) -> int:
        owned = sum(stack.size for stack in board.stacks().values() if stack.owner == color)
        return board.hand(color) + owned

    mover = board.turn
    return Score.cp(100 * (men(mover) - men(not mover)))


COLORS = {"white": WHITE, "black": not WHITE}
"""The colour names of the API."""
