"""Pictures of a position as RGB arrays, drawn with Pillow from the geometry.

The same picture as :func:`emergo.svg.board_svg` in its default view, in the same
colours: the inventor's diamond (R1) on the square boards, the hexagon on ``hex``.
Pillow draws it directly (no SVG rasteriser, so no system library such as cairo is
needed on a fresh machine).  A capture in progress is drawn as a path through its
squares so far.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from emergo.board import BLACK, WHITE, Board
from emergo.diagram import diagram
from emergo.envs.observation import stacks_after
from emergo.geometry import Geometry, Square
from emergo.svg import (
    BACKGROUND,
    DARK,
    EDGE,
    HEX_CELLS,
    INK,
    LASTMOVE_PATH,
    LIGHT,
    MAN,
    MAN_EDGE,
    MAN_TEXT,
)

CELL = 24
"""Pixels between the centres of two adjacent squares along a line."""
MARGIN = 18
BAR = 16
"""Height of the strips above and below the board that say each side's hand."""


def _point(geo: Geometry, sq: Square | tuple[float, float]) -> tuple[float, float]:
    """The picture point of a square (or of real ``(u, v)``), origin at the board's centre."""
    u, v = geo.uv(sq) if isinstance(sq, int) else sq
    c = (geo.size + 1) / 2
    du, dv = u - c, v - c
    if geo.shape == "hexagon":  # svg._Frame.hex_point: rows across, a at the top
        return (dv - du / 2) * CELL, du * CELL * math.sqrt(3) / 2
    return du * CELL, -dv * CELL  # R1: letter lines upright, digit lines level


def rgb_array(board: Board, route: tuple[Square, ...] = ()) -> npt.NDArray[np.uint8]:
    """An ``(height, width, 3)`` uint8 picture of the position (after ``route``'s hops)."""
    geo = board.geometry
    half = (geo.size + 1) / 2 * CELL
    side = int(2 * half + 2 * MARGIN)
    width, height = side, side + 2 * BAR
    cx, cy = width / 2, BAR + side / 2
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()

    def at(p: tuple[float, float]) -> tuple[float, float]:
        return cx + p[0], cy + p[1]

    if geo.shape == "hexagon":
        r = CELL / math.sqrt(3)
        for sq in geo.squares:
            x, y = at(_point(geo, sq))
            u, v = geo.uv(sq)
            corners = [
                (
                    x + r * math.cos(math.radians(60 * k + 30)),
                    y + r * math.sin(math.radians(60 * k + 30)),
                )
                for k in range(6)
            ]
            draw.polygon(corners, fill=HEX_CELLS[(u + v) % 3], outline=EDGE)
    else:
        # The checkerboard turned 45 degrees: light everywhere, a dark diamond per square.
        reach = (geo.size - 1) / 2 * CELL + CELL / 2  # the corner squares' outer tips
        outline = [at((0, -reach)), at((reach, 0)), at((0, reach)), at((-reach, 0))]
        draw.polygon(outline, fill=LIGHT, outline=EDGE)
        for sq in geo.squares:
            x, y = at(_point(geo, sq))
            h = CELL / 2
            draw.polygon([(x, y - h), (x + h, y), (x, y + h), (x - h, y)], fill=DARK)
    if len(route) >= 2:
        draw.line([at(_point(geo, sq)) for sq in route], fill=LASTMOVE_PATH, width=3)
    radius = 0.42 * CELL
    for sq, (owner, caps, prisoners) in stacks_after(board, route).items():
        x, y = at(_point(geo, sq))
        box = (x - radius, y - radius, x + radius, y + radius)
        draw.ellipse(box, fill=MAN[owner], outline=MAN_EDGE[owner], width=1)
        if caps > 1:
            draw.text((x, y), str(caps), fill=MAN_TEXT[owner], font=font, anchor="mm")
        if prisoners:
            bx, by, br = x + 0.6 * radius, y + 0.6 * radius, 0.45 * radius
            draw.ellipse((bx - br, by - br, bx + br, by + br), fill=MAN[not owner])
            draw.text((bx, by), str(prisoners), fill=MAN_TEXT[not owner], font=font, anchor="mm")
    for color, y in ((BLACK, BAR / 2), (WHITE, height - BAR / 2)):
        mark = " <- to move" if board.turn == color else ""
        text = f"{'White' if color else 'Black'}: {board.hand(color)} in hand{mark}"
        draw.text((MARGIN, y), text, fill=INK, font=font, anchor="lm")
    return np.asarray(image, dtype=np.uint8)


RENDER_MODES = ("ansi", "rgb_array")
"""The render modes of every environment: the terminal diagram, the picture as RGB pixels."""


def check_render_mode(render_mode: str | None) -> None:
    """ValueError naming a render mode the environments do not have."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r}: expected None, 'ansi' or 'rgb_array'")


def render(
    board: Board, route: tuple[Square, ...], render_mode: str | None
) -> str | npt.NDArray[np.uint8] | None:
    """What an environment's ``render()`` returns in ``render_mode`` (None: nothing)."""
    if render_mode == "ansi":
        return diagram(board)
    if render_mode == "rgb_array":
        return rgb_array(board, route)
    return None
