"""memlane's LLM layer: chat model clients with retries, structured output and usage accounting.

Providers implement one method (``_complete``); :class:`LLMClient` builds ``complete`` and
``stream`` on top. Prompts live with their callers as functions returning ``ChatMessage`` lists.
"""

from memlane.llm.anthropic import AnthropicLLM
from memlane.llm.base import LLMClient, UsageCallback
from memlane.llm.factory import make_llm
from memlane.llm.openai_compatible import OpenAICompatibleLLM
from memlane.llm.structured import extract_json, parse_model
from memlane.llm.types import ChatMessage, Completion, RawCompletion, TokenUsage, UsageEvent

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
