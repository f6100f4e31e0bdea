"""Build of the C kernel extension ``emergo._kernel`` (metadata lives in pyproject.toml).

On x86-64 the kernel is compiled with POPCNT (every x86-64 CPU since 2008,
part of x86-64-v2): bit counting is most of move generation and the portable
fallback costs about a third of the speed.  The module refuses to load with a
clear message on a CPU without it; ``EMERGO_PORTABLE=1`` builds without.
"""

import os
import platform

from setuptools import Extension, setup

KERNEL = "src/emergo/_kernel/"
SOURCES = [
    "geometry.c",
    "position.c",
    "movegen.c",
    "perft.c",
    "playout.c",
    "eval.c",
    "tt.c",
    "movepick.c",
    "search.c",
    "replay.c",
    "selfcheck.c",
    "bind_common.c",
    "bind_rules.c",
    "bind_games.c",
    "bind_eval.c",
    "bind_search.c",
    "module.c",
]
HEADERS = [
    "geometry.h",
    "position.h",
    "rng.h",
    "halt.h",
    "movegen.h",
    "perft.h",
    "playout.h",
    "replay.h",
    "selfcheck.h",
    "eval.h",
    "tt.h",
    "movepick.h",
    "search.h",
    "bind.h",
]

flags = ["-O3"]
if platform.machine().lower() in ("x86_64", "amd64") and not os.environ.get("EMERGO_PORTABLE"):
    flags.append("-mpopcnt")

setup(
    ext_modules=[
        Extension(
            "emergo._kernel",
            sources=[KERNEL + name for name in SOURCES],
            depends=[KERNEL + name for name in HEADERS],
            extra_compile_args=flags,
        )
    ],
)
