"""Doctest collection: the modules of emergo.envs that need the optional extra ``rl``
(numpy, PettingZoo, Gymnasium, Pillow, OpenSpiel) are skipped when it is not installed."""

from __future__ import annotations

import importlib.util

_ENVS = "src/emergo/envs/"
_NEEDS = {
    "observation.py": ("numpy",),
    "render.py": ("numpy", "PIL"),
    "emergo_v0.py": ("numpy", "PIL", "gymnasium", "pettingzoo"),
    "gym_env.py": ("numpy", "PIL", "gymnasium", "pettingzoo"),
    "openspiel.py": ("numpy", "PIL", "gymnasium", "pettingzoo", "pyspiel"),
}

collect_ignore = [
    _ENVS + module
    for module, needs in _NEEDS.items()
    if any(importlib.util.find_spec(name) is None for name in needs)
]
