"""What the HTTP providers share: one pooled ``httpx.Client``, error mapping, and SSE parsing."""

from __future__ import annotations

import json
import threading
from collections.abc import Generator, Iterator
from typing import Any

import httpx

from memlane.errors import ConfigError, ProviderError, ProviderTimeout, RateLimited
from memlane.llm._retry import RetryableError, parse_retry_after
from memlane.llm.base import LLMClient

__all__ = ["HTTPLLMClient", "as_int", "as_object", "error_message", "iter_sse"]

_RETRYABLE_STATUS = frozenset({408, 409})  # request timeout, lock conflict: transient by definition
_BODY_SNIPPET = 300


def as_object(value: Any) -> dict[str, Any]:
    """``value`` if it is a JSON object, else an empty one (answers are data, not promises)."""
    return value if isinstance(value, dict) else {}


def as_int(value: Any) -> int:
    """``value`` if it is an integer (not a bool), else 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def error_message(response: httpx.Response) -> str:
    """The human message of an error answer, whichever API dialect wrote it. Never raises."""
    try:
        body = response.json()
    except (ValueError, UnicodeDecodeError):
        return response.text[:_BODY_SNIPPET] or response.reason_phrase
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
        if isinstance(error, str):
            return error
        if isinstance(body.get("message"), str):
            return str(body["message"])
    return response.text[:_BODY_SNIPPET]


def iter_sse(lines: Iterator[str]) -> Iterator[tuple[str | None, str]]:
    """Parse server-sent events into ``(event name or None, data)`` pairs (WHATWG rules)."""
    event: str | None = None
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = None, []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
    if data:
        yield event, "\n".join(data)


class HTTPLLMClient(LLMClient):
    """An :class:`LLMClient` that talks JSON over HTTP to ``base_url``.

    ``http_client`` may be injected (proxies, custom TLS, httpx transports); a client made here
    is closed by :meth:`close`, an injected one is left to its owner.

    Raises:
        ConfigError: ``base_url`` is not an http(s) URL (plus :class:`LLMClient`'s checks).
    """

    provider_name = "LLM provider"

    def __init__(self, *, base_url: str, model: str, http_client: httpx.Client | None = None, **options: Any) -> None:
        super().__init__(model=model, **options)
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"{self.provider_name} base URL must start with http:// or https://, got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self._client = http_client
        self._owns_client = http_client is None
        self._lock = threading.Lock()

    def _http(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(headers={"user-agent": "memlane"})
            return self._client

    def close(self) -> None:
        """Close the HTTP connection pool if this object created it."""
        with self._lock:
            if self._client is not None and self._owns_client:
                self._client.close()
                self._client = None

    # ---- one exchange ---------------------------------------------------------------------------

    def _send(
        self,
        path: str,
        body: dict[str, Any],
        headers: dict[str, str],
        timeout: float,
        *,
        stream: bool = False,
    ) -> httpx.Response:
        """POST ``body``; returns the response (body already read unless streaming with 200).

        Raises:
            ProviderTimeout, RetryableError, ProviderError: transport failures, mapped.
        """
        client = self._http()
        request = client.build_request(
            "POST", f"{self.base_url}{path}", json=body, headers=headers, timeout=httpx.Timeout(timeout)
        )
        try:
            response = client.send(request, stream=stream)
            if stream and response.status_code != 200:
                try:
                    response.read()
                finally:
                    response.close()
        except httpx.HTTPError as error:
            raise self._transport_error(error, timeout) from error
        return response

    def _transport_error(self, error: httpx.HTTPError, timeout: float) -> ProviderError:
        name = self.provider_name
        if isinstance(error, httpx.TimeoutException):
            return ProviderTimeout(f"{name} did not answer within {timeout:g}s ({type(error).__name__})")
        if isinstance(error, httpx.UnsupportedProtocol | httpx.LocalProtocolError):
            return ProviderError(f"cannot send the request to {name}: {error}")
        if isinstance(error, httpx.TransportError):
            return RetryableError(f"connection to {name} failed: {type(error).__name__}: {error}")
        return ProviderError(f"{name} request failed: {type(error).__name__}: {error}")

    def _status_error(self, response: httpx.Response) -> ProviderError:
        code, name, message = response.status_code, self.provider_name, error_message(response)
        if code == 429:
            retry_after = parse_retry_after(response.headers)
            return RateLimited(f"{name} rate limit (HTTP 429): {message}", retry_after=retry_after)
        if code >= 500 or code in _RETRYABLE_STATUS:
            return RetryableError(f"{name} failed (HTTP {code}): {message}")
        return ProviderError(f"{name} rejected the request (HTTP {code}): {message}")

    def _answer_json(self, response: httpx.Response) -> dict[str, Any]:
        """The JSON object of a successful answer.

        Raises:
            RateLimited, RetryableError, ProviderError: on an error status or a body that isn't
                a JSON object.
        """
        if not response.is_success:
            raise self._status_error(response)
        try:
            body = response.json()
        except (ValueError, UnicodeDecodeError) as error:
            raise ProviderError(f"{self.provider_name} answered with invalid JSON: {response.text[:100]!r}") from error
        if not isinstance(body, dict):
            raise ProviderError(f"{self.provider_name} answered with JSON that is not an object")
        return body

    def _events(
        self, response: httpx.Response, timeout: float
    ) -> Generator[tuple[str | None, dict[str, Any] | str], None, None]:
        """The SSE events of a streaming answer; ``data`` decoded to a dict when it is JSON.

        Closes the response when done or abandoned.

        Raises:
            ProviderTimeout, RetryableError: the stream stalled or broke.
        """
        try:
            for event, data in iter_sse(response.iter_lines()):
                try:
                    decoded = json.loads(data)
                except ValueError:
                    yield event, data
                    continue
                yield event, decoded if isinstance(decoded, dict) else data
        except httpx.HTTPError as error:
            raise self._transport_error(error, timeout) from error
        finally:
            response.close()
