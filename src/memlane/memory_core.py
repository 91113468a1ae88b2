"""What the parts of :class:`~memlane.Memory` share (see :mod:`memlane.memory` for how it is assembled).

:class:`MemoryBase` declares the state ``Memory.__init__`` sets, which every mixin relies on, and the
helpers every area uses: the clock and embedding. The functions below say what text an item is
embedded as and check the values several areas take.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import InvalidInput
from .types import Fact, Message, Summary
from .validation import NewMessage

if TYPE_CHECKING:
    from .config import Settings
    from .context import TokenCounts
    from .embeddings import Embedder
    from .llm import LLMClient
    from .pipeline import Pipeline
    from .retrieval import Searcher
    from .store import Store
    from .tokens import Tokenizer

__all__ = ["KINDS", "TOKEN_FIELDS", "MemoryBase", "aware", "check_positive", "fact_text", "item_text", "message_text"]

KINDS = ("message", "fact", "summary")  # what the store holds, embeds and recalls
TOKEN_FIELDS = ("role", "content", "name", "tool_calls", "tool_call_id")  # what a message's token count covers


class MemoryBase:
    """The state every part of :class:`~memlane.Memory` relies on (set by ``Memory.__init__``)."""

    settings: Settings
    agent: str
    store: Store
    tokenizer: Tokenizer
    clock: Callable[[], datetime]
    embedder: Embedder | None
    llm: LLMClient | None
    searcher: Searcher
    pipeline: Pipeline
    _token_counts: TokenCounts

    def _now(self) -> datetime:
        return aware(self.clock())

    def _embed(self, texts: Sequence[str]) -> np.ndarray | None:
        if self.embedder is None or not texts:
            return None
        if self.store.get_meta("embedding_model") is None:
            self.store.set_meta("embedding_model", self.embedder.model)
        return self.embedder.embed(list(texts), "document")

    def _embed_one(self, text: str) -> np.ndarray | None:
        vectors = self._embed([text])
        return None if vectors is None else vectors[0]


def aware(moment: datetime) -> datetime:
    """``moment`` with a time zone: a naive time is taken as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def check_positive(value: Any, message: str) -> int:
    """``value`` if it is a positive integer (a bool is not).

    Raises:
        InvalidInput: with ``message``, for anything else.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(message)
    return value


def message_text(role: str, content: str, user: str | None, name: str | None, tool_calls: Any) -> str:
    """The text embedded for a message: the speaker's name and what they said."""
    text = content or (json.dumps(tool_calls, ensure_ascii=False) if tool_calls else "")
    speaker = name or user
    return f"{speaker}: {text}" if speaker else text


def fact_text(content: str, subject: str | None) -> str:
    """The text embedded for a fact: its content, led by its subject when the content does not name it."""
    return f"{subject}: {content}" if subject and subject.lower() not in content.lower() else content


def item_text(item: NewMessage | Message | Fact | Summary) -> str:
    """The text embedded for a message (new or stored), a fact or a summary."""
    if isinstance(item, NewMessage | Message):
        return message_text(item.role, item.content, item.user, item.name, item.tool_calls)
    if isinstance(item, Fact):
        return fact_text(item.content, item.subject)
    return item.content
