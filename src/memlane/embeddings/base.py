"""The embedder contract: providers implement :meth:`Embedder.embed_batch`, the rest is built here once.

:meth:`Embedder.embed` adds what every provider needs the same way: input checks, de-duplication
of identical texts within a call, an LRU cache of recent ``(kind, text)`` vectors, batching of the
misses (shortest texts together, so a local model pads little), running up to ``concurrency`` batches
at once (threads: a local model releases the GIL, a remote one waits on the network), and a check of
what the provider returned. :meth:`Embedder.embed_query` is ``embed`` for one query; calls for the same
query at the same time embed it once (a recall with a time range searches two scopes at once, each
with the query's vector).
"""

from __future__ import annotations

import functools
import math
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, Literal, Self, TypeAlias

from memlane.errors import ConfigError, InvalidInput, InvalidOutput
from memlane.pools import LazyPool

from .coalesce import Coalescer

if TYPE_CHECKING:  # numpy loads with the first vectors made, not with the embedder's object
    import numpy as np
    import numpy.typing as npt

__all__ = ["KINDS", "EmbedKind", "Embedder", "Vectors", "normalize_rows"]

EmbedKind: TypeAlias = Literal["query", "document"]
#: The kinds of text an embedder is told about (some models embed a question unlike a passage).
KINDS: tuple[EmbedKind, ...] = ("query", "document")
#: float32 array of shape ``(n, dim)``, one unit-length row per text.
Vectors: TypeAlias = "npt.NDArray[np.float32]"


def normalize_rows(matrix: npt.NDArray[np.floating]) -> Vectors:
    """``matrix`` as float32 with every row scaled to unit L2 length.

    Raises:
        InvalidOutput: a row is all zeros or holds NaN/inf (it has no direction to keep).
    """
    import numpy as np

    rows = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    if rows.size and not (np.all(np.isfinite(norms)) and np.all(norms > 0.0)):
        raise InvalidOutput("an embedding is all zeros or not finite")
    unit: Vectors = (rows / norms).astype(np.float32, copy=False)
    return unit


class Embedder(ABC):
    """Turns texts into unit-length float32 vectors; the same text always gives the same vector.

    Subclasses set ``model`` (a stable identifier stored with the vectors, so a store notices a
    changed model) and ``dim``, call ``super().__init__``, and implement :meth:`embed_batch`.
    Instances are safe to share between threads.

    Args:
        batch_size: most texts handed to :meth:`embed_batch` at once.
        cache_size: how many recent ``(kind, text)`` vectors :meth:`embed` keeps; 0 disables.
        concurrency: most batches of one :meth:`embed` call handed to :meth:`embed_batch` at the
            same time, from a pool of threads made on first need (1: one after another).

    Raises:
        ConfigError: ``batch_size`` or ``concurrency`` < 1, or ``cache_size`` < 0.
    """

    model: str
    dim: int
    #: The model runs in this process (no network): a small write that finds it idle embeds its texts while
    #: it stores its rows, holding its transaction meanwhile (see ``memlane.memory.base.Embedding``).
    #: A remote provider leaves it False: its latency is not to be waited for inside a transaction.
    in_process: bool = False

    def __init__(self, *, batch_size: int = 32, cache_size: int = 4096, concurrency: int = 1) -> None:
        if batch_size < 1:
            raise ConfigError(f"batch_size must be at least 1, got {batch_size}")
        if cache_size < 0:
            raise ConfigError(f"cache_size must not be negative, got {cache_size}")
        if concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, got {concurrency}")
        self.batch_size = batch_size
        self.cache_size = cache_size
        self.concurrency = concurrency
        self._pool = LazyPool(concurrency, f"{type(self).__name__}")  # batches of one call, when several
        self._cache: OrderedDict[tuple[str, str], Vectors] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._pending: dict[str, Future[Vectors]] = {}  # queries being embedded now (under _cache_lock)
        self._in_flight = 0  # calls of embed() under way (under _cache_lock)
        self._query_seconds: float | None = None  # recent queries' time to embed, not cached (a moving mean)
        # Concurrent calls with one batch of texts each are embedded together (coalesce.py).
        self._together = {
            kind: Coalescer(functools.partial(self._checked_batch, kind=kind), batch_size, concurrency)
            for kind in KINDS
        }

    @abstractmethod
    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        """Embed ``texts`` as they are (no cache, no de-duplication).

        Returns:
            float32 array of shape ``(len(texts), dim)``, rows L2-normalised, in input order.

        Raises:
            ProviderError: the model could not be run or reached (subclasses say which).
        """

    def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> Vectors:
        """Embed ``texts`` (of one ``kind``) through the cache, in batches of ``batch_size``.

        Identical texts are embedded once per call; recently seen ones not at all.

        Returns:
            float32 array of shape ``(len(texts), dim)`` with unit-length rows, in input order;
            ``(0, dim)`` for no texts. The array is the caller's to modify.

        Raises:
            InvalidInput: ``texts`` is a single string or holds a non-string, or ``kind`` is unknown.
            InvalidOutput: the provider returned vectors of the wrong shape or non-finite values.
            ProviderError: the provider failed (see the subclass).
        """
        import numpy as np

        if isinstance(texts, str | bytes):
            raise InvalidInput("texts must be a sequence of strings, not a single string (use embed_query)")
        if kind not in KINDS:
            raise InvalidInput(f"kind must be 'query' or 'document', got {kind!r}")
        items = list(texts)
        for item in items:
            if not isinstance(item, str):
                raise InvalidInput(f"every text must be a string, got {type(item).__name__}")
        if not items:
            return np.empty((0, self.dim), dtype=np.float32)
        with self._cache_lock:
            self._in_flight += 1
        try:
            return self._embed_items(items, kind)
        finally:
            with self._cache_lock:
                self._in_flight -= 1

    @property
    def idle(self) -> bool:
        """Whether no :meth:`embed` call is under way (a write embeds beside its rows only then: under
        concurrent writes a transaction waiting for a model that is busy with others' texts would hold up
        every writer; ``memlane.memory.base``)."""
        with self._cache_lock:
            return self._in_flight == 0

    def _embed_items(self, items: list[str], kind: EmbedKind) -> Vectors:
        import numpy as np

        positions: dict[str, list[int]] = {}
        for index, text in enumerate(items):
            positions.setdefault(text, []).append(index)
        found = self._cache_get(kind, positions)
        out: Vectors | None = None
        if found:
            out = np.empty((len(items), len(next(iter(found.values())))), dtype=np.float32)
            for text, vector in found.items():
                out[positions[text]] = vector

        # Shortest first: a batch of similar lengths wastes little on padding in a local model.
        missing = sorted((text for text in positions if text not in found), key=len)
        chunks = [missing[start : start + self.batch_size] for start in range(0, len(missing), self.batch_size)]
        for chunk, vectors in zip(chunks, self._run_batches(chunks, kind), strict=True):
            if out is None:
                out = np.empty((len(items), vectors.shape[1]), dtype=np.float32)
            for text, vector in zip(chunk, vectors, strict=True):
                out[positions[text]] = vector
            self._cache_put(kind, chunk, vectors)
        assert out is not None  # every text was either found or embedded
        return out

    def embed_query(self, text: str) -> Vectors:
        """Embed one search query (``kind="query"``), through the cache.

        Returns:
            float32 array of shape ``(dim,)``, unit length.

        Raises:
            InvalidInput: ``text`` is not a string.
            InvalidOutput, ProviderError: as :meth:`embed`.
        """
        if not isinstance(text, str):
            raise InvalidInput(f"the query must be a string, got {type(text).__name__}")
        with self._cache_lock:
            pending = self._pending.get(text)
            if pending is None:
                mine: Future[Vectors] = Future()
                self._pending[text] = mine
        if pending is not None:  # another thread embeds this query now: share its result (or its error)
            return pending.result()
        try:
            cached = self.query_wait(text) == 0.0
            started = time.perf_counter()
            vector: Vectors = self.embed([text], "query")[0]
            if not cached:
                took = time.perf_counter() - started
                with self._cache_lock:
                    before = self._query_seconds
                    self._query_seconds = took if before is None else 0.8 * before + 0.2 * took
        except BaseException as error:
            mine.set_exception(error)
            raise
        else:
            mine.set_result(vector)
            return vector
        finally:
            with self._cache_lock:
                del self._pending[text]

    def query_wait(self, text: str) -> float:
        """About how long :meth:`embed_query` of ``text`` takes now, in seconds: 0 when its vector is cached, else
        the recent queries' mean (infinity before the first)."""
        with self._cache_lock:
            if ("query", text) in self._cache:
                return 0.0
            return math.inf if self._query_seconds is None else self._query_seconds

    def clear_cache(self) -> None:
        """Forget every cached vector."""
        with self._cache_lock:
            self._cache.clear()

    def close(self) -> None:
        """Drop the cache and release what the embedder holds open (threads, connections). Safe to call twice."""
        self.clear_cache()
        self._pool.shutdown()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r})"

    # ---- internals ------------------------------------------------------------------------------

    def _checked_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        return self._checked(self.embed_batch(texts, kind), len(texts))

    def _run_batches(self, chunks: list[list[str]], kind: EmbedKind) -> list[Vectors]:
        """:meth:`embed_batch` of each chunk, checked, in order; up to ``concurrency`` at a time. One chunk goes
        together with the chunks of concurrent calls (:class:`~memlane.embeddings.coalesce.Coalescer`)."""
        if len(chunks) == 1:
            return [self._together[kind](chunks[0])]
        if self.concurrency == 1:
            return [self._checked(self.embed_batch(chunk, kind), len(chunk)) for chunk in chunks]
        pool = self._pool.get()
        futures = [pool.submit(self.embed_batch, chunk, kind) for chunk in chunks]
        return [self._checked(future.result(), len(chunk)) for chunk, future in zip(chunks, futures, strict=True)]

    def _checked(self, vectors: object, count: int) -> Vectors:
        """What :meth:`embed_batch` returned, as a float32 matrix, or :class:`InvalidOutput`."""
        import numpy as np

        if not isinstance(vectors, np.ndarray) or vectors.ndim != 2 or vectors.shape[0] != count:
            shape = getattr(vectors, "shape", type(vectors).__name__)
            raise InvalidOutput(f"{type(self).__name__} returned {shape} for {count} texts")
        if vectors.shape[1] != self.dim:
            raise InvalidOutput(f"{type(self).__name__} returned {vectors.shape[1]}-dim vectors, expected {self.dim}")
        if not np.all(np.isfinite(vectors)):
            raise InvalidOutput(f"{type(self).__name__} returned non-finite values")
        checked: Vectors = vectors.astype(np.float32, copy=False)
        return checked

    def _cache_get(self, kind: str, positions: dict[str, list[int]]) -> dict[str, Vectors]:
        if not self.cache_size:
            return {}
        found: dict[str, Vectors] = {}
        with self._cache_lock:
            for text in positions:
                vector = self._cache.get((kind, text))
                if vector is not None:
                    self._cache.move_to_end((kind, text))
                    found[text] = vector
        return found

    def _cache_put(self, kind: str, texts: Sequence[str], vectors: Vectors) -> None:
        if not self.cache_size:
            return
        with self._cache_lock:
            for text, vector in zip(texts, vectors, strict=True):
                kept = vector.copy()
                kept.setflags(write=False)  # shared between calls: nobody may change it in place
                self._cache[(kind, text)] = kept
                self._cache.move_to_end((kind, text))
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
