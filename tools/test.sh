#!/usr/bin/env bash
# Set up the project in a fresh virtual environment and run every check: lint, format, types,
# the whole test suite, and the differential tests against a sanitizer build of the C kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q -e '.[test,rl]'  # rl: the research environments' tests
echo "== ruff check"; .venv/bin/ruff check .
echo "== ruff format --check"; .venv/bin/ruff format --check .
echo "== mypy --strict"; .venv/bin/mypy
echo "== lint-imports (the layers of the module map)"; .venv/bin/lint-imports
echo "== pytest"; .venv/bin/python -m pytest -q
if [ -f tools/sanitize.sh ]; then
  echo "== kernel under -fsanitize=address,undefined"; bash tools/sanitize.sh
fi
