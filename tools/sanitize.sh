#!/usr/bin/env bash
# Sanitizer build of the C kernel: emergo._kernel compiled with
# -fsanitize=address,undefined (and EMERGO_SMALL_BUFFERS, so every move list
# outgrows its inline buffer and the heap path runs) into build-asan/, then the
# kernel's differential tests (tests/kernel/test_kernel.py) and the search tests
# (tests/kernel/test_kernel_search.py, less the full-depth bench signature, too slow
# here: EMERGO_SANITIZE=1 skips it) and the batched environment's agreement tests
# (tests/kernel/test_batchenv.py, EMERGO_BATCHENV_GAMES games per variant, and the Gymnasium vector
# env over it, tests/envs/test_envs_vector.py; its threads run
# under ASan too) and the endgame tables' tests (tests/kernel/test_tablebase*.py: builds, checks
# of every 2-column state, the engine with the tables; the checks of tens of millions of
# positions are left out) run against that build.
#
# Non-interactive; exit status is pytest's.  Python itself is not built with
# ASan, so libasan is preloaded and leak detection is off (CPython keeps
# memory until exit).  Any ASan or UBSan report aborts the run.
#
#   tools/sanitize.sh                 # the kernel tests with 500 random games per variant
#                                     # and perft.txt counts up to 2e8 nodes
#   EMERGO_KERNEL_GAMES=2000 tools/sanitize.sh -x
#   PYTHON=/path/to/python SANITIZE_CC=gcc tools/sanitize.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${PYTHON:-$root/.venv/bin/python}"
[ -x "$python" ] || python="$(command -v python3)"
cc="${SANITIZE_CC:-gcc}"
out="$root/build-asan"

# setup.py build_ext needs setuptools in this interpreter (venvs of Python >= 3.12 lack it).
"$python" -c "import setuptools" 2>/dev/null || "$python" -m pip install -q setuptools

rm -rf "$out"
mkdir -p "$out/pkg/emergo" "$out/tmp"
# The package's files (its Python, data, the server's pages, course and migrations), without
# any in-place built extension.
(cd src/emergo && find . -name '__pycache__' -prune -o -type f ! -name '*.so' -print |
    while read -r f; do mkdir -p "$out/pkg/emergo/$(dirname "$f")"; cp "$f" "$out/pkg/emergo/$f"; done)

flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1"
flags="$flags -DEMERGO_SMALL_BUFFERS"
echo "sanitize.sh: building emergo._kernel with $cc: $flags"
CC="$cc" LDSHARED="$cc -shared" CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined" \
    "$python" setup.py -q build_ext --build-lib "$out/pkg" --build-temp "$out/tmp" --force

libasan="$("$cc" -print-file-name=libasan.so)"
libubsan="$("$cc" -print-file-name=libubsan.so)"
export LD_PRELOAD="$libasan $libubsan"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export PYTHONPATH="$out/pkg"
export EMERGO_KERNEL_GAMES="${EMERGO_KERNEL_GAMES:-500}"
export EMERGO_KERNEL_PERFT_MAX="${EMERGO_KERNEL_PERFT_MAX:-2e8}"
export EMERGO_BATCHENV_GAMES="${EMERGO_BATCHENV_GAMES:-200}"
export EMERGO_SANITIZE=1

# Make sure the tests will load the sanitized build, not the in-place one.
"$python" - <<'EOF'
import emergo._kernel as k
assert "build-asan" in k.__file__, f"wrong kernel loaded: {k.__file__}"
print(f"sanitize.sh: testing {k.__file__}")
EOF
exec "$python" -m pytest -q -p no:cacheprovider tests/kernel/test_kernel.py tests/kernel/test_kernel_search.py \
    tests/kernel/test_batchenv.py tests/envs/test_envs_vector.py tests/kernel/test_tablebase.py \
    tests/kernel/test_tablebase_engine.py "$@"
