"""Export and import of the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`).

An export is a stream of records (dicts ready for JSON lines): each thread followed by its messages and
summaries, then the agent's thread-less summaries, then its facts, numbered by ``ref``, and their history.
The PostgreSQL backend writes and reads the same records, so an export moves between backends unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

from ..errors import Conflict, InvalidInput
from ._common import (
    dump_json,
    fact_import_row,
    fact_records,
    first_fact_changes,
    import_counts,
    message_record,
    summary_import_row,
    summary_record,
    thread_import_row,
    thread_record,
)
from .sqlite_common import COLUMNS, FACT_COLS, MESSAGE_COLS, RECORDS, SUMMARY_COLS, THREAD_COLS, SQLiteHost
from .sqlite_facts import insert_history
from .sqlite_schema import agent_terms

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


# -- import -----------------------------------------------------------------------------------------
class _Importer:
    """Writes export records on one open write transaction, in their order.

    Importing an export again is idempotent: with ``skip`` or ``replace``, threads (same key), facts (found
    by their 'create' history entry, else same owner, content and creation time), thread-less summaries
    (same kind, owner, content, time) and the history of deleted facts (same first change) that are
    already there are kept or replaced rather than doubled; with ``error`` they raise Conflict.
    """

    def __init__(
        self, conn: sqlite3.Connection, agent: str, agent_id: int, on_conflict: str, records: Sequence[dict[str, Any]]
    ) -> None:
        self.conn, self.agent, self.agent_id, self.on_conflict = conn, agent, agent_id, on_conflict
        self.records = records
        self.counts = import_counts()
        self.thread_ids: dict[str, int] = {}
        self.skipped: set[str] = set()
        self.fact_ids: dict[int, int] = {}
        self.skipped_refs: set[int] = set()
        self.first_change: dict[int, Mapping[str, Any]] = first_fact_changes(records)
        self.superseded: list[tuple[int, int]] = []

    def run(self) -> dict[str, int]:
        handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "thread": self.thread,
            "message": self.message,
            "summary": self.summary,
            "deleted_fact": self.deleted_fact,
            "fact": self.fact,
            "fact_change": self.fact_change,
        }
        for rec in self.records:
            kind = rec["type"]
            handler = handlers.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise InvalidInput(f"unknown record type {kind!r}")
            handler(rec)
        for fact_id, ref in self.superseded:
            self.conn.execute("UPDATE facts SET superseded_by = ? WHERE id = ?", (self.fact_ids.get(ref), fact_id))
        return self.counts

    def thread(self, rec: dict[str, Any]) -> None:
        key = rec["thread"]
        exists = self.conn.execute(
            "SELECT id FROM threads WHERE agent_id = ? AND key = ?", (self.agent_id, key)
        ).fetchone()
        if exists is not None:
            if self.on_conflict == "skip":
                self.skipped.add(key)
                return
            if self.on_conflict == "replace":
                self.conn.execute("DELETE FROM threads WHERE id = ?", (exists[0],))
            else:
                raise Conflict(f"thread {key!r} already exists in agent {self.agent!r}")
        cur = self.conn.execute(
            "INSERT INTO threads (agent_id, key, status, system_prompt, metadata, created_at, "
            "updated_at, ended_at) VALUES (?,?,?,?,?,?,?,?)",
            thread_import_row(rec, self.agent_id, COLUMNS),
        )
        self.thread_ids[key] = int(cur.lastrowid or 0)
        self.counts["threads"] += 1

    def message(self, rec: dict[str, Any]) -> None:
        if rec["thread"] in self.skipped:
            return
        thread_id = self.thread_ids.get(rec["thread"])
        if thread_id is None:
            raise InvalidInput(f"message of thread {rec['thread']!r} comes before its thread")
        agent_id = self.agent_id
        cur = self.conn.execute(
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
        self.conn.execute(
            "INSERT INTO messages_fts (rowid, content, speaker, scope) VALUES (?, ?, ?, ?)",
            (
                cur.lastrowid,
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
        self.conn.execute(
            "UPDATE threads SET next_seq = max(next_seq, ? + 1), message_count = message_count + 1 WHERE id = ?",
            (rec["seq"], thread_id),
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
                "SELECT id FROM summaries WHERE agent_id = ? AND thread_id IS NULL AND kind = ? "
                "AND owner IS ? AND content = ? AND created_at = ?",
                (self.agent_id, rec["kind"], rec["owner"], rec["content"], rec["created_at"]),
            ).fetchone()
            if same is not None:
                if self.on_conflict == "error":
                    raise Conflict(f"summary {rec['content'][:40]!r} already exists")
                if self.on_conflict == "skip":
                    return
                self.conn.execute("DELETE FROM summaries WHERE id = ?", (same[0],))
        self.conn.execute(
            "INSERT INTO summaries (agent_id, thread_id, kind, owner, from_seq, to_seq, content, "
            "method, metadata, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            summary_import_row(rec, self.agent_id, thread_id, COLUMNS),
        )
        self.counts["summaries"] += 1

    def deleted_fact(self, rec: dict[str, Any]) -> None:
        ref = rec["ref"]
        first = self.first_change.get(ref)
        same = None
        if first is not None:
            same = self.conn.execute(
                "SELECT fact_id FROM fact_history WHERE agent_id = ? AND action = ? AND at = ? "
                "AND new_content IS ? AND old_content IS ?",
                (self.agent_id, first["action"], first["at"], first["new_content"], first["old_content"]),
            ).fetchone()
        if same is not None and self.on_conflict == "skip":
            self.fact_ids[ref] = int(same[0])
            self.skipped_refs.add(ref)
            return
        if same is not None and self.on_conflict == "replace":
            self.conn.execute("DELETE FROM fact_history WHERE agent_id = ? AND fact_id = ?", (self.agent_id, same[0]))
        # Keep a deleted fact's history under an id no fact will ever get.
        if self.conn.execute("SELECT 1 FROM sqlite_sequence WHERE name = 'facts'").fetchone() is None:
            self.conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('facts', 0)")
        self.conn.execute("UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'facts'")
        self.fact_ids[ref] = int(
            self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'facts'").fetchone()[0]
        )

    def fact(self, rec: dict[str, Any]) -> None:
        same = self._same_fact(rec)
        if same is not None:
            if self.on_conflict == "error":
                raise Conflict(f"fact {rec['content'][:40]!r} already exists in agent {self.agent!r}")
            if self.on_conflict == "skip":
                self.fact_ids[rec["ref"]] = same
                self.skipped_refs.add(rec["ref"])
                return
            self.conn.execute("DELETE FROM facts WHERE id = ?", (same,))
            self.conn.execute("DELETE FROM fact_history WHERE agent_id = ? AND fact_id = ?", (self.agent_id, same))
        self.fact_ids[rec["ref"]] = self._insert_fact(rec)
        if rec["superseded_by"] is not None:
            self.superseded.append((self.fact_ids[rec["ref"]], rec["superseded_by"]))
        self.counts["facts"] += 1

    def _same_fact(self, rec: dict[str, Any]) -> int | None:
        """The id of the fact already stored that ``rec`` is, even if edited since: found by its 'create'
        history entry, else by owner, content and creation time."""
        first = self.first_change.get(rec["ref"])
        if first is not None and first["action"] == "create":
            same = self.conn.execute(
                "SELECT h.fact_id FROM fact_history h JOIN facts f ON f.id = h.fact_id "
                "WHERE h.agent_id = ? AND h.action = 'create' AND h.at = ? "
                "AND h.new_content IS ? AND f.owner IS ?",
                (self.agent_id, first["at"], first["new_content"], rec["owner"]),
            ).fetchone()
        else:
            same = self.conn.execute(
                "SELECT id FROM facts WHERE agent_id = ? AND owner IS ? AND content = ? AND created_at = ?",
                (self.agent_id, rec["owner"], rec["content"], rec["created_at"]),
            ).fetchone()
        return None if same is None else int(same[0])

    def _insert_fact(self, rec: dict[str, Any]) -> int:
        source_thread_id = None
        if rec["source_thread"] is not None:
            row = self.conn.execute(
                "SELECT id FROM threads WHERE agent_id = ? AND key = ?", (self.agent_id, rec["source_thread"])
            ).fetchone()
            source_thread_id = row[0] if row else None
        cur = self.conn.execute(
            "INSERT INTO facts (agent_id, owner, subject, category, content, importance, visibility, "
            "source_thread_id, source_thread, source_from_seq, source_to_seq, metadata, status, "
            "valid_from, invalid_at, created_at, updated_at, last_accessed_at, access_count) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            fact_import_row(rec, self.agent_id, source_thread_id, COLUMNS),
        )
        return int(cur.lastrowid or 0)

    def fact_change(self, rec: dict[str, Any]) -> None:
        if rec["fact"] in self.skipped_refs:
            return
        if rec["fact"] not in self.fact_ids:
            raise InvalidInput(f"fact_change refers to unknown fact ref {rec['fact']}")
        insert_history(
            self.conn,
            self.agent_id,
            self.fact_ids[rec["fact"]],
            rec["action"],
            rec["actor"],
            rec["old_content"],
            rec["new_content"],
            rec["changes"],
            rec["at"],
        )
        self.counts["fact_changes"] += 1


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
