"""Endgame tables: every ending of two and three columns, solved (issue 23, docs/tablebase.md).

Shaped like python-chess's ``chess.syzygy``: a :class:`Tablebase` opens the tables of a
directory, and :meth:`Tablebase.probe_wdl` / :meth:`Tablebase.probe_dtm` give a position's
value for the player to move::

    >>> from emergo import Board
    >>> from emergo.tablebase import open_tablebase
    >>> with open_tablebase() as tables:
    ...     board = Board("7x7 w 0/0 d2:b8 d5:w8")
    ...     tables.probe_wdl(board), tables.probe_dtm(board)
    (1, 47)

White, to move, wins in 47 plies with best play (the winner hurries, the loser delays).
The tables hold the endings with no men in hand (so every man on the board, R5):

* **2 columns**: one stack each.  Built in memory when first needed (milliseconds), so
  they are always there when the C kernel is;
* **3 columns**: two stacks for one side, one for the other.  Built once into the user's
  data directory by ``emergo tablebase build --columns 3`` (:func:`build`): 2 s on 7x7,
  half a minute on 9x9 and the hexagon (docs/tablebase.md).

A value holds for the position as if it occurred for the first time: the game's history
(R19b) is not known to a table.  :meth:`Tablebase.probe_moves` values each legal move,
and there a move that ends the game by the rules (R18, R19 with the board's history)
counts as it ends.  The tables are built by the C kernel (``emergo._kernel``): without it
every call raises :class:`TablebaseError`.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from emergo.board import BLACK, WHITE, Board, Move
from emergo.geometry import GEOMETRIES

__all__ = [
    "COLUMNS",
    "ENV",
    "MissingTableError",
    "MoveValue",
    "OutsideTablesError",
    "TableInfo",
    "Tablebase",
    "TablebaseError",
    "build",
    "columns_of",
    "default",
    "entries",
    "open_tablebase",
    "probe_dtm",
    "probe_wdl",
    "table_name",
    "tables_dir",
]

COLUMNS = (2, 3)
"""The tables there are: endings of two and of three columns."""
SUFFIX = ".etb"
ENV = "EMERGO_TABLEBASES"
"""Environment variable naming the directory of the tables (default: :func:`tables_dir`)."""

ProgressCallback = Callable[[str, int, int], None]
"""Called now and then during long work with ``(phase, done, total)``."""


class TablebaseError(ValueError):
    """A position the tables cannot value."""


class MissingTableError(TablebaseError):
    """The table a position needs is not built (``emergo tablebase build``)."""


class OutsideTablesError(TablebaseError):
    """The position belongs to no table (men in hand, more columns, fewer men)."""


# --- where the tables live ------------------------------------------------------------------


def tables_dir() -> Path:
    """The directory of the tables: ``$EMERGO_TABLEBASES``, else ``tablebases`` in the user's
    data directory (that of ``platformdirs.user_data_dir("emergo")``, the web app's too:
    ``~/.local/share/emergo/tablebases`` on Linux)."""
    named = os.environ.get(ENV)
    if named:
        return Path(named).expanduser()
    try:
        import platformdirs  # the web extra's; the same folder without it
    except ImportError:
        return _data_home() / "emergo" / "tablebases"
    return Path(platformdirs.user_data_dir("emergo", appauthor=False)) / "tablebases"


def _data_home() -> Path:
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support"
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def table_name(variant: str, columns: int) -> str:
    """The file name of a table: ``9x9-3.etb``."""
    return f"{variant}-{columns}{SUFFIX}"


def _kernel() -> Any:
    try:
        from emergo import _kernel, kernel  # noqa: F401  (kernel registers the geometries)
    except ImportError as e:
        raise TablebaseError(f"the endgame tables need the C kernel: {e}") from None
    return _kernel


def _check_table_args(variant: str, columns: int) -> None:
    if variant not in GEOMETRIES:
        raise ValueError(f"unknown variant {variant!r}: expected one of {', '.join(GEOMETRIES)}")
    if columns not in COLUMNS:
        raise ValueError(f"columns must be 2 or 3, not {columns!r}")


def entries(variant: str, columns: int) -> int:
    """Entries of a table (its file holds one byte each, or two when a distance exceeds 255,
    after a 128-byte header)."""
    _check_table_args(variant, columns)
    return int(_kernel().tb_size(variant, columns))


# --- positions ------------------------------------------------------------------------------


def columns_of(board: Board) -> int | None:
    """The table (2 or 3 columns) that holds the position, or ``None``.

    >>> columns_of(Board("7x7 w 0/0 d2:b8 d5:w8")), columns_of(Board("w 12/12"))
    (2, None)
    """
    if board.hand(WHITE) or board.hand(BLACK):
        return None
    counts = sorted((len(board.pieces(WHITE)), len(board.pieces(BLACK))))
    if counts not in ([1, 1], [1, 2]):
        return None
    men = board.geometry.men
    if board.men(WHITE) != men or board.men(BLACK) != men:
        return None
    return sum(counts)


def _outside(board: Board) -> OutsideTablesError:
    if board.hand(WHITE) or board.hand(BLACK):
        why = "men are in hand"
    elif board.men(WHITE) != board.geometry.men or board.men(BLACK) != board.geometry.men:
        why = f"the tables hold positions with all {board.geometry.men} men of each side"
    else:
        w, b = len(board.pieces(WHITE)), len(board.pieces(BLACK))
        why = f"White has {w} columns and Black {b}; the tables hold 1 and 1, or 2 and 1"
    return OutsideTablesError(f"{board.position()} is in no table: {why}")


def _wdl(value: int) -> int:
    return 0 if value == 0 else 1 if value % 2 else -1


def _dtm(value: int) -> int:
    return 0 if value == 0 else value if value % 2 else -value


@dataclass(frozen=True)
class MoveValue:
    """A legal move and its value for the player who makes it (``wdl`` 1 / 0 / -1, ``dtm``
    plies from the position before it: positive a win, negative a loss, 0 a draw)."""

    move: Move
    wdl: int
    dtm: int


@dataclass(frozen=True)
class TableInfo:
    """A table's figures (docs/tablebase.md)."""

    variant: str
    columns: int
    path: Path | None
    """The file, ``None`` for a table built in memory."""
    entries: int
    positions: int
    """Entries that are a position's own (a symmetric placement may hold one twice)."""
    wins: int
    draws: int
    losses: int
    longest: int
    """The longest distance, win or loss, in plies."""
    longest_win: int
    longest_win_position: str
    symmetries: int
    bytes: int
    """Size of the file (the entries and a 128-byte header)."""
    checksum: int


def _value_order(item: MoveValue) -> tuple[int, int]:
    """Best first: the shortest win, draws, the longest loss."""
    if item.wdl > 0:
        return (0, item.dtm)
    return (1, 0) if item.wdl == 0 else (2, item.dtm)


# --- the tables -----------------------------------------------------------------------------


class Tablebase:
    """The endgame tables of some directories (``None``: :func:`tables_dir`).

    Tables are opened (mapped) when first needed and stay open until :meth:`close`; a
    2-column table not found as a file is built in memory.  Thread-safe.  Use it as a
    context manager, or call :meth:`close`.
    """

    def __init__(self, directories: Iterable[str | Path] | str | Path | None = None) -> None:
        if directories is None:
            directories = [tables_dir()]
        elif isinstance(directories, (str, Path)):
            directories = [directories]
        self.directories: list[Path] = [Path(d).expanduser() for d in directories]
        self._tables: dict[tuple[str, int], Any] = {}
        self._lock = threading.RLock()
        self._closed = False

    def add_directory(self, directory: str | Path) -> None:
        """Look for tables in ``directory`` too (after the others)."""
        with self._lock:
            self.directories.append(Path(directory).expanduser())

    def path(self, variant: str, columns: int) -> Path | None:
        """The file of a table, or ``None`` when no directory has it."""
        _check_table_args(variant, columns)
        for directory in self.directories:
            candidate = directory / table_name(variant, columns)
            if candidate.is_file():
                return candidate
        return None

    def has(self, variant: str, columns: int) -> bool:
        """Can the table be used (a file, or a 2-column table, built when needed)?"""
        return columns == 2 or self.path(variant, columns) is not None

    def table(self, variant: str, columns: int) -> Any:
        """The kernel's table (``emergo._kernel.Table``), opened or built when first asked."""
        _check_table_args(variant, columns)
        with self._lock:
            if self._closed:
                raise TablebaseError("the tablebase is closed")
            found = self._tables.get((variant, columns))
            if found is not None:
                return found
            kernel = _kernel()
            path = self.path(variant, columns)
            if path is not None:
                try:
                    table = kernel.tb_open(str(path))
                except ValueError as e:
                    raise TablebaseError(str(e)) from None
            elif columns == 2:
                table = kernel.tb_build(variant, 2, None, None)
            else:
                where = " or ".join(str(d) for d in self.directories) or "no directory"
                raise MissingTableError(
                    f"the {columns}-column table of {variant} is not built "
                    f"(no {table_name(variant, columns)} in {where}): run "
                    f"'emergo tablebase build --variant {variant} --columns {columns}'"
                )
            self._tables[(variant, columns)] = table
            return table

    def kernel_tables(self, variant: str) -> tuple[Any, Any]:
        """The 2- and 3-column tables of ``variant`` for the kernel's search (``None`` for one
        not built); never raises for a missing table."""
        try:
            two = self.table(variant, 2)
        except TablebaseError:
            return None, None
        try:
            three = self.table(variant, 3) if self.has(variant, 3) else None
        except TablebaseError:
            three = None
        return two, three

    # probing

    def _value(self, board: Board) -> int:
        columns = columns_of(board)
        if columns is None:
            raise _outside(board)
        table = self.table(board.variant, columns)
        from emergo import kernel

        value = int(table.probe(kernel.pack(board)))
        if value < 0:  # columns_of and the kernel disagree: a bug, said plainly
            raise OutsideTablesError(f"{board.position()}: the table does not hold it")
        return value

    def probe_wdl(self, board: Board) -> int:
        """1 when the player to move wins, 0 a draw, -1 when he loses (best play; the board's
        history is not used).  :class:`OutsideTablesError` for a position of no table,
        :class:`MissingTableError` when its table is not built."""
        return _wdl(self._value(board))

    def probe_dtm(self, board: Board) -> int:
        """Plies to the end with best play: positive when the player to move wins, negative
        when he loses, 0 for a draw.  Errors as :meth:`probe_wdl`."""
        return _dtm(self._value(board))

    def get_wdl(self, board: Board, default: int | None = None) -> int | None:
        """:meth:`probe_wdl`, or ``default`` where it would raise :class:`TablebaseError`."""
        try:
            return self.probe_wdl(board)
        except TablebaseError:
            return default

    def get_dtm(self, board: Board, default: int | None = None) -> int | None:
        """:meth:`probe_dtm`, or ``default`` where it would raise :class:`TablebaseError`."""
        try:
            return self.probe_dtm(board)
        except TablebaseError:
            return default

    def probe_moves(self, board: Board) -> list[MoveValue]:
        """Every legal move with its value for the player to move, best first (the shortest
        win, then draws, then the longest loss).  A move that ends the game by the rules
        (R18, R19 with the board's history) counts as it ends; the position must be in the
        tables (errors as :meth:`probe_wdl`)."""
        self._value(board)
        scratch = board.copy()
        out = []
        for move in scratch.moves():
            scratch.push(move)
            try:
                outcome = scratch.outcome()
                if outcome is not None:
                    wdl = 0 if outcome.winner is None else 1 if outcome.winner == board.turn else -1
                    dtm = wdl
                else:
                    value = self._value(scratch)
                    wdl, dtm = -_wdl(value), -_dtm(value)
                    dtm += 1 if dtm > 0 else -1 if dtm < 0 else 0
            finally:
                scratch.pop()
            out.append(MoveValue(move, wdl, dtm))
        out.sort(key=_value_order)
        return out

    def best_move(self, board: Board) -> Move | None:
        """The tables' best move (:meth:`probe_moves`' first), ``None`` when there is no move."""
        moves = self.probe_moves(board)
        return moves[0].move if moves else None

    # figures and checks

    def info(self, variant: str, columns: int) -> TableInfo:
        """The figures of a table (opened or built when needed)."""
        raw = self.table(variant, columns).info()
        path = self.path(variant, columns)
        return TableInfo(
            variant=variant,
            columns=columns,
            path=path,
            entries=raw["entries"],
            positions=raw["positions"],
            wins=raw["wins"],
            draws=raw["draws"],
            losses=raw["losses"],
            longest=raw["longest"],
            longest_win=raw["longest_win"],
            longest_win_position=raw["longest_win_position"],
            symmetries=raw["symmetries"],
            bytes=128 + raw["entries"] * raw["width"],
            checksum=raw["checksum"],
        )

    def verify(
        self,
        variant: str,
        columns: int,
        *,
        every_position: bool = False,
        stride: int = 1,
        progress: ProgressCallback | None = None,
    ) -> tuple[int, int, str]:
        """Check a table: its file's checksum, and every entry against the values of its moves
        by the full rules, its index under every symmetry and the colour swap
        (``every_position``: every position of the class, before the reduction, instead;
        ``stride``: every stride-th of them).  Returns ``(checked, bad, first problem)``."""
        table = self.table(variant, columns)
        path = self.path(variant, columns)
        if path is not None:
            try:
                _kernel().tb_open(str(path), True).close()
            except ValueError as e:
                return 0, 1, str(e)
        sub = self.table(variant, 2) if columns == 3 else None
        if every_position:
            checked, bad, why = table.check_raw(sub, progress, stride)
        else:
            checked, bad, why = table.verify(sub, True, progress)
        return int(checked), int(bad), str(why)

    # lifetime

    def close(self) -> None:
        """Close every table (RuntimeError while a search uses one)."""
        with self._lock:
            for table in self._tables.values():
                table.close()
            self._tables.clear()
            self._closed = True

    def __enter__(self) -> Tablebase:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def open_tablebase(directory: str | Path | None = None) -> Tablebase:
    """The tables of ``directory`` (default :func:`tables_dir`), as ``chess.syzygy``'s."""
    return Tablebase(directory)


_default: Tablebase | None = None
_default_lock = threading.Lock()


def default() -> Tablebase:
    """The process's shared tables of :func:`tables_dir` (the engine's), opened on first use."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Tablebase()
        return _default


def probe_wdl(board: Board) -> int:
    """:meth:`Tablebase.probe_wdl` on the :func:`default` tables."""
    return default().probe_wdl(board)


def probe_dtm(board: Board) -> int:
    """:meth:`Tablebase.probe_dtm` on the :func:`default` tables."""
    return default().probe_dtm(board)


# --- building -------------------------------------------------------------------------------


def build(
    variant: str,
    columns: int,
    directory: str | Path | None = None,
    *,
    progress: ProgressCallback | None = None,
) -> Path:
    """Build a table by retrograde analysis in C and write it to ``directory`` (default
    :func:`tables_dir`); returns its path.  A 3-column table uses the 2-column one (from the
    directory, else built in memory).  The file appears only when complete (Ctrl-C, which
    stops the build within a few hundredths of a second, leaves nothing)."""
    _check_table_args(variant, columns)
    kernel = _kernel()
    folder = Path(directory).expanduser() if directory is not None else tables_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with Tablebase([folder]) as tables:
        sub = tables.table(variant, 2) if columns == 3 else None
        table = kernel.tb_build(variant, columns, sub, progress)
    target = folder / table_name(variant, columns)
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        table.write(str(partial))
        os.replace(partial, target)
    finally:
        table.close()
        if partial.exists():
            partial.unlink()
    return target
