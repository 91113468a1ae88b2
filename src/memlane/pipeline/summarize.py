"""Pipeline step: rolling summaries of long threads, and the facts stated in them (seeds 000, 002, 004).

Every write of messages queues one ``summarize`` job per thread (deduplicated while pending); the job
decides. When a thread holds more than ``settings.summarize_after`` unsummarized messages, the oldest
``settings.summarize_batch`` of them are summarized, never the most recent
``summarize_after - summarize_batch`` (at least one), which stay verbatim for the context window. With
the defaults (30, 20): 31 messages → a summary of seqs 1–20, and 11 messages stay unsummarized.

One batch, one LLM call (``summarize_and_extract``): a summary and the facts the users stated. The call is
shown up to ``KNOWN_FACTS`` stored facts of each user (those sharing most words with the batch), so it
repeats none and names the one a new fact replaces; consolidation then needs no LLM call of its own, except
for a user with more facts than could be weighed (``_KNOWN_SCAN``). Without an
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
from ..types import Fact, Job, Message, Summary
from ..validation import NewJob, NewMessage, NewSummary
from .consolidate import Decision, consolidate
from .extractive import Utterance, content_terms, extractive_summary, term_set
from .prompts import SUMMARIZE_AND_EXTRACT, KnownFact, PromptMessage, SummarizeInput, ask
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
_KNOWN_SCAN = 3 * 20  # owned facts (most important, newest) ranked for KNOWN_FACTS
KNOWN_FACTS = 20
"""Stored facts per user shown to ``summarize_and_extract``, so that it neither repeats them nor needs a
``consolidate_fact`` call per new fact to say which one it changes (one LLM call per batch, seed 004)."""


@dataclass(frozen=True, slots=True)
class _Owned:
    """A candidate fact and the user it belongs to (None: the agent's own memory)."""

    candidate: CandidateFact
    owner: str | None
    replaces: int | None = None


@dataclass(frozen=True, slots=True)
class _Extraction:
    summary: str
    facts: list[_Owned]
    method: str
    metadata: dict[str, Any] = field(default_factory=dict)
    shown: frozenset[int] = frozenset()
    """Ids of the stored facts the LLM saw while extracting: consolidation does not ask about them again."""
    pools: dict[str, list[Fact]] = field(default_factory=dict)
    """Every active fact of a user, where fewer than ``_KNOWN_SCAN`` were found: consolidation compares
    candidates with these instead of searching the store again."""


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
    # Read once: each stored batch is dropped from the list. Messages written meanwhile queue a job of
    # their own, which picks them up.
    pending = memory.store.messages(memory.agent, thread, unsummarized_only=True)
    while True:
        batch = plan_batch(pending, settings.summarize_after, settings.summarize_batch)
        if not batch:
            return done, False
        if max_batches is not None and len(done) >= max_batches:
            return done, True
        extraction = None
        if memory.llm is not None and llm_down is None and any(_readable(m) for m in batch):
            try:
                extraction = _llm_extraction(memory, thread, batch, _latest(memory, thread))
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
        pending = pending[len(batch) :]


def _latest(memory: Memory, thread: str) -> Summary | None:
    """The thread's newest rolling summary (ranges only grow, so it ends where summarizing stopped)."""
    found = memory.store.summaries(memory.agent, thread=thread, kind=SUMMARY_KIND, limit=1)
    return found[0] if found else None


# -- the two ways to read a batch -------------------------------------------------------------------


def _readable(m: Message) -> bool:
    """Whether a message is part of the conversation a summary tells (not a tool call or result)."""
    return m.role in ("user", "assistant") and bool(m.content.strip())


def _users(batch: Sequence[Message]) -> list[str]:
    return list(dict.fromkeys(m.user for m in batch if m.role == "user" and m.user))


def _llm_extraction(memory: Memory, thread: str, batch: Sequence[Message], previous: Summary | None) -> _Extraction:
    """Summary and facts of ``batch`` in one ``summarize_and_extract`` call.

    Raises:
        ProviderError: the call failed, or its answer did not validate (InvalidOutput).
    """
    assert memory.llm is not None
    users = _users(batch)
    names = {m.user: m.name for m in batch if m.user and m.name}
    known, pools = _known_facts(memory, users, batch)
    data = SummarizeInput(
        messages=[PromptMessage(m.seq, m.role, m.content, m.created_at, m.user, m.name) for m in batch if _readable(m)],
        today=memory._now().date(),
        previous_summary=previous.content if previous is not None else None,
        users=users,
        known=known,
    )
    answer = ask(memory.llm, SUMMARIZE_AND_EXTRACT, data, agent=memory.agent)
    shown = frozenset(f.id for f in known)
    facts: list[_Owned] = []
    for fact in answer.facts:
        named, owner = _owner_of(fact.speaker, users, names)
        if not named:
            logger.info("summarize %s: dropped a fact no user can be named for: %r", thread, fact.content)
            continue
        candidate = CandidateFact(
            content=fact.content,
            category=fact.category,
            importance=fact.importance,
            subject=_subject_key(fact.subject, owner, names),
            speaker=owner,
        )
        facts.append(_Owned(candidate, owner, fact.replaces if fact.replaces in shown else None))
    return _Extraction(answer.summary, facts, "llm", {"model": memory.llm.model}, shown, pools)


def _known_facts(
    memory: Memory, users: Sequence[str], batch: Sequence[Message]
) -> tuple[list[KnownFact], dict[str, list[Fact]]]:
    """Up to ``KNOWN_FACTS`` active facts of each of the batch's users (those sharing the most words with
    the batch, then the most important and newest), and each user's complete list of active facts when
    it is short (see ``_Extraction.pools``)."""
    if not users:
        return [], {}
    words: frozenset[str] | None = None
    known: list[KnownFact] = []
    pools: dict[str, list[Fact]] = {}
    for user in users:
        owned = memory.store.list_facts(memory.agent, FactFilter(user=user, owned_only=True), limit=_KNOWN_SCAN)
        if len(owned) < _KNOWN_SCAN:
            pools[user] = list(owned)
        if len(owned) > KNOWN_FACTS:  # sorted() is stable: ties keep the store's importance/recency order
            if words is None:
                words = frozenset(content_terms(" ".join(m.content for m in batch)))
            batch_words = words
            owned = sorted(owned, key=lambda f: -len(batch_words & term_set(f.content)))[:KNOWN_FACTS]
        known.extend(KnownFact(f.id, user, f.content) for f in owned)
    return known, pools


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
    latest = _latest(memory, thread)
    if latest is not None and latest.to_seq is not None and latest.to_seq >= batch[0].seq:
        return None  # summarized by another worker meanwhile (one row read, not the batch again)
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
    shown = set(extraction.shown)
    pools = {user: list(facts) for user, facts in extraction.pools.items()}
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
                # A second call only for a user with more facts than the extraction could weigh: their
                # most relevant were shown; the rest of a short list differ enough to be judged by words.
                use_llm=extraction.method == "llm" and owned.owner not in extraction.pools,
                replaces=owned.replaces,
                shown=shown,
                pool=pools.get(owned.owner) if owned.owner is not None else None,
            )
        except InvalidInput as error:  # one unusable fact must not sink the batch
            logger.warning("summarize %s: skipped fact %r: %s", thread, owned.candidate.content, error)
            continue
        decisions.append(decision)
        if decision.fact is not None and extraction.method == "llm":
            shown.add(decision.fact.id)  # the model wrote this batch's facts together: none is news to it
        if owned.owner in pools:
            if decision.action == "ADD" and decision.fact is not None:
                pools[owned.owner].append(decision.fact)
            elif decision.action != "NOOP" or decision.decided_by == "attribute":
                del pools[owned.owner]  # facts were superseded: search the store again from here on
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
