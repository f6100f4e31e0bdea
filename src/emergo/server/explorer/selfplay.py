"""The explorer's second source: games of the engine against itself (:mod:`emergo.selfplay`).

Either a self-play file (``emergo selfplay``'s ``.npz``) is read, or games are played here:
:data:`DEFAULT_NODES` nodes a move at the playing level :data:`DEFAULT_LEVEL` (its choice
among the best two lines: games differ without random moves) and no random opening, so every
move counted is the engine's, from the first.  A file's games open with random moves that it
does not hold: its positions count from the first move the engine searched.

A game's id is its run's (a digest of the settings that make the games: :func:`run_of`) and
its number: the same games are counted once however often a file is imported or a run
started, and a run stopped goes on where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from emergo.board import WHITE, Board, Move
from emergo.errors import IllegalMoveError
from emergo.levels import LEVEL_MAX
from emergo.selfplay import GameData, SelfplayConfig, play_game, read_npz
from emergo.server.explorer.index import PLY_LIMIT, Game, Seen, digest
from emergo.symmetry import canonical

__all__ = ["DEFAULT_LEVEL", "DEFAULT_NODES", "config_of", "file_games", "game_of", "run_of"]

DEFAULT_NODES = 10_000
"""Nodes a move of the explorer's engine games (``--nodes``)."""
DEFAULT_LEVEL = LEVEL_MAX - 2
"""Their playing level (``--level``): "master", a draw between the two best lines."""
_RUN_FIELDS = ("nodes", "level", "variant", "seed", "random_plies", "max_plies", "weights")


def run_of(meta: Mapping[str, Any]) -> str:
    """The id of a run of games: 12 hex digits of the settings that make them."""
    fields = {k: meta.get(k) for k in _RUN_FIELDS}
    return hashlib.blake2b(json.dumps(fields, sort_keys=True).encode(), digest_size=6).hexdigest()


def config_of(
    games_variant: str | None = None,
    *,
    nodes: int = DEFAULT_NODES,
    level: int = DEFAULT_LEVEL,
    seed: int = 0,
) -> SelfplayConfig:
    """The settings of the explorer's own engine games (module docstring)."""
    return SelfplayConfig(
        nodes=nodes, level=level, variant=games_variant, seed=seed, random_plies=(0, 0)
    )


def _seen(variant: str, rows: Sequence[tuple[int, str, str]]) -> list[Seen]:
    """The positions of one game's rows ``(ply, position, move)``, each checked: the position a
    valid R22 string, the move legal there."""
    seen: dict[str, Seen] = {}
    for ply, position, text in sorted(rows):
        if ply >= PLY_LIMIT:
            break
        board = Board(position, variant=variant)
        men = board.entry_size() if "-" not in text and "x" not in text else 1
        move = Move.from_text(text, variant, men=men)
        if not board.is_legal(move):
            raise IllegalMoveError(f"ply {ply}: {text!r} is not legal in {position!r}")
        c = canonical(board)
        key = digest(c.key)
        seen[key] = Seen(key, c.move(move), board.turn == WHITE)
    return list(seen.values())


def _winner(result: int) -> bool | None:
    return None if result == 0 else result > 0


def game_of(data: GameData, config: SelfplayConfig) -> Game:
    """One game played by :func:`emergo.selfplay.play_game` as the explorer counts it."""
    variant = Board(variant=config.variant).variant
    rows = [(r.ply, r.position, r.move) for r in data.rows]
    run = run_of(config.meta())
    return Game(
        "engine", f"{run}:{data.number}", variant, _winner(data.result), tuple(_seen(variant, rows))
    )


def play(config: SelfplayConfig, number: int) -> Game:
    """Play game ``number`` of a run and count it (the kernel's search: seconds a game)."""
    return game_of(play_game(config, number), config)


def file_games(path: str | Path) -> tuple[str, int, Iterator[Game]]:
    """A self-play file's run id, its number of games and its games, one by one.  Raises
    ``ValueError`` (``OSError`` for a file that cannot be read) naming what is wrong."""
    try:
        columns, meta = read_npz(path)
    except (zipfile.BadZipFile, EOFError, KeyError, ValueError) as e:
        raise ValueError(f"{path} is not a self-play file of emergo selfplay ({e})") from None
    wanted = ("game", "ply", "position", "move", "turn", "result")
    missing = [name for name in wanted if name not in columns]
    if missing or not meta:
        raise ValueError(
            f"{path} is not a self-play file of emergo selfplay (missing: "
            f"{', '.join(missing) or 'meta'})"
        )
    variant = str(meta.get("variant") or "9x9")
    run = run_of(meta)
    by_game: dict[int, list[int]] = {}
    for i, number in enumerate(columns["game"]):
        by_game.setdefault(int(str(number)), []).append(i)

    def games() -> Iterator[Game]:
        for number, rows in sorted(by_game.items()):
            first = rows[0]
            turn, result = int(str(columns["turn"][first])), int(str(columns["result"][first]))
            white = result if turn == 1 else -result  # the file's result is the mover's
            seen = _seen(
                variant,
                [
                    (
                        int(str(columns["ply"][i])),
                        str(columns["position"][i]),
                        str(columns["move"][i]),
                    )
                    for i in rows
                ],
            )
            yield Game("engine", f"{run}:{number}", variant, _winner(white), tuple(seen))

    return run, len(by_game), games()
