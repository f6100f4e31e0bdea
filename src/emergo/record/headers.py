"""The tag pairs of a record, its errors, and what its result must be (R18-R20).

:class:`Headers` keeps the tags in canonical order; :func:`settle` decides the ``Result`` and
``Termination`` a record carries given its final position; :func:`written_headers` is the tag
section :func:`~emergo.record.write_game` writes for a game.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, MutableMapping

from emergo.board import Board, Outcome, Termination
from emergo.errors import InvalidPositionError
from emergo.geometry import DEFAULT_VARIANT, VARIANTS, Names

TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""The seven tags every written record carries, in this order (as in PGN)."""

DEFAULTS = {
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
ORDER = (*TAG_ROSTER, "Variant", "Position", "Termination")

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""Result values (R20): White's score first; ``*`` while unknown or unfinished."""
RESULT_ALIASES = {"½-½": "1/2-1/2"}

# Endings the rules decide (Board.outcome) and endings only players decide (R19c, R20).
RULE_ENDINGS = (Termination.NO_PIECES, Termination.BLOCKED, Termination.REPETITION)
DECISIVE_ENDINGS = (Termination.RESIGNATION, Termination.TIME_FORFEIT)

TAG_NAME = re.compile(r"[A-Za-z0-9_]+")


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
        self._tags: dict[str, str] = dict(DEFAULTS)
        self.update(tags or {}, **more)

    def __setitem__(self, name: str, value: str) -> None:
        if not isinstance(name, str) or not TAG_NAME.fullmatch(name):
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
        yield from (name for name in ORDER if name in self._tags)
        yield from (name for name in self._tags if name not in ORDER)

    def __len__(self) -> int:
        return len(self._tags)

    def copy(self) -> Headers:
        return Headers(self)

    def __repr__(self) -> str:
        return f"Headers({', '.join(f'{k}={v!r}' for k, v in self.items())})"


def number(ply: int, white_starts: bool) -> tuple[int, bool]:
    """Move number of a ply (0-based from the start) and whether White plays it."""
    offset = 0 if white_starts else 1  # a start with Black to move makes the first move 1...
    return (ply + offset) // 2 + 1, (ply + offset) % 2 == 0


def label(ply: int, white_starts: bool) -> str:
    """``12.`` or ``12...``: the move number of a ply (0-based) as a record writes it."""
    n, white = number(ply, white_starts)
    return f"{n}." if white else f"{n}..."


def short(text: str, width: int = 40) -> str:
    """A tag value or move text for a message, cut short when it is long."""
    return text if len(text) <= width else f"{text[:width]}... ({len(text)} characters)"


def variant_of(text: str) -> str:
    variant = text.strip().lower()
    if variant not in VARIANTS:
        raise RecordError(f'unknown Variant "{text}": expected one of {", ".join(VARIANTS)} (R4)')
    return variant


def start_board(variant: str | None, position: str | None) -> Board:
    """The start of a game from its ``Variant`` and ``Position`` tags (R4, R22)."""
    name = variant_of(variant) if variant is not None else None
    if position is None:
        return Board(variant=name)
    try:
        return Board(position, variant=name)
    except InvalidPositionError as e:
        raise RecordError(f'bad Position "{short(position)}": {e} (R22)') from None


def is_initial(board: Board) -> bool:
    return board.position() == Board(variant=board.variant).position()


def termination_of(text: str) -> Termination:
    key = "-".join(text.strip().lower().replace("_", " ").split())
    try:
        return Termination(key)
    except ValueError:
        known = ", ".join(t.value for t in Termination)
        raise RecordError(f'unknown Termination "{short(text)}": expected one of {known}') from None


def result_of(text: str) -> str:
    result = RESULT_ALIASES.get(text.strip(), text.strip())
    if result not in RESULTS:
        raise RecordError(f'bad Result "{short(text)}": expected 1-0, 0-1, 1/2-1/2 or * (R20)')
    return result


class Conflict(ValueError):
    """The result of a record disagrees with its moves; ``tag`` says which part is wrong."""

    def __init__(self, message: str, tag: str) -> None:
        super().__init__(message)
        self.tag = tag


def settle(headers: Mapping[str, str], end: Board, token: str | None) -> tuple[str, str | None]:
    """The ``Result`` and ``Termination`` a record must carry, given its final position.

    A result the rules decide (R18, R19a, R19b) must be the one written; ``*`` is filled in.
    Other endings are the players' (R19c agreement, R20 resignation or time): the result stands,
    and a ``Termination`` tag, if any, must fit it.  Raises :class:`Conflict`.
    """
    result = result_of(headers.get("Result", "*"))
    if token is not None and token != "*":
        if result == "*":
            result = token
        elif result != token:
            raise Conflict(f'the result {token} contradicts [Result "{result}"]', "token")
    text = headers.get("Termination")
    termination = termination_of(text) if text is not None else None
    outcome = end.outcome()
    if outcome is not None:
        if result == "*":
            result = outcome.result()
        elif result != outcome.result():
            raise Conflict(
                f'Result "{result}" contradicts the final position: {outcome.reason()}, '
                f"so the result is {outcome.result()}",
                "Result",
            )
        if termination is not None and termination is not outcome.termination:
            raise Conflict(
                f'Termination "{text}" contradicts the final position: {outcome.reason()}',
                "Termination",
            )
        return result, outcome.termination.value
    if termination is None:
        return result, None
    if termination in RULE_ENDINGS:
        raise Conflict(
            f'Termination "{text}" but the final position is not over by the rules (R18, R19)',
            "Termination",
        )
    if termination in DECISIVE_ENDINGS and result not in ("1-0", "0-1"):
        raise Conflict(
            f'Termination "{text}" needs a result of 1-0 or 0-1, not {result} (R20)', "Termination"
        )
    if termination is Termination.AGREEMENT and result != "1/2-1/2":
        raise Conflict(
            f'Termination "{text}" needs the result 1/2-1/2, not {result} (R19c)', "Termination"
        )
    if termination is Termination.ABORTED and result != "*":
        raise Conflict(f'Termination "{text}" needs the result *, not {result}', "Termination")
    if termination is Termination.ABANDONED and result == "*":
        raise Conflict(
            f'Termination "{text}" needs a result of 1-0, 0-1 or 1/2-1/2, not * (R20)',
            "Termination",
        )
    return result, termination.value


def recorded_outcome(headers: Mapping[str, str], end: Board) -> Outcome | None:
    """The end of a game: by the rules (R18, R19), else as its tags record it (R19c, R20)."""
    outcome = end.outcome()
    if outcome is not None:
        return outcome
    text = headers.get("Termination")
    termination = termination_of(text) if text is not None else None
    result = headers.get("Result", "*")
    if termination is Termination.ABORTED:
        return Outcome(termination, None)
    if termination is None or result == "*":
        return None
    return Outcome(termination, None if result == "1/2-1/2" else result == "1-0")


def ended(ply: int, white_starts: bool, text: str, outcome: Outcome) -> str:
    return (
        f'move {label(ply, white_starts)} "{short(text)}" is played after the game ended: '
        f"{outcome.reason()}"
    )


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def written_headers(
    headers: Headers, start: Board, result: str, termination: str | None, names: Names
) -> dict[str, str]:
    """The tags a record of the game writes, in order: ``Variant`` always, ``Position`` when the
    game does not start from the empty board (canonical R22), the settled ``Result`` and
    ``Termination``, and ``Names`` last when the movetext uses checkerboard names."""
    tags = headers.copy()
    tags.pop("Names", None)
    tags["Result"] = result
    tags["Variant"] = start.variant
    tags.pop("Position", None)
    if not is_initial(start):
        tags["Position"] = start.position()
    if termination is not None:
        tags["Termination"] = termination
    if names != "oblique":
        tags["Names"] = names
    return dict(tags)
