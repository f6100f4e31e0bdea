"""Game records: a PGN-like text format for Emergo games, read as a stream and written canonically.

A record is a section of tag pairs (``[White "Alice"]``), a blank line and the movetext: numbered
moves in R21 notation, ``{comments}`` and a result token (``1-0``, ``0-1``, ``1/2-1/2``, ``*``).
``docs/records.md`` describes the format.  Reading is forgiving -- any move notation
:meth:`Board.parse_move` resolves, the checkerboard naming of R3 when a ``Names`` tag asks for it
-- and checks the game against the rules: every move must be legal (R8-R17), no move may follow
the end of the game (R18, R19a, R19b), and the ``Result`` must agree with a final position that
the rules have ended.  Writing is canonical, so ``write_game(read_game(text))`` is stable.

>>> import io
>>> game = read_game(io.StringIO('[White "Ann"]\\n\\n1. d7 e1 2. c7 *\\n'))
>>> [str(move) for move in game.moves]
['d7', 'e1', 'c7']
>>> game.end().position()
'b 10/11 c7:w d7:w e1:b'
"""

from __future__ import annotations

import io
import os
import re
import weakref
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from typing import Literal, Protocol, TypeAlias

from emergo.board import Board, Move, Outcome, Termination
from emergo.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    NamingError,
)
from emergo.geometry import DEFAULT_VARIANT, NAMINGS, VARIANTS, Names
from emergo.notation import MAX_MOVE_TEXT, check_names, excerpt

__all__ = [
    "RESULTS",
    "TAG_ROSTER",
    "Game",
    "Headers",
    "RecordError",
    "read_game",
    "read_games",
    "read_headers",
    "write_game",
    "write_games",
]

TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""The seven tags every written record carries, in this order (as in PGN)."""

_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
    "Variant": DEFAULT_VARIANT,
}
# Canonical tag order: the roster, then the tags about the game itself, then all others.
_ORDER = (*TAG_ROSTER, "Variant", "Position", "Termination")

MARKS = ("!!", "!", "!?", "?!", "?", "??")
"""Move marks (as in PGN): brilliant, good, interesting, dubious, mistake, blunder."""
_NAG_MARKS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}  # PGN's NAGs $1..$6
_MARK_SUFFIX = re.compile(r"[!?]+$")

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""Result values (R20): White's score first; ``*`` while unknown or unfinished."""
_RESULT_ALIASES = {"½-½": "1/2-1/2"}

# Endings the rules decide (Board.outcome) and endings only players decide (R19c, R20).
_RULE_ENDINGS = (Termination.NO_PIECES, Termination.BLOCKED, Termination.REPETITION)
_DECISIVE_ENDINGS = (Termination.RESIGNATION, Termination.TIME_FORFEIT)

ErrorMode = Literal["raise", "collect"]

_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_UNESCAPE = re.compile(r'\\(["\\])')  # only \" and \\ are escapes; other backslashes stay
_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<open>\{)
  | (?P<semi>;)
  | (?P<result>1-0|0-1|1/2-1/2|½-½|\*)(?=\s|[{;]|$)
  | (?P<number>[0-9]+\s*(?:\.+|…))
  | (?P<nag>\$[0-9]+)
  | (?P<bad>[()\[\]}$])
  | (?P<move>[^\s{};()\[\]$]+)
    """,
    re.VERBOSE,
)
_SEPARATORS = "-x:"
_WIDTH = 80


class RecordError(ValueError):
    """A record that cannot be read or written: ``line`` (1-based, in the file) and ``move``.

    ``str(error)`` is ``line 14: move 23... "hd4x": illegal move ...``; ``reason`` is the message
    without the line prefix.  ``line`` is ``None`` for games built in code.  ``file`` is the path
    when the reader opened the file itself (``read_game(Path("games.egn"))``), and then leads
    the message: ``games.egn: line 14: ...``.
    """

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        move: str | None = None,
        file: str | None = None,
    ) -> None:
        where = [file] if file is not None else []
        where += [f"line {line}"] if line is not None else []
        super().__init__(": ".join([*where, reason]))
        self.reason = reason
        self.line = line
        self.move = move
        self.file = file


class Headers(MutableMapping[str, str]):
    """The tag pairs of a game, kept in canonical order.

    The seven-tag roster (:data:`TAG_ROSTER`) comes first, then ``Variant``, ``Position`` and
    ``Termination``, then all other tags in the order they were set.  The roster and ``Variant``
    start with PGN-style defaults (``?``, ``????.??.??``, ``*``, ``9x9``).
    """

    def __init__(self, tags: Mapping[str, str] | None = None, **more: str) -> None:
        self._tags: dict[str, str] = dict(_DEFAULTS)
        self.update(tags or {}, **more)

    def __setitem__(self, name: str, value: str) -> None:
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name):
            raise RecordError(f"bad tag name {name!r}: use letters, digits and _")
        if not isinstance(value, str):
            raise RecordError(f"tag {name}: the value must be text, not {type(value).__name__}")
        if "\n" in value or "\r" in value:
            raise RecordError(f"tag {name}: the value must be one line")
        self._tags[name] = value

    def __getitem__(self, name: str) -> str:
        return self._tags[name]

    def __delitem__(self, name: str) -> None:
        del self._tags[name]

    def __iter__(self) -> Iterator[str]:
        yield from (name for name in _ORDER if name in self._tags)
        yield from (name for name in self._tags if name not in _ORDER)

    def __len__(self) -> int:
        return len(self._tags)

    def copy(self) -> Headers:
        return Headers(self)

    def __repr__(self) -> str:
        return f"Headers({', '.join(f'{k}={v!r}' for k, v in self.items())})"


def _number(ply: int, white_starts: bool) -> tuple[int, bool]:
    """Move number of a ply (0-based from the start) and whether White plays it."""
    offset = 0 if white_starts else 1  # a start with Black to move makes the first move 1...
    return (ply + offset) // 2 + 1, (ply + offset) % 2 == 0


def _label(ply: int, white_starts: bool) -> str:
    number, white = _number(ply, white_starts)
    return f"{number}." if white else f"{number}..."


def _short(text: str, width: int = 40) -> str:
    """A tag value or move text for a message, cut short when it is long."""
    return text if len(text) <= width else f"{text[:width]}... ({len(text)} characters)"


def _variant(text: str) -> str:
    variant = text.strip().lower()
    if variant not in VARIANTS:
        raise RecordError(f'unknown Variant "{text}": expected one of {", ".join(VARIANTS)} (R4)')
    return variant


def _start_board(variant: str | None, position: str | None) -> Board:
    """The start of a game from its ``Variant`` and ``Position`` tags (R4, R22)."""
    name = _variant(variant) if variant is not None else None
    if position is None:
        return Board(variant=name)
    try:
        return Board(position, variant=name)
    except InvalidPositionError as e:
        raise RecordError(f'bad Position "{_short(position)}": {e} (R22)') from None


def _is_initial(board: Board) -> bool:
    return board.position() == Board(variant=board.variant).position()


def _termination(text: str) -> Termination:
    key = "-".join(text.strip().lower().replace("_", " ").split())
    try:
        return Termination(key)
    except ValueError:
        known = ", ".join(t.value for t in Termination)
        raise RecordError(
            f'unknown Termination "{_short(text)}": expected one of {known}'
        ) from None


def _result(text: str) -> str:
    result = _RESULT_ALIASES.get(text.strip(), text.strip())
    if result not in RESULTS:
        raise RecordError(f'bad Result "{_short(text)}": expected 1-0, 0-1, 1/2-1/2 or * (R20)')
    return result


class _Conflict(ValueError):
    """The result of a record disagrees with its moves; ``tag`` says which part is wrong."""

    def __init__(self, message: str, tag: str) -> None:
        super().__init__(message)
        self.tag = tag


def _settle(headers: Headers, end: Board, token: str | None) -> tuple[str, str | None]:
    """The ``Result`` and ``Termination`` a record must carry, given its final position.

    A result the rules decide (R18, R19a, R19b) must be the one written; ``*`` is filled in.
    Other endings are the players' (R19c agreement, R20 resignation or time): the result stands,
    and a ``Termination`` tag, if any, must fit it.
    """
    result = _result(headers.get("Result", "*"))
    if token is not None and token != "*":
        if result == "*":
            result = token
        elif result != token:
            raise _Conflict(f'the result {token} contradicts [Result "{result}"]', "token")
    text = headers.get("Termination")
    termination = _termination(text) if text is not None else None
    outcome = end.outcome()
    if outcome is not None:
        if result == "*":
            result = outcome.result()
        elif result != outcome.result():
            raise _Conflict(
                f'Result "{result}" contradicts the final position: {outcome.reason()}, '
                f"so the result is {outcome.result()}",
                "Result",
            )
        if termination is not None and termination is not outcome.termination:
            raise _Conflict(
                f'Termination "{text}" contradicts the final position: {outcome.reason()}',
                "Termination",
            )
        return result, outcome.termination.value
    if termination is None:
        return result, None
    if termination in _RULE_ENDINGS:
        raise _Conflict(
            f'Termination "{text}" but the final position is not over by the rules (R18, R19)',
            "Termination",
        )
    if termination in _DECISIVE_ENDINGS and result not in ("1-0", "0-1"):
        raise _Conflict(
            f'Termination "{text}" needs a result of 1-0 or 0-1, not {result} (R20)', "Termination"
        )
    if termination is Termination.AGREEMENT and result != "1/2-1/2":
        raise _Conflict(
            f'Termination "{text}" needs the result 1/2-1/2, not {result} (R19c)', "Termination"
        )
    if termination is Termination.ABORTED and result != "*":
        raise _Conflict(f'Termination "{text}" needs the result *, not {result}', "Termination")
    if termination is Termination.ABANDONED and result == "*":
        raise _Conflict(
            f'Termination "{text}" needs a result of 1-0, 0-1 or 1/2-1/2, not * (R20)',
            "Termination",
        )
    return result, termination.value


def _ended(ply: int, white_starts: bool, text: str, outcome: Outcome) -> str:
    return (
        f'move {_label(ply, white_starts)} "{_short(text)}" is played after the game ended: '
        f"{outcome.reason()}"
    )


class Game:
    """One game: tag pairs, the moves from the start position, and comments.

    ``comments[0]`` is the comment before the first move, ``comments[n]`` the one after the
    n-th move; ``marks[n]`` is the n-th move's mark (one of :data:`MARKS`, written after the
    move: ``e5!?``).  ``errors`` holds what went wrong when the game was read with
    ``errors="collect"`` (the moves then stop before the first bad one).

    >>> game = Game(White="Ann", Black="Bob")
    >>> str(game.add_move("D7"))
    'd7'
    >>> str(game.add_move("e1", comment="the edge"))
    'e1'
    >>> game.end().position()
    'w 11/11 d7:w e1:b'
    >>> print(game)  # doctest: +ELLIPSIS
    [Event "?"]
    ...
    [White "Ann"]
    [Black "Bob"]
    [Result "*"]
    [Variant "9x9"]
    <BLANKLINE>
    1. d7 e1 {the edge} *
    <BLANKLINE>
    """

    def __init__(self, headers: Mapping[str, str] | None = None, **tags: str) -> None:
        self.headers = Headers(headers, **tags)
        self.moves: list[Move] = []
        self.comments: dict[int, str] = {}
        self.marks: dict[int, str] = {}
        self.errors: list[RecordError] = []
        self._cache: tuple[tuple[str | None, str | None], Board] | None = None

    @classmethod
    def from_board(cls, board: Board, **tags: str) -> Game:
        """The game a board's move stack records, from its root position; tags as keywords."""
        game = cls()
        start = board.root()
        game.headers["Variant"] = start.variant
        if not _is_initial(start):
            game.headers["Position"] = start.position()
        game.moves = list(board.move_stack)
        outcome = board.outcome()
        if outcome is not None:
            game.headers["Result"] = outcome.result()
            game.headers["Termination"] = outcome.termination.value
        game.headers.update(tags)
        return game

    def board(self) -> Board:
        """A new board at the start position (``Variant`` and ``Position`` tags)."""
        return _start_board(self.headers.get("Variant"), self.headers.get("Position"))

    def _end(self) -> Board:
        """The cached board after all moves; played again from the start only when needed."""
        key = (self.headers.get("Variant"), self.headers.get("Position"))
        board: Board | None = None
        if self._cache is not None and self._cache[0] == key:
            board = self._cache[1]
            done = len(board.move_stack)
            if board.move_stack != self.moves[:done]:
                board = None
        if board is None:
            board = self.board()
        white_starts = board.root().turn if board.move_stack else board.turn
        for ply in range(len(board.move_stack), len(self.moves)):
            move = self.moves[ply]
            outcome = board.outcome()
            if outcome is not None:
                raise RecordError(_ended(ply, white_starts, str(move), outcome), move=str(move))
            if not isinstance(move, Move) or not board.is_legal(move):
                reason = board.explain(move) if isinstance(move, Move) else "it is not a Move"
                raise RecordError(
                    f'move {_label(ply, white_starts)} "{move}": illegal move: {reason}',
                    move=str(move),
                )
            board.push(move)
        self._cache = (key, board)
        return board

    def end(self) -> Board:
        """A new board after all moves, with the move stack (so repetitions are known, R19b)."""
        return self._end().copy()

    def add_move(
        self, move: Move | str, *, comment: str | None = None, names: Names = "oblique"
    ) -> Move:
        """Play a move (a :class:`Move` or any text ``Board.parse_move`` accepts) at the end.

        An illegal move raises and changes nothing.  When the rules end the game with this
        move, ``Result`` and ``Termination`` are set from :meth:`Board.outcome`.
        """
        check_names(names)
        board = self._end()
        outcome = board.outcome()
        if outcome is not None:
            white_starts = board.root().turn if board.move_stack else board.turn
            raise RecordError(_ended(len(self.moves), white_starts, str(move), outcome))
        if isinstance(move, str):
            move = board.parse_move(move, names)
        board.push(move)
        self.moves.append(move)
        if comment:
            self.comments[len(self.moves)] = comment
        outcome = board.outcome()
        if outcome is not None:
            self.headers["Result"] = outcome.result()
            self.headers["Termination"] = outcome.termination.value
        return move

    @property
    def variant(self) -> str:
        return self._end().variant

    @property
    def termination(self) -> Termination | None:
        """How the game ended: the ``Termination`` tag, else the rules' ending, else ``None``."""
        text = self.headers.get("Termination")
        if text is not None:
            return _termination(text)
        outcome = self._end().outcome()
        return outcome.termination if outcome is not None else None

    def outcome(self) -> Outcome | None:
        """The end of the game: by the rules (R18, R19), else as recorded (R19c, R20)."""
        outcome = self._end().outcome()
        if outcome is not None:
            return outcome
        termination = self.termination
        result = self.headers.get("Result", "*")
        if termination is Termination.ABORTED:
            return Outcome(termination, None)
        if termination is None or result == "*":
            return None
        return Outcome(termination, None if result == "1/2-1/2" else result == "1-0")

    def __str__(self) -> str:
        return write_game(self)

    def __repr__(self) -> str:
        h = self.headers
        return (
            f"<Game {h.get('White', '?')} vs {h.get('Black', '?')}, "
            f"{len(self.moves)} plies, {h.get('Result', '*')}>"
        )


# --- writing ----------------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_tokens(ply: int, text: str) -> list[str]:
    if "}" in text:
        raise RecordError(f"the comment after ply {ply} contains a }}, which cannot be written")
    words = text.split()
    if not words:
        return []
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def write_game(game: Game, *, names: Names = "oblique") -> str:
    """The canonical text of a game, ending with a newline.

    Tags in canonical order (``Variant`` always, ``Position`` when the game does not start from
    the empty board), a blank line, the movetext wrapped at 80 columns and the result token.
    ``names="checker"`` writes R3 checkerboard names and adds ``[Names "checker"]`` (the hex board
    has none: :class:`~emergo.errors.NamingError`).
    Raises :class:`RecordError` if the moves are illegal or the result contradicts them.
    """
    check_names(names)
    end = game._end()
    start = end.root()
    start.geometry.check_naming(names)  # NamingError: no checkerboard names on hex (R3, R4)
    try:
        result, termination = _settle(game.headers, end, None)
    except _Conflict as e:
        raise RecordError(str(e)) from None
    headers = game.headers.copy()
    headers.pop("Names", None)
    headers["Result"] = result
    headers["Variant"] = start.variant
    headers.pop("Position", None)
    if not _is_initial(start):
        headers["Position"] = start.position()
    if termination is not None:
        headers["Termination"] = termination
    if names != "oblique":
        headers["Names"] = names
    lines = [f'[{name} "{_escape(value)}"]' for name, value in headers.items()]
    lines.append("")

    tokens: list[str] = []
    extra = [ply for ply in game.comments if not 0 <= ply <= len(game.moves)]
    if extra:
        raise RecordError(f"comment after ply {extra[0]}, but the game has {len(game.moves)}")
    for ply, mark in game.marks.items():
        if not 1 <= ply <= len(game.moves):
            raise RecordError(f"mark of ply {ply}, but the game has {len(game.moves)}")
        if mark not in MARKS:
            raise RecordError(f"mark {mark!r} of ply {ply}: a mark is one of {' '.join(MARKS)}")
    tokens += _comment_tokens(0, game.comments.get(0, ""))
    resume = True  # a number is due before Black's move: at the start and after a comment
    for ply, move in enumerate(game.moves):
        number, white = _number(ply, start.turn)
        text = start.move_text(move, names) + game.marks.get(ply + 1, "")
        # A move number stays on the line of its move.
        if white:
            text = f"{number}. {text}"
        elif resume:
            text = f"{number}... {text}"
        tokens.append(text)
        comment = _comment_tokens(ply + 1, game.comments.get(ply + 1, ""))
        tokens += comment
        resume = bool(comment)
    tokens.append(result)

    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > _WIDTH:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines) + "\n"


def write_games(games: Iterable[Game], handle: _Writable, *, names: Names = "oblique") -> int:
    """Write games to a text stream, a blank line between them; returns how many."""
    count = 0
    for game in games:
        text = write_game(game, names=names)
        handle.write("\n" + text if count else text)
        count += 1
    return count


# --- reading ----------------------------------------------------------------------------------


class _Readable(Protocol):
    def readline(self) -> str: ...


class _Writable(Protocol):
    def write(self, text: str, /) -> int: ...


_INPUT: TypeAlias = "_Readable | str | os.PathLike[str]"
_BINARY = (
    "{what}() needs a text stream, not a binary one: open the file with "
    "open(path, encoding='utf-8'), or pass a pathlib.Path"
)


def _stream(source: object, what: str) -> _Readable:
    """``source`` when it is a text stream; a ``TypeError`` saying what to pass instead."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"{what}() reads text, not bytes: decode them (bytes.decode('utf-8')) or pass a "
            "pathlib.Path"
        )
    mode = getattr(source, "mode", "")
    if isinstance(source, (io.RawIOBase, io.BufferedIOBase)) or (
        isinstance(mode, str) and "b" in mode
    ):
        raise TypeError(_BINARY.format(what=what))
    if not callable(getattr(source, "readline", None)):
        raise TypeError(
            f"{what}() takes record text (a str), a path (pathlib.Path) or a text stream, "
            f"not {type(source).__name__}"
        )
    return source  # type: ignore[return-value]


@contextmanager
def _opened(source: _INPUT, what: str) -> Iterator[tuple[_Readable, str | None]]:
    """The text stream to read ``source`` from, and the path when the reader opens the file.

    A ``str`` is record text and an ``os.PathLike`` (``pathlib.Path``) a path, which is opened
    as UTF-8 text and closed again; anything else must be a text stream.
    """
    if isinstance(source, str):
        if "\n" not in source and source.strip() and os.path.isfile(source):
            raise TypeError(
                f"{what}() reads a str as record text, and {excerpt(source)} is the name of a "
                f"file: pass pathlib.Path({source!r}) to read the file"
            )
        yield io.StringIO(source), None
    elif isinstance(source, os.PathLike):
        path = os.fsdecode(source)
        with open(path, encoding="utf-8") as handle:
            yield handle, path
    else:
        yield _stream(source, what), None


def _bad_utf8(path: str) -> tuple[int, int] | None:
    """The line (counted as text mode counts it) and the value of the first byte not UTF-8."""
    line = 1
    with open(path, "rb") as f:
        for raw in f:  # UTF-8 never uses the byte of "\n" inside a character
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as e:
                head = raw[: e.start]
                return line + head.count(b"\r") - head.count(b"\r\n"), raw[e.start]
            line += 1 + raw.count(b"\r") - raw.count(b"\r\n")
    return None


def _not_utf8(error: UnicodeDecodeError, line: int, file: str | None) -> RecordError:
    if file is not None:
        found = _bad_utf8(file)
        if found is not None:
            return RecordError(
                f"the file is not UTF-8 text: byte 0x{found[1]:02x} cannot be decoded",
                line=found[0],
                file=file,
            )
    return RecordError(
        f"the text after line {line} cannot be decoded ({error.reason}): "
        "records are UTF-8 text, so open the file with encoding='utf-8'",
        file=file,
    )


class _Place:
    """Where reading a stream has got to: the lines read so far and one line of push-back.

    It holds no reference to its stream, so that the table below never keeps a stream alive.
    """

    __slots__ = ("line", "pending")

    def __init__(self) -> None:
        self.line = 0
        self.pending: str | None = None


# One place per stream, so that line numbers and a pushed-back line survive between calls.
_PLACES: weakref.WeakKeyDictionary[object, _Place] = weakref.WeakKeyDictionary()


class _Source:
    """A text stream read line by line, counting lines, with one line of push-back."""

    def __init__(self, handle: _Readable, file: str | None) -> None:
        self.handle = handle
        self.file = file
        try:
            place = _PLACES.get(handle)
            if place is None:
                place = _PLACES[handle] = _Place()
        except TypeError:  # a stream that cannot be weakly referenced: count from here
            place = _Place()
        self.place = place

    @property
    def line(self) -> int:
        return self.place.line

    def readline(self) -> str | None:
        place = self.place
        if place.pending is not None:
            text, place.pending = place.pending, None
        else:
            try:
                text = self.handle.readline()
            except UnicodeDecodeError as e:
                raise _not_utf8(e, place.line, self.file) from None
            if not isinstance(text, str):
                raise TypeError(_BINARY.format(what="reading a record"))
            if not text:
                return None
            if place.line == 0:
                text = text.removeprefix("\ufeff")
        place.line += 1
        return text

    def unread(self, text: str) -> None:
        self.place.pending = text
        self.place.line -= 1


class _Parser:
    """The state of reading one game: tags, then movetext tokens as they come."""

    def __init__(self, names: Names, build: bool, file: str | None = None) -> None:
        self.names: Names = names
        self.build = build
        self.file = file
        self.game = Game()
        self.tags: list[tuple[str, str, int]] = []
        self.tag_lines: dict[str, int] = {}
        self.board: Board | None = None
        self.white_starts = True
        self.comment: list[str] | None = None  # inside a {comment}: its text so far
        self.comments: dict[int, list[str]] = {}  # by ply; joined once at the end (linear)
        self.comment_line = 0
        self.held: tuple[str, int] | None = None  # a move text that may go on in the next token
        self.join_next = False
        self.token: tuple[str, int] | None = None  # the result token and its line
        self.last_line = 0

    @property
    def broken(self) -> bool:
        return bool(self.game.errors)

    def error(self, reason: str, line: int, move: str | None = None) -> None:
        self.game.errors.append(RecordError(reason, line=line, move=move, file=self.file))

    # --- tags -----------------------------------------------------------------------------------

    def tag_line(self, text: str, line: int) -> None:
        text = text.strip()
        pos = 0
        while pos < len(text):
            m = _TAG.match(text, pos)
            if m is None:
                self.error(f'bad tag pair {excerpt(text[pos:])}: expected [Name "value"]', line)
                return
            name, value = m.group(1), _UNESCAPE.sub(r"\1", m.group(2))
            if "\r" in value or "\n" in value:  # a stream that splits lines at "\n" only
                self.error(
                    f"tag {_short(name)}: the value must be one line, not {excerpt(value)}", line
                )
            elif name in self.tag_lines:
                self.error(
                    f"tag {_short(name)} is given twice (first on line {self.tag_lines[name]})",
                    line,
                )
            else:
                self.tags.append((name, value, line))
                self.tag_lines[name] = line
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1

    def setup(self) -> None:
        """Check the tags and set up the start position (R4, R22)."""
        headers = self.game.headers
        if not self.build:
            for name, value, _ in self.tags:
                headers[name] = value
            return
        for name, value, line in self.tags:
            try:
                if name == "Names":
                    if value.strip().lower() not in NAMINGS:
                        raise RecordError(f'unknown Names "{value}": expected oblique or checker')
                    self.names = "checker" if value.strip().lower() == "checker" else "oblique"
                    continue
                if name == "Result":
                    value = _result(value)
                elif name == "Termination":
                    value = _termination(value).value
                elif name == "Variant":
                    value = _variant(value)
                headers[name] = value
            except RecordError as e:
                self.error(e.reason, line)
        if self.broken:
            return
        if "Variant" not in self.tag_lines:
            del headers["Variant"]  # let a Position tag's prefix name the variant
        try:
            board = _start_board(headers.get("Variant"), headers.get("Position"))
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
        if not _is_initial(board):
            headers["Position"] = board.position()
        self.board = board
        self.white_starts = board.turn

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
            self.comment.append(text[:close])
            self.add_comment(" ".join(self.comment))
            self.comment = None
            pos = close + 1
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            assert m is not None  # the move alternative matches any other character
            kind, token = m.lastgroup, m.group()
            pos = m.end()
            if kind == "space":
                continue
            if kind == "move":
                self.move_token(token, line)
                continue
            self.flush()
            if kind == "open":
                close = text.find("}", pos)
                if close < 0:
                    self.comment, self.comment_line = [text[pos:]], line
                    return False
                self.add_comment(text[pos:close])
                pos = close + 1
            elif kind == "semi":
                return False  # the rest of the line is a remark, not part of the game
            elif kind == "result":
                self.token = (_RESULT_ALIASES.get(token, token), line)
                rest = text[pos:].strip()
                if rest and not rest.startswith(";"):
                    self.error(f"unexpected text after the result {token}: {excerpt(rest)}", line)
                return True
            elif kind == "bad":
                what = "variations are not supported" if token in "()" else "unexpected"
                self.error(f"{what}: {token!r}", line)
            elif kind == "nag":
                self.add_nag(token)
            # move numbers are not needed to replay a game
        return False

    def move_token(self, token: str, line: int) -> None:
        # Some sources space out a move ("h4 x f4", "e4 - e5"): glue separators to the move.
        standalone = all(c in _SEPARATORS for c in token.lower())
        if self.held is not None and (self.join_next or token[0].lower() in _SEPARATORS):
            if len(self.held[0]) <= MAX_MOVE_TEXT:  # past it the move is refused: stop growing
                self.held = (self.held[0] + token, self.held[1])
        else:
            self.flush()
            self.held = (token, line)
        self.join_next = standalone or token[-1] in "-:"

    def flush(self) -> None:
        if self.held is None:
            return
        text, line = self.held
        self.held, self.join_next = None, False
        board = self.board
        if board is None or self.broken:
            return
        ply = len(self.game.moves)
        outcome = board.outcome()
        if outcome is not None:
            self.error(_ended(ply, self.white_starts, text, outcome), line, text)
            return
        try:
            move = board.parse_move(text, self.names)
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as e:
            label = _label(ply, self.white_starts)
            self.error(f'move {label} "{_short(text)}": {e}', line, text)
            return
        board.push(move)
        self.game.moves.append(move)
        mark = _MARK_SUFFIX.search(text)
        if mark is not None and mark.group() in MARKS:  # the parser read the move without it
            self.game.marks[len(self.game.moves)] = mark.group()

    def add_nag(self, token: str) -> None:
        """A NAG after a move: $1-$6 are its mark (!, ?, !!, ??, !?, ?!); others are skipped."""
        mark = _NAG_MARKS.get(int(token[1:])) if len(token) < 6 else None
        if mark is not None and self.game.moves and not self.broken:
            self.game.marks[len(self.game.moves)] = mark

    def add_comment(self, text: str) -> None:
        text = " ".join(text.split())  # whitespace is not kept, so wrapping cannot change it
        if not text or self.broken or not self.build:
            return
        self.comments.setdefault(len(self.game.moves), []).append(text)

    def finish(self) -> None:
        self.flush()
        for ply, parts in self.comments.items():
            self.game.comments[ply] = " ".join(parts)
        if self.comment is not None:
            self.error(
                f"unterminated comment: the {{ on line {self.comment_line} is never closed",
                self.comment_line,
            )
        if not self.build or self.broken or self.board is None:
            return
        game = self.game
        token = self.token[0] if self.token else None
        try:
            result, termination = _settle(game.headers, self.board, token)
        except _Conflict as e:
            # Blame the result token when it says something, else the Result tag.
            told = self.token[1] if self.token and self.token[0] != "*" else None
            lines = {
                "token": told,
                "Result": told or self.tag_lines.get("Result"),
                "Termination": self.tag_lines.get("Termination"),
            }
            self.error(str(e), lines[e.tag] or self.last_line)
            return
        game.headers["Result"] = result
        if termination is not None:
            game.headers["Termination"] = termination
        game._cache = ((game.headers.get("Variant"), game.headers.get("Position")), self.board)


def _read(handle: _Readable, file: str | None, names: Names, build: bool) -> Game | None:
    source = _Source(handle, file)
    text = source.readline()
    while text is not None and (text.startswith("%") or not text.strip()):
        text = source.readline()
    if text is None:
        return None
    parser = _Parser(names, build, file)
    parser.last_line = source.line
    # The tag pairs: consecutive lines starting with "[" (and % escape lines).
    while text is not None and (text.startswith("%") or text.lstrip().startswith("[")):
        if not text.startswith("%"):
            parser.tag_line(text, source.line)
            parser.last_line = source.line
        text = source.readline()
    parser.setup()
    # The movetext: up to the result token, the next game's tags or the end of the stream.
    while text is not None:
        if parser.comment is None and text.startswith("%"):
            pass
        elif parser.comment is None and text.lstrip().startswith("["):
            source.unread(text)
            break
        elif parser.scan(text, source.line):
            break
        text = source.readline()
    parser.finish()
    return parser.game


def _check_mode(names: Names, errors: ErrorMode) -> None:
    check_names(names)
    if errors not in ("raise", "collect"):
        raise InvalidOptionError(f'errors must be "raise" or "collect", not {errors!r}')


def _next_game(handle: _Readable, file: str | None, names: Names, errors: ErrorMode) -> Game | None:
    game = _read(handle, file, names, build=True)
    if game is not None and game.errors and errors == "raise":
        raise game.errors[0]
    return game


def read_game(
    source: _INPUT, *, names: Names = "oblique", errors: ErrorMode = "raise"
) -> Game | None:
    """The next game of a text stream, or ``None`` at its end.

    ``source`` is a text stream, a ``str`` of record text (its first game is read) or a path
    (``pathlib.Path`` or any ``os.PathLike``: the file is read as UTF-8, its first game, and
    closed; errors then name the file).  A binary stream or ``bytes`` raise ``TypeError``;
    text that is not UTF-8 raises :class:`RecordError` with the line, whatever ``errors`` says.

    The stream is read line by line, only as far as this game goes.  With ``errors="raise"``
    the first problem raises :class:`RecordError` (after the broken game has been read, so the
    next call reads the next game); with ``errors="collect"`` the game is returned with its
    moves up to the problem and the problems in ``game.errors``.  ``names`` is the square naming
    of games without a ``Names`` tag.  Line numbers count from the first line this module read
    from the stream.
    """
    _check_mode(names, errors)
    with _opened(source, "read_game") as (handle, file):
        return _next_game(handle, file, names, errors)


def read_games(
    source: _INPUT, *, names: Names = "oblique", errors: ErrorMode = "raise"
) -> Iterator[Game]:
    """Every game of a text stream, record text or file in turn, read lazily (see
    :func:`read_game`).  A file given by path stays open until the iterator is finished."""
    _check_mode(names, errors)
    if not isinstance(source, (str, os.PathLike)):
        _stream(source, "read_games")  # a wrong type fails here, not at the first game
    return _games(source, names, errors)


def _games(source: _INPUT, names: Names, errors: ErrorMode) -> Iterator[Game]:
    with _opened(source, "read_games") as (handle, file):
        while (game := _next_game(handle, file, names, errors)) is not None:
            yield game


def read_headers(source: _INPUT) -> Headers | None:
    """The tags of the next game, as written, skipping its movetext unplayed; ``None`` at the end.

    Only the syntax is checked (tag pairs, comments), which makes scanning a large file cheap.
    ``source`` is what :func:`read_game` takes.
    """
    with _opened(source, "read_headers") as (handle, file):
        game = _read(handle, file, "oblique", build=False)
    if game is None:
        return None
    if game.errors:
        raise game.errors[0]
    return game.headers
