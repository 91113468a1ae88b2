"""Storage backends behind one contract (:class:`Store`)."""

from __future__ import annotations

from .base import Candidate, FactFilter, Scope, Store, StoreStatus

__all__ = ["Candidate", "FactFilter", "Scope", "Store", "StoreStatus", "open_store"]


def open_store(location: str, *, busy_timeout_ms: int = 5000, lock_retries: int = 8) -> Store:
    """Open (and migrate) the store at a SQLite path, ``sqlite:///path`` or ``postgresql://`` URL."""
    if location.startswith(("postgresql://", "postgres://")):
        from ..errors import ConfigError

        try:
            from .postgres import PostgresStore  # type: ignore[import-not-found,unused-ignore]
        except ImportError as exc:
            raise ConfigError("PostgreSQL support needs the postgres extra: pip install 'memlane[postgres]'") from exc
        store: Store = PostgresStore(location)
        return store
    from .sqlite import SQLiteStore

    return SQLiteStore(location, busy_timeout_ms=busy_timeout_ms, lock_retries=lock_retries)
