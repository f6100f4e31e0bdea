"""Engine self-play: games of the C kernel's search against itself, every position written
with the search's evaluation, its best move and the game's result (``emergo selfplay``).

The data is what ``tools/tune.py`` fits the evaluation's weights on and what a value
network trains on (``examples/value_network.py``).  Each game is made from its own
seed, ``(seed, game number)``: a random opening of entering moves, then the searcher
with empty tables at a fixed node count (or a playing level).  So a game is the same
whichever runner plays it, in whatever order: threads here (:class:`~emergo.parallel.
ThreadRunner`) or the workers of a Ray cluster (``emergo.ray_runner``).

The file is a NumPy ``.npz`` archive, written without NumPy (:func:`write_npz`): one
array per column, one row per position, the positions of game 0 first, each game's in
the order played.  docs/research.md gives the schema; :data:`COLUMNS` is it in code.

>>> config = SelfplayConfig(nodes=50, seed=1)
>>> game = play_game(config, 0)
>>> game.rows[0].ply >= 2 and game.rows[0].result in (-1, 0, 1)
True
>>> play_game(config, 0) == game   # the same seed, the same game
True
"""

from __future__ import annotations

import io
import json
import os
import random
import struct
import tempfile
import threading
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from emergo.board import WHITE, Board
from emergo.levels import LEVEL_MAX, LevelSearcher, level_setting
from emergo.parallel import Runner, ThreadRunner
from emergo.search import Limit, SearchResult

if TYPE_CHECKING:  # the kernel is imported when games are played: the CLI starts without it
    from emergo.kernel import Searcher as KernelSearcher

GAMES_MAX = 10_000_000
"""Games one run may ask for."""
PLIES_MAX = 10_000
"""The longest game (``max_plies``): a game still going is then a draw."""
RANDOM_PLIES_MAX = 100
"""The most random opening moves."""
FORMAT_VERSION = 1
"""The file's schema version (in its ``meta``)."""

COLUMNS: dict[str, str] = {
    "game": "int32",
    "ply": "int32",
    "position": "str",
    "turn": "int8",
    "capturing": "bool",
    "move": "str",
    "score": "int32",
    "depth": "int16",
    "result": "int8",
}
"""The columns of a self-play file and their types (docs/research.md says what each holds)."""


@dataclass(frozen=True)
class SelfplayConfig:
    """How each game is played.

    ``nodes``: the search's nodes per move; ``level``: a playing level
    (:mod:`emergo.levels`: its node cap and its random choice among the best lines),
    which needs no ``nodes`` below :data:`~emergo.levels.LEVEL_MAX`.  ``random_plies``:
    each game opens with a number of random moves drawn from this range (both ends
    included), not searched and not written.  ``max_plies``: a longer game ends as a
    draw.  ``weights``: the evaluation's weights (default: the shipped file).
    """

    nodes: int | None = 2000
    level: int = LEVEL_MAX
    variant: str | None = None
    seed: int = 0
    random_plies: tuple[int, int] = (2, 8)
    max_plies: int = 300
    hash_mb: int = 8
    weights: Mapping[str, int] | None = None

    def __post_init__(self) -> None:
        level_setting(self.level)  # range check
        if self.nodes is None and self.level == LEVEL_MAX:
            raise ValueError("self-play at full strength needs a node count")
        Limit(nodes=self.nodes)  # range check
        low, high = self.random_plies
        if not 0 <= low <= high <= RANDOM_PLIES_MAX:
            raise ValueError(
                f"random_plies must be (low, high) with 0 <= low <= high <= {RANDOM_PLIES_MAX}, "
                f"not {self.random_plies}"
            )
        if not 1 <= self.max_plies <= PLIES_MAX:
            raise ValueError(f"max_plies must be in 1..{PLIES_MAX}, not {self.max_plies}")
        from emergo import kernel

        if not kernel.supports(Board(variant=self.variant).variant):
            raise ValueError(f"the C kernel does not play {self.variant} yet")

    def meta(self) -> dict[str, object]:
        """The settings as written in the file's ``meta``."""
        return {
            "format": FORMAT_VERSION,
            "nodes": self.nodes,
            "level": self.level,
            "variant": Board(variant=self.variant).variant,
            "seed": self.seed,
            "random_plies": list(self.random_plies),
            "max_plies": self.max_plies,
            "weights": None if self.weights is None else dict(self.weights),
        }


@dataclass(frozen=True)
class Row:
    """One position of a game: see :data:`COLUMNS`."""

    game: int
    ply: int
    position: str
    turn: int
    capturing: bool
    move: str
    score: int
    depth: int
    result: int


@dataclass(frozen=True)
class GameData:
    """One game: its number, its rows and its result from White's side (1, 0, -1)."""

    number: int
    rows: tuple[Row, ...]
    result: int
    plies: int
    reason: str = ""
    opening: tuple[str, ...] = ()
    """The random opening's moves (R21 texts), played before the first row."""
    worker: int = field(default=0, compare=False)
    """The process id that played it (for diagnostics; not part of the game)."""


def game_seed(seed: int, number: int) -> str:
    """The seed of game ``number`` of a run (string seeds are stable across runs)."""
    return f"emergo-selfplay {seed} {number}"


_SEARCHERS: dict[tuple[int, int, tuple[tuple[str, int], ...] | None], KernelSearcher] = {}
"""A searcher per thread and per settings, reused from game to game (cleared for each)."""


def _searcher(config: SelfplayConfig) -> KernelSearcher:
    from emergo import kernel

    weights = None if config.weights is None else tuple(sorted(config.weights.items()))
    key = (threading.get_ident(), config.hash_mb, weights)
    searcher = _SEARCHERS.get(key)
    if searcher is None:
        searcher = kernel.Searcher(hash_mb=config.hash_mb, weights=config.weights)
        _SEARCHERS[key] = searcher
    searcher.clear()
    return searcher


def _played_score(result: SearchResult) -> tuple[int, int]:
    """The score and depth of the line whose move was played."""
    for info in result.infos:
        if info.pv and info.pv[0] == result.move and info.score is not None:
            return info.score.to_value(), info.depth or 0
    return 0, 0


def play_game(config: SelfplayConfig, number: int) -> GameData:
    """Play game ``number`` of a run: the same game for the same config and number."""
    rng = random.Random(game_seed(config.seed, number))
    board = Board(variant=config.variant)
    opening: list[str] = []
    for _ in range(rng.randint(*config.random_plies)):
        moves = board.moves()
        if not moves or board.outcome() is not None:
            break
        move = rng.choice(moves)
        opening.append(str(move))
        board.push(move)
    inner = _searcher(config)
    searcher: KernelSearcher | LevelSearcher = inner
    if config.level < LEVEL_MAX:
        searcher = LevelSearcher(inner, config.level, seed=rng.randrange(2**31))
    limit = Limit(nodes=config.nodes)
    seen: list[tuple[int, str, int, bool, str, int, int]] = []
    while board.outcome() is None and len(board.move_stack) < config.max_plies:
        result = searcher.search(board, limit)
        if result.move is None:  # pragma: no cover - the search always has a move here
            break
        score, depth = _played_score(result)
        seen.append(
            (
                len(board.move_stack),
                board.position(),
                1 if board.turn == WHITE else 0,
                board.is_capturing(),
                str(result.move),
                score,
                depth,
            )
        )
        board.push(result.move)
    outcome = board.outcome()
    if outcome is None:
        white, reason = 0, f"draw after {config.max_plies} plies"
    else:
        white = 0 if outcome.winner is None else 1 if outcome.winner == WHITE else -1
        reason = outcome.reason()
    rows = tuple(
        Row(number, ply, position, turn, capturing, move, score, depth, white if turn else -white)
        for ply, position, turn, capturing, move, score, depth in seen
    )
    return GameData(number, rows, white, len(board.move_stack), reason, tuple(opening), os.getpid())


class SelfplayInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run_selfplay`; ``games`` holds the games finished before it."""

    def __init__(self, games: list[GameData]) -> None:
        super().__init__("self-play interrupted")
        self.games = games


def run_selfplay(
    config: SelfplayConfig,
    games: int,
    *,
    runner: Runner | None = None,
    on_game: Callable[[GameData], None] | None = None,
) -> list[GameData]:
    """Play games ``0 .. games-1`` and return them in order, whatever order they finished in.

    ``runner`` runs them (default: one thread); ``on_game`` hears of each as it finishes.
    Ctrl-C raises :class:`SelfplayInterrupted` with the games finished so far.
    """
    if not 1 <= games <= GAMES_MAX:
        raise ValueError(f"games must be in 1..{GAMES_MAX}, not {games}")
    runner = runner or ThreadRunner(1)
    done: list[GameData] = []
    results = runner.run(partial(play_game, config), range(games))
    try:
        for _, game in results:
            done.append(game)
            if on_game is not None:
                on_game(game)
    except KeyboardInterrupt:
        _close(results)
        raise SelfplayInterrupted(sorted(done, key=lambda g: g.number)) from None
    return sorted(done, key=lambda g: g.number)


def _close(results: Iterator[object]) -> None:
    close = getattr(results, "close", None)
    if close is not None:
        close()


# --- the file: .npz without NumPy ------------------------------------------------------------

_DESCR = {"int8": "|i1", "int16": "<i2", "int32": "<i4", "bool": "|b1"}
_PACK = {"int8": "b", "int16": "h", "int32": "i", "bool": "?"}


def columns(games: Sequence[GameData]) -> dict[str, list[object]]:
    """The rows of the games as columns (:data:`COLUMNS`)."""
    rows = [row for game in games for row in game.rows]
    return {name: [getattr(row, name) for row in rows] for name in COLUMNS}


def _npy(values: Sequence[object], kind: str) -> bytes:
    """One column as a ``.npy`` file (format version 1.0, little-endian, C order)."""
    if kind == "str":
        texts = [str(v) for v in values]
        width = max((len(t) for t in texts), default=1) or 1
        descr = f"<U{width}"
        body = b"".join(t.ljust(width, "\0").encode("utf-32-le") for t in texts)
        shape = f"({len(texts)},)"
    elif kind == "json":  # a 0-d string array: the metadata
        (text,) = values
        descr = f"<U{max(len(str(text)), 1)}"
        body = str(text).encode("utf-32-le") if text else b"\0\0\0\0"
        shape = "()"
    else:
        descr = _DESCR[kind]
        body = struct.pack(f"<{len(values)}{_PACK[kind]}", *values)
        shape = f"({len(values)},)"
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}"
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * (pad % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin-1") + body


def write_npz(path: str | Path, games: Sequence[GameData], config: SelfplayConfig) -> int:
    """Write the games' positions to ``path`` (``.npz``; replaced whole, never half-written).

    The same games give the same bytes.  Returns the number of positions.
    """
    data = columns(games)
    meta = config.meta() | {
        "games": len(games),
        "positions": len(data["game"]),
        "results": {
            "white": sum(g.result == 1 for g in games),
            "draw": sum(g.result == 0 for g in games),
            "black": sum(g.result == -1 for g in games),
        },
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, kind in COLUMNS.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, _npy(data[name], kind))
        info = zipfile.ZipInfo("meta.npy", date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, _npy([json.dumps(meta, sort_keys=True)], "json"))
    target = Path(path)
    folder = target.parent
    handle, temporary = tempfile.mkstemp(prefix=".selfplay-", suffix=".npz", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(buffer.getvalue())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return len(data["game"])


def read_npz(path: str | Path) -> tuple[dict[str, list[object]], dict[str, object]]:
    """A self-play file's columns (as lists) and its ``meta``, without NumPy.

    (With NumPy, ``numpy.load(path)`` reads it too.)
    """
    out: dict[str, list[object]] = {}
    meta: dict[str, object] = {}
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            raw = archive.read(member)
            if raw[:6] != b"\x93NUMPY":
                raise ValueError(f"{path}: {member} is not a .npy array")
            (length,) = struct.unpack("<H", raw[8:10])
            header = raw[10 : 10 + length].decode("latin-1")
            body = raw[10 + length :]
            descr = header.split("'descr': '", 1)[1].split("'", 1)[0]
            name = member.removesuffix(".npy")
            values: list[object]
            if descr.startswith("<U"):
                width = int(descr[2:])
                texts = body.decode("utf-32-le")
                values = [texts[i : i + width].rstrip("\0") for i in range(0, len(texts), width)]
                if name == "meta":
                    meta = json.loads(str(values[0]))
                    continue
            else:
                code = {v: _PACK[k] for k, v in _DESCR.items()}[descr]
                count = len(body) // struct.calcsize(code)
                values = list(struct.unpack(f"<{count}{code}", body))
            out[name] = values
    return out, meta
