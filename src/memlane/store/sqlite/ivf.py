"""Approximate vector search for broad scopes of large agents: inverted lists (IVF) in NumPy.

A scoped search (a user's threads, a thread, a time range, metadata) stays exact: its mask leaves few rows
and scanning them is cheap (see :mod:`memlane.store.sqlite.vectors`). A search over a whole large agent has
to score every row (~1M at 1M messages, ~100 ms); this index cuts that to the rows near the query:

* the agent's message vectors are clustered by spherical k-means into ``lists`` cells, two-level so that
  assigning a million rows costs seconds, not minutes (rows go to the nearest coarse cell, then to the
  nearest fine cell inside it);
* the agent's arrays are reordered so every cell's rows are contiguous: a probe scores whole slices of the
  matrix in place, with no gather;
* a query scores the cell centroids, scans the ``probes`` nearest cells, and always also scans the rows that
  are not messages (facts and summaries: few, and worth finding exactly) and the rows added since the
  build (the index covers the first ``rows`` rows only).

Why not HNSW: on clustered data the graph indexes measured in bench/RESULTS.md ("Vector engine") reached
recall@10 of 0.80–0.88 at ef 64–128, took 35–340 CPU-seconds to build per 100k–200k vectors, and would be
a new compiled dependency. These cells build in seconds from the vectors already in memory and reach the
recall target by probing more cells (bench/broad.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads with the first vector read or written
    import numpy as np


__all__ = ["IvfIndex", "build_ivf", "cells_for", "probes_for"]

_SAMPLE_PER_CELL = 32  # rows sampled per centroid to train k-means
_ITERATIONS = 8
_MIN_PROBES = 16  # a small index's few cells are cheap to scan; a share of them alone finds too little
_NEAR_COARSE = 4  # coarse cells whose fine centroids a row is compared with
_CHUNK = 16384  # rows per assignment step (a 16384 x cells block of scores)
# OpenBLAS runs a matrix-vector product of up to ~1,200 rows of 384 on the calling thread (measured: process
# CPU = wall); past that it may hand the work to threads that wait for a busy core, so einsum does those.
_BLAS_ROWS = 1024


@dataclass(frozen=True)
class IvfIndex:
    """Cells over the first ``rows`` rows of an agent's (reordered) arrays."""

    centroids: np.ndarray  # float32 (cells, dim), unit rows
    offsets: np.ndarray  # int64 (cells + 1,): cell c holds rows offsets[c]:offsets[c + 1]
    rows: int  # rows covered; rows from here on are scanned exactly
    always: np.ndarray  # int64 positions below ``rows`` scanned by every query (items that are not messages)
    probes: int  # cells scanned per query

    def scan(self, matrix: np.ndarray, size: int, query: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(positions, cosine scores) of the rows a query looks at: the nearest cells, ``always`` and the
        rows added since the build."""
        import numpy as np

        cell_scores = np.einsum("ij,j->i", self.centroids, query)  # not BLAS: its threads wait on a busy machine
        probes = min(self.probes, len(cell_scores))
        nearest = np.argpartition(-cell_scores, probes - 1)[:probes] if probes else np.zeros(0, dtype=np.int64)
        spans = [(int(self.offsets[c]), int(self.offsets[c + 1])) for c in nearest]
        spans.append((self.rows, size))
        spans = [(a, b) for a, b in spans if b > a]
        total = sum(b - a for a, b in spans) + len(self.always)
        positions = np.empty(total, dtype=np.int64)
        scores = np.empty(total, dtype=np.float32)
        at = 0
        for a, b in spans:  # slices: no copy of the rows
            end = at + b - a
            positions[at:end] = np.arange(a, b)
            if b - a <= _BLAS_ROWS:  # BLAS's product, on this thread at this size, into place: ~20 % faster
                np.dot(matrix[a:b], query, out=scores[at:end])
            else:
                scores[at:end] = np.einsum("ij,j->i", matrix[a:b], query)
            at = end
        if len(self.always):
            positions[at:] = self.always
            scores[at:] = np.einsum("ij,j->i", matrix[self.always], query)
        return positions, scores


def cells_for(rows: int) -> int:
    """How many cells an index over ``rows`` message vectors gets: ~6 sqrt(rows), at least 16.

    Finer cells, more of them probed, find more for fewer rows scanned: at 100k / 300k / 1M clustered chat
    vectors, 6 sqrt(n) cells probed 1.5 % at a time found 0.93 / 0.97 / 0.99 of the exact top 10 against
    0.86 / 0.89 / 0.97 with 2 sqrt(n) cells at 2.4 %, scanning 1,700 / 5,100 / 16,200 rows instead of
    2,700 / 8,100 / 27,300 (bench/RESULTS.md, "Round 3"); the build takes about twice as long (8 s at 1M)."""
    return max(16, round(6 * math.sqrt(rows)))


def probes_for(cells: int, per_root: float) -> int:
    """How many of ``cells`` cells a query scans: ``per_root`` times their square root, at least 16.

    The cells a query needs for the same recall grow more slowly than the cells: on clustered chat vectors,
    a fixed 1.5 % of 6 sqrt(n) cells found 0.93 / 0.97 / 0.99 of the exact top 10 at 100k / 300k / 1M, and
    0.8 sqrt(cells) probes find 0.94 / 0.97 / 0.98 there, scanning 2,050 / 4,730 / 10,900 rows instead of
    1,690 / 5,120 / 16,260 (bench/RESULTS.md, "Round 5")."""
    return min(cells, max(_MIN_PROBES, math.ceil(per_root * math.sqrt(cells))))


def build_ivf(
    matrix: np.ndarray, is_message: np.ndarray, probes_per_root: float, seed: int = 0
) -> tuple[np.ndarray, IvfIndex]:
    """Cluster the message rows of ``matrix``; returns (the order to put the rows in, the index over it).

    In the new order the cells' rows come first, cell by cell, then the rows that are not messages
    (``always``). A query scans :func:`probes_for` of the cells.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    messages = np.flatnonzero(is_message)
    others = np.flatnonzero(~is_message)
    if len(messages) == 0:
        empty = np.zeros((0, matrix.shape[1]), dtype=np.float32)
        return others, IvfIndex(empty, np.zeros(1, dtype=np.int64), len(others), np.arange(len(others)), 0)
    cells = cells_for(len(messages))
    top = max(2, round(math.sqrt(cells)))
    coarse = _kmeans(matrix, messages, top, rng)
    coarse_of = _assign(matrix, messages, coarse)
    # Fine cells, trained inside each coarse cell (sized by its share of the rows).
    fine: list[np.ndarray] = []
    owner: list[int] = []  # the coarse cell of each fine centroid
    for c in range(len(coarse)):
        rows = messages[coarse_of == c]
        if len(rows):
            k = max(1, round(cells * len(rows) / len(messages)))
            fine.append(_kmeans(matrix, rows, min(k, len(rows)), rng))
            owner += [c] * len(fine[-1])
    centroids = np.concatenate(fine)
    owners = np.asarray(owner)
    # A row goes to its nearest fine centroid among those of its coarse cell and the coarse cells nearest to
    # it: nearly always its nearest of all (the top of recall), for a fraction of a full assignment's cost.
    near = np.argsort(-(coarse @ coarse.T), axis=1)[:, :_NEAR_COARSE]
    cell_of = np.empty(len(messages), dtype=np.int64)
    for c in range(len(coarse)):
        inside = np.flatnonzero(coarse_of == c)
        if len(inside) == 0:
            continue
        options = np.flatnonzero(np.isin(owners, near[c]))
        cell_of[inside] = options[_assign(matrix, messages[inside], centroids[options])]
    by_cell = np.argsort(cell_of, kind="stable")
    counts = np.bincount(cell_of, minlength=len(centroids))
    kept = counts > 0
    members = np.split(messages[by_cell], np.cumsum(counts)[:-1])
    members = [m for m, k in zip(members, kept, strict=True) if k]
    centroids = centroids[kept]
    sizes = np.array([len(m) for m in members], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    order = np.concatenate([*members, others]) if members else others
    probes = probes_for(len(centroids), probes_per_root)
    index = IvfIndex(
        centroids=np.ascontiguousarray(centroids, dtype=np.float32),
        offsets=offsets,
        rows=len(order),
        always=np.arange(int(offsets[-1]), len(order), dtype=np.int64),
        probes=probes,
    )
    return order, index


def _kmeans(matrix: np.ndarray, rows: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """``k`` unit centroids of ``matrix[rows]`` by spherical k-means on a sample."""
    import numpy as np

    take = min(len(rows), k * _SAMPLE_PER_CELL)
    sample = matrix[rng.choice(rows, take, replace=False)] if take < len(rows) else matrix[rows]
    centroids = sample[rng.choice(len(sample), k, replace=False)].copy()
    for _ in range(_ITERATIONS):
        labels = np.argmax(sample @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        by_label = np.argsort(labels, kind="stable")  # one reduceat over rows sorted by cell: np.add.at is ~10x slower
        present, starts = np.unique(labels[by_label], return_index=True)
        sums[present] = np.add.reduceat(sample[by_label], starts, axis=0)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        empty = norms[:, 0] == 0
        if empty.any():  # a cell that lost all its rows restarts at a random sample row
            sums[empty] = sample[rng.choice(len(sample), int(empty.sum()))]
            norms[empty] = np.linalg.norm(sums[empty], axis=1, keepdims=True)
        centroids = (sums / norms).astype(np.float32)
    result: np.ndarray = centroids
    return result


def _assign(matrix: np.ndarray, rows: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """The nearest centroid of each of ``matrix[rows]``, a block of rows at a time."""
    import numpy as np

    labels = np.empty(len(rows), dtype=np.int64)
    for start in range(0, len(rows), _CHUNK):
        block = matrix[rows[start : start + _CHUNK]]
        labels[start : start + len(block)] = np.argmax(block @ centroids.T, axis=1)
    return labels
