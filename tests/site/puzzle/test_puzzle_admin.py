"""``emergo admin puzzles import FILE``: the puzzles the site lacks added, the
same file again adds none, a bad line named with exit status 1 and no traceback; and a
puzzle's link to its game (the analysis board, or the archive's game when the site played it)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from emergo.puzzles import Puzzle, data_file, format_line, load
from emergo.server.puzzle.service import Stored
from tests.plugins.commands import admin as emergo_admin


def admin(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return emergo_admin(str(db), "puzzles", "import", *args)


def test_import_from_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "site.sqlite3"
    first = admin(db, str(data_file("hex")))
    assert first.returncode == 0, first.stderr
    assert f"{len(load('hex'))} new puzzles imported" in first.stdout
    again = admin(db, str(data_file("hex")))
    assert again.returncode == 0 and "0 new puzzles imported" in again.stdout
    bad = tmp_path / "bad.txt"
    some = load("7x7")[0]
    bad.write_text("# emergo puzzles 1\n" + format_line(some)[:-8] + "\n")
    refused = admin(db, str(bad))
    assert refused.returncode == 1
    assert "bad.txt: line 2:" in refused.stderr and "Traceback" not in refused.stderr
    missing = admin(db, str(tmp_path / "none.txt"))
    assert missing.returncode == 1 and "cannot read" in missing.stderr


def test_the_link_to_the_game() -> None:
    p = load("7x7")[0]
    selfplay = Stored(p, p.rating, 300.0, 0).json()["game"]
    assert selfplay["url"].startswith("/analysis?pos=7x7%20w%208%2F8&moves=")
    assert selfplay["moves"] == list(p.game)
    mined = Puzzle(**{**p.__dict__, "source": "record:abcd1234"})
    game = Stored(mined, p.rating, 300.0, 0).json(archived=True)["game"]
    assert game["id"] == "abcd1234" and game["url"] == "/game/abcd1234"
