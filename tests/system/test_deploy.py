"""The shipped deployment, for real (issue 22): Debian's nginx with deploy/nginx/emergo.conf in
front of two ``emergo serve --online`` processes configured by deploy/emergo.toml, on PostgreSQL.

The shipped files are rendered with the test's ports and paths into a temporary folder (each
substitution must match: a change of the shipped files' shape breaks this test, not the
deployment) and ``nginx -t`` must pass.  Real Chromium plays a live game through nginx over
HTTPS and WebSockets; the web process that holds both pages' sockets is killed (SIGKILL) and
the game goes on through the other, the pages reconnecting by themselves, never reloaded.

Skipped, saying why, when nginx, PostgreSQL or Chromium is missing (tools/test.sh installs
them).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import emergo.server
from emergo.server.challenge.service import Terms
from emergo.server.core.config import Config
from emergo.server.site import Site
from tests.plugins.common import DATA, ROOT
from tests.plugins.game_helpers import wait_for
from tests.plugins.postgres import free_port
from tests.plugins.site import pg_database

httpx = pytest.importorskip("httpx2")
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect
pytestmark = pytest.mark.slow


DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TLS = DATA / "tls"
PASSWORD = "a good password"


def render(text: str, substitutions: dict[str, str]) -> str:
    """``text`` with each key replaced; every key must occur (the shipped file's shape)."""
    for old, new in substitutions.items():
        assert old in text, f"the shipped file has no {old!r} any more: update this test"
        text = text.replace(old, new)
    return text


class WebProcess:
    """``emergo serve --online --config FILE --port N``, as emergo-web@N.service runs it."""

    def __init__(self, config: Path, port: int, log: Path) -> None:
        self.port = port
        self.log = log
        self.handle = open(log, "a")  # noqa: SIM115 - closed in stop()
        command = [
            sys.executable,
            "-m",
            "emergo",
            "serve",
            "--online",
            "--no-house-bots",
            "--config",
            str(config),
        ]
        self.proc = subprocess.Popen(
            [*command, "--port", str(port), "--no-browser"],
            stdout=self.handle,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            wait_for(self.up, 30, f"the web process on port {port}")
        except BaseException:  # never left running by a test that failed to start it
            self.kill()
            raise

    def up(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"the web process exited: {self.log.read_text()}")
        try:
            url = f"http://127.0.0.1:{self.port}/api/health"
            return httpx.get(url, timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.handle.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.handle.close()


class Deployment:
    """nginx (its own prefix, as the current user) and the web processes' settings."""

    def __init__(self, root: Path, db_url: str) -> None:
        self.root = root
        self.ports = [free_port(), free_port()]
        self.http_port, self.https_port = free_port(), free_port()
        self.url = f"https://127.0.0.1:{self.https_port}"
        self.config = root / "emergo.toml"
        self.config.write_text(
            render(
                (DEPLOY / "emergo.toml").read_text(),
                {
                    'db = "postgresql://emergo@/emergo?host=/var/run/postgresql"': (
                        f'db = "{db_url}"'
                    ),
                    'allow_hosts = ["play.example.org"]': 'allow_hosts = ["127.0.0.1"]',
                    "login_per_minute = 10": "login_per_minute = 1000",
                    "moves_per_second = 20": "moves_per_second = 10000",
                },
            )
        )
        static = Path(emergo.server.__file__).parent / "static"
        (root / "www").mkdir()
        (root / "tmp").mkdir()
        site = render(
            (DEPLOY / "nginx" / "emergo.conf").read_text(),
            {
                "127.0.0.1:8001 max_fails=0;": f"127.0.0.1:{self.ports[0]} max_fails=0;",
                "127.0.0.1:8002 max_fails=0;": f"127.0.0.1:{self.ports[1]} max_fails=0;",
                "listen 80;": f"listen 127.0.0.1:{self.http_port};",
                "    listen [::]:80;\n": "",
                "listen 443 ssl http2;": f"listen 127.0.0.1:{self.https_port} ssl http2;",
                "    listen [::]:443 ssl http2;\n": "",
                "/etc/letsencrypt/live/play.example.org/fullchain.pem": str(TLS / "cert.pem"),
                "/etc/letsencrypt/live/play.example.org/privkey.pem": str(TLS / "key.pem"),
                "/var/log/nginx/": f"{root}/",
                "/var/www/html": str(root / "www"),
                "/opt/emergo/venv/lib/python3.11/site-packages/emergo/server/static/": f"{static}/",
            },
        )
        (root / "emergo.conf").write_text(site)
        user = pwd.getpwuid(os.geteuid()).pw_name
        temps = "\n".join(
            f"    {kind}_temp_path {root}/tmp/{kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (root / "nginx.conf").write_text(
            f"""{"user " + user + ";" if os.geteuid() == 0 else ""}
worker_processes 1;
error_log {root}/error.log warn;
pid {root}/nginx.pid;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
{temps}
    include {root}/emergo.conf;
}}
"""
        )
        self.nginx: subprocess.Popen[bytes] | None = None

    def nginx_command(self, *extra: str) -> list[str]:
        return [NGINX, "-p", f"{self.root}/", "-c", str(self.root / "nginx.conf"), *extra]

    def start_nginx(self) -> None:
        self.nginx = subprocess.Popen(
            self.nginx_command("-g", "daemon off;"),
            stdout=subprocess.DEVNULL,
            stderr=open(self.root / "nginx.out", "w"),  # noqa: SIM115 - the process owns it
        )

        def up() -> bool:
            assert self.nginx is not None and self.nginx.poll() is None, (
                self.root / "nginx.out"
            ).read_text()
            try:
                httpx.get(f"http://127.0.0.1:{self.http_port}/", timeout=1)
                return True
            except httpx.HTTPError:
                return False

        try:
            wait_for(up, 10, "nginx")
        except BaseException:  # never left running by a test that failed to start it
            self.stop_nginx()
            raise

    def stop_nginx(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait(5)


@pytest.fixture
def deployment(pg: Any, tmp_path: Path) -> Iterator[Deployment]:
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (tools/test.sh installs Debian's nginx-light)")
    url = pg_database(pg)
    d = Deployment(tmp_path, url)
    d.start_nginx()
    try:
        yield d
    finally:
        d.stop_nginx()


class Person:
    """One browser context through nginx (HTTPS with the test's own certificate)."""

    def __init__(self, chromium: Any, url: str, name: str) -> None:
        self.url = url
        self.name = name
        self.context = chromium.new_context(
            viewport={"width": 1280, "height": 800}, ignore_https_errors=True
        )
        # count the page's sockets opened (a reconnection opens a new one); no animation
        self.context.add_init_script(
            "localStorage.setItem('emergo-settings', JSON.stringify({animation: false}));"
            "window.__sockets = 0; const Native = window.WebSocket;"
            "window.WebSocket = function (u, p) { const ws = new Native(u, p);"
            "  ws.addEventListener('open', () => { window.__sockets += 1; }); return ws; };"
            "window.WebSocket.prototype = Native.prototype;"
            "Object.assign(window.WebSocket, {OPEN: 1, CLOSED: 3, CONNECTING: 0, CLOSING: 2});"
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(10000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def login(self) -> None:
        self.page.goto(f"{self.url}/login")
        self.page.fill("input[name=username]", self.name)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.click("main form button[type=submit]")
        self.page.wait_for_url(f"{self.url}/")

    def sockets(self) -> int:
        return int(self.page.evaluate("() => window.__sockets"))

    def play(self, text: str, before: list[str]) -> None:
        from tests.plugins.site_pages import Person as WebPerson

        WebPerson.play(self, text, "7x7", before)  # type: ignore[arg-type]


def test_nginx_config_passes_and_serves_tls_redirect_static_and_health(deployment):
    d = deployment
    done = subprocess.run(d.nginx_command("-t"), capture_output=True, text=True)
    assert done.returncode == 0 and "test is successful" in done.stderr, done.stderr
    web = WebProcess(d.config, d.ports[0], d.root / "web-0.log")
    try:
        r = httpx.get(f"http://127.0.0.1:{d.http_port}/game/abc?x=1", timeout=5)
        assert r.status_code == 301
        assert r.headers["location"] == "https://127.0.0.1/game/abc?x=1"
        with httpx.Client(base_url=d.url, verify=False, timeout=5) as client:
            health = client.get("/api/health")
            assert health.status_code == 200 and health.json()["db"] is True
            css = client.get("/static/online.css")  # by nginx from the package's folder
            assert css.status_code == 200 and "max-age=3600" in css.headers["cache-control"]
            assert css.headers["strict-transport-security"]
            lobby = client.get("/")  # by a web process (one is down: nginx skips it)
            assert lobby.status_code == 200 and "<html" in lobby.text
            big = client.post("/api/lobby/seek", content=b"x" * 70_000)
            assert big.status_code == 413
    finally:
        web.stop()


def test_a_browser_game_through_nginx_survives_the_kill_of_a_web_process(
    browser,
    deployment,
):
    d = deployment
    site = Site.open(Config(db=_db_of(d.config), argon2_time_cost=1))
    try:
        for name in ("ann", "bob"):
            site.users.create(name, PASSWORD)
        users = site.users
        ann_user, bob_user = users.by_name("ann"), users.by_name("bob")
        terms = Terms(color="white", variant="7x7", clock_limit=600, clock_increment=5)
        challenge = site.challenges.create(ann_user, terms, dest=bob_user)
        game_id = str(site.challenges.accept(challenge.id, bob_user))
    finally:
        site.close()
    from tests.plugins.site_pages import SHORT_7X7

    # the pages open while only the first process runs: their sockets are on it
    first = WebProcess(d.config, d.ports[0], d.root / "web-0.log")
    second: WebProcess | None = None
    ann, bob = Person(browser, d.url, "ann"), Person(browser, d.url, "bob")
    try:
        for p in (ann, bob):
            p.login()
            p.page.goto(f"{d.url}/game/{game_id}")
            p.page.wait_for_selector("html[data-ready='1']")
            p.page.evaluate("() => { window.__notReloaded = true; }")
        moves = SHORT_7X7[:12]
        for ply, text in enumerate(moves[:6]):
            (ann, bob)[ply % 2].play(text, moves[:ply])
            for p in (ann, bob):
                expect(p.page.locator("#moves button")).to_have_count(ply + 1)
        opened = [p.sockets() for p in (ann, bob)]
        second = WebProcess(d.config, d.ports[1], d.root / "web-1.log")
        first.kill()  # SIGKILL: the sockets drop; the pages reconnect through nginx
        for p, before in zip((ann, bob), opened, strict=True):
            wait_for(lambda p=p, before=before: p.sockets() > before, 20, "a reconnection")
        for ply, text in enumerate(moves[6:], start=6):
            (ann, bob)[ply % 2].play(text, moves[:ply])
            for p in (ann, bob):  # each move after the kill arrives for both players
                try:
                    expect(p.page.locator("#moves button")).to_have_count(ply + 1)
                except AssertionError:
                    p.page.screenshot(path=f"/tmp/emergo-screenshots/deploy-{p.name}.png")
                    raise
        for p in (ann, bob):
            assert p.page.evaluate("() => window.__notReloaded") is True
            assert p.page.url == f"{d.url}/game/{game_id}"
            assert not p.errors, p.errors
        # the game as the database has it: every move
        with httpx.Client(base_url=d.url, verify=False, timeout=5) as client:
            state = client.get(f"/api/game/{game_id}").json()["state"]
        assert state["moves"].split() == moves
    finally:
        for p in (ann, bob):
            p.context.close()
        first.stop()
        if second is not None:
            second.stop()
    for log in d.root.glob("web-*.log"):
        text = log.read_text()
        assert "Traceback" not in text and PASSWORD not in text, text[-2000:]


def _db_of(config: Path) -> str:
    from emergo.server.core.config import load

    db = load(config).db
    assert db is not None
    return db


def test_an_upgrade_the_server_refuses_an_old_schema_until_migrate(pg, tmp_path):
    """docs/deploy.md's upgrade: a new server on a database of the previous schema refuses to
    start, saying what to run; ``emergo admin migrate`` (emergo-migrate.service) brings it up,
    then the server starts."""
    from alembic import command
    from alembic.config import Config as AlembicConfig

    from emergo.server.core import db as online_db

    url = pg.create_database("upgrade")
    old = online_db.Database(url)
    alembic = AlembicConfig()
    alembic.set_main_option(
        "script_location", str(Path(online_db.__file__).with_name("migrations"))
    )
    with old.engine.begin() as connection:
        alembic.attributes["connection"] = connection
        command.upgrade(alembic, "0001")
    old.close()
    port = free_port()
    serve = [sys.executable, "-m", "emergo", "serve", "--online", "--no-house-bots", "--db", url]
    done = subprocess.run(
        [*serve, "--port", str(port), "--no-browser"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stderr
    assert f"is at schema 0001, this server needs {online_db.SCHEMA_HEAD}" in done.stderr
    assert "run `emergo admin migrate" in done.stderr and "Traceback" not in done.stderr
    migrate = [sys.executable, "-m", "emergo", "admin", "--db", url, "migrate"]
    done = subprocess.run(migrate, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert f"migrated the database from schema 0001 to {online_db.SCHEMA_HEAD}" in done.stdout
    (tmp_path / "emergo.toml").write_text(f'[server]\ndb = "{url}"\n')
    web = WebProcess(tmp_path / "emergo.toml", port, tmp_path / "web.log")  # starts: health 200
    web.stop()


def test_the_systemd_units_are_valid_and_run_real_commands(tmp_path):
    """Every shipped unit passes ``systemd-analyze verify`` (with the install's paths made
    this machine's), and each ExecStart of emergo is a command line emergo takes."""
    import shlex

    units = sorted((DEPLOY / "systemd").iterdir())
    assert {u.name for u in units} >= {
        "emergo-web@.service",
        "emergo-bot@.service",
        "emergo-migrate.service",
        "emergo-backup.service",
        "emergo-backup.timer",
    }
    commands = 0
    for unit in units:
        text = unit.read_text()
        for line in text.splitlines():
            if line.startswith("ExecStart=/opt/emergo/venv/bin/emergo "):
                commands += 1
                argv = shlex.split(line.split("=", 1)[1].replace("%i", "3"))[1:]
                done = subprocess.run(
                    [sys.executable, "-m", "emergo", *argv, "--help"],
                    capture_output=True,
                    text=True,
                    timeout=60,
                )
                assert done.returncode == 0, (unit.name, argv, done.stderr)
        assert "Requires=emergo-migrate.service" in text or not unit.name.startswith("emergo-web")
        local = text.replace("/opt/emergo/venv/bin/emergo", "/bin/true")
        local = local.replace("User=emergo", "User=root").replace("Group=emergo", "Group=root")
        (tmp_path / unit.name).write_text(local)
    assert commands == 3  # web, bot, migrate
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    names = [u.name.replace("@.", "@8001.") for u in units]
    done = subprocess.run(
        [analyze, "verify", "--man=no", *(f"./{n}" for n in names)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if "emergo" in line]
    assert not complaints, complaints
