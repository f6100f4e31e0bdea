"""Emergo as an OpenSpiel Python game: ``pyspiel.load_game("python_emergo")``.

Importing this module registers the game (``pyspiel.register_game``), so OpenSpiel's
algorithms (MCTS, alpha-beta, CFR-family tree walks, the random simulation tests) run
on it:

>>> import pyspiel
>>> from emergo.envs import openspiel  # registers python_emergo
>>> game = pyspiel.load_game("python_emergo", {"variant": "7x7"})
>>> game.num_distinct_actions()
225
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions())
(0, 24)

Parameters: ``variant`` (``9x9``, ``7x7``, ``hex``) and ``max_plies`` (whole moves
after which the game ends as a draw, :data:`emergo.envs.emergo_v0.MAX_PLIES` by default).
Player 0 is White (moves first, R7), player 1 Black.  An OpenSpiel action is an action
of :mod:`emergo.envs.actions`: one entry, one step or ONE HOP of a capture, so a capture
of several hops is several consecutive actions of the same player.  Returns are +1/-1
for a win/loss (R18), 0 for a draw (R19a, R19b, or the ply cap); the observation tensor
is the planes of :mod:`emergo.envs.observation` for the observing player, flattened.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from emergo.board import WHITE, Board
from emergo.envs import observation as obs
from emergo.envs.actions import Route, action_space, apply, describe, legal_actions
from emergo.envs.emergo_v0 import MAX_PLIES
from emergo.geometry import geometry

SHORT_NAME = "python_emergo"

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Emergo",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "9x9", "max_plies": MAX_PLIES},
)


class EmergoGame(pyspiel.Game):  # type: ignore[misc]
    """The game for one variant (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        self.variant = str(params["variant"])
        self.max_plies = int(params["max_plies"])
        geo = geometry(self.variant)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space(self.variant).size,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # A route takes one man per hop and never the same man twice: at most `men` hops.
            max_game_length=self.max_plies * geo.men,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> EmergoState:
        return EmergoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return PlanesObserver(self.variant, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Game:
    """The board of a state.  OpenSpiel clones a Python state by deep-copying its attributes;
    this copies the board by replaying its moves (``Board.copy``) instead of deep-copying its
    shared move tables and geometry, which is many times slower."""

    __slots__ = ("board",)

    def __init__(self, board: Board) -> None:
        self.board = board

    def __deepcopy__(self, memo: dict[int, Any]) -> _Game:
        return _Game(self.board.copy())


class EmergoState(pyspiel.State):  # type: ignore[misc]
    """A position plus the capture in progress."""

    def __init__(self, game: EmergoGame) -> None:
        super().__init__(game)
        self._game = _Game(Board(variant=game.variant))
        self.route: Route = ()
        self.max_plies = game.max_plies
        self._returns = [0.0, 0.0]
        self._terminal = False

    @property
    def board(self) -> Board:
        return self._game.board

    def current_player(self) -> int:
        if self._terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return 0 if self.board.turn == WHITE else 1

    def _legal_actions(self, player: int) -> list[int]:
        return legal_actions(self.board, self.route)

    def _apply_action(self, action: int) -> None:
        self.route = apply(self.board, self.route, action)
        if self.route:
            return
        outcome = self.board.outcome()
        if outcome is not None:
            self._terminal = True
            if outcome.winner is not None:
                white = 1.0 if outcome.winner == WHITE else -1.0
                self._returns = [white, -white]
        elif len(self.board.move_stack) >= self.max_plies:
            self._terminal = True

    def _action_to_string(self, player: int, action: int) -> str:
        return describe(self.board, action, self.route)

    def is_terminal(self) -> bool:
        return self._terminal

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        text = self.board.position()
        if self.route:
            geo = self.board.geometry
            text += " capturing " + "x".join(geo.square_name(sq) for sq in self.route)
        return text


class PlanesObserver:
    """OpenSpiel's PyObserver: the observation planes, flattened (see the module docstring)."""

    def __init__(self, variant: str, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        shape = obs.shape(variant)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: EmergoState, player: int) -> None:
        self.dict["observation"][:] = obs.planes(state.board, state.route, player == 0)

    def string_from(self, state: EmergoState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, EmergoGame)
