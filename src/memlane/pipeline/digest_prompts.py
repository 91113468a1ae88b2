"""The prompts of :mod:`.digests`: daily summaries of a thread-day, the history of days 2-7, the 3-way merge.

Each prompt is a function of a typed input returning messages, next to the pydantic model of its answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..llm import ChatMessage
from ..types import Message
from .prompts import Prompt

__all__ = [
    "DAILY_SUMMARIES",
    "HISTORY_SUMMARY",
    "MAX_CONTEXT_CHARS",
    "MAX_DAY_MESSAGES",
    "MAX_MESSAGE_CHARS",
    "MAX_SUMMARY_CHARS",
    "MERGE_CONTEXT",
    "DailyInput",
    "DailySummaries",
    "HistoryInput",
    "MergeInput",
    "MergedContext",
    "SummaryText",
]

MAX_DAY_MESSAGES = 300
MAX_MESSAGE_CHARS = 500
MAX_SUMMARY_CHARS = 800
MAX_CONTEXT_CHARS = 1500


@dataclass(frozen=True, slots=True)
class DailyInput:
    """One thread's messages of one day, and the users active in it (key → display name)."""

    thread: str
    day: date
    messages: Sequence[Message]
    users: dict[str, str]


def _summary_text(value: str) -> str:
    text = " ".join(value.split())
    if not text:
        raise ValueError("a summary must not be blank")
    return text if len(text) <= MAX_SUMMARY_CHARS else text[: MAX_SUMMARY_CHARS - 1].rstrip() + "…"


class DailySummaries(BaseModel):
    """The answer of ``daily_summaries``: user key → that user's summary of the day."""

    model_config = ConfigDict(extra="ignore")

    summaries: dict[str, str] = Field(min_length=1)

    @field_validator("summaries")
    @classmethod
    def _summaries(cls, value: dict[str, str]) -> dict[str, str]:
        return {k.strip(): _summary_text(v) for k, v in value.items() if k.strip() and v.strip()}


_DAILY_SYSTEM = """\
You summarize one day of a group conversation for a chat assistant's memory. The lines are \
"[time] speaker: text", oldest first. For EACH listed user, write a concise third-person summary (at most \
300 characters) of their day in this conversation: notable events or experiences they mentioned, their \
mood, the topics they discussed and with whom, behaviour they showed, and what others revealed about them.

Answer with JSON only: {{"summaries": {{"<user key>": "<summary>", ...}}}}, one entry per listed user, \
keyed by the user key exactly as listed."""


def _daily_messages(data: DailyInput) -> list[ChatMessage]:
    users = "\n".join(
        f"- {key}" + ("" if _same(key, name) else f" (shown as {name})") for key, name in data.users.items()
    )
    lines = "\n".join(
        f"[{m.created_at:%H:%M}] {_speaker(m)}: {_clip(m.content, MAX_MESSAGE_CHARS)}"
        for m in data.messages[-MAX_DAY_MESSAGES:]
    )
    body = f"Conversation: {data.thread}\nDate: {data.day.isoformat()}\nUsers:\n{users}\n\nMessages:\n{lines}"
    return [ChatMessage.system(_DAILY_SYSTEM), ChatMessage.user(body)]


DAILY_SUMMARIES: Prompt[DailyInput, DailySummaries] = Prompt("daily_summaries", DailySummaries, _daily_messages)
"""One call per thread-day: a summary for every user active in it."""


@dataclass(frozen=True, slots=True)
class HistoryInput:
    """A user's daily summaries of days 2-7, oldest first."""

    user: str
    days: Sequence[tuple[date, str]]


class SummaryText(BaseModel):
    """The answer of ``history_summary``."""

    model_config = ConfigDict(extra="ignore")

    summary: str

    @field_validator("summary")
    @classmethod
    def _summary(cls, value: str) -> str:
        return _summary_text(value)


_HISTORY_SYSTEM = """\
You are given one person's daily summaries of the last days, oldest first. Write one coherent \
third-person summary (at most 500 characters) of that period: recurring patterns and themes, mood \
trends, significant events or changes in behaviour, and what their consistent behaviour says about them.

Answer with JSON only: {"summary": "..."}"""


def _history_messages(data: HistoryInput) -> list[ChatMessage]:
    days = "\n".join(f"- {day.isoformat()}: {text}" for day, text in data.days)
    first, last = data.days[0][0], data.days[-1][0]
    body = f"Person (user key): {data.user}\nPeriod: {first.isoformat()} to {last.isoformat()}\n\n{days}"
    return [ChatMessage.system(_HISTORY_SYSTEM), ChatMessage.user(body)]


HISTORY_SUMMARY: Prompt[HistoryInput, SummaryText] = Prompt("history_summary", SummaryText, _history_messages)
"""Days 2-7 of one user, in one summary."""


@dataclass(frozen=True, slots=True)
class MergeInput:
    """The three parts of a digest (any may be empty)."""

    user: str
    profile: str
    today: str
    history: str


class MergedContext(BaseModel):
    """The answer of ``merge_context``."""

    model_config = ConfigDict(extra="ignore")

    context: str

    @field_validator("context")
    @classmethod
    def _context(cls, value: str) -> str:
        text = value.strip()
        if not text:
            raise ValueError("context must not be blank")
        return text if len(text) <= MAX_CONTEXT_CHARS else text[: MAX_CONTEXT_CHARS - 1].rstrip() + "…"


_MERGE_SYSTEM = """\
Merge what a chat assistant knows about one person into a single short third-person text (at most 800 \
characters) it can use to personalise its answers. The sources are: their profile (facts; the most \
reliable), a summary of today and a summary of the previous days. Prioritise facts for accuracy, balance \
today's observations with the longer patterns, and resolve conflicts in favour of the facts.

Answer with JSON only: {"context": "..."}"""


def _merge_messages(data: MergeInput) -> list[ChatMessage]:
    body = (
        f"Person (user key): {data.user}\n\n<profile>\n{data.profile or '(none)'}\n</profile>\n\n"
        f"<today>\n{data.today or '(none)'}\n</today>\n\n<history>\n{data.history or '(none)'}\n</history>"
    )
    return [ChatMessage.system(_MERGE_SYSTEM), ChatMessage.user(body)]


MERGE_CONTEXT: Prompt[MergeInput, MergedContext] = Prompt("merge_context", MergedContext, _merge_messages)
"""Seed 003's 3-way merge: profile + today + history."""


def _same(key: str, name: str) -> bool:
    return key.lower() == name.lower()


def _speaker(m: Message) -> str:
    if m.role != "user":
        return m.name or m.role
    if m.user and m.name:
        return m.name if _same(m.user, m.name) else f"{m.user} ({m.name})"
    return m.user or m.name or "user"


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
