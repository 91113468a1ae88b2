"""Client for ``POST {base_url}/chat/completions``: OpenAI, Ollama, vLLM, llama.cpp, LM Studio, OpenRouter."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Sequence
from typing import Any, Literal

import httpx
from pydantic import BaseModel

from memlane.errors import ConfigError, ProviderError, RateLimited
from memlane.llm._http import HTTPLLMClient, as_int, as_object, error_message
from memlane.llm._retry import RetryableError
from memlane.llm.base import StreamEvent
from memlane.llm.structured import schema_instruction, with_instruction
from memlane.llm.types import ChatMessage, RawCompletion, TokenUsage

__all__ = ["OpenAICompatibleLLM"]

logger = logging.getLogger("memlane.llm")

StructuredMode = Literal["auto", "json_schema", "instructions"]

# Optional request fields some servers refuse (e.g. reasoning models reject `temperature`,
# older local servers reject `response_format`); each is dropped for good once refused.
_OPTIONAL_PARAMS = ("response_format", "stream_options", "temperature")
_PARAM_REJECTED = frozenset({400, 422})


def _schema_name(schema: type[BaseModel]) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__)[:64] or "output"


def _text_of(content: Any) -> str:
    """Message content as text: a string, or the text parts of a content list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return ""


class OpenAICompatibleLLM(HTTPLLMClient):
    """Chat completions over the OpenAI wire format.

    With a ``schema`` the request carries ``response_format`` (JSON schema, non-strict); a
    server that refuses it with a 400 is remembered and from then on asked by instruction.
    The answer is validated either way.

    Args:
        base_url: API root, e.g. ``https://api.openai.com/v1`` or ``http://localhost:11434/v1``.
        model: model name.
        api_key: sent as a bearer token when given (local servers usually need none).
        structured_output: ``"auto"`` (try ``response_format``, fall back), ``"json_schema"``
            (never fall back), or ``"instructions"`` (for servers that silently ignore it).
        max_tokens: cap on the answer length, sent only when set.
        http_client: an ``httpx.Client`` to use instead of a private one.
        **options: :class:`~memlane.llm.LLMClient` settings (timeout, retries, on_usage ...).

    Raises:
        ConfigError: bad URL, mode or client settings.
    """

    provider_name = "OpenAI-compatible server"

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        structured_output: StructuredMode = "auto",
        max_tokens: int | None = None,
        http_client: httpx.Client | None = None,
        **options: Any,
    ) -> None:
        super().__init__(base_url=base_url, model=model, http_client=http_client, **options)
        if structured_output not in ("auto", "json_schema", "instructions"):
            raise ConfigError(f"unknown structured_output mode {structured_output!r}")
        self.api_key = api_key
        self.structured_output = structured_output
        self.max_tokens = max_tokens
        self._refused: set[str] = {"response_format"} if structured_output == "instructions" else set()

    def _headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _body(
        self,
        messages: Sequence[ChatMessage],
        schema: type[BaseModel] | None,
        temperature: float,
        stream: bool,
    ) -> dict[str, Any]:
        use_format = schema is not None and "response_format" not in self._refused
        if schema is not None and not use_format:
            messages = with_instruction(messages, schema_instruction(schema))
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
        }
        if "temperature" not in self._refused:
            body["temperature"] = temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if schema is not None and use_format:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": _schema_name(schema),
                    "schema": schema.model_json_schema(),
                    "strict": False,
                },
            }
        if stream:
            body["stream"] = True
            if "stream_options" not in self._refused:
                body["stream_options"] = {"include_usage": True}
        return body

    def _refused_params(self, response: httpx.Response, body: dict[str, Any]) -> set[str]:
        if response.status_code not in _PARAM_REJECTED:
            return set()
        message = error_message(response).lower()
        refused = {p for p in _OPTIONAL_PARAMS if p in body and p in message}
        if "response_format" in body and "json_schema" in message:
            refused.add("response_format")
        if self.structured_output == "json_schema":
            refused.discard("response_format")
        return refused

    def _exchange(
        self,
        messages: Sequence[ChatMessage],
        schema: type[BaseModel] | None,
        temperature: float,
        timeout: float,
        stream: bool,
    ) -> httpx.Response:
        """Send the request; if the server refuses an optional field, drop it and send once more."""
        body = self._body(messages, schema, temperature, stream)
        response = self._send("/chat/completions", body, self._headers(), timeout, stream=stream)
        refused = self._refused_params(response, body)
        if not refused:
            return response
        logger.warning("%s at %s refused %s; not sending it again", self.provider_name, self.base_url, sorted(refused))
        self._refused |= refused
        body = self._body(messages, schema, temperature, stream)
        return self._send("/chat/completions", body, self._headers(), timeout, stream=stream)

    def _body_error(self, error: Any) -> ProviderError:
        """An error object inside a 200 answer or a stream (OpenRouter and proxies do this)."""
        message = str(error.get("message", error)) if isinstance(error, dict) else str(error)
        code = error.get("code") if isinstance(error, dict) else None
        if code == 429:
            return RateLimited(f"{self.provider_name} rate limit: {message}")
        if isinstance(code, int) and code >= 500:
            return RetryableError(f"{self.provider_name} failed ({code}): {message}")
        return ProviderError(f"{self.provider_name} error: {message}")

    def _complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: type[BaseModel] | None,
        temperature: float,
        timeout: float,
    ) -> RawCompletion:
        """One ``/chat/completions`` request (see :class:`~memlane.llm.LLMClient` for the error contract)."""
        data = self._answer_json(self._exchange(messages, schema, temperature, timeout, stream=False))
        choices = data.get("choices")
        if not choices and data.get("error") is not None:
            raise self._body_error(data["error"])
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise ProviderError(f"{self.provider_name} answered without choices")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise ProviderError(f"{self.provider_name} answered without a message")
        # A refusal comes instead of content; passing it on lets schema validation report it.
        text = _text_of(message.get("content")) or _text_of(message.get("refusal"))
        usage = as_object(data.get("usage"))
        model = data.get("model")
        return RawCompletion(
            text=text,
            prompt_tokens=as_int(usage.get("prompt_tokens")),
            completion_tokens=as_int(usage.get("completion_tokens")),
            model=model if isinstance(model, str) and model else None,
        )

    def _stream(self, messages: Sequence[ChatMessage], *, temperature: float, timeout: float) -> Iterator[StreamEvent]:
        """Server-sent ``chat.completion.chunk`` events; usage from the final chunk when offered."""
        response = self._exchange(messages, None, temperature, timeout, stream=True)
        if response.status_code != 200:
            raise self._status_error(response)
        events = self._events(response, timeout)
        try:
            for _event, data in events:
                if data == "[DONE]":
                    break
                if not isinstance(data, dict):
                    continue
                if data.get("error") is not None:
                    raise self._body_error(data["error"])
                usage = data.get("usage")
                if isinstance(usage, dict):
                    model = data.get("model")
                    yield TokenUsage(
                        as_int(usage.get("prompt_tokens")),
                        as_int(usage.get("completion_tokens")),
                        model if isinstance(model, str) and model else None,
                    )
                for choice in data.get("choices") or []:
                    delta = choice.get("delta") if isinstance(choice, dict) else None
                    text = _text_of(delta.get("content")) if isinstance(delta, dict) else ""
                    if text:
                        yield text
        finally:
            events.close()
