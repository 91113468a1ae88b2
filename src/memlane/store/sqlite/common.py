"""Shared pieces of the SQLite backend: column lists, row conversion, scope predicates, and what the
parts of :class:`~memlane.store.sqlite.SQLiteStore` (the modules of this package) rely on from each other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...types import Fact, Message, MessageHead, Summary
from .._common import (
    RowCodec,
    dump_json,
    fact_from_row,
    fmt_time,
    load_json,
    message_from_row,
    parse_time,
    summary_from_row,
    unchanged,
)
from ..base import FactFilter, Scope, ThreadAppend

if TYPE_CHECKING:
    import numpy as np

    from .search import CommonWords
    from .vectors import VectorCache

__all__ = [
    "COLUMNS",
    "FACT_COLS",
    "HEAD_COLS",
    "MESSAGE_COLS",
    "RECORDS",
    "ROWS",
    "SUMMARY_COLS",
    "THREAD_COLS",
    "SQLiteHost",
    "column_value",
    "fact_row",
    "fact_where",
    "head_row",
    "message_row",
    "metadata_where",
    "next_id",
    "summary_row",
    "summary_visibility",
]

MESSAGE_COLS = (
    "m.id, a.name, t.key, m.seq, m.role, m.content, m.user_id, m.name, m.tool_calls, m.tool_call_id, "
    "m.token_count, m.metadata, m.created_at, m.summarized"
)
#: A message's light part (:class:`MessageHead`), read without the agents join, the text and the JSON.
HEAD_COLS = "m.id, t.key, m.seq, m.user_id, m.name, m.token_count, m.created_at"
FACT_COLS = (
    "f.id, a.name, f.content, f.category, f.importance, f.owner, f.subject, f.visibility, f.source_thread, "
    "f.source_from_seq, f.source_to_seq, f.metadata, f.created_at, f.updated_at, f.last_accessed_at, "
    "f.access_count, f.status, f.valid_from, f.invalid_at, f.superseded_by"
)
SUMMARY_COLS = (
    "s.id, a.name, t.key, s.kind, s.content, s.from_seq, s.to_seq, s.owner, s.method, s.metadata, s.created_at"
)
THREAD_COLS = (
    "t.id, a.name, t.key, t.status, t.system_prompt, t.metadata, t.created_at, t.updated_at, t.ended_at, "
    "t.message_count"
)

#: SQLite keeps JSON and times as text: rows become objects with decoded JSON and aware datetimes ...
ROWS = RowCodec(json=load_json, time=parse_time)
#: ... and export records with decoded JSON and the times' text as stored (it is :func:`fmt_time` text);
RECORDS = RowCodec(json=load_json, time=unchanged)
#: imported records become columns with their JSON encoded and their times' text as it is.
COLUMNS = RowCodec(json=dump_json, time=unchanged)


def message_row(r: tuple[Any, ...]) -> Message:
    return message_from_row(r, ROWS)


def head_row(r: tuple[Any, ...]) -> MessageHead:
    return MessageHead(r[0], r[1], r[2], r[3], r[4], r[5], ROWS.time(r[6]))


def fact_row(r: tuple[Any, ...]) -> Fact:
    return fact_from_row(r, ROWS)


def summary_row(r: tuple[Any, ...]) -> Summary:
    return summary_from_row(r, ROWS)


def column_value(key: str, value: Any) -> Any:
    """A changed field's value (of a fact or a thread) as its column stores it: JSON and times as text."""
    if key == "metadata":
        return dump_json(value)
    return fmt_time(value) if isinstance(value, datetime) else value


def fact_where(agent_id: int, flt: FactFilter) -> tuple[str, list[Any]]:
    """Which facts a filter selects (an SQL predicate on alias ``f``, with its parameters)."""
    where: list[str] = ["f.agent_id = ?"]
    params: list[Any] = [agent_id]
    if flt.owned_only:
        where.append("f.owner IS ?")
        params.append(flt.user)
    elif not flt.all_users:
        if flt.user is None:
            where.append("(f.owner IS NULL OR f.visibility = 'shared')")
        else:
            where.append("(f.owner IS NULL OR f.owner = ? OR f.visibility = 'shared')")
            params.append(flt.user)
    for column, value in (
        ("subject", flt.subject),
        ("category", flt.category),
        ("visibility", flt.visibility),
        ("source_thread", flt.thread),
    ):
        if value is not None:
            where.append(f"f.{column} = ?")
            params.append(value)
    if not flt.include_superseded:
        where.append("f.status = 'active'")
    return " AND ".join(where), params


def summary_visibility(agent_id: int, thread_id: int | None, user: str | None) -> tuple[str, list[Any]]:
    """Which summaries a scope sees (an SQL predicate on alias ``s``).

    A thread scope sees that thread's summaries. A user sees their own (e.g. their profile) and the
    owner-less ones of their threads or of no thread (the agent's memories). Without a user, only
    owner-less summaries are visible: a user's profile never reaches anyone else.
    """
    if thread_id is not None:
        return "s.thread_id = ? AND (s.owner IS NULL OR s.owner IS ?)", [thread_id, user]
    if user is not None:
        return (
            "(s.owner = ? OR (s.owner IS NULL AND (s.thread_id IS NULL OR s.thread_id IN "
            "(SELECT thread_id FROM thread_users WHERE agent_id = ? AND user_id = ?))))",
            [user, agent_id, user],
        )
    return "s.owner IS NULL", []


def metadata_where(alias: str, metadata: Mapping[str, str | int | float | bool | None] | None) -> tuple[str, list[Any]]:
    """An SQL predicate on ``{alias}.metadata`` (JSON text) holding every ``key: value`` pair of a scope's
    metadata filter, types compared as JSON sees them: ``true`` is not ``1``, ``1`` equals ``1.0``
    (what PostgreSQL's ``jsonb @>`` does). ``("1", [])`` for no filter. Keys are checked by
    :func:`memlane.validation.check_metadata_filter` (letters, digits, ``_``, ``-``): safe in a JSON path.
    """
    if not metadata:
        return "1", []
    where: list[str] = []
    params: list[Any] = []
    for key, value in metadata.items():
        path = f'$."{key}"'
        if value is None or isinstance(value, bool):
            where.append(f"json_type({alias}.metadata, ?) = ?")
            params += [path, "null" if value is None else ("true" if value else "false")]
        elif isinstance(value, str):
            where.append(f"json_type({alias}.metadata, ?) = 'text' AND json_extract({alias}.metadata, ?) = ?")
            params += [path, path, value]
        else:
            where.append(
                f"json_type({alias}.metadata, ?) IN ('integer', 'real') AND json_extract({alias}.metadata, ?) = ?"
            )
            params += [path, path, value]
    return " AND ".join(where), params


class SQLiteHost:
    """What the parts of :class:`~memlane.store.sqlite.SQLiteStore` rely on from each other.

    Only declarations (for the type checker): ``SQLiteStore`` provides the connections, transactions
    and agents, and its parts (the modules of this package) the methods they share.
    """

    if TYPE_CHECKING:
        path: Path
        exact_vectors: bool
        _vectors: VectorCache
        _common_words: CommonWords

        def _conn(self) -> sqlite3.Connection: ...
        def _write(self) -> AbstractContextManager[sqlite3.Connection]: ...
        def _read(self) -> AbstractContextManager[sqlite3.Connection]: ...
        def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...
        def _agent_id(self, agent: str) -> int | None: ...
        def _ensure_agent(self, conn: sqlite3.Connection, agent: str, now: datetime) -> int: ...
        def _remember_agent(self, agent: str, agent_id: int) -> None: ...
        def _thread_id(self, conn: sqlite3.Connection, agent: str, thread: str) -> int | None: ...
        def _ensure_thread(
            self, conn: sqlite3.Connection, agent_id: int, thread: str, created_at: datetime
        ) -> tuple[int, int]: ...
        def _message_cosines(
            self,
            conn: sqlite3.Connection,
            agent_id: int,
            ids: np.ndarray,
            query: np.ndarray,
            span: Scope | None = None,
        ) -> np.ndarray | None: ...
        def _write_stated(
            self,
            conn: sqlite3.Connection,
            agent_id: int,
            thread_id: int,
            append: ThreadAppend,
            first_seq: int,
            now: datetime,
        ) -> None: ...
        def _put_vectors(
            self,
            conn: sqlite3.Connection,
            agent_id: int,
            kind: str,
            ids: Sequence[int],
            thread_ids: Sequence[int | None],
            stamps: Sequence[str],
            vectors: np.ndarray,
        ) -> None: ...


#: Tables whose ids callers keep (a message, a memory, a job): an id of a deleted row is never given again.
NEVER_REUSED = ("messages", "summaries", "jobs")
_NEXT_ID = {
    "messages": "SELECT max(coalesce((SELECT seq FROM id_floor WHERE name = ?), 0), "
    "coalesce((SELECT max(id) FROM messages), 0))",
    "summaries": "SELECT max(coalesce((SELECT seq FROM id_floor WHERE name = ?), 0), "
    "coalesce((SELECT max(id) FROM summaries), 0))",
    "jobs": "SELECT max(coalesce((SELECT seq FROM id_floor WHERE name = ?), 0), "
    "coalesce((SELECT max(id) FROM jobs), 0))",
}


def next_id(conn: sqlite3.Connection, table: str) -> int:
    """The id for a new row of ``table`` (one of :data:`NEVER_REUSED`), on an open write transaction.

    SQLite gives a new row the largest id + 1, so deleting the newest rows would hand their ids out again;
    ``id_floor`` (migration 9; its delete triggers keep it) remembers the largest id ever deleted.
    """
    row = conn.execute(_NEXT_ID[table], (table,)).fetchone()
    return int(row[0]) + 1
