"""The prompts of :mod:`.memories` (seed 001): ``create_memory`` and ``compact_memories``.

Each prompt is a function of a typed input returning messages, next to the pydantic model of its answer.
Both run at a set temperature (:func:`ask_at`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, Literal, TypeVar

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from ..llm import ChatMessage, LLMClient
from ..types import Message
from .extractive import split_sentences
from .prompts import Prompt

__all__ = [
    "COMPACT_MEMORIES",
    "CREATE_MEMORY",
    "MAX_MEMORY_CHARS",
    "MAX_MESSAGE_CHARS",
    "CompactionDecision",
    "CompactionInput",
    "MemoryInput",
    "MemoryItem",
    "MemoryText",
    "ask_at",
    "speaker",
]

In = TypeVar("In")
Out = TypeVar("Out", bound=BaseModel)

MAX_MEMORY_CHARS = 600
MAX_MESSAGE_CHARS = 1000


@dataclass(frozen=True, slots=True)
class MemoryInput:
    """What ``create_memory`` needs: the conversation (oldest first) and summaries of what came before it."""

    transcript: Sequence[Message]
    earlier: Sequence[str]
    today: date


class MemoryText(BaseModel):
    """The answer of ``create_memory``: one paragraph, kept to 4 sentences and ``MAX_MEMORY_CHARS``."""

    model_config = ConfigDict(extra="ignore")

    memory: str = Field(validation_alias=AliasChoices("memory", "content", "text"))

    @field_validator("memory")
    @classmethod
    def _memory(cls, value: str) -> str:
        text = " ".join(value.split())
        if not text:
            raise ValueError("memory must not be blank")
        text = " ".join(split_sentences(text)[:4])
        return text if len(text) <= MAX_MEMORY_CHARS else text[: MAX_MEMORY_CHARS - 1].rstrip() + "…"


_CREATE_SYSTEM = """\
You are a memory creation assistant. Analyze the conversation below and create a concise memory record \
of it for the assistant's future conversations.

Focus on:
- key facts and information
- user preferences or patterns
- important decisions or outcomes
- lessons learned or insights

Format: a single paragraph of 2-4 sentences, factual and concise, in the third person; name people. \
Today is {today}.

Answer with JSON only: {{"memory": "..."}}"""


def speaker(m: Message) -> str:
    """How a transcript names the author of ``m``."""
    if m.role == "user":
        return m.name or m.user or "user"
    return m.name or m.role


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _create_messages(data: MemoryInput) -> list[ChatMessage]:
    lines = [
        f"[{m.created_at:%Y-%m-%d %H:%M}] {speaker(m)}: {_clip(m.content, MAX_MESSAGE_CHARS)}" for m in data.transcript
    ]
    parts = []
    if data.earlier:
        parts.append("Earlier in this conversation (summaries):\n" + "\n".join(f"- {s}" for s in data.earlier))
    parts.append("Conversation:\n" + "\n".join(lines))
    parts.append("Create memory:")
    return [
        ChatMessage.system(_CREATE_SYSTEM.format(today=data.today.isoformat())),
        ChatMessage.user("\n\n".join(parts)),
    ]


CREATE_MEMORY: Prompt[MemoryInput, MemoryText] = Prompt("create_memory", MemoryText, _create_messages)
"""Seed 001's memory creation: one 2–4 sentence memory of an ended conversation."""


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """A stored memory as the compaction prompt shows it."""

    id: int
    created: date
    content: str


@dataclass(frozen=True, slots=True)
class CompactionInput:
    """The memories kept so far, the newest one, and how many may be kept."""

    existing: Sequence[MemoryItem]
    new: MemoryItem
    cap: int


class CompactionDecision(BaseModel):
    """The answer of ``compact_memories``; seed 001's camelCase names are accepted too."""

    model_config = ConfigDict(extra="ignore")

    action: Literal["delete", "edit"]
    target: int = Field(validation_alias=AliasChoices("target", "targetMemoryId", "target_id", "targetId"))
    new_content: str | None = Field(None, validation_alias=AliasChoices("new_content", "newContent"))
    reason: str = ""

    @field_validator("action", mode="before")
    @classmethod
    def _action(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("new_content")
    @classmethod
    def _new_content(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return _clip(value, MAX_MEMORY_CHARS)


_COMPACT_SYSTEM = """\
You are a memory management assistant. You have {count} memories but can only keep {cap}.

Analyze these memories and decide which ONE to either:
1. DELETE (remove entirely): the most redundant, outdated or least valuable memory; it may be the new one.
2. EDIT (merge the new memory into an existing one, or update its content): give the existing memory's id \
and its merged content; the new memory is then removed.

Answer with JSON only: {{"action": "delete" | "edit", "target": <id>, "new_content": "<merged content if \
editing, else null>", "reason": "<short explanation>"}}"""


def _compact_messages(data: CompactionInput) -> list[ChatMessage]:
    existing = "\n".join(f"[id {m.id}] [Created: {m.created.isoformat()}] {m.content}" for m in data.existing)
    new = f"[id {data.new.id}] [Created: {data.new.created.isoformat()}] {data.new.content}"
    body = f"Existing memories:\n{existing}\n\nNew memory:\n{new}"
    system = _COMPACT_SYSTEM.format(count=len(data.existing) + 1, cap=data.cap)
    return [ChatMessage.system(system), ChatMessage.user(body)]


COMPACT_MEMORIES: Prompt[CompactionInput, CompactionDecision] = Prompt(
    "compact_memories", CompactionDecision, _compact_messages
)
"""Seed 001's compaction: which one memory to delete or edit when there is one too many."""


def ask_at(llm: LLMClient, prompt: Prompt[In, Out], data: In, *, temperature: float, agent: str | None) -> Out:
    """Like :func:`.prompts.ask`, at the given temperature.

    Raises:
        InvalidOutput: the answer did not validate (after the client's corrective retry).
        RateLimited, ProviderTimeout, ProviderError: the provider failed after the client's retries.
    """
    completion = llm.complete(
        prompt(data), operation=prompt.name, schema=prompt.output, temperature=temperature, agent=agent
    )
    assert completion.parsed is not None  # complete() with a schema parses or raises
    return completion.parsed
