"""Threads and their messages in the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`).

Appending takes the thread's next sequence numbers inside the store's ``BEGIN IMMEDIATE`` write, so they
stay gap-free across processes; each message is indexed for keyword search (``messages_fts``) in the same
transaction, with its words tagged by agent (:func:`~memlane.store.sqlite.schema.agent_terms`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...errors import NotFound, StorageError
from ...types import Message, MessageHead, Thread, UserRecord
from ...validation import NewJob, NewMessage
from .._common import dump_json, fmt_time, known_roles, parse_time, speaker_names, thread_from_row
from ..base import ThreadAppend, WriteVectors, vectors_now
from .common import (
    HEAD_COLS,
    MESSAGE_COLS,
    ROWS,
    THREAD_COLS,
    SQLiteHost,
    column_value,
    head_row,
    message_row,
    next_id,
)
from .jobs import insert_jobs
from .schema import agent_terms

if TYPE_CHECKING:  # numpy loads with the first vector read or written
    import numpy as np

__all__ = ["SQLiteThreads"]


def _insert_messages(
    conn: sqlite3.Connection,
    agent_id: int,
    thread_id: int,
    next_seq: int,
    items: Sequence[NewMessage],
    token_counts: Sequence[int],
    stamps: Sequence[str],
) -> list[int]:
    """Write messages from ``next_seq`` on, with their participants and the thread's counters; their ids."""
    first_id = next_id(conn, "messages")
    rows = [
        (
            first_id + i,
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
        "INSERT INTO messages (id, agent_id, thread_id, seq, role, user_id, name, content, tool_calls, "
        "tool_call_id, token_count, metadata, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    spoke: dict[str, tuple[int, str]] = {}
    for item, stamp in zip(items, stamps, strict=True):
        if item.user is not None and item.role == "user":
            count, last = spoke.get(item.user, (0, stamp))
            spoke[item.user] = (count + 1, max(last, stamp))
    conn.executemany(
        "INSERT INTO user_records (agent_id, user_id, interactions, last_interaction) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (agent_id, user_id) DO UPDATE SET interactions = interactions + excluded.interactions, "
        "last_interaction = max(coalesce(last_interaction, ''), excluded.last_interaction)",
        [(agent_id, user, n, last) for user, (n, last) in sorted(spoke.items())],
    )
    users = {item.user for item in items if item.user is not None}
    if users:
        conn.executemany(
            "INSERT OR IGNORE INTO thread_users (thread_id, user_id, agent_id) VALUES (?, ?, ?)",
            [(thread_id, user, agent_id) for user in sorted(users)],
        )
    conn.executemany(
        "INSERT OR IGNORE INTO speakers (agent_id, name) VALUES (?, ?)",
        [(agent_id, name) for name in speaker_names(items)],
    )
    conn.execute(
        "UPDATE threads SET next_seq = ?, message_count = message_count + ?, "
        "updated_at = max(updated_at, ?), created_at = min(created_at, ?) WHERE id = ?",
        (next_seq + len(items), len(items), max(stamps), min(stamps), thread_id),
    )
    return [first_id + i for i in range(len(items))]


def _index_messages(
    conn: sqlite3.Connection, agent_id: int, thread_id: int, ids: Sequence[int], items: Sequence[NewMessage]
) -> None:
    """Add messages to the keyword index, their words and speaker tagged by agent."""
    scope = f"a{agent_id} t{thread_id}"
    conn.executemany(
        "INSERT INTO messages_fts (rowid, content, speaker, scope) VALUES (?, ?, ?, ?)",
        [
            (
                ids[i],
                agent_terms(agent_id, m.content),
                agent_terms(agent_id, m.name or m.user or m.role),
                scope,
            )
            for i, m in enumerate(items)
        ],
    )


def _detach_memories(conn: sqlite3.Connection, where: str, params: tuple[Any, ...]) -> None:
    """Keep the agent's memories (seed 001: they last until purged) when their thread goes away: those
    of a conversation without users (the agent's) and those a user owns. The owner-less memory of a
    conversation of several users goes with it: once the thread and its users are gone, nothing would
    say who may see it (see ``memlane.pipeline.memories.audience_of``)."""
    ids = [
        r[0]
        for r in conn.execute(
            f"SELECT id FROM summaries WHERE kind = 'memory' AND {where} AND (owner IS NOT NULL OR NOT EXISTS "  # noqa: S608
            "(SELECT 1 FROM thread_users u WHERE u.thread_id = summaries.thread_id))",
            params,
        )
    ]
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


class SQLiteThreads(SQLiteHost):
    """Thread and message methods of the store contract."""

    def _thread_id(self, conn: sqlite3.Connection, agent: str, thread: str) -> int | None:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return None
        row = conn.execute("SELECT id FROM threads WHERE agent_id = ? AND key = ?", (agent_id, thread)).fetchone()
        return None if row is None else int(row[0])

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

    # -- messages -----------------------------------------------------------------------------------
    def _append_messages(
        self,
        agent: str,
        appends: Sequence[ThreadAppend],
        times: Sequence[Sequence[datetime]],
        now: datetime,
        vectors: WriteVectors | None,
        vectors_later: bool,
    ) -> list[tuple[int, list[int]]]:
        texts = {t: fmt_time(t) for ts in times for t in dict.fromkeys(ts)}  # most messages carry no time of their own
        stamps = [[texts[t] for t in ts] for ts in times]
        written: list[tuple[int, list[int]]] = []
        try:
            with self._write() as conn:
                agent_id = self._ensure_agent(conn, agent, now)
                threads: list[int] = []
                for append, moments, when in zip(appends, times, stamps, strict=True):
                    thread_id, next_seq = self._ensure_thread(conn, agent_id, append.thread, moments[0])
                    ids = _insert_messages(conn, agent_id, thread_id, next_seq, append.items, append.token_counts, when)
                    _index_messages(conn, agent_id, thread_id, ids, append.items)
                    if append.facts:
                        self._write_stated(conn, agent_id, thread_id, append, next_seq, now)
                    written.append((next_seq, ids))
                    threads += [thread_id] * len(ids)
                all_ids = [i for _, ids in written for i in ids]
                if vectors is not None:  # last: the texts may still be embedded while the rows are written
                    rows = vectors_now(vectors)
                    all_stamps = [stamp for when in stamps for stamp in when]
                    self._put_vectors(conn, agent_id, "message", all_ids, threads, all_stamps, rows)
                elif vectors_later:
                    conn.executemany("INSERT INTO pending_vectors (message_id) VALUES (?)", [(i,) for i in all_ids])
                jobs = [job for append in appends for job in append.jobs]
                if jobs:
                    insert_jobs(conn, agent_id, jobs, now)
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"could not store messages: {exc}") from exc
        self._remember_agent(agent, agent_id)
        return written

    def messages(
        self,
        agent: str,
        thread: str,
        *,
        limit: int | None = None,
        before_seq: int | None = None,
        after_seq: int | None = None,
        unsummarized_only: bool = False,
        roles: Sequence[str] | None = None,
    ) -> list[Message]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        # The system messages of a thread have an index of their own (migration 8); the planner would rather
        # walk the thread's (thread_id, seq) index, reading every other message on the way.
        hint = " INDEXED BY messages_system" if roles is not None and list(roles) == ["system"] else ""
        sql = (
            f"SELECT {MESSAGE_COLS} FROM messages m{hint} JOIN threads t ON t.id = m.thread_id "  # noqa: S608
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
        if roles is not None:
            # Inlined (known roles only), so that the partial index of system messages serves role = 'system'.
            sql += f" AND m.role IN ({', '.join(repr(r) for r in known_roles(roles))})" if roles else " AND 0"
            sql += " AND m.role = 'system'" if hint else ""  # the index's own condition, as SQLite wants it
        if limit is None:
            sql += " ORDER BY m.seq"
            return [message_row(r) for r in self._query(sql, params)]
        sql += " ORDER BY m.seq DESC LIMIT ?"
        params.append(limit)
        return [message_row(r) for r in reversed(self._query(sql, params))]

    def get_messages(self, agent: str, ids: Sequence[int]) -> list[Message]:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [
            message_row(r)
            for r in self._query(
                f"SELECT {MESSAGE_COLS} FROM messages m JOIN threads t ON t.id = m.thread_id "  # noqa: S608
                f"JOIN agents a ON a.id = m.agent_id WHERE +m.agent_id = ? AND m.id IN ({marks}) ORDER BY m.id",
                (agent_id, *ids),
            )
        ]

    def message_heads(self, agent: str, ids: Sequence[int]) -> list[MessageHead]:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [
            head_row(r)
            for r in self._query(
                f"SELECT {HEAD_COLS} FROM messages m JOIN threads t ON t.id = m.thread_id "  # noqa: S608
                f"WHERE +m.agent_id = ? AND m.id IN ({marks}) ORDER BY m.id",
                (agent_id, *ids),
            )
        ]

    def message_windows(
        self, agent: str, ids: Sequence[int], *, before: int, after: int, skip: Collection[int] = ()
    ) -> list[Message]:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return []
        marks = ",".join("?" * len(ids))
        skipped = f" AND m.id NOT IN ({','.join('?' * len(skip))})" if skip else ""
        rows = self._query(
            f"SELECT DISTINCT {MESSAGE_COLS} FROM messages x "  # noqa: S608
            "JOIN messages m ON m.thread_id = x.thread_id AND m.seq BETWEEN x.seq - ? AND x.seq + ? "
            "JOIN threads t ON t.id = m.thread_id JOIN agents a ON a.id = m.agent_id "
            f"WHERE +x.agent_id = ? AND x.id IN ({marks}){skipped} ORDER BY t.key, m.seq",
            (max(before, 0), max(after, 0), agent_id, *ids, *skip),
        )
        return [message_row(r) for r in rows]

    # -- threads ------------------------------------------------------------------------------------
    def get_thread(self, agent: str, thread: str) -> Thread | None:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return None
        with self._read() as conn:
            row = conn.execute(
                f"SELECT {THREAD_COLS} FROM threads t JOIN agents a ON a.id = t.agent_id "  # noqa: S608
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
        return thread_from_row(row, users, ROWS)

    def list_threads(
        self, agent: str, *, user: str | None, status: str | None, limit: int | None, offset: int
    ) -> list[Thread]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        sql = f"SELECT {THREAD_COLS} FROM threads t JOIN agents a ON a.id = t.agent_id WHERE t.agent_id = ?"  # noqa: S608
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

    def _upsert_thread(
        self, agent: str, thread: str, now: datetime, changes: Mapping[str, Any], jobs: Sequence[NewJob]
    ) -> Thread:
        with self._write() as conn:
            agent_id = self._ensure_agent(conn, agent, now)
            thread_id, _ = self._ensure_thread(conn, agent_id, thread, now)
            sets = ["updated_at = max(updated_at, ?)", *(f"{key} = ?" for key in changes)]
            params = [fmt_time(now), *(column_value(key, value) for key, value in changes.items())]
            conn.execute(f"UPDATE threads SET {', '.join(sets)} WHERE id = ?", (*params, thread_id))  # noqa: S608
            if jobs:
                insert_jobs(conn, agent_id, jobs, now)
        self._remember_agent(agent, agent_id)
        result = self.get_thread(agent, thread)
        assert result is not None
        return result

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

    def edit_message(
        self,
        agent: str,
        thread: str,
        message_id: int,
        content: str,
        token_count: int,
        vector: np.ndarray | None = None,
    ) -> Message:
        with self._write() as conn:
            thread_id = self._thread_id(conn, agent, thread)
            if thread_id is None:
                raise NotFound(f"no thread {thread!r} in agent {agent!r}")
            row = conn.execute(
                "SELECT agent_id, content, coalesce(name, user_id, role), created_at FROM messages "
                "WHERE id = ? AND thread_id = ?",
                (message_id, thread_id),
            ).fetchone()
            if row is None:
                raise NotFound(f"no message {message_id} in thread {thread!r}")
            agent_id, old, speaker, stamp = row
            scope = f"a{agent_id} t{thread_id}"
            # The keyword index holds no text of its own (contentless FTS5): the old terms go out, the new in.
            conn.execute(
                "INSERT INTO messages_fts (messages_fts, rowid, content, speaker, scope) VALUES ('delete', ?, ?, ?, ?)",
                (message_id, agent_terms(agent_id, old), agent_terms(agent_id, speaker), scope),
            )
            conn.execute(
                "UPDATE messages SET content = ?, token_count = ? WHERE id = ?", (content, token_count, message_id)
            )
            conn.execute(
                "INSERT INTO messages_fts (rowid, content, speaker, scope) VALUES (?, ?, ?, ?)",
                (message_id, agent_terms(agent_id, content), agent_terms(agent_id, speaker), scope),
            )
            if vector is not None:
                conn.execute("DELETE FROM embeddings WHERE kind = 'message' AND item_id = ?", (message_id,))
                self._put_vectors(conn, agent_id, "message", [message_id], [thread_id], [stamp], vector[None, :])
        return self.get_messages(agent, [message_id])[0]

    def speakers(self, agent: str) -> list[str]:
        rows = self._query(
            "SELECT s.name FROM speakers s JOIN agents a ON a.id = s.agent_id WHERE a.name = ? ORDER BY s.name",
            (agent,),
        )
        return [str(r[0]) for r in rows]

    def get_user(self, agent: str, user: str) -> UserRecord | None:
        rows = self._query(
            "SELECT u.persona, u.custom_context, u.interactions, u.last_interaction FROM user_records u "
            "JOIN agents a ON a.id = u.agent_id WHERE a.name = ? AND u.user_id = ?",
            (agent, user),
        )
        if not rows:
            return None
        persona, context, interactions, last = rows[0]
        return UserRecord(user, persona, context, int(interactions), parse_time(last))

    def set_user(self, agent: str, user: str, changes: Mapping[str, str | None], now: datetime) -> UserRecord:
        with self._write() as conn:
            agent_id = self._ensure_agent(conn, agent, now)
            conn.execute(
                "INSERT INTO user_records (agent_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING", (agent_id, user)
            )
            for column in ("persona", "custom_context"):
                if column in changes:
                    conn.execute(
                        f"UPDATE user_records SET {column} = ? WHERE agent_id = ? AND user_id = ?",  # noqa: S608
                        (changes[column], agent_id, user),
                    )
        self._remember_agent(agent, agent_id)
        found = self.get_user(agent, user)
        assert found is not None
        return found

    def find_external_message(self, agent: str, thread: str, external_id: str) -> int | None:
        rows = self._query(
            "SELECT m.id FROM messages m JOIN threads t ON t.id = m.thread_id JOIN agents a ON a.id = t.agent_id "
            "WHERE a.name = ? AND t.key = ? AND json_extract(m.metadata, '$.external_id') = ? "
            "AND json_extract(m.metadata, '$.external_id') IS NOT NULL",
            (agent, thread, external_id),
        )
        return int(rows[0][0]) if rows else None

    def delete_messages(self, agent: str, thread: str, ids: Sequence[int]) -> int:
        wanted = sorted({int(i) for i in ids})
        with self._write() as conn:
            thread_id = self._thread_id(conn, agent, thread)
            if thread_id is None:
                raise NotFound(f"no thread {thread!r} in agent {agent!r}")
            if not wanted:
                return 0
            marks = ",".join("?" * len(wanted))
            # The delete triggers drop each message's keyword-index entry and vector (see prune_messages).
            gone = int(
                conn.execute(
                    f"DELETE FROM messages WHERE thread_id = ? AND id IN ({marks})",  # noqa: S608
                    (thread_id, *wanted),
                ).rowcount
            )
            conn.execute("UPDATE threads SET message_count = message_count - ? WHERE id = ?", (gone, thread_id))
            return gone

    def prune_messages(self, agent: str, created_before: datetime, *, thread: str | None = None) -> int:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            if thread is not None:
                raise NotFound(f"no thread {thread!r} in agent {agent!r}")
            return 0
        where, params = "agent_id = ? AND created_at < ?", [agent_id, fmt_time(created_before)]
        with self._write() as conn:
            if thread is not None:
                thread_id = self._thread_id(conn, agent, thread)
                if thread_id is None:
                    raise NotFound(f"no thread {thread!r} in agent {agent!r}")
                where, params = where + " AND thread_id = ?", [*params, thread_id]
            # Counts first, then rows: the delete triggers drop each message's keyword-index entry and
            # vector, and a dropped vector bumps the agent's vector epoch so that vector caches reload.
            gone = conn.execute(
                f"SELECT count(*), thread_id FROM messages WHERE {where} GROUP BY thread_id",  # noqa: S608
                params,
            ).fetchall()
            conn.executemany("UPDATE threads SET message_count = message_count - ? WHERE id = ?", gone)
            return int(conn.execute(f"DELETE FROM messages WHERE {where}", params).rowcount)  # noqa: S608
