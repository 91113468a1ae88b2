"""The embedded default backend: one SQLite file (WAL mode, FTS5 keyword search, vectors in NumPy).

:class:`SQLiteStore` (in :mod:`.store`) is put together from one module per area: ``threads``, ``facts``,
``summaries``, ``embeddings`` and ``vectors``, ``search``, ``exchange``, ``jobs`` and ``usage``, on the shared
pieces of ``common``; ``schema`` holds the migrations.

NumPy is imported inside the functions that read, write or search vectors, not at the top of the modules: a
process that opens the store to read rows (``memlane history``) does not load it (tests/test_cold_start.py).
"""

from __future__ import annotations

from .store import SQLiteStore

__all__ = ["SQLiteStore"]
