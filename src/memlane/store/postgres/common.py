"""Shared pieces of the PostgreSQL backend: the connection type, pgvector's wire format, SQL building
blocks, and rows to records. Used by :mod:`memlane.store.postgres` and its parts (the modules of this package).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Collection, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np
import psycopg
from psycopg import sql
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types.json import Json
from psycopg_pool import ConnectionPool

from ...errors import InvalidInput, StorageError
from ...types import Fact, Message, MessageHead, Summary, Thread
from .._common import (
    RowCodec,
    dump_json,
    fact_from_row,
    fmt_time,
    message_from_row,
    summary_from_row,
    thread_from_row,
    unchanged,
)
from ..base import FactFilter, Scope, ThreadAppend

if TYPE_CHECKING:
    from .ivf import IvfBuilds
    from .search import CommonTerms

__all__ = [
    "FACT_SELECT",
    "HEAD_SELECT",
    "MESSAGE_SELECT",
    "ROWS",
    "SEARCH_TABLES",
    "SUMMARY_SELECT",
    "THREAD_SELECT",
    "Conn",
    "Ids",
    "IdsDumper",
    "PostgresHost",
    "T",
    "Vector",
    "VectorDumper",
    "Where",
    "as_json",
    "fact_row",
    "head_row",
    "message_row",
    "one_row",
    "record_time",
    "sql_limit",
    "summary_row",
    "thread_row",
    "time_text",
    "utc",
    "utc_or_none",
    "vector_values",
]

T = TypeVar("T")
Conn = psycopg.Connection[tuple[Any, ...]]

#: kind -> (item table, its alias in search queries)
SEARCH_TABLES = {"message": ("messages", "m"), "fact": ("facts", "f"), "summary": ("summaries", "s")}


class Vector:
    """A float32 vector in pgvector's binary wire format (dimension, unused, big-endian floats)."""

    __slots__ = ("data",)

    def __init__(self, values: np.ndarray) -> None:
        flat = np.asarray(values, dtype=">f4").ravel()
        self.data = struct.pack(">HH", flat.size, 0) + flat.tobytes()


def vector_values(data: bytes) -> np.ndarray:
    """A vector in pgvector's binary wire format as float32 values."""
    (dim,) = struct.unpack_from(">H", data)
    return np.frombuffer(data, dtype=">f4", count=dim, offset=4).astype(np.float32)


class Ids:
    """Item ids as one binary ``bigint[]`` parameter.

    psycopg's dumper of a Python list looks at every element to choose the array's type: ~0.5 µs an id, so a
    recall's lists of ids (the 400 matches a whole-agent keyword search ranks again, the windows' anchors,
    the records read) cost it ~0.4 ms of CPU (bench/RESULTS.md, "Round 14"). This builds the array's wire
    format with NumPy: a header, then each id's length (8) and its value, big-endian.

    Raises:
        InvalidInput: an id is not an integer of 64 bits.
    """

    __slots__ = ("data",)

    def __init__(self, ids: Collection[int]) -> None:
        if not len(ids):
            self.data = struct.pack(">iiI", 0, 0, _INT8_OID)  # no dimensions: the empty array
            return
        values = np.asarray(ids if isinstance(ids, list | tuple) else list(ids))
        if values.dtype.kind != "i" or values.ndim != 1:  # floats, booleans, texts, or past 64 bits
            raise InvalidInput("ids must be integers of at most 64 bits")
        cells = np.empty(values.size, dtype=[("size", ">i4"), ("value", ">i8")])
        cells["size"] = 8
        cells["value"] = values
        self.data = struct.pack(">iiIii", 1, 0, _INT8_OID, values.size, 1) + cells.tobytes()


_INT8_OID = 20  # bigint, the type of the array's elements


class IdsDumper(Dumper):
    """Sends :class:`Ids` as a binary ``bigint[]`` (``int8[]``, oid 1016)."""

    format = Format.BINARY
    oid = 1016

    def dump(self, obj: Any) -> bytes:
        return cast(Ids, obj).data


class VectorDumper(Dumper):
    """Sends a :class:`Vector` as a binary parameter; the server infers ``vector`` from ``%s::vector``."""

    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        return cast(Vector, obj).data


def as_json(value: Any) -> Json:
    """A value for a ``json`` column, written compactly (as the SQLite backend stores it)."""
    return Json(value, dumps=dump_json)


def utc(value: datetime) -> datetime:
    """A timestamptz as psycopg returns it (in the session's zone) in UTC, as the SQLite backend has it."""
    return value.astimezone(UTC)


def utc_or_none(value: datetime | None) -> datetime | None:
    return None if value is None else value.astimezone(UTC)


def sql_limit(value: int | None) -> int | None:
    """SQLite reads a negative LIMIT as "no limit"; PostgreSQL rejects it. Keep SQLite's meaning."""
    return None if value is None or value < 0 else value


class Where:
    """AND-ed SQL conditions with their positional parameters, built from fixed fragments only."""

    def __init__(self) -> None:
        self.parts: list[sql.Composable] = []
        self.params: list[Any] = []

    def add(self, fragment: sql.Composable | str, *params: Any) -> None:
        self.parts.append(sql.SQL(fragment) if isinstance(fragment, str) else fragment)
        self.params.extend(params)

    def time_range(self, column: str, scope: Scope) -> None:
        if scope.since is not None:
            self.add(sql.SQL("{} >= %s").format(sql.SQL(column)), scope.since)
        if scope.until is not None:
            self.add(sql.SQL("{} < %s").format(sql.SQL(column)), scope.until)

    def sql(self) -> sql.Composable:
        return sql.SQL(" AND ").join(self.parts) if self.parts else sql.SQL("TRUE")


MESSAGE_SELECT = (
    "SELECT m.id, a.name, t.key, m.seq, m.role, m.content, m.user_id, m.name, m.tool_calls, m.tool_call_id, "
    "m.token_count, m.metadata, m.created_at, m.summarized "
    "FROM messages m JOIN threads t ON t.id = m.thread_id JOIN agents a ON a.id = m.agent_id"
)


#: A message's light part (:class:`MessageHead`), read without the agents join, the text and the JSON.
HEAD_SELECT = (
    "SELECT m.id, t.key, m.seq, m.user_id, m.name, m.token_count, m.created_at "
    "FROM messages m JOIN threads t ON t.id = m.thread_id"
)


FACT_SELECT = (
    "SELECT f.id, a.name, f.content, f.category, f.importance, f.owner, f.subject, f.visibility, "
    "f.source_thread, f.source_from_seq, f.source_to_seq, f.metadata, f.created_at, f.updated_at, "
    "f.last_accessed_at, f.access_count, f.status, f.valid_from, f.invalid_at, f.superseded_by "
    "FROM facts f JOIN agents a ON a.id = f.agent_id"
)


SUMMARY_SELECT = (
    "SELECT s.id, a.name, t.key, s.kind, s.content, s.from_seq, s.to_seq, s.owner, s.method, s.metadata, "
    "s.created_at FROM summaries s JOIN agents a ON a.id = s.agent_id LEFT JOIN threads t ON t.id = s.thread_id"
)


THREAD_SELECT = (
    "SELECT t.id, a.name, t.key, t.status, t.system_prompt, t.metadata, t.created_at, t.updated_at, "
    "t.ended_at, t.message_count, ARRAY(SELECT u.user_id FROM thread_users u WHERE u.thread_id = t.id "
    'ORDER BY u.user_id COLLATE "C") FROM threads t JOIN agents a ON a.id = t.agent_id'
)


# -- helpers and row conversion ---------------------------------------------------------------------
def one_row(conn: Conn, query: Any, params: Any = None) -> tuple[Any, ...]:
    """The first row of a query that always returns one."""
    row = conn.execute(query, params).fetchone()
    if row is None:  # pragma: no cover - the queries passed here always return a row
        raise StorageError("the database returned no row")
    return row


#: How PostgreSQL columns become values of :mod:`memlane.types`: ``json`` columns arrive decoded, times as
#: aware datetimes, normalised to UTC.
ROWS = RowCodec(json=unchanged, time=utc_or_none)


def thread_row(row: tuple[Any, ...]) -> Thread:
    """A thread from its 10 columns and, 11th, the array of its users."""
    return thread_from_row(row, tuple(row[10]), ROWS)


def message_row(r: tuple[Any, ...]) -> Message:
    return message_from_row(r, ROWS)


def head_row(r: tuple[Any, ...]) -> MessageHead:
    return MessageHead(r[0], r[1], r[2], r[3], r[4], r[5], utc(r[6]))


def fact_row(r: tuple[Any, ...]) -> Fact:
    return fact_from_row(r, ROWS)


def summary_row(r: tuple[Any, ...]) -> Summary:
    return summary_from_row(r, ROWS)


def record_time(value: Any) -> datetime | None:
    """A record's time (ISO text) as a datetime; naive text means UTC. Raises TypeError/ValueError."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"a time must be ISO-8601 text, not {type(value).__name__}")
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def time_text(value: datetime | None) -> str | None:
    return None if value is None else fmt_time(value)


class PostgresHost:
    """What the parts of :class:`~memlane.store.postgres.PostgresStore` rely on from each other.

    Only declarations (for the type checker): ``PostgresStore`` provides the connection helpers and
    settings, and its parts (the modules of this package) the methods they share.
    """

    if TYPE_CHECKING:
        hnsw_m: int
        hnsw_ef_construction: int
        hnsw_ef_search: int
        hnsw_ef_search_broad: int
        exact_vectors: bool
        _pool: ConnectionPool[Conn]
        _dim: int | None
        _terms: CommonTerms
        _ivf: IvfBuilds

        def _run(self, what: str, fn: Callable[[Conn], T], *, write: bool = True) -> T: ...
        def _agent_id(self, conn: Conn, agent: str) -> int | None: ...
        def _ensure_agent(self, conn: Conn, agent: str, now: datetime) -> int: ...
        def _remember_agent(self, agent: str, agent_id: int) -> None: ...
        def _agent_read(self, what: str, agent: str, fn: Callable[[Conn, int], list[T]]) -> list[T]: ...
        def _read_ids(
            self,
            what: str,
            agent: str,
            ids: Sequence[int],
            select: str,
            alias: str,
            row: Callable[[tuple[Any, ...]], T],
        ) -> list[T]: ...
        def _thread_id(self, conn: Conn, agent_id: int | None, thread: str, *, lock: bool = False) -> int | None: ...
        def _put_vectors(
            self, conn: Conn, agent_id: int, kind: str, ids: Sequence[int], vectors: np.ndarray
        ) -> None: ...
        def _scope_where(self, kind: str, agent_id: int, thread_id: int | None, scope: Scope) -> Where: ...
        def _write_stated(
            self, conn: Conn, agent_id: int, thread_id: int, append: ThreadAppend, first_seq: int, now: datetime
        ) -> None: ...
        def _known_dim(self, conn: Conn) -> int | None: ...
        @staticmethod
        def _fact_where(agent_id: int, flt: FactFilter) -> Where: ...
