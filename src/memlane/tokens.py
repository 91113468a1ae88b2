"""Exact, offline token counting for OpenAI-style chat models (cl100k_base, o200k_base).

The counts are those of OpenAI's tokenizers, computed by ``quicktok`` from vocabularies shipped in its
wheel (no download at run time). A chat request is counted the way OpenAI documents it for its chat
models: every message costs 3 tokens of framing plus its role and content (and 1 more plus the name
when it has a ``name``), tool calls cost their JSON, and the reply is primed with 3 more tokens.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

import quicktok

from .errors import ConfigError

__all__ = ["Tokenizer", "encoding_for", "get_tokenizer"]

TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING = 3
_ENCODINGS = ("cl100k_base", "o200k_base")
_ROLES = frozenset({"system", "user", "assistant", "tool"})
_NAMES_KEPT = 4096  # names whose token counts a tokenizer keeps


def encoding_for(model: str) -> str:
    """The encoding name for a chat model name (``gpt-4o*``, ``o1``... → o200k_base; ``gpt-4``, ``gpt-3.5`` → cl100k).

    Unknown models count with o200k_base, the encoding of current OpenAI models.
    """
    if model in _ENCODINGS:
        return model
    name = model.lower().rsplit("/", 1)[-1]
    for prefix, encoding in sorted(quicktok.MODEL_TO_ENCODING.items(), key=lambda kv: -len(kv[0])):
        if name == prefix or name.startswith((prefix + "-", prefix + ".")):
            return encoding if encoding in _ENCODINGS else "o200k_base"
    return "o200k_base"


class Tokenizer:
    """Counts tokens of texts and of whole chat requests for one encoding."""

    def __init__(self, encoding: str = "o200k_base") -> None:
        if encoding not in _ENCODINGS:
            raise ConfigError(f"unknown tokenizer encoding {encoding!r}; use one of {', '.join(_ENCODINGS)}")
        self.encoding = encoding
        self._loaded: Any = None
        self._role_tokens: dict[str, int] = {}  # every message pays for its role: count each role once
        self._name_tokens: dict[str, int] = {}  # and for its name, one of the few a conversation has

    @property
    def _enc(self) -> Any:
        # The vocabulary loads on first use: commands that never count tokens don't pay for it.
        if self._loaded is None:
            self._loaded = quicktok.get_encoding(self.encoding)
        return self._loaded

    def count(self, text: str) -> int:
        """Tokens of ``text``, all of it ordinary text: a special token's spelling in a message (a user asking
        what ``<|endoftext|>`` means) counts as the characters it is, as the provider's API counts it."""
        return int(self._enc.count(text)) if text else 0

    def truncate(self, text: str, max_tokens: int) -> str:
        """``text`` cut to at most ``max_tokens`` tokens, on a token boundary that decodes cleanly."""
        ids = self._enc.encode_ordinary(text)
        if len(ids) <= max_tokens:
            return text
        cut = max(max_tokens, 0)
        while cut > 0:
            piece = self._enc.decode_bytes(ids[:cut])
            try:
                return bytes(piece).decode("utf-8")
            except UnicodeDecodeError:
                cut -= 1
        return ""

    def count_message(self, message: Mapping[str, Any]) -> int:
        """Tokens one chat message adds to a request, framing included."""
        role = str(message.get("role", ""))
        role_tokens = self._role_tokens.get(role)
        if role_tokens is None:
            role_tokens = self.count(role)
            if role in _ROLES:
                self._role_tokens[role] = role_tokens
        total = TOKENS_PER_MESSAGE + role_tokens
        content = message.get("content")
        if content:
            total += self.count(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False))
        name = message.get("name")
        if name:
            name = str(name)
            name_tokens = self._name_tokens.get(name)
            if name_tokens is None:
                name_tokens = self.count(name)
                if len(self._name_tokens) < _NAMES_KEPT:
                    self._name_tokens[name] = name_tokens
            total += TOKENS_PER_NAME + name_tokens
        if message.get("tool_calls"):
            total += self.count(json.dumps(message["tool_calls"], ensure_ascii=False, separators=(",", ":")))
        if message.get("tool_call_id"):
            total += self.count(str(message["tool_call_id"]))
        return total

    def count_messages(self, messages: Iterable[Mapping[str, Any]]) -> int:
        """Tokens of a whole chat request: every message plus the reply priming."""
        return REPLY_PRIMING + sum(self.count_message(m) for m in messages)


@lru_cache(maxsize=4)
def get_tokenizer(encoding: str) -> Tokenizer:
    """A shared :class:`Tokenizer` for ``encoding`` (its vocabulary is loaded on first use)."""
    return Tokenizer(encoding)
