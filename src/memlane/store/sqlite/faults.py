"""What a failed SQLite call means to whoever runs memlane, said so they can act on it.

Two faults need words of their own:

- **A full disk.** A write that cannot grow the database file or its write-ahead log (``-wal``) fails with
  SQLITE_FULL and SQLite rolls it back: nothing of it is stored. A connection that cannot make its
  shared-memory index (``-shm``, 32 KiB, made by the first connection after the store was closed) fails with
  a disk I/O error; :func:`disk_full` tells that one apart by the space left. Reads need no space: a store
  whose ``-shm`` cannot be made is read from its database file alone (:func:`read_only_uri`).
- **A damaged file** (SQLITE_CORRUPT, "database disk image is malformed"; SQLITE_NOTADB, "file is not a
  database"): cut short, overwritten, or not a database at all. SQLite cannot repair it; the memory comes back
  from a backup.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TypeGuard
from urllib.parse import quote

from ...errors import StorageError

__all__ = ["disk_full", "is_fault", "read_only_uri", "storage_error", "wal_is_empty"]

#: Below this many free bytes, a disk I/O error of SQLite is taken for a full disk (its -shm alone wants 32 KiB).
LOW_SPACE = 1 << 20

_RESTORE = (
    "restore it from a backup: a copy of the file, or a `memlane export` file loaded into a new store with "
    "`memlane import` (see docs/operations.md)"
)


def _code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code of ``exc`` (-1 when it carries none)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return -1 if code is None else int(code) & 0xFF


def free_bytes(directory: Path) -> int | None:
    """Bytes free to this process in ``directory``'s filesystem (None if it cannot be asked)."""
    try:
        stats = os.statvfs(directory)
    except OSError:
        return None
    return stats.f_bavail * stats.f_frsize


def disk_full(path: Path, exc: sqlite3.Error) -> bool:
    """Whether ``exc``, met on the store at ``path``, comes of a full disk."""
    code = _code(exc)
    if code == sqlite3.SQLITE_FULL:
        return True
    if code != sqlite3.SQLITE_IOERR:
        return False
    free = free_bytes(path.parent)
    return free is not None and free < LOW_SPACE


def is_fault(exc: BaseException) -> TypeGuard[sqlite3.DatabaseError]:
    """Whether ``exc`` is a failure of the database (to become a :class:`StorageError`), not a broken constraint
    (the caller's to interpret) or a mistake in memlane's own SQL (a bug, to surface as it is)."""
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(
        exc, sqlite3.IntegrityError | sqlite3.ProgrammingError
    )


def storage_error(path: Path, exc: sqlite3.Error) -> StorageError:
    """The :class:`StorageError` to raise for ``exc``, met on the store at ``path``: it names the file, and for
    a full disk or a damaged file, says what to do."""
    code = _code(exc)
    if disk_full(path, exc):
        free = free_bytes(path.parent)
        left = "" if free is None else f", {free} bytes left"
        return StorageError(
            f"the disk is full: {path} and its -wal and -shm files cannot grow in {path.parent}{left} ({exc}); "
            "writes fail and store nothing until space is freed there, reads go on"
        )
    if code == sqlite3.SQLITE_NOTADB:
        return StorageError(f"{path} is not a SQLite database, or its first page is damaged ({exc}); {_RESTORE}")
    if code == sqlite3.SQLITE_CORRUPT:
        return StorageError(f"{path} is damaged ({exc}); {_RESTORE}")
    if code == sqlite3.SQLITE_CANTOPEN:
        return StorageError(f"cannot open {path} ({exc}): it must name a file in a directory this process may write")
    return StorageError(f"database error on {path}: {exc}")


def wal_is_empty(path: Path) -> bool:
    """Whether the store at ``path`` has no write-ahead log with anything in it (its database file alone then
    holds every committed write)."""
    try:
        return os.stat(f"{path}-wal").st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False


def read_only_uri(path: Path) -> str:
    """A URI that opens the store at ``path`` read-only from its database file alone: no ``-shm`` (which needs
    space) and no locks. Only sound while nothing else writes to it: used while the disk is full."""
    return f"file:{quote(str(path))}?mode=ro&immutable=1"
