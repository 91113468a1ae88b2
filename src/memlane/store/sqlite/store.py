"""The embedded default backend: one SQLite file in WAL mode.

Each thread of the process gets its own connection, so reads of one recall run at the same time
(``concurrent_reads``: the full-text search in SQLite's C code and the vector product in NumPy's both
release the GIL, and WAL readers do not block each other). Writes run in ``BEGIN IMMEDIATE`` transactions, so
a writer takes the lock before reading what it will change (sequence numbers stay gap-free across
processes); a lock that outlasts SQLite's busy timeout is retried with exponential backoff and jitter.

The store is put together from parts, one module each: :mod:`.threads` (threads and messages),
:mod:`.facts`, :mod:`.summaries`, :mod:`.embeddings` (stored vectors and vector
search, on the in-memory matrices of :mod:`.vectors`), :mod:`.search` (keyword search),
:mod:`.exchange` (export/import), :mod:`.jobs` and :mod:`.usage`, on the shared
pieces of :mod:`.common`. This module holds the connections, transactions, migrations, store
status and metadata, and agents. A database error leaves it as a :class:`StorageError` naming the file; for a
full disk or a damaged file it says what to do (:mod:`.faults`).
"""

from __future__ import annotations

import contextlib
import logging
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from ...errors import DatabaseLocked, InvalidInput, StorageError
from .._common import fmt_time
from ..base import Store, StoreStatus
from .embeddings import SQLiteEmbeddings
from .exchange import SQLiteExchange
from .facts import SQLiteFacts
from .faults import disk_full, is_fault, read_only_uri, storage_error, wal_is_empty
from .jobs import SQLiteJobs
from .keys import SQLiteKeys
from .schema import MIGRATION_STEPS, MIGRATIONS, register_functions
from .search import CommonWords, SQLiteSearch
from .summaries import SQLiteSummaries
from .threads import SQLiteThreads
from .usage import SQLiteUsage
from .vectors import VectorCache

__all__ = ["SQLiteStore"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds a connection opened read-only for a full disk serves reads before a normal one is tried again.
READ_ONLY_SECONDS = 1.0


def _is_locked(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class SQLiteStore(
    SQLiteThreads,
    SQLiteFacts,
    SQLiteSummaries,
    SQLiteEmbeddings,
    SQLiteSearch,
    SQLiteExchange,
    SQLiteJobs,
    SQLiteUsage,
    SQLiteKeys,
    Store,
):
    """A memlane store in one SQLite file (created with its directory if missing)."""

    backend = "sqlite"
    # Measured at 1M messages on 2 idle cores (bench/RESULTS.md): recall(user=...) p50 18.6-18.9 -> 12.6-13.0
    # ms, whole-agent recall 165-167 -> 97-100 ms. A search thread opens its connection on first use (its
    # page cache, up to 64 MiB, grows with what it reads).
    concurrent_reads = True

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_ms: int = 5000,
        lock_retries: int = 8,
        vector_index_min_rows: int | None = 100_000,
    ) -> None:
        """``vector_index_min_rows``: an agent with at least this many vectors gets an approximate index for
        searches over the whole agent (built in the background; None: always exact). Scoped searches are
        exact whatever the size."""
        text = str(path)
        if text.startswith("sqlite:///"):
            text = text[len("sqlite:///") :]
        elif text.startswith("sqlite://"):
            text = text[len("sqlite://") :]
        if text in ("", ":memory:"):
            raise InvalidInput("an in-memory SQLite store cannot be shared between threads; give a file path")
        self.path = Path(text).expanduser().resolve()
        self.location = str(self.path)
        self._busy_timeout_ms = busy_timeout_ms
        self._lock_retries = lock_retries
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        self._write_lock = threading.RLock()
        self._agent_ids: dict[str, int] = {}
        self._closed = False
        self._opens = 0  # normal connections opened (see _conn)
        self._read_only = False  # the last connection opened could only read (a full disk)
        self._vectors = VectorCache(ann_min_rows=vector_index_min_rows)
        self._common_words = CommonWords()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the directory of {self.path}: {exc}") from exc
        self._migrate()

    # -- connections and transactions ---------------------------------------------------------------
    def _conn(self, *, writable: bool = False) -> sqlite3.Connection:
        """This thread's connection, opened on first use.

        On a full disk a new connection may find no room for its ``-shm`` file: it then reads the database file
        alone (see :mod:`.faults`). A normal connection is tried again at the next write (``writable``, which
        fails with the full disk's error while there is still no room), after ``READ_ONLY_SECONDS``, or as soon
        as another thread got one (a read-only connection does not see what is written meanwhile).
        """
        if self._closed:
            raise StorageError("the store is closed")
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        full: StorageError | None = getattr(self._local, "full", None)
        if conn is not None and full is not None and (writable or self._stale(self._local)):
            self._forget(conn)
            conn = None
        if conn is None:
            conn, full = self._open()
            self._local.conn, self._local.full = conn, full
            self._local.retry_at = time.monotonic() + READ_ONLY_SECONDS
            self._local.opens = self._opens
            with self._all_lock:
                self._all.append(conn)
        if writable and full is not None:
            raise full
        return conn

    def _stale(self, local: threading.local) -> bool:
        """Whether a thread's read-only connection is to be replaced by a normal one, if there is room now."""
        return bool(time.monotonic() >= local.retry_at or self._opens != local.opens)

    def _open(self) -> tuple[sqlite3.Connection, StorageError | None]:
        """A new connection, and the full disk's error if it could only be opened read-only for it."""
        try:
            conn = self._connect()
        except StorageError as exc:
            cause = exc.__cause__
            if not (isinstance(cause, sqlite3.Error) and disk_full(self.path, cause) and self.path.is_file()):
                raise
            if not wal_is_empty(self.path):  # the file alone lacks those commits
                raise StorageError(
                    f"the disk is full: {self.path} cannot be opened, its -wal holds commits and there is no room "
                    f"in {self.path.parent} for the index of them it needs (-shm, 32 KiB) ({cause}); free some "
                    "space there"
                ) from cause
            if self.path.stat().st_size == 0:  # a new store: nothing to read
                raise
            if not self._read_only:  # said once, not at each retry
                log.warning("reading %s from its database file alone until space is freed: %s", self.path, exc)
            self._read_only = True
            try:
                conn = sqlite3.connect(
                    read_only_uri(self.path), uri=True, isolation_level=None, check_same_thread=False
                )
                register_functions(conn)
            except sqlite3.Error as again:
                raise storage_error(self.path, again) from again
            return conn, exc
        self._opens += 1
        self._read_only = False
        return conn, None

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self.path, timeout=self._busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from exc
        try:
            register_functions(conn)
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
            self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL"))
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA cache_size = -65536")
        except sqlite3.Error as exc:
            conn.close()
            raise storage_error(self.path, exc) from exc
        except BaseException:
            conn.close()
            raise
        return conn

    def _forget(self, conn: sqlite3.Connection) -> None:
        """Close this thread's connection ``conn``; the next call opens another."""
        with self._all_lock:
            if conn in self._all:
                self._all.remove(conn)
        with contextlib.suppress(sqlite3.Error):
            conn.close()
        self._local.conn = self._local.full = None

    def _retry(self, fn: Callable[[], T]) -> T:
        delay = 0.01
        for attempt in range(self._lock_retries + 1):
            try:
                return fn()
            except sqlite3.OperationalError as exc:
                if not _is_locked(exc) or attempt == self._lock_retries:
                    if _is_locked(exc):
                        raise DatabaseLocked(f"{self.path} stayed locked: {exc}") from exc
                    raise storage_error(self.path, exc) from exc
                time.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, 1.0)
        raise AssertionError("unreachable")  # pragma: no cover

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction. The threads of this process take turns at a lock first: waiting on SQLite's
        own lock means its busy handler's sleeps (up to 100 ms each), which under concurrent writes cost
        more than the writes.

        A failure of the database becomes a :class:`StorageError` that names the file (a full disk, a damaged
        file: see :mod:`.faults`); a broken constraint is left to the caller to make sense of. SQLite
        may have rolled the transaction back itself (it does on a full disk): it is rolled back only if not.
        """
        conn = self._conn(writable=True)
        with self._write_lock:
            self._retry(lambda: conn.execute("BEGIN IMMEDIATE"))
            try:
                yield conn
                self._retry(lambda: conn.execute("COMMIT"))
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if is_fault(exc):
                    raise storage_error(self.path, exc) from exc
                raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A read transaction, so that several queries see one snapshot."""
        conn = self._conn()
        if conn.in_transaction:  # nested in a write
            yield conn
            return
        self._retry(lambda: conn.execute("BEGIN"))
        failed = True
        try:
            yield conn
            failed = False
        except sqlite3.DatabaseError as exc:
            if not is_fault(exc):
                raise
            raise storage_error(self.path, exc) from exc
        finally:
            self._end_read(conn, failed)

    def _end_read(self, conn: sqlite3.Connection, failed: bool) -> None:
        """End a read transaction. On a damaged file its COMMIT may fail too: that is raised only if nothing
        else is (a reader that stopped early, an error already on its way)."""
        try:
            if conn.in_transaction:
                conn.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            if not failed:
                raise storage_error(self.path, exc) from exc

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        conn = self._conn()
        try:
            return self._retry(lambda: conn.execute(sql, params).fetchall())
        except sqlite3.Error as exc:
            raise storage_error(self.path, exc) from exc

    def close(self) -> None:
        self._closed = True
        with self._all_lock:
            for conn in self._all:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            self._all.clear()
        self._local = threading.local()

    # -- schema -------------------------------------------------------------------------------------
    def _migrate(self) -> None:
        """Apply the migrations the file lacks. A store that has them all is only read (it opens on a full
        disk), and one newer than this memlane is refused."""
        newest = MIGRATIONS[-1][0]
        if self._applied(newest) == newest:
            return
        with self._write() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            current = self._applied(newest)  # again, under the write lock: another process may have migrated
            for version, name, sql in MIGRATIONS:
                if version <= current:
                    continue
                for statement in _split_sql(sql):
                    conn.execute(statement)
                if version in MIGRATION_STEPS:
                    MIGRATION_STEPS[version](conn)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, fmt_time(datetime.now().astimezone())),
                )

    def _applied(self, newest: int) -> int:
        """The newest migration applied to the file (0 for a new file).

        Raises:
            StorageError: the file is newer than this memlane, is damaged, or is not a database.
        """
        with self._read() as conn:
            if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").fetchone() is None:
                return 0
            current = int(conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()[0])
        if current > newest:
            raise StorageError(
                f"{self.path} has schema version {current}, newer than this memlane ({newest}); upgrade memlane"
            )
        return current

    def schema_version(self) -> int:
        return int(self._query("SELECT coalesce(max(version), 0) FROM schema_migrations")[0][0])

    def status(self, agent: str | None = None) -> StoreStatus:
        counts: dict[str, int] = {}
        with self._read() as conn:
            if agent is None:
                for table in ("agents", "threads", "messages", "facts", "summaries", "jobs"):
                    counts[table] = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # noqa: S608
                counts["pending_vectors"] = conn.execute("SELECT count(*) FROM pending_vectors").fetchone()[0]
            else:
                agent_id = self._agent_id(agent)
                for table in ("threads", "messages", "facts", "summaries", "jobs"):
                    counts[table] = (
                        conn.execute(
                            f"SELECT count(*) FROM {table} WHERE agent_id = ?",  # noqa: S608
                            (agent_id,),
                        ).fetchone()[0]
                        if agent_id
                        else 0
                    )
                counts["pending_vectors"] = (
                    conn.execute(
                        "SELECT count(*) FROM pending_vectors p JOIN messages m ON m.id = p.message_id "
                        "WHERE m.agent_id = ?",
                        (agent_id,),
                    ).fetchone()[0]
                    if agent_id
                    else 0
                )
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            version = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()[0]
        return StoreStatus(self.backend, self.location, int(version), counts, meta)

    def get_meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # -- agents -------------------------------------------------------------------------------------
    def list_agents(self) -> list[str]:
        return sorted(str(row[0]) for row in self._query("SELECT name FROM agents"))

    def _agent_id(self, agent: str) -> int | None:
        """The agent's id, or None if it never wrote anything."""
        cached = self._agent_ids.get(agent)
        if cached is not None:
            return cached
        rows = self._query("SELECT id FROM agents WHERE name = ?", (agent,))
        if not rows:
            return None
        self._agent_ids[agent] = int(rows[0][0])
        return self._agent_ids[agent]

    def _ensure_agent(self, conn: sqlite3.Connection, agent: str, now: datetime) -> int:
        cached = self._agent_ids.get(agent)
        if cached is not None:
            return cached
        conn.execute("INSERT OR IGNORE INTO agents (name, created_at) VALUES (?, ?)", (agent, fmt_time(now)))
        agent_id = int(conn.execute("SELECT id FROM agents WHERE name = ?", (agent,)).fetchone()[0])
        return agent_id  # cached only once committed, see _remember_agent

    def _remember_agent(self, agent: str, agent_id: int) -> None:
        self._agent_ids[agent] = agent_id


def _split_sql(script: str) -> list[str]:
    """Statements of a migration script (triggers hold semicolons, so split on complete statements)."""
    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
