"""memlane.pools.LazyPool: made on first use, bounded hand-offs, and usable again in a forked child."""

from __future__ import annotations

import multiprocessing
import os
import threading

import pytest

from memlane.pools import LazyPool

POOL = LazyPool(2, "test-pool")


def test_try_submit_runs_on_the_pool_until_every_thread_is_busy() -> None:
    pool = LazyPool(1, "test-one")
    release = threading.Event()
    first = pool.try_submit(release.wait, 5)
    assert first is not None
    assert pool.try_submit(lambda: None) is None  # busy: the caller runs it itself
    release.set()
    assert first.result(5) is True
    first_done = threading.Event()
    second = pool.try_submit(first_done.set)
    assert second is not None and second.result(5) is None and first_done.is_set()
    pool.shutdown()


def _child(out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put([POOL.get().submit(os.getpid).result(5), POOL.try_submit(os.getpid).result(5)])  # type: ignore[union-attr]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_child_starts_threads_of_its_own() -> None:
    both = threading.Barrier(2)
    started = [POOL.get().submit(both.wait, 5) for _ in range(2)]  # both of the parent's threads run, then idle
    assert sorted(f.result(5) for f in started) == [0, 1]
    busy = threading.Event()
    held = POOL.try_submit(busy.wait, 5)  # and one of them is busy when the child is forked
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_child, args=(out,))
    child.start()
    child.join(20)
    busy.set()
    if child.is_alive():
        child.kill()
        pytest.fail("the forked child's pool never ran its work")
    assert child.exitcode == 0
    assert out.get(timeout=5) == [child.pid, child.pid]
    assert held is not None and held.result(5) is True
