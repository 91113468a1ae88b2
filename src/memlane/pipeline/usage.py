"""LLM usage accounting per agent and operation, and each agent's token budget (seed 001's "energy").

Every public LLM call emits one :class:`~memlane.llm.UsageEvent`. A :class:`UsageLedger` attached to the
client's ``on_usage`` adds the events up per (agent, operation): calls, failures, prompt and completion
tokens, latency (total, and p95 from a bounded random sample). It also keeps what each agent spent in a
rolling window, which the job worker checks before it runs a job that may call the LLM: while no more than
``reserve`` (20%) of the budget is left, such jobs are *deferred* (not failed, no attempt used) until enough
of the window's spending has aged out. Nothing on the user's own request path ever consults the budget.

An event that names no agent is booked to the agent of the job being run (:func:`acting_for`, set by the
worker), so a pipeline step that forgets ``agent=`` still spends its own agent's budget.

Persistence: the store contract has no usage table yet. A store that also implements :class:`UsageStore`
(``record_usage`` / ``usage_totals``) gets every event written through, and then totals and budgets cover
every process sharing the store; without one they cover this process only (``memlane stats`` says so).
"""

from __future__ import annotations

import logging
import random
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..errors import InvalidInput
from ..types import UsageRecord, UsageTotals

if TYPE_CHECKING:
    from ..config import Settings
    from ..llm import LLMClient
    from ..llm.types import UsageEvent

__all__ = [
    "BudgetStatus",
    "UsageLedger",
    "UsageRecord",
    "UsageStore",
    "UsageTotals",
    "acting_for",
    "attach_ledger",
    "ledger_for",
]

logger = logging.getLogger("memlane.usage")

#: Events booked to no agent at all (a call made outside any job, without ``agent=``).
NO_AGENT = "-"

_acting_agent: ContextVar[str | None] = ContextVar("memlane_acting_agent", default=None)


@contextmanager
def acting_for(agent: str) -> Iterator[None]:
    """Book LLM calls made inside the block (in this thread) without ``agent=`` to ``agent``."""
    token = _acting_agent.set(agent)
    try:
        yield
    finally:
        _acting_agent.reset(token)


@dataclass(frozen=True, slots=True)
class BudgetStatus:
    """An agent's budget now. ``limit == 0`` means unlimited; ``resume_at`` is set when ``low``."""

    agent: str
    limit: int
    spent: int
    window_s: float
    reserve: float
    low: bool
    resume_at: datetime | None

    @property
    def remaining(self) -> int | None:
        """Tokens left in the window (None when unlimited)."""
        return max(0, self.limit - self.spent) if self.limit else None


@runtime_checkable
class UsageStore(Protocol):
    """What a store offers to persist usage (proposed for the storage contract; see the module doc)."""

    def record_usage(self, records: Sequence[UsageRecord]) -> None:
        """Append usage records in one transaction."""

    def usage_totals(self, agent: str | None, *, since: datetime | None = None) -> list[UsageTotals]:
        """Totals per (agent, operation) of the records at or after ``since``, of one agent or all."""


class _Aggregate:
    """Running totals of one (agent, operation), with a reservoir sample of latencies for the p95."""

    __slots__ = ("calls", "completion", "failures", "latencies", "latency", "prompt")

    def __init__(self) -> None:
        self.calls = self.failures = self.prompt = self.completion = 0
        self.latency = 0.0
        self.latencies: list[float] = []

    def add(self, event: UsageEvent, rng: random.Random, size: int) -> None:
        self.calls += 1
        self.failures += 0 if event.ok else 1
        self.prompt += event.prompt_tokens
        self.completion += event.completion_tokens
        self.latency += event.latency_s
        if len(self.latencies) < size:
            self.latencies.append(event.latency_s)
        else:  # reservoir sampling: every call has the same chance to be in the sample
            slot = rng.randrange(self.calls)
            if slot < size:
                self.latencies[slot] = event.latency_s

    def totals(self, agent: str, operation: str) -> UsageTotals:
        return UsageTotals(
            agent=agent,
            operation=operation,
            calls=self.calls,
            failures=self.failures,
            prompt_tokens=self.prompt,
            completion_tokens=self.completion,
            latency_s=self.latency,
            p95_latency_s=_p95(self.latencies),
        )


def _p95(values: Sequence[float]) -> float | None:
    """Nearest-rank 95th percentile (a value that was observed), None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = -(-95 * len(ordered) // 100)  # ceil(0.95 n)
    return ordered[rank - 1]


def _utcnow() -> datetime:
    return datetime.now(UTC)


class UsageLedger:
    """Thread-safe usage totals and rolling budgets; callable, so it can be an ``on_usage`` callback.

    Args:
        budget_tokens: tokens each agent may spend per window; 0 = unlimited.
        window_s: length of the rolling window in seconds.
        reserve: share of the budget kept back: background work waits while no more than this is left.
        clock: the current time (a :class:`~memlane.Memory` passes its own, so tests can move it).
        sink: a store that persists records (then totals and budgets span processes).
        sample_size: latencies kept per (agent, operation) for the p95.
        rng: random source of the latency sample.
    """

    def __init__(
        self,
        *,
        budget_tokens: int = 0,
        window_s: float = 86_400.0,
        reserve: float = 0.2,
        clock: Callable[[], datetime] = _utcnow,
        sink: UsageStore | None = None,
        sample_size: int = 512,
        rng: random.Random | None = None,
    ) -> None:
        self.budget_tokens = budget_tokens
        self.window = timedelta(seconds=window_s)
        self.reserve = reserve
        self.clock = clock
        self.sink = sink
        self._sample_size = sample_size
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._aggregates: dict[tuple[str, str], _Aggregate] = {}
        self._spending: dict[str, deque[tuple[datetime, int]]] = {}

    @property
    def persistent(self) -> bool:
        """Whether records are written to the store (and totals read back from it)."""
        return self.sink is not None

    @property
    def limited(self) -> bool:
        """Whether a budget is set."""
        return self.budget_tokens > 0

    def __call__(self, event: UsageEvent) -> None:
        """Same as :meth:`record`."""
        self.record(event)

    def record(self, event: UsageEvent) -> None:
        """Add one LLM call. Never raises: a failing sink is logged, the in-process totals still count."""
        agent = event.agent or _acting_agent.get() or NO_AGENT
        now = self.clock()
        tokens = event.prompt_tokens + event.completion_tokens
        with self._lock:
            self._aggregates.setdefault((agent, event.operation), _Aggregate()).add(event, self._rng, self._sample_size)
            if tokens:
                spent = self._spending.setdefault(agent, deque())
                spent.append((now, tokens))
                self._expire(spent, now)
        if self.sink is not None:
            record = UsageRecord(
                agent=agent,
                operation=event.operation,
                model=event.model,
                prompt_tokens=event.prompt_tokens,
                completion_tokens=event.completion_tokens,
                latency_s=event.latency_s,
                ok=event.ok,
                error=event.error,
                at=now,
            )
            try:
                self.sink.record_usage([record])
            except Exception:
                logger.exception("could not store the usage of %s/%s", agent, event.operation)

    def _expire(self, spent: deque[tuple[datetime, int]], now: datetime) -> None:
        cutoff = now - self.window
        while spent and spent[0][0] <= cutoff:
            spent.popleft()

    def totals(
        self, agent: str | None = None, *, local: bool = False, since: datetime | None = None
    ) -> list[UsageTotals]:
        """Totals per (agent, operation), sorted; of one agent or all; with ``since``, of the calls made at or
        after that time (seed 001's "consumed since", for a poller).

        From the store when it persists usage (all processes, all time), else — or with ``local`` — what
        this process recorded since the ledger was made.

        Raises:
            StorageError: the store could not be read. InvalidInput: ``since`` without a store that records
                usage (in-process totals keep no times).
        """
        if self.sink is not None and not local:
            return sorted(self.sink.usage_totals(agent, since=since), key=lambda t: (t.agent, t.operation))
        if since is not None:
            raise InvalidInput("usage since a time needs a store that records usage (SQLite or PostgreSQL)")
        with self._lock:
            found = [
                agg.totals(name, operation)
                for (name, operation), agg in self._aggregates.items()
                if agent is None or name == agent
            ]
        return sorted(found, key=lambda t: (t.agent, t.operation))

    def spent(self, agent: str) -> int:
        """Tokens ``agent`` spent in the current window (across processes when persisted).

        Raises:
            StorageError: the store could not be read.
        """
        now = self.clock()
        if self.sink is not None:
            return sum(t.total_tokens for t in self.sink.usage_totals(agent, since=now - self.window))
        with self._lock:
            spent = self._spending.get(agent)
            if not spent:
                return 0
            self._expire(spent, now)
            return sum(tokens for _, tokens in spent)

    def budget(self, agent: str) -> BudgetStatus:
        """Where ``agent`` stands against its budget, and when background work may resume if it is low.

        Raises:
            StorageError: the store could not be read.
        """
        window_s = self.window.total_seconds()
        if not self.limited:
            return BudgetStatus(agent, 0, self.spent(agent), window_s, self.reserve, False, None)
        spent = self.spent(agent)
        remaining = max(0, self.budget_tokens - spent)
        low = remaining <= self.reserve * self.budget_tokens
        return BudgetStatus(
            agent,
            self.budget_tokens,
            spent,
            window_s,
            self.reserve,
            low,
            self._resume_at(agent, spent) if low else None,
        )

    def _resume_at(self, agent: str, spent: int) -> datetime:
        """The first moment enough spending ages out of the window for the agent to be above the reserve."""
        now = self.clock()
        allowed = (1 - self.reserve) * self.budget_tokens
        if self.sink is not None:
            # The store gives totals, not the timeline: look again after a slice of the window.
            return now + min(self.window, max(timedelta(seconds=60), self.window / 24))
        with self._lock:
            events = list(self._spending.get(agent, ()))
        running = spent
        for at, tokens in events:
            running -= tokens
            if running < allowed:
                return at + self.window
        return now + self.window


class _Recorder:
    """The ``on_usage`` callback memlane installs: books into a ledger, then calls the user's callback."""

    def __init__(self, ledger: UsageLedger, then: Callable[[UsageEvent], None] | None) -> None:
        self.ledger = ledger
        self.then = then

    def __call__(self, event: UsageEvent) -> None:
        self.ledger.record(event)
        if self.then is not None:
            self.then(event)


def attach_ledger(llm: LLMClient, ledger: UsageLedger) -> UsageLedger:
    """Make ``llm`` book its calls into ``ledger`` and return the ledger in use.

    A client that already books into a ledger keeps it (and that ledger is returned), so views of one
    memory (``Memory.for_agent``) share one ledger; a callback the caller set is still called after it.
    """
    current = llm.on_usage
    if isinstance(current, _Recorder):
        return current.ledger
    llm.on_usage = _Recorder(ledger, current)
    return ledger


def ledger_for(settings: Settings, llm: LLMClient | None, store: object, clock: Callable[[], datetime]) -> UsageLedger:
    """The ledger of a :class:`~memlane.Memory`: budget from settings, write-through when the store persists
    usage, and attached to ``llm`` (or the ledger ``llm`` already books into)."""
    ledger = UsageLedger(
        budget_tokens=settings.llm_budget_tokens,
        window_s=settings.llm_budget_window,
        reserve=settings.llm_budget_reserve,
        clock=clock,
        sink=store if isinstance(store, UsageStore) else None,
    )
    return ledger if llm is None else attach_ledger(llm, ledger)
