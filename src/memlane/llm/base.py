"""The LLM client contract: providers implement ``_complete``; everything else is built here.

A provider only turns messages into one HTTP exchange and maps its failures onto the exception
tree (:class:`~memlane.errors.RateLimited`, :class:`~memlane.errors.ProviderTimeout`,
:class:`RetryableError` for 5xx and dropped connections, :class:`~memlane.errors.ProviderError`
for the rest). :class:`LLMClient` owns the rest, once for every provider: timeouts, retries with
exponential backoff and full jitter, ``Retry-After``, structured output with one corrective
retry, streaming with a fallback, and one :class:`UsageEvent` per public call.
"""

from __future__ import annotations

import logging
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterator, Sequence
from types import TracebackType
from typing import Self, TypeVar, overload

from pydantic import BaseModel

from memlane.errors import (
    ConfigError,
    InvalidInput,
    InvalidOutput,
    ProviderError,
    ProviderTimeout,
    RateLimited,
)
from memlane.llm._retry import RetryableError, backoff_delay
from memlane.llm.structured import parse_model, repair_messages
from memlane.llm.types import ChatMessage, Completion, RawCompletion, TokenUsage, UsageEvent

__all__ = ["LLMClient", "UsageCallback"]

logger = logging.getLogger("memlane.llm")

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")

UsageCallback = Callable[[UsageEvent], None]
StreamEvent = str | TokenUsage


class _Call:
    """Book-keeping of one public call: time, requests made, tokens reported."""

    def __init__(self, model: str, operation: str, agent: str | None, total_timeout: float | None) -> None:
        self.model = model
        self.operation = operation
        self.agent = agent
        self.started = time.monotonic()
        self.deadline = None if total_timeout is None else self.started + total_timeout
        self.attempts = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0

    def add(self, usage: RawCompletion | TokenUsage) -> None:
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens
        if usage.model:
            self.model = usage.model

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def event(self, ok: bool, error: str | None) -> UsageEvent:
        return UsageEvent(
            agent=self.agent,
            operation=self.operation,
            model=self.model,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            latency_s=self.elapsed(),
            ok=ok,
            error=error,
            attempts=self.attempts,
        )


def _spent(error: ProviderError) -> ProviderError:
    """The error to raise once retries are over (the internal retry marker never escapes)."""
    if type(error) is RetryableError:
        final = ProviderError(str(error))
        final.__cause__ = error
        return final
    return error


def _close(events: Iterator[StreamEvent]) -> None:
    if isinstance(events, Generator):
        events.close()


class LLMClient(ABC):
    """Base class of every chat model client.

    Args:
        model: model name sent to the provider (and reported in usage events).
        timeout: seconds allowed for each request (connect, and each read of the answer).
        max_retries: further attempts after a 429, a 5xx, a timeout or a dropped connection.
        backoff_base: first backoff ceiling in seconds; doubles per retry (full jitter).
        backoff_max: largest backoff ceiling in seconds.
        max_retry_after: longest ``Retry-After`` the client sleeps through; a longer one is
            raised at once as :class:`RateLimited` with its ``retry_after``, so a caller (a job
            queue) can come back later instead of blocking.
        total_timeout: optional ceiling in seconds for a whole call, retries and backoff included.
        repair_retries: corrective requests after output that doesn't match the schema (0 or 1
            is sensible).
        on_usage: called with one :class:`UsageEvent` per public call, successful or not.
        sleep: how to wait between attempts (injectable so fakes can skip real waiting).
        rng: random source of the jitter.

    Raises:
        ConfigError: on an empty model name or a negative/zero setting.
    """

    def __init__(
        self,
        *,
        model: str,
        timeout: float = 30.0,
        max_retries: int = 3,
        backoff_base: float = 0.5,
        backoff_max: float = 8.0,
        max_retry_after: float = 30.0,
        total_timeout: float | None = None,
        repair_retries: int = 1,
        on_usage: UsageCallback | None = None,
        sleep: Callable[[float], None] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if not model:
            raise ConfigError("an LLM model name is required")
        if timeout <= 0 or (total_timeout is not None and total_timeout <= 0):
            raise ConfigError("LLM timeouts must be positive")
        if max_retries < 0 or repair_retries < 0 or backoff_base < 0 or backoff_max < 0 or max_retry_after < 0:
            raise ConfigError("LLM retry settings must not be negative")
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.max_retry_after = max_retry_after
        self.total_timeout = total_timeout
        self.repair_retries = repair_retries
        self.on_usage = on_usage
        self._sleep = sleep or time.sleep
        self._rng = rng or random.Random()

    # ---- the provider contract -------------------------------------------------------------

    @abstractmethod
    def _complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: type[BaseModel] | None,
        temperature: float,
        timeout: float,
    ) -> RawCompletion:
        """Make ONE request and return the answer text; no retries, no parsing.

        ``schema`` is a hint the provider may pass on (e.g. as ``response_format``); the base
        class validates the answer either way. Must raise :class:`RateLimited` on 429,
        :class:`ProviderTimeout` on timeouts, :class:`RetryableError` on 5xx or a dropped
        connection, and :class:`ProviderError` on anything else that went wrong.
        """

    def _stream(self, messages: Sequence[ChatMessage], *, temperature: float, timeout: float) -> Iterator[StreamEvent]:
        """Optional hook: yield text deltas (and :class:`TokenUsage` when known).

        The default makes one ``_complete`` request and yields its text as a single chunk.
        Errors follow the ``_complete`` contract.
        """
        raw = self._complete(messages, schema=None, temperature=temperature, timeout=timeout)
        yield TokenUsage(raw.prompt_tokens, raw.completion_tokens, raw.model)
        yield raw.text

    def close(self) -> None:  # noqa: B027 - optional hook; most fakes hold nothing to release
        """Release network resources (the default holds none)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # ---- the public API ----------------------------------------------------------------------

    @overload
    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        operation: str,
        schema: type[T],
        temperature: float = ...,
        timeout: float | None = ...,
        agent: str | None = ...,
    ) -> Completion[T]: ...

    @overload
    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        operation: str,
        schema: None = ...,
        temperature: float = ...,
        timeout: float | None = ...,
        agent: str | None = ...,
    ) -> Completion[BaseModel]: ...

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        operation: str,
        schema: type[T] | None = None,
        temperature: float = 0.0,
        timeout: float | None = None,
        agent: str | None = None,
    ) -> Completion[T] | Completion[BaseModel]:
        """Ask the model once (retrying transient failures) and return its answer.

        With ``schema``, the answer's JSON is found and validated into ``Completion.parsed``;
        output that doesn't validate earns ``repair_retries`` corrective requests. ``operation``
        (e.g. ``"extract_facts"``) and ``agent`` label the :class:`UsageEvent` this call emits.

        Raises:
            InvalidInput: no messages, a non-message item, an empty operation, or a schema that
                is not a pydantic model.
            RateLimited: still 429 after every retry, or told to wait longer than
                ``max_retry_after`` (``retry_after`` says how long).
            ProviderTimeout: the last attempt timed out, or ``total_timeout`` ran out.
            InvalidOutput: the answer had no JSON matching ``schema``, even after repair.
            ProviderError: any other provider failure (5xx, dropped connection, other 4xx).
        """
        msgs = self._check(messages, operation)
        if schema is not None and not (isinstance(schema, type) and issubclass(schema, BaseModel)):
            raise InvalidInput(f"schema must be a pydantic model class, not {schema!r}")
        call = _Call(self.model, operation, agent, self.total_timeout)
        per_request = self.timeout if timeout is None else timeout
        try:
            raw = self._request(msgs, schema, temperature, per_request, call)
            parsed: T | None = None
            if schema is not None:
                parsed, raw = self._parse(msgs, raw, schema, temperature, per_request, call)
        except BaseException as error:
            self._emit(call.event(ok=False, error=type(error).__name__))
            raise
        self._emit(call.event(ok=True, error=None))
        return Completion(
            text=raw.text,
            parsed=parsed,
            prompt_tokens=call.prompt_tokens,
            completion_tokens=call.completion_tokens,
            model=call.model,
            latency_s=call.elapsed(),
        )

    def stream(
        self,
        messages: Sequence[ChatMessage],
        *,
        operation: str,
        temperature: float = 0.7,
        timeout: float | None = None,
        agent: str | None = None,
    ) -> Generator[str, None, None]:
        """Yield the answer as text deltas, in order.

        Failures before the first delta are retried like :meth:`complete`; after it they are
        raised (a half-shown answer can't be replayed). The :class:`UsageEvent` is emitted when
        the stream ends, fails, or is closed early: call ``.close()`` on the generator when you
        stop reading before the end, to release the connection at once.

        Raises:
            InvalidInput: bad messages or operation (raised at once, not on first iteration).
            RateLimited, ProviderTimeout, ProviderError: as for :meth:`complete`.
        """
        msgs = self._check(messages, operation)
        per_request = self.timeout if timeout is None else timeout
        return self._streaming(msgs, temperature, per_request, _Call(self.model, operation, agent, self.total_timeout))

    # ---- machinery ------------------------------------------------------------------------------

    @staticmethod
    def _check(messages: Sequence[ChatMessage], operation: str) -> list[ChatMessage]:
        if not operation or not isinstance(operation, str):
            raise InvalidInput("every LLM call needs an operation name (used in usage accounting)")
        msgs = list(messages)
        if not msgs:
            raise InvalidInput("at least one chat message is required")
        for item in msgs:
            if not isinstance(item, ChatMessage):
                raise InvalidInput(f"expected ChatMessage items, got {type(item).__name__}")
        return msgs

    def _emit(self, event: UsageEvent) -> None:
        if self.on_usage is None:
            return
        try:
            self.on_usage(event)
        except Exception:
            # Accounting must never turn a good answer into a failure.
            logger.exception("on_usage callback failed for operation %s", event.operation)

    def _request(
        self,
        messages: Sequence[ChatMessage],
        schema: type[BaseModel] | None,
        temperature: float,
        timeout: float,
        call: _Call,
    ) -> RawCompletion:
        raw = self._retrying(
            lambda t: self._complete(messages, schema=schema, temperature=temperature, timeout=t),
            timeout,
            call,
        )
        call.add(raw)
        return raw

    def _parse(
        self,
        messages: Sequence[ChatMessage],
        raw: RawCompletion,
        schema: type[T],
        temperature: float,
        timeout: float,
        call: _Call,
    ) -> tuple[T, RawCompletion]:
        for repair in range(self.repair_retries + 1):
            try:
                return parse_model(raw.text, schema), raw
            except InvalidOutput as error:
                if repair == self.repair_retries:
                    raise
                logger.info("%s: output did not validate (%s); asking once more", call.operation, error)
                fixed = repair_messages(messages, raw.text, error, schema)
                raw = self._request(fixed, schema, temperature, timeout, call)
        raise AssertionError("unreachable")  # pragma: no cover

    def _retrying(self, attempt: Callable[[float], R], timeout: float, call: _Call) -> R:
        """Run ``attempt(timeout)`` until it succeeds or a failure is final."""
        retry = 0
        while True:
            budget = timeout
            if call.deadline is not None:
                budget = min(timeout, call.deadline - time.monotonic())
                if budget <= 0:
                    raise ProviderTimeout(f"{call.operation}: total_timeout of {self.total_timeout}s ran out")
            call.attempts += 1
            try:
                return attempt(budget)
            except RateLimited as error:
                failure: ProviderError = error
                delay = error.retry_after
                if delay is not None and delay > self.max_retry_after:
                    raise
                if delay is None:
                    delay = backoff_delay(retry, self.backoff_base, self.backoff_max, self._rng)
            except (ProviderTimeout, RetryableError) as error:
                failure = error
                delay = backoff_delay(retry, self.backoff_base, self.backoff_max, self._rng)
            if retry >= self.max_retries:
                raise _spent(failure)
            if call.deadline is not None and time.monotonic() + delay >= call.deadline:
                raise _spent(failure)
            logger.warning(
                "%s: %s (attempt %d of %d); retrying in %.2fs",
                call.operation,
                failure,
                retry + 1,
                self.max_retries + 1,
                delay,
            )
            self._sleep(delay)
            retry += 1

    def _open_stream(
        self, messages: Sequence[ChatMessage], temperature: float, timeout: float
    ) -> tuple[Iterator[StreamEvent], list[StreamEvent]]:
        """Start a stream and read up to its first text delta (the part that may be retried)."""
        events = iter(self._stream(messages, temperature=temperature, timeout=timeout))
        head: list[StreamEvent] = []
        try:
            for event in events:
                head.append(event)
                if isinstance(event, str) and event:
                    break
        except BaseException:
            _close(events)
            raise
        return events, head

    def _streaming(
        self, messages: Sequence[ChatMessage], temperature: float, timeout: float, call: _Call
    ) -> Generator[str, None, None]:
        events: Iterator[StreamEvent] | None = None
        ok, error_name = False, None
        try:
            events, head = self._retrying(lambda t: self._open_stream(messages, temperature, t), timeout, call)
            for chunk in _chain(head, events):
                if isinstance(chunk, TokenUsage):
                    call.add(chunk)
                elif chunk:
                    yield chunk
            ok = True
        except GeneratorExit:
            ok = True  # the consumer stopped reading; that's not a provider failure
            raise
        except RetryableError as error:
            error_name = ProviderError.__name__
            raise _spent(error) from error
        except BaseException as error:
            error_name = type(error).__name__
            raise
        finally:
            if events is not None:
                _close(events)
            self._emit(call.event(ok=ok, error=error_name))


def _chain(head: list[StreamEvent], rest: Iterator[StreamEvent]) -> Iterator[StreamEvent]:
    yield from head
    yield from rest
