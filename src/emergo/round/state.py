"""The round's state: one game as a value (:class:`RoundState`), and its JSON."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from emergo.board import Board, Color, Outcome, Termination
from emergo.clock import Clock, TimeControl, color_key, color_of
from emergo.round.boards import BOARDS, Key, canonical, root_turn
from emergo.round.errors import RoundError

__all__ = ["RULE_ENDINGS", "RoundState", "check_time"]

RULE_ENDINGS = (Termination.NO_PIECES, Termination.BLOCKED, Termination.REPETITION)
"""The endings of the rules (R18, R19a, R19b): the moves decide them, not a command."""


def check_time(value: object, what: str) -> float:
    """``value`` as a time in seconds: a finite number (not a bool)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
        if math.isfinite(seconds):
            return seconds
    raise RoundError(f"{what} must be a finite time in seconds, not {value!r}")


@dataclass(frozen=True)
class RoundState:
    """One game as a value: where it started, the moves, the clock, offers and the end.

    ``root``: the R22 position the game started from; ``moves``: canonical R21 texts;
    ``clock``: ``None`` for an unlimited game; ``draw_offer``/``takeback_offer``: the side whose
    offer waits for an answer; ``version``: bumped by every change; ``created_at``,
    ``last_move_at``: wall times (a takeback counts as a move for the first-move deadline).
    Added to the contract: ``clock_history``, the clocks (white, black) after each ply this
    round has seen, the last for the current ply (a takeback restores them), and ``local``, a
    game on one machine (the clock starts with :class:`StartClock`; no deadlines, no lag
    compensation; a rules ending may be taken back).
    """

    variant: str
    root: str
    moves: tuple[str, ...]
    clock: Clock | None
    outcome: Outcome | None
    draw_offer: Color | None
    takeback_offer: Color | None
    version: int
    created_at: float
    last_move_at: float | None
    clock_history: tuple[tuple[float, float], ...] = ()
    local: bool = False

    @classmethod
    def new(
        cls,
        variant: str = "9x9",
        root: str | None = None,
        time_control: TimeControl | None = None,
        *,
        now: float,
        moves: Sequence[str] = (),
        clocks: tuple[float, float] | None = None,
        local: bool = False,
    ) -> RoundState:
        """A game from ``root`` (default the variant's start) at wall time ``now``.

        ``moves``: moves already played (any R21 texts; a resumed game); ``clocks``: seconds
        left (white, black) to start with instead of the full time; ``local``: see the class.
        An ending by the rules (R18, R19) is found at once.  Bad input raises RoundError.
        """
        now = check_time(now, "now")
        try:
            board = Board(root, variant=variant) if root is not None else Board(variant=variant)
            start = board.position()
            for ply, text in enumerate(moves, 1):
                ended = board.outcome()
                if ended is not None:
                    raise RoundError(f"move {ply} {text!r} comes after the end: {ended.reason()}")
                board.push(board.parse_move(text))
        except RoundError:
            raise
        except ValueError as e:
            raise RoundError(str(e)) from None
        texts = tuple(str(m) for m in board.move_stack)
        clock = None
        if time_control is not None:
            clock = Clock.new(time_control, lag_compensation=not local)
            if clocks is not None:
                try:
                    clock = clock.set_left(*clocks)
                except (TypeError, ValueError) as e:
                    raise RoundError(f"bad clocks {clocks!r}: {e}") from None
        state = cls(
            variant=board.variant,
            root=start,
            moves=texts,
            clock=clock,
            outcome=board.outcome(),
            draw_offer=None,
            takeback_offer=None,
            version=0,
            created_at=now,
            last_move_at=None,
            clock_history=((clock.white, clock.black),) if clock is not None else (),
            local=bool(local),
        )
        BOARDS.give(state._key(), board)
        return state

    def _key(self) -> Key:
        return (self.variant, self.root, self.moves)

    @property
    def turn(self) -> Color:
        """The side to move."""
        root = root_turn(self.variant, self.root)
        return root if len(self.moves) % 2 == 0 else not root

    @property
    def ply(self) -> int:
        """Moves played from the root."""
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def time_control(self) -> TimeControl | None:
        return None if self.clock is None else self.clock.control

    def board(self) -> Board:
        """The board with the moves pushed (and so their repetition history, R19b).

        Shared by every state with the same moves, and cached: read it, never change it
        (``board().copy()`` to play on).
        """
        return BOARDS.lend(self._key())

    def mover(self, ply: int) -> Color:
        """The side that played the ``ply``-th move (0-based) from the root."""
        root = root_turn(self.variant, self.root)
        return root if ply % 2 == 0 else not root

    # --- JSON -------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values, for a database column or a message."""
        outcome = None
        if self.outcome is not None:
            outcome = {
                "termination": self.outcome.termination.value,
                "winner": color_key(self.outcome.winner),
            }
        return {
            "variant": self.variant,
            "root": self.root,
            "moves": list(self.moves),
            "clock": None if self.clock is None else self.clock.to_json(),
            "outcome": outcome,
            "draw_offer": color_key(self.draw_offer),
            "takeback_offer": color_key(self.takeback_offer),
            "version": self.version,
            "created_at": self.created_at,
            "last_move_at": self.last_move_at,
            "clock_history": list(map(list, self.clock_history)),
            "local": self.local,
        }

    @classmethod
    def from_json(cls, data: Any) -> RoundState:
        """The state :meth:`to_json` wrote; anything inconsistent raises RoundError."""
        if not isinstance(data, dict):
            raise RoundError(f"a round state is an object, not {type(data).__name__}")
        try:
            return cls._from_json(data)
        except KeyError as e:
            raise RoundError(f"a round state needs {e.args[0]!r}") from None
        except RoundError:
            raise
        except (TypeError, ValueError) as e:
            raise RoundError(f"bad round state: {e}") from None

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> RoundState:
        variant, root, moves = data["variant"], data["root"], data["moves"]
        if not (isinstance(variant, str) and isinstance(root, str) and isinstance(moves, list)):
            raise RoundError("variant and root are texts, moves a list of texts")
        if not canonical(variant, root):
            raise RoundError(f"the root {root!r} is not a canonical R22 position")
        key: Key = (variant, root, tuple(moves))
        ended = BOARDS.outcome(key)  # replays and checks the moves (or finds them checked)
        outcome = None
        if data["outcome"] is not None:
            raw = data["outcome"]
            outcome = Outcome(Termination(raw["termination"]), color_of(raw["winner"]))
        if ended is not None and outcome != ended:
            raise RoundError(f"the moves ended the game ({ended.reason()}), not {outcome}")
        if ended is None and outcome is not None and outcome.termination in RULE_ENDINGS:
            raise RoundError(f"the moves did not end the game by the rules: {outcome}")
        clock = None if data["clock"] is None else Clock.from_json(data["clock"])
        history = _history(data.get("clock_history", []))
        local = data.get("local", False)
        if not isinstance(local, bool):
            raise RoundError(f"local is true or false, not {local!r}")
        version = data["version"]
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise RoundError(f"the version is a count, not {version!r}")
        last = data["last_move_at"]
        state = cls(
            variant=variant,
            root=root,
            moves=key[2],
            clock=clock,
            outcome=outcome,
            draw_offer=color_of(data["draw_offer"]),
            takeback_offer=color_of(data["takeback_offer"]),
            version=version,
            created_at=check_time(data["created_at"], "created_at"),
            last_move_at=None if last is None else check_time(last, "last_move_at"),
            clock_history=history,
            local=local,
        )
        running = None if clock is None else clock.running
        if running is not None and (outcome is not None or running != state.turn):
            raise RoundError("only the side to move's clock runs, and only while it plays")
        if outcome is not None and (
            state.draw_offer is not None or state.takeback_offer is not None
        ):
            raise RoundError("a finished game has no offers")
        if len(history) > len(state.moves) + 1:
            raise RoundError("more clocks in the history than plies")
        return state


def _history(raw: Any) -> tuple[tuple[float, float], ...]:
    """``clock_history`` from JSON, checked in bulk (it is as long as the game)."""
    pairs_ok = isinstance(raw, list) and set(map(type, raw)) <= {list} and set(map(len, raw)) <= {2}
    flat = list(itertools.chain.from_iterable(raw)) if pairs_ok else []
    if not pairs_ok or not set(map(type, flat)) <= {int, float}:
        raise RoundError("clock_history is a list of [white, black] seconds")
    if flat and (min(flat) < 0 or not math.isfinite(sum(flat))):
        raise RoundError("a clock in the history is below 0 or not finite")
    return tuple(map(tuple, raw))
