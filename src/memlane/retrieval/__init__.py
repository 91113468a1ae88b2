"""Retrieval: search configs and presets, retrievers, and fusion steps as small pure functions."""

from __future__ import annotations

from .config import PRESETS, SearchConfig, get_preset
from .engine import Searcher
from .fusion import rrf

__all__ = ["PRESETS", "SearchConfig", "Searcher", "get_preset", "rrf"]
