"""The pipeline's LLM prompts: each a named function of a typed input, next to the model of its answer.

A :class:`Prompt` couples the three things every LLM call needs: a ``name`` (the ``operation`` in logs
and usage accounting), a ``build`` function turning a typed input into chat messages, and the pydantic
``output`` model the answer is validated against. :func:`ask` runs one; invalid answers raise
:class:`~memlane.errors.InvalidOutput` (after the client's one corrective retry), and every caller has a
fallback that needs no LLM.

Dates reach a prompt through its input (``today``), never from the clock at import or build time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..llm import ChatMessage, LLMClient

__all__ = [
    "CONSOLIDATE_FACT",
    "SUMMARIZE_AND_EXTRACT",
    "ConsolidateInput",
    "ConsolidationDecision",
    "ExistingFact",
    "ExtractedFact",
    "KnownFact",
    "Prompt",
    "PromptMessage",
    "SummarizeInput",
    "SummaryAndFacts",
    "ask",
]

In = TypeVar("In")
Out = TypeVar("Out", bound=BaseModel)

_CATEGORY = re.compile(r"^[a-z][a-z0-9_\-]{0,31}$")
MAX_SUMMARY_CHARS = 4000
MAX_FACT_CHARS = 1000
# A message longer than this is cut in the prompt: summaries need the gist, not every pasted log line.
MAX_MESSAGE_CHARS = 2000


@dataclass(frozen=True, slots=True)
class Prompt(Generic[In, Out]):
    """A named prompt: ``build(input)`` gives the messages, ``output`` validates the answer."""

    name: str
    output: type[Out]
    build: Callable[[In], list[ChatMessage]]

    def __call__(self, data: In) -> list[ChatMessage]:
        """The chat messages for ``data``."""
        return self.build(data)


def ask(llm: LLMClient, prompt: Prompt[In, Out], data: In, *, agent: str | None = None) -> Out:
    """Send ``prompt(data)`` and return the validated answer.

    Raises:
        InvalidOutput: the answer did not validate against ``prompt.output`` (even after repair).
        RateLimited, ProviderTimeout, ProviderError: the provider failed after the client's retries.
    """
    completion = llm.complete(prompt(data), operation=prompt.name, schema=prompt.output, temperature=0.0, agent=agent)
    assert completion.parsed is not None  # complete() with a schema always parses or raises
    return completion.parsed


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# -- summarize_and_extract --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PromptMessage:
    """One conversation message as a prompt shows it."""

    seq: int
    role: str
    content: str
    created_at: datetime
    user: str | None = None
    name: str | None = None

    def speaker(self) -> str:
        """How the transcript names the speaker: ``alice (Alice)``, ``alice``, ``assistant`` ..."""
        if self.role != "user":
            return self.name or self.role
        if self.user and self.name and self.name != self.user:
            return f"{self.user} ({self.name})"
        return self.user or self.name or "user"


@dataclass(frozen=True, slots=True)
class KnownFact:
    """A stored fact of one of the batch's users, shown so that the model neither repeats it nor misses
    that a new fact changes it."""

    id: int
    user: str
    content: str


@dataclass(frozen=True, slots=True)
class SummarizeInput:
    """What ``summarize_and_extract`` needs: a batch of a thread's messages and its setting."""

    messages: Sequence[PromptMessage]
    today: date
    previous_summary: str | None = None
    users: Sequence[str] = field(default_factory=tuple)
    """The user keys who wrote in the batch; a fact's ``speaker`` must be one of them."""
    known: Sequence[KnownFact] = field(default_factory=tuple)
    """Facts already stored about those users (their most important and newest)."""


class ExtractedFact(BaseModel):
    """One fact the model found; lenient about style (category, importance), strict about substance."""

    model_config = ConfigDict(extra="ignore")

    category: str = "fact"
    content: str = Field(min_length=1)
    importance: int = 3
    subject: str | None = None
    speaker: str | None = None
    replaces: int | None = None
    """The id of a known fact this one changes or contradicts (checked against the ids shown)."""

    @field_validator("replaces", mode="before")
    @classmethod
    def _replaces(cls, value: Any) -> int | None:
        try:
            number = int(str(value).strip().lstrip("#"))
        except (TypeError, ValueError):
            return None
        return number if number > 0 else None

    @field_validator("content")
    @classmethod
    def _content(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("content must not be blank")
        return _clip(value, MAX_FACT_CHARS)

    @field_validator("category", mode="before")
    @classmethod
    def _category(cls, value: Any) -> str:
        text = str(value or "fact").strip().lower().replace(" ", "_")
        return text if _CATEGORY.match(text) else "other"

    @field_validator("importance", mode="before")
    @classmethod
    def _importance(cls, value: Any) -> int:
        try:
            number = int(float(value))
        except (TypeError, ValueError):
            return 3
        return min(5, max(1, number))

    @field_validator("subject", "speaker", mode="before")
    @classmethod
    def _optional_name(cls, value: Any) -> str | None:
        if value is None:
            return None
        text = str(value).strip()
        return text if text and text.lower() not in ("null", "none", "user", "the user") else None


class SummaryAndFacts(BaseModel):
    """The answer of ``summarize_and_extract`` (seed 004): one summary and the facts stated."""

    model_config = ConfigDict(extra="ignore")

    summary: str = Field(min_length=1)
    facts: list[ExtractedFact] = Field(default_factory=list)

    @field_validator("summary")
    @classmethod
    def _summary(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("summary must not be blank")
        return _clip(value, MAX_SUMMARY_CHARS)


_SUMMARIZE_SYSTEM = """\
You maintain the long-term memory of a chat assistant. You are given a stretch of an earlier \
conversation, oldest message first; each line is "[#seq date] speaker: text".

Produce:
1. "summary": a concise summary (2-5 sentences) of this stretch: who discussed what, decisions, plans, \
open questions and the tone. Name people; write it so it can be read without the transcript.
2. "facts": lasting facts the users stated or clearly implied about themselves or about people and \
things they care about. Only facts a user stated or clearly implied: never speculate, never take facts \
from the assistant's messages, questions, hypotheticals, jokes or quoted speech, never repeat small talk.

For each fact:
- "content": one short third-person sentence that names the person ("Alice lives in Lisbon"), never "I" \
or "the user";
- "category": one of fact, preference, personality, hobby, relationship, milestone, occupation, habit, \
topic, other;
- "importance": 1 (trivia) to 5 (must never be forgotten, e.g. allergies, names of close people);
- "speaker": the user key (before the parentheses) of the user who stated it;
- "subject": null when the fact is about the speaker; otherwise who or what it is about (a user key, a \
name, or a short lowercase-hyphenated topic such as "lisbon-trip");
- "replaces": when "Already known" lists a fact this one changes or contradicts (a new city, job, \
opinion), that fact's id; else null.
Never list a fact "Already known" states, even in other words.

Dates in the conversation are absolute; resolve "tomorrow" or "last week" against the message's date. \
Today is {today}.

Answer with JSON only: {{"summary": "...", "facts": [{{"category": "...", "content": "...", \
"importance": 3, "speaker": "...", "subject": null, "replaces": null}}]}}. Use "facts": [] when nothing \
qualifies."""


def _transcript(messages: Sequence[PromptMessage]) -> str:
    lines = []
    for m in messages:
        text = _clip(m.content, MAX_MESSAGE_CHARS).replace("\n", " ")
        lines.append(f"[#{m.seq} {m.created_at:%Y-%m-%d %H:%M}] {m.speaker()}: {text}")
    return "\n".join(lines)


def _summarize_messages(data: SummarizeInput) -> list[ChatMessage]:
    parts = []
    if data.previous_summary:
        parts.append(f"Summary of what came before (context only, do not repeat it):\n{data.previous_summary}")
    users = ", ".join(data.users) if data.users else "(none identified)"
    parts.append(f"Users in this stretch: {users}")
    if data.known:
        known = "\n".join(f"[id {f.id}] {f.user}: {_clip(f.content, 300)}" for f in data.known)
        parts.append(f'Already known (do not repeat; cite an id in "replaces" when a fact changes):\n{known}')
    parts.append(f"Conversation:\n{_transcript(data.messages)}")
    return [
        ChatMessage.system(_SUMMARIZE_SYSTEM.format(today=data.today.isoformat())),
        ChatMessage.user("\n\n".join(parts)),
    ]


SUMMARIZE_AND_EXTRACT: Prompt[SummarizeInput, SummaryAndFacts] = Prompt(
    "summarize_and_extract", SummaryAndFacts, _summarize_messages
)
"""Seed 004's single call per batch: a rolling summary and the facts stated in it."""


# -- consolidate_fact -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExistingFact:
    """A stored fact shown to the model as a possible match of the new one."""

    id: int
    content: str
    category: str
    valid_from: datetime | None


@dataclass(frozen=True, slots=True)
class ConsolidateInput:
    """A new fact and the nearest facts already stored for the same owner and subject."""

    content: str
    category: str
    existing: Sequence[ExistingFact]
    today: date
    owner: str | None = None
    subject: str | None = None


class ConsolidationDecision(BaseModel):
    """The answer of ``consolidate_fact``. ``target_id`` names one of the existing facts shown."""

    model_config = ConfigDict(extra="ignore")

    action: Literal["ADD", "UPDATE", "DELETE", "NOOP"]
    target_id: int | None = None
    new_content: str | None = None
    reason: str = ""

    @field_validator("action", mode="before")
    @classmethod
    def _action(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("new_content")
    @classmethod
    def _new_content(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        return _clip(value, MAX_FACT_CHARS)


_CONSOLIDATE_SYSTEM = """\
You keep a memory of facts consistent. A new fact was learned; below it are the most similar facts \
already stored about the same person or subject, each with its id and the date it became true. Today is \
{today}.

Decide one action:
- "NOOP": the new fact is already known (same meaning, even if worded differently); target_id = that fact.
- "UPDATE": the new fact replaces an existing one: it contradicts it (a changed value: a new city, job, \
name, opinion) or says the same with more detail. target_id = the replaced fact; new_content = the fact \
as it should now read (default: the new fact). The old fact is kept in the history as no longer valid.
- "DELETE": the new fact only says an existing fact is no longer true, without a replacement value \
("no longer works at X"); target_id = that fact.
- "ADD": the new fact is about something else; it is stored beside the others.

Answer with JSON only: {{"action": "ADD|UPDATE|DELETE|NOOP", "target_id": <id or null>, \
"new_content": <text or null>, "reason": "<short reason>"}}."""


def _consolidate_messages(data: ConsolidateInput) -> list[ChatMessage]:
    about = data.subject or data.owner or "the agent itself"
    existing = [
        {
            "id": fact.id,
            "content": fact.content,
            "category": fact.category,
            "valid_from": fact.valid_from.date().isoformat() if fact.valid_from else None,
        }
        for fact in data.existing
    ]
    body = (
        f"About: {about}\n"
        f"New fact ({data.category}): {data.content}\n"
        f"Existing facts:\n{json.dumps(existing, ensure_ascii=False, indent=1)}"
    )
    return [
        ChatMessage.system(_CONSOLIDATE_SYSTEM.format(today=data.today.isoformat())),
        ChatMessage.user(body),
    ]


CONSOLIDATE_FACT: Prompt[ConsolidateInput, ConsolidationDecision] = Prompt(
    "consolidate_fact", ConsolidationDecision, _consolidate_messages
)
"""ADD / UPDATE / DELETE / NOOP for one new fact against its nearest stored neighbours."""
