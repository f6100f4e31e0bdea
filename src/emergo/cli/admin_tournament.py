"""``emergo admin tournament``: the site's events from the command line (docs/tournaments.md).

* ``tournament list [--all]`` -- the events starting soon and going on (``--all``: and the
  finished ones lately): id, system, board, clock, status, players, start, name;
* ``tournament create --name NAME [--system arena|swiss|robin] [--variant 9x9] [--clock 3+2 |
  --days N] [--minutes 45] [--rounds 7] [--wait 5] [--start none|ballot|recommended]
  [--casual] [--password CODE]`` -- an event of the site's (no creator, no daily limit),
  checked as the API checks one; prints its id and address;
* ``tournament cancel ID`` -- an event not started is deleted; one going on ends now (its games
  in play count when they end).
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from emergo.cli.common import EXIT_FAILURE, CliError, int_range, seconds

if TYPE_CHECKING:
    from emergo.server.site import Site

SYSTEMS = ("arena", "swiss", "robin")


def add_parser(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = actions.add_parser("tournament", help="list, create and cancel the site's events")
    events = p.add_subparsers(dest="event_action", metavar="WHAT", required=True)
    listing = events.add_parser("list", help="the events starting soon and going on")
    listing.add_argument("--all", action="store_true", help="and the finished ones lately")
    new = events.add_parser("create", help="an event of the site's (no creator)")
    new.add_argument("--name", required=True, help="its name (the system's word is added)")
    new.add_argument("--system", choices=SYSTEMS, default="arena")
    new.add_argument("--variant", default="9x9", help="9x9, 7x7 or hex (default 9x9)")
    new.add_argument("--clock", default=None, help="minutes+increment seconds, e.g. 3+2")
    new.add_argument(
        "--days", type=int_range(1, 14), default=None, help="days a move (correspondence)"
    )
    new.add_argument("--minutes", type=int_range(5, 600), default=None, help="an arena's duration")
    new.add_argument("--rounds", type=int_range(3, 100), default=None, help="a Swiss's rounds")
    new.add_argument(
        "--wait", type=seconds(0, 10080), default=5.0, help="minutes until it starts (5)"
    )
    new.add_argument("--start", default="none", help="none, ballot or recommended")
    new.add_argument("--casual", action="store_true", help="not rated")
    new.add_argument("--password", default=None, help="an entry code")
    cancel = events.add_parser("cancel", help="delete an event not started, or end one now")
    cancel.add_argument("id", metavar="ID")


def _clock(text: str) -> tuple[float, float]:
    minutes, _, increment = text.partition("+")
    try:
        limit, inc = float(minutes), float(increment or 0)
    except ValueError:
        raise CliError(f"--clock is minutes+seconds such as 3+2, not {text!r}") from None
    return limit, inc


def fields_of(args: argparse.Namespace) -> dict[str, Any]:
    """The API's fields of ``tournament create``'s options (``POST /api/tournament`` or
    ``/api/swiss/new``)."""
    fields: dict[str, Any] = {
        "name": args.name,
        "variant": args.variant,
        "rated": "false" if args.casual else "true",
        "waitMinutes": args.wait,
        "start": args.start,
    }
    if args.password:
        fields["password"] = args.password
    if args.days is not None:
        fields["days"] = args.days
    elif args.clock is not None or args.system != "robin":
        limit, increment = _clock(args.clock or "3+2")
        if args.system == "swiss":
            fields.update({"clock.limit": limit * 60, "clock.increment": increment})
        else:
            fields.update({"clockTime": limit, "clockIncrement": increment})
    if args.system == "arena":
        fields["minutes"] = args.minutes if args.minutes is not None else 45
    if args.system == "swiss":
        fields["nbRounds"] = args.rounds if args.rounds is not None else 7
    if args.system == "robin":
        fields["system"] = "robin"
    return {k: v for k, v in fields.items() if v is not None}


def run(site: Site, args: argparse.Namespace) -> int:
    from emergo.server.tournament.service import TournamentError
    from emergo.server.tournament.spec import SpecError, arena_spec, swiss_spec

    try:
        if args.event_action == "list":
            return _list(site, args)
        if args.event_action == "create":
            fields = fields_of(args)
            spec = swiss_spec(fields) if args.system == "swiss" else arena_spec(fields)
            event = site.tournaments.create(spec, None)
            print(f"{event.id} {event.path()} {event.full_name}, starts {_when(event.starts_at)}")
            return 0
        done = site.director.cancel(args.id)
        print(f"{args.id}: {done}")
        return 0
    except (SpecError, TournamentError) as e:
        raise CliError(str(e), EXIT_FAILURE) from None


def _list(site: Site, args: argparse.Namespace) -> int:
    listing = site.tournaments.listing(kinds=("arena", "swiss", "robin", "match"))
    statuses = ("created", "started", "finished") if args.all else ("created", "started")
    shown = 0
    for status in statuses:
        for event in listing[status]:
            clock = (
                f"{event.days}d"
                if event.days is not None
                else f"{(event.clock_limit or 0) / 60:g}+{event.clock_increment or 0:g}"
            )
            print(
                f"{event.id}  {event.kind:<6} {event.variant:<4} {clock:<7} {status:<8} "
                f"{event.nb_players:>4}  {_when(event.starts_at)}  {event.full_name}"
            )
            shown += 1
    if not shown:
        print("no events")
    return 0


def _when(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")
