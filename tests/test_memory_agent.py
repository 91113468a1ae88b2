"""The facade's agent-level part (memlane.memory.agent): seed 001's admin operations on the agent's
memories, profiles and digests, jobs and LLM usage since a time — the methods every edge calls."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from conftest import FakeClock
from memlane import InvalidInput, Memory, NotFound, load_settings
from memlane.types import UsageRecord
from memlane.validation import NewJob


def _open(path: Path, clock: FakeClock, agent: str = "bot") -> Memory:
    return Memory(path, agent=agent, settings=load_settings(worker="none", embedder="none"), llm=None, clock=clock)


def _conversation(mem: Memory, key: str) -> None:
    mem.add_message(key, "user", f"Help me plan the {key} launch before Friday, please.", user="alice")
    mem.add_message(key, "assistant", f"The {key} launch needs a checklist and a dry run on Thursday.")
    mem.end(key)
    mem.run_jobs()


def test_list_and_purge_memories_one_or_all_within_the_agent(tmp_path: Path, clock: FakeClock) -> None:
    db = tmp_path / "m.db"
    with _open(db, clock) as mem, _open(db, clock, agent="other") as other:
        for key in ("alpha", "beta", "gamma"):
            _conversation(mem, key)
            clock.advance(hours=1)
        _conversation(other, "delta")
        listed = mem.list_memories()
        assert [s.thread for s in listed] == ["gamma", "beta", "alpha"]  # newest first
        assert [s.thread for s in mem.list_memories(limit=1)] == ["gamma"]
        with pytest.raises(NotFound):
            mem.delete_memory(other.list_memories()[0].id)  # another agent's memory is not found
        assert mem.delete_memory(listed[0].id) == 1
        assert [s.thread for s in mem.list_memories()] == ["beta", "alpha"]
        with pytest.raises(NotFound):
            mem.delete_memory(listed[0].id)
        assert mem.purge_memories() == 2 and mem.list_memories() == []
        assert len(other.list_memories()) == 1
        with pytest.raises(InvalidInput):
            mem.list_memories(limit=-1)


def test_profile_and_digest_of_a_user(tmp_path: Path, clock: FakeClock) -> None:
    with _open(tmp_path / "m.db", clock) as mem:
        assert mem.profile("alice") is None and mem.digest("alice") == ""
        mem.remember("Alice prefers meetings after 2pm", user="alice", category="preference")
        mem.run_jobs()
        assert "after 2pm" in (mem.profile("alice") or "")
        assert "after 2pm" in mem.digest("alice")
        assert mem.profile("bob") is None
        with pytest.raises(InvalidInput):
            mem.profile("")


def test_jobs_lists_and_retries_only_the_agents_own(tmp_path: Path, clock: FakeClock) -> None:
    db = tmp_path / "m.db"
    with _open(db, clock) as mem, _open(db, clock, agent="other") as other:
        [mine] = mem.store.enqueue_jobs("bot", [NewJob("memory", {})], clock())
        [theirs] = other.store.enqueue_jobs("other", [NewJob("memory", {})], clock())
        mem.run_jobs()
        assert [j.id for j in mem.jobs(status="dead")] == [mine.id]
        with pytest.raises(NotFound):
            mem.retry_job(theirs.id)
        assert mem.retry_job(mine.id).status == "pending"
        assert other.jobs(status="dead")[0].id == theirs.id
        with pytest.raises(InvalidInput):
            mem.jobs(status="sleeping")


def test_usage_totals_since_a_time(tmp_path: Path, clock: FakeClock) -> None:
    with _open(tmp_path / "m.db", clock) as mem:
        t0 = clock()
        mem.store.record_usage(
            [
                UsageRecord("bot", "summarize", "m", 10, 2, 0.1, True, None, t0),
                UsageRecord("bot", "summarize", "m", 20, 3, 0.2, True, None, t0 + timedelta(hours=1)),
                UsageRecord("other", "summarize", "m", 99, 9, 0.2, True, None, t0 + timedelta(hours=1)),
            ]
        )
        [total] = mem.usage_totals()
        assert (total.calls, total.prompt_tokens) == (2, 30)
        [recent] = mem.usage_totals(since=t0 + timedelta(minutes=30))
        assert (recent.calls, recent.prompt_tokens, recent.completion_tokens) == (1, 20, 3)
        assert mem.usage_totals(since=t0 + timedelta(days=1)) == []
        assert mem.budget().agent == "bot"


def test_usage_by_day_splits_the_agents_use_into_utc_days(tmp_path: Path, clock: FakeClock) -> None:
    with _open(tmp_path / "m.db", clock) as mem:
        now = clock()
        today = now.date()
        mem.store.record_usage(
            [
                UsageRecord("bot", "summarize", "m", 10, 2, 0.1, True, None, now - timedelta(days=2)),
                UsageRecord("bot", "summarize", "m", 20, 3, 0.2, True, None, now - timedelta(days=2)),
                UsageRecord("bot", "create_memory", "m", 5, 5, 0.2, True, None, now),
                UsageRecord("other", "summarize", "m", 99, 9, 0.2, True, None, now - timedelta(days=1)),
                UsageRecord("bot", "summarize", "m", 1000, 0, 0.2, True, None, now - timedelta(days=30)),
            ]
        )
        days = mem.usage_by_day(3)
        assert [d.day for d in days] == [today - timedelta(days=2), today - timedelta(days=1), today]
        assert [(d.calls, d.tokens) for d in days] == [(2, 35), (0, 0), (1, 10)]  # another agent's use is not here
        assert len(mem.usage_by_day()) == 14
        for bad in (0, 367, "7", True):
            with pytest.raises(InvalidInput):
                mem.usage_by_day(bad)  # type: ignore[arg-type]
