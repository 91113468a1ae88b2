"""Export and import of the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`).

Records have the SQLite backend's order and shape, so an export moves between the backends unchanged
(``tests/test_postgres_store.py``, ``tests/test_db_copy.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg_pool import PoolClosed

from ..errors import Conflict, InvalidInput, StorageError
from ._common import RowCodec, fact_records, message_record, summary_record, thread_record, unchanged
from .postgres_common import (
    FACT_SELECT,
    MESSAGE_SELECT,
    SUMMARY_SELECT,
    THREAD_SELECT,
    Conn,
    PostgresHost,
    as_json,
    one_row,
    record_time,
    time_text,
)

__all__ = ["PostgresExchange"]


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
                as_json(rec["metadata"]),
                record_time(rec["created_at"]),
                record_time(rec["updated_at"]),
                record_time(rec["ended_at"]),
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
                None if rec["tool_calls"] is None else as_json(rec["tool_calls"]),
                rec["tool_call_id"],
                rec["token_count"],
                as_json(rec["metadata"]),
                record_time(rec["created_at"]),
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
                (self.agent_id, rec["kind"], rec["owner"], rec["content"], record_time(rec["created_at"])),
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
                as_json(rec["metadata"]),
                record_time(rec["created_at"]),
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
                (self.agent_id, first["action"], record_time(first["at"]), first["new_content"], first["old_content"]),
            ).fetchone()
        if same is not None and self.on_conflict == "skip":
            self.fact_ids[ref] = int(same[0])
            self.skipped_refs.add(ref)
            return
        if same is not None and self.on_conflict == "replace":
            self.conn.execute("DELETE FROM fact_history WHERE agent_id = %s AND fact_id = %s", (self.agent_id, same[0]))
        # Keep the history of a deleted fact under an id no fact will ever get.
        row = one_row(self.conn, "SELECT nextval(pg_get_serial_sequence('facts', 'id'))")
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
                (self.agent_id, record_time(first["at"]), first["new_content"], rec["owner"]),
            ).fetchone()
        else:
            same = self.conn.execute(
                "SELECT id FROM facts WHERE agent_id = %s AND owner IS NOT DISTINCT FROM %s AND content = %s "
                "AND created_at = %s",
                (self.agent_id, rec["owner"], rec["content"], record_time(rec["created_at"])),
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
        row = one_row(
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
                as_json(rec["metadata"]),
                rec["status"],
                record_time(rec["valid_from"]),
                record_time(rec["invalid_at"]),
                record_time(rec["created_at"]),
                record_time(rec["updated_at"]),
                record_time(rec["last_accessed_at"]),
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
                as_json(rec["changes"]),
                record_time(rec["at"]),
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
#: Rows to export records: ``json`` columns arrive decoded; times become :func:`fmt_time` text.
_RECORDS = RowCodec(json=unchanged, time=time_text)


def _export(conn: Conn, agent_id: int, wanted: set[str] | None) -> Iterator[dict[str, Any]]:
    """The agent's records in the SQLite backend's order and shape (times as :func:`fmt_time` text)."""
    thread_rows = conn.execute(THREAD_SELECT + " WHERE t.agent_id = %s ORDER BY t.id", (agent_id,)).fetchall()
    for row in thread_rows:
        if wanted is not None and row[2] not in wanted:
            continue
        yield thread_record(row, _RECORDS)
        for m in conn.execute(MESSAGE_SELECT + " WHERE m.thread_id = %s ORDER BY m.seq", (row[0],)).fetchall():
            yield message_record(m, _RECORDS)
        for s in conn.execute(SUMMARY_SELECT + " WHERE s.thread_id = %s ORDER BY s.id", (row[0],)).fetchall():
            yield summary_record(s, _RECORDS)
    if wanted is None:
        query = SUMMARY_SELECT + " WHERE s.agent_id = %s AND s.thread_id IS NULL ORDER BY s.id"
        for s in conn.execute(query, (agent_id,)).fetchall():
            yield summary_record(s, _RECORDS)
    fact_rows = conn.execute(FACT_SELECT + " WHERE f.agent_id = %s ORDER BY f.id", (agent_id,)).fetchall()
    history = conn.execute(
        "SELECT fact_id, action, actor, old_content, new_content, changes, at FROM fact_history "
        "WHERE agent_id = %s ORDER BY id",
        (agent_id,),
    ).fetchall()
    yield from fact_records(fact_rows, history, wanted, _RECORDS)


class PostgresExchange(PostgresHost):
    """Export/import methods of the store contract."""

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
