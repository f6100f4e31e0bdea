"""Text pictures of Emergo positions for terminals: ``str(board)`` and ``emergo show``.

Two views, as in :mod:`emergo.svg`:

* ``diamond`` (default): the inventor's oblique lines (R1) drawn as a grid of
  lines, letter lines upright (``a`` left), digit lines level (``1`` at the
  bottom); each square is a crossing, ``e1`` the bottom corner and ``e9`` the top.
* ``checker``: the upright checkerboard of R3, ``a1`` (= ``e1``) bottom left;
  dark squares show ``·`` when empty, light squares stay blank.

The hex board (R4 ``hex``) has one picture, drawn for the default view: the
hexagon with its rows ``a``-``g`` across (``a`` at the top), each cell a point
``·`` where three lines meet: the row, its digit line running down to the left
and the third line running down to the right (six directions).  Rows are named
at their left end, digit lines at their upper end.  It has no checkerboard
(``view="checker"`` or ``names="checker"`` raise :class:`~emergo.errors.NamingError`).

Each piece is written as its owner's letter, then its counts (R6)::

    W      one White man
    W3     three White men
    W3/2   three White men on top of two Black prisoners
    B1/1   one Black man on top of one White prisoner

Squares on the last move's path are bracketed: ``[W3]``.  The player to move
is marked; both hands are shown (R5).  White plays from the bottom unless
``flipped``.  ``unicode=False`` gives a pure ASCII picture.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from emergo.board import BLACK, COLOR_NAMES, WHITE, Board, Color, Move, Stack
from emergo.errors import InvalidOptionError
from emergo.geometry import LETTERS, NAMINGS, Geometry, Names, Square
from emergo.svg import VIEWS, View

__all__ = ["VIEWS", "View", "diagram", "stack_text"]

# Box-drawing glyph of an empty crossing, by which of its (left, right, up, down) lines exist.
_CROSSINGS = {
    (True, True, True, True): "┼",
    (True, True, False, True): "┬",
    (True, True, True, False): "┴",
    (False, True, True, True): "├",
    (True, False, True, True): "┤",
    (True, False, False, True): "┐",
    (False, True, False, True): "┌",
    (True, False, True, False): "┘",
    (False, True, True, False): "└",
    (True, True, False, False): "─",
    (False, False, True, True): "│",
    (False, True, False, False): "╶",
    (True, False, False, False): "╴",
    (False, False, True, False): "╵",
    (False, False, False, True): "╷",
    (False, False, False, False): "·",
}


@dataclass(frozen=True)
class _Glyphs:
    horizontal: str
    vertical: str
    empty_dark: str
    corners: tuple[str, str, str, str]  # top left, top right, bottom left, bottom right
    to_move: str

    def crossing(self, left: bool, right: bool, up: bool, down: bool) -> str:
        if self.horizontal == "-":
            return "+"
        return _CROSSINGS[(left, right, up, down)]


_UNICODE = _Glyphs("─", "│", "·", ("┌", "┐", "└", "┘"), "◀")
_ASCII = _Glyphs("-", "|", ".", ("+", "+", "+", "+"), "<-")


def stack_text(stack: Stack) -> str:
    """The compact text of a piece: ``W``, ``W3``, ``W3/2`` (caps over prisoners, R6)."""
    text = "W" if stack.owner == WHITE else "B"
    if stack.prisoners:
        return f"{text}{stack.caps}/{stack.prisoners}"
    return text + (str(stack.caps) if stack.caps > 1 else "")


def diagram(
    board: Board,
    *,
    view: View = "diamond",
    names: Names | None = None,
    unicode: bool = True,
    lastmove: bool | Move | None = None,
    flipped: bool = False,
    colour: bool = False,
    cell: int = 5,
) -> str:
    """A text picture of the position on ``board`` (see the module docstring for the key).

    ``view`` is ``"diamond"`` (oblique lines, R1; the hexagon on hex) or ``"checker"``
    (R3); ``names`` chooses the coordinates written round the board, by default the naming that
    belongs to the view; ``lastmove``: ``None``/``True`` marks the last move on
    the board's move stack, ``False`` none, a :class:`Move` that move; ``flipped`` puts
    White at the top; ``colour`` paints the pieces with ANSI escapes (White's in reverse video,
    Black's red) and dims the lines; ``cell`` is the least width of a square in columns, so
    that a game's pictures keep one width (7 fits ``[W3/2]``).
    """
    if view not in VIEWS:
        raise InvalidOptionError(f"unknown view {view!r} (known: {', '.join(VIEWS)})")
    if names is None:
        names = "oblique" if view == "diamond" else "checker"
    if names not in NAMINGS:
        raise InvalidOptionError(f"unknown naming {names!r} (known: {', '.join(NAMINGS)})")
    geo = board.geometry
    geo.check_naming(names)  # the hexagon has no checkerboard (R4)
    if view == "checker":
        geo.check_naming("checker")
    move = _last_move(board, lastmove)
    glyphs = _UNICODE if unicode else _ASCII
    path = set(move.path) if move is not None else set()
    tokens = {sq: stack_text(st) for sq, st in board.stacks().items()}
    widest = max((len(t) for t in tokens.values()), default=1) + (2 if path else 0)
    width = max(cell, widest + 1)  # 5 fits "[W3]": the board keeps its size as play goes on
    width += 1 - width % 2  # odd, so that lines meet a crossing in its middle

    if geo.shape == "hexagon":
        rows = _hexagon(geo, tokens, path, glyphs, width, flipped)
    elif view == "diamond":
        rows = _diamond(geo, tokens, path, names, glyphs, width, flipped)
    else:
        rows = _checker(geo, tokens, path, names, glyphs, width, flipped)
    if view == "diamond" and names == "checker" and geo.shape != "hexagon":
        while not rows[0].strip():  # one end of the picture has no labels then
            rows.pop(0)
        while not rows[-1].strip():
            rows.pop()
        rows.append("")
        rows.append(_checker_caption(flipped))
    if colour:
        rows = [_paint(row) for row in rows]
    top, bottom = (BLACK, WHITE) if not flipped else (WHITE, BLACK)
    lines = [_player(board, top, glyphs), "", *rows, "", _player(board, bottom, glyphs)]
    if move is not None:
        played = bool(board.move_stack) and move == board.move_stack[-1]
        mover = COLOR_NAMES[not board.turn] if played else None
        text = board.move_text(move, names)
        lines.append(f"Last move: {text}" + (f" ({mover})" if mover else ""))
    legend = _legend(board)
    if legend:
        lines.append(legend)
    return "\n".join(line.rstrip() for line in lines)


_PIECE = re.compile(r"\[?\b([WB])(?:\d+(?:/\d+)?)?\b\]?")
_LINES = re.compile(r"[─│┼┬┴├┤┐┌┘└╶╴╵╷]+")
_PAINT = {"W": "1;7", "B": "1;31"}


def _paint(row: str) -> str:
    """A picture's row with ANSI colours: pieces by owner, the lines dim (labels stay plain)."""
    row = _PIECE.sub(lambda m: f"\x1b[{_PAINT[m.group(1)]}m{m.group(0)}\x1b[0m", row)
    return _LINES.sub(lambda m: f"\x1b[2m{m.group(0)}\x1b[0m", row)


def _checker_caption(flipped: bool) -> str:
    """Where R3's files and ranks are named on the diamond: they run across its lines."""
    files, ranks = ("upper left", "upper right") if flipped else ("lower right", "lower left")
    return f"Checker names (R3): files a-i along the {files} edge, ranks 1-9 along the {ranks}."


def _last_move(board: Board, lastmove: bool | Move | None) -> Move | None:
    if isinstance(lastmove, Move):
        for sq in lastmove.path:
            if sq not in board.geometry:
                raise ValueError(f"last move {lastmove} leaves the {board.variant} board")
        return lastmove
    if lastmove is False:
        return None
    if lastmove is None or lastmove is True:
        return board.move_stack[-1] if board.move_stack else None
    raise ValueError(f"lastmove must be True, False, None or a Move, not {lastmove!r}")


def _player(board: Board, color: Color, glyphs: _Glyphs) -> str:
    name = COLOR_NAMES[color]
    text = f"{name} ({name[0]}): {board.hand(color)} in hand"
    if board.turn == color:
        text += f"   {glyphs.to_move} {name} to move"
    return text


def _legend(board: Board) -> str:
    """One example read out, so that a newcomer can decode every count (R6)."""
    stacks = board.stacks().values()
    example = next((st for st in stacks if st.prisoners), None)
    if example is None:
        example = next((st for st in stacks if st.caps > 1), None)
    if example is None:
        return ""
    owner, other = COLOR_NAMES[example.owner], COLOR_NAMES[not example.owner]
    text = f"Key: {stack_text(example)} = {example.caps} {owner} {_men(example.caps)}"
    if example.prisoners:
        text += f" on top of {example.prisoners} {other} {_prisoners(example.prisoners)}"
    return text


def _men(k: int) -> str:
    return "man" if k == 1 else "men"


def _prisoners(k: int) -> str:
    return "prisoner" if k == 1 else "prisoners"


def _centre(text: str, width: int, left: str = " ", right: str = " ") -> str:
    """``text`` centred in ``width`` columns, padded with ``left`` and ``right`` fill."""
    pad = width - len(text)
    return left * (pad // 2) + text + right * (pad - pad // 2)


def _mark(text: str, on_path: bool) -> str:
    return f"[{text}]" if on_path else text


def _diamond(
    geo: Geometry,
    tokens: dict[Square, str],
    path: set[Square],
    names: Names,
    glyphs: _Glyphs,
    width: int,
    flipped: bool,
) -> list[str]:
    """The oblique lines as a grid (R1): one text column per letter, two rows per digit."""
    n, c = geo.size, (geo.size + 1) // 2

    def place(u: int, v: int) -> tuple[int, int]:  # oblique (u, v) -> (column, row)
        return (n + 1 - u, n + 1 - v) if flipped else (u, v)

    board: dict[tuple[int, int], Square] = {place(*geo.uv(sq)): sq for sq in geo.squares}
    labels: dict[tuple[int, int], str] = {}
    if names == "oblique":
        for i in range(1, n + 1):
            for edge in (0, n + 1):
                labels[place(i, edge)] = LETTERS[i - 1]
                labels[place(edge, i)] = str(i)
    else:
        # R3 files and ranks run across the grid; each is named just beyond its end nearest
        # the bottom of the unflipped picture (file below rank 1, rank left of file a).
        for i in range(1, n + 1):
            low = 1 if i % 2 else 2  # the lowest dark square of file (rank) i
            f, r = i, low - 2  # one diagonal step beyond it
            labels[place((f - r) // 2 + c, (f + r) // 2)] = LETTERS[i - 1]
            f, r = low - 2, i
            labels[place((f - r) // 2 + c, (f + r) // 2)] = str(i)

    rows = []
    for row in range(n + 1, -1, -1):
        cells = []
        for col in range(n + 2):
            sq = board.get((col, row))
            if sq is None:
                cells.append(_centre(labels.get((col, row), ""), width))
                continue
            left, right = (col - 1, row) in board, (col + 1, row) in board
            up, down = (col, row + 1) in board, (col, row - 1) in board
            text = tokens.get(sq) or glyphs.crossing(left, right, up, down)
            fill_l = glyphs.horizontal if left else " "
            fill_r = glyphs.horizontal if right else " "
            cells.append(_centre(_mark(text, sq in path), width, fill_l, fill_r))
        rows.append("".join(cells))
        if 1 < row <= n:
            joins = [
                _centre(
                    glyphs.vertical if (col, row) in board and (col, row - 1) in board else "",
                    width,
                )
                for col in range(n + 2)
            ]
            rows.append("".join(joins))
    return rows


def _checker(
    geo: Geometry,
    tokens: dict[Square, str],
    path: set[Square],
    names: Names,
    glyphs: _Glyphs,
    width: int,
    flipped: bool,
) -> list[str]:
    """The upright checkerboard (R3): dark squares only hold men; a frame and coordinates."""
    n, c = geo.size, (geo.size + 1) // 2

    def place(f: int, r: int) -> tuple[int, int]:  # checker (file, rank) -> (column, row)
        return (n + 1 - f, n + 1 - r) if flipped else (f, r)

    board = {place(*geo.checker_coordinates(sq)): sq for sq in geo.squares}
    # Labels by side of the frame: column or row index -> text.
    sides: dict[str, dict[int, str]] = {"below": {}, "above": {}, "left": {}, "right": {}}
    opposite = {"below": "above", "above": "below", "left": "right", "right": "left"}
    marks: list[tuple[str, int, str]] = []
    for i in range(1, n + 1):
        letter, digit = LETTERS[i - 1], str(i)
        if names == "checker":
            marks += [("below", i, letter), ("above", i, letter)]
            marks += [("left", i, digit), ("right", i, digit)]
            continue
        # Each oblique line runs diagonally and is named at one end, so that each side of the
        # frame carries one kind of label: a-e left, e-i right, 1-5 below, 5-9 above (R1).
        if i <= c:
            marks += [("left", 2 * c - 2 * i + 1, letter), ("below", 2 * i - 1, digit)]
        if i >= c:
            marks += [("right", n - 2 * i + 2 * c, letter), ("above", 2 * i - n, digit)]
    for side, k, text in marks:
        if flipped:
            side, k = opposite[side], n + 1 - k
        sides[side][k] = text
    below, above, left, right = sides["below"], sides["above"], sides["left"], sides["right"]

    frame_w = n * width + 2  # a space inside each side of the frame
    lw = max(len(t) for t in (*left.values(), *right.values(), "")) + 1
    tl, tr, bl, br = glyphs.corners

    def label_row(labels: dict[int, str]) -> str:
        return " " * (lw + 2) + "".join(
            _centre(labels.get(col, ""), width) for col in range(1, n + 1)
        )

    rows = [label_row(above)] if above else []
    rows.append(" " * lw + tl + glyphs.horizontal * frame_w + tr)
    for row in range(n, 0, -1):
        cells = []
        for col in range(1, n + 1):
            sq = board.get((col, row))
            if sq is None:
                cells.append(" " * width)
            else:
                text = _mark(tokens.get(sq, glyphs.empty_dark), sq in path)
                cells.append(_centre(text, width))
        rows.append(
            left.get(row, "").rjust(lw - 1)
            + " "
            + glyphs.vertical
            + " "
            + "".join(cells)
            + " "
            + glyphs.vertical
            + " "
            + right.get(row, "")
        )
    rows.append(" " * lw + bl + glyphs.horizontal * frame_w + br)
    rows.append(label_row(below))
    return rows


def _hexagon(
    geo: Geometry,
    tokens: dict[Square, str],
    path: set[Square],
    glyphs: _Glyphs,
    width: int,
    flipped: bool,
) -> list[str]:
    """The hexagon of R4 ``hex``: rows across, ``a`` at the top; two text rows per board row.

    Cell ``(u, v)`` sits at half-cell ``x = 2v - u`` of text row ``2u``, so that ``(u+1, v)``
    is down-left of it and ``(u+1, v+1)`` down-right: the six directions are ``─`` along the
    row and ``/``, ``\\`` between rows.
    """
    n = geo.size
    half = (width + 1) // 2  # columns per half cell: cells in a row are 2 * half apart

    def place(u: int, v: int) -> tuple[int, int]:  # (u, v) -> (text row, half-cell column)
        if flipped:
            u, v = n + 1 - u, n + 1 - v
        return 2 * u, 2 * v - u

    cells = {sq: place(*geo.uv(sq)) for sq in geo.squares}
    labels: dict[tuple[int, int], str] = {}
    for u in range(1, n + 1):  # a row's name just beyond its first cell
        first = min(geo.uv(sq)[1] for sq in geo.squares if geo.uv(sq)[0] == u)
        labels[place(u, first - 1)] = LETTERS[u - 1]
    for v in range(1, n + 1):  # a digit line's name just beyond its upper end
        top = min(geo.uv(sq)[0] for sq in geo.squares if geo.uv(sq)[1] == v)
        labels[place(top - 1, v)] = str(v)
    spots = [*cells.values(), *labels]
    low_row = min(r for r, _ in spots)
    low_x = min(x for _, x in spots)
    rows = max(r for r, _ in spots) - low_row + 1
    cols = (max(x for _, x in spots) - low_x) * half + width
    grid = [[" "] * cols for _ in range(rows)]

    def column(x: int) -> int:  # the middle column of half-cell x
        return (x - low_x) * half + width // 2

    def put(row: int, middle: int, text: str) -> None:
        start = middle - len(text) // 2
        grid[row - low_row][start : start + len(text)] = list(text)

    for sq, (r, x) in cells.items():
        for o in geo.directions:
            other = cells.get(sq + o)
            if other is None:
                continue
            r2, x2 = other
            if r2 == r and x2 > x:  # along the row: a line through the gap
                for col in range(column(x), column(x2) + 1):
                    grid[r - low_row][col] = glyphs.horizontal
            elif r2 == r + 2:  # to the row below: one slanted stroke halfway
                a, b = column(x), column(x2)
                put(r + 1, (a + b) // 2 if b < a else (a + b + 1) // 2, "/" if b < a else "\\")
    for sq, (r, x) in cells.items():
        put(r, column(x), _mark(tokens.get(sq) or glyphs.empty_dark, sq in path))
    for (r, x), text in labels.items():
        put(r, column(x), text)
    return ["".join(line).rstrip() for line in grid]
