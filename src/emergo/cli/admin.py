"""``emergo admin``: the online site's administration (docs/online.md), on its database.

Every subcommand takes the server's ``--db`` (or ``--config FILE``):

* ``migrate`` -- bring the schema to this version (once, under a lock; safe to repeat);
* ``add-user NAME [--bot]`` -- a new account; the password from standard input when it is not
  a terminal, else asked twice (``--bot``: no password, tokens only);
* ``token NAME [--scope S ...] [--description TEXT]`` -- a new personal API token of the
  account, printed last on its line (shown once; the database keeps its hash);
* ``list-tokens NAME`` and ``revoke-token ID`` -- the account's tokens (id, first characters,
  scopes, use) and removing one;
* ``disable NAME [--enable]`` -- the account can no longer log in or use its tokens;
* ``chat-remove MESSAGE_ID`` -- remove a chat line (kept in the database, marked removed);
* ``house-bots`` -- make the house bots' accounts (``[bots] levels``: ``emergo-1`` ...) and list
  them, for ``emergo-bot@.service`` when the server does not run them (issue 20).
* ``reports [--status open|closed|all]`` -- the players' reports (issue 31), and ``report ID
  ACTION [--note TEXT]`` to act on one (warn, mute, unmute, disable, dismiss; a warning's
  words are the note), ``moderate NAME ACTION`` without a report, ``moderation-log`` what the
  moderators did: every action is logged with who did it (``--moderator``, default $USER);
* ``import-local FILE [--player NAME]`` -- the games, studies and settings of the local app's
  old store (``emergo.sqlite3`` before the one server) as a player's (default: the local
  player's name), once;
* ``tournament list|create|cancel`` -- the site's events (:mod:`emergo.cli.admin_tournament`);
* ``backup FILE [--force]`` -- a consistent copy of an SQLite site while its server runs;
* ``explorer rebuild|import-selfplay|selfplay`` -- the opening explorer's index
  (:mod:`emergo.cli.admin_explorer`);
* ``restore FILE [--force]`` -- put a backup back (refused while a server serves the database
  unless forced; the replaced database is kept beside it).  PostgreSQL: ``pg_dump`` and
  ``pg_restore`` (docs/deploy.md).

Nothing here starts a server; a password, token or cookie is never logged.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from emergo.cli import admin_explorer, admin_tournament
from emergo.cli.common import EXIT_FAILURE, CliError, int_range
from emergo.server.core import config as online_config
from emergo.server.report.terms import ACTIONS as MODERATION
from emergo.server.report.terms import REASONS

if TYPE_CHECKING:
    from emergo.server.site import Site
    from emergo.server.user.accounts import User

MAX_ID = 2**63 - 1
"""The largest row id the databases hold."""
HELP = "administer the online site: migrate, add users, tokens, disable, remove chat, backups"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("admin", help=HELP, description=HELP + " (docs/online.md)")
    p.add_argument(
        "--db",
        default=None,
        help="the site's database: a file path (SQLite) or postgresql://USER@HOST:PORT/DB "
        f"(default {online_config.DEFAULT_DB_FILE} in the user's data directory)",
    )
    online_config.add_config_arguments(p)
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("migrate", help="bring the database's schema up to date")
    add = actions.add_parser("add-user", help="make an account (password from standard input)")
    add.add_argument("name")
    add.add_argument("--bot", action="store_true", help="a bot account: no password, tokens only")
    token = actions.add_parser("token", help="make a personal API token (printed last)")
    token.add_argument("name")
    token.add_argument(
        "--scope",
        action="append",
        default=None,
        metavar="SCOPE",
        help="a scope (repeat): board:play, challenge:read, challenge:write, bot:play, "
        "preference:read, preference:write (default the first three)",
    )
    token.add_argument("--description", default="", help="what the token is for")
    listing = actions.add_parser("list-tokens", help="list an account's tokens")
    listing.add_argument("name")
    revoke = actions.add_parser("revoke-token", help="remove a token by its id (list-tokens)")
    revoke.add_argument("token_id", type=int_range(1, MAX_ID), metavar="ID")
    disable = actions.add_parser("disable", help="stop an account from logging in")
    disable.add_argument("name")
    disable.add_argument("--enable", action="store_true", help="allow it again")
    remove = actions.add_parser("chat-remove", help="remove a chat line by its id")
    remove.add_argument("message_id", type=int_range(1, MAX_ID), metavar="MESSAGE_ID")
    actions.add_parser("house-bots", help="make and list the house bots' accounts ([bots] levels)")
    queue = actions.add_parser("reports", help="the players' reports waiting for a moderator")
    queue.add_argument(
        "--status", choices=("open", "closed", "all"), default="open", help="which (default open)"
    )
    for name, what in (
        ("report", "act on a report (its player): warn, mute, unmute, disable or dismiss"),
        ("moderate", "act on a player without a report: warn, mute, unmute or disable"),
    ):
        act = actions.add_parser(name, help=what)
        if name == "report":
            act.add_argument("report_id", type=int_range(1, MAX_ID), metavar="REPORT_ID")
        else:
            act.add_argument("name")
        act.add_argument("what", choices=MODERATION, metavar="ACTION", help=" | ".join(MODERATION))
        act.add_argument("--note", default="", help="the reason; a warning's words to the player")
        act.add_argument(
            "--moderator",
            default=os.environ.get("USER") or "admin",
            help="who acts, for the log (default: $USER)",
        )
    actions.add_parser("moderation-log", help="the moderators' actions, newest first")
    old = actions.add_parser(
        "import-local",
        help="bring the games, studies and settings of the local app's old emergo.sqlite3 in",
    )
    old.add_argument("file", metavar="FILE", help="the old store (emergo.sqlite3)")
    old.add_argument(
        "--player",
        default=None,
        help="the account they become (made when missing; default: the local player's name)",
    )
    puzzles = actions.add_parser("puzzles", help="the site's puzzles (docs/training.md)")
    puzzle_actions = puzzles.add_subparsers(dest="puzzles_action", metavar="ACTION", required=True)
    imported = puzzle_actions.add_parser(
        "import",
        help="add the puzzles of a file (emergo puzzles generate's; .gz too) the site lacks",
    )
    imported.add_argument("file", metavar="FILE", help="a puzzle file")
    save = actions.add_parser(
        "backup", help="copy an SQLite site's database while it runs (PostgreSQL: pg_dump)"
    )
    save.add_argument("file", metavar="FILE", help="the backup to write")
    save.add_argument("--force", action="store_true", help="replace FILE when it exists")
    put = actions.add_parser(
        "restore", help="put an SQLite backup back (stop the servers first; PostgreSQL: pg_restore)"
    )
    put.add_argument("file", metavar="FILE", help="a backup made by emergo admin backup")
    put.add_argument(
        "--force", action="store_true", help="even when a server seems to serve the database"
    )
    admin_tournament.add_parser(actions)
    admin_explorer.add_parser(actions)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from emergo.server.core.db import SchemaError
        from emergo.server.site import Site
    except ImportError as e:
        raise CliError(
            f"emergo admin needs the server's extra: pip install 'emergo[server]' ({e})",
            EXIT_FAILURE,
        ) from None
    config = online_config.from_arguments(args, server=False)
    if args.action == "migrate":
        return _migrate(config)
    if args.action in ("backup", "restore"):
        return _backup(config, args)
    try:
        site = Site.open(config)
    except SchemaError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    except ImportError as e:  # psycopg missing for a postgresql URL
        raise CliError(
            f"this database needs the postgres extra: pip install 'emergo[postgres]' ({e})",
            EXIT_FAILURE,
        ) from None
    except Exception as e:
        raise CliError(f"cannot open the database: {e}", EXIT_FAILURE) from None
    try:
        return _ACTIONS[args.action](site, args)
    finally:
        site.close()


def _migrate(config: online_config.Config) -> int:
    from emergo.server.core.db import Database, shown

    try:
        db = Database(config.db)
    except ImportError as e:
        raise CliError(
            f"this database needs the postgres extra: pip install 'emergo[postgres]' ({e})",
            EXIT_FAILURE,
        ) from None
    try:
        before, after = db.migrate()
    except Exception as e:
        raise CliError(f"cannot migrate {shown(db.url)}: {e}", EXIT_FAILURE) from None
    finally:
        db.close()
    if before == after:
        print(f"the database is at schema {after} already")
    else:
        print(f"migrated the database from schema {before or '(empty)'} to {after}")
    return 0


def _backup(config: online_config.Config, args: argparse.Namespace) -> int:
    from pathlib import Path

    from emergo.server.core import backup
    from emergo.server.core.db import SCHEMA_HEAD, url_of

    try:
        database = backup.sqlite_path(url_of(config.db))
        file = Path(args.file).expanduser()
        if args.action == "backup":

            def progress(done: int, total: int) -> None:
                if sys.stderr.isatty():
                    print(f"\r{done}/{total} pages", end="", file=sys.stderr, flush=True)

            found = backup.backup(database, file, force=args.force, progress=progress)
            if sys.stderr.isatty():
                print(file=sys.stderr)
            print(
                f"backed up {database} to {file}: schema {found.revision}, {found.games} games, "
                f"{found.users} users, {found.size} bytes"
            )
            return 0
        found, kept = backup.restore(file, database, force=args.force)
    except backup.BackupError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    print(
        f"restored {file} to {database}: schema {found.revision}, {found.games} games, "
        f"{found.users} users"
    )
    if kept is not None:
        print(f"the database it replaced is kept as {kept}")
    if found.revision != SCHEMA_HEAD:
        print(f"the backup is at schema {found.revision}: run `emergo admin migrate` next")
    return 0


def _account(site: Site, name: str) -> User:
    user = site.users.by_name(name)
    if user is None:
        raise CliError(f"no account named {name!r}", EXIT_FAILURE)
    return user


def _read_password(name: str) -> str:
    if not sys.stdin.isatty():
        line = sys.stdin.readline()
        return line.rstrip("\r\n")
    first = getpass.getpass(f"password for {name}: ")
    second = getpass.getpass("the same again: ")
    if first != second:
        raise CliError("the two passwords differ", EXIT_FAILURE)
    return first


def _add_user(site: Site, args: argparse.Namespace) -> int:
    from emergo.server.user.accounts import AccountError

    password = None if args.bot else _read_password(args.name)
    try:
        user = site.users.create(args.name, password, bot=args.bot)
    except AccountError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    print(f"made the account {user.name}" + (" (a bot)" if user.bot else ""))
    return 0


def _token(site: Site, args: argparse.Namespace) -> int:
    from emergo.server.user.tokens import BOT_SCOPES, DEFAULT_SCOPES, TokenError

    user = _account(site, args.name)
    scopes = tuple(args.scope or (BOT_SCOPES if user.bot else DEFAULT_SCOPES))
    try:
        token = site.tokens.create(user.id, scopes, description=args.description)
    except TokenError as e:
        raise CliError(str(e)) from None
    print(f"a new token of {user.name} ({' '.join(scopes)}): {token}")
    return 0


def _list_tokens(site: Site, args: argparse.Namespace) -> int:
    user = _account(site, args.name)
    tokens = site.tokens.list(user.id)
    if not tokens:
        print(f"{user.name} has no tokens")
    for info in tokens:
        used = _when(info.last_used) if info.last_used else "never used"
        print(
            f"{info.id}\t{info.hint}...\t{' '.join(info.scopes)}\tmade {_when(info.created)}\t"
            f"{used}\t{info.description}"
        )
    return 0


def _revoke_token(site: Site, args: argparse.Namespace) -> int:
    if not site.tokens.revoke(args.token_id):
        raise CliError(f"no token {args.token_id}", EXIT_FAILURE)
    print(f"revoked token {args.token_id}")
    return 0


def _disable(site: Site, args: argparse.Namespace) -> int:
    user = _account(site, args.name)
    site.users.disable(user.id, not args.enable)
    print(f"{'enabled' if args.enable else 'disabled'} {user.name}")
    return 0


def _chat_remove(site: Site, args: argparse.Namespace) -> int:
    if not site.chat.remove(args.message_id):
        raise CliError(f"no chat line {args.message_id}", EXIT_FAILURE)
    print(f"removed chat line {args.message_id}")
    return 0


def _house_bots(site: Site, args: argparse.Namespace) -> int:
    from emergo.server.user.accounts import AccountError

    try:
        house = site.bots.ensure_house(site.config.bots.levels)
    except AccountError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    for level, user in sorted(house.items()):
        print(f"level {level}: {user.name}")
    return 0


def _import_local(site: Site, args: argparse.Namespace) -> int:
    from emergo.server.local_import import ImportError_, import_local
    from emergo.server.user.accounts import AccountError, local_name

    try:
        owner = site.users.ensure_local(local_name(args.player))
        summary = import_local(site, args.file, owner)
    except (ImportError_, AccountError) as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    print(f"{summary.line()}, as {owner.name}")
    return 0


def _puzzles(site: Site, args: argparse.Namespace) -> int:
    from emergo.server.puzzle.service import PuzzleError

    try:
        added = site.puzzles.import_file(args.file)
    except PuzzleError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    counts = site.puzzles.counts()
    held = ", ".join(f"{n} {variant}" for variant, n in sorted(counts.items()))
    print(f"{args.file}: {added} new puzzles imported (the site holds {held or 'none'})")
    return 0


def _reports(site: Site, args: argparse.Namespace) -> int:
    found = site.reports.queue(status=args.status)
    if not found:
        print(f"no {args.status} reports" if args.status != "all" else "no reports")
    for r in found:
        said = f": {r.text}" if r.text else ""
        where = f"game {r.game_id}" if r.game_id else f"event {r.tournament_id}"
        line = f"\n\tthe chat line in {where}: {r.line_text}" if r.line_text else ""
        print(
            f"#{r.id}\t{_when(r.created)}\t{r.status}\t{r.reporter or '(deleted)'} reported "
            f"{r.target}: {REASONS.get(r.reason, r.reason)}{said}{line}"
        )
    return 0


def _moderate(site: Site, args: argparse.Namespace) -> int:
    from emergo.server.core.errors import SiteError

    report_id = None
    if args.action == "report":
        report = site.reports.get(args.report_id)
        if report is None:
            raise CliError(f"no report {args.report_id}", EXIT_FAILURE)
        name, report_id = report.target, report.id
    else:
        name = args.name
        if args.what == "dismiss":
            raise CliError("dismiss answers a report: emergo admin report ID dismiss")
    try:
        logged = site.moderate(args.moderator, args.what, name, report_id=report_id, note=args.note)
    except SiteError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    done = {
        "warn": f"warned {name}",
        "mute": f"muted {name} in chat",
        "unmute": f"{name} may chat again",
        "disable": f"disabled {name}",
        "dismiss": f"dismissed report #{report_id}",
    }[args.what]
    print(f"{done} (logged as #{logged})")
    return 0


def _moderation_log(site: Site, args: argparse.Namespace) -> int:
    rows = site.reports.log()
    if not rows:
        print("no moderator has acted yet")
    for r in rows:
        about = f" (report #{r['report']})" if r["report"] else ""
        note = f": {r['note']}" if r["note"] else ""
        print(
            f"#{r['id']}\t{_when(r['at'])}\t{r['moderator']} {r['action']} {r['user']}{about}{note}"
        )
    return 0


def _when(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC")


_ACTIONS = {
    "add-user": _add_user,
    "token": _token,
    "list-tokens": _list_tokens,
    "revoke-token": _revoke_token,
    "disable": _disable,
    "chat-remove": _chat_remove,
    "house-bots": _house_bots,
    "import-local": _import_local,
    "puzzles": _puzzles,
    "reports": _reports,
    "report": _moderate,
    "moderate": _moderate,
    "moderation-log": _moderation_log,
    "tournament": admin_tournament.run,
    "explorer": admin_explorer.run,
}
