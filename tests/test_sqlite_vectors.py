"""Vectors in the SQLite backend on real files: ``get_vectors`` and the in-memory vector cache.

``get_vectors`` is how a store copy reads vectors back out, so the rows must come back bit for bit, in the
caller's order, and never cross agents. The cache tests check what a search sees after writes and deletes.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from memlane import InvalidInput
from memlane.store.base import Scope
from memlane.store.sqlite import SQLiteStore
from memlane.store.sqlite.vectors import VectorCache, _timestamps, member
from memlane.validation import NewFact, new_message

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
DIM = 8


def unit_rows(n: int, seed: int) -> np.ndarray:
    m = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def add(store: SQLiteStore, agent: str, thread: str, vectors: np.ndarray | None, n: int = 3) -> list[int]:
    items = [new_message("user", f"{agent} says {i}", user="u", max_chars=1000) for i in range(n)]
    return [m.id for m in store.add_messages(agent, thread, items, [1] * n, T0, vectors=vectors)]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "vectors.db")
    yield s
    s.close()


def test_get_vectors_returns_found_ids_in_the_given_order_bit_for_bit(store: SQLiteStore) -> None:
    vectors = unit_rows(3, seed=1)
    ids = add(store, "a", "t", vectors)
    wanted = [ids[2], ids[0], ids[1]]
    found, matrix = store.get_vectors("a", "message", wanted)
    assert found == wanted
    assert matrix.dtype == np.float32 and matrix.shape == (3, DIM)
    assert np.array_equal(matrix, vectors[[2, 0, 1]])


def test_get_vectors_leaves_out_ids_without_vectors_and_of_other_agents(store: SQLiteStore) -> None:
    mine = add(store, "a", "t", unit_rows(2, seed=2), n=2)
    bare = add(store, "a", "t2", None, n=1)  # stored without a vector
    theirs = add(store, "b", "t", unit_rows(2, seed=3), n=2)
    found, matrix = store.get_vectors("a", "message", [theirs[0], bare[0], mine[1], 10_000, mine[0]])
    assert found == [mine[1], mine[0]]
    assert matrix.shape == (2, DIM)
    assert store.get_vectors("nobody", "message", mine)[0] == []
    assert store.get_vectors("a", "fact", mine)[0] == []  # a message id is not a fact's


def test_get_vectors_reads_facts_and_replaced_vectors(store: SQLiteStore) -> None:
    fact = NewFact("Alice likes owls", "preference", 3, "alice", "alice", "private", {})
    first, second = unit_rows(2, seed=4)
    stored = store.add_fact("a", fact, actor=None, now=T0, vector=first)
    assert np.array_equal(store.get_vectors("a", "fact", [stored.id])[1], first[None, :])
    store.set_vectors("a", "fact", [stored.id], second[None, :])
    found, matrix = store.get_vectors("a", "fact", [stored.id])
    assert found == [stored.id] and np.array_equal(matrix, second[None, :])


def test_get_vectors_of_nothing_is_an_empty_matrix(store: SQLiteStore) -> None:
    found, matrix = store.get_vectors("a", "message", [])
    assert found == [] and matrix.shape[0] == 0 and matrix.dtype == np.float32
    add(store, "a", "t", unit_rows(1, seed=5), n=1)
    found, matrix = store.get_vectors("a", "message", [])
    assert found == [] and matrix.shape == (0, DIM)


def test_get_vectors_of_an_unknown_kind_is_invalid_input(store: SQLiteStore) -> None:
    with pytest.raises(InvalidInput, match="unknown kind"):
        store.get_vectors("a", "messages", [1])


def test_get_vectors_reads_more_ids_than_one_statement_binds(store: SQLiteStore) -> None:
    vectors = unit_rows(1200, seed=6)
    ids = add(store, "a", "t", vectors, n=1200)
    found, matrix = store.get_vectors("a", "message", list(reversed(ids)))
    assert found == list(reversed(ids))
    assert np.array_equal(matrix, vectors[::-1])


# -- the vector cache ---------------------------------------------------------------------------------
def test_search_sees_every_row_of_a_large_agent_loaded_in_batches(store: SQLiteStore) -> None:
    vectors = unit_rows(9000, seed=7)  # more than one load batch
    ids = add(store, "a", "t", vectors, n=9000)
    for row in (0, 4500, 8999):
        [best] = store.vector_search("a", vectors[row], Scope(kinds=("message",)), 1)
        assert best.id == ids[row] and best.score == pytest.approx(1.0, abs=1e-5)
    more = unit_rows(2, seed=8)
    new_ids = add(store, "a", "t", more, n=2)  # appended to the cached agent
    [best] = store.vector_search("a", more[1], Scope(kinds=("message",)), 1)
    assert best.id == new_ids[1]


def test_time_filters_use_each_vectors_own_time(store: SQLiteStore) -> None:
    vectors = unit_rows(3, seed=9)
    items = [
        new_message("user", f"m{i}", user="u", created_at=T0 + timedelta(hours=i), max_chars=100) for i in range(3)
    ]
    ids = [m.id for m in store.add_messages("a", "t", items, [1] * 3, T0, vectors=vectors)]
    scope = Scope(kinds=("message",), since=T0 + timedelta(hours=1), until=T0 + timedelta(hours=2))
    assert [c.id for c in store.vector_search("a", vectors[0], scope, 10)] == [ids[1]]


def test_stored_times_of_any_offset_are_read_as_instants() -> None:
    stamps = ("2026-01-01T12:00:00.250000+00:00", "2026-01-01T14:00:00+02:00")
    assert _timestamps(stamps).tolist() == [datetime.fromisoformat(s).timestamp() for s in stamps]
    fixed = ("2026-01-01T12:00:00.250000+00:00", "1999-12-31T23:59:59.999999+00:00")
    assert _timestamps(fixed).tolist() == [datetime.fromisoformat(s).timestamp() for s in fixed]


def test_cache_evicts_least_recently_used_agents_beyond_its_budget(store: SQLiteStore) -> None:
    agent_ids = {}
    for name in ("a", "b", "c"):
        add(store, name, "t", unit_rows(10, seed=ord(name)), n=10)
        agent_ids[name] = store._agent_id(name)
    one_agent = 10 * (DIM * 4 + 1 + 3 * 8)  # ten rows: vector, kind, item id, thread id, time
    cache = VectorCache(max_bytes=2 * one_agent)
    conn = store._conn()
    for name in ("a", "b", "a", "c"):  # "b" is now the least recently used
        cache.get(conn, agent_ids[name], DIM)
    assert set(cache._agents) == {agent_ids["a"], agent_ids["c"]}
    assert cache.nbytes == sum(v.nbytes for v in cache._agents.values()) == 2 * one_agent
    add(store, "a", "t", unit_rows(5, seed=10), n=5)  # "a" grows past the budget with "c": "c" goes
    cache.get(conn, agent_ids["a"], DIM)
    assert list(cache._agents) == [agent_ids["a"]]
    assert cache.nbytes == cache._agents[agent_ids["a"]].nbytes == 15 * (DIM * 4 + 1 + 3 * 8)
    store.delete_thread("a", "t")  # a deletion reloads the agent: now empty
    assert cache.get(conn, agent_ids["a"], DIM).size == 0 and cache.nbytes == 0
    cache.clear()
    assert cache.nbytes == 0


def test_cached_agents_hold_room_for_little_more_than_their_rows(store: SQLiteStore) -> None:
    add(store, "small", "t", unit_rows(10, seed=11), n=10)
    add(store, "big", "t", unit_rows(3000, seed=12), n=3000)
    cache, conn = VectorCache(), store._conn()
    small = cache.get(conn, store._agent_id("small") or 0, DIM)
    assert len(small.kinds) == 10  # a load reserves exactly what it loads
    row_bytes = DIM * 4 + 1 + 3 * 8
    big = cache.get(conn, store._agent_id("big") or 0, DIM)
    capacities = {len(big.kinds)}
    for i in range(40):  # messages arriving one by one
        add(store, "big", "t", unit_rows(1, seed=100 + i), n=1)
        big = cache.get(conn, store._agent_id("big") or 0, DIM)
        capacities.add(len(big.kinds))
    assert big.size == 3040 and len(big.kinds) <= 1.5 * 3040
    assert capacities == {3000, 4500}  # grown once, by half: not a copy of the matrix for every new row
    assert cache.nbytes == (10 + len(big.kinds)) * row_bytes  # what is held is what the budget counts


@pytest.mark.parametrize(
    ("values", "wanted"),
    [
        ([5, -1, 3, 7, 3, 10_000_000], [3, 7]),  # -1 (no thread) and ids past the largest wanted
        ([1, 2, 3], []),
        ([0, 1, 2, 1, 0], [0, 2]),  # kind codes
        ([4, 9_000_000_000, 4], [9_000_000_000]),  # sparse ids: the table would be huge
        ([-1, -1], [-1]),
    ],
)
def test_scope_membership_agrees_with_numpy(values: list[int], wanted: list[int]) -> None:
    array = np.asarray(values, dtype=np.int64)
    assert member(array, wanted).tolist() == np.isin(array, wanted).tolist()
    assert (
        member(array.astype(np.int8) if max(values) < 100 else array, wanted).tolist()
        == np.isin(array, wanted).tolist()
    )
