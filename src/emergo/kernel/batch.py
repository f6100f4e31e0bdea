"""Many games stepped at once for the research environments (issue 13): :class:`BatchEnv`.

NumPy is imported inside its methods only: importing :mod:`emergo.kernel` never needs it.
"""

from __future__ import annotations

from typing import Any

from emergo import _kernel
from emergo.board import Board, Color
from emergo.geometry import GEOMETRIES
from emergo.kernel.positions import Position, checked_count, checked_seed, pack

__all__ = ["BatchEnv"]


class BatchEnv:
    """``n`` games of one variant stepped together in C: one action per game per :meth:`step`.

    The action indices, the legal action masks and the observation planes are those of
    :mod:`emergo.envs` (``actions.py``, ``observation.py``) byte for byte: an action is one
    entry, one step or ONE HOP of a capture, and during a capture of several hops the same
    player acts again.  The observation of each game is for its side to move (``to_play``:
    0 White = ``player_0``, 1 Black = ``player_1``).  ``rewards[i]`` is the reward of the
    player who took game ``i``'s action: +1 when that action won (R18), -1 when it lost, else
    0 (draws R19a, R19b, and truncation after ``max_plies`` whole moves).

    **Auto-reset.**  A game that ends is returned with its terminal observation, an all-zero
    mask, its reward and ``terminated`` (or ``truncated``) set; the NEXT :meth:`step` ignores
    the action given for it, starts it again from the root and returns the new game's first
    observation (reward 0, both flags False) -- Gymnasium's "next-step" autoreset.

    The step runs without the GIL, on the caller's thread and a pool of worker threads (two
    threads in all) from 128 games on.  ``compact=True`` gives the planes as ``uint8`` (the same
    values; 4 times fewer bytes) instead of ``float32``.  The arrays returned are read-only
    views of the environment's own buffers, overwritten by the next call: copy what you keep
    (the planes are written incrementally, only what changed, so nobody else may write
    there).  ``seed`` seeds :meth:`sample` only (the environment itself is deterministic).
    Needs NumPy (the extra ``rl``).
    """

    def __init__(
        self,
        n: int,
        variant: str = "9x9",
        seed: int = 0,
        max_plies: int = 1000,
        *,
        compact: bool = False,
        position: Position | None = None,
    ) -> None:
        import numpy as np

        geo = GEOMETRIES.get(variant)
        if geo is None:
            raise ValueError(f"unknown variant {variant!r}: one of {', '.join(GEOMETRIES)}")
        self.n = checked_count(n, "n", 0, 2**24)
        self.variant = variant
        self.max_plies = checked_count(max_plies, "max_plies", 1)
        self.compact = bool(compact)
        root = pack(Board(variant=variant) if position is None else position, variant=variant)
        if root[0] != variant:
            raise ValueError(f"{position!r} is not a {variant} position")
        cells = []
        for sq in geo.squares:
            u, v = geo.uv(sq)
            cells.append((u - 1) * geo.size + (v - 1))
        self._c = _kernel.BatchEnv(
            self.n, root, self.max_plies, checked_seed(seed), cells, geo.size, self.compact
        )
        _, self.n_actions, planes, size, _ = self._c.info()
        dtype = np.uint8 if self.compact else np.float32
        buffers = (
            np.zeros((self.n, planes, size, size), dtype=dtype),
            np.zeros((self.n, self.n_actions), dtype=np.int8),
            np.zeros(self.n, dtype=np.float32),
            np.zeros(self.n, dtype=np.bool_),
            np.zeros(self.n, dtype=np.bool_),
            np.zeros(self.n, dtype=np.int8),
        )
        self._actions = np.zeros(self.n, dtype=np.int64)
        self._c.bind(*buffers, self._actions)
        # The C side writes the planes incrementally (only what changed since the last step):
        # the caller sees read-only views, so the buffers hold exactly what C wrote.
        views: list[Any] = []
        for buffer in buffers:
            view = buffer.view()
            view.flags.writeable = False
            views.append(view)
        self.obs, self.mask, self.rewards, self.terminated, self.truncated, self.to_play = views

    def reset(self, seed: int | None = None) -> tuple[Any, Any]:
        """Every game to the root: ``(obs, mask)``; ``seed`` reseeds :meth:`sample`.

        A root where the game is already over (R18, R19a) comes back ``terminated``.
        """
        self._c.reset(None if seed is None else checked_seed(seed))
        return self.obs, self.mask

    def step(self, actions: Any, *, illegal_ends: bool = False) -> tuple[Any, Any, Any, Any, Any]:
        """One action per game: ``(obs, mask, rewards, terminated, truncated)``.

        ``actions``: ``n`` ints (any array-like; a finished game's is ignored).  An illegal
        action is a ``ValueError`` naming the game, and then no game is stepped; with
        ``illegal_ends`` it ends its game instead, as a loss of the player who chose it
        (reward -1, ``terminated``, the observation of the position as it was, mask all 0).
        """
        if actions is not self._actions:
            self._actions[...] = self.check_actions(actions)
        self._c.step(illegal_ends)
        return self.obs, self.mask, self.rewards, self.terminated, self.truncated

    def check_actions(self, actions: Any) -> Any:
        """``actions`` as an array of ``n`` integers; ValueError naming a wrong shape or type
        (a float action is refused, never truncated to another action)."""
        import numpy as np

        acts = np.asarray(actions)
        if acts.shape != (self.n,):
            raise ValueError(f"actions: shape {acts.shape}, expected ({self.n},)")
        if not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"actions: integers expected (one action index a game), not {acts.dtype}"
            )
        return acts

    def sample(self) -> Any:
        """A uniformly random legal action per game (from the seeded C generator; 0 when done)."""
        self._c.sample()
        return self._actions

    def observe(self, color: Color) -> Any:
        """The planes of every game for ``color`` (a new array; :meth:`step` gives the mover's)."""
        import numpy as np

        out = np.zeros_like(self.obs)
        self._c.observe(bool(color), out)
        return out

    def rollout(self, steps: int) -> tuple[int, int]:
        """``steps`` batch steps with :meth:`sample`'s actions, all in C: ``(steps, games ended)``.

        The outputs are written at every step (so the time includes them); stops at Ctrl-C.
        """
        done, games = self._c.rollout(checked_count(steps, "steps"))
        return int(done), int(games)
