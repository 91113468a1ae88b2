"""Reading a batch of messages for :mod:`.summarize`: its summary and the facts the users stated in it.

Two ways: one ``summarize_and_extract`` LLM call (:func:`llm_extraction`), shown up to ``KNOWN_FACTS``
stored facts of each user so that it repeats none; or, without an LLM, the most central sentences
(:mod:`.extractive`) and the explicit first-person statements (:mod:`.rules`)
(:func:`extractive_extraction`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..errors import ProviderError
from ..store import FactFilter
from ..types import Fact, Message, Summary
from .extractive import Utterance, content_terms, extractive_summary, term_set
from .prompts import SUMMARIZE_AND_EXTRACT, KnownFact, PromptMessage, SummarizeInput, ask
from .rules import CandidateFact, attribute_of, extract_facts
from .stated import label

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = ["KNOWN_FACTS", "Extraction", "OwnedFact", "extractive_extraction", "llm_extraction", "readable"]

logger = logging.getLogger("memlane.pipeline.summarize")  # the step it is part of logs under one name

_NAME_SCAN = 200  # owned facts looked through for a user's name
_KNOWN_SCAN = 3 * 20  # owned facts (most important, newest) ranked for KNOWN_FACTS
KNOWN_FACTS = 20
"""Stored facts per user shown to ``summarize_and_extract``, so that it neither repeats them nor needs a
``consolidate_fact`` call per new fact to say which one it changes (one LLM call per batch, seed 004)."""


@dataclass(frozen=True, slots=True)
class OwnedFact:
    """A candidate fact and the user it belongs to (None: the agent's own memory)."""

    candidate: CandidateFact
    owner: str | None
    replaces: int | None = None


@dataclass(frozen=True, slots=True)
class Extraction:
    """What was read from one batch: its summary, the facts found and how (``method``: "llm" or "extractive")."""

    summary: str
    facts: list[OwnedFact]
    method: str
    metadata: dict[str, Any] = field(default_factory=dict)
    shown: frozenset[int] = frozenset()
    """Ids of the stored facts the LLM saw while extracting: consolidation does not ask about them again."""
    pools: dict[str, list[Fact]] = field(default_factory=dict)
    """Every active fact of a user, where fewer than ``_KNOWN_SCAN`` were found: consolidation compares
    candidates with these instead of searching the store again."""


def readable(m: Message) -> bool:
    """Whether a message is part of the conversation a summary tells (not a tool call or result)."""
    return m.role in ("user", "assistant") and bool(m.content.strip())


def _users(batch: Sequence[Message]) -> list[str]:
    return list(dict.fromkeys(m.user for m in batch if m.role == "user" and m.user))


def llm_extraction(memory: Memory, thread: str, batch: Sequence[Message], previous: Summary | None) -> Extraction:
    """Summary and facts of ``batch`` in one ``summarize_and_extract`` call.

    Raises:
        ProviderError: the call failed, or its answer did not validate (InvalidOutput).
    """
    assert memory.llm is not None
    users = _users(batch)
    names = {m.user: m.name for m in batch if m.user and m.name}
    stored = memory.store.get_thread(memory.agent, thread)
    audience = set(users) | set(stored.users if stored is not None else ())
    known, pools = _known_facts(memory, users, batch, private=len(audience) <= 1)
    data = SummarizeInput(
        messages=[PromptMessage(m.seq, m.role, m.content, m.created_at, m.user, m.name) for m in batch if readable(m)],
        today=memory._now().date(),
        previous_summary=previous.content if previous is not None else None,
        users=users,
        known=known,
    )
    answer = ask(memory.llm, SUMMARIZE_AND_EXTRACT, data, agent=memory.agent)
    shown = frozenset(f.id for f in known)
    facts: list[OwnedFact] = []
    for fact in answer.facts:
        named, owner = _owner_of(fact.speaker, users, names)
        if not named:
            logger.info("summarize %s: dropped a fact no user can be named for: %r", thread, fact.content)
            continue
        candidate = CandidateFact(
            content=fact.content,
            category=fact.category,
            importance=fact.importance,
            subject=_subject_key(fact.subject, owner, names),
            speaker=owner,
        )
        facts.append(OwnedFact(candidate, owner, fact.replaces if fact.replaces in shown else None))
    return Extraction(answer.summary, facts, "llm", {"model": memory.llm.model}, shown, pools)


def _known_facts(
    memory: Memory, users: Sequence[str], batch: Sequence[Message], *, private: bool
) -> tuple[list[KnownFact], dict[str, list[Fact]]]:
    """Up to ``KNOWN_FACTS`` active facts of each of the batch's users (those sharing the most words with
    the batch, then the most important and newest), and each user's complete list of active facts when
    it is short (see ``Extraction.pools``).

    The summary this call writes is read by everyone in the conversation, so the prompt shows private facts
    only when ``private`` (a conversation of one user, who owns them); in a group only the users' shared
    facts are shown, and no call sees two people's private facts. Consolidation still compares each new fact
    with all of its owner's facts (``pools``, the store), one owner at a time."""
    if not users:
        return [], {}
    words: frozenset[str] | None = None
    known: list[KnownFact] = []
    pools: dict[str, list[Fact]] = {}
    for user in users:
        owned = memory.store.list_facts(memory.agent, FactFilter(user=user, owned_only=True), limit=_KNOWN_SCAN)
        if len(owned) < _KNOWN_SCAN:
            pools[user] = list(owned)
        if len(owned) > KNOWN_FACTS:  # sorted() is stable: ties keep the store's importance/recency order
            if words is None:
                words = frozenset(content_terms(" ".join(m.content for m in batch)))
            batch_words = words
            owned = sorted(owned, key=lambda f: -len(batch_words & term_set(f.content)))[:KNOWN_FACTS]
        known.extend(KnownFact(f.id, user, f.content) for f in owned if private or f.visibility == "shared")
    return known, pools


def _owner_of(speaker: str | None, users: Sequence[str], names: dict[str, str]) -> tuple[bool, str | None]:
    """``(known, owner)``: the user the model named, else the only user of the batch; owner None when the
    batch has no identified user (the agent's own memory); ``known`` False when several users could be
    meant (the fact is dropped rather than given to the wrong person)."""
    if speaker:
        wanted = speaker.strip().lower()
        for user in users:
            if wanted in (user.lower(), names.get(user, "").lower()):
                return True, user
    if len(users) == 1:
        return True, users[0]
    return not users, None


def _subject_key(subject: str | None, owner: str | None, names: dict[str, str]) -> str | None:
    """``subject`` as a key: None when it is the owner, a user key when it names a user, else a slug."""
    if not subject:
        return None
    wanted = subject.strip().lower()
    if owner is not None and wanted in (owner.lower(), names.get(owner, "").lower(), "me", "myself"):
        return None
    for user, name in names.items():
        if wanted in (user.lower(), name.lower()):
            return user
    slug = re.sub(r"[^\w]+", "-", wanted).strip("-")[:64]
    return slug or None


def extractive_extraction(memory: Memory, batch: Sequence[Message], *, final_attempt: bool) -> Extraction:
    """Summary by sentence centrality and facts by rules; needs no LLM.

    Raises:
        ProviderError: the embedder failed (not with ``final_attempt``: then TF-IDF is used instead).
    """
    names = _names(memory, batch)
    facts: list[OwnedFact] = []
    for m in batch:
        if m.role != "user" or not m.content.strip():
            continue
        who = m.name or names.get(m.user or "") or label(m.user)
        found = extract_facts(m.content, who=who)
        learned = next((c.content.rsplit(" is ", 1)[-1] for c in found if c.attribute == "name"), None)
        if learned and m.user and not m.name and m.user not in names:
            names[m.user] = learned  # "my name is Alice and I live in Lisbon" → "Alice lives in Lisbon"
            found = extract_facts(m.content, who=learned)
        facts.extend(OwnedFact(replace(c, speaker=m.user, seq=m.seq), m.user) for c in found)
    utterances = [Utterance(_speaker(m, names), m.content) for m in batch if m.role in ("user", "assistant")]
    embedder = memory.embedder
    try:
        embed = None if embedder is None else (lambda texts: embedder.embed(list(texts), "document"))
        summary = extractive_summary(utterances, embed=embed)
    except ProviderError:
        if not final_attempt:
            raise
        summary = extractive_summary(utterances)
    return Extraction(summary, facts, "extractive", {"facts_by": "rules"})


def _names(memory: Memory, batch: Sequence[Message]) -> dict[str, str]:
    """Display names of the batch's users: given with their messages, else told in earlier facts."""
    names: dict[str, str] = {}
    for m in batch:
        if m.user and m.name:
            names.setdefault(m.user, m.name)
    for user in _users(batch):
        if user not in names:
            stored = _stored_name(memory, user)
            if stored:
                names[user] = stored
    return names


def _speaker(m: Message, names: dict[str, str]) -> str:
    if m.role == "user":
        return m.name or names.get(m.user or "") or label(m.user)
    return m.name or "Assistant"


def _stored_name(memory: Memory, user: str) -> str | None:
    """The name a user's stored facts give them ("The user's name is Alice" → "Alice"), if any."""
    owned = memory.store.list_facts(memory.agent, FactFilter(user=user, owned_only=True), limit=_NAME_SCAN)
    for fact in owned:
        parsed = attribute_of(fact.content)
        if parsed is not None and parsed[0] == "name" and fact.subject is None:
            return fact.content.rsplit(" is ", 1)[-1].strip().rstrip(".")
    return None
