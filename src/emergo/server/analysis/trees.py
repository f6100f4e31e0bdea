"""A record's tree as the analysis board and the study page take it (no web framework here).

The JSON form of a game (:meth:`emergo.record.Game.to_json`, docs/records.md) names each move by
its canonical text; the board needs its route and both texts too, so :func:`tree_data` adds each
move's data (``info``: :func:`emergo.server.board.positions.move_data`).  The page keeps the tree
as it came and names a node by its path of child indices, as :meth:`GameNode.path` does.
"""

from __future__ import annotations

from emergo import record
from emergo.server.board.positions import JSON, color_name, move_data, outcome_data


def tree_data(game: record.Game) -> JSON:
    """``game.to_json()`` with every move's ``info`` (its kind, route and texts), and the
    game's ``start`` (R22), ``turn`` (the first mover) and recorded ``outcome`` (the rules',
    or as its tags end it: resigned, on time, agreed; ``None`` while it goes on)."""
    data = game.to_json()
    board = game.board()
    stack: list[tuple[JSON, record.GameNode]] = [(data, game)]
    while stack:
        item, node = stack.pop()
        for child_item, child in zip(item["children"], node.variations, strict=True):
            assert child.move is not None
            child_item["info"] = move_data(board, child.move)
            stack.append((child_item, child))
    data["start"] = board.position()
    data["turn"] = color_name(board.turn)
    try:  # a game read up to an error ends before its recorded end
        outcome = game.outcome()
    except ValueError:
        outcome = None
    data["outcome"] = outcome_data(outcome) if outcome is not None else None
    return data
