"""The embedded default backend: one SQLite file (WAL mode, FTS5 keyword search, vectors in NumPy).

:class:`SQLiteStore` (in :mod:`.store`) is put together from one module per area: ``threads``, ``facts``,
``summaries``, ``embeddings`` and ``vectors``, ``search``, ``exchange``, ``jobs`` and ``usage``, on the shared
pieces of ``common``; ``schema`` holds the migrations.
"""

from __future__ import annotations

from .store import SQLiteStore

__all__ = ["SQLiteStore"]
