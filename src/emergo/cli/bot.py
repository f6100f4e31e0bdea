"""``emergo bot``: play a server's bot account with an engine (runner: :mod:`emergo.botclient`)."""

from __future__ import annotations

import argparse
import logging
import os
import re
import shlex
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from emergo.botclient import (
    EXIT_MODES,
    SWAP_POLICIES,
    Api,
    Bot,
    BotConfig,
    BotError,
    ChallengeSpec,
    EngineSpec,
    Policy,
)
from emergo.botclient.policy import SPEEDS
from emergo.cli.common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    CliError,
    check_kernel,
    int_range,
    option_range,
    seconds,
)
from emergo.engine import EngineError
from emergo.geometry import VARIANTS
from emergo.levels import LEVEL_MAX
from emergo.players import PLAYERS
from emergo.wire import HASH

TOKEN_ENV = "EMERGO_BOT_TOKEN"
"""The environment variable read for the token when neither --token nor --token-file is given."""
CONCURRENCY_MAX = 64
CORRESPONDENCE_MAX = 1000

DESCRIPTION = f"""Play a bot account on an Emergo server (or any server with lichess's Bot API).

The bot streams its events, accepts or declines challenges by the --accept policy, and plays
each game with its own engine: the built-in engine at --level (or --player NAME), or any
program speaking the emergo engine protocol (--engine CMD).  Live games are played within
their clock, correspondence games at the bot's pace (--movetime, else a second a move, four
on the hexagon).  It reconnects after network errors and server restarts.  Ctrl-C stops it:
live games end by --on-exit (correspondence games are left to go on at the next start); a
second Ctrl-C leaves them at once.  The token is read from --token, --token-file or
${TOKEN_ENV}, and never written to the log.

--accept words (every challenge is accepted by default):
  variant=9x9,7x7,hex    the boards accepted
  speed=blitz,rapid      the speeds accepted, of {", ".join(SPEEDS[:5])},
                         {", ".join(SPEEDS[5:])}
  mode=rated,casual      rated and/or casual games
  users=alice,bob        only these challengers
  block=mallory          never these
  bots=yes|no|only       challenges from other bots
  none                   decline every challenge (a bot that only plays its own --challenge)
A challenge outside the policy is declined with lichess's reason (variant, tooFast, tooSlow,
timeControl, casual, rated, noBot, onlyBot, generic; later when the bot is busy).

Exit status: 0 stopped after its games (--games, --challenge) or by SIGTERM; 1 the server has
no bot API, or the match could not be played; 2 bad options, a token the server refuses, or an
account that is not a bot; 130 stopped by Ctrl-C."""


def _time_control(text: str) -> tuple[float, float]:
    """``BASE+INC`` in seconds (``300+3``), or ``BASE`` alone."""
    base, _, inc = text.partition("+")
    try:
        values = float(base), float(inc or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected BASE+INC in seconds (e.g. 300+3), not {text!r}"
        ) from None
    if not (0 < values[0] <= 3 * 3600 and 0 <= values[1] <= 180):
        raise argparse.ArgumentTypeError(
            f"the clock must be 1..10800 seconds plus 0..180 a move, not {text!r}"
        )
    return values


def _option(text: str) -> tuple[str, str]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text!r}")
    return name.strip(), value


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "bot",
        help="play a bot account on a server (see 'emergo bot --help')",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--server", required=True, metavar="URL", help="the server, http(s)://")
    parser.add_argument("--token", metavar="TOKEN", help=f"the bot's API token (or ${TOKEN_ENV})")
    parser.add_argument("--token-file", metavar="FILE", help="read the token from this file")

    engine = parser.add_argument_group("the engine")
    engine.add_argument(
        "--player",
        choices=tuple(PLAYERS),
        default="engine",
        help="a built-in computer (default engine: the built-in engine at --level)",
    )
    engine.add_argument(
        "--engine",
        dest="engine_command",  # not "engine": that is emergo match's list of specs
        metavar="CMD",
        help="an engine command line speaking the emergo engine protocol (one process a game)",
    )
    engine.add_argument(
        "--option",
        action="append",
        default=[],
        type=_option,
        metavar="NAME=VALUE",
        help="an option of the --engine (repeat for more)",
    )
    engine.add_argument(
        "--level",
        type=int_range(1, LEVEL_MAX),
        help=f"playing level 1..{LEVEL_MAX} (default {LEVEL_MAX}, full strength); "
        "an --engine gets it as its Level option",
    )
    assert HASH.min is not None and HASH.max is not None
    engine.add_argument(
        "--hash",
        type=option_range(HASH),
        default=16,
        metavar="MB",
        help=f"megabytes of search tables of each game's built-in engine ({HASH.min}..{HASH.max}, "
        "default 16)",
    )
    engine.add_argument(
        "--movetime",
        type=seconds(0.001, 3600),
        metavar="SECONDS",
        help="seconds a move at most (default: the clock decides in live games; 1 s a move, "
        "4 on the hexagon, in the others)",
    )

    games = parser.add_argument_group("challenges and games")
    games.add_argument(
        "--accept",
        action="extend",
        nargs="+",
        default=[],
        metavar="WORD",
        help="the challenges to accept (see above)",
    )
    games.add_argument(
        "-c",
        "--concurrency",
        type=int_range(1, CONCURRENCY_MAX),
        default=1,
        help=f"live games at once (1..{CONCURRENCY_MAX}, default 1)",
    )
    games.add_argument(
        "--correspondence-concurrency",
        type=int_range(0, CORRESPONDENCE_MAX),
        default=10,
        metavar="K",
        help=f"correspondence and unlimited games at once (0..{CORRESPONDENCE_MAX}, default 10)",
    )
    games.add_argument(
        "--accept-takebacks",
        action="store_true",
        help="grant the opponent's takeback requests (default: decline them)",
    )
    games.add_argument(
        "--swap",
        choices=SWAP_POLICIES,
        default="auto",
        help="as Black under a game's swap rule: take White's side when the engine scores it "
        "better (auto, default), always, or never",
    )
    games.add_argument("--greeting", metavar="TEXT", help="say this in each new game's chat")
    games.add_argument(
        "--join",
        action="append",
        default=[],
        metavar="ID",
        help="join this tournament once logged in (an arena, Swiss, round robin or match; "
        "CODE@ID with an entry code); repeat for more",
    )
    games.add_argument(
        "--games",
        type=int_range(1, 1_000_000),
        metavar="N",
        help="stop after N games (with --challenge: the games of the match, default 1)",
    )
    games.add_argument(
        "--on-exit",
        choices=EXIT_MODES,
        default="finish",
        help="what a stop (Ctrl-C) does with the live games: finish them (default), resign "
        "them, or abandon them as they stand",
    )
    games.add_argument(
        "--upgrade",
        action="store_true",
        help="upgrade the account to a bot account first (one way, for good; only before it "
        "has played a game)",
    )

    match = parser.add_argument_group("the bot's own challenges")
    match.add_argument(
        "--challenge", metavar="USER", help="challenge USER to --games games, one after the other"
    )
    match.add_argument(
        "--tc",
        type=_time_control,
        metavar="BASE+INC",
        help="their clock, seconds (e.g. 60+1); without --tc or --days they are unlimited",
    )
    match.add_argument("--days", type=int_range(1, 14), help="correspondence: days a move (1..14)")
    match.add_argument("--variant", choices=VARIANTS, default="9x9", help="their board (R4)")
    match.add_argument("--rated", action="store_true", help="rated games (default casual)")
    match.add_argument(
        "--color",
        choices=("alternate", "white", "black", "random"),
        default="alternate",
        help="the bot's colour (default: alternate, white first)",
    )

    talk = parser.add_mutually_exclusive_group()
    talk.add_argument("-v", "--verbose", action="store_true", help="log every message too")
    talk.add_argument("-q", "--quiet", action="store_true", help="log warnings and errors only")
    parser.set_defaults(run=run)


def read_token(args: argparse.Namespace) -> str:
    """The token from --token, --token-file or the environment; a clear error without one."""
    if args.token is not None and args.token_file is not None:
        raise CliError("give the token once: --token or --token-file")
    if args.token is not None:
        token, where = args.token, "--token"
    elif args.token_file is not None:
        try:
            with open(args.token_file, encoding="utf-8") as handle:
                token = handle.read(4096)
        except (OSError, UnicodeDecodeError) as e:
            why = getattr(e, "strerror", None) or e
            raise CliError(f"--token-file {args.token_file}: {why}") from None
        token, where = token.strip(), f"--token-file {args.token_file}"
    elif os.environ.get(TOKEN_ENV):
        token, where = os.environ[TOKEN_ENV].strip(), f"${TOKEN_ENV}"
    else:
        raise CliError(f"give the bot's token: --token, --token-file or ${TOKEN_ENV}")
    if not re.fullmatch(r"[\x21-\x7e]{1,1000}", token):
        raise CliError(f"{where}: the token must be printable ASCII without spaces")
    return str(token)


def _config(args: argparse.Namespace) -> BotConfig:
    if args.engine_command is not None and args.player != "engine":
        raise CliError("--engine and --player: choose one")
    if args.option and args.engine_command is None:
        raise CliError("--option sets an option of an --engine")
    if (
        args.level is not None
        and args.engine_command is None
        and PLAYERS[args.player].backend is None
    ):
        raise CliError(f"--level is the engine's; the {args.player} player has none")
    if args.tc is not None and args.days is not None:
        raise CliError("--tc and --days: choose one")
    try:
        policy = Policy.parse(args.accept)
        engine = EngineSpec(
            player=args.player,
            command=args.engine_command,
            level=args.level,
            hash_mb=args.hash,
            options=tuple(args.option),
            movetime=args.movetime,
        )
    except ValueError as e:
        raise CliError(str(e)) from None
    challenge = None
    if args.challenge is not None:
        user = args.challenge.strip()
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", user):
            raise CliError(f"--challenge: not a user name: {args.challenge!r}")
        limit, increment = args.tc if args.tc is not None else (None, 0.0)
        challenge = ChallengeSpec(
            user=user,
            games=args.games or 1,
            variant=args.variant,
            limit=limit,
            increment=increment,
            days=args.days,
            rated=args.rated,
            color=args.color,
        )
    elif args.tc is not None or args.days is not None or args.rated:
        raise CliError("--tc, --days and --rated set the games of --challenge USER")
    return BotConfig(
        engine=engine,
        policy=policy,
        concurrency=args.concurrency,
        correspondence_concurrency=args.correspondence_concurrency,
        accept_takebacks=args.accept_takebacks,
        swap=args.swap,
        greeting=args.greeting,
        on_exit=args.on_exit,
        upgrade=args.upgrade,
        games=args.games if challenge is None else None,
        challenge=challenge,
        events=tuple(args.join),
    )


def _check_engine(spec: EngineSpec) -> None:
    """Start the engine once before connecting: a wrong command is an error now, not in a game."""
    if spec.command is None:
        if PLAYERS[spec.player].backend is not None or spec.player == "mcts":
            check_kernel([spec.player], prog="emergo bot")
        try:
            spec.open().close()
        except ValueError as e:
            raise CliError(str(e), EXIT_FAILURE) from None
        return
    try:
        engine = spec.open()
    except EngineError as e:
        raise CliError(f"--engine {shlex.quote(spec.command)}: {e}") from None
    engine.close()


class _Format(logging.Formatter):
    """``12:00:01 message``; warnings and errors say so."""

    def __init__(self, token: str) -> None:
        super().__init__("%(asctime)s %(message)s", datefmt="%H:%M:%S")
        self._token = token

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if record.levelno >= logging.WARNING:
            stamp, _, rest = text.partition(" ")
            text = f"{stamp} {record.levelname.lower()}: {rest}"
        return text.replace(self._token, "[token]") if self._token else text


@contextmanager
def _logging(token: str, level: int) -> Iterator[None]:
    logger = logging.getLogger("emergo.bot")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Format(token))
    old_level, old_propagate = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
        logger.propagate = old_propagate


def run(args: argparse.Namespace) -> int:
    """Exit status: see the description (0, 1, 2, 130)."""
    token = read_token(args)
    config = _config(args)
    try:
        api = Api(args.server, token)
    except ValueError as e:
        raise CliError(f"--server: {e}") from None
    _check_engine(config.engine)
    bot = Bot(api, config)
    signals: list[int] = []

    def on_signal(number: int, frame: FrameType | None) -> None:
        signals.append(number)
        bot.stop()

    level = logging.DEBUG if args.verbose else logging.WARNING if args.quiet else logging.INFO
    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with _logging(token, level):
            outcome = bot.run()
    except BotError as e:
        raise CliError(str(e), e.status) from None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if outcome == "done":
        return EXIT_FAILURE if bot.match_failed else EXIT_OK
    return EXIT_INTERRUPTED if signal.SIGINT in signals else EXIT_OK
