"""Memories of ended conversations (seed 001): one per conversation, at most the cap per agent, compacted by
an LLM decision or FIFO, shown in context with their dates, isolated per agent, purged by admins."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from conftest import FakeClock
from memlane import InvalidInput, Memory, NotFound, ProviderError, load_settings
from memlane.llm import LLMClient, OpenAICompatibleLLM
from memlane.pipeline import memories
from memlane.pipeline.memories import compact, create_memory, list_memories, purge_memories
from memlane.testing import FakeLLMServer, Fault, ScriptedLLM
from memlane.validation import NewSummary

FAST: dict[str, Any] = {"timeout": 0.3, "max_retries": 1, "backoff_base": 0.01, "backoff_max": 0.02}
CHAT = "/v1/chat/completions"


def open_memory(path: Path, clock: FakeClock, *, llm: LLMClient | None = None, agent: str = "bot") -> Memory:
    settings = load_settings(worker="none", embedder="none")
    return Memory(path, agent=agent, settings=settings, llm=llm, clock=clock)


def converse(mem: Memory, n: int, *, thread: str | None = None) -> str:
    """One short conversation, then end it."""
    key = thread or f"conv-{n}"
    mem.add_message(key, "user", f"I need help with project number {n}. The deadline is Friday.", user="alice")
    mem.add_message(key, "assistant", f"Sure. Let's plan project {n} in three steps before Friday.")
    mem.end(key)
    return key


def memory_json(text: str) -> str:
    return json.dumps({"memory": text})


def ten_memories(path: Path, clock: FakeClock) -> list[int]:
    """Ten memories made without an LLM (extractive) on 2026-01-01 … 01-10, oldest first; the clock is then
    on the 11th."""
    with open_memory(path, clock) as mem:
        for n in range(10):
            converse(mem, n)
            mem.run_jobs()
            clock.advance(days=1)
        return [s.id for s in reversed(list_memories(mem))]


@pytest.fixture(scope="module")
def http_client() -> Iterator[httpx.Client]:
    with httpx.Client(trust_env=False) as client:
        yield client


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(default=Fault.status(500)) as fake:
        yield fake


def http_llm(server: FakeLLMServer, http_client: httpx.Client) -> LLMClient:
    return OpenAICompatibleLLM(server.base_url, "fake-gpt", http_client=http_client, **FAST)


# -- creation ---------------------------------------------------------------------------------------


def test_end_creates_exactly_one_memory_and_a_retry_does_not_duplicate(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM(memory_json("Alice planned project 1 with a Friday deadline. The plan has three steps."))
    with open_memory(tmp_path / "m.db", clock, llm=llm) as mem:
        assert list_memories(mem) == []
        converse(mem, 1, thread="t1")
        [job] = [j for j in mem.store.list_jobs("bot", kind="memory")]
        assert job.payload == {"thread": "t1"}
        mem.run_jobs()
        [made] = list_memories(mem)
        assert made.content == "Alice planned project 1 with a Friday deadline. The plan has three steps."
        assert (made.thread, made.owner, made.method, made.from_seq, made.to_seq) == ("t1", "alice", "llm", 1, 2)
        assert made.metadata["users"] == ["alice"]  # a conversation of one user: a memory of hers
        # The same job again (a worker died after storing), the handler again, and ending again: still one.
        mem.pipeline.run_job(job)
        assert create_memory(mem, "t1") is None
        mem.end("t1")
        mem.run_jobs()
        assert [s.id for s in list_memories(mem)] == [made.id]
        [call] = llm.calls  # one LLM call in all
        assert call.temperature == memories.MEMORY_TEMPERATURE
        assert "2-4 sentences" in call.messages[0].content
        assert "project number 1" in call.messages[1].content
        # New messages after the end: the next memory covers only them.
        mem.add_message("t1", "user", "Project 1 is done, thanks!", user="alice")
        llm.script(memory_json("Alice finished project 1."))
        mem.end("t1")
        mem.run_jobs()
        newest = list_memories(mem)[0]
        assert (newest.content, newest.from_seq, newest.to_seq) == ("Alice finished project 1.", 3, 3)
        assert len(list_memories(mem)) == 2


def test_end_queues_one_job_per_thread_while_pending(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        mem.add_message("t1", "user", "hello", user="alice")
        mem.end("t1")
        mem.end("t1")
        assert len(mem.store.list_jobs("bot", kind="memory")) == 1


def test_without_an_llm_the_memory_is_extractive(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        mem.add_message("t1", "user", "My sister Maria moves to Porto in March. She found a flat near the river.")
        mem.add_message("t1", "assistant", "That sounds lovely! Porto in spring is great.")
        mem.end("t1")
        mem.run_jobs()
        [made] = list_memories(mem)
        assert made.method == "extractive"
        assert "Maria moves to Porto in March" in made.content


def test_llm_failure_retries_the_job_then_falls_back_to_extractive_on_the_last_attempt(
    tmp_path: Path, clock: FakeClock, server: FakeLLMServer, http_client: httpx.Client
) -> None:
    with open_memory(tmp_path / "m.db", clock, llm=http_llm(server, http_client)) as mem:
        mem.add_message("t1", "user", "I adopted a cat called Miso last week.", user="alice")
        mem.end("t1")
        [job] = mem.store.claim_jobs("w", clock(), lease_seconds=60, limit=10, kinds=["memory"])
        with pytest.raises(ProviderError):
            mem.pipeline.run_job(job)  # not the last attempt: the worker retries later
        assert list_memories(mem) == []
        mem.pipeline.run_job(dataclasses.replace(job, attempts=job.max_attempts))
        [made] = list_memories(mem)
        assert made.method == "extractive" and "Miso" in made.content
        assert "ProviderError" in made.metadata["fallback"]


# -- compaction -------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["delete", "edit"])
def test_eleventh_memory_is_compacted_by_the_llm_decision(tmp_path: Path, clock: FakeClock, action: str) -> None:
    ids = ten_memories(tmp_path / "m.db", clock)
    target = ids[3]
    decision = {"action": action, "target": target, "reason": "redundant"}
    if action == "edit":
        decision = {
            "action": "EDIT",
            "targetMemoryId": target,
            "newContent": "Merged: projects 3 and 10.",
            "reason": "r",
        }
    llm = ScriptedLLM(memory_json("Alice planned project 10."), json.dumps(decision))
    with open_memory(tmp_path / "m.db", clock, llm=llm) as mem:
        before = {s.id: s for s in list_memories(mem)}
        converse(mem, 10)
        mem.run_jobs()
        after = list_memories(mem)
        assert len(after) == 10
        _, compact_call = llm.calls
        assert compact_call.temperature == 0.0
        assert "11 memories but can only keep 10" in compact_call.messages[0].content
        assert all(f"[id {i}]" in compact_call.messages[1].content for i in ids)
        contents = {s.id: s.content for s in after}
        if action == "delete":
            assert target not in contents
            assert "Alice planned project 10." in contents.values()
        else:
            assert "Alice planned project 10." not in contents.values()  # merged into the target
            [edited] = [s for s in after if s.content == "Merged: projects 3 and 10."]
            assert edited.created_at == before[target].created_at  # "[Created: …]" stays true
            assert edited.metadata["updated_at"].startswith(clock().date().isoformat())
            assert set(contents) - {edited.id} == set(ids) - {target}


def unusable(kind: str, ids: list[int]) -> list[Any]:
    """The compaction replies of one kind of failure (two when the client asks again: retry or repair)."""
    return {
        "unknown-id": [json.dumps({"action": "delete", "target": 999999, "reason": "?"})],
        "edit-without-content": [json.dumps({"action": "edit", "target": ids[4], "new_content": " "})],
        # the new memory gets the next id: merging it into itself would leave 11
        "edit-of-the-new-memory": [json.dumps({"action": "edit", "target": ids[-1] + 1, "new_content": "x"})],
        "http-500": [Fault.status(500), Fault.status(500)],
        "timeout": [Fault.slow(1.0), Fault.slow(1.0)],
        "malformed-json": [Fault.malformed_json(), Fault.malformed_json()],
        "wrong-schema": [Fault.wrong_schema({"action": "archive", "target": ids[0]})] * 2,
    }[kind]


@pytest.mark.parametrize(
    "kind",
    [
        "unknown-id",
        "edit-without-content",
        "edit-of-the-new-memory",
        "http-500",
        "timeout",
        "malformed-json",
        "wrong-schema",
    ],
)
def test_unusable_decisions_fall_back_to_fifo(
    tmp_path: Path, clock: FakeClock, server: FakeLLMServer, http_client: httpx.Client, kind: str
) -> None:
    ids = ten_memories(tmp_path / "m.db", clock)
    faults = unusable(kind, ids)
    server.script(memory_json("Alice planned project 10."), *faults)
    with open_memory(tmp_path / "m.db", clock, llm=http_llm(server, http_client)) as mem:
        converse(mem, 10)
        mem.run_jobs()
        kept = list_memories(mem)
        assert len(kept) == 10
        assert {s.id for s in kept} == set(ids[1:]) | {kept[0].id}  # the oldest went
        assert kept[0].content == "Alice planned project 10."
        assert len(server.calls_to(CHAT)) == 1 + len(faults)  # one decision asked (and retried or repaired)


def test_compaction_reaches_a_lowered_cap_with_fifo_beyond_the_llm_decisions(tmp_path: Path, clock: FakeClock) -> None:
    ids = ten_memories(tmp_path / "m.db", clock)
    decisions = [json.dumps({"action": "delete", "target": ids[-1 - i], "reason": "newest"}) for i in range(3)]
    llm = ScriptedLLM(*decisions)
    with open_memory(tmp_path / "m.db", clock, llm=llm) as mem:
        steps = compact(mem, 4)
        assert [s.method for s in steps] == ["llm"] * memories.MAX_LLM_DECISIONS + ["fifo"] * 3
        assert {s.id for s in list_memories(mem)} == set(ids[3:7])
        assert compact(mem, 4) == []  # at the cap: nothing to do


def test_the_cap_comes_from_the_memory_cap_setting() -> None:
    settings = load_settings(worker="none", embedder="none")
    assert memories.memory_cap(settings) == getattr(settings, "memory_cap", 10)
    assert memories.memory_cap(SimpleNamespace(memory_cap=3)) == 3  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="memory_cap"):
        memories.memory_cap(SimpleNamespace(memory_cap=0))  # type: ignore[arg-type]


# -- context, isolation, admin ----------------------------------------------------------------------


def test_context_shows_every_memory_newest_first_with_dates_within_the_allowance(
    tmp_path: Path, clock: FakeClock
) -> None:
    ten_memories(tmp_path / "m.db", clock)
    with open_memory(tmp_path / "m.db", clock) as mem:
        mem.add_message("now", "user", "What were we working on?", user="alice")
        ctx = mem.context("now", user="alice", budget=2000)
        [(_, lines)] = [s for s in ctx.extra_sections if s[0] == memories.SECTION_TITLE]
        assert lines[0].startswith("[Created: 2026-01-10] ")
        assert lines[1].startswith("[Created: 2026-01-09] ")
        assert "project" in lines[0]
        section = "## Memories from previous conversations\n" + "\n".join(f"- {line}" for line in lines)
        assert section in ctx.system_text()
        assert len(lines) == 10  # all the cap allows: the sections share one allowance, memories after facts
        assert mem.count_tokens(section) <= 2000 * (0.45 + memories.SECTION_SHARE)
        assert ctx.tokens <= 2000
        small = mem.context("now", user="alice", budget=300)
        small_lines = dict(small.extra_sections).get(memories.SECTION_TITLE, [])
        assert len(small_lines) < len(lines) and small.tokens <= 300


def test_the_cap_holds_per_audience_so_one_user_never_evicts_or_absorbs_anothers(
    tmp_path: Path, clock: FakeClock
) -> None:
    ids = ten_memories(tmp_path / "m.db", clock)  # alice's, at the cap
    with open_memory(tmp_path / "m.db", clock) as mem:
        for n in range(3):
            mem.add_message(f"bob-{n}", "user", f"Bob ordered part {n} for the bike repair.", user="bob")
            mem.end(f"bob-{n}")
            mem.run_jobs()
        mine = {s.id for s in list_memories(mem) if s.owner == "alice"}
        assert mine == set(ids)  # bob's memories did not push out alice's
        assert len([s for s in list_memories(mem) if s.owner == "bob"]) == 3
        steps = compact(mem, cap=2, new_id=max(s.id for s in list_memories(mem) if s.owner == "bob"))
        assert [s.method for s in steps] == ["fifo"] and {
            s.id for s in list_memories(mem) if s.owner == "alice"
        } == mine
        assert all(
            "bike" in line for line in dict(mem.context("bob-0", user="bob").extra_sections)[memories.SECTION_TITLE]
        )


def test_a_memory_stored_before_its_users_were_recorded_is_shown_to_its_threads_users_only(
    tmp_path: Path, clock: FakeClock
) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        mem.add_message("alice-only", "user", "My locker code is 4512.", user="alice")
        mem.store.add_summary(  # as the pipeline wrote memories before: no owner, no users
            "bot",
            "alice-only",
            NewSummary("memory", "Alice's locker code is 4512.", 1, 1, None, "extractive", {}),
            clock(),
        )
        mem.add_message("later", "user", "hi", user="bob")
        assert [s.content for s in memories.visible_memories(mem, "alice")] == ["Alice's locker code is 4512."]
        assert memories.visible_memories(mem, "bob") == memories.visible_memories(mem, None) == []
        assert "locker" not in mem.context("later", user="bob").system_text()


def test_memories_are_isolated_per_agent(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, agent="app-a") as a, a.for_agent("app-b") as b:
        a.add_message("t", "user", "Remember the launch code word is PELICAN.", user="alice")
        a.end("t")
        a.run_jobs()
        b.add_message("t", "user", "Hello", user="alice")
        assert "PELICAN" in a.context("t", user="alice").system_text()
        assert "PELICAN" not in b.context("t", user="alice").system_text()
        assert list_memories(b) == []
        assert purge_memories(b) == 0
        assert len(list_memories(a)) == 1


def test_purge_one_or_all(tmp_path: Path, clock: FakeClock) -> None:
    ids = ten_memories(tmp_path / "m.db", clock)
    with open_memory(tmp_path / "m.db", clock) as mem:
        assert purge_memories(mem, ids[0]) == 1
        assert len(list_memories(mem)) == 9
        with pytest.raises(NotFound):
            purge_memories(mem, ids[0])
        rolling, _ = mem.store.add_summary(
            "bot", "conv-5", NewSummary("rolling", "a summary", 1, 2, None, "llm", {}), clock()
        )
        with pytest.raises(NotFound):
            purge_memories(mem, rolling.id)  # not a memory
        assert purge_memories(mem) == 9
        assert list_memories(mem) == []
        assert mem.summaries(kind="rolling")  # other summaries stay
        assert memories.render_memories("bot", []) == ""


def test_render_memories_uses_seed_001_format(tmp_path: Path, clock: FakeClock) -> None:
    ten_memories(tmp_path / "m.db", clock)
    with open_memory(tmp_path / "m.db", clock) as mem:
        text = memories.render_memories("bot", list_memories(mem)[:2])
        assert text.startswith("(memories for app: bot)\nThe following are memories from previous conversations")
        assert "\n1. [Created: 2026-01-10] " in text and "\n2. [Created: 2026-01-09] " in text
        assert text.endswith("Use these memories to provide context-aware responses.")
