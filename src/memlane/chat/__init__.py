"""Chat bots for any chat transport (Discord, Slack, IRC, Matrix ...): edges over the facade.

The ``!chat`` commands of a chat-room bot::

    commands = ChatCommands(memory, llm)          # memory: Memory or AsyncMemory; llm: an LLMClient or None
    reply = await commands.handle(channel, user, text, name=display_name)
    if reply is not None:
        await send(channel, reply.text)

A group-chat bot addressed by mention ("@bot remember that …", "@bot forget that …", "@bot what do you know
about @alice")::

    bot = MentionCommands(memory, llm, addressed_as=("@bot", "<@B1>"))
    reply = await bot.handle(channel, user_id, text, name=display_name, names={"U2": "Bob"})
"""

from __future__ import annotations

from .commands import DEFAULT_PERSONAS, DEFAULT_TEMPLATES, ChatCommands, Reply
from .mentions import DEFAULT_MENTION_TEMPLATES, MentionCommands

__all__ = [
    "DEFAULT_MENTION_TEMPLATES",
    "DEFAULT_PERSONAS",
    "DEFAULT_TEMPLATES",
    "ChatCommands",
    "MentionCommands",
    "Reply",
]
