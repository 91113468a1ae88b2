"""What the parts of :class:`~memlane.Memory` share (see :mod:`memlane.memory` for how it is assembled).

:class:`MemoryBase` declares the state ``Memory.__init__`` sets, which every mixin relies on, and the
helpers every area uses: the clock and embedding. The functions below check the values several areas take;
what text an item is embedded as is :mod:`memlane.texts`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import InvalidInput, MemlaneError
from ..pools import LazyPool
from ..texts import fact_text, item_text, message_text
from ..validation import MAX_INT

if TYPE_CHECKING:
    import numpy as np

    from ..config import Settings
    from ..context import TokenCounts
    from ..embeddings import Embedder
    from ..llm import LLMClient
    from ..pipeline import Pipeline
    from ..pipeline.usage import UsageLedger
    from ..retrieval import Searcher
    from ..retrieval.names import SpeakerNames
    from ..store import Scope, Store
    from ..tokens import Tokenizer
    from .behind import VectorsBehind

__all__ = [  # the text helpers live in memlane.texts (the pipeline uses them too); re-exported here
    "KINDS",
    "TOKEN_FIELDS",
    "MemoryBase",
    "aware",
    "check_count",
    "check_positive",
    "fact_text",
    "item_text",
    "message_text",
    "typed_errors",
]

T = TypeVar("T")

KINDS = ("message", "fact", "summary")  # what the store holds, embeds and recalls
TOKEN_FIELDS = ("role", "content", "name", "tool_calls", "tool_call_id")  # what a message's token count covers


class MemoryBase:
    """The state every part of :class:`~memlane.Memory` relies on (set by ``Memory.__init__``)."""

    settings: Settings
    agent: str
    store: Store
    tokenizer: Tokenizer
    clock: Callable[[], datetime]
    embedder: Embedder | None
    llm: LLMClient | None
    searcher: Searcher
    pipeline: Pipeline
    usage: UsageLedger
    _token_counts: TokenCounts
    _behind: VectorsBehind | None  # set: small writes leave their texts to be embedded behind them
    _speakers: SpeakerNames  # the agent's speakers' names, left out of the text a query's vector is made from
    _model_noted: bool = False  # the store's embedding_model has been seen set

    if TYPE_CHECKING:

        def _enforce_fact_cap(self, owner: str | None, *, keep: int) -> int: ...  # facts.py

    def _now(self) -> datetime:
        return aware(self.clock())

    def _embed(self, texts: Sequence[str]) -> np.ndarray | None:
        if self.embedder is None or not texts:
            return None
        self._note_model(self.embedder)
        return self.embedder.embed(list(texts), "document")

    def _embed_while_writing(self, texts: Sequence[str]) -> Embedding | None:
        """The vectors of ``texts``, for a write that stores them with its rows (see :class:`Embedding`), or
        a promise of them (``Embedding.later``: the write records its messages as waiting for their vectors
        and hands them to :mod:`memlane.memory.behind` once stored)."""
        if self.embedder is None or not texts:
            return None
        embedder = self.embedder
        self._note_model(embedder)
        items = list(texts)
        if self._behind is not None and self._behind.room(len(items)):
            return Embedding(None)
        rounds = embedder.batch_size * embedder.concurrency * OVERLAP_ROUNDS
        if embedder.in_process and len(items) <= rounds and embedder.idle:
            under_way = _HELPERS.try_submit(embedder.embed, items, "document")
            if under_way is not None:
                return Embedding(under_way)
        return Embedding(embedder.embed(items, "document"))

    def _note_model(self, embedder: Embedder) -> None:
        if self._model_noted:
            return
        if self.store.get_meta("embedding_model") is None:
            self.store.set_meta("embedding_model", embedder.model)
        self._model_noted = True  # until reindex, which notes it itself

    def _vector_text(self, query: str) -> str:
        """The text a query's vector is made from: the query without the names of the agent's speakers
        (:mod:`memlane.retrieval.names`)."""
        return self._speakers.current().without(query)

    def _query_vector(self, agent: str, query: str, scope: Scope) -> np.ndarray:
        """The query's vector (of :meth:`_vector_text`), once the messages this process wrote earlier in the
        scope's thread (else of its user, else of the agent) have theirs (see :mod:`.behind`)."""
        assert self.embedder is not None
        vector = self.embedder.embed_query(self._vector_text(query))
        self._wait_for_vectors(agent, scope)
        return vector

    def _wait_for_vectors(self, agent: str, scope: Scope) -> None:
        """Wait for the vectors of the messages this process wrote earlier in the scope's thread (else in its
        user's threads, whoever wrote them, else in the agent; see :mod:`.behind`)."""
        behind = self._behind
        if behind is None or "message" not in scope.kinds:  # only messages are written behind
            return
        threads: set[str] = set()
        if scope.thread is None and scope.user is not None:
            # A user sees their threads' messages, the bot's replies and others' turns too, which are not
            # queued under the user: their threads with messages queued are looked up (none in the usual case).
            pending = behind.pending_threads(self.store, agent)
            if len(pending) > _THREADS_LOOKED_UP:
                listed = self.store.list_threads(agent, user=scope.user, status=None, limit=None, offset=0)
                threads = pending & {t.key for t in listed}
            else:
                for key in pending:
                    found = self.store.get_thread(agent, key)
                    if found is not None and scope.user in found.users:
                        threads.add(key)
        behind.wait(self.store, agent, thread=scope.thread, user=scope.user, threads=threads)

    def _embed_one(self, text: str) -> np.ndarray | None:
        vectors = self._embed([text])
        return None if vectors is None else vectors[0]


#: Most threads with queued messages a user's recall looks up one by one (past it, the user's threads are
#: listed once).
_THREADS_LOOKED_UP = 8


#: Most rounds of model runs (``batch_size * concurrency`` texts each) a write embeds while it stores its
#: rows, holding its transaction open meanwhile; a larger write embeds first (see :class:`Embedding`).
OVERLAP_ROUNDS = 4


class Embedding:
    """The vectors of a write's texts, perhaps still being embedded.

    Storing a message's rows takes ~0.1-0.4 ms on SQLite, embedding its text with the local model several
    ms. With a model that runs in this process (``Embedder.in_process``), a write of a few texts (at most
    :data:`OVERLAP_ROUNDS` rounds of model runs: every usual bot write) has them embedded on a helper thread
    while it stores its rows; inside its transaction it then waits for the vectors, so messages and vectors
    are still stored together or not at all, and an embedding error rolls the write back. A larger write
    (an import) embeds first and then writes, so no transaction stays open for long; so does a write with
    a remote model, whose latency is not to be waited for inside a transaction, and a write that finds the
    model busy (``Embedder.idle``): under concurrent writes a transaction waiting for its texts behind
    others' would hold up every writer (measured: 32 writers' p95 +40 %, bench/RESULTS.md, "Round 6").

    All of that applies when the queue of :mod:`.behind` is off (``MEMLANE_EMBED_BEHIND=false``), or the
    write holds more texts than the queue, or waited too long for room in it; otherwise a write with a
    local model stores no vectors at all (``later``): they are embedded after it commits, together with
    other writes' texts.
    """

    def __init__(self, vectors: np.ndarray | Future[np.ndarray] | None) -> None:
        self._vectors = vectors

    @property
    def later(self) -> bool:
        """The write stores no vectors: they are embedded after it commits (see :mod:`.behind`)."""
        return self._vectors is None

    def rows(self, start: int, end: int) -> Callable[[], np.ndarray]:
        """A call returning rows ``start:end``, waiting for every row (so an embedding error reaches the
        first write that asks, before anything is stored)."""
        return lambda: self.result()[start:end]

    def result(self) -> np.ndarray:
        """Every row (waiting for them if under way; an embedding error is raised here)."""
        if self._vectors is None:
            raise RuntimeError("the vectors of this write are embedded after it")
        return self._vectors.result() if isinstance(self._vectors, Future) else self._vectors


#: Embeddings under way at once beside their writes; a write that finds every helper busy embeds itself.
_HELPERS = LazyPool(4, "memlane-embed")


def aware(moment: datetime) -> datetime:
    """``moment`` with a time zone: a naive time is taken as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def typed_errors(cls: type[T]) -> type[T]:
    """Make every public method of ``cls`` raise only memlane's error tree.

    Each method checks its arguments first; this is the net under those checks, for what they could not
    foresee: a value of a type no check expected (``TypeError``/``ValueError`` from deeper down), an integer
    too large for the database (``OverflowError``), a value nested too deeply to walk (``RecursionError``).
    Each becomes :class:`~memlane.errors.InvalidInput`, the original chained as its cause. Nothing has been
    written when they occur: writes come after validation, in one transaction.
    """
    for name in dir(cls):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(cls, name)
        if inspect.isgeneratorfunction(attr):
            setattr(cls, name, _guarded_generator(attr))
        elif inspect.isfunction(attr):
            setattr(cls, name, _guarded(attr))
    return cls


_UNFORESEEN = (TypeError, ValueError, OverflowError, RecursionError)


def _as_invalid(exc: BaseException) -> InvalidInput:
    if isinstance(exc, RecursionError):
        return InvalidInput("a value is nested too deeply")
    if isinstance(exc, OverflowError):
        return InvalidInput(f"a number is too large: {exc}")
    return InvalidInput(f"an argument has the wrong type or value: {' '.join(str(exc).split())[:200]}")


def _guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except MemlaneError:
            raise
        except _UNFORESEEN as exc:
            raise _as_invalid(exc) from exc

    return call


def _guarded_generator(method: Callable[..., Iterator[Any]]) -> Callable[..., Iterator[Any]]:
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Iterator[Any]:
        try:
            yield from method(*args, **kwargs)
        except MemlaneError:
            raise
        except _UNFORESEEN as exc:
            raise _as_invalid(exc) from exc

    return call


def check_count(value: Any, name: str) -> int | None:
    """``value`` if it is None or a whole number from 0 to 2**63 - 1 (a limit or an offset).

    Raises:
        InvalidInput: anything else.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_INT:
        raise InvalidInput(f"{name} must be a whole number from 0 to 2**63 - 1, not {value!r}"[:200])
    return value


def check_positive(value: Any, message: str) -> int:
    """``value`` if it is a positive integer (a bool is not).

    Raises:
        InvalidInput: with ``message``, for anything else.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_INT:
        raise InvalidInput(message)
    return value
