"""Playing levels: the engine's search capped in depth or nodes, then a move drawn among the best.

:data:`LEVELS` is the table (docs/engine.md); :class:`LevelSearcher` wraps any
:class:`~emergo.search.Searcher` to play at a level.
"""

from __future__ import annotations

import math
import random
import threading
from dataclasses import dataclass, replace

from emergo.board import Board
from emergo.search import (
    GuardedSearcher,
    InfoCallback,
    Limit,
    Score,
    Searcher,
    SearchInfo,
    SearchResult,
)

LEVEL_MAX = 11
"""Full strength: the search as it is, within the limit the front end gives."""
LEVEL_CLIP = 2000
"""Centi-men a proven win or loss counts as when a level weighs its moves."""


@dataclass(frozen=True)
class LevelSetting:
    """How one playing level searches and chooses (docs/engine.md has the table).

    The search is capped at ``depth`` plies or ``nodes`` nodes (unless the front
    end's limit is tighter), asked for the best ``lines`` moves
    (multi-PV), and one of them is drawn with softmax weights
    ``exp((score - best) / temperature)``: a high temperature makes plausible
    blunders (a worse move is likely, a much worse one less so), 0 always
    plays the best move.
    """

    level: int
    depth: int | None
    nodes: int | None
    lines: int
    temperature: float
    """In centi-men; 0 plays the best line."""
    label: str


_ROWS: tuple[tuple[int | None, int | None, int, float, str], ...] = (
    # depth, nodes, lines, temperature, label
    (1, None, 12, 200.0, "beginner: one ply, blunders freely"),
    (None, 1_000, 10, 150.0, "beginner"),
    (None, 2_500, 10, 110.0, "novice: sees the reply"),
    (None, 6_000, 8, 80.0, "novice"),
    (None, 15_000, 6, 55.0, "casual"),
    (None, 40_000, 5, 38.0, "club"),
    (None, 100_000, 4, 24.0, "strong club"),
    (None, 250_000, 3, 13.0, "expert"),
    (None, 500_000, 2, 6.0, "master"),
    (None, 1_200_000, 1, 0.0, "grandmaster: best move only"),
    (None, None, 1, 0.0, "full strength"),
)

HEX_NODES: dict[int, int] = {10: 3_000_000}
"""Node caps of HexEmergo (R4 ``hex``) that differ from the square boards' (docs/engine.md):
on the hexagon the first player wins most games between strong players, so a level
must search far more than the one below it to win games as Black too."""


def _levels(nodes: dict[int, int] | None = None) -> tuple[LevelSetting, ...]:
    nodes = nodes or {}
    return tuple(
        replace(LevelSetting(n, *row), nodes=nodes.get(n, row[1])) for n, row in enumerate(_ROWS, 1)
    )


LEVELS: tuple[LevelSetting, ...] = _levels()
"""The playing levels 1..:data:`LEVEL_MAX`, weakest first (``LEVELS[level - 1]``), of the
square boards (9x9, 7x7)."""
VARIANT_LEVELS: dict[str, tuple[LevelSetting, ...]] = {"hex": _levels(HEX_NODES)}
"""The tables of the variants whose levels differ from :data:`LEVELS`."""


DEFAULT_MOVETIME = 1.0
"""Seconds a move the engine thinks on the square boards when no one names a time."""
VARIANT_MOVETIMES: dict[str, float] = {"hex": 4.0}
"""The variants whose engine thinks longer when no one names a time: on the hexagon level 10
searches 3,000,000 nodes (about 0.75 s of a core), so full strength (level 11) needs about 4 s
to search four times as many, as it does in 1 s on the square boards (docs/engine.md)."""


def default_movetime(variant: str = "9x9") -> float:
    """Seconds a move the engine thinks on ``variant`` when neither the user nor a clock
    names a time: enough for level 11 to search well past level 10's cap.

    >>> default_movetime(), default_movetime("hex")
    (1.0, 4.0)
    """
    return VARIANT_MOVETIMES.get(variant, DEFAULT_MOVETIME)


def levels(variant: str = "9x9") -> tuple[LevelSetting, ...]:
    """The level table of a variant (R4)."""
    return VARIANT_LEVELS.get(variant, LEVELS)


def level_hash_mb(level: int, variant: str, full_mb: int) -> int:
    """Megabytes of hash for an engine at ``level``: ``full_mb`` at full strength; below, room
    for two entries of 16 bytes a node of the level's cap, a power of two, at most ``full_mb``
    (a level's tables are cleared before each search, :class:`LevelSearcher`: a level-1 engine
    needs 1 MB, not 16 zeroed for each move).

    >>> level_hash_mb(1, "7x7", 16), level_hash_mb(LEVEL_MAX, "9x9", 16)
    (1, 16)
    """
    if level == LEVEL_MAX:
        return full_mb
    nodes = level_setting(level, variant).nodes or 0  # none: capped in depth (level 1)
    needed = max(1, -(-nodes * 32 // 2**20))
    return min(full_mb, 1 << (needed - 1).bit_length())


def level_setting(level: int, variant: str = "9x9") -> LevelSetting:
    """The setting of a level on ``variant``; a clear error outside 1..:data:`LEVEL_MAX`."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= LEVEL_MAX:
        raise ValueError(f"level must be a whole number in 1..{LEVEL_MAX}, not {level!r}")
    return levels(variant)[level - 1]


def level_limit(level: int, limit: Limit, variant: str = "9x9") -> Limit:
    """``limit`` with the level's depth and node caps added (the tighter of each wins)."""
    setting = level_setting(level, variant)

    def tighter(own: int | None, cap: int | None) -> int | None:
        return cap if own is None else own if cap is None else min(own, cap)

    return replace(
        limit, depth=tighter(limit.depth, setting.depth), nodes=tighter(limit.nodes, setting.nodes)
    )


def _weight_value(score: Score) -> float:
    return float(max(-LEVEL_CLIP, min(LEVEL_CLIP, score.to_value())))


def choose_line(
    infos: tuple[SearchInfo, ...], temperature: float, rng: random.Random
) -> SearchInfo:
    """One of the ranked lines, drawn with softmax weights over their scores (see LevelSetting).

    Lines without a move are skipped; with ``temperature <= 0`` the best line is taken.
    """
    lines = [info for info in infos if info.pv]
    if not lines:
        raise ValueError("no line with a move to choose from")
    lines.sort(key=lambda info: info.multipv)
    if temperature <= 0 or len(lines) == 1:
        return lines[0]
    best = max(_weight_value(info.score) for info in lines)
    weights = [math.exp((_weight_value(info.score) - best) / temperature) for info in lines]
    return rng.choices(lines, weights)[0]


class LevelSearcher(GuardedSearcher):
    """A searcher playing at a level: the inner search capped, then a move drawn (LevelSetting).

    The setting is that of the searched board's variant (:func:`levels`; ``setting``
    is the square boards').  At :data:`LEVEL_MAX` it is the inner searcher unchanged.
    Below, every search
    starts from empty tables (``inner.clear()``: what deeper searches left there
    would change a capped search's scores) and the draw's random generator is
    seeded by ``seed``, the position (R22) and the number of moves played: under
    depth or node caps the same game replays the same way.
    Reports of lines beyond the ``multipv`` the caller asked for are not passed on;
    when the draw is not the best line, it is reported last as line 1, so a front
    end's last report describes the move played.
    """

    def __init__(self, inner: Searcher, level: int = LEVEL_MAX, *, seed: int = 0) -> None:
        super().__init__()
        self.setting = level_setting(level)
        self.inner = inner
        self.seed = seed

    @property
    def level(self) -> int:
        return self.setting.level

    def clear(self) -> None:
        self.inner.clear()

    def rng(self, board: Board) -> random.Random:
        """The random draw for this position (string seeds are stable across runs)."""
        return random.Random(f"{self.seed} {board.position()} {len(board.move_stack)}")

    def _search(
        self,
        board: Board,
        limit: Limit,
        multipv: int,
        on_info: InfoCallback | None,
        stop: threading.Event | None,
    ) -> SearchResult:
        setting = level_setting(self.level, board.variant)
        if setting.level == LEVEL_MAX:
            return self.inner.search(board, limit, multipv=multipv, on_info=on_info, stop=stop)
        asked = max(1, multipv)
        self.inner.clear()

        def report(info: SearchInfo) -> None:
            if on_info is not None and info.multipv <= asked:
                on_info(info)

        result = self.inner.search(
            board,
            level_limit(setting.level, limit, board.variant),
            multipv=max(asked, setting.lines),
            on_info=report,
            stop=stop,
        )
        shown = tuple(info for info in result.infos if info.multipv <= asked)
        if result.move is None or setting.temperature <= 0 or len(result.infos) < 2:
            return SearchResult(result.move, result.ponder, shown)
        line = choose_line(result.infos, setting.temperature, self.rng(board))
        ponder = line.pv[1] if len(line.pv) > 1 else None
        if line.multipv != 1:
            line = replace(line, multipv=1)
            shown = (line, *(info for info in shown if info.multipv != 1))
            if on_info is not None:
                on_info(line)
        return SearchResult(line.pv[0], ponder, shown)
