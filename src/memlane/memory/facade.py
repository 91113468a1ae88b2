"""The ``Memory`` facade: the one object a bot or agent talks to.

A ``Memory`` is bound to one agent (the app or bot that owns the memory, the hard isolation boundary)
and to one store. It validates every input before writing, counts tokens with the configured model's
tokenizer, and assembles token-budgeted context. It is safe to share between threads; several
processes may open the same store.

``Memory`` is assembled from one part per thing a user does, each in its own module of this package::

    facade.py    Memory: construction, lifecycle, background jobs, token counts
    threads.py   ThreadsMixin: messages and threads
    facts.py     FactsMixin: remembered facts and their history
    recall.py    RecallMixin: recall, context assembly, summaries
    admin.py     AdminMixin: embedding model checks, reindex, status, export / import
    agent.py     AgentMixin: agent memories, profiles, digests, jobs, LLM usage
    keys.py      KeysMixin: API keys of the HTTP server
    base.py      MemoryBase: the state and helpers they share
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..context import TokenCounts
from ..errors import InvalidInput
from ..exchange import EXPORT_FORMAT
from ..pipeline import Pipeline
from ..pipeline.usage import UsageLedger, ledger_for
from ..pipeline.worker import BackgroundWorker, Worker
from ..retrieval import Searcher
from ..retrieval.names import SpeakerNames
from ..store import Store, open_store_for
from ..tokens import Tokenizer, encoding_for, get_tokenizer
from ..validation import check_key
from .admin import AdminMixin
from .agent import AgentMixin
from .base import typed_errors
from .behind import BEHIND
from .facts import FactsMixin
from .keys import KeysMixin
from .recall import RecallMixin
from .threads import ThreadsMixin

if TYPE_CHECKING:
    from ..config import Settings
    from ..embeddings import Embedder
    from ..llm import LLMClient

__all__ = ["EXPORT_FORMAT", "Memory"]


def _utcnow() -> datetime:
    return datetime.now(UTC)


class _Default:
    """Marker: build this dependency from settings."""


DEFAULT: Any = _Default()


def embedder_from_settings(settings: Settings) -> Embedder | None:
    """The embedder the settings name (``none`` → None)."""
    if settings.embedder == "none":
        return None
    from ..embeddings import make_embedder  # loads onnxruntime only when an embedder is wanted

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
    from ..llm import make_llm

    return make_llm(
        settings.llm_provider,
        base_url=settings.llm_base_url,
        api_key=settings.llm_api_key,
        model=settings.llm_model,
        timeout=settings.llm_timeout,
    )


@typed_errors
class Memory(ThreadsMixin, FactsMixin, RecallMixin, AdminMixin, AgentMixin, KeysMixin):
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

    Example:
        >>> with Memory("quickstart.db", agent="my-bot") as mem:
        ...     _ = mem.add_message("general", "user", "Hi, I'm Alice. I love hiking in the Alps.", user="alice")
        ...     _ = mem.remember("Alice loves hiking in the Alps", user="alice", category="hobby")
        ...     ctx = mem.context("general", query="Plan a weekend for me", user="alice", budget=1000)

    The examples of the methods use ``mem``, a memory of agent ``"my-bot"`` holding that conversation: thread
    ``"general"`` with Alice's message and the assistant's reply ("Nice to meet you, Alice! Which trail is
    your favourite?"), and fact 1, "Alice loves hiking in the Alps", which Alice owns.
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
        if settings is None:
            from ..config import load_settings  # pydantic loads with the first Memory, not with `import memlane`

            settings = load_settings(config_file)
        self.settings = settings
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
        self._speakers = SpeakerNames(lambda: self.store.speakers(self.agent))
        self._token_counts = TokenCounts(self.tokenizer)
        self.pipeline = Pipeline(self)
        self._behind = None
        if self.embedder is not None:
            self.searcher.retrievers["vector"] = self._vector_retriever
            self.searcher.retrievers["keyword"] = self._keyword_retriever
            if not self.store.reads_wait:  # a database server's round trips are worth overlapping anyway
                self.searcher.waits = self._query_waits
            if check_model:
                self._check_model()
            if self.embedder.in_process and self.settings.embed_behind:
                self._behind = BEHIND
                BEHIND.recover(self.store, self.embedder)  # what a stopped process left, in the background
        if self.settings.auto_prune_days and self._owns_store:
            self.prune(self.settings.auto_prune_days)
        if self.settings.message_retention_days and self._owns_store:
            self.prune_messages(self.settings.message_retention_days)
        # -- background jobs and LLM usage accounting (memlane.pipeline.worker / .usage) --------------
        self.usage: UsageLedger = ledger_for(self.settings, self.llm, self.store, self._now)
        self._worker: BackgroundWorker | None = None
        if self.settings.worker == "thread":
            self._worker = BackgroundWorker(self)
            self._worker.start()

    # -- lifecycle ----------------------------------------------------------------------------------
    def close(self) -> None:
        """Stop the background worker, wait for the vectors of the messages written (:meth:`flush`), then
        close the store (unless it was handed in).

        Example:
            >>> mem.close()
        """
        worker, self._worker = getattr(self, "_worker", None), None
        if worker is not None:
            worker.stop()
        self.flush()
        if self._owns_store:
            BEHIND.forget(self.store)
            self.store.close()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every message this process wrote to the store has its vector; False if ``timeout``
        seconds passed first.

        With a local model, a small write returns once its messages are stored, and a helper thread embeds
        the texts of the writes queued meanwhile together (``MEMLANE_EMBED_BEHIND``). ``recall()`` already
        waits for its own agent's; call this before reading vectors some other way, or to time ingestion
        with its embedding. Messages whose embedding failed stay pending and do not hold this up.

        Example:
            >>> mem.flush(timeout=10)
            True
        """
        behind = getattr(self, "_behind", None)
        return True if behind is None else behind.wait(self.store, timeout=timeout)

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory({self.store.location!r}, agent={self.agent!r})"

    def for_agent(self, agent: str) -> Memory:
        """A view of the same store for another agent (closing it does not close the store). It shares
        this memory's LLM usage ledger and starts no worker of its own.

        Example:
            >>> other = mem.for_agent("another-bot")
            >>> other.facts("alice")
            []
        """
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

    def run_jobs(self, timeout: float | None = 60.0) -> int:
        """Run queued jobs (of every agent in the store) here and now until none is ready, or ``timeout``
        seconds passed; returns how many were run. Failed jobs are rescheduled or dead-lettered as a
        worker would (see :mod:`memlane.pipeline.worker`).

        Raises:
            StorageError: the queue could not be read.

        Example:
            >>> _ = mem.end("general")
            >>> mem.run_jobs()
            3
        """
        return Worker(self).drain(timeout)

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` with the configured model's tokenizer.

        Example:
            >>> mem.count_tokens("Hello, world!")
            4
        """
        return self.tokenizer.count(text)
