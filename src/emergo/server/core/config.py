"""The server's settings: command-line options, a TOML config file, and their defaults.

Standard library only (``emergo serve --help`` and ``emergo admin --help`` work without the
extras).  Precedence: an option given on the command line, else the config file's value, else
the default below.  docs/online.md lists every setting with an example file::

    [server]
    mode = "public"                    # a deployment (the command line: --public); "local" (the
                                       # default of `emergo serve`): one player, this machine only
    host = "0.0.0.0"
    port = 8765
    db = "postgresql://emergo@localhost:5432/emergo"
    https = true                       # served over TLS (by nginx): cookies get Secure
    allow_hosts = ["play.example.org"]
    trust_proxy = true                 # take the client's address from X-Forwarded-For
    proxies = ["127.0.0.1", "::1"]     # ... when the connection comes from one of these

    [accounts]
    signup = true

    [limits]
    signup_per_hour = 5

    [bots]
    house_bots = true                  # this site's processes run the engine levels' bots
    levels = [1, 3, 5, 8, 11]          # the house bots' levels (default: all, 1 to 11)

    [[tournaments.schedule]]           # an event made every hour, day or week (issue 30)
    every = "daily"
    at = "18:30"
    name = "Evening"
    minutes = 60
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import ipaddress
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_DB_FILE = "emergo-site.sqlite3"
"""The SQLite file of the site in the user's data directory, in local and public mode alike.
(Before the one server, ``emergo serve --online`` kept ``emergo-online.sqlite3``, which is taken
over under the new name, and the local app ``emergo.sqlite3``, whose games and studies are
imported once: :mod:`emergo.server.core.db`, :mod:`emergo.server.local_import`.)"""
OLD_SITE_FILE = "emergo-online.sqlite3"
OLD_LOCAL_FILE = "emergo.sqlite3"
MODES = ("local", "public")
"""``local``: ``emergo serve`` on this machine for one player, signed in by itself; ``public``:
a site for everyone who reaches it (accounts, sign-up)."""


class ConfigError(ValueError):
    """A config file or option that cannot be used, with the reason."""


@dataclass(frozen=True)
class Limits:
    """Rate limits (docs/online.md "Rate limits"): ``count`` per ``seconds`` window.

    Sign-up, log-in, challenges and chat are counted in the database, so they hold across
    processes; moves are counted per process (a move is already a transaction; the counter of
    another row would double its writes).
    """

    signup_per_hour: int = 5
    """New accounts from one client address an hour."""
    login_per_minute: int = 10
    """Log-in attempts a minute from one client address, and failed log-ins a minute as one
    account name (which a client the account logged in from passes: emergo.server.user.logins)."""
    challenges_per_minute: int = 20
    """Challenges and seeks a user makes a minute."""
    chat_per_minute: int = 20
    """Chat lines a user sends a minute."""
    moves_per_second: int = 20
    """Commands a user sends to games a second, per server process."""
    connections_per_client: int = 100
    """WebSockets and NDJSON streams open at once for one user (anonymous: one address), per
    server process; past it a stream is refused with 429 and a socket closed with 4429."""
    socket_messages_per_10s: int = 50
    """Messages one WebSocket may send in 10 seconds (lila-ws limits each connection so):
    past it they are dropped, and a socket that goes on is closed with 4429."""


@dataclass(frozen=True)
class DatabaseSettings:
    """The ``[database]`` section: each server process's connections to PostgreSQL (docs/deploy.md).

    A process holds up to ``pool_size + max_overflow`` connections for requests, plus one for the
    bus (LISTEN); PostgreSQL's ``max_connections`` must cover every process's, plus ``emergo
    admin`` and the backups.  The timeouts bound how long a request waits on a database that does
    not answer: past them it is answered 503 with ``Retry-After``, never left hanging.  SQLite
    uses none of these but ``statement_timeout`` (its wait for the write lock).
    """

    pool_size: int = 30
    """Connections a process keeps open (each opened when first needed)."""
    max_overflow: int = 0
    """Connections a process may open beyond ``pool_size`` under load, closed when returned:
    each is a new PostgreSQL backend (about 10 ms of its CPU), which a burst of moves paid
    19 times a second at 16 games on one process with 10 + 20; so none by default."""
    pool_timeout: float = 5.0
    """Seconds a request waits for a free connection of the pool."""
    connect_timeout: int = 5
    """Seconds to open a new connection (PostgreSQL's ``connect_timeout``)."""
    statement_timeout: float = 5.0
    """Seconds a statement may run or wait for a lock (PostgreSQL's ``statement_timeout``)."""
    pool_pre_ping: bool = False
    """Test a pooled connection before each use (a round trip each time: about 0.1 ms of CPU a
    request).  Off, a connection found broken drops the pool's older connections with it, so a
    restarted PostgreSQL costs a request or two answered 503 (re-sent by the client)."""
    request_timeout: float = 10.0
    """Seconds an HTTP request (or a socket's opening) may wait before its answer starts: past
    it the answer is 503 with ``Retry-After`` (a database that hangs without refusing, which
    the other timeouts cannot see: a frozen server, a network that drops packets)."""

    @property
    def connections(self) -> int:
        """The most connections one server process opens: the pool, its overflow and the bus."""
        return self.pool_size + self.max_overflow + 1


@dataclass(frozen=True)
class Mail:
    """The ``[mail]`` section (issue 21, docs/ratings.md): where notification mail goes out.

    Without ``host`` the site sends no mail (players still get the notices in the page).
    """

    host: str | None = None
    """The SMTP server."""
    port: int = 587
    security: str = "starttls"
    """``starttls`` (port 587), ``ssl`` (TLS from the start, port 465) or ``plain`` (a relay
    on the same machine, no log-in)."""
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    """Never logged, never shown."""
    cafile: str | None = None
    """A CA certificate file to trust (a server with a certificate of its own)."""
    sender: str = ""
    """The ``From`` address, e.g. ``noreply@play.example.org``."""
    base_url: str = ""
    """The site's address as players reach it: the games' links in mails."""
    site_name: str = "Emergo"
    """The site's name in mails."""


@dataclass(frozen=True)
class Bots:
    """The ``[bots]`` section (issue 20): the house bots, the engine's levels as bot accounts."""

    house_bots: bool = True
    """The server runs the house bots: in local mode as threads of the server process, in public
    mode one web process (whichever holds the lease) runs an ``emergo bot`` process a level and
    restarts it; false: they run apart (systemd's ``emergo-bot@.service``) or not at all."""
    levels: tuple[int, ...] = tuple(range(1, 12))
    """The house bots' levels (accounts ``emergo-N``); "play the computer" offers these."""
    concurrency: int = 8
    """Live games a house bot plays at once (``emergo bot --concurrency``)."""
    url: str | None = None
    """Where the house bots reach the site; None: ``http://127.0.0.1:PORT`` of this process."""


@dataclass(frozen=True)
class AnalysisSettings:
    """The ``[analysis]`` section: the engine's analysis on the analysis board (lines, reviews,
    hints).  Each search costs one core for its time; an unset value is the mode's default:
    local mode (one player on this machine) 60 s a search, searches until stopped, up to 4
    threads; public mode 10 s, none until stopped, 2 threads a process."""

    engine: bool = True
    """False: the board shows no engine lines (the tables, records and studies stay)."""
    threads: int | None = None
    """Searches running at once in a process; more wait their turn."""
    max_seconds: float | None = None
    """The longest search a client may ask for."""
    infinite: bool | None = None
    """Whether a socket's search may run until the client stops it."""

    def resolved(self, local: bool) -> AnalysisSettings:
        import os

        cores = os.cpu_count() or 2
        return AnalysisSettings(
            engine=self.engine,
            threads=self.threads or (max(2, min(4, cores)) if local else 2),
            max_seconds=self.max_seconds or (60.0 if local else 10.0),
            infinite=self.infinite if self.infinite is not None else local,
        )


@dataclass(frozen=True)
class Config:
    """Everything a server process (or ``emergo admin``) needs to know."""

    mode: str = "public"
    """:data:`MODES`: ``local`` (``emergo serve``'s default) or ``public`` (``--public``)."""
    player: str | None = None
    """Local mode: the name of the one player, signed in by itself (None: the name of this
    machine's user when it is a valid name, else ``player``)."""
    db: str | None = None
    """A database URL or an SQLite file path; None: :data:`DEFAULT_DB_FILE` in the user's data
    directory."""
    host: str = "127.0.0.1"
    port: int = 8765
    https: bool = False
    """The site is served over https (a TLS proxy in front): cookies are ``Secure`` and the
    origin clients use is ``https://``."""
    allow_hosts: tuple[str, ...] = ()
    """Host names the site is reached by (besides localhost and the listening address)."""
    trust_proxy: bool = False
    """Take the client's address from ``X-Forwarded-For`` (only behind a proxy that sets it)."""
    proxies: tuple[str, ...] = ("127.0.0.1", "::1")
    """With ``trust_proxy``: the proxies' addresses (or networks, ``10.0.0.0/8``); the header
    of a connection from anywhere else is ignored, its own address counts (issue 27, finding 11:
    a process reached directly took any ``X-Forwarded-For``)."""
    header_timeout: float = 10.0
    """Seconds a connection has to send a request's headers (from its opening, or the request's
    first byte), else it is closed: a client sending them a byte at a time (slowloris) cannot
    hold connections of a process reached directly (nginx bounds it in front of one)."""
    signup: bool = True
    """Anyone may make an account (else only ``emergo admin add-user``)."""
    session_days: float = 30.0
    """How long a log-in lasts without use."""
    argon2_time_cost: int = 3
    argon2_memory_kib: int = 65536
    """argon2id's cost (argon2-cffi's defaults, RFC 9106's second choice); tests lower them."""
    password_slots: int = 2
    """Password hashes a process computes at once, in threads of their own (each takes
    ``argon2_memory_kib``); :mod:`emergo.server.user.passwords`."""
    password_queue: int = 16
    """Password checks that may wait for a slot; past them a 503 with ``Retry-After``."""
    password_per_client: int = 2
    """Of the slots and the queue, the places one client address may hold; past them a 429
    (one client could fill the queue, and lock everyone out of logging in)."""
    limits: Limits = field(default_factory=Limits)
    mail: Mail = field(default_factory=Mail)
    """Notification mail (issue 21); none without ``[mail] host``."""
    bots: Bots = field(default_factory=Bots)
    """The house bots (issue 20)."""
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    """The connections to the database (issue 22)."""
    analysis: AnalysisSettings = field(default_factory=AnalysisSettings)
    """The engine's analysis on the analysis board (issue 26)."""
    tournament_schedule: tuple[dict[str, Any], ...] = ()
    """``[[tournaments.schedule]]``: the site's scheduled events (issue 30,
    :mod:`emergo.server.tournament.schedule` checks them)."""
    open_browser: bool = False

    @property
    def local(self) -> bool:
        return self.mode == "local"

    def with_options(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})


_SECTIONS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "server": {
        "mode": str,
        "db": str,
        "host": str,
        "port": int,
        "https": bool,
        "allow_hosts": list,
        "trust_proxy": bool,
        "proxies": list,
        "header_timeout": (int, float),
    },
    "accounts": {
        "signup": bool,
        "session_days": (int, float),
        "argon2_time_cost": int,
        "argon2_memory_kib": int,
        "password_slots": int,
        "password_queue": int,
        "password_per_client": int,
    },
    "limits": {f.name: int for f in dataclasses.fields(Limits)},
    "database": {
        "pool_size": int,
        "max_overflow": int,
        "pool_timeout": (int, float),
        "connect_timeout": int,
        "statement_timeout": (int, float),
        "pool_pre_ping": bool,
        "request_timeout": (int, float),
    },
    "mail": {
        "host": str,
        "port": int,
        "security": str,
        "username": str,
        "password": str,
        "cafile": str,
        "sender": str,
        "base_url": str,
        "site_name": str,
    },
    "bots": {"house_bots": bool, "levels": list, "concurrency": int, "url": str},
    "local": {"player": str},
    "tournaments": {"schedule": list},
    "analysis": {
        "engine": bool,
        "threads": int,
        "max_seconds": (int, float),
        "infinite": bool,
    },
}


def load(path: str | Path) -> Config:
    """The settings of a TOML config file over the defaults; :class:`ConfigError` on an unknown
    section or key, a value of the wrong type, or a file that cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as e:
        raise ConfigError(f"cannot read the config file {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"the config file {path} is not valid TOML: {e}") from None
    return from_mapping(data, where=str(path))


def from_mapping(data: dict[str, Any], where: str = "the config") -> Config:
    values: dict[str, Any] = {}
    limits: dict[str, Any] = {}
    mail: dict[str, Any] = {}
    bots: dict[str, Any] = {}
    database: dict[str, Any] = {}
    analysis: dict[str, Any] = {}
    for section, entries in data.items():
        known = _SECTIONS.get(section)
        if known is None:
            raise ConfigError(
                f"{where}: unknown section [{section}] (known: {', '.join(_SECTIONS)})"
            )
        if not isinstance(entries, dict):
            raise ConfigError(f"{where}: {section} must be a section ([{section}])")
        for key, value in entries.items():
            kind = known.get(key)
            if kind is None:
                raise ConfigError(
                    f"{where}: unknown setting {key!r} in [{section}] (known: {', '.join(known)})"
                )
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise ConfigError(f"{where}: [{section}] {key} has the wrong type: {value!r}")
            if kind == (int, float) and isinstance(value, bool):
                raise ConfigError(f"{where}: [{section}] {key} has the wrong type: {value!r}")
            sections = {"limits": limits, "mail": mail, "bots": bots, "database": database}
            sections["analysis"] = analysis
            sections.get(section, values)[key] = value
    if "schedule" in values:
        tables = values.pop("schedule")
        if not all(isinstance(t, dict) for t in tables):
            raise ConfigError(f"{where}: [[tournaments.schedule]] entries must be tables")
        values["tournament_schedule"] = tuple(tables)
    if "allow_hosts" in values:
        hosts = values["allow_hosts"]
        if not all(isinstance(h, str) for h in hosts):
            raise ConfigError(f"{where}: [server] allow_hosts must be a list of host names")
        values["allow_hosts"] = tuple(hosts)
    if "proxies" in values:
        values["proxies"] = tuple(values["proxies"])  # each checked by check()
    if "levels" in bots:
        levels = bots["levels"]
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in levels):
            raise ConfigError(f"{where}: [bots] levels must be a list of levels (1 to 11)")
        bots["levels"] = tuple(dict.fromkeys(levels))
    config = Config(
        **values,
        limits=Limits(**limits),
        mail=Mail(**mail),
        bots=Bots(**bots),
        database=DatabaseSettings(**database),
        analysis=AnalysisSettings(**analysis),
    )
    check(config, where)
    return config


def _proxy(value: Any, where: str) -> str:
    """A ``[server] proxies`` entry, an address or a network; :class:`ConfigError` else (uvicorn
    took any other text for a name no connection has: the header of every request ignored, and
    every client of the site counted as the proxy's one address)."""
    what = f"{where}: [server] proxies must be a list of addresses or networks (not '*')"
    if not isinstance(value, str):
        raise ConfigError(f"{what}, not {value!r}")
    try:
        ipaddress.ip_network(value)
    except ValueError:
        hint = ""
        with contextlib.suppress(ValueError):
            hint = f" (the network is {ipaddress.ip_network(value, strict=False)})"
        raise ConfigError(f"{what}: {value!r} is neither{hint}") from None
    return value


def trusted_proxies(proxies: tuple[str, ...]) -> list[str]:
    """``proxies`` for uvicorn's ``forwarded_allow_ips``, each IPv4 one also as it is written
    mapped into IPv6 (``::ffff:127.0.0.1``: a socket listening on both families sees an IPv4
    proxy so), which uvicorn does not match with the IPv4 one."""
    given: list[str] = []
    for proxy in proxies:
        network = ipaddress.ip_network(proxy)
        given.append(proxy)
        if isinstance(network, ipaddress.IPv4Network):
            mapped = ipaddress.IPv6Address(f"::ffff:{network.network_address}")
            given.append(str(ipaddress.IPv6Network((mapped, 96 + network.prefixlen))))
    return given


def check(config: Config, where: str = "the config") -> None:
    if config.mode not in MODES:
        raise ConfigError(f"{where}: [server] mode is local or public, not {config.mode!r}")
    if config.local and not is_loopback(config.host):
        raise ConfigError(
            f"{where}: local mode listens on this machine only (its one player is signed in "
            f"without a password), not on {config.host}: serve others with --public"
        )
    if not 1 <= config.port <= 65535:
        raise ConfigError(f"{where}: port must be in 1..65535, not {config.port}")
    for proxy in config.proxies:
        _proxy(proxy, where)
    if not 0 < config.header_timeout <= 3600:
        raise ConfigError(f"{where}: [server] header_timeout must be in (0, 3600] seconds")
    if not 1 <= config.password_slots <= 64 or not 0 <= config.password_queue <= 10_000:
        raise ConfigError(
            f"{where}: [accounts] password_slots must be in 1..64, password_queue 0..10000"
        )
    if not 1 <= config.password_per_client <= 10_000:
        raise ConfigError(f"{where}: [accounts] password_per_client must be in 1..10000")
    if not 0 < config.session_days <= 3650:
        raise ConfigError(f"{where}: session_days must be in (0, 3650]")
    if not 1 <= config.argon2_time_cost <= 20 or not 8 <= config.argon2_memory_kib <= 4 << 20:
        raise ConfigError(f"{where}: argon2 costs out of range")
    for f in dataclasses.fields(Limits):
        if not 1 <= getattr(config.limits, f.name) <= 1_000_000:
            raise ConfigError(f"{where}: [limits] {f.name} must be in 1..1000000")
    check_mail(config.mail, where)
    if not all(1 <= n <= 11 for n in config.bots.levels):
        raise ConfigError(f"{where}: [bots] levels must be levels 1 to 11")
    if not 1 <= config.bots.concurrency <= 64:
        raise ConfigError(f"{where}: [bots] concurrency must be in 1..64")
    url = config.bots.url
    if url is not None and not url.startswith(("http://", "https://")):
        raise ConfigError(f"{where}: [bots] url must be an http(s):// address")
    check_database(config.database, where)
    a = config.analysis
    if a.threads is not None and not 1 <= a.threads <= 64:
        raise ConfigError(f"{where}: [analysis] threads must be in 1..64")
    if a.max_seconds is not None and not 0 < a.max_seconds <= 3600:
        raise ConfigError(f"{where}: [analysis] max_seconds must be in (0, 3600]")


def check_database(database: DatabaseSettings, where: str = "the config") -> None:
    if not 1 <= database.pool_size <= 1000 or not 0 <= database.max_overflow <= 1000:
        raise ConfigError(f"{where}: [database] pool_size must be in 1..1000, max_overflow 0..1000")
    for name in ("pool_timeout", "connect_timeout", "statement_timeout", "request_timeout"):
        if not 0 < getattr(database, name) <= 3600:
            raise ConfigError(f"{where}: [database] {name} must be in (0, 3600] seconds")


def check_mail(mail: Mail, where: str = "the config") -> None:
    """A ``[mail]`` section that can send: a server, a sender and the site's address."""
    if mail.host is None:
        return
    if not 1 <= mail.port <= 65535:
        raise ConfigError(f"{where}: [mail] port must be in 1..65535, not {mail.port}")
    if mail.security not in ("starttls", "ssl", "plain"):
        raise ConfigError(f"{where}: [mail] security is starttls, ssl or plain")
    if (mail.username is None) != (mail.password is None):
        raise ConfigError(f"{where}: [mail] a log-in needs both username and password")
    if mail.username is not None and mail.security == "plain":
        raise ConfigError(f"{where}: [mail] a password is never sent without TLS")
    if "@" not in mail.sender:
        raise ConfigError(f"{where}: [mail] sender must be the From address")
    if not mail.base_url.startswith(("https://", "http://")):
        raise ConfigError(f"{where}: [mail] base_url must be the site's https:// address")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (``localhost``, ``127.0.0.1``, ``::1`` ...)."""
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The site's options of ``emergo serve`` (besides its ``--host``/``--port``/``--db``)."""
    group = parser.add_argument_group("the public site (--public)")
    group.add_argument(
        "--public",
        "--online",
        dest="public",
        action="store_true",
        default=None,
        help="serve the site for everyone who reaches it (accounts, sign-up), not only for "
        "you on this machine; docs/online.md (--online is the same)",
    )
    add_config_arguments(group)
    group.add_argument(
        "--no-house-bots",
        dest="house_bots",
        action="store_false",
        default=None,
        help="do not run the house bots (the computer's levels, played as bots) in this server "
        "([bots] house_bots)",
    )
    group.add_argument(
        "--https",
        action="store_true",
        default=None,
        help="the site is served over https (by a TLS proxy): Secure cookies",
    )


def add_config_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=None,
        help="a TOML config file (docs/online.md); options given here win over it",
    )


def from_arguments(args: argparse.Namespace, *, server: bool = True) -> Config:
    """The settings of parsed options: the config file's (``--config``) with the options given on
    the command line over them."""
    config = load(args.config) if getattr(args, "config", None) else Config()
    changes: dict[str, Any] = {"db": getattr(args, "db", None)}
    if server:
        defaults = {"host": "127.0.0.1", "port": 8765}
        for name, default in defaults.items():
            value = getattr(args, name, None)
            # an option left at the parser's default does not override the file
            if value is not None and (value != default or not getattr(args, "config", None)):
                changes[name] = value
        if getattr(args, "public", None):
            changes["mode"] = "public"
        elif not getattr(args, "config", None):
            changes["mode"] = "local"  # `emergo serve`: the one player's site on this machine
        if getattr(args, "https", None):
            changes["https"] = True
        if getattr(args, "house_bots", None) is False:
            changes["bots"] = dataclasses.replace(config.bots, house_bots=False)
        hosts = tuple(getattr(args, "allow_host", ()) or ())
        if hosts:
            changes["allow_hosts"] = (*config.allow_hosts, *hosts)
        changes["open_browser"] = not getattr(args, "no_browser", True)
    config = config.with_options(**changes)
    check(config)
    return config
