"""Export and import of the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`).

An export is a stream of records (dicts ready for JSON lines): each thread followed by its messages and
summaries, then the agent's thread-less summaries, then its facts, numbered by ``ref``, and their history.
The PostgreSQL backend writes and reads the same records, so an export moves between backends unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from ...errors import InvalidInput
from .._common import (
    fact_records,
    message_record,
    summary_record,
    thread_record,
)
from .._exchange import (
    RecordImporter,
    fact_import_row,
    message_import_row,
    summary_import_row,
    thread_import_row,
)
from .common import COLUMNS, FACT_COLS, MESSAGE_COLS, RECORDS, SUMMARY_COLS, THREAD_COLS, SQLiteHost, next_id
from .facts import insert_history
from .schema import agent_terms

__all__ = ["SQLiteExchange"]


# -- export -----------------------------------------------------------------------------------------
def _export(conn: sqlite3.Connection, agent_id: int, wanted: set[str] | None) -> Iterator[dict[str, Any]]:
    """The agent's records (of the ``wanted`` threads only, unless None), read on one snapshot."""
    thread_rows = conn.execute(
        f"SELECT {THREAD_COLS} FROM threads t JOIN agents a ON a.id = t.agent_id "  # noqa: S608
        "WHERE t.agent_id = ? ORDER BY t.id",
        (agent_id,),
    ).fetchall()
    for row in thread_rows:
        if wanted is not None and row[2] not in wanted:
            continue
        yield thread_record(row, RECORDS)
        for m in conn.execute(
            f"SELECT {MESSAGE_COLS} FROM messages m JOIN threads t ON t.id = m.thread_id "  # noqa: S608
            "JOIN agents a ON a.id = m.agent_id WHERE m.thread_id = ? ORDER BY m.seq",
            (row[0],),
        ):
            yield message_record(m, RECORDS)
        for s in conn.execute(
            f"SELECT {SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
            "LEFT JOIN threads t ON t.id = s.thread_id WHERE s.thread_id = ? ORDER BY s.id",
            (row[0],),
        ):
            yield summary_record(s, RECORDS)
    if wanted is None:
        for s in conn.execute(
            f"SELECT {SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
            "LEFT JOIN threads t ON t.id = s.thread_id WHERE s.agent_id = ? AND s.thread_id IS NULL "
            "ORDER BY s.id",
            (agent_id,),
        ):
            yield summary_record(s, RECORDS)
    fact_rows = conn.execute(
        f"SELECT {FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id "  # noqa: S608
        "WHERE f.agent_id = ? ORDER BY f.id",
        (agent_id,),
    ).fetchall()
    history = conn.execute(
        "SELECT fact_id, action, actor, old_content, new_content, changes, at FROM fact_history "
        "WHERE agent_id = ? ORDER BY id",
        (agent_id,),
    ).fetchall()
    yield from fact_records(fact_rows, history, wanted, RECORDS)
    if wanted is None:
        for user, persona, context, interactions, last in conn.execute(
            "SELECT user_id, persona, custom_context, interactions, last_interaction FROM user_records "
            "WHERE agent_id = ? ORDER BY user_id",
            (agent_id,),
        ):
            yield {
                "type": "user",
                "user": user,
                "persona": persona,
                "custom_context": context,
                "interactions": interactions,
                "last_interaction": last,
            }


# -- import -----------------------------------------------------------------------------------------
class _Importer(RecordImporter):
    """The statements of an import (what to write is :class:`~memlane.store._common.RecordImporter`'s),
    on the store's open write transaction; each message is indexed for keyword search as it is written."""

    def __init__(
        self, conn: sqlite3.Connection, agent: str, agent_id: int, on_conflict: str, records: Sequence[dict[str, Any]]
    ) -> None:
        super().__init__(agent, agent_id, on_conflict, records)
        self.conn = conn

    def find_thread(self, key: str) -> int | None:
        return self._id("SELECT id FROM threads WHERE agent_id = ? AND key = ?", (self.agent_id, key))

    def delete_thread(self, thread_id: int) -> None:
        self.conn.execute("DELETE FROM threads WHERE id = ?", (thread_id,))

    def insert_thread(self, rec: Mapping[str, Any]) -> int:
        cur = self.conn.execute(
            "INSERT INTO threads (agent_id, key, status, system_prompt, metadata, created_at, "
            "updated_at, ended_at) VALUES (?,?,?,?,?,?,?,?)",
            thread_import_row(rec, self.agent_id, COLUMNS),
        )
        return int(cur.lastrowid or 0)

    def insert_message(self, rec: Mapping[str, Any], thread_id: int) -> None:
        agent_id = self.agent_id
        message_id = next_id(self.conn, "messages")
        self.conn.execute(
            "INSERT INTO messages (id, agent_id, thread_id, seq, role, user_id, name, content, "
            "tool_calls, tool_call_id, token_count, metadata, created_at, summarized) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (message_id, *message_import_row(rec, agent_id, thread_id, COLUMNS)),
        )
        self.conn.execute(
            "INSERT INTO messages_fts (rowid, content, speaker, scope) VALUES (?, ?, ?, ?)",
            (
                message_id,
                agent_terms(agent_id, rec["content"]),
                agent_terms(agent_id, rec["name"] or rec["user"] or rec["role"]),
                f"a{agent_id} t{thread_id}",
            ),
        )
        if rec["user"] is not None:
            self.conn.execute(
                "INSERT OR IGNORE INTO thread_users (thread_id, user_id, agent_id) VALUES (?,?,?)",
                (thread_id, rec["user"], agent_id),
            )
        for name in (rec["name"], rec["user"]):
            if name:
                self.conn.execute("INSERT OR IGNORE INTO speakers (agent_id, name) VALUES (?, ?)", (agent_id, name))
        self.conn.execute(
            "UPDATE threads SET next_seq = max(next_seq, ? + 1), message_count = message_count + 1 WHERE id = ?",
            (rec["seq"], thread_id),
        )

    def find_summary(self, rec: Mapping[str, Any]) -> int | None:
        return self._id(
            "SELECT id FROM summaries WHERE agent_id = ? AND thread_id IS NULL AND kind = ? "
            "AND owner IS ? AND content = ? AND created_at = ?",
            (self.agent_id, rec["kind"], rec["owner"], rec["content"], rec["created_at"]),
        )

    def delete_summary(self, summary_id: int) -> None:
        self.conn.execute("DELETE FROM summaries WHERE id = ?", (summary_id,))

    def insert_summary(self, rec: Mapping[str, Any], thread_id: int | None) -> None:
        self.conn.execute(
            "INSERT INTO summaries (id, agent_id, thread_id, kind, owner, from_seq, to_seq, content, "
            "method, metadata, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (next_id(self.conn, "summaries"), *summary_import_row(rec, self.agent_id, thread_id, COLUMNS)),
        )

    def find_deleted_fact(self, first: Mapping[str, Any]) -> int | None:
        return self._id(
            "SELECT fact_id FROM fact_history WHERE agent_id = ? AND action = ? AND at = ? "
            "AND new_content IS ? AND old_content IS ?",
            (self.agent_id, first["action"], first["at"], first["new_content"], first["old_content"]),
        )

    def delete_history(self, fact_id: int) -> None:
        self.conn.execute("DELETE FROM fact_history WHERE agent_id = ? AND fact_id = ?", (self.agent_id, fact_id))

    def reserve_fact_id(self) -> int:
        if self.conn.execute("SELECT 1 FROM sqlite_sequence WHERE name = 'facts'").fetchone() is None:
            self.conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('facts', 0)")
        self.conn.execute("UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'facts'")
        return int(self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'facts'").fetchone()[0])

    def find_created_fact(self, rec: Mapping[str, Any], first: Mapping[str, Any]) -> int | None:
        return self._id(
            "SELECT h.fact_id FROM fact_history h JOIN facts f ON f.id = h.fact_id "
            "WHERE h.agent_id = ? AND h.action = 'create' AND h.at = ? "
            "AND h.new_content IS ? AND f.owner IS ?",
            (self.agent_id, first["at"], first["new_content"], rec["owner"]),
        )

    def find_fact(self, rec: Mapping[str, Any]) -> int | None:
        return self._id(
            "SELECT id FROM facts WHERE agent_id = ? AND owner IS ? AND content = ? AND created_at = ?",
            (self.agent_id, rec["owner"], rec["content"], rec["created_at"]),
        )

    def delete_fact(self, fact_id: int) -> None:
        self.conn.execute("DELETE FROM facts WHERE id = ?", (fact_id,))
        self.delete_history(fact_id)

    def insert_fact(self, rec: Mapping[str, Any]) -> int:
        source_thread_id = None
        if rec["source_thread"] is not None:
            source_thread_id = self.find_thread(rec["source_thread"])
        cur = self.conn.execute(
            "INSERT INTO facts (agent_id, owner, subject, category, content, importance, visibility, "
            "source_thread_id, source_thread, source_from_seq, source_to_seq, metadata, status, "
            "valid_from, invalid_at, created_at, updated_at, last_accessed_at, access_count) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            fact_import_row(rec, self.agent_id, source_thread_id, COLUMNS),
        )
        return int(cur.lastrowid or 0)

    def user_exists(self, user: str) -> bool:
        found = self.conn.execute(
            "SELECT 1 FROM user_records WHERE agent_id = ? AND user_id = ?", (self.agent_id, user)
        ).fetchone()
        return found is not None

    def upsert_user(self, rec: Mapping[str, Any]) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO user_records (agent_id, user_id, persona, custom_context, interactions, "
            "last_interaction) VALUES (?, ?, ?, ?, ?, ?)",
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
        insert_history(
            self.conn,
            self.agent_id,
            fact_id,
            rec["action"],
            rec["actor"],
            rec["old_content"],
            rec["new_content"],
            rec["changes"],
            rec["at"],
        )

    def set_superseded(self, fact_id: int, by: int | None) -> None:
        self.conn.execute("UPDATE facts SET superseded_by = ? WHERE id = ?", (by, fact_id))

    def finish(self) -> None:
        """Nothing is buffered: every record was written as it came."""

    def _id(self, query: str, params: tuple[Any, ...]) -> int | None:
        row = self.conn.execute(query, params).fetchone()
        return None if row is None else int(row[0])


class SQLiteExchange(SQLiteHost):
    """Export/import methods of the store contract."""

    def export_records(self, agent: str, threads: Sequence[str] | None) -> Iterator[dict[str, Any]]:
        agent_id = self._agent_id(agent)
        if agent_id is None:
            return
        wanted = None if threads is None else set(threads)
        with self._read() as conn:
            yield from _export(conn, agent_id, wanted)

    def import_records(self, agent: str, records: Sequence[dict[str, Any]], *, on_conflict: str) -> dict[str, int]:
        now = datetime.now().astimezone()
        try:
            with self._write() as conn:
                agent_id = self._ensure_agent(conn, agent, now)
                counts = _Importer(conn, agent, agent_id, on_conflict, records).run()
        except (KeyError, TypeError) as exc:
            raise InvalidInput(f"malformed export record: missing or bad field {exc}") from exc
        except sqlite3.IntegrityError as exc:
            raise InvalidInput(f"export records are inconsistent: {exc}") from exc
        self._remember_agent(agent, agent_id)
        return counts
