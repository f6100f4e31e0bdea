"""The old local app's store brought into the site (issue 26): tests/data/local/emergo-0002.sqlite3
was made by the code of main before the one server (make_old_local_db.py beside it); every game
(finished and not, against the engine and hot-seat, with clocks, from a position) and the settings
come over, nothing lost (the commands that import it: tests/system/test_local_import_serve.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from emergo import Board
from emergo.server.core.config import Config
from emergo.server.local_import import ImportError_, import_local
from emergo.server.site import Site
from tests.plugins.common import DATA
from tests.plugins.site import FAST

STORE = DATA / "local" / "emergo-0002.sqlite3"


@pytest.fixture
def old(tmp_path: Path) -> Path:
    """A copy of the old store (SQLite in WAL mode writes its -shm file beside a file it reads)."""
    copy = tmp_path / "old" / "emergo.sqlite3"
    copy.parent.mkdir()
    copy.write_bytes(STORE.read_bytes())
    return copy


def old_games(old: Path) -> list[dict[str, Any]]:
    source = sqlite3.connect(f"file:{old}?mode=ro", uri=True)
    source.row_factory = sqlite3.Row
    games = []
    for row in source.execute("SELECT * FROM games ORDER BY id"):
        moves = source.execute(
            "SELECT text, white_left, black_left FROM moves WHERE game_id = ? ORDER BY ply",
            (row["id"],),
        ).fetchall()
        games.append({**dict(row), "moves": [tuple(m) for m in moves]})
    source.close()
    return games


@pytest.fixture
def local(db_url: str) -> Any:
    site = Site.open(Config(db=db_url, mode="local", player="ann", **FAST), migrate=True)
    yield site
    site.close()


def test_every_old_game_comes_over_with_its_moves_clocks_names_and_end(
    local: Site, old: Path
) -> None:
    assert local.local_user is not None
    summary = import_local(local, old, local.local_user)
    assert (summary.games, summary.finished, summary.skipped) == (4, 2, [])
    imported = {}
    for game_id, tags in _games_with_tags(local):
        imported[tags["Annotator"].rsplit(" ", 1)[-1]] = local.rounds.get(game_id)
    for game_row in old_games(old):
        game = imported[str(game_row["id"])]
        assert game is not None
        state = game.state
        assert list(state.moves) == [m[0] for m in game_row["moves"]]
        assert Board(state.root).position() == Board(game_row["start"]).position()
        assert (state.outcome.result() if state.outcome else "*") == game_row["result"]
        if game_row["termination"]:
            assert state.outcome is not None
            assert state.outcome.termination.value == game_row["termination"]
        stored = local.rounds.moves(game.id)
        assert [(text, w, b) for _ply, text, w, b, _at in stored] == game_row["moves"]
        players = json.loads(game_row["players"])
        for color, seat in (("white", game.seats.white), ("black", game.seats.black)):
            spec = players[color]
            if spec["kind"] == "human":
                assert seat == "ann"
            else:
                assert seat == f"emergo-{spec.get('level', 11)}"
        if game_row["result"] == "*":
            assert game.status == "started"  # it resumes where it stood
        else:
            assert local.archive.one(game.id) is not None
    # the 7x7 hot-seat game under 3+2 keeps its clock and its players' names
    hotseat = imported["2"]
    assert hotseat.seats.hotseat and hotseat.time_control == "180+2"
    tags = dict(_games_with_tags(local))[hotseat.id]
    assert (tags["White"], tags["Black"]) == ("Ann", "Bob")
    # the settings are the player's
    assert local.preferences.get(local.local_user.id) == {
        "view": "checker",
        "names": "checker",
        "theme": "dark",
        "sound": False,
    }


def _games_with_tags(site: Site) -> list[tuple[str, dict[str, str]]]:
    from sqlalchemy import select

    from emergo.server.core import models as m

    with site.db.read() as c:
        rows = c.execute(select(m.games.c.id, m.games.c.tags)).all()
    return [(r.id, r.tags) for r in rows if r.tags]


def test_a_store_is_imported_once_and_other_files_are_refused(
    local: Site, old: Path, tmp_path: Path
) -> None:
    assert local.local_user is not None
    import_local(local, old, local.local_user)
    with pytest.raises(ImportError_, match="imported already"):
        import_local(local, old, local.local_user)
    other = tmp_path / "notes.txt"
    other.write_text("not a database")
    with pytest.raises(ImportError_, match="not the local app's store"):
        import_local(local, other, local.local_user)
    with pytest.raises(ImportError_, match="no file"):
        import_local(local, tmp_path / "missing.sqlite3", local.local_user)
