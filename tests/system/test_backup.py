"""``emergo admin backup`` and ``restore`` of an SQLite site (issue 22), as real commands.

The backup is taken while a real ``emergo serve --online`` process plays a game on the database
(the copy is consistent: every game's version has its events); the restore refuses the database
while that server runs, then puts the backup back once it is stopped (with what came after the
backup gone, and the replaced database kept beside it).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from emergo.server.core.config import Config
from emergo.server.site import Site
from tests.plugins.commands import admin
from tests.plugins.game_helpers import Player, legal_texts, new_game, wait_for
from tests.plugins.servers import Server
from tests.plugins.site import FAST

httpx = pytest.importorskip("httpx2")
pytestmark = pytest.mark.slow


def _consistent(path: Path) -> tuple[int, int]:
    """Games and moves of a copy; asserts every game's state has exactly its move rows (one
    moment: a move's row and its game's new version are written together)."""
    with sqlite3.connect(path) as c:
        for game_id, state in c.execute("SELECT id, state FROM games"):
            rows = c.execute(
                "SELECT text FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
            assert [r[0] for r in rows] == json.loads(state)["moves"], game_id
        games = c.execute("SELECT count(*) FROM games").fetchone()[0]
        moves = c.execute("SELECT count(*) FROM moves").fetchone()[0]
    return games, moves


def test_backup_while_the_server_plays_then_restore(tmp_path):
    db = tmp_path / "site.sqlite3"
    site = Site.open(Config(db=str(db), **FAST), migrate=True)
    tokens = {}
    for name in ("ann", "bob"):
        tokens[name] = site.tokens.create(site.users.create(name, "a long password").id)
    site.close()
    server = Server(str(db), tmp_path / "server.log")
    stop = threading.Event()
    played = []
    try:
        http = httpx.Client(base_url=server.base, timeout=10)
        ann, bob = Player(http, "ann", tokens["ann"]), Player(http, "bob", tokens["bob"])

        def play() -> None:  # games go on while the backups are taken
            while not stop.is_set():
                game = new_game(ann, bob)
                for ply in range(30):
                    if stop.is_set():
                        return
                    mover = (ann, bob)[ply % 2]
                    state = mover.state(game)
                    if state["status"] != "started":
                        break
                    mover.play(game, legal_texts(state)[0])
                    played.append(game)
                    stop.wait(0.1)  # under the server's 20 commands a second a user

        worker = threading.Thread(target=play, daemon=True)
        worker.start()
        wait_for(lambda: len(played) >= 5, 60, "five moves")
        copies = []
        for n in range(3):
            # a move between the backups: each copy is taken while games go on (an in-process
            # backup takes a moment; three could fall between two moves)
            moved = len(played)
            wait_for(lambda moved=moved: len(played) > moved, 60, "a move before the backup")
            copy = tmp_path / f"backup-{n}.sqlite3"
            done = admin(str(db), "backup", str(copy))
            assert done.returncode == 0, done.stderr
            assert f"backed up {db} to {copy}: schema" in done.stdout
            copies.append(copy)
        stop.set()
        worker.join(20)
        assert len(played) > 5
        for copy in copies:
            games, moves = _consistent(copy)
            assert games >= 1 and moves >= 1
            assert not copy.with_name(copy.name + "-wal").exists()  # one file
        # an existing file is not overwritten without --force
        done = admin(str(db), "backup", str(copies[0]))
        assert done.returncode == 1 and "exists" in done.stderr and "--force" in done.stderr
        assert admin(str(db), "backup", str(copies[0]), "--force").returncode == 0
        # the restore refuses a database that a server serves
        done = admin(str(db), "restore", str(copies[1]))
        assert (
            done.returncode == 1 and "in use" in done.stderr and "Stop every server" in done.stderr
        )
        assert "Traceback" not in done.stderr
    finally:
        stop.set()
        server.stop()
    # after the backup: a new account, which the restore takes away
    site = Site.open(Config(db=str(db), **FAST))
    site.users.create("carl", "a long password")
    site.close()
    expected = _consistent(copies[1])
    done = admin(str(db), "restore", str(copies[1]), "--force")  # the stop was a moment ago
    assert done.returncode == 0, done.stderr
    assert "the database it replaced is kept as" in done.stdout
    kept = Path(done.stdout.split("kept as ")[1].strip())
    assert kept.exists() and _consistent(db) == expected
    site = Site.open(Config(db=str(db), **FAST))
    try:
        assert site.users.by_name("carl") is None and site.users.by_name("ann") is not None
    finally:
        site.close()
    kept_site = Site.open(Config(db=str(kept), **FAST))
    try:
        assert kept_site.users.by_name("carl") is not None
    finally:
        kept_site.close()
    # the restored database serves again
    server = Server(str(db), tmp_path / "server-2.log")
    try:
        http = httpx.Client(base_url=server.base, timeout=10)
        assert Player(http, "ann", tokens["ann"]).get("/api/account").status_code == 200
    finally:
        server.stop()


def test_backup_and_restore_refuse_what_they_cannot_do(tmp_path):
    db = tmp_path / "site.sqlite3"
    assert admin(str(db), "migrate").returncode == 0
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("not a database at all")
    done = admin(str(db), "restore", str(junk))
    assert done.returncode == 1 and "is not an SQLite database" in done.stderr
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as c:
        c.execute("CREATE TABLE t (x)")
    done = admin(str(db), "restore", str(other))
    assert done.returncode == 1 and "not a database of the emergo online site" in done.stderr
    done = admin(str(db), "restore", str(tmp_path / "missing.sqlite3"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    done = admin(str(db), "backup", str(db))
    assert done.returncode == 1 and "another file" in done.stderr
    done = admin(str(tmp_path / "none.sqlite3"), "backup", str(tmp_path / "b.sqlite3"))
    assert done.returncode == 1 and "no database at" in done.stderr
    done = admin("postgresql://emergo@127.0.0.1:1/emergo", "backup", str(tmp_path / "b"))
    assert done.returncode == 1 and "pg_dump" in done.stderr
    # nothing was changed by the refusals
    assert _consistent(db) == (0, 0)
