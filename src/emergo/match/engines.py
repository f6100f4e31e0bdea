"""The engines of a match: ``EngineSpec`` from the command line's words, time controls."""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from emergo.players import PLAYERS
from emergo.search import Limit
from emergo.wire import DEPTH_MAX, NODES_MAX, SECONDS_MAX

DEFAULT_LIMIT = Limit(time=0.1)
"""The limit of an engine whose spec sets none."""


@dataclass(frozen=True)
class EngineSpec:
    """One participant: how to start it, its options and how long it may think.

    ``tc`` is a time control ``(base, increment)`` in seconds: the match keeps a
    clock per game and sends it with every ``go``; ``limit`` adds fixed limits
    (depth, nodes, move time) on top.  ``timeout`` is how long an answer may take
    beyond the limit's own time before the engine forfeits the game.
    """

    name: str
    command: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    limit: Limit = DEFAULT_LIMIT
    tc: tuple[float, float] | None = None
    timeout: float = 30.0

    @classmethod
    def builtin(
        cls,
        name: str,
        *,
        options: dict[str, str] | None = None,
        limit: Limit = DEFAULT_LIMIT,
        tc: tuple[float, float] | None = None,
        timeout: float = 30.0,
    ) -> EngineSpec:
        """A built-in computer (:data:`emergo.players.PLAYERS`) as an ``emergo-engine`` process."""
        if name not in PLAYERS:
            raise ValueError(f"unknown built-in engine {name!r}: expected {', '.join(PLAYERS)}")
        command = (sys.executable, "-m", "emergo.cli.engine", "--player", name)
        return cls(name, command, dict(options or {}), limit, tc, timeout)


def parse_tc(text: str) -> tuple[float, float]:
    """``base+inc`` in seconds (``10+0.1``, ``60``) as ``(base, inc)``."""
    base, _, inc = text.partition("+")
    try:
        values = (float(base), float(inc) if inc else 0.0)
    except ValueError:
        raise ValueError(f"tc={text!r}: expected seconds as base+increment, e.g. 10+0.1") from None
    if not (0 < values[0] <= SECONDS_MAX and 0 <= values[1] <= SECONDS_MAX):  # nan fails too
        raise ValueError(
            f"tc={text[:40]!r}: the base must be > 0 and the increment >= 0, "
            f"both at most {SECONDS_MAX:g} seconds"
        )
    return values


def parse_engine_spec(text: str, defaults: str = "") -> EngineSpec:
    """An engine from ``key=value`` words (cutechess-cli style), after the ``defaults`` words.

    Keys: ``cmd`` (the command line) or a built-in name alone (``random``,
    ``greedy``, ``python``), ``name``, ``depth``, ``nodes``, ``move-time``
    (seconds), ``tc`` (``base+inc`` seconds), ``timeout`` (seconds) and
    ``option.NAME=VALUE``.
    """
    words = shlex.split(defaults) + shlex.split(text)
    values: dict[str, str] = {}
    options: dict[str, str] = {}
    builtin: str | None = None
    for word in words:
        key, eq, value = word.partition("=")
        if not eq:
            if word in PLAYERS:
                builtin = word
                continue
            raise ValueError(
                f"engine spec {text!r}: {word!r} is not key=value nor a built-in name "
                f"({', '.join(PLAYERS)})"
            )
        if key.startswith("option."):
            options[key[len("option.") :]] = value
        elif key in ("cmd", "name", "depth", "nodes", "move-time", "tc", "timeout"):
            values[key] = value
        else:
            raise ValueError(f"engine spec {text!r}: unknown key {key!r}")
    try:
        depth = _spec_int(values, "depth", DEPTH_MAX)
        nodes = _spec_int(values, "nodes", NODES_MAX)
        move_time = _spec_number(values, "move-time", float, 0.001, SECONDS_MAX)
        timeout = _spec_number(values, "timeout", float, 0.001, SECONDS_MAX)
    except ValueError as e:
        raise ValueError(f"engine spec {text!r}: {e}") from None
    if timeout is None:
        timeout = 30.0
    tc = parse_tc(values["tc"]) if "tc" in values else None
    limit = Limit(depth=depth, nodes=nodes, time=move_time)
    if limit == Limit() and tc is None:
        limit = DEFAULT_LIMIT
    if "cmd" in values:
        command = tuple(shlex.split(values["cmd"]))
        if not command:
            raise ValueError(f"engine spec {text!r}: empty cmd")
        name = values.get("name") or Path(command[0]).name
        return EngineSpec(name, command, options, limit, tc, timeout)
    if builtin is None:
        raise ValueError(f"engine spec {text!r} needs cmd=... or one of {', '.join(PLAYERS)}")
    spec = EngineSpec.builtin(builtin, options=options, limit=limit, tc=tc, timeout=timeout)
    return replace(spec, name=values.get("name", builtin))


def _spec_int(values: dict[str, str], key: str, high: int) -> int | None:
    value = _spec_number(values, key, int, 1, high)
    return None if value is None else int(value)


def _spec_number(
    values: dict[str, str], key: str, kind: type[int] | type[float], low: float, high: float
) -> float | None:
    if key not in values:
        return None
    text = values[key]
    try:
        value = kind(text[:40])
    except ValueError:
        raise ValueError(f"{key}={text[:40]!r} is not a number") from None
    if not low <= value <= high:  # nan fails too
        raise ValueError(f"{key}={text[:40]} must be in {low:g}..{high:g}")
    return value
