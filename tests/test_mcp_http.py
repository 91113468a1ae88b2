"""MCP over HTTP from ``memlane serve`` (``/mcp``), with the official MCP client: a user key's tools act for its
user only and are refused another user's data; an agent key's tools take the user as an argument; no key, no
tools."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

mcp = pytest.importorskip("mcp")

import httpx2  # noqa: E402  (the MCP client's HTTP library)
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from memlane import Memory, load_settings  # noqa: E402
from memlane.server import ServerSettings, create_app  # noqa: E402
from server_helpers import serving  # noqa: E402


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Memory, dict[str, str]]]:
    path = tmp_path_factory.mktemp("mcp-http") / "m.db"
    mem = Memory(path, agent="desk", settings=load_settings(embedder="none", worker="none"), llm=None)
    keys = {
        "alice": mem.create_api_key("user", agent="desk", user="alice").key,
        "bob": mem.create_api_key("user", agent="desk", user="bob").key,
        "desk": mem.create_api_key("agent", agent="desk").key,
    }
    mem.remember("bob's locker code is 4821", user="bob")
    mem.add_message("support-bob", "user", "my locker is jammed", user="bob")
    try:
        with serving(create_app(mem, ServerSettings(rate_limit=0))) as url:
            yield url, mem, keys
    finally:
        mem.close()


def _data(result: Any) -> Any:
    assert not result.is_error, result
    if result.structured_content is not None:
        content = result.structured_content
        return content.get("result", content) if isinstance(content, dict) else content
    return json.loads(result.content[0].text)


async def _calls(url: str, key: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=30)
    async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert tools == {"remember", "recall", "forget", "list_facts", "add_message", "get_context"}
        return [await client.call_tool(name, args) for name, args in calls]


def test_a_user_key_calls_every_tool_for_its_user_only(served: tuple[str, Memory, dict[str, str]]) -> None:
    url, mem, keys = served
    results = asyncio.run(
        _calls(
            url,
            keys["alice"],
            [
                ("remember", {"content": "Alice prefers green tea", "category": "preference"}),
                ("add_message", {"thread": "desk-chat", "role": "user", "content": "I'm off to Kyoto in May"}),
                ("recall", {"query": "what does alice drink"}),
                ("recall", {"query": "locker code"}),
                ("list_facts", {}),
                ("get_context", {"thread": "desk-chat", "query": "trip", "budget": 300}),
                ("get_context", {"thread": "support-bob"}),
                ("list_facts", {"user": "bob"}),
                ("forget", {"fact_id": 1}),
            ],
        )
    )
    assert _data(results[0])["content"] == "Alice prefers green tea"
    assert _data(results[1])["thread"] == "alice/desk-chat"
    assert any("green tea" in h["text"] for h in _data(results[2]))
    assert all("4821" not in h["text"] for h in _data(results[3]))
    assert [f["content"] for f in _data(results[4])] == ["Alice prefers green tea"]
    assert any("Kyoto" in (m["content"] or "") for m in _data(results[5])["messages"])
    assert "jammed" not in json.dumps(_data(results[6]))  # Bob's thread is not Alice's to read
    assert results[7].is_error and "acts for user 'alice' only" in results[7].content[0].text
    assert results[8].is_error  # fact 1 is Bob's
    assert [f.content for f in mem.facts(user="bob")] == ["bob's locker code is 4821"]


def test_an_agent_key_names_the_user(served: tuple[str, Memory, dict[str, str]]) -> None:
    url, _, keys = served
    results = asyncio.run(
        _calls(
            url,
            keys["desk"],
            [("list_facts", {"user": "bob"}), ("get_context", {"thread": "support-bob", "user": "bob"})],
        )
    )
    assert [f["content"] for f in _data(results[0])] == ["bob's locker code is 4821"]
    assert "jammed" in json.dumps(_data(results[1]))


def test_no_key_no_tools(served: tuple[str, Memory, dict[str, str]]) -> None:
    url, _, _ = served
    r = httpx.post(f"{url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, trust_env=False)
    assert r.status_code == 401 and r.json()["type"] == "urn:memlane:problem:unauthenticated"
    other_site = httpx.post(f"{url}/mcp", json={}, headers={"Origin": "http://evil.example"}, trust_env=False)
    assert other_site.status_code == 403
