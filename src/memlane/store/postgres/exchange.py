"""Export and import of the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`).

Records have the SQLite backend's order and shape, so an export moves between the backends unchanged
(``tests/test_postgres_store.py``, ``tests/test_db_copy.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg_pool import PoolClosed

from ...errors import Conflict, InvalidInput, StorageError
from ...timestamps import fmt_time
from .._common import (
    RowCodec,
    fact_records,
    message_record,
    summary_record,
    thread_record,
    unchanged,
)
from .._exchange import (
    RecordImporter,
    fact_change_import_row,
    fact_import_row,
    message_import_row,
    summary_import_row,
    thread_import_row,
)
from .common import (
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
#: Export records to column values: JSON sent as ``json`` parameters, times parsed from their text.
_COLUMNS = RowCodec(json=as_json, time=record_time)


class _Importer(RecordImporter):
    """The statements of an import (what to write is :class:`~memlane.store._common.RecordImporter`'s),
    on one open transaction, with the SQLite backend's semantics.

    Messages are buffered and written with one batched statement at the end (nothing reads them before);
    thread counters and participants are then derived from what was written. History entries are
    buffered too, and written before anything looks at the history.
    """

    def __init__(
        self, conn: Conn, agent: str, agent_id: int, on_conflict: str, records: Sequence[dict[str, Any]]
    ) -> None:
        super().__init__(agent, agent_id, on_conflict, records)
        self.conn = conn
        self.messages: list[tuple[Any, ...]] = []
        self.changes: list[tuple[Any, ...]] = []

    def find_thread(self, key: str) -> int | None:
        return self._id("SELECT id FROM threads WHERE agent_id = %s AND key = %s FOR UPDATE", (self.agent_id, key))

    def delete_thread(self, thread_id: int) -> None:
        self.conn.execute("DELETE FROM threads WHERE id = %s", (thread_id,))

    def insert_thread(self, rec: Mapping[str, Any]) -> int:
        thread_id = self._id(
            "INSERT INTO threads (agent_id, key, status, system_prompt, metadata, created_at, updated_at, ended_at) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (agent_id, key) DO NOTHING RETURNING id",
            thread_import_row(rec, self.agent_id, _COLUMNS),
        )
        if thread_id is None:  # created by another writer since it was looked for
            raise Conflict(f"thread {rec['thread']!r} already exists in agent {self.agent!r}")
        return thread_id

    def insert_message(self, rec: Mapping[str, Any], thread_id: int) -> None:
        self.messages.append(message_import_row(rec, self.agent_id, thread_id, _COLUMNS))

    def find_summary(self, rec: Mapping[str, Any]) -> int | None:
        return self._id(
            "SELECT id FROM summaries WHERE agent_id = %s AND thread_id IS NULL AND kind = %s "
            "AND owner IS NOT DISTINCT FROM %s AND content = %s AND created_at = %s",
            (self.agent_id, rec["kind"], rec["owner"], rec["content"], record_time(rec["created_at"])),
        )

    def delete_summary(self, summary_id: int) -> None:
        self.conn.execute("DELETE FROM summaries WHERE id = %s", (summary_id,))

    def insert_summary(self, rec: Mapping[str, Any], thread_id: int | None) -> None:
        self.conn.execute(
            "INSERT INTO summaries (agent_id, thread_id, kind, owner, from_seq, to_seq, content, method, metadata, "
            "created_at) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
            summary_import_row(rec, self.agent_id, thread_id, _COLUMNS),
        )

    def find_deleted_fact(self, first: Mapping[str, Any]) -> int | None:
        self.flush_changes()
        return self._id(
            "SELECT fact_id FROM fact_history WHERE agent_id = %s AND action = %s AND at = %s "
            "AND new_content IS NOT DISTINCT FROM %s AND old_content IS NOT DISTINCT FROM %s",
            (self.agent_id, first["action"], record_time(first["at"]), first["new_content"], first["old_content"]),
        )

    def delete_history(self, fact_id: int) -> None:
        self.conn.execute("DELETE FROM fact_history WHERE agent_id = %s AND fact_id = %s", (self.agent_id, fact_id))

    def reserve_fact_id(self) -> int:
        return int(one_row(self.conn, "SELECT nextval(pg_get_serial_sequence('facts', 'id'))")[0])

    def find_created_fact(self, rec: Mapping[str, Any], first: Mapping[str, Any]) -> int | None:
        self.flush_changes()
        return self._id(
            "SELECT h.fact_id FROM fact_history h JOIN facts f ON f.id = h.fact_id WHERE h.agent_id = %s "
            "AND h.action = 'create' AND h.at = %s AND h.new_content IS NOT DISTINCT FROM %s "
            "AND f.owner IS NOT DISTINCT FROM %s",
            (self.agent_id, record_time(first["at"]), first["new_content"], rec["owner"]),
        )

    def find_fact(self, rec: Mapping[str, Any]) -> int | None:
        return self._id(
            "SELECT id FROM facts WHERE agent_id = %s AND owner IS NOT DISTINCT FROM %s AND content = %s "
            "AND created_at = %s",
            (self.agent_id, rec["owner"], rec["content"], record_time(rec["created_at"])),
        )

    def delete_fact(self, fact_id: int) -> None:
        self.flush_changes()
        self.conn.execute("DELETE FROM facts WHERE id = %s", (fact_id,))
        self.delete_history(fact_id)

    def insert_fact(self, rec: Mapping[str, Any]) -> int:
        source_thread_id = None
        if rec["source_thread"] is not None:
            source_thread_id = self._id(
                "SELECT id FROM threads WHERE agent_id = %s AND key = %s", (self.agent_id, rec["source_thread"])
            )
        row = one_row(
            self.conn,
            "INSERT INTO facts (agent_id, owner, subject, category, content, importance, visibility, "
            "source_thread_id, source_thread, source_from_seq, source_to_seq, metadata, status, valid_from, "
            "invalid_at, created_at, updated_at, last_accessed_at, access_count) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) RETURNING id",
            fact_import_row(rec, self.agent_id, source_thread_id, _COLUMNS),
        )
        return int(row[0])

    def user_exists(self, user: str) -> bool:
        found = self.conn.execute(
            "SELECT 1 FROM user_records WHERE agent_id = %s AND user_id = %s", (self.agent_id, user)
        ).fetchone()
        return found is not None

    def upsert_user(self, rec: Mapping[str, Any]) -> None:
        self.conn.execute(
            "INSERT INTO user_records (agent_id, user_id, persona, custom_context, interactions, last_interaction) "
            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (agent_id, user_id) DO UPDATE SET persona = excluded.persona, "
            "custom_context = excluded.custom_context, interactions = excluded.interactions, "
            "last_interaction = excluded.last_interaction",
            (
                self.agent_id,
                rec["user"],
                rec["persona"],
                rec["custom_context"],
                rec["interactions"],
                rec["last_interaction"],
            ),
        )

    def insert_change(self, rec: Mapping[str, Any], fact_id: int) -> None:
        self.changes.append(fact_change_import_row(rec, self.agent_id, fact_id, _COLUMNS))

    def set_superseded(self, fact_id: int, by: int | None) -> None:
        self.conn.execute("UPDATE facts SET superseded_by = %s WHERE id = %s", (by, fact_id))

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

    def finish(self) -> None:
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
            self.conn.execute(
                "INSERT INTO speakers (agent_id, name) SELECT DISTINCT m.agent_id, s.name "
                "FROM messages m, unnest(ARRAY[m.name, m.user_id]) s(name) "
                "WHERE m.thread_id = ANY(%s) AND s.name <> '' ON CONFLICT DO NOTHING",
                (threads,),
            )

    def _id(self, query: str, params: Sequence[Any]) -> int | None:
        row = self.conn.execute(query, params).fetchone()
        return None if row is None else int(row[0])


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
    if wanted is None:
        for user, persona, context, interactions, last in conn.execute(
            "SELECT user_id, persona, custom_context, interactions, last_interaction FROM user_records "
            "WHERE agent_id = %s ORDER BY user_id",
            (agent_id,),
        ).fetchall():
            yield {
                "type": "user",
                "user": user,
                "persona": persona,
                "custom_context": context,
                "interactions": int(interactions),
                "last_interaction": None if last is None else fmt_time(last),
            }


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
            return agent_id, _Importer(conn, agent, agent_id, on_conflict, records).run()

        try:
            agent_id, counts = self._run("could not import", write)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InvalidInput):
                raise
            raise InvalidInput(f"malformed export record: missing or bad field {exc}") from exc
        self._remember_agent(agent, agent_id)
        return counts
