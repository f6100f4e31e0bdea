"""Emergo self-play as a Gymnasium vector environment over the C batch environment.

>>> from emergo.envs.vector import EmergoVectorEnv
>>> envs = EmergoVectorEnv(4, variant="7x7")
>>> observations, infos = envs.reset(seed=0)
>>> observations.shape, infos["action_mask"].shape, infos["to_play"].tolist()
((4, 17, 7, 7), (4, 225), [0, 0, 0, 0])
>>> envs.close()

**Self-play.**  Each of the ``num_envs`` games is played by the one policy that acts: the
action of game ``i`` is the move of the side to move there, White and Black alike (one
action per entry, step or capture hop; a capture of several hops is several steps of the same
player).  The observation is the planes of :mod:`emergo.envs.observation` for the side to
move (relative: "mine" and "theirs"; plane 13 says which colour that is), so one network
serves both colours.  ``infos["to_play"]`` says who moves next (0 White, 1 Black), and
``infos["action_mask"]`` the legal actions (``int8``, all 0 in a finished game).

**Rewards** are those of the player who took the action: +1 when it won the game (R18), -1
when it lost, 0 otherwise (draws R19a and R19b, truncation after ``max_plies`` whole moves,
and every move before the end).  Emergo is zero-sum: the opponent's reward is the negation.
An action outside the mask ends its game as a loss of the player who chose it (reward
``illegal_reward``, ``terminated``, ``infos["illegal_action"]``), as in
:class:`emergo.envs.gym_env.EmergoEnv` (an unmasked policy does not crash the batch).

**Autoreset: next step** (``metadata["autoreset_mode"]`` is ``AutoresetMode.NEXT_STEP``, what
Gymnasium 1.x's vector environments do by default): a game that ends returns its terminal
observation with ``terminated`` or ``truncated``; the next :meth:`~EmergoVectorEnv.step`
ignores the action given for it, starts it again and returns its first observation with
reward 0 and both flags False.

:class:`EmergoSelfPlayEnv` is the same game as one Gymnasium environment on the pure-Python
rules library (``gymnasium.utils.env_checker.check_env`` passes); Gymnasium's own
``SyncVectorEnv`` over it gives what :class:`EmergoVectorEnv` gives, which the tests check on
seeded games.  Both are registered as ``emergo/EmergoSelfPlay-v0``:
``gymnasium.make("emergo/EmergoSelfPlay-v0")`` is the single one,
``gymnasium.make_vec("emergo/EmergoSelfPlay-v0", num_envs=1024,
vectorization_mode="vector_entry_point")`` the C one.  The vector environment needs the C
kernel (:class:`emergo.kernel.BatchEnv`).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from emergo.board import WHITE, Board
from emergo.envs import observation as obs
from emergo.envs.actions import Route, action_space, apply, legal_actions
from emergo.envs.emergo_v0 import MAX_PLIES
from emergo.envs.render import RENDER_MODES, check_render_mode, render

Planes = npt.NDArray[Any]


def _root(variant: str, position: str | None) -> Board:
    board = Board(variant=variant) if position is None else Board(position, variant=variant)
    if board.variant != variant:
        raise ValueError(f"{position!r} is not a {variant} position")
    if board.outcome() is not None:
        raise ValueError(f"{position!r}: the game is over there already")
    return board


def _planes_space(variant: str, dtype: Any = np.float32) -> spaces.Box:
    low, high = obs.bounds(variant)
    return spaces.Box(low=low.astype(dtype), high=high.astype(dtype), dtype=dtype)


class EmergoSelfPlayEnv(gymnasium.Env[Planes, np.int64]):
    """One self-play game on the rules library (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        variant: str = "9x9",
        *,
        max_plies: int = MAX_PLIES,
        position: str | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        check_render_mode(render_mode)
        if max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {max_plies}")
        self.variant = variant
        self.max_plies = max_plies
        self.position = position
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.space = action_space(variant)
        self.observation_space = _planes_space(variant)
        self.action_space = spaces.Discrete(self.space.size)
        self.board = _root(variant, position)
        self.route: Route = ()
        self.done = False

    def _info(self) -> dict[str, Any]:
        mask = np.zeros(self.space.size, dtype=np.int8)
        if not self.done:
            mask[legal_actions(self.board, self.route)] = 1
        return {"action_mask": mask, "to_play": np.int8(0 if self.board.turn == WHITE else 1)}

    def _planes(self) -> Planes:
        return obs.planes(self.board, self.route, self.board.turn)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Planes, dict[str, Any]]:
        """A new game (the deterministic game needs no seed: it seeds ``np_random`` only)."""
        super().reset(seed=seed)
        self.board = _root(self.variant, self.position)
        self.route = ()
        self.done = False
        return self._planes(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Planes, float, bool, bool, dict[str, Any]]:
        a = int(action)
        if self.done or a not in legal_actions(self.board, self.route):
            self.done = True
            return (
                self._planes(),
                self.illegal_reward,
                True,
                False,
                self._info() | {"illegal_action": True},
            )
        actor = self.board.turn
        self.route = apply(self.board, self.route, a)
        reward, terminated, truncated = 0.0, False, False
        if not self.route:
            outcome = self.board.outcome()
            if outcome is not None:
                terminated = True
                if outcome.winner is not None:
                    reward = 1.0 if outcome.winner == actor else -1.0
            else:
                truncated = len(self.board.move_stack) >= self.max_plies
        self.done = terminated or truncated
        info = self._info() | {"illegal_action": False}
        return self._planes(), reward, terminated, truncated, info

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        return render(self.board, self.route, self.render_mode)


class EmergoVectorEnv(VectorEnv[Planes, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` self-play games stepped together in C (see the module docstring).

    ``copy`` (default True, as Gymnasium's vector environments): the observations, flags and
    info arrays returned are new arrays; with ``copy=False`` they are read-only views of the
    batch environment's buffers, overwritten by the next step (faster: nothing is copied,
    and the planes are written incrementally; copy what you keep).  ``compact=True``: the
    planes as ``uint8`` (the same values).
    """

    metadata = {  # noqa: RUF012 (Gymnasium reads a class attribute)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        variant: str = "9x9",
        *,
        max_plies: int = MAX_PLIES,
        position: str | None = None,
        illegal_reward: float = -1.0,
        compact: bool = False,
        copy: bool = True,
    ) -> None:
        from emergo.kernel import BatchEnv

        root = _root(variant, position)
        self.num_envs = num_envs
        self.variant = variant
        self.illegal_reward = illegal_reward
        self.copy = copy
        self.batch = BatchEnv(
            num_envs, variant, max_plies=max_plies, compact=compact, position=root.position()
        )
        self.single_observation_space = _planes_space(variant, np.uint8 if compact else np.float32)
        self.single_action_space = spaces.Discrete(self.batch.n_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._all = np.ones(num_envs, dtype=np.bool_)
        self._all.flags.writeable = False
        self._rows = np.arange(num_envs)

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self._out(self.batch.mask),
            "_action_mask": self._out(self._all),
            "to_play": self._out(self.batch.to_play),
            "_to_play": self._out(self._all),
        }

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Planes, dict[str, Any]]:
        """Every game to the start.  ``seed`` seeds ``np_random`` and the action spaces (the
        game is deterministic); ``options`` is not used."""
        if isinstance(seed, list):  # one seed per game, as Gymnasium allows: the first counts
            seed = seed[0] if seed else None
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
            self.action_space.seed(seed)
            self.single_action_space.seed(seed)
        observations, _ = self.batch.reset(seed)
        return self._out(observations), self._infos()

    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[Planes, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        acts = self.batch.check_actions(actions)
        batch = self.batch
        waiting = batch.terminated | batch.truncated  # these restart: their action is ignored
        stepped = ~waiting
        safe = np.clip(acts, 0, batch.n_actions - 1)
        illegal = stepped & ((acts != safe) | (batch.mask[self._rows, safe] == 0))
        # An illegal action ends its game in C (BatchEnv.step(illegal_ends=True)).
        observations, _, rewards, terminated, truncated = batch.step(acts, illegal_ends=True)
        rewards = rewards.astype(np.float64)
        if illegal.any():
            rewards[illegal] = self.illegal_reward
        infos = self._infos()
        infos["illegal_action"] = illegal
        infos["_illegal_action"] = stepped
        return self._out(observations), rewards, self._out(terminated), self._out(truncated), infos

    def close_extras(self, **kwargs: Any) -> None:
        del self.batch


gymnasium.register(
    id="emergo/EmergoSelfPlay-v0",
    entry_point="emergo.envs.vector:EmergoSelfPlayEnv",
    vector_entry_point="emergo.envs.vector:EmergoVectorEnv",
)
