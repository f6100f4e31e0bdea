"""Emergo as a Gymnasium single-agent environment against a built-in opponent.

>>> from emergo.envs.gym_env import EmergoEnv
>>> env = EmergoEnv(variant="7x7", opponent="random", color="white")
>>> observation, info = env.reset(seed=0)
>>> observation["action_mask"].sum()  # R16: every square but the centre
np.int64(24)

The agent plays one colour (``color``: ``"white"``, ``"black"`` or ``"random"``, drawn
at each reset), a built-in player of :data:`emergo.players.PLAYERS` the other
(``opponent``: ``random``, ``greedy``, ``mcts``, ``engine`` or ``python``; ``level``
1-11 for the engine's levels, ``limit`` the opponent's search limit).  The spaces and
the action encoding are the PettingZoo environment's (:mod:`emergo.envs.emergo_v0`):
one action per entry, step or capture hop; the opponent replies after each of the
agent's *whole* moves.  Reward +1 for a win, -1 for a loss (R18), 0 for a draw (R19a,
R19b) and on every other step; truncated after ``max_plies`` whole moves.  An action
that is not in the mask ends the episode with reward ``illegal_reward`` and
``info["illegal_action"] = True`` (Gymnasium's checkers sample unmasked actions).

Registered as ``emergo/Emergo-v0``: ``gymnasium.make("emergo/Emergo-v0", variant="hex")``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from emergo import players
from emergo.board import WHITE, Board, Color
from emergo.envs import observation as obs
from emergo.envs.actions import Route, action_space, apply, legal_actions
from emergo.envs.emergo_v0 import MAX_PLIES
from emergo.envs.render import RENDER_MODES, check_render_mode, render
from emergo.levels import LEVEL_MAX
from emergo.search import Limit, Searcher

Observation = dict[str, npt.NDArray[Any]]

DEFAULT_LIMIT = Limit(time=0.1)
"""The opponent's search limit unless given: a cap; engine levels below 11 cap themselves."""


class EmergoEnv(gymnasium.Env[Observation, np.int64]):
    """One game against a built-in opponent (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "9x9",
        opponent: str = "random",
        *,
        level: int = 1,
        limit: Limit | None = None,
        color: str = "white",
        render_mode: str | None = None,
        max_plies: int = MAX_PLIES,
        illegal_reward: float = -1.0,
    ) -> None:
        if opponent not in players.PLAYERS:
            raise ValueError(
                f"unknown opponent {opponent!r}: expected one of {list(players.PLAYERS)}"
            )
        if color not in ("white", "black", "random"):
            raise ValueError(f"color {color!r}: expected 'white', 'black' or 'random'")
        if not 1 <= level <= LEVEL_MAX:
            raise ValueError(f"level {level}: expected 1..{LEVEL_MAX}")
        check_render_mode(render_mode)
        self.variant = variant
        self.opponent_name = opponent
        self.level = level
        self.limit = limit or DEFAULT_LIMIT
        self.color_choice = color
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.illegal_reward = illegal_reward
        self.space = action_space(variant)
        low, high = obs.bounds(variant)
        self.observation_space: spaces.Dict = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.space.size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.space.size)
        self.board = Board(variant=variant)
        self.route: Route = ()
        self.color: Color = WHITE
        self.opponent: Searcher = players.searcher(opponent, level=level)

    def _observation(self) -> Observation:
        mask = np.zeros(self.space.size, dtype=np.int8)
        if self.board.turn == self.color:
            mask[legal_actions(self.board, self.route)] = 1
        return {"observation": obs.planes(self.board, self.route, self.color), "action_mask": mask}

    def _reply(self) -> None:
        """The opponent plays while it is to move and the game goes on."""
        while self.board.turn != self.color and self.board.outcome() is None:
            move = self.opponent.search(self.board, self.limit).move
            assert move is not None  # the game goes on, so there is a legal move
            self.board.push(move)

    def _info(self) -> dict[str, Any]:
        return {"ply": len(self.board.move_stack), "position": self.board.position()}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game (``options["position"]``: an R22 position to start from)."""
        super().reset(seed=seed)
        rng = self.np_random
        if self.color_choice == "random":
            self.color = bool(rng.integers(2))
        else:
            self.color = self.color_choice == "white"
        position = (options or {}).get("position")
        self.board = (
            Board(position, variant=self.variant) if position else Board(variant=self.variant)
        )
        self.route = ()
        self.opponent = players.searcher(
            self.opponent_name, seed=int(rng.integers(2**31)), level=self.level
        )
        self._reply()
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        a = int(action)
        if self.board.outcome() is not None or a not in legal_actions(self.board, self.route):
            info = self._info() | {"illegal_action": True}
            return self._observation(), self.illegal_reward, True, False, info
        self.route = apply(self.board, self.route, a)
        if not self.route:
            self._reply()
        info = self._info()
        outcome = self.board.outcome() if not self.route else None
        if outcome is not None:
            info |= {"result": outcome.result(), "reason": outcome.reason()}
            reward = (
                0.0 if outcome.winner is None else 1.0 if outcome.winner == self.color else -1.0
            )
            return self._observation(), reward, True, False, info
        truncated = not self.route and len(self.board.move_stack) >= self.max_plies
        return self._observation(), 0.0, False, truncated, info

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        return render(self.board, self.route, self.render_mode)


gymnasium.register(id="emergo/Emergo-v0", entry_point="emergo.envs.gym_env:EmergoEnv")
