"""Pipeline step: memories (see :mod:`memlane.pipeline.core` for the hooks a step may define)."""

from __future__ import annotations

from typing import Any

HANDLERS: dict[str, Any] = {}
