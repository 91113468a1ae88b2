"""Storage backends behind one contract (:class:`Store`, in :mod:`.base`).

Each backend is a sub-package: :mod:`.sqlite` (the embedded default) and :mod:`.postgres` (PostgreSQL with
pgvector). Beside them sit what they share: the row and record helpers (``_common``), the import rules
(``_exchange``), schema migration reports (``migrate``) and the store-to-store copy (``copy``). A new backend
is a new sub-package that implements :class:`Store` and passes ``tests/test_store_contract.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Candidate, FactFilter, Scope, Store, StoreStatus

if TYPE_CHECKING:
    from ..config import Settings

__all__ = [
    "Candidate",
    "FactFilter",
    "PostgresStore",
    "SQLiteStore",
    "Scope",
    "Store",
    "StoreStatus",
    "open_store",
    "open_store_for",
]


def __getattr__(name: str) -> Any:
    # The backends load on first use: PostgresStore needs the postgres extra, and `import memlane.store`
    # should not cost either backend's imports.
    if name == "SQLiteStore":
        from .sqlite import SQLiteStore

        return SQLiteStore
    if name == "PostgresStore":
        from .postgres import PostgresStore

        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def open_store(
    location: str,
    *,
    busy_timeout_ms: int = 5000,
    lock_retries: int = 8,
    pool_size: int = 10,
    pool_timeout: float = 5.0,
    hnsw_m: int = 16,
    hnsw_ef_construction: int = 64,
    hnsw_ef_search: int = 40,
    vector_index_min_rows: int | None = 100_000,
    vector_index_memory: str = "2GB",
) -> Store:
    """Open (and migrate) the store at a SQLite path, ``sqlite:///path`` or ``postgresql://`` URL.

    ``busy_timeout_ms`` applies to SQLite; ``pool_size`` (most connections), ``pool_timeout`` (the wait for
    one, see :class:`~memlane.store.postgres.PostgresStore`), the HNSW parameters and the
    whole-agent index (``vector_index_min_rows``, None for never, and ``vector_index_memory``) to PostgreSQL;
    ``lock_retries`` to both (retries of a locked database or a deadlocked transaction).

    Raises:
        ConfigError: a PostgreSQL URL without the postgres extra installed. InvalidInput: bad parameters.
        StorageError: the database cannot be opened or migrated.
    """
    if location.startswith(("postgresql://", "postgres://")):
        from ..errors import ConfigError

        try:
            from .postgres import PostgresStore  # type: ignore[import-not-found,unused-ignore]
        except ImportError as exc:
            raise ConfigError("PostgreSQL support needs the postgres extra: pip install 'memlane[postgres]'") from exc
        store: Store = PostgresStore(
            location,
            max_connections=pool_size,
            pool_timeout=pool_timeout,
            hnsw_m=hnsw_m,
            hnsw_ef_construction=hnsw_ef_construction,
            hnsw_ef_search=hnsw_ef_search,
            retries=lock_retries,
            vector_index_min_rows=vector_index_min_rows,
            vector_index_memory=vector_index_memory,
        )
        return store
    from .sqlite import SQLiteStore

    return SQLiteStore(location, busy_timeout_ms=busy_timeout_ms, lock_retries=lock_retries)


def open_store_for(settings: Settings, location: str | None = None) -> Store:
    """Open the store at ``location`` (default: the settings' database) with the settings' storage tunables.

    Raises:
        ConfigError, InvalidInput, StorageError: as :func:`open_store`.
    """
    return open_store(
        location if location is not None else settings.database_location(),
        busy_timeout_ms=settings.busy_timeout_ms,
        lock_retries=settings.lock_retries,
        pool_size=settings.pg_pool_size,
        pool_timeout=settings.pg_pool_timeout,
        hnsw_m=settings.pg_hnsw_m,
        hnsw_ef_construction=settings.pg_hnsw_ef_construction,
        hnsw_ef_search=settings.pg_hnsw_ef_search,
        vector_index_min_rows=settings.pg_index_min_rows or None,
        vector_index_memory=settings.pg_index_memory,
    )
