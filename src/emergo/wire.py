"""The engine protocol's codec (docs/engine-protocol.md), shared by the engine and its client.

Lines are a command word followed by ``key=value`` pairs or bare flags; a value
holding spaces is double-quoted.  This module reads and writes such lines,
turns search limits into ``go`` fields and back, and describes the options an
engine declares (:class:`Option`).  The engine's session is :mod:`emergo.protocol`,
the client :mod:`emergo.engine`; neither imports the other.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from emergo.search import DEPTH_MAX as DEPTH_MAX
from emergo.search import MOVES_TO_GO_MAX as MOVES_TO_GO_MAX
from emergo.search import MULTIPV_MAX as MULTIPV_MAX
from emergo.search import NODES_MAX as NODES_MAX
from emergo.search import SECONDS_MAX as SECONDS_MAX
from emergo.search import Limit

_SPECIAL = set(' \t"\\=')


_TOKEN = re.compile(r'(?:"(?:[^"\\]++|\\.|\\$)*+"?|[^ \t\r\n"]++)++', re.S)
"""A token: unquoted characters and quoted parts (possessive: no backtracking, linear time)."""


def _unquoted(token: str) -> str:
    """A token with its quotes removed and the escapes inside them resolved."""
    if '"' not in token:
        return token
    if "\\" not in token:
        return token.replace('"', "")
    out: list[str] = []
    i, n = 0, len(token)
    while i < n:
        if token[i] != '"':
            out.append(token[i])
            i += 1
            continue
        i += 1
        while i < n and token[i] != '"':
            if token[i] == "\\" and i + 1 < n:
                i += 1
            out.append(token[i])
            i += 1
        i += 1  # the closing quote
    return "".join(out)


def split_line(line: str) -> list[str]:
    """The tokens of a line: words, ``key=value`` and ``key="quoted value"`` (quotes removed).

    Inside quotes ``\\"`` is a quote and ``\\\\`` a backslash; an unterminated quote
    runs to the end of the line.  The engine splits every line it is sent, so this takes
    linear time with a small constant (a line of megabytes: a fraction of a second).

    >>> split_line('pos pos="b 11/12 d4:w" moves="e5 \\\\"x\\\\"" flag')
    ['pos', 'pos=b 11/12 d4:w', 'moves=e5 "x"', 'flag']
    """
    return [_unquoted(token) for token in _TOKEN.findall(line)]


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``(command, args)``: ``key=value`` pairs, and bare words as keys with the value ``""``.

    >>> parse_line('pos pos="b 11/12 d4:w" moves="e5 f4"')
    ('pos', {'pos': 'b 11/12 d4:w', 'moves': 'e5 f4'})
    >>> parse_line("go depth=3 infinite")
    ('go', {'depth': '3', 'infinite': ''})
    """
    tokens = split_line(line)
    if not tokens:
        return "", {}
    args: dict[str, str] = {}
    for token in tokens[1:]:
        key, _, value = token.partition("=")
        args[key.lower()] = value
    return tokens[0].lower(), args


def quote(value: str) -> str:
    """A value as it must be written: bare when it can be, else double-quoted."""
    if value and not _SPECIAL.intersection(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


Field = tuple[str, object]


def format_line(command: str, fields: Iterable[Field] = ()) -> str:
    """A command line: ``None`` and ``False`` values are left out, ``True`` is a bare flag.

    >>> format_line("info", [("depth", 3), ("pv", "d4 e5"), ("infinite", True), ("x", None)])
    'info depth=3 pv="d4 e5" infinite'
    """
    parts = [command]
    for key, value in fields:
        if value is None or value is False:
            continue
        if value is True:
            parts.append(key)
        elif isinstance(value, float):
            parts.append(f"{key}={value:.3f}")
        else:
            parts.append(f"{key}={quote(str(value))}")
    return " ".join(parts)


def format_seconds(seconds: float) -> str:
    """Seconds with at most millisecond precision and no trailing zeros: ``1.5``, ``0.25``."""
    text = f"{seconds:.3f}".rstrip("0").rstrip(".")
    return text or "0"


class ProtocolError(ValueError):
    """A command the engine understood but cannot carry out; its message goes in ``error``."""


# --- the bounds of the numbers a search is given ----------------------------------------------
# One set, used by the protocol (``go``, ``level``, the options) and by the command line
# (``emergo analyse --depth``, ``emergo-engine``): what one accepts, the other does.  Those of
# a search limit are emergo.search's (Limit checks them), re-exported here.

SEED_MAX = 2**31 - 1
"""Random seeds are 0..SEED_MAX."""

_SHOWN = 24  # characters of a bad value quoted in a message


def shown(text: str) -> str:
    """A value for an error message: quoted, and cut short when long."""
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "...")


def int_field(
    args: Mapping[str, str], key: str, minimum: int = 1, maximum: int | None = None
) -> int | None:
    """The whole number of field ``key`` (``None`` when absent); ProtocolError when bad.

    >>> int_field({"nodes": "18446744073709551617"}, "nodes", 1, NODES_MAX)
    Traceback (most recent call last):
    ...
    emergo.wire.ProtocolError: nodes=18446744073709551617 must be in 1..1000000000000000
    """
    if key not in args:
        return None
    text = args[key].strip()
    try:
        if len(text) > 40:  # no number we take is this long (and int() of a huge text is slow)
            raise ValueError
        value = int(text)
    except ValueError:
        raise ProtocolError(f"{key}={shown(args[key])} is not a whole number") from None
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"in {minimum}..{maximum}" if maximum is not None else f"at least {minimum}"
        raise ProtocolError(f"{key}={value} must be {bound}")
    return value


def seconds_field(args: Mapping[str, str], key: str, maximum: float = SECONDS_MAX) -> float | None:
    """The seconds of field ``key`` (``None`` when absent); ProtocolError when bad."""
    if key not in args:
        return None
    try:
        value = float(args[key][:40])
    except ValueError:
        raise ProtocolError(f"{key}={shown(args[key])} is not a number of seconds") from None
    if not 0 <= value <= maximum:  # nan and inf fail too
        raise ProtocolError(
            f"{key}={shown(args[key])} must be a number of seconds in 0..{maximum:g}"
        )
    return value


LIMIT_KEYS = (
    "depth",
    "nodes",
    "move-time",
    "time",
    "inc",
    "wtime",
    "btime",
    "winc",
    "binc",
    "moves-to-go",
    "infinite",
    "analyse",
    "analyze",
)


def limit_from_args(args: Mapping[str, str], white_to_move: bool) -> Limit | None:
    """The limit a ``go`` or ``level`` line sets, or ``None`` when it names none.

    ``time``/``inc`` are the clock of the player to move; ``wtime``/``btime`` and
    ``winc``/``binc`` name the clocks by colour.
    """
    if not any(k in args for k in LIMIT_KEYS):
        return None
    clock, inc = seconds_field(args, "time"), seconds_field(args, "inc")
    wtime, btime = seconds_field(args, "wtime"), seconds_field(args, "btime")
    winc, binc = seconds_field(args, "winc"), seconds_field(args, "binc")
    if white_to_move:
        wtime, winc = (clock if clock is not None else wtime), (inc if inc is not None else winc)
    else:
        btime, binc = (clock if clock is not None else btime), (inc if inc is not None else binc)
    return Limit(
        depth=int_field(args, "depth", 1, DEPTH_MAX),
        nodes=int_field(args, "nodes", 1, NODES_MAX),
        time=seconds_field(args, "move-time"),
        wtime=wtime,
        btime=btime,
        winc=winc,
        binc=binc,
        movestogo=int_field(args, "moves-to-go", 1, MOVES_TO_GO_MAX),
        infinite=any(k in args for k in ("infinite", "analyse", "analyze")),
    )


def limit_fields(limit: Limit) -> list[Field]:
    """The ``go`` fields that ask for ``limit`` (the inverse of :func:`limit_from_args`)."""

    def sec(x: float | None) -> str | None:
        return None if x is None else format_seconds(x)

    return [
        ("depth", limit.depth),
        ("nodes", limit.nodes),
        ("move-time", sec(limit.time)),
        ("wtime", sec(limit.wtime)),
        ("btime", sec(limit.btime)),
        ("winc", sec(limit.winc)),
        ("binc", sec(limit.binc)),
        ("moves-to-go", limit.movestogo),
        ("infinite", limit.infinite),
    ]


# --- options --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """An option an engine declares at the handshake (``option name=Hash type=spin ...``).

    The engine declares its options with :meth:`declaration` and checks the values
    it is sent with :meth:`text`; the client reads the declarations back
    (:meth:`from_fields`) and checks values with :meth:`text` before sending them.

    >>> hash_mb = Option.spin("Hash", 16, 1, 4096)
    >>> hash_mb.declaration()
    'option name=Hash type=spin min=1 max=4096 default=16'
    >>> hash_mb.text("64")
    '64'
    """

    name: str
    type: str = "string"
    """``spin`` (a whole number in min..max), ``check`` (true/false), ``combo`` (one of
    ``vars``) or ``string``."""
    default: str | None = None
    min: int | None = None
    max: int | None = None
    vars: tuple[str, ...] = ()

    @classmethod
    def spin(cls, name: str, default: int, min: int, max: int) -> Option:
        """A whole-number option in ``min..max``."""
        return cls(name, "spin", str(default), min, max)

    @classmethod
    def from_fields(cls, args: Mapping[str, str]) -> Option:
        """The option of a declaration line's fields (:func:`parse_line`); bad numbers ignored."""

        def number(key: str) -> int | None:
            try:
                return int(args[key]) if key in args else None
            except ValueError:
                return None

        return cls(
            name=args["name"],
            type=args.get("type", "string"),
            default=args.get("default"),
            min=number("min"),
            max=number("max"),
            vars=tuple(args.get("vars", "").split()),
        )

    def declaration(self) -> str:
        """The ``option`` line that declares it."""
        fields: list[Field] = [
            ("name", self.name),
            ("type", self.type),
            ("min", self.min),
            ("max", self.max),
            ("vars", " ".join(self.vars) or None),
            ("default", self.default),
        ]
        return format_line("option", fields)

    def text(self, value: object) -> str:
        """The protocol text of a value for this option; :class:`ProtocolError` when it is bad."""
        if self.type == "spin":
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise ProtocolError(f"option {self.name} takes a whole number, not {value!r}")
            try:
                if isinstance(value, str) and len(value.strip()) > 40:
                    raise ValueError  # no spin holds a number this long
                number = int(value)
            except ValueError:
                raise ProtocolError(
                    f"option {self.name} takes a whole number, not {shown(str(value))}"
                ) from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise ProtocolError(
                    f"option {self.name} must be in {self.min}..{self.max}, not {number}"
                )
            return str(number)
        if self.type == "check":
            if isinstance(value, bool):
                return "true" if value else "false"
            if str(value).lower() in ("true", "false"):
                return str(value).lower()
            raise ProtocolError(f"option {self.name} takes true or false, not {value!r}")
        if self.type == "combo" and self.vars and str(value) not in self.vars:
            raise ProtocolError(
                f"option {self.name} takes one of {', '.join(self.vars)}, not {value!r}"
            )
        return str(value)


# --- the options of emergo-engine whose bounds the command line shares ---------------------------

HASH = Option.spin("Hash", 16, 1, 4096)
"""Megabytes of search tables: the engine's option, ``emergo analyse --hash`` and the API's
``hash_mb`` (:func:`emergo.players.backend`) all take 1..4096."""
SEED = Option.spin("Seed", 0, 0, SEED_MAX)
"""Random seed of the levels' draws and of the built-in players (``--player``)."""
