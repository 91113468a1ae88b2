"""AsyncMemory: the same public surface as Memory (a parity walk), awaited, over the one implementation."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from memlane import AsyncMemory, InvalidInput, Memory, NotFound, load_settings


def _public(cls: type) -> dict[str, object]:
    return {name: member for name, member in inspect.getmembers(cls) if not name.startswith("_")}


def test_every_public_method_of_memory_has_an_awaitable_twin_with_the_same_signature() -> None:
    sync, aio = _public(Memory), _public(AsyncMemory)
    missing = [name for name, member in sync.items() if callable(member) and name not in aio]
    assert missing == []
    for name, member in sync.items():
        if not callable(member):
            continue
        twin = aio[name]
        assert inspect.iscoroutinefunction(twin) or inspect.isasyncgenfunction(twin), name
        expected = inspect.signature(member)
        if name == "for_agent":  # returns the async twin
            expected = expected.replace(return_annotation="AsyncMemory")
        if name == "export_records":
            expected = expected.replace(return_annotation="AsyncIterator[dict[str, Any]]")
        assert inspect.signature(twin) == expected, name
    assert inspect.signature(AsyncMemory.__init__) == inspect.signature(Memory.__init__)


def test_the_parity_walk_sees_a_missing_method(monkeypatch: pytest.MonkeyPatch) -> None:
    def added(self: Memory, x: int) -> int:
        return x

    monkeypatch.setattr(Memory, "brand_new", added, raising=False)
    with pytest.raises(AssertionError):
        test_every_public_method_of_memory_has_an_awaitable_twin_with_the_same_signature()


def test_a_bot_awaits_its_memory(tmp_path: Path) -> None:
    async def scenario() -> None:
        settings = load_settings(embedder="none", worker="none")
        async with AsyncMemory(tmp_path / "a.db", agent="bot", settings=settings) as mem:
            await mem.add_message("general", "user", "I'm Alice and I love hiking in the Alps", user="alice")
            await mem.remember("Alice loves hiking", user="alice", category="hobby")
            hits = await mem.recall("hiking", user="alice", min_score=0)
            assert {h.kind for h in hits} == {"message", "fact"}
            ctx = await mem.context("general", user="alice", query="weekend plans", budget=500)
            assert ctx.tokens <= 500 and ctx.messages
            records = [r async for r in mem.export_records()]
            assert {r["type"] for r in records} >= {"thread", "message", "fact"}
            other = await mem.for_agent("other-bot")
            assert await other.threads() == []
            with pytest.raises(NotFound):
                await mem.thread("nope")
            with pytest.raises(InvalidInput):
                await mem.history("general", limit=-1)
            assert await mem.reset("general") == 1

            def items(key: str) -> Iterator[dict[str, str]]:
                yield from ({"role": "user", "content": f"{key} {i}"} for i in range(2))

            queued = {key: items(key) for key in ("q1", "q2")}
            stored = await mem.add_to_threads(queued)  # generators are read before the call goes to its thread
            assert {key: [m.content for m in ms] for key, ms in stored.items()} == {
                "q1": ["q1 0", "q1 1"],
                "q2": ["q2 0", "q2 1"],
            }

    asyncio.run(scenario())


def test_concurrent_tasks_write_and_read_without_losing_anything(tmp_path: Path) -> None:
    async def scenario() -> None:
        settings = load_settings(embedder="none", worker="none")
        async with AsyncMemory(tmp_path / "c.db", agent="bot", settings=settings) as mem:

            async def user(n: int) -> None:
                for i in range(10):
                    await mem.add_message(f"t{n}", "user", f"message {i} of user {n}", user=f"u{n}")
                    await mem.recall(f"message {i}", user=f"u{n}")

            await asyncio.gather(*(user(n) for n in range(16)))
            for n in range(16):
                assert [m.seq for m in await mem.history(f"t{n}")] == list(range(1, 11))

    asyncio.run(scenario())
