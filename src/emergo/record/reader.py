"""Reading records: a streaming parser that checks each game as it reads it, for a visitor.

The parser reads line by line, only as far as the game goes: the tag pairs (consecutive lines
starting with ``[``), then the movetext up to the result token, the next game's tags or the end.
It plays every move on a board, a variation from the position before the move it replaces
(nested ones too), checks the result against the final position (R18-R20), and tells the visitor
(:mod:`emergo.record.visitors`) each piece with its text as written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, overload

from emergo.board import Board
from emergo.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    NamingError,
)
from emergo.geometry import NAMINGS, Names
from emergo.notation import MAX_MOVE_TEXT, check_names, excerpt
from emergo.record.commands import (
    MARKS,
    NAG_MAX,
    NAG_OF_MARK,
    has_command,
    parse_comment,
    square_name,
)
from emergo.record.headers import (
    RESULT_ALIASES,
    Conflict,
    Headers,
    RecordError,
    ended,
    is_initial,
    label,
    result_of,
    settle,
    short,
    start_board,
    termination_of,
    variant_of,
)
from emergo.record.streams import Input, Readable, Source, opened, stream
from emergo.record.tree import Game
from emergo.record.visitors import SKIP, BaseVisitor, GameBuilder, HeadersBuilder, SkipVisitor

ErrorMode = Literal["raise", "collect"]
T = TypeVar("T")

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_UNESCAPE = re.compile(r'\\(["\\])')  # only \" and \\ are escapes; other backslashes stay
_SPACE = re.compile(r"\s*")
_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<open>\{)
  | (?P<semi>;)
  | (?P<result>1-0|0-1|1/2-1/2|½-½|\*)(?=\s|[{;()]|$)
  | (?P<number>[0-9]+\s*(?:\.+|…))
  | (?P<nag>\$[0-9]+)
  | (?P<bad>[()\[\]}$])
  | (?P<move>[^\s{};()\[\]$]+)
    """,
    re.VERBOSE,
)
_SEPARATORS = "-x:"
_MARK_SUFFIX = re.compile(r"[!?]+$")
_MARK_ONLY = re.compile(r"[!?]+")


@dataclass(slots=True)
class _Line:
    """A line of moves being read: the main line, or a variation opened on ``line``."""

    board: Board  # the position after its last move
    line: int
    moves: int = 0
    state: str = "start"  # start, move (after a move), closed (after a variation)


class _Parser:
    """The state of reading one game: tags, then movetext tokens as they come."""

    def __init__(self, visitor: BaseVisitor[Any], names: Names, file: str | None) -> None:
        self.v = visitor
        self.names: Names = names
        self.file = file
        self.errors: list[RecordError] = []
        self.lead: list[str] = []  # the text since the last piece
        self.skip = False  # the visitor skips the movetext
        self.skipping = 0  # depth inside a variation the visitor skips
        self.tags: list[tuple[str, str, int]] = []
        self.headers = Headers()
        self.tag_lines: dict[str, int] = {}
        self.lines: list[_Line] = []  # the main line and the open variations
        self.white_starts = True
        self.comment: list[str] | None = None  # inside a {comment}: its text so far
        self.comment_line = 0
        self.held: tuple[list[str], str, int] | None = None  # a move that may go on: text, line
        self.gap: list[str] = []  # the space after the held move
        self.join_next = False
        self.token: tuple[str, int] | None = None  # the result token and its line
        self.last_line = 0
        self.square: Callable[[str], str] = str

    @property
    def broken(self) -> bool:
        return bool(self.errors)

    @property
    def listening(self) -> bool:
        return not self.errors and not self.skip

    @property
    def playing(self) -> bool:
        return self.listening and bool(self.lines) and not self.skipping

    def error(self, reason: str, line: int, move: str | None = None) -> None:
        error = RecordError(reason, line=line, move=move, file=self.file)
        self.errors.append(error)
        self.v.handle_error(error)

    def trivia(self, text: str) -> None:
        if self.held is not None:
            self.gap.append(text)
        elif self.listening:
            self.lead.append(text)

    def emit(self, text: str) -> None:
        self.v.visit_source("".join(self.lead), text)
        self.lead.clear()

    # --- tags -----------------------------------------------------------------------------------

    def tag_line(self, text: str, line: int) -> None:
        pos = 0
        while True:
            space = _SPACE.match(text, pos)
            assert space is not None
            self.trivia(space.group())
            pos = space.end()
            if pos >= len(text):
                return
            m = _TAG.match(text, pos)
            if m is None:
                self.error(
                    f'bad tag pair {excerpt(text[pos:].strip())}: expected [Name "value"]', line
                )
                return
            name, value = m.group(1), _UNESCAPE.sub(r"\1", m.group(2))
            if "\r" in value or "\n" in value:  # a stream that splits lines at "\n" only
                self.error(
                    f"tag {short(name)}: the value must be one line, not {excerpt(value)}", line
                )
            elif name in self.tag_lines:
                self.error(
                    f"tag {short(name)} is given twice (first on line {self.tag_lines[name]})", line
                )
            else:
                self.tags.append((name, value, line))
                self.tag_lines[name] = line
                if self.listening:
                    self.emit(m.group())
                    self.v.visit_header(name, value)
            pos = m.end()

    def setup(self) -> None:
        """Check the tags and set up the start position (R4, R22)."""
        if self.broken:
            return
        if self.v.end_headers() is SKIP:
            self.skip = True
            return
        headers = Headers()
        for name, value, line in self.tags:
            try:
                if name == "Names":
                    if value.strip().lower() not in NAMINGS:
                        raise RecordError(f'unknown Names "{value}": expected oblique or checker')
                    self.names = "checker" if value.strip().lower() == "checker" else "oblique"
                    continue
                if name == "Result":
                    value = result_of(value)
                elif name == "Termination":
                    value = termination_of(value).value
                elif name == "Variant":
                    value = variant_of(value)
                headers[name] = value
            except RecordError as e:
                self.error(e.reason, line)
                return
        if "Variant" not in self.tag_lines:
            del headers["Variant"]  # let a Position tag's prefix name the variant
        try:
            board = start_board(headers.get("Variant"), headers.get("Position"))
        except RecordError as e:
            self.error(e.reason, self.tag_lines.get("Position", self.tag_lines.get("Variant", 1)))
            return
        try:
            board.geometry.check_naming(self.names)  # no checkerboard names on hex (R3, R4)
        except NamingError as e:
            self.error(str(e), self.tag_lines.get("Names", self.tag_lines.get("Variant", 1)))
            return
        headers["Variant"] = board.variant
        headers.pop("Position", None)
        if not is_initial(board):
            headers["Position"] = board.position()
        self.headers = headers
        self.lines = [_Line(board, 0)]
        self.white_starts = board.turn
        geometry, names = board.geometry, self.names
        self.square = lambda name: square_name(geometry, name, names)
        self.v.visit_start(headers, board, names)

    # --- movetext -------------------------------------------------------------------------------

    def scan(self, text: str, line: int) -> bool:
        """Read one movetext line; True when it ended the game with a result token."""
        self.last_line = line
        pos = 0
        if self.comment is not None:
            close = text.find("}")
            if close < 0:
                self.comment.append(text)
                return False
            self.comment.append(text[: close + 1])
            raw, self.comment = "".join(self.comment), None
            self.on_comment(raw, self.comment_line)
            pos = close + 1
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            assert m is not None  # the move alternative matches any other character
            kind, token, start = m.lastgroup, m.group(), pos
            pos = m.end()
            if kind == "space":
                self.trivia(token)
                continue
            if kind == "move":
                self.move_token(token, line)
                continue
            self.flush()
            if kind == "open":
                close = text.find("}", pos)
                if close < 0:
                    self.comment, self.comment_line = [text[start:]], line
                    return False
                self.on_comment(text[start : close + 1], line)
                pos = close + 1
            elif kind == "semi":
                self.trivia(text[start:])  # a remark to the end of the line, not part of the game
                return False
            elif kind == "result":
                self.on_result(token, line)
                rest = text[pos:]
                if rest.strip() and not rest.strip().startswith(";"):
                    self.error(
                        f"unexpected text after the result {token}: {excerpt(rest.strip())}", line
                    )
                self.trivia(rest)
                return True
            elif kind == "number":
                self.trivia(token)  # move numbers are not needed to replay a game
            elif kind == "nag":
                value = int(token[1:]) if len(token) <= 4 else NAG_MAX + 1
                self.on_nag(token, value, line)
            elif token == "(":
                self.on_open(line)
            elif token == ")":
                self.on_close(line)
            else:
                self.error(f"unexpected: {token!r}", line)
        return False

    def move_token(self, token: str, line: int) -> None:
        if _MARK_ONLY.fullmatch(token) and not (self.held is not None and self.join_next):
            self.flush()  # a mark standing apart from its move ("e5 !?")
            if token in MARKS:
                self.on_nag(token, NAG_OF_MARK[token], line)
            else:
                self.trivia(token)
            return
        # Some sources space out a move ("h4 x f4", "e4 - e5"): glue separators to the move.
        standalone = all(c in _SEPARATORS for c in token.lower())
        if self.held is not None and (self.join_next or token[0].lower() in _SEPARATORS):
            parts, joined, first = self.held
            parts += self.gap
            parts.append(token)
            self.gap = []
            if len(joined) <= MAX_MOVE_TEXT:  # past it the move is refused: stop growing
                joined += token
            self.held = (parts, joined, first)
        else:
            self.flush()
            self.held = ([token], token, line)
        self.join_next = standalone or token[-1] in "-:"

    def flush(self) -> None:
        if self.held is None:
            return
        parts, text, line = self.held
        self.held, self.join_next = None, False
        gap, self.gap = self.gap, []
        raw = "".join(parts)
        if self.playing:
            self.play(raw, text, line)
        else:
            self.trivia(raw)
        for space in gap:
            self.trivia(space)

    def play(self, raw: str, text: str, line: int) -> None:
        current = self.lines[-1]
        board = current.board
        ply = len(board.move_stack)
        outcome = board.outcome()
        if outcome is not None:
            self.error(ended(ply, self.white_starts, text, outcome), line, text)
            return
        try:
            move = board.parse_move(text, self.names)
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as e:
            self.error(f'move {label(ply, self.white_starts)} "{short(text)}": {e}', line, text)
            return
        mark = _MARK_SUFFIX.search(raw)
        glued = mark.group() if mark is not None and mark.group() in MARKS else None
        self.emit(raw[: -len(glued)] if glued else raw)  # the parser read the move without it
        self.v.visit_move(board, move)
        board.push_unchecked(move)
        current.moves += 1
        current.state = "move"
        if glued:
            self.emit(glued)
            self.v.visit_nag(NAG_OF_MARK[glued])

    def on_nag(self, token: str, value: int, line: int) -> None:
        if not self.playing:
            self.trivia(token)
        elif value > NAG_MAX:
            self.error(f"bad NAG {short(token)}: NAGs are $0 to ${NAG_MAX}", line)
        elif self.lines[-1].state != "move":
            self.error(f"the NAG {token} follows no move: it goes right after its move", line)
        else:
            self.emit(token)
            self.v.visit_nag(value)

    def on_comment(self, raw: str, line: int) -> None:
        if not self.playing:
            self.trivia(raw)
            return
        text = raw[1:-1]
        current = self.lines[-1]
        if current.state == "move" or (len(self.lines) == 1 and current.state == "start"):
            try:
                parse_comment(text, self.square)
            except ValueError as e:
                self.error(str(e), line)
                return
        elif has_command(text):
            self.error(
                "a command ([%clk], [%eval], [%csl], [%cal]) goes in the comment right after its "
                "move, not after ( or )",
                line,
            )
            return
        self.emit(raw)
        self.v.visit_comment(text)

    def on_open(self, line: int) -> None:
        if not self.playing:
            self.skipping += bool(self.skipping)
            self.trivia("(")
            return
        current = self.lines[-1]
        if current.moves == 0:
            self.error("a variation ( must follow the move it is an alternative to", line)
            return
        self.emit("(")
        if self.v.begin_variation() is SKIP:
            self.skipping = 1
            return
        board = current.board.copy()
        board.pop()
        self.lines.append(_Line(board, line))

    def on_close(self, line: int) -> None:
        if self.skipping:
            self.skipping -= 1
            self.trivia(")")
            if not self.skipping:
                self.lines[-1].state = "closed"
            return
        if not self.playing:
            self.trivia(")")
            return
        current = self.lines[-1]
        if len(self.lines) == 1:
            self.error("unexpected ')': no variation is open", line)
        elif current.moves == 0:
            self.error(f"empty variation: the ( on line {current.line} holds no move", line)
        else:
            self.emit(")")
            self.v.end_variation()
            self.lines.pop()
            self.lines[-1].state = "closed"

    def on_result(self, token: str, line: int) -> None:
        result = RESULT_ALIASES.get(token, token)
        self.token = (result, line)
        if self.listening and (self.skipping or len(self.lines) > 1):
            self.error(
                f"the variation opened on line {self.lines[-1].line} is not closed before the "
                f"result {token}",
                line,
            )
        if self.playing:
            self.emit(token)
            self.v.visit_result(result)
        else:
            self.trivia(token)

    def finish(self) -> None:
        self.flush()
        if self.comment is not None:
            self.error(
                f"unterminated comment: the {{ on line {self.comment_line} is never closed",
                self.comment_line,
            )
        if self.listening and (self.skipping or len(self.lines) > 1):
            self.error(
                f"the variation opened on line {self.lines[-1].line} is never closed",
                self.last_line,
            )
        if self.playing:
            self.emit("")
            self.end()
        self.v.end_game()

    def end(self) -> None:
        """Settle the result against the final position (R18-R20)."""
        board = self.lines[0].board
        token = self.token[0] if self.token else None
        try:
            result, termination = settle(self.headers, board, token)
        except Conflict as e:
            # Blame the result token when it says something, else the Result tag.
            told = self.token[1] if self.token and self.token[0] != "*" else None
            lines = {
                "token": told,
                "Result": told or self.tag_lines.get("Result"),
                "Termination": self.tag_lines.get("Termination"),
            }
            self.error(str(e), lines[e.tag] or self.last_line)
            return
        self.v.visit_end(board, result, termination)


def _read(
    handle: Readable, file: str | None, names: Names, make: Callable[[], BaseVisitor[T]]
) -> tuple[T, list[RecordError]] | None:
    source = Source(handle, file)
    prefix = []
    text = source.readline()
    while text is not None and (text.startswith("%") or not text.strip()):
        prefix.append(text)
        text = source.readline()
    if text is None:
        return None
    visitor = make()
    parser = _Parser(visitor, names, file)
    visitor.begin_game()
    visitor.visit_source("".join(prefix), "")
    parser.last_line = source.line
    # The tag pairs: consecutive lines starting with "[" (and % escape lines).
    while text is not None and (text.startswith("%") or text.lstrip().startswith("[")):
        if text.startswith("%"):
            parser.trivia(text)
        else:
            parser.tag_line(text, source.line)
            parser.last_line = source.line
        text = source.readline()
    parser.setup()
    # The movetext: up to the result token, the next game's tags or the end of the stream.
    while text is not None:
        if parser.comment is None and text.startswith("%"):
            parser.trivia(text)  # an escape line: not part of the game
        elif parser.comment is None and text.lstrip().startswith("["):
            source.unread(text)
            break
        elif parser.scan(text, source.line):
            break
        text = source.readline()
    parser.finish()
    return visitor.result(), parser.errors


def _check_mode(names: Names, errors: ErrorMode) -> None:
    check_names(names)
    if errors not in ("raise", "collect"):
        raise InvalidOptionError(f'errors must be "raise" or "collect", not {errors!r}')


def _next(
    handle: Readable,
    file: str | None,
    names: Names,
    errors: ErrorMode,
    make: Callable[[], BaseVisitor[T]],
) -> tuple[T] | None:
    read = _read(handle, file, names, make)
    if read is None:
        return None
    if read[1] and errors == "raise":
        raise read[1][0]
    return (read[0],)


@overload
def read_game(source: Input, *, names: Names = ..., errors: ErrorMode = ...) -> Game | None: ...
@overload
def read_game(
    source: Input,
    *,
    Visitor: Callable[[], BaseVisitor[T]],
    names: Names = ...,
    errors: ErrorMode = ...,
) -> T | None: ...
def read_game(
    source: Input,
    *,
    Visitor: Callable[[], BaseVisitor[Any]] = GameBuilder,
    names: Names = "oblique",
    errors: ErrorMode = "raise",
) -> object:
    """The next game of a text stream, or ``None`` at its end.

    ``source`` is a text stream, a ``str`` of record text (its first game is read) or a path
    (``pathlib.Path`` or any ``os.PathLike``: the file is read as UTF-8, its first game, and
    closed; errors then name the file).  A binary stream or ``bytes`` raise ``TypeError``;
    text that is not UTF-8 raises :class:`RecordError` with the line, whatever ``errors`` says.

    The stream is read line by line, only as far as this game goes.  ``Visitor`` makes the
    visitor that hears the game (:mod:`emergo.record.visitors`; the default builds the
    :class:`Game` tree) and the result is what it makes of it.  With ``errors="raise"`` the
    first problem raises :class:`RecordError` (after the broken game has been read, so the next
    call reads the next game); with ``errors="collect"`` the game is returned with its tree up to
    the problem and the problems in ``game.errors``.  ``names`` is the square naming of games
    without a ``Names`` tag.  Line numbers count from the first line this module read from the
    stream.
    """
    _check_mode(names, errors)
    with opened(source, "read_game") as (handle, file):
        read = _next(handle, file, names, errors, Visitor)
    return None if read is None else read[0]


@overload
def read_games(source: Input, *, names: Names = ..., errors: ErrorMode = ...) -> Iterator[Game]: ...
@overload
def read_games(
    source: Input,
    *,
    Visitor: Callable[[], BaseVisitor[T]],
    names: Names = ...,
    errors: ErrorMode = ...,
) -> Iterator[T]: ...
def read_games(
    source: Input,
    *,
    Visitor: Callable[[], BaseVisitor[Any]] = GameBuilder,
    names: Names = "oblique",
    errors: ErrorMode = "raise",
) -> Iterator[object]:
    """Every game of a text stream, record text or file in turn, read lazily (see
    :func:`read_game`).  A file given by path stays open until the iterator is finished."""
    _check_mode(names, errors)
    if not isinstance(source, str | os.PathLike):
        stream(source, "read_games")  # a wrong type fails here, not at the first game
    return _games(source, names, errors, Visitor)


def _games(
    source: Input, names: Names, errors: ErrorMode, make: Callable[[], BaseVisitor[Any]]
) -> Iterator[object]:
    with opened(source, "read_games") as (handle, file):
        while (read := _next(handle, file, names, errors, make)) is not None:
            yield read[0]


def read_headers(source: Input) -> Headers | None:
    """The tags of the next game, as written, skipping its movetext unplayed; ``None`` at the end.

    Only the syntax is checked (tag pairs, comments), which makes scanning a large file cheap.
    ``source`` is what :func:`read_game` takes.
    """
    return read_game(source, Visitor=HeadersBuilder)


def skip_game(source: Input) -> bool:
    """Read past the next game without playing it; ``False`` at the end of the stream."""
    with opened(source, "skip_game") as (handle, file):
        return _read(handle, file, "oblique", SkipVisitor) is not None
