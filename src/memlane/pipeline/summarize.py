"""Pipeline step: rolling summaries of long threads, and the facts stated in them (seeds 000, 002, 004).

Every write of messages queues one ``summarize`` job per thread (deduplicated while pending); the job
decides. When a thread holds more than ``settings.summarize_after`` unsummarized messages, the oldest
``settings.summarize_batch`` of them are summarized, never the most recent
``summarize_after - summarize_batch`` (at least one), which stay verbatim for the context window. With
the defaults (30, 20): 31 messages → a summary of seqs 1–20, and 11 messages stay unsummarized.

One batch, one LLM call (``summarize_and_extract``): a summary and the facts the users stated. Without an
LLM the same step is extractive: the most central sentences (:mod:`.extractive`) and the explicit
first-person statements (:mod:`.rules`). The summary's ``method`` and each fact's ``metadata.method``
say which produced them.

Order of writes, per batch: the facts are consolidated first (:mod:`.consolidate`), then the summary
is stored, which marks the batch's messages summarized in the same transaction. The summary is the
commit point: a batch whose summary is not stored is done again, and its facts, already stored, are then
recognised as duplicates. Storing a summary is idempotent per (thread, kind, range), so a job run twice
stores one summary. Messages themselves are never changed, only marked.

When the LLM fails (any :class:`~memlane.errors.ProviderError` after the client's own retries, malformed
output included), the job raises and the worker retries it with backoff; nothing of the batch is
written. On the job's last attempt the batch is summarized extractively instead, so no thread stays
unsummarized for ever; the summary's metadata records why (``fallback``).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput, ProviderError
from ..memory import _fact_text
from ..store import FactFilter
from ..types import Job, Message, Summary
from ..validation import NewJob, NewMessage, NewSummary
from .consolidate import Decision, consolidate
from .extractive import Utterance, extractive_summary
from .prompts import SUMMARIZE_AND_EXTRACT, PromptMessage, SummarizeInput, ask
from .rules import CandidateFact, attribute_of, extract_facts

if TYPE_CHECKING:
    from ..memory import Memory
    from .core import Handler, Pipeline

__all__ = [
    "HANDLERS",
    "JOB_KIND",
    "MAX_BATCHES_PER_RUN",
    "SUMMARY_KIND",
    "BatchResult",
    "after_messages",
    "plan_batch",
    "run",
    "summarize_thread",
]

logger = logging.getLogger("memlane.pipeline.summarize")

JOB_KIND = "summarize"
SUMMARY_KIND = "rolling"
MAX_BATCHES_PER_RUN = 10
"""Batches one job summarizes before handing the rest to a follow-up job (an import of 10,000
messages must not hold one lease for an hour)."""
_NAME_SCAN = 200  # owned facts looked through for a user's name


@dataclass(frozen=True, slots=True)
class _Owned:
    """A candidate fact and the user it belongs to (None: the agent's own memory)."""

    candidate: CandidateFact
    owner: str | None


@dataclass(frozen=True, slots=True)
class _Extraction:
    summary: str
    facts: list[_Owned]
    method: str
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BatchResult:
    """One summarized batch: the summary stored and what became of each fact found in it."""

    summary: Summary
    decisions: list[Decision]


# -- hooks ------------------------------------------------------------------------------------------


def _dedupe_key(agent: str, thread: str) -> str:
    # Dedupe keys are unique across the whole store, so the agent is part of the key.
    return JOB_KIND + ":" + json.dumps([agent, thread], ensure_ascii=False, separators=(",", ":"))


def _job(agent: str, thread: str) -> NewJob:
    return NewJob(JOB_KIND, {"thread": thread}, dedupe_key=_dedupe_key(agent, thread))


def after_messages(pipeline: Pipeline, thread: str, items: Sequence[NewMessage]) -> list[NewJob]:
    """One ``summarize`` job for the thread: cheap to queue, deduplicated while pending; its handler
    decides whether a summary is due."""
    return [_job(pipeline.memory.agent, thread)]


def run(pipeline: Pipeline, job: Job) -> None:
    """The ``summarize`` job: summarize every batch due in the job's thread (up to
    ``MAX_BATCHES_PER_RUN``, then queue a follow-up job).

    Raises:
        InvalidInput: the payload names no thread (retrying cannot help).
        ProviderError: the LLM or the embedder failed, and this was not the job's last attempt.
        StorageError: the database failed.
    """
    thread = job.payload.get("thread")
    if not isinstance(thread, str) or not thread:
        raise InvalidInput(f"summarize job {job.id} has no thread in its payload")
    memory = pipeline.memory
    final = job.attempts >= job.max_attempts
    _, more = _summarize(memory, thread, final_attempt=final, max_batches=MAX_BATCHES_PER_RUN)
    if more:
        memory.store.enqueue_jobs(memory.agent, [_job(memory.agent, thread)], memory._now())


HANDLERS: dict[str, Handler] = {JOB_KIND: run}


# -- planning ---------------------------------------------------------------------------------------


def plan_batch(unsummarized: Sequence[Message], summarize_after: int, batch_size: int) -> list[Message]:
    """The batch to summarize next: empty unless more than ``summarize_after`` messages are unsummarized;
    else the oldest ``batch_size`` of them, stopping at a gap in ``seq`` and never taking the newest
    ``max(1, summarize_after - batch_size)`` (they stay verbatim in the context window)."""
    if len(unsummarized) <= summarize_after:
        return []
    keep = max(1, summarize_after - batch_size)
    take = min(batch_size, len(unsummarized) - keep)
    batch = [unsummarized[0]]
    for message in unsummarized[1:take]:
        if message.seq != batch[-1].seq + 1:
            break  # a range must hold only messages it summarizes
        batch.append(message)
    return batch


def summarize_thread(memory: Memory, thread: str, *, final_attempt: bool = False) -> list[BatchResult]:
    """Summarize every batch due in ``thread`` now (the job's work, callable directly); returns the
    batches stored.

    With ``final_attempt``, LLM or embedder failures fall back to the extractive path instead of raising.

    Raises:
        ProviderError: the LLM or the embedder failed (not with ``final_attempt``); earlier batches stay.
        StorageError: the database failed.
    """
    done, _ = _summarize(memory, thread, final_attempt=final_attempt, max_batches=None)
    return done


def _summarize(
    memory: Memory, thread: str, *, final_attempt: bool, max_batches: int | None
) -> tuple[list[BatchResult], bool]:
    """Summarize due batches; returns them and whether more are due."""
    settings = memory.settings
    done: list[BatchResult] = []
    llm_down: str | None = None  # once the LLM failed on a last attempt, later batches skip it
    while True:
        pending = memory.store.messages(memory.agent, thread, unsummarized_only=True)
        batch = plan_batch(pending, settings.summarize_after, settings.summarize_batch)
        if not batch:
            return done, False
        if max_batches is not None and len(done) >= max_batches:
            return done, True
        extraction = None
        if memory.llm is not None and llm_down is None and any(_readable(m) for m in batch):
            try:
                extraction = _llm_extraction(memory, thread, batch)
            except ProviderError as error:
                if not final_attempt:
                    raise
                llm_down = f"{type(error).__name__}: {' '.join(str(error).split())}"[:300]
                logger.warning(
                    "summarize %s: LLM failed on the last attempt (%s); extractive instead", thread, llm_down
                )
        if extraction is None:
            extraction = _extractive_extraction(memory, batch, final_attempt=final_attempt)
            if llm_down is not None:
                extraction.metadata["fallback"] = llm_down
        result = _store(memory, thread, batch, extraction, final_attempt=final_attempt)
        if result is None:
            return done, False  # another worker summarized this range meanwhile; it carries on
        done.append(result)


# -- the two ways to read a batch -------------------------------------------------------------------


def _readable(m: Message) -> bool:
    """Whether a message is part of the conversation a summary tells (not a tool call or result)."""
    return m.role in ("user", "assistant") and bool(m.content.strip())


def _users(batch: Sequence[Message]) -> list[str]:
    return list(dict.fromkeys(m.user for m in batch if m.role == "user" and m.user))


def _llm_extraction(memory: Memory, thread: str, batch: Sequence[Message]) -> _Extraction:
    """Summary and facts of ``batch`` in one ``summarize_and_extract`` call.

    Raises:
        ProviderError: the call failed, or its answer did not validate (InvalidOutput).
    """
    assert memory.llm is not None
    users = _users(batch)
    names = {m.user: m.name for m in batch if m.user and m.name}
    previous = memory.store.summaries(memory.agent, thread=thread, kind=SUMMARY_KIND, limit=1)
    data = SummarizeInput(
        messages=[PromptMessage(m.seq, m.role, m.content, m.created_at, m.user, m.name) for m in batch if _readable(m)],
        today=memory._now().date(),
        previous_summary=previous[0].content if previous else None,
        users=users,
    )
    answer = ask(memory.llm, SUMMARIZE_AND_EXTRACT, data, agent=memory.agent)
    facts: list[_Owned] = []
    for fact in answer.facts:
        known, owner = _owner_of(fact.speaker, users, names)
        if not known:
            logger.info("summarize %s: dropped a fact no user can be named for: %r", thread, fact.content)
            continue
        candidate = CandidateFact(
            content=fact.content,
            category=fact.category,
            importance=fact.importance,
            subject=_subject_key(fact.subject, owner, names),
            speaker=owner,
        )
        facts.append(_Owned(candidate, owner))
    return _Extraction(answer.summary, facts, "llm", {"model": memory.llm.model})


def _owner_of(speaker: str | None, users: Sequence[str], names: dict[str, str]) -> tuple[bool, str | None]:
    """``(known, owner)``: the user the model named, else the only user of the batch; owner None when the
    batch has no identified user (the agent's own memory); ``known`` False when several users could be
    meant (the fact is dropped rather than given to the wrong person)."""
    if speaker:
        wanted = speaker.strip().lower()
        for user in users:
            if wanted in (user.lower(), names.get(user, "").lower()):
                return True, user
    if len(users) == 1:
        return True, users[0]
    return not users, None


def _subject_key(subject: str | None, owner: str | None, names: dict[str, str]) -> str | None:
    """``subject`` as a key: None when it is the owner, a user key when it names a user, else a slug."""
    if not subject:
        return None
    wanted = subject.strip().lower()
    if owner is not None and wanted in (owner.lower(), names.get(owner, "").lower(), "me", "myself"):
        return None
    for user, name in names.items():
        if wanted in (user.lower(), name.lower()):
            return user
    slug = re.sub(r"[^\w]+", "-", wanted).strip("-")[:64]
    return slug or None


def _extractive_extraction(memory: Memory, batch: Sequence[Message], *, final_attempt: bool) -> _Extraction:
    """Summary by sentence centrality and facts by rules; needs no LLM.

    Raises:
        ProviderError: the embedder failed (not with ``final_attempt``: then TF-IDF is used instead).
    """
    names = _names(memory, batch)
    facts: list[_Owned] = []
    for m in batch:
        if m.role != "user" or not m.content.strip():
            continue
        who = m.name or names.get(m.user or "") or _label(m.user)
        found = extract_facts(m.content, who=who)
        learned = next((c.content.rsplit(" is ", 1)[-1] for c in found if c.attribute == "name"), None)
        if learned and m.user and not m.name and m.user not in names:
            names[m.user] = learned  # "my name is Alice and I live in Lisbon" → "Alice lives in Lisbon"
            found = extract_facts(m.content, who=learned)
        facts.extend(_Owned(replace(c, speaker=m.user, seq=m.seq), m.user) for c in found)
    utterances = [Utterance(_speaker(m, names), m.content) for m in batch if m.role in ("user", "assistant")]
    embedder = memory.embedder
    try:
        embed = None if embedder is None else (lambda texts: embedder.embed(list(texts), "document"))
        summary = extractive_summary(utterances, embed=embed)
    except ProviderError:
        if not final_attempt:
            raise
        summary = extractive_summary(utterances)
    return _Extraction(summary, facts, "extractive", {"facts_by": "rules"})


def _names(memory: Memory, batch: Sequence[Message]) -> dict[str, str]:
    """Display names of the batch's users: given with their messages, else told in earlier facts."""
    names: dict[str, str] = {}
    for m in batch:
        if m.user and m.name:
            names.setdefault(m.user, m.name)
    for user in _users(batch):
        if user not in names:
            stored = _stored_name(memory, user)
            if stored:
                names[user] = stored
    return names


def _speaker(m: Message, names: dict[str, str]) -> str:
    if m.role == "user":
        return m.name or names.get(m.user or "") or _label(m.user)
    return m.name or "Assistant"


def _label(user: str | None) -> str:
    if not user:
        return "The user"
    return user[:1].upper() + user[1:]


def _stored_name(memory: Memory, user: str) -> str | None:
    """The name a user's stored facts give them ("The user's name is Alice" → "Alice"), if any."""
    owned = memory.store.list_facts(memory.agent, FactFilter(user=user, owned_only=True), limit=_NAME_SCAN)
    for fact in owned:
        parsed = attribute_of(fact.content)
        if parsed is not None and parsed[0] == "name" and fact.subject is None:
            return fact.content.rsplit(" is ", 1)[-1].strip().rstrip(".")
    return None


# -- storing ----------------------------------------------------------------------------------------


def _store(
    memory: Memory, thread: str, batch: Sequence[Message], extraction: _Extraction, *, final_attempt: bool
) -> BatchResult | None:
    """Consolidate the facts, then store the summary (the commit point); None if the range was summarized
    by someone else meanwhile.

    Raises:
        ProviderError: embedding failed (not with ``final_attempt``: then nothing is embedded).
    """
    current = memory.store.get_messages(memory.agent, [m.id for m in batch])
    if any(m.summarized for m in current):
        return None
    from_seq, to_seq = batch[0].seq, batch[-1].seq
    texts = [extraction.summary] + [_fact_text(f.candidate.content, f.candidate.subject) for f in extraction.facts]
    try:
        vectors = memory._embed(texts)
    except ProviderError:
        if not final_attempt:
            raise
        logger.warning("summarize %s: embedding failed on the last attempt; storing without vectors", thread)
        vectors = None
    decisions: list[Decision] = []
    for i, owned in enumerate(extraction.facts, start=1):
        source = (owned.candidate.seq, owned.candidate.seq) if owned.candidate.seq is not None else (from_seq, to_seq)
        try:
            decision = consolidate(
                memory,
                owned.candidate,
                owner=owned.owner,
                thread=thread,
                from_seq=source[0],
                to_seq=source[1],
                method="llm" if extraction.method == "llm" else "rules",
                vector=None if vectors is None else vectors[i],
                use_llm=extraction.method == "llm",
            )
        except InvalidInput as error:  # one unusable fact must not sink the batch
            logger.warning("summarize %s: skipped fact %r: %s", thread, owned.candidate.content, error)
            continue
        decisions.append(decision)
    counts: dict[str, int] = {}
    for decision in decisions:
        counts[decision.action] = counts.get(decision.action, 0) + 1
    metadata = {
        **extraction.metadata,
        "method": extraction.method,
        "messages": len(batch),
        "facts": counts,
    }
    summary, _ = memory.store.add_summary(
        memory.agent,
        thread,
        NewSummary(
            kind=SUMMARY_KIND,
            content=extraction.summary,
            from_seq=from_seq,
            to_seq=to_seq,
            owner=None,
            method=extraction.method,
            metadata=metadata,
        ),
        memory._now(),
        vector=None if vectors is None else vectors[0],
        mark_summarized=True,
    )
    return BatchResult(summary, decisions)
