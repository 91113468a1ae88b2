"""The ``Memory`` facade: the one object a bot or agent talks to (see :mod:`.facade` for how it is assembled).

Everything above the core (the CLI, the HTTP service, adapters) reaches memory through it; nothing below it
(store, retrieval, pipeline, providers) imports it at run time.
"""

from __future__ import annotations

from ..exchange import EXPORT_FORMAT
from ..texts import fact_text, message_text
from .facade import Memory, embedder_from_settings, llm_from_settings

__all__ = ["EXPORT_FORMAT", "Memory", "embedder_from_settings", "fact_text", "llm_from_settings", "message_text"]
