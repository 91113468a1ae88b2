"""The server backend: PostgreSQL with pgvector, for several processes and hosts sharing one memory.

Connections come from a ``psycopg_pool.ConnectionPool``. Every write is one explicit transaction
(``with pool.connection() as conn, conn.transaction():``); a deadlock or serialization failure reruns
the whole transaction with exponential backoff and jitter, and :class:`~memlane.errors.DatabaseLocked`
is raised when the retries run out. Single-statement reads run outside a transaction block (autocommit
connections), so they cost one round trip; a pooled connection is checked (one more round trip) only
when it sat idle for a while. Reads of one recall may run at the same time (``concurrent_reads``), each
on its own pooled connection.

Sequence numbers: appending to a thread upserts the thread row with ``INSERT … ON CONFLICT DO UPDATE SET
next_seq = next_seq + n``. That statement creates the row or row-locks the existing one (``FOR NO KEY
UPDATE`` strength, so foreign-key checks of other writers do not wait) and allocates the range in one
step; the lock is held to commit, so concurrent writers to one thread queue up, and a rolled-back
append gives its numbers back. Sequence numbers stay gap-free and unique across processes.

Search: full text through generated ``tsvector`` columns (see :mod:`memlane.store.postgres.schema`),
vectors through HNSW indexes with pgvector's iterative index scans, so a filtered query keeps scanning
until it has ``limit`` rows the scope allows; messages of a whole agent, once the store is large, through an
IVF index built in the background (:mod:`memlane.store.postgres.ivf`). Scope filters are always in the
query's WHERE clause.

The store is put together from parts, one module each: :mod:`.threads` (threads and messages),
:mod:`.facts`, :mod:`.summaries`, :mod:`.vectors` (with :mod:`.ivf`), :mod:`.search`
(keyword search, scopes), :mod:`.jobs`, :mod:`.usage` and :mod:`.exchange`
(export/import), on the shared pieces of :mod:`.common`. This module holds the connections,
transactions, migrations, store status and metadata, and agents.
"""

from __future__ import annotations

import random
import time
import weakref
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.adapt import AdaptersMap
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from ...errors import DatabaseLocked, InvalidInput, StorageError
from ..base import Store, StoreStatus
from .common import Conn, Ids, IdsDumper, T, Vector, VectorDumper, one_row
from .exchange import PostgresExchange
from .facts import PostgresFacts
from .ivf import IvfBuilds, memory_bytes
from .jobs import PostgresJobs
from .keys import PostgresKeys
from .schema import MIGRATIONS
from .search import CommonTerms, PostgresSearch
from .summaries import PostgresSummaries
from .threads import PostgresThreads
from .usage import PostgresUsage
from .vectors import PostgresVectors

__all__ = ["PostgresStore"]

# Advisory lock keys ("memlane" + a number), taken for the length of one transaction.
_MIGRATE_LOCK = 0x6D656D6C616E6501
_PGVECTOR_MIN = (0, 8)  # iterative index scans
_RETRYABLE = (pg_errors.DeadlockDetected, pg_errors.SerializationFailure)
_CHECK_AFTER_S = 2.0  # a pooled connection idle for longer is checked before use
# While the server is known to be down, a call waits this long for a connection (not the whole pool_timeout):
# long enough to get one the moment the server is back, short enough to answer a request's 503 at once.
_DOWN_WAIT_S = 1.0
# The pool gives up reconnecting in the background after this long (its backoff doubles from 1 s: 1, 2, 4 s)
# and connects again on the next call, so a server back after a long outage is used within a few seconds.
_RECONNECT_S = 5.0


def _unreachable(exc: psycopg.OperationalError) -> bool:
    """Whether ``exc`` says the server cannot be reached: no SQLSTATE (the connection failed or was cut),
    class 08 (connection exception) or 57 (shut down, starting up, crashed), a cancelled statement aside."""
    state = exc.sqlstate
    return state is None or state.startswith("08") or (state.startswith("57") and state != "57014")


def _safe_location(url: str) -> str:
    """The URL without its password (it is shown by ``memlane db status`` and in reprs)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        userinfo, _, host = netloc.rpartition("@")
        netloc = f"{userinfo.split(':', 1)[0]}:***@{host}"
    query = urlencode([(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query)])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


class PostgresStore(
    PostgresThreads,
    PostgresFacts,
    PostgresSummaries,
    PostgresVectors,
    PostgresSearch,
    PostgresJobs,
    PostgresUsage,
    PostgresKeys,
    PostgresExchange,
    Store,
):
    """A memlane store in a PostgreSQL database (migrated on open; needs the pgvector extension).

    Args:
        url: a ``postgresql://`` URL.
        min_connections, max_connections: size of the connection pool.
        hnsw_m, hnsw_ef_construction: parameters of the HNSW indexes, used when the indexes are built
            (with the first stored vectors, and again after :meth:`drop_vectors`).
        hnsw_ef_search: candidate list size of a vector query (raised to the query's limit, max 1000).
        vector_index_min_rows: message vectors from which whole-agent searches get an IVF index, built in
            the background (None: never; see :mod:`memlane.store.postgres.ivf`).
        vector_index_memory: ``maintenance_work_mem`` of that index's builds (a PostgreSQL size such as
            ``"2GB"``): its k-means trains as many cells as fit in it (see :func:`.ivf.lists_for`).
        retries: how often a transaction that hit a deadlock or serialization failure is rerun.
        connect_timeout: seconds to wait for the server when opening.
        pool_timeout: seconds a call waits for a pooled connection before it fails with StorageError. While
            the server is down no connection comes, so this bounds how long a call takes to fail (an HTTP
            request gets its 503 within it, not after the client gave up); once the store saw the server
            unreachable, calls wait at most 1 s until a call succeeds again.

    Raises:
        StorageError: the server cannot be reached, or the schema cannot be migrated.
    """

    backend = "postgres"
    #: Reads of one recall may run at the same time (each takes its own pooled connection).
    concurrent_reads = True
    reads_wait = True
    #: The least HNSW candidate list of a search over a whole agent (see ``_ef_search``) while the store is
    #: too small for the whole-agent IVF index (:mod:`.ivf`); at 1M clustered chat vectors the HNSW graph
    #: found 0.69 of the exact top 10 at 200 and 0.90 at 1,000 (bench/RESULTS.md, "Round 7").
    hnsw_ef_search_broad = 200

    def __init__(
        self,
        url: str,
        *,
        min_connections: int = 1,
        max_connections: int = 10,
        hnsw_m: int = 16,
        hnsw_ef_construction: int = 64,
        hnsw_ef_search: int = 40,
        retries: int = 8,
        connect_timeout: float = 10.0,
        pool_timeout: float = 5.0,
        vector_index_min_rows: int | None = 100_000,
        vector_index_memory: str = "2GB",
    ) -> None:
        if not url.startswith(("postgresql://", "postgres://")):
            raise InvalidInput("a PostgreSQL store needs a postgresql:// URL")
        if not (2 <= hnsw_m <= 100 and 4 <= hnsw_ef_construction <= 1000 and 1 <= hnsw_ef_search <= 1000):
            raise InvalidInput("hnsw_m must be 2-100, hnsw_ef_construction 4-1000, hnsw_ef_search 1-1000")
        if hnsw_ef_construction < 2 * hnsw_m:  # pgvector refuses to build such an index
            raise InvalidInput("hnsw_ef_construction must be at least twice hnsw_m")
        if not 1 <= min_connections <= max_connections:
            raise InvalidInput("need 1 <= min_connections <= max_connections")
        if not pool_timeout > 0:
            raise InvalidInput("pool_timeout must be a positive number of seconds")
        if vector_index_min_rows is not None and (isinstance(vector_index_min_rows, bool) or vector_index_min_rows < 1):
            raise InvalidInput("vector_index_min_rows must be a positive number of rows or None")
        try:
            memory_bytes(vector_index_memory)
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"vector_index_memory: {exc}") from exc
        self.url = url
        self.location = _safe_location(url)
        self.hnsw_m = hnsw_m
        self.hnsw_ef_construction = hnsw_ef_construction
        self.hnsw_ef_search = hnsw_ef_search
        self._retries = retries
        self._pool_timeout = pool_timeout
        self._down_since: float | None = None  # when a call last found the server unreachable; None: it answers
        self._agent_ids: dict[str, int] = {}
        self._dim: int | None = None  # the vectors' dimension once known (reset by drop_vectors)
        self._terms = CommonTerms()  # the common words a message search leaves out
        self._last_used: weakref.WeakKeyDictionary[Conn, float] = weakref.WeakKeyDictionary()
        adapters = AdaptersMap(psycopg.adapters)
        adapters.register_dumper(Vector, VectorDumper)
        adapters.register_dumper(Ids, IdsDumper)
        kwargs: dict[str, Any] = {"autocommit": True, "context": adapters}
        if "connect_timeout" not in psycopg.conninfo.conninfo_to_dict(url):
            kwargs["connect_timeout"] = max(1, round(connect_timeout))
        try:
            with psycopg.connect(url, **kwargs) as conn:
                self._migrate(conn)
        except psycopg.Error as exc:
            raise StorageError(f"cannot open the PostgreSQL store at {self.location}: {exc}") from exc
        self._pool: ConnectionPool[Conn] = ConnectionPool(
            url,
            kwargs=kwargs,
            min_size=min_connections,
            max_size=max_connections,
            open=False,
            check=self._check,
            name="memlane",
            timeout=pool_timeout,
            reconnect_timeout=_RECONNECT_S,
        )
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
        except PoolTimeout as exc:
            self._pool.close()
            raise StorageError(f"cannot connect to {self.location}: {exc}") from exc
        self._ivf = IvfBuilds(lambda: psycopg.connect(url, **kwargs), vector_index_min_rows, vector_index_memory)

    # -- connections and transactions ---------------------------------------------------------------
    def _check(self, conn: Conn) -> None:
        """Check a connection taken from the pool if it sat idle: one that was in use a moment ago works.

        The check is a round trip to the server; under load that costs about as much as a search
        statement, and a recall takes four to six connections. A connection idle for longer than
        ``_CHECK_AFTER_S`` (e.g. across a server restart) is still checked, and replaced if broken.
        """
        if time.monotonic() - self._last_used.get(conn, 0.0) > _CHECK_AFTER_S:
            ConnectionPool.check_connection(conn)

    def _run(self, what: str, fn: Callable[[Conn], T], *, write: bool = True) -> T:
        """Run ``fn`` on a pooled connection, in a transaction if ``write``; map database errors.

        Deadlocks and serialization failures rerun the transaction with exponential backoff. A server that
        cannot be reached (refused, shut down, a connection cut) is a :class:`StorageError` once the pool's
        wait ends: ``pool_timeout``, or ``_DOWN_WAIT_S`` (1 s) while the server is known to be down.
        """
        delay = 0.01
        attempt = 0
        while True:
            try:
                down = self._down_since is not None
                with self._pool.connection(timeout=_DOWN_WAIT_S if down else self._pool_timeout) as conn:
                    try:
                        if not write:
                            result = fn(conn)
                        else:
                            with conn.transaction():
                                result = fn(conn)
                    finally:  # noted here, not in a pool reset callback: those return connections late
                        self._last_used[conn] = time.monotonic()
                if down:
                    self._down_since = None
                return result
            except _RETRYABLE as exc:
                attempt += 1
                if attempt > self._retries:
                    raise DatabaseLocked(f"{what}: still conflicting after {self._retries} retries: {exc}") from exc
                time.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, 1.0)
            except (pg_errors.IntegrityError, pg_errors.DataError) as exc:
                raise InvalidInput(f"{what}: {exc}") from exc
            except PoolClosed as exc:
                raise StorageError("the store is closed") from exc
            except PoolTimeout as exc:
                self._note_down()
                raise StorageError(f"{what}: no database connection available: {exc}") from exc
            except psycopg.OperationalError as exc:
                if _unreachable(exc):
                    self._note_down()
                raise StorageError(f"{what}: database error: {exc}") from exc
            except psycopg.Error as exc:
                raise StorageError(f"{what}: database error: {exc}") from exc

    def _note_down(self) -> None:
        """Remember that the server could not be reached (calls wait shortly until one succeeds)."""
        if self._down_since is None:
            self._down_since = time.monotonic()

    def close(self) -> None:
        self._ivf.close()
        self._pool.close()

    def wait_for_vector_indexes(self, timeout: float | None = None) -> None:
        """Block until a whole-agent index being built in the background is ready (tests, benchmarks)."""
        self._ivf.wait(timeout)

    # -- schema -------------------------------------------------------------------------------------
    def _migrate(self, conn: Conn) -> None:
        """Apply pending migrations under a transaction-level advisory lock (concurrent opens wait)."""
        encoding = one_row(conn, "SHOW server_encoding")[0]
        if encoding != "UTF8":
            raise StorageError(f"{self.location} uses the encoding {encoding}; memlane needs a UTF8 database")
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATE_LOCK,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL)"
            )
            row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
            current = int(row[0]) if row else 0
            newest = MIGRATIONS[-1][0]
            if current > newest:
                raise StorageError(
                    f"{self.location} has schema version {current}, newer than this memlane ({newest}); upgrade memlane"
                )
            for version, name, script in MIGRATIONS:
                if version <= current:
                    continue
                if script.strip():
                    conn.execute(script)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (%s, %s, now())",
                    (version, name),
                )
            row = one_row(conn, "SELECT coalesce(max(extversion), '') FROM pg_extension WHERE extname = 'vector'")
            if tuple(int(p) for p in str(row[0]).split(".")[:2] if p.isdigit()) < _PGVECTOR_MIN:
                raise StorageError(f"{self.location} has pgvector {row[0]!r}; memlane needs pgvector 0.8 or newer")

    def schema_version(self) -> int:
        return self._run(
            "schema version",
            lambda conn: int(one_row(conn, "SELECT coalesce(max(version), 0) FROM schema_migrations")[0]),
            write=False,
        )

    def status(self, agent: str | None = None) -> StoreStatus:
        def read(conn: Conn) -> StoreStatus:
            counts: dict[str, int] = {}
            if agent is None:
                for table in ("agents", "threads", "messages", "facts", "summaries", "jobs"):
                    query = sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
                    counts[table] = int(one_row(conn, query)[0])
                counts["pending_vectors"] = int(one_row(conn, "SELECT count(*) FROM pending_vectors")[0])
            else:
                agent_id = self._agent_id(conn, agent)
                for table in ("threads", "messages", "facts", "summaries", "jobs"):
                    query = sql.SQL("SELECT count(*) FROM {} WHERE agent_id = %s").format(sql.Identifier(table))
                    counts[table] = int(one_row(conn, query, (agent_id,))[0]) if agent_id else 0
                pending = (
                    "SELECT count(*) FROM pending_vectors p JOIN messages m ON m.id = p.message_id "
                    "WHERE m.agent_id = %s"
                )
                counts["pending_vectors"] = int(one_row(conn, pending, (agent_id,))[0]) if agent_id else 0
            meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
            version = int(one_row(conn, "SELECT coalesce(max(version), 0) FROM schema_migrations")[0])
            return StoreStatus(self.backend, self.location, version, counts, meta)

        return self._run("status", read, write=False)

    def get_meta(self, key: str) -> str | None:
        def read(conn: Conn) -> str | None:
            row = conn.execute("SELECT value FROM meta WHERE key = %s", (key,)).fetchone()
            return None if row is None else str(row[0])

        return self._run("read meta", read, write=False)

    def set_meta(self, key: str, value: str) -> None:
        self._run(
            "write meta",
            lambda conn: conn.execute(
                "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            ),
        )

    # -- agents -------------------------------------------------------------------------------
    def list_agents(self) -> list[str]:
        def read(conn: Conn) -> list[str]:
            return [str(row[0]) for row in conn.execute('SELECT name FROM agents ORDER BY name COLLATE "C"')]

        return self._run("list agents", read, write=False)

    def _agent_id(self, conn: Conn, agent: str) -> int | None:
        """The agent's id, or None if it never wrote anything (committed ids are cached)."""
        cached = self._agent_ids.get(agent)
        if cached is not None:
            return cached
        row = conn.execute("SELECT id FROM agents WHERE name = %s", (agent,)).fetchone()
        if row is None:
            return None
        self._agent_ids[agent] = int(row[0])
        return int(row[0])

    def _ensure_agent(self, conn: Conn, agent: str, now: datetime) -> int:
        """The agent's id, creating the agent; cache it with :meth:`_remember_agent` once committed."""
        cached = self._agent_ids.get(agent)
        if cached is not None:
            return cached
        row = conn.execute(
            "INSERT INTO agents (name, created_at) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING RETURNING id",
            (agent, now),
        ).fetchone()
        if row is None:  # it exists; a new statement sees it even if it was committed a moment ago
            row = one_row(conn, "SELECT id FROM agents WHERE name = %s", (agent,))
        return int(row[0])

    def _remember_agent(self, agent: str, agent_id: int) -> None:
        self._agent_ids[agent] = agent_id

    def _agent_read(self, what: str, agent: str, fn: Callable[[Conn, int], list[T]]) -> list[T]:
        """``fn(conn, agent_id)`` run as a read; nothing if the agent never wrote anything."""

        def read(conn: Conn) -> list[T]:
            agent_id = self._agent_id(conn, agent)
            return [] if agent_id is None else fn(conn, agent_id)

        return self._run(what, read, write=False)

    def _read_ids(
        self, what: str, agent: str, ids: Sequence[int], select: str, alias: str, row: Callable[[tuple[Any, ...]], T]
    ) -> list[T]:
        """The agent's items of ``select`` (its table named ``alias``) with these ids, in id order, as ``row``
        makes them; ids of other agents or of nothing are skipped."""
        if not ids:
            return []
        query = sql.SQL("{} WHERE {a}.agent_id = %s AND {a}.id = ANY(%s) ORDER BY {a}.id").format(
            sql.SQL(select), a=sql.Identifier(alias)
        )

        def read(conn: Conn, agent_id: int) -> list[T]:
            return [row(r) for r in conn.execute(query, (agent_id, Ids(ids)))]

        return self._agent_read(what, agent, read)
