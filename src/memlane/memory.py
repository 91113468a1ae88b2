"""The ``Memory`` facade: the one object a bot or agent talks to.

A ``Memory`` is bound to one agent (the app or bot that owns the memory, the hard isolation boundary)
and to one store. It validates every input before writing, counts tokens with the configured model's
tokenizer, and assembles token-budgeted context. It is safe to share between threads; several
processes may open the same store.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, overload

import numpy as np

from .config import Settings, load_settings
from .context import Context, TokenCounts, assemble
from .errors import Forbidden, InvalidInput, ModelMismatch, NotFound
from .exchange import EXPORT_FORMAT, EXPORT_VERSION, check_record
from .pipeline import Pipeline
from .pipeline.usage import UsageLedger, ledger_for
from .pipeline.worker import BackgroundWorker, Worker
from .retrieval import Found, SearchConfig, Searcher, get_preset
from .store import FactFilter, Scope, Store, StoreStatus, open_store_for
from .tokens import Tokenizer, encoding_for, get_tokenizer
from .types import Fact, FactChange, Hit, HitGroup, Message, Summary, Thread
from .validation import (
    NewFact,
    NewMessage,
    check_category,
    check_content,
    check_importance,
    check_key,
    check_metadata,
    check_metadata_filter,
    check_optional_key,
    check_visibility,
    new_message,
    new_message_from_item,
)

if TYPE_CHECKING:
    from .embeddings import Embedder
    from .llm import LLMClient

__all__ = ["EXPORT_FORMAT", "Memory"]

_KINDS = ("message", "fact", "summary")
_CONTEXT_SUMMARIES = 3  # rolling summaries context() shows at most
_CONTEXT_RECALL = 8  # items context() recalls for a query at most


def _utcnow() -> datetime:
    return datetime.now(UTC)


class _Default:
    """Marker: build this dependency from settings."""


DEFAULT: Any = _Default()


def embedder_from_settings(settings: Settings) -> Embedder | None:
    """The embedder the settings name (``none`` → None)."""
    if settings.embedder == "none":
        return None
    from .embeddings import make_embedder  # loads onnxruntime only when an embedder is wanted

    options: dict[str, Any] = {}
    if settings.embedder == "openai":
        options = {
            "base_url": settings.embedder_base_url,
            "model": settings.embedder_model,
            "api_key": settings.embedder_api_key,
        }
    return make_embedder(settings.embedder, **{k: v for k, v in options.items() if v is not None})


def llm_from_settings(settings: Settings) -> LLMClient | None:
    """The LLM client the settings configure, or None (then the pipeline works without one)."""
    if not settings.llm_provider or settings.llm_provider == "none":
        return None
    from .llm import make_llm

    return make_llm(
        settings.llm_provider,
        base_url=settings.llm_base_url,
        api_key=settings.llm_api_key,
        model=settings.llm_model,
        timeout=settings.llm_timeout,
    )


def message_text(role: str, content: str, user: str | None, name: str | None, tool_calls: Any) -> str:
    """The text embedded for a message: the speaker's name and what they said."""
    text = content or (json.dumps(tool_calls, ensure_ascii=False) if tool_calls else "")
    speaker = name or user
    return f"{speaker}: {text}" if speaker else text


class Memory:
    """Long-term memory for one agent: conversation threads, remembered facts, recall and context.

    Args:
        path_or_url: a SQLite file path (``sqlite:///`` URLs too) or a ``postgresql://`` URL; default
            ``<MEMLANE_HOME>/memlane.db``.
        agent: the agent whose memory this is; default from settings (``"default"``).
        settings: settings to use instead of loading them from env and config file.
        store: an already open store (then ``path_or_url`` must be None); it is not closed by ``close``.
        embedder: turns text into vectors for semantic recall; default from settings (the local MiniLM
            model), None for keyword search only.
        clock: returns the current time (tests and imports inject their own).
        config_file: a TOML/YAML config file to read settings from.

    Raises:
        ConfigError: settings are invalid. StorageError: the database cannot be opened.
        ModelMismatch: the store's vectors were made by another embedding model (see :meth:`reindex`).
    """

    def __init__(
        self,
        path_or_url: str | Path | None = None,
        *,
        agent: str | None = None,
        settings: Settings | None = None,
        store: Store | None = None,
        tokenizer: Tokenizer | None = None,
        embedder: Embedder | None = DEFAULT,
        llm: LLMClient | None = DEFAULT,
        clock: Callable[[], datetime] | None = None,
        config_file: str | Path | None = None,
        check_model: bool = True,
    ) -> None:
        self.settings = settings or load_settings(config_file)
        self.agent = check_key(agent if agent is not None else self.settings.agent, "agent")
        if store is not None and path_or_url is not None:
            raise InvalidInput("give either path_or_url or store, not both")
        self._owns_store = store is None
        # open_store_for applies every storage tunable of the settings (SQLite busy timeout and lock
        # retries; PostgreSQL pool size and HNSW parameters) whichever backend the location names.
        self.store: Store = store or open_store_for(
            self.settings, str(path_or_url) if path_or_url is not None else None
        )
        self.tokenizer = tokenizer or get_tokenizer(self.settings.encoding or encoding_for(self.settings.model))
        self.clock = clock or _utcnow
        self.embedder: Embedder | None = embedder_from_settings(self.settings) if embedder is DEFAULT else embedder
        self.llm: LLMClient | None = llm_from_settings(self.settings) if llm is DEFAULT else llm
        self.searcher = Searcher(self.store)
        self._token_counts = TokenCounts(self.tokenizer)
        self.pipeline = Pipeline(self)
        if self.embedder is not None:
            self.searcher.retrievers["vector"] = self._vector_retriever
            if check_model:
                self._check_model()
        if self.settings.auto_prune_days and self._owns_store:
            self.prune(self.settings.auto_prune_days)
        # -- background jobs and LLM usage accounting (memlane.pipeline.worker / .usage) --------------
        self.usage: UsageLedger = ledger_for(self.settings, self.llm, self.store, self._now)
        self._worker: BackgroundWorker | None = None
        if self.settings.worker == "thread":
            self._worker = BackgroundWorker(self)
            self._worker.start()

    # -- lifecycle ----------------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the background worker, then close the store (unless it was handed in)."""
        worker, self._worker = getattr(self, "_worker", None), None
        if worker is not None:
            worker.stop()
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory({self.store.location!r}, agent={self.agent!r})"

    def for_agent(self, agent: str) -> Memory:
        """A view of the same store for another agent (closing it does not close the store). It shares
        this memory's LLM usage ledger and starts no worker of its own."""
        return Memory(
            agent=agent,
            settings=self.settings.model_copy(update={"worker": "none"}),
            store=self.store,
            tokenizer=self.tokenizer,
            embedder=self.embedder,
            llm=self.llm,
            clock=self.clock,
            check_model=False,
        )

    def _now(self) -> datetime:
        now = self.clock()
        return now if now.tzinfo else now.replace(tzinfo=UTC)

    def run_jobs(self, timeout: float | None = 60.0) -> int:
        """Run queued jobs (of every agent in the store) here and now until none is ready, or ``timeout``
        seconds passed; returns how many were run. Failed jobs are rescheduled or dead-lettered as a
        worker would (see :mod:`memlane.pipeline.worker`).

        Raises:
            StorageError: the queue could not be read.
        """
        return Worker(self).drain(timeout)

    # -- embeddings ---------------------------------------------------------------------------------
    def _check_model(self) -> None:
        assert self.embedder is not None
        stored = self.store.get_meta("embedding_model")
        if stored is not None and stored != self.embedder.model:
            raise ModelMismatch(
                f"{self.store.location} holds vectors of the embedding model {stored!r}, but the configured "
                f"model is {self.embedder.model!r}; configure {stored!r} again, or run `memlane reindex` "
                "to re-embed everything with the new model"
            )
        dim = self.store.get_meta("embedding_dim")
        if dim is not None and int(dim) != self.embedder.dim:
            raise ModelMismatch(
                f"{self.store.location} holds {dim}-dimensional vectors, the model {self.embedder.model!r} "
                f"makes {self.embedder.dim}; run `memlane reindex`"
            )

    def _embed(self, texts: Sequence[str]) -> np.ndarray | None:
        if self.embedder is None or not texts:
            return None
        if self.store.get_meta("embedding_model") is None:
            self.store.set_meta("embedding_model", self.embedder.model)
        return self.embedder.embed(list(texts), "document")

    def _vector_retriever(self, agent: str, query: str, scope: Scope, limit: int) -> list[Any]:
        assert self.embedder is not None
        return self.store.vector_search(agent, self.embedder.embed_query(query), scope, limit)

    def reindex(self, *, batch_size: int = 256, progress: Callable[[int, int], None] | None = None) -> int:
        """Embed every message, fact and summary (of every agent) that has no vector, first dropping all
        vectors if they were made by another model. Returns how many items were embedded.

        ``progress(done, total)`` is called after each batch.
        """
        if self.embedder is None:
            raise InvalidInput("no embedder is configured (embedder = none)")
        stored = self.store.get_meta("embedding_model")
        dim = self.store.get_meta("embedding_dim")
        if (stored is not None and stored != self.embedder.model) or (
            dim is not None and int(dim) != self.embedder.dim
        ):
            self.store.drop_vectors()
        self.store.set_meta("embedding_model", self.embedder.model)
        counts = self.store.status().counts
        total = counts.get("messages", 0) + counts.get("facts", 0) + counts.get("summaries", 0)
        done = 0
        for kind in ("message", "fact", "summary"):
            while True:
                items = self.store.items_without_vectors(kind, batch_size)
                if not items:
                    break
                by_agent: dict[str, list[Any]] = {}
                for item in items:
                    by_agent.setdefault(item.agent, []).append(item)
                for agent, group in by_agent.items():
                    vectors = self.embedder.embed([_item_text(item) for item in group], "document")
                    self.store.set_vectors(agent, kind, [item.id for item in group], vectors)
                done += len(items)
                if progress is not None:
                    progress(min(done, total), total)
        return done

    # -- messages and threads -----------------------------------------------------------------------
    def _count(self, item: NewMessage) -> int:
        return self.tokenizer.count_message(
            {
                "role": item.role,
                "content": item.content,
                "name": item.name,
                "tool_calls": item.tool_calls,
                "tool_call_id": item.tool_call_id,
            }
        )

    def add_message(
        self,
        thread: str,
        role: str,
        content: str | None,
        *,
        user: str | None = None,
        name: str | None = None,
        tool_calls: list[dict[str, Any]] | str | None = None,
        tool_call_id: str | None = None,
        created_at: datetime | str | None = None,
        metadata: Mapping[str, Any] | str | None = None,
    ) -> Message:
        """Append one message to ``thread`` (created on first use) and return it as stored.

        ``content`` may be empty only for an assistant message that carries ``tool_calls``.
        ``created_at`` (datetime or ISO text; naive means UTC) lets you import history.

        Raises:
            InvalidInput: a field is invalid (nothing is stored). StorageError: the write failed.
        """
        item = new_message(
            role,
            content,
            user=user,
            name=name,
            tool_calls=tool_calls,
            tool_call_id=tool_call_id,
            created_at=created_at,
            metadata=metadata,
            max_chars=self.settings.max_content_chars,
        )
        key = check_key(thread, "thread")
        vectors = self._embed([_new_message_text(item)])
        jobs = self.pipeline.after_messages(key, [item])
        return self.store.add_messages(self.agent, key, [item], [self._count(item)], self._now(), vectors, jobs)[0]

    def add_messages(self, thread: str, items: Iterable[Mapping[str, Any]]) -> list[Message]:
        """Append several messages in one transaction: all are stored, or none.

        Each item is a dict with :meth:`add_message`'s keys (``role`` and ``content`` required).

        Raises:
            InvalidInput: an item is invalid (its index is in the message; nothing is stored).
        """
        key = check_key(thread, "thread")
        checked = [new_message_from_item(item, i, self.settings.max_content_chars) for i, item in enumerate(items)]
        vectors = self._embed([_new_message_text(m) for m in checked])
        counts = [self._count(m) for m in checked]
        jobs = self.pipeline.after_messages(key, checked) if checked else []
        return self.store.add_messages(self.agent, key, checked, counts, self._now(), vectors, jobs)

    def history(self, thread: str, limit: int | None = None) -> list[Message]:
        """The thread's messages in order; with ``limit``, the last ``limit``. Empty for an unknown thread."""
        if limit is not None and limit < 0:
            raise InvalidInput("limit must not be negative")
        return self.store.messages(self.agent, check_key(thread, "thread"), limit=limit)

    def thread(self, thread: str) -> Thread:
        """The thread's record.

        Raises:
            NotFound: no such thread in this agent.
        """
        found = self.store.get_thread(self.agent, check_key(thread, "thread"))
        if found is None:
            raise NotFound(f"no thread {thread!r} in agent {self.agent!r}")
        return found

    def threads(
        self, user: str | None = None, *, status: str | None = None, limit: int | None = None, offset: int = 0
    ) -> list[Thread]:
        """Threads, most recently active first; with ``user``, only those the user wrote in."""
        if status not in (None, "open", "ended"):
            raise InvalidInput(f"status must be 'open' or 'ended', not {status!r}")
        return self.store.list_threads(
            self.agent, user=check_optional_key(user, "user"), status=status, limit=limit, offset=offset
        )

    def set_thread(
        self, thread: str, *, system_prompt: str | None = None, metadata: Mapping[str, Any] | str | None = None
    ) -> Thread:
        """Create the thread if needed and set its system prompt and/or metadata."""
        prompt = None
        if system_prompt is not None:
            prompt = check_content(system_prompt, "system_prompt", self.settings.max_content_chars, allow_empty=True)
        meta = None if metadata is None else check_metadata(metadata)
        return self.store.upsert_thread(
            self.agent, check_key(thread, "thread"), self._now(), system_prompt=prompt, metadata=meta
        )

    def reset(self, thread: str) -> int:
        """Clear the conversation (messages and its summaries) but keep facts; returns messages cleared.

        Raises:
            NotFound: no such thread.
        """
        return self.store.clear_thread(self.agent, check_key(thread, "thread"))

    def delete_thread(self, thread: str) -> None:
        """Delete the thread, its messages and summaries (facts learned from it stay).

        Raises:
            NotFound: no such thread.
        """
        if not self.store.delete_thread(self.agent, check_key(thread, "thread")):
            raise NotFound(f"no thread {thread!r} in agent {self.agent!r}")

    def prune(self, older_than_days: float) -> int:
        """Delete threads with no activity for ``older_than_days`` days; returns how many."""
        if isinstance(older_than_days, bool) or not isinstance(older_than_days, int | float) or older_than_days < 0:
            raise InvalidInput("older_than_days must be a non-negative number")
        return self.store.prune_threads(self.agent, self._now() - timedelta(days=older_than_days))

    def end(self, thread: str) -> Thread:
        """Mark the conversation ended.

        Raises:
            NotFound: no such thread.
        """
        key = check_key(thread, "thread")
        if self.store.get_thread(self.agent, key) is None:
            raise NotFound(f"no thread {thread!r} in agent {self.agent!r}")
        return self.store.upsert_thread(self.agent, key, self._now(), status="ended", jobs=self.pipeline.after_end(key))

    # -- facts --------------------------------------------------------------------------------------
    def remember(
        self,
        content: str,
        *,
        user: str | None = None,
        category: str = "fact",
        importance: int = 3,
        visibility: str = "private",
        subject: str | None = None,
        metadata: Mapping[str, Any] | str | None = None,
        thread: str | None = None,
    ) -> Fact:
        """Store a fact owned by ``user`` (None: the agent's own memory, visible to all its users).

        Raises:
            InvalidInput: a field is invalid.
        """
        fact = NewFact(
            content=check_content(content, "content", self.settings.max_content_chars).strip(),
            category=check_category(category),
            importance=check_importance(importance),
            owner=check_optional_key(user, "user"),
            subject=check_optional_key(subject, "subject"),
            visibility=check_visibility(visibility),
            metadata=check_metadata(metadata),
            source_thread=check_optional_key(thread, "thread"),
        )
        vectors = self._embed([_fact_text(fact.content, fact.subject)])
        vector = None if vectors is None else vectors[0]
        jobs = self.pipeline.after_fact_change(fact.owner)
        return self.store.add_fact(self.agent, fact, actor=fact.owner, now=self._now(), vector=vector, jobs=jobs)

    def fact(self, fact_id: int) -> Fact:
        """One fact by id.

        Raises:
            NotFound: no such fact in this agent.
        """
        found = self.store.get_facts(self.agent, [_check_id(fact_id)])
        if not found:
            raise NotFound(f"no fact {fact_id} in agent {self.agent!r}")
        return found[0]

    def facts(
        self,
        user: str | None = None,
        *,
        subject: str | None = None,
        category: str | None = None,
        visibility: str | None = None,
        thread: str | None = None,
        all_users: bool = False,
        include_superseded: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Fact]:
        """Facts ``user`` may see: their own, shared ones and the agent's own (``user=None``: the last two).

        ``all_users=True`` lists every user's facts (an admin view). Most important first.
        """
        flt = FactFilter(
            user=check_optional_key(user, "user"),
            all_users=all_users,
            subject=subject,
            category=None if category is None else check_category(category),
            visibility=None if visibility is None else check_visibility(visibility),
            thread=thread,
            include_superseded=include_superseded,
        )
        return self.store.list_facts(self.agent, flt, limit=limit, offset=offset)

    def _owned(self, fact_id: int, user: str | None) -> Fact:
        fact = self.fact(fact_id)
        if user is not None and fact.owner != user:
            raise Forbidden(f"fact {fact_id} belongs to {fact.owner or 'the agent'!r}, not to {user!r}")
        return fact

    def update_fact(
        self,
        fact_id: int,
        *,
        content: str | None = None,
        category: str | None = None,
        importance: int | None = None,
        visibility: str | None = None,
        subject: str | None = None,
        metadata: Mapping[str, Any] | str | None = None,
        user: str | None = None,
    ) -> Fact:
        """Change a fact; the change is recorded in its history. ``user`` acts as the owner (checked).

        Raises:
            NotFound: no such fact. Forbidden: ``user`` does not own it. InvalidInput: a bad value.
        """
        changes: dict[str, Any] = {}
        if content is not None:
            changes["content"] = check_content(content, "content", self.settings.max_content_chars).strip()
        if category is not None:
            changes["category"] = check_category(category)
        if importance is not None:
            changes["importance"] = check_importance(importance)
        if visibility is not None:
            changes["visibility"] = check_visibility(visibility)
        if subject is not None:
            changes["subject"] = check_key(subject, "subject")
        if metadata is not None:
            changes["metadata"] = check_metadata(metadata)
        before = self._owned(_check_id(fact_id), check_optional_key(user, "user"))
        vector = None
        if "content" in changes or "subject" in changes:
            vectors = self._embed(
                [_fact_text(changes.get("content", before.content), changes.get("subject", before.subject))]
            )
            vector = None if vectors is None else vectors[0]
        jobs = self.pipeline.after_fact_change(before.owner)
        return self.store.update_fact(
            self.agent, fact_id, changes, actor=user, now=self._now(), action="update", vector=vector, jobs=jobs
        )

    def forget(self, fact_id: int, *, user: str | None = None, purge: bool = False) -> Fact:
        """Delete a fact and return what it was. Its history keeps a 'delete' entry unless ``purge``.

        Raises:
            NotFound: no such fact. Forbidden: ``user`` does not own it.
        """
        fact = self._owned(_check_id(fact_id), check_optional_key(user, "user"))
        jobs = self.pipeline.after_fact_change(fact.owner)
        self.store.delete_facts(self.agent, [fact.id], actor=user, now=self._now(), purge_history=purge, jobs=jobs)
        return fact

    def forget_all(
        self,
        user: str | None = None,
        *,
        subject: str | None = None,
        category: str | None = None,
        thread: str | None = None,
        purge: bool = False,
    ) -> int:
        """Delete the facts ``user`` owns (``user=None``: the agent's own facts); returns how many.

        Never touches another agent, nor facts another user owns, shared or not.
        """
        flt = FactFilter(
            user=check_optional_key(user, "user"),
            owned_only=True,
            subject=subject,
            category=None if category is None else check_category(category),
            thread=thread,
            include_superseded=True,
        )
        ids = [f.id for f in self.store.list_facts(self.agent, flt, limit=None)]
        jobs = self.pipeline.after_fact_change(flt.user)
        return self.store.delete_facts(self.agent, ids, actor=user, now=self._now(), purge_history=purge, jobs=jobs)

    def fact_history(self, fact_id: int) -> list[FactChange]:
        """Every change made to a fact, oldest first (kept after the fact is forgotten).

        Raises:
            NotFound: the fact never existed in this agent.
        """
        changes = self.store.fact_history(self.agent, _check_id(fact_id))
        if not changes:
            raise NotFound(f"no fact {fact_id} in agent {self.agent!r}")
        return changes

    # -- recall and context -------------------------------------------------------------------------
    @overload
    def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: None = None,
    ) -> list[Hit]: ...

    @overload
    def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: Literal["thread"],
    ) -> list[HitGroup]: ...

    def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: Literal["thread"] | None = None,
    ) -> list[Hit] | list[HitGroup]:
        """The ``limit`` memories most relevant to ``query``: messages, facts and summaries the scope allows,
        best first, each with its provenance (thread, message ids, created_at, metadata).

        Search follows ``preset`` (a name from :data:`memlane.retrieval.PRESETS` or a
        :class:`~memlane.retrieval.SearchConfig`; default: the ``search_preset`` setting). The default
        fuses keyword (BM25) and semantic search, favours items by or about a person the query names,
        and shows each message with its neighbouring turns (see :class:`~memlane.types.Hit`).

        A time the query names ("last week", "yesterday", "in May", "two days ago", "in 2023") is read
        relative to ``now`` (default: the memory's clock) and favours items of that time. ``since`` /
        ``until`` are hard limits on when items were created.

        ``user`` limits facts to the user's own, shared and agent-level ones and messages to the user's
        threads (unless ``thread`` is given). ``kinds`` picks among "message", "fact", "summary".
        ``metadata`` keeps only items whose metadata holds each ``key: value`` given (top-level keys,
        string/number/boolean/None values; e.g. ``{"channel": "#general"}``), inside the search.
        A message is found as soon as :meth:`add_message` has returned.

        ``group_by="thread"`` returns the same hits as :class:`~memlane.types.HitGroup` objects, one per
        thread (facts without a thread form a group with ``thread=None``), best group first, each
        group's hits in the order they happened.

        Raises:
            InvalidInput: empty query, bad limit, kind, metadata filter or group_by. ConfigError: unknown preset.
        """
        text = check_content(query, "query", self.settings.max_content_chars)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput("limit must be a positive integer")
        if group_by not in (None, "thread"):
            raise InvalidInput(f"group_by must be 'thread' or None, not {group_by!r}")
        wanted = tuple(kinds) if kinds is not None else _KINDS
        bad = [k for k in wanted if k not in _KINDS]
        if bad:
            raise InvalidInput(f"unknown kinds {bad}; use {', '.join(_KINDS)}")
        scope = Scope(
            user=check_optional_key(user, "user"),
            thread=check_optional_key(thread, "thread"),
            kinds=wanted,
            since=since,
            until=until,
            include_superseded=include_superseded,
            metadata=check_metadata_filter(metadata),
        )
        config = preset if isinstance(preset, SearchConfig) else get_preset(preset or self.settings.search_preset)
        at = self._now() if now is None else (now if now.tzinfo else now.replace(tzinfo=UTC))
        found = self.searcher.search(self.agent, text, scope, limit, config, now=at)
        hits = self._hydrate(found)
        fact_ids = [h.id for h in hits if h.kind == "fact"]
        if fact_ids:
            self.store.touch_facts(self.agent, fact_ids, self._now())
        return _group_by_thread(hits) if group_by == "thread" else hits

    def _hydrate(self, found: Sequence[Found]) -> list[Hit]:
        hits: list[Hit] = []
        for f in found:
            if isinstance(f.item, Message):
                hits.append(_message_hit(f.item, f.score, f.window))
            elif isinstance(f.item, Fact):
                hits.append(_fact_hit(f.item, f.score))
            else:
                hits.append(_summary_hit(f.item, f.score))
        return hits

    def context(
        self,
        thread: str,
        *,
        query: str | None = None,
        user: str | None = None,
        budget: int | None = None,
        system_prompt: str | None = None,
    ) -> Context:
        """Assemble what to send to the model next, never more than ``budget`` tokens (default
        ``max_history_tokens``): system prompt (given, else the thread's), the latest rolling summaries
        of what the recent window does not show, facts ``user`` may see (the most relevant to ``query``
        first), messages and rolling summaries recalled for ``query`` from outside the recent window (from
        the threads ``user`` took part in; without ``user``, those of the thread's only user, else from
        this thread alone), the pipeline's sections, and as many recent messages as fit.

        Raises:
            InvalidInput: bad budget, or the system prompt alone exceeds it.
        """
        key = check_key(thread, "thread")
        budget = self.settings.max_history_tokens if budget is None else budget
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise InvalidInput("budget must be a positive integer")
        viewer = check_optional_key(user, "user")
        info = self.store.get_thread(self.agent, key)
        prompt = system_prompt if system_prompt is not None else (info.system_prompt if info else "") or ""
        recent = self.store.messages(self.agent, key, limit=self.settings.max_messages_in_context)
        # A few more than shown: those the recent window repeats word for word are left out below.
        summaries = self.store.summaries(self.agent, thread=key, kind="rolling", limit=2 * _CONTEXT_SUMMARIES)
        facts = self._context_facts(viewer, query)
        hits: list[Hit] = []
        if query and query.strip():
            # Without a viewer, the thread's only user stands in; with none or several, only this thread
            # is searched (any other may be some other user's private conversation). Memories and
            # profiles have sections of their own: only messages and rolling summaries are recalled.
            owner = viewer or (info.users[0] if info is not None and len(info.users) == 1 else None)
            found = self.recall(
                query,
                user=owner,
                thread=None if owner else key,
                limit=_CONTEXT_RECALL + 2,
                kinds=("message", "summary"),
            )
            hits = [h for h in found if _recallable(h, summaries)][:_CONTEXT_RECALL]

        sections = self.pipeline.context_sections(key, viewer, query)

        def build(exclude: set[int], window_from: int | None) -> Context:
            # A summary whose whole range is in the recent window says again what the window shows.
            shown = [s for s in summaries if window_from is None or s.from_seq is None or s.from_seq < window_from]
            return assemble(
                tokenizer=self.tokenizer,
                budget=budget,
                system_prompt=prompt,
                summaries=list(reversed(shown[:_CONTEXT_SUMMARIES])),
                facts=facts,
                recalled=[h for h in hits if h.message_id not in exclude],
                recent=recent,
                extra_sections=sections,
                counts=self._token_counts,
            )

        # Recalled messages already in the window are not repeated; but a recent message the budget
        # left out may come back as a recalled item, and what the budget keeps of the window decides
        # which summaries repeat it: fit once, then again against what was kept.
        first = recent[0].seq if recent else None
        ctx = build({m.id for m in recent}, first)
        kept = ctx.messages[0].seq if ctx.messages else None
        skipped = first is not None and any(
            s.from_seq is not None and s.from_seq >= first and (kept is None or s.from_seq < kept) for s in summaries
        )  # a summary left out as repeating the window, whose messages the budget then left out too
        if (hits and ctx.dropped_messages) or skipped:
            ctx = build({m.id for m in ctx.messages}, kept)
        if ctx.facts:
            self.store.touch_facts(self.agent, [f.id for f in ctx.facts], self._now())
        return ctx

    def _context_facts(self, viewer: str | None, query: str | None) -> list[Fact]:
        listed = self.store.list_facts(self.agent, FactFilter(user=viewer), limit=50)
        if not query or not query.strip():
            return listed
        relevant = self.searcher.search(
            self.agent,
            query,
            Scope(user=viewer, kinds=("fact",)),
            20,
            get_preset(self.settings.search_preset),
            now=self._now(),
        )
        ranked = [f.item for f in relevant if isinstance(f.item, Fact)]
        first = {f.id for f in ranked}
        return ranked + [f for f in listed if f.id not in first]

    def summaries(
        self, thread: str | None = None, *, kind: str | None = None, limit: int | None = None
    ) -> list[Summary]:
        """Stored summaries, newest first."""
        return self.store.summaries(self.agent, thread=check_optional_key(thread, "thread"), kind=kind, limit=limit)

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` with the configured model's tokenizer."""
        return self.tokenizer.count(text)

    def status(self) -> StoreStatus:
        """Backend, location, schema version and this agent's row counts."""
        return self.store.status(self.agent)

    # -- export / import ----------------------------------------------------------------------------
    def export_records(self, threads: Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
        """This agent's threads, messages, summaries, facts and fact history as JSON-ready dicts."""
        yield {"type": "header", "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "agent": self.agent}
        yield from self.store.export_records(self.agent, threads)

    def export(self, target: str | Path | IO[str], *, threads: Sequence[str] | None = None) -> int:
        """Write the agent's memory as JSON Lines to a path or text stream; returns records written."""
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
                record["token_count"] = self.tokenizer.count_message(
                    {k: record[k] for k in ("role", "content", "name", "tool_calls", "tool_call_id")}
                )
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


def _new_message_text(item: NewMessage) -> str:
    return message_text(item.role, item.content, item.user, item.name, item.tool_calls)


def _fact_text(content: str, subject: str | None) -> str:
    return f"{subject}: {content}" if subject and subject.lower() not in content.lower() else content


def _item_text(item: Message | Fact | Summary) -> str:
    if isinstance(item, Message):
        return message_text(item.role, item.content, item.user, item.name, item.tool_calls)
    if isinstance(item, Fact):
        return _fact_text(item.content, item.subject)
    return item.content


def _check_id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"an id must be a positive integer, not {value!r}")
    return value


def _recallable(hit: Hit, summaries: Sequence[Summary]) -> bool:
    """Whether ``context()`` shows a recalled hit: messages, and rolling summaries it does not show as
    such already (memories and profiles have sections of their own)."""
    if hit.kind != "summary":
        return True
    return hit.metadata.get("summary_kind") == "rolling" and all(s.id != hit.id for s in summaries)


def _message_hit(m: Message, score: float, window: Sequence[Message] = ()) -> Hit:
    """A message hit; with a window of several turns, one ``speaker: content`` line per turn."""
    shown = tuple(window) or (m,)
    text = m.content if len(shown) == 1 else "\n".join(f"{_speaker(w)}: {w.content}" for w in shown)
    return Hit(
        kind="message",
        id=m.id,
        text=text,
        score=score,
        thread=m.thread,
        message_id=m.id,
        created_at=m.created_at,
        metadata=m.metadata,
        user=(m.name or m.user) if len(shown) == 1 else None,
        seq=m.seq,
        message_ids=tuple(w.id for w in shown),
    )


def _speaker(m: Message) -> str:
    return m.name or m.user or m.role


def _group_by_thread(hits: Sequence[Hit]) -> list[HitGroup]:
    """Hits gathered per thread, groups in order of their best hit, hits in the order they happened."""
    groups: dict[str | None, list[Hit]] = {}
    for hit in hits:
        groups.setdefault(hit.thread, []).append(hit)
    return [
        HitGroup(
            thread=thread,
            score=max(h.score for h in members),
            hits=tuple(sorted(members, key=lambda h: (h.created_at, h.seq or 0, h.id))),
        )
        for thread, members in groups.items()
    ]


def _fact_hit(f: Fact, score: float) -> Hit:
    return Hit(
        kind="fact",
        id=f.id,
        text=f.content,
        score=score,
        thread=f.source_thread,
        message_id=None,
        created_at=f.created_at,
        metadata={
            **f.metadata,
            "category": f.category,
            "importance": f.importance,
            "visibility": f.visibility,
            "from_seq": f.source_from_seq,
            "to_seq": f.source_to_seq,
        },
        user=f.owner,
    )


def _summary_hit(s: Summary, score: float) -> Hit:
    return Hit(
        kind="summary",
        id=s.id,
        text=s.content,
        score=score,
        thread=s.thread,
        message_id=None,
        created_at=s.created_at,
        metadata={**s.metadata, "from_seq": s.from_seq, "to_seq": s.to_seq, "summary_kind": s.kind},
        user=s.owner,
    )
