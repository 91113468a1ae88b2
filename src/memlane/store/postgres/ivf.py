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
  lists² bytes. ``lists`` is 4 sqrt(rows), at most what fits in the build's memory (``memory``, 2 GB by
  default: ~3,060 cells, reached from ~585k rows; the build sets its own ``maintenance_work_mem``).
* One build at a time per server (a session-level advisory lock) and per store object (a thread).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import psycopg
from psycopg import sql

from ...config import memory_bytes
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


def kmeans_bytes(lists: int, dim: int, rows: int) -> int:
    """Memory pgvector's k-means asks for to train ``lists`` cells of half-precision vectors (its own count,
    ``ElkanKmeans`` in ``ivfkmeans.c``): room for 50 sample rows a cell (at least 10,000), a bound per
    sample and cell (the bulk: 200 lists² bytes), the centres in single precision, and a table of
    cell-to-cell distances."""
    room = max(_SAMPLES_PER_LIST * lists, 10_000)
    samples = min(rows, room)
    return (
        room * (8 + 2 * dim)
        + 2 * lists * (8 + 4 * dim)
        + 4 * samples * lists
        + 4 * lists * lists
        + 8 * samples
        + 12 * lists
    )


def lists_for(rows: int, memory: int, dim: int = 384) -> int:
    """Cells of an index over ``rows`` vectors: 4 sqrt(rows), at most what k-means can train in 95 % of
    ``memory`` bytes (the bounds, 200 lists² bytes, dominate: 1 GB ~2,130 cells, 2 GB ~3,060, 3 GB ~3,770)."""
    lists = max(_MIN_LISTS, 4 * math.isqrt(rows))
    low, high = _MIN_LISTS, lists
    while low < high:  # the most cells that fit
        middle = (low + high + 1) // 2
        if kmeans_bytes(middle, dim, rows) <= 0.95 * memory:
            low = middle
        else:
            high = middle - 1
    return low


def probes_for(lists: int) -> int:
    """Cells a query scans: a third of sqrt(lists), at least 10 (2,000 cells: 15; 3,000: 19; 4,000: 21).

    Measured at 1M chat vectors (``bench/broad.py``): ~3,800 cells probed 13 at a time found 0.95-0.96 of
    the exact top 10, 20 at a time 0.97-0.99, 38 at a time 0.996 in twice the time (bench/RESULTS.md,
    "Round 7")."""
    return min(lists, max(10, math.ceil(math.sqrt(lists) / 3)))


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
    """Build the index over the table as it is; None if another session is building one.

    ``concurrently``: ``conn`` in autocommit mode, writes go on meanwhile, and the old index serves until
    the new one replaces it (the lock and the memory setting belong to the session, which the caller ends).
    Otherwise ``conn`` is in a transaction, which holds both (and blocks writes to the table).
    """
    if concurrently:
        held = conn.execute("SELECT pg_try_advisory_lock(%s)", (_IVF_LOCK,)).fetchone()
    else:
        held = conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (_IVF_LOCK,)).fetchone()
    if held is None or not held[0]:
        return None
    try:
        rows = int(conn.execute("SELECT count(*) FROM message_vectors").fetchone()[0])  # type: ignore[index]
        lists = lists_for(rows, memory_bytes(memory), dim)
        conn.execute("SELECT set_config('maintenance_work_mem', %s, %s)", (memory, not concurrently))
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
        if concurrently and not conn.closed:
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
