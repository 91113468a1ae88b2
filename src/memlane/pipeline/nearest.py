"""The stored facts near a candidate fact: what consolidation compares it with.

Nearness is cosine similarity when the candidate has an embedding, else the overlap of content words
(:func:`lexical_similarity`). Only active facts of the same owner and subject count (:func:`same_scope`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..store import FactFilter, Scope
from ..types import Fact
from .attributes import attribute_of, holder_of, named_holder, normalize_value, same_holder
from .extractive import term_set

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = [
    "NEIGHBOURS",
    "Neighbour",
    "lexical_similarity",
    "negated",
    "neighbours",
    "normalized",
    "same_attribute",
    "same_scope",
    "stored_attribute",
]

NEIGHBOURS = 5
"""How many nearest facts are compared (and shown to the LLM)."""
_SEARCH = 20  # wider search before narrowing to the owner and subject
_ATTRIBUTE_SCAN = 500  # owned facts scanned for the same attribute

_NEGATIONS = frozenset({"not", "never", "no", "no longer", "doesn't", "don't", "isn't", "didn't", "cannot", "can't"})
_WORDS = re.compile(r"[\w']+")


@dataclass(frozen=True, slots=True)
class Neighbour:
    """A stored fact near the candidate and how near (cosine with an embedder, else word overlap)."""

    fact: Fact
    similarity: float


def lexical_similarity(a: str, b: str) -> float:
    """Jaccard overlap of the content words of two texts (0 when either has none)."""
    x, y = term_set(a), term_set(b)
    if not x or not y:
        return 0.0
    return len(x & y) / len(x | y)


def negated(text: str) -> bool:
    """Whether ``text`` says something is not so ("not", "never", "no longer" ...)."""
    lowered = text.lower().replace("’", "'")
    return any(w in _NEGATIONS for w in _WORDS.findall(lowered)) or "no longer" in lowered


def normalized(text: str) -> str:
    """``text`` compared as a value: case, spacing and final punctuation aside."""
    return normalize_value(text.rstrip(".!"))


def stored_attribute(fact: Fact) -> tuple[str, str] | None:
    """The single-valued attribute a stored fact sets, from its metadata or else from its text."""
    attr, value = fact.metadata.get("attribute"), fact.metadata.get("value")
    if isinstance(attr, str) and isinstance(value, str):
        return attr, value
    return attribute_of(fact.content)


def same_scope(fact: Fact, owner: str | None, subject: str | None) -> bool:
    """Whether ``fact`` is active and belongs to ``owner`` and is about ``subject``."""
    return fact.status == "active" and fact.owner == owner and (fact.subject or None) == (subject or None)


def neighbours(
    memory: Memory,
    content: str,
    *,
    owner: str | None,
    subject: str | None,
    vector: np.ndarray | None,
    limit: int = NEIGHBOURS,
    pool: Sequence[Fact] | None = None,
) -> list[Neighbour]:
    """The ``limit`` active facts of ``owner`` about ``subject`` nearest to ``content``, nearest first.

    With ``vector`` (the candidate's embedding) by cosine; else by keyword search, ranked by word overlap.
    Without a vector, ``pool`` (every active fact of ``owner``, already read) replaces the search.
    """
    if vector is None and pool is not None:
        scored = [Neighbour(f, lexical_similarity(content, f.content)) for f in pool if same_scope(f, owner, subject)]
        ranked = sorted((n for n in scored if n.similarity > 0), key=lambda n: n.similarity, reverse=True)
        return ranked[:limit]
    scope = Scope(user=owner, kinds=("fact",))
    if vector is not None:
        found = memory.store.vector_search(memory.agent, vector, scope, _SEARCH)
    else:
        found = memory.store.keyword_search(memory.agent, content, scope, _SEARCH)
    facts = {f.id: f for f in memory.store.get_facts(memory.agent, [c.id for c in found if c.kind == "fact"])}
    out: list[Neighbour] = []
    for cand in found:
        fact = facts.get(cand.id)
        if fact is None or not same_scope(fact, owner, subject):
            continue
        lexical = lexical_similarity(content, fact.content)
        out.append(Neighbour(fact, max(float(cand.score), lexical) if vector is not None else lexical))
    out.sort(key=lambda n: n.similarity, reverse=True)
    return out[:limit]


def same_attribute(
    memory: Memory,
    owner: str | None,
    subject: str | None,
    attribute: str,
    content: str,
    pool: Sequence[Fact] | None = None,
) -> list[Fact]:
    """Active facts of the owner about the subject that set ``attribute`` of the same person (looked for
    in ``pool``, every active fact of the owner, when given)."""
    if pool is not None:
        owned = [f for f in pool if same_scope(f, owner, subject)]
    else:
        owned = memory.store.list_facts(
            memory.agent, FactFilter(user=owner, owned_only=True, subject=subject), limit=_ATTRIBUTE_SCAN
        )
    holder = holder_of(content)
    matches = []
    for fact in owned:
        parsed = stored_attribute(fact)
        if (
            same_scope(fact, owner, subject)
            and parsed is not None
            and parsed[0] == attribute
            and same_holder(holder, holder_of(fact.content))
        ):
            matches.append(fact)
    named = {name for name in (named_holder(holder_of(f.content)) for f in matches) if name}
    if named_holder(holder) is None and len(named) > 1:
        return []  # "The user lives in Rome" next to Alice's and Bob's homes: whose is it?
    return matches
