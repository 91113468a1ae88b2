"""An in-process LLM that replays a script: fast unit tests of the logic around LLM calls.

It goes through the real :class:`~memlane.llm.LLMClient` machinery (retries, structured output
parsing, repair, usage events); only the network is replaced::

    llm = ScriptedLLM('{"facts": [{"content": "likes tea"}]}', Fault.status(500), "summary")
    pipeline = FactExtractor(llm=llm)
    ...
    assert llm.calls[0].schema is Facts
    assert llm.sleeps  # the 500 was retried after a (recorded, not slept) backoff

Waiting is recorded in :attr:`ScriptedLLM.sleeps` instead of slept, so scripted 429s with a
long ``retry_after`` cost no time.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from memlane.errors import ProviderError, ProviderTimeout, RateLimited
from memlane.llm._retry import RetryableError
from memlane.llm.base import LLMClient, StreamEvent
from memlane.llm.types import ChatMessage, RawCompletion, TokenUsage
from memlane.testing.server import Fault, split_deltas

__all__ = ["ScriptedCall", "ScriptedLLM", "ScriptedReply"]

ScriptedReply = str | BaseModel | Fault | BaseException | type[BaseException]
"""Text; a pydantic object (sent as its JSON); a :class:`Fault`; or an exception to raise."""


@dataclass(frozen=True)
class ScriptedCall:
    """One request the client made (every retry and repair is a call of its own)."""

    messages: tuple[ChatMessage, ...]
    schema: type[BaseModel] | None
    temperature: float
    timeout: float


def _words(messages: Sequence[ChatMessage]) -> int:
    return sum(len(m.content.split()) for m in messages)


class ScriptedLLM(LLMClient):
    """An :class:`LLMClient` whose ``_complete`` pops the next scripted reply.

    Faults act as their HTTP counterparts would: ``Fault.status(429, retry_after=...)`` raises
    :class:`RateLimited`, 5xx and ``Fault.drop()`` are retried then surface as
    :class:`ProviderError`, ``Fault.slow(s)`` raises :class:`ProviderTimeout` when ``s`` is not
    below the request timeout. With the script empty it answers ``responder(messages)`` or
    ``default``; with neither it raises ``AssertionError`` (a test asked more than it scripted).

    Args:
        *replies: the script.
        default: reply once the script is used up.
        responder: ``f(messages) -> reply`` once the script is used up (wins over ``default``).
        model: model name reported in completions and usage events.
        **options: :class:`LLMClient` settings; ``sleep`` defaults to recording into
            :attr:`sleeps`.
    """

    def __init__(
        self,
        *replies: ScriptedReply,
        default: ScriptedReply | None = None,
        responder: Callable[[Sequence[ChatMessage]], ScriptedReply] | None = None,
        model: str = "scripted",
        **options: Any,
    ) -> None:
        self.sleeps: list[float] = []
        options.setdefault("sleep", self.sleeps.append)
        super().__init__(model=model, **options)
        self.default = default
        self.responder = responder
        self._lock = threading.Lock()
        self._script: deque[ScriptedReply] = deque(replies)
        self._calls: list[ScriptedCall] = []

    def script(self, *replies: ScriptedReply) -> None:
        """Queue more replies."""
        with self._lock:
            self._script.extend(replies)

    @property
    def pending(self) -> int:
        """Scripted replies not yet used."""
        with self._lock:
            return len(self._script)

    @property
    def calls(self) -> list[ScriptedCall]:
        """Every request made so far, in order (a copy)."""
        with self._lock:
            return list(self._calls)

    def _next(self, messages: Sequence[ChatMessage]) -> ScriptedReply:
        with self._lock:
            if self._script:
                return self._script.popleft()
        if self.responder is not None:
            return self.responder(messages)
        if self.default is not None:
            return self.default
        raise AssertionError(f"ScriptedLLM has no reply left for: {messages[-1].content[:80]!r}")

    def _text(self, reply: ScriptedReply, messages: Sequence[ChatMessage], timeout: float) -> str:
        """The answer text of ``reply``, or the error a real provider would raise."""
        while True:
            if isinstance(reply, str):
                return reply
            if isinstance(reply, BaseModel):
                return reply.model_dump_json()
            if isinstance(reply, BaseException) or (isinstance(reply, type) and issubclass(reply, BaseException)):
                raise reply
            if reply.kind == "text":
                return reply.text
            if reply.kind == "drop":
                raise RetryableError("scripted: connection dropped")
            if reply.kind == "slow":
                if reply.seconds >= timeout:
                    raise ProviderTimeout(f"scripted: no answer within {timeout:g}s")
                reply = reply.then if reply.then is not None else self._fallback(messages)
                continue
            if reply.code == 429:
                raise RateLimited("scripted: HTTP 429", retry_after=reply.retry_after)
            if reply.code >= 500 or reply.code in (408, 409):
                raise RetryableError(f"scripted: HTTP {reply.code}")
            raise ProviderError(f"scripted: HTTP {reply.code}: {reply.body or ''}")

    def _fallback(self, messages: Sequence[ChatMessage]) -> ScriptedReply:
        if self.responder is not None:
            return self.responder(messages)
        return self.default if self.default is not None else ""

    def _complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: type[BaseModel] | None,
        temperature: float,
        timeout: float,
    ) -> RawCompletion:
        """Record the call and answer with the next scripted reply."""
        with self._lock:
            self._calls.append(ScriptedCall(tuple(messages), schema, temperature, timeout))
        text = self._text(self._next(messages), messages, timeout)
        return RawCompletion(text, _words(messages), len(text.split()), self.model)

    def _stream(self, messages: Sequence[ChatMessage], *, temperature: float, timeout: float) -> Iterator[StreamEvent]:
        """The scripted reply, word by word."""
        raw = self._complete(messages, schema=None, temperature=temperature, timeout=timeout)
        yield TokenUsage(raw.prompt_tokens, raw.completion_tokens, raw.model)
        yield from split_deltas(raw.text)
