"""Pipeline step: one memory of each ended conversation, at most ``cap`` per agent (seed 001).

``Memory.end(thread)`` queues one ``memory`` job (deduplicated while pending). The job:

1. **creates** one 2–4 sentence memory of the part of the thread no memory covers yet (the whole
   conversation, the first time), with the ``create_memory`` prompt at a low temperature. Without an LLM,
   or when the LLM still fails on the job's last attempt, the memory is extractive: the most central
   sentences (:mod:`.extractive`). Before the last attempt an LLM failure raises, and the worker retries.
   The memory is a summary of kind ``"memory"``, stored with the ended thread and the range of messages it
   covers, ``owner=None`` (memories belong to the agent, not to a user). Storing is idempotent per
   (thread, kind, range), and the next memory of the same thread starts after the last one's range, so a
   retried job never stores a second memory;
2. **compacts**: while the agent holds more than ``cap`` memories (the ``memory_cap`` setting, default 10),
   the newest memory and the others are shown to the ``compact_memories`` prompt, which answers
   ``{action: delete|edit, target, new_content, reason}``. ``delete`` removes the target; ``edit`` rewrites
   the target with ``new_content`` (the newest memory merged into it) and removes the newest. A decision that
   names an id it was not shown, an edit without content or of the newest memory itself, malformed output,
   an error or a timeout fall back to FIFO: the oldest memory is deleted. The count is then verified to
   equal the cap.

Edits keep the memory's creation date (``[Created: …]`` in the context stays true) and record
``updated_at`` in its metadata. The store has no in-place update of a summary yet, so an edit deletes the
target and stores its new text under the same thread and range: a crash between the two loses that one
memory (the count stays within the cap).

Memories are shown by ``context()`` as seed 001 formats them, newest first, in their own budget share.
The two prompts live in :mod:`.memory_prompts`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..errors import InvalidInput, InvalidOutput, NotFound, ProviderError, StorageError
from ..types import Job, Message, Summary
from ..validation import NewJob, NewSummary
from .core import Section
from .extractive import Utterance, extractive_summary
from .memory_prompts import (
    COMPACT_MEMORIES,
    CREATE_MEMORY,
    MAX_MEMORY_CHARS,
    CompactionDecision,
    CompactionInput,
    MemoryInput,
    MemoryItem,
    MemoryText,
    ask_at,
    speaker,
)
from .memory_prompts import MAX_MESSAGE_CHARS as MAX_MESSAGE_CHARS

if TYPE_CHECKING:
    from ..config import Settings
    from ..memory import Memory
    from .core import Pipeline

__all__ = [
    "COMPACT_MEMORIES",
    "CREATE_MEMORY",
    "DEFAULT_CAP",
    "HANDLERS",
    "JOB_KIND",
    "SECTION_TITLE",
    "SUMMARY_KIND",
    "CompactionDecision",
    "CompactionInput",
    "CompactionStep",
    "MemoryInput",
    "MemoryItem",
    "MemoryText",
    "after_end",
    "ask_at",
    "audience_of",
    "compact",
    "context_sections",
    "create_memory",
    "format_memory",
    "list_memories",
    "memory_cap",
    "purge_memories",
    "render_memories",
    "run",
    "visible_memories",
]

logger = logging.getLogger("memlane.pipeline.memories")

JOB_KIND = "memory"
SUMMARY_KIND = "memory"
DEFAULT_CAP = 10
SECTION_TITLE = "Memories from previous conversations"
SECTION_SHARE = 0.1
MEMORY_TEMPERATURE = 0.2
"""Low, not zero: a memory is a paraphrase, and a little freedom reads better; compaction uses 0."""
MAX_LLM_DECISIONS = 3
"""Compaction decisions asked of the LLM per job; beyond (a lowered cap, a backlog) FIFO is used."""
MAX_TRANSCRIPT_MESSAGES = 100
MAX_EARLIER_SUMMARIES = 5


def memory_cap(settings: Settings) -> int:
    """The most memories an agent keeps: the ``memory_cap`` setting, else :data:`DEFAULT_CAP`.

    Raises:
        InvalidInput: the setting is not a positive integer.
    """
    cap = getattr(settings, "memory_cap", DEFAULT_CAP)
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 1:
        raise InvalidInput(f"memory_cap must be a positive integer, not {cap!r}")
    return cap


# -- hooks ------------------------------------------------------------------------------------------


def _dedupe_key(agent: str, thread: str) -> str:
    # Dedupe keys are unique across the whole store, so the agent is part of the key.
    return JOB_KIND + ":" + json.dumps([agent, thread], ensure_ascii=False, separators=(",", ":"))


def after_end(pipeline: Pipeline, thread: str) -> list[NewJob]:
    """One ``memory`` job for the ended thread (deduplicated while pending)."""
    return [NewJob(JOB_KIND, {"thread": thread}, dedupe_key=_dedupe_key(pipeline.memory.agent, thread))]


def run(pipeline: Pipeline, job: Job) -> None:
    """The ``memory`` job: create the memory of the ended thread, then compact the agent's memories.

    Raises:
        InvalidInput: the payload names no thread (retrying cannot help).
        ProviderError: the LLM failed while creating the memory, and this was not the job's last attempt.
        StorageError: the database failed, or compaction did not reach the cap.
    """
    thread = job.payload.get("thread")
    if not isinstance(thread, str) or not thread:
        raise InvalidInput(f"memory job {job.id} has no thread in its payload")
    memory = pipeline.memory
    if memory.store.get_thread(memory.agent, thread) is None:
        logger.info("memory job %s: thread %r is gone; nothing to remember", job.id, thread)
        return
    created = create_memory(memory, thread, final_attempt=job.attempts >= job.max_attempts)
    compact(memory, new_id=None if created is None else created.id)


run.exclusive = True  # type: ignore[attr-defined]  # one job of a thread at a time (see the worker)
HANDLERS: dict[str, Callable[[Pipeline, Job], None]] = {JOB_KIND: run}


def context_sections(pipeline: Pipeline, thread: str, user: str | None, query: str | None) -> list[Section]:
    """The memories ``user`` may see (:func:`visible_memories`) in seed 001's format (``[Created: 2025-10-10]
    …``), newest first."""
    memory = pipeline.memory
    lines = [format_memory(s) for s in visible_memories(memory, user)[: memory_cap(memory.settings)]]
    return [Section(SECTION_TITLE, lines, share=SECTION_SHARE)] if lines else []


def audience_of(s: Summary) -> tuple[str, ...]:
    """Who may see a memory: the users of the conversation it was made from (none: every user of the agent).

    A conversation of one user gives a memory that user owns (``owner``), which the store keeps private
    in every search; one of several users gives an owner-less memory of that thread, which the store
    shows to the thread's users, and whose users are kept in ``metadata["users"]``. A memory made before
    memlane recorded them has neither: :func:`visible_memories` asks its thread, if it still has one.
    """
    if s.owner is not None:
        return (s.owner,)
    users = s.metadata.get("users")
    return tuple(str(u) for u in users) if isinstance(users, list) else ()


def visible_memories(memory: Memory, user: str | None) -> list[Summary]:
    """The memories ``user`` may see, newest first: their own, the agent's, and those of group
    conversations they took part in; without a user, the agent's only."""
    owners: list[str | None] = [None] if user is None else [user, None]
    found = memory.store.summaries(memory.agent, thread=None, kind=SUMMARY_KIND, limit=None, owners=owners)
    threads: dict[str, tuple[str, ...]] = {}

    def audience(s: Summary) -> tuple[str, ...]:
        if "users" in s.metadata or s.owner is not None or s.thread is None:
            return audience_of(s)
        if s.thread not in threads:  # an older memory: the users of its thread
            thread = memory.store.get_thread(memory.agent, s.thread)
            threads[s.thread] = tuple(thread.users) if thread is not None else ()
        return threads[s.thread]

    return [s for s in found if not audience(s) or (user is not None and user in audience(s))]


# -- creating ---------------------------------------------------------------------------------------


def create_memory(memory: Memory, thread: str, *, final_attempt: bool = False) -> Summary | None:
    """Store the memory of the part of ``thread`` no memory covers yet; None when nothing new was said.

    Idempotent: run twice, it stores one memory (the second run finds the range covered).

    Raises:
        ProviderError: the LLM or embedder failed (not with ``final_attempt``: then the memory is extractive).
        StorageError: the database failed.
    """
    store, agent = memory.store, memory.agent
    covered = [s.to_seq for s in store.summaries(agent, thread=thread, kind=SUMMARY_KIND, limit=None) if s.to_seq]
    after = max(covered, default=0)
    messages = [
        m
        for m in store.messages(agent, thread, after_seq=after, limit=MAX_TRANSCRIPT_MESSAGES)
        if m.role in ("user", "assistant") and m.content.strip()
    ]
    if not messages:
        return None
    text, method, metadata = _write(memory, thread, messages, after, final_attempt=final_attempt)
    found = store.get_thread(agent, thread)
    users = sorted(found.users) if found is not None else []
    metadata["users"] = users  # who may see it (see audience_of)
    owner = users[0] if len(users) == 1 else None
    try:
        vectors = memory._embed([text])
    except ProviderError:
        if not final_attempt:
            raise
        vectors = None
    summary, created = store.add_summary(
        agent,
        thread,
        NewSummary(SUMMARY_KIND, text, after + 1, messages[-1].seq, owner, method, metadata),
        memory._now(),
        vector=None if vectors is None else vectors[0],
    )
    if created:
        logger.info("created memory %s for agent %s from thread %s (%s)", summary.id, agent, thread, method)
    return summary


def _write(
    memory: Memory, thread: str, messages: Sequence[Message], after: int, *, final_attempt: bool
) -> tuple[str, str, dict[str, Any]]:
    """The memory's text, how it was made, and its metadata."""
    metadata: dict[str, Any] = {"messages": len(messages)}
    if memory.llm is not None:
        first = messages[0].seq
        earlier = [
            s.content
            for s in reversed(memory.store.summaries(memory.agent, thread=thread, kind="rolling", limit=None))
            if s.to_seq is not None and after < s.to_seq < first
        ][-MAX_EARLIER_SUMMARIES:]
        data = MemoryInput(messages, earlier, memory._now().date())
        try:
            answer = ask_at(memory.llm, CREATE_MEMORY, data, temperature=MEMORY_TEMPERATURE, agent=memory.agent)
            return answer.memory, "llm", {**metadata, "model": memory.llm.model}
        except ProviderError as error:
            if not final_attempt:
                raise
            metadata["fallback"] = f"{type(error).__name__}: {' '.join(str(error).split())}"[:300]
            logger.warning("memory of %s: LLM failed on the last attempt; extractive instead", thread)
    utterances = [Utterance(speaker(m) if m.role == "user" else m.name or "Assistant", m.content) for m in messages]
    text = extractive_summary(utterances, max_chars=MAX_MEMORY_CHARS - 20, max_sentences=4)
    return text, "extractive", metadata


# -- compacting -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CompactionStep:
    """One step of compaction: what was done to which memory, decided how (``llm`` or ``fifo``), and why."""

    action: Literal["delete", "edit"]
    target: int
    method: Literal["llm", "fifo"]
    reason: str


def compact(memory: Memory, cap: int | None = None, *, new_id: int | None = None) -> list[CompactionStep]:
    """Bring the memories of the new memory's audience (:func:`audience_of`: the agent's own, one user's or
    one group's) down to ``cap`` (default :func:`memory_cap`); returns the steps taken.

    ``new_id`` names the memory just created (default: the newest). At most :data:`MAX_LLM_DECISIONS`
    decisions are asked of the LLM; after an LLM failure, and beyond that, FIFO.

    Raises:
        StorageError: the database failed, or the count is still above the cap afterwards.
    """
    limit = memory_cap(memory.settings) if cap is None else cap
    steps: list[CompactionStep] = []
    asks_left = MAX_LLM_DECISIONS if memory.llm is not None else 0
    found = (memory.store.get_summaries(memory.agent, [new_id]) if new_id is not None else []) or list_memories(
        memory, 1
    )
    if not found:
        return steps
    # The cap holds per audience (the agent's own memories, each user's, each group's): a memory is only
    # ever merged with, or makes room among, memories the same people may see. A user's are read alone.
    new = found[0]
    audience = audience_of(new)

    def listed() -> list[Summary]:
        same = memory.store.summaries(memory.agent, thread=None, kind=SUMMARY_KIND, limit=None, owners=[new.owner])
        return [m for m in same if audience_of(m) == audience]

    memories = listed()
    start = len(memories)
    for _ in range(max(0, start - limit) + 3):  # each step removes one; a few spare for concurrent writers
        if len(memories) <= limit:
            break
        newest = next((m for m in memories if m.id == new_id), memories[0])
        step = None
        if asks_left > 0:
            asks_left -= 1
            try:
                step = _llm_step(memory, memories, newest, limit)
            except ProviderError as error:
                asks_left = 0  # a failing LLM is not asked again in this run
                reason = f"{type(error).__name__}: {' '.join(str(error).split())}"[:200]
                logger.warning("compaction of %s: LLM decision unusable (%s); FIFO", memory.agent, reason)
                step = _fifo(memory, memories, f"fallback after {reason}")
        if step is None:
            step = _fifo(memory, memories, "over the cap")
        steps.append(step)
        logger.info("compacted memories of %s: %s memory %s (%s)", memory.agent, step.action, step.target, step.method)
        memories = listed()
    count = len(memories)
    if count > limit:
        raise StorageError(f"compaction left {count} memories for agent {memory.agent!r}, above the cap of {limit}")
    if start > limit and count != limit:
        logger.warning(
            "compaction of %s ended with %d memories, not %d (concurrent deletion)", memory.agent, count, limit
        )
    return steps


def _llm_step(memory: Memory, memories: Sequence[Summary], newest: Summary, cap: int) -> CompactionStep:
    """Ask for a decision, check it against the memories shown, and apply it.

    Raises:
        ProviderError: the call failed; InvalidOutput: the decision is unusable (nothing was changed).
    """
    assert memory.llm is not None
    existing = [_item(m) for m in reversed(memories) if m.id != newest.id]  # oldest first
    data = CompactionInput(existing, _item(newest), cap)
    decision = ask_at(memory.llm, COMPACT_MEMORIES, data, temperature=0.0, agent=memory.agent)
    by_id = {m.id: m for m in memories}
    target = by_id.get(decision.target)
    if target is None:
        raise InvalidOutput(f"compaction decision names memory {decision.target}, which it was not shown")
    reason = decision.reason or "no reason given"
    if decision.action == "delete":
        memory.store.delete_summaries(memory.agent, [target.id])
        return CompactionStep("delete", target.id, "llm", reason)
    if decision.new_content is None:
        raise InvalidOutput("an edit decision needs new_content")
    if target.id == newest.id:
        raise InvalidOutput("an edit must merge the new memory into another one, not edit the new memory")
    _replace(memory, target, decision.new_content, reason)
    memory.store.delete_summaries(memory.agent, [newest.id])
    return CompactionStep("edit", target.id, "llm", reason)


def _item(s: Summary) -> MemoryItem:
    return MemoryItem(s.id, s.created_at.date(), s.content)


def _replace(memory: Memory, target: Summary, content: str, reason: str) -> Summary:
    """Rewrite a memory, keeping its thread, range and creation date (delete, then store again)."""
    try:
        vectors = memory._embed([content])
    except ProviderError:
        vectors = None  # `memlane reindex` embeds it later
    now = memory._now()
    metadata = {**target.metadata, "updated_at": now.isoformat(), "edited": reason[:300]}
    memory.store.delete_summaries(memory.agent, [target.id])
    summary, _ = memory.store.add_summary(
        memory.agent,
        target.thread,
        NewSummary(SUMMARY_KIND, content, target.from_seq, target.to_seq, target.owner, "llm", metadata),
        target.created_at,
        vector=None if vectors is None else vectors[0],
    )
    return summary


def _fifo(memory: Memory, memories: Sequence[Summary], reason: str) -> CompactionStep:
    oldest = min(memories, key=lambda s: (s.created_at, s.id))
    memory.store.delete_summaries(memory.agent, [oldest.id])
    return CompactionStep("delete", oldest.id, "fifo", reason)


# -- reading and admin ------------------------------------------------------------------------------


def list_memories(memory: Memory, limit: int | None = None) -> list[Summary]:
    """The agent's memories, newest first (the admin list, seed 001's ``GET /apps/:appId/memories``)."""
    return memory.store.summaries(memory.agent, thread=None, kind=SUMMARY_KIND, limit=limit)


def purge_memories(memory: Memory, id: int | None = None) -> int:
    """Delete one memory (``id``) or all of the agent's memories; returns how many were deleted.

    Raises:
        NotFound: ``id`` is not a memory of this agent.
    """
    if id is None:
        return memory.store.delete_summaries(memory.agent, [s.id for s in list_memories(memory)])
    found = [s for s in memory.store.get_summaries(memory.agent, [id]) if s.kind == SUMMARY_KIND]
    if not found:
        raise NotFound(f"no memory {id} in agent {memory.agent!r}")
    return memory.store.delete_summaries(memory.agent, [id])


def format_memory(s: Summary) -> str:
    """One memory as seed 001 shows it: ``[Created: 2025-10-10] User prefers meetings after 2pm.``"""
    return f"[Created: {s.created_at:%Y-%m-%d}] {s.content.strip()}"


def render_memories(agent: str, memories: Sequence[Summary]) -> str:
    """Seed 001's whole memory block, for callers that build their own system message."""
    if not memories:
        return ""
    lines = "\n".join(f"{i}. {format_memory(s)}" for i, s in enumerate(memories, start=1))
    return (
        f"(memories for app: {agent})\nThe following are memories from previous conversations with this app:\n\n"
        f"{lines}\n\nUse these memories to provide context-aware responses."
    )
