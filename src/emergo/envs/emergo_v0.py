"""Emergo as a PettingZoo AEC environment: ``emergo.envs.emergo_v0.env(variant=...)``.

>>> from emergo.envs import emergo_v0
>>> env = emergo_v0.env(variant="7x7")
>>> env.reset(seed=0)
>>> env.agent_selection
'player_0'
>>> observation, reward, termination, truncation, info = env.last()
>>> observation["observation"].shape, observation["action_mask"].shape
((17, 7, 7), (225,))

Two agents, ``"player_0"`` (White, moves first, R7) and ``"player_1"`` (Black).  An
action is one entry, one step or ONE HOP of a capture (:mod:`emergo.envs.actions`):
during a capture of several hops the same agent acts again until the route is complete.
Every observation is ``{"observation": planes, "action_mask": mask}``: the planes of
:mod:`emergo.envs.observation` from the observing agent's side, and an ``int8`` mask of
the legal actions (all 0 for the agent not to move).

Rewards come at the end only: +1 to the winner and -1 to the loser (R18), 0 to both
for a draw (R19a blocked, R19b repetition).  The game is *truncated* (both agents,
rewards 0) after ``max_plies`` whole moves, by default :data:`MAX_PLIES`.  An illegal
action raises :class:`~emergo.errors.IllegalMoveError` (wrap the environment with
PettingZoo's ``TerminateIllegalWrapper`` to end the game instead).  ``reset`` takes
``options={"position": "<R22 position>"}`` to start from a position of the variant.

``render_mode="ansi"`` renders the terminal diagram (:func:`emergo.diagram.diagram`),
``"rgb_array"`` the picture of :mod:`emergo.envs.render`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from emergo.board import WHITE, Board, Color
from emergo.envs import observation as obs
from emergo.envs.actions import Route, action_space, apply, legal_actions
from emergo.envs.render import RENDER_MODES, check_render_mode, render
from emergo.geometry import geometry

MAX_PLIES = 1000
"""Whole moves after which a game is truncated (random games end within a few hundred)."""

AGENTS = ("player_0", "player_1")
"""The agents in PettingZoo's naming: ``player_0`` White (moves first, R7), ``player_1`` Black."""


def agent_color(agent: str) -> Color:
    """The colour an agent plays: ``player_0`` White, ``player_1`` Black."""
    return WHITE if agent == AGENTS[0] else not WHITE


def color_agent(color: Color) -> str:
    return AGENTS[0] if color else AGENTS[1]


def env(**kwargs: Any) -> AECEnv:
    """The environment, wrapped in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped environment (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads a class attribute)
        "render_modes": list(RENDER_MODES),
        "name": "emergo_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self, variant: str = "9x9", render_mode: str | None = None, max_plies: int = MAX_PLIES
    ) -> None:
        super().__init__()
        geometry(variant)  # a clear error for an unknown variant
        check_render_mode(render_mode)
        if max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {max_plies}")
        self.variant = variant
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.space = action_space(variant)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        low, high = obs.bounds(variant)
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(self.space.size,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self._action_spaces = {agent: spaces.Discrete(self.space.size) for agent in AGENTS}
        self.board = Board(variant=variant)
        self.route: Route = ()
        self._reset_state()

    def observation_space(self, agent: str) -> spaces.Dict:
        """The same object at every call, as PettingZoo asks."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def _reset_state(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = color_agent(self.board.turn)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: the start, or ``options["position"]`` (an R22 position of the variant)."""
        position = (options or {}).get("position")
        if position is not None:
            self.board = Board(position, variant=self.variant)
            if self.board.variant != self.variant:
                raise ValueError(f"{position!r} is not a {self.variant} position")
        else:
            self.board = Board(variant=self.variant)
        self.route = ()
        self._reset_state()
        self._end_if_over()

    def observe(self, agent: str) -> dict[str, Any]:
        color = agent_color(agent)
        mask = np.zeros(self.space.size, dtype=np.int8)
        if color == self.board.turn and not self._over():
            mask[legal_actions(self.board, self.route)] = 1
        return {"observation": obs.planes(self.board, self.route, color), "action_mask": mask}

    def _over(self) -> bool:
        return any(self.terminations.values()) or any(self.truncations.values())

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self._cumulative_rewards[agent] = 0.0
        self.route = apply(self.board, self.route, int(action))
        self.agent_selection = color_agent(self.board.turn)
        self._end_if_over()
        self._accumulate_rewards()

    def _end_if_over(self) -> None:
        """Set rewards and terminations (R18, R19) or truncations (``max_plies``)."""
        if self.route:
            return
        outcome = self.board.outcome()
        if outcome is not None:
            for agent in self.agents:
                self.terminations[agent] = True
                self.infos[agent] = {"result": outcome.result(), "reason": outcome.reason()}
                if outcome.winner is not None:
                    self.rewards[agent] = 1.0 if agent_color(agent) == outcome.winner else -1.0
        elif len(self.board.move_stack) >= self.max_plies:
            for agent in self.agents:
                self.truncations[agent] = True
                self.infos[agent] = {"result": "*", "reason": f"truncated after {self.max_plies}"}

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        return render(self.board, self.route, self.render_mode)

    def close(self) -> None:
        pass
