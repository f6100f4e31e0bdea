"""Puzzles on the site (lila's ``modules/puzzle``): the set in the database, a player's attempts
rated, the next puzzle at his level, the daily puzzle, the dashboard, replay and the timed run
(docs/training.md).

* **The set**: ``puzzles`` rows made from puzzle files (:mod:`emergo.puzzles`'s format): the
  shipped set at first start (:meth:`Puzzles.ensure_shipped`, each file once, known by its
  digest) and ``emergo admin puzzles import FILE`` (:meth:`Puzzles.import_file`).  Importing is
  idempotent: a puzzle the site has keeps its rating and plays.  A new puzzle's rating starts at
  its generator's estimate with a wide deviation (:data:`PUZZLE_DEVIATION`).
* **An attempt** is a Glicko-2 game between the player and the puzzle
  (:func:`emergo.server.user.glicko2.rate_game`, the site's), won when the line is solved: the
  first try only (later tries are kept for replay, never rated).  The puzzle's rating moves only
  when the player's is not provisional (a new player's results say little about a puzzle).
  The server judges every line with :func:`emergo.puzzles.check`: the page's word is never
  taken for a win.
* **The next puzzle**: of a board and a theme (lichess's *angle*), one the player has not tried,
  among those nearest his puzzle rating.
"""

from __future__ import annotations

import hashlib
import logging
import math
import random
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import exists, func, insert, literal, select, update

from emergo.board import Board
from emergo.geometry import VARIANTS
from emergo.puzzles import THEMES, Puzzle, PuzzleFileError, Verdict, check, data_file, read_puzzles
from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now
from emergo.server.core.errors import SiteError
from emergo.server.puzzle.history import rating_history
from emergo.server.user.glicko2 import PROVISIONAL_DEVIATION, Rating, rate_game, rd_after

log = logging.getLogger(__name__)

__all__ = [
    "ANGLES",
    "COMBO_BONUS",
    "MAX_BATCH",
    "PUZZLE_DEVIATION",
    "STORM_MISTAKE",
    "STORM_SECONDS",
    "Attempt",
    "PuzzleError",
    "Puzzles",
    "StormRun",
    "theme_name",
]

PUZZLE_DEVIATION = 300.0
"""A new puzzle's deviation: its generator's estimate is a guess from the line alone."""
VOLATILITY = 0.09
NEAREST = 20
"""The next puzzle is drawn from this many untried puzzles nearest the player's rating."""
ANGLES = ("mix", *THEMES)
"""What the next puzzle may be chosen by: any theme (``mix``) or one of :data:`THEMES`."""
STORM_SECONDS = 180
"""A timed run's clock (lichess's Storm: 3 minutes)."""
STORM_MISTAKE = 10
"""Seconds a wrong move costs in a timed run."""
COMBO_BONUS = ((5, 3), (12, 5), (20, 7), (30, 10))
"""Seconds won at a combo of right moves (then 10 more at every 10 after 30): lichess's."""
STORM_PUZZLES = 60
MAX_DAYS = 90
MAX_BATCH = 500
"""Most of a visitor's attempts merged into an account at once (the newest his browser kept)."""


class PuzzleError(SiteError):
    """A puzzle request the site refuses: no such puzzle, a bad angle, an attempt that is none."""


def theme_name(theme: str) -> str:
    """A theme's name for a page: ``feederCombination`` is "Feeder combination"."""
    if theme == "mix":
        return "All themes"
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in theme).strip()
    return words[:1].upper() + words[1:]


def _day(t: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(t))


def _puzzle_of(row: Any) -> Puzzle:
    return Puzzle(
        id=row.id,
        variant=row.variant,
        position=row.position,
        solution=tuple(row.solution.split()),
        themes=tuple(t for t in row.themes.split(",") if t),
        rating=round(row.rating),
        gain=row.gain,
        proof=row.proof,
        source=row.source,
        initial_ply=row.initial_ply,
        game=tuple(row.game.split()),
        start=row.start,
    )


@dataclass(frozen=True)
class Stored:
    """A puzzle of the site: the library's puzzle with its rating and plays now."""

    puzzle: Puzzle
    rating: float
    rd: float
    plays: int

    def json(self, archived: bool = False) -> dict[str, Any]:
        """lichess's shape (``game``, ``puzzle``) plus the variant and the position (R22)."""
        p = self.puzzle
        start = p.start or Board(variant=p.variant).position()
        game_id = p.source.split(":", 1)[1] if p.source.startswith("record:") else p.source
        game: dict[str, Any] = {
            "id": game_id,
            "source": p.source,
            "moves": list(p.game),
            "start": start,
            "lastMove": p.last_move,
        }
        if archived:
            game["url"] = f"/game/{game_id}"
        else:
            query = f"pos={_quote(start)}&moves={_quote(' '.join(p.game))}"
            game["url"] = f"/analysis?{query}"
        return {
            "game": game,
            "puzzle": {
                "id": p.id,
                "rating": round(self.rating),
                "plays": self.plays,
                "solution": list(p.solution),
                "themes": list(p.themes),
                "initialPly": p.initial_ply,
                "variant": p.variant,
                "position": p.position,
                "gain": p.gain,
                "proof": p.proof,
            },
        }


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")


@dataclass(frozen=True)
class Attempt:
    """What a line sent to :meth:`Puzzles.attempt` was, and what it changed."""

    verdict: Verdict | None
    """The judge's word on the last move (``None`` when the solver gave up: ``win`` false)."""
    win: bool | None
    """The attempt's result when it ended (solved or failed), else ``None`` (go on)."""
    rated: bool = False
    rating_diff: int | None = None
    perf: Rating | None = None
    games: int = 0

    def json(self) -> dict[str, Any]:
        v = self.verdict
        out: dict[str, Any] = {
            "status": v.status if v is not None else "failed",
            "move": v.move if v is not None else None,
            "reply": v.reply if v is not None else None,
            "refutation": v.refutation if v is not None else None,
            "solution": v.solution if v is not None else None,
            "win": self.win,
        }
        if self.win is not None:
            out["round"] = {"win": self.win, "rated": self.rated, "ratingDiff": self.rating_diff}
        if self.perf is not None:
            out["perf"] = _perf_json(self.perf, self.games)
        return out


def _perf_json(r: Rating, games: int) -> dict[str, Any]:
    return {
        "rating": round(r.rating),
        "rd": round(r.rd),
        "games": games,
        "provisional": r.provisional,
    }


@dataclass(frozen=True)
class StormRun:
    """A timed run's result as the server counted it."""

    score: int
    moves: int
    errors: int
    combo: int
    seconds: int
    highest: int
    best: int
    """The player's best score before this run (0: his first)."""

    def json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "moves": self.moves,
            "errors": self.errors,
            "combo": self.combo,
            "time": self.seconds,
            "highest": self.highest,
            "newHigh": self.score > self.best,
            "best": max(self.best, self.score),
        }


def combo_bonus(combo: int) -> int:
    """Seconds a timed run wins when its combo reaches ``combo`` (0 at most other counts)."""
    for at, seconds in COMBO_BONUS:
        if combo == at:
            return seconds
    return 10 if combo > 30 and combo % 10 == 0 else 0


class Puzzles:
    """The puzzles of one database (module docstring)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._shipped = False
        self._lock = threading.Lock()

    # --- the set ---------------------------------------------------------------------------

    def ensure_shipped(self) -> int:
        """Import each shipped file (:func:`emergo.puzzles.data_file`) the site has not
        imported yet; the puzzles added.  Once a process (then cheap)."""
        with self._lock:
            if self._shipped:
                return 0
            added = 0
            for variant in VARIANTS:
                path = data_file(variant)
                if path.is_file():
                    added += self.import_file(path, name=f"shipped {path.name}")
            self._shipped = True
            return added

    def start_import(self) -> None:
        """:meth:`ensure_shipped` at a server's start (in a worker thread): a failure is logged
        and tried again at the first puzzle asked for, never the start's end."""
        try:
            self.ensure_shipped()
        except Exception:
            log.exception("the shipped puzzles were not imported")

    def import_file(self, path: str | Path, *, name: str | None = None) -> int:
        """Import a puzzle file (plain or ``.gz``); the puzzles added (0 when every one is
        here already).  :class:`PuzzleError` naming the file and line of a bad puzzle: then
        nothing is imported."""
        path = Path(path)
        try:
            raw = path.read_bytes()
        except OSError as e:
            raise PuzzleError(f"cannot read {path}: {e.strerror or e}") from None
        digest = hashlib.sha256(raw).hexdigest()
        with self.db.read() as c:
            if c.execute(
                select(m.puzzle_imports.c.digest).where(m.puzzle_imports.c.digest == digest)
            ).first():
                return 0
        try:
            found = list(read_puzzles(path))
        except PuzzleFileError as e:
            raise PuzzleError(str(e)) from None
        except (OSError, EOFError, UnicodeDecodeError) as e:
            raise PuzzleError(f"{path}: not a puzzle file ({e})") from None
        added = self.add(found)
        with self.db.write() as tx:
            if not tx.execute(
                select(m.puzzle_imports.c.digest).where(m.puzzle_imports.c.digest == digest)
            ).first():
                tx.execute(
                    insert(m.puzzle_imports).values(
                        digest=digest,
                        name=(name or str(path))[-200:],
                        puzzles=len(found),
                        added=added,
                        at=now(),
                    )
                )
        return added

    def add(self, found: Iterable[Puzzle]) -> int:
        """Add the puzzles the site does not hold (by id); how many were new."""
        t = now()
        added = 0
        with self.db.write() as tx:
            have = set(tx.execute(select(m.puzzles.c.id)).scalars())
            rows = []
            for p in found:
                if p.id in have:
                    continue
                have.add(p.id)
                rows.append(
                    {
                        "id": p.id,
                        "variant": p.variant,
                        "position": p.position,
                        "solution": " ".join(p.solution),
                        "themes": ",".join(p.themes),
                        "rating": float(p.rating),
                        "rd": PUZZLE_DEVIATION,
                        "volatility": VOLATILITY,
                        "plays": 0,
                        "gain": p.gain,
                        "proof": p.proof,
                        "source": p.source[:120],
                        "initial_ply": p.initial_ply,
                        "game": " ".join(p.game),
                        "start": p.start,
                        "imported": t,
                    }
                )
            for i in range(0, len(rows), 500):
                tx.execute(insert(m.puzzles), rows[i : i + 500])
            added = len(rows)
        return added

    def counts(self) -> dict[str, int]:
        """The puzzles of each board."""
        self.ensure_shipped()
        with self.db.read() as c:
            rows = c.execute(
                select(m.puzzles.c.variant, func.count()).group_by(m.puzzles.c.variant)
            ).all()
        return {variant: n for variant, n in rows}

    def get(self, puzzle_id: str) -> Stored:
        """A puzzle by its id; :class:`PuzzleError` 404 when the site has none."""
        self.ensure_shipped()
        with self.db.read() as c:
            row = c.execute(select(m.puzzles).where(m.puzzles.c.id == puzzle_id)).first()
        if row is None:
            raise PuzzleError(f"no puzzle {str(puzzle_id)[:20]!r}", 404)
        return _stored(row)

    def in_archive(self, game_id: str) -> bool:
        """Whether the site's archive holds a game of this id (a puzzle mined from it links
        there)."""
        with self.db.read() as c:
            return (
                c.execute(select(m.archive.c.game_id).where(m.archive.c.game_id == game_id)).first()
                is not None
            )

    # --- a player --------------------------------------------------------------------------

    def perf(self, user_id: int) -> tuple[Rating, int]:
        """A player's puzzle rating (a new player's 1500 / 500 / 0.09) and its games."""
        with self.db.read() as c:
            row = c.execute(
                select(m.puzzle_perfs).where(m.puzzle_perfs.c.user_id == user_id)
            ).first()
        if row is None:
            return Rating(), 0
        days = (now() - row.latest) / 86400 if row.latest else 0.0
        return Rating(
            row.rating, rd_after(Rating(row.rating, row.rd, row.volatility), days), row.volatility
        ), row.games

    def next_for(
        self,
        user_id: int | None,
        *,
        angle: str = "mix",
        variant: str | None = None,
        rating: float | None = None,
        rng: random.Random | None = None,
    ) -> Stored:
        """A puzzle for a player (``None``: signed out, at ``rating`` or 1500): of ``variant``
        (default the first board with puzzles), tagged ``angle`` unless ``mix``, one he has not
        tried, among the :data:`NEAREST` nearest his rating."""
        self.ensure_shipped()
        if angle not in ANGLES:
            raise PuzzleError(f"no theme {str(angle)[:40]!r}: one of {', '.join(ANGLES)}")
        variant = self._variant(variant)
        if user_id is not None:
            rating = self.perf(user_id)[0].rating
        level = 1500.0 if rating is None else rating
        p = m.puzzles

        def nearest(untried: bool) -> Any:
            query = select(p).where(p.c.variant == variant)
            if angle != "mix":
                themes = literal(",") + p.c.themes + literal(",")
                query = query.where(themes.like(f"%,{angle},%"))
            if untried and user_id is not None:
                query = query.where(
                    ~exists().where(
                        m.puzzle_rounds.c.user_id == user_id,
                        m.puzzle_rounds.c.puzzle_id == p.c.id,
                    )
                )
            return query.order_by(func.abs(p.c.rating - level), p.c.id).limit(NEAREST)

        with self.db.read() as c:
            rows = c.execute(nearest(True)).all()
            if not rows and user_id is not None:  # every one tried: the nearest again
                rows = c.execute(nearest(False)).all()
        if not rows:
            raise PuzzleError(f"no {variant} puzzle of the theme {angle} on this site", 404)
        return _stored((rng or random).choice(rows))

    def _variant(self, variant: str | None) -> str:
        if variant is not None and variant not in VARIANTS:
            raise PuzzleError(f"no board {str(variant)[:20]!r}: one of {', '.join(VARIANTS)}")
        if variant is not None:
            return variant
        counts = self.counts()
        return next((v for v in VARIANTS if counts.get(v)), VARIANTS[0])

    def daily(self, t: float | None = None) -> Stored:
        """The puzzle of the day (UTC): the same for everyone, chosen at the day's first ask
        from the puzzles of more than one move, by the day's hash."""
        self.ensure_shipped()
        day = _day(now() if t is None else t)
        with self.db.read() as c:
            row = c.execute(
                select(m.puzzles)
                .join(m.puzzle_daily, m.puzzle_daily.c.puzzle_id == m.puzzles.c.id)
                .where(m.puzzle_daily.c.day == day)
            ).first()
        if row is not None:
            return _stored(row)
        with self.db.write() as tx:
            chosen = tx.execute(
                select(m.puzzle_daily.c.puzzle_id).where(m.puzzle_daily.c.day == day)
            ).scalar()
            if chosen is None:
                ids = sorted(
                    tx.execute(
                        select(m.puzzles.c.id).where(
                            ~(literal(",") + m.puzzles.c.themes + literal(",")).like("%,oneMove,%")
                        )
                    ).scalars()
                )
                if not ids:
                    raise PuzzleError("this site has no puzzles", 404)
                n = int(hashlib.sha256(day.encode()).hexdigest()[:12], 16)
                chosen = ids[n % len(ids)]
                tx.execute(insert(m.puzzle_daily).values(day=day, puzzle_id=chosen))
        return self.get(chosen)

    def attempt(
        self,
        puzzle_id: str,
        user_id: int | None,
        moves: Sequence[str] | None,
        *,
        gave_up: bool = False,
    ) -> Attempt:
        """Judge a line (:func:`emergo.puzzles.check`) and, when it ends the attempt (solved,
        or wrong), keep it for a signed-in player: his first try rated.  ``gave_up``: the
        solver asked for the solution (a loss, no line needed)."""
        stored = self.get(puzzle_id)
        verdict: Verdict | None = None
        if not gave_up:
            if not moves:
                raise PuzzleError("send the moves played (or win false to give up)")
            try:
                verdict = check(stored.puzzle, list(moves))
            except ValueError as e:
                raise PuzzleError(f"not an attempt at puzzle {puzzle_id}: {e}") from None
            if verdict.status == "right":
                return Attempt(verdict, None)
        win = verdict is not None and verdict.status == "solved"
        if user_id is None:
            return Attempt(verdict, win)
        return self._keep(stored, user_id, verdict, win)

    def _keep(self, stored: Stored, user_id: int, verdict: Verdict | None, win: bool) -> Attempt:
        t = now()
        r = m.puzzle_rounds
        with self.db.write() as tx:
            tx.execute(tx.locked(select(m.users.c.id).where(m.users.c.id == user_id)))
            before = tx.execute(
                select(r).where(r.c.user_id == user_id, r.c.puzzle_id == stored.puzzle.id)
            ).first()
            if before is not None:
                tx.execute(
                    update(r)
                    .where(r.c.user_id == user_id, r.c.puzzle_id == stored.puzzle.id)
                    .values(
                        tries=before.tries + 1,
                        updated=t,
                        fixed=before.fixed or (win and not before.win),
                    )
                )
                perf, games = self._perf_locked(tx, user_id, t)
                return Attempt(verdict, win, perf=perf, games=games)
            player, games = self._perf_locked(tx, user_id, t)
            row = tx.execute(
                tx.locked(select(m.puzzles).where(m.puzzles.c.id == stored.puzzle.id))
            ).one()
            puzzle_rating = Rating(row.rating, row.rd, row.volatility)
            new_player, new_puzzle = rate_game(player, puzzle_rating, 1.0 if win else 0.0)
            diff = round(new_player.rating) - round(player.rating)
            values: dict[str, Any] = {"plays": row.plays + 1}
            if player.rd < PROVISIONAL_DEVIATION:
                values.update(
                    rating=new_puzzle.rating, rd=new_puzzle.rd, volatility=new_puzzle.volatility
                )
            tx.execute(update(m.puzzles).where(m.puzzles.c.id == row.id).values(**values))
            tx.execute(
                update(m.puzzle_perfs)
                .where(m.puzzle_perfs.c.user_id == user_id)
                .values(
                    rating=new_player.rating,
                    rd=new_player.rd,
                    volatility=new_player.volatility,
                    games=games + 1,
                    latest=t,
                )
            )
            tx.execute(
                insert(r).values(
                    user_id=user_id,
                    puzzle_id=row.id,
                    win=win,
                    fixed=False,
                    rating_diff=diff,
                    puzzle_rating=round(row.rating),
                    tries=1,
                    created=t,
                    updated=t,
                )
            )
        return Attempt(verdict, win, rated=True, rating_diff=diff, perf=new_player, games=games + 1)

    def _perf_locked(self, tx: Tx, user_id: int, t: float) -> tuple[Rating, int]:
        pp = m.puzzle_perfs
        row = tx.execute(select(pp).where(pp.c.user_id == user_id)).first()
        if row is None:
            new = Rating()
            tx.execute(
                insert(pp).values(
                    user_id=user_id,
                    rating=new.rating,
                    rd=new.rd,
                    volatility=new.volatility,
                    games=0,
                    latest=None,
                )
            )
            return new, 0
        days = (t - row.latest) / 86400 if row.latest else 0.0
        r = Rating(row.rating, row.rd, row.volatility)
        return Rating(r.rating, rd_after(r, days), r.volatility), row.games

    # --- what a player did -----------------------------------------------------------------

    def activity(
        self, user_id: int, limit: int = 50, before: float | None = None
    ) -> list[dict[str, Any]]:
        """A player's latest attempts, newest first (``GET /api/puzzle/activity``'s lines)."""
        r = m.puzzle_rounds
        query = (
            select(r, m.puzzles)
            .join(m.puzzles, m.puzzles.c.id == r.c.puzzle_id)
            .where(r.c.user_id == user_id)
            .order_by(r.c.created.desc())
            .limit(limit)
        )
        if before is not None:
            query = query.where(r.c.created < before)
        with self.db.read() as c:
            rows = c.execute(query).all()
        out = []
        for row in rows:
            stored = _stored(row)
            data = stored.json()["puzzle"]
            data["lastMove"] = stored.puzzle.last_move
            out.append(
                {
                    "date": int(row.created * 1000),
                    "win": row.win,
                    "ratingDiff": row.rating_diff,
                    "puzzle": data,
                }
            )
        return out

    def _rounds(self, user_id: int, days: int) -> list[Any]:
        since = now() - days * 86400
        r = m.puzzle_rounds
        with self.db.read() as c:
            return list(
                c.execute(
                    select(
                        r.c.win,
                        r.c.fixed,
                        r.c.puzzle_rating,
                        r.c.created,
                        r.c.puzzle_id,
                        m.puzzles.c.themes,
                    )
                    .join(m.puzzles, m.puzzles.c.id == r.c.puzzle_id)
                    .where(r.c.user_id == user_id, r.c.created >= since)
                ).all()
            )

    def dashboard(self, user_id: int, days: int) -> dict[str, Any]:
        """lichess's dashboard: the results of the last ``days`` days, overall and per theme
        (solved first try, failed, fixed later, performance), the themes weakest first, and the
        results of each day."""
        if not 1 <= days <= MAX_DAYS:
            raise PuzzleError(f"days must be from 1 to {MAX_DAYS}")
        rows = self._rounds(user_id, days)
        overall = _results(rows)
        by_theme: dict[str, list[Any]] = {}
        by_day: dict[str, list[Any]] = {}
        for row in rows:
            for theme in row.themes.split(","):
                if theme:
                    by_theme.setdefault(theme, []).append(row)
            by_day.setdefault(_day(row.created), []).append(row)
        themes = sorted(
            ((t, _results(rs)) for t, rs in by_theme.items()),
            key=lambda item: (item[1]["performance"], -item[1]["nb"], item[0]),
        )
        perf, games = self.perf(user_id)
        return {
            "days": days,
            "global": overall,
            "themes": {t: {"theme": theme_name(t), "results": res} for t, res in themes},
            "weakest": [
                t
                for t, res in themes
                if res["failed"] and res["performance"] < overall["performance"]
            ],
            "byDay": [{"day": d, **_results(rs)} for d, rs in sorted(by_day.items())],
            "perf": _perf_json(perf, games),
            "history": rating_history(self.db, user_id, days),
        }

    def replay(self, user_id: int, days: int, angle: str = "mix") -> list[str]:
        """The puzzles a player failed in the last ``days`` days and has not solved since
        (of ``angle``), oldest first."""
        if not 1 <= days <= MAX_DAYS:
            raise PuzzleError(f"days must be from 1 to {MAX_DAYS}")
        if angle not in ANGLES:
            raise PuzzleError(f"no theme {str(angle)[:40]!r}: one of {', '.join(ANGLES)}")
        rows = sorted(self._rounds(user_id, days), key=lambda row: row.created)
        return [
            row.puzzle_id
            for row in rows
            if not row.win and not row.fixed and (angle == "mix" or angle in row.themes.split(","))
        ]

    def merge(self, user_id: int, rounds: Sequence[tuple[str, bool, bool, float]]) -> int:
        """A visitor's attempts kept in his browser, ``(id, win, fixed, time)``, added to his
        account when he signs in: never rated (``rating_diff`` None; neither rating moves),
        kept for the history, the dashboard and replay.  A puzzle the account has tried keeps
        its round; an unknown id is skipped; a time is at most now.  The rounds added."""
        if len(rounds) > MAX_BATCH:
            raise PuzzleError(f"at most {MAX_BATCH} attempts at once")
        self.ensure_shipped()
        t, r, pz = now(), m.puzzle_rounds, m.puzzles.c
        with self.db.write() as tx:
            tx.execute(tx.locked(select(m.users.c.id).where(m.users.c.id == user_id)))
            ids = {i for i, *_ in rounds}
            found = select(pz.id, pz.rating).where(pz.id.in_(ids))
            ratings: dict[str, float] = {row.id: row.rating for row in tx.execute(found)}
            tried = select(r.c.puzzle_id).where(r.c.user_id == user_id, r.c.puzzle_id.in_(ids))
            seen = set(tx.execute(tried).scalars().all())
            rows = []
            for puzzle_id, win, fixed, at in rounds:
                if puzzle_id in ratings and puzzle_id not in seen:
                    seen.add(puzzle_id)
                    rows.append(
                        {"user_id": user_id, "puzzle_id": puzzle_id, "win": win, "tries": 1}
                        | {"fixed": fixed and not win, "rating_diff": None, "created": min(at, t)}
                        | {"puzzle_rating": round(ratings[puzzle_id]), "updated": min(at, t)}
                    )
            if rows:
                tx.execute(insert(r), rows)
        return len(rows)

    # --- the timed run ---------------------------------------------------------------------

    def storm(self, variant: str | None = None, rng: random.Random | None = None) -> list[Stored]:
        """A timed run's puzzles: of ``variant`` (default the first with puzzles), easiest
        first, the one-movers and short lines before the long."""
        self.ensure_shipped()
        variant = self._variant(variant)
        with self.db.read() as c:
            rows = c.execute(select(m.puzzles).where(m.puzzles.c.variant == variant)).all()
        chosen = (rng or random).sample(list(rows), min(STORM_PUZZLES, len(rows)))
        return sorted((_stored(row) for row in chosen), key=lambda s: (s.rating, s.puzzle.id))

    def storm_result(
        self,
        user_id: int | None,
        lines: Sequence[tuple[str, Sequence[str]]],
        *,
        errors: int,
        combo: int,
        seconds: int,
    ) -> StormRun:
        """Count a run: each solved puzzle's line judged again (:func:`emergo.puzzles.check`);
        the score is those solved.  Kept for a signed-in player."""
        if len(lines) > STORM_PUZZLES * 3:
            raise PuzzleError("a run holds more puzzles than a run has")
        score, moves, highest = 0, 0, 0
        for puzzle_id, line in lines:
            stored = self.get(puzzle_id)
            try:
                verdict = check(stored.puzzle, list(line))
            except ValueError as e:
                raise PuzzleError(f"puzzle {puzzle_id}: not a solution ({e})") from None
            if verdict.status != "solved":
                raise PuzzleError(f"puzzle {puzzle_id}: the line does not solve it")
            score += 1
            moves += (len(line) + 1) // 2
            highest = max(highest, round(stored.rating))
        errors = max(0, min(errors, 10_000))
        combo = max(0, min(combo, moves))
        seconds = max(0, min(seconds, 3600))
        best = 0
        if user_id is not None:
            s = m.storm_runs
            with self.db.write() as tx:
                best = (
                    tx.execute(select(func.max(s.c.score)).where(s.c.user_id == user_id)).scalar()
                    or 0
                )
                tx.execute(
                    insert(s).values(
                        user_id=user_id,
                        score=score,
                        moves=moves,
                        errors=errors,
                        combo=combo,
                        seconds=seconds,
                        highest=highest,
                        created=now(),
                    )
                )
        return StormRun(score, moves, errors, combo, seconds, highest, best)

    def storm_best(self, user_id: int) -> dict[str, Any]:
        """A player's runs: how many, the best score, today's best."""
        s = m.storm_runs
        day_start = math.floor(now() / 86400) * 86400
        with self.db.read() as c:
            runs, best = c.execute(
                select(func.count(), func.max(s.c.score)).where(s.c.user_id == user_id)
            ).one()
            today = c.execute(
                select(func.max(s.c.score)).where(s.c.user_id == user_id, s.c.created >= day_start)
            ).scalar()
        return {"runs": runs, "score": best or 0, "today": today or 0}


def _stored(row: Any) -> Stored:
    return Stored(_puzzle_of(row), row.rating, row.rd, row.plays)


def _results(rows: Sequence[Any]) -> dict[str, Any]:
    """lichess's ``Results``: attempts, first-try wins, fixed later, the puzzles' average
    rating and the performance (that average - 500 + 1000 x the share won first try)."""
    nb = len(rows)
    wins = sum(1 for r in rows if r.win)
    fixed = sum(1 for r in rows if r.fixed)
    average = round(sum(r.puzzle_rating for r in rows) / nb) if nb else 0
    performance = average - 500 + round(1000 * wins / nb) if nb else 0
    return {
        "nb": nb,
        "firstWins": wins,
        "replayWins": fixed,
        "failed": nb - wins,
        "unfixed": nb - wins - fixed,
        "puzzleRatingAvg": average,
        "performance": performance,
    }
