"""A study's chapters as records (no database, no web framework): a record read into chapters,
a new chapter from a position, the page's edits applied by node path, exports.

A chapter is stored as its record's text (docs/records.md): the tree with its variations,
comments, NAGs, clocks, evaluations, arrows and circles.  The text is written by
:mod:`emergo.record`, which writes a record it read back byte for byte and rewrites only what an
edit changed, so a record imported into a study exports unchanged, and one edited keeps the
rest of its text as it was written.

**Edits** (:func:`apply_edits`) name a node by its path of child indices from the game
(:meth:`emergo.record.GameNode.path`, the main move first), and are applied in order:

* ``{"op": "add", "path": P, "move": TEXT}``: the move from the node at ``P`` (any notation the
  board reads), last of its variations; nothing when the node has that move already;
* ``{"op": "delete", "path": P}``: the node at ``P`` and every move after it;
* ``{"op": "promote", "path": P}``: the node at ``P`` becomes its parent's main move;
* ``{"op": "set", "path": P, "comment"?, "starting_comment"?, "nags"?, "shapes"?, "clock"?,
  "eval"?}``: those fields of the node, in the record's JSON form;
* ``{"op": "tags", "tags": {NAME: VALUE or null}}``: tags set or removed (not ``Variant``,
  ``Position`` nor ``Names``: the moves depend on them).
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from emergo import record
from emergo.board import Board
from emergo.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from emergo.geometry import Names
from emergo.record.commands import NAG_MAX, has_command
from emergo.record.jsonform import json_fields
from emergo.server.analysis.trees import tree_data
from emergo.server.board.positions import JSON, RequestError, board_from
from emergo.server.core.errors import SiteError
from emergo.server.core.printable import unprintable

MAX_CHAPTERS = 64
"""Most chapters a study holds (lichess's limit)."""
MAX_NODES = 3000
"""Most moves a chapter's tree holds, variations included."""
MAX_TEXT = 256 * 1024
"""Longest text of a chapter's record, in characters."""
MAX_COMMENT = 2000
"""Longest comment a move may carry."""
MAX_EDITS = 200
"""Most edits one request may make."""
MAX_PATH = 4000
"""Longest node path an edit may name."""
FIXED_TAGS = frozenset({"Variant", "Position", "Names"})
"""Tags an edit may not change: the moves are read against them."""
_TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,40}")
_LEADING_BLANKS = re.compile(r"\A(?:[ \t]*\r?\n)+")


class StudyError(SiteError):
    """A study or chapter request the site refuses; the message says why."""


@dataclass(frozen=True)
class ChapterRecord:
    """A chapter's record: its name, text, variant and how many moves its tree holds."""

    name: str
    text: str
    variant: str
    nodes: int


def count_nodes(game: record.GameNode) -> int:
    """The moves of a tree, variations included."""
    count, stack = 0, [game]
    while stack:
        node = stack.pop()
        count += len(node.variations)
        stack.extend(node.variations)
    return count


def own_text(game: record.Game) -> str:
    """A game's text as it stands on its own: as read (with the escape lines before it, not the
    blank lines), or canonical for a game built in code."""
    out = io.StringIO()
    record.write_games([game], out)
    return _LEADING_BLANKS.sub("", out.getvalue())


def chapter_name(game: record.Game, number: int) -> str:
    """A chapter's name from its record: the players, else the event, else ``Chapter N``."""
    h = game.headers
    white, black, event = h.get("White", "?"), h.get("Black", "?"), h.get("Event", "?")
    if white != "?" and black != "?":
        name = f"{white} – {black}"
    elif event not in ("?", ""):
        name = event
    else:
        name = f"Chapter {number}"
    return name[:200]


def _checked(game: record.Game, name: str) -> ChapterRecord:
    text = own_text(game)
    nodes = count_nodes(game)
    if nodes > MAX_NODES:
        raise StudyError(f"a chapter holds at most {MAX_NODES} moves; this one has {nodes}")
    if len(text) > MAX_TEXT:
        raise StudyError(f"a chapter's record is at most {MAX_TEXT} characters")
    return ChapterRecord(name, text, game.variant, nodes)


def read_chapters(text: str, *, first: int = 1, name: str = "") -> list[ChapterRecord]:
    """Every game of a record as a chapter (each named by :func:`chapter_name`, the first
    ``name`` when given, numbered from ``first``); a :class:`StudyError` with the reader's
    message (its line) when a game cannot be read."""
    chapters: list[ChapterRecord] = []
    try:
        for game in record.read_games(io.StringIO(text)):
            if len(chapters) >= MAX_CHAPTERS:
                raise StudyError(f"a study holds at most {MAX_CHAPTERS} chapters")
            number = first + len(chapters)
            chapters.append(
                _checked(game, name if name and not chapters else chapter_name(game, number))
            )
    except record.RecordError as e:
        raise StudyError(f"cannot read the record: {e}", kind="record") from None
    if not chapters:
        raise StudyError("the record holds no game", kind="record")
    return chapters


def new_chapter(pos: str | None, name: str) -> ChapterRecord:
    """An empty chapter from a position (R22; the 9x9 start when empty)."""
    try:
        board = board_from(pos)
    except RequestError as e:
        raise StudyError(str(e), kind="position") from None
    return _checked(record.Game.from_board(board), name)


def read_chapter(text: str) -> record.Game:
    """A stored chapter's game (its text was written by this module: it reads)."""
    game = record.read_game(text)
    if game is None:  # pragma: no cover - a stored chapter always holds its game
        raise StudyError("the chapter's record is empty")
    return game


def chapter_json(text: str) -> JSON:
    """A chapter's tree for the page (:func:`emergo.server.analysis.trees.tree_data`)."""
    return tree_data(read_chapter(text))


# --- edits --------------------------------------------------------------------------------------


def _path(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > MAX_PATH:
        raise StudyError(f"path must be a list of child indices (at most {MAX_PATH})")
    if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in value):
        raise StudyError("path must be a list of child indices (0 or more)")
    return tuple(value)


def _node(game: record.Game, path: tuple[int, ...]) -> record.GameNode:
    try:
        return game.node_at(path)
    except IndexError:
        where = ".".join(map(str, path)) or "the start"
        raise StudyError(f"no node at path {where[:60]}", kind="path") from None


def clean_comment(value: Any, what: str) -> str:
    """A comment from the page: one line of printable text (runs of white space are one space,
    as the reader reads a comment), no ``}`` (it would end the comment), no command (``[%...``:
    the clock, evaluation and shapes are fields of their own)."""
    if not isinstance(value, str):
        raise StudyError(f"{what} must be a string")
    text = " ".join(value.split())
    if len(text) > MAX_COMMENT:
        raise StudyError(f"{what} is too long (at most {MAX_COMMENT} characters)")
    for index, char in enumerate(text):
        why = unprintable(char)
        if why is not None:
            raise StudyError(f"{what}: character {index + 1} (U+{ord(char):04X}) is {why}")
    if "}" in text:
        raise StudyError(f"{what} cannot hold a }} (it would end the comment)")
    if has_command(text):
        raise StudyError(f"{what} cannot hold a command such as [%clk]: they are fields")
    return text


def _set(game: record.Game, node: record.GameNode, edit: Mapping[str, Any]) -> None:
    known = {"op", "path", "comment", "starting_comment", "nags", "shapes", "clock", "eval"}
    unknown = set(edit) - known
    if unknown:
        raise StudyError(f"set: unknown field {sorted(unknown)[0][:30]!r}")
    child = isinstance(node, record.ChildNode)
    data = {k: v for k, v in edit.items() if k not in ("op", "path")}
    for key in ("comment", "starting_comment"):
        if key in data:
            data[key] = clean_comment(data[key], f"the {key.replace('_', ' ')}")
    nags = data.get("nags", [])
    if not isinstance(nags, list) or len(nags) > 16:
        raise StudyError(f"nags must be a list of at most 16 NAGs (0 to {NAG_MAX})")
    try:
        fields = json_fields(data, game.board().geometry, move=child)
    except (ValueError, TypeError) as e:
        raise StudyError(f"set: {e}") from None
    if "comment" in data:
        node.comment = fields.comment
    if "clock" in data:
        node.clock = fields.clock
    if "eval" in data:
        node.eval = fields.eval
    if "shapes" in data:
        if len(fields.shapes) > 100:
            raise StudyError("a node holds at most 100 arrows and circles")
        node.shapes = fields.shapes
    if isinstance(node, record.ChildNode):
        if "starting_comment" in data:
            node.starting_comment = fields.starting_comment
        if "nags" in data:
            node.nags = fields.nags


def _tags(game: record.Game, value: Any) -> None:
    if not isinstance(value, Mapping) or len(value) > 50:
        raise StudyError("tags must be an object of at most 50 tags")
    for name, text in value.items():
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
            raise StudyError("a tag's name is letters, digits and _ (at most 40)")
        if name in FIXED_TAGS:
            raise StudyError(f"the tag {name} cannot change: the moves are read against it")
        if text is None:
            if name in game.headers:
                del game.headers[name]
            continue
        if not isinstance(text, str) or len(text) > 1000:
            raise StudyError(f"the tag {name} must be a string of at most 1000 characters")
        for index, char in enumerate(text):
            why = unprintable(char)
            if why is not None:
                raise StudyError(
                    f"the tag {name}: character {index + 1} (U+{ord(char):04X}) is {why}"
                )
        game.headers[name] = text.strip()


def _add(game: record.Game, node: record.GameNode, move: Any) -> None:
    if not isinstance(move, str) or not move.strip() or len(move) > 200:
        raise StudyError("add: move must be a move's text")
    board = node.board()
    try:
        parsed = board.parse_move(move)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as e:
        raise StudyError(f"add {move[:40]!r}: {e}", kind="move") from None
    if node.has_variation(parsed):
        return
    try:
        node.add_variation(parsed)
    except record.RecordError as e:  # after the end of the game
        raise StudyError(f"add {move[:40]!r}: {e}", kind="move") from None


def apply_edits(text: str, edits: Any, name: str) -> ChapterRecord:
    """The chapter after ``edits`` (module docstring), each checked; a :class:`StudyError`
    (nothing changed) names the first that cannot be made."""
    if not isinstance(edits, list) or len(edits) > MAX_EDITS:
        raise StudyError(f"edits must be a list of at most {MAX_EDITS} edits")
    game = read_chapter(text)
    for number, edit in enumerate(edits, 1):
        if not isinstance(edit, Mapping):
            raise StudyError(f"edit {number} must be an object")
        op = edit.get("op")
        try:
            if op == "tags":
                _tags(game, edit.get("tags"))
                continue
            path = _path(edit.get("path"))
            node = _node(game, path)
            if op == "add":
                _add(game, node, edit.get("move"))
            elif op == "set":
                _set(game, node, edit)
            elif op in ("delete", "promote"):
                parent = node.parent
                if parent is None:
                    raise StudyError(f"{op}: the start of the game is not a move")
                if op == "delete":
                    parent.remove_variation(node)
                else:
                    parent.promote_to_main(node)
            else:
                raise StudyError("op must be add, delete, promote, set or tags")
        except StudyError as e:
            raise StudyError(f"edit {number}: {e}", **e.extra) from None
    try:
        return _checked(game, name)
    except record.RecordError as e:  # a result the moves contradict, say
        raise StudyError(f"cannot write the record: {e}", kind="record") from None


# --- exports ------------------------------------------------------------------------------------


def export_text(
    text: str, *, comments: bool = True, variations: bool = True, clocks: bool = True
) -> str:
    """A chapter's record as stored, or without its comments, variations or clocks (lichess's
    export flags), then written canonically."""
    if comments and variations and clocks:
        return text
    game = read_chapter(text)
    stack: list[record.GameNode] = [game]
    while stack:
        node = stack.pop()
        if not variations:
            del node.variations[1:]
        if not comments:
            node.comment = ""
            node.eval = None
            node.shapes = []
            if isinstance(node, record.ChildNode):
                node.starting_comment = ""
                node.nags = set()
        if not clocks:
            node.clock = None
        stack.extend(node.variations)
    return record.write_game(game, canonical=True)


def study_text(texts: Sequence[str]) -> str:
    """A whole study's record: its chapters one after another, a blank line between."""
    return "\n".join(t if t.endswith("\n") else t + "\n" for t in texts)


def position_board(pos: str | None) -> Board:
    """The board of a position (R22) a request names; a :class:`StudyError` when it is none."""
    try:
        return board_from(pos)
    except RequestError as e:
        raise StudyError(str(e), kind="position") from None


def names_of(value: Any) -> Names:
    if value in (None, "oblique"):
        return "oblique"
    if value == "checker":
        return "checker"
    raise StudyError("names must be oblique or checker")
