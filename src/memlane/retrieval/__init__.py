"""Retrieval: search configs and presets, the search pipeline, and its steps as small pure functions.

- :mod:`.config`: :class:`SearchConfig` and the named :data:`PRESETS` (search is data).
- :mod:`.engine`: :class:`Searcher` runs a config: query → retrievers → fusion → re-ranking → windows.
- :mod:`.fusion`, :mod:`.rerank`, :mod:`.windows`, :mod:`.timeparse`: the steps, pure functions.
"""

from __future__ import annotations

from .config import PRESETS, SearchConfig, get_preset
from .engine import Searcher
from .fusion import linear, rrf
from .rerank import Found
from .timeparse import TimeRange, find_time_range

__all__ = [
    "PRESETS",
    "Found",
    "SearchConfig",
    "Searcher",
    "TimeRange",
    "find_time_range",
    "get_preset",
    "linear",
    "rrf",
]
