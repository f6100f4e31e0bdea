"""The director of the site's events: what the timers do (docs/tournaments.md, "On the site").

Each event that something is due in has one ``tournament_timers`` row: its start, an arena's
next pairing pass and its end, a Swiss's or a round robin's next round.  Every server process
sweeps the due rows (:meth:`Director.sweep`, from :mod:`emergo.server.periodic`); a row is
taken ``FOR UPDATE SKIP LOCKED`` and its event row locked, so **one pass per event runs at a
time** whichever processes sweep, and the pass stores its pairings and starts their games in
the transaction that holds the lock: a pairing is made once, with its game, or not at all
(``kill -9`` between two statements rolls the whole pass back).  A player's ``playing`` column
is set only where it was empty (``WHERE playing IS NULL``): a second pass that somehow saw a
stale room could not put a player into two games of a live event.

A game of an event that ends records its result in the transaction that ends it
(:meth:`Director.game_over`, called by the rounds service's extension), puts an arena's player
back in the event's lobby, and pokes the event's timer: the next pass, or the next round.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select, update

from emergo import round as rnd
from emergo.ballots import draw_ballot
from emergo.board import Termination
from emergo.server.core import models as m
from emergo.server.core.db import Database, Tx, now
from emergo.server.notify.letters import Notice
from emergo.server.notify.notices import Notices, describe_control
from emergo.server.round.starts import GameStart, canonical_start, draw_start
from emergo.server.tournament import swiss as sw
from emergo.server.tournament.arena import ColourHistory, Waiting, pair_arena, pairings_closed
from emergo.server.tournament.event import (
    Event,
    Pairing,
    Roster,
    byes_of,
    event_of,
    lines_of,
    pairings_of,
    roster,
    swiss_value,
)
from emergo.server.tournament.roundrobin import berger, match
from emergo.server.tournament.service import TournamentError, poke, set_timer
from emergo.server.tournament.sheet import movement_plies

if TYPE_CHECKING:
    from emergo.server.round.service import GameView, Rounds
    from emergo.server.tournament.schedule import Schedule

log = logging.getLogger(__name__)

ARENA_PASS = 2.0
"""Seconds between two pairing passes of an arena while players wait (lila: about 2)."""
RETURN_DELAY = 1.0
"""Seconds after a game ends before the pass that pairs its players again (others come back)."""
LIVE_RECHECK = 60.0
"""A running live event's director looks again at least this often (a lost poke costs this)."""


FIRST_DUE = "SELECT min(due) FROM tournament_timers"
"""When the first event's work is due (NULL: none is)."""


class Director:
    """Runs the events of one database from their timers (module docstring)."""

    def __init__(
        self,
        db: Database,
        rounds: Rounds,
        notices: Notices | None = None,
        clock: Callable[[], float] = now,
    ) -> None:
        self.db = db
        self.rounds = rounds
        self.notices = notices
        self.clock = clock
        self.schedule: Schedule | None = None
        """The config's scheduled events, made by the sweep (the site sets it)."""

    # --- the sweep -------------------------------------------------------------------------------

    def sweep(self, limit: int = 20) -> int:
        """Do what is due in events, one event a transaction (``SKIP LOCKED``: the processes
        sweeping at once share them); how many events were looked at."""
        done = 0
        skipped: list[str] = []
        if self.schedule is not None and self.schedule.due(self.clock()):
            self.schedule.sweep(self.clock())  # the config's scheduled events (schedule.py)
        # most sweeps find nothing due (a site without an event running, every 0.5 s): one
        # raw read says so, without a write transaction that would queue behind the moves
        first = self.db.raw_one(FIRST_DUE)
        if first is None or first[0] is None or first[0] > self.clock():
            return 0
        for _ in range(limit):
            t = self.clock()
            event_id = None
            try:
                with self.db.write() as tx:
                    query = (
                        select(m.tournament_timers.c.tournament_id)
                        .where(m.tournament_timers.c.due <= t)
                        .order_by(m.tournament_timers.c.due)
                        .limit(1)
                    )
                    if skipped:
                        query = query.where(m.tournament_timers.c.tournament_id.not_in(skipped))
                    if self.db.postgres:
                        query = query.with_for_update(skip_locked=True)
                    event_id = tx.execute(query).scalar()
                    if event_id is None:
                        break
                    set_timer(tx, event_id, self.direct(tx, event_id, t))
                done += 1
            except Exception as e:  # one event's failure must not stop the others'
                if event_id is None:
                    raise
                log.warning(
                    "tournament %s: the director failed: %s: %s", event_id, type(e).__name__, e
                )
                skipped.append(event_id)
                with self.db.write() as tx:
                    set_timer(tx, event_id, t + 10.0)
        return done

    def direct(self, tx: Tx, event_id: str, t: float) -> float | None:
        """One event's due work, its row locked; the next time it is due (None: never)."""
        row = tx.execute(
            tx.locked(select(m.tournaments).where(m.tournaments.c.id == event_id))
        ).first()
        if row is None or row.status == "finished":
            return None
        # the time again, now that the event is locked: a game that ended while this pass waited
        # for its transaction freed its players at a later time than the pass's first reading,
        # and their next pairings must not begin before it (a CI run on PostgreSQL had them 2
        # ms before)
        t = max(t, self.clock())
        event = event_of(row)
        players = roster(tx, event_id)
        if event.status == "created":
            if t < event.starts_at:
                return event.starts_at
            if not self._start(tx, row, event, players, t):
                return None
            row = tx.execute(select(m.tournaments).where(m.tournaments.c.id == event_id)).first()
            event = event_of(row)
        if event.kind == "arena":
            return self._arena(tx, event, players, t)
        return self._rounds(tx, row, event, players, t)

    # --- starting and finishing ------------------------------------------------------------------

    def _start(self, tx: Tx, row: Any, event: Event, players: Roster, t: float) -> bool:
        """Start the event (False: it could not, and finished empty)."""
        active = [u for u, s in players.status.items() if s == "active"]
        values: dict[str, Any] = {"status": "started"}
        if event.kind != "arena" and len(active) < 2:
            self._finish(tx, event, players, t)
            log.info("tournament %s: fewer than two players at the start", event.id)
            return False
        if event.kind in ("robin", "match"):
            schedule = self._schedule(event, players, active)
            values["settings"] = {**row.settings, "schedule": schedule}
            values["rounds"] = len(schedule)
        values["round_due"] = t if event.kind != "arena" else None
        tx.execute(update(m.tournaments).where(m.tournaments.c.id == event.id).values(**values))
        tx.notify(f"t:{event.id}", "started")
        return True

    def _schedule(self, event: Event, players: Roster, active: list[int]) -> list[list[list[Any]]]:
        """A round robin's or a match's games by round: ``[white id, black id, ballot]`` each."""
        rng = random.Random(f"{event.id}-schedule")
        start = (
            canonical_start(event.settings.start, event.variant)
            if event.settings.start != "none"
            else None
        )
        ballots = start == "ballot"
        ids = {players.names[u]: u for u in active}
        order = sorted(active, key=lambda u: (-players.ratings[u], players.names[u].lower()))
        names = [players.names[u] for u in order]
        if event.kind == "match":
            first = next((u for u in active if players.names[u] and u == order[0]), order[0])
            second = next(u for u in order if u != first)
            games = event.rounds or 2
            openings = (
                [draw_ballot(event.variant, rng=rng).id or "" for _ in range((games + 1) // 2)]
                if ballots
                else None
            )
            scheduled = match(players.names[first], players.names[second], games, ballots=openings)
            return [[[ids[g.white], ids[g.black], g.opening]] for g in scheduled]
        pairs = len(names) * (len(names) - 1) // 2
        openings = (
            [draw_ballot(event.variant, rng=rng).id or "" for _ in range(pairs)]
            if ballots
            else None
        )
        table = berger(
            names,
            micro_match=event.settings.micro_match,
            cycles=event.settings.cycles,
            openings=openings,
        )
        rounds: list[list[list[Any]]] = []
        for scheduled_round in table:
            boards = [[ids[g.white], ids[g.black], g.opening] for g in scheduled_round]
            if event.settings.micro_match and event.days is None:
                rounds += [
                    boards[0::2],
                    boards[1::2],
                ]  # live: a pair's two games one after the other
            else:
                rounds.append(boards)
        return rounds

    def cancel(self, event_id: str) -> str:
        """The admin's cancel (``emergo admin tournament cancel``): an event not started is
        deleted (``"deleted"``); one going on ends now as at its end, its games in play
        counting when they end (``"finished"``); a finished one: TournamentError (409)."""
        t = self.clock()
        with self.db.write() as tx:
            row = tx.execute(
                tx.locked(select(m.tournaments).where(m.tournaments.c.id == event_id))
            ).first()
            if row is None:
                raise TournamentError(f"no tournament {event_id!r}", 404)
            if row.status == "finished":
                raise TournamentError(f"the tournament {event_id} is over already", 409)
            tx.execute(
                delete(m.tournament_timers).where(m.tournament_timers.c.tournament_id == event_id)
            )
            if row.status == "created":
                for table in (m.tournament_byes, m.tournament_games, m.tournament_players):
                    tx.execute(delete(table).where(table.c.tournament_id == event_id))
                tx.execute(delete(m.tournaments).where(m.tournaments.c.id == event_id))
                tx.notify(f"t:{event_id}", "deleted")
                return "deleted"
            event = event_of(row)
            if event.kind == "arena":
                tx.execute(
                    update(m.tournaments).where(m.tournaments.c.id == event_id).values(ends_at=t)
                )
            self._finish(tx, event, roster(tx, event_id), t)
            return "finished"

    def _finish(self, tx: Tx, event: Event, players: Roster, t: float) -> None:
        pairings = pairings_of(tx, event.id, players.names)
        finished = event_of_status(event, "finished")
        lines = lines_of(finished, players, pairings, byes_of(tx, event.id))
        ids = {players.names[u]: u for u in players.names}
        for line in lines:
            tx.execute(
                update(m.tournament_players)
                .where(m.tournament_players.c.tournament_id == event.id)
                .where(m.tournament_players.c.user_id == ids[line.name])
                .values(rank=line.rank, score=line.score, waiting=None)
            )
        values: dict[str, Any] = {"status": "finished", "round_due": None}
        if event.kind != "arena":
            values["ends_at"] = t
        tx.execute(update(m.tournaments).where(m.tournaments.c.id == event.id).values(**values))
        tx.notify(f"t:{event.id}", "finished")

    # --- the games -------------------------------------------------------------------------------

    def _game(
        self,
        tx: Tx,
        event: Event,
        white: int,
        black: int,
        *,
        number: int,
        board: int,
        opening: str | None,
        players: Roster,
        ratings: dict[int, int],
        t: float,
        exclusive: bool,
    ) -> str:
        """Start one game of the event with its pairing row; the players' ``playing`` set
        (``exclusive``: only where empty, else the whole pass fails and rolls back)."""
        kind = event.settings.start
        start = GameStart()
        if kind != "none":
            chosen = canonical_start(kind, event.variant)
            if opening or chosen == "ballot":
                start = draw_start(
                    "ballot",
                    event.variant,
                    ballot=opening or None,
                    seed=f"{event.id}-{number}-{board}",
                )
                opening = start.tags.get("Ballot")
            elif chosen is not None:
                start = draw_start(chosen, event.variant)
        state = rnd.RoundState.new(
            variant=event.variant, root=start.root, time_control=event.control, now=t
        )
        tags = {"Event": event.full_name, "Tournament": event.id, **start.tags}
        if event.kind != "arena":
            tags["Round"] = str(number)
        game_id = self.rounds.start(tx, state, white, black, rated=event.rated, t=t, tags=tags)
        tx.execute(
            insert(m.tournament_games).values(
                tournament_id=event.id,
                round=number,
                board=board,
                white_id=white,
                black_id=black,
                game_id=game_id,
                opening=opening,
                status="playing",
                result="*",
                forfeit=False,
                movement_plies=0,
                berserk_white=False,
                berserk_black=False,
                white_rating=ratings.get(white, players.ratings[white]),
                black_rating=ratings.get(black, players.ratings[black]),
                created=t,
            )
        )
        for user in (white, black):
            query = (
                update(m.tournament_players)
                .where(m.tournament_players.c.tournament_id == event.id)
                .where(m.tournament_players.c.user_id == user)
            )
            if exclusive:
                query = query.where(m.tournament_players.c.playing.is_(None))
            changed = tx.execute(query.values(playing=game_id, waiting=None)).rowcount
            if exclusive and changed != 1:
                raise TournamentError(
                    f"{players.names[user]} is in a game of the event already", 409
                )
        if self.notices is not None:
            control = describe_control(event.control.tag() if event.control else None)
            for me, other in ((white, black), (black, white)):
                notice = Notice(
                    "event-game",
                    game_id,
                    players.names[other],
                    event.variant,
                    control,
                    t,
                    result=event.full_name,
                )
                self.notices.add(tx, me, notice)
        return game_id

    def _ratings(self, tx: Tx, event: Event, ids: list[int], t: float) -> dict[int, int]:
        """The players' ratings now on the event's board and speed (new players: 1500)."""
        if not ids:
            return {}
        rows = tx.execute(
            select(m.perfs.c.user_id, m.perfs.c.rating)
            .where(m.perfs.c.perf == event.perf)
            .where(m.perfs.c.user_id.in_(ids))
        ).all()
        found = {int(r.user_id): math.floor(r.rating) for r in rows}
        return {u: found.get(u, 1500) for u in ids}

    # --- arenas ----------------------------------------------------------------------------------

    def _arena(self, tx: Tx, event: Event, players: Roster, t: float) -> float | None:
        assert event.ends_at is not None
        if t >= event.ends_at:
            self._finish(tx, event, players, t)
            return None
        limit = event.clock_limit or 0.0
        if pairings_closed(now=t, ends_at=event.ends_at, clock_limit=limit):
            return event.ends_at
        pairings = pairings_of(tx, event.id, players.names)
        ids = {players.names[u]: u for u in players.names}
        ranks = {line.name: line.rank for line in lines_of(event, players, pairings, {})}
        colours: dict[int, list[str]] = {u: [] for u in players.names}
        last: dict[int, str] = {}
        for p in pairings:
            last[p.white_id], last[p.black_id] = p.black, p.white
            if p.status != "aborted":
                colours[p.white_id].append("w")
                colours[p.black_id].append("b")
        waiting = [
            u
            for u, since in players.waiting.items()
            if players.status[u] == "active" and u not in players.playing
        ]
        ratings = self._ratings(tx, event, waiting, t)
        room = [
            Waiting(
                players.names[u],
                rank=ranks.get(players.names[u], len(ranks) + 1),
                rating=ratings[u],
                last_opponent=last.get(u),
                colours=ColourHistory.of(colours[u]),
                since=players.waiting[u],
            )
            for u in waiting
        ]
        active = sum(1 for s in players.status.values() if s == "active")
        made = pair_arena(
            room,
            now=t,
            starts_at=event.starts_at,
            ends_at=event.ends_at,
            clock_limit=limit,
            active_players=active,
            seed=random.Random(f"{event.id}-{len(pairings)}").getrandbits(32),
        )
        board = len(pairings)
        for pairing in made:
            board += 1
            self._game(
                tx,
                event,
                ids[pairing.white],
                ids[pairing.black],
                number=0,
                board=board,
                opening=None,
                players=players,
                ratings=ratings,
                t=t,
                exclusive=True,
            )
        if made:
            tx.notify(f"t:{event.id}", "pairings")
        left = len(room) - 2 * len(made)
        return (
            min(t + ARENA_PASS, event.ends_at)
            if left >= 2 or (left == 1 and made)
            else min(t + LIVE_RECHECK, event.ends_at)
        )

    # --- Swiss, round robins, matches ------------------------------------------------------------

    def _rounds(self, tx: Tx, row: Any, event: Event, players: Roster, t: float) -> float | None:
        """A Swiss's, round robin's or match's next round when the last one is over (or, in a
        correspondence round robin, when its deadline passed): at the round's fixed time, else
        ``round_delay`` after its last game ended; the end after the last round."""
        pairings = pairings_of(tx, event.id, players.names)
        current = [p for p in pairings if p.round == event.round]
        ongoing = any(p.status == "playing" for p in current)
        corr = event.settings.round_days is not None and event.kind != "swiss"
        deadline = event.round_due if corr else None
        recheck = t + (LIVE_RECHECK if event.days is None else 3600.0)
        rounds = event.rounds or 1
        if event.round > 0:
            if event.round >= rounds:
                if ongoing:  # the last round's games go on
                    return recheck
                self._finish(tx, event, players, t)
                return None
            if ongoing and (deadline is None or t < deadline):
                return deadline if deadline is not None else recheck
            ended = max((p.ended or t for p in current), default=t)
            next_at = ended + event.settings.round_delay
            interval = event.settings.round_interval
            if interval is not None and event.kind == "swiss":
                next_at = max(ended, event.starts_at + event.round * interval)
            if deadline is not None:
                next_at = min(next_at, deadline)
            if t < next_at:
                if event.round_due != next_at:
                    tx.execute(
                        update(m.tournaments)
                        .where(m.tournaments.c.id == event.id)
                        .values(round_due=next_at)
                    )
                return next_at
        number = event.round + 1
        if event.kind == "swiss":
            if not self._swiss_round(tx, event, players, pairings, number, t):
                self._finish(tx, event, players, t)
                return None
        else:
            self._scheduled_round(tx, row, event, players, number, t)
        round_due = (
            t + event.settings.round_days * 86400.0 if corr and event.settings.round_days else None
        )
        tx.execute(
            update(m.tournaments)
            .where(m.tournaments.c.id == event.id)
            .values(round=number, round_due=round_due)
        )
        tx.notify(f"t:{event.id}", "round")
        return round_due if round_due is not None else recheck

    def _swiss_round(
        self, tx: Tx, event: Event, players: Roster, pairings: list[Pairing], number: int, t: float
    ) -> bool:
        value = swiss_value(event, players, pairings, byes_of(tx, event.id))
        try:
            pairing = sw.pair_round(value)
        except sw.SwissError as e:
            log.info("tournament %s: %s", event.id, e)
            return False
        ids = {players.names[u]: u for u in players.names}
        ratings = self._ratings(tx, event, list(players.names), t)
        for board, (white, black) in enumerate(pairing.boards, start=1):
            self._game(
                tx,
                event,
                ids[white],
                ids[black],
                number=number,
                board=board,
                opening=None,
                players=players,
                ratings=ratings,
                t=t,
                exclusive=event.days is None,
            )
        if pairing.bye is not None:
            tx.execute(
                insert(m.tournament_byes).values(
                    tournament_id=event.id, round=number, user_id=ids[pairing.bye]
                )
            )
        return True

    def _scheduled_round(
        self, tx: Tx, row: Any, event: Event, players: Roster, number: int, t: float
    ) -> None:
        schedule = row.settings.get("schedule") or []
        games = schedule[number - 1] if number <= len(schedule) else []
        ratings = self._ratings(tx, event, list(players.names), t)
        for board, (white, black, opening) in enumerate(games, start=1):
            gone = [u for u in (white, black) if players.status.get(u) != "active"]
            if gone:
                if len(gone) == 2:
                    continue
                result = "0-1" if gone[0] == white else "1-0"
                tx.execute(
                    insert(m.tournament_games).values(
                        tournament_id=event.id,
                        round=number,
                        board=board,
                        white_id=white,
                        black_id=black,
                        game_id=None,
                        opening=opening,
                        status="over",
                        result=result,
                        forfeit=True,
                        movement_plies=0,
                        berserk_white=False,
                        berserk_black=False,
                        white_rating=players.ratings[white],
                        black_rating=players.ratings[black],
                        created=t,
                        ended=t,
                    )
                )
                continue
            self._game(
                tx,
                event,
                white,
                black,
                number=number,
                board=board,
                opening=opening,
                players=players,
                ratings=ratings,
                t=t,
                exclusive=False,
            )

    # --- a game ends -----------------------------------------------------------------------------

    def game_over(self, tx: Tx, game: GameView, state: rnd.RoundState, t: float) -> None:
        """Record the result of an event's game in the transaction that ended it (the rounds
        service's extension calls it for every game that ends; others are left alone)."""
        row = tx.execute(
            select(m.tournament_games).where(m.tournament_games.c.game_id == game.id)
        ).first()
        if row is None or row.status != "playing":
            return
        event_id = row.tournament_id
        poke(tx, event_id, t + RETURN_DELAY)  # the first lock on the event (service docstring)
        kind = tx.execute(
            select(m.tournaments.c.kind).where(m.tournaments.c.id == event_id)
        ).scalar()
        outcome = state.outcome
        assert outcome is not None
        aborted = outcome.termination is Termination.ABORTED
        white_id, black_id = game.seats.white_id, game.seats.black_id
        no_show = None
        values: dict[str, Any] = {"ended": t, "white_id": white_id, "black_id": black_id}
        if aborted:
            no_show = white_id if state.turn else black_id
            if kind == "arena":
                values.update(status="aborted", result="*")
            else:  # a forfeit: the player who did not move loses (FIDE's, lichess's)
                values.update(
                    status="over", result="0-1" if no_show == white_id else "1-0", forfeit=True
                )
        else:
            plies = movement_plies(state.moves, start=state.root, variant=state.variant)
            values.update(status="over", result=outcome.result(), movement_plies=plies)
        tx.execute(
            update(m.tournament_games).where(m.tournament_games.c.id == row.id).values(**values)
        )
        for user in (white_id, black_id):
            where = (m.tournament_players.c.tournament_id == event_id) & (
                m.tournament_players.c.user_id == user
            )
            player = tx.execute(
                select(m.tournament_players.c.status, m.tournament_players.c.playing).where(where)
            ).first()
            if player is None:
                continue
            change: dict[str, Any] = {}
            if player.playing == game.id:
                change["playing"] = None
            if user == no_show:
                change.update(status="paused", waiting=None)
            elif kind == "arena" and player.status == "active":
                change["waiting"] = t
            if change:
                tx.execute(update(m.tournament_players).where(where).values(**change))
        tx.notify(f"t:{event_id}", "games")


def event_of_status(event: Event, status: str) -> Event:
    from dataclasses import replace

    return replace(event, status=status)
