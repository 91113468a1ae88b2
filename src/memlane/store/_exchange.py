"""The backend-neutral half of an import: export records back into column values, and the walk of the
records (:class:`RecordImporter`) that decides what to write; each backend supplies the statements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..errors import Conflict, InvalidInput
from ._common import RowCodec

__all__ = [
    "RecordImporter",
    "fact_change_import_row",
    "fact_import_row",
    "first_fact_changes",
    "import_counts",
    "message_import_row",
    "summary_import_row",
    "thread_import_row",
]


def thread_import_row(rec: Mapping[str, Any], agent_id: int, codec: RowCodec) -> tuple[Any, ...]:
    """Column values of a thread record: (agent_id, key, status, system_prompt, metadata, created_at,
    updated_at, ended_at). Raises KeyError for a missing field."""
    return (
        agent_id,
        rec["thread"],
        rec["status"],
        rec["system_prompt"],
        codec.json(rec["metadata"]),
        codec.time(rec["created_at"]),
        codec.time(rec["updated_at"]),
        codec.time(rec["ended_at"]),
    )


def summary_import_row(
    rec: Mapping[str, Any], agent_id: int, thread_id: int | None, codec: RowCodec
) -> tuple[Any, ...]:
    """Column values of a summary record: (agent_id, thread_id, kind, owner, from_seq, to_seq, content,
    method, metadata, created_at). Raises KeyError for a missing field."""
    return (
        agent_id,
        thread_id,
        rec["kind"],
        rec["owner"],
        rec["from_seq"],
        rec["to_seq"],
        rec["content"],
        rec["method"],
        codec.json(rec["metadata"]),
        codec.time(rec["created_at"]),
    )


def fact_import_row(
    rec: Mapping[str, Any], agent_id: int, source_thread_id: int | None, codec: RowCodec
) -> tuple[Any, ...]:
    """Column values of a fact record: (agent_id, owner, subject, category, content, importance,
    visibility, source_thread_id, source_thread, source_from_seq, source_to_seq, metadata, status,
    valid_from, invalid_at, created_at, updated_at, last_accessed_at, access_count). Raises KeyError for
    a missing field."""
    return (
        agent_id,
        rec["owner"],
        rec["subject"],
        rec["category"],
        rec["content"],
        rec["importance"],
        rec["visibility"],
        source_thread_id,
        rec["source_thread"],
        rec["source_from_seq"],
        rec["source_to_seq"],
        codec.json(rec["metadata"]),
        rec["status"],
        codec.time(rec["valid_from"]),
        codec.time(rec["invalid_at"]),
        codec.time(rec["created_at"]),
        codec.time(rec["updated_at"]),
        codec.time(rec["last_accessed_at"]),
        rec["access_count"],
    )


def message_import_row(rec: Mapping[str, Any], agent_id: int, thread_id: int, codec: RowCodec) -> tuple[Any, ...]:
    """Column values of a message record: (agent_id, thread_id, seq, role, user_id, name, content,
    tool_calls, tool_call_id, token_count, metadata, created_at, summarized). Raises KeyError for a
    missing field."""
    return (
        agent_id,
        thread_id,
        rec["seq"],
        rec["role"],
        rec["user"],
        rec["name"],
        rec["content"],
        None if rec["tool_calls"] is None else codec.json(rec["tool_calls"]),  # SQL NULL, not JSON null
        rec["tool_call_id"],
        rec["token_count"],
        codec.json(rec["metadata"]),
        codec.time(rec["created_at"]),
        bool(rec.get("summarized")),
    )


def fact_change_import_row(rec: Mapping[str, Any], agent_id: int, fact_id: int, codec: RowCodec) -> tuple[Any, ...]:
    """Column values of a fact_change record: (agent_id, fact_id, action, actor, old_content,
    new_content, changes, at). Raises KeyError for a missing field."""
    return (
        agent_id,
        fact_id,
        rec["action"],
        rec["actor"],
        rec["old_content"],
        rec["new_content"],
        codec.json(rec["changes"]),
        codec.time(rec["at"]),
    )


def import_counts() -> dict[str, int]:
    """What an import reports, before anything is imported."""
    return {"threads": 0, "messages": 0, "facts": 0, "fact_changes": 0, "summaries": 0, "users": 0}


def first_fact_changes(records: Iterable[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    """The first ``fact_change`` record of each fact ref (it finds a fact already imported before)."""
    first: dict[int, Mapping[str, Any]] = {}
    for rec in records:
        if rec["type"] == "fact_change":
            first.setdefault(rec["fact"], rec)
    return first


class RecordImporter(ABC):
    """The backend-neutral walk of an import: records in their order, on one open write transaction.

    This class decides what happens to each record (conflicts, skipped threads and facts, refs mapped to
    the new fact ids, superseded links fixed up last); a backend supplies the statements, as the
    abstract methods below. Importing an export again is idempotent: with ``skip`` or ``replace``,
    threads (same key), facts (found by their 'create' history entry, else same owner, content and
    creation time), thread-less summaries (same kind, owner, content, time) and the history of deleted
    facts (same first change) that are already there are kept or replaced rather than doubled; with
    ``error`` they raise Conflict. A record of an unknown type raises InvalidInput, one missing a field
    KeyError.
    """

    def __init__(self, agent: str, agent_id: int, on_conflict: str, records: Sequence[Mapping[str, Any]]) -> None:
        self.agent, self.agent_id, self.on_conflict, self.records = agent, agent_id, on_conflict, records
        self.counts = import_counts()
        self.thread_ids: dict[str, int] = {}  # key -> id of the threads written
        self.skipped: set[str] = set()  # keys of the threads kept as they were
        self.fact_ids: dict[int, int] = {}  # ref -> fact id
        self.skipped_refs: set[int] = set()  # refs of the facts kept as they were
        self.first_change = first_fact_changes(records)
        self.superseded: list[tuple[int, int]] = []  # (fact id, ref of the fact superseding it)

    def run(self) -> dict[str, int]:
        """Write every record; returns the counts per record type."""
        handlers: dict[str, Callable[[Mapping[str, Any]], None]] = {
            "thread": self.thread,
            "message": self.message,
            "summary": self.summary,
            "deleted_fact": self.deleted_fact,
            "fact": self.fact,
            "fact_change": self.fact_change,
            "user": self.user,
        }
        for rec in self.records:
            kind = rec["type"]
            handler = handlers.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise InvalidInput(f"unknown record type {kind!r}")
            handler(rec)
        self.finish()
        for fact_id, ref in self.superseded:
            self.set_superseded(fact_id, self.fact_ids.get(ref))
        return self.counts

    def user(self, rec: Mapping[str, Any]) -> None:
        """A per-user record: kept as it is with ``skip`` when the user has one, else written (replaced)."""
        if self.on_conflict == "skip" and self.user_exists(rec["user"]):
            return
        self.upsert_user(rec)
        self.counts["users"] += 1

    def thread(self, rec: Mapping[str, Any]) -> None:
        key = rec["thread"]
        existing = self.find_thread(key)
        if existing is not None:
            if self.on_conflict == "skip":
                self.skipped.add(key)
                return
            if self.on_conflict != "replace":
                raise Conflict(f"thread {key!r} already exists in agent {self.agent!r}")
            self.delete_thread(existing)
        self.thread_ids[key] = self.insert_thread(rec)
        self.counts["threads"] += 1

    def message(self, rec: Mapping[str, Any]) -> None:
        if rec["thread"] in self.skipped:
            return
        thread_id = self.thread_ids.get(rec["thread"])
        if thread_id is None:
            raise InvalidInput(f"message of thread {rec['thread']!r} comes before its thread")
        self.insert_message(rec, thread_id)
        self.counts["messages"] += 1

    def summary(self, rec: Mapping[str, Any]) -> None:
        thread_id = None
        if rec["thread"] is not None:
            if rec["thread"] in self.skipped:
                return
            thread_id = self.thread_ids.get(rec["thread"])
        else:
            same = self.find_summary(rec)
            if same is not None:
                if self.on_conflict == "error":
                    raise Conflict(f"summary {rec['content'][:40]!r} already exists")
                if self.on_conflict == "skip":
                    return
                self.delete_summary(same)
        self.insert_summary(rec, thread_id)
        self.counts["summaries"] += 1

    def deleted_fact(self, rec: Mapping[str, Any]) -> None:
        ref = rec["ref"]
        first = self.first_change.get(ref)
        same = None if first is None else self.find_deleted_fact(first)
        if same is not None and self.on_conflict == "skip":
            self.fact_ids[ref] = same
            self.skipped_refs.add(ref)
            return
        if same is not None and self.on_conflict == "replace":
            self.delete_history(same)
        # Keep the history of a deleted fact under an id no fact will ever get.
        self.fact_ids[ref] = self.reserve_fact_id()

    def fact(self, rec: Mapping[str, Any]) -> None:
        # The same fact, even if edited since the export, is found by its 'create' history entry.
        first = self.first_change.get(rec["ref"])
        if first is not None and first["action"] == "create":
            same = self.find_created_fact(rec, first)
        else:
            same = self.find_fact(rec)
        if same is not None:
            if self.on_conflict == "error":
                raise Conflict(f"fact {rec['content'][:40]!r} already exists in agent {self.agent!r}")
            if self.on_conflict == "skip":
                self.fact_ids[rec["ref"]] = same
                self.skipped_refs.add(rec["ref"])
                return
            self.delete_fact(same)
        fact_id = self.insert_fact(rec)
        self.fact_ids[rec["ref"]] = fact_id
        if rec["superseded_by"] is not None:
            self.superseded.append((fact_id, rec["superseded_by"]))
        self.counts["facts"] += 1

    def fact_change(self, rec: Mapping[str, Any]) -> None:
        if rec["fact"] in self.skipped_refs:
            return
        if rec["fact"] not in self.fact_ids:
            raise InvalidInput(f"fact_change refers to unknown fact ref {rec['fact']}")
        self.insert_change(rec, self.fact_ids[rec["fact"]])
        self.counts["fact_changes"] += 1

    # -- the statements, one backend each ------------------------------------------------------------
    @abstractmethod
    def user_exists(self, user: str) -> bool:
        """Whether the agent has a record of ``user``."""

    @abstractmethod
    def upsert_user(self, rec: Mapping[str, Any]) -> None:
        """Write a user record, replacing the agent's record of that user."""

    @abstractmethod
    def find_thread(self, key: str) -> int | None:
        """The id of the agent's thread ``key``, or None."""

    @abstractmethod
    def delete_thread(self, thread_id: int) -> None:
        """Delete a thread (it is replaced)."""

    @abstractmethod
    def insert_thread(self, rec: Mapping[str, Any]) -> int:
        """Write a thread record; its id."""

    @abstractmethod
    def insert_message(self, rec: Mapping[str, Any], thread_id: int) -> None:
        """Write (or buffer, until :meth:`finish`) a message record of a thread written before."""

    @abstractmethod
    def find_summary(self, rec: Mapping[str, Any]) -> int | None:
        """The id of the thread-less summary that ``rec`` is, or None."""

    @abstractmethod
    def delete_summary(self, summary_id: int) -> None:
        """Delete a summary (it is replaced)."""

    @abstractmethod
    def insert_summary(self, rec: Mapping[str, Any], thread_id: int | None) -> None:
        """Write a summary record."""

    @abstractmethod
    def find_deleted_fact(self, first: Mapping[str, Any]) -> int | None:
        """The fact id of the history whose first entry is ``first``, or None."""

    @abstractmethod
    def delete_history(self, fact_id: int) -> None:
        """Delete the history of a fact (it is replaced)."""

    @abstractmethod
    def reserve_fact_id(self) -> int:
        """A fact id that no fact gets, for the history of a deleted fact."""

    @abstractmethod
    def find_created_fact(self, rec: Mapping[str, Any], first: Mapping[str, Any]) -> int | None:
        """The id of the fact whose 'create' history entry is ``first`` (and owner that of ``rec``)."""

    @abstractmethod
    def find_fact(self, rec: Mapping[str, Any]) -> int | None:
        """The id of the fact with the owner, content and creation time of ``rec``, or None."""

    @abstractmethod
    def delete_fact(self, fact_id: int) -> None:
        """Delete a fact with its history (it is replaced)."""

    @abstractmethod
    def insert_fact(self, rec: Mapping[str, Any]) -> int:
        """Write a fact record (its ``superseded_by`` is set later); its id."""

    @abstractmethod
    def insert_change(self, rec: Mapping[str, Any], fact_id: int) -> None:
        """Write (or buffer, until :meth:`finish`) a fact_change record of a fact."""

    @abstractmethod
    def set_superseded(self, fact_id: int, by: int | None) -> None:
        """Point a fact at the fact that superseded it."""

    @abstractmethod
    def finish(self) -> None:
        """Write what is buffered, once every record is walked."""
