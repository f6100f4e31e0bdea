"""A throwaway PostgreSQL server for the online tests and tools/bench_online.py.

``initdb`` in a temporary folder (as the ``postgres`` user when running as root: PostgreSQL
refuses to run as root), a free port on 127.0.0.1, ``pg_ctl -w start``; :meth:`Cluster.stop`
stops it and removes the folder.  The binaries are Debian's (``/usr/lib/postgresql/N/bin``;
tools/test.sh installs the ``postgresql`` package when they are missing).
"""

from __future__ import annotations

import contextlib
import glob
import os
import queue
import shutil
import socket
import subprocess
import tempfile
import threading
from pathlib import Path


def binaries() -> Path | None:
    """The newest PostgreSQL's bin folder, or None when PostgreSQL is not installed."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Cluster:
    """One PostgreSQL server of its own (module docstring)."""

    def __init__(self, bin_dir: Path, *, durable: bool = False, preload: str = "") -> None:
        """``durable``: fsync on (the benchmark); ``preload``: ``shared_preload_libraries``
        (the benchmark's ``pg_stat_statements``)."""
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="emergo-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        self._drops: queue.SimpleQueue[str] | None = None
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8")
        options = [
            f"-p {self.port}",
            "-c listen_addresses=127.0.0.1",
            f"-c unix_socket_directories={self.root}",
            "-c max_connections=200",
        ]
        if preload:
            options.append(f"-c shared_preload_libraries={preload}")
        if not durable:  # tests: nothing here must survive the machine, only the processes
            options += ["-c fsync=off", "-c full_page_writes=off"]
        self.options = " ".join(options)
        self.start()

    def start(self) -> None:
        """Start the server (again, after :meth:`halt`: the faults' tests)."""
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.root / "log"),
            "-o",
            self.options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def halt(self, mode: str = "fast") -> None:
        """Stop the server, keeping its data (:meth:`start` brings it back)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def _run(self, tool: str, *args: str) -> str:
        command = [str(self.bin / tool), *args]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.root)
        if done.returncode:
            raise RuntimeError(f"{tool} failed: {done.stderr or done.stdout}")
        return done.stdout

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def drop_database(self, name: str) -> None:
        """Drop a database, ending its connections (a test's site may leave some open)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def drop_later(self, name: str) -> None:
        """Drop a database on a thread of the cluster's own, the caller going on at once: a drop
        ends the database's connections and waits for their backends to exit (PostgreSQL looks
        every tenth of a second), a quarter of a second of nothing after each test."""
        if self._drops is None:
            self._drops = queue.SimpleQueue()
            threading.Thread(target=self._dropping, name="pg-drops", daemon=True).start()
        self._drops.put(name)

    def _dropping(self) -> None:
        assert self._drops is not None
        while True:
            name = self._drops.get()
            with contextlib.suppress(Exception):  # the cluster stopped meanwhile: nothing to drop
                self.drop_database(name)

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new database; its URL (``postgresql://...``, as ``--db`` takes it)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as c:
            # a copy of the template's files, not of its blocks through the WAL (PostgreSQL
            # 15's default): 0.07 s of the server's CPU a copy, not 0.15 (fsync is off here)
            suffix = f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""
            c.execute(f'CREATE DATABASE "{name}"{suffix}')
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
