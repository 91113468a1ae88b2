"""Runs queued jobs: claims them under a lease, runs each through its agent's pipeline, records the outcome.

Delivery is at least once. A worker that dies keeps its lease until it expires; then another worker claims
the job again, and that attempt counts. Handlers are written to be idempotent (a summary of a message
range is stored once, see ``Store.add_summary``), so the *effect* of a job happens once.

What becomes of a claimed job::

    done       the handler returned                                complete_job
    retry      ProviderError, StorageError, or any other failure   fail_job, retry_at = now + backoff + jitter
    dead       InvalidInput (a bad payload or a bug: retrying      fail_job, retry_at = None
               cannot help), attempts used up, or the lease ran
               out on every attempt (a job that kills its worker)
    deferred   the agent's LLM budget is low (seed 001)            defer_job; the attempt is not counted
    lost       the lease ran out before the job ended              another worker holds it now
    released   the worker was stopped before starting the job      defer_job until now

A worker claims only the kinds its pipeline has handlers for, so a job no running version knows stays
pending (visible in ``memlane jobs``) rather than dying. A handler with an ``exclusive = True`` attribute (the
pipeline's summaries, memories and profiles) never runs beside a job of the same agent, kind and payload under
a live lease: the next job of a thread is queued as soon as the last one is claimed, and two workers
summarizing one batch at once would both add its facts. A lease must outlast the slowest job: an LLM
call may retry for minutes (``worker_lease_seconds``, default 300 s); the store cannot extend a lease yet.
"""

from __future__ import annotations

import logging
import os
import random
import secrets
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Literal

from ..errors import InvalidInput, MemlaneError, RateLimited
from ..types import Job
from .core import Handler
from .usage import acting_for

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = ["BackgroundWorker", "JobOutcome", "Worker", "retry_delay"]

logger = logging.getLogger("memlane.worker")

Outcome = Literal["done", "retry", "dead", "deferred", "lost", "released"]

#: First retry delay in seconds; it doubles with each attempt, up to RETRY_MAX.
RETRY_BASE = 30.0
RETRY_MAX = 3600.0
#: Longest pause of :meth:`Worker.run_forever` after failed claims (the database unreachable): it doubles from
#: the poll interval up to this, so a worker is back at work within this long of the database's return.
CLAIM_BACKOFF_MAX = 10.0


@dataclass(frozen=True, slots=True)
class JobOutcome:
    """What a worker did with one claimed job."""

    job: Job
    status: Outcome
    seconds: float
    error: str | None = None
    run_after: datetime | None = None

    def describe(self) -> str:
        """One log line: which job, what became of it, how long it took."""
        job = self.job
        line = (
            f"job {job.id} {job.kind} (agent {job.agent}, attempt {job.attempts}/{job.max_attempts}): "
            f"{self.status} after {self.seconds:.2f}s"
        )
        if self.run_after is not None and self.status in ("retry", "deferred"):
            line += f", next at {self.run_after.isoformat(timespec='seconds')}"
        if self.error:
            line += f": {self.error}"
        return line


def retry_delay(
    attempts: int, base: float = RETRY_BASE, cap: float = RETRY_MAX, rng: random.Random | None = None
) -> float:
    """Seconds to wait after failed attempt number ``attempts`` (1 = the first).

    The ceiling doubles per attempt up to ``cap``; the delay is drawn from its upper half, so retries of
    many jobs that failed together (a provider outage) spread out but still grow.
    """
    ceiling = min(cap, base * 2.0 ** min(max(attempts - 1, 0), 60))
    return ceiling / 2 + (rng or random).uniform(0, ceiling / 2)


def _worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def _error_text(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Worker:
    """Claims ready jobs of every agent in ``memory``'s store and runs them.

    Handlers come from ``memory.pipeline.handlers`` (the step modules' plus any registered on it) and are
    used for every agent: a job of another agent runs through ``memory.for_agent(job.agent)``.

    Args:
        memory: the memory whose store, clock, LLM budget and handlers to use.
        name: the lease owner name; must be unique per worker (default: host, pid and a random suffix).
        lease_seconds: how long a claim lasts (default ``settings.worker_lease_seconds``).
        batch: jobs claimed at a time (default ``settings.worker_batch``).
        poll_interval: idle wait of :meth:`run_forever` (default ``settings.worker_poll_interval``).
        retry_base, retry_max: the backoff of failed jobs, see :func:`retry_delay`.
        on_outcome: called with each :class:`JobOutcome` (the CLI prints them).
        rng: random source of the backoff jitter.
    """

    def __init__(
        self,
        memory: Memory,
        *,
        name: str | None = None,
        lease_seconds: float | None = None,
        batch: int | None = None,
        poll_interval: float | None = None,
        retry_base: float = RETRY_BASE,
        retry_max: float = RETRY_MAX,
        on_outcome: Callable[[JobOutcome], None] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        settings = memory.settings
        self.memory = memory
        self.name = name or _worker_name()
        self.lease_seconds = lease_seconds if lease_seconds is not None else settings.worker_lease_seconds
        self.batch = batch if batch is not None else settings.worker_batch
        self.poll_interval = poll_interval if poll_interval is not None else settings.worker_poll_interval
        if self.lease_seconds <= 0 or self.batch < 1 or self.poll_interval <= 0:
            raise InvalidInput("lease_seconds and poll_interval must be positive, batch at least 1")
        self.retry_base = retry_base
        self.retry_max = retry_max
        self.on_outcome = on_outcome
        self.stop_event = threading.Event()
        self._rng = rng or random.Random()
        self._views: dict[str, Memory] = {}
        self._warn_short_lease()

    def _warn_short_lease(self) -> None:
        llm = self.memory.llm
        if llm is None:
            return
        slowest = llm.total_timeout or (llm.timeout * (llm.max_retries + 1) + llm.backoff_max * llm.max_retries)
        if self.lease_seconds < slowest:
            logger.warning(
                "worker lease of %.0fs is shorter than one LLM call may take (%.0fs with retries); a slow job "
                "may be claimed twice. Raise worker_lease_seconds.",
                self.lease_seconds,
                slowest,
            )

    def _now(self) -> datetime:
        now = self.memory.clock()
        return now if now.tzinfo else now.replace(tzinfo=UTC)

    def _view(self, agent: str) -> Memory:
        """The memory of ``agent``, with this worker's handlers."""
        if agent == self.memory.agent:
            return self.memory
        view = self._views.get(agent)
        if view is None:
            view = self._views[agent] = self.memory.for_agent(agent)
        view.pipeline.handlers.update(self.memory.pipeline.handlers)
        return view

    # -- one pass -------------------------------------------------------------------------------------
    def run_once(self) -> int:
        """Claim one batch of ready jobs and run them; returns how many were run (whatever their outcome).

        Raises:
            StorageError: the claim itself failed (nothing was leased).
        """
        handlers = self.memory.pipeline.handlers
        kinds = sorted(handlers)
        if not kinds:
            return 0  # an empty list would mean "any kind" to the store
        # A handler marked ``exclusive`` never runs beside a job of the same kind and payload (one thread's
        # summaries: two at once would both add the facts of the same batch).
        exclusive = [kind for kind in kinds if getattr(handlers[kind], "exclusive", False)]
        jobs = self.memory.store.claim_jobs(
            self.name, self._now(), lease_seconds=self.lease_seconds, limit=self.batch, kinds=kinds, exclusive=exclusive
        )
        for i, job in enumerate(jobs):
            if self.stop_event.is_set():
                self._release(jobs[i:])
                return i
            try:
                self._run(job)
            except BaseException:
                self._release(jobs[i + 1 :])
                raise
        return len(jobs)

    def _run(self, job: Job) -> JobOutcome:
        started = time.monotonic()
        if job.attempts > job.max_attempts:
            # Every earlier holder let its lease run out: a job that kills or hangs its worker.
            return self._fail(job, started, "lease expired on every attempt (worker died or hung)", None)
        try:
            view = self._view(job.agent)
            handler = view.pipeline.handlers.get(job.kind)
            if handler is not None and self._budget_bound(handler):
                budget = self.memory.usage.budget(job.agent)
                if budget.low:
                    until = budget.resume_at or self._now() + timedelta(seconds=self.poll_interval)
                    reason = f"deferred: LLM budget low ({budget.remaining} of {budget.limit} tokens left)"
                    return self._defer(job, started, until, reason, "deferred")
            with acting_for(job.agent):
                view.pipeline.run_job(job)
        except InvalidInput as exc:
            logger.warning("job %s %s failed for good: %s", job.id, job.kind, exc)
            return self._fail(job, started, _error_text(exc), None)
        except Exception as exc:
            if not isinstance(exc, MemlaneError):
                logger.exception("job %s %s raised", job.id, job.kind)
            delay = retry_delay(job.attempts, self.retry_base, self.retry_max, self._rng)
            if isinstance(exc, RateLimited) and exc.retry_after:
                delay = max(delay, exc.retry_after)
            return self._fail(job, started, _error_text(exc), self._now() + timedelta(seconds=delay))
        except BaseException:
            self._defer(job, started, self._now(), "released: worker interrupted", "released")
            raise
        return self._complete(job, started)

    def _budget_bound(self, handler: Handler) -> bool:
        """Whether a job with this handler waits for the budget: it may call the LLM and a budget is set.

        A handler that never calls the LLM says so with a ``uses_llm = False`` attribute.
        """
        return self.memory.llm is not None and self.memory.usage.limited and getattr(handler, "uses_llm", True)

    # -- recording outcomes ----------------------------------------------------------------------------
    # Book-keeping failures are logged, not raised: the job keeps its lease, which expires, and another
    # worker runs it again.
    def _complete(self, job: Job, started: float) -> JobOutcome:
        try:
            held = self.memory.store.complete_job(job.id, self.name, self._now())
        except Exception as exc:
            return self._report(JobOutcome(job, "lost", time.monotonic() - started, _error_text(exc)))
        if not held:
            return self._report(JobOutcome(job, "lost", time.monotonic() - started, "lease expired before the end"))
        return self._report(JobOutcome(job, "done", time.monotonic() - started))

    def _fail(self, job: Job, started: float, error: str, retry_at: datetime | None) -> JobOutcome:
        try:
            after = self.memory.store.fail_job(job.id, self.name, error, self._now(), retry_at)
        except Exception as exc:
            return self._report(JobOutcome(job, "lost", time.monotonic() - started, f"{error}; {_error_text(exc)}"))
        if after is None:
            return self._report(JobOutcome(job, "lost", time.monotonic() - started, error))
        status: Outcome = "dead" if after.status == "dead" else "retry"
        return self._report(JobOutcome(job, status, time.monotonic() - started, error, after.run_after))

    def _defer(self, job: Job, started: float, until: datetime, reason: str, status: Outcome) -> JobOutcome:
        try:
            held = self.memory.store.defer_job(job.id, self.name, until, reason)
        except Exception as exc:
            return self._report(JobOutcome(job, "lost", time.monotonic() - started, _error_text(exc)))
        outcome = JobOutcome(job, status if held else "lost", time.monotonic() - started, reason, until)
        return self._report(outcome)

    def _release(self, jobs: Sequence[Job]) -> None:
        """Hand claimed jobs that were not started back to the queue at once (no attempt used)."""
        for job in jobs:
            self._defer(job, time.monotonic(), self._now(), "released: worker stopped", "released")

    def _report(self, outcome: JobOutcome) -> JobOutcome:
        level = logging.INFO if outcome.status in ("done", "deferred", "released") else logging.WARNING
        logger.log(level, "%s", outcome.describe())
        if self.on_outcome is not None:
            try:
                self.on_outcome(outcome)
            except Exception:
                logger.exception("on_outcome callback failed")
        return outcome

    # -- loops ----------------------------------------------------------------------------------------
    def drain(self, timeout: float | None = 60.0) -> int:
        """Run jobs until none is ready (or ``timeout`` seconds passed); returns how many were run.

        Jobs waiting for a retry, for the budget, or leased by another worker are not ready.

        Raises:
            StorageError: claiming failed.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        total = 0
        while not self.stop_event.is_set():
            ran = self.run_once()
            total += ran
            if ran == 0 or (deadline is not None and time.monotonic() >= deadline):
                break
        return total

    def run_forever(self, stop: threading.Event | None = None) -> None:
        """Run jobs until ``stop`` (default: :attr:`stop_event`) is set; never raises on a job's failure.

        A failing claim (database locked, store unreachable) is logged and retried after a growing pause (at
        most ``CLAIM_BACKOFF_MAX`` seconds, or the poll interval if that is longer).
        """
        if stop is not None:
            self.stop_event = stop
        failures = 0
        longest = max(CLAIM_BACKOFF_MAX, self.poll_interval)
        while not self.stop_event.is_set():
            try:
                ran = self.run_once()
                failures = 0
            except MemlaneError as exc:  # the store's own error says it all: no traceback
                failures += 1
                error = _error_text(exc)
                logger.warning("worker %s could not claim jobs (%d in a row): %s", self.name, failures, error)
                ran = 0
            except Exception:
                failures += 1
                logger.exception("worker %s could not claim jobs", self.name)
                ran = 0
            if ran == 0:
                self.stop_event.wait(min(self.poll_interval * 2 ** min(failures, 6), longest))


class BackgroundWorker:
    """A daemon thread running a :class:`Worker` for a :class:`~memlane.Memory` (``settings.worker ==
    "thread"``). It never raises into the process, and :meth:`stop` ends it within ``timeout`` unless a
    job is in the middle of a call; such a job keeps its lease and another worker finishes it later."""

    def __init__(
        self,
        memory: Memory,
        *,
        lease_seconds: float | None = None,
        batch: int | None = None,
        poll_interval: float | None = None,
    ) -> None:
        self.worker = Worker(memory, lease_seconds=lease_seconds, batch=batch, poll_interval=poll_interval)
        self.thread = threading.Thread(target=self._main, name=f"memlane-worker[{memory.agent}]", daemon=True)

    def start(self) -> None:
        """Start the thread."""
        self.thread.start()

    def _main(self) -> None:
        try:
            # The first look comes one poll interval after start, so a short-lived Memory (a CLI command)
            # does not pick up work it would have to abandon when it closes.
            if not self.worker.stop_event.wait(self.worker.poll_interval):
                self.worker.run_forever()
        except BaseException:  # the thread must never take the process down
            logger.exception("memlane background worker stopped")

    @property
    def alive(self) -> bool:
        """Whether the thread is still running."""
        return self.thread.is_alive()

    def stop(self, timeout: float = 2.0) -> bool:
        """Ask the thread to stop and wait up to ``timeout`` seconds; returns whether it has ended."""
        self.worker.stop_event.set()
        if self.thread.is_alive() and self.thread is not threading.current_thread():
            self.thread.join(timeout)
        return not self.thread.is_alive()
