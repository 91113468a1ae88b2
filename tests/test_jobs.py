"""Background jobs end to end on real SQLite files: queueing with the write, leases, retries, dead letters,
the LLM budget, usage accounting, the background thread, and workers in other processes (racing, killed).

Jobs here use test kinds registered on the pipeline; the real pipeline steps have their own tests. This file
is also the worker program the process tests start (``python tests/test_jobs.py race|crash ...``).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memlane import InvalidInput, Memory, ProviderError, RateLimited, load_settings
from memlane.llm import ChatMessage, OpenAICompatibleLLM, UsageEvent
from memlane.pipeline.usage import UsageLedger, UsageRecord, UsageTotals
from memlane.pipeline.worker import JobOutcome, Worker, retry_delay
from memlane.store.sqlite import SQLiteStore
from memlane.testing import FakeLLMServer, Fault, ScriptedLLM
from memlane.types import Job
from memlane.validation import NewJob, NewSummary

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


# -- handlers and a test step (module level: the worker processes below use them too) -------------------
def append_effect(pipeline: Any, job: Job) -> None:
    """test.append: one line per run to a file opened with O_APPEND (atomic across processes)."""
    fd = os.open(job.payload["file"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, f"{job.id} {pipeline.memory.agent} {os.getpid()}:{threading.get_ident()}\n".encode())
    finally:
        os.close(fd)


append_effect.uses_llm = False  # type: ignore[attr-defined]

_met: set[str] = set()


def race_effect(pipeline: Any, job: Job) -> None:
    """test.race: test.append, but the first job of each process waits until every process runs one, so the
    processes race for the queue however the machine schedules them."""
    barrier = Path(job.payload["barrier"])
    if str(barrier) not in _met:
        (barrier / str(os.getpid())).touch()
        _wait_for(lambda: len(list(barrier.iterdir())) >= job.payload["processes"], timeout=30)
        _met.add(str(barrier))
    append_effect(pipeline, job)


race_effect.uses_llm = False  # type: ignore[attr-defined]


def _park(gate: Path) -> None:
    """Tell the test we are inside the job, then wait to be killed."""
    (gate / "inside").write_text(str(os.getpid()))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.05)
    raise AssertionError("the test did not kill this worker")


def summarize_unsummarized(pipeline: Any, job: Job) -> None:
    """test.summarize: store one summary of the thread's unsummarized messages, idempotently.

    With ``crash`` in the payload, the first attempt parks before ("before") or after ("after") storing it.
    """
    mem = pipeline.memory
    thread = job.payload["thread"]
    crash = job.payload.get("crash") if job.attempts == 1 else None
    pending = mem.store.messages(mem.agent, thread, unsummarized_only=True)
    if not pending:
        return
    if crash == "before":
        _park(Path(job.payload["gate"]))
    summary = NewSummary(
        kind="rolling",
        content=" | ".join(m.content for m in pending),
        from_seq=pending[0].seq,
        to_seq=pending[-1].seq,
        owner=None,
        method="test",
        metadata={"job": job.id},
    )
    mem.store.add_summary(mem.agent, thread, summary, mem.clock(), mark_summarized=True)
    if crash == "after":
        _park(Path(job.payload["gate"]))


summarize_unsummarized.uses_llm = False  # type: ignore[attr-defined]


@dataclass
class QueueOnMessages:
    """A pipeline step whose ``after_messages`` queues ``kind`` for the thread (deduplicated while pending)."""

    kind: str
    payload: dict[str, Any] = field(default_factory=dict)
    extra: list[NewJob] = field(default_factory=list)

    def after_messages(self, pipeline: Any, thread: str, items: Sequence[Any]) -> list[NewJob]:
        job = NewJob(self.kind, {"thread": thread, **self.payload}, dedupe_key=f"{self.kind}:{thread}")
        return [job, *self.extra]


HANDLERS = {"test.append": append_effect, "test.race": race_effect, "test.summarize": summarize_unsummarized}


def settings(**overrides: Any) -> Any:
    return load_settings(**{"embedder": "none", "worker": "none", **overrides})


def isolate(mem: Memory) -> Memory:
    """Only the test kinds: the real pipeline steps (summarize ...) queue and handle nothing here."""
    mem.pipeline.steps = []
    mem.pipeline.handlers = dict(HANDLERS)
    return mem


def open_memory(db: Path | str, clock: Callable[[], datetime] | None = None, **overrides: Any) -> Memory:
    return isolate(Memory(db, agent="bot", settings=settings(**overrides), clock=clock))


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def mem(tmp_path: Path, clock: Clock) -> Iterator[Memory]:
    with open_memory(tmp_path / "jobs.db", clock) as memory:
        yield memory


def job_by_id(mem: Memory, job_id: int) -> Job:
    [found] = [j for j in mem.store.list_jobs(None, limit=None) if j.id == job_id]
    return found


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


# -- queueing ------------------------------------------------------------------------------------------
def test_a_job_is_queued_in_the_write_that_causes_it(mem: Memory, tmp_path: Path) -> None:
    step = QueueOnMessages("test.append", {"file": str(tmp_path / "effects")})
    mem.pipeline.steps.append(step)  # type: ignore[arg-type]
    msg = mem.add_message("t1", "user", "hello")
    [job] = mem.store.list_jobs("bot")
    assert (job.kind, job.status, job.payload["thread"], job.created_at) == (
        "test.append",
        "pending",
        "t1",
        msg.created_at,
    )

    # A job that cannot be stored fails the whole write: the message is not stored either. (The facade
    # reports the step's TypeError as InvalidInput: callers only ever see memlane's errors.)
    step.extra = [NewJob("test.append", {"not json": object()})]
    with pytest.raises(InvalidInput) as caught:
        mem.add_message("t2", "user", "this write fails")
    assert isinstance(caught.value.__cause__, TypeError)
    assert mem.history("t2") == [] and len(mem.store.list_jobs("bot")) == 1


def test_pending_jobs_are_deduplicated_until_claimed(mem: Memory, tmp_path: Path) -> None:
    mem.pipeline.steps.append(QueueOnMessages("test.append", {"file": str(tmp_path / "fx")}))  # type: ignore[arg-type]
    for text in ("one", "two", "three"):
        mem.add_message("t", "user", text)
    assert len(mem.store.list_jobs("bot")) == 1
    worker = Worker(mem, name="w1")
    [claimed] = mem.store.claim_jobs("w1", mem.clock(), lease_seconds=60, limit=5)
    mem.add_message("t", "user", "four")  # work queued while the claimed job runs is not lost
    assert mem.store.complete_job(claimed.id, "w1", mem.clock())
    assert [j.status for j in mem.store.list_jobs("bot")] == ["pending", "done"]
    assert worker.drain() == 1 and lines(tmp_path / "fx")[0].startswith(f"{claimed.id + 1} ")


def test_jobs_of_other_agents_run_through_their_own_memory(mem: Memory, tmp_path: Path) -> None:
    out = tmp_path / "fx"
    mem.store.enqueue_jobs("bot", [NewJob("test.append", {"file": str(out)})], mem.clock())
    mem.store.enqueue_jobs("other-bot", [NewJob("test.append", {"file": str(out)})], mem.clock())
    mem.store.enqueue_jobs("bot", [NewJob("no.such.kind", {})], mem.clock())
    assert mem.run_jobs() == 2
    assert sorted(line.split()[1] for line in lines(out)) == ["bot", "other-bot"]
    # A kind no handler knows waits for a worker that knows it, instead of dying.
    assert {j.kind: j.status for j in mem.store.list_jobs(None)}["no.such.kind"] == "pending"


# -- leases --------------------------------------------------------------------------------------------
def test_an_expired_lease_is_claimed_again_and_the_attempt_counts(mem: Memory, clock: Clock, tmp_path: Path) -> None:
    out = tmp_path / "fx"
    [job] = mem.store.enqueue_jobs("bot", [NewJob("test.append", {"file": str(out)})], clock())
    mem.store.claim_jobs("crashed-worker", clock(), lease_seconds=60, limit=1)  # ... and never comes back
    worker = Worker(mem, name="w2", lease_seconds=60)
    assert worker.run_once() == 0  # the lease is still live
    clock.advance(seconds=61)
    assert worker.run_once() == 1
    after = job_by_id(mem, job.id)
    assert (after.status, after.attempts, after.lease_owner) == ("done", 2, None)
    assert not mem.store.complete_job(job.id, "crashed-worker", clock())  # the old holder cannot finish it
    assert len(lines(out)) == 1


def test_a_job_whose_lease_expires_on_every_attempt_goes_dead(mem: Memory, clock: Clock, tmp_path: Path) -> None:
    out = tmp_path / "fx"
    [job] = mem.store.enqueue_jobs("bot", [NewJob("test.append", {"file": str(out)}, max_attempts=2)], clock())
    for name in ("died-1", "died-2"):
        assert mem.store.claim_jobs(name, clock(), lease_seconds=60, limit=1)
        clock.advance(seconds=61)
    assert Worker(mem).run_once() == 1
    after = job_by_id(mem, job.id)
    assert after.status == "dead" and "lease expired on every attempt" in (after.last_error or "")
    assert not out.exists()  # a job that keeps killing its workers is not run a third time


def test_stopping_a_worker_hands_unstarted_jobs_back(mem: Memory, tmp_path: Path) -> None:
    out = tmp_path / "fx"
    worker = Worker(mem, batch=5)

    def stop_after_this(pipeline: Any, job: Job) -> None:
        append_effect(pipeline, job)
        worker.stop_event.set()

    mem.pipeline.handlers["test.stop"] = stop_after_this
    mem.store.enqueue_jobs("bot", [NewJob("test.stop", {"file": str(out)}) for _ in range(5)], mem.clock())
    assert worker.run_once() == 1
    jobs = mem.store.list_jobs("bot")
    assert Counter(j.status for j in jobs) == {"pending": 4, "done": 1}
    assert all(j.attempts == 0 and j.lease_owner is None for j in jobs if j.status == "pending")


# -- failures, backoff, dead letters ---------------------------------------------------------------------
def test_failures_back_off_exponentially_then_dead_letter_and_retry_job_revives(mem: Memory, clock: Clock) -> None:
    runs: list[int] = []
    broken = True

    def flaky(pipeline: Any, job: Job) -> None:
        runs.append(job.attempts)
        if broken:
            raise ProviderError("upstream answered 503")

    mem.pipeline.handlers["test.flaky"] = flaky
    [job] = mem.store.enqueue_jobs("bot", [NewJob("test.flaky", {}, max_attempts=3)], clock())
    worker = Worker(mem, retry_base=10, retry_max=1000, rng=random.Random(1))

    for attempt, (low, high) in enumerate([(5, 10), (10, 20)], start=1):
        assert worker.run_once() == 1
        after = job_by_id(mem, job.id)
        assert (after.status, after.attempts) == ("pending", attempt)
        assert after.last_error == "ProviderError: upstream answered 503"
        assert clock() + timedelta(seconds=low) <= after.run_after <= clock() + timedelta(seconds=high)
        assert worker.run_once() == 0  # not before its time
        clock.now = after.run_after
    assert worker.run_once() == 1
    assert job_by_id(mem, job.id).status == "dead"
    clock.advance(days=30)
    assert worker.run_once() == 0 and runs == [1, 2, 3]  # dead stays dead

    broken = False
    assert mem.store.retry_job(job.id, clock()).status == "pending"
    assert worker.run_once() == 1
    assert (job_by_id(mem, job.id).status, runs) == ("done", [1, 2, 3, 1])


@pytest.mark.parametrize(
    ("error", "status", "min_delay"),
    [
        (InvalidInput("payload lacks 'thread'"), "dead", None),  # retrying cannot fix a bad payload
        (KeyError("thread"), "pending", 5.0),  # a bug may be fixed by a deploy: retried
        (RateLimited("429", retry_after=900), "pending", 900.0),  # the provider's wait wins over the backoff
    ],
)
def test_what_a_failure_does_to_a_job(
    mem: Memory, clock: Clock, error: Exception, status: str, min_delay: float | None
) -> None:
    def fail(pipeline: Any, job: Job) -> None:
        raise error

    mem.pipeline.handlers["test.fail"] = fail
    [job] = mem.store.enqueue_jobs("bot", [NewJob("test.fail", {})], clock())
    outcomes: list[JobOutcome] = []
    Worker(mem, retry_base=10, on_outcome=outcomes.append).run_once()
    after = job_by_id(mem, job.id)
    assert (after.status, after.attempts) == (status, 1)
    assert type(error).__name__ in (after.last_error or "")
    assert outcomes[0].status == ("dead" if status == "dead" else "retry")
    if min_delay is not None:
        assert after.run_after >= clock() + timedelta(seconds=min_delay)


def test_retry_delay_doubles_up_to_the_cap() -> None:
    rng = random.Random(3)
    for attempt, ceiling in [(1, 30), (2, 60), (3, 120), (8, 3600), (500, 3600)]:
        delays = [retry_delay(attempt, 30, 3600, rng) for _ in range(50)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert max(delays) - min(delays) > ceiling / 10  # jittered


# -- budget and usage ------------------------------------------------------------------------------------
def test_a_low_budget_defers_llm_jobs_without_failing_them(tmp_path: Path, clock: Clock) -> None:
    llm = ScriptedLLM(default="short answer")
    with Memory(
        tmp_path / "b.db",
        agent="bot",
        settings=settings(llm_budget_tokens=1000, llm_budget_window=3600),
        llm=llm,
        clock=clock,
    ) as mem:
        isolate(mem)
        ran: list[str] = []

        def summarize(pipeline: Any, job: Job) -> None:
            # No agent= here: the worker books the call to the job's agent.
            pipeline.memory.llm.complete([ChatMessage.user("please summarize")], operation="test.summarize")
            ran.append("llm")

        def housekeeping(pipeline: Any, job: Job) -> None:
            ran.append("plain")

        housekeeping.uses_llm = False  # type: ignore[attr-defined]
        mem.pipeline.handlers.update({"test.llm": summarize, "test.plain": housekeeping})

        # The bot's users spend 800 of its 1,000 tokens: 20% left is not "more than 20%" (seed 001).
        mem.llm.complete([ChatMessage.user("word " * 798)], operation="chat", agent="bot")  # + 2 answer words
        assert mem.usage.budget("bot").low and mem.usage.budget("bot").remaining == 200
        jobs = mem.store.enqueue_jobs("bot", [NewJob("test.llm", {}), NewJob("test.plain", {})], clock())
        assert mem.run_jobs() == 2
        deferred = job_by_id(mem, jobs[0].id)
        assert (deferred.status, deferred.attempts) == ("pending", 0)
        # The store keeps totals, not a timeline: the job looks again after a slice of the window.
        assert T0 < deferred.run_after <= T0 + timedelta(hours=1)
        assert (deferred.last_error or "").startswith("deferred: LLM budget low (200 of 1000")
        assert ran == ["plain"] and job_by_id(mem, jobs[1].id).status == "done"
        # The user's own requests never wait for the budget.
        mem.add_message("t", "user", "still here")
        assert mem.context("t").messages[-1].content == "still here"

        clock.advance(hours=1, seconds=1)
        assert mem.run_jobs() == 1 and ran == ["plain", "llm"]
        totals = {(t.agent, t.operation): t for t in mem.usage.totals()}
        assert totals["bot", "test.summarize"].calls == 1 and totals["bot", "chat"].total_tokens == 800
        assert mem.usage.spent("bot") == totals["bot", "test.summarize"].total_tokens


def test_budget_boundaries_and_when_work_resumes() -> None:
    now = [T0]
    ledger = UsageLedger(budget_tokens=1000, window_s=600, reserve=0.2, clock=lambda: now[0])

    def spend(tokens: int) -> None:
        ledger.record(UsageEvent("a", "op", "m", tokens, 0, 0.1, True, None))

    spend(500)
    now[0] += timedelta(minutes=5)
    spend(290)
    assert not ledger.budget("a").low  # 210 left: more than 20%
    spend(10)
    status = ledger.budget("a")
    assert status.low and status.remaining == 200
    assert status.resume_at == T0 + timedelta(minutes=10)  # the 500 ages out, leaving 300 spent
    assert not ledger.budget("b").low  # budgets are per agent
    now[0] = T0 + timedelta(minutes=10)
    assert ledger.spent("a") == 300 and not ledger.budget("a").low
    assert not UsageLedger(clock=lambda: T0).budget("a").low  # no budget set: never low


def test_usage_totals_are_exact_under_concurrency_with_a_p95() -> None:
    ledger = UsageLedger(sample_size=10_000)

    def record(worker: int) -> None:
        for i in range(1, 1001):
            ok = i % 100 != 0
            ledger.record(UsageEvent(f"agent-{worker % 2}", "summarize", "m", 3, 2, i / 1000, ok, None if ok else "X"))

    threads = [threading.Thread(target=record, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    [a0, a1] = ledger.totals()
    assert (a0.agent, a0.calls, a0.failures, a0.prompt_tokens, a0.completion_tokens) == (
        "agent-0",
        2000,
        20,
        6000,
        4000,
    )
    assert a1.calls == 2000 and a0.p95_latency_s == pytest.approx(0.95)
    assert a0.mean_latency_s == pytest.approx(0.5005)


def test_usage_of_real_http_calls_is_booked_per_agent_and_operation(tmp_path: Path) -> None:
    seen: list[UsageEvent] = []
    with FakeLLMServer() as server:
        server.script("a summary", Fault.status(400, body="bad request"))
        llm = OpenAICompatibleLLM(server.base_url, "fake-model", max_retries=0, on_usage=seen.append)
        with isolate(Memory(tmp_path / "u.db", agent="bot", settings=settings(), llm=llm)) as mem:
            mem.llm.complete([ChatMessage.user("one two three")], operation="summarize", agent="bot")
            with pytest.raises(ProviderError):
                mem.llm.complete([ChatMessage.user("four")], operation="summarize", agent="bot")
            view = mem.for_agent("other")
            assert view.usage is mem.usage  # one ledger per client, whichever view made the call
            [t] = mem.usage.totals("bot")
    assert (t.operation, t.calls, t.failures, t.prompt_tokens, t.completion_tokens) == ("summarize", 2, 1, 3, 2)
    assert t.latency_s > 0 and t.p95_latency_s is not None
    assert len(seen) == 2  # the caller's own callback still gets every event


class UsageSQLiteStore(SQLiteStore):
    """SQLite plus the usage table and the two methods proposed for the storage contract.

    A reference for the lead: the same SQL belongs in a numbered migration and in ``SQLiteStore`` itself.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        with self._write() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS usage_events (id INTEGER PRIMARY KEY, "
                "agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE, operation TEXT NOT NULL, "
                "model TEXT NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, "
                "latency_ms REAL NOT NULL, ok INTEGER NOT NULL, error TEXT, at TEXT NOT NULL)"
            )
            conn.execute("CREATE INDEX IF NOT EXISTS usage_events_agent_at ON usage_events (agent_id, at)")

    def record_usage(self, records: Sequence[UsageRecord]) -> None:
        from memlane.store._common import fmt_time

        with self._write() as conn:
            for r in records:
                agent_id = self._ensure_agent(conn, r.agent, r.at)
                conn.execute(
                    "INSERT INTO usage_events (agent_id, operation, model, prompt_tokens, completion_tokens, "
                    "latency_ms, ok, error, at) VALUES (?,?,?,?,?,?,?,?,?)",
                    (
                        agent_id,
                        r.operation,
                        r.model,
                        r.prompt_tokens,
                        r.completion_tokens,
                        r.latency_s * 1000,
                        int(r.ok),
                        r.error,
                        fmt_time(r.at),
                    ),
                )

    def usage_totals(self, agent: str | None, *, since: datetime | None = None) -> list[UsageTotals]:
        from memlane.store._common import fmt_time

        sql = (
            "WITH e AS (SELECT a.name AS agent, u.operation, u.prompt_tokens, u.completion_tokens, u.latency_ms, "
            "u.ok, row_number() OVER (PARTITION BY u.agent_id, u.operation ORDER BY u.latency_ms) AS rn, "
            "count(*) OVER (PARTITION BY u.agent_id, u.operation) AS n "
            "FROM usage_events u JOIN agents a ON a.id = u.agent_id WHERE (? IS NULL OR a.name = ?) "
            "AND (? IS NULL OR u.at >= ?)) "
            "SELECT agent, operation, count(*), sum(1 - ok), sum(prompt_tokens), sum(completion_tokens), "
            "sum(latency_ms), max(CASE WHEN rn = (95 * n + 99) / 100 THEN latency_ms END) "
            "FROM e GROUP BY agent, operation ORDER BY agent, operation"
        )
        stamp = None if since is None else fmt_time(since)
        rows = self._query(sql, (agent, agent, stamp, stamp))
        return [UsageTotals(r[0], r[1], r[2], r[3], r[4], r[5], r[6] / 1000, r[7] / 1000) for r in rows]


def test_a_store_that_records_usage_shares_totals_and_budget_across_processes(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    stores = [UsageSQLiteStore(db), UsageSQLiteStore(db)]  # as two processes would open it
    mems = [
        Memory(
            agent="bot",
            store=store,
            settings=settings(llm_budget_tokens=100, llm_budget_window=3600),
            llm=ScriptedLLM(default="one two three four"),
        )
        for store in stores
    ]
    try:
        for mem in mems:
            assert mem.usage.persistent
            mem.llm.complete([ChatMessage.user("word " * 35)], operation="summarize", agent="bot")  # 39 tokens
        for mem in mems:
            [t] = mem.usage.totals("bot")
            assert (t.calls, t.prompt_tokens, t.completion_tokens) == (2, 70, 8) and t.p95_latency_s is not None
            assert mem.usage.spent("bot") == 78 and not mem.usage.budget("bot").low  # 22 left
        mems[0].llm.complete([ChatMessage.user("x")], operation="chat", agent="bot")  # 5 more: 17 left
        assert mems[1].usage.budget("bot").low  # the other "process" sees it
    finally:
        for mem in mems:
            mem.close()
        for store in stores:
            store.close()


# -- the background thread -------------------------------------------------------------------------------
def _wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def _worker_threads(agent: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == f"memlane-worker[{agent}]"]


def test_the_background_thread_runs_jobs_queued_by_add_message_and_stops_on_close(tmp_path: Path) -> None:
    out = tmp_path / "fx"
    mem = Memory(tmp_path / "bg.db", agent="bg-bot", settings=settings(worker="thread", worker_poll_interval=0.02))
    isolate(mem)
    [thread] = _worker_threads("bg-bot")
    mem.for_agent("another")  # a view starts no thread of its own
    assert len(_worker_threads("another")) == 0

    def boom(pipeline: Any, job: Job) -> None:
        raise RuntimeError("a bug in a handler")

    mem.pipeline.handlers["test.boom"] = boom
    mem.pipeline.steps.append(QueueOnMessages("test.append", {"file": str(out)}))  # type: ignore[arg-type]
    mem.store.enqueue_jobs("bg-bot", [NewJob("test.boom", {})], mem.clock())
    mem.add_message("t", "user", "hello")

    def statuses() -> dict[str, str]:
        return {j.kind: j.status for j in mem.store.list_jobs("bg-bot")}

    # the handler's line lands before its job is marked done, and the failing job is retried at once: wait
    # (10 s at most) until the append job is done and the failed one waits again, rescheduled
    expected = {"test.append": "done", "test.boom": "pending"}  # failed, rescheduled; thread lives on
    _wait_for(lambda: len(lines(out)) == 1 and statuses() == expected)
    assert thread.is_alive()

    started = time.monotonic()
    mem.close()
    assert not thread.is_alive() and time.monotonic() - started < 2.0


def test_with_worker_none_jobs_wait_for_run_jobs(tmp_path: Path) -> None:
    out = tmp_path / "fx"
    with open_memory(tmp_path / "n.db", worker_poll_interval=0.01) as mem:
        assert _worker_threads("bot") == []
        mem.pipeline.steps.append(QueueOnMessages("test.append", {"file": str(out)}))  # type: ignore[arg-type]
        mem.add_message("t", "user", "hello")
        time.sleep(0.1)
        assert [j.status for j in mem.store.list_jobs("bot")] == ["pending"]
        assert mem.run_jobs() == 1 and len(lines(out)) == 1


# -- workers in other processes --------------------------------------------------------------------------
def _spawn(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, __file__, *args], stderr=subprocess.PIPE)


def test_two_worker_processes_racing_run_each_job_exactly_once(tmp_path: Path) -> None:
    db, out, barrier = tmp_path / "race.db", tmp_path / "effects", tmp_path / "barrier"
    barrier.mkdir()
    payload = {"file": str(out), "barrier": str(barrier), "processes": 2}
    with open_memory(db) as mem:
        mem.store.enqueue_jobs("bot", [NewJob("test.race", payload) for _ in range(300)], mem.clock())
        mem.store.enqueue_jobs("bot-2", [NewJob("test.race", payload) for _ in range(200)], mem.clock())
        procs = [_spawn("race", str(db)) for _ in range(2)]
        try:
            for proc in procs:
                _, err = proc.communicate(timeout=90)
                assert proc.returncode == 0, err.decode()
        finally:
            for proc in procs:
                proc.kill()
        jobs = mem.store.list_jobs(None, limit=None)
    runs = Counter(line.split()[0] for line in lines(out))
    assert len(runs) == 500 and set(runs.values()) == {1}  # every job ran, none twice
    assert all(j.status == "done" and j.attempts == 1 for j in jobs)
    assert len({line.split()[2].split(":")[0] for line in lines(out)}) == 2  # both processes took part


@pytest.mark.parametrize("crash", ["before", "after"])
def test_a_worker_killed_mid_job_is_replaced_without_loss_or_duplicates(tmp_path: Path, crash: str) -> None:
    """``kill -9`` a worker inside a summarize job (before, then after, it stored the summary); once its lease
    expires another worker re-runs the job: every message ends up in exactly one summary."""
    db, gate = tmp_path / "crash.db", tmp_path / "gate"
    gate.mkdir()
    with open_memory(db) as mem:
        step = QueueOnMessages("test.summarize", {"gate": str(gate), "crash": crash})
        mem.pipeline.steps.append(step)  # type: ignore[arg-type]
        for i in range(1, 11):
            mem.add_message("chat", "user" if i % 2 else "assistant", f"message {i}")
        [job] = mem.store.list_jobs("bot")

        proc = _spawn("crash", str(db), "1.5")
        try:
            _wait_for(lambda: (gate / "inside").exists(), timeout=30)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
        held = job_by_id(mem, job.id)
        assert (held.status, held.attempts) == ("running", 1) and held.lease_expires_at is not None

        step.payload = {}  # the conversation goes on while nobody works: later jobs do not crash
        for i in range(11, 16):
            mem.add_message("chat", "user", f"message {i}")

        _wait_for(lambda: datetime.now(UTC) > held.lease_expires_at, timeout=10)  # type: ignore[operator]
        assert Worker(mem, lease_seconds=30).drain() >= 1
        again = job_by_id(mem, job.id)
        assert (again.status, again.attempts) == ("done", 2)

        messages = mem.history("chat")
        summaries = sorted(mem.summaries("chat"), key=lambda s: s.from_seq or 0)
        jobs = mem.store.list_jobs(None, limit=None)
    assert [m.content for m in messages] == [f"message {i}" for i in range(1, 16)]  # none lost
    assert all(m.summarized for m in messages)
    covered = [seq for s in summaries for seq in range(s.from_seq or 0, (s.to_seq or 0) + 1)]
    assert covered == list(range(1, 16))  # each message in exactly one summary: no duplicate
    expected = [(1, 15)] if crash == "before" else [(1, 10), (11, 15)]
    assert [(s.from_seq, s.to_seq) for s in summaries] == expected
    assert all(j.status == "done" for j in jobs)


# -- the worker program of the process tests -----------------------------------------------------------
def _child(argv: list[str]) -> None:
    mode, db = argv[0], argv[1]
    with open_memory(db) as mem:
        if mode == "race":
            workers = [Worker(mem, lease_seconds=60, batch=4) for _ in range(2)]
            threads = [threading.Thread(target=w.drain, args=(None,)) for w in workers]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        elif mode == "crash":
            Worker(mem, lease_seconds=float(argv[2])).drain(None)
        else:
            raise SystemExit(f"unknown mode {mode!r}")
    print(json.dumps({"ok": True}))


if __name__ == "__main__":
    _child(sys.argv[1:])


def test_a_threads_next_summary_waits_while_its_last_one_runs(tmp_path: Path) -> None:
    """A thread's next summarize job is queued as soon as its last one is claimed; a second worker must not
    run it meanwhile (both would read the same batch and add its facts twice)."""
    settings = load_settings(embedder="none", worker="none")
    with Memory(tmp_path / "m.db", agent="bot", settings=settings) as mem:
        mem.add_message("t", "user", "one", user="alice")
        [first] = mem.store.claim_jobs("worker-1", mem._now(), lease_seconds=60, limit=5)
        assert first.kind == "summarize"
        mem.add_message("t", "user", "two", user="alice")
        mem.add_message("u", "user", "elsewhere", user="bob")
        second = Worker(mem, name="worker-2")
        assert second.run_once() == 1  # thread u's job; thread t's waits for worker-1's
        assert [j.payload for j in mem.store.list_jobs("bot", status="pending")] == [{"thread": "t"}]
        assert mem.store.complete_job(first.id, "worker-1", mem._now())
        assert second.run_once() == 1
        assert mem.store.list_jobs("bot", status="pending") == []
