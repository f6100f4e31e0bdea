#!/usr/bin/env bash
# Installing without a C compiler (issue 10): the package's files (tracked and new, as in the
# working tree, without any in-place built kernel) are copied to a temporary directory and
# installed (editable, with the test extra) into a second virtual environment with the compiler
# made unavailable (CC and LDSHARED are /bin/false).  Checked: the kernel's build really fails
# and pip still succeeds, emergo._kernel is absent, emergo.kernel refuses with its clear
# ImportError, perft falls back to the reference; then the tests run there: the kernel's tests
# skip, everything else passes.
#
# The whole suite runs there (about two minutes: the slow tests are mostly the kernel's, which
# skip) but for the sdist and wheel test, which builds the kernel with a compiler and runs in
# the normal suite; arguments replace that selection (e.g. tools/no_compiler.sh -m "not slow").
set -euo pipefail
unset EMERGO_REQUIRE_KERNEL  # tools/test.sh sets it for the normal install
# The fast loop's scale (a sample of the random games and hypothesis examples): the same Python
# ran every case in the suite; here what is checked is that each path works without the kernel.
export EMERGO_TEST_SCALE=quick

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/emergo-nocc.XXXXXX")"
trap 'rm -rf "$work"' EXIT

mkdir "$work/src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -x -C "$work/src"

# The oracle vectors beside the copy, as beside the repository (tests/rules/test_oracle.py).
if [ -d "$root/../shared" ]; then ln -s "$(cd "$root/../shared" && pwd)" "$work/shared"; fi

python3 -m venv "$work/venv"
py="$work/venv/bin/python"
echo "no_compiler.sh: pip install -e '.[test]' with CC=/bin/false LDSHARED=/bin/false"
if ! (cd "$work/src" &&
    CC=/bin/false LDSHARED=/bin/false "$py" -m pip install -v --no-compile -e '.[test]' >"$work/pip.log" 2>&1)
then
    tail -30 "$work/pip.log"
    echo "no_compiler.sh: pip install failed without a compiler" >&2
    exit 1
fi
grep -q "Successfully installed.* emergo-" "$work/pip.log"
if ! grep "WARNING: emergo: the C kernel emergo._kernel was not built" "$work/pip.log"; then
    echo "no_compiler.sh: the kernel's build did not fail (or did not say so)" >&2
    exit 1
fi

cd "$work/src"
"$py" - <<'EOF'
import importlib.util

spec = importlib.util.find_spec("emergo._kernel")
assert spec is None or spec.origin is None, f"emergo._kernel was built: {spec.origin}"
try:
    import emergo.kernel  # noqa: F401
except ImportError as e:
    assert e.name == "emergo._kernel" and "not built" in str(e), e
    print(f"no_compiler.sh: import emergo.kernel -> ImportError: {e}")
else:
    raise SystemExit("no_compiler.sh: emergo.kernel imported without its extension")

from emergo.players import backend
from emergo.pysearch import PythonSearcher

assert isinstance(backend("auto"), PythonSearcher), "backend('auto') is not the Python search"
EOF
test "$("$work/venv/bin/emergo" perft 3)" = 55172

if [ $# -eq 0 ]; then
    set -- --deselect tests/system/test_sdist.py::test_the_sdist_holds_what_a_build_needs_and_its_wheel_works
fi
echo "no_compiler.sh: the tests without the kernel ($*)"
"$py" -m pytest -q -p no:cacheprovider -n "${EMERGO_TEST_WORKERS:-2}" --dist loadfile "$@"
