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
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

import numpy as np

__all__ = ["AgentVectors", "VectorCache"]

KIND_CODES = {"message": 0, "fact": 1, "summary": 2}


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

    @classmethod
    def empty(cls, dim: int, epoch: int, capacity: int = 16) -> AgentVectors:
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
        """Bytes of the rows in use (reserved growth room is not counted against the cache budget)."""
        return int(self.size * (self.dim * 4 + 1 + 8 * 3))

    def append(self, rows: list[tuple[int, str, int, int | None, str, bytes]]) -> None:
        """Add rows of (id, kind, item_id, thread_id, created_at, vector blob)."""
        need = self.size + len(rows)
        if need > len(self.kinds):
            capacity = max(need, 2 * len(self.kinds))
            self.matrix = _grow(self.matrix, capacity)
            self.kinds = _grow(self.kinds, capacity)
            self.item_ids = _grow(self.item_ids, capacity)
            self.thread_ids = _grow(self.thread_ids, capacity)
            self.created = _grow(self.created, capacity)
        n = self.size
        for i, (row_id, kind, item_id, thread_id, created_at, blob) in enumerate(rows):
            self.matrix[n + i] = np.frombuffer(blob, dtype=np.float32)
            self.kinds[n + i] = KIND_CODES[kind]
            self.item_ids[n + i] = item_id
            self.thread_ids[n + i] = -1 if thread_id is None else thread_id
            self.created[n + i] = datetime.fromisoformat(created_at).timestamp()
            self.max_id = max(self.max_id, row_id)
        self.size = need


def _grow(array: np.ndarray, capacity: int) -> np.ndarray:
    shape = (capacity, *array.shape[1:])
    grown = np.zeros(shape, dtype=array.dtype)
    grown[: len(array)] = array
    return grown


class VectorCache:
    """Per-agent vector matrices shared by every thread of a process."""

    def __init__(self, max_bytes: int = 2 * 1024**3) -> None:
        self.max_bytes = max_bytes
        self._agents: OrderedDict[int, AgentVectors] = OrderedDict()
        self._lock = threading.Lock()

    def clear(self) -> None:
        with self._lock:
            self._agents.clear()

    def get(self, conn: sqlite3.Connection, agent_id: int, dim: int) -> AgentVectors:
        """The agent's vectors, brought up to date with the database (call inside a read transaction)."""
        epoch_row = conn.execute("SELECT vector_epoch FROM agents WHERE id = ?", (agent_id,)).fetchone()
        epoch = int(epoch_row[0]) if epoch_row else 0
        max_row = conn.execute("SELECT max(id) FROM embeddings WHERE agent_id = ?", (agent_id,)).fetchone()
        max_id = int(max_row[0] or 0)
        with self._lock:
            entry = self._agents.get(agent_id)
            if entry is None or entry.epoch != epoch or entry.dim != dim or entry.max_id > max_id:
                entry = AgentVectors.empty(dim, epoch)
                self._agents[agent_id] = entry
            if max_id > entry.max_id:
                rows = conn.execute(
                    "SELECT id, kind, item_id, thread_id, created_at, vector FROM embeddings "
                    "WHERE agent_id = ? AND id > ? ORDER BY id",
                    (agent_id, entry.max_id),
                ).fetchall()
                entry.append(rows)
            self._agents.move_to_end(agent_id)
            self._evict()
            return entry

    def _evict(self) -> None:
        total = sum(a.nbytes for a in self._agents.values())
        while total > self.max_bytes and len(self._agents) > 1:
            _, evicted = self._agents.popitem(last=False)
            total -= evicted.nbytes


def _dot(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    # einsum stays on the calling thread; a BLAS matrix-vector product hands the work to a thread pool
    # that, on a busy machine, mostly waits for the other core (measured in bench/RESULTS.md).
    scores: np.ndarray = np.einsum("ij,j->i", matrix, query)
    return scores


def top_k(
    vectors: AgentVectors,
    query: np.ndarray,
    mask: np.ndarray | None,
    limit: int,
) -> list[tuple[int, int, float]]:
    """(kind code, item id, cosine) of the ``limit`` best rows allowed by ``mask`` (None: all rows)."""
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
    if len(scores) > limit:
        part = np.argpartition(-scores, limit - 1)[:limit]
        order = part[np.argsort(-scores[part], kind="stable")]
    else:
        order = np.argsort(-scores, kind="stable")
    picked = rows[order]
    return [
        (int(vectors.kinds[i]), int(vectors.item_ids[i]), float(scores[j])) for i, j in zip(picked, order, strict=True)
    ]
