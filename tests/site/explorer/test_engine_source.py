"""The explorer's second source, the engine's own games (issue 29): ``emergo admin explorer
selfplay`` plays and counts them, ``import-selfplay`` counts an ``emergo selfplay`` file's;
each game once however often either runs; a file that is not one is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from emergo.cli import main as cli_main
from emergo.server.core.config import Config
from emergo.server.explorer.http import explore
from emergo.server.explorer.selfplay import config_of, run_of
from emergo.server.site import Site
from tests.plugins.site import FAST

pytest.importorskip("emergo.kernel", exc_type=ImportError, reason="engine games need the kernel")
pytestmark = pytest.mark.slow


def admin(url: str, *argv: str) -> int:
    return cli_main(["admin", "--db", url, "explorer", *argv])


def test_engine_games_are_played_counted_and_never_twice(tmp_path: Path, capsys) -> None:
    url = str(tmp_path / "site.sqlite3")
    play = ["selfplay", "--games", "2", "--nodes", "30", "--variant", "7x7", "-q"]
    assert admin(url, *play) == 0
    assert "2 games counted" in capsys.readouterr().out
    assert admin(url, *play) == 0  # run again: nothing new
    assert "0 games counted in" in capsys.readouterr().out
    site = Site.open(Config(db=url, **FAST))
    try:
        got = explore(site, {"variant": "7x7", "source": "engine"})
        assert got["white"] + got["draws"] + got["black"] == 2  # both from the start
        assert got["topGames"] == got["recentGames"] == []  # no page shows the engine's games
        assert explore(site, {"variant": "7x7"})["moves"] == []  # not the site's games
        run = run_of(config_of("7x7", nodes=30).meta())
        assert site.explorer.indexed("engine", f"{run}:") == {f"{run}:0", f"{run}:1"}
    finally:
        site.close()


def test_a_selfplay_file_is_counted_once(tmp_path: Path, capsys) -> None:
    url = str(tmp_path / "site.sqlite3")
    games = tmp_path / "games.npz"
    made = ["selfplay", "-o", str(games), "--games", "3", "--nodes", "30", "--variant", "7x7"]
    assert cli_main([*made, "--max-plies", "60", "-q"]) == 0
    assert admin(url, "import-selfplay", str(games), "-q") == 0
    assert ": 3 games, 3 new" in capsys.readouterr().out
    assert admin(url, "import-selfplay", str(games), "-q") == 0
    assert ": 3 games, 0 new" in capsys.readouterr().out
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a file of games")
    assert admin(url, "import-selfplay", str(broken), "-q") == 1
    assert "cannot read" in capsys.readouterr().err
