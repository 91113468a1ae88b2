"""``ChatCommands``: ``!chat`` and its sub-commands, transport-agnostic.

| text | what happens | default reply |
| --- | --- | --- |
| ``!chat <message>`` | the LLM answers with the channel's memory in context; both turns are stored | ``🤖 <answer>`` |
| ``!chat remember <fact>`` | a fact the user owns, from this channel | ``💾 I'll remember that!`` |
| ``!chat recall <topic>`` | the user's facts from this channel about it | ``💭 Here's what I remember:`` + lines |
| ``!chat forget`` | forgets the facts the user remembered in this channel | ``🗑️ Memories cleared!`` |
| ``!chat forget <fact>`` | forgets the user's fact that says it (nothing else) | ``🗑️ Forgotten: Alice keeps bees`` |
| ``!chat reset`` | clears the channel's conversation; facts stay | ``🔄 Conversation reset! (N messages cleared)`` |
| ``!chat persona [name]`` | shows or sets the channel's persona (its system prompt) | ``🎭 Persona set to <name>.`` |
| ``!chat help`` | the commands | one line per command |

The channel is a memlane thread, the user a memlane user (the platform's id; ``name=`` gives the display
name the model sees); everything lives in the store, so it outlives a restart of the bot. The model sees
each earlier turn with its speaker (``Alice: I love dogs``), so a group channel's questions about who said
what can be answered. A fact remembered here carries the channel in its metadata (``{"channel": ...}``),
and ``recall`` searches only the facts of the channel it is asked in. Without an LLM, ``!chat <message>``
is still stored (``reset`` clears it) and the reply says that no model is configured.

A persona is kept in the thread's metadata and system prompt. Every reply text comes from
a template (``templates=``, :data:`DEFAULT_TEMPLATES` for the default texts), filled with ``str.format``.
An LLM failure becomes a short reply, never an exception; so does bad input (a memlane ``InvalidInput``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..async_memory import AsyncMemory
from ..errors import InvalidInput, MemlaneError, NotFound, ProviderError
from ..llm import ChatMessage, LLMClient
from ..memory import Memory
from .prompt import prompt_messages, spoken

__all__ = ["DEFAULT_PERSONAS", "DEFAULT_TEMPLATES", "ChatCommands", "Reply"]

DEFAULT_TEMPLATES: dict[str, str] = {
    "answer": "🤖 {answer}",
    "usage": "Usage: {prefix} {usage}",
    "remembered": "💾 I'll remember that!",
    "recall_none": "🤔 I don't recall anything about '{topic}'",
    "recall_header": "💭 Here's what I remember:",
    "recall_line": "• {text}",
    "forgotten": "🗑️ Memories cleared!",
    "forgotten_one": "🗑️ Forgotten: {fact}",
    "forget_none": "🤔 I have no fact of yours that says '{fact}' ({prefix} recall <topic> shows what I keep)",
    "reset": "🔄 Conversation reset! ({count} messages cleared)",
    "persona_set": "🎭 Persona set to {persona}.",
    "persona_shown": "🎭 Persona: {persona} (available: {available})",
    "persona_unknown": "Unknown persona '{persona}' (available: {available})",
    "no_llm": "🤖 No language model is configured, so I can't chat; remember, recall, forget and reset work.",
    "llm_error": "⚠️ AI error: {error}",
    "bad_input": "⚠️ {error}",
    "help": (
        "{prefix} <message> — talk to me (I remember the channel's conversation)\n"
        "{prefix} remember <fact> — I keep a fact of yours from this channel\n"
        "{prefix} recall <topic> — what I remember of yours from this channel about it\n"
        "{prefix} forget [fact] — I forget that fact of yours; alone, every fact you gave me in this channel\n"
        "{prefix} reset — clear this channel's conversation (facts stay)\n"
        "{prefix} persona [name] — show or set this channel's persona\n"
        "{prefix} help — this list"
    ),
}
"""The default reply texts. Keys: answer, usage, remembered, recall_none, recall_header, recall_line, forgotten,
forgotten_one, forget_none, reset, persona_set, persona_shown, persona_unknown, no_llm, llm_error, bad_input,
help."""

DEFAULT_PERSONAS: dict[str, str] = {
    "default": "You are a friendly, helpful assistant in a group chat. Answer briefly.",
    "concise": "You are an assistant in a group chat. Answer in one or two sentences.",
    "pirate": "You are a cheerful pirate in a group chat. Answer briefly, in pirate speech.",
}

_SUBCOMMANDS = ("remember", "recall", "forget", "reset", "persona", "help")


@dataclass(frozen=True, slots=True)
class Reply:
    """What to send back to the channel."""

    text: str


class ChatCommands:
    """The ``!chat`` commands over a memlane memory (see the module docstring for the table)."""

    def __init__(
        self,
        memory: Memory | AsyncMemory,
        llm: LLMClient | None,
        prefix: str = "!chat",
        *,
        templates: Mapping[str, str] | None = None,
        personas: Mapping[str, str] | None = None,
        recall_limit: int = 5,
        budget: int | None = None,
        temperature: float = 0.7,
    ) -> None:
        if not prefix.strip():
            raise InvalidInput("prefix must not be empty")
        self.memory = memory if isinstance(memory, AsyncMemory) else AsyncMemory.wrap(memory)
        self.llm = llm
        self.prefix = prefix.strip()
        unknown = set(templates or {}) - set(DEFAULT_TEMPLATES)
        if unknown:
            raise InvalidInput(f"unknown reply templates {sorted(unknown)}; known: {sorted(DEFAULT_TEMPLATES)}")
        self.templates = {**DEFAULT_TEMPLATES, **(templates or {})}
        self.personas = dict(personas or DEFAULT_PERSONAS)
        if "default" not in self.personas:
            raise InvalidInput("personas must include 'default'")
        self.recall_limit = recall_limit
        self.budget = budget
        self.temperature = temperature

    def _say(self, key: str, **values: Any) -> Reply:
        return Reply(self.templates[key].format(prefix=self.prefix, **values))

    async def handle(self, channel: str, user: str, text: str, *, name: str | None = None) -> Reply | None:
        """The reply to ``text`` said by ``user`` (the platform's id; ``name``: the display name the model
        sees, default the id) in ``channel``; None when it is not a command for us."""
        words = text.strip()
        if words != self.prefix and not words.startswith(self.prefix + " "):
            return None
        args = words[len(self.prefix) :].strip()
        if not args:
            return self._say("usage", usage="<message>")
        command, _, rest = args.partition(" ")
        command, rest = command.lower(), rest.strip()
        try:
            if command in _SUBCOMMANDS:
                reply: Reply = await getattr(self, f"_{command}")(channel, user, rest)
                return reply
            return await self._chat(channel, user, args, name)
        except ProviderError as error:
            return self._say("llm_error", error=_short(error))
        except InvalidInput as error:
            return self._say("bad_input", error=_short(error))

    async def _remember(self, channel: str, user: str, fact: str) -> Reply:
        if not fact:
            return self._say("usage", usage="remember <fact>")
        await self.memory.remember(
            fact, user=user, thread=channel, category="fact", importance=3, metadata={"channel": channel}
        )
        return self._say("remembered", fact=fact)

    async def _recall(self, channel: str, user: str, topic: str) -> Reply:
        if not topic:
            return self._say("usage", usage="recall <topic>")
        hits = await self.memory.recall(
            topic,
            user=user,
            kinds=["fact"],
            limit=self.recall_limit,
            metadata={"channel": channel},  # the facts remembered in this channel, a filter inside the search
            # min_score: issue 38 floor (the min_score setting applies when none is passed)
        )
        if not hits:
            return self._say("recall_none", topic=topic)
        lines = [self.templates["recall_header"]]
        lines.extend(self.templates["recall_line"].format(text=h.text, prefix=self.prefix) for h in hits)
        return Reply("\n".join(lines))

    async def _forget(self, channel: str, user: str, rest: str) -> Reply:
        if rest:  # one fact, by what it says: never everything because a word was added
            gone = await self.memory.forget_matching(rest, user=user)
            if not gone:
                return self._say("forget_none", fact=rest)
            return self._say("forgotten_one", fact="; ".join(f.content for f in gone), count=len(gone))
        count = await self.memory.forget_all(user, thread=channel)
        return self._say("forgotten", count=count)

    async def _help(self, channel: str, user: str, rest: str) -> Reply:
        return self._say("help")

    async def _reset(self, channel: str, user: str, rest: str) -> Reply:
        count = await self.memory.reset(channel)
        return self._say("reset", count=count)

    async def _persona(self, channel: str, user: str, name: str) -> Reply:
        available = ", ".join(sorted(self.personas))
        if not name:
            return self._say("persona_shown", persona=await self._persona_of(channel), available=available)
        name = name.lower()
        if name not in self.personas:
            return self._say("persona_unknown", persona=name, available=available)
        thread = await self._thread(channel)
        metadata = {**(thread.metadata if thread else {}), "persona": name}
        await self.memory.set_thread(channel, system_prompt=self.personas[name], metadata=metadata)
        return self._say("persona_set", persona=name)

    async def _thread(self, channel: str) -> Any:
        try:
            return await self.memory.thread(channel)
        except NotFound:
            return None

    async def _persona_of(self, channel: str) -> str:
        thread = await self._thread(channel)
        name = thread.metadata.get("persona") if thread is not None else None
        return name if isinstance(name, str) and name in self.personas else "default"

    async def _chat(self, channel: str, user: str, message: str, name: str | None = None) -> Reply:
        said = {"role": "user", "content": message, "user": user, "name": name or user}
        if self.llm is None:  # still part of the channel's conversation (and what `reset` clears)
            await self.memory.add_messages(channel, [said])
            return self._say("no_llm")
        persona = await self._persona_of(channel)
        ctx = await self.memory.context(
            channel, query=message, user=user, budget=self.budget, system_prompt=self.personas[persona]
        )
        prompt = prompt_messages(ctx)
        prompt.append(ChatMessage.user(spoken(name or user, message)))
        llm = self.llm
        answer = await asyncio.to_thread(
            lambda: llm.complete(
                prompt, operation="chat", temperature=self.temperature, agent=self.memory.agent
            ).text.strip()
        )
        await self.memory.add_messages(channel, [said, {"role": "assistant", "content": answer}])
        return self._say("answer", answer=answer)


def _short(error: MemlaneError) -> str:
    return " ".join(str(error).split())[:200] or type(error).__name__
