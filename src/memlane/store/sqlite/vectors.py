"""Exact vector search for the SQLite backend: per-agent matrices in memory, scopes as masks.

Why exact search in NumPy rather than an ANN index: the embedded default stores tens of thousands to a
few hundred thousand vectors per agent, where one matrix-vector product over the agent's rows takes a few
milliseconds (see bench/RESULTS.md), gives perfect recall, and makes every scope filter exact: the filter
is a boolean mask applied before ranking, so a filtered query always returns the true top k of what the
scope allows — never a top k computed first and filtered after.

Each agent's vectors are loaded once from the ``embeddings`` table and kept in growable arrays. A search
first asks the database whether the agent changed: new rows (ids only grow) are appended, and any
deletion (``agents.vector_epoch``) reloads the agent. Agents are evicted least-recently-used when the
cache holds more than ``max_bytes``.

The one exception to exact search: an agent with at least ``ann_min_rows`` vectors also gets an
approximate index (:mod:`memlane.store.sqlite.ivf`), built on a background thread from the arrays in memory,
for searches over the whole agent. The build reorders the agent's rows (the order of rows means nothing to
a search) and swaps the reordered entry in; searches that began on the old entry finish on it.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...timestamps import parse_time
from .ivf import IvfIndex, build_ivf

if TYPE_CHECKING:  # numpy loads with the first vector read or written
    import numpy as np

log = logging.getLogger(__name__)

__all__ = ["KIND_CODES", "AgentVectors", "VectorCache", "member", "top_k", "top_k_rows", "top_k_scored", "within"]

KIND_CODES = {"message": 0, "fact": 1, "summary": 2}
_COLUMNS = ("matrix", "kinds", "item_ids", "thread_ids", "created")  # the per-row arrays of AgentVectors
_LOAD_BATCH = 4096  # rows fetched at a time on a load: the BLOBs of a large agent are not all held twice
_STAMP_WIDTH = len("2026-01-01T00:00:00.000000+00:00")  # what _common.fmt_time writes


@dataclass
class AgentVectors:
    """One agent's vectors and the attributes scopes filter on, in growable buffers."""

    epoch: int
    max_id: int
    size: int
    dim: int
    matrix: np.ndarray  # float32 (capacity, dim)
    kinds: np.ndarray  # int8
    item_ids: np.ndarray  # int64
    thread_ids: np.ndarray  # int64, -1 for none
    created: np.ndarray  # float64 POSIX seconds
    ivf: IvfIndex | None = field(default=None)  # over the first ivf.rows rows, when the agent is large
    # (sorted message ids, their rows, rows covered): built on first use, see message_rows
    _by_id: _IdLookup | None = field(default=None, repr=False)
    # (creation times in order, their rows, rows covered): built on first use, see rows_between
    _by_time: tuple[np.ndarray, np.ndarray, int] | None = field(default=None, repr=False)

    #: Rows appended since the id lookup was built that are searched one by one before it is built again.
    LOOKUP_TAIL = 4096

    @classmethod
    def empty(cls, dim: int, epoch: int, capacity: int = 0) -> AgentVectors:
        import numpy as np

        return cls(
            epoch=epoch,
            max_id=0,
            size=0,
            dim=dim,
            matrix=np.zeros((capacity, dim), dtype=np.float32),
            kinds=np.zeros(capacity, dtype=np.int8),
            item_ids=np.zeros(capacity, dtype=np.int64),
            thread_ids=np.zeros(capacity, dtype=np.int64),
            created=np.zeros(capacity, dtype=np.float64),
        )

    @property
    def nbytes(self) -> int:
        """Bytes held, growth room included (a load reserves exactly its rows; growth adds half)."""
        return int(len(self.kinds) * (self.dim * 4 + 1 + 8 * 3))

    def reserve(self, rows: int) -> None:
        """Make room for ``rows`` rows in all: exactly, when the agent is empty (a first load knows its count),
        else by at least half again, so that rows arriving one by one are not each a copy of the matrix."""
        if rows <= len(self.kinds):
            return
        capacity = rows if self.size == 0 else max(rows, len(self.kinds) * 3 // 2)
        for name in _COLUMNS:
            setattr(self, name, _grow(getattr(self, name), capacity))

    def append(self, rows: list[tuple[int, str, int, int | None, str, bytes]]) -> None:
        """Add rows of (id, kind, item_id, thread_id, created_at, vector blob)."""
        if not rows:
            return
        need = self.size + len(rows)
        self.reserve(need)
        # Column by column rather than row by row: a cold load of a large agent is mostly this loop.
        row_ids, kinds, item_ids, thread_ids, stamps, blobs = zip(*rows, strict=True)
        n = self.size
        target = self.matrix[n:need].data.cast("B")  # the rows' bytes; copying into it beats a join
        width = self.dim * 4
        for i, blob in enumerate(blobs):
            target[i * width : (i + 1) * width] = blob  # a blob of another length raises ValueError
        self.kinds[n:need] = [KIND_CODES[k] for k in kinds]
        self.item_ids[n:need] = item_ids
        self.thread_ids[n:need] = [-1 if t is None else t for t in thread_ids]
        self.created[n:need] = _timestamps(stamps)
        self.max_id = max(self.max_id, *row_ids)
        self.size = need

    def message_rows(self, ids: np.ndarray) -> np.ndarray:
        """The row of each message id in ``ids`` (-1 for a message without a vector here).

        A sorted copy of the message ids is built on first use (~0.1 s at 1M rows) and kept with the entry;
        rows appended after it are looked up apart until they are :attr:`LOOKUP_TAIL`, then it is rebuilt.
        """
        n = self.size
        lookup = self._by_id
        if lookup is None or n - lookup.covered > self.LOOKUP_TAIL:
            lookup = self._by_id = _IdLookup.of(*self._sorted_messages(0, n), n)
        out = lookup.rows_of(ids)
        if lookup.covered < n:  # rows appended since the lookup was built (a message keeps its one vector row)
            _find(*self._sorted_messages(lookup.covered, n), ids, out)
        return out

    def rows_between(self, since: float | None, until: float | None) -> np.ndarray:
        """The rows created at ``since`` or later and before ``until`` (POSIX seconds; None: unbounded), by time.

        The rows in time order are found once (~0.1 s at 1M rows) and kept with the entry, so a narrow range
        of a large agent costs a binary search instead of a comparison per row; rows appended after it are
        compared one by one until they are :attr:`LOOKUP_TAIL`, then it is built again.
        """
        import numpy as np

        n = self.size
        lookup = self._by_time
        if lookup is None or n - lookup[2] > self.LOOKUP_TAIL:
            order = np.argsort(self.created[:n], kind="stable")
            lookup = self._by_time = (self.created[:n][order], order, n)
        times, rows, covered = lookup
        low = 0 if since is None else int(np.searchsorted(times, since, side="left"))
        high = len(times) if until is None else int(np.searchsorted(times, until, side="left"))
        found = rows[low:high] if high > low else rows[:0]
        if covered < n:
            found = np.concatenate([found, covered + np.flatnonzero(within(self.created[covered:n], since, until))])
        return found

    def _sorted_messages(self, start: int, end: int) -> tuple[np.ndarray, np.ndarray]:
        """(message ids, their rows) of rows ``start:end``, by id."""
        import numpy as np

        rows = start + np.flatnonzero(self.kinds[start:end] == KIND_CODES["message"])
        order = np.argsort(self.item_ids[rows], kind="stable")
        return self.item_ids[rows][order], rows[order]

    def reordered(self, order: np.ndarray, ivf: IvfIndex) -> AgentVectors:
        """A copy with rows ``order`` first (the rows an index was built over) and ``ivf`` attached."""
        import numpy as np

        copy = AgentVectors.empty(self.dim, self.epoch, len(self.kinds))
        n = len(order)
        for name in _COLUMNS:
            np.take(getattr(self, name), order, axis=0, out=getattr(copy, name)[:n])  # no temporary copy
        copy.size, copy.max_id, copy.ivf = n, self.max_id, ivf
        return copy

    def take_rows_from(self, other: AgentVectors, start: int) -> None:
        """Append ``other``'s rows from ``start`` on (rows that arrived there during an index build)."""
        end = other.size
        if end <= start:
            return
        self.reserve(self.size + end - start)
        n, need = self.size, self.size + end - start
        for name in _COLUMNS:
            getattr(self, name)[n:need] = getattr(other, name)[start:end]
        self.size, self.max_id = need, other.max_id


@dataclass(frozen=True)
class _IdLookup:
    """Message id -> row over the first ``covered`` rows: a table indexed by ``id - low`` where the agent's
    message ids are dense enough (a read per id: 4,000 ids in ~0.03 ms against ~0.4 ms for a binary search
    in 1M ids), else the sorted ids and their rows."""

    covered: int
    low: int = 0
    table: np.ndarray | None = None  # int64 rows, -1 where no message row has that id
    sorted_ids: np.ndarray | None = None
    sorted_rows: np.ndarray | None = None

    @classmethod
    def of(cls, sorted_ids: np.ndarray, sorted_rows: np.ndarray, covered: int) -> _IdLookup:
        import numpy as np

        if len(sorted_ids) == 0:
            return cls(covered, sorted_ids=sorted_ids, sorted_rows=sorted_rows)
        low, span = int(sorted_ids[0]), int(sorted_ids[-1] - sorted_ids[0]) + 1
        if span > 4 * len(sorted_ids) + 4096:  # ids spread among other agents': a table would be mostly holes
            return cls(covered, sorted_ids=sorted_ids, sorted_rows=sorted_rows)
        table = np.full(span, -1, dtype=np.int64)
        table[sorted_ids - low] = sorted_rows
        return cls(covered, low=low, table=table)

    def rows_of(self, ids: np.ndarray) -> np.ndarray:
        import numpy as np

        out = np.full(len(ids), -1, dtype=np.int64)
        if self.table is not None:
            at = ids - self.low
            inside = (at >= 0) & (at < len(self.table))
            out[inside] = self.table[at[inside]]
        elif self.sorted_ids is not None and self.sorted_rows is not None:
            _find(self.sorted_ids, self.sorted_rows, ids, out)
        return out


def within(times: np.ndarray, since: float | None, until: float | None) -> np.ndarray:
    """Which ``times`` (POSIX seconds) are at ``since`` or later and before ``until`` (None: unbounded)."""
    import numpy as np

    keep = np.ones(len(times), dtype=bool)
    if since is not None:
        keep &= times >= since
    if until is not None:
        keep &= times < until
    return keep


def _find(sorted_ids: np.ndarray, sorted_rows: np.ndarray, ids: np.ndarray, out: np.ndarray) -> None:
    """Set ``out[i]`` to the row of ``ids[i]`` where ``sorted_ids`` holds it."""
    import numpy as np

    if len(sorted_ids) == 0:
        return
    at = np.minimum(np.searchsorted(sorted_ids, ids), len(sorted_ids) - 1)
    hit = sorted_ids[at] == ids
    out[hit] = sorted_rows[at[hit]]


def _timestamps(stamps: tuple[str, ...]) -> np.ndarray:
    """POSIX seconds of ISO-8601 times; the fixed-width UTC form the store writes is parsed by NumPy."""
    import numpy as np

    if all(len(s) == _STAMP_WIDTH and s.endswith("+00:00") for s in stamps):
        micros = np.array([s[:-6] for s in stamps], dtype="datetime64[us]").astype(np.int64)
        return micros / 1e6
    return np.array([parse_time(s).timestamp() for s in stamps], dtype=np.float64)  # type: ignore[union-attr]


def _grow(array: np.ndarray, capacity: int) -> np.ndarray:
    import numpy as np

    shape = (capacity, *array.shape[1:])
    grown = np.zeros(shape, dtype=array.dtype)
    grown[: len(array)] = array
    return grown


class VectorCache:
    """Per-agent vector matrices shared by every thread of a process.

    ``ann_min_rows``: agents with at least this many vectors get an approximate index for whole-agent
    searches (None: never). ``ann_probes``: a query scans ``ann_probes`` times the square root of the index's
    cells (:func:`.ivf.probes_for`; more is slower and finds more of the exact top k). An index is rebuilt
    once the rows added since its build reach a fifth of the rows it covers.
    """

    def __init__(
        self, max_bytes: int = 2 * 1024**3, ann_min_rows: int | None = 100_000, ann_probes: float = 0.8
    ) -> None:
        self.max_bytes = max_bytes
        self.ann_min_rows = ann_min_rows
        self.ann_probes = ann_probes
        self._agents: OrderedDict[int, AgentVectors] = OrderedDict()
        self._bytes = 0  # sum of the cached agents' nbytes, kept as they change (summing per search is O(agents))
        self._lock = threading.Lock()
        self._builds: dict[int, threading.Thread] = {}  # agent id -> its running index build

    @property
    def nbytes(self) -> int:
        """Bytes accounted against ``max_bytes``."""
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._agents.clear()
            self._bytes = 0

    def get(self, conn: sqlite3.Connection, agent_id: int, dim: int) -> AgentVectors:
        """The agent's vectors, brought up to date with the database (call inside a read transaction)."""
        epoch_row = conn.execute("SELECT vector_epoch FROM agents WHERE id = ?", (agent_id,)).fetchone()
        epoch = int(epoch_row[0]) if epoch_row else 0
        max_row = conn.execute("SELECT max(id) FROM embeddings WHERE agent_id = ?", (agent_id,)).fetchone()
        max_id = int(max_row[0] or 0)
        with self._lock:
            entry = self._agents.get(agent_id)
            if entry is None or entry.epoch != epoch or entry.dim != dim or entry.max_id > max_id:
                if entry is not None:
                    self._bytes -= entry.nbytes
                entry = AgentVectors.empty(dim, epoch)
                self._agents[agent_id] = entry
            if max_id > entry.max_id:
                before = entry.nbytes
                self._load(conn, agent_id, entry)
                self._bytes += entry.nbytes - before
            self._agents.move_to_end(agent_id)
            self._evict()
            if self._wants_index(entry) and not self._builds:  # one build at a time: each holds a copy of an agent
                build = threading.Thread(
                    target=self._build_index, args=(agent_id, entry), name=f"memlane-ivf-{agent_id}", daemon=True
                )
                self._builds[agent_id] = build
                build.start()
            return entry

    def _wants_index(self, entry: AgentVectors) -> bool:
        if self.ann_min_rows is None or entry.size < self.ann_min_rows:
            return False
        return entry.ivf is None or (entry.size - entry.ivf.rows) * 5 >= entry.ivf.rows

    def _build_index(self, agent_id: int, entry: AgentVectors) -> None:
        """Build the agent's index off the lock, then swap the reordered entry in (if it is still current)."""
        try:
            with self._lock:
                rows = entry.size  # rows below this are never written again; appends go past it
                matrix, kinds = entry.matrix, entry.kinds
            order, ivf = build_ivf(matrix[:rows], kinds[:rows] == KIND_CODES["message"], self.ann_probes)
            built = entry.reordered(order, ivf)
            with self._lock:
                if self._agents.get(agent_id) is entry:
                    built.take_rows_from(entry, rows)
                    self._agents[agent_id] = built
                    self._bytes += built.nbytes - entry.nbytes
        except Exception:  # an index is an optimisation: searches stay exact without one
            log.exception("could not build the vector index of agent %s", agent_id)
        finally:
            with self._lock:
                self._builds.pop(agent_id, None)

    def wait_for_indexes(self, timeout: float | None = None) -> None:
        """Block until the index builds running now have finished."""
        with self._lock:
            running = list(self._builds.values())
        for build in running:
            build.join(timeout)

    @staticmethod
    def _load(conn: sqlite3.Connection, agent_id: int, entry: AgentVectors) -> None:
        """Append the agent's rows newer than ``entry.max_id``, in batches (never all BLOBs at once)."""
        args = (agent_id, entry.max_id)
        count = conn.execute("SELECT count(*) FROM embeddings WHERE agent_id = ? AND id > ?", args).fetchone()[0]
        entry.reserve(entry.size + int(count))
        cursor = conn.execute(
            "SELECT id, kind, item_id, thread_id, created_at, vector FROM embeddings "
            "WHERE agent_id = ? AND id > ? ORDER BY id",
            args,
        )
        while rows := cursor.fetchmany(_LOAD_BATCH):
            entry.append(rows)

    def _evict(self) -> None:
        while self._bytes > self.max_bytes and len(self._agents) > 1:
            _, evicted = self._agents.popitem(last=False)
            self._bytes -= evicted.nbytes


def _dot(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    # einsum stays on the calling thread; a BLAS matrix-vector product hands the work to a thread pool
    # that, on a busy machine, mostly waits for the other core (measured in bench/RESULTS.md).
    import numpy as np

    scores: np.ndarray = np.einsum("ij,j->i", matrix, query)
    return scores


def top_k(
    vectors: AgentVectors,
    query: np.ndarray,
    mask: np.ndarray | None,
    limit: int,
) -> list[tuple[int, int, float]]:
    """(kind code, item id, cosine) of the ``limit`` best rows allowed by ``mask`` (None: all rows)."""
    import numpy as np

    n = vectors.size
    if n == 0 or limit <= 0:
        return []
    if mask is None:
        rows = np.arange(n)
        scores = _dot(vectors.matrix[:n], query)
    else:
        rows = np.flatnonzero(mask)
        if len(rows) == 0:
            return []
        if len(rows) > n // 3:  # a gather would copy most of the matrix: score all, then mask
            all_scores = _dot(vectors.matrix[:n], query)
            scores = all_scores[rows]
        else:
            scores = _dot(vectors.matrix[rows], query)
    return _best(vectors, rows, scores, limit)


def top_k_rows(vectors: AgentVectors, rows: np.ndarray, query: np.ndarray, limit: int) -> list[tuple[int, int, float]]:
    """As :func:`top_k`, over the rows ``rows`` only (any order; ties go in row order, as there)."""
    import numpy as np

    if len(rows) == 0 or limit <= 0:
        return []
    rows = np.sort(rows)
    return _best(vectors, rows, _dot(vectors.matrix[rows], query), limit)


def top_k_scored(
    vectors: AgentVectors, positions: np.ndarray, scores: np.ndarray, allowed: np.ndarray, limit: int
) -> list[tuple[int, int, float]]:
    """As :func:`top_k`, over rows already scored: ``positions`` with their ``scores``, those ``allowed``."""
    return _best(vectors, positions[allowed], scores[allowed], limit)


def _best(vectors: AgentVectors, rows: np.ndarray, scores: np.ndarray, limit: int) -> list[tuple[int, int, float]]:
    """(kind code, item id, score) of the ``limit`` best-scored ``rows``, best first (ties in row order)."""
    import numpy as np

    if len(scores) > limit:
        part = np.argpartition(-scores, limit - 1)[:limit]
        order = part[np.argsort(-scores[part], kind="stable")]
    else:
        order = np.argsort(-scores, kind="stable")
    picked = rows[order]
    # Whole columns to Python values at once: reading NumPy scalars one by one cost ~0.1 ms for 100 rows.
    return list(
        zip(vectors.kinds[picked].tolist(), vectors.item_ids[picked].tolist(), scores[order].tolist(), strict=True)
    )


def member(values: np.ndarray, wanted: Sequence[int]) -> np.ndarray:
    """Which ``values`` (ids, or -1 for none) are in ``wanted``: one lookup per row in a table of flags.

    ``np.isin`` makes several passes over the rows (3 ms for 200k rows and 10 thread ids, against 0.17 ms).
    The table has one flag per id up to the largest wanted, so very sparse ids go to ``np.isin`` instead.
    """
    import numpy as np

    if not wanted:
        return np.zeros(len(values), dtype=bool)
    top = max(wanted)
    if min(wanted) < 0 or top > 8 * len(values) + 4096:
        return np.isin(values, wanted)
    table = np.zeros(top + 3, dtype=bool)  # flag of id i at i + 1; -1 reads flag 0, ids past the top the last
    table[np.asarray(wanted, dtype=np.int64) + 1] = True
    return np.take(table, values.astype(np.int64) + 1, mode="clip")
