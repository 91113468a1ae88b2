"""A Python client of ``memlane serve``: :class:`Client` (sync) and :class:`AsyncClient` (coroutines), with
:class:`~memlane.Memory`'s method names, arguments and return types. The core never imports this package."""

from __future__ import annotations

from .base import AsyncClient, Client

__all__ = ["AsyncClient", "Client"]
