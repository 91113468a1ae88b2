"""Facts and their history in the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`).

Every change of a fact is written with its history entry (and vector, and queued jobs) in one transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import numpy as np
from psycopg import sql

from ...errors import NotFound
from ...types import Fact, FactChange
from ...validation import NewFact, NewJob
from .._common import check_fact_fields, fact_change_from_row, fact_diff
from ..base import FactFilter, ThreadAppend
from .common import FACT_SELECT, ROWS, Conn, PostgresHost, as_json, fact_row, one_row, sql_limit
from .jobs import insert_jobs

__all__ = ["PostgresFacts"]


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
        (agent_id, fact_id, action, actor, old, new, as_json(changes), at),
    )


def _change_fact(
    conn: Conn, agent_id: int, before: Fact, changes: dict[str, Any], actor: str | None, now: datetime, action: str
) -> None:
    """Apply field changes to a fact and record them in its history, on an open write transaction."""
    diff = fact_diff(before, changes)
    if not diff:
        return
    stored = {key: as_json(changes[key]) if key == "metadata" else changes[key] for key in diff}
    sets = sql.SQL(", ").join(sql.SQL("{} = %s").format(sql.Identifier(key)) for key in stored)
    conn.execute(
        # The agent too, in every write's WHERE: a check missed above cannot cross agents.
        sql.SQL("UPDATE facts SET {}, updated_at = %s WHERE id = %s AND agent_id = %s").format(sets),
        (*stored.values(), now, before.id, agent_id),
    )
    new_content = changes.get("content", before.content)
    _history(conn, agent_id, before.id, action, actor, before.content, new_content, diff, now)


class PostgresFacts(PostgresHost):
    """Fact methods of the store contract."""

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
            fact_id = self._insert_fact(conn, agent_id, fact, source_thread_id, actor, now, vector)
            insert_jobs(conn, agent_id, jobs, now)
            return agent_id, fact_row(one_row(conn, FACT_SELECT + " WHERE f.id = %s", (fact_id,)))

        agent_id, stored = self._run("could not store the fact", write)
        self._remember_agent(agent, agent_id)
        return stored

    def _insert_fact(
        self,
        conn: Conn,
        agent_id: int,
        fact: NewFact,
        source_thread_id: int | None,
        actor: str | None,
        now: datetime,
        vector: np.ndarray | None,
    ) -> int:
        """Insert a fact with its 'create' history entry (and vector) on an open write transaction; its id."""
        fact_id = int(
            one_row(
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
                    as_json(fact.metadata),
                    now,
                    now,
                    now,
                ),
            )[0]
        )
        _history(conn, agent_id, fact_id, "create", actor, None, fact.content, {}, now)
        if vector is not None:
            self._put_vectors(conn, agent_id, "fact", [fact_id], np.asarray(vector)[None, :])
        return fact_id

    def _write_stated(
        self, conn: Conn, agent_id: int, thread_id: int, append: ThreadAppend, first_seq: int, now: datetime
    ) -> None:
        """Store the facts an append's messages state, on the transaction that writes the messages (see
        :class:`~memlane.store.base.StatedFact`)."""
        for stated in append.facts:
            seq = first_seq + stated.item
            fact = replace(stated.fact, source_thread=append.thread, source_from_seq=seq, source_to_seq=seq)
            fact_id = self._insert_fact(conn, agent_id, fact, thread_id, fact.owner, now, stated.vector)
            for old in stated.supersedes:
                query = FACT_SELECT + " WHERE f.agent_id = %s AND f.id = %s AND f.status = 'active' FOR UPDATE OF f"
                row = conn.execute(query, (agent_id, old)).fetchone()
                if row is not None:  # gone or superseded meanwhile: nothing left to replace
                    before = fact_row(row)
                    changes = {"status": "superseded", "invalid_at": now, "superseded_by": fact_id}
                    _change_fact(conn, agent_id, before, changes, before.owner, now, "supersede")

    def get_facts(self, agent: str, ids: Sequence[int]) -> list[Fact]:
        return self._read_ids("read facts", agent, ids, FACT_SELECT, "f", fact_row)

    def list_facts(self, agent: str, flt: FactFilter, *, limit: int | None, offset: int = 0) -> list[Fact]:
        def read(conn: Conn) -> list[Fact]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            where = self._fact_where(agent_id, flt)
            query = sql.SQL(
                "{} WHERE {} ORDER BY f.importance DESC, f.updated_at DESC, f.id DESC LIMIT %s OFFSET %s"
            ).format(sql.SQL(FACT_SELECT), where.sql())
            return [fact_row(r) for r in conn.execute(query, [*where.params, sql_limit(limit), max(0, offset)])]

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
        check_fact_fields(changes)

        def write(conn: Conn) -> Fact:
            agent_id = self._agent_id(conn, agent)
            row = None
            if agent_id is not None:
                query = FACT_SELECT + " WHERE f.agent_id = %s AND f.id = %s FOR UPDATE OF f"
                row = conn.execute(query, (agent_id, fact_id)).fetchone()
            if row is None or agent_id is None:
                raise NotFound(f"no fact {fact_id} in agent {agent!r}")
            _change_fact(conn, agent_id, fact_row(row), changes, actor, now, action)
            if vector is not None:
                self._put_vectors(conn, agent_id, "fact", [fact_id], np.asarray(vector)[None, :])
            insert_jobs(conn, agent_id, jobs, now)
            return fact_row(one_row(conn, FACT_SELECT + " WHERE f.agent_id = %s AND f.id = %s", (agent_id, fact_id)))

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
                insert_jobs(conn, agent_id, jobs, now)
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
            return [fact_change_from_row(r, ROWS) for r in rows]

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
