"""LLM usage records are part of the storage contract: every backend keeps and totals them alike."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memlane import Memory
from memlane.types import UsageRecord

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def _record(agent: str, operation: str, tokens: int, latency: float, ok: bool, at: datetime) -> UsageRecord:
    return UsageRecord(agent, operation, "m", tokens, 1, latency, ok, None if ok else "ProviderError", at)


def test_usage_totals_per_agent_and_operation(mem: Memory) -> None:
    store = mem.store
    store.record_usage(
        [_record("agent-a", "summarize", 10 * i, 0.1 * i, i != 3, T0 + timedelta(minutes=i)) for i in range(1, 21)]
        + [_record("agent-a", "profile", 7, 0.5, True, T0), _record("agent-b", "summarize", 99, 1.0, True, T0)]
    )
    totals = {(t.agent, t.operation): t for t in store.usage_totals("agent-a")}
    assert set(totals) == {("agent-a", "summarize"), ("agent-a", "profile")}
    summarize = totals["agent-a", "summarize"]
    assert (summarize.calls, summarize.failures) == (20, 1)
    assert (summarize.prompt_tokens, summarize.completion_tokens) == (2100, 20)
    assert abs(summarize.latency_s - 21.0) < 1e-6
    assert summarize.p95_latency_s is not None and abs(summarize.p95_latency_s - 1.9) < 1e-6
    assert {t.agent for t in store.usage_totals(None)} == {"agent-a", "agent-b"}
    recent = {t.operation: t for t in store.usage_totals("agent-a", since=T0 + timedelta(minutes=11))}
    assert recent["summarize"].calls == 10 and "profile" not in recent
