"""SVG pictures of Emergo positions, in the diamond (R1) and checkerboard (R3) views.

>>> from emergo import Board
>>> from emergo.svg import board_svg
>>> board = Board("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b")
>>> picture = board_svg(board, view="checker", squares=["e5"], arrows=[("e4", "e6")])
>>> picture.startswith("<svg")
True

Both views draw the same 9x9 (or 7x7) checkerboard; the *diamond* view is the
inventor's picture, the board turned 45 degrees so that the oblique lines (R1)
run straight across: letter lines upright (``a`` left, ``i`` right), digit lines
level (``1`` low, ``9`` high), ``e1`` the bottom corner, ``e9`` the top, ``a5``
left and ``i5`` right.  The *checker* view is the upright board of R3, ``a1``
(= ``e1``) bottom left.  White plays from the bottom in both unless ``flipped``.

The hex board (R4 ``hex``) has one picture, drawn for the default view: a
hexagon of hexagonal cells in three colours, rows ``a``-``g`` across (``a`` at
the top, named at their left ends), digit lines running down to the left (named
at their upper ends), centre ``d4``; it has no checkerboard, so ``view="checker"``
and ``names="checker"`` raise :class:`~emergo.errors.NamingError`.

A piece (R5, R6) is one disc in its owner's colour, never a tower: the cap
count is written on it when above one, and the prisoners under it show as a
badge in the other colour with their count.  A stack of two or more men gets a
thin rim in the colour of its bottom man.  Men in hand and the side to move are
drawn beside the board; the last move is a path through every square it
visited (for a capture, every landing square, R12) drawn beneath the pieces so
that no count is hidden.  Output is deterministic: the same call gives the same
bytes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal
from xml.sax.saxutils import escape

from emergo.board import BLACK, COLOR_NAMES, WHITE, Board, Color, Move, MoveKind, Stack
from emergo.errors import InvalidOptionError, InvalidSquareError
from emergo.geometry import LETTERS, NAMINGS, Geometry, Names, Square

View = Literal["diamond", "checker"]
VIEWS: tuple[View, ...] = ("diamond", "checker")

S = 36.0
"""Side of one checkerboard cell in picture units."""
R = 0.42 * S
"""Radius of a piece on the checkerboard; in the diamond view pieces are larger (``R_DIAMOND``)."""
R_DIAMOND = 0.54 * S
D_HEX = 1.4 * S
"""Distance between the centres of two adjacent hex cells (R4 ``hex``)."""
R_HEX = 0.43 * D_HEX
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

# Colours: a wooden board, ivory and ebony men, and overlays that keep the men readable.
BACKGROUND = "#fbf8f1"
LIGHT = "#f0d9b5"
DARK = "#b58863"
HEX_CELLS = ("#f0d9b5", "#d8b48a", "#c09466")
"""The hexagon's cells in three colours, so that adjacent cells always differ."""
EDGE = "#6b4a2b"
INK = "#222222"
MAN = {WHITE: "#f8f5ec", BLACK: "#262422"}
MAN_EDGE = {WHITE: "#3a3530", BLACK: "#000000"}
MAN_TEXT = {WHITE: "#1b1916", BLACK: "#f8f5ec"}
LASTMOVE_FILL = "#9bc700"
LASTMOVE_PATH = "#e8770e"
HIGHLIGHT = "#3a8ee6"
ARROW = "#15781b"


def _num(x: float) -> str:
    """A short, stable number: two decimals at most, no trailing zeros, no ``-0``."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class _Frame:
    """Where checkerboard coordinates ``(file, rank)`` (R3; reals allowed) land in the picture.

    On the hexagon (``hexagon``) squares are placed by their ``(u, v)`` instead (:meth:`hex_point`).
    """

    view: View
    n: int
    flipped: bool
    cx: float
    cy: float
    hexagon: bool = False

    @property
    def radius(self) -> float:
        if self.hexagon:
            return R_HEX
        # Diamond cells touch only at their corners, so a piece may cover most of its cell and
        # still keep clear of its neighbours (1.41 S apart).
        return R_DIAMOND if self.view == "diamond" else R

    def hex_point(self, u: float, v: float) -> tuple[float, float]:
        """The picture point of hex cell ``(u, v)`` (R4; reals allowed): rows across, ``a`` on
        top, ``(u+1, v)`` down-left and ``(u+1, v+1)`` down-right of ``(u, v)``."""
        c = (self.n + 1) / 2
        du, dv = u - c, v - c
        if self.flipped:
            du, dv = -du, -dv
        return self.cx + (dv - du / 2) * D_HEX, self.cy + du * D_HEX * math.sqrt(3) / 2

    def at(self, f: float, r: float) -> tuple[float, float]:
        c = (self.n + 1) / 2
        df, dr = f - c, r - c
        if self.flipped:
            df, dr = -df, -dr
        if self.view == "checker":
            return self.cx + df * S, self.cy - dr * S
        # Diamond: the checkerboard turned 45 degrees, so a1 (= e1) is the bottom corner and
        # the oblique lines (u = letter, v = digit) run upright and level (R1).
        k = S / math.sqrt(2)
        return self.cx + (df - dr) * k, self.cy - (df + dr) * k

    def oblique(self, u: float, v: float) -> tuple[float, float]:
        """The picture point of oblique-line coordinates ``(u, v)`` (R1), via R3."""
        c = (self.n + 1) / 2
        return self.at(u + v - c, v - u + c)

    def square(self, geo: Geometry, sq: Square) -> tuple[float, float]:
        if self.hexagon:
            return self.hex_point(*geo.uv(sq))
        f, r = geo.checker_coordinates(sq)
        return self.at(f, r)

    def outline(self, geo: Geometry, sq: Square) -> str:
        """The ``points`` of the outline of a square's cell: checkerboard cell or hexagon."""
        if not self.hexagon:
            return self.cell(*geo.checker_coordinates(sq))
        x, y = self.square(geo, sq)
        r = D_HEX / math.sqrt(3)  # adjacent cells share an edge
        corners = [(k * 60 + 30) * math.pi / 180 for k in range(6)]  # pointed top and bottom
        return " ".join(f"{_num(x + r * math.cos(a))},{_num(y + r * math.sin(a))}" for a in corners)

    def cell(self, f: int, r: int) -> str:
        """The ``points`` of the outline of checkerboard cell ``(f, r)``."""
        corners = (
            self.at(f - 0.5, r - 0.5),
            self.at(f + 0.5, r - 0.5),
            self.at(f + 0.5, r + 0.5),
            self.at(f - 0.5, r + 0.5),
        )
        return " ".join(f"{_num(x)},{_num(y)}" for x, y in corners)


def board_svg(
    board: Board,
    *,
    view: View = "diamond",
    size: float | None = None,
    names: Names | None = None,
    lastmove: bool | Move | None = True,
    squares: Iterable[Square | str] = (),
    arrows: Iterable[Sequence[Square | str]] = (),
    coordinates: bool = True,
    flipped: bool = False,
) -> str:
    """A standalone SVG picture of the position on ``board``.

    ``view`` is ``"diamond"`` (the inventor's oblique-line picture, R1; on the
    hex board, the hexagon) or ``"checker"`` (the upright checkerboard, R3).
    ``size`` is the width in pixels (the height follows); by default the
    picture's natural size.
    ``names`` chooses the coordinates written around the board: ``"oblique"``
    (line letters and digits, R1) or ``"checker"`` (files and ranks, R3); by
    default the naming that belongs to the view.  ``lastmove``: ``True`` (or
    ``None``) draws the last move on the board's move stack, a :class:`Move`
    draws that move, ``False`` none.  ``squares`` are highlighted; ``arrows``
    are ``(from, to)`` pairs (or longer paths) drawn over the pieces.  Squares
    may be ints or names; names are read in ``names``, by default in the
    canonical oblique naming.  ``flipped`` turns the board round so that Black
    plays from the bottom.  Bad arguments raise ``ValueError`` saying which.
    """
    if view not in VIEWS:
        raise InvalidOptionError(f"unknown view {view!r} (known: {', '.join(VIEWS)})")
    if names is not None and names not in NAMINGS:
        raise InvalidOptionError(f"unknown naming {names!r} (known: {', '.join(NAMINGS)})")
    # Square names are read in the canonical naming unless one is asked for (R3).
    given: Names = names or "oblique"
    labels: Names = names or ("oblique" if view == "diamond" else "checker")
    if size is not None and (isinstance(size, bool) or not size > 0):
        raise ValueError(f"size must be a positive number of pixels, not {size!r}")
    geo = board.geometry
    geo.check_naming(labels)  # the hexagon has no checkerboard (R4)
    geo.check_naming(given)
    move = _last_move(board, lastmove)
    marked = [_square(geo, sq, given, "highlighted square") for sq in squares]
    paths = [_arrow(geo, arrow, given) for arrow in arrows]

    n = geo.size
    margin = 0.95 * S if coordinates else 0.3 * S
    panel_w, panel_h = 4.8 * S, 1.5 * S
    hexagon = geo.shape == "hexagon"
    if hexagon:
        # Rows across: the middle row is n cells wide, the rows n / 2 cells high each.
        half_w = n * D_HEX / 2
        half_h = ((n - 1) * math.sqrt(3) / 4 + 1 / math.sqrt(3)) * D_HEX
        cx, cy = margin + half_w, max(margin + half_h, panel_h + 0.15 * S)
        width = 2 * (margin + half_w) + panel_w
        height = 2 * cy
        panel_x = width - panel_w
        top_y, bottom_y = 0.15 * S, height - 0.15 * S - panel_h
    elif view == "checker":
        half = n * S / 2
        cx = cy = margin + half
        width = 2 * (margin + half) + panel_w
        height = 2 * (margin + half)
        # The player at the top of the picture is drawn at the top of the panel.
        panel_x = width - panel_w
        top_y, bottom_y = margin, height - margin - panel_h
    else:
        half = n * S / math.sqrt(2)
        # The hands sit in the empty corners beside the diamond; widen the square if need be.
        room = (half + 1.2 * S + panel_w + panel_h) / 2
        cx = cy = max(half + margin, room)
        width = height = 2 * cx
        panel_x = width - panel_w
        top_y, bottom_y = 0.15 * S, height - 0.15 * S - panel_h
    frame = _Frame(view, n, flipped, cx, cy, hexagon)

    out: list[str] = []
    out.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'viewBox="0 0 {_num(width)} {_num(height)}" '
        f'width="{_num(size if size is not None else width)}" '
        f'height="{_num(height * size / width if size is not None else height)}" '
        f'font-family="{FONT}">'
    )
    out.append(f"<title>{escape(_title(board, move, labels))}</title>")
    out.append(
        f'<rect x="0" y="0" width="{_num(width)}" height="{_num(height)}" fill="{BACKGROUND}"/>'
    )
    # The oblique lines are the diamond view's own; on the checkerboard they are drawn only
    # when its coordinates name them (R1, R3).
    if hexagon:
        out.extend(_hex_board(frame, geo))
    else:
        out.extend(_board(frame, geo, lines=view == "diamond" or labels == "oblique"))
    if move is not None:
        out.extend(_tint(frame, geo, move.path, LASTMOVE_FILL, 0.5, "lastmove"))
    if marked:
        out.extend(_tint(frame, geo, marked, HIGHLIGHT, 0.55, "highlight"))
    if coordinates:
        out.extend(_coordinates(frame, geo, labels))
    if move is not None and move.kind is MoveKind.ENTER:
        # A ring round the entered square: in the diamond view the piece hides most of its tint.
        x, y = frame.square(geo, move.to_square)
        out.append(
            f'<circle class="lastmove" cx="{_num(x)}" cy="{_num(y)}" '
            f'r="{_num(frame.radius + 0.09 * S)}" '
            f'fill="none" stroke="{LASTMOVE_PATH}" stroke-width="{_num(0.1 * S)}" '
            f'stroke-opacity="0.9"/>'
        )
    elif move is not None:
        stop = frame.radius
        out.extend(_path(frame, geo, move.path, "lastmove", LASTMOVE_PATH, 0.14 * S, 0.9, stop))
    for sq, st in board.stacks().items():
        out.extend(_piece(*frame.square(geo, sq), frame.radius, st, geo.square_name(sq)))
    for path in paths:
        out.extend(_path(frame, geo, path, "arrow", ARROW, 0.17 * S, 0.8, 0.2 * S))
    tops = (BLACK, WHITE) if not flipped else (WHITE, BLACK)
    for color, y in zip(tops, (top_y, bottom_y), strict=True):
        out.extend(_player(panel_x, y, panel_w, panel_h, color, board.hand(color), board.turn))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- arguments ------------------------------------------------------------------------------


def _square(geo: Geometry, sq: Square | str, names: Names, what: str) -> Square:
    """A square int from an int or a name; a clear :class:`InvalidSquareError` otherwise."""
    if isinstance(sq, str):
        try:
            return geo.parse_square(sq.strip(), names)
        except KeyError:
            raise InvalidSquareError(
                f"{what} {sq!r} is not a square of the {geo.name} board ({names} names)"
            ) from None
    if isinstance(sq, bool) or not isinstance(sq, int) or sq not in geo:
        raise InvalidSquareError(f"{what} {sq!r} is not a square of the {geo.name} board")
    return sq


def _arrow(geo: Geometry, arrow: Sequence[Square | str], names: Names) -> tuple[Square, ...]:
    if isinstance(arrow, str) or not isinstance(arrow, Sequence) or not arrow:
        raise ValueError(f"an arrow must be a (from, to) pair of squares, not {arrow!r}")
    return tuple(_square(geo, sq, names, "arrow square") for sq in arrow)


def _last_move(board: Board, lastmove: bool | Move | None) -> Move | None:
    if isinstance(lastmove, Move):
        for sq in lastmove.path:
            _square(board.geometry, sq, "oblique", "last-move square")
        return lastmove
    if lastmove is None or lastmove is True:
        return board.move_stack[-1] if board.move_stack else None
    if lastmove is False:
        return None
    raise ValueError(f"lastmove must be True, False, None or a Move, not {lastmove!r}")


def _title(board: Board, move: Move | None, names: Names) -> str:
    text = f"Emergo {board.variant}: {board.position()}"
    if move is not None:
        text += f"; last move {board.move_text(move, names)}"
    return text


# --- drawing --------------------------------------------------------------------------------


def _board(frame: _Frame, geo: Geometry, *, lines: bool) -> list[str]:
    n = frame.n
    out = ['<g stroke="none">']
    for f in range(1, n + 1):
        for r in range(1, n + 1):
            fill = DARK if (f + r) % 2 == 0 else LIGHT  # dark corners (R1)
            out.append(f'<polygon points="{frame.cell(f, r)}" fill="{fill}"/>')
    out.append("</g>")
    corners = [frame.at(0.5, 0.5), frame.at(n + 0.5, 0.5), frame.at(n + 0.5, n + 0.5)]
    corners.append(frame.at(0.5, n + 0.5))
    points = " ".join(f"{_num(x)},{_num(y)}" for x, y in corners)
    out.append(f'<polygon points="{points}" fill="none" stroke="{EDGE}" stroke-width="2"/>')
    if lines:
        # The oblique lines themselves (R1), a little past their end squares.
        out.append(f'<g class="lines" stroke="{EDGE}" stroke-width="1" stroke-opacity="0.45">')
        for i, line in enumerate(geo.lines):
            (u0, v0), (u1, v1) = geo.uv(line[0]), geo.uv(line[-1])
            du, dv = (0.0, 0.3) if i < n else (0.3, 0.0)  # letter lines first, then digits
            x0, y0 = frame.oblique(u0 - du, v0 - dv)
            x1, y1 = frame.oblique(u1 + du, v1 + dv)
            out.append(f'<line x1="{_num(x0)}" y1="{_num(y0)}" x2="{_num(x1)}" y2="{_num(y1)}"/>')
        out.append("</g>")
    return out


def _hex_board(frame: _Frame, geo: Geometry) -> list[str]:
    """The hexagon's cells (R4 ``hex``), coloured so that no two adjacent cells match."""
    out = [f'<g class="cells" stroke="{EDGE}" stroke-width="1" stroke-opacity="0.6">']
    for sq in geo.squares:
        u, v = geo.uv(sq)
        fill = HEX_CELLS[(u + v) % 3]  # the six neighbours differ by 1 or 2 in u + v
        out.append(f'<polygon points="{frame.outline(geo, sq)}" fill="{fill}"/>')
    out.append("</g>")
    return out


def _tint(
    frame: _Frame, geo: Geometry, squares: Iterable[Square], color: str, opacity: float, cls: str
) -> list[str]:
    out = [f'<g class="{cls}" fill="{color}" fill-opacity="{opacity}">']
    for sq in dict.fromkeys(squares):  # a capture may visit a square twice (R10)
        out.append(f'<polygon points="{frame.outline(geo, sq)}"/>')
    out.append("</g>")
    return out


def _text(x: float, y: float, text: str, size: float, fill: str, extra: str = "") -> str:
    # Vertically centred by hand (+0.36 em): dominant-baseline is not honoured everywhere.
    return (
        f'<text x="{_num(x)}" y="{_num(y + 0.36 * size)}" font-size="{_num(size)}" '
        f'fill="{fill}" text-anchor="middle"{extra}>{escape(text)}</text>'
    )


def _coordinates(frame: _Frame, geo: Geometry, names: Names) -> list[str]:
    n, c = frame.n, (frame.n + 1) // 2
    labels: list[tuple[tuple[float, float], str]] = []
    if frame.hexagon:
        # A row's letter just beyond its first cell, a digit line's digit beyond its upper end.
        m = 0.8
        for i in range(1, n + 1):
            vs = [geo.uv(sq)[1] for sq in geo.squares if geo.uv(sq)[0] == i]
            labels.append((frame.hex_point(i, min(vs) - m), LETTERS[i - 1]))
            us = [geo.uv(sq)[0] for sq in geo.squares if geo.uv(sq)[1] == i]
            labels.append((frame.hex_point(min(us) - m, i), str(i)))
    elif names == "checker":
        # Files below rank 1 and ranks left of file a, on whichever side is nearer the viewer.
        edge = n + 0.85 if frame.flipped else 0.15
        for i in range(1, n + 1):
            labels.append((frame.at(i, edge), LETTERS[i - 1]))
            labels.append((frame.at(edge, i), str(i)))
    else:
        # Each oblique line is labelled at one end, chosen so that each side of the diamond
        # carries one kind of label: a-e low, f-i high, 1-5 right, 5-9 left (R1).
        m = 0.85
        for u in range(1, n + 1):
            vs = [geo.uv(sq)[1] for sq in geo.squares if geo.uv(sq)[0] == u]
            if u <= c:
                labels.append((frame.oblique(u, min(vs) - m), LETTERS[u - 1]))
            if u >= c:
                labels.append((frame.oblique(u, max(vs) + m), LETTERS[u - 1]))
        for v in range(1, n + 1):
            us = [geo.uv(sq)[0] for sq in geo.squares if geo.uv(sq)[1] == v]
            if v <= c:
                labels.append((frame.oblique(max(us) + m, v), str(v)))
            if v >= c:
                labels.append((frame.oblique(min(us) - m, v), str(v)))
    out = ['<g class="coordinates" font-weight="bold">']
    out.extend(_text(x, y, text, 0.38 * S, EDGE) for (x, y), text in labels)
    out.append("</g>")
    return out


def _path(
    frame: _Frame,
    geo: Geometry,
    path: Sequence[Square],
    cls: str,
    color: str,
    width: float,
    opacity: float,
    stop: float,
) -> list[str]:
    """A polyline through the squares of ``path``, its arrowhead ``stop`` short of the end.

    The last move (class ``lastmove``) also gets a dot on its starting square.
    """
    points = [frame.square(geo, sq) for sq in path]
    if len(set(points)) == 1:  # an arrow from a square to itself: a ring
        x, y = points[0]
        return [
            f'<circle class="{cls}" cx="{_num(x)}" cy="{_num(y)}" '
            f'r="{_num(frame.radius + 0.05 * S)}" fill="none" stroke="{color}" '
            f'stroke-width="{_num(width)}" stroke-opacity="{opacity}"/>'
        ]
    # Drop repeated consecutive points, then end the line where the arrowhead begins.
    pts = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    d = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / d, (y1 - y0) / d
    head = 0.42 * S
    tip = (x1 - ux * stop, y1 - uy * stop)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    line = [*pts[:-1], base]
    coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in line)
    out = [f'<g class="{cls}" fill="{color}" stroke="{color}" opacity="{opacity}">']
    if cls == "lastmove":
        sx, sy = pts[0]
        out.append(f'<circle cx="{_num(sx)}" cy="{_num(sy)}" r="{_num(0.13 * S)}" stroke="none"/>')
    out.append(
        f'<polyline points="{coords}" fill="none" stroke-width="{_num(width)}" '
        f'stroke-linejoin="round" stroke-linecap="round"/>'
    )
    hw = 0.3 * S
    head_pts = (
        tip,
        (base[0] - uy * hw, base[1] + ux * hw),
        (base[0] + uy * hw, base[1] - ux * hw),
    )
    out.append(
        f'<polygon points="{" ".join(f"{_num(x)},{_num(y)}" for x, y in head_pts)}" stroke="none"/>'
    )
    out.append("</g>")
    return out


def _disc(x: float, y: float, r: float, color: Color, width: float = 1.5, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return (
        f'<circle{attr} cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" fill="{MAN[color]}" '
        f'stroke="{MAN_EDGE[color]}" stroke-width="{_num(width)}"/>'
    )


def _piece(x: float, y: float, r: float, st: Stack, name: str) -> list[str]:
    """One piece (R6) of radius ``r``: a disc, its cap count, a badge counting its prisoners."""
    owner = st.owner
    kind = COLOR_NAMES[owner].lower()
    out = [f'<g class="piece {kind}" data-square="{name}" data-stack="{st.caps}/{st.prisoners}">']
    if st.size > 1:
        # A thin rim in the bottom man's colour: a stack, and what is at its bottom.
        out.append(_disc(x, y + 0.2 * r, r, not owner if st.prisoners else owner))
    out.append(_disc(x, y, r, owner, cls="disc"))
    out.append(
        f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(0.74 * r)}" fill="none" '
        f'stroke="{MAN_TEXT[owner]}" stroke-opacity="0.25" stroke-width="1"/>'
    )
    if st.caps > 1:
        size = (1.2 if st.caps < 10 else 1.0) * r
        out.append(_text(x, y, str(st.caps), size, MAN_TEXT[owner], ' font-weight="bold"'))
    if st.prisoners:
        bx, by, br = x + 0.66 * r, y + 0.66 * r, 0.46 * r
        out.append(_disc(bx, by, br, not owner, 1.2, cls="badge"))
        size = (0.6 if st.prisoners < 10 else 0.5) * r
        label = str(st.prisoners)
        out.append(_text(bx, by, label, size, MAN_TEXT[not owner], ' font-weight="bold"'))
    out.append("</g>")
    return out


def _player(
    x: float, y: float, w: float, h: float, color: Color, hand: int, turn: Color
) -> list[str]:
    """A player's men in hand (R5) as a disc with the count, and the side to move (R7)."""
    to_move = color == turn
    name = COLOR_NAMES[color]
    out = [f'<g class="player {name.lower()}{" to-move" if to_move else ""}" data-hand="{hand}">']
    if to_move:
        out.append(
            f'<rect x="{_num(x + 0.1 * S)}" y="{_num(y)}" width="{_num(w - 0.2 * S)}" '
            f'height="{_num(h)}" rx="{_num(0.2 * S)}" fill="#fff1bf" stroke="#d4a72c" '
            f'stroke-width="1.5"/>'
        )
    dx, dy = x + 0.65 * S, y + h / 2
    out.append(_disc(dx, dy, R, color))
    size = 0.42 * S if hand < 10 else 0.36 * S
    out.append(_text(dx, dy, str(hand), size, MAN_TEXT[color], ' font-weight="bold"'))
    tx = x + 1.25 * S
    out.append(
        f'<text x="{_num(tx)}" y="{_num(dy - 0.06 * S)}" font-size="{_num(0.36 * S)}" '
        f'fill="{INK}" font-weight="bold">{escape(name + (" to move" if to_move else ""))}</text>'
    )
    out.append(
        f'<text x="{_num(tx)}" y="{_num(dy + 0.36 * S)}" font-size="{_num(0.3 * S)}" '
        f'fill="{INK}">{escape(f"{hand} in hand")}</text>'
    )
    out.append("</g>")
    return out
