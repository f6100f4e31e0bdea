"""The research environments (emergo.envs): observation planes, PettingZoo, Gymnasium.

Skipped unless the optional extra ``rl`` is installed (``pip install -e '.[rl]'``).
"""

from __future__ import annotations

import hashlib
import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("PIL")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from emergo import Board  # noqa: E402
from emergo.envs import emergo_v0  # noqa: E402
from emergo.envs import observation as obs  # noqa: E402
from emergo.envs.actions import action_space, apply, legal_actions  # noqa: E402
from emergo.envs.gym_env import EmergoEnv  # noqa: E402
from tests.plugins.common import oracle_games, oracle_hex_games, oracle_positions  # noqa: E402

VARIANTS = ("9x9", "7x7", "hex")

# --- observation planes -----------------------------------------------------------------------


def test_planes_shapes_and_bounds() -> None:
    assert obs.shape("9x9") == (17, 9, 9)
    assert obs.shape("7x7") == (17, 7, 7)
    assert obs.shape("hex") == (17, 7, 7)
    assert len(obs.PLANE_NAMES) == obs.PLANES
    for variant in VARIANTS:
        board = Board(variant=variant)
        p = obs.planes(board)
        assert p.dtype == np.float32 and p.shape == obs.shape(variant)
        assert p[obs.BOARD].sum() == len(board.geometry.squares)
        assert (p[obs.MY_HAND] == board.geometry.men).all()
        assert (p[obs.MUST_ENTER] == 1).all() and (p[obs.WHITE_PLANE] == 1).all()
        assert (p[obs.REPETITIONS] == 1).all()


def test_planes_are_relative_and_within_bounds_R5_R6() -> None:
    for item in oracle_positions():
        board = Board(item["position"])
        low, high = obs.bounds(board.variant)
        for player in (True, False):
            p = obs.planes(board, (), player)
            assert (low <= p).all() and (p <= high).all()
            assert p[obs.MY_HAND][0, 0] == board.hand(player)
            assert p[obs.THEIR_HAND][0, 0] == board.hand(not player)
            assert p[obs.TO_MOVE][0, 0] == float(board.turn == player)
            for sq, st in board.stacks().items():
                u, v = board.geometry.uv(sq)
                base = obs.MY_PIECES if st.owner == player else obs.THEIR_PIECES
                assert p[base, u - 1, v - 1] == 1
                assert p[base + 1, u - 1, v - 1] == st.caps
                assert p[base + 2, u - 1, v - 1] == st.prisoners


def _capture_prefixes(board: Board) -> None:
    """Mid-capture planes: the board after the hops; the complete route is the move (R9, R10)."""
    for route in {r[:k] for r in board.generate().routes for k in range(2, len(r) + 1)}:
        p = obs.planes(board, route)
        geo = board.geometry
        at, came = geo.uv(route[-1]), geo.uv(route[-2])
        assert p[obs.CAPTURE_AT, at[0] - 1, at[1] - 1] == 1 and p[obs.CAPTURE_AT].sum() == 1
        assert p[obs.CAPTURE_FROM, came[0] - 1, came[1] - 1] == 1
        assert (p[obs.MUST_CAPTURE] == 1).all()
        if len(route) - 1 == board.generate().size:  # complete: the same board as after the move
            after = obs.stacks_after(board, route)
            board.push_unchecked(board.parse_move("x".join(geo.square_name(s) for s in route)))
            expected = {sq: (st.owner, st.caps, st.prisoners) for sq, st in board.stacks().items()}
            board.pop()
            assert after == expected


def test_capture_in_progress_planes_on_the_oracle_games_R9_R10() -> None:
    for game in oracle_games()[:10] + oracle_hex_games()[:5]:
        board = Board(game["plies"][0]["position"])
        for ply in game["plies"]:
            if board.is_capturing():
                _capture_prefixes(board)
            board.push_move(ply["played"])


# --- PettingZoo ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_test(variant: str) -> None:
    api_test(emergo_v0.env(variant=variant), num_cycles=300)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_seed_test(variant: str) -> None:
    seed_test(lambda: emergo_v0.env(variant=variant), num_cycles=100)


def play_random(env: object, rng: random.Random) -> dict[str, float]:
    """Play one game with random legal actions; the final cumulative rewards."""
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        observation, reward, termination, truncation, _ = env.last()  # type: ignore[attr-defined]
        rewards[agent] = reward
        if termination or truncation:
            env.step(None)  # type: ignore[attr-defined]
            continue
        mask = observation["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))  # type: ignore[attr-defined]
    return rewards


@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_games_end_with_win_loss_or_draw_R18_R19(variant: str) -> None:
    rng = random.Random(5)
    for _ in range(3):
        env = emergo_v0.env(variant=variant)
        env.reset(seed=1)
        rewards = play_random(env, rng)
        board = env.unwrapped.board
        outcome = board.outcome()
        assert outcome is not None
        if outcome.winner is None:
            assert rewards == {"player_0": 0.0, "player_1": 0.0}
        else:
            winner = "player_0" if outcome.winner else "player_1"
            loser = "player_1" if outcome.winner else "player_0"
            assert rewards[winner] == 1.0 and rewards[loser] == -1.0


def test_pettingzoo_capture_keeps_the_same_agent_R10_R12() -> None:
    env = emergo_v0.env(variant="9x9")
    # The MindSports example: the one legal move is e4xc4xc6xe6xe4xc4, five hops.
    env.reset(options={"position": "w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b"})
    agent = env.agent_selection
    assert agent == "player_0"
    board = env.unwrapped.board
    hops = board.generate().size
    assert hops == 5
    for i in range(hops):
        assert env.agent_selection == agent
        observation, *_ = env.last()
        assert observation["observation"][obs.CAPTURE_AT].sum() == (1 if i else 0)
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert [str(m) for m in board.move_stack] == ["e4xc4xc6xe6xe4xc4"]
    assert env.agent_selection == "player_1"


def test_pettingzoo_repetition_draw_R19b() -> None:
    game = next(g for g in oracle_games() if g["termination"] == "repetition")
    env = emergo_v0.env()
    env.reset()
    space = action_space()
    for ply in game["plies"]:
        assert not any(env.terminations.values())
        board = env.unwrapped.board
        for action in space.encode(board.parse_move(ply["played"])):
            env.step(action)
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert "R19b" in env.infos["player_0"]["reason"]


def test_pettingzoo_truncation_at_max_plies() -> None:
    env = emergo_v0.env(variant="7x7", max_plies=5)
    env.reset()
    play_random(env, random.Random(0))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert len(env.unwrapped.board.move_stack) == 5


def test_pettingzoo_render_modes() -> None:
    env = emergo_v0.env(variant="9x9", render_mode="ansi")
    env.reset()
    assert "White" in env.render()
    for variant in VARIANTS:
        env = emergo_v0.env(variant=variant, render_mode="rgb_array")
        env.reset()
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
        picture = env.render()
        assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
        assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 4


def test_pettingzoo_illegal_action_raises() -> None:
    env = emergo_v0.env()
    env.reset()
    with pytest.raises(ValueError, match="not legal"):
        env.step(action_space().enter(env.unwrapped.board.geometry.centre))  # R16


def test_pettingzoo_terminate_illegal_wrapper() -> None:
    env = wrappers.TerminateIllegalWrapper(emergo_v0.raw_env(), illegal_reward=-1)
    env.reset()
    env.last()
    env.step(action_space().enter(Board().geometry.centre))  # R16
    assert all(env.terminations.values())
    assert env.rewards["player_0"] == -1


# --- Gymnasium ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "opponent"),
    [("9x9", "random"), ("9x9", "greedy"), ("9x9", "engine"), ("7x7", "engine"), ("hex", "greedy")],
)
def test_gymnasium_check_env(variant: str, opponent: str) -> None:
    env = gymnasium.make(
        "emergo/Emergo-v0", variant=variant, opponent=opponent, color="random", render_mode="ansi"
    )
    check_env(env.unwrapped)


@pytest.mark.parametrize("color", ["white", "black"])
def test_gymnasium_game_against_greedy(color: str) -> None:
    env = EmergoEnv(variant="7x7", opponent="greedy", color=color)
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(2000):
        action = rng.choice(np.flatnonzero(observation["action_mask"]))
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert terminated
    assert reward in (-1.0, 0.0, 1.0)
    assert info["result"] in ("1-0", "0-1", "1/2-1/2")
    assert "illegal_action" not in info


def test_gymnasium_illegal_action_ends_the_episode() -> None:
    env = EmergoEnv(variant="9x9")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(action_space().enter(Board().geometry.centre))
    assert terminated and reward == -1.0 and info["illegal_action"]


def test_the_action_mask_is_the_legal_actions() -> None:
    board = Board("w 0/0 c5:b d4:w2b2 d6:b e4:w3 e5:b")
    env = emergo_v0.env()
    env.reset(options={"position": board.position()})
    mask = env.last()[0]["action_mask"]
    assert np.flatnonzero(mask).tolist() == legal_actions(board)
    route = apply(board, (), legal_actions(board)[0])
    env.step(legal_actions(Board(board.position()))[0])
    assert np.flatnonzero(env.last()[0]["action_mask"]).tolist() == legal_actions(board, route)


# --- the specification, pinned ------------------------------------------------------------------


def observation_signature(games: list[dict[str, object]]) -> str:
    """SHA-256 over the planes (both players) and masks at every action of the games played."""
    digest = hashlib.sha256()
    for game in games:
        board = Board(game["plies"][0]["position"])  # type: ignore[index]
        for ply in game["plies"]:  # type: ignore[attr-defined]
            route: tuple[int, ...] = ()
            for action in action_space(board.variant).encode(board.parse_move(ply["played"])):
                mask = np.zeros(action_space(board.variant).size, dtype=np.int8)
                mask[legal_actions(board, route)] = 1
                digest.update(mask.tobytes())
                for player in (True, False):
                    digest.update(obs.planes(board, route, player).tobytes())
                route = apply(board, route, action)
        digest.update(obs.planes(board).tobytes())
    return digest.hexdigest()


def test_observation_signature_is_pinned() -> None:
    """The planes and masks of docs/research.md, byte for byte, at every action of AbstractPlay
    games 1-2 and HexEmergo game 1 (the C batch environment must give the same bytes).  A change
    of the specification changes this signature: update docs/research.md with it."""
    games = oracle_games()[:2] + oracle_hex_games()[:1]
    assert observation_signature(games)[:16] == "149ee1190e17e9a3"
