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
first-person statements (:mod:`.rules`). Both ways of reading a batch live in :mod:`.summarize_read`.
The summary's ``method`` and each fact's ``metadata.method`` say which produced them.

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InvalidInput, ProviderError
from ..texts import fact_text
from ..types import Fact, Job, Message, Summary
from ..validation import NewJob, NewMessage, NewSummary
from .consolidate import Decision, consolidate
from .summarize_read import KNOWN_FACTS as KNOWN_FACTS
from .summarize_read import Extraction, OwnedFact, extractive_extraction, llm_extraction, readable

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
    decides whether a summary is due. None with the ``simple`` strategy (its context shows no summaries)."""
    if pipeline.memory.settings.strategy == "simple":
        return []
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


run.exclusive = True  # type: ignore[attr-defined]  # one job of a thread at a time (see the worker)
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
        if memory.llm is not None and llm_down is None and any(readable(m) for m in batch):
            try:
                extraction = llm_extraction(memory, thread, batch, _latest(memory, thread))
            except ProviderError as error:
                if not final_attempt:
                    raise
                llm_down = f"{type(error).__name__}: {' '.join(str(error).split())}"[:300]
                logger.warning(
                    "summarize %s: LLM failed on the last attempt (%s); extractive instead", thread, llm_down
                )
        if extraction is None:
            extraction = extractive_extraction(memory, batch, final_attempt=final_attempt)
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


# -- storing ----------------------------------------------------------------------------------------


def _store(
    memory: Memory, thread: str, batch: Sequence[Message], extraction: Extraction, *, final_attempt: bool
) -> BatchResult | None:
    """Consolidate the facts, then store the summary (the commit point); None if the range was summarized
    by someone else meanwhile.

    Raises:
        ProviderError: embedding failed (not with ``final_attempt``: then nothing is embedded).
    """
    latest = _latest(memory, thread)
    if latest is not None and latest.to_seq is not None and latest.to_seq >= batch[0].seq:
        return None  # summarized by another worker meanwhile (one row read, not the batch again)
    vectors = _embed_extraction(memory, thread, extraction, final_attempt=final_attempt)
    decisions = _consolidate_facts(memory, thread, batch, extraction, vectors)
    summary = _add_summary(memory, thread, batch, extraction, decisions, vectors)
    return BatchResult(summary, decisions)


def _embed_extraction(memory: Memory, thread: str, extraction: Extraction, *, final_attempt: bool) -> np.ndarray | None:
    """Embeddings of the summary (row 0) and of each fact (rows 1..), or None without vectors.

    Raises:
        ProviderError: embedding failed (not with ``final_attempt``: then None).
    """
    texts = [extraction.summary] + [fact_text(f.candidate.content, f.candidate.subject) for f in extraction.facts]
    try:
        return memory._embed(texts)
    except ProviderError:
        if not final_attempt:
            raise
        logger.warning("summarize %s: embedding failed on the last attempt; storing without vectors", thread)
        return None


def _consolidate_facts(
    memory: Memory, thread: str, batch: Sequence[Message], extraction: Extraction, vectors: np.ndarray | None
) -> list[Decision]:
    """Consolidate the extracted facts in order; a fact that is invalid is logged and skipped."""
    decisions: list[Decision] = []
    shown = set(extraction.shown)
    pools = {user: list(facts) for user, facts in extraction.pools.items()}
    for i, owned in enumerate(extraction.facts, start=1):
        vector = None if vectors is None else vectors[i]
        try:
            decision = _consolidate_one(memory, thread, batch, extraction, owned, vector, shown, pools)
        except InvalidInput as error:  # one unusable fact must not sink the batch
            logger.warning("summarize %s: skipped fact %r: %s", thread, owned.candidate.content, error)
            continue
        decisions.append(decision)
        _note_decision(decision, owned, extraction.method, shown, pools)
    return decisions


def _consolidate_one(
    memory: Memory,
    thread: str,
    batch: Sequence[Message],
    extraction: Extraction,
    owned: OwnedFact,
    vector: np.ndarray | None,
    shown: set[int],
    pools: dict[str, list[Fact]],
) -> Decision:
    """Consolidate one fact, its provenance the message it came from (else the whole batch).

    Raises:
        InvalidInput: the fact's content, category or importance is invalid.
    """
    seq = owned.candidate.seq
    source = (seq, seq) if seq is not None else (batch[0].seq, batch[-1].seq)
    return consolidate(
        memory,
        owned.candidate,
        owner=owned.owner,
        thread=thread,
        from_seq=source[0],
        to_seq=source[1],
        method="llm" if extraction.method == "llm" else "rules",
        visibility=memory.settings.fact_visibility,
        vector=vector,
        # A second call only for a user with more facts than the extraction could weigh: their
        # most relevant were shown; the rest of a short list differ enough to be judged by words.
        use_llm=extraction.method == "llm" and owned.owner not in extraction.pools,
        replaces=owned.replaces,
        shown=shown,
        pool=pools.get(owned.owner) if owned.owner is not None else None,
    )


def _note_decision(
    decision: Decision, owned: OwnedFact, method: str, shown: set[int], pools: dict[str, list[Fact]]
) -> None:
    """Keep ``shown`` and ``pools`` true for the batch's next facts after ``decision``."""
    if decision.fact is not None and method == "llm":
        shown.add(decision.fact.id)  # the model wrote this batch's facts together: none is news to it
    if owned.owner in pools:
        if decision.action == "ADD" and decision.fact is not None:
            pools[owned.owner].append(decision.fact)
        elif decision.action != "NOOP" or decision.decided_by == "attribute":
            del pools[owned.owner]  # facts were superseded: search the store again from here on


def _add_summary(
    memory: Memory,
    thread: str,
    batch: Sequence[Message],
    extraction: Extraction,
    decisions: Sequence[Decision],
    vectors: np.ndarray | None,
) -> Summary:
    """Store the batch's summary, marking its messages summarized (the commit point)."""
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
            from_seq=batch[0].seq,
            to_seq=batch[-1].seq,
            owner=None,
            method=extraction.method,
            metadata=metadata,
        ),
        memory._now(),
        vector=None if vectors is None else vectors[0],
        mark_summarized=True,
    )
    return summary
