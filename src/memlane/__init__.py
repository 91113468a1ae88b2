"""memlane: long-term memory for LLM chat bots and agents.

from memlane import Memory

with Memory("bot.db", agent="my-bot") as mem:
    mem.add_message("general", "user", "I'm Alice and I love Python", user="alice")
    mem.remember("Alice prefers Python", user="alice", category="preference")
    ctx = mem.context("general", query="What language does Alice like?", user="alice", budget=2000)
    messages = ctx.to_messages()   # ready for an OpenAI-style chat API
"""

from __future__ import annotations

from .config import Settings, load_settings
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
    "Settings",
    "StorageError",
    "Summary",
    "Thread",
    "Unauthenticated",
    "__version__",
    "load_settings",
]


def __getattr__(name: str) -> object:
    """``Client`` / ``AsyncClient`` load the HTTP client edge only when asked for (``import memlane`` does not)."""
    if name in ("AsyncClient", "Client"):
        from . import client

        return getattr(client, name)
    raise AttributeError(f"module 'memlane' has no attribute {name!r}")
