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


def _missing(name: str) -> bool:
    try:
        spec = importlib.util.find_spec(name)
    except ImportError:  # a parent package that cannot be imported
        return True
    # src/emergo/_kernel/ (the C sources) looks like a namespace package: no origin, no module
    return spec is None or spec.origin is None


# emergo.ray_runner imports the extra ``ray``; emergo.selfplay's examples play with the C kernel.
collect_ignore += [
    module
    for module, needs in {
        "src/emergo/ray_runner.py": "ray",
        "src/emergo/selfplay.py": "emergo._kernel",
    }.items()
    if _missing(needs)
]
