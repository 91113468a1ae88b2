"""PostgreSQL's whole-agent index (``memlane.store.postgres.ivf``): when it is built, that whole-agent
message searches go through it and find what an exact search finds, that scoped searches and other agents are
untouched by it, and that dropping, rebuilding and closing leave the store consistent.

The stores here are small (thousands of rows), so the planner is told not to sort (``enable_sort=off``),
as in ``test_postgres_store.py``: an index must then give the order, and the index scan counters show which.
How much the index finds at 1M messages, and how fast, is measured by ``bench/broad.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import numpy as np
import psycopg
import pytest

from memlane import InvalidInput
from memlane.store.base import Scope
from memlane.store.postgres import PostgresStore
from memlane.store.postgres.ivf import _STATE, kmeans_bytes, lists_for, memory_bytes, probes_for
from memlane.validation import NewMessage

pytestmark = pytest.mark.postgres

NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
DIM = 16
FORCED = "?options=-c%20enable_sort%3Doff%20-c%20enable_seqscan%3Doff"


def unit(rows: np.ndarray) -> np.ndarray:
    return np.asarray(rows / np.linalg.norm(rows, axis=-1, keepdims=True), dtype=np.float32)


def msg(content: str, user: str) -> NewMessage:
    return NewMessage("user", content, user, None, None, None, NOW, {})


def index_scans(url: str, at_least: int = 0) -> int:
    """``message_vectors_ivf``'s scan counter, waiting (up to 10 s) for it to reach ``at_least``: a backend
    reports its statistics a moment after its transaction."""
    deadline = time.monotonic() + 10
    while True:
        with psycopg.connect(url) as conn:
            row = conn.execute(
                "SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes WHERE indexrelname = 'message_vectors_ivf'"
            ).fetchone()
        scans = int(row[0]) if row else 0
        if scans >= at_least or time.monotonic() > deadline:
            return scans
        time.sleep(0.2)


def ivf_meta(url: str) -> dict[str, str]:
    with psycopg.connect(url) as conn:
        return dict(conn.execute("SELECT key, value FROM meta WHERE key LIKE 'ivf_%'").fetchall())


@pytest.fixture
def pg_url(new_pg_database: Callable[[], str]) -> str:
    return new_pg_database()


@pytest.fixture
def clustered() -> tuple[np.ndarray, np.ndarray]:
    """3,000 vectors around 60 centres, and 40 queries near them."""
    rng = np.random.default_rng(11)
    centres = unit(rng.normal(size=(60, DIM)))
    rows = unit(centres[rng.integers(0, 60, size=3000)] + 0.25 * rng.normal(size=(3000, DIM)))
    queries = unit(centres[rng.integers(0, 60, size=40)] + 0.25 * rng.normal(size=(40, DIM)))
    return rows, queries


IDS: dict[str, set[int]] = {}  # the ids of each thread the fixture below wrote


@pytest.fixture
def store(pg_url: str, clustered: tuple[np.ndarray, np.ndarray]) -> Iterator[PostgresStore]:
    """Agent ``big`` with the clustered vectors over 30 users' threads; agent ``other`` with 200 vectors
    on top of the queries (the nearest rows of the whole table, none of them ``big``'s)."""
    rows, queries = clustered
    opened = PostgresStore(pg_url + FORCED, vector_index_min_rows=2500)
    for t in range(30):
        part = rows[t * 100 : (t + 1) * 100]
        added = opened.add_messages(
            "big", f"t{t}", [msg(f"big {t}.{i}", f"u{t}") for i in range(100)], [1] * 100, NOW, part
        )
        IDS[f"t{t}"] = {m.id for m in added}
    near = unit(queries[np.arange(200) % 40] + 0.01)
    added = opened.add_messages("other", "o", [msg(f"other {i}", "u0") for i in range(200)], [1] * 200, NOW, near)
    IDS["other"] = {m.id for m in added}
    yield opened
    opened.close()


def test_cells_and_probes_follow_the_rows_and_the_memory() -> None:
    assert lists_for(1_000_000, memory_bytes("8GB")) == 4000  # 4 sqrt(rows)
    assert lists_for(1_000_000, memory_bytes("3GB")) == 3770
    # pgvector refused 4,000 cells of 384 dimensions in 3GB: "memory required is 3275 MB"
    assert memory_bytes("3274MB") < kmeans_bytes(4000, 384, 1_000_000) <= memory_bytes("3275MB")
    assert lists_for(1_000_000, memory_bytes("2GB")) == 3060
    assert lists_for(100_000, memory_bytes("2GB")) == 1264
    assert lists_for(10, memory_bytes("2GB")) == 16
    assert [probes_for(n) for n in (16, 1264, 3060, 4000)] == [10, 12, 19, 22]
    assert memory_bytes("512MB") == 512 << 20 and memory_bytes(" 64 kB ") == 64 << 10
    for bad in ("1 G", "1gb", "-1GB", ""):
        with pytest.raises(ValueError):
            memory_bytes(bad)


def test_bad_index_settings_are_refused(pg_url: str) -> None:
    with pytest.raises(InvalidInput, match="vector_index_memory"):
        PostgresStore(pg_url, vector_index_memory="lots")
    with pytest.raises(InvalidInput, match="vector_index_min_rows"):
        PostgresStore(pg_url, vector_index_min_rows=0)


def test_whole_agent_searches_build_the_index_and_go_through_it(
    store: PostgresStore, pg_url: str, clustered: tuple[np.ndarray, np.ndarray]
) -> None:
    _, queries = clustered
    assert store.vector_search("big", queries[0], Scope(), 10)  # sees 3,200 rows >= 2,500: starts a build
    store.wait_for_vector_indexes(60)
    assert store._ivf.error is None
    assert ivf_meta(pg_url) == {"ivf_lists": str(lists_for(3200, memory_bytes("2GB"), DIM)), "ivf_rows": "3200"}
    store._ivf.forget()  # as after the next refresh

    before = index_scans(pg_url)
    found = []
    for query in queries:
        approximate = store.vector_search("big", query, Scope(), 10)
        store.exact_vectors = True
        exact = store.vector_search("big", query, Scope(), 10)
        store.exact_vectors = False
        assert len(approximate) == 10
        assert [h.score for h in approximate] == sorted((h.score for h in approximate), reverse=True)
        assert all(h.kind == "message" for h in approximate)
        found.append(len({h.id for h in approximate} & {h.id for h in exact}) / 10)
        # full-precision scores, as the exact search gives them
        exact_scores = {h.id: h.score for h in exact}
        assert all(abs(h.score - exact_scores[h.id]) < 1e-5 for h in approximate if h.id in exact_scores)
    assert np.mean(found) >= 0.9
    assert index_scans(pg_url, before + len(queries)) >= before + len(queries)

    # isolation: the other agent's rows are the nearest of the table, and never part of big's answers
    others = IDS["other"]
    for query in queries:
        assert not others & {h.id for h in store.vector_search("big", query, Scope(), 25)}
        assert {h.id for h in store.vector_search("other", query, Scope(), 10)} <= others

    # a scoped search keeps its own path
    scans = index_scans(pg_url, before + 3 * len(queries))  # both agents' searches above went through it
    assert scans >= before + 3 * len(queries)
    hits = store.vector_search("big", queries[0], Scope(user="u3"), 10)
    assert len(hits) == 10 and {h.id for h in hits} <= IDS["t3"]
    time.sleep(1.0)
    assert index_scans(pg_url) == scans


def test_the_index_is_built_again_once_the_rows_grow(
    store: PostgresStore, pg_url: str, clustered: tuple[np.ndarray, np.ndarray]
) -> None:
    rows, queries = clustered
    store.vector_search("big", queries[0], Scope(), 10)
    store.wait_for_vector_indexes(60)
    assert ivf_meta(pg_url)["ivf_rows"] == "3200"
    more = unit(np.concatenate([rows[:800], rows[-800:]]) + 0.05)
    store.add_messages("big", "late", [msg(f"late {i}", "u1") for i in range(1600)], [1] * 1600, NOW, more)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        # Growth is seen through the planner's statistics: an autovacuum ANALYZE that ran while the rows
        # above were uncommitted would make them look like free space until the next one; this is that one.
        conn.execute("ANALYZE message_vectors")
    store._ivf.forget()
    store.vector_search("big", queries[0], Scope(), 10)  # 4,800 rows >= 1.2 x 3,200
    store.wait_for_vector_indexes(60)
    with psycopg.connect(pg_url) as conn:
        estimate = conn.execute(_STATE).fetchone()
    assert store._ivf.error is None
    assert ivf_meta(pg_url)["ivf_rows"] == "4800", estimate
    with psycopg.connect(pg_url) as conn:
        names = {r[0] for r in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'message_vectors'")}
    assert "message_vectors_ivf" in names and "message_vectors_ivf_new" not in names
    hits = store.vector_search("big", more[0], Scope(), 10)
    assert hits[0].score > 0.999  # the late row itself


def test_drop_and_build_vector_indexes_cover_the_whole_agent_index(
    store: PostgresStore, pg_url: str, clustered: tuple[np.ndarray, np.ndarray]
) -> None:
    _, queries = clustered
    assert store.build_vector_indexes() == 1  # the HNSW indexes exist: the IVF index alone, built now
    assert ivf_meta(pg_url)["ivf_rows"] == "3200"
    assert store.drop_vector_indexes() == 4
    assert ivf_meta(pg_url) == {}
    store.vector_search("big", queries[0], Scope(), 10)  # paused after a drop: no background build
    store.wait_for_vector_indexes(60)
    assert ivf_meta(pg_url) == {}
    store._ivf.memory = "2MB"  # the store's setting, not the HNSW build's memory, bounds the cells
    assert store.build_vector_indexes(maintenance_work_mem="64MB") == 4
    assert ivf_meta(pg_url)["ivf_lists"] == str(lists_for(3200, memory_bytes("2MB"), DIM)) == "116"
    assert store.drop_vectors() == 3200
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT to_regclass('message_vectors_ivf')").fetchone() == (None,)
    assert store.vector_search("big", queries[0], Scope(), 10) == []


def test_a_failed_build_leaves_searches_working_and_is_cleaned_up(
    store: PostgresStore, pg_url: str, clustered: tuple[np.ndarray, np.ndarray]
) -> None:
    _, queries = clustered
    with psycopg.connect(pg_url, autocommit=True) as conn:  # a table where the build puts its new index
        conn.execute("CREATE TABLE message_vectors_ivf_new (x int)")
        store.vector_search("big", queries[0], Scope(), 10)
        store.wait_for_vector_indexes(60)
        assert isinstance(store._ivf.error, psycopg.Error)
        assert ivf_meta(pg_url) == {}
        assert len(store.vector_search("big", queries[0], Scope(), 10)) == 10
        conn.execute("DROP TABLE message_vectors_ivf_new")
    store._ivf.forget()
    store.vector_search("big", queries[0], Scope(), 10)
    store.wait_for_vector_indexes(60)
    assert store._ivf.error is None and ivf_meta(pg_url)["ivf_rows"] == "3200"


def test_closing_the_store_cancels_a_build(pg_url: str, clustered: tuple[np.ndarray, np.ndarray]) -> None:
    rows, queries = clustered
    store = PostgresStore(pg_url, vector_index_min_rows=1)
    store.add_messages("big", "t", [msg(f"m{i}", "u") for i in range(len(rows))], [1] * len(rows), NOW, rows)
    with psycopg.connect(pg_url, autocommit=True) as blocker:  # holds the build's lock: the build waits
        blocker.execute("BEGIN; LOCK TABLE message_vectors IN SHARE ROW EXCLUSIVE MODE")
        store.vector_search("big", queries[0], Scope(), 10)
        time.sleep(0.5)
        began = time.monotonic()
        store.close()
        assert time.monotonic() - began < 10
        blocker.execute("ROLLBACK")
    reopened = PostgresStore(pg_url, vector_index_min_rows=1)
    try:
        assert len(reopened.vector_search("big", queries[0], Scope(), 10)) == 10
        reopened.wait_for_vector_indexes(60)
        assert ivf_meta(pg_url)["ivf_rows"] == str(len(rows))
    finally:
        reopened.close()
