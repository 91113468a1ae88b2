"""The approximate index of the SQLite backend (``store/sqlite/ivf.py``) on real files.

Whole-agent searches of a large agent go through inverted lists built in the background; these tests
lower the size threshold so a few thousand rows get an index, then check it against the exact search the
same store gives with ``exact_vectors``: recall of the top 10, facts and summaries always found, rows
written after the build found, deletions honoured, scopes still exact, and a build that races with writes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from memlane.store.base import Scope
from memlane.store.sqlite import SQLiteStore
from memlane.store.sqlite import vectors as vectors_module
from memlane.store.sqlite.ivf import IvfIndex, cells_for
from memlane.validation import NewFact, new_message

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
DIM = 32
CENTERS = np.random.default_rng(7).standard_normal((60, DIM)).astype(np.float32)


def clustered(n: int, seed: int) -> np.ndarray:
    """Unit rows around 60 fixed centres (cosine ~0.7 to their centre), as chat turns cluster by topic."""
    rng = np.random.default_rng(seed)
    centres = CENTERS / np.linalg.norm(CENTERS, axis=1, keepdims=True)
    rows = centres[rng.integers(len(centres), size=n)] + rng.standard_normal((n, DIM)).astype(np.float32) / np.sqrt(DIM)
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def add(store: SQLiteStore, thread: str, vectors: np.ndarray, user: str = "u") -> list[int]:
    items = [new_message("user", f"turn {i} of {thread}", user=user, max_chars=1000) for i in range(len(vectors))]
    return [m.id for m in store.add_messages("a", thread, items, [1] * len(items), T0, vectors=vectors)]


def search(
    store: SQLiteStore, query: np.ndarray, scope: Scope | None = None, exact: bool = False
) -> list[tuple[str, int]]:
    store.exact_vectors = exact
    try:
        return [(c.kind, c.id) for c in store.vector_search("a", query, scope or Scope(), 10)]
    finally:
        store.exact_vectors = False


def indexed(store: SQLiteStore) -> bool:
    store.vector_search("a", clustered(1, 0)[0], Scope(), 1)  # brings the cache up to date, starts a build
    store.wait_for_vector_indexes(timeout=60)
    entry = store._vectors._agents[store._agent_id("a")]
    return entry.ivf is not None and entry.ivf.rows == entry.size


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "ivf.db", vector_index_min_rows=2000)
    for t in range(6):
        add(s, f"t{t}", clustered(500, seed=t), user=f"u{t % 3}")
    yield s
    s.close()


def test_whole_agent_search_finds_nearly_all_of_the_exact_top_10(store: SQLiteStore) -> None:
    assert indexed(store)
    queries = clustered(50, seed=99)
    overlap = [len(set(search(store, q)) & set(search(store, q, exact=True))) / 10 for q in queries]
    assert np.mean(overlap) >= 0.9
    entry = store._vectors._agents[store._agent_id("a")]
    assert entry.ivf is not None and entry.ivf.probes < len(entry.ivf.centroids)  # it did not scan everything


def test_small_agents_get_no_index(tmp_path: Path) -> None:
    s = SQLiteStore(tmp_path / "small.db", vector_index_min_rows=2000)
    try:
        add(s, "t", clustered(300, seed=1))
        s.vector_search("a", clustered(1, 2)[0], Scope(), 5)
        s.wait_for_vector_indexes(timeout=60)
        assert s._vectors._agents[s._agent_id("a")].ivf is None
    finally:
        s.close()


def test_facts_and_summaries_are_always_searched_and_private_facts_stay_private(store: SQLiteStore) -> None:
    assert indexed(store)
    query = clustered(1, seed=5)[0]
    shared = NewFact("the shared one", "note", 3, None, "u0", "shared", {})
    private = NewFact("the private one", "note", 3, "u1", "u1", "private", {})
    shared_id = store.add_fact("a", shared, actor=None, now=T0, vector=query).id
    private_id = store.add_fact("a", private, actor=None, now=T0, vector=query).id
    # Index the facts too: rebuild by adding enough rows to pass the rebuild threshold, then wait.
    add(store, "t-more", clustered(700, seed=50))
    assert indexed(store)
    entry = store._vectors._agents[store._agent_id("a")]
    assert len(entry.ivf.always) == 2  # the facts are scanned by every query, not left to the cells
    found = search(store, query)
    assert found[0] == ("fact", shared_id)
    assert ("fact", private_id) not in found  # no user: shared facts only, as the exact search
    assert ("fact", private_id) in search(store, query, Scope(user="u1"))


def test_rows_written_after_the_build_are_found(store: SQLiteStore) -> None:
    assert indexed(store)
    query = clustered(1, seed=11)[0]
    [new_id] = add(store, "t-late", query[None, :])
    assert search(store, query)[0] == ("message", new_id)


def test_a_deletion_drops_the_index_and_the_deleted_row_is_never_returned(store: SQLiteStore) -> None:
    assert indexed(store)
    query = clustered(1, seed=12)[0]
    top = search(store, query)[0]
    [message] = store.get_messages("a", [top[1]])
    assert store.delete_thread("a", message.thread)
    after = search(store, query)
    assert top not in after and len(after) == 10
    assert after == search(store, query, exact=True)  # the reloaded agent is searched exactly until rebuilt


def test_scoped_searches_stay_exact(store: SQLiteStore) -> None:
    assert indexed(store)
    for q in clustered(10, seed=13):
        for scope in (Scope(user="u2"), Scope(thread="t3"), Scope(kinds=("fact",))):
            assert search(store, q, scope) == search(store, q, scope, exact=True)


def test_a_time_range_keeping_too_few_scanned_rows_falls_back_to_the_exact_search(store: SQLiteStore) -> None:
    later = T0 + timedelta(hours=1)
    items = [new_message("user", f"late {i}", user="u9", created_at=later, max_chars=1000) for i in range(5)]
    late = {m.id for m in store.add_messages("a", "t-late", items, [1] * 5, later, vectors=clustered(5, seed=30))}
    assert indexed(store)  # the 5 late rows lie in the cells, spread over them
    scope = Scope(since=T0 + timedelta(minutes=1))
    for q in clustered(10, seed=31):
        found = search(store, q, scope)
        assert {i for _, i in found} == late  # the cells scanned hold fewer than 10 of them: all were searched


def test_a_narrow_time_range_is_searched_exactly_over_the_rows_it_holds(tmp_path: Path) -> None:
    """A whole-agent search with a time range finds the range's rows by their times (kept in order in
    memory), and when they are no more than the index would scan, searches exactly those: the result is
    the exact search's, an empty range costs nothing, and rows added after the times were put in order
    are found (looked up apart, then the order is built again)."""
    s = SQLiteStore(tmp_path / "ivf-times.db", vector_index_min_rows=2000)
    hours = 12
    for h in range(hours):  # 250 rows an hour
        at = T0 + timedelta(hours=h)
        vectors = clustered(250, seed=40 + h)
        items = [new_message("user", f"hour {h} turn {i}", user="u", created_at=at, max_chars=1000) for i in range(250)]
        s.add_messages("a", f"h{h}", items, [1] * 250, at, vectors=vectors)
    # The index scans a tenth of its cells: a range of up to a tenth of the rows is searched exactly.
    s._vectors.ann_probes = math.sqrt(cells_for(hours * 250)) / 10
    assert indexed(s)
    hour = timedelta(hours=1)
    ranges = [
        Scope(since=T0 + 3 * hour, until=T0 + 4 * hour),  # one hour: 250 rows, under a tenth of 3,000
        Scope(since=T0 + 11 * hour),
        Scope(until=T0 + hour),
        Scope(since=T0 + 20 * hour),  # nothing there
        Scope(since=T0 + 2 * hour, until=T0 + 9 * hour),  # wide: through the index
    ]
    queries = clustered(8, seed=77)
    scans: list[int] = []
    real_scan = IvfIndex.scan

    def counted(self: IvfIndex, *args: object) -> object:
        scans.append(1)
        return real_scan(self, *args)  # type: ignore[arg-type]

    IvfIndex.scan = counted  # type: ignore[method-assign,assignment]
    try:
        for scope in ranges[:4]:
            search(s, queries[0], scope)
        assert scans == []  # the narrow ranges never went through the index
        search(s, queries[0], ranges[4])
        assert scans == [1]
    finally:
        IvfIndex.scan = real_scan  # type: ignore[method-assign]
    for scope in ranges:
        for q in queries:
            got, exact = search(s, q, scope), search(s, q, scope, exact=True)
            if scope.since == T0 + 2 * hour:
                assert len(set(got) & set(exact)) >= 7  # approximate, and inside the range
            else:
                assert got == exact
            ids = [i for _, i in got]
            times = {m.id: m.created_at for m in s.get_messages("a", ids)}
            assert all(
                (scope.since is None or t >= scope.since) and (scope.until is None or t < scope.until)
                for t in times.values()
            )
    assert search(s, queries[0], Scope(since=T0 + 20 * hour)) == []
    late_at = T0 + 30 * hour
    late = [new_message("user", f"late {i}", user="u", created_at=late_at, max_chars=1000) for i in range(3)]
    late_ids = {m.id for m in s.add_messages("a", "late", late, [1] * 3, late_at, vectors=clustered(3, seed=90))}
    for tail in (4096, 2):  # the new rows looked up apart, then the times put in order again
        vectors_module.AgentVectors.LOOKUP_TAIL = tail
        try:
            assert {i for _, i in search(s, queries[0], Scope(since=T0 + 20 * hour))} == late_ids
        finally:
            vectors_module.AgentVectors.LOOKUP_TAIL = 4096
    s.close()


def test_writes_during_a_build_are_kept_when_the_reordered_rows_are_swapped_in(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    late: list[int] = []
    real = vectors_module.build_ivf

    def slow_build(*args, **kwargs):  # type: ignore[no-untyped-def]
        built = real(*args, **kwargs)
        late.extend(add(store, "t-during", clustered(5, seed=21)))  # arrives while the build runs
        store.vector_search("a", clustered(1, 0)[0], Scope(thread="t-during"), 1)  # appended to the old entry
        return built

    monkeypatch.setattr(vectors_module, "build_ivf", slow_build)
    store.vector_search("a", clustered(1, 0)[0], Scope(), 1)
    store.wait_for_vector_indexes(timeout=60)
    entry = store._vectors._agents[store._agent_id("a")]
    assert entry.ivf is not None and entry.size == 3005 and entry.ivf.rows == 3000
    assert sorted(int(i) for i in entry.item_ids[3000:3005]) == sorted(late)
    for i, q in zip(late, clustered(5, seed=21), strict=True):
        assert search(store, q)[0] == ("message", i)


def test_message_cosines_read_the_right_rows_after_a_reorder_and_after_new_rows(store: SQLiteStore) -> None:
    """The keyword half of a whole-agent search ranks its matches by their rows in memory (looked up by
    message id): right after the index reordered the rows, for rows appended since (looked up apart), and
    once those are many enough for the lookup to be rebuilt; a message without a vector gives NaN."""
    ids = add(store, "t1", clustered(3000, 1))
    assert indexed(store)
    query = clustered(1, 3)[0]

    def cosines(wanted: np.ndarray) -> list[float]:
        with store._read() as conn:
            got = store._message_cosines(conn, store._agent_id("a"), wanted, query)
        assert got is not None
        return got.tolist()

    cosines(np.asarray(ids[:1]))  # builds the lookup over the reordered rows
    later = add(store, "t2", clustered(20, 2))
    [bare] = say_plain(store)
    wanted = np.asarray([*ids[::97], *later, bare, 10**9], dtype=np.int64)
    found, stored = store.get_vectors("a", "message", wanted.tolist())
    expected = dict(zip(found, (stored @ query).tolist(), strict=True))
    for lookup_tail in (4096, 5):  # the 20 new rows looked up apart, then the lookup built again
        vectors_module.AgentVectors.LOOKUP_TAIL = lookup_tail
        try:
            got = cosines(wanted)
        finally:
            vectors_module.AgentVectors.LOOKUP_TAIL = 4096
        assert got[:-2] == pytest.approx([expected[i] for i in wanted[:-2].tolist()], abs=1e-5)
        assert np.isnan(got[-2]) and np.isnan(got[-1])  # no vector; not a message of the agent


def say_plain(store: SQLiteStore) -> list[int]:
    item = new_message("user", "a message stored without a vector", user="u", max_chars=1000)
    return [m.id for m in store.add_messages("a", "t3", [item], [1], T0)]


def test_message_rows_are_found_the_same_by_table_and_by_binary_search() -> None:
    """Message id -> row: a table where the agent's ids are dense, sorted ids where they are spread among
    other agents' (a table would be mostly holes); both answer alike, -1 for ids they do not hold."""
    rng = np.random.default_rng(5)
    for spread in (1, 50):  # dense ids; ids of an agent among many others
        ids = np.sort(rng.choice(21_000 * spread, 20_000, replace=False)) + 7  # with holes
        rows = rng.permutation(20_000).astype(np.int64)
        lookup = vectors_module._IdLookup.of(ids, rows, 20_000)
        assert (lookup.table is not None) == (spread == 1)
        asked = np.concatenate(
            [ids[rng.integers(0, 20_000, 300)], rng.integers(0, int(ids[-1]), 300), [0, 6, int(ids[-1]) + 1, 10**12]]
        )
        got = lookup.rows_of(asked)
        expected = {int(i): int(r) for i, r in zip(ids, rows, strict=True)}
        assert got.tolist() == [expected.get(int(i), -1) for i in asked]
