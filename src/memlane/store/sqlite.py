"""The embedded default backend: one SQLite file in WAL mode.

Each thread of the process gets its own connection. Writes run in ``BEGIN IMMEDIATE`` transactions, so
a writer takes the lock before reading what it will change (sequence numbers stay gap-free across
processes); a lock that outlasts SQLite's busy timeout is retried with exponential backoff and jitter.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..errors import Conflict, DatabaseLocked, InvalidInput, NotFound, StorageError
from ..types import Fact, FactChange, Message, Summary, Thread
from ..validation import NewFact, NewJob, NewMessage, NewSummary
from ._common import dump_json, fmt_time, load_json, parse_time, query_terms
from .base import Candidate, FactFilter, Scope, Store, StoreStatus
from .sqlite_jobs import SQLiteJobs, insert_jobs
from .sqlite_schema import MIGRATIONS
from .sqlite_usage import SQLiteUsage
from .sqlite_vectors import KIND_CODES, VectorCache, top_k

__all__ = ["SQLiteStore"]

T = TypeVar("T")

_MESSAGE_COLS = (
    "m.id, a.name, t.key, m.seq, m.role, m.content, m.user_id, m.name, m.tool_calls, m.tool_call_id, "
    "m.token_count, m.metadata, m.created_at, m.summarized"
)
_FACT_COLS = (
    "f.id, a.name, f.content, f.category, f.importance, f.owner, f.subject, f.visibility, f.source_thread, "
    "f.source_from_seq, f.source_to_seq, f.metadata, f.created_at, f.updated_at, f.last_accessed_at, "
    "f.access_count, f.status, f.valid_from, f.invalid_at, f.superseded_by"
)
_SUMMARY_COLS = (
    "s.id, a.name, t.key, s.kind, s.content, s.from_seq, s.to_seq, s.owner, s.method, s.metadata, s.created_at"
)
_THREAD_COLS = (
    "t.id, a.name, t.key, t.status, t.system_prompt, t.metadata, t.created_at, t.updated_at, t.ended_at, "
    "t.message_count"
)
# Fields of a fact a caller may change, and how each is stored.
_FACT_FIELDS = {
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


#: Most thread tokens a user-scoped search puts in its FTS5 query before it filters by SQL instead.
_MAX_SCOPE_TOKENS = 256


def _is_locked(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _scope_token(prefix: str, value: str) -> str:
    return prefix + value.encode("utf-8").hex()


class SQLiteStore(SQLiteJobs, SQLiteUsage, Store):
    """A memlane store in one SQLite file (created with its directory if missing)."""

    backend = "sqlite"

    def __init__(self, path: str | Path, *, busy_timeout_ms: int = 5000, lock_retries: int = 8) -> None:
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
        self._agent_ids: dict[str, int] = {}
        self._closed = False
        self._vectors = VectorCache()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(f"cannot create the directory of {self.path}: {exc}") from exc
        self._migrate()

    # -- connections and transactions ---------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        if self._closed:
            raise StorageError("the store is closed")
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(
                    self.path, timeout=self._busy_timeout_ms / 1000, isolation_level=None, check_same_thread=False
                )
                conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout_ms)}")
                self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL") if conn else None)
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute("PRAGMA foreign_keys = ON")
                conn.execute("PRAGMA cache_size = -65536")
            except sqlite3.DatabaseError as exc:
                raise StorageError(f"cannot open {self.path} as a SQLite database: {exc}") from exc
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
        return conn

    def _retry(self, fn: Callable[[], T]) -> T:
        delay = 0.01
        for attempt in range(self._lock_retries + 1):
            try:
                return fn()
            except sqlite3.OperationalError as exc:
                if not _is_locked(exc) or attempt == self._lock_retries:
                    if _is_locked(exc):
                        raise DatabaseLocked(f"{self.path} stayed locked: {exc}") from exc
                    raise StorageError(f"database error: {exc}") from exc
                time.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, 1.0)
        raise AssertionError("unreachable")  # pragma: no cover

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        self._retry(lambda: conn.execute("BEGIN IMMEDIATE"))
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        try:
            self._retry(lambda: conn.execute("COMMIT"))
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A read transaction, so that several queries see one snapshot."""
        conn = self._conn()
        if conn.in_transaction:  # nested in a write
            yield conn
            return
        self._retry(lambda: conn.execute("BEGIN"))
        try:
            yield conn
        finally:
            conn.execute("COMMIT")

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        conn = self._conn()
        try:
            return self._retry(lambda: conn.execute(sql, params).fetchall())
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"database error: {exc}") from exc

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
        conn = self._conn()
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
        except sqlite3.OperationalError as exc:
            if not _is_locked(exc):
                raise StorageError(f"cannot open {self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"cannot open {self.path} as a SQLite database: {exc}") from exc
        with self._write() as conn:
            row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
            current = int(row[0])
            newest = MIGRATIONS[-1][0]
            if current > newest:
                raise StorageError(
                    f"{self.path} has schema version {current}, newer than this memlane ({newest}); upgrade memlane"
                )
            for version, name, sql in MIGRATIONS:
                if version <= current:
                    continue
                for statement in _split_sql(sql):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, fmt_time(datetime.now().astimezone())),
                )

    def schema_version(self) -> int:
        return int(self._query("SELECT coalesce(max(version), 0) FROM schema_migrations")[0][0])

    def status(self, agent: str | None = None) -> StoreStatus:
        counts: dict[str, int] = {}
        with self._read() as conn:
            if agent is None:
                for table in ("agents", "threads", "messages", "facts", "summaries", "jobs"):
                    counts[table] = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # noqa: S608
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

    # -- agents and threads -------------------------------------------------------------------------
    def list_agents(self) -> list[str]:
        return sorted(str(row[0]) for row in self._query("SELECT name FROM agents"))

    def _agent_id(self, agent: str) -> int | None:
        """The agent's id, or None if it never wrote anything."""
        cached = self._agent_ids.get(agent)
        if cached is not None:
            return cached
        rows = self._conn().execute("SELECT id FROM agents WHERE name = ?", (agent,)).fetchall()
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

    def _ensure_thread(
        self, conn: sqlite3.Connection, agent_id: int, thread: str, created_at: datetime
    ) -> tuple[int, int]:
        """(thread id, next sequence number), creating the thread if needed."""
        stamp = fmt_time(created_at)
        conn.execute(
            "INSERT OR IGNORE INTO threads (agent_id, key, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (agent_id, thread, stamp, stamp),
        )
        row = conn.execute(
            "SELECT id, next_seq FROM threads WHERE agent_id = ? AND key = ?", (agent_id, thread)
        ).fetchone()
        return int(row[0]), int(row[1])

    def _thread_id(self, conn: sqlite3.Connection, agent: str, thread: str) -> int | None:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return None
        row = conn.execute("SELECT id FROM threads WHERE agent_id = ? AND key = ?", (agent_id, thread)).fetchone()
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
        now_stamp = fmt_time(now)  # most messages carry no time of their own: format "now" once
        stamps = [now_stamp if item.created_at is None else fmt_time(item.created_at) for item in items]
        try:
            with self._write() as conn:
                agent_id = self._ensure_agent(conn, agent, now)
                thread_id, next_seq = self._ensure_thread(conn, agent_id, thread, items[0].created_at or now)
                rows = [
                    (
                        agent_id,
                        thread_id,
                        next_seq + i,
                        item.role,
                        item.user,
                        item.name,
                        item.content,
                        dump_json(item.tool_calls) if item.tool_calls is not None else None,
                        item.tool_call_id,
                        token_counts[i],
                        dump_json(item.metadata) if item.metadata else "{}",
                        stamps[i],
                    )
                    for i, item in enumerate(items)
                ]
                conn.executemany(
                    "INSERT INTO messages (agent_id, thread_id, seq, role, user_id, name, content, tool_calls, "
                    "tool_call_id, token_count, metadata, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    rows,
                )
                users = {item.user for item in items if item.user is not None}
                if users:
                    conn.executemany(
                        "INSERT OR IGNORE INTO thread_users (thread_id, user_id, agent_id) VALUES (?, ?, ?)",
                        [(thread_id, user, agent_id) for user in sorted(users)],
                    )
                conn.execute(
                    "UPDATE threads SET next_seq = ?, message_count = message_count + ?, "
                    "updated_at = max(updated_at, ?), created_at = min(created_at, ?) WHERE id = ?",
                    (next_seq + len(items), len(items), max(stamps), min(stamps), thread_id),
                )
                ids = [
                    r[0]
                    for r in conn.execute(
                        "SELECT id FROM messages WHERE thread_id = ? AND seq >= ? ORDER BY seq",
                        (thread_id, next_seq),
                    )
                ]
                scope = f"a{agent_id} t{thread_id}"
                conn.executemany(
                    "INSERT INTO messages_fts (rowid, content, speaker, scope) VALUES (?, ?, ?, ?)",
                    [(ids[i], m.content, m.name or m.user or m.role, scope) for i, m in enumerate(items)],
                )
                if vectors is not None:
                    self._put_vectors(conn, agent_id, "message", ids, [thread_id] * len(ids), stamps, vectors)
                if jobs:
                    insert_jobs(conn, agent_id, jobs, now)
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"could not store messages: {exc}") from exc
        self._remember_agent(agent, agent_id)
        return [
            Message(
                id=ids[i],
                agent=agent,
                thread=thread,
                seq=next_seq + i,
                role=item.role,  # type: ignore[arg-type]
                content=item.content,
                user=item.user,
                name=item.name,
                tool_calls=item.tool_calls,
                tool_call_id=item.tool_call_id,
                token_count=token_counts[i],
                metadata=item.metadata,
                created_at=(item.created_at or now).astimezone(UTC),
            )
            for i, item in enumerate(items)
        ]

    def get_thread(self, agent: str, thread: str) -> Thread | None:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return None
        with self._read() as conn:
            row = conn.execute(
                f"SELECT {_THREAD_COLS} FROM threads t JOIN agents a ON a.id = t.agent_id "  # noqa: S608
                "WHERE t.agent_id = ? AND t.key = ?",
                (agent_id, thread),
            ).fetchone()
            if row is None:
                return None
            return self._thread(conn, row)

    def _thread(self, conn: sqlite3.Connection, row: tuple[Any, ...]) -> Thread:
        users = tuple(
            r[0]
            for r in conn.execute("SELECT user_id FROM thread_users WHERE thread_id = ? ORDER BY user_id", (row[0],))
        )
        return Thread(
            agent=row[1],
            key=row[2],
            status=row[3],
            system_prompt=row[4],
            metadata=load_json(row[5]),
            created_at=parse_time(row[6]),  # type: ignore[arg-type]
            updated_at=parse_time(row[7]),  # type: ignore[arg-type]
            ended_at=parse_time(row[8]),
            message_count=int(row[9]),
            users=users,
        )

    def list_threads(
        self, agent: str, *, user: str | None, status: str | None, limit: int | None, offset: int
    ) -> list[Thread]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        sql = f"SELECT {_THREAD_COLS} FROM threads t JOIN agents a ON a.id = t.agent_id WHERE t.agent_id = ?"  # noqa: S608
        params: list[Any] = [agent_id]
        if user is not None:
            sql += " AND t.id IN (SELECT thread_id FROM thread_users WHERE agent_id = ? AND user_id = ?)"
            params += [agent_id, user]
        if status is not None:
            sql += " AND t.status = ?"
            params.append(status)
        sql += " ORDER BY t.updated_at DESC, t.id DESC LIMIT ? OFFSET ?"
        params += [-1 if limit is None else limit, offset]
        with self._read() as conn:
            return [self._thread(conn, row) for row in conn.execute(sql, params).fetchall()]

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
        with self._write() as conn:
            agent_id = self._ensure_agent(conn, agent, now)
            thread_id, _ = self._ensure_thread(conn, agent_id, thread, now)
            sets: list[str] = ["updated_at = max(updated_at, ?)"]
            params: list[Any] = [fmt_time(now)]
            if system_prompt is not None:
                sets.append("system_prompt = ?")
                params.append(system_prompt)
            if metadata is not None:
                sets.append("metadata = ?")
                params.append(dump_json(metadata))
            if status is not None:
                sets.append("status = ?")
                params.append(status)
                sets.append("ended_at = ?")
                params.append(fmt_time(now) if status == "ended" else None)
            conn.execute(f"UPDATE threads SET {', '.join(sets)} WHERE id = ?", (*params, thread_id))  # noqa: S608
            if jobs:
                insert_jobs(conn, agent_id, jobs, now)
        self._remember_agent(agent, agent_id)
        result = self.get_thread(agent, thread)
        assert result is not None
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
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        sql = (
            f"SELECT {_MESSAGE_COLS} FROM messages m JOIN threads t ON t.id = m.thread_id "  # noqa: S608
            "JOIN agents a ON a.id = m.agent_id WHERE t.agent_id = ? AND t.key = ?"
        )
        params: list[Any] = [agent_id, thread]
        if before_seq is not None:
            sql += " AND m.seq < ?"
            params.append(before_seq)
        if after_seq is not None:
            sql += " AND m.seq > ?"
            params.append(after_seq)
        if unsummarized_only:
            sql += " AND m.summarized = 0"
        if limit is None:
            sql += " ORDER BY m.seq"
            return [_message(r) for r in self._query(sql, params)]
        sql += " ORDER BY m.seq DESC LIMIT ?"
        params.append(limit)
        return [_message(r) for r in reversed(self._query(sql, params))]

    def get_messages(self, agent: str, ids: Sequence[int]) -> list[Message]:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [
            _message(r)
            for r in self._query(
                f"SELECT {_MESSAGE_COLS} FROM messages m JOIN threads t ON t.id = m.thread_id "  # noqa: S608
                f"JOIN agents a ON a.id = m.agent_id WHERE +m.agent_id = ? AND m.id IN ({marks}) ORDER BY m.id",
                (agent_id, *ids),
            )
        ]

    def message_windows(self, agent: str, ids: Sequence[int], *, before: int, after: int) -> list[Message]:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self._query(
            f"SELECT DISTINCT {_MESSAGE_COLS} FROM messages x "  # noqa: S608
            "JOIN messages m ON m.thread_id = x.thread_id AND m.seq BETWEEN x.seq - ? AND x.seq + ? "
            "JOIN threads t ON t.id = m.thread_id JOIN agents a ON a.id = m.agent_id "
            f"WHERE x.agent_id = ? AND x.id IN ({marks}) ORDER BY t.key, m.seq",
            (max(before, 0), max(after, 0), agent_id, *ids),
        )
        return [_message(r) for r in rows]

    def clear_thread(self, agent: str, thread: str) -> int:
        with self._write() as conn:
            thread_id = self._thread_id(conn, agent, thread)
            if thread_id is None:
                raise NotFound(f"no thread {thread!r} in agent {agent!r}")
            count = conn.execute("DELETE FROM messages WHERE thread_id = ?", (thread_id,)).rowcount
            conn.execute("DELETE FROM summaries WHERE thread_id = ? AND kind != 'memory'", (thread_id,))
            conn.execute("UPDATE threads SET message_count = 0 WHERE id = ?", (thread_id,))
        return int(count)

    def delete_thread(self, agent: str, thread: str) -> bool:
        with self._write() as conn:
            thread_id = self._thread_id(conn, agent, thread)
            if thread_id is None:
                return False
            _detach_memories(conn, "thread_id = ?", (thread_id,))
            conn.execute("DELETE FROM threads WHERE id = ?", (thread_id,))
        return True

    def prune_threads(self, agent: str, updated_before: datetime) -> int:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return 0
        cutoff = fmt_time(updated_before)
        with self._write() as conn:
            _detach_memories(
                conn, "thread_id IN (SELECT id FROM threads WHERE agent_id = ? AND updated_at < ?)", (agent_id, cutoff)
            )
            return int(
                conn.execute("DELETE FROM threads WHERE agent_id = ? AND updated_at < ?", (agent_id, cutoff)).rowcount
            )

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
        stamp = fmt_time(now)
        with self._write() as conn:
            agent_id = self._ensure_agent(conn, agent, now)
            source_thread_id = None
            if fact.source_thread is not None:
                source_thread_id = self._thread_id(conn, agent, fact.source_thread)
            cur = conn.execute(
                "INSERT INTO facts (agent_id, owner, subject, category, content, importance, visibility, "
                "source_thread_id, source_thread, source_from_seq, source_to_seq, metadata, valid_from, "
                "created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
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
                    dump_json(fact.metadata),
                    stamp,
                    stamp,
                    stamp,
                ),
            )
            fact_id = int(cur.lastrowid or 0)
            self._history(conn, agent_id, fact_id, "create", actor, None, fact.content, {}, stamp)
            if vector is not None:
                self._put_vectors(conn, agent_id, "fact", [fact_id], [source_thread_id], [stamp], vector[None, :])
            if jobs:
                insert_jobs(conn, agent_id, jobs, now)
        self._remember_agent(agent, agent_id)
        return self.get_facts(agent, [fact_id])[0]

    @staticmethod
    def _history(
        conn: sqlite3.Connection,
        agent_id: int,
        fact_id: int,
        action: str,
        actor: str | None,
        old: str | None,
        new: str | None,
        changes: dict[str, Any],
        stamp: str,
    ) -> None:
        conn.execute(
            "INSERT INTO fact_history (agent_id, fact_id, action, actor, old_content, new_content, changes, at) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (agent_id, fact_id, action, actor, old, new, dump_json(changes), stamp),
        )

    def get_facts(self, agent: str, ids: Sequence[int]) -> list[Fact]:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [
            _fact(r)
            for r in self._query(
                f"SELECT {_FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id "  # noqa: S608
                f"WHERE +f.agent_id = ? AND f.id IN ({marks}) ORDER BY f.id",
                (agent_id, *ids),
            )
        ]

    @staticmethod
    def _fact_where(agent_id: int, flt: FactFilter) -> tuple[str, list[Any]]:
        where: list[str] = ["f.agent_id = ?"]
        params: list[Any] = [agent_id]
        if flt.owned_only:
            where.append("f.owner IS ?")
            params.append(flt.user)
        elif not flt.all_users:
            if flt.user is None:
                where.append("(f.owner IS NULL OR f.visibility = 'shared')")
            else:
                where.append("(f.owner IS NULL OR f.owner = ? OR f.visibility = 'shared')")
                params.append(flt.user)
        for column, value in (
            ("subject", flt.subject),
            ("category", flt.category),
            ("visibility", flt.visibility),
            ("source_thread", flt.thread),
        ):
            if value is not None:
                where.append(f"f.{column} = ?")
                params.append(value)
        if not flt.include_superseded:
            where.append("f.status = 'active'")
        return " AND ".join(where), params

    def list_facts(self, agent: str, flt: FactFilter, *, limit: int | None, offset: int = 0) -> list[Fact]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        where, params = self._fact_where(agent_id, flt)
        return [
            _fact(r)
            for r in self._query(
                f"SELECT {_FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id WHERE {where} "  # noqa: S608
                "ORDER BY f.importance DESC, f.updated_at DESC, f.id DESC LIMIT ? OFFSET ?",
                (*params, -1 if limit is None else limit, offset),
            )
        ]

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
        stamp = fmt_time(now)
        with self._write() as conn:
            agent_id = self._agent_id(agent)
            row = (
                conn.execute(
                    f"SELECT {_FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id "  # noqa: S608
                    "WHERE f.agent_id = ? AND f.id = ?",
                    (agent_id, fact_id),
                ).fetchone()
                if agent_id is not None
                else None
            )
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
                if key == "metadata":
                    stored[key] = dump_json(value)
                elif isinstance(value, datetime):
                    stored[key] = fmt_time(value)
                else:
                    stored[key] = value
            if stored:
                sets = ", ".join(f"{key} = ?" for key in stored)
                conn.execute(
                    f"UPDATE facts SET {sets}, updated_at = ? WHERE id = ?",  # noqa: S608
                    (*stored.values(), stamp, fact_id),
                )
                self._history(
                    conn,
                    agent_id,
                    fact_id,
                    action,
                    actor,
                    before.content,
                    changes.get("content", before.content),
                    diff,
                    stamp,
                )
            if vector is not None:
                self._put_vectors(
                    conn, agent_id, "fact", [fact_id], [None], [fmt_time(before.created_at)], vector[None, :]
                )
            if jobs:
                insert_jobs(conn, agent_id, jobs, now)
        return self.get_facts(agent, [fact_id])[0]

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
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return 0
        stamp = fmt_time(now)
        deleted = 0
        with self._write() as conn:
            for fact_id in ids:
                row = conn.execute(
                    "DELETE FROM facts WHERE agent_id = ? AND id = ? RETURNING content", (agent_id, fact_id)
                ).fetchone()
                if row is None:
                    continue
                deleted += 1
                if purge_history:
                    conn.execute("DELETE FROM fact_history WHERE agent_id = ? AND fact_id = ?", (agent_id, fact_id))
                else:
                    self._history(conn, agent_id, fact_id, "delete", actor, row[0], None, {}, stamp)
            if deleted and jobs:
                insert_jobs(conn, agent_id, jobs, now)
        return deleted

    def fact_history(self, agent: str, fact_id: int) -> list[FactChange]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        return [
            FactChange(
                id=r[0],
                fact_id=r[1],
                action=r[2],
                actor=r[3],
                old_content=r[4],
                new_content=r[5],
                changes=load_json(r[6]),
                at=parse_time(r[7]),  # type: ignore[arg-type]
            )
            for r in self._query(
                "SELECT id, fact_id, action, actor, old_content, new_content, changes, at FROM fact_history "
                "WHERE agent_id = ? AND fact_id = ? ORDER BY id",
                (agent_id, fact_id),
            )
        ]

    def touch_facts(self, agent: str, ids: Sequence[int], now: datetime) -> None:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return
        marks = ",".join("?" * len(ids))
        with self._write() as conn:
            conn.execute(
                "UPDATE facts SET last_accessed_at = ?, access_count = access_count + 1 "  # noqa: S608
                f"WHERE agent_id = ? AND id IN ({marks})",
                (fmt_time(now), agent_id, *ids),
            )

    # -- summaries ----------------------------------------------------------------------------------
    def summaries(self, agent: str, *, thread: str | None, kind: str | None, limit: int | None) -> list[Summary]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        sql = (
            f"SELECT {_SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
            "LEFT JOIN threads t ON t.id = s.thread_id WHERE s.agent_id = ?"
        )
        params: list[Any] = [agent_id]
        if thread is not None:
            sql += " AND t.key = ?"
            params.append(thread)
        if kind is not None:
            sql += " AND s.kind = ?"
            params.append(kind)
        sql += " ORDER BY s.created_at DESC, s.id DESC LIMIT ?"
        params.append(-1 if limit is None else limit)
        return [_summary(r) for r in self._query(sql, params)]

    def get_summaries(self, agent: str, ids: Sequence[int]) -> list[Summary]:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [
            _summary(r)
            for r in self._query(
                f"SELECT {_SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
                f"LEFT JOIN threads t ON t.id = s.thread_id WHERE +s.agent_id = ? AND s.id IN ({marks}) "
                "ORDER BY s.id",
                (agent_id, *ids),
            )
        ]

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
        stamp = fmt_time(now)
        with self._write() as conn:
            agent_id = self._ensure_agent(conn, agent, now)
            thread_id = None
            if thread is not None:
                thread_id = self._thread_id(conn, agent, thread)
                if thread_id is None:
                    raise NotFound(f"no thread {thread!r} in agent {agent!r}")
            existing = conn.execute(
                "SELECT id FROM summaries WHERE agent_id = ? AND thread_id IS ? AND kind = ? AND owner IS ? "
                "AND from_seq IS ? AND to_seq IS ?",
                (agent_id, thread_id, summary.kind, summary.owner, summary.from_seq, summary.to_seq),
            ).fetchone()
            created = existing is None
            if created:
                cur = conn.execute(
                    "INSERT INTO summaries (agent_id, thread_id, kind, owner, from_seq, to_seq, content, method, "
                    "metadata, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (
                        agent_id,
                        thread_id,
                        summary.kind,
                        summary.owner,
                        summary.from_seq,
                        summary.to_seq,
                        summary.content,
                        summary.method,
                        dump_json(summary.metadata),
                        stamp,
                    ),
                )
                summary_id = int(cur.lastrowid or 0)
                if vector is not None:
                    self._put_vectors(conn, agent_id, "summary", [summary_id], [thread_id], [stamp], vector[None, :])
            else:
                summary_id = int(existing[0])
            if mark_summarized and thread_id is not None and summary.from_seq is not None:
                conn.execute(
                    "UPDATE messages SET summarized = 1 WHERE thread_id = ? AND seq BETWEEN ? AND ?",
                    (thread_id, summary.from_seq, summary.to_seq if summary.to_seq is not None else summary.from_seq),
                )
        self._remember_agent(agent, agent_id)
        return self.get_summaries(agent, [summary_id])[0], created

    def delete_summaries(self, agent: str, ids: Sequence[int]) -> int:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return 0
        marks = ",".join("?" * len(ids))
        with self._write() as conn:
            return int(
                conn.execute(
                    f"DELETE FROM summaries WHERE agent_id = ? AND id IN ({marks})",  # noqa: S608
                    (agent_id, *ids),
                ).rowcount
            )

    # -- vectors ------------------------------------------------------------------------------------
    def _embedding_dim(self, conn: sqlite3.Connection, vectors: np.ndarray) -> None:
        """Record the dimension on first use; refuse vectors of another dimension."""
        dim = int(vectors.shape[1])
        row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
        if row is None:
            conn.execute("INSERT INTO meta (key, value) VALUES ('embedding_dim', ?)", (str(dim),))
        elif int(row[0]) != dim:
            raise InvalidInput(f"vectors have dimension {dim}, the store holds dimension {row[0]}")

    def _put_vectors(
        self,
        conn: sqlite3.Connection,
        agent_id: int,
        kind: str,
        ids: Sequence[int],
        thread_ids: Sequence[int | None],
        stamps: Sequence[str],
        vectors: np.ndarray,
    ) -> None:
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(ids):
            raise InvalidInput("vectors must be a 2-d array with one row per item")
        self._embedding_dim(conn, vectors)
        existing = conn.execute(
            f"SELECT count(*) FROM embeddings WHERE kind = ? AND item_id IN ({','.join('?' * len(ids))})",  # noqa: S608
            (kind, *ids),
        ).fetchone()[0]
        if existing:
            conn.executemany("DELETE FROM embeddings WHERE kind = ? AND item_id = ?", [(kind, i) for i in ids])
        conn.executemany(
            "INSERT INTO embeddings (agent_id, kind, item_id, thread_id, created_at, vector) VALUES (?,?,?,?,?,?)",
            [
                (agent_id, kind, item_id, thread_ids[i], stamps[i], vectors[i].tobytes())
                for i, item_id in enumerate(ids)
            ],
        )

    def set_vectors(self, agent: str, kind: str, ids: Sequence[int], vectors: np.ndarray) -> None:
        if kind not in KIND_CODES:
            raise InvalidInput(f"unknown kind {kind!r}")
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return
        table, thread_col = {
            "message": ("messages", "thread_id"),
            "fact": ("facts", "source_thread_id"),
            "summary": ("summaries", "thread_id"),
        }[kind]
        with self._write() as conn:
            marks = ",".join("?" * len(ids))
            found = {
                int(r[0]): (r[1], r[2])
                for r in conn.execute(
                    f"SELECT id, {thread_col}, created_at FROM {table} WHERE +agent_id = ? AND id IN ({marks})",  # noqa: S608
                    (agent_id, *ids),
                )
            }
            keep = [i for i, item_id in enumerate(ids) if item_id in found]
            if not keep:
                return
            chosen = [ids[i] for i in keep]
            self._put_vectors(
                conn,
                agent_id,
                kind,
                chosen,
                [found[i][0] for i in chosen],
                [found[i][1] for i in chosen],
                np.asarray(vectors)[keep],
            )

    def items_without_vectors(self, kind: str, limit: int) -> list[Message | Fact | Summary]:
        if kind == "message":
            rows = self._query(
                f"SELECT {_MESSAGE_COLS} FROM messages m JOIN threads t ON t.id = m.thread_id "  # noqa: S608
                "JOIN agents a ON a.id = m.agent_id WHERE NOT EXISTS (SELECT 1 FROM embeddings e "
                "WHERE e.kind = 'message' AND e.item_id = m.id) ORDER BY m.id LIMIT ?",
                (limit,),
            )
            return [_message(r) for r in rows]
        if kind == "fact":
            rows = self._query(
                f"SELECT {_FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id "  # noqa: S608
                "WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.kind = 'fact' AND e.item_id = f.id) "
                "ORDER BY f.id LIMIT ?",
                (limit,),
            )
            return [_fact(r) for r in rows]
        if kind == "summary":
            rows = self._query(
                f"SELECT {_SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
                "LEFT JOIN threads t ON t.id = s.thread_id WHERE NOT EXISTS (SELECT 1 FROM embeddings e "
                "WHERE e.kind = 'summary' AND e.item_id = s.id) ORDER BY s.id LIMIT ?",
                (limit,),
            )
            return [_summary(r) for r in rows]
        raise InvalidInput(f"unknown kind {kind!r}")

    def drop_vectors(self) -> int:
        with self._write() as conn:
            count = int(conn.execute("DELETE FROM embeddings").rowcount)
            conn.execute("DELETE FROM meta WHERE key IN ('embedding_dim', 'embedding_model')")
        self._vectors.clear()
        return count

    def vector_search(self, agent: str, query: np.ndarray, scope: Scope, limit: int) -> list[Candidate]:
        agent_id = self._agent_id(agent)
        if agent_id is None or limit <= 0:
            return []
        with self._read() as conn:
            dim_row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
            if dim_row is None:
                return []
            dim = int(dim_row[0])
            if query.shape != (dim,):
                raise InvalidInput(f"query vector has shape {query.shape}, the store holds dimension {dim}")
            vectors = self._vectors.get(conn, agent_id, dim)
            mask = self._vector_mask(conn, agent, agent_id, vectors, scope)
        found = top_k(vectors, np.asarray(query, dtype=np.float32), mask, limit)
        names = {code: name for name, code in KIND_CODES.items()}
        return [Candidate(names[k], item, score, "vector") for k, item, score in found]  # type: ignore[arg-type]

    def _vector_mask(
        self, conn: sqlite3.Connection, agent: str, agent_id: int, vectors: Any, scope: Scope
    ) -> np.ndarray | None:
        """The rows the scope allows. Facts are checked against the database (visibility may change)."""
        n = vectors.size
        kinds = vectors.kinds[:n]
        threads = vectors.thread_ids[:n]
        mask = np.isin(kinds, [KIND_CODES[k] for k in scope.kinds])
        is_message = kinds == KIND_CODES["message"]
        is_summary = kinds == KIND_CODES["summary"]
        thread_id = None
        if scope.thread is not None:
            thread_id = self._thread_id(conn, agent, scope.thread)
            mask &= ~is_message | (threads == (thread_id if thread_id is not None else -2))
        elif scope.user is not None:
            mine = [
                r[0]
                for r in conn.execute(
                    "SELECT thread_id FROM thread_users WHERE agent_id = ? AND user_id = ?", (agent_id, scope.user)
                )
            ]
            mask &= ~is_message | np.isin(threads, mine)
        if "summary" in scope.kinds:  # summaries are few: their visibility is read from the database
            visible, extra = _summary_visibility(agent_id, thread_id if scope.thread is not None else None, scope.user)
            if scope.thread is not None and thread_id is None:
                allowed: list[int] = []
            else:
                allowed = [
                    r[0]
                    for r in conn.execute(
                        f"SELECT s.id FROM summaries s WHERE s.agent_id = ? AND {visible}",  # noqa: S608
                        (agent_id, *extra),
                    )
                ]
            mask &= ~is_summary | np.isin(vectors.item_ids[:n], allowed)
        convo = is_message | is_summary
        if "fact" in scope.kinds:
            flt = FactFilter(user=scope.user, include_superseded=scope.include_superseded)
            where, params = self._fact_where(agent_id, flt)
            facts = [r[0] for r in conn.execute(f"SELECT f.id FROM facts f WHERE {where}", params)]  # noqa: S608
            mask &= convo | np.isin(vectors.item_ids[:n], facts)
        if scope.since is not None:
            mask &= vectors.created[:n] >= scope.since.timestamp()
        if scope.until is not None:
            mask &= vectors.created[:n] < scope.until.timestamp()
        return mask

    # -- search -------------------------------------------------------------------------------------
    def keyword_search(self, agent: str, query: str, scope: Scope, limit: int) -> list[Candidate]:
        agent_id = self._agent_id(agent)
        terms = query_terms(query)
        if agent_id is None or not terms or limit <= 0:
            return []
        text = " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
        results: list[Candidate] = []
        with self._read() as conn:
            thread_id = None
            if scope.thread is not None:
                thread_id = self._thread_id(conn, agent, scope.thread)
                if thread_id is None:
                    return []
            if "message" in scope.kinds:
                results += self._search_messages(conn, agent_id, thread_id, text, scope, limit)
            if "fact" in scope.kinds:
                results += self._search_facts(conn, agent_id, text, scope, limit)
            if "summary" in scope.kinds:
                results += self._search_summaries(conn, agent_id, thread_id, text, scope, limit)
        return results

    def _search_messages(
        self, conn: sqlite3.Connection, agent_id: int, thread_id: int | None, text: str, scope: Scope, limit: int
    ) -> list[Candidate]:
        # FTS5 walks the whole doclist of every scope token it is given: the agent token lists every message of
        # the agent. So match on the narrowest token there is: the thread's (thread ids are unique across
        # agents), else the tokens of the user's threads, and the agent's only when nothing narrower applies.
        user_filter = False
        if thread_id is not None:
            match = f"scope : t{thread_id}"
        elif scope.user is not None:
            threads = [
                int(r[0])
                for r in conn.execute(
                    "SELECT thread_id FROM thread_users WHERE agent_id = ? AND user_id = ?", (agent_id, scope.user)
                )
            ]
            if not threads:
                return []
            if len(threads) <= _MAX_SCOPE_TOKENS:
                match = "scope : (" + " OR ".join(f"t{t}" for t in threads) + ")"
            else:
                match, user_filter = f"scope : a{agent_id}", True
        else:
            match = f"scope : a{agent_id}"
        match += f" AND {{content speaker}} : ({text})"
        # Join the messages table only for a filter on its columns: the lookup costs more than bm25 per row.
        joined = user_filter or scope.since is not None or scope.until is not None
        sql = "SELECT f.rowid, bm25(messages_fts, 1.0, 0.5, 0.0) AS rank FROM messages_fts f "
        if joined:
            sql += "JOIN messages m ON m.id = f.rowid "
        sql += "WHERE messages_fts MATCH ?"
        params: list[Any] = [match]
        if user_filter:
            sql += " AND m.thread_id IN (SELECT thread_id FROM thread_users WHERE agent_id = ? AND user_id = ?)"
            params += [agent_id, scope.user]
        sql, params = _time_range(sql, params, "m.created_at", scope)
        sql += " ORDER BY rank LIMIT ?"
        params.append(limit)
        return [Candidate("message", int(r[0]), -float(r[1]), "keyword") for r in conn.execute(sql, params)]

    def _search_facts(
        self, conn: sqlite3.Connection, agent_id: int, text: str, scope: Scope, limit: int
    ) -> list[Candidate]:
        visible = "scope : vshared OR scope : onone"
        if scope.user is not None:
            visible += " OR scope : " + _scope_token("o", scope.user)
        match = f"scope : a{agent_id} AND ({visible}) AND {{content subject}} : ({text})"
        if not scope.include_superseded:
            match += " AND scope : sactive"
        sql = (
            "SELECT f.rowid, bm25(facts_fts, 1.0, 0.5, 0.0) AS rank FROM facts_fts f "
            "JOIN facts x ON x.id = f.rowid WHERE facts_fts MATCH ?"
        )
        params: list[Any] = [match]
        sql, params = _time_range(sql, params, "x.created_at", scope)
        sql += " ORDER BY rank LIMIT ?"
        params.append(limit)
        return [Candidate("fact", int(r[0]), -float(r[1]), "keyword") for r in conn.execute(sql, params)]

    def _search_summaries(
        self, conn: sqlite3.Connection, agent_id: int, thread_id: int | None, text: str, scope: Scope, limit: int
    ) -> list[Candidate]:
        match = f"scope : a{agent_id}" + (f" AND scope : t{thread_id}" if thread_id is not None else "")
        match += f" AND content : ({text})"
        sql = (
            "SELECT f.rowid, bm25(summaries_fts, 1.0, 0.0) AS rank FROM summaries_fts f "
            "JOIN summaries s ON s.id = f.rowid WHERE summaries_fts MATCH ?"
        )
        params: list[Any] = [match]
        visible, extra = _summary_visibility(agent_id, thread_id, scope.user)
        sql += f" AND {visible}"
        params += extra
        sql, params = _time_range(sql, params, "s.created_at", scope)
        sql += " ORDER BY rank LIMIT ?"
        params.append(limit)
        return [Candidate("summary", int(r[0]), -float(r[1]), "keyword") for r in conn.execute(sql, params)]

    # -- export / import ----------------------------------------------------------------------------
    def export_records(self, agent: str, threads: Sequence[str] | None) -> Iterator[dict[str, Any]]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return
        wanted = None if threads is None else set(threads)
        with self._read() as conn:
            thread_rows = conn.execute(
                f"SELECT {_THREAD_COLS} FROM threads t JOIN agents a ON a.id = t.agent_id "  # noqa: S608
                "WHERE t.agent_id = ? ORDER BY t.id",
                (agent_id,),
            ).fetchall()
            for row in thread_rows:
                if wanted is not None and row[2] not in wanted:
                    continue
                yield {
                    "type": "thread",
                    "thread": row[2],
                    "status": row[3],
                    "system_prompt": row[4],
                    "metadata": load_json(row[5]),
                    "created_at": row[6],
                    "updated_at": row[7],
                    "ended_at": row[8],
                }
                for m in conn.execute(
                    f"SELECT {_MESSAGE_COLS} FROM messages m JOIN threads t ON t.id = m.thread_id "  # noqa: S608
                    "JOIN agents a ON a.id = m.agent_id WHERE m.thread_id = ? ORDER BY m.seq",
                    (row[0],),
                ):
                    yield {
                        "type": "message",
                        "thread": m[2],
                        "seq": m[3],
                        "role": m[4],
                        "content": m[5],
                        "user": m[6],
                        "name": m[7],
                        "tool_calls": load_json(m[8]),
                        "tool_call_id": m[9],
                        "metadata": load_json(m[11]),
                        "created_at": m[12],
                        "summarized": bool(m[13]),
                    }
                for s in conn.execute(
                    f"SELECT {_SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
                    "LEFT JOIN threads t ON t.id = s.thread_id WHERE s.thread_id = ? ORDER BY s.id",
                    (row[0],),
                ):
                    yield _summary_record(s)
            if wanted is None:
                for s in conn.execute(
                    f"SELECT {_SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
                    "LEFT JOIN threads t ON t.id = s.thread_id WHERE s.agent_id = ? AND s.thread_id IS NULL "
                    "ORDER BY s.id",
                    (agent_id,),
                ):
                    yield _summary_record(s)
            fact_rows = conn.execute(
                f"SELECT {_FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id "  # noqa: S608
                "WHERE f.agent_id = ? ORDER BY f.id",
                (agent_id,),
            ).fetchall()
            if wanted is not None:
                fact_rows = [r for r in fact_rows if r[8] in wanted]
            history = conn.execute(
                "SELECT fact_id, action, actor, old_content, new_content, changes, at FROM fact_history "
                "WHERE agent_id = ? ORDER BY id",
                (agent_id,),
            ).fetchall()
            live = {int(r[0]) for r in fact_rows}
            if wanted is not None:
                history = [h for h in history if h[0] in live]
            refs = {fid: i + 1 for i, fid in enumerate(sorted(live | {int(h[0]) for h in history}))}
            for fact_id, ref in refs.items():
                if fact_id not in live:
                    yield {"type": "deleted_fact", "ref": ref}
                    continue
                r = next(row for row in fact_rows if row[0] == fact_id)
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
                    "metadata": load_json(r[11]),
                    "created_at": r[12],
                    "updated_at": r[13],
                    "last_accessed_at": r[14],
                    "access_count": r[15],
                    "status": r[16],
                    "valid_from": r[17],
                    "invalid_at": r[18],
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
                    "changes": load_json(h[5]),
                    "at": h[6],
                }

    def import_records(self, agent: str, records: Sequence[dict[str, Any]], *, on_conflict: str) -> dict[str, int]:
        counts = {"threads": 0, "messages": 0, "facts": 0, "fact_changes": 0, "summaries": 0}
        now = datetime.now().astimezone()
        try:
            with self._write() as conn:
                agent_id = self._ensure_agent(conn, agent, now)
                thread_ids: dict[str, int] = {}
                skipped: set[str] = set()
                fact_ids: dict[int, int] = {}
                skipped_refs: set[int] = set()
                first_change: dict[int, dict[str, Any]] = {}
                for rec in records:
                    if rec["type"] == "fact_change":
                        first_change.setdefault(rec["fact"], rec)
                superseded: list[tuple[int, int]] = []
                for rec in records:
                    kind = rec["type"]
                    if kind == "thread":
                        key = rec["thread"]
                        exists = conn.execute(
                            "SELECT id FROM threads WHERE agent_id = ? AND key = ?", (agent_id, key)
                        ).fetchone()
                        if exists is not None:
                            if on_conflict == "skip":
                                skipped.add(key)
                                continue
                            if on_conflict == "replace":
                                conn.execute("DELETE FROM threads WHERE id = ?", (exists[0],))
                            else:
                                raise Conflict(f"thread {key!r} already exists in agent {agent!r}")
                        cur = conn.execute(
                            "INSERT INTO threads (agent_id, key, status, system_prompt, metadata, created_at, "
                            "updated_at, ended_at) VALUES (?,?,?,?,?,?,?,?)",
                            (
                                agent_id,
                                key,
                                rec["status"],
                                rec["system_prompt"],
                                dump_json(rec["metadata"]),
                                rec["created_at"],
                                rec["updated_at"],
                                rec["ended_at"],
                            ),
                        )
                        thread_ids[key] = int(cur.lastrowid or 0)
                        counts["threads"] += 1
                    elif kind == "message":
                        if rec["thread"] in skipped:
                            continue
                        thread_id = thread_ids.get(rec["thread"])
                        if thread_id is None:
                            raise InvalidInput(f"message of thread {rec['thread']!r} comes before its thread")
                        cur = conn.execute(
                            "INSERT INTO messages (agent_id, thread_id, seq, role, user_id, name, content, "
                            "tool_calls, tool_call_id, token_count, metadata, created_at, summarized) "
                            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            (
                                agent_id,
                                thread_id,
                                rec["seq"],
                                rec["role"],
                                rec["user"],
                                rec["name"],
                                rec["content"],
                                dump_json(rec["tool_calls"]) if rec["tool_calls"] is not None else None,
                                rec["tool_call_id"],
                                rec["token_count"],
                                dump_json(rec["metadata"]),
                                rec["created_at"],
                                int(bool(rec.get("summarized"))),
                            ),
                        )
                        conn.execute(
                            "INSERT INTO messages_fts (rowid, content, speaker, scope) VALUES (?, ?, ?, ?)",
                            (
                                cur.lastrowid,
                                rec["content"],
                                rec["name"] or rec["user"] or rec["role"],
                                f"a{agent_id} t{thread_id}",
                            ),
                        )
                        if rec["user"] is not None:
                            conn.execute(
                                "INSERT OR IGNORE INTO thread_users (thread_id, user_id, agent_id) VALUES (?,?,?)",
                                (thread_id, rec["user"], agent_id),
                            )
                        conn.execute(
                            "UPDATE threads SET next_seq = max(next_seq, ? + 1), message_count = message_count + 1 "
                            "WHERE id = ?",
                            (rec["seq"], thread_id),
                        )
                        counts["messages"] += 1
                    elif kind == "summary":
                        thread_id = None
                        if rec["thread"] is not None:
                            if rec["thread"] in skipped:
                                continue
                            thread_id = thread_ids.get(rec["thread"])
                        else:
                            same = conn.execute(
                                "SELECT id FROM summaries WHERE agent_id = ? AND thread_id IS NULL AND kind = ? "
                                "AND owner IS ? AND content = ? AND created_at = ?",
                                (agent_id, rec["kind"], rec["owner"], rec["content"], rec["created_at"]),
                            ).fetchone()
                            if same is not None:
                                if on_conflict == "error":
                                    raise Conflict(f"summary {rec['content'][:40]!r} already exists")
                                if on_conflict == "skip":
                                    continue
                                conn.execute("DELETE FROM summaries WHERE id = ?", (same[0],))
                        conn.execute(
                            "INSERT INTO summaries (agent_id, thread_id, kind, owner, from_seq, to_seq, content, "
                            "method, metadata, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                            (
                                agent_id,
                                thread_id,
                                rec["kind"],
                                rec["owner"],
                                rec["from_seq"],
                                rec["to_seq"],
                                rec["content"],
                                rec["method"],
                                dump_json(rec["metadata"]),
                                rec["created_at"],
                            ),
                        )
                        counts["summaries"] += 1
                    elif kind == "deleted_fact":
                        ref = rec["ref"]
                        first = first_change.get(ref)
                        same = None
                        if first is not None:
                            same = conn.execute(
                                "SELECT fact_id FROM fact_history WHERE agent_id = ? AND action = ? AND at = ? "
                                "AND new_content IS ? AND old_content IS ?",
                                (agent_id, first["action"], first["at"], first["new_content"], first["old_content"]),
                            ).fetchone()
                        if same is not None and on_conflict == "skip":
                            fact_ids[ref] = int(same[0])
                            skipped_refs.add(ref)
                            continue
                        if same is not None and on_conflict == "replace":
                            conn.execute(
                                "DELETE FROM fact_history WHERE agent_id = ? AND fact_id = ?", (agent_id, same[0])
                            )
                        # Keep a deleted fact's history under an id no fact will ever get.
                        if conn.execute("SELECT 1 FROM sqlite_sequence WHERE name = 'facts'").fetchone() is None:
                            conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('facts', 0)")
                        conn.execute("UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'facts'")
                        fact_ids[ref] = int(
                            conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'facts'").fetchone()[0]
                        )
                    elif kind == "fact":
                        # The same fact, even if edited since: found by its 'create' history entry.
                        first = first_change.get(rec["ref"])
                        if first is not None and first["action"] == "create":
                            same = conn.execute(
                                "SELECT h.fact_id FROM fact_history h JOIN facts f ON f.id = h.fact_id "
                                "WHERE h.agent_id = ? AND h.action = 'create' AND h.at = ? "
                                "AND h.new_content IS ? AND f.owner IS ?",
                                (agent_id, first["at"], first["new_content"], rec["owner"]),
                            ).fetchone()
                        else:
                            same = conn.execute(
                                "SELECT id FROM facts WHERE agent_id = ? AND owner IS ? AND content = ? "
                                "AND created_at = ?",
                                (agent_id, rec["owner"], rec["content"], rec["created_at"]),
                            ).fetchone()
                        if same is not None:
                            if on_conflict == "error":
                                raise Conflict(f"fact {rec['content'][:40]!r} already exists in agent {agent!r}")
                            if on_conflict == "skip":
                                fact_ids[rec["ref"]] = int(same[0])
                                skipped_refs.add(rec["ref"])
                                continue
                            conn.execute("DELETE FROM facts WHERE id = ?", (same[0],))
                            conn.execute(
                                "DELETE FROM fact_history WHERE agent_id = ? AND fact_id = ?", (agent_id, same[0])
                            )
                        source_thread_id = None
                        if rec["source_thread"] is not None:
                            row = conn.execute(
                                "SELECT id FROM threads WHERE agent_id = ? AND key = ?",
                                (agent_id, rec["source_thread"]),
                            ).fetchone()
                            source_thread_id = row[0] if row else None
                        cur = conn.execute(
                            "INSERT INTO facts (agent_id, owner, subject, category, content, importance, visibility, "
                            "source_thread_id, source_thread, source_from_seq, source_to_seq, metadata, status, "
                            "valid_from, invalid_at, created_at, updated_at, last_accessed_at, access_count) "
                            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            (
                                agent_id,
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
                                dump_json(rec["metadata"]),
                                rec["status"],
                                rec["valid_from"],
                                rec["invalid_at"],
                                rec["created_at"],
                                rec["updated_at"],
                                rec["last_accessed_at"],
                                rec["access_count"],
                            ),
                        )
                        fact_ids[rec["ref"]] = int(cur.lastrowid or 0)
                        if rec["superseded_by"] is not None:
                            superseded.append((fact_ids[rec["ref"]], rec["superseded_by"]))
                        counts["facts"] += 1
                    elif kind == "fact_change":
                        ref = rec["fact"]
                        if ref in skipped_refs:
                            continue
                        if rec["fact"] not in fact_ids:
                            raise InvalidInput(f"fact_change refers to unknown fact ref {rec['fact']}")
                        self._history(
                            conn,
                            agent_id,
                            fact_ids[rec["fact"]],
                            rec["action"],
                            rec["actor"],
                            rec["old_content"],
                            rec["new_content"],
                            rec["changes"],
                            rec["at"],
                        )
                        counts["fact_changes"] += 1
                    else:
                        raise InvalidInput(f"unknown record type {kind!r}")
                for fact_id, ref in superseded:
                    conn.execute("UPDATE facts SET superseded_by = ? WHERE id = ?", (fact_ids.get(ref), fact_id))
        except (KeyError, TypeError) as exc:
            raise InvalidInput(f"malformed export record: missing or bad field {exc}") from exc
        except sqlite3.IntegrityError as exc:
            raise InvalidInput(f"export records are inconsistent: {exc}") from exc
        self._remember_agent(agent, agent_id)
        return counts


# -- row conversion ---------------------------------------------------------------------------------
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
        tool_calls=load_json(r[8]),
        tool_call_id=r[9],
        token_count=r[10],
        metadata=load_json(r[11]),
        created_at=parse_time(r[12]),  # type: ignore[arg-type]
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
        metadata=load_json(r[11]),
        created_at=parse_time(r[12]),  # type: ignore[arg-type]
        updated_at=parse_time(r[13]),  # type: ignore[arg-type]
        last_accessed_at=parse_time(r[14]),
        access_count=r[15],
        status=r[16],
        valid_from=parse_time(r[17]),
        invalid_at=parse_time(r[18]),
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
        metadata=load_json(r[9]),
        created_at=parse_time(r[10]),  # type: ignore[arg-type]
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
        "metadata": load_json(s[9]),
        "created_at": s[10],
    }


def _jsonable(value: Any) -> Any:
    return fmt_time(value) if isinstance(value, datetime) else value


def _detach_memories(conn: sqlite3.Connection, where: str, params: tuple[Any, ...]) -> None:
    """Keep the agent's memories (seed 001: they last until purged) when their thread goes away."""
    ids = [r[0] for r in conn.execute(f"SELECT id FROM summaries WHERE kind = 'memory' AND {where}", params)]  # noqa: S608
    if not ids:
        return
    marks = ",".join("?" * len(ids))
    conn.execute(f"UPDATE summaries SET thread_id = NULL WHERE id IN ({marks})", ids)  # noqa: S608
    conn.execute(f"UPDATE embeddings SET thread_id = NULL WHERE kind = 'summary' AND item_id IN ({marks})", ids)  # noqa: S608
    conn.execute(
        f"UPDATE agents SET vector_epoch = vector_epoch + 1 WHERE id IN "  # noqa: S608
        f"(SELECT agent_id FROM summaries WHERE id IN ({marks}))",
        ids,
    )


def _summary_visibility(agent_id: int, thread_id: int | None, user: str | None) -> tuple[str, list[Any]]:
    """Which summaries a scope sees (an SQL predicate on alias ``s``).

    A thread scope sees that thread's summaries. A user sees their own (e.g. their profile) and the
    owner-less ones of their threads or of no thread (the agent's memories). Without a user, only
    owner-less summaries are visible: a user's profile never reaches anyone else.
    """
    if thread_id is not None:
        return "s.thread_id = ? AND (s.owner IS NULL OR s.owner IS ?)", [thread_id, user]
    if user is not None:
        return (
            "(s.owner = ? OR (s.owner IS NULL AND (s.thread_id IS NULL OR s.thread_id IN "
            "(SELECT thread_id FROM thread_users WHERE agent_id = ? AND user_id = ?))))",
            [user, agent_id, user],
        )
    return "s.owner IS NULL", []


def _time_range(sql: str, params: list[Any], column: str, scope: Scope) -> tuple[str, list[Any]]:
    if scope.since is not None:
        sql += f" AND {column} >= ?"
        params.append(fmt_time(scope.since))
    if scope.until is not None:
        sql += f" AND {column} < ?"
        params.append(fmt_time(scope.until))
    return sql, params


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
