"""Maintenance: the part of :class:`~memlane.Memory` that checks and rebuilds embeddings, reports the
store's status, and exports and imports an agent's memory as JSON Lines."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, time, timedelta
from functools import partial
from pathlib import Path
from typing import IO, Any

from ..errors import InvalidInput, ModelMismatch
from ..exchange import EXPORT_FORMAT, EXPORT_VERSION, check_record
from ..store import FactFilter, Scope, StoreStatus
from ..types import Summary, UsageDay, UsageTotals
from .base import KINDS, TOKEN_FIELDS, MemoryBase, aware, check_count, check_positive, item_text

__all__ = ["AdminMixin"]

#: How long a query's vector must take to make for a search's other steps to run meanwhile, on other threads:
#: side by side, a recall costs ~0.45 ms more CPU and saved ~0.5 ms of a 4.5 ms recall with the local model
#: (~3 ms a query), nothing with a vector at hand (bench/RESULTS.md, issue 39).
OVERLAP_SECONDS = 0.001


class AdminMixin(MemoryBase):
    """Embedding model checks and :meth:`reindex`, :meth:`status`, :meth:`export` and :meth:`import_`."""

    # -- embeddings ---------------------------------------------------------------------------------
    def _model_mismatch(self) -> str | None:
        """Why the store's vectors do not fit the configured embedder, or None when they do (or none is)."""
        if self.embedder is None:
            return None
        stored = self.store.get_meta("embedding_model")
        if stored is not None and stored != self.embedder.model:
            return (
                f"{self.store.location} holds vectors of the embedding model {stored!r}, but the configured "
                f"model is {self.embedder.model!r}; configure {stored!r} again, or run `memlane reindex` "
                "to re-embed everything with the new model"
            )
        dim = self.store.get_meta("embedding_dim")
        if dim is not None and int(dim) != self.embedder.dim:
            return (
                f"{self.store.location} holds {dim}-dimensional vectors, the model {self.embedder.model!r} "
                f"makes {self.embedder.dim}; run `memlane reindex`"
            )
        return None

    def _check_model(self) -> None:
        problem = self._model_mismatch()
        if problem is not None:
            raise ModelMismatch(problem)

    def _vector_retriever(self, agent: str, query: str, scope: Scope, limit: int) -> list[Any]:
        return self.store.vector_search(agent, self._query_vector(agent, query, scope), scope, limit)

    def _query_waits(self, query: str) -> bool:
        """Whether making the query's vector takes long enough (not cached, and recent queries took at least
        :data:`OVERLAP_SECONDS`) for a search's other steps to run meanwhile (``Searcher.waits``)."""
        assert self.embedder is not None
        return self.embedder.query_wait(self._vector_text(query)) >= OVERLAP_SECONDS

    def _keyword_retriever(self, agent: str, query: str, scope: Scope, limit: int) -> list[Any]:
        """The store's keyword search, able to ask for the query's vector: the embedder shares one embedding
        of a query among the threads asking for it at once, so with the vector retriever it is made once.

        It ranks large agents' matches by their vectors, which it reads in the same read transaction as the
        matches (SQLite): so it waits for the scope's pending vectors (see :mod:`.behind`) before it begins,
        not when it asks for the query's vector (a snapshot taken before their commit would not hold them).
        """
        assert self.embedder is not None
        self._wait_for_vectors(agent, scope)
        vector = partial(self.embedder.embed_query, self._vector_text(query))
        return self.store.keyword_search(agent, query, scope, limit, query_vector=vector)

    def reindex(self, *, batch_size: int = 256, progress: Callable[[int, int], None] | None = None) -> int:
        """Embed every message, fact and summary (of every agent) that has no vector, first dropping all
        vectors if they were made by another model. Returns how many items were embedded.

        ``progress(done, total)`` is called after each batch.

        Example:
            >>> mem.reindex()
            0
        """
        if self.embedder is None:
            raise InvalidInput("no embedder is configured (embedder = none)")
        if self._behind is not None:  # the queued writes' vectors first (see memlane.memory.behind)
            self._behind.wait(self.store)
        if self._model_mismatch() is not None:
            self.store.drop_vectors()
        self.store.set_meta("embedding_model", self.embedder.model)
        counts = self.store.status().counts
        total = counts.get("messages", 0) + counts.get("facts", 0) + counts.get("summaries", 0)
        done = 0
        for kind in KINDS:
            while True:
                items = self.store.items_without_vectors(kind, batch_size)
                if not items:
                    break
                by_agent: dict[str, list[Any]] = {}
                for item in items:
                    by_agent.setdefault(item.agent, []).append(item)
                for agent, group in by_agent.items():
                    vectors = self.embedder.embed([item_text(item) for item in group], "document")
                    self.store.set_vectors(agent, kind, [item.id for item in group], vectors)
                done += len(items)
                if progress is not None:
                    progress(min(done, total), total)
        return done

    # -- status -------------------------------------------------------------------------------------
    def usage_totals(self, since: datetime | None = None, *, all_agents: bool = False) -> list[UsageTotals]:
        """LLM usage per operation (calls, failures, tokens, latency) of this agent (or, with ``all_agents``,
        of every agent in the store); with ``since``, only of the calls made at or after it (what was
        consumed since a poller last asked).

        Raises:
            InvalidInput: ``since`` is not a datetime (naive means UTC). StorageError: the store failed.

        Example:
            >>> mem.usage_totals()
            []
        """
        if since is not None and not isinstance(since, datetime):
            raise InvalidInput(f"since must be a datetime, not {type(since).__name__}")
        moment = None if since is None else aware(since)
        return self.usage.totals(None if all_agents else self.agent, since=moment)

    def usage_by_day(self, days: int = 14) -> list[UsageDay]:
        """This agent's LLM calls and tokens per UTC day over the last ``days`` days (today included), oldest
        first, from the store's usage records (every process sharing the store).

        Raises:
            InvalidInput: ``days`` is not 1 to 366, or the store keeps no usage records.

        Example:
            >>> len(mem.usage_by_day(days=7))
            7
        """
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 366:
            raise InvalidInput(f"days must be an integer from 1 to 366, not {days!r}")
        today = self._now().astimezone(UTC).date()
        starts = [datetime.combine(today - timedelta(days=back), time(), UTC) for back in range(days - 1, -1, -1)]
        # What was used since each day began; a day's own use is the difference to the next day's.
        since = [(sum(t.calls for t in found), sum(t.total_tokens for t in found))
                 for found in (self.usage.totals(self.agent, since=start) for start in starts)]  # fmt: skip
        since.append((0, 0))
        return [
            UsageDay(start.date(), since[i][0] - since[i + 1][0], since[i][1] - since[i + 1][1])
            for i, start in enumerate(starts)
        ]

    # -- the agent's memories and the agent itself (admin endpoints and uninstall) ---------------------

    def list_memories(self, limit: int | None = None) -> list[Summary]:
        """The agent's memories (one per ended conversation, capped by ``memory_cap``), newest first.

        Example:
            >>> _ = mem.end("general")
            >>> _ = mem.run_jobs()
            >>> print(mem.list_memories()[0].content)
            Alice: Hi, I'm Alice. I love hiking in the Alps.
            Assistant: Nice to meet you, Alice! Which trail is your favourite?
        """
        from ..pipeline.memories import list_memories  # the pipeline loads when it is used

        return list_memories(self, check_count(limit, "limit"))  # type: ignore[arg-type]

    def purge_memories(self) -> int:
        """Delete all of the agent's memories; returns how many.

        Example:
            >>> _ = mem.end("general")
            >>> _ = mem.run_jobs()
            >>> mem.purge_memories()
            1
        """
        from ..pipeline.memories import purge_memories

        return purge_memories(self)  # type: ignore[arg-type]

    def delete_memory(self, memory_id: int) -> int:
        """Delete one memory by id; returns 1.

        Raises:
            NotFound: no such memory in this agent. InvalidInput: a bad id.

        Example:
            >>> _ = mem.end("general")
            >>> _ = mem.run_jobs()
            >>> mem.delete_memory(mem.list_memories()[0].id)
            1
        """
        from ..pipeline.memories import purge_memories

        return purge_memories(self, check_positive(memory_id, "a memory id must be a positive integer"))  # type: ignore[arg-type]

    def delete_agent(self, *, purge: bool = False) -> dict[str, int]:
        """Uninstall this agent: delete its threads (messages, vectors, summaries), facts with
        their history, profiles and digests; its memories stay for a reinstall unless ``purge``. Returns
        counts per kind. (Another agent: ``memory.for_agent(name).delete_agent()``.)

        The agent's name stays known to the store (its id must stay valid for other processes that have it
        open: they simply find an empty agent, and what they write afterwards belongs to it). Each step is a
        transaction of its own; an uninstall cut short is completed by running it again.

        Example:
            >>> mem.delete_agent()
            {'threads': 1, 'facts': 1, 'summaries': 0, 'memories': 0}
        """
        from ..pipeline.memories import SUMMARY_KIND as MEMORY_KIND

        counts = {"threads": 0, "facts": 0, "summaries": 0, "memories": 0}
        for thread in self.store.list_threads(self.agent, user=None, status=None, limit=None, offset=0):
            counts["threads"] += bool(self.store.delete_thread(self.agent, thread.key))
        facts = self.store.list_facts(self.agent, FactFilter(all_users=True, include_superseded=True), limit=None)
        if facts:
            counts["facts"] = self.store.delete_facts(
                self.agent, [f.id for f in facts], actor=None, now=self._now(), purge_history=True, jobs=()
            )
        rest = self.store.summaries(self.agent, thread=None, kind=None, limit=None)
        gone = [s for s in rest if purge or s.kind != MEMORY_KIND]
        if gone:
            self.store.delete_summaries(self.agent, [s.id for s in gone])
        counts["memories"] = sum(s.kind == MEMORY_KIND for s in gone)
        counts["summaries"] = len(gone) - counts["memories"]
        return counts

    def status(self, *, all_agents: bool = False) -> StoreStatus:
        """Backend, location, schema version and this agent's row counts (``all_agents``: the whole store's).
        Secrets kept in the store's metadata (``secret:...``, e.g. the server's) are never shown.

        Example:
            >>> status = mem.status()
            >>> status.backend, status.counts["messages"], status.counts["facts"]
            ('sqlite', 2, 1)
        """
        found = self.store.status(None if all_agents else self.agent)
        return dataclasses.replace(found, meta={k: v for k, v in found.meta.items() if not k.startswith("secret:")})

    # -- export / import ----------------------------------------------------------------------------
    def export_records(self, threads: Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
        """This agent's threads, messages, summaries, facts and fact history as JSON-ready dicts.

        Example:
            >>> sorted({record["type"] for record in mem.export_records()})
            ['fact', 'fact_change', 'header', 'message', 'thread', 'user']
        """
        yield {"type": "header", "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "agent": self.agent}
        yield from self.store.export_records(self.agent, threads)

    def export(self, target: str | Path | IO[str], *, threads: Sequence[str] | None = None) -> int:
        """Write the agent's memory as JSON Lines to a path or text stream; returns records written.

        Example:
            >>> mem.export("backup.jsonl")
            8
        """
        count = 0
        with _open_text(target, "w") as out:
            for record in self.export_records(threads):
                out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
                count += 1
        return count

    def import_(self, source: str | Path | IO[str], *, on_conflict: str = "error") -> dict[str, int]:
        """Load a JSON Lines export into this agent in one transaction; returns counts per record type.

        ``on_conflict`` decides what happens to a thread that already exists: "error", "skip" or "replace".

        Raises:
            InvalidInput: the file is not a memlane export or a record is malformed (nothing is written).
            Conflict: a thread exists and ``on_conflict="error"``.

        Example:
            >>> _ = mem.export("backup.jsonl")
            >>> restored = Memory("restored.db", agent="my-bot", settings=mem.settings)
            >>> restored.import_("backup.jsonl")
            {'threads': 1, 'messages': 2, 'facts': 1, 'fact_changes': 2, 'summaries': 0, 'users': 1}
            >>> restored.close()
        """
        if on_conflict not in ("error", "skip", "replace"):
            raise InvalidInput("on_conflict must be 'error', 'skip' or 'replace'")
        records: list[dict[str, Any]] = []
        with _open_text(source, "r") as src:
            for number, line in enumerate(src, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InvalidInput(f"line {number} is not JSON: {exc}") from exc
                if not isinstance(record, dict) or "type" not in record:
                    raise InvalidInput(f"line {number} is not a memlane record")
                records.append(record)
        if not records or records[0].get("format") != EXPORT_FORMAT:
            raise InvalidInput("not a memlane export (the first line must be its header)")
        if records[0].get("version") != EXPORT_VERSION:
            raise InvalidInput(f"unsupported export version {records[0].get('version')!r}")
        body = [check_record(record, n, self.settings.max_content_chars) for n, record in enumerate(records[1:], 2)]
        for record in body:
            if record["type"] == "message":
                record["token_count"] = self.tokenizer.count_message({k: record[k] for k in TOKEN_FIELDS})
        return self.store.import_records(self.agent, body, on_conflict=on_conflict)


class _open_text:
    """Open a path, or pass a text stream through (without closing it)."""

    def __init__(self, target: str | Path | IO[str], mode: str) -> None:
        self.target, self.mode = target, mode
        self.file: IO[str] | None = None

    def __enter__(self) -> IO[str]:
        if isinstance(self.target, str | Path):
            try:
                self.file = open(self.target, self.mode, encoding="utf-8")
            except OSError as exc:
                raise InvalidInput(f"cannot open {self.target}: {exc}") from exc
            return self.file
        return self.target

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()
