"""``!chat`` commands for any chat transport (Discord, Slack, IRC, Matrix ...): an edge over the facade.

commands = ChatCommands(memory, llm)          # memory: Memory or AsyncMemory; llm: an LLMClient or None
reply = await commands.handle(channel, user, text)
if reply is not None:
    await send(channel, reply.text)
"""

from __future__ import annotations

from .commands import DEFAULT_PERSONAS, DEFAULT_TEMPLATES, ChatCommands, Reply

__all__ = ["DEFAULT_PERSONAS", "DEFAULT_TEMPLATES", "ChatCommands", "Reply"]
