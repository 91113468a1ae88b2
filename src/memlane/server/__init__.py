"""The HTTP edge of memlane (``memlane serve``; install ``memlane[server]``): an ASGI app over the
:class:`~memlane.Memory` facade. The core never imports this package."""

from __future__ import annotations

from .app import create_app
from .run import serve
from .settings import ServerSettings

__all__ = ["ServerSettings", "create_app", "serve"]
