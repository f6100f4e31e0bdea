"""--ray: match and self-play on a real local Ray cluster give the local runner's results,
also when a worker process is killed mid-run (emergo.ray_runner; the extra ``ray``)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray")
pytest.importorskip("emergo.kernel", exc_type=ImportError)

from emergo.match import MatchResult, parse_engine_spec, run_match
from emergo.parallel import ThreadRunner
from emergo.ray_runner import RayRunner
from emergo.selfplay import SelfplayConfig, run_selfplay, write_npz

pytestmark = pytest.mark.slow

CPUS = 3  # worker processes of the test cluster (the machine has 2 cores, shared)


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayRunner]:
    runner = RayRunner(f"local:{CPUS}")
    try:
        yield runner
    finally:
        runner.close()


def _games(result: MatchResult) -> list[tuple[object, ...]]:
    return [
        (g.number, g.pair, g.white, g.black, g.result, g.reason, g.plies, g.opening)
        for g in result.games
    ]


def test_match_on_ray_is_the_local_match(cluster: RayRunner) -> None:
    specs = [parse_engine_spec("engine nodes=200"), parse_engine_spec("random")]
    local = run_match(specs, games=4, concurrency=2, seed=11)
    remote = run_match(specs, games=4, seed=11, runner=cluster)
    assert _games(remote) == _games(local)
    assert remote.pairings[(0, 1)].penta == local.pairings[(0, 1)].penta


def test_selfplay_on_ray_is_the_local_selfplay(cluster: RayRunner, tmp_path: Path) -> None:
    config = SelfplayConfig(nodes=300, seed=5)
    local = run_selfplay(config, 8)
    arrived: list[int] = []
    remote = run_selfplay(config, 8, runner=cluster, on_game=lambda g: arrived.append(g.number))
    assert remote == local
    assert sorted(arrived) == list(range(8))
    assert len({g.worker for g in remote}) > 1  # really spread over worker processes
    write_npz(tmp_path / "local.npz", local, config)
    write_npz(tmp_path / "ray.npz", remote, config)
    assert (tmp_path / "local.npz").read_bytes() == (tmp_path / "ray.npz").read_bytes()


class _Spy:
    """A runner that makes each task write ``<job>-<pid>-<time>`` in a folder as it starts."""

    def __init__(self, inner: RayRunner, folder: Path) -> None:
        self.inner, self.folder = inner, folder
        self.workers = inner.workers

    def run(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        folder = str(self.folder)

        def spied(job: Any) -> Any:  # a closure: pickled by value, so workers need no tests/
            import os as _os

            with open(_os.path.join(folder, f"{job}-{_os.getpid()}"), "w"):
                pass
            return fn(job)

        return self.inner.run(spied, jobs)


def test_a_worker_killed_mid_run_costs_only_its_game(cluster: RayRunner, tmp_path: Path) -> None:
    config = SelfplayConfig(nodes=10000, seed=9)  # about a second a game
    games = 8
    local = run_selfplay(config, games, runner=ThreadRunner(2))
    starts = tmp_path / "starts"
    starts.mkdir()
    finished: set[int] = set()
    killed: list[tuple[int, int]] = []  # (job, pid)

    def killer() -> None:
        """Kill the worker of the first job seen running (started, not finished) for 0.1 s."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not killed:
            for entry in sorted(os.listdir(starts)):
                job, pid = map(int, entry.split("-"))
                if job >= 1 and job not in finished:
                    time.sleep(0.1)
                    if job not in finished:
                        os.kill(pid, signal.SIGKILL)
                        killed.append((job, pid))
                    break
            time.sleep(0.02)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    remote = run_selfplay(
        config, games, runner=_Spy(cluster, starts), on_game=lambda g: finished.add(g.number)
    )
    thread.join(5)
    assert killed, "no worker was killed"
    job, pid = killed[0]
    assert remote == local  # the same games, the killed one included
    assert remote[job].worker != pid  # it was played again, by another process
    runs = [entry for entry in os.listdir(starts) if entry.startswith(f"{job}-")]
    assert len(runs) >= 2  # started twice: once on the killed worker, once elsewhere
    others = [e for e in os.listdir(starts) if not e.startswith(f"{job}-")]
    assert games - 1 <= len(others) <= games - 1 + CPUS  # the others ran once, or nearly


def test_bad_and_missing_clusters_are_clean_errors() -> None:
    with pytest.raises(ValueError, match="Ray address"):
        RayRunner("local:0")


def test_cli_match_and_selfplay_take_ray(
    cluster: RayRunner, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from emergo.cli import main

    # the module's cluster is running in this process: the commands use it as it is
    out = tmp_path / "sp.npz"
    assert (
        main(["selfplay", "-n", "3", "--nodes", "100", "-o", str(out), "-q", "--ray", "auto"]) == 0
    )
    local = tmp_path / "local.npz"
    assert main(["selfplay", "-n", "3", "--nodes", "100", "-o", str(local), "-q"]) == 0
    assert out.read_bytes() == local.read_bytes()
    capsys.readouterr()
    argv = ["match", "-e", "engine nodes=100", "-e", "greedy", "-n", "2", "--no-records", "-q"]
    assert main([*argv, "--ray", "auto"]) == 0
    with_ray = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out.split("\n")[1:] == with_ray.split("\n")[1:]  # all but the time
