"""The loading half of a store copy (:mod:`.copy`): an agent's export streamed into the destination in
chunks of whole threads, then the vectors of its messages, facts and summaries.

Database ids differ between the two stores, so a vector is matched to its item by what identifies the item
in an export: a message by (thread, ``seq``), a summary by (thread, kind, owner, range, content, creation
time) and a fact by (owner, content, creation time), items with equal keys in id order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Literal, cast

import numpy as np

from ..errors import StorageError
from ..exchange import check_record
from ..types import Fact, Summary
from .base import FactFilter, Store
from .copy_export import PROGRESS_TYPES, RECORD_TYPES, TYPE_KEY, Progress, export_lines, report

__all__ = ["VECTOR_KINDS", "CopyRun"]

_NO_LIMIT = 10**12  # content was accepted by the source; the copy does not apply today's length limit
VECTOR_KINDS = ("message", "fact", "summary")
"""The kinds of item that carry vectors."""
_EVERY_FACT = FactFilter(all_users=True, include_superseded=True)


class CopyRun:
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
        self.copied[agent] = dict.fromkeys(VECTOR_KINDS, 0)
        self.unmatched[agent] = dict.fromkeys(VECTOR_KINDS, 0)
        for number, (line, record) in enumerate(export_lines(self.src, agent), start=1):
            digest.update(line.encode("utf-8"))
            kind = record["type"]
            if kind == "header":
                continue
            counts[TYPE_KEY[kind]] += 1
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
        self.done += sum(1 for r in chunk if r["type"] in PROGRESS_TYPES)
        report(self.progress, "copy", agent, self.done, self.total)

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
