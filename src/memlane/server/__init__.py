"""memlane as an HTTP service (``memlane serve``): an edge over the :class:`~memlane.Memory` facade.

Needs the ``server`` extra (FastAPI on uvicorn). :func:`create_app` builds the ASGI app for a store; API keys
(:mod:`.keys`) decide which agent and user each request may act for. Every route is under ``/v1``; the
OpenAPI document is at ``/openapi.json`` and the interactive docs at ``/docs``.
"""

from __future__ import annotations

from .app import create_app
from .keys import Principal, create_key, hash_key

__all__ = ["Principal", "create_app", "create_key", "hash_key"]
