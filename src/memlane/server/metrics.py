"""Prometheus metrics of one server process: requests and latencies per route, and the agents' memory
figures, read from the store at scrape time (so they cover every process sharing it). ``/metrics`` needs no
key, so the per-agent figures (which name every agent, and cost a few queries per agent) are only there when
the operator asks for them (``memlane serve --metrics-per-agent``):

    memlane_http_requests_total{method,route,status}     requests answered
    memlane_http_request_duration_seconds{method,route}  latency histogram
    memlane_context_memories_injected_total{agent}       agent memories shown in contexts served here
    memlane_memories{agent}                              memories the agent holds now
    memlane_memory_cap_utilization{agent}                memories / memory_cap
    memlane_llm_calls_total{agent,operation}             LLM calls (create_memory, compact_memories, ...)
    memlane_llm_failures_total{agent,operation}
    memlane_llm_tokens_total{agent,operation,kind}       prompt / completion tokens

Memories created and compacted are the LLM operations ``create_memory`` / ``compact_memories`` of the
usage figures (each creation or compaction decision is one call; extractive fallbacks are not LLM calls).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from .state import ServerState

__all__ = ["Metrics", "render_metrics"]

_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class _StoreFigures(Collector):
    """Figures read from the store through the facade when Prometheus scrapes."""

    def __init__(self, state: ServerState) -> None:
        self.state = state

    def collect(self) -> Iterator[Any]:
        memories = GaugeMetricFamily("memlane_memories", "Memories the agent holds", labels=["agent"])
        utilization = GaugeMetricFamily(
            "memlane_memory_cap_utilization", "Memories held / memory_cap", labels=["agent"]
        )
        calls = CounterMetricFamily("memlane_llm_calls", "LLM calls", labels=["agent", "operation"])
        failures = CounterMetricFamily("memlane_llm_failures", "Failed LLM calls", labels=["agent", "operation"])
        tokens = CounterMetricFamily("memlane_llm_tokens", "LLM tokens", labels=["agent", "operation", "kind"])
        root = self.state.memory
        for agent in root.agents():
            view = self.state.view(agent)
            held = len(view.list_memories())
            memories.add_metric([agent], held)
            utilization.add_metric([agent], held / view.memory_cap())
            for t in view.usage_totals():
                calls.add_metric([agent, t.operation], t.calls)
                failures.add_metric([agent, t.operation], t.failures)
                tokens.add_metric([agent, t.operation, "prompt"], t.prompt_tokens)
                tokens.add_metric([agent, t.operation, "completion"], t.completion_tokens)
        yield from (memories, utilization, calls, failures, tokens)


class Metrics:
    """The registry of one app (not the global one: several apps may live in one test process)."""

    def __init__(self, *, per_agent: bool = False) -> None:
        self.per_agent = per_agent
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "memlane_http_requests", "HTTP requests answered", ["method", "route", "status"], registry=self.registry
        )
        self.latency = Histogram(
            "memlane_http_request_duration_seconds",
            "HTTP request latency",
            ["method", "route"],
            buckets=_BUCKETS,
            registry=self.registry,
        )
        self.injected = Counter(
            "memlane_context_memories_injected",
            "Agent memories shown in contexts",
            ["agent"] if per_agent else [],
            registry=self.registry,
        )
        self._store: _StoreFigures | None = None

    def memories_injected(self, agent: str, count: int) -> None:
        """Count ``count`` agent memories shown in a context of ``agent``."""
        (self.injected.labels(agent) if self.per_agent else self.injected).inc(count)

    def attach(self, state: ServerState) -> None:
        """Add the store figures of ``state`` (once), if per-agent figures were asked for."""
        if self._store is None and self.per_agent:
            self._store = _StoreFigures(state)
            self.registry.register(self._store)


def render_metrics(state: ServerState) -> tuple[bytes, str]:
    """The exposition text and its content type."""
    return generate_latest(state.metrics.registry), CONTENT_TYPE_LATEST
