"""Client for Anthropic's Messages API (``POST {base_url}/v1/messages``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import httpx
from pydantic import BaseModel

from memlane.errors import ConfigError, InvalidInput, ProviderError, RateLimited
from memlane.llm._http import HTTPLLMClient, as_int, as_object
from memlane.llm._retry import RetryableError
from memlane.llm.base import StreamEvent
from memlane.llm.structured import schema_instruction, with_instruction
from memlane.llm.types import ChatMessage, RawCompletion, TokenUsage

__all__ = ["ANTHROPIC_VERSION", "AnthropicLLM"]

ANTHROPIC_VERSION = "2023-06-01"
_TRANSIENT_TYPES = frozenset({"overloaded_error", "api_error", "timeout_error"})


def _input_tokens(usage: dict[str, Any]) -> int:
    # Cached prompt tokens are reported apart from input_tokens but are still prompt tokens.
    return (
        as_int(usage.get("input_tokens"))
        + as_int(usage.get("cache_creation_input_tokens"))
        + as_int(usage.get("cache_read_input_tokens"))
    )


def _turns(messages: Sequence[ChatMessage]) -> list[dict[str, str]]:
    """User/assistant turns; consecutive messages of one role are merged, as the API wants them."""
    turns: list[dict[str, str]] = []
    for message in messages:
        if message.role == "system":
            continue
        if turns and turns[-1]["role"] == message.role:
            turns[-1]["content"] += "\n\n" + message.content
        else:
            turns.append({"role": message.role, "content": message.content})
    return turns


class AnthropicLLM(HTTPLLMClient):
    """Claude models over the Messages API.

    System messages become the top-level ``system`` field; structured output is asked for by
    instruction (the answer is then validated by :class:`~memlane.llm.LLMClient`).

    Args:
        model: e.g. ``"claude-3-5-haiku-latest"``.
        api_key: sent as ``x-api-key``.
        base_url: API root without ``/v1``.
        max_tokens: answer length cap; the API requires one.
        http_client: an ``httpx.Client`` to use instead of a private one.
        **options: :class:`~memlane.llm.LLMClient` settings (timeout, retries, on_usage ...).

    Raises:
        ConfigError: no API key, a bad URL, or bad client settings.
    """

    provider_name = "Anthropic API"

    def __init__(
        self,
        model: str,
        api_key: str,
        base_url: str = "https://api.anthropic.com",
        *,
        max_tokens: int = 4096,
        http_client: httpx.Client | None = None,
        **options: Any,
    ) -> None:
        super().__init__(base_url=base_url, model=model, http_client=http_client, **options)
        if not api_key:
            raise ConfigError("the Anthropic API needs an API key")
        if max_tokens <= 0:
            raise ConfigError("max_tokens must be positive")
        self.api_key = api_key
        self.max_tokens = max_tokens

    def _headers(self) -> dict[str, str]:
        return {"x-api-key": self.api_key, "anthropic-version": ANTHROPIC_VERSION}

    def _body(
        self,
        messages: Sequence[ChatMessage],
        schema: type[BaseModel] | None,
        temperature: float,
        stream: bool,
    ) -> dict[str, Any]:
        if schema is not None:
            messages = with_instruction(messages, schema_instruction(schema))
        turns = _turns(messages)
        if not turns:
            raise InvalidInput("the Anthropic API needs at least one user or assistant message")
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": turns,
            "temperature": min(max(temperature, 0.0), 1.0),  # the API accepts 0..1 only
        }
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        if system:
            body["system"] = system
        if stream:
            body["stream"] = True
        return body

    def _event_error(self, error: Any) -> ProviderError:
        kind = error.get("type") if isinstance(error, dict) else None
        message = error.get("message") if isinstance(error, dict) else error
        if kind == "rate_limit_error":
            return RateLimited(f"{self.provider_name} rate limit: {message}")
        if kind in _TRANSIENT_TYPES:
            return RetryableError(f"{self.provider_name} failed ({kind}): {message}")
        return ProviderError(f"{self.provider_name} error ({kind}): {message}")

    def _complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: type[BaseModel] | None,
        temperature: float,
        timeout: float,
    ) -> RawCompletion:
        """One ``/v1/messages`` request (see :class:`~memlane.llm.LLMClient` for the error contract)."""
        body = self._body(messages, schema, temperature, stream=False)
        data = self._answer_json(self._send("/v1/messages", body, self._headers(), timeout))
        if data.get("type") == "error":
            raise self._event_error(data.get("error"))
        content = data.get("content")
        if not isinstance(content, list):
            raise ProviderError(f"{self.provider_name} answered without content blocks")
        text = "".join(
            str(block.get("text", "")) for block in content if isinstance(block, dict) and block.get("type") == "text"
        )
        usage = as_object(data.get("usage"))
        model = data.get("model")
        return RawCompletion(
            text=text,
            prompt_tokens=_input_tokens(usage),
            completion_tokens=as_int(usage.get("output_tokens")),
            model=model if isinstance(model, str) and model else None,
        )

    def _stream(self, messages: Sequence[ChatMessage], *, temperature: float, timeout: float) -> Iterator[StreamEvent]:
        """Messages API server-sent events: text from ``content_block_delta``/``text_delta``."""
        body = self._body(messages, None, temperature, stream=True)
        response = self._send("/v1/messages", body, self._headers(), timeout, stream=True)
        if response.status_code != 200:
            raise self._status_error(response)
        events = self._events(response, timeout)
        try:
            for _event, data in events:
                if not isinstance(data, dict):
                    continue
                kind = data.get("type")
                if kind == "content_block_delta":
                    delta = data.get("delta")
                    if isinstance(delta, dict) and delta.get("type") == "text_delta":
                        text = delta.get("text")
                        if isinstance(text, str) and text:
                            yield text
                elif kind == "message_start":
                    message = as_object(data.get("message"))
                    usage = as_object(message.get("usage"))
                    model = message.get("model")
                    yield TokenUsage(_input_tokens(usage), 0, model if isinstance(model, str) and model else None)
                elif kind == "message_delta":
                    usage = as_object(data.get("usage"))
                    yield TokenUsage(0, as_int(usage.get("output_tokens")))
                elif kind == "message_stop":
                    break
                elif kind == "error":
                    raise self._event_error(data.get("error"))
        finally:
            events.close()
