"""A runnable `!chat` bot on a line-based chat stand-in: each stdin line is ``user: text``.

    python examples/chat_bot.py --db bot.db
    alice: !chat remember I like tea
    bot: 💾 I'll remember that!

Replace the read/print loop with your chat library's message event (see docs/integrations.md, "Chat commands",
for Discord, Slack and IRC). With an LLM configured (MEMLANE_LLM_PROVIDER, MEMLANE_LLM_BASE_URL,
MEMLANE_LLM_MODEL; see the README), plain ``!chat <message>`` is answered by it; without one, the bot says so
and remember / recall / forget / reset / persona still work. Memory persists in the database file.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from memlane import AsyncMemory, ChatCommands, load_settings
from memlane.memory import llm_from_settings


async def main() -> None:
    parser = argparse.ArgumentParser(description="A !chat bot reading 'user: text' lines from stdin.")
    parser.add_argument("--db", default="chat_bot.db", help="SQLite file of the bot's memory")
    parser.add_argument("--channel", default="#general", help="the channel all lines are said in")
    args = parser.parse_args()
    settings = load_settings(worker="none")
    async with AsyncMemory(args.db, agent="chat-bot", settings=settings) as memory:
        commands = ChatCommands(memory, llm_from_settings(settings))
        loop = asyncio.get_running_loop()
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            user, sep, text = line.rstrip("\n").partition(": ")
            if not sep:
                continue
            reply = await commands.handle(args.channel, user.strip(), text)
            if reply is not None:
                for reply_line in reply.text.splitlines():
                    print(f"bot: {reply_line}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())
