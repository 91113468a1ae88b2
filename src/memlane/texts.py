"""What text an item is embedded and keyword-indexed as: a message with its speaker, a fact with its subject.

Used by the facade when it writes and by the pipeline when it compares facts, so it sits below both.
"""

from __future__ import annotations

import json
from typing import Any

from .types import Fact, Message, Summary
from .validation import NewMessage

__all__ = ["calls_text", "fact_text", "item_text", "message_text", "shown_text"]


def message_text(role: str, content: str, user: str | None, name: str | None, tool_calls: Any) -> str:
    """The text embedded for a message: the speaker's name and what they said."""
    text = content or (json.dumps(tool_calls, ensure_ascii=False) if tool_calls else "")
    speaker = name or user
    return f"{speaker}: {text}" if speaker else text


def calls_text(tool_calls: Any) -> str:
    """OpenAI-style tool calls as people read them: one ``→ calls name(arguments)`` line per call."""
    lines = []
    for call in tool_calls or ():
        found = call.get("function") if isinstance(call, dict) else None
        function: dict[str, Any] = found if isinstance(found, dict) else {}
        lines.append(f"→ calls {function.get('name', 'tool')}({function.get('arguments', '')})")
    return "\n".join(lines)


def shown_text(content: str | None, tool_calls: Any) -> str:
    """What a message shows: its content, then the tools it called (a message that only calls a tool is
    never blank)."""
    calls = calls_text(tool_calls)
    return "\n".join(part for part in (content or "", calls) if part)


def fact_text(content: str, subject: str | None) -> str:
    """The text embedded for a fact: its content, led by its subject when the content does not name it."""
    return f"{subject}: {content}" if subject and subject.lower() not in content.lower() else content


def item_text(item: NewMessage | Message | Fact | Summary) -> str:
    """The text embedded for a message (new or stored), a fact or a summary."""
    if isinstance(item, NewMessage | Message):
        return message_text(item.role, item.content, item.user, item.name, item.tool_calls)
    if isinstance(item, Fact):
        return fact_text(item.content, item.subject)
    return item.content
