"""Game records: a PGN-like text format for Emergo games, read as trees and written back.

A record is a section of tag pairs (``[White "Alice"]``), a blank line and the movetext:
numbered moves in R21 notation, variations in parentheses, ``{comments}`` (with commands such as
``[%eval 1.35]``, ``[%clk 0:04:58]``, ``[%cal Gd4e5]``), NAGs (``$1``, ``!?``) and a result token
(``1-0``, ``0-1``, ``1/2-1/2``, ``*``).  ``docs/records.md`` gives the grammar.  A game is a tree
(:class:`Game`, :class:`ChildNode`, as python-chess's ``chess.pgn``), read by a streaming reader
that checks it against the rules -- every move, variations too (R8-R17), no move after the end
(R18, R19a, R19b), a ``Result`` that agrees with the final position -- and tells a visitor
(:mod:`emergo.record.visitors`).  A record the reader takes is written back byte for byte; an
edit changes only what was edited; a record built in code is written canonically.

>>> game = read_game('[White "Ann"]\\n\\n1. d7 e1 (1... e9 {the edge}) 2. c7 *\\n')
>>> [str(move) for move in game.mainline_moves()]
['d7', 'e1', 'c7']
>>> game.variations[0].variations[1].comment
'the edge'
>>> game.end().board().position()
'b 10/11 c7:w d7:w e1:b'
>>> game.end().nags.add(1)
>>> print(write_game(game), end="")
[White "Ann"]
<BLANKLINE>
1. d7 e1 (1... e9 {the edge}) 2. c7! *
"""

from emergo.record.commands import MARK_OF_NAG, MARKS, NAG_OF_MARK, Brush, Eval, Shape
from emergo.record.headers import RESULTS, TAG_ROSTER, Headers, RecordError
from emergo.record.reader import ErrorMode, read_game, read_games, read_headers, skip_game
from emergo.record.tree import ChildNode, Game, GameNode
from emergo.record.visitors import (
    SKIP,
    BaseVisitor,
    BoardBuilder,
    GameBuilder,
    HeadersBuilder,
    MoveCounter,
    SkipVisitor,
)
from emergo.record.writer import write_game, write_games

__all__ = [
    "MARKS",
    "MARK_OF_NAG",
    "NAG_OF_MARK",
    "RESULTS",
    "SKIP",
    "TAG_ROSTER",
    "BaseVisitor",
    "BoardBuilder",
    "Brush",
    "ChildNode",
    "ErrorMode",
    "Eval",
    "Game",
    "GameBuilder",
    "GameNode",
    "Headers",
    "HeadersBuilder",
    "MoveCounter",
    "RecordError",
    "Shape",
    "SkipVisitor",
    "read_game",
    "read_games",
    "read_headers",
    "skip_game",
    "write_game",
    "write_games",
]
