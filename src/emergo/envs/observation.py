"""The observation planes: a pure function of (board, capture route, player).

``planes(board, route, player)`` is a ``float32`` array of shape ``(PLANES, H, W)``,
``H = W = geometry.size`` (9 on ``9x9``, 7 on ``7x7`` and ``hex``).  Square ``(u, v)``
(letter index, digit, both from 1; ``Geometry.uv``) is cell ``[u - 1, v - 1]``; the
cells of the grid that are no square of the board (the corners of the diamond, two
corners of the hexagon's 7 x 7 grid) are 0 in every plane but the constant ones.

The view is **relative**: "mine" is ``player`` (by default the side to move), "theirs"
the other colour, and the board is never turned (Emergo's rules have no forward
direction; only R7 and R16 tell the colours apart, so plane 13 says which colour
``player`` is).  The board shown is the position *after the hops chosen so far* of a
capture in progress (R9, R10: the capturing piece on its current square with the men
taken at its bottom, its start square vacant, every jumped piece one man lower), so a
learner sees what it would see after a whole move.

=====  =================  ========================================================  =======
plane  name               value                                                     range
=====  =================  ========================================================  =======
0      ``BOARD``          1 on the board's squares                                  0-1
1      ``MY_PIECES``      1 where ``player`` owns the piece (R5)                    0-1
2      ``MY_CAPS``        the cap of each of ``player``'s pieces (R6)               0-men
3      ``MY_PRISONERS``   the prisoners under each of ``player``'s pieces           0-men
4      ``THEIR_PIECES``   as 1, the other colour                                    0-1
5      ``THEIR_CAPS``     as 2, the other colour                                    0-men
6      ``THEIR_PRISONERS``as 3, the other colour                                    0-men
7      ``MY_HAND``        constant: ``player``'s men in hand                        0-men
8      ``THEIR_HAND``     constant: the other colour's men in hand                  0-men
9      ``MUST_CAPTURE``   constant 1 when the side to move captures (R8)            0-1
10     ``MUST_ENTER``     constant 1 when the side to move enters (R8, R13, R14)    0-1
11     ``MUST_STEP``      constant 1 when the side to move steps (R8, R17)          0-1
12     ``TO_MOVE``        constant 1 when ``player`` is the side to move (R7)       0-1
13     ``WHITE``          constant 1 when ``player`` is White                       0-1
14     ``REPETITIONS``    constant: occurrences of the position so far (R19b)       0-3
15     ``CAPTURE_AT``     1 on the capturing piece's square, mid-capture (R10)      0-1
16     ``CAPTURE_FROM``   1 on the square its last hop started from: the jump       0-1
                          straight back would land there, which R10 forbids
=====  =================  ========================================================  =======

"Constant" planes hold their value in every cell of the ``H x W`` grid.  ``men`` is
12 on ``9x9`` and ``hex``, 8 on ``7x7``.  Planes 9-11 are all 0 when the game is over;
``REPETITIONS`` counts the start and every position after a whole move (1 or 2 while
the game goes on, 3 after a repetition draw).  Every value is a small integer, so a C
implementation that writes ``(float)count`` matches this one byte for byte.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from emergo.board import CAPTURE, ENTER, STEP, Board, Color
from emergo.geometry import VARIANTS, Geometry, Square, geometry

Planes = npt.NDArray[np.float32]

(
    BOARD,
    MY_PIECES,
    MY_CAPS,
    MY_PRISONERS,
    THEIR_PIECES,
    THEIR_CAPS,
    THEIR_PRISONERS,
    MY_HAND,
    THEIR_HAND,
    MUST_CAPTURE,
    MUST_ENTER,
    MUST_STEP,
    TO_MOVE,
    WHITE_PLANE,
    REPETITIONS,
    CAPTURE_AT,
    CAPTURE_FROM,
) = range(17)
PLANES = 17
PLANE_NAMES = (
    "BOARD",
    "MY_PIECES",
    "MY_CAPS",
    "MY_PRISONERS",
    "THEIR_PIECES",
    "THEIR_CAPS",
    "THEIR_PRISONERS",
    "MY_HAND",
    "THEIR_HAND",
    "MUST_CAPTURE",
    "MUST_ENTER",
    "MUST_STEP",
    "TO_MOVE",
    "WHITE",
    "REPETITIONS",
    "CAPTURE_AT",
    "CAPTURE_FROM",
)


def shape(variant: str) -> tuple[int, int, int]:
    """``(PLANES, H, W)`` of a variant's observation."""
    n = geometry(variant).size
    return PLANES, n, n


def bounds(variant: str) -> tuple[Planes, Planes]:
    """The lowest and highest value of every cell (for an observation space's ``Box``)."""
    geo = geometry(variant)
    low = np.zeros(shape(variant), dtype=np.float32)
    high = np.ones(shape(variant), dtype=np.float32)
    for plane in (MY_CAPS, MY_PRISONERS, THEIR_CAPS, THEIR_PRISONERS, MY_HAND, THEIR_HAND):
        high[plane] = geo.men
    high[REPETITIONS] = 3
    return low, high


def _cells(geo: Geometry, sq: Square) -> tuple[int, int]:
    u, v = geo.uv(sq)
    return u - 1, v - 1


def _board_plane(geo: Geometry) -> Planes:
    plane = np.zeros((geo.size, geo.size), dtype=np.float32)
    for sq in geo.squares:
        plane[_cells(geo, sq)] = 1
    return plane


_BOARD_PLANES = {variant: _board_plane(geometry(variant)) for variant in VARIANTS}


def stacks_after(board: Board, route: tuple[Square, ...]) -> dict[Square, tuple[Color, int, int]]:
    """``{square: (owner, caps, prisoners)}`` after the hops of ``route`` (R9, R10).

    ``route`` is the capture in progress of the side to move (its start square and the
    landing squares so far); with an empty route, the board's pieces.
    """
    stacks = {sq: (st.owner, st.caps, st.prisoners) for sq, st in board.stacks().items()}
    if len(route) < 2:
        return stacks
    color = board.turn
    _, k, p = stacks.pop(route[0])  # R10: the start is vacant once left
    for x, y in itertools.pairwise(route):
        over = (x + y) // 2
        owner, ko, po = stacks[over]
        if ko > 1:
            stacks[over] = (owner, ko - 1, po)
        elif po:  # R9: its prisoners are liberated
            stacks[over] = (color, po, 0)
        else:  # R9 (decision): a jumped single man leaves at once
            del stacks[over]
        p += 1  # R9: the taken man goes to the bottom
    stacks[route[-1]] = (color, k, p)
    return stacks


def planes(board: Board, route: tuple[Square, ...] = (), player: Color | None = None) -> Planes:
    """The observation of ``board`` (with a capture ``route`` in progress) for ``player``.

    ``player`` defaults to the side to move.  See the module docstring for the planes.
    """
    geo = board.geometry
    me = board.turn if player is None else player
    out = np.zeros((PLANES, geo.size, geo.size), dtype=np.float32)
    out[BOARD] = _BOARD_PLANES[geo.name]
    for sq, (owner, k, p) in stacks_after(board, route).items():
        cell = _cells(geo, sq)
        base = MY_PIECES if owner == me else THEIR_PIECES
        out[base][cell] = 1
        out[base + 1][cell] = k
        out[base + 2][cell] = p
    out[MY_HAND] = board.hand(me)
    out[THEIR_HAND] = board.hand(not me)
    over = board.outcome() is not None
    if route:
        out[MUST_CAPTURE] = 1
    elif not over:
        kind = board.generate().kind
        if kind == CAPTURE:
            out[MUST_CAPTURE] = 1
        elif kind == ENTER:
            out[MUST_ENTER] = 1
        elif kind == STEP:
            out[MUST_STEP] = 1
    out[TO_MOVE] = float(board.turn == me)
    out[WHITE_PLANE] = float(me)
    out[REPETITIONS] = board.repetitions()
    if len(route) >= 2:
        out[CAPTURE_AT][_cells(geo, route[-1])] = 1
        out[CAPTURE_FROM][_cells(geo, route[-2])] = 1
    return out
