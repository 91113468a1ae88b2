"""Thread pools started on first use and started anew in a forked child.

memlane runs a recall's searches, a write's embedding and an embedder's batches on small thread pools. A
pool is made on first need (never at import), and a process forked after that (a pre-forking server, a
``multiprocessing`` fork) holds the pool's objects without its threads: work handed to it would never run.
Every :class:`LazyPool` therefore forgets its executor in a forked child, which starts its own on first use.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

__all__ = ["LazyPool"]

T = TypeVar("T")


class LazyPool:
    """A ``ThreadPoolExecutor`` of ``workers`` threads named ``prefix``, made on first :meth:`get`."""

    def __init__(self, workers: int, prefix: str) -> None:
        self.workers, self.prefix = workers, prefix
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._free = threading.BoundedSemaphore(workers)  # threads not running work of try_submit
        _every.add(self)

    def get(self) -> ThreadPoolExecutor:
        """The executor, started now if it is not yet."""
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix=self.prefix)
            return self._executor

    def try_submit(self, fn: Callable[..., T], *args: object) -> Future[T] | None:
        """``fn(*args)`` started on a thread of the pool, or None (nothing started) when every thread is busy
        with such work: the caller runs it itself rather than wait in a queue."""
        free = self._free
        if not free.acquire(blocking=False):
            return None
        try:
            future = self.get().submit(fn, *args)
        except BaseException:
            free.release()
            raise
        future.add_done_callback(lambda _: free.release())
        return future

    def shutdown(self) -> None:
        """Stop the threads (after their work); the next :meth:`get` starts new ones."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)

    def _forget(self) -> None:
        self._lock, self._executor = threading.Lock(), None
        self._free = threading.BoundedSemaphore(self.workers)


_every: weakref.WeakSet[LazyPool] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for pool in list(_every):
        pool._forget()


os.register_at_fork(after_in_child=_after_fork_in_child)
