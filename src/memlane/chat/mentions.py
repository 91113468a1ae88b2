"""``MentionCommands``: a group-chat bot addressed by mention in free form, transport-agnostic.

| text | what happens | default reply |
| --- | --- | --- |
| ``@bot remember that Bob's birthday is in May`` | a fact the speaker owns, about Bob | ``💾 I'll remember…`` |
| ``@bot forget that Bob's birthday is in May`` | forgets the speaker's facts saying it | ``🗑️ Forgot: …`` or not found |
| ``@bot what do you know about @alice`` | the facts about Alice the speaker may see | ``💭 What I know about …`` |
| ``@bot <anything else>`` | the LLM answers with the channel's memory in context | ``<answer>`` |

The three intents are recognised by rules (no LLM): the bot is addressed when the text holds one of
``addressed_as`` (``"@bot"``, the platform's ``"<@B1>"``, ``"Bot,"`` ...), and what remains starts with
"remember (that)", "forget (that|about)" or "what do you know/remember about". Anything else goes to the
model (without one, the bot says what it can do).

Ids and names. ``user`` is the platform's user id and is what memlane stores (the owner of a fact, the
speaker of a message); ``name`` is the speaker's display name and ``names`` the display names of other users
(``{"U2": "Bob"}``), for the mentions in the text. A mention is a platform token (``<@U2>``, ``<@!U2>``) or
``@handle`` (a known id or display name, else the handle itself as the id). A fact keeps its mentions as
``<@id>`` tokens and is about (``subject``) the first person it mentions; without a mention, the first known
display name it contains, else the speaker when it is in the first person ("my", "I"). Display names appear
only in what the model sees and in the replies, so a renamed user keeps their facts; the ids memlane writes
into a context (a fact's owner and subject, a recalled turn's speaker) are shown as display names too.

Facts told in a group channel are said in front of everyone: they are stored ``visibility="shared"`` by
default (``visibility="private"`` keeps them the speaker's). Give each server or workspace its own agent
(``Memory.for_agent``) so they stay within it. Only the speaker's own facts can be forgotten.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..async_memory import AsyncMemory
from ..errors import InvalidInput, MemlaneError, ProviderError
from ..llm import ChatMessage, LLMClient
from ..memory import Memory
from ..types import Fact
from .commands import Reply
from .prompt import prompt_messages, spoken

__all__ = ["DEFAULT_MENTION_TEMPLATES", "MentionCommands"]

DEFAULT_MENTION_TEMPLATES: dict[str, str] = {
    "answer": "{answer}",
    "remembered": "💾 I'll remember that {fact}",
    "forgot": "🗑️ Forgot: {facts}",
    "forget_none": "🤷 I have nothing from you that says '{text}'.",
    "about_header": "💭 What I know about {who}:",
    "about_line": "• {text}",
    "about_none": "🤔 I don't know anything about {who} yet.",
    "usage": "Try: {bot} remember that …, {bot} forget that …, {bot} what do you know about @someone",
    "no_llm": (
        "No language model is configured, so I can only remember, forget and say what I know about someone "
        "(try: {bot} what do you know about @someone)."
    ),
    "llm_error": "⚠️ AI error: {error}",
    "bad_input": "⚠️ {error}",
}
"""Reply texts (``str.format``; ``{bot}`` is the first of ``addressed_as``). Keys: answer, remembered, forgot,
forget_none, about_header, about_line, about_none, usage, no_llm, llm_error, bad_input."""

DEFAULT_PROMPT = (
    "You are a friendly assistant in a group chat with several people. Each of their messages starts with "
    "the speaker's name. Answer briefly, using what you remember about them when it helps."
)

_TOKEN = re.compile(r"<@!?([A-Za-z0-9_.\-]+)>")
_HANDLE = re.compile(r"(?<![\w<])@([\w.\-]*\w)")
_REMEMBER = re.compile(r"^(?:please\s+)?remember(?:\s+that)?[\s:,]+(?P<text>.*)$", re.IGNORECASE | re.DOTALL)
_FORGET = re.compile(r"^(?:please\s+)?forget(?:\s+that|\s+about)?[\s:,]+(?P<text>.*)$", re.IGNORECASE | re.DOTALL)
_ABOUT = re.compile(
    r"^(?:and\s+)?what\s+do\s+you\s+(?:know|remember)\s+about\s+(?P<who>.+?)[\s?.!]*$", re.IGNORECASE | re.DOTALL
)
_FIRST_PERSON = re.compile(r"^(?:my|i|i'm|i've|i'd|i'll|me)\b", re.IGNORECASE)
_ME = {"me", "myself"}
_LEAD = " \t\n,:;.!-"
_MANY = 50  # most facts listed for one person


class MentionCommands:
    """A group-chat bot addressed by mention (see the module docstring)."""

    def __init__(
        self,
        memory: Memory | AsyncMemory,
        llm: LLMClient | None,
        addressed_as: Sequence[str] = ("@bot",),
        *,
        visibility: str = "shared",
        templates: Mapping[str, str] | None = None,
        system_prompt: str = DEFAULT_PROMPT,
        record_all: bool = False,
        budget: int | None = None,
        temperature: float = 0.7,
    ) -> None:
        """``addressed_as``: the texts that address the bot (case-insensitive), e.g. ``("@bot", "<@B1>")``.
        ``record_all``: store the channel's messages that do not address the bot too (the model then sees
        the whole conversation). Raises InvalidInput on an empty ``addressed_as``, an unknown template or
        visibility."""
        calls = [a.strip() for a in addressed_as if isinstance(a, str) and a.strip()]
        if not calls:
            raise InvalidInput("addressed_as must hold at least one non-empty text")
        if visibility not in ("shared", "private"):
            raise InvalidInput("visibility must be 'shared' or 'private'")
        unknown = set(templates or {}) - set(DEFAULT_MENTION_TEMPLATES)
        if unknown:
            raise InvalidInput(f"unknown reply templates {sorted(unknown)}; known: {sorted(DEFAULT_MENTION_TEMPLATES)}")
        self.memory = memory if isinstance(memory, AsyncMemory) else AsyncMemory.wrap(memory)
        self.llm = llm
        self.addressed_as = tuple(calls)
        self.visibility = visibility
        self.templates = {**DEFAULT_MENTION_TEMPLATES, **(templates or {})}
        self.system_prompt = system_prompt
        self.record_all = record_all
        self.budget = budget
        self.temperature = temperature
        self._call = re.compile(
            "|".join(rf"(?<!\w){re.escape(c)}(?!\w)" for c in sorted(calls, key=len, reverse=True)), re.IGNORECASE
        )
        self._names: dict[str, str] = {}  # platform id -> the last display name seen for it

    # -- the entry point -------------------------------------------------------------------------------
    async def handle(
        self,
        channel: str,
        user: str,
        text: str,
        *,
        name: str | None = None,
        names: Mapping[str, str] | None = None,
    ) -> Reply | None:
        """The reply to ``text`` said by ``user`` (a platform id; ``name``: their display name) in ``channel``;
        None when it does not address the bot. ``names``: display names of other users by id, for the
        mentions in the text."""
        self._learn(user, name, names)
        rest = self._addressed(text)
        if rest is None:
            if self.record_all and text.strip():
                await self.memory.add_message(channel, "user", text, user=user, name=name or user)
            return None
        try:
            if found := _REMEMBER.match(rest):
                return await self._remember(channel, user, found["text"])
            if found := _FORGET.match(rest):
                return await self._forget(user, found["text"])
            if found := _ABOUT.match(rest):
                return await self._about(user, found["who"])
            if not rest:
                return self._say("usage")
            return await self._chat(channel, user, name, text)
        except ProviderError as error:
            return self._say("llm_error", error=_short(error))
        except InvalidInput as error:
            return self._say("bad_input", error=_short(error))

    # -- the intents -----------------------------------------------------------------------------------
    async def _remember(self, channel: str, user: str, said: str) -> Reply:
        fact = self._canonical(said.strip())
        if not fact:
            return self._say("usage")
        subject = self._subject(fact, user)
        stored = await self.memory.remember(
            fact,
            user=user,
            subject=subject,
            visibility=self.visibility,
            thread=channel,
            metadata={"channel": channel},
        )
        return self._say("remembered", fact=self.shown(stored.content))

    async def _forget(self, user: str, said: str) -> Reply:
        text = self._canonical(said.strip())
        if not text:
            return self._say("usage")
        gone = await self.memory.forget_matching(text, user=user)
        if not gone:
            return self._say("forget_none", text=self.shown(text))
        return self._say("forgot", facts="; ".join(self.shown(f.content) for f in gone))

    async def _about(self, user: str, who: str) -> Reply:
        who = who.strip(_LEAD + "?")
        target = user if who.lower() in _ME else self._person(who)
        if target is None:
            return self._say("about_none", who=who)
        known = await self._facts_about(user, target)
        label = self._names.get(target, target)
        if not known:
            return self._say("about_none", who=label)
        lines = [self.templates["about_header"].format(who=label, bot=self.addressed_as[0])]
        lines.extend(self.templates["about_line"].format(text=self.shown(f.content)) for f in known)
        return Reply("\n".join(lines))

    async def _facts_about(self, viewer: str, target: str) -> list[Fact]:
        """Facts about ``target`` that ``viewer`` may see: those whose subject is them, and their own facts
        about themselves (private ones only when ``viewer`` is ``target``)."""
        about = await self.memory.facts(viewer, subject=target, limit=_MANY)
        if viewer == target:
            theirs = await self.memory.facts(viewer, limit=_MANY)
        else:
            theirs = await self.memory.facts(target, visibility="shared", limit=_MANY)
        own = [f for f in theirs if f.owner == target and f.subject in (None, target)]
        return list({f.id: f for f in [*about, *own]}.values())[:_MANY]

    async def _chat(self, channel: str, user: str, name: str | None, text: str) -> Reply:
        said = {"role": "user", "content": text, "user": user, "name": name or user}
        if self.llm is None:
            await self.memory.add_messages(channel, [said])
            return self._say("no_llm")
        query = self.shown(self._call.sub(" ", text)).strip(_LEAD)
        ctx = await self.memory.context(
            channel, query=query or text, user=user, budget=self.budget, system_prompt=self.system_prompt
        )
        prompt = prompt_messages(ctx, self.shown, system=self._system_shown)
        prompt.append(ChatMessage.user(spoken(name or user, self.shown(text))))
        llm = self.llm
        answer = await asyncio.to_thread(
            lambda: llm.complete(
                prompt, operation="chat", temperature=self.temperature, agent=self.memory.agent
            ).text.strip()
        )
        await self.memory.add_messages(channel, [said, {"role": "assistant", "content": answer}])
        return self._say("answer", answer=answer)

    # -- ids and names ---------------------------------------------------------------------------------
    def _learn(self, user: str, name: str | None, names: Mapping[str, str] | None) -> None:
        for uid, display in [(user, name), *(names or {}).items()]:
            if isinstance(uid, str) and uid and isinstance(display, str) and display.strip():
                self._names[uid] = display.strip()

    def _addressed(self, text: str) -> str | None:
        """What is said to the bot, or None when the text does not address it: what follows its first
        mention ("Hey @bot, remember that …"), else the text before it ("remember that …, @bot")."""
        first = self._call.search(text) if isinstance(text, str) else None
        if first is None:
            return None
        after = self._call.sub(" ", text[first.end() :]).strip(_LEAD)
        return after or self._call.sub(" ", text[: first.start()]).strip(_LEAD)

    def _person(self, handle: str) -> str | None:
        """The id of the person a mention, handle or display name stands for (None: not a person)."""
        token = _TOKEN.fullmatch(handle)
        if token:
            return token[1]
        bare = handle[1:] if handle.startswith("@") else handle
        if not bare:
            return None
        if bare in self._names:
            return bare
        matches = [uid for uid, display in self._names.items() if display.lower() == bare.lower()]
        if len(matches) == 1:
            return matches[0]
        return bare if handle.startswith("@") or " " not in bare else None

    def _canonical(self, text: str) -> str:
        """``text`` with every mention as an ``<@id>`` token (what is stored)."""
        text = _TOKEN.sub(lambda m: f"<@{m[1]}>", text)
        return _HANDLE.sub(lambda m: f"<@{self._person('@' + m[1])}>", text)

    def _subject(self, fact: str, speaker: str) -> str | None:
        token = _TOKEN.search(fact)
        if token:
            return token[1]
        named = [
            (found.start(), uid)
            for uid, display in self._names.items()
            if (found := re.search(rf"(?<!\w){re.escape(display)}(?!\w)", fact)) is not None
        ]
        if named:
            return min(named)[1]
        return speaker if _FIRST_PERSON.match(fact) else None

    def shown(self, text: str) -> str:
        """``text`` as people and the model read it: ``<@id>`` tokens as display names."""
        return _TOKEN.sub(lambda m: self._names.get(m[1], m[1]), text)

    def _system_shown(self, text: str) -> str:
        """The context's system text as the model reads it: its mentions, and the ids memlane writes into it
        (a fact's owner and subject, a recalled turn's speaker), as display names."""
        text = self.shown(text)
        named = [uid for uid, display in self._names.items() if display != uid]
        if not named:
            return text
        ids = "|".join(re.escape(uid) for uid in sorted(named, key=len, reverse=True))
        return re.sub(rf"(?<![\w<@])(?:{ids})(?![\w>])", lambda m: self._names[m[0]], text)

    def _say(self, key: str, **values: Any) -> Reply:
        return Reply(self.templates[key].format(bot=self.addressed_as[0], **values))


def _short(error: MemlaneError) -> str:
    return " ".join(str(error).split())[:200] or type(error).__name__
