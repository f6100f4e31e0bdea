"""The rules of Emergo (docs/rules.md R5-R22) on a mutable :class:`Board`.

State is compact: one bitboard of owned squares per colour, and per square the
number of caps and prisoners.  Move generation works on bitboards (Python ints)
and yields a :class:`MoveSet` -- masks for entries and steps, routes for
captures -- from which :class:`Move` objects are made only when asked for.
"""

from __future__ import annotations

import enum
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from emergo.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidSquareError,
)
from emergo.geometry import (
    DEFAULT_VARIANT,
    GEOMETRIES,
    LETTERS,
    STRIDE,
    Geometry,
    Names,
    Square,
    geometry,
)
from emergo.notation import (
    MAX_MOVE_TEXT,
    MoveText,
    check_names,
    excerpt,
    format_path,
    format_position,
    parse_move_text,
    parse_position,
    parse_square,
    to_square,
)

Color = bool
WHITE: Color = True
BLACK: Color = False
COLORS: tuple[Color, Color] = (WHITE, BLACK)
COLOR_NAMES = ("Black", "White")
"""Display name by colour (index with the colour: ``COLOR_NAMES[WHITE]``)."""


class MoveKind(enum.Enum):
    """The three kinds of move (R8)."""

    ENTER = "enter"
    STEP = "step"
    CAPTURE = "capture"


def _square_text(sq: Square) -> str:
    # Square ints are global on the square grids, so a move can print itself.
    u, v = divmod(sq, STRIDE)
    return f"{LETTERS[u - 1]}{v}"


@dataclass(frozen=True, slots=True)
class Move:
    """A whole move: an entry, a step or a complete capture route (R12).

    ``path`` is the entered square, the two squares of a step, or the start and
    every landing square of a capture.  ``entered`` is the number of men put on
    the board (1, or the shadowpiece size, R14); ``captured`` is the number of
    men taken (the number of jumps, R11).
    """

    kind: MoveKind
    path: tuple[Square, ...]
    entered: int = 0
    captured: int = 0

    @classmethod
    def enter(cls, square: Square, men: int = 1) -> Move:
        return cls(MoveKind.ENTER, (square,), men, 0)

    @classmethod
    def step(cls, from_square: Square, to_square: Square) -> Move:
        return cls(MoveKind.STEP, (from_square, to_square))

    @classmethod
    def capture(cls, path: tuple[Square, ...] | list[Square]) -> Move:
        return cls(MoveKind.CAPTURE, tuple(path), 0, len(path) - 1)

    @classmethod
    def from_text(
        cls, text: str, variant: str = DEFAULT_VARIANT, *, names: Names = "oblique", men: int = 1
    ) -> Move:
        """The move a canonical R21 text writes: ``d4``, ``e4-e5`` or ``h4xf4xd4`` (any case).

        Syntax only, like python-chess's ``Move.from_uci``: the squares must be on the board of
        ``variant``, but whether the move is legal is the board's question
        (:meth:`Board.is_legal`), and forgiving input (abbreviations, ArenA captures) needs the
        legal moves: :meth:`Board.parse_move`.  An entry puts ``men`` men on the board: 1, or the
        size of a shadowpiece (R14).  Raises :class:`InvalidMoveError`.
        """
        geo = geometry(variant)
        check_names(names)
        if not isinstance(text, str):
            raise TypeError(f"a move text must be a str, not {type(text).__name__}")
        if len(text) > MAX_MOVE_TEXT:
            raise InvalidMoveError(f"{excerpt(text)} is too long to be a move")
        canonical = text.strip().lower()
        sep = "x" if "x" in canonical else "-" if "-" in canonical else ""
        parts = canonical.split(sep) if sep else [canonical]
        try:
            path = tuple(parse_square(geo, part, names) for part in parts)
        except InvalidSquareError as e:
            raise InvalidMoveError(
                f"{excerpt(text)} is not a canonical move text (d4, e4-e5, h4xf4xd4): {e}"
            ) from None
        if isinstance(men, bool) or not isinstance(men, int) or men < 1:
            raise InvalidMoveError(f"men={men!r}: an entry puts 1 or more men on the board (R14)")
        if sep and men != 1:
            raise InvalidMoveError(f"men={men} is for entries, not for {excerpt(text)}")
        if sep == "-" and len(path) != 2:
            raise InvalidMoveError(f"{excerpt(text)}: a step is two squares, e.g. e4-e5 (R17)")
        if sep == "x":
            return cls.capture(path)
        if sep == "-":
            return cls.step(path[0], path[1])
        return cls.enter(path[0], men)

    @property
    def from_square(self) -> Square:
        return self.path[0]

    @property
    def to_square(self) -> Square:
        return self.path[-1]

    def __str__(self) -> str:
        """Canonical R21 text with oblique names, e.g. ``d4``, ``e4-e5``, ``h4xf4xd4``."""
        sep = "x" if self.kind is MoveKind.CAPTURE else "-"
        return sep.join(_square_text(sq) for sq in self.path)

    def __repr__(self) -> str:
        """``Move.from_text('h4xf4xd4')``: readable, and evaluates back to the move."""
        for variant, geo in GEOMETRIES.items():
            if not self.path or not all(sq in geo for sq in self.path):
                continue
            sep = "x" if self.kind is MoveKind.CAPTURE else "-"
            text = sep.join(geo.square_name(sq) for sq in self.path)
            args = [repr(text)]
            if variant != DEFAULT_VARIANT:
                args.append(f"variant={variant!r}")
            men = self.entered if self.kind is MoveKind.ENTER else 1
            if men != 1:
                args.append(f"men={men!r}")
            try:
                same = Move.from_text(text, variant, men=men) == self
            except (ValueError, TypeError):  # fields no text can give: the plain form below
                same = False
            if same:
                return f"Move.from_text({', '.join(args)})"
        return (
            f"Move(kind={self.kind!r}, path={self.path!r}, entered={self.entered!r}, "
            f"captured={self.captured!r})"
        )


class Stack(NamedTuple):
    """A piece (R5, R6): ``caps`` men of ``owner``'s colour over ``prisoners`` of the other."""

    owner: Color
    caps: int
    prisoners: int

    @property
    def size(self) -> int:
        return self.caps + self.prisoners

    def colors(self) -> tuple[Color, ...]:
        """The colours of its men, bottom to top."""
        return (not self.owner,) * self.prisoners + (self.owner,) * self.caps


class Termination(enum.Enum):
    """How a game ended (R18, R19)."""

    NO_PIECES = "no-pieces"
    """R18: the player to move has no men in hand and no piece: he has lost."""
    BLOCKED = "blocked"
    """R19a: the player to move has no legal move: draw."""
    REPETITION = "repetition"
    """R19b: the position occurred for the third time: draw."""
    RESIGNATION = "resignation"
    """R20: an interface matter, recorded by games, never returned by ``Board.outcome``."""
    AGREEMENT = "agreement"
    """R19c: an interface matter, recorded by games, never returned by ``Board.outcome``."""
    TIME_FORFEIT = "time-forfeit"
    """R20: an interface matter."""
    ABORTED = "aborted"
    """An interface matter: called off before both sides moved; no result (``*``)."""
    ABANDONED = "abandoned"
    """R20: an interface matter: won (or drawn) by a claim after the opponent left the game."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: how, and who won (``None`` for a draw)."""

    termination: Termination
    winner: Color | None

    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2`` (R20); ``*`` for an aborted game."""
        if self.termination is Termination.ABORTED:
            return "*"
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner else "0-1"

    def reason(self) -> str:
        """A sentence for players saying why the game ended, citing the rule."""
        loser = COLOR_NAMES[not self.winner] if self.winner is not None else ""
        return {
            Termination.NO_PIECES: f"{loser} has no pieces and no men in hand (R18)",
            Termination.BLOCKED: "the player to move has no legal move: draw (R19a)",
            Termination.REPETITION: "the same position occurred three times: draw (R19b)",
            Termination.RESIGNATION: f"{loser} resigned (R20)",
            Termination.AGREEMENT: "draw by agreement (R19c)",
            Termination.TIME_FORFEIT: f"{loser} lost on time (R20)",
            Termination.ABORTED: "the game was aborted before both sides moved: no result",
            Termination.ABANDONED: (
                f"{loser} left the game: {COLOR_NAMES[bool(self.winner)]} claimed the win (R20)"
                if self.winner is not None
                else "a player left the game: the other claimed a draw (R20)"
            ),
        }[self.termination]


# Kinds of a MoveSet; NONE means the player to move has no legal move.
NONE, ENTER, STEP, CAPTURE = 0, 1, 2, 3
_KINDS = (None, MoveKind.ENTER, MoveKind.STEP, MoveKind.CAPTURE)


class MoveSet:
    """All legal moves of a position in compact form (R8 allows one kind only).

    ENTER: ``mask`` of the squares, ``size`` men each.  STEP: ``masks[d]`` of the
    pieces that can step in direction d.  CAPTURE: ``routes``, each a path of
    ``size`` jumps.  NONE: no legal move.
    """

    __slots__ = ("kind", "mask", "masks", "routes", "size")

    def __init__(
        self,
        kind: int,
        mask: int = 0,
        size: int = 0,
        masks: tuple[int, ...] = (),
        routes: tuple[tuple[Square, ...], ...] = (),
    ) -> None:
        self.kind = kind
        self.mask = mask
        self.size = size
        self.masks = masks
        self.routes = routes

    def count(self) -> int:
        if self.kind == ENTER:
            return self.mask.bit_count()
        if self.kind == STEP:
            return sum(map(int.bit_count, self.masks))
        return len(self.routes)


def _jumpers(me: int, opp: int, empty: int, halves: tuple[int, ...]) -> int:
    """Pieces in ``me`` with an ``opp`` piece beside and a vacant square beyond (R9)."""
    found = 0
    for o in halves:  # each o and -o
        o2 = o + o
        found |= (opp >> o) & (empty >> o2) | (opp << o) & (empty << o2)
    return found & me


def _feeding_squares(opp: int, empty: int, halves: tuple[int, ...]) -> int:
    """Vacant squares with an ``opp`` piece on one side and a vacancy on the other (R15)."""
    bad = 0
    for o in halves:
        bad |= (opp << o) & (empty >> o) | (opp >> o) & (empty << o)
    return bad & empty


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


# Zobrist keys for repetition (R19b): one per (square, owner, caps), (square, prisoners),
# (colour, men in hand) and side to move.  A third occurrence found by key is then
# confirmed by comparing real positions, so a key collision can never end a game.
_COUNTS = 32  # caps, prisoners and hands are below this (at most 12 men a side)
_zrng = random.Random(0x5EED_E3E6)
_Z_PIECE = [_zrng.getrandbits(64) for _ in range(STRIDE * STRIDE * 2 * _COUNTS)]
_Z_PRISONERS = [
    0 if i % _COUNTS == 0 else _zrng.getrandbits(64) for i in range(STRIDE * STRIDE * _COUNTS)
]
_Z_HAND = [_zrng.getrandbits(64) for _ in range(2 * _COUNTS)]
_Z_WHITE_TO_MOVE = _zrng.getrandbits(64)


def _zsquare(sq: Square, owner: bool, caps: int, prisoners: int) -> int:
    if not caps:
        return 0
    return _Z_PIECE[(sq * 2 + owner) * _COUNTS + caps] ^ _Z_PRISONERS[sq * _COUNTS + prisoners]


_NO_MOVES = MoveSet(NONE)

_MOVE_CACHE: dict[str, tuple[list[list[Move]], list[list[Move | None]]]] = {}


def _move_tables(geo: Geometry) -> tuple[list[list[Move]], list[list[Move | None]]]:
    """Every entry (by size, then square) and step (by square, then direction) of a board.

    Moves are immutable values, so playouts reuse these instead of building new ones.
    """
    tables = _MOVE_CACHE.get(geo.name)
    if tables is None:
        n = STRIDE * STRIDE
        entries = [
            [Move(MoveKind.ENTER, (sq,), size, 0) for sq in range(n)] for size in range(geo.men + 1)
        ]
        steps: list[list[Move | None]] = [[None] * len(geo.directions) for _ in range(n)]
        for sq in geo.squares:
            for d, o in enumerate(geo.directions):
                if sq + o in geo:
                    steps[sq][d] = Move(MoveKind.STEP, (sq, sq + o))
        tables = _MOVE_CACHE[geo.name] = (entries, steps)
    return tables


class Board:
    """A position plus the moves that led to it from its root position.

    >>> board = Board()
    >>> str(board.push_move("d4"))
    'd4'
    >>> board.position()
    'b 11/12 d4:w'
    >>> len(board.legal_moves)
    36
    """

    def __init__(self, position: str | None = None, *, variant: str | None = None) -> None:
        if position is None:
            men = geometry(variant or "9x9").men
            position = f"w {men}/{men}"
        self.set_position(position, variant)

    # --- state ------------------------------------------------------------------------------

    def set_position(self, position: str, variant: str | None = None) -> None:
        """Set up an R22 position; clears the move stack.  Nothing changes on error."""
        parsed = parse_position(position, variant)
        geo = geometry(parsed.variant)
        caps = [0] * (STRIDE * STRIDE)
        prisoners = [0] * (STRIDE * STRIDE)
        owned = [0, 0]
        for sq, (owner, k, p) in parsed.stacks.items():
            caps[sq], prisoners[sq] = k, p
            owned[owner] |= 1 << sq
        self.geometry: Geometry = geo
        self.variant: str = geo.name
        self._entry_moves, self._step_moves = _move_tables(geo)
        self.turn: Color = parsed.white_to_move
        self._hand: list[int] = list(parsed.hands)
        self._owned: list[int] = owned
        self._caps: list[int] = caps
        self._prisoners: list[int] = prisoners
        self.move_stack: list[Move] = []
        self._reset_history()

    def _reset_history(self) -> None:
        key = _Z_HAND[self._hand[0]] ^ _Z_HAND[_COUNTS + self._hand[1]]
        key ^= _Z_WHITE_TO_MOVE if self.turn else 0
        for sq in self.geometry.squares:
            owner = bool(self._owned[1] >> sq & 1)
            key ^= _zsquare(sq, owner, self._caps[sq], self._prisoners[sq])
        self._zobrist = key
        self._undo: list[tuple[tuple[tuple[Square, bool, int, int], ...], int, int]] = []
        self._keys: list[int] = [key]
        self._seen: dict[int, int] = {key: 1}
        self._moves: MoveSet | None = None
        self._root = (self.position(), self.variant)

    def _key(self) -> int:
        """The Zobrist key of board, hands and side to move (R19b)."""
        return self._zobrist

    def _hash_move_end(self, move: Move, color: Color, hand_before: int) -> None:
        """Finish a make: hand and turn in the key, history, caches."""
        hand_after = self._hand[color]
        key = self._zobrist ^ _Z_WHITE_TO_MOVE
        if hand_after != hand_before:
            base = _COUNTS if color else 0
            key ^= _Z_HAND[base + hand_before] ^ _Z_HAND[base + hand_after]
        self._zobrist = key
        self.turn = not color
        self.move_stack.append(move)
        self._moves = None
        self._keys.append(key)
        self._seen[key] = self._seen.get(key, 0) + 1

    def hand(self, color: Color) -> int:
        """Men of ``color`` still in hand (R5)."""
        return self._hand[color]

    def stack(self, square: Square | str) -> Stack | None:
        """The piece on ``square`` (an int or a name such as ``"d4"``), ``None`` when vacant.

        A name that is not a square, or an int off the board, raises :class:`InvalidSquareError`.
        """
        if isinstance(square, int) and square in self.geometry:
            sq = square
        else:
            sq = to_square(self.geometry, square)
        caps = self._caps[sq]
        if not caps:
            return None
        return Stack(bool(self._owned[1] >> sq & 1), caps, self._prisoners[sq])

    def stacks(self) -> dict[Square, Stack]:
        """Every piece on the board by square, in square order."""
        out = {}
        caps, prisoners, white = self._caps, self._prisoners, self._owned[1]
        for sq in self.geometry.squares:  # not via stack(): its square check is for callers
            if caps[sq]:
                out[sq] = Stack(bool(white >> sq & 1), caps[sq], prisoners[sq])
        return out

    def pieces(self, color: Color) -> list[Square]:
        """The squares of the pieces ``color`` owns."""
        return list(_bits(self._owned[color]))

    def occupied(self, color: Color | None = None) -> int:
        """Bitboard of the squares owned by ``color`` (both colours when ``None``)."""
        if color is None:
            return self._owned[0] | self._owned[1]
        return self._owned[color]

    def men(self, color: Color) -> int:
        """All men of ``color``: in hand, in caps and as prisoners."""
        total = self._hand[color]
        for sq in self.geometry.squares:
            if self._caps[sq]:
                mine = bool(self._owned[color] >> sq & 1)
                total += self._caps[sq] if mine else self._prisoners[sq]
        return total

    def position(self) -> str:
        """The canonical R22 position string."""
        stacks = {sq: (st.owner, st.caps, st.prisoners) for sq, st in self.stacks().items()}
        return format_position(self.geometry, self.turn, self._hand, stacks)

    def root(self) -> Board:
        """A new board at the position this board's move stack starts from."""
        position, variant = self._root
        return Board(position, variant=variant)

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy, with the move stack (and so repetition history) unless not asked."""
        if stack:
            board = self.root()
            for move in self.move_stack:
                board._make(move)
            return board
        return Board(self.position(), variant=self.variant)

    def __eq__(self, other: object) -> bool:
        """The same position: variant, stacks, hands and turn (not the move stack).

        The Zobrist key only rejects quickly: two positions whose keys collide
        are still told apart by their state.
        """
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self._key() == other._key()
            and self.variant == other.variant
            and self.turn == other.turn
            and self._hand == other._hand
            and self._owned == other._owned
            and self._caps == other._caps
            and self._prisoners == other._prisoners
        )

    def __hash__(self) -> int:
        return hash((self.variant, self._key()))  # equal positions have equal keys

    def __repr__(self) -> str:
        return f"Board({self.position()!r})"

    def __str__(self) -> str:
        from emergo.diagram import diagram

        return diagram(self)

    def _repr_svg_(self) -> str:
        from emergo.svg import board_svg

        return board_svg(self)

    # --- move generation --------------------------------------------------------------------

    def _attackers(self, color: Color) -> int:
        """Pieces of ``color`` that could jump now (R9), were it ``color``'s turn."""
        me, opp = self._owned[color], self._owned[not color]
        return _jumpers(me, opp, self.geometry.mask & ~(me | opp), self.geometry.half_directions)

    def _routes(self, starters: int) -> tuple[int, list[tuple[Square, ...]]]:
        """All longest capture routes of the pieces in ``starters`` (R9-R11)."""
        color = self.turn
        opp = self._owned[not color]
        empty = self.geometry.mask & ~(self._owned[0] | self._owned[1])
        caps, prisoners = self._caps, self._prisoners
        jumps = self.geometry.jumps
        best = 0
        routes: list[tuple[Square, ...]] = []
        path: list[Square] = []

        def search(sq: Square, back: int) -> None:
            nonlocal opp, empty, best, routes
            went_on = False
            for d, over, land in jumps[sq]:
                if d == back or not (opp >> over & 1 and empty >> land & 1):
                    continue
                went_on = True
                # R9: take the top man of the jumped piece.
                k, p = caps[over], prisoners[over]
                bit = 1 << over
                if k > 1:
                    caps[over] = k - 1
                elif p:  # its prisoners are liberated: now ours, not jumpable
                    opp ^= bit
                    caps[over], prisoners[over] = p, 0
                else:  # R9 (decision): a jumped single man leaves at once
                    opp ^= bit
                    empty |= bit
                    caps[over] = 0
                path.append(land)
                search(land, d ^ 1)  # R10: no 180-degree turn
                path.pop()
                caps[over], prisoners[over] = k, p
                if k == 1:
                    opp |= bit
                    empty &= ~bit
            if not went_on and len(path) > 1:
                n = len(path) - 1
                if n > best:  # R11: only the routes taking the most men
                    best, routes = n, []
                if n == best:
                    routes.append(tuple(path))

        for start in _bits(starters):
            empty |= 1 << start  # R10: the start square is vacant once left
            path.append(start)
            search(start, -1)
            path.pop()
            empty &= ~(1 << start)
        return best, routes

    def _forbidden_entries(self) -> int:
        """Vacant squares where an entry would hand the opponent a capture (R15)."""
        opp = self._owned[not self.turn]
        empty = self.geometry.mask & ~(self._owned[0] | self._owned[1])
        return _feeding_squares(opp, empty, self.geometry.half_directions)

    def _first_move(self) -> bool:
        """R16: board empty, both hands full, White to move."""
        men = self.geometry.men
        return (
            self.turn
            and not (self._owned[0] | self._owned[1])
            and self._hand[0] == men
            and self._hand[1] == men
        )

    def generate(self) -> MoveSet:
        """All legal moves in compact form (R8), cached until the position changes."""
        if self._moves is not None:
            return self._moves
        color = self.turn
        geo = self.geometry
        halves = geo.half_directions
        me, opp = self._owned[color], self._owned[not color]
        empty = geo.mask & ~(me | opp)
        starters = _jumpers(me, opp, empty, halves)
        if not opp and not self._hand[not color]:  # R18: the opponent has lost already
            moves = _NO_MOVES
        elif starters:  # R8: capture first, in both phases
            n, routes = self._routes(starters)
            moves = MoveSet(CAPTURE, 0, n, (), tuple(routes))
        elif self._hand[color]:  # R8: then enter
            vacant = empty
            if not _jumpers(opp, me, empty, halves):  # R15: not attacked, so no feeding
                vacant &= ~_feeding_squares(opp, empty, halves)
            if self._first_move():  # R16
                vacant &= ~(1 << geo.centre)
            # R14: a shadowpiece when the opponent has nothing left in hand
            size = self._hand[color] if not self._hand[not color] else 1
            moves = MoveSet(ENTER, vacant, size) if vacant else _NO_MOVES
        else:  # R17: step
            masks: list[int] = []
            for o in halves:  # directions come in pairs o, -o
                masks.append(me & (empty >> o))
                masks.append(me & (empty << o))
            moves = MoveSet(STEP, 0, 0, tuple(masks)) if any(masks) else _NO_MOVES
        self._moves = moves
        return moves

    @property
    def legal_moves(self) -> LegalMoves:
        """A lazy view of the legal moves: ``len``, ``in``, iteration, ``count()``."""
        return LegalMoves(self)

    def is_legal(self, move: Move) -> bool:
        """Is ``move`` legal here?  A move text raises ``TypeError``: see :meth:`parse_move`."""
        if not isinstance(move, Move):
            raise TypeError(_not_a_move("is_legal()", move, "parse_move"))
        ms = self.generate()
        kind = _KINDS[ms.kind]
        if move.kind is not kind:
            return False
        if kind is MoveKind.ENTER:
            return (
                len(move.path) == 1
                and move.entered == ms.size
                and move.path[0] in self.geometry
                and bool(ms.mask >> move.path[0] & 1)
            )
        if kind is MoveKind.STEP:
            if len(move.path) != 2 or move.path[0] not in self.geometry:
                return False
            delta = move.path[1] - move.path[0]
            dirs = self.geometry.directions
            return delta in dirs and bool(ms.masks[dirs.index(delta)] >> move.path[0] & 1)
        return move.path in ms.routes and move.captured == ms.size

    def moves(self, ms: MoveSet | None = None) -> list[Move]:
        """The legal moves as a list, in square order (see :attr:`legal_moves`)."""
        ms = ms or self.generate()
        if ms.kind == ENTER:
            entries = self._entry_moves[ms.size]
            return [entries[sq] for sq in _bits(ms.mask)]
        if ms.kind == STEP:
            order, masks = self.geometry.direction_order, ms.masks
            movers = 0
            for m in masks:
                movers |= m
            return [
                self._step_moves[sq][d]  # type: ignore[misc]
                for sq in _bits(movers)
                for d in order
                if masks[d] >> sq & 1
            ]
        if ms.kind == CAPTURE:
            return [Move(MoveKind.CAPTURE, r, 0, ms.size) for r in ms.routes]
        return []

    def move_at(self, index: int, ms: MoveSet | None = None) -> Move:
        """The ``index``-th legal move in :meth:`moves` order, building no other move.

        Cheap random choice for playouts: ``board.move_at(rng.randrange(len(moves)))``.
        """
        ms = ms or self.generate()
        if ms.kind == ENTER:
            mask = ms.mask
            for _ in range(index):
                mask &= mask - 1
            return self._entry_moves[ms.size][(mask & -mask).bit_length() - 1]
        if ms.kind == CAPTURE:
            return Move(MoveKind.CAPTURE, ms.routes[index], 0, ms.size)
        if ms.kind == STEP:
            masks = ms.masks
            movers = 0
            for m in masks:
                movers |= m
            for sq in _bits(movers):
                for d in self.geometry.direction_order:
                    if masks[d] >> sq & 1:
                        if not index:
                            return self._step_moves[sq][d]  # type: ignore[return-value]
                        index -= 1
        raise IndexError("move index out of range")

    # --- phases -----------------------------------------------------------------------------

    def is_capturing(self) -> bool:
        """The player to move must capture (R8)."""
        return self.generate().kind == CAPTURE

    def is_entering(self) -> bool:
        """The player to move must enter (R8, R13, R14)."""
        return self.generate().kind == ENTER or (
            self.generate().kind == NONE and self._hand[self.turn] > 0
        )

    def is_stepping(self) -> bool:
        """The player to move must step (R8, R17)."""
        ms = self.generate()
        return ms.kind == STEP or (ms.kind == NONE and not self._hand[self.turn])

    def is_attacked(self, color: Color | None = None) -> bool:
        """The opponent of ``color`` (default: the player to move) would have a capture (R15)."""
        color = self.turn if color is None else color
        return bool(self._attackers(not color))

    def entry_size(self) -> int:
        """Men an entry puts on the board now: 1, or the whole hand as a shadowpiece (R14)."""
        me = self.turn
        return self._hand[me] if self._hand[me] and not self._hand[not me] else 1

    # --- make / unmake ----------------------------------------------------------------------

    def _set(self, sq: Square, owner: bool, caps: int, prisoners: int) -> None:
        old_owner = bool(self._owned[1] >> sq & 1)
        self._zobrist ^= _zsquare(sq, old_owner, self._caps[sq], self._prisoners[sq]) ^ _zsquare(
            sq, owner, caps, prisoners
        )
        bit = 1 << sq
        self._owned[0] &= ~bit
        self._owned[1] &= ~bit
        if caps:
            self._owned[owner] |= bit
        self._caps[sq], self._prisoners[sq] = caps, prisoners

    def _make(self, move: Move) -> None:
        """Apply a move known to be legal, recording what ``pop`` needs."""
        color = self.turn
        caps, prisoners = self._caps, self._prisoners
        path = move.path
        kind = move.kind
        hand_before = self._hand[color]
        a = path[0]
        if kind is MoveKind.ENTER:  # R13, R14
            n = move.entered
            self._undo.append((((a, color, 0, 0),), self._hand[0], self._hand[1]))
            self._hand[color] -= n
            self._owned[color] |= 1 << a
            caps[a] = n
            self._zobrist ^= _Z_PIECE[(a * 2 + color) * _COUNTS + n]
        elif kind is MoveKind.STEP:  # R17: the whole stack moves
            b = path[1]
            k, p = caps[a], prisoners[a]
            self._undo.append((((a, color, k, p), (b, color, 0, 0)), self._hand[0], self._hand[1]))
            self._zobrist ^= _zsquare(a, color, k, p) ^ _zsquare(b, color, k, p)
            self._owned[color] ^= 1 << a | 1 << b
            caps[b], prisoners[b] = k, p
            caps[a] = prisoners[a] = 0
        else:
            touched = dict.fromkeys(path)
            for x, y in itertools.pairwise(path):
                touched[(x + y) // 2] = None
            owned_white = self._owned[1]
            before = tuple(
                (sq, bool(owned_white >> sq & 1), caps[sq], prisoners[sq]) for sq in touched
            )
            self._undo.append((before, self._hand[0], self._hand[1]))
            k, p = caps[a], prisoners[a]
            self._set(a, color, 0, 0)  # R10: the start is vacant once left
            for x, y in itertools.pairwise(path):
                over = (x + y) // 2
                ko, po = caps[over], prisoners[over]
                if ko > 1:
                    self._set(over, not color, ko - 1, po)
                else:  # R9: liberation, or a single man leaves
                    self._set(over, color, po, 0)
                p += 1  # R9: the taken man goes to the bottom
            self._set(path[-1], color, k, p)
        self._hash_move_end(move, color, hand_before)

    def push(self, move: Move) -> None:
        """Play a legal move; an illegal one raises IllegalMoveError and changes nothing.

        A move text is :meth:`push_move`'s: here it raises ``TypeError``.
        """
        if not isinstance(move, Move):
            raise TypeError(_not_a_move("push()", move, "push_move"))
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {self.move_text(move)}: {self.explain(move)}")
        self._make(move)

    def push_unchecked(self, move: Move) -> None:
        """Play a move without checking it, for trusted callers (searches, perft, playouts).

        The move must be legal here, e.g. one of :meth:`moves`; no check is made, and
        an illegal move corrupts the board (python-chess's ``push`` is the same).
        """
        self._make(move)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        move = self.move_stack.pop()
        key = self._keys.pop()
        self._seen[key] -= 1
        before, black_hand, white_hand = self._undo.pop()
        for sq, owner, k, p in reversed(before):
            self._set(sq, owner, k, p)
        self._hand[0], self._hand[1] = black_hand, white_hand
        self.turn = not self.turn
        self._zobrist = self._keys[-1]
        self._moves = None
        return move

    def peek(self) -> Move:
        """The last move played; ``IndexError`` when no move has been played."""
        if not self.move_stack:
            raise IndexError("peek at an empty move stack: no move has been played")
        return self.move_stack[-1]

    # --- end of the game --------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """The result if the game is over (R18, R19a, R19b), else ``None``."""
        hand, owned, turn = self._hand, self._owned, self.turn
        if not hand[turn] and not owned[turn]:  # R18, the player to move first
            return Outcome(Termination.NO_PIECES, not turn)
        if not hand[not turn] and not owned[not turn]:
            return Outcome(Termination.NO_PIECES, turn)
        if (self._moves or self.generate()).kind == NONE:
            return Outcome(Termination.BLOCKED, None)
        if self._seen[self._zobrist] >= 3 and self.repetitions() >= 3:
            return Outcome(Termination.REPETITION, None)
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` while the game goes on."""
        outcome = self.outcome()
        return outcome.result() if outcome else "*"

    def repetitions(self) -> int:
        """How often the current position has occurred since the root (R19b)."""
        key = self._zobrist
        seen = self._seen[key]
        if seen < 2:
            return seen  # keys can only over-count, never miss an occurrence
        # Count real positions: Zobrist keys may (very rarely) collide.
        current = self.position()
        board = self.root()
        count = int(board.position() == current)
        for i, move in enumerate(self.move_stack, 1):
            board._make(move)
            if self._keys[i] == key and board.position() == current:
                count += 1
        return count

    # --- move notation ----------------------------------------------------------------------

    def move_text(self, move: Move, names: Names = "oblique") -> str:
        """Canonical R21 text of a move: ``d4``, ``e4-e5``, ``h4xf4xd4``."""
        check_names(names)
        if not isinstance(move, Move):
            raise TypeError(_not_a_move("move_text()", move, "parse_move"))
        sep = "x" if move.kind is MoveKind.CAPTURE else "-"
        return format_path(self.geometry, move.path, sep, names)

    def parse_move(self, text: str, names: Names = "oblique") -> Move:
        """The legal move a text means, in any notation of R21 players use.

        Raises :class:`InvalidMoveError` when the text is not a move,
        :class:`IllegalMoveError` (saying why) when it is not legal here and
        :class:`AmbiguousMoveError` (listing the candidates) when it fits several.
        A text longer than any move can be written (``notation.MAX_MOVE_TEXT``) is refused
        before it is read.
        """
        check_names(names)
        mt = parse_move_text(text)
        geo = self.geometry
        all_names = [geo.square_name(sq, names) for sq in geo.squares]
        for spec in mt.specs:
            if not any(spec.matches(n) for n in all_names):
                what = "square" if spec.full else "line"
                raise InvalidMoveError(
                    f"{mt.text!r}: {spec} is not a {what} of the {geo.name} board"
                )
        legal = self.moves()
        named = [[geo.square_name(sq, names) for sq in m.path] for m in legal]
        matches = [m for m, p in zip(legal, named, strict=True) if _matches(mt, m, p, exact=True)]
        if not matches and not self._literal(mt, names):
            matches = [
                m for m, p in zip(legal, named, strict=True) if _matches(mt, m, p, exact=False)
            ]
        if len(matches) == 1:
            return matches[0]
        if matches:
            texts = sorted(self.move_text(m, names) for m in matches)
            raise AmbiguousMoveError(
                f"{mt.text!r} is ambiguous: it could be {', '.join(texts)}", texts
            )
        intended = self._intended(mt, names)
        if intended is None:
            raise IllegalMoveError(
                f"illegal move {mt.text!r}: no legal move fits it; {self._required(names)}"
            )
        raise IllegalMoveError(
            f"illegal move {self.move_text(intended, names)}: {self.explain(intended, names)}"
        )

    def push_move(self, text: str, names: Names = "oblique") -> Move:
        """Parse a move text, play it and return the move."""
        move = self.parse_move(text, names)
        self._make(move)
        return move

    def _literal(self, mt: MoveText, names: Names) -> bool:
        """Is a text a complete move as written (so never an abbreviation)?

        Full texts of three or more squares are routes; a full two-square text is a
        step or a one-jump capture when its squares are one step or one jump apart.
        Otherwise (``hd4x``, ``h6d4x``, ``h4xd4``) it gives only the start and the end.
        """
        if not mt.full or len(mt.specs) == 1:
            return mt.full and not mt.capture_marked  # "e5x" names only the start
        if len(mt.specs) > 2:
            return True
        a, b = (self.geometry.parse_square(str(s), names) for s in mt.specs)
        dirs = self.geometry.directions
        return (b - a) in dirs or ((b - a) % 2 == 0 and (b - a) // 2 in dirs)

    def _intended(self, mt: MoveText, names: Names) -> Move | None:
        """The move a fully written text describes, legal or not (for explanations)."""
        if not mt.full:
            return None
        path = tuple(self.geometry.parse_square(str(s), names) for s in mt.specs)
        if len(path) == 1:
            return Move.enter(path[0], self.entry_size())
        if len(path) == 2 and not mt.capture_marked:
            delta, dirs = path[1] - path[0], self.geometry.directions
            if delta in dirs or not (delta % 2 == 0 and delta // 2 in dirs):
                return Move.step(path[0], path[1])
        return Move.capture(path)

    def _required(self, names: Names = "oblique") -> str:
        """What the player to move must do, as a sentence (R8)."""
        ms = self.generate()
        who = COLOR_NAMES[self.turn]
        if ms.kind == CAPTURE:
            best = sorted(self.move_text(m, names) for m in self.moves(ms))
            men = "man" if ms.size == 1 else "men"
            shown = " or ".join(best[:3]) + (" or another" if len(best) > 3 else "")
            return f"you must capture: {shown} takes {ms.size} {men} (R8, R11)"
        if ms.kind == ENTER:
            return f"{who} must enter: no capture and men in hand (R8)"
        if ms.kind == STEP:
            return f"{who} must step: no capture and no men in hand (R8, R17)"
        outcome = self.outcome()
        return f"the game is over: {outcome.reason()}" if outcome else "no legal move"

    def explain(self, move: Move, names: Names = "oblique") -> str:
        """Why ``move`` is not legal here, in players' terms, citing the rule."""
        check_names(names)
        if not isinstance(move, Move):
            raise TypeError(_not_a_move("explain()", move, "parse_move"))
        geo = self.geometry

        def name(sq: Square) -> str:
            return geo.square_name(sq, names)

        ms = self.generate()
        color, opp = self.turn, COLOR_NAMES[not self.turn]
        if self.is_legal(move):
            return "it is legal"
        if any(sq not in geo for sq in move.path):
            return "it names a square that is not on the board"
        if ms.kind == NONE:
            return self._required(names)
        if ms.kind == CAPTURE and move.kind is not MoveKind.CAPTURE:
            return self._required(names)
        if move.kind is MoveKind.CAPTURE:
            return self._explain_capture(move, ms, names)
        if move.kind is MoveKind.ENTER:
            sq = move.path[0]
            if ms.kind != ENTER:
                return self._required(names)
            if self._caps[sq]:
                return f"{name(sq)} is occupied (R13)"
            if self._first_move() and sq == geo.centre:
                return f"White may not enter on {name(sq)} on the first move (R16)"
            if self._forbidden_entries() >> sq & 1 and not self.is_attacked():
                return f"{name(sq)} would let {opp} capture and you are not under attack (R15)"
            if move.entered != ms.size:
                if ms.size > 1:
                    return f"you must enter all {ms.size} men as one shadowpiece (R14)"
                return "you may enter only one man (R13, R14)"
            return f"{name(sq)} cannot be entered"
        # a step
        a, b = move.path[0], move.path[-1]
        if ms.kind == ENTER:
            return self._required(names)
        if not self._owned[color] >> a & 1:
            return f"{name(a)} holds no {COLOR_NAMES[color]} piece"
        if len(move.path) != 2 or (b - a) not in geo.directions or b not in geo:
            return f"{name(a)}-{name(b)} is not a step to an adjacent square (R17)"
        if self._caps[b]:
            return f"{name(b)} is occupied (R17)"
        return "it is not a legal step"

    def _explain_capture(self, move: Move, ms: MoveSet, names: Names) -> str:
        geo = self.geometry

        def name(sq: Square) -> str:
            return geo.square_name(sq, names)

        text = self.move_text(move, names)
        path = move.path
        color = self.turn
        if not self._owned[color] >> path[0] & 1:
            return f"{name(path[0])} holds no {COLOR_NAMES[color]} piece"
        if len(path) < 2:
            return f"{text} is not a capture"
        # Walk the route on a scratch board to find the first jump that fails.
        scratch = Board(self.position(), variant=self.variant)
        opp = not color
        scratch._set(path[0], color, 0, 0)
        back = -1
        for x, y in itertools.pairwise(path):
            over = (x + y) // 2
            hop = f"{name(x)}x{name(y)}"
            delta = y - x
            if delta % 2 or delta // 2 not in geo.directions or over not in geo:
                return f"{hop} is not a jump along a line over one square (R9)"
            d = geo.directions.index(delta // 2)
            if d == back:
                return f"{hop} turns straight back, which a capture may not do (R10)"
            if not scratch._owned[opp] >> over & 1:
                return f"{hop} does not jump a {COLOR_NAMES[opp]} piece on {name(over)} (R9)"
            if scratch._caps[y]:
                return f"{hop} lands on {name(y)}, which is occupied (R9)"
            ko, po = scratch._caps[over], scratch._prisoners[over]
            if ko > 1:
                scratch._set(over, opp, ko - 1, po)
            else:
                scratch._set(over, color, po, 0)
            back = d ^ 1
        if ms.kind != CAPTURE:  # every route fails at once when there is no capture
            return self._required(names)
        taken = len(path) - 1
        best = sorted(self.move_text(m, names) for m in self.moves(ms))

        def men(n: int) -> str:
            return f"{n} man" if n == 1 else f"{n} men"

        message = f"{text} takes {men(taken)} but {best[0]} takes {men(ms.size)} (R11)"
        last = path[-1]
        for d, over, land in geo.jumps[last]:
            if d != back and scratch._owned[opp] >> over & 1 and not scratch._caps[land]:
                return f"{message}; a capture must also go on from {name(last)} (R10)"
        return message


def _not_a_move(where: str, value: object, instead: str) -> str:
    """The message for a value that is not a Move where a Move is needed."""
    if isinstance(value, str):
        return (
            f"{where} takes a Move, not the text {excerpt(value)}: "
            f"use {instead}({excerpt(value)}) for a move text"
        )
    return f"{where} takes a Move, not {type(value).__name__}"


def _matches(mt: MoveText, move: Move, names: list[str], *, exact: bool) -> bool:
    """Does a move text fit a legal move (whose squares are ``names``)?"""
    if mt.capture_marked and move.kind is not MoveKind.CAPTURE:
        return False
    specs = mt.specs
    if exact:
        return len(specs) == len(names) and all(
            s.matches(n) for s, n in zip(specs, names, strict=True)
        )
    if len(specs) == 1:  # "e5x": the capture from e5
        return mt.capture_marked and specs[0].matches(names[0])
    # Abbreviated: first and last squares given, any given middle squares in order.
    if len(specs) > len(names):
        return False
    if not (specs[0].matches(names[0]) and specs[-1].matches(names[-1])):
        return False
    rest = iter(names[1:-1])
    return all(any(s.matches(n) for n in rest) for s in specs[1:-1])


class LegalMoves:
    """The legal moves of a board, computed when asked (python-chess style)."""

    def __init__(self, board: Board) -> None:
        self.board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self.board.moves())

    def __len__(self) -> int:
        return self.board.generate().count()

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return self.board.generate().kind != NONE

    def __contains__(self, move: object) -> bool:
        """Is a :class:`Move` legal?  A move text raises ``TypeError``: see ``parse_move``."""
        if isinstance(move, str):  # never a silent False: "d4" is no Move, even when d4 is legal
            raise TypeError(_not_a_move("`in board.legal_moves`", move, "board.parse_move"))
        return isinstance(move, Move) and self.board.is_legal(move)

    def __repr__(self) -> str:
        texts = ", ".join(sorted(self.board.move_text(m) for m in self))
        return f"<LegalMoves ({texts})>"
