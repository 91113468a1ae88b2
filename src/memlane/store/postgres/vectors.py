"""Vectors of the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`): pgvector
columns, HNSW indexes, nearest-neighbour search with the scope in the query.

A vector search is one statement in the common case: the agent id and the dimension are cached once known,
and pgvector's search settings (iterative index scans, ``ef_search``) belong to the pooled connection, so no
``SET`` and no transaction are needed per query.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
from psycopg import sql

from ...errors import InvalidInput
from ...types import Fact, Message, Summary
from ..base import Candidate, Scope
from .common import (
    FACT_SELECT,
    MESSAGE_SELECT,
    SEARCH_TABLES,
    SUMMARY_SELECT,
    Conn,
    Ids,
    PostgresHost,
    Vector,
    Where,
    fact_row,
    message_row,
    one_row,
    sql_limit,
    summary_row,
    vector_values,
)
from .ivf import INDEX as IVF_INDEX
from .ivf import IvfIndex
from .ivf import build as build_ivf
from .ivf import drop as drop_ivf
from .schema import VECTOR_TABLES

__all__ = ["PostgresVectors"]

_VECTOR_LOCK = 0x6D656D6C616E6502


_HNSW_MAX_DIM = 2000  # pgvector cannot index more dimensions of a ``vector`` column


class PostgresVectors(PostgresHost):
    """Vector methods of the store contract, and bulk-load helpers (index drop and build)."""

    # -- vectors ------------------------------------------------------------------------------------
    def _ensure_dim(self, conn: Conn, dim: int) -> None:
        """Check the dimension of new vectors; on first use, type the vector columns and build the indexes.

        Writers of vectors hold the vector advisory lock shared until they commit; :meth:`drop_vectors`
        and the first writer (which changes the columns) hold it exclusively. So no vector is written
        under a dimension that is being dropped, and racing first writers set the dimension once.
        """
        row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
        if row is not None:
            conn.execute("SELECT pg_advisory_xact_lock_shared(%s)", (_VECTOR_LOCK,))
            row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
        if row is None:  # first vectors (or dropped meanwhile): set up under the exclusive lock
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_VECTOR_LOCK,))
            row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
        if row is not None:
            if int(row[0]) != dim:
                raise InvalidInput(f"vectors have dimension {dim}, the store holds dimension {row[0]}")
            return
        for table, _, _ in VECTOR_TABLES.values():
            conn.execute(
                sql.SQL("ALTER TABLE {} ALTER COLUMN embedding TYPE vector({})").format(
                    sql.Identifier(table), sql.Literal(dim)
                )
            )
            if dim <= _HNSW_MAX_DIM:  # beyond it, searches scan exactly (still correct, slower)
                conn.execute(self._hnsw_index(table))
        conn.execute("INSERT INTO meta (key, value) VALUES ('embedding_dim', %s)", (str(dim),))

    def _hnsw_index(self, table: str) -> sql.Composed:
        """The statement that builds the HNSW index ``<table>_hnsw`` of a vector table."""
        return sql.SQL(
            "CREATE INDEX {} ON {} USING hnsw (embedding vector_cosine_ops) WITH (m = {}, ef_construction = {})"
        ).format(
            sql.Identifier(f"{table}_hnsw"),
            sql.Identifier(table),
            sql.Literal(self.hnsw_m),
            sql.Literal(self.hnsw_ef_construction),
        )

    def _put_vectors(self, conn: Conn, agent_id: int, kind: str, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Insert or replace the vectors of items known to belong to the agent."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or len(vectors) != len(ids):
            raise InvalidInput("vectors must be a 2-d array with one row per item")
        self._ensure_dim(conn, int(vectors.shape[1]))
        table, key, _ = VECTOR_TABLES[kind]
        column, value = sql.SQL(""), sql.SQL("")
        if kind == "message":  # its thread too (migration 6): scoped searches then read the vector rows alone
            column, value = sql.SQL(", thread_id"), sql.SQL(", (SELECT thread_id FROM messages WHERE id = %(id)s)")
        query = sql.SQL(
            "INSERT INTO {table} ({key}, agent_id, embedding{column}) "
            "VALUES (%(id)s, %(agent)s, %(vector)s::vector{value}) "
            "ON CONFLICT ({key}) DO UPDATE SET embedding = excluded.embedding"
        ).format(table=sql.Identifier(table), key=sql.Identifier(key), column=column, value=value)
        rows = [{"id": item_id, "agent": agent_id, "vector": Vector(vectors[i])} for i, item_id in enumerate(ids)]
        with conn.cursor() as cur:
            cur.executemany(query, rows)

    def set_vectors(self, agent: str, kind: str, ids: Sequence[int], vectors: np.ndarray) -> None:
        if kind not in VECTOR_TABLES:
            raise InvalidInput(f"unknown kind {kind!r}")
        if len(vectors) != len(ids):
            raise InvalidInput(f"{len(vectors)} vectors for {len(ids)} items")
        _, _, items = VECTOR_TABLES[kind]

        if not ids:
            return

        def write(conn: Conn) -> None:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return
            query = sql.SQL("SELECT id FROM {} WHERE agent_id = %s AND id = ANY(%s)").format(sql.Identifier(items))
            found = {int(r[0]) for r in conn.execute(query, (agent_id, list(ids)))}
            keep = [i for i, item_id in enumerate(ids) if item_id in found]
            if keep:
                chosen = [ids[i] for i in keep]
                self._put_vectors(conn, agent_id, kind, chosen, np.asarray(vectors)[keep])
                if kind == "message":
                    conn.execute("DELETE FROM pending_vectors WHERE message_id = ANY(%s)", (chosen,))

        self._run("could not store vectors", write)

    def get_vectors(self, agent: str, kind: str, ids: Sequence[int]) -> tuple[list[int], np.ndarray]:
        if kind not in VECTOR_TABLES:
            raise InvalidInput(f"unknown kind {kind!r}")
        table, key, _ = VECTOR_TABLES[kind]
        # Binary results: the embedding arrives in pgvector's wire format and is decoded with NumPy.
        query = sql.SQL("SELECT {key}, embedding FROM {table} WHERE agent_id = %s AND {key} = ANY(%s)").format(
            key=sql.Identifier(key), table=sql.Identifier(table)
        )

        def read(conn: Conn) -> tuple[list[int], np.ndarray]:
            agent_id = self._agent_id(conn, agent)
            dim_row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
            dim = int(dim_row[0]) if dim_row else 0
            stored: dict[int, bytes] = {}
            if agent_id is not None and ids and dim:
                with conn.cursor(binary=True) as cur:
                    for item_id, data in cur.execute(query, (agent_id, Ids(ids))):
                        stored[int(item_id)] = bytes(data)
            found = [item_id for item_id in ids if item_id in stored]
            matrix = np.empty((len(found), dim), dtype=np.float32)
            for row, item_id in enumerate(found):
                matrix[row] = vector_values(stored[item_id])
            return found, matrix

        return self._run("read vectors", read, write=False)

    def items_without_vectors(self, kind: str, limit: int) -> list[Message | Fact | Summary]:
        if kind not in VECTOR_TABLES:
            raise InvalidInput(f"unknown kind {kind!r}")
        table, key, _ = VECTOR_TABLES[kind]
        select, alias = {
            "message": (MESSAGE_SELECT, "m"),
            "fact": (FACT_SELECT, "f"),
            "summary": (SUMMARY_SELECT, "s"),
        }[kind]
        convert: Callable[[tuple[Any, ...]], Message | Fact | Summary] = message_row
        if kind == "fact":
            convert = fact_row
        elif kind == "summary":
            convert = summary_row
        query = sql.SQL("{} WHERE NOT EXISTS (SELECT 1 FROM {} v WHERE v.{} = {}.id) ORDER BY {}.id LIMIT %s").format(
            sql.SQL(select),
            sql.Identifier(table),
            sql.Identifier(key),
            sql.Identifier(alias),
            sql.Identifier(alias),
        )

        def read(conn: Conn) -> list[Message | Fact | Summary]:
            return [convert(r) for r in conn.execute(query, (sql_limit(limit),))]

        return self._run("find items without vectors", read, write=False)

    def pending_vectors(self, limit: int, *, after: int = 0) -> list[Message]:
        def read(conn: Conn) -> list[Message]:
            return [
                message_row(r)
                for r in conn.execute(
                    MESSAGE_SELECT + " JOIN pending_vectors p ON p.message_id = m.id "
                    "WHERE p.message_id > %s ORDER BY p.message_id LIMIT %s",
                    (after, sql_limit(limit)),
                )
            ]

        return self._run("find messages waiting for their vectors", read, write=False)

    def drop_vectors(self) -> int:
        def write(conn: Conn) -> int:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_VECTOR_LOCK,))
            conn.execute("DELETE FROM pending_vectors")
            conn.execute("DELETE FROM meta WHERE key IN ('embedding_dim', 'embedding_model')")
            drop_ivf(conn)
            count = 0
            for table, _, _ in VECTOR_TABLES.values():
                name = sql.Identifier(table)
                count += int(one_row(conn, sql.SQL("SELECT count(*) FROM {}").format(name))[0])
                conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(f"{table}_hnsw")))
                conn.execute(sql.SQL("TRUNCATE {}").format(name))
                conn.execute(sql.SQL("ALTER TABLE {} ALTER COLUMN embedding TYPE vector").format(name))
            return count

        try:
            return self._run("could not drop vectors", write)
        finally:
            self._dim = None
            self._ivf.forget()

    # Not part of the storage contract: bulk loads (``bench/backends.py``, large imports) insert vectors
    # far faster without the HNSW indexes, and one index build afterwards is faster than that many inserts.
    def drop_vector_indexes(self) -> int:
        """Drop the HNSW indexes and the whole-agent index (:mod:`.ivf`), e.g. before a bulk load; returns
        how many there were.

        Until :meth:`build_vector_indexes` runs, vector searches scan exactly (correct, but slow on large
        stores), new vectors do not rebuild the indexes, and this store object builds no whole-agent index
        in the background.

        Raises:
            StorageError: the database failed.
        """

        def write(conn: Conn) -> int:
            conn.execute("SELECT pg_advisory_xact_lock_shared(%s)", (_VECTOR_LOCK,))
            dropped = 0
            for table, _, _ in VECTOR_TABLES.values():
                name = f"{table}_hnsw"
                if one_row(conn, "SELECT to_regclass(%s) IS NOT NULL", (name,))[0]:
                    conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
                    dropped += 1
            return dropped + drop_ivf(conn)

        try:
            return self._run("could not drop the vector indexes", write)
        finally:
            self._ivf.paused = True
            self._ivf.forget()

    def build_vector_indexes(self, *, maintenance_work_mem: str | None = None) -> int:
        """Build the HNSW indexes that are missing (with this store's ``hnsw_m`` and ``hnsw_ef_construction``),
        and the whole-agent index (:mod:`.ivf`) if it is missing and the store holds at least
        ``vector_index_min_rows`` message vectors; returns how many were built. Nothing is built before the
        store has seen vectors (their dimension is unknown until then) or when the dimension is above
        pgvector's HNSW limit of 2,000.

        ``maintenance_work_mem`` (e.g. ``"2GB"``) is used for the HNSW builds only: a build whose graph fits
        in it is several times faster (the whole-agent index is built in the store's
        ``vector_index_memory``). The build blocks writes to the vector tables while it runs.

        Raises:
            StorageError: the database failed.
        """

        def write(conn: Conn) -> int:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_VECTOR_LOCK,))  # one builder at a time
            row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
            if row is None or int(row[0]) > _HNSW_MAX_DIM:
                return 0
            if maintenance_work_mem is not None:
                conn.execute("SELECT set_config('maintenance_work_mem', %s, true)", (maintenance_work_mem,))
            built = 0
            for table, _, _ in VECTOR_TABLES.values():
                name = f"{table}_hnsw"
                if one_row(conn, "SELECT to_regclass(%s) IS NOT NULL", (name,))[0]:
                    continue
                conn.execute(self._hnsw_index(table))
                built += 1
            rows = int(one_row(conn, "SELECT count(*) FROM message_vectors")[0])
            wanted = self._ivf.min_rows is not None and rows >= self._ivf.min_rows
            if wanted and not one_row(conn, "SELECT to_regclass(%s) IS NOT NULL", (IVF_INDEX,))[0]:
                built += build_ivf(conn, int(row[0]), self._ivf.memory, concurrently=False) is not None
            return built

        try:
            return self._run("could not build the vector indexes", write)
        finally:
            self._ivf.paused = False
            self._ivf.forget()

    def vector_search(self, agent: str, query: np.ndarray, scope: Scope, limit: int) -> list[Candidate]:
        # One round trip in the common case: the agent id and the dimension are cached once known, and the
        # pipeline sends BEGIN, the search settings (transaction-local, so the connection keeps none and
        # PgBouncer's transaction mode is safe), the query and COMMIT together.
        def read(conn: Conn) -> list[Candidate]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None or limit <= 0:
                return []
            dim = self._known_dim(conn)
            if dim is None:
                return []
            vector = np.asarray(query, dtype=np.float32)
            if vector.shape != (dim,):
                raise InvalidInput(f"query vector has shape {vector.shape}, the store holds dimension {dim}")
            ivf = None
            if _broad(scope) and "message" in scope.kinds and not self.exact_vectors:
                ivf = self._ivf.current(conn, dim)
            branches, params = self._vector_branches(conn, agent_id, Vector(vector), scope, limit, ivf)
            if not branches:
                return []
            statement = sql.SQL("SELECT kind, id, distance FROM ({}) r ORDER BY distance, kind, id LIMIT %s").format(
                sql.SQL(" UNION ALL ").join(branches)
            )
            # Iterative index scans keep the HNSW (or IVF) scan going until the filters let `limit` rows
            # through; relaxed order is re-sorted by the outer ORDER BY.
            with conn.pipeline(), conn.transaction():
                conn.execute(
                    "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                    "set_config('hnsw.ef_search', %s, true), set_config('enable_indexscan', %s, true), "
                    "set_config('ivfflat.iterative_scan', 'relaxed_order', true), "
                    "set_config('ivfflat.probes', %s, true)",
                    (
                        str(self._ef_search(scope, limit)),
                        "off" if self.exact_vectors else "on",
                        str(ivf.probes if ivf else 1),
                    ),
                )
                cur = conn.execute(statement, [*params, limit])
            return [Candidate(cast(Any, r[0]), int(r[1]), 1.0 - float(r[2]), "vector") for r in cur.fetchall()]

        return self._run("vector search", read, write=False)

    def _ef_search(self, scope: Scope, limit: int) -> int:
        """The HNSW candidate list of a search: ``hnsw_ef_search``, at least the limit, and at least
        ``hnsw_ef_search_broad`` over a whole agent (no user or thread): with no filter to make the iterative
        scan go on, the list alone decides what is found, and on clustered chat the default 40 finds ~0.77 of
        the exact top 10 (bench/RESULTS.md, "Whole-agent recall at scale")."""
        ef = max(self.hnsw_ef_search, limit)
        if _broad(scope):
            ef = max(ef, self.hnsw_ef_search_broad)
        return min(1000, ef)

    def _known_dim(self, conn: Conn) -> int | None:
        """The dimension of the stored vectors, None before the first ones (cached once known)."""
        if self._dim is None:
            row = conn.execute("SELECT value FROM meta WHERE key = 'embedding_dim'").fetchone()
            self._dim = None if row is None else int(row[0])
        return self._dim

    def _vector_branches(
        self, conn: Conn, agent_id: int, vector: Vector, scope: Scope, limit: int, ivf: IvfIndex | None = None
    ) -> tuple[list[sql.Composable], list[Any]]:
        """One ``(SELECT … ORDER BY distance LIMIT k)`` per kind in scope, with the scope in its WHERE;
        messages of a whole agent through the IVF index when there is one (``ivf``)."""
        thread_id = None
        kinds = [k for k in ("message", "fact", "summary") if k in scope.kinds]
        if scope.thread is not None:
            thread_id = self._thread_id(conn, agent_id, scope.thread)
            if thread_id is None:  # as in SQLite: no conversation items, facts still apply
                kinds = [k for k in kinds if k == "fact"]
        branches: list[sql.Composable] = []
        params: list[Any] = []
        for kind in kinds:
            table, key, items = VECTOR_TABLES[kind]
            alias = SEARCH_TABLES[kind][1]
            if kind == "message" and ivf is not None and _on_vector_row(scope):
                branches.append(_ivf_branch(cast(int, self._dim)))
                params += [vector, agent_id, vector, max(_IVF_CANDIDATES * limit, 40), limit]
                continue
            if kind == "message" and _on_vector_row(scope):
                where = self._message_vector_where(agent_id, thread_id, scope)
                source: sql.Composable = sql.SQL("message_vectors v")
            else:
                where = self._scope_where(kind, agent_id, thread_id, scope)
                source = sql.SQL("{table} v JOIN {items} {alias} ON {alias}.id = v.{key}").format(
                    table=sql.Identifier(table),
                    items=sql.Identifier(items),
                    alias=sql.Identifier(alias),
                    key=sql.Identifier(key),
                )
            # Exact: a distance no index can order by, so the statement differs from the approximate one and
            # no plan prepared for that (an HNSW scan, which enable_indexscan set later does not change) serves it.
            distance = "(v.embedding <=> %s::vector) + 0" if self.exact_vectors else "v.embedding <=> %s::vector"
            branches.append(
                sql.SQL(
                    "(SELECT {kind}::text AS kind, v.{key} AS id, {distance} AS distance "
                    "FROM {source} WHERE v.agent_id = %s AND {where} ORDER BY distance LIMIT %s)"
                ).format(
                    kind=sql.Literal(kind),
                    key=sql.Identifier(key),
                    distance=sql.SQL(distance),
                    source=source,
                    where=where.sql(),
                )
            )
            params += [vector, agent_id, *where.params, limit]
        return branches, params

    @staticmethod
    def _message_vector_where(agent_id: int, thread_id: int | None, scope: Scope) -> Where:
        """The messages in scope as conditions on ``message_vectors v`` alone (see :func:`_on_vector_row`):
        the thread's, else those of the user's threads, else the agent's, as ``_visible_where`` has them."""
        where = Where()
        if thread_id is not None:
            where.add("v.thread_id = %s", thread_id)
        elif scope.user is not None:
            where.add(
                "v.thread_id IN (SELECT thread_id FROM thread_users WHERE agent_id = %s AND user_id = %s)",
                agent_id,
                scope.user,
            )
        return where


#: Candidates an IVF search takes, per result, by half-precision distance (ordered again at full precision).
_IVF_CANDIDATES = 4


def _ivf_branch(dim: int) -> sql.Composable:
    """The message branch of a whole-agent search through the IVF index (:mod:`.ivf`): the nearest rows by the
    indexed half-precision expression, ordered again by their full distance. Parameters: the vector, the
    agent id, the vector again, the candidates, the limit."""
    half = sql.SQL("halfvec({})").format(sql.Literal(dim))
    return sql.SQL(
        "(SELECT 'message'::text AS kind, c.message_id AS id, c.embedding <=> %s::vector AS distance "
        "FROM (SELECT v.message_id, v.embedding FROM message_vectors v WHERE v.agent_id = %s "
        "ORDER BY v.embedding::{half} <=> %s::vector::{half} LIMIT %s) c ORDER BY distance LIMIT %s)"
    ).format(half=half)


def _broad(scope: Scope) -> bool:
    """A search over a whole agent: no user and no conversation to narrow it."""
    return scope.user is None and scope.thread is None


def _on_vector_row(scope: Scope) -> bool:
    """Whether a message search in this scope can filter ``message_vectors`` without joining ``messages``:
    the agent and the thread are on the vector row; times and metadata are not."""
    return scope.since is None and scope.until is None and not scope.metadata
