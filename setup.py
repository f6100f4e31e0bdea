"""Build of the C kernel extension ``emergo._kernel`` (metadata lives in pyproject.toml).

On x86-64 the kernel is compiled with POPCNT (every x86-64 CPU since 2008,
part of x86-64-v2): bit counting is most of move generation and the portable
fallback costs about a third of the speed.  The module refuses to load with a
clear message on a CPU without it; ``EMERGO_PORTABLE=1`` builds without.

The kernel is optional: when it cannot be built (no C compiler, a failed
compile), the install goes on without it, says so in one line, and the
package runs on its pure-Python reference (slower).  ``EMERGO_REQUIRE_KERNEL=1``
makes a failed build an error (tools/test.sh sets it).
"""

import os
import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

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
    "batchenv.c",
    "tb.c",
    "tbgen.c",
    "bind_common.c",
    "bind_rules.c",
    "bind_games.c",
    "bind_eval.c",
    "bind_search.c",
    "bind_batch.c",
    "bind_tb.c",
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
    "batchenv.h",
    "tb.h",
    "bind.h",
]

flags = ["-O3", "-pthread"]  # -pthread: batchenv.c splits a batch over threads
if platform.machine().lower() in ("x86_64", "amd64") and not os.environ.get("EMERGO_PORTABLE"):
    flags.append("-mpopcnt")


class OptionalBuildExt(build_ext):
    """build_ext that installs without the kernel when it cannot be compiled, saying so."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except (CCompilerError, BaseError) as e:  # no compiler, a failed compile or link
            if not ext.optional:
                raise
            why = " ".join(str(e).split())
            why = why if len(why) <= 100 else why[:97] + "..."
            print(
                f"WARNING: emergo: the C kernel {ext.name} was not built ({why}); "
                "emergo works without it, on its pure-Python reference (slower)",
                file=sys.stderr,
            )


setup(
    cmdclass={"build_ext": OptionalBuildExt},
    ext_modules=[
        Extension(
            "emergo._kernel",
            sources=[KERNEL + name for name in SOURCES],
            depends=[KERNEL + name for name in HEADERS],
            extra_compile_args=flags,
            extra_link_args=["-pthread"],
            optional=not os.environ.get("EMERGO_REQUIRE_KERNEL"),
        )
    ],
)
