"""What a record says about a move besides the move: NAGs, and the commands inside comments.

A comment may hold commands as lichess writes them: ``[%eval 1.35,12]`` (an evaluation),
``[%clk 0:04:58]`` (the mover's clock after the move), ``[%csl Rd4,Gd5]`` (circles) and
``[%cal Gd4e5]`` (arrows).  They are read into :class:`Eval`, a clock in seconds and
:class:`Shape` values, and written back from them; the rest of the comment is its text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from emergo.geometry import Geometry, Names

MARKS = ("!!", "!", "!?", "?!", "?", "??")
"""Move marks (as in PGN): brilliant, good, interesting, dubious, mistake, blunder."""
NAG_OF_MARK = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
"""The NAG each mark stands for ($1 ... $6)."""
MARK_OF_NAG = {nag: mark for mark, nag in NAG_OF_MARK.items()}
NAG_MAX = 255
"""NAGs are ``$0`` to ``$255`` (PGN)."""

Brush: TypeAlias = Literal["green", "red", "yellow", "blue"]
BRUSH_OF_LETTER: dict[str, Brush] = {"G": "green", "R": "red", "Y": "yellow", "B": "blue"}
LETTER_OF_BRUSH = {brush: letter for letter, brush in BRUSH_OF_LETTER.items()}
_SQUARE = re.compile(r"[a-z][1-9]")

EvalKind: TypeAlias = Literal["cp", "win", "loss", "draw"]
_EVAL = re.compile(
    r"(?:(?P<cp>[+-]?[0-9]{1,7}(?:\.[0-9]{1,2})?)|#(?P<sign>[+-]?)(?P<plies>[0-9]{1,7})"
    r"|(?P<draw>draw))(?:,(?P<depth>[0-9]{1,4}))?"
)
_CLOCK = re.compile(r"([0-9]{1,6}):([0-5][0-9]):([0-5][0-9](?:\.[0-9]{1,3})?)")
COMMAND = re.compile(r"\[%(eval|clk|csl|cal)\b([^\]]*)\]")
"""The commands this module reads; any other ``[%...]`` is part of a comment's text."""
_ANY_COMMAND = re.compile(r"\[%(?:eval|clk|csl|cal)\b")


@dataclass(frozen=True, slots=True)
class Eval:
    """An evaluation from White's point of view, as ``[%eval ...]`` writes it.

    ``kind`` is ``cp`` (``value`` centi-men: ``[%eval 1.35]``), ``win`` or ``loss`` (White wins
    or loses in ``value`` plies: ``[%eval #7]``, ``[%eval #-7]``) or ``draw`` (a proven draw:
    ``[%eval draw]``); ``depth`` the search depth, if known (``[%eval 1.35,12]``).

    >>> Eval.cp(135, depth=12).text(), Eval.loss(7).text(), Eval.parse("-0.5")
    ('1.35,12', '#-7', Eval(kind='cp', value=-50, depth=None))
    """

    kind: EvalKind
    value: int = 0
    depth: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("cp", "win", "loss", "draw"):
            raise ValueError(f"an evaluation is cp, win, loss or draw, not {self.kind!r}")
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise ValueError(f"an evaluation's value is an int, not {self.value!r}")
        if self.kind in ("win", "loss") and self.value < 0:
            raise ValueError(f"a {self.kind} is in 0 or more plies, not {self.value}")
        if self.kind == "draw" and self.value != 0:
            raise ValueError("a draw has no value")
        if self.depth is not None and (
            isinstance(self.depth, bool) or not isinstance(self.depth, int) or self.depth < 0
        ):
            raise ValueError(f"a depth is an int of 0 or more, not {self.depth!r}")

    @classmethod
    def cp(cls, value: int, depth: int | None = None) -> Eval:
        return cls("cp", value, depth)

    @classmethod
    def win(cls, plies: int, depth: int | None = None) -> Eval:
        return cls("win", plies, depth)

    @classmethod
    def loss(cls, plies: int, depth: int | None = None) -> Eval:
        return cls("loss", plies, depth)

    @classmethod
    def draw(cls, depth: int | None = None) -> Eval:
        return cls("draw", 0, depth)

    def text(self) -> str:
        """The argument of ``[%eval ...]``: ``1.35``, ``-0.50``, ``#7``, ``#-7``, ``draw``."""
        if self.kind == "cp":
            sign = "-" if self.value < 0 else ""
            text = f"{sign}{abs(self.value) // 100}.{abs(self.value) % 100:02d}"
        elif self.kind == "draw":
            text = "draw"
        else:
            text = f"#{'-' if self.kind == 'loss' else ''}{self.value}"
        return text if self.depth is None else f"{text},{self.depth}"

    @classmethod
    def parse(cls, text: str) -> Eval:
        m = _EVAL.fullmatch(text.strip())
        if m is None:
            raise ValueError(
                f"bad [%eval {text.strip()}]: expected men with up to two decimals (1.35), #N "
                "or #-N (White wins or loses in N plies) or draw, then ,depth if known"
            )
        depth = int(m["depth"]) if m["depth"] else None
        if m["cp"] is not None:
            whole, _, cents = m["cp"].lstrip("+-").partition(".")
            value = int(whole) * 100 + int(cents.ljust(2, "0") or 0)
            return cls.cp(-value if m["cp"].startswith("-") else value, depth)
        if m["draw"]:
            return cls.draw(depth)
        plies = int(m["plies"])
        return cls.loss(plies, depth) if m["sign"] == "-" else cls.win(plies, depth)


@dataclass(frozen=True, slots=True)
class Shape:
    """An arrow from ``orig`` to ``dest`` or, without ``dest``, a circle on ``orig``.

    Squares are oblique names (R1), ``brush`` is ``green``, ``red``, ``yellow`` or ``blue``
    (lichess's G R Y B): ``[%csl Rd4]`` is ``Shape("d4", brush="red")``, ``[%cal Gd4e5]``
    ``Shape("d4", "e5")``.
    """

    orig: str
    dest: str | None = None
    brush: Brush = "green"

    def __post_init__(self) -> None:
        if self.brush not in LETTER_OF_BRUSH:
            raise ValueError(f"a brush is green, red, yellow or blue, not {self.brush!r}")
        for square in (self.orig, self.dest):
            if square is not None and (
                not isinstance(square, str) or not _SQUARE.fullmatch(square)
            ):
                raise ValueError(f"a shape's square is a name such as 'd4', not {square!r}")
        if self.dest == self.orig:
            raise ValueError(f"an arrow from {self.orig} to itself: draw a circle (no dest)")

    @property
    def is_circle(self) -> bool:
        return self.dest is None


@dataclass(slots=True)
class Annotation:
    """A comment read into its text (whitespace runs as one space) and its commands."""

    text: str = ""
    clock: float | None = None
    eval: Eval | None = None
    shapes: tuple[Shape, ...] = ()


def square_name(geo: Geometry, name: str, names: Names) -> str:
    """The oblique name of a square named in ``names``; a ``ValueError`` if there is none."""
    try:
        return geo.square_name(geo.parse_square(name, names))
    except KeyError:
        raise ValueError(f"{name} is not a square of the {geo.name} board") from None


def has_command(text: str) -> bool:
    """Does a comment's text hold one of the commands (``[%eval``, ``[%clk``, ...)?"""
    return _ANY_COMMAND.search(text) is not None


def format_clock(seconds: float) -> str:
    """``h:mm:ss``, with the fraction of a second to the millisecond when there is one.

    >>> format_clock(298.0), format_clock(3725.25), format_clock(0.0004)
    ('0:04:58', '1:02:05.25', '0:00:00')
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ValueError(f"a clock is seconds, not {seconds!r}")
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"a clock is 0 or more seconds, not {seconds!r}")
    ms = round(seconds * 1000)
    hours, ms = divmod(ms, 3_600_000)
    minutes, ms = divmod(ms, 60_000)
    whole, ms = divmod(ms, 1000)
    fraction = f".{ms:03d}".rstrip("0") if ms else ""
    return f"{hours}:{minutes:02d}:{whole:02d}{fraction}"


def parse_clock(text: str) -> float:
    m = _CLOCK.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"bad [%clk {text.strip()}]: expected [%clk h:mm:ss], e.g. [%clk 0:05:00]")
    whole, _, fraction = m[3].partition(".")
    ms = ((int(m[1]) * 60 + int(m[2])) * 60 + int(whole)) * 1000 + int(fraction.ljust(3, "0"))
    return ms / 1000


def parse_shapes(name: str, text: str, square: Callable[[str], str]) -> list[Shape]:
    """The shapes of ``[%csl ...]`` or ``[%cal ...]``; ``square`` checks a square name and gives
    its oblique name (a ``ValueError`` saying what is wrong)."""
    arrow = name == "cal"
    pattern = re.compile(r"([A-Z])([a-z][1-9])([a-z][1-9])" if arrow else r"([A-Z])([a-z][1-9])")
    shapes = []
    for item in text.split(","):
        m = pattern.fullmatch(item.strip())
        if m is None or m[1] not in BRUSH_OF_LETTER:
            example = "Gd4e5" if arrow else "Rd4"
            raise ValueError(
                f"bad [%{name} {text.strip()}]: {item.strip()!r} is not a colour (G R Y B) and "
                f"{'two squares' if arrow else 'a square'}, e.g. {example}"
            )
        dest = square(m[3]) if arrow else None
        orig = square(m[2])
        if dest == orig:
            raise ValueError(f"bad [%cal {text.strip()}]: an arrow from {m[2]} to itself")
        shapes.append(Shape(orig, dest, BRUSH_OF_LETTER[m[1]]))
    return shapes


def parse_comment(text: str, square: Callable[[str], str]) -> Annotation:
    """A comment's text and commands; a later ``[%clk]`` or ``[%eval]`` replaces an earlier one,
    shapes add up.  A ``ValueError`` says what is wrong with a command."""
    out = Annotation()
    shapes: list[Shape] = []
    for m in COMMAND.finditer(text):
        name, args = m[1], m[2]
        if name == "clk":
            out.clock = parse_clock(args)
        elif name == "eval":
            out.eval = Eval.parse(args)
        else:
            shapes += parse_shapes(name, args, square)
    rest = COMMAND.sub(" ", text)
    bad = _ANY_COMMAND.search(rest)
    if bad is not None:
        raise ValueError(f"bad command {rest[bad.start() : bad.start() + 40]!r}: no closing ]")
    out.text = " ".join(rest.split())
    out.shapes = tuple(shapes)
    return out


def comment_atoms(
    text: str,
    clock: float | None,
    evaluation: Eval | None,
    shapes: Sequence[Shape],
    square: Callable[[str], str],
) -> list[str]:
    """The canonical words of a comment: ``[%eval]``, ``[%clk]``, ``[%csl]``, ``[%cal]``, then the
    text's words (``square`` names a square in the record's naming); empty for no comment."""
    atoms = []
    if evaluation is not None:
        atoms.append(f"[%eval {evaluation.text()}]")
    if clock is not None:
        atoms.append(f"[%clk {format_clock(clock)}]")
    circles = [f"{LETTER_OF_BRUSH[s.brush]}{square(s.orig)}" for s in shapes if s.dest is None]
    arrows = [
        f"{LETTER_OF_BRUSH[s.brush]}{square(s.orig)}{square(s.dest)}"
        for s in shapes
        if s.dest is not None
    ]
    if circles:
        atoms.append(f"[%csl {','.join(circles)}]")
    if arrows:
        atoms.append(f"[%cal {','.join(arrows)}]")
    atoms += text.split()
    if atoms:
        atoms[0] = "{" + atoms[0]
        atoms[-1] += "}"
    return atoms
