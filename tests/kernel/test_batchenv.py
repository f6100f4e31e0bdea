"""The batched C environment (emergo.kernel.BatchEnv) against the Python reference emergo.envs.

Hundreds of seeded games per variant drive both at once: random legal actions chosen by a
seeded Python RNG from the reference's mask, and at every step the observation planes (byte
for byte), the mask, the reward, the done flags and the player to move must agree.  Then the
pinned SHA-256 of the oracle games (tests/test_envs.py) is reproduced from the C side.

``EMERGO_BATCHENV_GAMES`` sets the games per variant (tools/sanitize.sh runs fewer; 400 in the
full run, EMERGO_TEST_SCALE=full; 64 in the fast loop, a game a slot).
Skipped unless the optional extra ``rl`` is installed.
"""

from __future__ import annotations

import hashlib
import os
import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from tests.plugins.common import (  # noqa: E402
    oracle_games,
    oracle_hex_games,
    requires_kernel,
    scaled,
)

requires_kernel()

from emergo import Board  # noqa: E402
from emergo.envs import emergo_v0  # noqa: E402
from emergo.envs.actions import action_space  # noqa: E402
from emergo.kernel import BatchEnv  # noqa: E402

GAMES = int(os.environ.get("EMERGO_BATCHENV_GAMES", scaled(400, 64)))
PARALLEL = 64
SEEDS = {"9x9": 9, "7x7": 7, "hex": 37}


def _reference(env: emergo_v0.raw_env) -> tuple[bytes, bytes, int]:
    """(planes, mask, to_play) of the reference for its agent to move."""
    agent = env.agent_selection
    seen = env.observe(agent)
    return (
        seen["observation"].tobytes(),
        seen["action_mask"].tobytes(),
        emergo_v0.AGENTS.index(agent),
    )


def _agree(
    variant: str, games: int, max_plies: int, seed: int, parallel: int = PARALLEL
) -> tuple[int, int]:
    """Drive ``parallel`` reference envs and one BatchEnv until ``games`` games ended."""
    rng = random.Random(seed)
    refs = [emergo_v0.raw_env(variant=variant, max_plies=max_plies) for _ in range(parallel)]
    for ref in refs:
        ref.reset()
    batch = BatchEnv(parallel, variant, seed=seed, max_plies=max_plies)
    compact = BatchEnv(parallel, variant, seed=seed, max_plies=max_plies, compact=True)
    obs, mask = batch.reset()
    compact.reset()
    for i, ref in enumerate(refs):
        planes, legal, to_play = _reference(ref)
        assert obs[i].tobytes() == planes and mask[i].tobytes() == legal
        assert batch.to_play[i] == to_play
    ended = steps = 0
    actions = np.zeros(parallel, dtype=np.int64)
    done = [False] * parallel
    while ended < games:
        actors = []
        for i, ref in enumerate(refs):
            actors.append(ref.agent_selection)
            if done[i]:
                actions[i] = rng.randrange(batch.n_actions)  # ignored: the game restarts
                ref.reset()
            else:
                legal = np.flatnonzero(ref.observe(ref.agent_selection)["action_mask"])
                actions[i] = legal[rng.randrange(len(legal))]
                ref.step(int(actions[i]))
        obs, mask, rewards, terminated, truncated = batch.step(actions)
        cobs = compact.step(actions)[0]
        steps += parallel
        for i, ref in enumerate(refs):
            planes, legal, to_play = _reference(ref)
            where = f"{variant} game slot {i}, ply {len(ref.board.move_stack)}"
            assert obs[i].tobytes() == planes, where
            assert np.array_equal(cobs[i], obs[i]), where
            assert mask[i].tobytes() == legal, where
            assert batch.to_play[i] == to_play, where
            reward = 0.0 if done[i] else ref.rewards[actors[i]]
            assert rewards[i] == reward, where
            over = not done[i] and any(ref.terminations.values())
            cut = not done[i] and any(ref.truncations.values())
            assert (bool(terminated[i]), bool(truncated[i])) == (over, cut), where
            done[i] = over or cut
            ended += done[i]
    return ended, steps


@pytest.mark.parametrize(
    ("variant", "max_plies", "parallel"),
    [("9x9", 1000, 64), ("7x7", 40, 64), ("hex", 1000, 64), ("9x9", 60, 160)],
)
def test_batch_env_agrees_with_the_python_env(variant: str, max_plies: int, parallel: int) -> None:
    """160 games: the batch is split over two threads (BENV_THREAD_MIN is 128)."""
    games = GAMES if max_plies == 1000 or variant == "7x7" else max(GAMES // 5, 10)
    ended, steps = _agree(variant, games, max_plies, SEEDS[variant] + max_plies, parallel)
    assert ended >= games and steps > games * 20


def test_threads_change_nothing() -> None:
    """A 200-game batch (two threads) equals 200 one-game batches (one thread each)."""
    big = BatchEnv(200, "7x7", seed=5, max_plies=50)
    small = [BatchEnv(1, "7x7", seed=5 + i, max_plies=50) for i in range(200)]
    big.reset()
    for env in small:
        env.reset()
    for _ in range(150):
        acts = big.sample().copy()
        big.step(acts)
        for i, env in enumerate(small):
            assert env.sample()[0] == acts[i]
            obs, mask, rewards, terminated, truncated = env.step(acts[i : i + 1])
            assert np.array_equal(obs[0], big.obs[i]) and np.array_equal(mask[0], big.mask[i])
            assert (rewards[0], terminated[0], truncated[0]) == (
                big.rewards[i],
                big.terminated[i],
                big.truncated[i],
            )


def test_an_interrupted_rollout_leaves_the_env_usable(python_sigint: None) -> None:
    import _thread
    import threading

    env = BatchEnv(256, "9x9", seed=3)
    env.reset()
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):  # 10**12 plies: only the interrupt ends it
        env.rollout(10**12)
    timer.join()
    env.step(env.sample())  # every game stepped whole: the masks given are legal
    assert env.rollout(10)[0] == 10


def test_illegal_action_steps_no_game() -> None:
    env = BatchEnv(3, "7x7")
    env.reset()
    before = env.obs.copy()
    with pytest.raises(ValueError, match="game 1: action 224 is not legal"):
        env.step([0, 224, 0])
    with pytest.raises(ValueError, match="shape"):
        env.step([0, 0])
    assert np.array_equal(env.obs, before)


def test_sample_is_seeded_and_legal() -> None:
    a, b = BatchEnv(50, "hex", seed=7), BatchEnv(50, "hex", seed=7)
    a.reset()
    b.reset()
    for _ in range(200):
        acts = a.sample().copy()
        assert np.array_equal(acts, b.sample())
        legal = a.mask[np.arange(50), acts] == 1
        assert np.all(legal | a.terminated | a.truncated)
        a.step(acts)
        b.step(acts)
    assert a.rollout(300) == b.rollout(300)


def test_observation_signature_from_the_c_side() -> None:
    """The pinned signature of tests/test_envs.py, the planes and masks written by BatchEnv."""
    digest = hashlib.sha256()
    for game in oracle_games()[:2] + oracle_hex_games()[:1]:
        board = Board(game["plies"][0]["position"])
        env = BatchEnv(1, board.variant, position=board.position())
        _, mask = env.reset()
        for ply in game["plies"]:
            move = board.parse_move(ply["played"])
            for action in action_space(board.variant).encode(move):
                digest.update(mask[0].tobytes())
                for white in (True, False):
                    digest.update(env.observe(white)[0].tobytes())
                obs, mask = env.step([action])[:2]
            board.push(move)
        digest.update(obs[0].tobytes())
    assert digest.hexdigest()[:16] == "149ee1190e17e9a3"


def test_importing_the_kernel_needs_no_numpy() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['numpy'] = None; import emergo.kernel, emergo.players; print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


def test_a_root_that_is_over_comes_back_terminated() -> None:
    position = "w 0/0 c5:b"  # White has no man (R18)
    env = BatchEnv(2, "9x9", position=position)
    obs, mask = env.reset()
    ref = emergo_v0.raw_env()
    ref.reset(options={"position": position})
    planes, legal, to_play = _reference(ref)
    assert all(ref.terminations.values())
    assert env.terminated.all() and not env.truncated.any() and not mask.any()
    assert obs[0].tobytes() == planes and mask[0].tobytes() == legal and env.to_play[0] == to_play
    obs, mask, rewards, terminated, _ = env.step([0, 0])  # restarts from the root: over again
    assert terminated.all() and not rewards.any() and obs[1].tobytes() == planes


def test_the_arrays_are_read_only_views() -> None:
    """The planes are written incrementally: nobody else may write into the buffers."""
    env = BatchEnv(2, "7x7")
    obs, mask = env.reset()
    for array in (obs, mask, env.rewards, env.terminated, env.truncated, env.to_play):
        assert not array.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0, 0, 0] = 5


def test_buffers_bound_again_get_every_plane_written() -> None:
    """bind() forgets the incremental state: a buffer bound again (as a new buffer at a
    reused address would be) is written whole by the next step, never patched."""
    env, twin = BatchEnv(3, "7x7", seed=2), BatchEnv(3, "7x7", seed=2)
    env.reset(), twin.reset()
    for _ in range(5):
        actions = twin.sample().copy()
        env.step(actions), twin.step(actions)
    assert np.array_equal(env.obs, twin.obs)
    buffers = [a.base for a in (env.obs, env.mask, env.rewards)]
    buffers += [a.base for a in (env.terminated, env.truncated, env.to_play)]
    buffers[0][...] = 7  # scribbled while unbound
    env._c.bind(*buffers, env._actions)
    actions = twin.sample().copy()
    env.step(actions), twin.step(actions)
    assert np.array_equal(env.obs, twin.obs)


def test_float_actions_are_refused_not_truncated() -> None:
    env = BatchEnv(2, "7x7")
    env.reset()
    with pytest.raises(ValueError, match=r"integers expected.*float64"):
        env.step(np.array([0.9, 1.2]))


def test_an_illegal_action_can_end_its_game() -> None:
    """step(illegal_ends=True): that game ends as its player's loss; the others step."""
    env = BatchEnv(3, "7x7")
    env.reset()
    before = env.obs.copy()
    obs, mask, rewards, terminated, truncated = env.step([0, 224, -1], illegal_ends=True)
    assert rewards.tolist() == [0.0, -1.0, -1.0] and terminated.tolist() == [False, True, True]
    assert not truncated.any() and not mask[1:].any() and mask[0].any()
    assert env.to_play.tolist() == [1, 0, 0]  # the position as it was: White still to move
    assert np.array_equal(obs[1:], before[1:]) and not np.array_equal(obs[0], before[0])
    obs, mask, rewards, terminated, _ = env.step(env.sample())  # the two restart
    assert not terminated.any() and np.array_equal(obs[1:], before[1:]) and mask[1:].any()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_steps_without_the_parents_threads() -> None:
    """The worker threads stay in the parent: a child steps the batch on its own thread."""
    env = BatchEnv(200, "7x7", seed=1)
    env.reset()
    env.rollout(20)  # the threads are running
    expected = BatchEnv(200, "7x7", seed=1)
    expected.reset()
    expected.rollout(70)
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child)
        ok = env.rollout(50)[0] == 50 and np.array_equal(env.obs, expected.obs)
        del env
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert env.rollout(50)[0] == 50 and np.array_equal(env.obs, expected.obs)
