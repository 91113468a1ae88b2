"""Framework adapters against the real frameworks: the OpenAI Agents SDK's session and LangGraph's store."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memlane import Memory, load_settings
from memlane.testing import FakeLLMServer

agents = pytest.importorskip("agents")  # the openai-agents extra; the test extra installs it


def _memory(path: Path, agent: str = "bot") -> Memory:
    return Memory(path, agent=agent, settings=load_settings(embedder="none", worker="none"), llm=None)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    with FakeLLMServer(default="Your order ships tomorrow.") as fake:
        yield fake


# -- OpenAI Agents SDK ----------------------------------------------------------------------------------


def test_runner_run_keeps_the_conversation_in_a_memlane_thread(tmp_path: Path, server: FakeLLMServer) -> None:
    from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
    from openai import AsyncOpenAI

    from memlane.integrations.openai_agents import MemlaneSession

    set_tracing_disabled(True)  # no trace export (no network here)
    model = OpenAIChatCompletionsModel(
        model="fake-gpt", openai_client=AsyncOpenAI(base_url=server.base_url, api_key="x")
    )
    agent = Agent(name="support", instructions="Answer briefly.", model=model)
    mem = _memory(tmp_path / "a.db")
    session = MemlaneSession("support-42", mem, user="alice")

    async def two_turns() -> None:
        first = await Runner.run(agent, "Where is my order 7731?", session=session)
        assert first.final_output == "Your order ships tomorrow."
        server.script("It is order 7731.")
        second = await Runner.run(agent, "Which order did I ask about?", session=session)
        assert second.final_output == "It is order 7731."

    asyncio.run(two_turns())
    sent = [m.get("content") for m in server.calls_to("/v1/chat/completions")[-1].body["messages"]]
    assert "Where is my order 7731?" in sent and "Your order ships tomorrow." in sent  # the session's history
    history = mem.history("support-42")
    assert [(m.role, m.user) for m in history] == [
        ("user", "alice"),
        ("assistant", None),
        ("user", "alice"),
        ("assistant", None),
    ]
    assert mem.recall("order 7731", user="alice")  # the turns are memory like any other conversation


def test_session_items_round_trip_with_tool_calls_pop_and_clear(tmp_path: Path) -> None:
    from memlane.integrations.openai_agents import MemlaneSession

    items: list[Any] = [
        {"role": "user", "content": "What's the weather in Oslo?"},
        {"type": "function_call", "call_id": "call_1", "name": "weather", "arguments": '{"city": "Oslo"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": "4°C, light rain"},
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "It's 4°C and raining in Oslo."}],
        },
    ]

    async def scenario() -> None:
        session = MemlaneSession("s1", _memory(tmp_path / "s.db"), user="bob")
        assert await session.get_items() == []
        await session.add_items(items)
        assert await session.get_items() == items
        assert await session.get_items(limit=2) == items[2:]
        assert await session.pop_item() == items[3]
        assert await session.get_items() == items[:3]
        again = MemlaneSession("s1", _memory(tmp_path / "s.db"), user="bob")  # a restart: the same items
        assert await again.get_items() == items[:3]
        await again.clear_session()
        assert await again.get_items() == [] and await again.pop_item() is None

    asyncio.run(scenario())
    with _memory(tmp_path / "s.db") as mem:
        assert mem.history("s1") == []


# -- LangGraph ------------------------------------------------------------------------------------------


def test_langgraph_store_put_get_search_delete_and_namespaces(tmp_path: Path) -> None:
    pytest.importorskip("langgraph")
    from memlane.integrations.langgraph import MemlaneStore

    store = MemlaneStore(_memory(tmp_path / "g.db"))
    store.put(("users", "alice", "memories"), "m1", {"text": "Alice loves sourdough baking", "kind": "hobby"})
    store.put(("users", "alice", "memories"), "m2", {"text": "Alice lives in Lisbon"})
    store.put(("users", "bob", "memories"), "m1", {"text": "Bob's locker code is 4821"})
    item = store.get(("users", "alice", "memories"), "m1")
    assert item is not None and item.value == {"text": "Alice loves sourdough baking", "kind": "hobby"}
    assert item.key == "m1" and item.namespace == ("users", "alice", "memories")
    hits = store.search(("users", "alice"), query="baking bread")
    assert [h.key for h in hits][:1] == ["m1"] and all(h.namespace[:2] == ("users", "alice") for h in hits)
    assert all("4821" not in str(h.value) for h in store.search(("users", "alice"), query="locker code"))
    assert {h.key for h in store.search(("users", "alice", "memories"), filter={"kind": "hobby"})} == {"m1"}
    store.put(("users", "alice", "memories"), "m1", {"text": "Alice now bakes rye"})  # put again: replaces
    assert store.get(("users", "alice", "memories"), "m1").value == {"text": "Alice now bakes rye"}  # type: ignore[union-attr]
    assert sorted(store.list_namespaces(prefix=("users",))) == [
        ("users", "alice", "memories"),
        ("users", "bob", "memories"),
    ]
    assert store.list_namespaces(max_depth=2) == [("users", "alice"), ("users", "bob")]
    store.delete(("users", "alice", "memories"), "m1")
    assert store.get(("users", "alice", "memories"), "m1") is None

    async def asynchronous() -> None:
        await store.aput(("agent",), "rule", {"text": "Answer in English"})
        found = await store.aget(("agent",), "rule")
        assert found is not None and found.value["text"] == "Answer in English"

    asyncio.run(asynchronous())
    again = MemlaneStore(_memory(tmp_path / "g.db"))  # persisted
    assert again.get(("users", "bob", "memories"), "m1") is not None


def test_langgraph_store_search_ranks_and_does_not_filter(tmp_path: Path) -> None:
    # LangGraph's stores return up to `limit` items ranked, with scores; recall's floor (calibrated for the local
    # model) left out "Alice is vegetarian" when the example agent was asked to plan a dinner.
    pytest.importorskip("langgraph")
    from memlane.embeddings import OnnxMiniLMEmbedder
    from memlane.integrations.langgraph import MemlaneStore

    settings = load_settings(embedder="none", worker="none")
    with Memory(tmp_path / "g.db", agent="bot", settings=settings, embedder=OnnxMiniLMEmbedder(), llm=None) as mem:
        store = MemlaneStore(mem, user="alice")
        store.put(("memories", "alice"), "m1", {"text": "I am vegetarian"})
        store.put(("memories", "alice"), "m2", {"text": "my sister Ana lives in Porto"})
        assert mem.recall("Plan a dinner for me", user="alice", kinds=["fact"]) == []  # the floor, as recall has it
        hits = store.search(("memories",), query="Plan a dinner for me", limit=5)
        assert {h.key for h in hits} == {"m1", "m2"}
        assert all(h.score is not None and 0 <= h.score <= 1 for h in hits)
        assert [h.key for h in store.search(("memories",), query="Where does my sister live?")][:1] == ["m2"]


def test_langmem_memory_tools_run_on_the_memlane_store(tmp_path: Path) -> None:
    pytest.importorskip("langmem")
    from langmem import create_manage_memory_tool, create_search_memory_tool

    from memlane.integrations.langgraph import MemlaneStore

    mem = _memory(tmp_path / "lm.db")
    store = MemlaneStore(mem, user="alice")
    manage = create_manage_memory_tool(namespace=("memories", "alice"), store=store)
    search = create_search_memory_tool(namespace=("memories", "alice"), store=store)
    created = manage.invoke({"content": "Alice is training for the Lisbon marathon", "action": "create"})
    assert "created" in str(created).lower()
    found = search.invoke({"query": "marathon training"})
    assert "Lisbon marathon" in str(found)
    assert [f.content for f in mem.facts(user="alice")] == ["Alice is training for the Lisbon marathon"]
    assert mem.facts(user="bob") == []  # the store acts for alice only
