"""Digests: what the agent knows about a user right now, from their profile and their last 7 days (seed 003).

:func:`digest_for` merges three parts::

    profile        the user's profile (:mod:`.profile`): the facts, permanent
    today          what the user did today, from today's daily summaries of each thread they wrote in
    history        one summary of days 2-7 (yesterday and the 5 days before), from those days' summaries

A **daily summary** covers one thread on one (UTC) day and every user active in it that day: one
``daily_summaries`` call answers a map user → summary, cached for all of them. Past days are immutable,
so their maps are kept in an LRU cache keyed by (store, agent, thread, date) and never recomputed; today's
map is cached under the current hour (store, agent, thread, date, hour) for one hour, so it is refreshed
at most hourly. The **history** (``history_summary``) is cached in an LRU keyed by its end date and a hash
of its inputs; the **merge** (``merge_context``) in an LRU keyed by hashes of its three inputs. Every LLM
call here runs at temperature 0; the three prompts are in :mod:`.digest_prompts`.

**Failures never reach the caller.** Once a call fails (error, timeout, malformed output), no further call
is made in that digest, nothing failed is cached, and the parts are returned as they exist, in the order
profile → today → history: today and history then come from the extractive summarizer
(:mod:`.extractive`, a few central sentences of the user's own messages per thread-day; history as one
dated line per day). Without an LLM that is always the case. With only a profile, no call is made.

**Caches are in-process** (:mod:`.digest_cache`: plain dicts behind a lock, :class:`TTLCache` /
:class:`LRUCache`: cachetools is not a dependency), shared by every ``Memory`` of the process and keyed by
the store's location and the agent; :func:`clear_caches` empties them. Each process computes its own.

**context()** never calls the LLM for this: :func:`context_sections` shows the digest last computed for
the user if it is from the current hour and their profile has not changed since, else the profile. Call
:func:`digest_for` (e.g. before answering, or from a periodic task) to compute and cache it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING

from ..errors import InvalidOutput, MemlaneError, ProviderError
from ..types import Message
from ..validation import check_key
from .core import Section
from .digest_cache import (
    CACHES,
    DayKey,
    DigestCaches,
    LRUCache,
    TTLCache,
    clear_caches,
    hour_bucket,
)
from .digest_cache import TODAY_TTL as TODAY_TTL
from .digest_cache import short_hash as _hash
from .digest_prompts import (
    DAILY_SUMMARIES,
    HISTORY_SUMMARY,
    MERGE_CONTEXT,
    DailyInput,
    DailySummaries,
    HistoryInput,
    MergedContext,
    MergeInput,
    SummaryText,
)
from .digest_prompts import MAX_CONTEXT_CHARS as MAX_CONTEXT_CHARS
from .digest_prompts import MAX_DAY_MESSAGES as MAX_DAY_MESSAGES
from .digest_prompts import MAX_MESSAGE_CHARS as MAX_MESSAGE_CHARS
from .digest_prompts import MAX_SUMMARY_CHARS as MAX_SUMMARY_CHARS
from .extractive import Utterance, extractive_summary, split_sentences
from .profile import ProfileView, merged_view, profile_of, read_profile
from .prompts import ask

if TYPE_CHECKING:
    from ..memory import Memory
    from .core import Pipeline

__all__ = [
    "CACHES",
    "DAILY_SUMMARIES",
    "HISTORY_SUMMARY",
    "MERGE_CONTEXT",
    "DailyInput",
    "DailySummaries",
    "DigestCaches",
    "HistoryInput",
    "LRUCache",
    "MergeInput",
    "MergedContext",
    "SummaryText",
    "TTLCache",
    "cached_digest",
    "clear_caches",
    "context_sections",
    "digest_for",
    "hour_bucket",
]

logger = logging.getLogger("memlane.pipeline.digests")

WINDOW_DAYS = 7
SECTION_SHARE = 0.15
_PAGE = 500
_LONG_LINE = 240


# -- computing --------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Run:
    """One digest computation: its clock, and the first LLM failure (after which no call is made)."""

    memory: Memory
    now: datetime
    failure: str | None = None

    @property
    def llm_ok(self) -> bool:
        return self.memory.llm is not None and self.failure is None

    def failed(self, what: str, error: ProviderError) -> None:
        self.failure = f"{what}: {type(error).__name__}: {' '.join(str(error).split())}"[:300]
        logger.warning("digest of agent %s: %s; returning what exists", self.memory.agent, self.failure)


def digest_for(memory: Memory, user: str, now: datetime | None = None) -> str:
    """What the agent knows about ``user`` now: profile, today and days 2-7 merged (see the module doc);
    ``""`` when nothing is known. Never raises for an LLM or storage failure: returns what exists.

    Raises:
        InvalidInput: ``user`` is not a valid key.
    """
    key = check_key(user, "user")
    run = _Run(memory, (now or memory._now()).astimezone(UTC))
    try:
        view = read_profile(memory, key)
    except MemlaneError as error:
        logger.warning("digest of %s: profile unreadable (%s)", key, error)
        view = ProfileView(None, False)
    profile = view.text or ""
    try:
        today, history = _transient(run, key)
    except MemlaneError as error:
        logger.warning("digest of %s: recent days unreadable (%s)", key, error)
        today, history = "", ""
    digest, merged = _merge(run, key, profile, today, history)
    # For context(): a digest not merged by the LLM is shown without a bare bullet list of the facts (the
    # facts section lists those already).
    section = digest if merged else _join(profile if view.merged else "", today, history)
    CACHES.latest.set(
        (memory.store.location, memory.agent, key), (hour_bucket(run.now), _hash(profile), digest, section), run.now
    )
    return digest


def _latest(memory: Memory, user: str, now: datetime | None, profile: str | None) -> tuple[str, str] | None:
    """(digest, its context text) computed for ``user`` this hour, if their profile is still ``profile``."""
    at = (now or memory._now()).astimezone(UTC)
    entry = CACHES.latest.get((memory.store.location, memory.agent, user), at)
    if entry is None or entry[0] != hour_bucket(at) or entry[1] != _hash(profile or ""):
        return None
    return entry[2], entry[3]


def cached_digest(memory: Memory, user: str, now: datetime | None = None) -> str | None:
    """The digest :func:`digest_for` computed for ``user`` in the current hour, if their profile has not
    changed since; else None. No LLM call."""
    found = _latest(memory, user, now, profile_of(memory, user))
    return None if found is None else found[0]


def _transient(run: _Run, user: str) -> tuple[str, str]:
    """Today's summary and the history of days 2-7 of ``user``, over every thread they wrote in."""
    memory = run.memory
    today = run.now.date()
    start = datetime.combine(today - timedelta(days=WINDOW_DAYS - 1), time.min, tzinfo=UTC)
    threads = memory.store.list_threads(memory.agent, user=user, status=None, limit=None, offset=0)
    per_day: dict[date, list[tuple[str, str]]] = {}
    for thread in threads:
        if thread.updated_at < start:
            continue
        by_day: dict[date, list[Message]] = {}
        for m in _window(memory, thread.key, start):
            by_day.setdefault(m.created_at.astimezone(UTC).date(), []).append(m)
        for day, messages in sorted(by_day.items()):
            if day > today or not any(m.role == "user" and m.user == user for m in messages):
                continue
            summary = _day_map(run, thread.key, day, messages).get(user)
            if summary:
                per_day.setdefault(day, []).append((thread.key, summary))
    today_text = _join_threads(per_day.pop(today, []))
    past = [(day, _join_threads(items)) for day, items in sorted(per_day.items())]
    return today_text, _history(run, user, past)


def _window(memory: Memory, thread: str, start: datetime) -> list[Message]:
    """The thread's user and assistant messages since ``start``, oldest first (read newest page first)."""
    found: list[Message] = []
    before: int | None = None
    while True:
        page = memory.store.messages(memory.agent, thread, limit=_PAGE, before_seq=before)
        found[:0] = [m for m in page if m.created_at >= start]
        if len(page) < _PAGE or page[0].created_at < start:
            break
        before = page[0].seq
    return [m for m in found if m.role in ("user", "assistant") and m.content.strip()]


def _day_map(run: _Run, thread: str, day: date, messages: Sequence[Message]) -> dict[str, str]:
    """user → summary of one thread-day: cached, else one LLM call, else extractive (not cached)."""
    memory = run.memory
    base: DayKey = (memory.store.location, memory.agent, thread, day.isoformat())
    is_today = day == run.now.date()
    cached = CACHES.today.get((*base, hour_bucket(run.now)), run.now) if is_today else CACHES.days.get(base)
    if cached is not None:
        return cached
    users = {m.user: m.name or m.user for m in messages if m.role == "user" and m.user}
    if run.llm_ok:
        assert memory.llm is not None
        try:
            answer = ask(memory.llm, DAILY_SUMMARIES, DailyInput(thread, day, messages, users), agent=memory.agent)
            result = _known_users(answer.summaries, users)
        except ProviderError as error:
            run.failed(f"daily summaries of {thread} on {day}", error)
        else:
            if is_today:
                CACHES.today.set((*base, hour_bucket(run.now)), result, run.now)
            else:
                CACHES.days.set(base, result)
            return result
    return _extractive_map(messages, users)


def _known_users(answer: dict[str, str], users: dict[str, str]) -> dict[str, str]:
    """The answer's entries for the listed users (matched by key or display name, any case).

    Raises:
        InvalidOutput: no entry names a listed user.
    """
    names = {key.lower(): key for key in users} | {name.lower(): key for key, name in users.items()}
    result = {names[k.lower()]: v for k, v in answer.items() if k.lower() in names}
    if not result:
        raise InvalidOutput(f"daily summaries name none of the users {sorted(users)}: {sorted(answer)}")
    return result


def _extractive_map(messages: Sequence[Message], users: dict[str, str]) -> dict[str, str]:
    result = {}
    for key, name in users.items():
        said = [Utterance(name, m.content) for m in messages if m.role == "user" and m.user == key]
        if said:
            result[key] = extractive_summary(said, max_chars=300, max_sentences=2)
    return result


def _join_threads(items: Sequence[tuple[str, str]]) -> str:
    if len(items) == 1:
        return items[0][1]
    return " ".join(f"In {thread}: {text}" for thread, text in items)


def _history(run: _Run, user: str, past: Sequence[tuple[date, str]]) -> str:
    """One summary of the past days: cached, else one LLM call, else one dated line per day."""
    if not past:
        return ""
    memory = run.memory
    end = (run.now.date() - timedelta(days=1)).isoformat()
    key = (memory.store.location, memory.agent, user, end, _hash(json.dumps([[d.isoformat(), t] for d, t in past])))
    cached = CACHES.history.get(key)
    if cached is not None:
        return cached
    if run.llm_ok:
        assert memory.llm is not None
        try:
            text = ask(memory.llm, HISTORY_SUMMARY, HistoryInput(user, past), agent=memory.agent).summary
        except ProviderError as error:
            run.failed(f"history of {user}", error)
        else:
            CACHES.history.set(key, text)
            return text
    return "\n".join(f"{day.isoformat()}: {text}" for day, text in past)


def _merge(run: _Run, user: str, profile: str, today: str, history: str) -> tuple[str, bool]:
    """The 3-way merge and whether the LLM made it: cached, else one LLM call, else the parts joined."""
    if not today and not history:
        return profile, False  # nothing to merge: no call
    memory = run.memory
    key = (memory.store.location, memory.agent, user, _hash(profile), _hash(today), _hash(history))
    cached = CACHES.merged.get(key)
    if cached is not None:
        return cached, True
    if run.llm_ok:
        assert memory.llm is not None
        try:
            text = ask(memory.llm, MERGE_CONTEXT, MergeInput(user, profile, today, history), agent=memory.agent).context
        except ProviderError as error:
            run.failed(f"merge for {user}", error)
        else:
            CACHES.merged.set(key, text)
            return text, True
    return _join(profile, today, history), False


def _join(profile: str, today: str, history: str) -> str:
    """The parts that exist, in the order profile → today → history (facts are the most reliable)."""
    parts = [profile, f"Today: {today}" if today else "", f"Earlier this week:\n{history}" if history else ""]
    return "\n".join(part for part in parts if part)


# -- context ----------------------------------------------------------------------------------------


def context_sections(pipeline: Pipeline, thread: str, user: str | None, query: str | None) -> list[Section]:
    """The viewer's section "What you know about <user>": the digest cached this hour, else the profile an
    LLM merged. Nothing for an anonymous viewer, and nothing when the profile is only the bullet list of the
    facts (the "Remembered facts" section already lists them). No LLM call."""
    if user is None:
        return []
    memory = pipeline.memory
    if CACHES.latest.get((memory.store.location, memory.agent, user), memory._now()) is None:
        # No digest this hour: only an LLM-merged profile is shown, and reading one needs no fact list.
        merged = merged_view(memory, user)
        lines = _lines(merged.text or "") if merged is not None and merged.merged else []
        return [Section(f"What you know about {user}", lines, share=SECTION_SHARE)] if lines else []
    view = read_profile(memory, user)
    found = _latest(memory, user, None, view.text)
    shown = view.text if view.merged else None
    lines = _lines((found[1] if found is not None else shown) or "")
    return [Section(f"What you know about {user}", lines, share=SECTION_SHARE)] if lines else []


def _lines(text: str) -> list[str]:
    """Lines stay lines, bullets lose their dash; a long paragraph is split into sentences (so a tight
    budget drops sentences, not the whole paragraph)."""
    lines: list[str] = []
    for raw in text.splitlines():
        line = raw.strip().removeprefix("- ").strip()
        lines.extend(split_sentences(line) if len(line) > _LONG_LINE else [line])
    return [line for line in lines if line]
