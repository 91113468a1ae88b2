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

Search: full text through generated ``tsvector`` columns (see :mod:`memlane.store.postgres_schema`),
vectors through HNSW indexes with pgvector's iterative index scans, so a filtered query keeps scanning
until it has ``limit`` rows the scope allows. Scope filters are always in the query's WHERE clause.

The store is put together from parts, one module each: :mod:`.postgres_facts`, :mod:`.postgres_vectors`,
:mod:`.postgres_search` (keyword search, scopes), :mod:`.postgres_jobs`, :mod:`.postgres_usage` and
:mod:`.postgres_exchange` (export/import), on the shared pieces of :mod:`.postgres_common`. This module
holds the connections, migrations, agents, threads, messages and summaries.
"""

from __future__ import annotations

import random
import time
import weakref
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import numpy as np
import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.adapt import AdaptersMap
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from ..errors import DatabaseLocked, InvalidInput, NotFound, StorageError
from ..types import Message, Summary, Thread
from ..validation import NewJob, NewMessage, NewSummary
from ._common import dump_json
from .base import Store, StoreStatus
from .postgres_common import (
    MESSAGE_SELECT,
    SUMMARY_SELECT,
    THREAD_SELECT,
    Conn,
    T,
    Vector,
    VectorDumper,
    Where,
    as_json,
    message_row,
    one_row,
    sql_limit,
    summary_row,
    thread_row,
)
from .postgres_exchange import PostgresExchange
from .postgres_facts import PostgresFacts
from .postgres_jobs import PostgresJobs, insert_jobs
from .postgres_schema import MIGRATIONS
from .postgres_search import PostgresSearch
from .postgres_usage import PostgresUsage
from .postgres_vectors import PostgresVectors

__all__ = ["PostgresStore"]

# Advisory lock keys ("memlane" + a number), taken for the length of one transaction.
_MIGRATE_LOCK = 0x6D656D6C616E6501
_PGVECTOR_MIN = (0, 8)  # iterative index scans
_RETRYABLE = (pg_errors.DeadlockDetected, pg_errors.SerializationFailure)
_CHECK_AFTER_S = 2.0  # a pooled connection idle for longer is checked before use


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
    PostgresFacts, PostgresVectors, PostgresSearch, PostgresJobs, PostgresUsage, PostgresExchange, Store
):
    """A memlane store in a PostgreSQL database (migrated on open; needs the pgvector extension).

    Args:
        url: a ``postgresql://`` URL.
        min_connections, max_connections: size of the connection pool.
        hnsw_m, hnsw_ef_construction: parameters of the HNSW indexes, used when the indexes are built
            (with the first stored vectors, and again after :meth:`drop_vectors`).
        hnsw_ef_search: candidate list size of a vector query (raised to the query's limit, max 1000).
        retries: how often a transaction that hit a deadlock or serialization failure is rerun.
        connect_timeout: seconds to wait for the server when opening.

    Raises:
        StorageError: the server cannot be reached, or the schema cannot be migrated.
    """

    backend = "postgres"
    #: Reads of one recall may run at the same time (each takes its own pooled connection).
    concurrent_reads = True

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
    ) -> None:
        if not url.startswith(("postgresql://", "postgres://")):
            raise InvalidInput("a PostgreSQL store needs a postgresql:// URL")
        if not (2 <= hnsw_m <= 100 and 4 <= hnsw_ef_construction <= 1000 and 1 <= hnsw_ef_search <= 1000):
            raise InvalidInput("hnsw_m must be 2-100, hnsw_ef_construction 4-1000, hnsw_ef_search 1-1000")
        if hnsw_ef_construction < 2 * hnsw_m:  # pgvector refuses to build such an index
            raise InvalidInput("hnsw_ef_construction must be at least twice hnsw_m")
        if not 1 <= min_connections <= max_connections:
            raise InvalidInput("need 1 <= min_connections <= max_connections")
        self.url = url
        self.location = _safe_location(url)
        self.hnsw_m = hnsw_m
        self.hnsw_ef_construction = hnsw_ef_construction
        self.hnsw_ef_search = hnsw_ef_search
        self._retries = retries
        self._agent_ids: dict[str, int] = {}
        self._dim: int | None = None  # the vectors' dimension once known (reset by drop_vectors)
        self._last_used: weakref.WeakKeyDictionary[Conn, float] = weakref.WeakKeyDictionary()
        adapters = AdaptersMap(psycopg.adapters)
        adapters.register_dumper(Vector, VectorDumper)
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
        )
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
        except PoolTimeout as exc:
            self._pool.close()
            raise StorageError(f"cannot connect to {self.location}: {exc}") from exc

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

        Deadlocks and serialization failures rerun the transaction with exponential backoff.
        """
        delay = 0.01
        attempt = 0
        while True:
            try:
                with self._pool.connection() as conn:
                    try:
                        if not write:
                            return fn(conn)
                        with conn.transaction():
                            return fn(conn)
                    finally:  # noted here, not in a pool reset callback: those return connections late
                        self._last_used[conn] = time.monotonic()
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
                raise StorageError(f"{what}: no database connection available: {exc}") from exc
            except psycopg.Error as exc:
                raise StorageError(f"{what}: database error: {exc}") from exc

    def close(self) -> None:
        self._pool.close()

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
            else:
                agent_id = self._agent_id(conn, agent)
                for table in ("threads", "messages", "facts", "summaries", "jobs"):
                    query = sql.SQL("SELECT count(*) FROM {} WHERE agent_id = %s").format(sql.Identifier(table))
                    counts[table] = int(one_row(conn, query, (agent_id,))[0]) if agent_id else 0
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

    # -- agents and threads -------------------------------------------------------------------------
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

    def _thread_id(self, conn: Conn, agent_id: int | None, thread: str, *, lock: bool = False) -> int | None:
        if agent_id is None:
            return None
        query = "SELECT id FROM threads WHERE agent_id = %s AND key = %s"
        row = conn.execute(query + (" FOR NO KEY UPDATE" if lock else ""), (agent_id, thread)).fetchone()
        return None if row is None else int(row[0])

    def add_messages(
        self,
        agent: str,
        thread: str,
        items: Sequence[NewMessage],
        token_counts: Sequence[int],
        now: datetime,
        vectors: np.ndarray | None = None,
        jobs: Sequence[NewJob] = (),
    ) -> list[Message]:
        if not items:
            return []
        if vectors is not None and len(vectors) != len(items):
            raise InvalidInput(f"{len(vectors)} vectors for {len(items)} messages")
        stamps = [(item.created_at or now).astimezone(UTC) for item in items]
        n = len(items)

        def write(conn: Conn) -> tuple[int, int, list[int]]:
            agent_id = self._ensure_agent(conn, agent, now)
            # Create the thread or lock it, and allocate n sequence numbers, in one statement.
            row = one_row(
                conn,
                "INSERT INTO threads AS t (agent_id, key, next_seq, message_count, created_at, updated_at) "
                "VALUES (%(agent)s, %(key)s, 1 + %(n)s, %(n)s, %(first)s, %(last)s) "
                "ON CONFLICT (agent_id, key) DO UPDATE SET next_seq = t.next_seq + %(n)s, "
                "message_count = t.message_count + %(n)s, updated_at = greatest(t.updated_at, %(last)s), "
                "created_at = least(t.created_at, %(first)s) RETURNING t.id, t.next_seq - %(n)s",
                {"agent": agent_id, "key": thread, "n": n, "first": min(stamps), "last": max(stamps)},
            )
            thread_id, first_seq = int(row[0]), int(row[1])
            # Participants are recorded by the same statement (one round trip fewer).
            rows = conn.execute(
                "WITH new AS (INSERT INTO messages (agent_id, thread_id, seq, role, user_id, name, content, "
                "tool_calls, tool_call_id, token_count, metadata, created_at) "
                "SELECT %(agent)s, %(thread)s, %(first)s + x.n - 1, x.role, x.user_id, x.name, x.content, "
                "x.tool_calls::json, x.tool_call_id, x.token_count, x.metadata::json, x.created_at "
                "FROM unnest(%(role)s::text[], %(user)s::text[], %(name)s::text[], %(content)s::text[], "
                "%(calls)s::text[], %(call_id)s::text[], %(tokens)s::integer[], %(meta)s::text[], "
                "%(at)s::timestamptz[]) WITH ORDINALITY "
                "AS x(role, user_id, name, content, tool_calls, tool_call_id, token_count, metadata, created_at, n) "
                "RETURNING seq, id, user_id), "
                "users AS (INSERT INTO thread_users (thread_id, user_id, agent_id) "
                "SELECT DISTINCT %(thread)s::bigint, user_id, %(agent)s::bigint FROM new WHERE user_id IS NOT NULL "
                "ON CONFLICT DO NOTHING) "
                "SELECT seq, id FROM new",
                {
                    "agent": agent_id,
                    "thread": thread_id,
                    "first": first_seq,
                    "role": [item.role for item in items],
                    "user": [item.user for item in items],
                    "name": [item.name for item in items],
                    "content": [item.content for item in items],
                    "calls": [None if item.tool_calls is None else dump_json(item.tool_calls) for item in items],
                    "call_id": [item.tool_call_id for item in items],
                    "tokens": list(token_counts),
                    "meta": [dump_json(item.metadata) for item in items],
                    "at": stamps,
                },
            ).fetchall()
            by_seq = {int(seq): int(mid) for seq, mid in rows}
            ids = [by_seq[first_seq + i] for i in range(n)]
            if vectors is not None:
                self._put_vectors(conn, agent_id, "message", ids, vectors)
            insert_jobs(conn, agent_id, jobs, now)
            return agent_id, first_seq, ids

        agent_id, first_seq, ids = self._run("could not store messages", write)
        self._remember_agent(agent, agent_id)
        return [
            Message(
                id=ids[i],
                agent=agent,
                thread=thread,
                seq=first_seq + i,
                role=cast(Any, item.role),
                content=item.content,
                user=item.user,
                name=item.name,
                tool_calls=item.tool_calls,
                tool_call_id=item.tool_call_id,
                token_count=token_counts[i],
                metadata=item.metadata,
                created_at=stamps[i],
            )
            for i, item in enumerate(items)
        ]

    def get_thread(self, agent: str, thread: str) -> Thread | None:
        def read(conn: Conn) -> Thread | None:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return None
            row = conn.execute(THREAD_SELECT + " WHERE t.agent_id = %s AND t.key = %s", (agent_id, thread)).fetchone()
            return None if row is None else thread_row(row)

        return self._run("read thread", read, write=False)

    def list_threads(
        self, agent: str, *, user: str | None, status: str | None, limit: int | None, offset: int
    ) -> list[Thread]:
        def read(conn: Conn) -> list[Thread]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            where = Where()
            where.add("t.agent_id = %s", agent_id)
            if user is not None:
                mine = "SELECT thread_id FROM thread_users WHERE agent_id = %s AND user_id = %s"
                where.add("t.id IN (" + mine + ")", agent_id, user)
            if status is not None:
                where.add("t.status = %s", status)
            query = sql.SQL("{} WHERE {} ORDER BY t.updated_at DESC, t.id DESC LIMIT %s OFFSET %s").format(
                sql.SQL(THREAD_SELECT),
                where.sql(),
            )
            rows = conn.execute(query, [*where.params, sql_limit(limit), max(0, offset)]).fetchall()
            return [thread_row(row) for row in rows]

        return self._run("list threads", read, write=False)

    def upsert_thread(
        self,
        agent: str,
        thread: str,
        now: datetime,
        *,
        system_prompt: str | None = None,
        metadata: dict[str, Any] | None = None,
        status: str | None = None,
        jobs: Sequence[NewJob] = (),
    ) -> Thread:
        ended_at = (now if status == "ended" else None) if status is not None else None
        sets = [sql.SQL("updated_at = greatest(t.updated_at, excluded.updated_at)")]
        if system_prompt is not None:
            sets.append(sql.SQL("system_prompt = excluded.system_prompt"))
        if metadata is not None:
            sets.append(sql.SQL("metadata = excluded.metadata"))
        if status is not None:
            sets += [sql.SQL("status = excluded.status"), sql.SQL("ended_at = excluded.ended_at")]
        query = sql.SQL(
            "INSERT INTO threads AS t (agent_id, key, created_at, updated_at, system_prompt, metadata, status, "
            "ended_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (agent_id, key) DO UPDATE SET {} "
            "RETURNING t.id"
        ).format(sql.SQL(", ").join(sets))

        def write(conn: Conn) -> tuple[int, Thread]:
            agent_id = self._ensure_agent(conn, agent, now)
            params = (agent_id, thread, now, now, system_prompt, as_json(metadata or {}), status or "open", ended_at)
            thread_id = int(one_row(conn, query, params)[0])
            insert_jobs(conn, agent_id, jobs, now)
            return agent_id, thread_row(one_row(conn, THREAD_SELECT + " WHERE t.id = %s", (thread_id,)))

        agent_id, result = self._run("could not update the thread", write)
        self._remember_agent(agent, agent_id)
        return result

    def messages(
        self,
        agent: str,
        thread: str,
        *,
        limit: int | None = None,
        before_seq: int | None = None,
        after_seq: int | None = None,
        unsummarized_only: bool = False,
    ) -> list[Message]:
        def read(conn: Conn) -> list[Message]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            where = Where()
            where.add("t.agent_id = %s AND t.key = %s", agent_id, thread)
            if before_seq is not None:
                where.add("m.seq < %s", before_seq)
            if after_seq is not None:
                where.add("m.seq > %s", after_seq)
            if unsummarized_only:
                where.add("NOT m.summarized")
            if limit is None:
                query = sql.SQL("{} WHERE {} ORDER BY m.seq").format(sql.SQL(MESSAGE_SELECT), where.sql())
                return [message_row(r) for r in conn.execute(query, where.params)]
            query = sql.SQL("{} WHERE {} ORDER BY m.seq DESC LIMIT %s").format(sql.SQL(MESSAGE_SELECT), where.sql())
            rows = conn.execute(query, [*where.params, sql_limit(limit)]).fetchall()
            return [message_row(r) for r in reversed(rows)]

        return self._run("read messages", read, write=False)

    def get_messages(self, agent: str, ids: Sequence[int]) -> list[Message]:
        if not ids:
            return []

        def read(conn: Conn) -> list[Message]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            query = MESSAGE_SELECT + " WHERE m.agent_id = %s AND m.id = ANY(%s) ORDER BY m.id"
            return [message_row(r) for r in conn.execute(query, (agent_id, list(ids)))]

        return self._run("read messages", read, write=False)

    def message_windows(self, agent: str, ids: Sequence[int], *, before: int, after: int) -> list[Message]:
        if not ids:
            return []
        query = sql.SQL(
            "{} WHERE m.id IN (SELECT w.id FROM messages x JOIN messages w ON w.thread_id = x.thread_id "
            "AND w.seq BETWEEN x.seq - %s AND x.seq + %s WHERE x.agent_id = %s AND x.id = ANY(%s)) "
            'ORDER BY t.key COLLATE "C", m.seq'
        ).format(sql.SQL(MESSAGE_SELECT))

        def read(conn: Conn) -> list[Message]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            rows = conn.execute(query, (max(before, 0), max(after, 0), agent_id, list(ids)))
            return [message_row(r) for r in rows]

        return self._run("read message windows", read, write=False)

    def clear_thread(self, agent: str, thread: str) -> int:
        def write(conn: Conn) -> int:
            thread_id = self._thread_id(conn, self._agent_id(conn, agent), thread, lock=True)
            if thread_id is None:
                raise NotFound(f"no thread {thread!r} in agent {agent!r}")
            count = conn.execute("DELETE FROM messages WHERE thread_id = %s", (thread_id,)).rowcount
            conn.execute("DELETE FROM summaries WHERE thread_id = %s AND kind <> 'memory'", (thread_id,))
            conn.execute("UPDATE threads SET message_count = 0 WHERE id = %s", (thread_id,))
            return int(count)

        return self._run("could not clear the thread", write)

    def delete_thread(self, agent: str, thread: str) -> bool:
        def write(conn: Conn) -> bool:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return False
            thread_id = self._thread_id(conn, agent_id, thread, lock=True)
            if thread_id is None:
                return False
            _detach_memories(conn, [thread_id])
            conn.execute("DELETE FROM threads WHERE id = %s", (thread_id,))
            return True

        return self._run("could not delete the thread", write)

    def prune_threads(self, agent: str, updated_before: datetime) -> int:
        def write(conn: Conn) -> int:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return 0
            rows = conn.execute(
                "SELECT id FROM threads WHERE agent_id = %s AND updated_at < %s FOR NO KEY UPDATE",
                (agent_id, updated_before),
            ).fetchall()
            ids = [int(r[0]) for r in rows]
            _detach_memories(conn, ids)
            return int(conn.execute("DELETE FROM threads WHERE id = ANY(%s)", (ids,)).rowcount) if ids else 0

        return self._run("could not prune threads", write)

    # -- summaries ----------------------------------------------------------------------------------
    def summaries(self, agent: str, *, thread: str | None, kind: str | None, limit: int | None) -> list[Summary]:
        def read(conn: Conn) -> list[Summary]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            where = Where()
            where.add("s.agent_id = %s", agent_id)
            if thread is not None:
                where.add("t.key = %s", thread)
            if kind is not None:
                where.add("s.kind = %s", kind)
            query = sql.SQL("{} WHERE {} ORDER BY s.created_at DESC, s.id DESC LIMIT %s").format(
                sql.SQL(SUMMARY_SELECT),
                where.sql(),
            )
            return [summary_row(r) for r in conn.execute(query, [*where.params, sql_limit(limit)])]

        return self._run("read summaries", read, write=False)

    def get_summaries(self, agent: str, ids: Sequence[int]) -> list[Summary]:
        if not ids:
            return []

        def read(conn: Conn) -> list[Summary]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            query = SUMMARY_SELECT + " WHERE s.agent_id = %s AND s.id = ANY(%s) ORDER BY s.id"
            return [summary_row(r) for r in conn.execute(query, (agent_id, list(ids)))]

        return self._run("read summaries", read, write=False)

    def add_summary(
        self,
        agent: str,
        thread: str | None,
        summary: NewSummary,
        now: datetime,
        *,
        vector: np.ndarray | None = None,
        mark_summarized: bool = False,
    ) -> tuple[Summary, bool]:
        def write(conn: Conn) -> tuple[int, Summary, bool]:
            agent_id = self._ensure_agent(conn, agent, now)
            thread_id = None
            if thread is not None:
                thread_id = self._thread_id(conn, agent_id, thread)
                if thread_id is None:
                    raise NotFound(f"no thread {thread!r} in agent {agent!r}")
            # NULLs are distinct in the unique index, so (thread, kind, range) with a NULL in it is made
            # idempotent by serialising its writers on an advisory lock.
            conn.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                (f"memlane.summary:{agent_id}:{thread_id}:{summary.kind}",),
            )
            existing = conn.execute(
                "SELECT id FROM summaries WHERE agent_id = %s AND thread_id IS NOT DISTINCT FROM %s AND kind = %s "
                "AND owner IS NOT DISTINCT FROM %s AND from_seq IS NOT DISTINCT FROM %s "
                "AND to_seq IS NOT DISTINCT FROM %s",
                (agent_id, thread_id, summary.kind, summary.owner, summary.from_seq, summary.to_seq),
            ).fetchone()
            created = existing is None
            if existing is None:
                summary_id = int(
                    one_row(
                        conn,
                        "INSERT INTO summaries (agent_id, thread_id, kind, owner, from_seq, to_seq, content, method, "
                        "metadata, created_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
                        (
                            agent_id,
                            thread_id,
                            summary.kind,
                            summary.owner,
                            summary.from_seq,
                            summary.to_seq,
                            summary.content,
                            summary.method,
                            as_json(summary.metadata),
                            now,
                        ),
                    )[0]
                )
                if vector is not None:
                    self._put_vectors(conn, agent_id, "summary", [summary_id], np.asarray(vector)[None, :])
            else:
                summary_id = int(existing[0])
            if mark_summarized and thread_id is not None and summary.from_seq is not None:
                to_seq = summary.to_seq if summary.to_seq is not None else summary.from_seq
                conn.execute(
                    "UPDATE messages SET summarized = true WHERE thread_id = %s AND seq BETWEEN %s AND %s",
                    (thread_id, summary.from_seq, to_seq),
                )
            stored = summary_row(one_row(conn, SUMMARY_SELECT + " WHERE s.id = %s", (summary_id,)))
            return agent_id, stored, created

        agent_id, stored, created = self._run("could not store the summary", write)
        self._remember_agent(agent, agent_id)
        return stored, created

    def delete_summaries(self, agent: str, ids: Sequence[int]) -> int:
        if not ids:
            return 0

        def write(conn: Conn) -> int:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return 0
            cur = conn.execute("DELETE FROM summaries WHERE agent_id = %s AND id = ANY(%s)", (agent_id, list(ids)))
            return int(cur.rowcount)

        return self._run("could not delete summaries", write)


def _detach_memories(conn: Conn, thread_ids: Sequence[int]) -> None:
    """Keep the agent's memories (summaries of kind 'memory' last until purged) when their thread goes."""
    if thread_ids:
        conn.execute(
            "UPDATE summaries SET thread_id = NULL WHERE kind = 'memory' AND thread_id = ANY(%s)", (list(thread_ids),)
        )
