"""Facts and their history in the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`).

Every change of a fact is written with its history entry (and vector, and queued jobs) in one transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ...errors import NotFound
from ...types import Fact, FactChange
from ...validation import NewFact, NewJob
from .._common import check_fact_fields, dump_json, fact_change_from_row, fact_diff, fmt_time
from ..base import FactFilter, ThreadAppend
from .common import FACT_COLS, ROWS, SQLiteHost, column_value, fact_row, fact_where
from .jobs import insert_jobs

if TYPE_CHECKING:  # numpy loads with the first vector read or written
    import numpy as np

__all__ = ["SQLiteFacts", "insert_history"]


def insert_history(
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
    """Add an entry to a fact's history, on an open write transaction."""
    conn.execute(
        "INSERT INTO fact_history (agent_id, fact_id, action, actor, old_content, new_content, changes, at) "
        "VALUES (?,?,?,?,?,?,?,?)",
        (agent_id, fact_id, action, actor, old, new, dump_json(changes), stamp),
    )


def _fact_to_change(conn: sqlite3.Connection, agent: str, agent_id: int, fact_id: int) -> Fact:
    """The fact as the write transaction sees it; NotFound if the agent has no such fact."""
    row = conn.execute(
        f"SELECT {FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id "  # noqa: S608
        "WHERE f.agent_id = ? AND f.id = ?",
        (agent_id, fact_id),
    ).fetchone()
    if row is None:
        raise NotFound(f"no fact {fact_id} in agent {agent!r}")
    return fact_row(row)


class SQLiteFacts(SQLiteHost):
    """Fact methods of the store contract."""

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
            fact_id = self._insert_fact(conn, agent_id, fact, source_thread_id, actor, stamp, vector)
            if jobs:
                insert_jobs(conn, agent_id, jobs, now)
        self._remember_agent(agent, agent_id)
        return self.get_facts(agent, [fact_id])[0]

    def _insert_fact(
        self,
        conn: sqlite3.Connection,
        agent_id: int,
        fact: NewFact,
        source_thread_id: int | None,
        actor: str | None,
        stamp: str,
        vector: np.ndarray | None,
    ) -> int:
        """Insert a fact with its 'create' history entry (and vector) on an open write transaction; its id."""
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
        insert_history(conn, agent_id, fact_id, "create", actor, None, fact.content, {}, stamp)
        if vector is not None:
            self._put_vectors(conn, agent_id, "fact", [fact_id], [source_thread_id], [stamp], vector[None, :])
        return fact_id

    def _write_stated(
        self,
        conn: sqlite3.Connection,
        agent_id: int,
        thread_id: int,
        append: ThreadAppend,
        first_seq: int,
        now: datetime,
    ) -> None:
        """Store the facts an append's messages state, on the transaction that writes the messages (see
        :class:`~memlane.store.base.StatedFact`)."""
        stamp = fmt_time(now)
        for stated in append.facts:
            seq = first_seq + stated.item
            fact = replace(stated.fact, source_thread=append.thread, source_from_seq=seq, source_to_seq=seq)
            fact_id = self._insert_fact(conn, agent_id, fact, thread_id, fact.owner, stamp, stated.vector)
            for old in stated.supersedes:
                row = conn.execute(
                    f"SELECT {FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id "  # noqa: S608
                    "WHERE f.agent_id = ? AND f.id = ? AND f.status = 'active'",
                    (agent_id, old),
                ).fetchone()
                if row is not None:  # gone or superseded meanwhile: nothing left to replace
                    before = fact_row(row)
                    changes = {"status": "superseded", "invalid_at": now, "superseded_by": fact_id}
                    self._change_fact(conn, agent_id, before, changes, before.owner, stamp, "supersede")

    def _change_fact(
        self,
        conn: sqlite3.Connection,
        agent_id: int,
        before: Fact,
        changes: dict[str, Any],
        actor: str | None,
        stamp: str,
        action: str,
    ) -> None:
        """Apply field changes to a fact and record them in its history, on an open write transaction."""
        diff = fact_diff(before, changes)
        if not diff:
            return
        stored = {key: column_value(key, changes[key]) for key in diff}
        sets = ", ".join(f"{key} = ?" for key in stored)
        conn.execute(
            # The agent too, in every write's WHERE: a check missed above cannot cross agents.
            f"UPDATE facts SET {sets}, updated_at = ? WHERE id = ? AND agent_id = ?",  # noqa: S608
            (*stored.values(), stamp, before.id, agent_id),
        )
        new_content = changes.get("content", before.content)
        insert_history(conn, agent_id, before.id, action, actor, before.content, new_content, diff, stamp)

    def get_facts(self, agent: str, ids: Sequence[int]) -> list[Fact]:
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return []
        marks = ",".join("?" * len(ids))
        return [
            fact_row(r)
            for r in self._query(
                f"SELECT {FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id "  # noqa: S608
                f"WHERE +f.agent_id = ? AND f.id IN ({marks}) ORDER BY f.id",
                (agent_id, *ids),
            )
        ]

    def list_facts(self, agent: str, flt: FactFilter, *, limit: int | None, offset: int = 0) -> list[Fact]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        where, params = fact_where(agent_id, flt)
        return [
            fact_row(r)
            for r in self._query(
                f"SELECT {FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id WHERE {where} "  # noqa: S608
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
        check_fact_fields(changes)
        stamp = fmt_time(now)
        with self._write() as conn:
            agent_id = self._agent_id(agent)
            if agent_id is None:
                raise NotFound(f"no fact {fact_id} in agent {agent!r}")
            before = _fact_to_change(conn, agent, agent_id, fact_id)
            self._change_fact(conn, agent_id, before, changes, actor, stamp, action)
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
                    insert_history(conn, agent_id, fact_id, "delete", actor, row[0], None, {}, stamp)
            if deleted and jobs:
                insert_jobs(conn, agent_id, jobs, now)
        return deleted

    def fact_history(self, agent: str, fact_id: int) -> list[FactChange]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return []
        return [
            fact_change_from_row(r, ROWS)
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
                f"WHERE +agent_id = ? AND id IN ({marks})",
                (fmt_time(now), agent_id, *ids),
            )
