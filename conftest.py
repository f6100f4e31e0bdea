"""Doctest collection of src/emergo: a module whose imports are missing here is not collected.

The C kernel is optional (a machine without a compiler installs without it: docs/tablebase.md's
examples need it too), and so is the
research extra ``rl`` (numpy, PettingZoo, Gymnasium, Pillow, OpenSpiel): the docstring examples
of the modules that need them are left out when they are not installed.  The tests that need
them skip with a reason (tests/conftest.py ``requires_kernel``; ``importorskip`` in the envs
tests).
"""

from __future__ import annotations

import importlib.util

_KERNEL = "emergo._kernel"
_NEEDS = {
    "src/emergo/kernel.py": (_KERNEL,),
    "src/emergo/mcts.py": (_KERNEL,),
    "src/emergo/differential.py": (_KERNEL,),
    "src/emergo/selfplay.py": (_KERNEL,),
    "src/emergo/tablebase.py": (_KERNEL,),
    "docs/tablebase.md": (_KERNEL,),
    "src/emergo/ray_runner.py": ("ray",),
    "src/emergo/envs/observation.py": ("numpy",),
    "src/emergo/envs/render.py": ("numpy", "PIL"),
    "src/emergo/envs/emergo_v0.py": ("numpy", "PIL", "gymnasium", "pettingzoo"),
    "src/emergo/envs/gym_env.py": ("numpy", "PIL", "gymnasium", "pettingzoo"),
    "src/emergo/envs/vector.py": (_KERNEL, "numpy", "gymnasium"),
    "src/emergo/envs/openspiel.py": ("numpy", "PIL", "gymnasium", "pettingzoo", "pyspiel"),
}


def _missing(name: str) -> bool:
    try:
        spec = importlib.util.find_spec(name)
    except ImportError:  # a parent package that cannot be imported
        return True
    # src/emergo/_kernel/ (the C sources) looks like a namespace package: no origin, no module
    return spec is None or spec.origin is None


collect_ignore = [module for module, needs in _NEEDS.items() if any(map(_missing, needs))]
