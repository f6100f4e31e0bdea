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

Nothing here starts a server; a password, token or cookie is never logged.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from emergo.cli.common import EXIT_FAILURE, CliError, int_range
from emergo.online import config as online_config

if TYPE_CHECKING:
    from emergo.online.site import Site
    from emergo.online.users import User

MAX_ID = 2**63 - 1
"""The largest row id the databases hold."""
HELP = "administer the online site: migrate, add users, tokens, disable, remove chat"


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
        help="a scope (repeat): board:play, challenge:read, challenge:write, bot:play "
        "(default the first three)",
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
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from emergo.online.db import SchemaError
        from emergo.online.site import Site
    except ImportError as e:
        raise CliError(
            f"emergo admin needs the online extra: pip install 'emergo[online]' ({e})",
            EXIT_FAILURE,
        ) from None
    config = online_config.from_arguments(args, server=False)
    if args.action == "migrate":
        return _migrate(config)
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
    from emergo.online.db import Database, shown

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
    from emergo.online.users import AccountError

    password = None if args.bot else _read_password(args.name)
    try:
        user = site.users.create(args.name, password, bot=args.bot)
    except AccountError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    print(f"made the account {user.name}" + (" (a bot)" if user.bot else ""))
    return 0


def _token(site: Site, args: argparse.Namespace) -> int:
    from emergo.online.tokens import DEFAULT_SCOPES, TokenError

    user = _account(site, args.name)
    try:
        token = site.tokens.create(
            user.id, tuple(args.scope or DEFAULT_SCOPES), description=args.description
        )
    except TokenError as e:
        raise CliError(str(e)) from None
    print(f"a new token of {user.name} ({' '.join(args.scope or DEFAULT_SCOPES)}): {token}")
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
    from emergo.online.users import AccountError

    try:
        house = site.bots.ensure_house(site.config.bots.levels)
    except AccountError as e:
        raise CliError(str(e), EXIT_FAILURE) from None
    for level, user in sorted(house.items()):
        print(f"level {level}: {user.name}")
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
}
