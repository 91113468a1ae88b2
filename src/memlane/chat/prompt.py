"""What a chat bot sends its model: the context's system text, then each turn with who said it.

A group channel has many speakers, and a chat model's request has only the roles ``user`` and
``assistant``: each user turn is sent as ``Speaker: text`` (its display name, else its user id), as the
text embedded for it is (``memlane.texts``), so the model can answer "who loves dogs?". ``rename`` turns
the platform's mention tokens into display names in what the model sees (the store keeps the ids).
"""

from __future__ import annotations

from collections.abc import Callable

from ..context import Context
from ..llm import ChatMessage

__all__ = ["prompt_messages", "spoken"]


def spoken(speaker: str | None, text: str) -> str:
    """``text`` as said by ``speaker`` (unchanged without one)."""
    return f"{speaker}: {text}" if speaker else text


def prompt_messages(
    ctx: Context, rename: Callable[[str], str] | None = None, *, system: Callable[[str], str] | None = None
) -> list[ChatMessage]:
    """The context as chat messages: its system text, then its recent turns (user turns with their
    speaker; tool calls and results left out). ``rename`` rewrites the turns' texts, ``system`` the system
    text (default: ``rename``)."""
    same: Callable[[str], str] = rename or (lambda text: text)
    out: list[ChatMessage] = []
    text = ctx.system_text()
    if text:
        out.append(ChatMessage.system((system or same)(text)))
    for m in ctx.messages:
        if m.role not in ("system", "user", "assistant") or not m.content or not m.content.strip():
            continue
        text = same(m.content)
        out.append(ChatMessage(m.role, spoken(m.name or m.user, text) if m.role == "user" else text))
    return out
