"""Request bodies (pydantic, unknown fields refused) and the response shapes that are not memlane's own
dataclasses. Responses of stored things (threads, messages, facts, hits, jobs ...) are those dataclasses as
JSON, so :class:`memlane.Client` rebuilds the very types :class:`memlane.Memory` returns."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from memlane.types import Fact, FactChange, Hit, Message, Summary

__all__ = [
    "PROBLEMS",
    "ContextBody",
    "ContextOut",
    "Deleted",
    "EditBody",
    "FactBody",
    "FactOut",
    "FactPatch",
    "FlushBody",
    "ForgetMatchingBody",
    "KeyBody",
    "MemoriesOut",
    "MemoryOut",
    "MessageBody",
    "MessageIdsBody",
    "MessagesBody",
    "Problem",
    "PruneBody",
    "RecallBody",
    "SectionOut",
    "TextBody",
    "ThreadBody",
    "ThreadsMessagesBody",
    "UserPatch",
    "VisibilityBody",
]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ThreadBody(Body):
    """Create a thread or set its system prompt / metadata."""

    system_prompt: str | None = None
    metadata: dict[str, Any] | None = None


class MessageBody(Body):
    """One message (``Memory.add_message``'s arguments). ``user``: the end user who wrote it."""

    role: Literal["user", "assistant", "system", "tool"]
    content: str | None = None
    user: str | None = Field(None, min_length=1)
    name: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    created_at: datetime | None = None
    metadata: dict[str, Any] | None = None


class OneMessageBody(MessageBody):
    """One message; ``external_id``: the chat platform's id of it (a message delivered twice is stored once)."""

    external_id: str | None = Field(None, min_length=1)


class MessagesBody(Body):
    """Several messages appended in one transaction (all or none)."""

    messages: list[MessageBody] = Field(min_length=1, max_length=1000)


MAX_BATCH_MESSAGES = 1000  # most messages one batch request may carry, in all its threads together
ThreadKeyText = Annotated[str, Field(min_length=1)]  # the core checks names (memlane.validation.check_key)


class ThreadsMessagesBody(Body):
    """Messages for several threads at once (``Memory.add_to_threads``): their texts are embedded together,
    and every thread's messages stored in one transaction: all of them, or none."""

    threads: dict[ThreadKeyText, list[MessageBody]] = Field(min_length=1, max_length=MAX_BATCH_MESSAGES)

    @model_validator(mode="after")
    def _not_too_many(self) -> ThreadsMessagesBody:
        if sum(len(messages) for messages in self.threads.values()) > MAX_BATCH_MESSAGES:
            raise ValueError(f"at most {MAX_BATCH_MESSAGES} messages in one request")
        return self


class ContextBody(Body):
    """``Memory.context``'s arguments."""

    query: str | None = None
    user: str | None = Field(None, min_length=1)
    budget: int | None = Field(None, ge=1)
    system_prompt: str | None = None


class RecallBody(Body):
    """``Memory.recall``'s arguments (every filter)."""

    query: str = Field(min_length=1)
    user: str | None = Field(None, min_length=1)
    thread: str | None = Field(None, min_length=1)
    limit: int = Field(5, ge=1, le=100)
    kinds: list[Literal["message", "fact", "summary"]] | None = None
    since: datetime | None = None
    until: datetime | None = None
    include_superseded: bool = False
    metadata: dict[str, str | int | float | bool | None] | None = None
    preset: str | None = Field(None, min_length=1, max_length=100)
    now: datetime | None = None
    group_by: Literal["thread"] | None = None
    min_score: float | None = Field(None, ge=0.0, le=1.0)


class FactBody(Body):
    """``Memory.remember``'s arguments."""

    content: str
    user: str | None = Field(None, min_length=1)
    category: str = "fact"
    importance: int = 3
    visibility: Literal["private", "shared"] | None = None
    subject: str | None = Field(None, min_length=1)
    metadata: dict[str, Any] | None = None
    thread: str | None = Field(None, min_length=1)


class FactPatch(Body):
    """What ``Memory.update_fact`` changes; ``user`` acts as the owner."""

    content: str | None = None
    category: str | None = None
    importance: int | None = None
    visibility: Literal["private", "shared"] | None = None
    subject: str | None = Field(None, min_length=1)
    metadata: dict[str, Any] | None = None
    user: str | None = Field(None, min_length=1)


class VisibilityBody(Body):
    """Share a fact with every user of the agent, or make it private again."""

    visibility: Literal["private", "shared"]
    user: str | None = Field(None, min_length=1)


class KeyBody(Body):
    """A new API key (admin only)."""

    scope: Literal["admin", "agent", "user"]
    agent: str | None = Field(None, min_length=1)
    user: str | None = Field(None, min_length=1)
    label: str | None = Field(None, max_length=200)
    expires_at: datetime | None = None


class SectionOut(BaseModel):
    """One section of the context's system message, with its size in tokens."""

    title: str
    lines: list[str]
    tokens: int


class ContextOut(BaseModel):
    """A context: the OpenAI-style messages, the sections with token counts, and what it is made of."""

    openai_messages: list[dict[str, Any]]
    sections: list[SectionOut]
    system_prompt: str
    summaries: list[Summary]
    facts: list[Fact]
    recalled: list[Hit]
    messages: list[Message]
    budget: int
    encoding: str
    tokens: int
    dropped_messages: int
    extra_sections: list[tuple[str, list[str]]]


class FactOut(BaseModel):
    """A fact with its change history (empty for a user who sees another user's shared fact: its current
    text only, never the earlier versions)."""

    fact: Fact
    history: list[FactChange]


class EditBody(Body):
    """A message's new text (the chat platform's edit)."""

    content: str


class PruneBody(Body):
    """Delete what is older than ``older_than_days`` days (threads idle that long, or messages: then ``thread``
    may narrow it to one thread)."""

    older_than_days: float = Field(ge=0)
    thread: str | None = Field(None, min_length=1)


class UserPatch(Body):
    """A user's record: the persona they prefer and the context they asked the bot to keep in mind (null
    clears a field; a field left out stays as it is)."""

    persona: str | None = None
    custom_context: str | None = None


class TextBody(Body):
    """A text (to count its tokens)."""

    text: str


class FlushBody(Body):
    """Wait up to ``timeout`` seconds (at most 30) for the vectors of writes already made."""

    timeout: float | None = Field(None, ge=0, le=30)


class ForgetMatchingBody(Body):
    """Forget the user's facts that say ``text`` (``Memory.forget_matching``)."""

    text: str = Field(min_length=1)
    user: str | None = Field(None, min_length=1)
    purge: bool = False


class MessageIdsBody(Body):
    """Messages to delete, by id."""

    ids: list[Annotated[int, Field(ge=1, le=2**62)]] = Field(min_length=1, max_length=10_000)


class MemoryOut(BaseModel):
    """One agent memory: ``id``, ``content``, ``createdAt``, ``updatedAt``, plus memlane's own fields."""

    id: int
    content: str
    createdAt: datetime
    updatedAt: datetime
    sourceConversationId: str | None
    metadata: dict[str, Any]
    summary: Summary = Field(description="The memory as memlane stores it (what Memory.list_memories returns).")


class MemoriesOut(BaseModel):
    """The agent's memories, newest first, and how many it keeps at most."""

    memories: list[MemoryOut]
    cap: int = Field(description="The memory_cap setting: memories kept at most (the oldest are compacted).")


class Problem(BaseModel):
    """An error (RFC 9457 problem details)."""

    type: str = Field("urn:memlane:problem:not-found", description="urn:memlane:problem:<kind>, stable")
    title: str
    status: int
    detail: str
    instance: str | None = None
    request_id: str | None = None
    errors: list[dict[str, Any]] | None = None


_PROBLEM = {"model": Problem, "content": {"application/problem+json": {}}}
#: The error answers every route may give, documented in the OpenAPI document.
PROBLEMS: dict[int | str, dict[str, Any]] = {
    status: {**_PROBLEM, "description": text}
    for status, text in (
        (400, "Malformed JSON"),
        (401, "Missing, unknown, revoked or expired API key"),
        (403, "The key may not do this"),
        (404, "Not found"),
        (409, "Conflict with what is stored"),
        (413, "Request body too large"),
        (415, "The body is not JSON (JSON Lines for an import)"),
        (422, "Invalid input"),
        (429, "Rate limit exceeded (see Retry-After)"),
        (502, "LLM or embedding provider failed"),
        (503, "Storage unavailable"),
    )
}


class Deleted(BaseModel):
    """The answer to a delete: ``success`` and ``deletedCount``."""

    success: bool
    deletedCount: int
