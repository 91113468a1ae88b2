"""Plain data that flows through the LLM layer: messages in, completions and usage out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from memlane.errors import InvalidInput

if TYPE_CHECKING:  # pydantic loads with the code that parses a model's answer, not with these records
    from pydantic import BaseModel

__all__ = ["ROLES", "ChatMessage", "Completion", "RawCompletion", "TokenUsage", "UsageEvent"]

ROLES = frozenset({"system", "user", "assistant"})

T = TypeVar("T", bound="BaseModel")


@dataclass(frozen=True)
class ChatMessage:
    """One chat message; ``role`` is ``"system"``, ``"user"`` or ``"assistant"``.

    Raises:
        InvalidInput: on an unknown role or non-string content.
    """

    role: str
    content: str

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise InvalidInput(f"unknown chat role {self.role!r}; expected one of {sorted(ROLES)}")
        if not isinstance(self.content, str):
            raise InvalidInput(f"chat message content must be a string, not {type(self.content).__name__}")

    @classmethod
    def system(cls, content: str) -> ChatMessage:
        """A system message (instructions)."""
        return cls("system", content)

    @classmethod
    def user(cls, content: str) -> ChatMessage:
        """A user message."""
        return cls("user", content)

    @classmethod
    def assistant(cls, content: str) -> ChatMessage:
        """An assistant message (an earlier model answer)."""
        return cls("assistant", content)


@dataclass(frozen=True)
class RawCompletion:
    """What a provider's ``_complete`` returns: the answer text and what the provider reported."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str | None = None


@dataclass(frozen=True)
class TokenUsage:
    """Token counts reported by a provider while streaming (yielded by ``_stream``)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str | None = None


@dataclass(frozen=True)
class Completion(Generic[T]):
    """The result of :meth:`LLMClient.complete`.

    ``parsed`` is the validated instance of the requested schema (``None`` without a schema).
    Token counts add up every request the call needed (retries, repairs); ``latency_s`` is the
    wall time of the whole call.
    """

    text: str
    parsed: T | None
    prompt_tokens: int
    completion_tokens: int
    model: str
    latency_s: float


@dataclass(frozen=True)
class UsageEvent:
    """One per public LLM call, successful or not, handed to the ``on_usage`` callback.

    ``error`` is the exception class name (``"RateLimited"``, ``"InvalidOutput"`` ...) when
    ``ok`` is false; ``attempts`` counts the HTTP requests the call made.
    """

    agent: str | None
    operation: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    ok: bool
    error: str | None
    attempts: int = 1
