"""Benchmark of the online site (issues 19 and 27): live games on PostgreSQL, CPU a move.

A script, not a test.  It starts a PostgreSQL server of its own (tests/plugins/postgres.py;
durable: fsync on; ``pg_stat_statements`` loaded), and for each source tree asked for (this
checkout by default; ``--tree NAME=PATH`` adds another, say the code before a change, so that
both are measured in one run on one machine) and each process count (``--processes 1 2 4``):
migrates a database of its own, makes the accounts, starts that many ``emergo serve --public``
processes on loopback and plays live games between pairs of players over the Board API.  Each
player reads its game stream on its own process and posts its moves there; with 2 or more
processes White plays on one and Black on the next, so every move crosses processes through the
database and LISTEN/NOTIFY.  Printed for each: moves/s, the round trip of a move to the opponent
(the mover's POST sent -> the opponent's stream has the new state) p50/p99, errors (must be 0),
the server processes' CPU a move and the database backends' CPU a move (user + system from
/proc), statements and transactions a move (``pg_stat_statements`` and ``pg_stat_database``).

And the floors, in the same run: a do-nothing Starlette POST on h11 and on httptools + uvloop
(server CPU a request), and one psycopg statement that does a move's writes (client and
backend CPU a statement).  Absolute figures depend on the machine and how busy it is (the load
average is printed); the ratios are what carries over.

    .venv/bin/python tools/bench_online.py --processes 1 2 4 --games 8 --seconds 20
    .venv/bin/python tools/bench_online.py --tree before=/tmp/emergo-before --rounds 2
    .venv/bin/python tools/bench_online.py --positions only

``--positions`` (``also`` by default, ``only``: without PostgreSQL, or ``no``) measures issue
27's finding 6 on a server of its own (SQLite): the server CPU of ``GET /api/position`` with a
new 138-ply line each request and with one move, the do-nothing floor of the same run, and what
one client address gets through the per-address limit when it sends as fast as it can.

A tree other than this checkout is a source folder with its kernel built in place
(``python setup.py build_ext --inplace``); it runs with this virtual environment's packages, but
without httptools and uvloop unless ``--tree-fast`` (code from before issue 27 would otherwise
get them from uvicorn's automatic choice).

Figures of one run (2026-12-03 10:18-10:24 UTC, the shared 2-core machine at a load average of
8 at the start and 12 at the end, other sessions' work beside it; before = 8841521, this =
branch cpu27; ``--processes 1 2 4 --games 16 --seconds 20 --tree before=PATH --tree-fast
--statements``), a move:

| a move | moves/s | server CPU | PostgreSQL CPU | statements / xacts | new conns/s | p50 / p99 |
|---|---|---|---|---|---|---|
| 1 process, this | 241.6 | 1.57 ms | 0.75 ms | 2.4 / 1.4 | 0.1 | 46 / 288 ms |
| 1 process, before | 137.8 | 2.17 ms | 1.39 ms | 2.5 / 1.3 | 8.8 | 78 / 342 ms |
| 2 processes, this | 384.1 | 1.98 ms | 0.81 ms | 2.5 / 1.5 | 0.0 | 27 / 91 ms |
| 2 processes, before | 136.5 | 2.62 ms | 1.36 ms | 2.5 / 1.6 | 6.9 | 75 / 382 ms |
| 4 processes, this | 178.2 | 2.77 ms | 0.89 ms | 2.7 / 1.3 | 0.5 | 50 / 271 ms |
| 4 processes, before | 147.0 | 3.37 ms | 0.98 ms | 2.5 / 1.6 | 0.6 | 59 / 353 ms |

(p50 / p99: a move's round trip to the opponent's stream, on another process from 2 on.)
No error in any.  The floors of the same run: a do-nothing Starlette POST 0.24 ms on h11 and
0.11 ms on httptools + uvloop; one psycopg statement of a move's writes 0.09 ms client, 0.14 ms
backend.  At 8 games on one process (no overflow of the pool; load 4-7, single runs) the
code before spent 1.35-1.36 ms of server CPU and 0.46-0.54 ms of PostgreSQL's a move, this tree
1.43 and 0.65: within issue 27's target (1.5 and 0.7 ms) and the noise; two interleaved rounds
at load 7-12 gave 1.69 / 1.75 ms before and 1.44 / 1.46 ms with the collector's and the routes'
changes.  At 16 games and load 8-12 this tree spent 1.57 and 0.75 ms.  More processes cost
more server CPU a move on 2 cores (each wakes for every notification, sweeps and beats; 4
processes and PostgreSQL contend for the two cores), which a machine with a core a process does
not pay.  The database's time (``--statements``) is the move's one statement (60-70 %), then
the explorer's reads and upserts of each finished game (15-25 %; a random game here is about 100
plies).  Before, a pool of 10 + 20 opened a connection for each burst past 10 and closed it
again: about 10 ms of PostgreSQL's CPU each, most of the difference in its CPU a move at 1 and 2
processes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx2 as httpx  # noqa: E402
from tests.plugins.postgres import Cluster, binaries, free_port  # noqa: E402

from emergo import Board  # noqa: E402

CLK_TCK = os.sysconf("SC_CLK_TCK")
SHOW_STATEMENTS = False
PROFILE = ""


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its threads (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def backends(database: str) -> dict[int, float]:
    """The CPU seconds of every PostgreSQL backend serving ``database``, by process id."""
    out: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if command.startswith("postgres: ") and f" {database} " in command:
            out[int(entry.name)] = cpu_seconds(int(entry.name))
    return out


def ended_cpu(cluster: Cluster) -> float:
    """The CPU seconds of the postmaster's ended children (its cutime + cstime): the backends
    that closed, a pool's overflow connections among them, and the autovacuum workers."""
    try:
        pid = int((cluster.data / "postmaster.pid").read_text().split()[0])
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, ValueError, IndexError):
        return 0.0
    return (int(fields[13]) + int(fields[14])) / CLK_TCK


def backend_cpu(
    before: dict[int, float], after: dict[int, float], ended_before: float, ended_after: float
) -> float:
    """CPU spent between two :func:`backends` and :func:`ended_cpu` readings: the live
    backends' (one started since counts whole) and the ended ones' (what one that ended had
    spent before the first reading is not the measurement's)."""
    gone = sum(t for pid, t in before.items() if pid not in after)
    live = sum(t - before.get(pid, 0.0) for pid, t in after.items())
    return live + (ended_after - ended_before) - gone


# --- the statements and transactions of a database ----------------------------------------------


def statement_times(admin_url: str, database: str) -> dict[int, tuple[int, float, str]]:
    """Every statement run on ``database`` so far: query id -> (calls, milliseconds, text)."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as c:
        rows = c.execute(
            "SELECT queryid, calls, total_exec_time, query FROM pg_stat_statements s "
            "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = %s",
            (database,),
        ).fetchall()
    return {
        int(q): (int(calls), float(ms), " ".join(text.split())[:110]) for q, calls, ms, text in rows
    }


def top_statements(
    before: dict[int, tuple[int, float, str]], after: dict[int, tuple[int, float, str]], moves: int
) -> list[str]:
    """The statements of a measurement that took the most of the database's time: calls and
    execution time a move, and their share."""
    spent = []
    for q, (calls, ms, text) in after.items():
        c0, ms0, _ = before.get(q, (0, 0.0, ""))
        if calls > c0:
            spent.append((ms - ms0, calls - c0, text))
    spent.sort(reverse=True)
    total = sum(ms for ms, _, _ in spent) or 1.0
    n = max(moves, 1)
    return [
        f"    {calls / n:5.2f} a move {1000 * ms / n:6.1f} us {100 * ms / total:4.1f} %  {text}"
        for ms, calls, text in spent[:12]
    ]


def counters(admin_url: str, database: str) -> tuple[int, int, int]:
    """(statements, transactions, connections) run or opened so far on ``database``
    (BEGIN/COMMIT not statements)."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as c:
        statements = c.execute(
            "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s "
            "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = %s "
            "AND s.query NOT IN ('BEGIN', 'COMMIT', 'ROLLBACK', 'begin', 'commit', 'rollback')",
            (database,),
        ).fetchone()
        c.execute("SELECT pg_stat_clear_snapshot()")
        xacts = c.execute(
            "SELECT xact_commit + xact_rollback, sessions FROM pg_stat_database WHERE datname = %s",
            (database,),
        ).fetchone()
    return (
        int(statements[0] if statements else 0),
        int(xacts[0] if xacts else 0),
        int(xacts[1] if xacts else 0),
    )


# --- the players ---------------------------------------------------------------------------------


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.round_trips: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors: list[str] = []

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


class PlayerThread(threading.Thread):
    """One side of one game: reads its stream, moves when it is its turn."""

    def __init__(
        self,
        base: str,
        token: str,
        game: str,
        color: str,
        stats: Stats,
        sent: dict[Any, float],
        stop: threading.Event,
        seed: int,
    ) -> None:
        super().__init__(daemon=True)
        self.base, self.token, self.game, self.color = base, token, game, color
        self.stats, self.sent, self.stop_all = stats, sent, stop
        self.rng = random.Random(seed)
        self.http = httpx.Client(
            base_url=base, timeout=30, headers={"Authorization": f"Bearer {token}"}
        )

    def run(self) -> None:
        board = Board()
        try:
            with self.http.stream("GET", f"/api/board/game/stream/{self.game}") as r:
                for line in r.iter_lines():
                    if not line.strip():
                        continue
                    now = time.perf_counter()
                    data = json.loads(line)
                    state = data.get("state") if data.get("type") == "gameFull" else data
                    if state is None or state.get("type") != "gameState":
                        continue
                    key = (self.game, len(state["moves"].split()))
                    with self.stats.lock:
                        start = self.sent.pop(key, None)
                        if start is not None:
                            self.stats.round_trips.append(now - start)
                    moves = state["moves"].split()
                    for text in moves[len(board.move_stack) :]:
                        board.push(board.parse_move(text))
                    if state["status"] != "started":
                        return
                    if self.stop_all.is_set():
                        if state["turn"] == self.color:
                            self.http.post(f"/api/board/game/{self.game}/resign")
                        return
                    if state["turn"] == self.color:
                        self.move(board)
        except Exception as e:
            if not self.stop_all.is_set():
                self.stats.error(f"{self.color} {self.game}: {type(e).__name__}: {e}")

    def move(self, board: Board) -> None:
        text = self.rng.choice([str(m) for m in board.legal_moves])
        with self.stats.lock:
            self.sent[(self.game, len(board.move_stack) + 1)] = time.perf_counter()
        r = self.http.post(f"/api/board/game/{self.game}/move/{text}")
        if r.status_code != 200:
            self.stats.error(f"move {text}: {r.status_code} {r.text[:100]}")
        else:
            with self.stats.lock:
                self.stats.moves += 1


def pair(
    bases: tuple[str, str],
    tokens: tuple[str, str],
    names: tuple[str, str],
    stats: Stats,
    stop: threading.Event,
    seed: int,
) -> None:
    """Games between two players until the time is up: White on the first base."""
    white_base, black_base = bases
    sent: dict[Any, float] = {}
    n = 0
    w = httpx.Client(base_url=white_base, headers={"Authorization": f"Bearer {tokens[0]}"})
    b = httpx.Client(base_url=black_base, headers={"Authorization": f"Bearer {tokens[1]}"})
    while not stop.is_set():
        r = w.post(
            f"/api/challenge/{names[1]}",
            data={"clock.limit": 600, "clock.increment": 5, "color": "white"},
        )
        if r.status_code != 200:
            stats.error(f"challenge: {r.status_code} {r.text[:100]}")
            return
        r = b.post(f"/api/challenge/{r.json()['id']}/accept")
        if r.status_code != 200:
            stats.error(f"accept: {r.status_code} {r.text[:100]}")
            return
        answer = r.json()
        game = answer.get("gameId") or answer.get("id")
        players = [
            PlayerThread(white_base, tokens[0], game, "white", stats, sent, stop, seed * 1000 + n),
            PlayerThread(
                black_base, tokens[1], game, "black", stats, sent, stop, seed * 1000 + n + 1
            ),
        ]
        for p in players:
            p.start()
        for p in players:
            p.join()
        n += 2
        with stats.lock:
            stats.games += 1


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- one measurement -----------------------------------------------------------------------------


@dataclass
class Result:
    tree: str
    processes: int
    games: int
    seconds: float
    moves: int
    server_cpu: float
    pg_cpu: float
    statements: int
    transactions: int
    connections: int
    round_trips: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def line(self) -> str:
        n = max(self.moves, 1)
        rt = sorted(x * 1000 for x in self.round_trips)
        trip = (
            f"p50 {statistics.median(rt):6.1f} p99 {percentile(rt, 0.99):6.1f}"
            if rt
            else "p50      - p99      -"
        )
        return (
            f"{self.tree:>8} {self.processes:>2} proc {self.games:>3} games "
            f"{self.moves / self.seconds:7.1f} moves/s  "
            f"server {1000 * self.server_cpu / n:6.2f} ms  "
            f"pg {1000 * self.pg_cpu / n:5.2f} ms  statements {self.statements / n:5.1f}  "
            f"transactions {self.transactions / n:4.1f}  "
            f"connections opened {self.connections / self.seconds:5.1f}/s  round trip ms {trip}  "
            f"errors {len(self.errors)}"
        )


def environment(tree: Path, fast: bool) -> dict[str, str]:
    env = dict(os.environ)
    paths = [str(tree / "src")]
    if not fast:
        blocker = Path(tempfile.gettempdir()) / "emergo-bench-no-fast"
        for name in ("httptools", "uvloop"):
            (blocker / name).mkdir(parents=True, exist_ok=True)
            (blocker / name / "__init__.py").write_text(f"raise ImportError('{name} blocked')\n")
        paths.insert(0, str(blocker))
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


_SETUP = """
import json, sys
from emergo.server.core.config import Config
from emergo.server.site import Site
site = Site.open(Config(db=sys.argv[1], argon2_time_cost=1, argon2_memory_kib=64), migrate=True)
out = []
for i in range(int(sys.argv[2])):
    user = site.users.create(f"p{i}", None)
    out.append([f"p{i}", site.tokens.create(user.id)])
site.close()
print(json.dumps(out))
"""


def measure(
    cluster: Cluster,
    name: str,
    tree: Path,
    fast: bool,
    processes: int,
    games: int,
    seconds: float,
) -> Result:
    database = f"bench_{name}_{processes}_{random.randrange(10**6)}"
    url = cluster.create_database(database)
    env = environment(tree, fast)
    made = subprocess.run(
        [sys.executable, "-c", _SETUP, url, str(2 * games)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    accounts = json.loads(made.stdout)
    config = Path(tempfile.mkdtemp()) / "bench.toml"
    config.write_text("[limits]\nmoves_per_second = 100000\nchallenges_per_minute = 100000\n")
    servers: list[subprocess.Popen[bytes]] = []
    bases: list[str] = []
    try:
        for _ in range(processes):
            port = free_port()
            command = [sys.executable, "-m", "emergo", "serve", "--public", "--no-house-bots"]
            command += ["--db", url, "--port", str(port), "--no-browser", "--config", str(config)]
            servers.append(
                subprocess.Popen(
                    command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
            )
            bases.append(f"http://127.0.0.1:{port}")
        for base in bases:
            wait_healthy(base)
        stats = Stats()
        stop = threading.Event()
        threads = [
            threading.Thread(
                target=pair,
                args=(
                    (bases[i % processes], bases[(i + 1) % processes]),
                    (accounts[2 * i][1], accounts[2 * i + 1][1]),
                    (accounts[2 * i][0], accounts[2 * i + 1][0]),
                    stats,
                    stop,
                    i,
                ),
                daemon=True,
            )
            for i in range(games)
        ]
        for t in threads:
            t.start()
        time.sleep(min(3.0, seconds / 5))  # the games under way before the measurement
        cpu_before = sum(cpu_seconds(s.pid) for s in servers)
        pg_before, ended_before = backends(database), ended_cpu(cluster)
        counted_before = counters(cluster.url(), database)
        times_before = statement_times(cluster.url(), database) if SHOW_STATEMENTS else {}
        moves_before = stats.moves
        with stats.lock:
            stats.round_trips.clear()
        started = time.monotonic()
        spy = None
        if PROFILE:  # py-spy on the first server process (pip install py-spy)
            out = f"{PROFILE}-{name}-{processes}.txt"
            spy = subprocess.Popen(
                ["py-spy", "record", "--pid", str(servers[0].pid), "--duration", str(int(seconds)),
                 "--format", "raw", "--nonblocking", "--gil", "-o", out],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
        time.sleep(seconds)
        if spy is not None:
            spy.wait(60)
        moves = stats.moves - moves_before
        cpu = sum(cpu_seconds(s.pid) for s in servers) - cpu_before
        pg = backend_cpu(pg_before, backends(database), ended_before, ended_cpu(cluster))
        counted_after = counters(cluster.url(), database)
        elapsed = time.monotonic() - started
        if SHOW_STATEMENTS:
            after = statement_times(cluster.url(), database)
            print("\n".join(top_statements(times_before, after, moves)))
        trips = list(stats.round_trips)
        stop.set()
        for t in threads:
            t.join(30)
        return Result(
            tree=name,
            processes=processes,
            games=games,
            seconds=elapsed,
            moves=moves,
            server_cpu=cpu,
            pg_cpu=pg,
            statements=counted_after[0] - counted_before[0] - 3,  # the measurement's own
            transactions=counted_after[1] - counted_before[1] - 2,
            connections=counted_after[2] - counted_before[2],
            round_trips=trips,
            errors=stats.errors,
        )
    finally:
        for s in servers:
            s.send_signal(signal.SIGINT)
        for s in servers:
            try:
                s.wait(20)
            except subprocess.TimeoutExpired:
                s.kill()
        config.unlink()


# --- the floors ----------------------------------------------------------------------------------

_NOTHING = """
import sys, uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route
async def nothing(request):
    await request.body()
    return JSONResponse({"ok": True})
app = Starlette(routes=[Route("/m/{x}", nothing, methods=["POST"])])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), http=sys.argv[2], loop=sys.argv[3],
            log_level="warning", access_log=False)
"""


def floor_http(http: str, loop: str, requests: int) -> float:
    """Server CPU seconds a do-nothing Starlette POST (keep-alive, 4 clients at once)."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", _NOTHING, str(port), http, loop],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.post(f"{base}/m/0", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise SystemExit("the do-nothing server did not start") from None
                time.sleep(0.05)

        def client(n: int) -> None:
            with httpx.Client(base_url=base) as c:
                for i in range(n):
                    c.post(f"/m/{i}", headers={"Authorization": "Bearer x"})

        before = cpu_seconds(server.pid)
        threads = [threading.Thread(target=client, args=(requests // 4,)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return (cpu_seconds(server.pid) - before) / (4 * (requests // 4))
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def floor_statement(cluster: Cluster, statements: int) -> tuple[float, float]:
    """(client CPU, backend CPU) seconds of one autocommitted psycopg statement doing a move's
    writes: the game row's compare-and-set and the move's row."""
    import psycopg

    database = f"floor_{random.randrange(10**6)}"
    url = cluster.create_database(database)
    with psycopg.connect(url, autocommit=True) as c:
        c.execute(
            "CREATE TABLE g (id text PRIMARY KEY, version int NOT NULL, state text NOT NULL, "
            "updated double precision NOT NULL)"
        )
        c.execute(
            "CREATE TABLE mv (game_id text, ply int, text text, at double precision, "
            "PRIMARY KEY (game_id, ply))"
        )
        c.execute("INSERT INTO g VALUES ('abcdefgh', 0, '', 0)")
        sql = (
            "WITH g1 AS (UPDATE g SET version = %(v)s + 1, state = %(s)s, updated = %(t)s "
            "WHERE id = %(id)s AND version = %(v)s RETURNING id) "
            "INSERT INTO mv SELECT id, %(v)s + 1, %(m)s, %(t)s FROM g1"
        )
        pid = c.info.backend_pid
        state = "x" * 600
        before, backend_before = time.process_time(), cpu_seconds(pid)
        for v in range(statements):
            c.execute(sql, {"v": v, "s": state, "t": time.time(), "id": "abcdefgh", "m": "a5"})
        client = time.process_time() - before
        backend = cpu_seconds(pid) - backend_before
    return client / statements, backend / statements


# --- /api/position with a long line (issue 27, finding 6) ---------------------------------------


def long_lines(count: int, plies: int, seed: int = 27) -> list[str]:
    """``count`` different lines of exactly ``plies`` moves of 9x9 (random games that last that
    long; the last move varied among its alternatives), as ``moves=`` takes them."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        board, texts = Board(variant="9x9"), []
        while len(texts) < plies - 1 and board.outcome() is None and board.moves():
            move = rng.choice(board.moves())
            texts.append(board.move_text(move))
            board.push(move)
        if len(texts) < plies - 1 or board.outcome() is not None:
            continue
        for last in board.moves()[: count - len(out)]:
            out.append(" ".join([*texts, board.move_text(last)]))
    return out


def wait_healthy(base: str) -> None:
    """Wait (at most a minute) for the server at ``base`` to answer its health check."""
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"the server at {base} did not start")
        time.sleep(0.1)


def position_cost(seconds: float, plies: int = 138) -> None:
    """Server CPU of ``GET /api/position`` with a ``plies``-move line (a new line each request:
    nothing cached helps), and what one client address can take of a core under the per-address
    limit (``POSITIONS_PER_SECOND``, a request counting once more each ``PLIES_A_REQUEST`` plies;
    requests as fast as 4 connections send them).  Printed with a one-move request (the game
    page's) and the do-nothing floor of the same run."""
    from emergo.server.board.http import PLIES_A_REQUEST, POSITIONS_PER_SECOND

    weight = 1 + plies // PLIES_A_REQUEST  # what a long line counts against the limit
    long_rate = max(1, POSITIONS_PER_SECOND // weight - 2)  # a second, below the limit
    short_rate = POSITIONS_PER_SECOND - 10

    folder = Path(tempfile.mkdtemp())
    port = free_port()
    command = [sys.executable, "-m", "emergo", "serve", "--public", "--no-house-bots"]
    command += ["--db", f"sqlite:///{folder / 'positions.db'}", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--no-browser"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base)
        paced = int(seconds * short_rate)
        lines = long_lines(paced + 1, plies)
        one = [line.split()[0] for line in lines]

        def paced_cost(texts: list[str], rate: int) -> float:
            """CPU seconds a request, sent ``rate`` a second (every answer a 200)."""
            with httpx.Client(base_url=base) as c:
                time.sleep(1.1)  # a fresh second of the limit
                before = cpu_seconds(server.pid)
                sent = 0.0
                for text in texts:  # one at most each 1/rate s, never a burst
                    wait = sent + 1 / rate - time.monotonic()
                    if wait > 0:
                        time.sleep(wait)
                    sent = time.monotonic()
                    r = c.get("/api/position", params={"moves": text})
                    if r.status_code != 200:
                        raise SystemExit(f"/api/position answered {r.status_code}: {r.text}")
                return (cpu_seconds(server.pid) - before) / len(texts)

        long_cost = paced_cost(lines[: int(seconds * long_rate)], long_rate)
        short_cost = paced_cost(one[:paced], short_rate)
        counts = {200: 0, 429: 0}
        lock = threading.Lock()
        stop = threading.Event()

        def flood(k: int) -> None:
            with httpx.Client(base_url=base) as c:
                i = k
                while not stop.is_set():
                    r = c.get("/api/position", params={"moves": lines[i % len(lines)]})
                    with lock:
                        counts[r.status_code] = counts.get(r.status_code, 0) + 1
                    i += 4

        time.sleep(1.1)
        before, start = cpu_seconds(server.pid), time.monotonic()
        threads = [threading.Thread(target=flood, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        time.sleep(seconds)
        stop.set()
        for t in threads:
            t.join()
        spent, elapsed = cpu_seconds(server.pid) - before, time.monotonic() - start
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    floor = floor_http("httptools", "uvloop", 2000)
    print(
        f"/api/position, a new {plies}-ply line each request: {1000 * long_cost:.2f} ms of "
        f"server CPU ({long_cost / floor:.0f} x the do-nothing floor of {1000 * floor:.2f} ms; "
        f"one move: {1000 * short_cost:.2f} ms); one address as fast as it can: "
        f"{counts[200] / elapsed:.0f} answers/s (limit {POSITIONS_PER_SECOND // weight} of these), "
        f"{counts.get(429, 0) / elapsed:.0f} 429s/s, {100 * spent / elapsed:.0f} % of a core "
        f"(the limit allows an address {100 * POSITIONS_PER_SECOND / weight * long_cost:.0f} % "
        f"with these, {100 * POSITIONS_PER_SECOND * short_cost:.0f} % with one-move requests)",
        flush=True,
    )


# --- the run -------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--games", type=int, default=8, help="games played at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="of each measurement")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds of it all")
    parser.add_argument(
        "--tree", action="append", default=[], metavar="NAME=PATH", help="another source tree"
    )
    parser.add_argument("--tree-fast", action="store_true", help="other trees get httptools")
    parser.add_argument("--no-floors", action="store_true")
    parser.add_argument(
        "--positions",
        choices=("also", "only", "no"),
        default="also",
        help="/api/position with a 138-ply line: measured too, alone (no PostgreSQL), or not",
    )
    parser.add_argument(
        "--statements",
        action="store_true",
        help="print the statements that took the database's time",
    )
    parser.add_argument(
        "--profile", default="", metavar="PREFIX", help="py-spy's samples of the first server"
    )
    args = parser.parse_args()
    if args.positions == "only":
        position_cost(min(args.seconds, 6.0))
        return 0
    global SHOW_STATEMENTS, PROFILE
    SHOW_STATEMENTS = args.statements
    PROFILE = args.profile
    found = binaries()
    if found is None:
        print("PostgreSQL is not installed (apt-get install postgresql)", file=sys.stderr)
        return 1
    trees: list[tuple[str, Path, bool]] = []
    for spec in args.tree:
        name, _, path = spec.partition("=")
        trees.append((name, Path(path).resolve(), args.tree_fast))
    trees.append(("this", ROOT, True))
    cluster = Cluster(found, durable=True, preload="pg_stat_statements")
    results: list[Result] = []
    try:
        import psycopg

        with psycopg.connect(cluster.url(), autocommit=True) as c:
            c.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        load = os.getloadavg()
        print(f"{os.cpu_count()} cores, load average {load[0]:.1f} at the start", flush=True)
        if not args.no_floors:
            h11 = floor_http("h11", "asyncio", 4000)
            fast = floor_http("httptools", "uvloop", 4000)
            client, backend = floor_statement(cluster, 3000)
            print(
                f"floors: a do-nothing Starlette POST {1000 * h11:.2f} ms on h11, "
                f"{1000 * fast:.2f} ms on httptools+uvloop; one psycopg statement of a move's "
                f"writes {1000 * client:.2f} ms client, {1000 * backend:.2f} ms backend",
                flush=True,
            )
        if args.positions == "also":
            position_cost(min(args.seconds, 6.0))
        for _ in range(args.rounds):
            for processes in args.processes:
                for name, path, fast_tree in trees:
                    result = measure(
                        cluster, name, path, fast_tree, processes, args.games, args.seconds
                    )
                    results.append(result)
                    print(result.line(), flush=True)
                    for e in result.errors[:5]:
                        print("   ", e)
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
        return 0 if not any(r.errors for r in results) else 1
    finally:
        cluster.stop()


if __name__ == "__main__":
    raise SystemExit(main())
