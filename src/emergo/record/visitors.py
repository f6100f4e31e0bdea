"""Visitors: what the reader does with a game as it reads it (as python-chess's visitors).

The reader (:func:`~emergo.record.read_game`) checks the record as it goes -- tags, every move
against the rules (variations too, each from its own position), the result -- and tells a
visitor what it finds, in the order of the text.  :class:`GameBuilder` (the default) builds the
:class:`~emergo.record.Game` tree, keeping the text of every piece so that it can be written back
as it was; :class:`HeadersBuilder` keeps only the tags, :class:`SkipVisitor` nothing,
:class:`MoveCounter` counts the moves and :class:`BoardBuilder` keeps the main line's final
position.
"""

from __future__ import annotations

import enum
from typing import Generic, TypeVar

from emergo.board import Board, Move
from emergo.geometry import Geometry, Names
from emergo.record.commands import Annotation, parse_comment, square_name
from emergo.record.headers import Headers, RecordError, written_headers
from emergo.record.text import GameSource, Key, NodeSource, Raw
from emergo.record.tree import ChildNode, Game, GameNode, new_id

ResultT = TypeVar("ResultT")


class Skip(enum.Enum):
    SKIP = "skip"


SKIP = Skip.SKIP
"""Returned by :meth:`BaseVisitor.end_headers` or :meth:`BaseVisitor.begin_variation` to skip
the movetext or a variation: it is then read for its end only, and not visited."""


def annotate(node: GameNode, annotation: Annotation) -> None:
    """Add a comment read from a record to a node: its text after what it had, its commands."""
    if annotation.text:
        node.comment = f"{node.comment} {annotation.text}" if node.comment else annotation.text
    if annotation.clock is not None:
        node.clock = annotation.clock
    if annotation.eval is not None:
        node.eval = annotation.eval
    node.shapes.extend(annotation.shapes)


class BaseVisitor(Generic[ResultT]):
    """The calls a reader makes while it reads one game, in the order of the text.

    ``begin_game``; ``visit_header`` for each tag as written; ``end_headers``; ``visit_start``
    with the tags checked (``Variant`` ``Result`` ... in canonical form) and the start position;
    then for the movetext ``visit_move`` (the board is the position before the move: do not keep
    it), ``visit_nag``, ``visit_comment``, ``begin_variation`` / ``end_variation``,
    ``visit_result`` (the token, if the record has one); ``visit_end`` with the main line's final
    position (the reader is done with it: it may be kept) and the ``Result`` and ``Termination``
    the record carries (R18-R20); ``end_game``.
    ``handle_error`` hears each problem; after the first one nothing more is visited but
    ``end_game``.  ``visit_source`` comes before each of the calls that read a piece of text: the
    text as written and its ``lead`` (spaces, line breaks, move numbers, remarks, escape lines);
    once more right after ``begin_game`` (``lead``: the blank and escape lines before the game,
    empty ``text``) and before ``visit_end`` (``lead``: the text after the last piece), so that
    the leads and texts put together are what the reader read.
    """

    def begin_game(self) -> None:
        pass

    def visit_source(self, lead: str, text: str) -> None:
        pass

    def visit_header(self, name: str, value: str) -> None:
        pass

    def end_headers(self) -> Skip | None:
        return None

    def visit_start(self, headers: Headers, board: Board, names: Names) -> None:
        pass

    def visit_move(self, board: Board, move: Move) -> None:
        pass

    def visit_nag(self, nag: int) -> None:
        pass

    def visit_comment(self, text: str) -> None:
        pass

    def begin_variation(self) -> Skip | None:
        return None

    def end_variation(self) -> None:
        pass

    def visit_result(self, result: str) -> None:
        pass

    def visit_end(self, board: Board, result: str, termination: str | None) -> None:
        pass

    def handle_error(self, error: RecordError) -> None:
        pass

    def end_game(self) -> None:
        pass

    def result(self) -> ResultT:
        raise NotImplementedError


class GameBuilder(BaseVisitor[Game]):
    """Builds the :class:`~emergo.record.Game` tree, each piece's text kept (the default)."""

    def begin_game(self) -> None:
        self.game = Game()
        self.src = GameSource()
        self.node: GameNode = self.game
        self.open: list[tuple[GameNode, int]] = []  # open variations: node before "(", its id
        self.firsts: dict[int, ChildNode] = {}  # the first move of each variation, by id
        self.source: tuple[str, str] = ("", "")
        self.prev: Key | None = None
        self.state = "start"  # start, open (after "("), move, closed (after ")")
        self.vid = 0  # the id of the next variation's first move, from "("
        self.host: int | None = None
        self.pre: list[Raw] = []  # comments before "(", for the variation's first move
        self.pre_text: list[str] = []
        self.start: list[Raw] = []  # comments after "(" or ")", for the next move
        self.start_text: list[str] = []
        self.opened: Raw | None = None
        self.geometry: Geometry | None = None
        self.names: Names = "oblique"
        self.board: Board | None = None

    def visit_source(self, lead: str, text: str) -> None:
        if self.src.prefix is None:
            self.src.prefix = lead
        else:
            self.source = (lead, text)

    def _raw(self, key: Key) -> Raw:
        raw = Raw(*self.source, self.prev)
        self.source, self.prev = ("", ""), key
        return raw

    def visit_header(self, name: str, value: str) -> None:
        self.src.tags.append((name, self._raw(("tag", name))))

    def visit_start(self, headers: Headers, board: Board, names: Names) -> None:
        self.game.headers = headers.copy()
        self.game.names = self.names = names
        self.geometry = board.geometry
        self.board = board.copy()

    def _annotation(self, text: str) -> Annotation:
        geometry = self.geometry
        assert geometry is not None
        return parse_comment(text, lambda name: square_name(geometry, name, self.names))

    def visit_comment(self, text: str) -> None:
        node = self.node
        if self.state in ("start", "move"):  # after a move, or the game's comment
            key: Key = ("comment", node._id)
            raw = self._raw(key)
            if isinstance(node, ChildNode):
                assert node._src is not None
                node._src.ann.append(("comment", raw))
            else:
                self.src.comment.append(raw)
            annotate(node, self._annotation(text))
        elif self.state == "open":  # after "(": the variation's starting comment
            self.start.append(self._raw(("start", self.vid)))
            self.start_text.append(" ".join(text.split()))
        else:  # after ")": the next variation's, or the comment of the move before
            self.start.append(self._raw(("pending", 0)))
            self.start_text.append(" ".join(text.split()))

    def _resolve(self, key: Key) -> list[Raw]:
        """The comments after ")" now known to be ``key``'s."""
        pending, self.start = self.start, []
        for raw in pending[1:]:
            raw.prev = key
        if pending:
            self.prev = key
        return pending

    def _trail(self) -> None:
        """Comments after ")" but before a "(": the end of the comment of the move the variations
        follow (the position the line goes on from)."""
        if self.state == "closed" and self.start:
            node = self.node
            assert isinstance(node, ChildNode) and node._src is not None
            node._src.trail += self._resolve(("comment", node._id))
            text = " ".join(t for t in self.start_text if t)
            if text:
                node.comment = f"{node.comment} {text}" if node.comment else text
            self.start_text = []

    def visit_move(self, board: Board, move: Move) -> None:
        self._trail()
        parent = self.node
        child = ChildNode(parent, move)
        child._src = src = NodeSource()
        if self.state == "open":
            child._id = self.vid
            self.firsts[self.vid] = child
            src.open, src.host, src.pre = self.opened, self.host, self.pre
            src.start, self.start = self.start, []
            child.starting_comment = " ".join(t for t in [*self.pre_text, *self.start_text] if t)
            self.pre, self.pre_text, self.start_text = [], [], []
        parent.variations.append(child)
        src.move = self._raw(("move", child._id))
        self.node, self.state = child, "move"

    def visit_nag(self, nag: int) -> None:
        node = self.node
        assert isinstance(node, ChildNode) and node._src is not None
        node._src.ann.append(("nags", self._raw(("nags", node._id))))
        node.nags.add(nag)

    def begin_variation(self) -> Skip | None:
        node = self.node
        assert isinstance(node, ChildNode)
        self.vid = new_id()
        self.pre, self.pre_text = self._resolve(("start", self.vid)), self.start_text
        self.start_text = []
        self.opened = self._raw(("open", self.vid))
        self.host = node._id if node.starts_variation() else None
        self.open.append((node, self.vid))
        self.node, self.state = node.parent, "open"
        return None

    def end_variation(self) -> None:
        self._trail()
        before, vid = self.open.pop()
        src = self.firsts.pop(vid)._src
        assert src is not None
        src.close = self._raw(("close", vid))
        self.node, self.state = before, "closed"

    def visit_result(self, result: str) -> None:
        self._trail()
        self.src.result = self._raw(("result", self.game._id))

    def visit_end(self, board: Board, result: str, termination: str | None) -> None:
        self._trail()
        src, game = self.src, self.game
        src.tail = self.source[0]
        if src.result is None:
            src.result = Raw("", "", self.prev)
        game.headers["Result"] = result
        if termination is not None:
            game.headers["Termination"] = termination
        assert self.board is not None
        src.seen_headers = written_headers(
            game.headers, self.board, result, termination, self.names
        )
        src.seen = game._state()
        stack: list[GameNode] = [game]
        while stack:
            node = stack.pop()
            for child in node.variations:
                assert child._src is not None
                child._src.seen = child._seen()
                stack.append(child)
        game._src = src
        game._cursor = (game.end(), board, game._key())
        game._checked = game._key()

    def handle_error(self, error: RecordError) -> None:
        self.game.errors.append(error)

    def end_game(self) -> None:
        if self.game.errors:
            self.game._src = None  # a broken record is written canonically, as far as it goes

    def result(self) -> Game:
        return self.game


class HeadersBuilder(BaseVisitor[Headers]):
    """Keeps the tags as written and skips the movetext (:func:`~emergo.record.read_headers`)."""

    def begin_game(self) -> None:
        self.headers = Headers()

    def visit_header(self, name: str, value: str) -> None:
        self.headers[name] = value

    def end_headers(self) -> Skip | None:
        return SKIP

    def result(self) -> Headers:
        return self.headers


class SkipVisitor(BaseVisitor[bool]):
    """Reads past a game without looking at it (:func:`~emergo.record.skip_game`)."""

    def end_headers(self) -> Skip | None:
        return SKIP

    def result(self) -> bool:
        return True


class MoveCounter(BaseVisitor[int]):
    """The number of moves of a game, its variations' included (every move is checked)."""

    def begin_game(self) -> None:
        self.count = 0

    def visit_move(self, board: Board, move: Move) -> None:
        self.count += 1

    def result(self) -> int:
        return self.count


class BoardBuilder(BaseVisitor[Board | None]):
    """The main line's final position, with its move stack (``None`` for a broken game)."""

    def begin_game(self) -> None:
        self.board: Board | None = None

    def visit_end(self, board: Board, result: str, termination: str | None) -> None:
        self.board = board

    def result(self) -> Board | None:
        return self.board
