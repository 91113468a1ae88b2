"""Worker processes sharing one PostgreSQL job queue: every job runs exactly once, none is lost.

Claims use ``FOR UPDATE SKIP LOCKED`` (see ``PostgresStore.claim_jobs``), so workers on any number of hosts
can share the queue. Here four worker *processes* (spawned, so nothing is shared but the database) drain
1,000 jobs of two agents. Each run of a job inserts a row into a side table that has no unique constraint,
so a job run twice would show up as two rows rather than as a failed insert.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest

from memlane import Memory, load_settings
from memlane.pipeline.worker import Worker
from memlane.types import Job
from memlane.validation import NewJob

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

PROCESSES = 4
JOBS = 1000
_connections: dict[str, psycopg.Connection[Any]] = {}
_started: set[str] = set()


def record_run(pipeline: Any, job: Job) -> None:
    """test.record: one row per run of a job, in the database the job came from.

    The first job of each process waits until every process has started one, so all of them take part
    however the machine schedules their start-up.
    """
    url = job.payload["url"]
    conn = _connections.get(url)
    if conn is None:
        conn = _connections[url] = psycopg.connect(url, autocommit=True)
    barrier = Path(job.payload["barrier"])
    if url not in _started:
        _started.add(url)
        (barrier / str(os.getpid())).touch()
        deadline = time.monotonic() + 60
        while len(list(barrier.iterdir())) < PROCESSES:
            assert time.monotonic() < deadline, "the other worker processes did not start"
            time.sleep(0.02)
    conn.execute(
        "INSERT INTO job_runs (job_id, agent, pid) VALUES (%s, %s, %s)", (job.id, pipeline.memory.agent, os.getpid())
    )


record_run.uses_llm = False  # type: ignore[attr-defined]


def _worker_process(url: str) -> None:
    """A worker process: two worker threads on one Memory, claiming in batches, until the queue is empty."""
    settings = load_settings(embedder="none", worker="none")
    with Memory(url, agent="agent-0", settings=settings) as mem:
        mem.pipeline.steps = []
        mem.pipeline.handlers = {"test.record": record_run}
        workers = [Worker(mem, lease_seconds=120, batch=5) for _ in range(2)]
        threads = [threading.Thread(target=w.drain, args=(None,)) for w in workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def test_four_worker_processes_drain_a_thousand_jobs_each_run_exactly_once(
    new_pg_database: Callable[[], str], tmp_path: Path
) -> None:
    url = new_pg_database()
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE job_runs (job_id bigint NOT NULL, agent text NOT NULL, pid integer NOT NULL)")
    settings = load_settings(embedder="none", worker="none")
    now = datetime.now(UTC)
    with Memory(url, agent="agent-0", settings=settings) as mem:
        for agent in ("agent-0", "agent-1"):
            payload = {"url": url, "barrier": str(barrier)}
            mem.store.enqueue_jobs(agent, [NewJob("test.record", payload) for _ in range(JOBS // 2)], now)
        queued = {j.id: j.agent for j in mem.store.list_jobs(None, limit=None)}
        assert len(queued) == JOBS

        ctx = multiprocessing.get_context("spawn")
        procs = [ctx.Process(target=_worker_process, args=(url,)) for _ in range(PROCESSES)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(timeout=240)
        for p in procs:
            if p.is_alive():
                p.kill()
        assert [p.exitcode for p in procs] == [0] * PROCESSES
        jobs = mem.store.list_jobs(None, limit=None)

    with psycopg.connect(url) as conn:
        runs = conn.execute("SELECT job_id, agent, pid FROM job_runs").fetchall()
    per_job = Counter(job_id for job_id, _, _ in runs)
    assert set(per_job) == set(queued)  # none missing
    assert set(per_job.values()) == {1}  # none twice
    assert all(queued[job_id] == agent for job_id, agent, _ in runs)  # each ran as its own agent
    assert len({pid for _, _, pid in runs}) == PROCESSES  # every process took part
    assert {(j.status, j.attempts, j.last_error) for j in jobs} == {("done", 1, None)}
