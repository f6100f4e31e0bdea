"""The Gymnasium vector environment (emergo.envs.vector.EmergoVectorEnv, self-play in C).

It must give what Gymnasium's own SyncVectorEnv gives over N single self-play environments on
the pure-Python rules library (EmergoSelfPlayEnv), next-step autoreset included: observations
byte for byte, rewards, flags and every info array, on seeded games with random legal actions
and now and then an illegal one.  Skipped unless the optional extra ``rl`` is installed.
"""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from tests.plugins.common import requires_kernel  # noqa: E402

requires_kernel()

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from emergo.envs.vector import EmergoSelfPlayEnv, EmergoVectorEnv  # noqa: E402


def _same_infos(ours: dict, theirs: dict, where: str) -> None:
    assert sorted(ours) == sorted(theirs), where
    for key, value in theirs.items():
        assert value.dtype == ours[key].dtype, (where, key)
        assert np.array_equal(ours[key], value), (where, key)


@pytest.mark.parametrize(
    ("variant", "num_envs", "max_plies", "steps"),
    [("7x7", 6, 30, 400), ("9x9", 5, 60, 400), ("hex", 4, 40, 300), ("9x9", 130, 25, 60)],
)
def test_agrees_with_sync_vector_env_of_single_envs(
    variant: str, num_envs: int, max_plies: int, steps: int
) -> None:
    """130 games: the C batch runs on two threads (BENV_THREAD_MIN is 128)."""
    rng = random.Random(num_envs * max_plies)
    ours = EmergoVectorEnv(num_envs, variant, max_plies=max_plies, illegal_reward=-2.0)
    theirs = SyncVectorEnv(
        [
            lambda: EmergoSelfPlayEnv(variant, max_plies=max_plies, illegal_reward=-2.0)
            for _ in range(num_envs)
        ],
        autoreset_mode=AutoresetMode.NEXT_STEP,
    )
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"]
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert ours.single_observation_space == theirs.single_observation_space
    o1, i1 = ours.reset(seed=3)
    o2, i2 = theirs.reset(seed=3)
    assert o1.dtype == o2.dtype and o1.tobytes() == o2.tobytes()
    _same_infos(i1, i2, "reset")
    mask = i2["action_mask"]
    ends = illegal = 0
    for step in range(steps):
        actions = np.zeros(num_envs, dtype=np.int64)
        for i in range(num_envs):
            legal = np.flatnonzero(mask[i])
            if rng.random() < 0.01 or not len(legal):  # an illegal action (or a reset step)
                actions[i] = rng.choice([-1, ours.single_action_space.n, 0, 7])
            else:
                actions[i] = legal[rng.randrange(len(legal))]
        r1 = ours.step(actions)
        r2 = theirs.step(actions)
        where = f"{variant} step {step}"
        assert r1[0].dtype == r2[0].dtype and r1[0].tobytes() == r2[0].tobytes(), where
        for k in (1, 2, 3):
            assert r1[k].dtype == r2[k].dtype and np.array_equal(r1[k], r2[k]), (where, k)
        _same_infos(r1[4], r2[4], where)
        assert ours.observation_space.contains(r1[0]), where
        ends += int(np.count_nonzero(r1[2] | r1[3]))
        illegal += int(np.count_nonzero(r1[4]["illegal_action"]))
        mask = r2[4]["action_mask"]
    assert ends >= num_envs and illegal > 0
    ours.close()
    theirs.close()


def test_make_vec_and_make() -> None:
    envs = gymnasium.make_vec(
        "emergo/EmergoSelfPlay-v0",
        num_envs=3,
        vectorization_mode="vector_entry_point",
        variant="7x7",
    )
    assert isinstance(envs.unwrapped, EmergoVectorEnv)
    observations, infos = envs.reset(seed=0)
    assert observations.shape == (3, 17, 7, 7) and infos["action_mask"].sum(axis=1).tolist() == [
        24,
        24,
        24,
    ]
    envs.close()
    env = gymnasium.make("emergo/EmergoSelfPlay-v0", variant="hex")
    observation, info = env.reset(seed=0)
    assert observation.shape == (17, 7, 7) and info["to_play"] == 0
    env.close()


@pytest.mark.parametrize("variant", ["9x9", "7x7", "hex"])
def test_the_single_env_passes_gymnasiums_checker(variant: str) -> None:
    check_env(EmergoSelfPlayEnv(variant), skip_render_check=True)


def test_copy_or_views() -> None:
    fresh = EmergoVectorEnv(2, "7x7")
    first, _ = fresh.reset()
    second, *_ = fresh.step(np.array([0, 1]))
    assert not np.array_equal(first, second) and first.flags.writeable  # copies
    views = EmergoVectorEnv(2, "7x7", copy=False, compact=True)
    first, _ = views.reset()
    assert first.dtype == np.uint8 and not first.flags.writeable
    second, *_, infos = views.step(np.array([0, 1]))
    assert np.shares_memory(first, second)  # the same buffer, overwritten
    assert not infos["action_mask"].flags.writeable


def test_a_root_that_is_over_is_refused() -> None:
    with pytest.raises(ValueError, match="over"):
        EmergoVectorEnv(2, "9x9", position="w 0/0 c5:b")


def test_actions_of_the_wrong_shape_or_type_are_refused_naming_them() -> None:
    envs = EmergoVectorEnv(2, "7x7")
    _, infos = envs.reset(seed=1)
    legal = infos["action_mask"].argmax(axis=1)
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        envs.step(np.array([0, 1, 2]))
    with pytest.raises(ValueError, match=r"integers expected.*float64"):
        envs.step(legal.astype(np.float64))
    _, _, terminated, _, infos = envs.step(legal)  # nothing was half-applied
    assert not terminated.any() and not infos["illegal_action"].any()
