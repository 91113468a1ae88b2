"""What the parts of :class:`~memlane.Memory` share (see :mod:`memlane.memory` for how it is assembled).

:class:`MemoryBase` declares the state ``Memory.__init__`` sets, which every mixin relies on, and the
helpers every area uses: the clock and embedding. The functions below check the values several areas take;
what text an item is embedded as is :mod:`memlane.texts`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InvalidInput
from ..texts import fact_text, item_text, message_text

if TYPE_CHECKING:
    from ..config import Settings
    from ..context import TokenCounts
    from ..embeddings import Embedder
    from ..llm import LLMClient
    from ..pipeline import Pipeline
    from ..retrieval import Searcher
    from ..store import Store
    from ..tokens import Tokenizer

__all__ = [  # the text helpers live in memlane.texts (the pipeline uses them too); re-exported here
    "KINDS",
    "TOKEN_FIELDS",
    "MemoryBase",
    "aware",
    "check_positive",
    "fact_text",
    "item_text",
    "message_text",
]

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
