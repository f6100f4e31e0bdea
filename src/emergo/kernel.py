"""The fast C kernel: legal moves, perft, playouts, whole games and the engine's search (R8-R19).

The rules live twice in this package: readable in :mod:`emergo.board` (the
reference) and fast in the C extension ``emergo._kernel``, which the tests
prove equal.  This module is the typed front door of the C side.  Positions are
R22 strings (parsed by :class:`~emergo.board.Board`, the one parser) or boards;
a board's move history is not used: the position given counts as the first
occurrence for repetition (R19b).  Long calls release the GIL and stop at
Ctrl-C (KeyboardInterrupt) within a few hundredths of a second; integers out
of the kernel's range are a ValueError naming the argument and the range.

>>> from emergo import kernel
>>> kernel.legal_moves("b 11/12 d4:w")[:3]
['a5', 'b4', 'b5']
>>> kernel.perft("w 12/12", 3)
55172

:class:`Searcher` is the engine's search (iterative-deepening PVS in C, see
docs/kernel.md); unlike the calls above it uses the board's move history, so
that repetitions (R19b) count from the game's start.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from emergo.board import BLACK, WHITE, Board, Color, Move, MoveKind, Termination
from emergo.errors import IllegalMoveError, InvalidMoveError
from emergo.geometry import GEOMETRIES, Geometry, Names
from emergo.search import InfoCallback, Limit, Score, SearchInfo, SearchResult, time_budget

_NOT_BUILT = (
    "the C kernel emergo._kernel is not built (no C compiler when emergo was installed?); "
    "the rules and the pure-Python search work without it: install a C compiler and "
    "reinstall emergo to build it"
)
"""The ImportError's message when the extension is missing (``name`` is ``emergo._kernel``)."""

try:
    from emergo import _kernel
except ImportError:
    _spec = find_spec("emergo._kernel")
    if _spec is not None and _spec.origin is not None:  # built but refuses to load: say why
        raise
    raise ImportError(_NOT_BUILT, name="emergo._kernel") from None
if not hasattr(_kernel, "register_geometry"):  # the C sources' folder, not the built module
    raise ImportError(_NOT_BUILT, name="emergo._kernel")

Position = str | Board
Packed = tuple[str, bytes]

__all__ = [
    "WEIGHTS_FILE",
    "WEIGHTS_FILES",
    "BatchEnv",
    "EvalTerm",
    "KernelGame",
    "Packed",
    "PlayoutStats",
    "Position",
    "Searcher",
    "eval_features",
    "eval_terms",
    "evaluate",
    "legal_moves",
    "legal_moves_batch",
    "load_weights",
    "pack",
    "perft",
    "perft_divide",
    "playouts",
    "playouts_batch",
    "random_game",
    "replay",
    "self_check",
    "supports",
    "weights_file",
    "write_weights",
    "zobrist",
]

MAX_SEED = 2**64
MAX_COUNT = 2**64 - 1
"""Largest number of games or nodes the kernel takes (an unsigned 64-bit int)."""

_CAPTURE = 3  # the kernel's kind code of a capture (R9-R12)


def _register(geo: Geometry) -> None:
    """Give the kernel a board as data (squares, directions, jump table, names).

    A variant is registered once; importing this module again registers the
    same tables, which the kernel accepts as a no-op.
    """
    jumps = [(sq, d, over, land) for sq in geo.squares for d, over, land in geo.jumps[sq]]
    names = [geo.square_name(sq) for sq in geo.squares]
    _kernel.register_geometry(
        geo.name, geo.men, geo.centre, geo.directions, geo.squares, names, jumps
    )


for _geo in GEOMETRIES.values():
    _register(_geo)


def supports(variant: str) -> bool:
    """Whether the kernel plays ``variant`` (R4): every variant of the library is registered."""
    return variant in GEOMETRIES


class PlayoutStats(NamedTuple):
    """What random playouts from a position came to.

    ``wins``, ``draws`` and ``losses`` are from the view of the player to move
    in the position played out; ``white_wins``/``black_wins`` by colour.
    """

    games: int
    wins: int
    draws: int
    losses: int
    white_wins: int
    black_wins: int
    mean_length: float
    """Mean number of plies (moves) per game."""
    terminations: dict[str, int]
    """Games by how they ended: ``no-pieces`` (R18), ``blocked`` (R19a), ``repetition`` (R19b)."""


@dataclass(frozen=True)
class KernelGame:
    """A whole game played (or replayed) by the kernel, ply by ply."""

    start: str
    """The canonical R22 start position."""
    legal: list[list[str]]
    """Per ply: the legal moves (R21 texts, sorted) of the position before the move."""
    moves: list[str]
    """Per ply: the move played."""
    result: str
    """``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` when a replay stops before the end (R20)."""
    termination: Termination | None
    """How the game ended (R18, R19a, R19b), or ``None`` while it goes on."""
    final: str
    """The canonical R22 position after the last move."""


# --- positions ------------------------------------------------------------------------------


def _board(position: Position, variant: str | None) -> Board:
    if isinstance(position, Board):
        if variant is not None and variant != position.variant:
            raise ValueError(f"the board is {position.variant} but variant {variant} was asked")
        return position
    if isinstance(position, str):
        return Board(position, variant=variant)
    raise TypeError(f"a position is an R22 string or a Board, not {type(position).__name__}")


def pack(position: Position, *, variant: str | None = None) -> Packed:
    """The kernel's form of a position: ``(variant, bytes)`` built from the Board's public API.

    Bytes: side to move, White's hand, Black's hand, then square, owner,
    caps, prisoners per stack (R5, R6).
    """
    board = _board(position, variant)
    data = bytearray((int(board.turn), board.hand(WHITE), board.hand(BLACK)))
    for sq, st in board.stacks().items():
        data += bytes((sq, int(st.owner), st.caps, st.prisoners))
    return board.variant, bytes(data)


def _pack_many(positions: Iterable[Position], variant: str | None) -> list[Packed]:
    if isinstance(positions, (str, Board)):
        raise TypeError("positions must be an iterable of positions, not a single position")
    return [pack(p, variant=variant) for p in positions]


def _count(value: int, what: str, low: int = 0, high: int = MAX_COUNT) -> int:
    """``value`` checked to be an int in ``low..high`` (the C side never wraps a number)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{what} must be {low}..{high}, not {value}")
    return value


def _seed(seed: int) -> int:
    return _count(seed, "seed", -(2**63), MAX_SEED - 1) % MAX_SEED


def _text(geo: Geometry, kind: int, path: Sequence[int]) -> str:
    """The canonical R21 text of a path (the one formatter: the geometry's names)."""
    return ("x" if kind == _CAPTURE else "-").join(geo.square_name(sq) for sq in path)


# --- legal moves and perft ------------------------------------------------------------------


def legal_moves(position: Position, *, variant: str | None = None) -> list[str]:
    """The legal moves (R8-R17) as canonical R21 texts, sorted (code-point order).

    Empty when the player to move is blocked (R19a) or either player has lost
    (R18).  Repetition (R19b) depends on the history and is not looked at.
    """
    board = _board(position, variant)
    kind, _size, paths = _kernel.legal(pack(board))
    return sorted(_text(board.geometry, kind, path) for path in paths)


def legal_moves_batch(
    positions: Iterable[Position], *, variant: str | None = None
) -> list[list[str]]:
    """:func:`legal_moves` of many positions in one call (texts formatted in C)."""
    result: list[list[str]] = _kernel.legal_batch(_pack_many(positions, variant))
    return result


def perft(position: Position, depth: int, *, variant: str | None = None) -> int:
    """Move sequences of length ``depth`` (a capture route is one move; repetition ignored)."""
    depth = _count(depth, "depth", 0, _kernel.MAX_PERFT_DEPTH)
    return int(_kernel.perft(pack(position, variant=variant), depth))


def perft_divide(position: Position, depth: int, *, variant: str | None = None) -> dict[str, int]:
    """Perft split by first move: ``{move text: perft(depth - 1) after it}``, sorted by text."""
    board = _board(position, variant)
    _count(depth, "depth", 1, _kernel.MAX_PERFT_DEPTH)
    kind, rows = _kernel.perft_divide(pack(board), depth)
    geo = board.geometry
    return dict(sorted((_text(geo, kind, path), n) for path, n in rows))


def zobrist(position: Position, *, variant: str | None = None) -> int:
    """The kernel's 64-bit Zobrist key of stacks, hands and side to move (R19b)."""
    return int(_kernel.key(pack(position, variant=variant)))


# --- playouts and games ---------------------------------------------------------------------


def _stats(raw: tuple[int, ...], mover: Color) -> PlayoutStats:
    games, white, black, draws, plies, no_pieces, blocked, repetition = raw
    wins, losses = (white, black) if mover == WHITE else (black, white)
    return PlayoutStats(
        games=games,
        wins=wins,
        draws=draws,
        losses=losses,
        white_wins=white,
        black_wins=black,
        mean_length=plies / games if games else 0.0,
        terminations={
            Termination.NO_PIECES.value: no_pieces,
            Termination.BLOCKED.value: blocked,
            Termination.REPETITION.value: repetition,
        },
    )


def playouts(
    position: Position, n: int, seed: int = 0, *, variant: str | None = None
) -> PlayoutStats:
    """Play ``n`` uniformly random games to the end (R18, R19a, R19b); the GIL is released.

    Game ``i`` is :func:`random_game` with seed ``seed + i``.
    """
    board = _board(position, variant)
    raw = _kernel.playouts(pack(board), _count(n, "n"), _seed(seed))
    return _stats(raw, board.turn)


def playouts_batch(
    positions: Iterable[Position], n: int, seed: int = 0, *, variant: str | None = None
) -> list[PlayoutStats]:
    """:func:`playouts` of many positions in one call, each with the same ``n`` and ``seed``."""
    if isinstance(positions, (str, Board)):
        raise TypeError("positions must be an iterable of positions, not a single position")
    boards = [_board(p, variant) for p in positions]
    raws = _kernel.playouts_batch([pack(b) for b in boards], _count(n, "n"), _seed(seed))
    return [_stats(raw, b.turn) for raw, b in zip(raws, boards, strict=True)]


def _game(board: Board, raw: tuple[list[list[str]], list[str], str, str | None, str]) -> KernelGame:
    legal, moves, result, termination, final = raw
    return KernelGame(
        start=board.position(),
        legal=legal,
        moves=moves,
        result=result,
        termination=Termination(termination) if termination else None,
        final=final,
    )


def random_game(
    position: Position | None = None, seed: int = 0, *, variant: str | None = None
) -> KernelGame:
    """A uniformly random game to its end, with every ply's legal moves (for differential tests)."""
    board = Board(variant=variant) if position is None else _board(position, variant)
    return _game(board, _kernel.game(pack(board), _seed(seed), None))


def replay(
    position: Position | None,
    moves: Iterable[str],
    *,
    variant: str | None = None,
    names: Names = "oblique",
) -> KernelGame:
    """Play the given R21 texts (full squares) in the kernel, with every ply's legal moves.

    Raises :class:`InvalidMoveError` for a text that names no squares of the
    board and :class:`IllegalMoveError` (saying which move) for an illegal move
    or a move after the end of the game.
    """
    board = Board(variant=variant) if position is None else _board(position, variant)
    geo = board.geometry
    paths: list[tuple[int, ...]] = []
    for text in moves:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        parts = text.strip().lower().replace("x", "-").split("-")
        try:
            paths.append(tuple(geo.parse_square(part, names) for part in parts))
        except KeyError:
            raise InvalidMoveError(
                f"{text!r} is not a move of full square names on the {geo.name} board"
            ) from None
    try:
        raw = _kernel.game(pack(board), 0, paths)
    except ValueError as e:
        raise IllegalMoveError(str(e)) from None
    return _game(board, raw)


def self_check(
    position: Position | None = None, n: int = 100, seed: int = 0, *, variant: str | None = None
) -> tuple[PlayoutStats, list[str]]:
    """Random games with the kernel checking itself at every ply; returns stats and failures.

    Checked per position: bitboards and stacks agree (R6), men are conserved,
    the incremental Zobrist key equals the recomputed one, counting and listing
    generation agree, capture priority (R8) and route lengths (R11) hold, no
    move is listed twice, and make/unmake of every legal move restores the
    position exactly.  The games are those of :func:`playouts` with the same seed.
    """
    board = Board(variant=variant) if position is None else _board(position, variant)
    raw, errors = _kernel.selfcheck(pack(board), _count(n, "n"), _seed(seed))
    return _stats(raw, board.turn), list(errors)


# --- evaluation -----------------------------------------------------------------------------

WEIGHTS_FILE = Path(__file__).parent / "data" / "eval_weights.txt"
"""The shipped evaluation weights (``name value`` per line; tools/tune.py writes it)."""

WEIGHTS_FILES: dict[str, Path] = {"hex": WEIGHTS_FILE.with_name("eval_weights_hex.txt")}
"""Weights tuned for one variant (R4); a variant not listed (7x7) plays :data:`WEIGHTS_FILE`."""


def weights_file(variant: str | None = None) -> Path:
    """The shipped weights file of ``variant`` (default 9x9)."""
    return WEIGHTS_FILES.get(variant or "9x9", WEIGHTS_FILE)


MAX_WEIGHT = 10_000
"""Largest magnitude of a weight (centi-men per unit of its term)."""


class EvalTerm(NamedTuple):
    """One term of the linear evaluation: its name, hand-set default weight and meaning."""

    name: str
    default: int
    doc: str


def eval_terms() -> list[EvalTerm]:
    """The evaluation's terms in the kernel's order."""
    return [EvalTerm(*row) for row in _kernel.eval_terms_info()]


_TERMS = eval_terms()
_TERM_NAMES = [t.name for t in _TERMS]


def _weight_vector(weights: Mapping[str, int]) -> list[int]:
    unknown = sorted(set(weights) - set(_TERM_NAMES))
    if unknown:
        raise ValueError(f"unknown evaluation terms: {', '.join(unknown)}")
    vector = []
    for term in _TERMS:
        value = weights.get(term.name, term.default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"weight {term.name} must be an int, not {type(value).__name__}")
        if abs(value) > MAX_WEIGHT:
            raise ValueError(f"weight {term.name} = {value} is beyond +/-{MAX_WEIGHT}")
        vector.append(value)
    return vector


def load_weights(path: str | Path | None = None, *, variant: str | None = None) -> dict[str, int]:
    """Read evaluation weights: ``name value`` per line, ``#`` starts a comment.

    ``path`` defaults to the shipped file of ``variant`` (:func:`weights_file`).
    Terms the file leaves out keep their hand-set defaults; an unknown name or a
    value that is not an integer is an error naming the line.
    """
    file = weights_file(variant) if path is None else Path(path)
    weights = {t.name: t.default for t in _TERMS}
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot read evaluation weights {file}: {e.strerror}") from None
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{file}:{number}"
        if len(words) != 2:
            raise ValueError(f"{where}: expected 'name value', got {line.strip()!r}")
        name, value = words
        if name not in weights:
            raise ValueError(f"{where}: unknown evaluation term {name!r}")
        try:
            weights[name] = int(value)
        except ValueError:
            raise ValueError(f"{where}: {name} needs an integer, not {value!r}") from None
    _weight_vector(weights)  # range check
    return weights


def write_weights(weights: Mapping[str, int], path: str | Path, header: str = "") -> None:
    """Write weights in the format :func:`load_weights` reads, each with its term's meaning."""
    vector = _weight_vector(weights)
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    width = max(len(n) for n in _TERM_NAMES)
    for term, value in zip(_TERMS, vector, strict=True):
        lines.append(f"{term.name:<{width}} {value:>6}  # {term.doc}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def eval_features(position: Position, *, variant: str | None = None) -> dict[str, int]:
    """The evaluation's term counts for the player to move (what the weights multiply)."""
    return dict(zip(_TERM_NAMES, _kernel.eval_terms(pack(position, variant=variant)), strict=True))


def evaluate(
    position: Position, *, weights: Mapping[str, int] | None = None, variant: str | None = None
) -> int:
    """Static value of a position for the player to move, in centi-men (never 0: 0 is a draw).

    ``weights`` defaults to the shipped file of the position's variant (:func:`weights_file`).
    """
    packed = pack(position, variant=variant)
    vector = _weight_vector(weights if weights is not None else _shipped_weights(packed[0]))
    return int(_kernel.evaluate(packed, vector))


_SHIPPED: dict[Path, dict[str, int]] = {}


def _shipped_weights(variant: str | None = None) -> dict[str, int]:
    """The shipped weights of ``variant``, read once per file."""
    file = weights_file(variant)
    if file not in _SHIPPED:
        _SHIPPED[file] = load_weights(file)
    return _SHIPPED[file]


# --- search ---------------------------------------------------------------------------------

_KINDS = {1: MoveKind.ENTER, 2: MoveKind.STEP, 3: MoveKind.CAPTURE}
_RawMove = tuple[int, int, tuple[int, ...]]
_RawLine = tuple[int, int, int, list[_RawMove], int, int]
"""value, depth, seldepth, moves, exact (a proven value), source (1: the endgame tables)"""
_POLL = 0.005  # seconds between looks at the caller's stop event


def _move(raw: _RawMove) -> Move:
    kind, men, path = raw
    if kind == 1:
        return Move(MoveKind.ENTER, path, men, 0)
    return Move(_KINDS[kind], path, 0, men if kind == 3 else 0)


def _score(value: int, exact: int) -> Score:
    """A search value as a score: a 0 is a draw only when proven (a table's, not a repetition
    on the search's own line nor a draw found among evaluated alternatives)."""
    return Score.draw() if value == 0 and exact else Score.from_value(value)


def _infos(
    lines: list[_RawLine], nodes: int, seconds: float, tbhits: int
) -> tuple[SearchInfo, ...]:
    return tuple(
        SearchInfo(
            depth=depth,
            score=_score(value, exact),
            pv=tuple(_move(m) for m in pv),
            nodes=nodes,
            time=seconds,
            seldepth=seldepth,
            multipv=rank,
            source="tablebase" if source else "search",
            tbhits=tbhits,
        )
        for rank, (value, depth, seldepth, pv, exact, source) in enumerate(lines, 1)
    )


class Tables(Protocol):
    """Where a :class:`Searcher` finds the endgame tables of a variant
    (:class:`emergo.tablebase.Tablebase`): the 2- and 3-column tables, each ``None`` when
    there is none."""

    def kernel_tables(self, variant: str) -> tuple[Any, Any]: ...


class Searcher:
    """The engine's search in C: iterative-deepening PVS over the kernel (emergo.search.Searcher).

    Alpha-beta with principal variation search, aspiration windows, a shared
    transposition table of ``hash_mb`` megabytes, forced captures (R8) searched
    to the end at the leaves, repetitions (R19b) counted from the game's start,
    exact wins and losses (R18) and draws (R19a, R19b), and, given ``tablebase``
    (:class:`emergo.tablebase.Tablebase`), the endgame tables: a position of the tables
    at the root is not searched (every move valued by them, ``SearchInfo.source`` is
    ``"tablebase"``), and inside the tree it is a leaf of exact value.  A score of
    ``draw`` is a proven draw only: a repetition on the search's own line, or a draw the
    search prefers to evaluated alternatives, is reported as ``cp 0``.  The evaluation's weights
    come from ``weights`` (a mapping or a file, for every variant); by default
    each variant plays its own shipped weights (:func:`weights_file`), set in C
    when the variant of the searched board changes.  The GIL is released while
    it searches.

    One search at a time: :meth:`search` while another search of this searcher
    runs (in any thread), or :meth:`clear`/:meth:`resize`/:meth:`set_option`
    meanwhile, raise RuntimeError; :meth:`stop` is the call for a running
    search.  Ctrl-C raises KeyboardInterrupt and leaves the searcher usable.
    """

    name = "emergo-kernel"

    def __init__(
        self,
        *,
        hash_mb: int = 16,
        weights: Mapping[str, int] | str | Path | None = None,
        tablebase: Tables | None = None,
    ) -> None:
        self._c = _kernel.Searcher(_count(hash_mb, "hash_mb", 1, _kernel.MAX_HASH_MB))
        self.tablebase = tablebase
        """The endgame tables the searches use (``None``: none); may be changed between
        searches."""
        self._tables_on = True
        self._fixed: dict[str, int] | None = None
        if isinstance(weights, (str, Path)):
            self._fixed = load_weights(weights)
        elif weights is not None:
            self._fixed = {t.name: t.default for t in _TERMS} | dict(weights)
            _weight_vector(self._fixed)  # checked now, not at the first search
        self._variant = ""
        self._use_variant("9x9")

    @property
    def weights(self) -> dict[str, int]:
        """The weights in use: those of the variant searched last (9x9 before any search)."""
        return self.weights_for(self._variant)

    def weights_for(self, variant: str) -> dict[str, int]:
        """The weights this searcher evaluates ``variant``'s positions with."""
        return dict(self._fixed if self._fixed is not None else _shipped_weights(variant))

    def _use_variant(self, variant: str) -> None:
        """Give C the weights of ``variant``; a new variant also starts from empty tables
        (the Zobrist key does not hold the variant)."""
        if variant == self._variant:
            return
        self._c.set_weights(_weight_vector(self.weights_for(variant)))
        if self._variant:
            self._c.clear()
        self._variant = variant

    def clear(self) -> None:
        """Forget the transposition table and the move-ordering history (a new game)."""
        self._c.clear()

    def resize(self, hash_mb: int) -> None:
        """A new, empty transposition table of ``hash_mb`` megabytes."""
        self._c.resize(_count(hash_mb, "hash_mb", 1, _kernel.MAX_HASH_MB))

    def set_option(self, name: str, value: int) -> None:
        """Set a tuning knob of the search: ``evasions`` (0..8, default 1), the quiescence
        plies where a player who is attacked but has no capture gets his moves searched."""
        self._c.set_option(name, value)

    def stop(self) -> None:
        """Stop the running search (from any thread); it returns its best move so far."""
        self._c.stop()

    def use_tablebase(self, on: bool) -> None:
        """Use the endgame tables of :attr:`tablebase` or not (the engine's ``Tablebases``
        option); nothing changes when there are none."""
        self._tables_on = bool(on)

    def search(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: int = 1,
        on_info: InfoCallback | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        """Search ``board`` (left unchanged) within ``limit`` (see emergo.search.Searcher)."""
        start = time.monotonic()
        multipv = _count(multipv, "multipv", 1)
        soft, hard = time_budget(limit, board.turn)
        depth = int(_kernel.MAX_DEPTH)
        nodes = 0
        if not limit.infinite:  # analysis runs until stopped, whatever else is set
            depth = min(limit.depth or depth, depth)  # deeper than MAX_DEPTH: as deep as it goes
            nodes = _count(limit.nodes or 0, "nodes")
        root = board.root()
        paths = [move.path for move in board.move_stack]
        self._use_variant(board.variant)
        tables: tuple[Any, Any] = (None, None)
        if self.tablebase is not None and self._tables_on:
            tables = self.tablebase.kernel_tables(board.variant)

        callback = None
        if on_info is not None:
            report = on_info

            def callback(
                lines: list[_RawLine], n: int, seconds: float, _depth: int, tbhits: int
            ) -> None:
                for info in _infos(lines, n, seconds, tbhits):
                    report(info)

        done = threading.Event()
        watcher = None
        if stop is not None:
            watcher = threading.Thread(target=self._watch, args=(stop, done), daemon=True)
            watcher.start()
        spent = time.monotonic() - start
        try:
            term, lines, n, seconds, _, tbhits = self._c.search(
                pack(root),
                paths,
                depth,
                nodes,
                -1.0 if soft is None else max(soft - spent, 0.0),
                -1.0 if hard is None else max(hard - spent, 0.0),
                min(multipv, int(_kernel.MAX_MULTIPV)),
                callback,
                *tables,
            )
        finally:
            done.set()
            if watcher is not None:
                watcher.join()
        if term is not None or not lines:
            return SearchResult(None)
        infos = _infos(lines, n, seconds, tbhits)
        pv = infos[0].pv
        return SearchResult(pv[0], pv[1] if len(pv) > 1 else None, infos)

    def _watch(self, stop: threading.Event, done: threading.Event) -> None:
        """Pass the caller's stop event on to the C search until the search ends."""
        while not done.is_set():
            if stop.wait(_POLL):
                self._c.stop()  # again each poll: a stop before the search began is not lost
                done.wait(_POLL)


# --- batched environments (issue 13) --------------------------------------------------------


class BatchEnv:
    """``n`` games of one variant stepped together in C: one action per game per :meth:`step`.

    The action indices, the legal action masks and the observation planes are those of
    :mod:`emergo.envs` (``actions.py``, ``observation.py``) byte for byte: an action is one
    entry, one step or ONE HOP of a capture, and during a capture of several hops the same
    player acts again.  The observation of each game is for its side to move (``to_play``:
    0 White = ``player_0``, 1 Black = ``player_1``).  ``rewards[i]`` is the reward of the
    player who took game ``i``'s action: +1 when that action won (R18), -1 when it lost, else
    0 (draws R19a, R19b, and truncation after ``max_plies`` whole moves).

    **Auto-reset.**  A game that ends is returned with its terminal observation, an all-zero
    mask, its reward and ``terminated`` (or ``truncated``) set; the NEXT :meth:`step` ignores
    the action given for it, starts it again from the root and returns the new game's first
    observation (reward 0, both flags False) -- Gymnasium's "next-step" autoreset.

    The step runs without the GIL, on the caller's thread and a pool of worker threads (two
    threads in all) from 128 games on.  ``compact=True`` gives the planes as ``uint8`` (the same
    values; 4 times fewer bytes) instead of ``float32``.  The arrays returned are read-only
    views of the environment's own buffers, overwritten by the next call: copy what you keep
    (the planes are written incrementally, only what changed, so nobody else may write
    there).  ``seed`` seeds :meth:`sample` only (the environment itself is deterministic).
    Needs NumPy (the extra ``rl``).
    """

    def __init__(
        self,
        n: int,
        variant: str = "9x9",
        seed: int = 0,
        max_plies: int = 1000,
        *,
        compact: bool = False,
        position: Position | None = None,
    ) -> None:
        import numpy as np

        geo = GEOMETRIES.get(variant)
        if geo is None:
            raise ValueError(f"unknown variant {variant!r}: one of {', '.join(GEOMETRIES)}")
        self.n = _count(n, "n", 0, 2**24)
        self.variant = variant
        self.max_plies = _count(max_plies, "max_plies", 1)
        self.compact = bool(compact)
        root = pack(Board(variant=variant) if position is None else position, variant=variant)
        if root[0] != variant:
            raise ValueError(f"{position!r} is not a {variant} position")
        cells = []
        for sq in geo.squares:
            u, v = geo.uv(sq)
            cells.append((u - 1) * geo.size + (v - 1))
        self._c = _kernel.BatchEnv(
            self.n, root, self.max_plies, _seed(seed), cells, geo.size, self.compact
        )
        _, self.n_actions, planes, size, _ = self._c.info()
        dtype = np.uint8 if self.compact else np.float32
        buffers = (
            np.zeros((self.n, planes, size, size), dtype=dtype),
            np.zeros((self.n, self.n_actions), dtype=np.int8),
            np.zeros(self.n, dtype=np.float32),
            np.zeros(self.n, dtype=np.bool_),
            np.zeros(self.n, dtype=np.bool_),
            np.zeros(self.n, dtype=np.int8),
        )
        self._actions = np.zeros(self.n, dtype=np.int64)
        self._c.bind(*buffers, self._actions)
        # The C side writes the planes incrementally (only what changed since the last step):
        # the caller sees read-only views, so the buffers hold exactly what C wrote.
        views: list[Any] = []
        for buffer in buffers:
            view = buffer.view()
            view.flags.writeable = False
            views.append(view)
        self.obs, self.mask, self.rewards, self.terminated, self.truncated, self.to_play = views

    def reset(self, seed: int | None = None) -> tuple[Any, Any]:
        """Every game to the root: ``(obs, mask)``; ``seed`` reseeds :meth:`sample`.

        A root where the game is already over (R18, R19a) comes back ``terminated``.
        """
        self._c.reset(None if seed is None else _seed(seed))
        return self.obs, self.mask

    def step(self, actions: Any, *, illegal_ends: bool = False) -> tuple[Any, Any, Any, Any, Any]:
        """One action per game: ``(obs, mask, rewards, terminated, truncated)``.

        ``actions``: ``n`` ints (any array-like; a finished game's is ignored).  An illegal
        action is a ``ValueError`` naming the game, and then no game is stepped; with
        ``illegal_ends`` it ends its game instead, as a loss of the player who chose it
        (reward -1, ``terminated``, the observation of the position as it was, mask all 0).
        """
        if actions is not self._actions:
            self._actions[...] = self.check_actions(actions)
        self._c.step(illegal_ends)
        return self.obs, self.mask, self.rewards, self.terminated, self.truncated

    def check_actions(self, actions: Any) -> Any:
        """``actions`` as an array of ``n`` integers; ValueError naming a wrong shape or type
        (a float action is refused, never truncated to another action)."""
        import numpy as np

        acts = np.asarray(actions)
        if acts.shape != (self.n,):
            raise ValueError(f"actions: shape {acts.shape}, expected ({self.n},)")
        if not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"actions: integers expected (one action index a game), not {acts.dtype}"
            )
        return acts

    def sample(self) -> Any:
        """A uniformly random legal action per game (from the seeded C generator; 0 when done)."""
        self._c.sample()
        return self._actions

    def observe(self, color: Color) -> Any:
        """The planes of every game for ``color`` (a new array; :meth:`step` gives the mover's)."""
        import numpy as np

        out = np.zeros_like(self.obs)
        self._c.observe(bool(color), out)
        return out

    def rollout(self, steps: int) -> tuple[int, int]:
        """``steps`` batch steps with :meth:`sample`'s actions, all in C: ``(steps, games ended)``.

        The outputs are written at every step (so the time includes them); stops at Ctrl-C.
        """
        done, games = self._c.rollout(_count(steps, "steps"))
        return int(done), int(games)
