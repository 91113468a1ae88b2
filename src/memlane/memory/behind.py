"""Messages stored before their vectors: a write returns once its rows are committed, and a helper thread
embeds the texts of the writes queued meanwhile together.

A bot writes one message at a time. Embedding it with the local model takes several ms, storing it a
fraction of one; embedded one by one, a stream of small writes runs the model at its least efficient
batch size of one. Here a small write (see :meth:`VectorsBehind.room`) stores its messages and records them
in the store's pending vectors in the same transaction, hands their texts to the store's
:class:`VectorsBehind` and returns; the helper embeds whatever has queued since its last run in one call
and stores those vectors in one transaction, which ends the messages' wait.

What a caller sees:

- **Nothing is lost.** The messages are committed when the write returns; only their vectors come later.
  A process that stops first leaves them in the store's pending vectors, and the next ``Memory`` opened on
  the store with a local model embeds them (:meth:`VectorsBehind.recover`).
- **A recall sees its agent's earlier writes.** The vector search of a recall waits, while its query is
  embedded, for the vectors of every message of its agent this process queued before it; keyword search
  finds them at once. ``Memory.flush()`` waits for all of them (``Memory.close()`` does).
- **An embedding error is not the write's.** The rows are stored; the messages stay pending (found by
  keyword search) and the error is logged and kept in :attr:`VectorsBehind.error` until a run succeeds.
  ``memlane reindex`` embeds them as it embeds any item without a vector.

Only a model that runs in this process (``Embedder.in_process``) is queued for: a remote embedder's calls
are not the bottleneck a queue would hide, and its failures are better reported to the write. The setting
``MEMLANE_EMBED_BEHIND=false`` turns the queue off (every write then embeds before it commits).
"""

from __future__ import annotations

import logging
import os
import threading
import weakref
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..pools import LazyPool
from ..texts import item_text

if TYPE_CHECKING:
    from ..embeddings import Embedder
    from ..store import Store
    from ..types import Message

__all__ = ["VectorsBehind", "behind_for"]

log = logging.getLogger(__name__)

#: The helpers' threads: one store's queue is drained by one of them at a time.
_DRAINERS = LazyPool(2, "memlane-behind")


@dataclass(frozen=True, slots=True)
class _Pending:
    embedder: Embedder
    agent: str
    message_id: int
    text: str


class VectorsBehind:
    """The queue of one store's messages waiting for their vectors, and the helper that embeds them."""

    #: Most texts queued at once: a write that would pass it embeds its own texts before it commits, so
    #: a fast writer is held to the model's pace (and a recall waits at most about one such queue: ~3 s of
    #: the local model on 2 cores).
    LIMIT = 1024
    #: Most texts of one model call and one vector write.
    BATCH = 256

    def __init__(self, store: Store) -> None:
        self.store = store
        self._changed = threading.Condition(threading.Lock())
        self._queue: deque[_Pending] = deque()
        self._waiting: Counter[str] = Counter()  # agent -> its messages queued or being embedded
        self._total = 0  # messages queued or being embedded
        self._ids: set[int] = set()  # their ids
        self._running = False
        self._recover: tuple[Embedder, int] | None = None  # what recovery still reads: (model, after this id)
        self._recovered = False
        #: The last embedding or store error of a run, None once a run succeeds.
        self.error: Exception | None = None

    # -- writers --------------------------------------------------------------------------------------
    def room(self, count: int) -> bool:
        """Whether a write of ``count`` texts may leave them to the queue."""
        with self._changed:
            return self._total + count <= self.LIMIT

    def offer(self, embedder: Embedder, messages: Sequence[Message], texts: Sequence[str]) -> None:
        """Queue stored messages (written with ``vectors_later``) and their texts for embedding."""
        items = [_Pending(embedder, m.agent, m.id, t) for m, t in zip(messages, texts, strict=True)]
        with self._changed:
            self._add(items)
            self._start()

    def recover(self, embedder: Embedder) -> None:
        """Embed the messages a process left pending in the store (once per store object), in the
        background, after what is queued now."""
        with self._changed:
            if self._recovered:
                return
            self._recovered = True
        if not self.store.pending_vectors(1):  # the usual case: nothing was left
            return
        with self._changed:
            self._recover = (embedder, 0)
            self._start()

    # -- readers --------------------------------------------------------------------------------------
    def wait(self, agent: str | None = None, timeout: float | None = None) -> bool:
        """Wait until no message (of ``agent``, or of any agent) queued so far waits for its vector; False
        if ``timeout`` seconds passed first."""
        with self._changed:
            if agent is None:
                return self._changed.wait_for(lambda: not self._running, timeout)
            return self._changed.wait_for(lambda: not self._waiting[agent], timeout)

    @property
    def queued(self) -> int:
        """Texts queued or being embedded."""
        with self._changed:
            return self._total

    # -- the helper -----------------------------------------------------------------------------------
    def _start(self) -> None:  # the lock held
        if not self._running and (self._queue or self._recover is not None):
            try:
                _DRAINERS.get().submit(self._drain)
            except RuntimeError:  # the interpreter is exiting: the messages stay pending for the next process
                log.warning("exiting: %d stored messages stay pending for the next process", len(self._queue))
                self._queue.clear()
                self._waiting.clear()
                self._ids.clear()
                self._total = 0
                self._recover = None
                return
            self._running = True

    def _drain(self) -> None:
        while True:
            with self._changed:
                recovering = not self._queue and self._recover is not None
            if recovering:
                self._read_pending()  # the store is read without the lock
            with self._changed:
                if not self._queue:
                    if self._recover is not None:
                        continue
                    self._running = False
                    self._changed.notify_all()
                    return
                batch = [self._queue.popleft() for _ in range(min(len(self._queue), self.BATCH))]
            try:
                self._store(batch)
            finally:
                with self._changed:
                    self._waiting.subtract(item.agent for item in batch)
                    self._waiting += Counter()  # drop the agents at zero
                    self._total -= len(batch)
                    self._ids.difference_update(item.message_id for item in batch)
                    self._changed.notify_all()

    def _store(self, batch: Sequence[_Pending]) -> None:
        """Embed a batch's texts (one call per model) and store the vectors (one write per agent)."""
        try:
            for embedder in dict.fromkeys(item.embedder for item in batch):
                mine = [item for item in batch if item.embedder is embedder]
                vectors = embedder.embed([item.text for item in mine], "document")
                for agent in dict.fromkeys(item.agent for item in mine):
                    rows = [i for i, item in enumerate(mine) if item.agent == agent]
                    self.store.set_vectors(agent, "message", [mine[i].message_id for i in rows], vectors[rows])
            self.error = None
        except Exception as exc:
            self.error = exc
            log.warning("could not embed %d stored messages (they stay pending): %s", len(batch), exc)

    def _read_pending(self) -> None:
        """Queue the next page of the store's pending messages (recovery), or end recovery."""
        assert self._recover is not None
        embedder, after = self._recover
        try:
            page = self.store.pending_vectors(self.BATCH, after=after)
        except Exception as exc:
            self.error = exc
            log.warning("could not read the messages waiting for their vectors: %s", exc)
            page = []
        with self._changed:
            if not page:
                self._recover = None
                return
            self._recover = (embedder, page[-1].id)
            # Not those this process has queued itself (written after it opened the store).
            self._add([_Pending(embedder, m.agent, m.id, item_text(m)) for m in page if m.id not in self._ids])

    def _add(self, items: Sequence[_Pending]) -> None:  # the lock held
        self._queue.extend(items)
        self._ids.update(item.message_id for item in items)
        self._waiting.update(item.agent for item in items)
        self._total += len(items)

    def _reset(self) -> None:
        """In a forked child: the parent's queue is the parent's to embed."""
        self._changed = threading.Condition(threading.Lock())
        self._queue.clear()
        self._waiting.clear()
        self._ids.clear()
        self._total = 0
        self._running = False
        self._recover = None


_BEHIND: weakref.WeakKeyDictionary[Store, VectorsBehind] = weakref.WeakKeyDictionary()
_BEHIND_LOCK = threading.Lock()


def behind_for(store: Store) -> VectorsBehind:
    """The queue of ``store`` (one per store object, shared by every ``Memory`` on it)."""
    with _BEHIND_LOCK:
        behind = _BEHIND.get(store)
        if behind is None:
            behind = _BEHIND[store] = VectorsBehind(store)
        return behind


def _after_fork_in_child() -> None:
    global _BEHIND_LOCK
    _BEHIND_LOCK = threading.Lock()
    for behind in list(_BEHIND.values()):
        behind._reset()


os.register_at_fork(after_in_child=_after_fork_in_child)
