"""Threads and their messages in the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`).

Appending upserts the thread row with ``INSERT … ON CONFLICT DO UPDATE SET next_seq = next_seq + n``: that
statement creates the row or row-locks the existing one and allocates the range of sequence numbers in one
step (see :mod:`memlane.store.postgres`); the messages and their participants are written by one more.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np
from psycopg import sql

from ...errors import NotFound
from ...types import Message, MessageHead, Thread, UserRecord
from ...validation import NewJob
from .._common import dump_json, known_roles, speaker_names
from ..base import ThreadAppend, WriteVectors, vectors_now
from .common import (
    HEAD_SELECT,
    MESSAGE_SELECT,
    THREAD_SELECT,
    Conn,
    Ids,
    PostgresHost,
    Where,
    as_json,
    head_row,
    message_row,
    one_row,
    sql_limit,
    thread_row,
)
from .jobs import insert_jobs

__all__ = ["PostgresThreads"]


def _claim_thread(conn: Conn, agent_id: int, append: ThreadAppend, stamps: Sequence[datetime]) -> tuple[int, int]:
    """Create the thread or lock it, and allocate its messages' sequence numbers, in one statement; the
    thread's id and the first number taken."""
    n = len(append.items)
    row = one_row(
        conn,
        "INSERT INTO threads AS t (agent_id, key, next_seq, message_count, created_at, updated_at) "
        "VALUES (%(agent)s, %(key)s, 1 + %(n)s, %(n)s, %(first)s, %(last)s) "
        "ON CONFLICT (agent_id, key) DO UPDATE SET next_seq = t.next_seq + %(n)s, "
        "message_count = t.message_count + %(n)s, updated_at = greatest(t.updated_at, %(last)s), "
        "created_at = least(t.created_at, %(first)s) RETURNING t.id, t.next_seq - %(n)s",
        {"agent": agent_id, "key": append.thread, "n": n, "first": min(stamps), "last": max(stamps)},
    )
    return int(row[0]), int(row[1])


def _append_to_thread(
    conn: Conn, agent_id: int, thread_id: int, first_seq: int, append: ThreadAppend, stamps: Sequence[datetime]
) -> list[int]:
    """Write one claimed thread's messages from ``first_seq`` on, with its participants and user records; the
    messages' ids, in order."""
    items, token_counts, n = append.items, append.token_counts, len(append.items)
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
        "ON CONFLICT DO NOTHING), "
        "names AS (INSERT INTO speakers (agent_id, name) SELECT %(agent)s, unnest(%(speakers)s::text[]) "
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
            "speakers": speaker_names(items),
        },
    ).fetchall()
    spoke: dict[str, tuple[int, datetime]] = {}
    for item, stamp in zip(items, stamps, strict=True):
        if item.user is not None and item.role == "user":
            count, last = spoke.get(item.user, (0, stamp))
            spoke[item.user] = (count + 1, max(last, stamp))
    if spoke:
        conn.cursor().executemany(
            "INSERT INTO user_records AS u (agent_id, user_id, interactions, last_interaction) "
            "VALUES (%s, %s, %s, %s) ON CONFLICT (agent_id, user_id) DO UPDATE SET "
            "interactions = u.interactions + excluded.interactions, "
            "last_interaction = greatest(u.last_interaction, excluded.last_interaction)",
            [(agent_id, user, n, last) for user, (n, last) in sorted(spoke.items())],
        )
    by_seq = {int(seq): int(mid) for seq, mid in rows}
    return [by_seq[first_seq + i] for i in range(n)]


class PostgresThreads(PostgresHost):
    """Thread and message methods of the store contract."""

    def _thread_id(self, conn: Conn, agent_id: int | None, thread: str, *, lock: bool = False) -> int | None:
        if agent_id is None:
            return None
        query = "SELECT id FROM threads WHERE agent_id = %s AND key = %s"
        row = conn.execute(query + (" FOR NO KEY UPDATE" if lock else ""), (agent_id, thread)).fetchone()
        return None if row is None else int(row[0])

    def _append_messages(
        self,
        agent: str,
        appends: Sequence[ThreadAppend],
        times: Sequence[Sequence[datetime]],
        now: datetime,
        vectors: WriteVectors | None,
        vectors_later: bool,
    ) -> list[tuple[int, list[int]]]:
        def write(conn: Conn) -> tuple[int, list[tuple[int, list[int]]]]:
            agent_id = self._ensure_agent(conn, agent, now)
            # The threads are locked in the order of their keys (two writes of the same threads cannot
            # deadlock), then their messages written in the order given (their ids ascend in it, as on SQLite).
            claimed = [(0, 0)] * len(appends)  # (thread id, first sequence number) of each append
            for i in sorted(range(len(appends)), key=lambda i: appends[i].thread):
                claimed[i] = _claim_thread(conn, agent_id, appends[i], times[i])
            written = [
                (first_seq, _append_to_thread(conn, agent_id, thread_id, first_seq, append, stamps))
                for append, stamps, (thread_id, first_seq) in zip(appends, times, claimed, strict=True)
            ]
            for append, (thread_id, first_seq) in zip(appends, claimed, strict=True):
                if append.facts:
                    self._write_stated(conn, agent_id, thread_id, append, first_seq, now)
            insert_jobs(conn, agent_id, [job for append in appends for job in append.jobs], now)
            ids = [i for _, appended in written for i in appended]
            if vectors is not None:  # last: the texts may still be embedded while the rows are written
                self._put_vectors(conn, agent_id, "message", ids, vectors_now(vectors))
            elif vectors_later:
                conn.execute("INSERT INTO pending_vectors (message_id) SELECT unnest(%s::bigint[])", (Ids(ids),))
            return agent_id, written

        agent_id, written = self._run("could not store messages", write)
        self._remember_agent(agent, agent_id)
        return written

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

    def _upsert_thread(
        self, agent: str, thread: str, now: datetime, changes: Mapping[str, Any], jobs: Sequence[NewJob]
    ) -> Thread:
        sets: list[sql.Composable] = [sql.SQL("updated_at = greatest(t.updated_at, excluded.updated_at)")]
        sets += [sql.SQL("{0} = excluded.{0}").format(sql.Identifier(key)) for key in changes]
        query = sql.SQL(
            "INSERT INTO threads AS t (agent_id, key, created_at, updated_at, system_prompt, metadata, status, "
            "ended_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (agent_id, key) DO UPDATE SET {} "
            "RETURNING t.id"
        ).format(sql.SQL(", ").join(sets))

        def write(conn: Conn) -> tuple[int, Thread]:
            agent_id = self._ensure_agent(conn, agent, now)
            params = (
                agent_id,
                thread,
                now,
                now,
                changes.get("system_prompt"),
                as_json(changes.get("metadata") or {}),
                changes.get("status") or "open",
                changes.get("ended_at"),
            )
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
        roles: Sequence[str] | None = None,
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
            if roles is not None:  # inlined (known roles only): the partial index of system messages needs it
                where.add(
                    sql.SQL("m.role IN ({})").format(sql.SQL(", ").join(map(sql.Literal, known_roles(roles))))
                    if roles
                    else sql.SQL("FALSE")
                )
            if limit is None:
                query = sql.SQL("{} WHERE {} ORDER BY m.seq").format(sql.SQL(MESSAGE_SELECT), where.sql())
                return [message_row(r) for r in conn.execute(query, where.params)]
            query = sql.SQL("{} WHERE {} ORDER BY m.seq DESC LIMIT %s").format(sql.SQL(MESSAGE_SELECT), where.sql())
            rows = conn.execute(query, [*where.params, sql_limit(limit)]).fetchall()
            return [message_row(r) for r in reversed(rows)]

        return self._run("read messages", read, write=False)

    def get_messages(self, agent: str, ids: Sequence[int]) -> list[Message]:
        return self._read_ids("read messages", agent, ids, MESSAGE_SELECT, "m", message_row)

    def message_heads(self, agent: str, ids: Sequence[int]) -> list[MessageHead]:
        return self._read_ids("read message heads", agent, ids, HEAD_SELECT, "m", head_row)

    def message_windows(
        self, agent: str, ids: Sequence[int], *, before: int, after: int, skip: Collection[int] = ()
    ) -> list[Message]:
        if not ids:
            return []
        query = sql.SQL(
            "{} WHERE m.id IN (SELECT w.id FROM messages x JOIN messages w ON w.thread_id = x.thread_id "
            "AND w.seq BETWEEN x.seq - %s AND x.seq + %s WHERE x.agent_id = %s AND x.id = ANY(%s)) "
            "AND m.id <> ALL(%s) "
            'ORDER BY t.key COLLATE "C", m.seq'
        ).format(sql.SQL(MESSAGE_SELECT))

        def read(conn: Conn) -> list[Message]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            rows = conn.execute(query, (max(before, 0), max(after, 0), agent_id, Ids(ids), Ids(skip)))
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

    def edit_message(
        self,
        agent: str,
        thread: str,
        message_id: int,
        content: str,
        token_count: int,
        vector: np.ndarray | None = None,
    ) -> Message:
        def write(conn: Conn) -> int:
            agent_id = self._agent_id(conn, agent)
            thread_id = self._thread_id(conn, agent_id, thread, lock=True) if agent_id is not None else None
            if agent_id is None or thread_id is None:
                raise NotFound(f"no thread {thread!r} in agent {agent!r}")
            # The keyword index is a generated column of the row: updating the content updates it.
            done = conn.execute(
                "UPDATE messages SET content = %s, token_count = %s WHERE id = %s AND thread_id = %s",
                (content, token_count, message_id, thread_id),
            ).rowcount
            if not done:
                raise NotFound(f"no message {message_id} in thread {thread!r}")
            if vector is not None:
                self._put_vectors(conn, agent_id, "message", [message_id], np.asarray(vector)[None, :])
            return agent_id

        self._run("could not edit the message", write)
        return self.get_messages(agent, [message_id])[0]

    def speakers(self, agent: str) -> list[str]:
        def read(conn: Conn) -> list[str]:
            rows = conn.execute(
                "SELECT s.name FROM speakers s JOIN agents a ON a.id = s.agent_id WHERE a.name = %s "
                'ORDER BY s.name COLLATE "C"',
                (agent,),
            )
            return [str(r[0]) for r in rows]

        return self._run("could not read the speakers", read, write=False)

    def get_user(self, agent: str, user: str) -> UserRecord | None:
        def read(conn: Conn) -> UserRecord | None:
            row = conn.execute(
                "SELECT u.persona, u.custom_context, u.interactions, u.last_interaction FROM user_records u "
                "JOIN agents a ON a.id = u.agent_id WHERE a.name = %s AND u.user_id = %s",
                (agent, user),
            ).fetchone()
            if row is None:
                return None
            return UserRecord(user, row[0], row[1], int(row[2]), row[3])

        return self._run("could not read the user", read, write=False)

    def set_user(self, agent: str, user: str, changes: Mapping[str, str | None], now: datetime) -> UserRecord:
        def write(conn: Conn) -> int:
            agent_id = self._ensure_agent(conn, agent, now)
            conn.execute(
                "INSERT INTO user_records (agent_id, user_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                (agent_id, user),
            )
            for column in ("persona", "custom_context"):
                if column in changes:
                    conn.execute(
                        sql.SQL("UPDATE user_records SET {} = %s WHERE agent_id = %s AND user_id = %s").format(
                            sql.Identifier(column)
                        ),
                        (changes[column], agent_id, user),
                    )
            return agent_id

        self._remember_agent(agent, self._run("could not store the user", write))
        found = self.get_user(agent, user)
        assert found is not None
        return found

    def find_external_message(self, agent: str, thread: str, external_id: str) -> int | None:
        def read(conn: Conn) -> int | None:
            row = conn.execute(
                "SELECT m.id FROM messages m JOIN threads t ON t.id = m.thread_id JOIN agents a ON a.id = t.agent_id "
                "WHERE a.name = %s AND t.key = %s AND (m.metadata->>'external_id') = %s "
                "AND (m.metadata->>'external_id') IS NOT NULL",
                (agent, thread, external_id),
            ).fetchone()
            return None if row is None else int(row[0])

        return self._run("could not find the message", read, write=False)

    def delete_messages(self, agent: str, thread: str, ids: Sequence[int]) -> int:
        wanted = sorted({int(i) for i in ids})

        def write(conn: Conn) -> int:
            agent_id = self._agent_id(conn, agent)
            thread_id = self._thread_id(conn, agent_id, thread, lock=True) if agent_id is not None else None
            if thread_id is None:
                raise NotFound(f"no thread {thread!r} in agent {agent!r}")
            if not wanted:
                return 0
            # Vectors go by ON DELETE CASCADE; the keyword index is a generated column of the row.
            row = one_row(
                conn,
                "WITH gone AS (DELETE FROM messages WHERE thread_id = %s AND id = ANY(%s) RETURNING id), "
                "counted AS (UPDATE threads SET message_count = message_count - (SELECT count(*) FROM gone) "
                "WHERE id = %s) SELECT count(*) FROM gone",
                (thread_id, wanted, thread_id),
            )
            return int(row[0])

        return self._run("could not delete messages", write)

    def prune_messages(self, agent: str, created_before: datetime, *, thread: str | None = None) -> int:
        def write(conn: Conn) -> int:
            agent_id = self._agent_id(conn, agent)
            if thread is not None:
                thread_id = self._thread_id(conn, agent_id, thread, lock=True)
                if thread_id is None:
                    raise NotFound(f"no thread {thread!r} in agent {agent!r}")
                thread_ids = [thread_id]
            elif agent_id is None:
                return 0
            else:
                # Lock the threads before their messages, in id order, as appending does (thread row
                # first), so a concurrent append waits instead of deadlocking.
                rows = conn.execute(
                    "SELECT id FROM threads WHERE agent_id = %s AND id IN (SELECT thread_id FROM messages "
                    "WHERE agent_id = %s AND created_at < %s) ORDER BY id FOR NO KEY UPDATE",
                    (agent_id, agent_id, created_before),
                ).fetchall()
                thread_ids = [int(r[0]) for r in rows]
            if not thread_ids:
                return 0
            # Vectors go by ON DELETE CASCADE; the keyword index is a generated column of the row.
            row = one_row(
                conn,
                "WITH gone AS (DELETE FROM messages WHERE thread_id = ANY(%s) AND created_at < %s "
                "RETURNING thread_id), counts AS (SELECT thread_id, count(*) AS n FROM gone GROUP BY thread_id), "
                "counted AS (UPDATE threads t SET message_count = t.message_count - c.n FROM counts c "
                "WHERE t.id = c.thread_id) SELECT coalesce(sum(n), 0) FROM counts",
                (thread_ids, created_before),
            )
            return int(row[0])

        return self._run("could not prune messages", write)


def _detach_memories(conn: Conn, thread_ids: Sequence[int]) -> None:
    """Keep the agent's memories (summaries of kind 'memory' last until purged) when their thread goes:
    those of a conversation without users and those a user owns; the owner-less memory of a conversation
    of several users goes with it, as in the SQLite backend."""
    if thread_ids:
        conn.execute(
            "UPDATE summaries s SET thread_id = NULL WHERE s.kind = 'memory' AND s.thread_id = ANY(%s) "
            "AND (s.owner IS NOT NULL OR NOT EXISTS (SELECT 1 FROM thread_users u WHERE u.thread_id = s.thread_id))",
            (list(thread_ids),),
        )
