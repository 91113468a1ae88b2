"""Copy a whole store into another one (SQLite → PostgreSQL, or back) and prove the copy is the same.

Everything goes through the storage contract, so any two backends work. Per agent::

    export (source)  ──►  checked records, in chunks of whole threads  ──►  import (destination)
          │                                                                        │
          └── sha256 of the export lines, record counts          export again ─────┘ same sha256? same counts?

The checksum is the sha256 of the agent's JSON Lines export exactly as ``memlane --agent A export -`` prints
it (header line included), so anyone can check a copy with ``sha256sum``. The store's own row counts
(threads, messages, facts, summaries) are compared too, so the check does not rest on the export code only.

What is copied: every thread (status, system prompt, metadata), message (with its sequence number, token
count, ``summarized`` flag and times), summary, fact (with its history, including forgotten facts whose
history is kept), and every *pending* job. The store's ``embedding_model`` is carried over when the
destination has none.

Vectors are copied too (``get_vectors`` on the source, ``set_vectors`` on the destination), so the copy
recalls semantically without ``memlane reindex``. Database ids differ between the two stores, so items
are matched by what identifies them in an export: a message by (thread, ``seq``); a summary by (thread,
kind, owner, range, content, creation time) and a fact by (owner, content, creation time), items with
equal keys in id order (the import keeps the export's order, which is id order). A vector goes only to an
item of the copy that has none yet, and only when both stores use the same embedding model; with a merge,
nothing goes into threads the destination already had. A fresh copy must match every source vector, or
it fails its verification. Items that had no vector in the source have none in the copy:
:attr:`CopyReport.needs_reindex` says when ``memlane reindex`` has something to embed. A fresh copy into
PostgreSQL loads the vectors without the HNSW indexes and builds them once at the end (also when the copy
fails), because one build is far faster than inserting every vector into a live index.

What is not copied: jobs that are running, done or dead, the dedupe keys of pending jobs, and LLM usage
events (the contract only reads their totals). Database ids are not kept either; nothing outside a store
refers to them.

Writes are in chunks (one transaction each, see ``batch_messages``), so a failed copy can leave part of an
agent behind: copy into an empty store and drop it if the copy fails. Stop writers of the source first; a
copy of a store that changes meanwhile fails its verification.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, cast

import numpy as np

from ..errors import Conflict, InvalidInput, NotFound, StorageError
from ..exchange import EXPORT_FORMAT, EXPORT_VERSION, check_record
from ..types import Fact, Summary
from ..validation import NewJob
from .base import FactFilter, Store

__all__ = ["AgentCopy", "CopyProgress", "CopyReport", "copy_store", "export_digest"]

#: The record types of an export, as counted in a report.
RECORD_TYPES = ("threads", "messages", "summaries", "facts", "deleted_facts", "fact_changes")
_TYPE_KEY = {
    "thread": "threads",
    "message": "messages",
    "summary": "summaries",
    "fact": "facts",
    "deleted_fact": "deleted_facts",
    "fact_change": "fact_changes",
}
_STATUS_TABLES = ("threads", "messages", "facts", "summaries")
_PROGRESS_TYPES = frozenset({"thread", "message", "summary", "fact"})  # what the status counts count
_NO_LIMIT = 10**12  # content was accepted by the source; the copy does not apply today's length limit
_VECTOR_KINDS = ("message", "fact", "summary")
_EVERY_FACT = FactFilter(all_users=True, include_superseded=True)


@dataclass(frozen=True, slots=True)
class CopyProgress:
    """One step of a copy, for a progress bar: ``done`` of ``total`` items (threads, messages, summaries,
    facts) of the whole copy have been written (stage "copy") or checked (stage "verify")."""

    stage: Literal["copy", "verify"]
    agent: str
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class AgentCopy:
    """What was copied of one agent, and the evidence that source and destination agree."""

    agent: str
    source_counts: dict[str, int]  # records of the source's export, per type
    target_counts: dict[str, int]  # records of the destination's export after the copy
    written: dict[str, int]  # what the destination's import wrote (a merge skips what is there)
    source_sha256: str
    target_sha256: str
    jobs_copied: int
    jobs_not_copied: dict[str, int] = field(default_factory=dict)  # by status: running, done, dead
    vectors_copied: dict[str, int] = field(default_factory=dict)  # by kind: message, fact, summary
    vectors_unmatched: dict[str, int] = field(default_factory=dict)  # source vectors with no item in the copy

    @property
    def identical(self) -> bool:
        """The agent's export is the same on both sides (always, unless it was merged into existing data)."""
        return self.source_counts == self.target_counts and self.source_sha256 == self.target_sha256


@dataclass(frozen=True, slots=True)
class CopyReport:
    """The result of :func:`copy_store` (which raises instead of returning when a check fails).

    ``needs_reindex``: the destination is used with an embedding model (``embedding_model``) and holds
    items without vectors (they had none in the source, or the two stores use different models);
    ``memlane reindex`` (``Memory.reindex``) on the destination makes them.
    """

    source: str
    target: str
    agents: tuple[AgentCopy, ...]
    merged: bool
    embedding_model: str | None
    needs_reindex: bool
    seconds: float
    notes: tuple[str, ...] = ()

    @property
    def identical(self) -> bool:
        """Every agent's export is the same on both sides."""
        return all(a.identical for a in self.agents)

    def totals(self) -> dict[str, int]:
        """Records of the source's exports per type, over all agents."""
        return {kind: sum(a.source_counts.get(kind, 0) for a in self.agents) for kind in RECORD_TYPES}


Progress = Callable[[CopyProgress], None]


def export_lines(store: Store, agent: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The agent's export as ``memlane export`` writes it: (line, record) pairs, header first.

    Raises:
        StorageError: the store could not be read.
    """
    header = {"type": "header", "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "agent": agent}
    yield _line(header), header
    for record in store.export_records(agent, None):
        yield _line(record), record


def export_digest(store: Store, agent: str) -> tuple[str, dict[str, int]]:
    """The sha256 (hex) of the agent's JSON Lines export and its record counts per type.

    Raises:
        StorageError: the store could not be read.
    """
    return _digest(store, agent, lambda checked: None)


def _digest(store: Store, agent: str, tick: Callable[[int], None]) -> tuple[str, dict[str, int]]:
    """:func:`export_digest`, calling ``tick(items checked)`` every 1,000 threads, messages, summaries, facts."""
    digest, counts = hashlib.sha256(), dict.fromkeys(RECORD_TYPES, 0)
    items = 0
    for line, record in export_lines(store, agent):
        digest.update(line.encode("utf-8"))
        kind = record["type"]
        if kind == "header":
            continue
        counts[_TYPE_KEY[kind]] += 1
        if kind in _PROGRESS_TYPES:
            items += 1
            if items % 1000 == 0:
                tick(items)
    tick(items)
    return digest.hexdigest(), counts


def copy_store(
    src: Store,
    dst: Store,
    *,
    agents: Sequence[str] | None = None,
    merge: bool = False,
    progress: Progress | None = None,
    batch_messages: int = 5000,
    now: datetime | None = None,
) -> CopyReport:
    """Copy agents (default: every agent of ``src``) into ``dst`` and verify the copy.

    ``dst`` must hold nothing yet (no agent at all); then each agent's export must come out identical
    (checksum and record counts) and the stores' own row counts must agree. With ``merge``, ``dst`` may hold
    data: threads and facts already there are kept and the source's same ones skipped
    (``on_conflict="skip"``), and the check is that ``dst`` grew by exactly what was written. Records are
    written in transactions of whole threads of about ``batch_messages`` messages; pending jobs are queued
    again with ``now`` (default: the current time) as their creation time.

    Raises:
        InvalidInput: ``src`` and ``dst`` are the same store, or bad arguments. NotFound: a named agent is
        not in ``src``. Conflict: ``dst`` is not empty and ``merge`` is false, or a record clashes.
        StorageError: a database failed, or the copy does not match its source (what was written stays).
    """
    started = time.monotonic()
    if src is dst or (src.backend == dst.backend and src.location == dst.location):
        raise InvalidInput(f"source and destination are the same store ({src.location})")
    if batch_messages < 1:
        raise InvalidInput("batch_messages must be at least 1")
    names = _agents_to_copy(src, agents)
    occupied = dst.list_agents()
    if occupied and not merge:
        shown = ", ".join(occupied[:5]) + (" …" if len(occupied) > 5 else "")
        raise Conflict(
            f"the destination {dst.location} is not empty (agents: {shown}); copy into an empty store, or merge "
            "(`db copy --yes`, merge=True): threads and facts already there are kept, the source's same ones skipped"
        )
    sizes = {name: _size(src, name) for name in names}
    before = {name: dst.status(name).counts for name in names}
    notes = _carry_meta(src, dst)
    model = src.get_meta("embedding_model")
    vectors = model is not None and dst.get_meta("embedding_model") == model
    run = _Run(src, dst, merge, batch_messages, progress, sum(sizes.values()), vectors, bulk=not merge)
    when = now or datetime.now(UTC)
    try:
        copied = [(name, *run.agent(name), *_copy_jobs(src, dst, name, when, merge)) for name in names]
    finally:
        run.finish()

    results: list[AgentCopy] = []
    problems: list[str] = []
    checked = 0
    for name, sha, counts, written, jobs, others in copied:

        def tick(items: int, name: str = name, base: int = checked) -> None:
            _report(progress, "verify", name, base + items, run.total)

        target_sha, target_counts = _digest(dst, name, tick)
        checked += sizes[name]
        result = AgentCopy(
            name, counts, target_counts, written, sha, target_sha, jobs, others, *run.vector_counts(name)
        )
        problems += _problems(src, dst, result, before[name], merge)
        results.append(result)
    if problems:
        raise StorageError("the copy does not match its source: " + "; ".join(problems))
    model = dst.get_meta("embedding_model")
    return CopyReport(
        source=src.location,
        target=dst.location,
        agents=tuple(results),
        merged=merge,
        embedding_model=model,
        needs_reindex=model is not None and any(dst.items_without_vectors(kind, 1) for kind in _VECTOR_KINDS),
        seconds=time.monotonic() - started,
        notes=tuple(notes),
    )


# -- steps ------------------------------------------------------------------------------------------
def _agents_to_copy(src: Store, agents: Sequence[str] | None) -> list[str]:
    present = src.list_agents()
    if agents is None:
        return present
    missing = [a for a in agents if a not in set(present)]
    if missing:
        raise NotFound(f"no agent {', '.join(map(repr, missing))} in {src.location}")
    return list(dict.fromkeys(agents))


def _size(store: Store, agent: str) -> int:
    counts = store.status(agent).counts
    return sum(counts.get(table, 0) for table in _STATUS_TABLES)


def _carry_meta(src: Store, dst: Store) -> list[str]:
    """Give ``dst`` the source's embedding model unless it has one; say so when they differ."""
    model, theirs = src.get_meta("embedding_model"), dst.get_meta("embedding_model")
    if model is None:
        return []
    if theirs is None:
        dst.set_meta("embedding_model", model)
        return []
    if theirs != model:
        return [f"the destination keeps its embedding model {theirs!r}; the source used {model!r}"]
    return []


class _Run:
    """One copy in progress: streams agents' exports into the destination, chunk by chunk, with vectors."""

    def __init__(
        self,
        src: Store,
        dst: Store,
        merge: bool,
        batch_messages: int,
        progress: Progress | None,
        total: int,
        vectors: bool,
        bulk: bool,
    ) -> None:
        self.src, self.dst, self.merge, self.batch = src, dst, merge, batch_messages
        self.progress, self.total, self.done = progress, total, 0
        self.vectors = vectors
        # A destination with vector indexes that are cheaper to build once than to insert into (PostgreSQL's
        # HNSW) loads a fresh copy without them; finish() builds them. Not when merging: others use it.
        self.bulk = bulk and callable(getattr(dst, "drop_vector_indexes", None))
        self.dropped = False
        self.copied: dict[str, dict[str, int]] = {}
        self.unmatched: dict[str, dict[str, int]] = {}

    def finish(self) -> None:
        """Build the vector indexes dropped for the load (also after a failed copy)."""
        if self.dropped:
            self.dropped = False
            cast(Any, self.dst).build_vector_indexes()

    def vector_counts(self, agent: str) -> tuple[dict[str, int], dict[str, int]]:
        """Vectors copied, and source vectors left without an item in the copy, per kind."""
        return dict(self.copied.get(agent, {})), dict(self.unmatched.get(agent, {}))

    def agent(self, agent: str) -> tuple[str, dict[str, int], dict[str, int]]:
        """Copy one agent; returns the sha256 and record counts of the source's export, and what was written."""
        digest, counts = hashlib.sha256(), dict.fromkeys(RECORD_TYPES, 0)
        written: dict[str, int] = {}
        chunk: list[dict[str, Any]] = []
        threads: dict[str, dict[int, int]] = {}  # the chunk's threads: seq -> the source's message id
        in_chunk = 0
        tokens: dict[int, int] = {}
        self.copied[agent] = dict.fromkeys(_VECTOR_KINDS, 0)
        self.unmatched[agent] = dict.fromkeys(_VECTOR_KINDS, 0)
        for number, (line, record) in enumerate(export_lines(self.src, agent), start=1):
            digest.update(line.encode("utf-8"))
            kind = record["type"]
            if kind == "header":
                continue
            counts[_TYPE_KEY[kind]] += 1
            if kind == "thread":  # chunks end between threads: a thread's records go in together
                if in_chunk >= self.batch:
                    self._write(agent, chunk, threads, written)
                    chunk, threads, in_chunk = [], {}, 0
                stored = self.src.messages(agent, record["thread"])
                tokens = {m.seq: m.token_count for m in stored}
                threads[record["thread"]] = {m.seq: m.id for m in stored}
            checked = check_record(record, number, _NO_LIMIT)
            if kind == "message":  # the export leaves token counts out; the source's are kept
                if checked["seq"] not in tokens:
                    raise StorageError(f"thread {checked['thread']!r} of agent {agent!r} changed during the copy")
                checked["token_count"] = tokens[checked["seq"]]
                in_chunk += 1
            chunk.append(checked)
        self._write(agent, chunk, threads, written)
        if self.vectors:
            self._item_vectors(agent, "fact", _fact_key, self.src.list_facts, self.dst.list_facts)
            self._item_vectors(agent, "summary", _summary_key, _all_summaries(self.src), _all_summaries(self.dst))
        return digest.hexdigest(), counts, written

    def _write(
        self, agent: str, chunk: list[dict[str, Any]], threads: dict[str, dict[int, int]], written: dict[str, int]
    ) -> None:
        if not chunk:
            return
        if self.vectors and self.merge:  # threads the destination has are kept as they are, vectors too
            threads = {key: seqs for key, seqs in threads.items() if self.dst.get_thread(agent, key) is None}
        counts = self.dst.import_records(agent, chunk, on_conflict="skip" if self.merge else "error")
        for kind, n in counts.items():
            written[kind] = written.get(kind, 0) + n
        if self.vectors:
            self._message_vectors(agent, threads)
        self.done += sum(1 for r in chunk if r["type"] in _PROGRESS_TYPES)
        _report(self.progress, "copy", agent, self.done, self.total)

    def _message_vectors(self, agent: str, threads: dict[str, dict[int, int]]) -> None:
        """Give the copied messages of these threads the vectors of the source's same (thread, seq)."""
        pairs: dict[int, int] = {}  # source id -> destination id
        for key, seqs in threads.items():
            theirs = {m.seq: m.id for m in self.dst.messages(agent, key)}
            pairs |= {src_id: theirs[seq] for seq, src_id in seqs.items() if seq in theirs}
        found, matrix = self.src.get_vectors(agent, "message", [i for seqs in threads.values() for i in seqs.values()])
        self.unmatched[agent]["message"] += sum(1 for i in found if i not in pairs)
        self._put(agent, "message", [(pairs[i], row) for i, row in zip(found, matrix, strict=True) if i in pairs])

    def _item_vectors(
        self,
        agent: str,
        kind: Literal["fact", "summary"],
        key: Callable[[Any], Hashable],
        theirs: Callable[..., Sequence[Fact | Summary]],
        ours: Callable[..., Sequence[Fact | Summary]],
    ) -> None:
        """Copy the vectors of facts or summaries, matching items by ``key`` (equal keys in id order)."""
        source = sorted(theirs(agent, _EVERY_FACT, limit=None), key=lambda item: item.id)
        found, matrix = self.src.get_vectors(agent, kind, [item.id for item in source])
        if not found:
            return
        targets: dict[Hashable, list[int]] = {}
        for item in sorted(ours(agent, _EVERY_FACT, limit=None), key=lambda item: item.id):
            targets.setdefault(key(item), []).append(item.id)
        rows = dict(zip(found, matrix, strict=True))
        matched: list[tuple[int, np.ndarray]] = []
        for item in source:
            slots = targets.get(key(item))
            target = slots.pop(0) if slots else None
            if item.id not in rows:
                continue
            if target is None:
                self.unmatched[agent][kind] += 1
            else:
                matched.append((target, rows[item.id]))
        self._put(agent, kind, matched)

    def _put(self, agent: str, kind: str, matched: list[tuple[int, np.ndarray]]) -> None:
        """Store vectors on destination items that have none yet."""
        if matched and self.merge:
            have = set(self.dst.get_vectors(agent, kind, [target for target, _ in matched])[0])
            matched = [(target, row) for target, row in matched if target not in have]
        if not matched:
            return
        if self.bulk:  # the first vectors of a store create its indexes: drop them again (a no-op after)
            self.dropped = cast(Any, self.dst).drop_vector_indexes() > 0 or self.dropped
        self.dst.set_vectors(agent, kind, [target for target, _ in matched], np.stack([row for _, row in matched]))
        if self.bulk:
            self.dropped = cast(Any, self.dst).drop_vector_indexes() > 0 or self.dropped
        self.copied[agent][kind] += len(matched)


def _fact_key(fact: Fact) -> Hashable:
    return (fact.owner, fact.content, fact.created_at)


def _summary_key(summary: Summary) -> Hashable:
    return (
        summary.thread,
        summary.kind,
        summary.owner,
        summary.from_seq,
        summary.to_seq,
        summary.content,
        summary.created_at,
    )


def _all_summaries(store: Store) -> Callable[..., Sequence[Summary]]:
    """``store.summaries`` of every thread and kind, called as ``list_facts`` is (the filter is ignored)."""

    def every(agent: str, _flt: FactFilter, *, limit: int | None) -> Sequence[Summary]:
        return store.summaries(agent, thread=None, kind=None, limit=limit)

    return every


def _copy_jobs(src: Store, dst: Store, agent: str, now: datetime, merge: bool) -> tuple[int, dict[str, int]]:
    """Queue the agent's pending jobs in ``dst`` (oldest first), except, when merging, those ``dst`` has
    pending already (same kind and payload); count the source's other jobs by status."""
    jobs = src.list_jobs(agent, limit=None)
    others: dict[str, int] = {}
    for job in jobs:
        if job.status != "pending":
            others[job.status] = others.get(job.status, 0) + 1
    there = set()
    if merge:
        there = {(j.kind, _line(j.payload)) for j in dst.list_jobs(agent, status="pending", limit=None)}
    pending = sorted((j for j in jobs if j.status == "pending"), key=lambda j: j.id)
    new = [
        NewJob(j.kind, j.payload, None, j.run_after, j.max_attempts)
        for j in pending
        if (j.kind, _line(j.payload)) not in there
    ]
    created = dst.enqueue_jobs(agent, new, now) if new else []
    return len(created), others


def _problems(src: Store, dst: Store, result: AgentCopy, before: dict[str, int], merge: bool) -> list[str]:
    """What differs between source and destination for one agent (nothing, if the copy is good)."""
    name, after = result.agent, dst.status(result.agent).counts
    problems = []
    if merge:  # the destination grew by exactly what its import wrote
        for table in _STATUS_TABLES:
            want = before.get(table, 0) + result.written.get(table, 0)
            if after.get(table, 0) != want:
                problems.append(f"agent {name!r}: {want} {table} expected after the merge, {after.get(table, 0)} found")
        return problems
    for kind in RECORD_TYPES:
        have, want = result.target_counts[kind], result.source_counts[kind]
        if have != want:
            problems.append(f"agent {name!r}: {want} {kind} in the source, {have} in the copy")
    theirs = src.status(name).counts
    for table in _STATUS_TABLES:
        if after.get(table, 0) != theirs.get(table, 0):
            problems.append(
                f"agent {name!r}: the source counts {theirs.get(table, 0)} {table}, the copy {after.get(table, 0)}"
            )
    for kind, n in result.vectors_unmatched.items():
        if n:
            problems.append(f"agent {name!r}: {n} {kind} vectors of the source found no item in the copy")
    if not problems and result.source_sha256 != result.target_sha256:
        short = f"{result.source_sha256[:12]} ≠ {result.target_sha256[:12]}"
        problems.append(f"agent {name!r}: the exports differ (sha256 {short})")
    return problems


def _report(progress: Progress | None, stage: Literal["copy", "verify"], agent: str, done: int, total: int) -> None:
    if progress is not None:
        progress(CopyProgress(stage, agent, done, total))


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
