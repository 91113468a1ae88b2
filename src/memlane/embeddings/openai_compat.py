"""Embeddings from any server that speaks OpenAI's ``POST /embeddings`` (OpenAI, Ollama, vLLM, LM Studio…).

One pooled ``httpx.Client`` per embedder; 429s (``Retry-After`` honoured), 5xx, timeouts and
dropped connections are retried with exponential backoff and full jitter, as the LLM clients do.
"""

from __future__ import annotations

import base64
import binascii
import logging
import random
import threading
import time
from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np

from memlane.embeddings.base import Embedder, EmbedKind, Vectors, normalize_rows
from memlane.errors import ConfigError, InvalidOutput, ProviderError, ProviderTimeout, RateLimited
from memlane.llm._http import error_message
from memlane.llm._retry import backoff_delay, parse_retry_after

__all__ = ["OpenAICompatibleEmbedder"]

logger = logging.getLogger(__name__)

_RETRYABLE_STATUS = frozenset({408, 409, 425})  # transient by definition, like 5xx
_PROBE = "dimension probe"


class _Retryable(Exception):
    """One failed attempt worth repeating; ``error`` is what surfaces once the retries are spent."""

    def __init__(self, error: ProviderError, wait: float | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.wait = wait


class OpenAICompatibleEmbedder(Embedder):
    """Embed through ``POST {base_url}/embeddings`` with ``{"model": model, "input": [...]}``.

    ``model`` is both the name sent to the server and the id stored with the vectors. Vectors
    come back in input order (the answer's ``index`` decides) and are re-normalised.

    Args:
        base_url: e.g. ``https://api.openai.com/v1`` or ``http://localhost:11434/v1`` (Ollama).
        model: the server's embedding model, e.g. ``text-embedding-3-small``, ``nomic-embed-text``.
        api_key: sent as ``Authorization: Bearer …`` when given.
        dim: the vector length to expect; learned from the first answer when ``None`` (reading
            :attr:`dim` before any embedding then asks the server once).
        timeout: seconds for each HTTP attempt.
        max_retries: further attempts after a 429, a 5xx, a timeout or a dropped connection.
        backoff_base: first backoff ceiling in seconds, doubled per retry (full jitter).
        backoff_max: largest backoff ceiling in seconds.
        max_retry_after: longest ``Retry-After`` waited out; a longer one raises
            :class:`RateLimited` at once, carrying ``retry_after``.
        query_prefix, document_prefix: prepended to queries / documents, for models trained with
            them (e.g. ``"search_query: "`` and ``"search_document: "`` for nomic-embed-text).
        batch_size: texts per request.
        cache_size: recent vectors :meth:`embed` keeps.
        concurrency: requests one :meth:`embed` call may have in flight at once (mind the server's
            rate limits).
        http_client: an ``httpx.Client`` to use (proxies, TLS); left open by :meth:`close`.

    Raises:
        ConfigError: ``base_url`` is not http(s), ``model`` is empty, or a number is out of range.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        dim: int | None = None,
        timeout: float = 30.0,
        max_retries: int = 3,
        *,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        max_retry_after: float = 30.0,
        query_prefix: str = "",
        document_prefix: str = "",
        batch_size: int = 64,
        cache_size: int = 4096,
        concurrency: int = 1,
        http_client: httpx.Client | None = None,
    ) -> None:
        super().__init__(batch_size=batch_size, cache_size=cache_size, concurrency=concurrency)
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"embedding base URL must start with http:// or https://, got {base_url!r}")
        if not isinstance(model, str) or not model.strip():
            raise ConfigError("the embedding model name must not be empty")
        if dim is not None and dim < 1:
            raise ConfigError(f"dim must be at least 1, got {dim}")
        if timeout <= 0:
            raise ConfigError(f"timeout must be positive, got {timeout}")
        if max_retries < 0 or backoff_base < 0 or backoff_max < 0 or max_retry_after < 0:
            raise ConfigError("embedding retry settings must not be negative")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_retry_after = max_retry_after
        self.prefixes: dict[str, str] = {"query": query_prefix, "document": document_prefix}
        self._dim = dim
        self._headers = {"user-agent": "memlane"}
        if api_key:
            self._headers["authorization"] = f"Bearer {api_key}"
        self._client = http_client
        self._owns_client = http_client is None
        self._lock = threading.Lock()
        self._rng = random.Random()

    @property
    def dim(self) -> int:
        """The vector length; asks the server once (embedding a probe text) if not yet known.

        Raises:
            ProviderError: the server could not be asked (see :meth:`embed_batch`).
        """
        if self._dim is None:
            self.embed_batch([_PROBE], "document")
        assert self._dim is not None
        return self._dim

    @dim.setter
    def dim(self, value: int) -> None:
        self._dim = value

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        """One ``POST /embeddings`` for ``texts`` (retried as the class says).

        Returns:
            float32 array ``(len(texts), dim)``, unit rows, in input order.

        Raises:
            ProviderTimeout: every attempt timed out (the last failure was a timeout).
            RateLimited: still 429 after every retry, or asked to wait longer than ``max_retry_after``.
            ProviderError: a 4xx other than 429, or 5xx / dropped connections after every retry.
            InvalidOutput: the answer is not a list of ``len(texts)`` equally long finite vectors
                (of ``dim`` numbers when ``dim`` is known).
        """
        if not texts:
            return np.empty((0, self.dim), dtype=np.float32)
        prefix = self.prefixes.get(kind, "")
        body = {"model": self.model, "input": [prefix + text for text in texts]}
        answer = self._post(body)
        vectors = self._vectors(answer, len(texts))
        if self._dim is None:
            self._dim = vectors.shape[1]
        return vectors

    def close(self) -> None:
        """Drop the cache; close the connection pool if this embedder created it. Safe to call twice."""
        super().close()
        with self._lock:
            if self._client is not None and self._owns_client:
                self._client.close()
                self._client = None

    # ---- one request, retried -------------------------------------------------------------------

    def _http(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(headers=self._headers)
            return self._client

    def _post(self, body: dict[str, Any]) -> Any:
        retry = 0
        while True:
            try:
                return self._attempt(body)
            except _Retryable as failure:
                if retry >= self.max_retries:
                    raise failure.error from failure
                wait = failure.wait
                if wait is None:
                    wait = backoff_delay(retry, self.backoff_base, self.backoff_max, self._rng)
                logger.warning(
                    "embeddings at %s: %s (attempt %d of %d); retrying in %.2fs",
                    self.base_url,
                    failure.error,
                    retry + 1,
                    self.max_retries + 1,
                    wait,
                )
                time.sleep(wait)
                retry += 1

    def _attempt(self, body: dict[str, Any]) -> Any:
        """One POST; the decoded JSON of a 2xx answer.

        Raises:
            _Retryable: a transient failure. ProviderError, RateLimited, InvalidOutput: final ones.
        """
        url = f"{self.base_url}/embeddings"
        try:
            response = self._http().post(url, json=body, timeout=httpx.Timeout(self.timeout))
        except httpx.TimeoutException as error:
            timeout = ProviderTimeout(f"embedding server {url} did not answer within {self.timeout:g}s")
            raise _Retryable(timeout) from error
        except (httpx.UnsupportedProtocol, httpx.LocalProtocolError) as error:
            raise ProviderError(f"cannot send the embedding request to {url}: {error}") from error
        except httpx.TransportError as error:
            lost = ProviderError(f"connection to embedding server {url} failed: {type(error).__name__}: {error}")
            raise _Retryable(lost) from error

        code = response.status_code
        if code == 429:
            retry_after = parse_retry_after(response.headers)
            limited = RateLimited(f"embedding server rate limit (HTTP 429): {error_message(response)}", retry_after)
            if retry_after is not None and retry_after > self.max_retry_after:
                raise limited
            raise _Retryable(limited, retry_after)
        if code >= 500 or code in _RETRYABLE_STATUS:
            raise _Retryable(ProviderError(f"embedding server failed (HTTP {code}): {error_message(response)}"))
        if not response.is_success:
            raise ProviderError(f"embedding server rejected the request (HTTP {code}): {error_message(response)}")
        try:
            return response.json()
        except (ValueError, UnicodeDecodeError) as error:
            raise InvalidOutput(f"embedding server answered with invalid JSON: {response.text[:100]!r}") from error

    # ---- the answer -----------------------------------------------------------------------------

    def _vectors(self, answer: Any, count: int) -> Vectors:
        """The ``data`` of an embeddings answer as unit rows in input order, or :class:`InvalidOutput`."""
        data = answer.get("data") if isinstance(answer, dict) else None
        if not isinstance(data, list) or len(data) != count or not all(isinstance(d, dict) for d in data):
            got = len(data) if isinstance(data, list) else "no"
            raise InvalidOutput(f"embedding server answered {got} items for {count} texts (expected a 'data' list)")
        indexes = [item.get("index") for item in data]
        if all(index is None for index in indexes):
            ordered = data
        elif sorted(i for i in indexes if isinstance(i, int) and not isinstance(i, bool)) == list(range(count)):
            ordered = sorted(data, key=lambda item: int(item["index"]))
        else:
            raise InvalidOutput(f"embedding answer indexes are not 0..{count - 1}: {indexes[:10]}")
        rows = [self._row(item.get("embedding")) for item in ordered]
        width = len(rows[0])
        if width == 0 or any(len(row) != width for row in rows):
            raise InvalidOutput("embedding server answered vectors of different or zero lengths")
        if self._dim is not None and width != self._dim:
            raise InvalidOutput(f"embedding server answered {width}-dim vectors, expected {self._dim}")
        return normalize_rows(np.asarray(rows, dtype=np.float64))

    @staticmethod
    def _row(embedding: Any) -> list[float]:
        if isinstance(embedding, str):  # encoding_format=base64: little-endian float32
            try:
                raw = base64.b64decode(embedding, validate=True)
            except (binascii.Error, ValueError) as error:
                raise InvalidOutput("embedding is a string but not base64") from error
            if len(raw) % 4:
                raise InvalidOutput("base64 embedding is not a whole number of float32s")
            return [float(x) for x in np.frombuffer(raw, dtype="<f4")]
        if not isinstance(embedding, list) or not all(
            isinstance(x, int | float) and not isinstance(x, bool) for x in embedding
        ):
            raise InvalidOutput("an embedding is not a list of numbers")
        return [float(x) for x in embedding]
