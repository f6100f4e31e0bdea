#!/usr/bin/env bash
# Set up the project in a fresh virtual environment and run every check: lint, format, types,
# the whole test suite (with the sdist and wheel check), the install without a C compiler, and
# the differential tests against a sanitizer build of the C kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
# The kernel is optional for users (setup.py installs without it when it cannot be built);
# here it must build, and the kernel's tests must run, not skip.
export EMERGO_REQUIRE_KERNEL=1
.venv/bin/python -m pip install -q -e '.[test]'
echo "== ruff check"; .venv/bin/ruff check .
echo "== ruff format --check"; .venv/bin/ruff format --check .
echo "== mypy --strict"; .venv/bin/mypy
echo "== lint-imports (the layers of the module map)"; .venv/bin/lint-imports
echo "== pytest"; .venv/bin/python -m pytest -q
echo "== install without a C compiler, then the tests there (the kernel's tests skip)"
bash tools/no_compiler.sh
if [ -f tools/sanitize.sh ]; then
  echo "== kernel under -fsanitize=address,undefined"; bash tools/sanitize.sh
fi
