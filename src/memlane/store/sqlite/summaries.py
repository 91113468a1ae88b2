"""Summaries in the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`): thread
summaries, user profiles and the agent's memories, which outlive their thread.

Adding a summary of a range that is already summarized returns the stored one (the write is idempotent),
so a job that runs twice stores one summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...errors import NotFound
from ...types import Summary
from ...validation import NewSummary
from .._common import dump_json, fmt_time, marked_range
from .common import SUMMARY_COLS, SQLiteHost, next_id, summary_row

if TYPE_CHECKING:  # numpy loads with the first vector read or written
    import numpy as np

__all__ = ["SQLiteSummaries"]


class SQLiteSummaries(SQLiteHost):
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
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        sql = (
            f"SELECT {SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
            "LEFT JOIN threads t ON t.id = s.thread_id WHERE s.agent_id = ?"
        )
        params: list[Any] = [agent_id]
        if thread is not None:
            sql += " AND t.key = ?"
            params.append(thread)
        if kind is not None:
            sql += " AND s.kind = ?"
            params.append(kind)
        if owners is not None:
            named = [o for o in owners if o is not None]
            either = [f"s.owner IN ({','.join('?' * len(named))})"] if named else []
            either += ["s.owner IS NULL"] if None in owners else []
            sql += " AND (" + (" OR ".join(either) or "0") + ")"
            params += named
        sql += " ORDER BY s.created_at DESC, s.id DESC LIMIT ?"
        params.append(-1 if limit is None else limit)
        return [summary_row(r) for r in self._query(sql, params)]

    def get_summaries(self, agent: str, ids: Sequence[int]) -> list[Summary]:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [
            summary_row(r)
            for r in self._query(
                f"SELECT {SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
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
                summary_id = next_id(conn, "summaries")
                conn.execute(
                    "INSERT INTO summaries (id, agent_id, thread_id, kind, owner, from_seq, to_seq, content, method, "
                    "metadata, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        summary_id,
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
                if vector is not None:
                    self._put_vectors(conn, agent_id, "summary", [summary_id], [thread_id], [stamp], vector[None, :])
            else:
                summary_id = int(existing[0])
            marked = marked_range(thread_id, summary.from_seq, summary.to_seq) if mark_summarized else None
            if marked is not None:
                conn.execute(
                    "UPDATE messages SET summarized = 1 WHERE thread_id = ? AND seq BETWEEN ? AND ?",
                    (thread_id, *marked),
                )
            # Read back inside the transaction: after it, another process may already have replaced the row.
            stored = summary_row(
                conn.execute(
                    f"SELECT {SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
                    "LEFT JOIN threads t ON t.id = s.thread_id WHERE s.id = ?",
                    (summary_id,),
                ).fetchone()
            )
        self._remember_agent(agent, agent_id)
        return stored, created

    def delete_summaries(self, agent: str, ids: Sequence[int]) -> int:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return 0
        marks = ",".join("?" * len(ids))
        with self._write() as conn:
            return int(
                conn.execute(
                    f"DELETE FROM summaries WHERE +agent_id = ? AND id IN ({marks})",  # noqa: S608
                    (agent_id, *ids),
                ).rowcount
            )
