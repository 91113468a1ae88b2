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

The export and its checksum are in :mod:`.copy_export`, the loading of records and vectors in :mod:`.copy_run`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..errors import Conflict, InvalidInput, NotFound, StorageError
from ..validation import NewJob
from .base import Store
from .copy_export import RECORD_TYPES, CopyProgress, Progress, digest, export_digest, json_line, report
from .copy_export import export_lines as export_lines
from .copy_run import VECTOR_KINDS, CopyRun

__all__ = ["AgentCopy", "CopyProgress", "CopyReport", "copy_store", "export_digest"]

_STATUS_TABLES = ("threads", "messages", "facts", "summaries")


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
    _check_arguments(src, dst, batch_messages)
    names = _agents_to_copy(src, agents)
    _check_destination(dst, merge)
    sizes = {name: _size(src, name) for name in names}
    before = {name: dst.status(name).counts for name in names}
    notes = _carry_meta(src, dst)
    model = src.get_meta("embedding_model")
    vectors = model is not None and dst.get_meta("embedding_model") == model
    run = CopyRun(src, dst, merge, batch_messages, progress, sum(sizes.values()), vectors, bulk=not merge)
    copied = _copy_agents(run, names, now or datetime.now(UTC))
    results = _verify(run, copied, sizes, before)
    return _final_report(src, dst, results, merge, notes, started)


# -- steps ------------------------------------------------------------------------------------------
def _check_arguments(src: Store, dst: Store, batch_messages: int) -> None:
    """Raises InvalidInput: ``src`` and ``dst`` are the same store, or ``batch_messages`` is below 1."""
    if src is dst or (src.backend == dst.backend and src.location == dst.location):
        raise InvalidInput(f"source and destination are the same store ({src.location})")
    if batch_messages < 1:
        raise InvalidInput("batch_messages must be at least 1")


def _check_destination(dst: Store, merge: bool) -> None:
    """Raises Conflict: ``dst`` holds agents and ``merge`` is false."""
    occupied = dst.list_agents()
    if occupied and not merge:
        shown = ", ".join(occupied[:5]) + (" …" if len(occupied) > 5 else "")
        raise Conflict(
            f"the destination {dst.location} is not empty (agents: {shown}); copy into an empty store, or merge "
            "(`db copy --yes`, merge=True): threads and facts already there are kept, the source's same ones skipped"
        )


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


_Copied = tuple[str, str, dict[str, int], dict[str, int], int, dict[str, int]]
"""One agent copied: name, sha256 and record counts of the source's export, records written, jobs queued
and the source's other jobs by status."""


def _copy_agents(run: CopyRun, names: Sequence[str], when: datetime) -> list[_Copied]:
    """Copy each agent's records and vectors, then its pending jobs; rebuild dropped indexes in any case."""
    try:
        return [(name, *run.agent(name), *_copy_jobs(run.src, run.dst, name, when, run.merge)) for name in names]
    finally:
        run.finish()


def _verify(
    run: CopyRun, copied: Sequence[_Copied], sizes: dict[str, int], before: dict[str, dict[str, int]]
) -> list[AgentCopy]:
    """Export every copied agent again from the destination and compare it with the source.

    Raises:
        StorageError: some agent's copy does not match its source.
    """
    results: list[AgentCopy] = []
    problems: list[str] = []
    checked = 0
    for name, sha, counts, written, jobs, others in copied:

        def tick(items: int, name: str = name, base: int = checked) -> None:
            report(run.progress, "verify", name, base + items, run.total)

        target_sha, target_counts = digest(run.dst, name, tick)
        checked += sizes[name]
        result = AgentCopy(
            name, counts, target_counts, written, sha, target_sha, jobs, others, *run.vector_counts(name)
        )
        problems += _problems(run.src, run.dst, result, before[name], run.merge)
        results.append(result)
    if problems:
        raise StorageError("the copy does not match its source: " + "; ".join(problems))
    return results


def _final_report(
    src: Store, dst: Store, results: Sequence[AgentCopy], merge: bool, notes: Sequence[str], started: float
) -> CopyReport:
    """The report of a verified copy, with whether the destination has items to embed."""
    model = dst.get_meta("embedding_model")
    return CopyReport(
        source=src.location,
        target=dst.location,
        agents=tuple(results),
        merged=merge,
        embedding_model=model,
        needs_reindex=model is not None and any(dst.items_without_vectors(kind, 1) for kind in VECTOR_KINDS),
        seconds=time.monotonic() - started,
        notes=tuple(notes),
    )


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
        there = {(j.kind, json_line(j.payload)) for j in dst.list_jobs(agent, status="pending", limit=None)}
    pending = sorted((j for j in jobs if j.status == "pending"), key=lambda j: j.id)
    new = [
        NewJob(j.kind, j.payload, None, j.run_after, j.max_attempts)
        for j in pending
        if (j.kind, json_line(j.payload)) not in there
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
