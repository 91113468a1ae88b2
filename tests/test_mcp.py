"""`memlane mcp` driven by the official MCP SDK's own client over stdio: the tools act for one user only."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

mcp = pytest.importorskip("mcp")  # the mcp extra; the test extra installs it

from mcp import Client, StdioServerParameters  # noqa: E402

from memlane import Memory, load_settings  # noqa: E402


def _params(db: Path, user: str) -> StdioServerParameters:
    env = {**os.environ, "MEMLANE_EMBEDDER": "none", "MEMLANE_HOME": str(db.parent)}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "memlane", "--db", str(db), "--agent", "desk", "mcp", "--user", user],
        env=env,
    )


def _data(result: Any) -> Any:
    assert not result.is_error, result
    if result.structured_content is not None:
        content = result.structured_content
        return content.get("result", content) if isinstance(content, dict) else content
    return json.loads(result.content[0].text)


async def _session(db: Path, user: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async with Client(_params(db, user), read_timeout_seconds=60) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert tools == {"remember", "recall", "forget", "list_facts", "add_message", "get_context"}
        return [await client.call_tool(name, args) for name, args in calls]


def test_the_sdk_client_uses_every_tool_for_its_user_only(tmp_path: Path) -> None:
    db = tmp_path / "desk.db"
    with Memory(db, agent="desk", settings=load_settings(embedder="none", worker="none"), llm=None) as mem:
        mem.remember("bob's locker code is 4821", user="bob")
    results = asyncio.run(
        _session(
            db,
            "alice",
            [
                ("remember", {"content": "Alice prefers green tea", "category": "preference"}),
                ("add_message", {"thread": "desk-chat", "role": "user", "content": "I'm planning a trip to Kyoto"}),
                ("recall", {"query": "what does alice drink", "limit": 5}),
                ("recall", {"query": "locker code"}),
                ("list_facts", {}),
                ("get_context", {"thread": "desk-chat", "query": "trip", "budget": 300}),
                ("forget", {"fact_id": 1}),
                ("forget", {"fact_id": 999}),
            ],
        )
    )
    fact = _data(results[0])
    assert fact["content"] == "Alice prefers green tea" and fact["visibility"] == "private"
    assert _data(results[1])["seq"] == 1 and _data(results[1])["thread"] == "alice/desk-chat"
    assert any("green tea" in h["text"] for h in _data(results[2]))
    assert _data(results[3]) == []  # bob's private fact is not alice's to see
    assert [f["content"] for f in _data(results[4])] == ["Alice prefers green tea"]
    ctx = _data(results[5])
    assert ctx["tokens"] <= 300 and any("Kyoto" in (m["content"] or "") for m in ctx["messages"])
    assert results[6].is_error  # fact 1 is bob's: a tool error, and the server goes on
    assert results[7].is_error
    with Memory(db, agent="desk", settings=load_settings(embedder="none", worker="none"), llm=None) as mem:
        assert [f.content for f in mem.facts(user="bob")] == ["bob's locker code is 4821"]
        # Alice's "desk-chat" is her own thread ("alice/desk-chat"): a user reaches only their own threads.
        assert [m.user for m in mem.history("alice/desk-chat")] == ["alice"]


async def _session_logged(db: Path, user: str, calls: list[tuple[str, dict[str, Any]]], errlog: Any) -> list[Any]:
    from mcp.client.stdio import stdio_client

    async with Client(stdio_client(_params(db, user), errlog=errlog), read_timeout_seconds=60) as client:
        return [await client.call_tool(name, args) for name, args in calls]


def test_a_memlane_error_reaches_the_client_with_its_message_and_prints_nothing(tmp_path: Path) -> None:
    db = tmp_path / "desk.db"
    with Memory(db, agent="desk", settings=load_settings(embedder="none", worker="none"), llm=None) as mem:
        mem.remember("alice likes tea", user="alice")
    err = tmp_path / "stderr.txt"
    with err.open("w") as errlog:
        results = asyncio.run(
            _session_logged(
                db,
                "alice",
                [
                    ("forget", {"fact_id": 99999}),
                    ("remember", {"content": ""}),
                    ("recall", {"query": "x", "limit": -1}),
                    ("list_facts", {}),
                ],
                errlog,
            )
        )
    texts = [r.content[0].text if r.content else "" for r in results[:3]]
    assert all(r.is_error for r in results[:3]), texts
    assert "no fact 99999" in texts[0]
    assert "content" in texts[1] and "empty" in texts[1].lower(), texts[1]
    assert "limit" in texts[2], texts[2]
    assert [f["content"] for f in _data(results[3])] == ["alice likes tea"]  # the server went on
    printed = err.read_text()
    assert "Traceback" not in printed and "99999" not in printed and printed.strip() == "", printed
