#!/usr/bin/env python3
"""A worked example: train a small value network on engine self-play, play it, measure it.

The loop a researcher would start from (docs/research.md, "Worked example"):

1. **Data.** ``emergo selfplay`` plays the engine against itself at a fixed node count
   and writes every position with the search's score and the game's result (.npz).
2. **Training.** A small convolutional network (PyTorch) reads the observation planes of
   each position (``emergo.envs.observation.planes``: 17 planes, the mover's view) and
   learns a value in -1..1 for the side to move: the target mixes the game's result and
   the search's score, ``(1 - mix) * result + mix * tanh(score / 400)``.  Validation is
   on whole games held out; the epoch with the lowest validation error is kept.
3. **Playing.** :class:`ValueSearcher` is an ``emergo.search.Searcher``: a one-ply search
   (each legal move played, the network judges the positions after them in one batch;
   a move that ends the game scores exactly).  ``python value_network.py engine --model
   FILE`` serves it over the engine protocol, so any front end plays it.
4. **Measuring.** ``emergo.match.run_match`` (the runner of ``emergo match``) plays it
   against the engine with the shipped hand-tuned evaluation at the same depth, one ply
   (the engine adds its forced-capture quiescence), colour-swapped pairs from the shipped
   openings, and reports the score and Elo.

Needs the extras ``rl`` (NumPy, the planes) and ``examples`` (``torch==2.13.0``, the CPU
build)::

    pip install -e '.[rl,examples]'
    python examples/value_network.py                       # a few minutes on one core
    python examples/value_network.py --games 2000 --epochs 10 --match-games 100
    python examples/value_network.py --data games.npz      # train on an 'emergo selfplay' file
    python examples/value_network.py --ray local:2         # self-play on a Ray cluster
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from emergo.board import Board
from emergo.cli import main as emergo
from emergo.envs.observation import planes, shape
from emergo.match import Adjudication, EngineSpec, parse_engine_spec, run_match
from emergo.protocol import EngineSession, serve
from emergo.search import GuardedSearcher, InfoCallback, Limit, Score, SearchInfo, SearchResult

HERE = Path(__file__).resolve()


class ValueNet(nn.Module):
    """Planes (17 x H x W) -> value in -1..1 for the side to move."""

    def __init__(self, variant: str = "9x9", width: int = 32) -> None:
        super().__init__()
        channels, height, wide = shape(variant)
        self.variant = variant
        self.body = nn.Sequential(
            nn.Conv2d(channels, width, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(width * height * wide, 64),
            nn.ReLU(),
            nn.Linear(64, 1),
            nn.Tanh(),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.body(x).squeeze(-1)
        return out


# --- 1. data --------------------------------------------------------------------------------


def make_data(path: Path, games: int, nodes: int, seed: int, ray: str | None) -> None:
    """``emergo selfplay``, exactly as on the command line."""
    argv = ["selfplay", "-n", str(games), "--nodes", str(nodes), "--seed", str(seed)]
    argv += ["-o", str(path), "--force", "-q"] + (["--ray", ray] if ray else [])
    status = emergo(argv)
    if status != 0:
        raise SystemExit(f"emergo selfplay failed with status {status}")


def load_data(path: Path, mix: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Planes, targets and game numbers of every position of a self-play file."""
    data = np.load(path)
    boards = [Board(str(text)) for text in data["position"]]
    x = np.stack([planes(board) for board in boards]).astype(np.float32)
    scores = np.array([_unit(int(v)) for v in data["score"]], dtype=np.float32)
    target = (1 - mix) * data["result"].astype(np.float32) + mix * scores
    return x, target.astype(np.float32), data["game"]


def _unit(value: int) -> float:
    """A search score in -1..1: tanh(centi-men / 400); an exact win or loss is +-1."""
    score = Score.from_value(value)
    if score.kind == "win":
        return 1.0
    if score.kind == "loss":
        return -1.0
    return math.tanh(score.value / 400)


# --- 2. training ----------------------------------------------------------------------------


def train(
    x: np.ndarray, y: np.ndarray, game: np.ndarray, epochs: int, seed: int
) -> tuple[ValueNet, dict[str, float]]:
    """Adam on the mean squared error; one game in ten held out for validation."""
    torch.manual_seed(seed)
    held = game % 10 == 9
    if held.all() or not held.any():  # tiny runs: hold out the last position or so
        held = np.arange(len(y)) >= max(1, int(len(y) * 0.9))
    xt, yt = torch.from_numpy(x[~held]), torch.from_numpy(y[~held])
    xv, yv = torch.from_numpy(x[held]), torch.from_numpy(y[held])
    net = ValueNet()
    optimiser = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-4)
    loss_fn = nn.MSELoss()
    generator = torch.Generator().manual_seed(seed)
    best: tuple[float, int, dict[str, torch.Tensor]] = (math.inf, 0, {})
    for epoch in range(1, epochs + 1):
        net.train()
        order = torch.randperm(len(yt), generator=generator)
        for start in range(0, len(order), 256):
            batch = order[start : start + 256]
            optimiser.zero_grad()
            loss = loss_fn(net(xt[batch]), yt[batch])
            loss.backward()
            optimiser.step()
        net.eval()
        with torch.no_grad():
            val = float(loss_fn(net(xv), yv))
        print(f"  epoch {epoch:3}: validation MSE {val:.4f}", flush=True)
        if val < best[0]:  # keep the epoch that generalises best
            best = (val, epoch, {k: v.clone() for k, v in net.state_dict().items()})
    net.load_state_dict(best[2])
    with torch.no_grad():
        prediction = net(xv)
    baseline = float(((yv - yt.mean()) ** 2).mean())  # always guessing the mean
    decisive = yv.abs() > 0.25
    agree = float(((prediction > 0) == (yv > 0))[decisive].float().mean()) if decisive.any() else 0
    report = {
        "train_positions": float(len(yt)),
        "validation_positions": float(len(yv)),
        "best_epoch": float(best[1]),
        "validation_mse": float(loss_fn(prediction, yv)),
        "mean_guess_mse": baseline,
        "sign_agreement": agree,
    }
    return net, report


# --- 3. playing: a Searcher -----------------------------------------------------------------


Judge = Callable[[list[Board]], list[float]]
"""An evaluation: positions -> values in -1..1 for the side to move in each."""


def network_judge(net: ValueNet) -> Judge:
    net.eval()

    def judge(boards: list[Board]) -> list[float]:
        with torch.no_grad():
            out = net(torch.from_numpy(np.stack([planes(b) for b in boards])))
        return [float(v) for v in out.tolist()]

    return judge


def shipped_judge(boards: list[Board]) -> list[float]:
    """The shipped hand-tuned evaluation (the C kernel's, static), as tanh(centi-men / 400)."""
    from emergo import kernel

    return [math.tanh(kernel.evaluate(board) / 400) for board in boards]


class ValueSearcher(GuardedSearcher):
    """One ply with ``judge`` as the evaluation (an ``emergo.search.Searcher``): the network,
    or, to compare evaluations alone, the shipped one under the very same search."""

    name = "one-ply"

    def __init__(self, judge: Judge) -> None:
        super().__init__()
        self.judge = judge

    def clear(self) -> None:
        pass

    def _search(
        self,
        board: Board,
        limit: Limit,
        multipv: int,
        on_info: InfoCallback | None,
        stop: threading.Event | None,
    ) -> SearchResult:
        started = time.monotonic()
        if board.outcome() is not None:
            return SearchResult(None)
        moves = list(board.moves())
        values: list[float | None] = []
        batch: list[Board] = []
        for move in moves:
            after = board.copy()
            after.push(move)
            outcome = after.outcome()
            if outcome is None:
                values.append(None)
                batch.append(after)  # judged from the opponent's side: he is to move there
            else:
                values.append(0.0 if outcome.winner is None else 1.0)  # R18: the mover won
        if batch:
            judged = iter(self.judge(batch))
            values = [-next(judged) if v is None else v for v in values]
        ranked = sorted(zip(values, range(len(moves)), strict=True), reverse=True)
        infos = []
        for rank, (value, index) in enumerate(ranked[: max(1, multipv)], 1):
            v = max(-0.999, min(0.999, float(value or 0.0)))
            infos.append(
                SearchInfo(
                    depth=1,
                    score=Score.cp(round(400 * math.atanh(v))) if v else Score.draw(),
                    pv=(moves[index],),
                    nodes=len(moves),
                    time=time.monotonic() - started,
                    multipv=rank,
                )
            )
        if on_info is not None:
            for info in infos:
                on_info(info)
        return SearchResult(infos[0].pv[0], None, tuple(infos))


def save(net: ValueNet, path: Path) -> None:
    torch.save(net.state_dict(), path)


def load(path: Path) -> ValueNet:
    net = ValueNet()
    net.load_state_dict(torch.load(path, weights_only=True))
    return net


def engine(model: Path | None) -> int:
    """Serve the one-ply searcher over the engine protocol on stdin/stdout: with the network
    of ``model``, or with the shipped evaluation (``None``)."""
    torch.set_num_threads(1)
    judge = shipped_judge if model is None else network_judge(load(model))

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    session = EngineSession(send, lambda _hash_mb: ValueSearcher(judge), name="one-ply")
    serve(session, sys.stdin)
    return 0


# --- 4. measuring ---------------------------------------------------------------------------


def measure(model: Path, games: int, seed: int, ray: str | None, max_plies: int) -> dict[str, Any]:
    """A round robin: the network and the shipped evaluation under the same one-ply search,
    and the engine (the shipped evaluation, one ply plus its forced-capture quiescence)."""
    command = (sys.executable, str(HERE), "engine")
    ours = EngineSpec("value-net", (*command, "--model", str(model)), limit=Limit(depth=1))
    same = EngineSpec("shipped-eval", (*command, "--shipped"), limit=Limit(depth=1))
    engine = parse_engine_spec("engine depth=1 name=engine-depth1")
    runner = None
    if ray:
        from emergo.cli.common import ray_runner

        runner = ray_runner(ray)
    try:
        result = run_match(
            [ours, same, engine],
            games=games,
            seed=seed,
            progress=sys.stderr,
            runner=runner,
            adjudication=Adjudication(max_plies=max_plies),
        )
    finally:
        if runner is not None:
            getattr(runner, "close", lambda: None)()
    print(result.summary())

    def figures(pairing: tuple[int, int]) -> dict[str, float]:
        stats = result.pairings[pairing]
        return {
            "games": stats.games,
            "points": stats.points,
            "wins": stats.wins,
            "draws": stats.draws,
            "losses": stats.losses,
            "score": stats.points / stats.games if stats.games else math.nan,
            "elo": stats.elo().elo,
        }

    # the first: the network against the shipped evaluation, both one ply, no quiescence
    return figures((0, 1)) | {"vs_engine_depth1": figures((0, 2))}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="self-play games (default 300)")
    parser.add_argument("--nodes", type=int, default=1000, help="self-play nodes a move")
    parser.add_argument("--epochs", type=int, default=6, help="training epochs (default 6)")
    parser.add_argument("--data", type=Path, help="an 'emergo selfplay' file: no self-play")
    parser.add_argument("--mix", type=float, default=0.5, help="share of the score in targets")
    parser.add_argument("--match-games", type=int, default=20, help="games of the match")
    parser.add_argument("--max-plies", type=int, default=200, help="a match game's length cap")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("value-net"), help="output folder")
    parser.add_argument("--ray", metavar="ADDRESS", help="self-play and match on Ray")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    data, model = args.data or args.out / "selfplay.npz", args.out / "value.pt"
    started = time.monotonic()
    if args.data is None:
        print(f"1. self-play: {args.games} games at {args.nodes} nodes a move -> {data}")
        make_data(data, args.games, args.nodes, args.seed, args.ray)
    x, y, game = load_data(data, args.mix)
    print(f"2. training on {len(y)} positions, {args.epochs} epochs", flush=True)
    net, report = train(x, y, game, args.epochs, args.seed)
    print("   " + json.dumps(report), flush=True)
    save(net, model)
    print(f"3./4. round robin, {args.match_games} games a pairing: the network and the shipped")
    print("     evaluation under one and the same one-ply search, and the engine at depth 1")
    report |= measure(model, args.match_games, args.seed, args.ray, args.max_plies)
    report["seconds"] = round(time.monotonic() - started, 1)
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    if sys.argv[1:2] == ["engine"]:
        engine_args = argparse.ArgumentParser(prog="value_network.py engine")
        which = engine_args.add_mutually_exclusive_group(required=True)
        which.add_argument("--model", type=Path, help="the network's weights")
        which.add_argument("--shipped", action="store_true", help="the shipped evaluation")
        sys.exit(engine(engine_args.parse_args(sys.argv[2:]).model))
    main()
