"""The approximate index of whole-agent message searches on PostgreSQL: pgvector's IVFFlat over half-precision
copies of the message vectors, built in the background once the store is large.

The HNSW graph (m 16, ef_construction 64) finds too little of the exact top 10 on a large store of chat
vectors: at 1M clustered messages, 0.69 at ``ef_search`` 200 and 0.90 at pgvector's largest, 1,000
(bench/RESULTS.md, "Round 7"). Scoped searches do not need it (the scope's own rows are few, and its filter
keeps pgvector's iterative scan going), a search over a whole agent does. An inverted file finds far more
there: the vectors are clustered into ``lists`` cells by k-means, a query scans the rows of the ``probes``
cells nearest to it, and on the same store 2,000 cells probed 24 at a time found 0.95 and 4,000 cells probed
12 at a time 0.98, in 4-7 ms.

* The index is on ``embedding::halfvec(dim)``, an expression no other search orders by: whole-agent message
  searches ask for it by that expression, every other search keeps the HNSW index and its exact paths. Half
  precision halves the rows a probe reads; the candidates it returns (4x the limit) are ordered again by
  their full-precision distance.
* It is built once ``message_vectors`` holds ``min_rows`` rows, and built again (``CREATE INDEX
  CONCURRENTLY`` under a new name, then swapped in one transaction) once the rows have grown by a fifth,
  so the cells follow the data. Writes go on meanwhile; new rows join their nearest cell at once.
* k-means needs memory: pgvector trains on 50 rows a cell and keeps a bound per row and cell, ~200 x
  lists² bytes. ``lists`` is 4 sqrt(rows), at most what fits in the build's memory (``memory``, 1 GB by
  default: ~2,200 cells; the build sets its own ``maintenance_work_mem``).
* One build at a time per server (a session-level advisory lock) and per store object (a thread).
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from psycopg import sql

from .common import Conn

__all__ = ["INDEX", "IvfBuilds", "IvfIndex", "lists_for", "memory_bytes", "probes_for"]

INDEX = "message_vectors_ivf"
_BUILDING = "message_vectors_ivf_new"
_IVF_LOCK = 0x6D656D6C616E6503  # held by the session that builds (one build per server at a time)
_MAX_DIM = 4000  # pgvector indexes halfvec up to 4,000 dimensions
_REFRESH_S = 30.0  # how often a store looks again at the table's size and the index
_GROWTH = 1.2  # rebuilt once the rows reach this many times those it was built over
_SAMPLES_PER_LIST = 50  # pgvector's k-means sample
_MIN_LISTS = 16


@dataclass(frozen=True)
class IvfIndex:
    """A built index: its cells and the rows it was built over."""

    lists: int
    rows: int

    @property
    def probes(self) -> int:
        return probes_for(self.lists)


def lists_for(rows: int, memory: int) -> int:
    """Cells of an index over ``rows`` vectors: 4 sqrt(rows), at most what k-means can train in ``memory``
    bytes (pgvector's bounds take 4 bytes per sampled row and cell, 50 rows a cell: 200 lists² bytes)."""
    fits = math.isqrt(int(memory * 0.9) // (4 * _SAMPLES_PER_LIST))
    return max(_MIN_LISTS, min(4 * math.isqrt(rows), fits))


def probes_for(lists: int) -> int:
    """Cells a query scans: 0.6 sqrt(lists), at least 10 (2,000 cells: 27; 4,000: 38)."""
    return min(lists, max(10, math.ceil(0.6 * math.sqrt(lists))))


def memory_bytes(text: str) -> int:
    """Bytes of a PostgreSQL memory setting such as ``"1GB"`` or ``"512MB"`` (units kB, MB, GB, TB)."""
    match = re.fullmatch(r"\s*(\d+)\s*(kB|MB|GB|TB)\s*", text)
    if match is None:
        raise ValueError(f"not a memory size such as '1GB': {text!r}")
    return int(match.group(1)) * {"kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}[match.group(2)]


def index_statement(name: str, dim: int, lists: int, *, concurrently: bool) -> sql.Composed:
    return sql.SQL(
        "CREATE INDEX {how} {name} ON message_vectors USING ivfflat ((embedding::halfvec({dim})) halfvec_cosine_ops) "
        "WITH (lists = {lists})"
    ).format(
        how=sql.SQL("CONCURRENTLY" if concurrently else ""),
        name=sql.Identifier(name),
        dim=sql.Literal(dim),
        lists=sql.Literal(lists),
    )


def build(conn: Conn, dim: int, memory: str, *, concurrently: bool) -> IvfIndex | None:
    """Build the index over the table as it is (``conn`` in autocommit mode, or in a transaction if not
    ``concurrently``); None if another session is building one. Concurrently: writes go on, and the old
    index serves until the new one replaces it."""
    if not conn.execute("SELECT pg_try_advisory_lock(%s)", (_IVF_LOCK,)).fetchone()[0]:  # type: ignore[index]
        return None
    try:
        rows = int(conn.execute("SELECT count(*) FROM message_vectors").fetchone()[0])  # type: ignore[index]
        lists = lists_for(rows, memory_bytes(memory))
        conn.execute("SELECT set_config('maintenance_work_mem', %s, false)", (memory,))
        conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(_BUILDING)))  # a failed build's
        conn.execute(index_statement(_BUILDING, dim, lists, concurrently=concurrently))
        with conn.transaction():
            conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(INDEX)))
            rename = sql.SQL("ALTER INDEX {} RENAME TO {}")
            conn.execute(rename.format(sql.Identifier(_BUILDING), sql.Identifier(INDEX)))
            for key, value in (("ivf_lists", lists), ("ivf_rows", rows)):
                conn.execute(
                    "INSERT INTO meta (key, value) VALUES (%s, %s) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, str(value)),
                )
        return IvfIndex(lists, rows)
    finally:
        conn.execute("RESET maintenance_work_mem")
        conn.execute("SELECT pg_advisory_unlock(%s)", (_IVF_LOCK,))


def drop(conn: Conn) -> int:
    """Drop the index (and a failed build's); how many there were."""
    dropped = 0
    for name in (INDEX, _BUILDING):
        if conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone()[0]:  # type: ignore[index]
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
            dropped += 1
    conn.execute("DELETE FROM meta WHERE key IN ('ivf_lists', 'ivf_rows')")
    return dropped


# The rows as the planner estimates them (the density of the last ANALYZE times the pages now): growth is
# seen before autovacuum analyses the table again.
_STATE = """
SELECT (SELECT CASE WHEN relpages > 0 AND reltuples >= 0
                    THEN (reltuples / relpages * (pg_relation_size(oid) / current_setting('block_size')::int))::bigint
               END
        FROM pg_class WHERE oid = 'message_vectors'::regclass),
       (SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('message_vectors_ivf')),
       (SELECT value FROM meta WHERE key = 'ivf_lists'),
       (SELECT value FROM meta WHERE key = 'ivf_rows')
"""


class IvfBuilds:
    """One store's view of the index (looked at every ``_REFRESH_S``) and its background builds.

    ``min_rows``: ``message_vectors`` rows from which the index is built (None: never). ``memory``: the
    ``maintenance_work_mem`` of a build, which bounds its cells (:func:`lists_for`).
    """

    def __init__(self, connect: Callable[[], Conn], min_rows: int | None, memory: str) -> None:
        memory_bytes(memory)  # a bad size fails here, not in a background thread
        self.min_rows = min_rows
        self.memory = memory
        self._connect = connect
        self._lock = threading.Lock()
        self._index: IvfIndex | None = None
        self._checked = -math.inf
        self._thread: threading.Thread | None = None
        self._conn: Conn | None = None  # the building thread's connection (cancelled on close)
        self._closed = False
        self.error: BaseException | None = None  # the last background build's failure
        self.paused = False  # no background builds (set between dropping the indexes and building them)

    def current(self, conn: Conn, dim: int) -> IvfIndex | None:
        """The index whole-agent searches may use now (None: none yet); starts a build when one is due."""
        if self.min_rows is None or dim > _MAX_DIM:
            return None
        now = time.monotonic()
        if now - self._checked < _REFRESH_S:
            return self._index
        self._checked = now
        row = conn.execute(_STATE).fetchone()
        assert row is not None
        rows, valid, lists, built_over = row
        if rows is None:  # never analysed: count
            rows = int(conn.execute("SELECT count(*) FROM message_vectors").fetchone()[0])  # type: ignore[index]
        self._index = IvfIndex(int(lists), int(built_over)) if valid and lists and built_over else None
        due = rows >= self.min_rows and (self._index is None or rows >= _GROWTH * self._index.rows)
        if due and not self.paused:
            self._start(dim)
        return self._index

    def forget(self) -> None:
        """Look at the database again on the next search (after the index was dropped or built here)."""
        self._index = None
        self._checked = -math.inf

    def _start(self, dim: int) -> None:
        with self._lock:
            if self._closed or (self._thread is not None and self._thread.is_alive()):
                return
            self._thread = threading.Thread(target=self._build, args=(dim,), name="memlane-ivf", daemon=True)
            self._thread.start()

    def _build(self, dim: int) -> None:
        try:
            with self._connect() as conn:
                with self._lock:
                    if self._closed:
                        return
                    self._conn = conn
                built = build(conn, dim, self.memory, concurrently=True)
            if built is not None:
                self._index, self._checked = built, time.monotonic()
            self.error = None
        except psycopg.Error as exc:  # the next refresh tries again; searches go on without the index
            self.error = exc
        finally:
            with self._lock:
                self._conn = None

    def wait(self, timeout: float | None = None) -> None:
        """Block until a background build under way has ended."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def close(self) -> None:
        """Cancel a build under way (its half-built index is dropped by the next build)."""
        with self._lock:
            self._closed = True
            conn = self._conn
        if conn is not None:
            conn.cancel_safe()
        self.wait(10)
