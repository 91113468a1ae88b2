"""Summaries in the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`).

A summary is stored once per (thread, kind, owner, range), as in the SQLite backend. The unique index
cannot see two rows with a NULL in that key as equal, so the writers of one such key queue on an
advisory lock instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np
from psycopg import sql

from ...errors import NotFound
from ...types import Summary
from ...validation import NewSummary
from .._common import marked_range
from .common import SUMMARY_SELECT, Conn, PostgresHost, Where, as_json, one_row, sql_limit, summary_row

__all__ = ["PostgresSummaries"]


class PostgresSummaries(PostgresHost):
    """Summary methods of the store contract."""

    def summaries(
        self,
        agent: str,
        *,
        thread: str | None,
        kind: str | None,
        limit: int | None,
        owners: Sequence[str | None] | None = None,
    ) -> list[Summary]:
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
            if owners is not None:
                named = [o for o in owners if o is not None]
                where.add("(s.owner = ANY(%s::text[]) OR (%s::boolean AND s.owner IS NULL))", named, None in owners)
            query = sql.SQL("{} WHERE {} ORDER BY s.created_at DESC, s.id DESC LIMIT %s").format(
                sql.SQL(SUMMARY_SELECT),
                where.sql(),
            )
            return [summary_row(r) for r in conn.execute(query, [*where.params, sql_limit(limit)])]

        return self._run("read summaries", read, write=False)

    def get_summaries(self, agent: str, ids: Sequence[int]) -> list[Summary]:
        return self._read_ids("read summaries", agent, ids, SUMMARY_SELECT, "s", summary_row)

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
            marked = marked_range(thread_id, summary.from_seq, summary.to_seq) if mark_summarized else None
            if marked is not None:
                conn.execute(
                    "UPDATE messages SET summarized = true WHERE thread_id = %s AND seq BETWEEN %s AND %s",
                    (thread_id, *marked),
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
