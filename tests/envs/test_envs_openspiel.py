"""Emergo as an OpenSpiel game (emergo.envs.openspiel), checked by OpenSpiel's own tests.

Skipped unless the optional extra ``rl`` is installed (it brings ``open-spiel``).
"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from open_spiel.python.algorithms import mcts  # noqa: E402

from emergo.envs import openspiel  # noqa: E402


@pytest.mark.parametrize("variant", ["9x9", "7x7", "hex"])
def test_random_sim_test(variant: str) -> None:
    """OpenSpiel's consistency checks on random games: legal actions, clones, observations,
    returns, history, serialisation (``pyspiel.random_sim_test``)."""
    game = pyspiel.load_game(openspiel.SHORT_NAME, {"variant": variant})
    assert game.num_distinct_actions() == {"9x9": 369, "7x7": 225, "hex": 481}[variant]
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_mcts_bot_plays_a_whole_game_against_random() -> None:
    game = pyspiel.load_game(openspiel.SHORT_NAME, {"variant": "7x7", "max_plies": 300})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=60)
    bot = mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=rng)
    random_bot = pyspiel.make_uniform_random_bot(1, 7)
    state = game.new_initial_state()
    while not state.is_terminal():
        player = bot if state.current_player() == 0 else random_bot
        state.apply_action(player.step(state))
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert state.returns()[0] == 1.0  # MCTS beats random play on this seed


def test_observation_tensor_is_the_planes() -> None:
    game = pyspiel.load_game(openspiel.SHORT_NAME, {"variant": "7x7"})
    state = game.new_initial_state()
    tensor = np.asarray(state.observation_tensor(0))
    assert tensor.shape == (17 * 7 * 7,)
    assert state.action_to_string(0, state.legal_actions()[0]) == "a4"
