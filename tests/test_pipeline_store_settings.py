"""``Memory(location)`` opens its store with every storage setting: ``MEMLANE_PG_*`` (pool size and wait, HNSW
parameters, the whole-agent index) reach a ``postgresql://`` store, the SQLite tunables a SQLite one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from memlane import Memory, load_settings


@pytest.mark.postgres
def test_pg_settings_reach_a_memory_opened_by_url(new_pg_database: Callable[[], str]) -> None:
    url = new_pg_database()
    settings = load_settings(
        worker="none",
        embedder="fake",
        pg_pool_size=2,
        pg_pool_timeout=3.5,
        pg_hnsw_m=8,
        pg_hnsw_ef_construction=32,
        pg_hnsw_ef_search=77,
        pg_index_min_rows=5000,
        pg_index_memory="256MB",
    )
    with Memory(url, agent="bot", settings=settings) as mem:
        mem.add_message("t", "user", "vectors make the HNSW indexes", user="alice")
        assert mem.recall("HNSW indexes", user="alice")
        store = mem.store
        assert (store.hnsw_m, store.hnsw_ef_construction, store.hnsw_ef_search) == (8, 32, 77)  # type: ignore[attr-defined]
        assert (store._pool.max_size, store._pool.timeout) == (2, 3.5)  # type: ignore[attr-defined]
        assert (store._ivf.min_rows, store._ivf.memory) == (5000, "256MB")  # type: ignore[attr-defined]
    with psycopg.connect(url) as conn:
        options = conn.execute(
            "SELECT i.reloptions FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
            "JOIN pg_am am ON am.oid = i.relam WHERE am.amname = 'hnsw'"
        ).fetchall()
    assert options and all(sorted(row[0]) == ["ef_construction=32", "m=8"] for row in options)


def test_sqlite_settings_reach_a_memory_opened_by_path(tmp_path: Path) -> None:
    settings = load_settings(worker="none", embedder="none", busy_timeout_ms=1234, lock_retries=3)
    with Memory(tmp_path / "m.db", agent="bot", settings=settings) as mem:
        mem.add_message("t", "user", "hello")
        assert (mem.store._busy_timeout_ms, mem.store._lock_retries) == (1234, 3)  # type: ignore[attr-defined]


def test_a_bad_index_memory_is_refused_with_its_form() -> None:
    from memlane import ConfigError

    with pytest.raises(ConfigError, match="memory size such as 2GB"):
        load_settings(pg_index_memory="4G")
    assert load_settings(pg_index_memory=" 512MB ").pg_index_memory == "512MB"
