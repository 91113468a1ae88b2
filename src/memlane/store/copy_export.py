"""The export a store copy is checked by (:mod:`.copy`), and the progress a copy reports.

The checksum of an agent is the sha256 of its JSON Lines export exactly as ``memlane --agent A export -``
prints it (header line included), so anyone can check a copy with ``sha256sum``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from ..exchange import EXPORT_FORMAT, EXPORT_VERSION
from .base import Store

__all__ = [
    "PROGRESS_TYPES",
    "RECORD_TYPES",
    "TYPE_KEY",
    "CopyProgress",
    "Progress",
    "digest",
    "export_digest",
    "export_lines",
    "json_line",
    "report",
]

#: The record types of an export, as counted in a report.
RECORD_TYPES = ("threads", "messages", "summaries", "facts", "deleted_facts", "fact_changes", "users")
TYPE_KEY = {
    "thread": "threads",
    "message": "messages",
    "summary": "summaries",
    "fact": "facts",
    "deleted_fact": "deleted_facts",
    "fact_change": "fact_changes",
    "user": "users",
}
"""Record type of an export line -> its key in :data:`RECORD_TYPES`."""
PROGRESS_TYPES = frozenset({"thread", "message", "summary", "fact"})
"""The record types a copy's progress counts (what a store's status counts)."""


@dataclass(frozen=True, slots=True)
class CopyProgress:
    """One step of a copy, for a progress bar: ``done`` of ``total`` items (threads, messages, summaries,
    facts) of the whole copy have been written (stage "copy") or checked (stage "verify")."""

    stage: Literal["copy", "verify"]
    agent: str
    done: int
    total: int


Progress = Callable[[CopyProgress], None]


def export_lines(store: Store, agent: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The agent's export as ``memlane export`` writes it: (line, record) pairs, header first.

    Raises:
        StorageError: the store could not be read.
    """
    header = {"type": "header", "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "agent": agent}
    yield json_line(header), header
    for record in store.export_records(agent, None):
        yield json_line(record), record


def export_digest(store: Store, agent: str) -> tuple[str, dict[str, int]]:
    """The sha256 (hex) of the agent's JSON Lines export and its record counts per type.

    Raises:
        StorageError: the store could not be read.
    """
    return digest(store, agent, lambda checked: None)


def digest(store: Store, agent: str, tick: Callable[[int], None]) -> tuple[str, dict[str, int]]:
    """:func:`export_digest`, calling ``tick(items checked)`` every 1,000 threads, messages, summaries, facts."""
    sha, counts = hashlib.sha256(), dict.fromkeys(RECORD_TYPES, 0)
    items = 0
    for line, record in export_lines(store, agent):
        sha.update(line.encode("utf-8"))
        kind = record["type"]
        if kind == "header":
            continue
        counts[TYPE_KEY[kind]] += 1
        if kind in PROGRESS_TYPES:
            items += 1
            if items % 1000 == 0:
                tick(items)
    tick(items)
    return sha.hexdigest(), counts


def report(progress: Progress | None, stage: Literal["copy", "verify"], agent: str, done: int, total: int) -> None:
    if progress is not None:
        progress(CopyProgress(stage, agent, done, total))


def json_line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
