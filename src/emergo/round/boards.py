"""The boards of round states, by (variant, root, moves): a command moves the cached board on.

A server builds the state from its row for each command; the board of a state is kept here so
that a move at ply 300 pushes one move instead of replaying 300 (``tools/bench_round.py``).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TypeAlias

from emergo.board import Board, Color, MoveKind, Outcome
from emergo.board import Move as BoardMove
from emergo.round.errors import RoundError

__all__ = ["BOARDS", "BOARD_CACHE_SIZE", "Key", "canonical", "parse", "replay", "root_turn"]

BOARD_CACHE_SIZE = 4096
"""Boards kept by (variant, root, moves): a few thousand live games' last positions (a server's
games: each process keeps the ones it serves)."""

Key: TypeAlias = tuple[str, str, tuple[str, ...]]


def replay(variant: str, root: str, moves: Sequence[str]) -> Board:
    """The board after ``moves`` (canonical R21 texts) from ``root``: each checked and pushed.

    A canonical text names the full path, so no parsing against the legal moves is needed
    (``Board.parse_move`` is about seven times slower); an entry's size follows from the
    position (R14).
    """
    return extend(Board(root, variant=variant), moves, 0)


def extend(board: Board, moves: Sequence[str], start: int) -> Board:
    """``board`` (after the first ``start`` of ``moves``) with the rest checked and pushed."""
    for ply, text in enumerate(moves[start:], start + 1):
        if not isinstance(text, str):
            raise RoundError(f"move {ply} is not a text: {text!r}")
        ended = board.outcome()
        if ended is not None:
            raise RoundError(f"move {ply} {text!r} comes after the end: {ended.reason()}")
        try:
            move = BoardMove.from_text(text, board.variant)
            if move.kind is MoveKind.ENTER and board.entry_size() != 1:
                move = BoardMove.enter(move.path[0], board.entry_size())
            board.push(move)
        except ValueError as e:
            raise RoundError(f"move {ply} {text!r}: {e}") from None
        if board.move_text(move) != text:
            raise RoundError(f"move {ply} {text!r} is not canonical: {board.move_text(move)!r}")
    return board


def parse(board: Board, text: str) -> BoardMove:
    """The legal move ``text`` means: a canonical text directly, anything else by the parser.

    Clients mostly send canonical texts; checking one costs a few microseconds where
    ``Board.parse_move`` (abbreviations, other namings) costs tens.
    """
    try:
        move = BoardMove.from_text(text, board.variant)
        if move.kind is MoveKind.ENTER and board.entry_size() != 1:
            move = BoardMove.enter(move.path[0], board.entry_size())
        if board.is_legal(move) and board.move_text(move) == text:
            return move
    except ValueError:
        pass
    return board.parse_move(text)  # the parser's own errors say what is wrong


class Boards:
    """Boards by (variant, root, moves), least recently used first; thread-safe.

    A board lent out (:meth:`RoundState.board`) is shared and never changed here; a board
    taken for a command (:meth:`take`) is the command's alone, and is given back under the
    new state's key (:meth:`give`): so a move at ply 300 pushes one move, not 300.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._boards: OrderedDict[Key, tuple[Board, bool]] = OrderedDict()

    def _get(self, key: Key) -> tuple[Board, bool] | None:
        entry = self._boards.get(key)
        if entry is not None and len(entry[0].move_stack) != len(key[2]):
            del self._boards[key]  # someone changed a lent board: never trust it again
            return None
        if entry is not None:
            self._boards.move_to_end(key)
        return entry

    def _put(self, key: Key, board: Board, lent: bool) -> None:
        self._boards[key] = (board, lent)
        self._boards.move_to_end(key)
        while len(self._boards) > self.size:
            self._boards.popitem(last=False)

    def lend(self, key: Key) -> Board:
        with self._lock:
            entry = self._get(key)
            if entry is not None:
                if not entry[1]:
                    self._boards[key] = (entry[0], True)
                return entry[0]
        board = replay(*key)
        with self._lock:
            self._put(key, board, True)
        return board

    def take(self, key: Key) -> Board:
        with self._lock:
            entry = self._get(key)
            if entry is not None and not entry[1]:
                del self._boards[key]
                return entry[0]
        if entry is not None:
            return entry[0].copy()
        return replay(*key)

    def give(self, key: Key, board: Board) -> None:
        with self._lock:
            if self.size > 0 and key not in self._boards:
                self._put(key, board, False)

    def outcome(self, key: Key) -> Outcome | None:
        """The rules' ending after the moves of ``key`` (replayed and checked if not cached;
        from the board one move before, when that one is here and not lent: a state another
        process made, decoded here, costs one move, not the game)."""
        parent: Board | None = None
        with self._lock:
            entry = self._get(key)
            if entry is not None:  # read under the lock: a taken board is out of the cache
                return entry[0].outcome()
            if key[2]:
                before = (key[0], key[1], key[2][:-1])
                found = self._get(before)
                if found is not None and not found[1]:
                    del self._boards[before]
                    parent = found[0]
        board = extend(parent, key[2], len(key[2]) - 1) if parent is not None else replay(*key)
        outcome = board.outcome()
        self.give(key, board)
        return outcome

    def clear(self) -> None:
        with self._lock:
            self._boards.clear()


BOARDS = Boards(BOARD_CACHE_SIZE)


@functools.lru_cache(maxsize=1024)
def root_turn(variant: str, root: str) -> Color:
    return Board(root, variant=variant).turn


@functools.lru_cache(maxsize=1024)
def canonical(variant: str, root: str) -> bool:
    """Is ``root`` the canonical R22 text of a position of ``variant``?  (Raises if none.)"""
    return Board(root, variant=variant).position() == root
