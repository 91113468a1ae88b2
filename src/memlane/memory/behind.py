"""Messages stored before their vectors: a write returns once its rows are committed, and a helper thread
embeds the texts of the writes queued meanwhile together.

A bot writes one message at a time. Embedding it with the local model takes several ms, storing it a
fraction of one; embedded one by one, a stream of small writes runs the model at its least efficient
batch size of one. Here a write (of up to :attr:`VectorsBehind.LARGEST` texts) stores its messages, records
them in the store's pending vectors in the same transaction, hands their texts to the process's
:class:`VectorsBehind` and returns; its helper thread embeds whatever has queued since its last run in one
call and stores those vectors in one transaction per store and agent, which ends the messages' wait. The
queue is one per process, whatever the stores and agents: the model is the process's to share, and two
helpers embedding at once on the same cores only slow each other down.

What a caller sees:

- **Nothing is lost.** The messages are committed when the write returns; only their vectors come later.
  A process that stops first leaves them in the store's pending vectors, and the next ``Memory`` opened on
  the store with a local model embeds them (:meth:`VectorsBehind.recover`).
- **A recall sees its own earlier writes.** A recall waits, before its searches read the store (its query
  is embedded meanwhile), for the vectors of the messages this process queued before it in its scope: its
  thread's, else its user's threads' (the bot's replies and other people's turns there included), else its
  agent's. It waits for nothing queued after it began, and the helper
  embeds what someone waits for first. ``Memory.flush()`` waits for all of a store's (``Memory.close()``
  does). Another process finds such a message by its words at once, by its meaning once its vector is in.
- **A fast writer goes at the model's pace.** A write that finds :attr:`VectorsBehind.LIMIT` texts queued
  waits for room (embedding its own texts beside the helper's runs would only share the same cores).
- **A script that ends without ``close()`` leaves nothing behind.** When the interpreter exits, before
  Python's thread pools refuse new work, the queue is embedded for up to :attr:`VectorsBehind.EXIT_WAIT`
  seconds; what a stuck model leaves then stays pending in its store for the next process.
- **An embedding error is not the write's.** The rows are stored; the messages stay pending (found by
  keyword search) and the error is logged and kept in :attr:`VectorsBehind.error` until a run succeeds.
  ``memlane reindex`` embeds them as it embeds any item without a vector.

Only a model that runs in this process (``Embedder.in_process``) is queued for: a remote embedder's calls
are not the bottleneck a queue would hide, and its failures are better reported to the write. The setting
``MEMLANE_EMBED_BEHIND=false`` turns the queue off (every write then embeds before it commits).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import Counter, deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..pools import LazyPool
from ..texts import item_text

if TYPE_CHECKING:
    from ..embeddings import Embedder
    from ..store import Store
    from ..types import Message

__all__ = ["BEHIND", "VectorsBehind"]

log = logging.getLogger(__name__)

#: The helper's thread.
_DRAINER = LazyPool(1, "memlane-behind")


#: What a wait is for: the messages of a store (``("store", id)``), of an agent (``("agent", id, agent)``),
#: of one of its threads (``("thread", id, agent, thread)``) or of one of its users (``("user", id, agent,
#: user)``).
Key = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class _Pending:
    store: Store
    embedder: Embedder
    agent: str
    message_id: int
    text: str
    seq: int  # the order of queueing
    keys: tuple[Key, ...]  # the waits it is part of


@dataclass(slots=True)
class _Recovery:
    store: Store
    embedder: Embedder
    after: int = 0  # the last message id read


def key_of(store: Store, agent: str | None, thread: str | None = None, user: str | None = None) -> Key:
    """The narrowest wait of these: a thread's, else a user's, else an agent's, else (no agent) a store's."""
    sid = id(store)
    if agent is None:
        return ("store", sid)
    if thread is not None:
        return ("thread", sid, agent, thread)
    return ("user", sid, agent, user) if user is not None else ("agent", sid, agent)


def keys_of(store: Store, agent: str, thread: str | None = None, user: str | None = None) -> tuple[Key, ...]:
    """The waits a message of ``store``, ``agent``, ``thread`` and ``user`` is part of."""
    keys = [key_of(store, None), key_of(store, agent)]
    if thread is not None:
        keys.append(key_of(store, agent, thread))
    if user is not None:
        keys.append(key_of(store, agent, user=user))
    return tuple(keys)


class VectorsBehind:
    """The process's queue of stored messages waiting for their vectors, and the helper that embeds them.

    A wait is for the messages queued before it, of a store, an agent, a thread or a user (a recall waits
    for those of its scope), not for an empty queue, which a busy writer may never leave. While someone
    waits, the helper embeds only the messages waited for, in short runs; otherwise the oldest, in long
    ones: a recall waits a few short model runs for its own writes, however long the queue of others' is.
    """

    #: Most texts queued at once: a write that would pass it waits for room, so a fast writer is held to
    #: the model's pace.
    LIMIT = 1024
    #: Most texts of a write that is queued for. A larger write (an import) already gives the model full
    #: batches, and embeds its own before it commits: queued, its texts were embedded while the next
    #: write's rows were stored, on the same 2 cores, and it went ~15 % slower (bench/RESULTS.md, "Round 8").
    LARGEST = 64
    #: Longest a write waits for room before it embeds its own texts (a model that hangs holds up no writer
    #: for longer).
    ROOM_WAIT = 30.0
    #: Most texts of one model call (two of the local model's runs of 32 on each of 2 cores).
    BATCH = 128
    #: Most texts of one model call while someone waits: only the messages waited for, so a recall under a
    #: queue of others' writes waits about two short runs (the one under way and its own).
    URGENT_BATCH = 32
    #: Longest the interpreter's exit waits for the queue (a script that never called ``close()``); what is
    #: left then stays pending in its store, for the next process.
    EXIT_WAIT = 30.0

    def __init__(self) -> None:
        self._clear()

    def _clear(self) -> None:
        self._changed = threading.Condition(threading.Lock())
        self._queue: list[_Pending] = []
        self._seq = 0  # the number of the last message queued
        self._open: dict[Key, set[int]] = {}  # a wait's key -> the numbers of its messages not done
        self._urgent: Counter[Key] = Counter()  # the keys waited for, and by how many
        self._ids: set[tuple[int, int]] = set()  # (id of the store, message id) queued or being embedded
        self._running = False
        self._recoveries: deque[_Recovery] = deque()
        self._recovering: Counter[int] = Counter()  # id of the store -> its recoveries not ended
        self._recovered: set[int] = set()  # ids of the stores whose leftovers were looked for
        self._exiting = False  # the interpreter's exit waited long enough: the helper hands over and stops
        #: The last embedding or store error of a run, None once a run succeeds.
        self.error: Exception | None = None

    # -- writers --------------------------------------------------------------------------------------
    def room(self, count: int) -> bool:
        """Whether a write of ``count`` texts may leave them to the queue, once there is room for them
        (waiting for it: embedding them alongside the helper's runs would only share the same cores)."""
        if count > min(self.LARGEST, self.LIMIT):
            return False
        with self._changed:
            return self._changed.wait_for(lambda: len(self._ids) + count <= self.LIMIT, self.ROOM_WAIT)

    def offer(self, store: Store, embedder: Embedder, messages: Sequence[Message], texts: Sequence[str]) -> None:
        """Queue messages stored with ``vectors_later`` and their texts for embedding."""
        with self._changed:
            self._add(store, embedder, messages, texts)
            self._start()

    def recover(self, store: Store, embedder: Embedder) -> None:
        """Embed the messages a stopped process left pending in ``store`` (looked for once per store object),
        in the background, after what is queued."""
        with self._changed:
            if id(store) in self._recovered:
                return
            self._recovered.add(id(store))
        if not store.pending_vectors(1):  # the usual case: nothing was left
            return
        with self._changed:
            self._recoveries.append(_Recovery(store, embedder))
            self._recovering[id(store)] += 1  # until its recovery ends: flush waits for it
            self._start()

    def forget(self, store: Store) -> None:
        """``store`` is closed: a store object opened later at its address is looked at again."""
        with self._changed:
            self._recovered.discard(id(store))

    # -- readers --------------------------------------------------------------------------------------
    def wait(
        self,
        store: Store,
        agent: str | None = None,
        *,
        thread: str | None = None,
        user: str | None = None,
        threads: Collection[str] = (),
        timeout: float | None = None,
    ) -> bool:
        """Wait until the messages queued so far of ``store`` (without ``agent``: all, and its recovery),
        of its ``agent``, of that agent's ``thread`` or else of its ``user`` (and of each of ``threads``) have
        their vectors (or failed to get them); False if ``timeout`` seconds passed first."""
        keys = [key_of(store, agent, thread, user)]
        if agent is not None:
            keys += [key_of(store, agent, other) for other in threads]
        with self._changed:
            targets = {key: max(self._open.get(key, ()), default=0) for key in keys}

            def done() -> bool:
                if agent is None and self._recovering[id(store)]:
                    return False
                return not any(seq <= target for key, target in targets.items() for seq in self._open.get(key, ()))

            if done():
                return True
            if agent is None:  # a flush waits for everything: no message goes before another for it
                return self._changed.wait_for(done, timeout)
            self._urgent.update(keys)
            try:
                return self._changed.wait_for(done, timeout)
            finally:
                self._urgent.subtract(keys)
                self._urgent += Counter()  # drop the keys at zero

    def pending_threads(self, store: Store, agent: str) -> set[str]:
        """The threads of ``store``'s ``agent`` with messages queued and not done yet."""
        sid = id(store)
        with self._changed:
            return {str(key[3]) for key in self._open if key[0] == "thread" and key[1] == sid and key[2] == agent}

    # -- the helper -----------------------------------------------------------------------------------
    def _add(self, store: Store, embedder: Embedder, messages: Sequence[Message], texts: Sequence[str]) -> None:
        """Queue messages (the lock held)."""
        for message, text in zip(messages, texts, strict=True):
            self._seq += 1
            keys = keys_of(store, message.agent, message.thread, message.user)
            self._queue.append(_Pending(store, embedder, message.agent, message.id, text, self._seq, keys))
            self._ids.add((id(store), message.id))
            for key in keys:
                self._open.setdefault(key, set()).add(self._seq)

    def _take(self) -> list[_Pending]:
        """The next batch (the lock held): messages someone waits for first, then the oldest."""
        if self._urgent:
            first = [item for item in self._queue if any(key in self._urgent for key in item.keys)]
            if first:
                batch = first[: self.URGENT_BATCH]
                chosen = {item.seq for item in batch}
                self._queue = [item for item in self._queue if item.seq not in chosen]
                return batch
        batch, self._queue = self._queue[: self.BATCH], self._queue[self.BATCH :]
        return batch

    def _done(self, items: Sequence[_Pending]) -> None:  # the lock held
        for item in items:
            self._ids.discard((id(item.store), item.message_id))
            for key in item.keys:
                left = self._open.get(key)
                if left is not None:
                    left.discard(item.seq)
                    if not left:
                        del self._open[key]
        self._changed.notify_all()

    def _start(self) -> None:  # the lock held
        if self._running or not (self._queue or self._recoveries):
            return
        if self._exiting:
            self._hand_over()
            return
        try:
            _DRAINER.get().submit(self._drain)
        except RuntimeError:  # the interpreter is exiting: the messages stay pending for the next process
            self._hand_over()
            return
        self._running = True
        _finish_at_exit()

    def _hand_over(self) -> None:  # the lock held
        """Leave what is queued pending in its store (the next process embeds it) and end every wait."""
        if self._queue:
            log.warning("exiting: %d stored messages stay pending for the next process", len(self._queue))
        self._done(self._queue)
        self._queue = []
        self._recoveries.clear()
        self._recovering.clear()
        self._changed.notify_all()

    def at_exit(self) -> None:
        """The interpreter is exiting: embed this process's queue, waiting at most :attr:`EXIT_WAIT` seconds.

        Runs before ``concurrent.futures`` refuses new work (see :func:`_finish_at_exit`), so the model's own
        threads still take batches. The leftovers of earlier processes are not looked for any more: they are
        in their store already, for the next process. Past the wait, the helper stops after its batch under
        way and what is still queued stays pending in its store.
        """
        with self._changed:
            self._recoveries.clear()
            self._recovering.clear()
            self._changed.notify_all()
            if not self._changed.wait_for(lambda: not self._running, self.EXIT_WAIT):
                self._exiting = True
                self._hand_over()

    def _drain(self) -> None:
        while True:
            with self._changed:
                if self._exiting:
                    self._running = False
                    self._changed.notify_all()
                    return
                recovery = self._recoveries[0] if not self._queue and self._recoveries else None
            if recovery is not None:
                self._read_pending(recovery)  # the store is read without the lock
            with self._changed:
                if not self._queue:
                    if self._recoveries:
                        continue
                    self._running = False
                    self._changed.notify_all()
                    return
                batch = self._take()
            try:
                self._store(batch)
            finally:
                with self._changed:
                    self._done(batch)

    def _store(self, batch: Sequence[_Pending]) -> None:
        """Embed a batch's texts (one call per model) and store the vectors (one write per store and agent)."""
        for embedder in dict.fromkeys(item.embedder for item in batch):
            mine = [item for item in batch if item.embedder is embedder]
            try:
                vectors = embedder.embed([item.text for item in mine], "document")
                for store, agent in dict.fromkeys((item.store, item.agent) for item in mine):
                    rows = [i for i, item in enumerate(mine) if item.store is store and item.agent == agent]
                    store.set_vectors(agent, "message", [mine[i].message_id for i in rows], vectors[rows])
                self.error = None
            except Exception as exc:  # the messages stay pending; nothing a caller waits on may fail
                self.error = exc
                log.warning("could not embed %d stored messages (they stay pending): %s", len(mine), exc)

    def _read_pending(self, recovery: _Recovery) -> None:
        """Queue the next page of a store's pending messages, or end its recovery."""
        try:
            page = recovery.store.pending_vectors(self.BATCH, after=recovery.after)
        except Exception as exc:  # recovery is retried by the next process
            self.error = exc
            log.warning("could not read the messages waiting for their vectors: %s", exc)
            page = []
        key = id(recovery.store)
        with self._changed:
            if not any(queued is recovery for queued in self._recoveries):
                return  # handed over meanwhile (the interpreter is exiting): the store keeps them pending
            if not page:
                self._recoveries.popleft()
                self._recovering[key] -= 1
                self._recovering += Counter()  # drop the stores at zero
                self._changed.notify_all()
                return
            recovery.after = page[-1].id
            # Not those this process has queued itself (written after it opened the store).
            fresh = [m for m in page if (key, m.id) not in self._ids]
            self._add(recovery.store, recovery.embedder, fresh, [item_text(m) for m in fresh])


#: The process's queue.
BEHIND = VectorsBehind()

_exit_hook = threading.Lock()  # held once the exit hook is registered (never released)


def _finish_at_exit() -> None:
    """Have the interpreter's exit embed the queue (:meth:`VectorsBehind.at_exit`), registered on the first
    run of the helper.

    Not ``atexit``: its functions run after ``concurrent.futures`` has stopped its pools, when the model
    can no longer run a batch ("cannot schedule new futures after interpreter shutdown"). The functions of
    ``threading._register_atexit`` run before, in the reverse order of their registration, and
    ``concurrent.futures.thread`` registered its own when ``memlane.pools`` imported it: this one, registered
    later, runs first.
    """
    if not _exit_hook.acquire(blocking=False):
        return
    register = getattr(threading, "_register_atexit", None)
    if register is None:  # not CPython's threading: leftovers stay pending for the next process
        return
    with contextlib.suppress(RuntimeError):  # the interpreter is exiting already
        register(BEHIND.at_exit)


# In a forked child the parent's queue is the parent's to embed (and its lock may have been held).
os.register_at_fork(after_in_child=BEHIND._clear)
