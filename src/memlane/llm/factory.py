"""Build an LLM client from settings (``MEMLANE_LLM_*``)."""

from __future__ import annotations

from typing import Any

import httpx

from memlane.errors import ConfigError
from memlane.llm.anthropic import AnthropicLLM
from memlane.llm.base import LLMClient, UsageCallback
from memlane.llm.openai_compatible import OpenAICompatibleLLM

__all__ = ["DEFAULT_BASE_URLS", "PROVIDERS", "make_llm"]

DEFAULT_BASE_URLS = {
    "openai": "https://api.openai.com/v1",
    "ollama": "http://localhost:11434/v1",
    "anthropic": "https://api.anthropic.com",
}
PROVIDERS = ("anthropic", "none", "ollama", "openai")


def make_llm(
    provider: str | None,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    model: str | None = None,
    timeout: float = 30.0,
    max_retries: int = 3,
    on_usage: UsageCallback | None = None,
    http_client: httpx.Client | None = None,
    **options: Any,
) -> LLMClient | None:
    """Return the client for ``provider``, or ``None`` when no LLM is configured.

    ``provider`` is ``"openai"`` (any OpenAI-compatible server; give ``base_url`` for vLLM,
    llama.cpp, LM Studio or OpenRouter), ``"ollama"``, ``"anthropic"``, or ``"none"``/``None``/
    ``""``. ``base_url`` defaults per provider; ``options`` go to :class:`LLMClient`.

    Raises:
        ConfigError: unknown provider, no model, or no API key where the service needs one.
    """
    name = (provider or "none").strip().lower()
    if name in ("", "none"):
        return None
    if name not in DEFAULT_BASE_URLS:
        raise ConfigError(f"unknown LLM provider {provider!r}; expected one of {', '.join(PROVIDERS)}")
    if not model:
        raise ConfigError(f"LLM provider {name!r} needs a model name (MEMLANE_LLM_MODEL)")
    url = base_url or DEFAULT_BASE_URLS[name]
    common: dict[str, Any] = {
        "timeout": timeout,
        "max_retries": max_retries,
        "on_usage": on_usage,
        "http_client": http_client,
        **options,
    }
    if name == "anthropic":
        if not api_key:
            raise ConfigError("the anthropic provider needs an API key (MEMLANE_LLM_API_KEY)")
        return AnthropicLLM(model, api_key, url, **common)
    if name == "openai" and url == DEFAULT_BASE_URLS["openai"] and not api_key:
        raise ConfigError("the openai provider needs an API key (MEMLANE_LLM_API_KEY) for api.openai.com")
    return OpenAICompatibleLLM(url, model, api_key or None, **common)
