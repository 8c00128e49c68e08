"""A throwaway PostgreSQL cluster in a temporary folder, for the demo, the tests and the
benchmarks: Debian's ``initdb`` and ``pg_ctl``, a free loopback port, the server's socket in
the folder, trust authentication for one user. A store's real league uses its own PostgreSQL.

PostgreSQL refuses to run as root, so as root the cluster runs as the ``postgres`` system user
(made by Debian's package) or, failing that, ``nobody``, and the folder is handed to that user.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

import psycopg
from psycopg import sql

from companion.errors import CompanionError

INSTALL = "install Debian's PostgreSQL: `sudo apt-get install postgresql`"
DEBIAN_ROOT = Path("/usr/lib/postgresql")
USER = "league"  #: the cluster's superuser
PORT_ATTEMPTS = 5


class ClusterError(CompanionError):
    """The throwaway cluster could not be made or started; the message says why."""


def find_binaries() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres`` (``None``: not installed).

    Debian keeps them in /usr/lib/postgresql/<version>/bin, off the PATH; the newest wins.
    """
    on_path = shutil.which("pg_ctl")
    candidates = [Path(on_path).resolve().parent] if on_path else []
    versions = sorted(
        DEBIAN_ROOT.glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    candidates += reversed(versions)
    for folder in candidates:
        if all((folder / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def free_port() -> int:
    """A loopback TCP port nobody listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run_as() -> list[str]:
    """The command prefix that runs a PostgreSQL tool as an unprivileged user when we are root."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    if runuser is None:
        raise ClusterError("running as root needs `runuser` (util-linux) to start PostgreSQL")
    return [runuser, "-u", _service_user().pw_name, "--"]


def _service_user() -> pwd.struct_passwd:
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise ClusterError("running as root needs a `postgres` or `nobody` user to run PostgreSQL")


class Cluster:
    """``with Cluster() as cluster: psycopg.connect(cluster.conninfo())``."""

    def __init__(self, *, durable: bool = False, parent: Path | None = None) -> None:
        """``durable``: PostgreSQL's default fsync settings (benchmarks); otherwise commits
        skip the disk flush, which a throwaway cluster does not need (tests, demo)."""
        binaries = find_binaries()
        if binaries is None:
            raise ClusterError(f"PostgreSQL is not installed: {INSTALL}")
        self.binaries = binaries
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="league-pg-", dir=parent))
        self.data = self.folder / "data"
        self.sockets = self.folder / "socket"
        self.log = self.folder / "postgres.log"
        self.port = 0
        self._prefix = _run_as()
        self._running = False

    def __enter__(self) -> Cluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def conninfo(self, dbname: str = "league") -> str:
        return f"host=127.0.0.1 port={self.port} user={USER} dbname={dbname} connect_timeout=10"

    def start(self) -> None:
        """initdb, start on a free port, and create the ``league`` database."""
        self.sockets.mkdir()
        if self._prefix:
            user = _service_user()
            for path in (self.folder, self.sockets):
                os.chown(path, user.pw_uid, user.pw_gid)
        self._tool("initdb", "-D", str(self.data), "-U", USER, "-A", "trust", "-E", "UTF8",
                   "--locale=C", "--no-sync", "--no-instructions")  # fmt: skip
        for attempt in range(PORT_ATTEMPTS):
            self.port = free_port()
            try:
                self._tool("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                           "-o", self._options(), "start")  # fmt: skip
                break
            except ClusterError:
                if attempt == PORT_ATTEMPTS - 1 or "already in use" not in self.log_tail():
                    raise
        self._running = True
        self.create_database("league")

    def _options(self) -> str:
        options = [
            "-c listen_addresses=127.0.0.1",
            f"-p {self.port}",
            f"-k {shlex.quote(str(self.sockets))}",
            "-c shared_buffers=32MB",
            "-c max_connections=60",
        ]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        return " ".join(options)

    def create_database(self, name: str) -> str:
        """A new empty database; returns its conninfo."""
        with psycopg.connect(self.conninfo("postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.conninfo(name)

    def stop(self) -> None:
        """Stop the server (if it runs) and delete the folder (idempotent)."""
        if self._running:
            self._running = False
            with contextlib.suppress(ClusterError):  # already gone: the folder goes anyway
                self._tool("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def _tool(self, tool: str, *args: str) -> None:
        command = [*self._prefix, str(self.binaries / tool), *args]
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            cwd=self.folder,
            env={**os.environ, "LC_ALL": "C"},
            check=False,
        )
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise ClusterError(
                f"{tool} failed ({'; '.join(detail)}); server log: {self.log_tail(5) or 'none'}"
            )
