"""The server backend: PostgreSQL with pgvector, for several processes and hosts sharing one memory.

Connections come from a ``psycopg_pool.ConnectionPool``. Every write is one explicit transaction
(``with pool.connection() as conn, conn.transaction():``); a deadlock or serialization failure reruns
the whole transaction with exponential backoff and jitter, and :class:`~memlane.errors.DatabaseLocked`
is raised when the retries run out. Single-statement reads run outside a transaction block (autocommit
connections), so they cost one round trip.

Sequence numbers: appending to a thread upserts the thread row with ``INSERT … ON CONFLICT DO UPDATE SET
next_seq = next_seq + n``. That statement creates the row or row-locks the existing one (``FOR NO KEY
UPDATE`` strength, so foreign-key checks of other writers do not wait) and allocates the range in one
step; the lock is held to commit, so concurrent writers to one thread queue up, and a rolled-back
append gives its numbers back. Sequence numbers stay gap-free and unique across processes.

Search: full text through generated ``tsvector`` columns (see :mod:`memlane.store.postgres_schema`),
vectors through HNSW indexes with pgvector's iterative index scans, so a filtered query keeps scanning
until it has ``limit`` rows the scope allows. Scope filters are always in the query's WHERE clause.
"""

from __future__ import annotations

import random
import struct
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import numpy as np
import psycopg
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.adapt import AdaptersMap, Dumper
from psycopg.pq import Format
from psycopg.types.json import Json
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from ..errors import Conflict, DatabaseLocked, InvalidInput, NotFound, StorageError
from ..types import Fact, FactChange, Job, Message, Summary, Thread, UsageRecord, UsageTotals
from ..validation import NewFact, NewJob, NewMessage, NewSummary
from ._common import dump_json, fmt_time, query_terms
from .base import Candidate, FactFilter, Scope, Store, StoreStatus
from .postgres_schema import MIGRATIONS, VECTOR_TABLES

__all__ = ["PostgresStore"]

T = TypeVar("T")
Conn = psycopg.Connection[tuple[Any, ...]]

# Advisory lock keys ("memlane" + a number), taken for the length of one transaction.
_MIGRATE_LOCK = 0x6D656D6C616E6501
_VECTOR_LOCK = 0x6D656D6C616E6502
_PGVECTOR_MIN = (0, 8)  # iterative index scans
_RETRYABLE = (pg_errors.DeadlockDetected, pg_errors.SerializationFailure)
_HNSW_MAX_DIM = 2000  # pgvector cannot index more dimensions of a ``vector`` column
_FTS_CONFIG = "memlane_english"
_SEARCH_TABLES = {"message": ("messages", "m"), "fact": ("facts", "f"), "summary": ("summaries", "s")}

_MESSAGE_SELECT = (
    "SELECT m.id, a.name, t.key, m.seq, m.role, m.content, m.user_id, m.name, m.tool_calls, m.tool_call_id, "
    "m.token_count, m.metadata, m.created_at, m.summarized "
    "FROM messages m JOIN threads t ON t.id = m.thread_id JOIN agents a ON a.id = m.agent_id"
)
_FACT_SELECT = (
    "SELECT f.id, a.name, f.content, f.category, f.importance, f.owner, f.subject, f.visibility, "
    "f.source_thread, f.source_from_seq, f.source_to_seq, f.metadata, f.created_at, f.updated_at, "
    "f.last_accessed_at, f.access_count, f.status, f.valid_from, f.invalid_at, f.superseded_by "
    "FROM facts f JOIN agents a ON a.id = f.agent_id"
)
_SUMMARY_SELECT = (
    "SELECT s.id, a.name, t.key, s.kind, s.content, s.from_seq, s.to_seq, s.owner, s.method, s.metadata, "
    "s.created_at FROM summaries s JOIN agents a ON a.id = s.agent_id LEFT JOIN threads t ON t.id = s.thread_id"
)
_JOB_SELECT = (
    "SELECT j.id, a.name, j.kind, j.payload, j.status, j.attempts, j.max_attempts, j.run_after, j.lease_owner, "
    "j.lease_expires_at, j.last_error, j.created_at, j.updated_at FROM jobs j JOIN agents a ON a.id = j.agent_id"
)
_THREAD_SELECT = (
    "SELECT t.id, a.name, t.key, t.status, t.system_prompt, t.metadata, t.created_at, t.updated_at, "
    "t.ended_at, t.message_count, ARRAY(SELECT u.user_id FROM thread_users u WHERE u.thread_id = t.id "
    'ORDER BY u.user_id COLLATE "C") FROM threads t JOIN agents a ON a.id = t.agent_id'
)
# Fields of a fact a caller may change.
_FACT_FIELDS = frozenset(
    {
        "content",
        "category",
        "importance",
        "subject",
        "visibility",
        "owner",
        "metadata",
        "status",
        "valid_from",
        "invalid_at",
        "superseded_by",
    }
)
# ts_rank weights in the order {D, C, B, A}: content (A) counts fully, speaker/subject (B) half, as the
# SQLite backend's bm25 column weights do.
_RANK_WEIGHTS = [0.0, 0.0, 0.5, 1.0]


class _Vector:
    """A float32 vector in pgvector's binary wire format (dimension, unused, big-endian floats)."""

    __slots__ = ("data",)

    def __init__(self, values: np.ndarray) -> None:
        flat = np.asarray(values, dtype=">f4").ravel()
        self.data = struct.pack(">HH", flat.size, 0) + flat.tobytes()


class _VectorDumper(Dumper):
    """Sends a :class:`_Vector` as a binary parameter; the server infers ``vector`` from ``%s::vector``."""

    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        return cast(_Vector, obj).data


def _safe_location(url: str) -> str:
    """The URL without its password (it is shown by ``memlane db status`` and in reprs)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        userinfo, _, host = netloc.rpartition("@")
        netloc = f"{userinfo.split(':', 1)[0]}:***@{host}"
    query = urlencode([(k, "***" if k == "password" else v) for k, v in parse_qsl(parts.query)])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _json(value: Any) -> Json:
    """A value for a ``json`` column, written compactly (as the SQLite backend stores it)."""
    return Json(value, dumps=dump_json)


def _utc(value: datetime) -> datetime:
    """A timestamptz as psycopg returns it (in the session's zone) in UTC, as the SQLite backend has it."""
    return value.astimezone(UTC)


def _utc_or_none(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def _limit(value: int | None) -> int | None:
    """SQLite reads a negative LIMIT as "no limit"; PostgreSQL rejects it. Keep SQLite's meaning."""
    return None if value is None or value < 0 else value


def _tsquery_text(terms: Sequence[str]) -> str:
    """The terms OR-ed as ``to_tsquery`` input, each quoted (a term of several words is a phrase)."""
    return " | ".join("'" + term.replace("\\", "\\\\").replace("'", "''") + "'" for term in terms)


class _Where:
    """AND-ed SQL conditions with their positional parameters, built from fixed fragments only."""

    def __init__(self) -> None:
        self.parts: list[sql.Composable] = []
        self.params: list[Any] = []

    def add(self, fragment: sql.Composable | str, *params: Any) -> None:
        self.parts.append(sql.SQL(fragment) if isinstance(fragment, str) else fragment)
        self.params.extend(params)

    def time_range(self, column: str, scope: Scope) -> None:
        if scope.since is not None:
            self.add(sql.SQL("{} >= %s").format(sql.SQL(column)), scope.since)
        if scope.until is not None:
            self.add(sql.SQL("{} < %s").format(sql.SQL(column)), scope.until)

    def sql(self) -> sql.Composable:
        return sql.SQL(" AND ").join(self.parts) if self.parts else sql.SQL("TRUE")


class PostgresStore(Store):
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
        adapters = AdaptersMap(psycopg.adapters)
        adapters.register_dumper(_Vector, _VectorDumper)
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
            check=ConnectionPool.check_connection,
            name="memlane",
        )
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
        except PoolTimeout as exc:
            self._pool.close()
            raise StorageError(f"cannot connect to {self.location}: {exc}") from exc

    # -- connections and transactions ---------------------------------------------------------------
    def _run(self, what: str, fn: Callable[[Conn], T], *, write: bool = True) -> T:
        """Run ``fn`` on a pooled connection, in a transaction if ``write``; map database errors.

        Deadlocks and serialization failures rerun the transaction with exponential backoff.
        """
        delay = 0.01
        attempt = 0
        while True:
            try:
                with self._pool.connection() as conn:
                    if not write:
                        return fn(conn)
                    with conn.transaction():
                        return fn(conn)
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
        encoding = _one(conn, "SHOW server_encoding")[0]
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
            row = _one(conn, "SELECT coalesce(max(extversion), '') FROM pg_extension WHERE extname = 'vector'")
            if tuple(int(p) for p in str(row[0]).split(".")[:2] if p.isdigit()) < _PGVECTOR_MIN:
                raise StorageError(f"{self.location} has pgvector {row[0]!r}; memlane needs pgvector 0.8 or newer")

    def schema_version(self) -> int:
        return self._run(
            "schema version",
            lambda conn: int(_one(conn, "SELECT coalesce(max(version), 0) FROM schema_migrations")[0]),
            write=False,
        )

    def status(self, agent: str | None = None) -> StoreStatus:
        def read(conn: Conn) -> StoreStatus:
            counts: dict[str, int] = {}
            if agent is None:
                for table in ("agents", "threads", "messages", "facts", "summaries", "jobs"):
                    query = sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
                    counts[table] = int(_one(conn, query)[0])
            else:
                agent_id = self._agent_id(conn, agent)
                for table in ("threads", "messages", "facts", "summaries", "jobs"):
                    query = sql.SQL("SELECT count(*) FROM {} WHERE agent_id = %s").format(sql.Identifier(table))
                    counts[table] = int(_one(conn, query, (agent_id,))[0]) if agent_id else 0
            meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
            version = int(_one(conn, "SELECT coalesce(max(version), 0) FROM schema_migrations")[0])
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
            row = _one(conn, "SELECT id FROM agents WHERE name = %s", (agent,))
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
            row = _one(
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
            _insert_jobs(conn, agent_id, jobs, now)
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
            row = conn.execute(_THREAD_SELECT + " WHERE t.agent_id = %s AND t.key = %s", (agent_id, thread)).fetchone()
            return None if row is None else _thread(row)

        return self._run("read thread", read, write=False)

    def list_threads(
        self, agent: str, *, user: str | None, status: str | None, limit: int | None, offset: int
    ) -> list[Thread]:
        def read(conn: Conn) -> list[Thread]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            where = _Where()
            where.add("t.agent_id = %s", agent_id)
            if user is not None:
                mine = "SELECT thread_id FROM thread_users WHERE agent_id = %s AND user_id = %s"
                where.add("t.id IN (" + mine + ")", agent_id, user)
            if status is not None:
                where.add("t.status = %s", status)
            query = sql.SQL("{} WHERE {} ORDER BY t.updated_at DESC, t.id DESC LIMIT %s OFFSET %s").format(
                sql.SQL(_THREAD_SELECT),
                where.sql(),
            )
            rows = conn.execute(query, [*where.params, _limit(limit), max(0, offset)]).fetchall()
            return [_thread(row) for row in rows]

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
            params = (agent_id, thread, now, now, system_prompt, _json(metadata or {}), status or "open", ended_at)
            thread_id = int(_one(conn, query, params)[0])
            _insert_jobs(conn, agent_id, jobs, now)
            return agent_id, _thread(_one(conn, _THREAD_SELECT + " WHERE t.id = %s", (thread_id,)))

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
            where = _Where()
            where.add("t.agent_id = %s AND t.key = %s", agent_id, thread)
            if before_seq is not None:
                where.add("m.seq < %s", before_seq)
            if after_seq is not None:
                where.add("m.seq > %s", after_seq)
            if unsummarized_only:
                where.add("NOT m.summarized")
            if limit is None:
                query = sql.SQL("{} WHERE {} ORDER BY m.seq").format(sql.SQL(_MESSAGE_SELECT), where.sql())
                return [_message(r) for r in conn.execute(query, where.params)]
            query = sql.SQL("{} WHERE {} ORDER BY m.seq DESC LIMIT %s").format(sql.SQL(_MESSAGE_SELECT), where.sql())
            rows = conn.execute(query, [*where.params, _limit(limit)]).fetchall()
            return [_message(r) for r in reversed(rows)]

        return self._run("read messages", read, write=False)

    def get_messages(self, agent: str, ids: Sequence[int]) -> list[Message]:
        if not ids:
            return []

        def read(conn: Conn) -> list[Message]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            query = _MESSAGE_SELECT + " WHERE m.agent_id = %s AND m.id = ANY(%s) ORDER BY m.id"
            return [_message(r) for r in conn.execute(query, (agent_id, list(ids)))]

        return self._run("read messages", read, write=False)

    def message_windows(self, agent: str, ids: Sequence[int], *, before: int, after: int) -> list[Message]:
        if not ids:
            return []
        query = sql.SQL(
            "{} WHERE m.id IN (SELECT w.id FROM messages x JOIN messages w ON w.thread_id = x.thread_id "
            "AND w.seq BETWEEN x.seq - %s AND x.seq + %s WHERE x.agent_id = %s AND x.id = ANY(%s)) "
            'ORDER BY t.key COLLATE "C", m.seq'
        ).format(sql.SQL(_MESSAGE_SELECT))

        def read(conn: Conn) -> list[Message]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            rows = conn.execute(query, (max(before, 0), max(after, 0), agent_id, list(ids)))
            return [_message(r) for r in rows]

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

    # -- facts --------------------------------------------------------------------------------------
    def add_fact(
        self,
        agent: str,
        fact: NewFact,
        *,
        actor: str | None,
        now: datetime,
        vector: np.ndarray | None = None,
        jobs: Sequence[NewJob] = (),
    ) -> Fact:
        def write(conn: Conn) -> tuple[int, Fact]:
            agent_id = self._ensure_agent(conn, agent, now)
            source_thread_id = None
            if fact.source_thread is not None:
                source_thread_id = self._thread_id(conn, agent_id, fact.source_thread)
            fact_id = int(
                _one(
                    conn,
                    "INSERT INTO facts (agent_id, owner, subject, category, content, importance, visibility, "
                    "source_thread_id, source_thread, source_from_seq, source_to_seq, metadata, valid_from, "
                    "created_at, updated_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
                    (
                        agent_id,
                        fact.owner,
                        fact.subject,
                        fact.category,
                        fact.content,
                        fact.importance,
                        fact.visibility,
                        source_thread_id,
                        fact.source_thread,
                        fact.source_from_seq,
                        fact.source_to_seq,
                        _json(fact.metadata),
                        now,
                        now,
                        now,
                    ),
                )[0]
            )
            _history(conn, agent_id, fact_id, "create", actor, None, fact.content, {}, now)
            if vector is not None:
                self._put_vectors(conn, agent_id, "fact", [fact_id], np.asarray(vector)[None, :])
            _insert_jobs(conn, agent_id, jobs, now)
            return agent_id, _fact(_one(conn, _FACT_SELECT + " WHERE f.id = %s", (fact_id,)))

        agent_id, stored = self._run("could not store the fact", write)
        self._remember_agent(agent, agent_id)
        return stored

    def get_facts(self, agent: str, ids: Sequence[int]) -> list[Fact]:
        if not ids:
            return []

        def read(conn: Conn) -> list[Fact]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            query = _FACT_SELECT + " WHERE f.agent_id = %s AND f.id = ANY(%s) ORDER BY f.id"
            return [_fact(r) for r in conn.execute(query, (agent_id, list(ids)))]

        return self._run("read facts", read, write=False)

    @staticmethod
    def _fact_where(agent_id: int, flt: FactFilter) -> _Where:
        """The facts a filter allows, as in the SQLite backend (``f`` is the facts table)."""
        where = _Where()
        where.add("f.agent_id = %s", agent_id)
        if flt.owned_only:
            if flt.user is None:
                where.add("f.owner IS NULL")
            else:
                where.add("f.owner = %s", flt.user)
        elif not flt.all_users:
            if flt.user is None:
                where.add("(f.owner IS NULL OR f.visibility = 'shared')")
            else:
                where.add("(f.owner IS NULL OR f.owner = %s OR f.visibility = 'shared')", flt.user)
        for column, value in (
            ("subject", flt.subject),
            ("category", flt.category),
            ("visibility", flt.visibility),
            ("source_thread", flt.thread),
        ):
            if value is not None:
                where.add(sql.SQL("{} = %s").format(sql.Identifier("f", column)), value)
        if not flt.include_superseded:
            where.add("f.status = 'active'")
        return where

    def list_facts(self, agent: str, flt: FactFilter, *, limit: int | None, offset: int = 0) -> list[Fact]:
        def read(conn: Conn) -> list[Fact]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            where = self._fact_where(agent_id, flt)
            query = sql.SQL(
                "{} WHERE {} ORDER BY f.importance DESC, f.updated_at DESC, f.id DESC LIMIT %s OFFSET %s"
            ).format(sql.SQL(_FACT_SELECT), where.sql())
            return [_fact(r) for r in conn.execute(query, [*where.params, _limit(limit), max(0, offset)])]

        return self._run("list facts", read, write=False)

    def update_fact(
        self,
        agent: str,
        fact_id: int,
        changes: dict[str, Any],
        *,
        actor: str | None,
        now: datetime,
        action: str,
        vector: np.ndarray | None = None,
        jobs: Sequence[NewJob] = (),
    ) -> Fact:
        unknown = set(changes) - _FACT_FIELDS
        if unknown:
            raise InvalidInput(f"cannot change fact fields: {', '.join(sorted(unknown))}")

        def write(conn: Conn) -> Fact:
            agent_id = self._agent_id(conn, agent)
            row = None
            if agent_id is not None:
                query = _FACT_SELECT + " WHERE f.agent_id = %s AND f.id = %s FOR UPDATE OF f"
                row = conn.execute(query, (agent_id, fact_id)).fetchone()
            if row is None or agent_id is None:
                raise NotFound(f"no fact {fact_id} in agent {agent!r}")
            before = _fact(row)
            stored: dict[str, Any] = {}
            diff: dict[str, Any] = {}
            for key, value in changes.items():
                old = getattr(before, key)
                if old == value:
                    continue
                diff[key] = {"old": _jsonable(old), "new": _jsonable(value)}
                stored[key] = _json(value) if key == "metadata" else value
            if stored:
                sets = sql.SQL(", ").join(sql.SQL("{} = %s").format(sql.Identifier(key)) for key in stored)
                conn.execute(
                    sql.SQL("UPDATE facts SET {}, updated_at = %s WHERE id = %s").format(sets),
                    (*stored.values(), now, fact_id),
                )
                new_content = changes.get("content", before.content)
                _history(conn, agent_id, fact_id, action, actor, before.content, new_content, diff, now)
            if vector is not None:
                self._put_vectors(conn, agent_id, "fact", [fact_id], np.asarray(vector)[None, :])
            _insert_jobs(conn, agent_id, jobs, now)
            return _fact(_one(conn, _FACT_SELECT + " WHERE f.id = %s", (fact_id,)))

        return self._run("could not update the fact", write)

    def delete_facts(
        self,
        agent: str,
        ids: Sequence[int],
        *,
        actor: str | None,
        now: datetime,
        purge_history: bool,
        jobs: Sequence[NewJob] = (),
    ) -> int:
        if not ids:
            return 0

        def write(conn: Conn) -> int:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return 0
            rows = conn.execute(
                "DELETE FROM facts WHERE agent_id = %s AND id = ANY(%s) RETURNING id, content", (agent_id, list(ids))
            ).fetchall()
            contents = {int(r[0]): r[1] for r in rows}
            done = [i for i in dict.fromkeys(ids) if i in contents]
            if purge_history:
                conn.execute("DELETE FROM fact_history WHERE agent_id = %s AND fact_id = ANY(%s)", (agent_id, done))
            else:
                for fact_id in done:
                    _history(conn, agent_id, fact_id, "delete", actor, contents[fact_id], None, {}, now)
            if done:
                _insert_jobs(conn, agent_id, jobs, now)
            return len(done)

        return self._run("could not delete facts", write)

    def fact_history(self, agent: str, fact_id: int) -> list[FactChange]:
        def read(conn: Conn) -> list[FactChange]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            rows = conn.execute(
                "SELECT id, fact_id, action, actor, old_content, new_content, changes, at FROM fact_history "
                "WHERE agent_id = %s AND fact_id = %s ORDER BY id",
                (agent_id, fact_id),
            )
            return [
                FactChange(
                    id=r[0],
                    fact_id=r[1],
                    action=r[2],
                    actor=r[3],
                    old_content=r[4],
                    new_content=r[5],
                    changes=r[6],
                    at=_utc(r[7]),
                )
                for r in rows
            ]

        return self._run("read fact history", read, write=False)

    def touch_facts(self, agent: str, ids: Sequence[int], now: datetime) -> None:
        if not ids:
            return

        def write(conn: Conn) -> None:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return
            # Lock in id order so that two recalls touching the same facts cannot deadlock.
            conn.execute(
                "UPDATE facts SET last_accessed_at = %s, access_count = access_count + 1 WHERE id IN "
                "(SELECT id FROM facts WHERE agent_id = %s AND id = ANY(%s) ORDER BY id FOR NO KEY UPDATE)",
                (now, agent_id, list(ids)),
            )

        self._run("could not record fact access", write)

    # -- summaries ----------------------------------------------------------------------------------
    def summaries(self, agent: str, *, thread: str | None, kind: str | None, limit: int | None) -> list[Summary]:
        def read(conn: Conn) -> list[Summary]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            where = _Where()
            where.add("s.agent_id = %s", agent_id)
            if thread is not None:
                where.add("t.key = %s", thread)
            if kind is not None:
                where.add("s.kind = %s", kind)
            query = sql.SQL("{} WHERE {} ORDER BY s.created_at DESC, s.id DESC LIMIT %s").format(
                sql.SQL(_SUMMARY_SELECT),
                where.sql(),
            )
            return [_summary(r) for r in conn.execute(query, [*where.params, _limit(limit)])]

        return self._run("read summaries", read, write=False)

    def get_summaries(self, agent: str, ids: Sequence[int]) -> list[Summary]:
        if not ids:
            return []

        def read(conn: Conn) -> list[Summary]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            query = _SUMMARY_SELECT + " WHERE s.agent_id = %s AND s.id = ANY(%s) ORDER BY s.id"
            return [_summary(r) for r in conn.execute(query, (agent_id, list(ids)))]

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
                    _one(
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
                            _json(summary.metadata),
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
            stored = _summary(_one(conn, _SUMMARY_SELECT + " WHERE s.id = %s", (summary_id,)))
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

    # -- vectors ------------------------------------------------------------------------------------
    def _ensure_dim(self, conn: Conn, dim: int) -> None:
        """Check the dimension of new vectors; on first use, type the vector columns and build the indexes.

        Writers of vectors hold the vector advisory lock shared until they commit; :meth:`drop_vectors`
        and the first writer (which changes the columns) hold it exclusively. So no vector is written
        under a dimension that is being dropped, and racing first writers set the dimension once.
        """
        row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
        if row is not None:
            conn.execute("SELECT pg_advisory_xact_lock_shared(%s)", (_VECTOR_LOCK,))
            row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
        if row is None:  # first vectors (or dropped meanwhile): set up under the exclusive lock
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_VECTOR_LOCK,))
            row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
        if row is not None:
            if int(row[0]) != dim:
                raise InvalidInput(f"vectors have dimension {dim}, the store holds dimension {row[0]}")
            return
        for table, _, _ in VECTOR_TABLES.values():
            conn.execute(
                sql.SQL("ALTER TABLE {} ALTER COLUMN embedding TYPE vector({})").format(
                    sql.Identifier(table), sql.Literal(dim)
                )
            )
            if dim <= _HNSW_MAX_DIM:  # beyond it, searches scan exactly (still correct, slower)
                conn.execute(self._hnsw_index(table))
        conn.execute("INSERT INTO meta (key, value) VALUES ('embedding_dim', %s)", (str(dim),))

    def _hnsw_index(self, table: str) -> sql.Composed:
        """The statement that builds the HNSW index ``<table>_hnsw`` of a vector table."""
        return sql.SQL(
            "CREATE INDEX {} ON {} USING hnsw (embedding vector_cosine_ops) WITH (m = {}, ef_construction = {})"
        ).format(
            sql.Identifier(f"{table}_hnsw"),
            sql.Identifier(table),
            sql.Literal(self.hnsw_m),
            sql.Literal(self.hnsw_ef_construction),
        )

    def _put_vectors(self, conn: Conn, agent_id: int, kind: str, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Insert or replace the vectors of items known to belong to the agent."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(ids):
            raise InvalidInput("vectors must be a 2-d array with one row per item")
        self._ensure_dim(conn, int(vectors.shape[1]))
        table, key, _ = VECTOR_TABLES[kind]
        query = sql.SQL(
            "INSERT INTO {table} ({key}, agent_id, embedding) VALUES (%s, %s, %s::vector) "
            "ON CONFLICT ({key}) DO UPDATE SET embedding = excluded.embedding"
        ).format(table=sql.Identifier(table), key=sql.Identifier(key))
        with conn.cursor() as cur:
            cur.executemany(query, [(item_id, agent_id, _Vector(vectors[i])) for i, item_id in enumerate(ids)])

    def set_vectors(self, agent: str, kind: str, ids: Sequence[int], vectors: np.ndarray) -> None:
        if kind not in VECTOR_TABLES:
            raise InvalidInput(f"unknown kind {kind!r}")
        if len(vectors) != len(ids):
            raise InvalidInput(f"{len(vectors)} vectors for {len(ids)} items")
        _, _, items = VECTOR_TABLES[kind]

        if not ids:
            return

        def write(conn: Conn) -> None:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return
            query = sql.SQL("SELECT id FROM {} WHERE agent_id = %s AND id = ANY(%s)").format(sql.Identifier(items))
            found = {int(r[0]) for r in conn.execute(query, (agent_id, list(ids)))}
            keep = [i for i, item_id in enumerate(ids) if item_id in found]
            if keep:
                self._put_vectors(conn, agent_id, kind, [ids[i] for i in keep], np.asarray(vectors)[keep])

        self._run("could not store vectors", write)

    def items_without_vectors(self, kind: str, limit: int) -> list[Message | Fact | Summary]:
        if kind not in VECTOR_TABLES:
            raise InvalidInput(f"unknown kind {kind!r}")
        table, key, _ = VECTOR_TABLES[kind]
        select, alias = {
            "message": (_MESSAGE_SELECT, "m"),
            "fact": (_FACT_SELECT, "f"),
            "summary": (_SUMMARY_SELECT, "s"),
        }[kind]
        convert: Callable[[tuple[Any, ...]], Message | Fact | Summary] = _message
        if kind == "fact":
            convert = _fact
        elif kind == "summary":
            convert = _summary
        query = sql.SQL("{} WHERE NOT EXISTS (SELECT 1 FROM {} v WHERE v.{} = {}.id) ORDER BY {}.id LIMIT %s").format(
            sql.SQL(select),
            sql.Identifier(table),
            sql.Identifier(key),
            sql.Identifier(alias),
            sql.Identifier(alias),
        )

        def read(conn: Conn) -> list[Message | Fact | Summary]:
            return [convert(r) for r in conn.execute(query, (_limit(limit),))]

        return self._run("find items without vectors", read, write=False)

    def drop_vectors(self) -> int:
        def write(conn: Conn) -> int:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_VECTOR_LOCK,))
            conn.execute("DELETE FROM meta WHERE key IN ('embedding_dim', 'embedding_model')")
            count = 0
            for table, _, _ in VECTOR_TABLES.values():
                name = sql.Identifier(table)
                count += int(_one(conn, sql.SQL("SELECT count(*) FROM {}").format(name))[0])
                conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(f"{table}_hnsw")))
                conn.execute(sql.SQL("TRUNCATE {}").format(name))
                conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN embedding TYPE vector").format(name))
            return count

        return self._run("could not drop vectors", write)

    # Not part of the storage contract: bulk loads (``bench/backends.py``, large imports) insert vectors
    # far faster without the HNSW indexes, and one index build afterwards is faster than that many inserts.
    def drop_vector_indexes(self) -> int:
        """Drop the HNSW indexes, e.g. before a bulk load; returns how many there were.

        Until :meth:`build_vector_indexes` runs, vector searches scan exactly (correct, but slow on large
        stores) and new vectors do not rebuild the indexes.

        Raises:
            StorageError: the database failed.
        """

        def write(conn: Conn) -> int:
            conn.execute("SELECT pg_advisory_xact_lock_shared(%s)", (_VECTOR_LOCK,))
            dropped = 0
            for table, _, _ in VECTOR_TABLES.values():
                name = f"{table}_hnsw"
                if _one(conn, "SELECT to_regclass(%s) IS NOT NULL", (name,))[0]:
                    conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
                    dropped += 1
            return dropped

        return self._run("could not drop the vector indexes", write)

    def build_vector_indexes(self, *, maintenance_work_mem: str | None = None) -> int:
        """Build the HNSW indexes that are missing (with this store's ``hnsw_m`` and ``hnsw_ef_construction``);
        returns how many were built. Nothing is built before the store has seen vectors (their dimension
        is unknown until then) or when the dimension is above pgvector's HNSW limit of 2,000.

        ``maintenance_work_mem`` (e.g. ``"2GB"``) is used for this build only: a build whose graph fits in
        it is several times faster. The build blocks writes to the vector tables while it runs.

        Raises:
            StorageError: the database failed.
        """

        def write(conn: Conn) -> int:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_VECTOR_LOCK,))  # one builder at a time
            row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
            if row is None or int(row[0]) > _HNSW_MAX_DIM:
                return 0
            if maintenance_work_mem is not None:
                conn.execute("SELECT set_config('maintenance_work_mem', %s, true)", (maintenance_work_mem,))
            built = 0
            for table, _, _ in VECTOR_TABLES.values():
                name = f"{table}_hnsw"
                if _one(conn, "SELECT to_regclass(%s) IS NOT NULL", (name,))[0]:
                    continue
                conn.execute(self._hnsw_index(table))
                built += 1
            return built

        return self._run("could not build the vector indexes", write)

    def vector_search(self, agent: str, query: np.ndarray, scope: Scope, limit: int) -> list[Candidate]:
        def read(conn: Conn) -> list[Candidate]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None or limit <= 0:
                return []
            row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
            if row is None:
                return []
            dim = int(row[0])
            vector = np.asarray(query, dtype=np.float32)
            if vector.shape != (dim,):
                raise InvalidInput(f"query vector has shape {vector.shape}, the store holds dimension {dim}")
            branches, params = self._vector_branches(conn, agent_id, _Vector(vector), scope, limit)
            if not branches:
                return []
            # Iterative index scans keep the HNSW scan going until the filters let `limit` rows through;
            # relaxed order is re-sorted by the outer ORDER BY.
            ef_search = min(1000, max(self.hnsw_ef_search, limit))
            conn.execute(
                "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                "set_config('hnsw.ef_search', %s, true)",
                (str(ef_search),),
            )
            statement = sql.SQL("SELECT kind, id, distance FROM ({}) r ORDER BY distance, kind, id LIMIT %s").format(
                sql.SQL(" UNION ALL ").join(branches)
            )
            rows = conn.execute(statement, [*params, limit]).fetchall()
            return [Candidate(cast(Any, r[0]), int(r[1]), 1.0 - float(r[2]), "vector") for r in rows]

        return self._run("vector search", read)

    def _vector_branches(
        self, conn: Conn, agent_id: int, vector: _Vector, scope: Scope, limit: int
    ) -> tuple[list[sql.Composable], list[Any]]:
        """One ``(SELECT … ORDER BY distance LIMIT k)`` per kind in scope, with the scope in its WHERE."""
        thread_id = None
        kinds = [k for k in ("message", "fact", "summary") if k in scope.kinds]
        if scope.thread is not None:
            thread_id = self._thread_id(conn, agent_id, scope.thread)
            if thread_id is None:  # as in SQLite: no conversation items, facts still apply
                kinds = [k for k in kinds if k == "fact"]
        branches: list[sql.Composable] = []
        params: list[Any] = []
        for kind in kinds:
            table, key, items = VECTOR_TABLES[kind]
            alias = _SEARCH_TABLES[kind][1]
            where = self._scope_where(kind, agent_id, thread_id, scope)
            branches.append(
                sql.SQL(
                    "(SELECT {kind}::text AS kind, v.{key} AS id, v.embedding <=> %s::vector AS distance "
                    "FROM {table} v JOIN {items} {alias} ON {alias}.id = v.{key} "
                    "WHERE v.agent_id = %s AND {where} ORDER BY distance LIMIT %s)"
                ).format(
                    kind=sql.Literal(kind),
                    key=sql.Identifier(key),
                    table=sql.Identifier(table),
                    items=sql.Identifier(items),
                    alias=sql.Identifier(alias),
                    where=where.sql(),
                )
            )
            params += [vector, agent_id, *where.params, limit]
        return branches, params

    def _scope_where(self, kind: str, agent_id: int, thread_id: int | None, scope: Scope) -> _Where:
        """The scope of one kind as conditions on its table (aliases m, f, s), as the SQLite backend has it.

        Messages: the thread's, else those of the user's threads, else the agent's. Facts: see
        :meth:`_fact_where` (threads do not narrow them). Summaries: a thread scope sees that thread's
        owner-less ones and the user's own; a user sees their own and the owner-less ones of their threads
        or of no thread (the agent's memories); without a user only owner-less ones are visible.
        """
        if kind == "fact":
            where = self._fact_where(agent_id, FactFilter(user=scope.user, include_superseded=scope.include_superseded))
            where.time_range("f.created_at", scope)
            return where
        where = _Where()
        mine = "SELECT thread_id FROM thread_users WHERE agent_id = %s AND user_id = %s"
        if kind == "message":
            where.add("m.agent_id = %s", agent_id)
            if thread_id is not None:
                where.add("m.thread_id = %s", thread_id)
            elif scope.user is not None:
                where.add("m.thread_id IN (" + mine + ")", agent_id, scope.user)
            where.time_range("m.created_at", scope)
            return where
        where.add("s.agent_id = %s", agent_id)
        if thread_id is not None:
            where.add("s.thread_id = %s AND (s.owner IS NULL OR s.owner = %s)", thread_id, scope.user)
        elif scope.user is not None:
            where.add(
                "(s.owner = %s OR (s.owner IS NULL AND (s.thread_id IS NULL OR s.thread_id IN (" + mine + "))))",
                scope.user,
                agent_id,
                scope.user,
            )
        else:
            where.add("s.owner IS NULL")
        where.time_range("s.created_at", scope)
        return where

    # -- search -------------------------------------------------------------------------------------
    def keyword_search(self, agent: str, query: str, scope: Scope, limit: int) -> list[Candidate]:
        terms = query_terms(query)
        if not terms or limit <= 0:
            return []
        text = _tsquery_text(terms)

        def read(conn: Conn) -> list[Candidate]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            thread_id = None
            if scope.thread is not None:
                thread_id = self._thread_id(conn, agent_id, scope.thread)
                if thread_id is None:
                    return []
            branches: list[sql.Composable] = []
            params: list[Any] = []
            for order, kind in enumerate(("message", "fact", "summary")):
                if kind not in scope.kinds:
                    continue
                table, alias = _SEARCH_TABLES[kind]
                where = self._scope_where(kind, agent_id, thread_id, scope)
                branches.append(
                    sql.SQL(
                        "(SELECT {order} AS kind_order, {kind}::text AS kind, {alias}.id, "
                        "ts_rank(%s::float4[], {alias}.search, q.query, 1) AS rank "
                        "FROM {table} {alias}, to_tsquery({config}::regconfig, %s) q(query) "
                        "WHERE {alias}.search @@ q.query AND {where} ORDER BY rank DESC, {alias}.id LIMIT %s)"
                    ).format(
                        order=sql.Literal(order),
                        kind=sql.Literal(kind),
                        alias=sql.Identifier(alias),
                        table=sql.Identifier(table),
                        config=sql.Literal(_FTS_CONFIG),
                        where=where.sql(),
                    )
                )
                params += [_RANK_WEIGHTS, text, *where.params, limit]
            if not branches:
                return []
            statement = sql.SQL("SELECT kind, id, rank FROM ({}) r ORDER BY kind_order, rank DESC, id").format(
                sql.SQL(" UNION ALL ").join(branches)
            )
            return [
                Candidate(cast(Any, r[0]), int(r[1]), float(r[2]), "keyword") for r in conn.execute(statement, params)
            ]

        return self._run("keyword search", read, write=False)

    # -- jobs -------------------------------------------------------------------------------------------
    # Claims lock the rows they lease with FOR UPDATE SKIP LOCKED: concurrent workers take different jobs
    # instead of queueing behind each other, and never the same one.
    def enqueue_jobs(self, agent: str, jobs: Sequence[NewJob], now: datetime) -> list[Job]:
        if not jobs:
            return []

        def write(conn: Conn) -> tuple[int, list[Job]]:
            agent_id = self._ensure_agent(conn, agent, now)
            return agent_id, _jobs_by_id(conn, _insert_jobs(conn, agent_id, jobs, now))

        agent_id, created = self._run("could not queue jobs", write)
        self._remember_agent(agent, agent_id)
        return created

    def claim_jobs(
        self, worker: str, now: datetime, *, lease_seconds: float, limit: int, kinds: Sequence[str] | None = None
    ) -> list[Job]:
        lease_until = now + timedelta(seconds=lease_seconds)
        where = _Where()
        where.add(
            "((status = 'pending' AND run_after <= %s) OR (status = 'running' AND lease_expires_at <= %s))", now, now
        )
        if kinds:
            where.add("kind = ANY(%s)", list(kinds))
        query = sql.SQL(
            "UPDATE jobs SET status = 'running', lease_owner = %s, lease_expires_at = %s, attempts = attempts + 1, "
            "dedupe_key = NULL, updated_at = %s WHERE id IN (SELECT id FROM jobs WHERE {} ORDER BY run_after, id "
            "LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING id"
        ).format(where.sql())

        def write(conn: Conn) -> list[Job]:
            rows = conn.execute(query, [worker, lease_until, now, *where.params, _limit(limit)]).fetchall()
            return _jobs_by_id(conn, [int(r[0]) for r in rows])

        return self._run("could not claim jobs", write)

    def complete_job(self, job_id: int, worker: str, now: datetime) -> bool:
        def write(conn: Conn) -> bool:
            cur = conn.execute(
                "UPDATE jobs SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, last_error = NULL, "
                "updated_at = %s WHERE id = %s AND status = 'running' AND lease_owner = %s",
                (now, job_id, worker),
            )
            return cur.rowcount > 0

        return self._run("could not complete the job", write)

    def fail_job(self, job_id: int, worker: str, error: str, now: datetime, retry_at: datetime | None) -> Job | None:
        def write(conn: Conn) -> Job | None:
            row = conn.execute(
                "SELECT attempts, max_attempts FROM jobs WHERE id = %s AND status = 'running' AND lease_owner = %s "
                "FOR UPDATE",
                (job_id, worker),
            ).fetchone()
            if row is None:
                return None
            dead = retry_at is None or row[0] >= row[1]
            conn.execute(
                "UPDATE jobs SET status = %s, run_after = %s, lease_owner = NULL, lease_expires_at = NULL, "
                "last_error = %s, updated_at = %s WHERE id = %s",
                ("dead" if dead else "pending", retry_at or now, error[:2000], now, job_id),
            )
            return _jobs_by_id(conn, [job_id])[0]

        return self._run("could not record the job failure", write)

    def defer_job(self, job_id: int, worker: str, until: datetime, reason: str) -> bool:
        def write(conn: Conn) -> bool:
            cur = conn.execute(
                "UPDATE jobs SET status = 'pending', run_after = %s, lease_owner = NULL, lease_expires_at = NULL, "
                "attempts = greatest(attempts - 1, 0), last_error = %s, updated_at = %s "
                "WHERE id = %s AND status = 'running' AND lease_owner = %s",
                (until, reason[:2000], until, job_id, worker),
            )
            return cur.rowcount > 0

        return self._run("could not defer the job", write)

    def record_usage(self, records: Sequence[UsageRecord]) -> None:
        if not records:
            return

        def write(conn: Conn) -> None:
            rows = [
                (
                    self._ensure_agent(conn, r.agent, r.at),
                    r.operation,
                    r.model,
                    r.prompt_tokens,
                    r.completion_tokens,
                    r.latency_s * 1000,
                    r.ok,
                    r.error,
                    r.at,
                )
                for r in records
            ]
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO usage_events (agent_id, operation, model, prompt_tokens, completion_tokens, "
                    "latency_ms, ok, error, at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    rows,
                )

        self._run("could not record LLM usage", write)

    def usage_totals(self, agent: str | None, *, since: datetime | None = None) -> list[UsageTotals]:
        def read(conn: Conn) -> list[UsageTotals]:
            rows = conn.execute(
                "SELECT a.name, u.operation, count(*), count(*) FILTER (WHERE NOT u.ok), sum(u.prompt_tokens), "
                "sum(u.completion_tokens), sum(u.latency_ms), "
                "percentile_disc(0.95) WITHIN GROUP (ORDER BY u.latency_ms) "
                "FROM usage_events u JOIN agents a ON a.id = u.agent_id "
                "WHERE (%s::text IS NULL OR a.name = %s) AND (%s::timestamptz IS NULL OR u.at >= %s) "
                "GROUP BY a.name, u.operation ORDER BY a.name, u.operation",
                (agent, agent, since, since),
            ).fetchall()
            return [
                UsageTotals(
                    r[0],
                    r[1],
                    int(r[2]),
                    int(r[3]),
                    int(r[4]),
                    int(r[5]),
                    float(r[6]) / 1000,
                    None if r[7] is None else float(r[7]) / 1000,
                )
                for r in rows
            ]

        return self._run("could not read LLM usage", read, write=False)

    def list_jobs(
        self, agent: str | None, *, status: str | None = None, kind: str | None = None, limit: int | None = 100
    ) -> list[Job]:
        def read(conn: Conn) -> list[Job]:
            where = _Where()
            if agent is not None:
                agent_id = self._agent_id(conn, agent)
                if agent_id is None:
                    return []
                where.add("j.agent_id = %s", agent_id)
            if status is not None:
                where.add("j.status = %s", status)
            if kind is not None:
                where.add("j.kind = %s", kind)
            query = sql.SQL("{} WHERE {} ORDER BY j.id DESC LIMIT %s").format(sql.SQL(_JOB_SELECT), where.sql())
            return [_job(r) for r in conn.execute(query, [*where.params, _limit(limit)])]

        return self._run("list jobs", read, write=False)

    def retry_job(self, job_id: int, now: datetime) -> Job:
        def write(conn: Conn) -> Job:
            cur = conn.execute(
                "UPDATE jobs SET status = 'pending', attempts = 0, run_after = %s, lease_owner = NULL, "
                "lease_expires_at = NULL, updated_at = %s WHERE id = %s AND status IN ('dead', 'done')",
                (now, now, job_id),
            )
            if not cur.rowcount:
                raise NotFound(f"no dead or done job {job_id}")
            return _jobs_by_id(conn, [job_id])[0]

        return self._run("could not retry the job", write)

    # -- export / import ----------------------------------------------------------------------------
    def export_records(self, agent: str, threads: Sequence[str] | None) -> Iterator[dict[str, Any]]:
        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                agent_id = self._agent_id(conn, agent)
                if agent_id is None:
                    return
                yield from _export(conn, agent_id, None if threads is None else set(threads))
        except PoolClosed as exc:
            raise StorageError("the store is closed") from exc
        except psycopg.Error as exc:
            raise StorageError(f"export failed: {exc}") from exc

    def import_records(self, agent: str, records: Sequence[dict[str, Any]], *, on_conflict: str) -> dict[str, int]:
        def write(conn: Conn) -> tuple[int, dict[str, int]]:
            agent_id = self._ensure_agent(conn, agent, datetime.now(UTC))
            return agent_id, _Importer(conn, agent, agent_id, on_conflict).run(records)

        try:
            agent_id, counts = self._run("could not import", write)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InvalidInput):
                raise
            raise InvalidInput(f"malformed export record: missing or bad field {exc}") from exc
        self._remember_agent(agent, agent_id)
        return counts


# -- import -----------------------------------------------------------------------------------------
class _Importer:
    """Writes export records in one transaction, with the SQLite backend's semantics.

    Importing an export again is idempotent: with ``skip`` or ``replace``, facts (same owner, content and
    creation time), thread-less summaries (same kind, owner, content, time) and the history of deleted
    facts (same first change) that are already there are kept or replaced rather than doubled.

    Messages are buffered and written with one batched statement at the end (nothing reads them before);
    thread counters and participants are then derived from what was written. History entries are
    buffered too, and written before anything looks at the history.
    """

    def __init__(self, conn: Conn, agent: str, agent_id: int, on_conflict: str) -> None:
        self.conn, self.agent, self.agent_id, self.on_conflict = conn, agent, agent_id, on_conflict
        self.counts = {"threads": 0, "messages": 0, "facts": 0, "fact_changes": 0, "summaries": 0}
        self.thread_ids: dict[str, int] = {}
        self.skipped: set[str] = set()
        self.fact_ids: dict[int, int] = {}
        self.superseded: list[tuple[int, int]] = []
        self.messages: list[tuple[Any, ...]] = []
        self.changes: list[tuple[Any, ...]] = []
        self.skipped_refs: set[int] = set()
        self.first_change: dict[int, dict[str, Any]] = {}

    def run(self, records: Sequence[dict[str, Any]]) -> dict[str, int]:
        for rec in records:
            if rec["type"] == "fact_change":
                self.first_change.setdefault(rec["fact"], rec)
        handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "thread": self.thread,
            "message": self.message,
            "summary": self.summary,
            "deleted_fact": self.deleted_fact,
            "fact": self.fact,
            "fact_change": self.fact_change,
        }
        for rec in records:
            handler = handlers.get(rec["type"])
            if handler is None:
                raise InvalidInput(f"unknown record type {rec['type']!r}")
            handler(rec)
        self.flush()
        return self.counts

    def thread(self, rec: dict[str, Any]) -> None:
        key = rec["thread"]
        existing = self.conn.execute(
            "SELECT id FROM threads WHERE agent_id = %s AND key = %s FOR UPDATE", (self.agent_id, key)
        ).fetchone()
        if existing is not None:
            if self.on_conflict == "skip":
                self.skipped.add(key)
                return
            if self.on_conflict != "replace":
                raise Conflict(f"thread {key!r} already exists in agent {self.agent!r}")
            self.conn.execute("DELETE FROM threads WHERE id = %s", (existing[0],))
        row = self.conn.execute(
            "INSERT INTO threads (agent_id, key, status, system_prompt, metadata, created_at, updated_at, ended_at) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (agent_id, key) DO NOTHING RETURNING id",
            (
                self.agent_id,
                key,
                rec["status"],
                rec["system_prompt"],
                _json(rec["metadata"]),
                _time(rec["created_at"]),
                _time(rec["updated_at"]),
                _time(rec["ended_at"]),
            ),
        ).fetchone()
        if row is None:  # created by another writer since the check above
            raise Conflict(f"thread {key!r} already exists in agent {self.agent!r}")
        self.thread_ids[key] = int(row[0])
        self.counts["threads"] += 1

    def message(self, rec: dict[str, Any]) -> None:
        if rec["thread"] in self.skipped:
            return
        thread_id = self.thread_ids.get(rec["thread"])
        if thread_id is None:
            raise InvalidInput(f"message of thread {rec['thread']!r} comes before its thread")
        self.messages.append(
            (
                self.agent_id,
                thread_id,
                rec["seq"],
                rec["role"],
                rec["user"],
                rec["name"],
                rec["content"],
                None if rec["tool_calls"] is None else _json(rec["tool_calls"]),
                rec["tool_call_id"],
                rec["token_count"],
                _json(rec["metadata"]),
                _time(rec["created_at"]),
                bool(rec.get("summarized")),
            )
        )
        self.counts["messages"] += 1

    def summary(self, rec: dict[str, Any]) -> None:
        thread_id = None
        if rec["thread"] is not None:
            if rec["thread"] in self.skipped:
                return
            thread_id = self.thread_ids.get(rec["thread"])
        else:
            same = self.conn.execute(
                "SELECT id FROM summaries WHERE agent_id = %s AND thread_id IS NULL AND kind = %s "
                "AND owner IS NOT DISTINCT FROM %s AND content = %s AND created_at = %s",
                (self.agent_id, rec["kind"], rec["owner"], rec["content"], _time(rec["created_at"])),
            ).fetchone()
            if same is not None:
                if self.on_conflict == "error":
                    raise Conflict(f"summary {rec['content'][:40]!r} already exists")
                if self.on_conflict == "skip":
                    return
                self.conn.execute("DELETE FROM summaries WHERE id = %s", (same[0],))
        self.conn.execute(
            "INSERT INTO summaries (agent_id, thread_id, kind, owner, from_seq, to_seq, content, method, metadata, "
            "created_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            (
                self.agent_id,
                thread_id,
                rec["kind"],
                rec["owner"],
                rec["from_seq"],
                rec["to_seq"],
                rec["content"],
                rec["method"],
                _json(rec["metadata"]),
                _time(rec["created_at"]),
            ),
        )
        self.counts["summaries"] += 1

    def deleted_fact(self, rec: dict[str, Any]) -> None:
        ref = rec["ref"]
        first = self.first_change.get(ref)
        same = None
        if first is not None:
            self.flush_changes()
            same = self.conn.execute(
                "SELECT fact_id FROM fact_history WHERE agent_id = %s AND action = %s AND at = %s "
                "AND new_content IS NOT DISTINCT FROM %s AND old_content IS NOT DISTINCT FROM %s",
                (self.agent_id, first["action"], _time(first["at"]), first["new_content"], first["old_content"]),
            ).fetchone()
        if same is not None and self.on_conflict == "skip":
            self.fact_ids[ref] = int(same[0])
            self.skipped_refs.add(ref)
            return
        if same is not None and self.on_conflict == "replace":
            self.conn.execute("DELETE FROM fact_history WHERE agent_id = %s AND fact_id = %s", (self.agent_id, same[0]))
        # Keep the history of a deleted fact under an id no fact will ever get.
        row = _one(self.conn, "SELECT nextval(pg_get_serial_sequence('facts', 'id'))")
        self.fact_ids[ref] = int(row[0])

    def fact(self, rec: dict[str, Any]) -> None:
        # The same fact, even if edited since the export, is found by its 'create' history entry.
        first = self.first_change.get(rec["ref"])
        if first is not None and first["action"] == "create":
            self.flush_changes()
            same = self.conn.execute(
                "SELECT h.fact_id FROM fact_history h JOIN facts f ON f.id = h.fact_id WHERE h.agent_id = %s "
                "AND h.action = 'create' AND h.at = %s AND h.new_content IS NOT DISTINCT FROM %s "
                "AND f.owner IS NOT DISTINCT FROM %s",
                (self.agent_id, _time(first["at"]), first["new_content"], rec["owner"]),
            ).fetchone()
        else:
            same = self.conn.execute(
                "SELECT id FROM facts WHERE agent_id = %s AND owner IS NOT DISTINCT FROM %s AND content = %s "
                "AND created_at = %s",
                (self.agent_id, rec["owner"], rec["content"], _time(rec["created_at"])),
            ).fetchone()
        if same is not None:
            if self.on_conflict == "error":
                raise Conflict(f"fact {rec['content'][:40]!r} already exists in agent {self.agent!r}")
            if self.on_conflict == "skip":
                self.fact_ids[rec["ref"]] = int(same[0])
                self.skipped_refs.add(rec["ref"])
                return
            self.flush_changes()
            self.conn.execute("DELETE FROM facts WHERE id = %s", (same[0],))
            self.conn.execute("DELETE FROM fact_history WHERE agent_id = %s AND fact_id = %s", (self.agent_id, same[0]))
        source_thread_id = None
        if rec["source_thread"] is not None:
            row = self.conn.execute(
                "SELECT id FROM threads WHERE agent_id = %s AND key = %s", (self.agent_id, rec["source_thread"])
            ).fetchone()
            source_thread_id = row[0] if row else None
        row = _one(
            self.conn,
            "INSERT INTO facts (agent_id, owner, subject, category, content, importance, visibility, "
            "source_thread_id, source_thread, source_from_seq, source_to_seq, metadata, status, valid_from, "
            "invalid_at, created_at, updated_at, last_accessed_at, access_count) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
            (
                self.agent_id,
                rec["owner"],
                rec["subject"],
                rec["category"],
                rec["content"],
                rec["importance"],
                rec["visibility"],
                source_thread_id,
                rec["source_thread"],
                rec["source_from_seq"],
                rec["source_to_seq"],
                _json(rec["metadata"]),
                rec["status"],
                _time(rec["valid_from"]),
                _time(rec["invalid_at"]),
                _time(rec["created_at"]),
                _time(rec["updated_at"]),
                _time(rec["last_accessed_at"]),
                rec["access_count"],
            ),
        )
        self.fact_ids[rec["ref"]] = int(row[0])
        if rec["superseded_by"] is not None:
            self.superseded.append((int(row[0]), rec["superseded_by"]))
        self.counts["facts"] += 1

    def fact_change(self, rec: dict[str, Any]) -> None:
        if rec["fact"] in self.skipped_refs:
            return
        if rec["fact"] not in self.fact_ids:
            raise InvalidInput(f"fact_change refers to unknown fact ref {rec['fact']}")
        self.changes.append(
            (
                self.agent_id,
                self.fact_ids[rec["fact"]],
                rec["action"],
                rec["actor"],
                rec["old_content"],
                rec["new_content"],
                _json(rec["changes"]),
                _time(rec["at"]),
            )
        )
        self.counts["fact_changes"] += 1

    def flush_changes(self) -> None:
        """Write the buffered history entries."""
        if self.changes:
            with self.conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO fact_history (agent_id, fact_id, action, actor, old_content, new_content, changes, "
                    "at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
                    self.changes,
                )
            self.changes = []

    def flush(self) -> None:
        """Write the buffered rows, then derive thread counters and participants from them."""
        if self.messages:
            with self.conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO messages (agent_id, thread_id, seq, role, user_id, name, content, tool_calls, "
                    "tool_call_id, token_count, metadata, created_at, summarized) "
                    "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                    self.messages,
                )
        self.flush_changes()
        threads = list(self.thread_ids.values())
        if threads:
            self.conn.execute(
                "UPDATE threads t SET next_seq = greatest(t.next_seq, c.last + 1), message_count = c.n "
                "FROM (SELECT thread_id, max(seq) AS last, count(*) AS n FROM messages "
                "WHERE thread_id = ANY(%s) GROUP BY thread_id) c WHERE t.id = c.thread_id",
                (threads,),
            )
            self.conn.execute(
                "INSERT INTO thread_users (thread_id, user_id, agent_id) SELECT DISTINCT thread_id, user_id, agent_id "
                "FROM messages WHERE thread_id = ANY(%s) AND user_id IS NOT NULL ON CONFLICT DO NOTHING",
                (threads,),
            )
        for fact_id, ref in self.superseded:
            self.conn.execute("UPDATE facts SET superseded_by = %s WHERE id = %s", (self.fact_ids.get(ref), fact_id))


# -- export -----------------------------------------------------------------------------------------
def _export(conn: Conn, agent_id: int, wanted: set[str] | None) -> Iterator[dict[str, Any]]:
    """The agent's records in the SQLite backend's order and shape (times as :func:`fmt_time` text)."""
    thread_rows = conn.execute(_THREAD_SELECT + " WHERE t.agent_id = %s ORDER BY t.id", (agent_id,)).fetchall()
    for row in thread_rows:
        if wanted is not None and row[2] not in wanted:
            continue
        yield {
            "type": "thread",
            "thread": row[2],
            "status": row[3],
            "system_prompt": row[4],
            "metadata": row[5],
            "created_at": _text(row[6]),
            "updated_at": _text(row[7]),
            "ended_at": _text(row[8]),
        }
        for m in conn.execute(_MESSAGE_SELECT + " WHERE m.thread_id = %s ORDER BY m.seq", (row[0],)).fetchall():
            yield {
                "type": "message",
                "thread": m[2],
                "seq": m[3],
                "role": m[4],
                "content": m[5],
                "user": m[6],
                "name": m[7],
                "tool_calls": m[8],
                "tool_call_id": m[9],
                "metadata": m[11],
                "created_at": _text(m[12]),
                "summarized": bool(m[13]),
            }
        for s in conn.execute(_SUMMARY_SELECT + " WHERE s.thread_id = %s ORDER BY s.id", (row[0],)).fetchall():
            yield _summary_record(s)
    if wanted is None:
        query = _SUMMARY_SELECT + " WHERE s.agent_id = %s AND s.thread_id IS NULL ORDER BY s.id"
        for s in conn.execute(query, (agent_id,)).fetchall():
            yield _summary_record(s)
    yield from _export_facts(conn, agent_id, wanted)


def _export_facts(conn: Conn, agent_id: int, wanted: set[str] | None) -> Iterator[dict[str, Any]]:
    fact_rows = conn.execute(_FACT_SELECT + " WHERE f.agent_id = %s ORDER BY f.id", (agent_id,)).fetchall()
    if wanted is not None:
        fact_rows = [r for r in fact_rows if r[8] in wanted]
    history = conn.execute(
        "SELECT fact_id, action, actor, old_content, new_content, changes, at FROM fact_history "
        "WHERE agent_id = %s ORDER BY id",
        (agent_id,),
    ).fetchall()
    live = {int(r[0]): r for r in fact_rows}
    if wanted is not None:
        history = [h for h in history if h[0] in live]
    refs = {fid: i + 1 for i, fid in enumerate(sorted(set(live) | {int(h[0]) for h in history}))}
    for fact_id, ref in refs.items():
        r = live.get(fact_id)
        if r is None:
            yield {"type": "deleted_fact", "ref": ref}
            continue
        yield {
            "type": "fact",
            "ref": ref,
            "content": r[2],
            "category": r[3],
            "importance": r[4],
            "owner": r[5],
            "subject": r[6],
            "visibility": r[7],
            "source_thread": r[8],
            "source_from_seq": r[9],
            "source_to_seq": r[10],
            "metadata": r[11],
            "created_at": _text(r[12]),
            "updated_at": _text(r[13]),
            "last_accessed_at": _text(r[14]),
            "access_count": r[15],
            "status": r[16],
            "valid_from": _text(r[17]),
            "invalid_at": _text(r[18]),
            "superseded_by": refs.get(r[19]) if r[19] is not None else None,
        }
    for h in history:
        yield {
            "type": "fact_change",
            "fact": refs[int(h[0])],
            "action": h[1],
            "actor": h[2],
            "old_content": h[3],
            "new_content": h[4],
            "changes": h[5],
            "at": _text(h[6]),
        }


# -- helpers and row conversion ---------------------------------------------------------------------
def _one(conn: Conn, query: Any, params: Any = None) -> tuple[Any, ...]:
    """The first row of a query that always returns one."""
    row = conn.execute(query, params).fetchone()
    if row is None:  # pragma: no cover - the queries passed here always return a row
        raise StorageError("the database returned no row")
    return row


def _detach_memories(conn: Conn, thread_ids: Sequence[int]) -> None:
    """Keep the agent's memories (summaries of kind 'memory' last until purged) when their thread goes."""
    if thread_ids:
        conn.execute(
            "UPDATE summaries SET thread_id = NULL WHERE kind = 'memory' AND thread_id = ANY(%s)", (list(thread_ids),)
        )


def _insert_jobs(conn: Conn, agent_id: int, jobs: Sequence[NewJob], now: datetime) -> list[int]:
    """Queue jobs in the open transaction; returns the ids created (a pending duplicate is skipped)."""
    ids = []
    for job in jobs:
        row = conn.execute(
            "INSERT INTO jobs (agent_id, kind, payload, dedupe_key, max_attempts, run_after, created_at, updated_at) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id",
            (agent_id, job.kind, _json(job.payload), job.dedupe_key, job.max_attempts, job.run_after or now, now, now),
        ).fetchone()
        if row is not None:
            ids.append(int(row[0]))
    return ids


def _jobs_by_id(conn: Conn, ids: Sequence[int]) -> list[Job]:
    if not ids:
        return []
    rows = conn.execute(_JOB_SELECT + " WHERE j.id = ANY(%s) ORDER BY j.id", (list(ids),))
    return [_job(r) for r in rows]


def _job(r: tuple[Any, ...]) -> Job:
    return Job(
        id=r[0],
        agent=r[1],
        kind=r[2],
        payload=r[3],
        status=r[4],
        attempts=r[5],
        max_attempts=r[6],
        run_after=_utc(r[7]),
        lease_owner=r[8],
        lease_expires_at=_utc_or_none(r[9]),
        last_error=r[10],
        created_at=_utc(r[11]),
        updated_at=_utc(r[12]),
    )


def _history(
    conn: Conn,
    agent_id: int,
    fact_id: int,
    action: str,
    actor: str | None,
    old: str | None,
    new: str | None,
    changes: dict[str, Any],
    at: datetime,
) -> None:
    conn.execute(
        "INSERT INTO fact_history (agent_id, fact_id, action, actor, old_content, new_content, changes, at) "
        "VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
        (agent_id, fact_id, action, actor, old, new, _json(changes), at),
    )


def _time(value: Any) -> datetime | None:
    """A record's time (ISO text) as a datetime; naive text means UTC. Raises TypeError/ValueError."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"a time must be ISO-8601 text, not {type(value).__name__}")
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _text(value: datetime | None) -> str | None:
    return None if value is None else fmt_time(value)


def _jsonable(value: Any) -> Any:
    return fmt_time(value) if isinstance(value, datetime) else value


def _thread(row: tuple[Any, ...]) -> Thread:
    return Thread(
        agent=row[1],
        key=row[2],
        status=row[3],
        system_prompt=row[4],
        metadata=row[5],
        created_at=_utc(row[6]),
        updated_at=_utc(row[7]),
        ended_at=_utc_or_none(row[8]),
        message_count=int(row[9]),
        users=tuple(row[10]),
    )


def _message(r: tuple[Any, ...]) -> Message:
    return Message(
        id=r[0],
        agent=r[1],
        thread=r[2],
        seq=r[3],
        role=r[4],
        content=r[5],
        user=r[6],
        name=r[7],
        tool_calls=r[8],
        tool_call_id=r[9],
        token_count=r[10],
        metadata=r[11],
        created_at=_utc(r[12]),
        summarized=bool(r[13]),
    )


def _fact(r: tuple[Any, ...]) -> Fact:
    return Fact(
        id=r[0],
        agent=r[1],
        content=r[2],
        category=r[3],
        importance=r[4],
        owner=r[5],
        subject=r[6],
        visibility=r[7],
        source_thread=r[8],
        source_from_seq=r[9],
        source_to_seq=r[10],
        metadata=r[11],
        created_at=_utc(r[12]),
        updated_at=_utc(r[13]),
        last_accessed_at=_utc_or_none(r[14]),
        access_count=r[15],
        status=r[16],
        valid_from=_utc_or_none(r[17]),
        invalid_at=_utc_or_none(r[18]),
        superseded_by=r[19],
    )


def _summary(r: tuple[Any, ...]) -> Summary:
    return Summary(
        id=r[0],
        agent=r[1],
        thread=r[2],
        kind=r[3],
        content=r[4],
        from_seq=r[5],
        to_seq=r[6],
        owner=r[7],
        method=r[8],
        metadata=r[9],
        created_at=_utc(r[10]),
    )


def _summary_record(s: tuple[Any, ...]) -> dict[str, Any]:
    return {
        "type": "summary",
        "thread": s[2],
        "kind": s[3],
        "content": s[4],
        "from_seq": s[5],
        "to_seq": s[6],
        "owner": s[7],
        "method": s[8],
        "metadata": s[9],
        "created_at": _text(s[10]),
    }
