"""Stored vectors of the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`): the
``embeddings`` table, the backlog of items without vectors, and vector search through the in-memory
matrices of :mod:`memlane.store.sqlite.vectors`, with the scope turned into a mask of the rows it allows.

The first vectors stored fix the store's dimension (``meta.embedding_dim``); vectors of another
dimension are refused.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...errors import InvalidInput
from ...types import Fact, Message, Summary
from ..base import Candidate, FactFilter, Scope
from .common import (
    FACT_COLS,
    MESSAGE_COLS,
    SUMMARY_COLS,
    SQLiteHost,
    fact_row,
    fact_where,
    message_row,
    metadata_where,
    summary_row,
    summary_visibility,
)
from .vectors import KIND_CODES, AgentVectors, member, top_k, top_k_rows, top_k_scored, within

if TYPE_CHECKING:  # numpy loads with the first vector read or written
    import numpy as np

__all__ = ["SQLiteEmbeddings"]

#: Ids bound per ``IN (...)`` list (SQLite limits a statement's parameters).
_ID_CHUNK = 500
#: kind -> (its table, the column of its thread)
_ITEM_TABLES = {
    "message": ("messages", "thread_id"),
    "fact": ("facts", "source_thread_id"),
    "summary": ("summaries", "thread_id"),
}

#: kind -> (the query of its oldest items without a vector, up to a limit; what turns a row into an item)
_BACKLOG: dict[str, tuple[str, Callable[[tuple[Any, ...]], Message | Fact | Summary]]] = {
    "message": (
        f"SELECT {MESSAGE_COLS} FROM messages m JOIN threads t ON t.id = m.thread_id "  # noqa: S608
        "JOIN agents a ON a.id = m.agent_id WHERE NOT EXISTS (SELECT 1 FROM embeddings e "
        "WHERE e.kind = 'message' AND e.item_id = m.id) ORDER BY m.id LIMIT ?",
        message_row,
    ),
    "fact": (
        f"SELECT {FACT_COLS} FROM facts f JOIN agents a ON a.id = f.agent_id "  # noqa: S608
        "WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.kind = 'fact' AND e.item_id = f.id) "
        "ORDER BY f.id LIMIT ?",
        fact_row,
    ),
    "summary": (
        f"SELECT {SUMMARY_COLS} FROM summaries s JOIN agents a ON a.id = s.agent_id "  # noqa: S608
        "LEFT JOIN threads t ON t.id = s.thread_id WHERE NOT EXISTS (SELECT 1 FROM embeddings e "
        "WHERE e.kind = 'summary' AND e.item_id = s.id) ORDER BY s.id LIMIT ?",
        summary_row,
    ),
}


def _check_dim(conn: sqlite3.Connection, vectors: np.ndarray) -> None:
    """Record the dimension on first use; refuse vectors of another dimension."""
    dim = int(vectors.shape[1])
    row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
    if row is None:
        conn.execute("INSERT INTO meta (key, value) VALUES ('embedding_dim', ?)", (str(dim),))
    elif int(row[0]) != dim:
        raise InvalidInput(f"vectors have dimension {dim}, the store holds dimension {row[0]}")


def _visible_summaries(conn: sqlite3.Connection, agent_id: int, thread_id: int | None, scope: Scope) -> list[int]:
    """Ids of the agent's summaries the scope sees (summaries are few: read from the database).

    ``thread_id`` is the id of ``scope.thread`` (None when the scope names no thread, or an unknown one).
    """
    if scope.thread is not None and thread_id is None:
        return []
    visible, extra = summary_visibility(agent_id, thread_id, scope.user)
    return [
        r[0]
        for r in conn.execute(
            f"SELECT s.id FROM summaries s WHERE s.agent_id = ? AND {visible}",  # noqa: S608
            (agent_id, *extra),
        )
    ]


class SQLiteEmbeddings(SQLiteHost):
    """Vector methods of the store contract."""

    def _put_vectors(
        self,
        conn: sqlite3.Connection,
        agent_id: int,
        kind: str,
        ids: Sequence[int],
        thread_ids: Sequence[int | None],
        stamps: Sequence[str],
        vectors: np.ndarray,
    ) -> None:
        import numpy as np

        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(ids):
            raise InvalidInput("vectors must be a 2-d array with one row per item")
        _check_dim(conn, vectors)
        existing = conn.execute(
            f"SELECT count(*) FROM embeddings WHERE kind = ? AND item_id IN ({','.join('?' * len(ids))})",  # noqa: S608
            (kind, *ids),
        ).fetchone()[0]
        if existing:
            conn.executemany("DELETE FROM embeddings WHERE kind = ? AND item_id = ?", [(kind, i) for i in ids])
        conn.executemany(
            "INSERT INTO embeddings (agent_id, kind, item_id, thread_id, created_at, vector) VALUES (?,?,?,?,?,?)",
            [
                (agent_id, kind, item_id, thread_ids[i], stamps[i], vectors[i].tobytes())
                for i, item_id in enumerate(ids)
            ],
        )

    def set_vectors(self, agent: str, kind: str, ids: Sequence[int], vectors: np.ndarray) -> None:
        import numpy as np

        if kind not in KIND_CODES:
            raise InvalidInput(f"unknown kind {kind!r}")
        agent_id = self._agent_id(agent)
        if agent_id is None or not ids:
            return
        table, thread_col = _ITEM_TABLES[kind]
        with self._write() as conn:
            marks = ",".join("?" * len(ids))
            found = {
                int(r[0]): (r[1], r[2])
                for r in conn.execute(
                    f"SELECT id, {thread_col}, created_at FROM {table} WHERE +agent_id = ? AND id IN ({marks})",  # noqa: S608
                    (agent_id, *ids),
                )
            }
            keep = [i for i, item_id in enumerate(ids) if item_id in found]
            if not keep:
                return
            chosen = [ids[i] for i in keep]
            self._put_vectors(
                conn,
                agent_id,
                kind,
                chosen,
                [found[i][0] for i in chosen],
                [found[i][1] for i in chosen],
                np.asarray(vectors)[keep],
            )
            if kind == "message":
                conn.executemany("DELETE FROM pending_vectors WHERE message_id = ?", [(i,) for i in chosen])

    def get_vectors(self, agent: str, kind: str, ids: Sequence[int]) -> tuple[list[int], np.ndarray]:
        import numpy as np

        if kind not in KIND_CODES:
            raise InvalidInput(f"unknown kind {kind!r}")
        agent_id = self._agent_id(agent)
        stored: dict[int, bytes] = {}
        with self._read() as conn:
            dim_row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
            dim = int(dim_row[0]) if dim_row else 0
            wanted = sorted(set(ids))
            for start in range(0, len(wanted) if agent_id is not None else 0, _ID_CHUNK):
                chunk = wanted[start : start + _ID_CHUNK]
                # The unique (kind, item_id) index finds each row; ``+`` keeps the agent test off the agent index.
                stored.update(
                    conn.execute(
                        f"SELECT item_id, vector FROM embeddings WHERE kind = ? "  # noqa: S608
                        f"AND item_id IN ({','.join('?' * len(chunk))}) AND +agent_id = ?",
                        (kind, *chunk, agent_id),
                    ).fetchall()
                )
        found = [item_id for item_id in ids if item_id in stored]
        matrix = np.zeros((len(found), dim), dtype=np.float32)
        for row, item_id in enumerate(found):
            matrix[row] = np.frombuffer(stored[item_id], dtype=np.float32)
        return found, matrix

    def items_without_vectors(self, kind: str, limit: int) -> list[Message | Fact | Summary]:
        if kind not in _BACKLOG:
            raise InvalidInput(f"unknown kind {kind!r}")
        sql, convert = _BACKLOG[kind]
        return [convert(r) for r in self._query(sql, (limit,))]

    def pending_vectors(self, limit: int, *, after: int = 0) -> list[Message]:
        return [
            message_row(r)
            for r in self._query(
                f"SELECT {MESSAGE_COLS} FROM pending_vectors p JOIN messages m ON m.id = p.message_id "  # noqa: S608
                "JOIN threads t ON t.id = m.thread_id JOIN agents a ON a.id = m.agent_id "
                "WHERE p.message_id > ? ORDER BY p.message_id LIMIT ?",
                (after, limit),
            )
        ]

    def drop_vectors(self) -> int:
        with self._write() as conn:
            conn.execute("DELETE FROM pending_vectors")
            count = int(conn.execute("DELETE FROM embeddings").rowcount)
            conn.execute("DELETE FROM meta WHERE key IN ('embedding_dim', 'embedding_model')")
        self._vectors.clear()
        return count

    def vector_search(self, agent: str, query: np.ndarray, scope: Scope, limit: int) -> list[Candidate]:
        import numpy as np

        agent_id = self._agent_id(agent)
        if agent_id is None or limit <= 0:
            return []
        with self._read() as conn:
            dim_row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
            if dim_row is None:
                return []
            dim = int(dim_row[0])
            if query.shape != (dim,):
                raise InvalidInput(f"query vector has shape {query.shape}, the store holds dimension {dim}")
            vectors = self._vectors.get(conn, agent_id, dim)
            query = np.asarray(query, dtype=np.float32)
            found = None
            if vectors.ivf is not None and not self.exact_vectors and _broad(scope):
                span = None  # the rows of the scope's time range, if it has one
                if scope.since is not None or scope.until is not None:
                    span = vectors.rows_between(*time_range(scope))
                # About the rows the index scans: its share of the cells, of the rows.
                scanned = vectors.size * vectors.ivf.probes / max(1, len(vectors.ivf.centroids))
                if span is not None and len(span) <= max(limit, scanned):
                    # A range holding no more rows than the index would scan: search exactly what it holds.
                    found = self._top_in(conn, agent, agent_id, vectors, scope, span, query, limit)
                else:
                    positions, scores = vectors.ivf.scan(vectors.matrix, vectors.size, query)
                    allowed = self._vector_mask(conn, agent, agent_id, vectors, scope, positions)
                    found = top_k_scored(vectors, positions, scores, allowed, limit)
                    if len(found) < limit:  # the scope keeps too few of the scanned rows: search all it holds
                        found = (
                            None
                            if span is None
                            else self._top_in(conn, agent, agent_id, vectors, scope, span, query, limit)
                        )
            if found is None:
                mask = self._vector_mask(conn, agent, agent_id, vectors, scope)
        if found is None:
            found = top_k(vectors, query, mask, limit)
        names = {code: name for name, code in KIND_CODES.items()}
        return [Candidate(names[k], item, score, "vector") for k, item, score in found]  # type: ignore[arg-type]

    def _top_in(
        self,
        conn: sqlite3.Connection,
        agent: str,
        agent_id: int,
        vectors: AgentVectors,
        scope: Scope,
        rows: np.ndarray,
        query: np.ndarray,
        limit: int,
    ) -> list[tuple[int, int, float]]:
        """The exact top ``limit`` of ``rows`` that the scope allows."""
        if len(rows) == 0:
            return []
        allowed = self._vector_mask(conn, agent, agent_id, vectors, scope, rows)
        return top_k_rows(vectors, rows[allowed], query, limit)

    def _message_cosines(
        self,
        conn: sqlite3.Connection,
        agent_id: int,
        ids: np.ndarray,
        query: np.ndarray,
        span: Scope | None = None,
    ) -> np.ndarray | None:
        """Cosine of each of the agent's messages ``ids`` to ``query``, from the vectors in memory (NaN for a
        message without a vector, -inf for one created outside ``span``'s time range); None when the store
        holds no vectors of the query's dimension."""
        import numpy as np

        dim_row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
        if dim_row is None or query.shape != (int(dim_row[0]),):
            return None
        vectors = self._vectors.get(conn, agent_id, int(dim_row[0]))
        rows = vectors.message_rows(ids)
        matrix = vectors.matrix  # the entry's arrays only grow past the rows looked up
        scores = np.full(len(ids), np.nan, dtype=np.float32)
        held = rows >= 0
        # np.take of rows in order reads the matrix forwards: ~2x faster than a fancy index in match order.
        where = np.flatnonzero(held)
        order = np.argsort(rows[where], kind="stable")
        picked = np.take(matrix, rows[where][order], axis=0)
        scores[where[order]] = np.einsum("ij,j->i", picked, np.asarray(query, dtype=np.float32))
        if span is not None:  # the message's own time is kept with its vector
            scores[where[~within(vectors.created[rows[where]], *time_range(span))]] = -np.inf
        return scores

    def wait_for_vector_indexes(self, timeout: float | None = None) -> None:
        """Block until the approximate indexes being built in the background are ready (tests, benchmarks)."""
        self._vectors.wait_for_indexes(timeout)

    def _vector_mask(
        self,
        conn: sqlite3.Connection,
        agent: str,
        agent_id: int,
        vectors: AgentVectors,
        scope: Scope,
        positions: np.ndarray | None = None,
    ) -> np.ndarray:
        """The rows the scope allows, of all rows or of ``positions``. Facts are checked against the database
        (visibility may change)."""
        n = vectors.size

        def column(values: np.ndarray) -> np.ndarray:
            return values[:n] if positions is None else values[positions]

        kinds = column(vectors.kinds)
        threads = column(vectors.thread_ids)
        item_ids = column(vectors.item_ids)
        mask = member(kinds, [KIND_CODES[k] for k in scope.kinds])
        is_message = kinds == KIND_CODES["message"]
        is_summary = kinds == KIND_CODES["summary"]
        thread_id = None
        if scope.thread is not None:
            thread_id = self._thread_id(conn, agent, scope.thread)
            mask &= ~is_message | (threads == (thread_id if thread_id is not None else -2))
        elif scope.user is not None:
            mine = [
                r[0]
                for r in conn.execute(
                    "SELECT thread_id FROM thread_users WHERE agent_id = ? AND user_id = ?", (agent_id, scope.user)
                )
            ]
            mask &= ~is_message | member(threads, mine)
        # The database is asked which summaries and facts the scope sees only when the rows in question hold
        # vectors of that kind (a conversation without summaries or facts would pay two queries for nothing).
        if "summary" in scope.kinds and is_summary.any():
            mask &= ~is_summary | member(item_ids, _visible_summaries(conn, agent_id, thread_id, scope))
        convo = is_message | is_summary
        if "fact" in scope.kinds and not convo.all():
            flt = FactFilter(user=scope.user, include_superseded=scope.include_superseded)
            where, params = fact_where(agent_id, flt)
            facts = [r[0] for r in conn.execute(f"SELECT f.id FROM facts f WHERE {where}", params)]  # noqa: S608
            mask &= convo | member(item_ids, facts)
        if scope.metadata:
            mask &= self._metadata_mask(conn, agent_id, kinds, item_ids, scope)
        if scope.since is not None or scope.until is not None:
            mask &= within(column(vectors.created), *time_range(scope))
        return mask

    def _metadata_mask(
        self, conn: sqlite3.Connection, agent_id: int, kinds: np.ndarray, item_ids: np.ndarray, scope: Scope
    ) -> np.ndarray:
        """The rows whose item's metadata holds the scope's filter (looked up per kind in the database)."""
        import numpy as np

        n = len(kinds)
        allowed = np.zeros(n, dtype=bool)
        for kind, table in (("message", "messages"), ("fact", "facts"), ("summary", "summaries")):
            if kind not in scope.kinds:
                continue
            where, params = metadata_where("x", scope.metadata)
            ids = [
                r[0]
                for r in conn.execute(
                    f"SELECT x.id FROM {table} x WHERE x.agent_id = ? AND {where}",  # noqa: S608
                    [agent_id, *params],
                )
            ]
            of_kind = kinds == KIND_CODES[kind]
            allowed |= of_kind & member(item_ids, ids)
        return allowed


def time_range(scope: Scope) -> tuple[float | None, float | None]:
    """The scope's ``since`` and ``until`` in POSIX seconds (None: unbounded)."""
    return (
        None if scope.since is None else scope.since.timestamp(),
        None if scope.until is None else scope.until.timestamp(),
    )


def _broad(scope: Scope) -> bool:
    """Whether a search in ``scope`` may use the approximate index: the whole agent, with no user, thread or
    metadata filter (those leave few rows, which an exact scan of the mask finds fastest). A time range may
    stay: it keeps rows wherever they lie in the vector space, so the nearest cells still hold its best
    rows; when the scanned rows hold fewer than asked for, the search scans everything instead."""
    return scope.user is None and scope.thread is None and not scope.metadata and "message" in scope.kinds
