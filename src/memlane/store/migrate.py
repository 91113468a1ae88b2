"""Explicit migrations: what ``memlane db migrate`` does and reports.

A store applies its pending migrations whenever it is opened (see ``sqlite.schema`` and
``postgres.schema``). Migrating explicitly is the same thing, plus a report of the version before and
after, which needs a look at the schema *without* opening (and so migrating) the store first.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError, StorageError
from .base import Store
from .sqlite.faults import storage_error

__all__ = ["MigrationReport", "migrate_store", "sqlite_file", "stored_schema_version"]


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """The schema version of a store before and after migrating it, and the migrations applied."""

    backend: str
    location: str
    before: int  # 0: a new, empty database
    after: int
    applied: tuple[tuple[int, str], ...]


def _is_postgres(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def _sqlite_path(location: str) -> Path:
    """The file a SQLite location names (as :class:`~memlane.store.sqlite.SQLiteStore` reads it)."""
    text = location
    for prefix in ("sqlite:///", "sqlite://"):
        if text.startswith(prefix):
            text = text[len(prefix) :]
            break
    return Path(text).expanduser().resolve()


def sqlite_file(location: str) -> Path | None:
    """The file of a SQLite store location; None for a PostgreSQL URL."""
    return None if _is_postgres(location) else _sqlite_path(location)


def stored_schema_version(location: str) -> int:
    """The newest migration applied to the store at ``location``, without opening or changing it
    (0 for a missing file or an empty database).

    Raises:
        StorageError: the database exists but cannot be read. ConfigError: PostgreSQL without psycopg.
    """
    if _is_postgres(location):
        try:
            import psycopg
        except ImportError as exc:
            raise ConfigError("PostgreSQL support needs the postgres extra: pip install 'memlane[postgres]'") from exc
        try:
            with psycopg.connect(location, autocommit=True, connect_timeout=10) as conn:
                row = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
                if not row or not row[0]:
                    return 0
                found = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
                return int(found[0]) if found else 0
        except psycopg.Error as exc:
            raise StorageError(f"cannot read the schema version: {exc}") from exc
    return _sqlite_version(_sqlite_path(location))


def _sqlite_version(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").fetchone() is None:
                return 0
            row = db.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
            return int(row[0]) if row else 0
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise storage_error(path, exc) from exc


def migrate_store(location: str, open_store: Callable[[str], Store]) -> MigrationReport:
    """Apply the pending migrations of the store at ``location`` (opening it with ``open_store``) and
    report the version before and after.

    Raises:
        StorageError: the store cannot be read, opened or migrated (a store newer than this memlane too).
    """
    before = stored_schema_version(location)
    store = open_store(location)
    try:
        after = store.schema_version()
        backend, shown = store.backend, store.location
    finally:
        store.close()
    if backend == "postgres":
        from .postgres.schema import MIGRATIONS
    else:
        from .sqlite.schema import MIGRATIONS
    applied = tuple((version, name) for version, name, _ in MIGRATIONS if before < version <= after)
    return MigrationReport(backend, shown, before, after, applied)
