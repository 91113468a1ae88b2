"""memlane's LLM layer: chat model clients with retries, structured output and usage accounting.

Providers implement one method (``_complete``); :class:`LLMClient` builds ``complete`` and
``stream`` on top. Prompts live with their callers as functions returning ``ChatMessage`` lists.

The providers (and httpx, which they speak through) load on first use: the messages, the client contract
and structured output do not need them, and a process that never calls a model should not pay for them.
"""

import importlib
from typing import TYPE_CHECKING

from memlane.llm.base import LLMClient, UsageCallback
from memlane.llm.structured import extract_json, parse_model
from memlane.llm.types import ChatMessage, Completion, RawCompletion, TokenUsage, UsageEvent

if TYPE_CHECKING:
    from memlane.llm.anthropic import AnthropicLLM
    from memlane.llm.factory import make_llm
    from memlane.llm.openai_compatible import OpenAICompatibleLLM

__all__ = [
    "AnthropicLLM",
    "ChatMessage",
    "Completion",
    "LLMClient",
    "OpenAICompatibleLLM",
    "RawCompletion",
    "TokenUsage",
    "UsageCallback",
    "UsageEvent",
    "extract_json",
    "make_llm",
    "parse_model",
]

#: Exported names that load on first use, and their modules.
_LAZY = {"AnthropicLLM": "anthropic", "OpenAICompatibleLLM": "openai_compatible", "make_llm": "factory"}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
