"""Positions as JSON for the browser: board, hands, legal moves as routes, reasons (R8-R19).

The browser holds no rules code.  For every position the server sends what the board needs to
draw it and to take a move: the pieces, the hands, the phase, every legal move as its route of
squares with its text in both namings (R3, R21), and for every vacant square that cannot be
entered the library's reason (R15, R16), so the page can say why on hover.  Squares are keyed by
their canonical oblique names; each square also carries its checkerboard name and coordinates.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from emergo.board import COLOR_NAMES, Board, Color, Move, MoveKind, Outcome
from emergo.errors import AmbiguousMoveError, IllegalMoveError, InvalidPositionError
from emergo.geometry import Geometry, Names
from emergo.server.core.errors import SiteError

MAX_MOVES = 2000
"""Most moves a request may replay from its start position."""
MAX_TEXT = 200
"""Longest position or move text a request may send."""

JSON = dict[str, Any]


class RequestError(SiteError):
    """A position or move the board cannot take; ``extra`` fields go into the answer."""


def color_name(color: Color) -> str:
    return COLOR_NAMES[color].lower()


def board_from(position: str | None, moves: list[str] | None = None) -> Board:
    """A board at ``position`` (R22; the 9x9 start when empty) after ``moves`` (any notation)."""
    if position is not None and not isinstance(position, str):
        raise RequestError("the position must be a string (R22)")
    if position is not None and len(position) > 2000:
        raise RequestError("the position is too long")
    text = (position or "").strip() or None
    try:
        board = Board(text)
    except (InvalidPositionError, ValueError) as e:
        raise RequestError(f"invalid position: {e}", kind="position") from None
    moves = moves or []
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RequestError("moves must be a list of move texts")
    if len(moves) > MAX_MOVES:
        raise RequestError(f"at most {MAX_MOVES} moves may be replayed")
    for ply, text in enumerate(moves, 1):
        if board.outcome() is not None:
            raise RequestError(f"move {ply} ({text!r}) follows the end of the game", kind="moves")
        try:
            board.push_move(_short(text))
        except ValueError as e:
            raise RequestError(f"move {ply}: {e}", kind="moves", ply=ply) from None
    return board


def _short(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise RequestError("the move text is too long", kind="move")
    return text


def parse_move(board: Board, text: str, names: Names = "oblique") -> Move:
    """The legal move a text means; a :class:`RequestError` with the library's reason if none."""
    if not isinstance(text, str) or not text.strip():
        raise RequestError("no move given", kind="move")
    try:
        return board.parse_move(_short(text), names)
    except AmbiguousMoveError as e:
        raise RequestError(str(e), kind="ambiguous", candidates=list(e.candidates)) from None
    except IllegalMoveError as e:
        raise RequestError(str(e), kind="illegal") from None
    except ValueError as e:
        raise RequestError(str(e), kind="invalid") from None


def _checker(board: Board) -> Names:
    """The checkerboard naming, or the oblique one on the hexagon, which has none (R3, R4)."""
    return "oblique" if board.geometry.shape == "hexagon" else "checker"


def geometry_data(geo: Geometry) -> JSON:
    """The squares of a board (static): names in both namings, oblique and checker coordinates."""
    squares = []
    hexagon = geo.shape == "hexagon"  # R4: no checkerboard; placed by (u, v) alone
    for sq in geo.squares:
        u, v = geo.uv(sq)
        f, r = (u, v) if hexagon else geo.checker_coordinates(sq)
        squares.append(
            {
                "name": geo.square_name(sq),
                "checker": geo.square_name(sq, "oblique" if hexagon else "checker"),
                "u": u,
                "v": v,
                "file": f,
                "rank": r,
            }
        )
    return {
        "variant": geo.name,
        "size": geo.size,
        "men": geo.men,
        "centre": geo.square_name(geo.centre),
        "shape": geo.shape,
        "squares": squares,
    }


def move_data(board: Board, move: Move) -> JSON:
    """A move as JSON: kind, route of squares (oblique names), both texts, men taken/entered.

    Only ``board``'s geometry matters: any position of the game will do."""
    geo = board.geometry
    return {
        "kind": move.kind.value,
        "path": [geo.square_name(sq) for sq in move.path],
        "text": board.move_text(move),
        "checker": board.move_text(move, _checker(board)),
        "captured": move.captured,
        "entered": move.entered,
    }


def _phase_of_play(board: Board) -> str:
    """The phase as the position shows it (``over`` when no move is left, R18, R19a)."""
    if not board.moves():
        return "over"
    if board.is_capturing():
        return "capture"
    if board.is_entering():
        return "enter"
    return "step"


def _explain(board: Board, move: Move) -> JSON:
    return {"oblique": board.explain(move), "checker": board.explain(move, _checker(board))}


POSITION_CACHE = 2048
"""Positions whose legal-move data is kept (each a few kB): the recent ones of every game."""

_cache: OrderedDict[tuple[str, str], JSON] = OrderedDict()
_cache_lock = threading.Lock()


def _position_part(board: Board) -> JSON:
    """What depends on the position alone (R22 string): pieces, hands, the legal moves with their
    texts, the reasons squares cannot be entered.  Computed once per position (an LRU cache:
    a move's state, a reload, a second tab, stepping back through a game all meet it again);
    the dicts are shared, so callers must not change them (they copy the top level)."""
    key = (board.variant, board.position())
    with _cache_lock:
        part = _cache.get(key)
        if part is not None:
            _cache.move_to_end(key)
            return part
    part = _compute_position_part(board, key[1])
    with _cache_lock:
        _cache[key] = part
        if len(_cache) > POSITION_CACHE:
            _cache.popitem(last=False)
    return part


def _compute_position_part(board: Board, position: str) -> JSON:
    geo = board.geometry
    name = geo.square_name
    turn = board.turn
    moves = board.moves()
    phase = _phase_of_play(board)
    pieces = {
        name(sq): {"owner": color_name(st.owner), "caps": st.caps, "prisoners": st.prisoners}
        for sq, st in board.stacks().items()
    }
    # Why each vacant square cannot be entered now (R13-R16), or that a capture comes first (R8).
    forbidden: dict[str, JSON] = {}
    if phase in ("enter", "capture") and board.hand(turn):
        legal = {m.path[0] for m in moves if m.kind is MoveKind.ENTER}
        size = board.entry_size()
        for sq in geo.squares:
            if sq not in legal and board.stack(sq) is None:
                forbidden[name(sq)] = _explain(board, Move.enter(sq, size))
    return {
        "position": position,
        "variant": board.variant,
        "turn": color_name(turn),
        "hands": {"white": board.hand(True), "black": board.hand(False)},
        "entrySize": board.entry_size(),
        "shadow": board.hand(turn) > 0 and board.entry_size() > 1,
        "attacked": board.is_attacked(),
        "phase": phase,
        "required": _required(board) if phase == "capture" else "",
        "pieces": pieces,
        "moves": [move_data(board, m) for m in moves],
        "forbidden": forbidden,
    }


def position_data(board: Board) -> JSON:
    """Everything the page needs to draw ``board`` and take a move in it."""
    data = dict(_position_part(board))
    outcome = board.outcome()  # the history counts too: a third repetition ends the game (R19b)
    if outcome is not None:
        data.update(phase="over", required="", forbidden={}, moves=[])  # none after the end
    data["lastMove"] = move_data(board, board.move_stack[-1]) if board.move_stack else None
    data["outcome"] = outcome_data(outcome) if outcome is not None else None
    data["ply"] = len(board.move_stack)
    return data


def outcome_data(outcome: Outcome) -> JSON:
    """The end of a game as JSON: result, termination, the reason in words (with its rule)."""
    return {
        "result": outcome.result(),
        "termination": outcome.termination.value,
        "reason": outcome.reason(),
        "winner": None if outcome.winner is None else color_name(outcome.winner),
    }


def _required(board: Board) -> str:
    """What the player to move must do when a capture is compulsory (R8, R11), in words."""
    ms = board.moves()
    men = ms[0].captured if ms else 0
    starts = sorted({board.geometry.square_name(m.path[0]) for m in ms})
    who = COLOR_NAMES[board.turn]
    return f"{who} must capture (R8): the most men, {men}, are taken from {', '.join(starts)} (R11)"


def line_data(board: Board) -> JSON:
    """A board's whole line from its root: the start position and each move's texts (a move's
    data needs the board's geometry only, so the line is not replayed)."""
    root = board.root()
    moves = [move_data(board, move) for move in board.move_stack]
    return {"start": root.position(), "turn": color_name(root.turn), "moves": moves}
