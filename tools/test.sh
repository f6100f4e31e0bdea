#!/usr/bin/env bash
# Set up the project in a fresh virtual environment and run every check: lint, format, types,
# the whole test suite (with the sdist and wheel check), the web front end's type check, lint and
# unit tests,
# the install without a C compiler, and the differential tests against a sanitizer build of the
# C kernel.
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite starts a thousand Python processes (commands, servers, bots): with the bytecode
# cache off (PYTHONDONTWRITEBYTECODE, set in some containers) each compiled the sources it
# imports again, 0.45 s of CPU a server and 0.2 s a command.
unset PYTHONDONTWRITEBYTECODE
# The install without a C compiler and its tests, then the kernel under the sanitizers, run
# beside everything else at a low priority (nice 15): the installs and the type check below
# use one core of two, the suite's tests often wait (servers, browsers, clocks), and these fill
# the other then; one after the other they took 20 minutes on the 2-core machines.  Their
# output is shown once the suite is done.  The sanitizers' build needs this install's
# environment: it waits for $installed.
beside="$(mktemp "${TMPDIR:-/tmp}/emergo-beside.XXXXXX")"
installed="$beside.installed"
# a process group of its own (setsid), so that a failed or interrupted run stops all of it
setsid nice -n 15 bash -c '
  set -euo pipefail
  echo "== install without a C compiler, then the tests there (the kernel'"'"'s tests skip)"
  bash tools/no_compiler.sh
  while [ ! -e "$1" ]; do sleep 1; done
  if [ -f tools/sanitize.sh ]; then
    echo "== kernel under -fsanitize=address,undefined"; bash tools/sanitize.sh
  fi' beside "$installed" >"$beside" 2>&1 &
beside_pid=$!
trap 'kill -- -"$beside_pid" 2>/dev/null || true; rm -f "$beside" "$installed"' EXIT
python3 -m venv .venv
# The kernel is optional for users (setup.py installs without it when it cannot be built);
# here it must build, and the kernel's tests must run, not skip.
export EMERGO_REQUIRE_KERNEL=1
# Every case of the compute-heavy tests (all the random games, perft counts and hypothesis
# examples; tests/plugins/common.py): the fast loop of the README runs a sample of them.
export EMERGO_TEST_SCALE="${EMERGO_TEST_SCALE:-full}"
# rl: the research environments' tests; webtest: the browser and HTTP tests; ray: --ray on a
# real local cluster (tests/system/test_ray.py); examples: torch==2.13.0, the CPU build (a local wheel on
# the development machines; about 35 s), for the worked example's test (tests/system/test_examples.py)
# --no-compile: the bytecode of what a test imports is written when it is first imported (a
# fraction of the installed files: torch and Ray are thousands), not all of it here (33 s)
.venv/bin/python -m pip install -q --no-compile -e '.[test,webtest,rl,ray,examples]'
touch "$installed"
# The web app's browser tests drive the system's Chromium (playwright downloads no browser).
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing chromium for the browser tests"
  apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null
fi
# The online site's store tests and multi-process tests run on a real PostgreSQL that the tests
# start themselves (tests/plugins/postgres.py): Debian's server binaries, installed when missing.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ "$(id -u)" = 0 ] \
    && command -v apt-get >/dev/null; then
  echo "== installing postgresql for the online site's tests"
  apt-get update -q >/dev/null && apt-get install -y -q postgresql >/dev/null
fi
# The deployment's test (tests/system/test_deploy.py) runs Debian's nginx with the shipped config.
if [ ! -x /usr/sbin/nginx ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "== installing nginx-light for the deployment's test"
  apt-get update -q >/dev/null && apt-get install -y -q nginx-light >/dev/null
fi
echo "== ruff check"; .venv/bin/ruff check .
echo "== ruff format --check"; .venv/bin/ruff format --check .
echo "== mypy --strict"; .venv/bin/mypy
echo "== lint-imports (the layers of the module map)"; .venv/bin/lint-imports
echo "== the front end (frontend/): tsc --checkJs, the bundle up to date, eslint, the unit tests of the board and pages"
if ! command -v npm >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  apt-get update -q >/dev/null && apt-get install -y -q nodejs npm >/dev/null
fi
(cd frontend && npm ci --no-audit --no-fund --loglevel=error && npm run --silent check && npm test)
# Two workers, a test file each at a time (the browser and PostgreSQL fixtures are per file or per
# worker): the suite takes about half the time of one process on the 2-core machines (three
# took longer: 1246 s of pytest against 1128).  All of it: the fast loop's tests at full scale,
# the browser's (tests/browser) and the real processes' (tests/system).
echo "== pytest"; .venv/bin/python -m pytest -q -n "${EMERGO_TEST_WORKERS:-2}" --dist loadfile
echo "== (beside the suite) waiting for the install without a compiler and the sanitizers"
status=0
wait "$beside_pid" || status=$?
cat "$beside"
exit "$status"
