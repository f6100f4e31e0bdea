#!/usr/bin/env bash
# Set up the project in a fresh virtual environment and run every check: lint, format, types,
# the whole test suite, the web front end's type check and lint, and the differential tests
# against a sanitizer build of the C kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install -q -e '.[test,webtest]'
# The web app's browser tests drive the system's Chromium (playwright downloads no browser).
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing chromium for the browser tests"
  apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null
fi
echo "== ruff check"; .venv/bin/ruff check .
echo "== ruff format --check"; .venv/bin/ruff format --check .
echo "== mypy --strict"; .venv/bin/mypy
echo "== lint-imports (the layers of the module map)"; .venv/bin/lint-imports
echo "== web front end: tsc --checkJs and eslint (tools/web-check)"
if ! command -v npm >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -q >/dev/null && apt-get install -y -q nodejs npm >/dev/null
fi
(cd tools/web-check && npm ci --no-audit --no-fund --loglevel=error && npm run --silent check)
echo "== pytest"; .venv/bin/python -m pytest -q
if [ -f tools/sanitize.sh ]; then
  echo "== kernel under -fsanitize=address,undefined"; bash tools/sanitize.sh
fi
