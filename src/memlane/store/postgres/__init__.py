"""The scale-out backend: PostgreSQL with pgvector (needs the ``postgres`` extra).

:class:`PostgresStore` (in :mod:`.store`) is put together from one module per area: ``threads``, ``facts``,
``summaries``, ``vectors``, ``search``, ``exchange``, ``jobs`` and ``usage``, on the shared pieces of ``common``;
``schema`` holds the migrations.
"""

from __future__ import annotations

from .store import PostgresStore

__all__ = ["PostgresStore"]
