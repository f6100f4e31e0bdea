"""Game records as trees, as python-chess's ``chess.pgn``: a :class:`Game` and its moves.

The :class:`Game` is the root: the start position (its ``Variant`` and ``Position`` tags), the
tags and the comment before the first move.  Each move is a :class:`ChildNode` with its comments
(``starting_comment`` before it, ``comment`` after it), NAGs, and what the comment's commands say
(``clock``, ``eval``, ``shapes``).  A node's ``variations`` are its children: the first continues
its line (the main line, from the root), the others are variations.  Every move added is checked
against the rules where it stands.

>>> game = Game(White="Ann")
>>> node = game.add_variation("d7").add_variation("e1", comment="the edge")
>>> node.parent.add_variation("e9").nags.add(5)
>>> [str(move) for move in game.mainline_moves()]
['d7', 'e1']
>>> print(game.to_json()["children"][0]["children"][1])
{'move': 'e9', 'nags': [5], 'children': []}
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from emergo.board import Board, Color, Move, Outcome, Termination
from emergo.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from emergo.geometry import Geometry, Names
from emergo.record.commands import (
    NAG_MAX,
    Eval,
    Shape,
    comment_atoms,
    has_command,
    square_name,
)
from emergo.record.headers import (
    Conflict,
    Headers,
    RecordError,
    ended,
    escape,
    label,
    recorded_outcome,
    settle,
    start_board,
    termination_of,
    written_headers,
)
from emergo.record.jsonform import Fields, fields_json, json_fields
from emergo.record.text import Emitter, GameSource, Key, NodeSource, Raw

_ids = itertools.count(1)


def new_id() -> int:
    """A node id, unique in the process: the key of a node's pieces of text (text.py)."""
    return next(_ids)


class GameNode:
    """A position of a game: the :class:`Game` itself or a :class:`ChildNode` after a move.

    ``comment`` is the comment after the move (for the game: before the first move); ``clock``
    (seconds left to the player who moved), ``eval`` (:class:`Eval`) and ``shapes``
    (:class:`Shape`: arrows and circles) are its ``[%clk]``, ``[%eval]``, ``[%cal]`` and
    ``[%csl]`` commands.  ``variations`` are the moves from here, the main one first.
    """

    def __init__(self) -> None:
        self.variations: list[ChildNode] = []
        self.comment = ""
        self.clock: float | None = None
        self.eval: Eval | None = None
        self.shapes: list[Shape] = []
        self._id = new_id()

    @property
    def parent(self) -> GameNode | None:
        """The node before this move; ``None`` for the game."""
        return None

    @property
    def move(self) -> Move | None:
        """The move to this node; ``None`` for the game."""
        return None

    def game(self) -> Game:
        """The root of the tree."""
        node: GameNode = self
        while node.parent is not None:
            node = node.parent
        assert isinstance(node, Game)
        return node

    def board(self) -> Board:
        """A new board at this node, with the move stack from the start (so repetitions are
        known, R19b)."""
        return self.game()._board_at(self)

    def ply(self) -> int:
        """The number of moves from the start to this node."""
        count, node = 0, self.parent
        while node is not None:
            count, node = count + 1, node.parent
        return count

    def turn(self) -> Color:
        """The player to move at this node."""
        start = self.game().board().turn
        return start if self.ply() % 2 == 0 else not start

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node: GameNode = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        return not self.variations

    def starts_variation(self) -> bool:
        """Is this move a variation (not the first of its parent's moves)?"""
        parent = self.parent
        return parent is not None and parent.variations[0] is not self

    def is_mainline(self) -> bool:
        """Is this node on the game's main line (every move the first of its parent's)?"""
        node: GameNode = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def is_main_variation(self) -> bool:
        """Is this move the first of its parent's (the game is)?"""
        return not self.starts_variation()

    def next(self) -> ChildNode | None:
        """The main move from here, if any."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> Iterator[ChildNode]:
        """The nodes of the main line from here (this node excluded)."""
        node: GameNode = self
        while node.variations:
            child = node.variations[0]
            yield child
            node = child

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line from here."""
        return [node._move for node in self.mainline()]

    def path(self) -> tuple[int, ...]:
        """The child indices from the game to this node (``()`` for the game)."""
        steps = []
        node: GameNode = self
        while node.parent is not None:
            parent = node.parent
            steps.append(next(i for i, c in enumerate(parent.variations) if c is node))
            node = parent
        return tuple(reversed(steps))

    def arrows(self) -> list[Shape]:
        return [s for s in self.shapes if s.dest is not None]

    def circles(self) -> list[Shape]:
        return [s for s in self.shapes if s.dest is None]

    # --- editing ----------------------------------------------------------------------------

    def variation(self, which: int | Move | GameNode) -> ChildNode:
        """A child by index, by move or by node; ``KeyError`` when there is none."""
        for index, child in enumerate(self.variations):
            if which is child or (isinstance(which, Move) and which == child._move):
                return child
            if isinstance(which, int) and not isinstance(which, bool) and which == index:
                return child
        raise KeyError(f"no variation {which!r} here")

    def has_variation(self, move: Move) -> bool:
        return any(child._move == move for child in self.variations)

    def promote_to_main(self, which: int | Move | GameNode) -> None:
        """Make a variation the main move from here."""
        child = self.variation(which)
        self.variations.remove(child)
        self.variations.insert(0, child)

    def promote(self, which: int | Move | GameNode) -> None:
        """Move a variation one place up."""
        child = self.variation(which)
        i = self.variations.index(child)
        if i > 0:
            self.variations[i - 1], self.variations[i] = child, self.variations[i - 1]

    def demote(self, which: int | Move | GameNode) -> None:
        """Move a variation one place down."""
        child = self.variation(which)
        i = self.variations.index(child)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = child, self.variations[i + 1]

    def remove_variation(self, which: int | Move | GameNode) -> None:
        """Remove a move and everything after it."""
        self.variations.remove(self.variation(which))

    def add_variation(
        self,
        move: Move | str,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> ChildNode:
        """Add a move from here (a :class:`Move` or any text ``Board.parse_move`` accepts), last
        of the variations.  An illegal move raises (``IllegalMoveError``...) and changes nothing;
        so does a move after the end of the game (:class:`RecordError`)."""
        game = self.game()
        board = game._board_at(self)
        outcome = board.outcome()
        if outcome is not None:
            white_starts = board.root().turn
            raise RecordError(ended(len(board.move_stack), white_starts, str(move), outcome))
        if isinstance(move, str):
            move = board.parse_move(move)
        board.push(move)
        child = ChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)
        self.variations.append(child)
        game._cursor = (child, board, game._key())
        return child

    def add_main_variation(
        self, move: Move | str, *, comment: str = "", nags: Iterable[int] = ()
    ) -> ChildNode:
        """Add a move from here as the main one."""
        child = self.add_variation(move, comment=comment, nags=nags)
        self.promote_to_main(child)
        return child

    def add_line(
        self,
        moves: Iterable[Move | str],
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> GameNode:
        """Add a line of moves from here; the comments go to its first move (``starting_comment``)
        and its last (``comment``, ``nags``).  Returns the last node."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        if node is not self:
            node.comment = comment
            assert isinstance(node, ChildNode)
            node.nags.update(nags)
        return node

    def _state(self) -> tuple[object, ...]:
        return (self.comment, self.clock, self.eval, tuple(self.shapes))


class ChildNode(GameNode):
    """A move of a game and the position after it (made by :meth:`GameNode.add_variation`).

    ``starting_comment`` is the comment before the move (a record holds one for a move that
    starts a variation); ``nags`` the move's NAGs (``$1`` or ``!`` ...).  The constructor neither
    attaches the node nor checks its move: build trees with :meth:`GameNode.add_variation`.
    """

    def __init__(
        self,
        parent: GameNode,
        move: Move,
        *,
        comment: str = "",
        starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> None:
        super().__init__()
        self._parent = parent
        self._move = move
        self.comment = comment
        self.starting_comment = starting_comment
        self.nags: set[int] = set(nags)
        self._src: NodeSource | None = None

    @property
    def parent(self) -> GameNode:
        return self._parent

    @property
    def move(self) -> Move:
        return self._move

    def move_text(self, names: Names = "oblique") -> str:
        """The canonical R21 text of the move: ``d4``, ``e4-e5``, ``h4xf4xd4``."""
        return self.game().board().move_text(self._move, names)

    def _seen(self) -> tuple[object, ...]:
        return (self.starting_comment, self._state(), frozenset(self.nags))

    def __repr__(self) -> str:
        ply = self.ply() - 1
        return f"<ChildNode {label(ply, self.game().board().turn)} {self._move}>"


class Game(GameNode):
    """A game record: tag pairs, the start position and the tree of moves from it.

    ``headers`` are the tags (:class:`Headers`); ``names`` the square naming of the record as
    read (``oblique`` unless a ``Names`` tag said ``checker``); ``errors`` what went wrong when
    it was read with ``errors="collect"`` (the tree then stops before the first problem).

    >>> game = Game(White="Ann", Black="Bob")
    >>> str(game.add_variation("D7").add_variation("e1", comment="the edge").move)
    'e1'
    >>> game.end().board().position()
    'w 11/11 d7:w e1:b'
    >>> print(game)  # doctest: +ELLIPSIS
    [Event "?"]
    ...
    [Result "*"]
    [Variant "9x9"]
    <BLANKLINE>
    1. d7 e1 {the edge} *
    <BLANKLINE>
    """

    def __init__(self, headers: Mapping[str, str] | None = None, **tags: str) -> None:
        super().__init__()
        self.headers = Headers(headers, **tags)
        self.errors: list[RecordError] = []
        self.names: Names = "oblique"
        self._src: GameSource | None = None
        self._cursor: tuple[GameNode, Board, tuple[str | None, str | None]] | None = None
        self._checked: tuple[str | None, str | None] | None = None  # the start, moves checked

    @classmethod
    def from_board(cls, board: Board, **tags: str) -> Game:
        """The game a board's move stack records, from its root position; tags as keywords.
        When the rules have ended it, ``Result`` and ``Termination`` say so."""
        game = cls()
        start = board.root()
        game.headers["Variant"] = start.variant
        if start.position() != Board(variant=start.variant).position():
            game.headers["Position"] = start.position()
        node: GameNode = game
        for move in board.move_stack:
            child = ChildNode(node, move)
            node.variations.append(child)
            node = child
        outcome = board.outcome()
        if outcome is not None:
            game.headers["Result"] = outcome.result()
            game.headers["Termination"] = outcome.termination.value
        game.headers.update(tags)
        game._cursor = (node, board.copy(), game._key())
        game._checked = game._key()
        return game

    def board(self) -> Board:
        """A new board at the start position (the ``Variant`` and ``Position`` tags)."""
        return start_board(self.headers.get("Variant"), self.headers.get("Position"))

    @property
    def variant(self) -> str:
        return self.board().variant

    @property
    def termination(self) -> Termination | None:
        """How the game ended: the ``Termination`` tag, else the rules' ending, else ``None``."""
        text = self.headers.get("Termination")
        if text is not None:
            return termination_of(text)
        outcome = self.end().board().outcome()
        return outcome.termination if outcome is not None else None

    def outcome(self) -> Outcome | None:
        """The end of the game: by the rules (R18, R19), else as recorded (R19c, R20)."""
        return recorded_outcome(self.headers, self.end().board())

    def node_at(self, path: Sequence[int]) -> GameNode:
        """The node at ``path`` (child indices, as :meth:`GameNode.path`); ``IndexError``."""
        node: GameNode = self
        for depth, index in enumerate(path):
            if not 0 <= index < len(node.variations):
                raise IndexError(f"no node at {tuple(path[: depth + 1])}")
            node = node.variations[index]
        return node

    def copy(self) -> Game:
        """A copy of the whole tree; a record read from text writes the same text."""
        new = Game(self.headers)
        new.errors, new.names, new._checked = list(self.errors), self.names, self._checked
        new._src, new._id = self._src, self._id
        _copy_fields(self, new)
        stack: list[tuple[GameNode, GameNode]] = [(self, new)]
        while stack:
            old, copy = stack.pop()
            for child in old.variations:
                twin = ChildNode(copy, child._move, starting_comment=child.starting_comment)
                twin.nags, twin._src, twin._id = set(child.nags), child._src, child._id
                _copy_fields(child, twin)
                copy.variations.append(twin)
                stack.append((child, twin))
        return new

    def _key(self) -> tuple[str | None, str | None]:
        return self.headers.get("Variant"), self.headers.get("Position")

    def _board_at(self, node: GameNode, copy: bool = True) -> Board:
        """A new board at ``node``, from the board of the node last added or asked for (the
        cursor): back to the nodes' common ancestor, then forward to ``node``."""
        key = self._key()
        cursor = self._cursor if self._cursor is not None and self._cursor[2] == key else None
        if cursor is None:
            cursor = (self, self.board(), key)
        elif cursor[0] is node:
            return cursor[1].copy() if copy else cursor[1]
        back: dict[int, int] = {}  # id of each of the cursor's ancestors -> moves back to it
        up: GameNode | None = cursor[0]
        while up is not None:
            back[id(up)] = len(back)
            up = up.parent
        chain: list[ChildNode] = []
        here = node
        while id(here) not in back and isinstance(here, ChildNode):
            chain.append(here)
            here = here.parent
        board = cursor[1].copy()
        for _ in range(back.get(id(here), 0)):
            board.pop()
        for child in reversed(chain):
            board.push(child._move)
        self._cursor = (node, board, key)
        return board.copy() if copy else board

    # --- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The tree as JSON data (docs/records.md): ``headers``, the game's ``comment``, ``clock``,
        ``eval``, ``shapes`` and ``children``: each move's canonical text (``move``), its
        ``starting_comment``, ``comment``, ``nags``, ``clock``, ``eval``, ``shapes`` and
        ``children``, the main one first.  Empty fields are left out, ``children`` never."""
        out: dict[str, Any] = {"headers": dict(self.headers)}
        fields_json(_fields(self), out)
        board = self.board()
        stack: list[tuple[GameNode, dict[str, Any], int]] = [(self, out, 0)]
        while stack:
            node, data, index = stack.pop()
            if index > 0:
                board.pop()
            if index >= len(node.variations):
                continue
            child = node.variations[index]
            item: dict[str, Any] = {"move": board.move_text(child._move)}
            fields_json(_fields(child), item)
            data["children"].append(item)
            board.push(child._move)
            stack.append((node, data, index + 1))
            stack.append((child, item, 0))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """The game of :meth:`to_json`'s data; every move is checked where it stands.  Bad data
        raises :class:`RecordError` naming the node (its path: child indices, ``root``)."""
        if not isinstance(data, Mapping):
            raise RecordError(f"a game is a JSON object, not {type(data).__name__}")
        headers = data.get("headers", {})
        if not isinstance(headers, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
        ):
            raise RecordError("headers must be an object of strings")
        game = cls(headers)
        board = game.board()
        _set_fields(game, data, "root", board.geometry)
        stack: list[tuple[GameNode, Any, int, tuple[int, ...]]] = [(game, data, 0, ())]
        while stack:
            node, item, index, path = stack.pop()
            children = item.get("children", [])
            if not isinstance(children, list):
                raise RecordError(f"node {_where(path)}: children must be a list")
            if index > 0:
                board.pop()
            if index >= len(children):
                continue
            here = (*path, index)
            child_data = children[index]
            if not isinstance(child_data, Mapping) or not isinstance(child_data.get("move"), str):
                raise RecordError(f"node {_where(here)} must be an object with a move text")
            text = child_data["move"]
            outcome = board.outcome()
            if outcome is not None:
                raise RecordError(f"node {_where(here)} ({text!r}) follows the end of the game")
            try:
                move = board.parse_move(text)
            except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as e:
                raise RecordError(f"node {_where(here)} ({text[:40]!r}): {e}") from None
            child = ChildNode(node, move)
            _set_fields(child, child_data, _where(here), board.geometry)
            node.variations.append(child)
            board.push(move)
            stack.append((node, item, index + 1, path))
            stack.append((child, child_data, 0, here))
        game._checked = game._key()
        return game

    # --- writing -----------------------------------------------------------------------------

    def _text(self, names: Names, canonical: bool) -> str:
        """The record's text: as read where nothing changed, else canonical (text.py)."""
        start = self.board()
        start.geometry.check_naming(names)  # NamingError: no checkerboard names on hex (R3, R4)
        src = self._src if not canonical and names == self.names else None
        if self._checked != self._key():
            _check_moves(self, start)
            self._checked = self._key()
        end = self._board_at(self.end(), copy=False)  # only looked at
        try:
            result, termination = settle(self.headers, end, None)
        except Conflict as e:
            raise RecordError(str(e)) from None
        tags = written_headers(self.headers, start, result, termination, names)
        em = Emitter()
        seen = src.seen_headers if src is not None else {}
        done = set()
        for name, raw in src.tags if src is not None else []:
            if tags.get(name) == seen.get(name):
                em.raw(("tag", name), "tag", raw)
            elif name in tags:
                em.tag(("tag", name), f'[{name} "{escape(tags[name])}"]', replaces=True)
            else:
                em.replaced(("tag", name))
            done.add(name)
        for name, value in tags.items():
            if name not in done and (src is None or value != seen.get(name)):
                em.tag(("tag", name), f'[{name} "{escape(value)}"]')
        writer = _Writer(em, start, names, src is not None)
        changed = src is None or self._state() != src.seen
        writer.comment(
            self, ("comment", self._id), src.comment if src else [], changed, "game's comment"
        )
        writer.moves(self)
        key: Key = ("result", self._id)
        if src is not None and src.result is not None and result == seen.get("Result"):
            em.raw(key, "result", src.result)
        else:
            em.words(key, "result", [result], replaces=src is not None)
        em.tail(src.tail if src is not None else "\n")
        return em.text()

    def __str__(self) -> str:
        return self._text(self.names, False)

    def __repr__(self) -> str:
        h = self.headers
        plies = sum(1 for _ in self.mainline())
        return (
            f"<Game {h.get('White', '?')} vs {h.get('Black', '?')}, {plies} plies, "
            f"{h.get('Result', '*')}>"
        )


def _copy_fields(old: GameNode, new: GameNode) -> None:
    new.comment, new.clock, new.eval, new.shapes = (
        old.comment,
        old.clock,
        old.eval,
        list(old.shapes),
    )


def _where(path: tuple[int, ...]) -> str:
    return ".".join(map(str, path)) or "root"


def _fields(node: GameNode) -> Fields:
    if isinstance(node, ChildNode):
        return Fields(
            node.comment, node.starting_comment, node.nags, node.clock, node.eval, node.shapes
        )
    return Fields(node.comment, "", set(), node.clock, node.eval, node.shapes)


def _set_fields(node: GameNode, data: Mapping[str, Any], where: str, geo: Geometry) -> None:
    try:
        fields = json_fields(data, geo, move=isinstance(node, ChildNode))
    except (ValueError, TypeError) as e:
        raise RecordError(f"node {where}: {e}") from None
    node.comment, node.clock, node.eval, node.shapes = (
        fields.comment,
        fields.clock,
        fields.eval,
        fields.shapes,
    )
    if isinstance(node, ChildNode):
        node.starting_comment, node.nags = fields.starting_comment, fields.nags


def _check_moves(game: Game, start: Board) -> None:
    """Check every move where it stands (they entered the tree checked: this is for a tree whose
    start tags changed since)."""
    board = start.copy()
    stack: list[tuple[GameNode, int]] = [(game, 0)]
    while stack:
        node, index = stack.pop()
        if index > 0:
            board.pop()
        if index >= len(node.variations):
            continue
        child = node.variations[index]
        ply = len(board.move_stack)
        number, text = label(ply, start.turn), board.move_text(child._move)
        outcome = board.outcome()
        if outcome is not None:
            raise RecordError(ended(ply, start.turn, text, outcome), move=text)
        if not board.is_legal(child._move):
            reason = board.explain(child._move)
            raise RecordError(f'move {number} "{text}": illegal move: {reason}', move=text)
        board.push_unchecked(child._move)
        stack.append((node, index + 1))
        stack.append((child, 0))


class _Writer:
    """The movetext of a tree, piece by piece, into an :class:`Emitter` (see text.py)."""

    def __init__(
        self,
        em: Emitter,
        start: Board,
        names: Names,
        raw: bool,
    ) -> None:
        self.em, self.start, self.geo, self.names, self.raw = em, start, start.geometry, names, raw
        self.after_of: dict[int, list[ChildNode]] = {}  # node id -> variations written after it

    def rename(self, square: str) -> str:
        return self.geo.square_name(self.geo.parse_square(square), self.names)

    def atoms(self, node: GameNode, what: str, start: bool = False) -> list[str]:
        text = node.starting_comment if start and isinstance(node, ChildNode) else node.comment
        if "}" in text:
            raise RecordError(f"the {what} contains a }}, which cannot be written")
        if has_command(text):
            raise RecordError(
                f"the {what} holds a command ([%...]): set the node's clock, eval or shapes"
            )
        if start:
            return comment_atoms(text, None, None, (), self.rename)
        for shape in node.shapes:
            for square in (shape.orig, shape.dest):
                if square is not None:
                    try:
                        square_name(self.geo, square, "oblique")
                    except ValueError as e:
                        raise RecordError(f"a shape of the {what}: {e}") from None
        try:
            return comment_atoms(text, node.clock, node.eval, node.shapes, self.rename)
        except ValueError as e:
            raise RecordError(f"the {what}: {e}") from None

    def comment(self, node: GameNode, key: Key, raws: list[Raw], changed: bool, what: str) -> None:
        if not changed:
            for raw in raws:
                self.em.raw(key, "comment", raw)
        else:
            self.em.words(key, "comment", self.atoms(node, what), replaces=bool(raws))

    def after(self, node: ChildNode) -> list[ChildNode]:
        """The variations written right after a move: its parent's others for a main move, or
        those opened inside its own parentheses as read (a record may nest an alternative to a
        variation's first move in that variation)."""
        parent = node.parent
        if node._id not in self.after_of:
            kids = parent.variations
            for kid in kids:
                self.after_of[kid._id] = []
            chain: list[ChildNode] = []
            for kid in kids[1:]:
                host = kid._src.host if self.raw and kid._src is not None else None
                if host is not None and any(c._id == host for c in chain):
                    while chain[-1]._id != host:
                        chain.pop()
                    self.after_of[host].append(kid)
                    chain.append(kid)
                else:
                    self.after_of[kids[0]._id].append(kid)
                    chain = [kid]
        return self.after_of[node._id]

    def moves(self, game: Game) -> None:
        em = self.em
        stack: list[tuple[str, ChildNode, int]] = []  # what to write, the node, its move's ply
        if game.variations:
            stack.append(("move", game.variations[0], 0))
        while stack:
            task, node, ply = stack.pop()
            src = node._src if self.raw else None
            number = label(ply, self.start.turn)
            where = f"{number} {node._move}"
            what = f"comment of {where}"
            if task == "close":
                self.piece(("close", node._id), "close", src.close if src else None, ")")
                continue
            if task == "trail":
                for raw in src.trail if src is not None else []:
                    em.raw(("comment", node._id), "comment", raw)
                continue
            seen = src.seen if src is not None else None
            start_changed = seen is None or node.starting_comment != seen[0]
            if task == "variation":
                if not start_changed and src is not None:
                    for raw in src.pre:
                        em.raw(("start", node._id), "comment", raw)
                self.piece(("open", node._id), "open", src.open if src else None, "(")
            start_key: Key = ("start", node._id)
            if not start_changed and src is not None:
                for raw in src.start:
                    em.raw(start_key, "comment", raw)
            else:
                atoms = self.atoms(node, f"starting {what}", True)
                em.words(start_key, "comment", atoms, replaces=bool(src and src.start))
            move_key: Key = ("move", node._id)
            if src is not None and src.move is not None:
                em.raw(move_key, "move", src.move, number)
            else:
                em.move(move_key, number, self.start.move_text(node._move, self.names))
            nags_changed = seen is None or frozenset(node.nags) != seen[2]
            comment_changed = seen is None or node._state() != seen[1]
            self.annotations(node, src, nags_changed, comment_changed, where)
            if task == "variation":
                stack.append(("close", node, ply))
            if node.variations:
                stack.append(("move", node.variations[0], ply + 1))
            if not comment_changed and src is not None and src.trail:
                stack.append(("trail", node, ply))
            stack.extend(("variation", v, ply) for v in reversed(self.after(node)))

    def piece(self, key: Key, kind: str, raw: Raw | None, text: str) -> None:
        if raw is not None:
            self.em.raw(key, kind, raw)
        else:
            self.em.words(key, kind, [text])

    def annotations(
        self,
        node: ChildNode,
        src: NodeSource | None,
        nags_changed: bool,
        comment_changed: bool,
        where: str,
    ) -> None:
        """The NAGs and the comment after a move, in the order they were read; what changed is
        written canonically where it stood (new NAGs right after the move, a new comment last)."""
        em = self.em
        nags_key: Key = ("nags", node._id)
        comment_key: Key = ("comment", node._id)
        items = src.ann if src is not None else []
        wrote_nags = wrote_comment = False
        if nags_changed:
            bad = [n for n in node.nags if not (isinstance(n, int) and 0 <= n <= NAG_MAX)]
            if bad or any(isinstance(n, bool) for n in node.nags):
                nag = bad[0] if bad else True
                raise RecordError(f"a NAG of {where} is {nag!r}: NAGs are 0 to {NAG_MAX}")
        what = f"comment of {where}"
        if nags_changed and not any(kind == "nags" for kind, _ in items):
            em.nags(nags_key, node.nags)
            wrote_nags = True
        for kind, raw in items:
            if kind == "nags" and not nags_changed:
                em.raw(nags_key, "nags", raw)
            elif kind == "nags" and not wrote_nags:
                em.nags(nags_key, node.nags, replaces=True)
                wrote_nags = True
            elif kind == "comment" and not comment_changed:
                em.raw(comment_key, "comment", raw)
            elif kind == "comment" and not wrote_comment:
                em.words(comment_key, "comment", self.atoms(node, what), replaces=True)
                wrote_comment = True
        if comment_changed and not wrote_comment:
            replaces = bool(src and src.trail)
            em.words(comment_key, "comment", self.atoms(node, what), replaces=replaces)
