"""``MemlaneSession``: the OpenAI Agents SDK's session memory, kept in a memlane thread.

    from agents import Agent, Runner
    from memlane.integrations.openai_agents import MemlaneSession

    session = MemlaneSession("support-42", Memory("bot.db", agent="support"), user="alice")
    await Runner.run(agent, "Where is my order?", session=session)

Each conversation item becomes one message of the thread ``session_id`` (user and assistant text as such, a
function call as an assistant tool call, its output as the tool message answering it), so the turns are
searchable and summarised like any other conversation; the exact item is kept with the message, so
``get_items`` returns what was added, tool calls included. Needs ``pip install 'memlane[openai-agents]'``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agents.memory.session import SessionABC

from ..async_memory import AsyncMemory
from ..memory import Memory
from ..types import Message

__all__ = ["MemlaneSession"]

_ITEM = "agents_item"  # metadata key holding the SDK's item as given
_ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}


class MemlaneSession(SessionABC):
    """An Agents SDK session whose items are the messages of memlane thread ``session_id``."""

    def __init__(
        self,
        session_id: str,
        memory: Memory | AsyncMemory,
        *,
        user: str | None = None,
        session_settings: Any = None,
    ) -> None:
        self.session_id = session_id
        self.session_settings = session_settings
        self.memory = memory if isinstance(memory, AsyncMemory) else AsyncMemory.wrap(memory)
        self.user = user

    async def get_items(self, limit: int | None = None) -> list[Any]:
        """The session's items, oldest first; with ``limit``, the latest ``limit``."""
        messages = await self.memory.history(self.session_id, limit)
        return [_item_of(m) for m in messages]

    async def add_items(self, items: list[Any]) -> None:
        """Append items (one transaction: all of them or none)."""
        if items:
            await self.memory.add_messages(self.session_id, [self._message_of(dict(i)) for i in items])

    async def pop_item(self) -> Any | None:
        """Remove and return the latest item (None when the session is empty)."""
        last = await self.memory.history(self.session_id, 1)
        if not last:
            return None
        await self.memory.delete_messages(self.session_id, [last[0].id])
        return _item_of(last[0])

    async def clear_session(self) -> None:
        """Remove every item (the thread's facts and memories stay)."""
        if await self.memory.history(self.session_id, 1):
            await self.memory.reset(self.session_id)

    def _message_of(self, item: dict[str, Any]) -> dict[str, Any]:
        kind = item.get("type")
        keep = {"metadata": {_ITEM: item}}
        if kind == "function_call":
            call = {
                "id": str(item.get("call_id") or item.get("id")),
                "type": "function",
                "function": {"name": item.get("name", ""), "arguments": item.get("arguments", "")},
            }
            return {"role": "assistant", "content": None, "tool_calls": [call], **keep}
        if kind == "function_call_output":
            output = item.get("output")
            text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
            return {"role": "tool", "content": text, "tool_call_id": str(item.get("call_id")), **keep}
        role = _ROLES.get(str(item.get("role")), "assistant")
        text = _text_of(item.get("content")) if kind in (None, "message") else f"[{kind}]"
        user = self.user if role == "user" else None
        return {"role": role, "content": text or f"[{kind or 'message'}]", "user": user, **keep}


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [p.get("text", "") for p in content if isinstance(p, Mapping)]
        return "\n".join(p for p in parts if p)
    return ""


def _item_of(message: Message) -> Any:
    kept = message.metadata.get(_ITEM)
    if isinstance(kept, dict):
        return kept
    if message.tool_calls:  # written by other means: the call as the SDK spells it
        call = message.tool_calls[0]
        function = call.get("function", {})
        return {
            "type": "function_call",
            "call_id": call.get("id"),
            "name": function.get("name"),
            "arguments": function.get("arguments"),
        }
    if message.role == "tool":
        return {"type": "function_call_output", "call_id": message.tool_call_id, "output": message.content}
    return {"role": message.role, "content": message.content or ""}
