"""Text forms: position strings (R22) and the syntax of move texts (R21).

This module knows spelling, not rules: it turns text into plain data and back.
Resolving a move text against the legal moves (and explaining why a move is
illegal) is the board's job.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass

from emergo.errors import (
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidSquareError,
)
from emergo.geometry import (
    DEFAULT_VARIANT,
    GEOMETRIES,
    NAMINGS,
    Geometry,
    Names,
    Square,
    geometry,
)

COLOR_LETTERS = ("b", "w")
"""Position-string letter by colour (``BLACK`` is 0/False, ``WHITE`` is 1/True)."""


@dataclass(frozen=True)
class ParsedPosition:
    """A position string taken apart; stacks are ``(owner, caps, prisoners)``, True = White."""

    variant: str
    white_to_move: bool
    hands: tuple[int, int]
    """Men in hand as ``(black, white)``, indexed by colour."""
    stacks: dict[Square, tuple[bool, int, int]]


MAX_POSITION_TEXT = 1024
"""Longer position strings are refused at once (R22).  The longest canonical one, every man a
piece of its own, is under 150 characters: this leaves room for spacing and for stacks spelled
out man by man (``d4:bbwww``)."""

# ASCII digits only: ``\d`` and ``str.isdigit`` also take the digits of other scripts ("١٢").
_RUN = re.compile(r"([a-z])([0-9]*)")
_HANDS = re.compile(r"([0-9]+)/([0-9]+)")


def excerpt(text: str, width: int = 40) -> str:
    """``repr(text)``, cut short for a message when the text is long."""
    if len(text) <= width:
        return repr(text)
    return f"{text[:width]!r}... ({len(text)} characters)"


def _count(digits: str, where: str) -> int:
    """A count of men written in ASCII digits, refused early when it is absurdly large."""
    value = digits.lstrip("0")
    if len(value) > 3:  # no variant has a thousand men; also keeps int() and messages small
        raise InvalidPositionError(f"{where}: {excerpt(digits)} is more men than any variant has")
    return int(value or "0")


def _parse_stack(text: str, where: str) -> tuple[bool, int, int]:
    """``b2w3`` (bottom to top) -> ``(owner, caps, prisoners)``, checking the R6 shape."""
    if not text:
        raise InvalidPositionError(f"{where}: empty stack")
    runs: list[tuple[str, int]] = []
    pos = 0
    while pos < len(text):
        m = _RUN.match(text, pos)
        if m is None or m.group(1) not in COLOR_LETTERS:
            raise InvalidPositionError(
                f"{where}: bad stack {excerpt(text)}: expected colour letters b/w with optional "
                "counts"
            )
        count = _count(m.group(2), where) if m.group(2) else 1
        if count < 1:
            raise InvalidPositionError(
                f"{where}: bad stack {excerpt(text)}: a count must be at least 1"
            )
        if runs and runs[-1][0] == m.group(1):
            runs[-1] = (m.group(1), runs[-1][1] + count)
        else:
            runs.append((m.group(1), count))
        pos = m.end()
    if len(runs) > 2:
        raise InvalidPositionError(
            f"{where}: stack {text!r} is not k men of one colour over p of the other (R6)"
        )
    owner = runs[-1][0] == "w"
    caps = runs[-1][1]
    prisoners = runs[0][1] if len(runs) == 2 else 0
    return owner, caps, prisoners


def position_variant(text: str, default: str | None = None) -> str | None:
    """The variant of a position string: the one its prefix names (R22), else ``default``.

    >>> position_variant("7x7 w 8/8", "9x9"), position_variant("w 8/8", "7x7")
    ('7x7', '7x7')
    """
    fields = text.split()
    return fields[0] if fields and fields[0] in GEOMETRIES else default


def parse_position(text: str, variant: str | None = None) -> ParsedPosition:
    """Parse an R22 position string strictly; errors name the faulty part.

    ``variant`` is the variant expected when the string has no prefix; a prefix
    that contradicts an explicitly given variant is an error.  A string longer than
    :data:`MAX_POSITION_TEXT` is refused before it is read.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position must be a string, not {type(text).__name__}")
    if len(text) > MAX_POSITION_TEXT:
        raise InvalidPositionError(
            f"position {excerpt(text)} is too long: no position needs more than "
            f"{MAX_POSITION_TEXT} characters"
        )
    fields = text.split()
    if not fields:
        raise InvalidPositionError("empty position string")
    if fields[0] in GEOMETRIES:
        named = fields.pop(0)
        if variant is not None and variant != named:
            raise InvalidPositionError(f"position is for {named} but variant {variant} was asked")
        variant = named
    variant = variant or DEFAULT_VARIANT
    try:
        geo = geometry(variant)
    except ValueError as e:
        raise InvalidPositionError(str(e)) from None
    if len(fields) < 2:
        raise InvalidPositionError(
            f"position {excerpt(text)} needs a side to move and hands, e.g. 'w 12/12'"
        )
    side, hands_text, *squares = fields
    if side not in ("w", "b"):
        raise InvalidPositionError(f"side to move must be 'w' or 'b', not {excerpt(side)}")
    m = _HANDS.fullmatch(hands_text)
    if m is None:
        raise InvalidPositionError(
            "hands must be written white/black as two counts, e.g. 12/12, not "
            + excerpt(hands_text)
        )
    white_hand = _count(m.group(1), "White's hand")
    black_hand = _count(m.group(2), "Black's hand")
    stacks: dict[Square, tuple[bool, int, int]] = {}
    for item in squares:
        name, sep, stack_text = item.partition(":")
        if not sep:
            raise InvalidPositionError(f"{excerpt(item)}: expected square:stack, e.g. d4:w")
        try:
            sq = geo.parse_square(name)
        except KeyError:
            raise InvalidPositionError(
                f"{excerpt(name)} is not a square of the {geo.name} board"
            ) from None
        if sq in stacks:
            raise InvalidPositionError(f"square {name} is listed twice")
        stacks[sq] = _parse_stack(stack_text, f"square {name}")
    men = [black_hand, white_hand]
    for owner, caps, prisoners in stacks.values():
        men[owner] += caps
        men[not owner] += prisoners
    for color, label in ((1, "White"), (0, "Black")):
        if men[color] > geo.men:
            raise InvalidPositionError(
                f"{label} has {men[color]} men in this position; {geo.name} has {geo.men} each"
            )
    return ParsedPosition(variant, side == "w", (black_hand, white_hand), stacks)


def format_stack(owner: bool, caps: int, prisoners: int) -> str:
    """Canonical stack text, bottom to top, counts only above 1: ``w``, ``bw2``, ``b2w3``."""

    def run(letter: str, n: int) -> str:
        return letter if n == 1 else f"{letter}{n}"

    top = run(COLOR_LETTERS[owner], caps)
    return run(COLOR_LETTERS[not owner], prisoners) + top if prisoners else top


def format_position(
    geo: Geometry,
    white_to_move: bool,
    hands: tuple[int, int] | list[int],
    stacks: dict[Square, tuple[bool, int, int]],
) -> str:
    """Canonical R22 string: no ``9x9`` prefix (``7x7`` and ``hex`` are written), squares sorted
    by letter then digit."""
    parts = [] if geo.name == DEFAULT_VARIANT else [geo.name]
    parts.append("w" if white_to_move else "b")
    parts.append(f"{hands[1]}/{hands[0]}")
    for sq in sorted(stacks):
        parts.append(f"{geo.square_name(sq)}:{format_stack(*stacks[sq])}")
    return " ".join(parts)


# --- move texts -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SquareSpec:
    """One square of a move text, possibly abbreviated to its letter or digit line."""

    letter: str | None
    digit: str | None

    @property
    def full(self) -> bool:
        return self.letter is not None and self.digit is not None

    def matches(self, name: str) -> bool:
        return (self.letter is None or name[0] == self.letter) and (
            self.digit is None or name[1:] == self.digit
        )

    def __str__(self) -> str:
        return (self.letter or "") + (self.digit or "")


@dataclass(frozen=True)
class MoveText:
    """A move text taken apart: its square specs and whether it was marked as a capture."""

    text: str
    specs: tuple[SquareSpec, ...]
    capture_marked: bool
    """An ``x`` (or ``:``) appeared: only captures can match."""

    @property
    def full(self) -> bool:
        return all(s.full for s in self.specs)


_MAX_JUMPS = max(geo.men for geo in GEOMETRIES.values())
"""The most jumps a capture can make: each takes one man of the opponent's (R9, R11)."""

MAX_MOVE_TEXT = 8 * (_MAX_JUMPS + 1)
"""Longer move texts are refused at once: the longest capture route has one square more than
the opponent has men, and 8 characters a square leave room for separators, spaces and marks."""

_ANNOTATIONS = "!?+#"


def parse_move_text(text: str) -> MoveText:
    """Split a move text into square specs; raises :class:`InvalidMoveError` if it is no move.

    Accepts any case and spaces, ``x``, ``:`` or ``-`` between squares, and the
    old abbreviations where a square is given only by its letter or its digit
    (``fe4``, ``hd4x``, ``c45``).  Which squares exist is checked later.  Only ASCII letters
    and digits name squares, and a text longer than :data:`MAX_MOVE_TEXT` is refused before it
    is read.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
    if len(text) > MAX_MOVE_TEXT:
        raise InvalidMoveError(
            f"{excerpt(text)} is not a move: it is too long (a capture takes at most "
            f"{_MAX_JUMPS} men, R11, and no move text needs more than {MAX_MOVE_TEXT} characters)"
        )
    s = "".join(text.split())
    if not s.isascii():
        odd = next(c for c in s if not c.isascii())
        raise InvalidMoveError(
            f"{text!r} is not a move: unexpected {odd!r} (squares are ASCII letters and digits)"
        )
    s = s.lower().rstrip(_ANNOTATIONS)
    if not s:
        raise InvalidMoveError(f"empty move text {text!r}")
    specs: list[SquareSpec] = []
    capture = False
    i = 0
    while i < len(s):
        c = s[i]
        if c in "x:":
            capture = True
            i += 1
        elif c == "-":
            i += 1
        elif "a" <= c <= "w":
            if i + 1 < len(s) and "1" <= s[i + 1] <= "9":
                specs.append(SquareSpec(c, s[i + 1]))
                i += 2
            else:
                specs.append(SquareSpec(c, None))
                i += 1
        elif "1" <= c <= "9":
            specs.append(SquareSpec(None, c))
            i += 1
        else:
            raise InvalidMoveError(f"{text!r} is not a move: unexpected {c!r}")
    if not specs:
        raise InvalidMoveError(f"{text!r} is not a move: it names no square")
    return MoveText(text.strip(), tuple(specs), capture)


def format_path(geo: Geometry, path: tuple[Square, ...], sep: str, names: Names) -> str:
    return sep.join(geo.square_name(sq, names) for sq in path)


# --- square names -----------------------------------------------------------------------------


def check_names(names: object) -> Names:
    """``names`` when it is a naming (R1, R3), else :class:`InvalidOptionError` naming them."""
    if not isinstance(names, str) or names not in NAMINGS:
        raise InvalidOptionError(f"unknown naming {names!r} (known: {', '.join(NAMINGS)}; R1, R3)")
    return names


def parse_square(geo: Geometry, text: str, names: Names = "oblique") -> Square:
    """The square named ``text`` (any case); :class:`InvalidSquareError` when there is none."""
    check_names(names)
    if not isinstance(text, str):
        raise TypeError(f"a square name must be text, not {type(text).__name__}")
    try:
        return geo.parse_square(text, names)
    except KeyError:
        example = geo.square_name(geo.centre, names)
        raise InvalidSquareError(
            f"{excerpt(text)} is not a square of the {geo.name} board in {names} names "
            f"(a letter and a digit, e.g. {example!r})"
        ) from None


def to_square(geo: Geometry, square: Square | str, names: Names = "oblique") -> Square:
    """A square given as an int or a name, checked to be on the board (R1)."""
    if isinstance(square, str):
        return parse_square(geo, square, names)
    try:
        sq = operator.index(square)
    except TypeError:
        raise TypeError(
            f"a square must be an int or a name such as 'e5', not {type(square).__name__}"
        ) from None
    if sq not in geo:
        raise InvalidSquareError(f"{sq} is not a square of the {geo.name} board")
    return sq
