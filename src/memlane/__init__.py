"""memlane: long-term memory for LLM chat bots and agents.

from memlane import Memory

with Memory("bot.db", agent="my-bot") as mem:
    mem.add_message("general", "user", "I'm Alice and I love Python", user="alice")
    mem.remember("Alice prefers Python", user="alice", category="preference")
    ctx = mem.context("general", query="What language does Alice like?", user="alice", budget=2000)
    messages = ctx.to_messages()   # ready for an OpenAI-style chat API
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING

from .context import Context
from .errors import (
    ConfigError,
    Conflict,
    DatabaseLocked,
    Forbidden,
    InvalidInput,
    InvalidOutput,
    MemlaneError,
    ModelMismatch,
    NotFound,
    ProviderError,
    ProviderTimeout,
    RateLimited,
    StorageError,
    Unauthenticated,
)
from .memory import Memory
from .types import Fact, FactChange, Hit, Message, Summary, Thread

__version__ = "0.1.0"

__all__ = [
    "AsyncClient",
    "AsyncMemory",
    "ChatCommands",
    "Client",
    "ConfigError",
    "Conflict",
    "Context",
    "DatabaseLocked",
    "Fact",
    "FactChange",
    "Forbidden",
    "Hit",
    "InvalidInput",
    "InvalidOutput",
    "MemlaneError",
    "Memory",
    "Message",
    "ModelMismatch",
    "NotFound",
    "ProviderError",
    "ProviderTimeout",
    "RateLimited",
    "Reply",
    "Settings",
    "StorageError",
    "Summary",
    "Thread",
    "Unauthenticated",
    "__version__",
    "load_settings",
]


if _TYPE_CHECKING:  # what the names loaded on first use are, for type checkers
    from .async_memory import AsyncMemory
    from .config import Settings, load_settings

#: Names exported here that load on first use, and their modules: the edges' packages (the core does not
#: depend on them), the awaitable facade (it brings asyncio) and the settings (pydantic; the first `Memory`
#: loads them). `import memlane` imports none of them, so a short-lived process pays only for what it uses
#: (tests/test_cold_start.py).
_EDGES = {
    "AsyncMemory": "async_memory",
    "Settings": "config",
    "load_settings": "config",
    "ChatCommands": "chat",
    "Reply": "chat",
    "Client": "client",
    "AsyncClient": "client",
}


def __getattr__(name: str) -> object:
    if name in _EDGES:
        return getattr(importlib.import_module(f".{_EDGES[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
