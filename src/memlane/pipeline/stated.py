"""Pipeline step: the facts a user's message states plainly, stored with the message itself.

When a message is written, the rule-based extractor (:mod:`.rules`: "remember that …", "I'm allergic to …",
"my birthday is …", "I live in …") reads each user message, and what it finds is stored in the same
transaction as the message (:class:`~memlane.store.base.StatedFact`): the fact is there as soon as the
message is, or neither is. The LLM's extraction stays with the batch (:mod:`.summarize`), which is shown
these facts and repeats none of them; without an LLM, the batch finds the same facts again and keeps them
(consolidation recognises them).

Each fact found is compared with its owner's stored facts first, by the rules consolidation uses without an
LLM (:mod:`.consolidate`): the same fact or a near duplicate is not stored again; one that sets an attribute
a stored fact sets differently ("lives in Porto" after "lives in Lisbon") supersedes it; one that adds to a
stored fact supersedes that one; anything else is new. The ``facts_on_write`` setting turns this step off;
so does the ``simple`` strategy, whose context shows no facts.

Facts are written in the third person with the speaker's display name (:func:`display_name`): the name the
message gives, else the name the user's recent messages give, else the one their facts tell, else their id.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..errors import ProviderError
from ..store import FactFilter
from ..store.base import StatedFact
from ..texts import fact_text
from ..types import Fact
from ..validation import NewFact, NewMessage
from .consolidate import duplicate_of, refined_by
from .nearest import neighbours, normalized, same_attribute, stored_attribute
from .rules import CandidateFact, attribute_of, extract_facts

if TYPE_CHECKING:
    from ..memory import Memory
    from ..memory.base import MemoryBase
    from .core import Pipeline

__all__ = ["READ_CHARS", "display_name", "label", "plan", "stated_facts"]

logger = logging.getLogger("memlane.pipeline.stated")

_NAME_THREADS = 3  # the user's most recent threads looked through for the name their messages give
_NAME_MESSAGES = 50  # messages of each
_NAME_FACTS = 200  # owned facts looked through for a name they tell
READ_CHARS = 4000
"""The start of a message the rules read as it is written (a pasted document states nothing plainly about its
sender, and the write must not wait on it; the batch reads every message whole)."""


def label(user: str | None) -> str:
    """How a fact names a user: "The user" without one, a lower-case name or id that reads like a name
    capitalised ("alice" → "Alice"), anything else as it is ("u42", "McKenzie")."""
    if not user:
        return "The user"
    return user.capitalize() if user.isalpha() and user.islower() else user


def display_name(memory: MemoryBase, user: str) -> str:
    """The name ``user`` goes by: the ``name`` given with their most recent messages, else the name their
    facts tell ("The user's name is Alice"), else :func:`label` of their id."""
    for thread in memory.store.list_threads(memory.agent, user=user, status=None, limit=_NAME_THREADS, offset=0):
        for m in reversed(memory.store.messages(memory.agent, thread.key, limit=_NAME_MESSAGES)):
            if m.user == user and m.name:
                return label(m.name)
    owned = memory.store.list_facts(memory.agent, FactFilter(user=user, owned_only=True), limit=_NAME_FACTS)
    for fact in owned:
        parsed = stored_attribute(fact)
        if parsed is not None and parsed[0] == "name" and fact.subject is None:
            return fact.content.rsplit(" is ", 1)[-1].strip().rstrip(".")
    return label(user)


def stated_facts(pipeline: Pipeline, thread: str, items: Sequence[NewMessage]) -> list[StatedFact]:
    """The hook: the facts ``items`` (messages about to be written to ``thread``) state, to store with them."""
    memory = pipeline.memory
    if not memory.settings.facts_on_write or memory.settings.strategy == "simple":
        return []
    return plan(memory, thread, items)


def _found(memory: Memory, items: Sequence[NewMessage]) -> list[tuple[int, CandidateFact]]:
    """(index of the message, fact) for every fact the rules find in the user messages of ``items``."""
    names: dict[str, str] = {}
    found: list[tuple[int, CandidateFact]] = []
    for i, m in enumerate(items):
        if m.role != "user" or not m.content.strip():
            continue
        text = m.content[:READ_CHARS]
        facts = extract_facts(text, who=label(m.name) if m.name else "The user")
        if not facts:
            continue  # most messages: no name looked up
        if not m.name and m.user:
            told = next((c.content.rsplit(" is ", 1)[-1] for c in facts if c.attribute == "name"), None)
            if told:  # "my name is Alice and I live in Lisbon" → "Alice lives in Lisbon"
                names[m.user] = told
            elif m.user not in names:
                names[m.user] = display_name(memory, m.user)
            facts = extract_facts(text, who=names[m.user])
        found.extend((i, replace(c, speaker=m.user, seq=None)) for c in facts)
    return found


def plan(memory: Memory, thread: str, items: Sequence[NewMessage]) -> list[StatedFact]:
    """What to store with ``items``: each fact the rules find, unless its owner has it already, with the
    stored facts it replaces (see the module doc). Reads the store; writes nothing.

    An embedder failure leaves the facts without vectors (``memlane reindex`` adds them), never the
    messages unwritten.
    """
    found = _found(memory, items)
    if not found:
        return []
    vectors: np.ndarray | None
    try:
        vectors = memory._embed([fact_text(c.content, c.subject) for _, c in found])
    except ProviderError as error:
        logger.warning("facts stated in %s: embedding failed (%s); stored without vectors", thread, error)
        vectors = None
    planned: list[StatedFact] = []
    for n, (i, candidate) in enumerate(found):
        owner = items[i].user
        vector = None if vectors is None else vectors[n]
        stated = _plan_one(memory, candidate, owner, vector, planned)
        if stated is not None:
            planned.append(replace(stated, item=i))
    return planned


def _plan_one(
    memory: Memory, candidate: CandidateFact, owner: str | None, vector: np.ndarray | None, planned: list[StatedFact]
) -> StatedFact | None:
    """One candidate's plan (``item`` left 0), or None when its owner has the fact already."""
    content = candidate.content
    attr = (candidate.attribute, candidate.value) if candidate.attribute and candidate.value else attribute_of(content)
    for earlier in list(planned):
        same = earlier.fact.owner == owner and normalized(earlier.fact.content) == normalized(content)
        if same:
            return None  # said twice in one write
        if attr and earlier.fact.owner == owner and earlier.fact.metadata.get("attribute") == attr[0]:
            planned.remove(earlier)  # "I live in Lisbon … no, I live in Porto": the later says it
    supersedes: tuple[int, ...] = ()
    same_attr = same_attribute(memory, owner, None, attr[0], content) if attr else []
    if attr and same_attr:
        if any((stored_attribute(f) or ("", ""))[1] == attr[1] for f in same_attr):
            return None  # the attribute is already set to this value
        supersedes = tuple(f.id for f in same_attr)
    else:
        near = neighbours(memory, content, owner=owner, subject=None, vector=vector)
        if duplicate_of(content, near) is not None:
            return None
        refined = refined_by(content, near)
        supersedes = (refined.fact.id,) if refined is not None else ()
    return StatedFact(0, _new_fact(memory, candidate, owner, attr, supersedes), vector, supersedes)


def _new_fact(
    memory: Memory,
    candidate: CandidateFact,
    owner: str | None,
    attr: tuple[str, str] | None,
    supersedes: tuple[int, ...],
) -> NewFact:
    metadata: dict[str, object] = {"method": "rules", "rule": candidate.rule or "rules", "stated": "on write"}
    if attr:
        metadata.update(attribute=attr[0], value=attr[1])
    importance = candidate.importance
    if supersedes:  # what replaces a fact keeps its visibility, and its importance when it was higher
        old: list[Fact] = memory.store.get_facts(memory.agent, list(supersedes))
        visibility = old[0].visibility if old else memory.settings.fact_visibility
        importance = max([importance, *(f.importance for f in old)])
    else:
        visibility = memory.settings.fact_visibility
    return NewFact(
        content=candidate.content,
        category=candidate.category,
        importance=importance,
        owner=owner,
        subject=None,
        visibility=visibility,
        metadata=metadata,
    )
