"""Consolidation: what a newly extracted fact does to the facts already stored (ADD/UPDATE/DELETE/NOOP).

A candidate is compared with the nearest active facts of the same owner and subject (:mod:`.nearest`: by
vector search when an embedder is configured, else by keyword search), then decided in this order:

1. **attribute** — both set the same single-valued attribute (:func:`~.rules.attribute_of`): the same
   value is a NOOP, a different one ("lives in Paris" after "lives in Berlin") an UPDATE. If several
   values are active (left by an interrupted update), all but the confirmed one are superseded;
2. **exact** — the same text, case and punctuation aside: NOOP, without asking anyone;
3. **near duplicate** — cosine ≥ ``NOOP_COSINE``, word overlap ≥ ``NOOP_JACCARD``, or every content
   word of the candidate already in a stored fact (and neither negates the other): NOOP;
4. **LLM** (when one is configured and some neighbour is at least ``RELATED_*`` similar): the
   ``consolidate_fact`` prompt decides. A decision naming a fact it was not shown, malformed output or
   a provider failure falls back to the next step;
5. **thresholds** — a stored fact whose words are all in the candidate, which adds to them: UPDATE;
   otherwise ADD.

An UPDATE never edits the old fact in place: a new fact is stored and the old one is marked
``superseded`` (``invalid_at`` = now, ``superseded_by`` = the new fact), so it stays in the audit
history and in ``recall(include_superseded=True)``. A DELETE marks the fact superseded without a
replacement. Nothing is erased.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ..errors import InvalidOutput, ProviderError
from ..texts import fact_text
from ..types import Fact
from ..validation import NewFact, check_category, check_content, check_importance, check_optional_key
from .extractive import term_set
from .nearest import (
    NEIGHBOURS,
    Neighbour,
    lexical_similarity,
    negated,
    neighbours,
    normalized,
    same_attribute,
    same_scope,
    stored_attribute,
)
from .prompts import CONSOLIDATE_FACT, ConsolidateInput, ConsolidationDecision, ExistingFact, ask
from .rules import CandidateFact, attribute_of

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = [
    "NEIGHBOURS",
    "NOOP_COSINE",
    "NOOP_JACCARD",
    "RELATED_COSINE",
    "RELATED_JACCARD",
    "Action",
    "Decision",
    "Neighbour",
    "consolidate",
    "duplicate_of",
    "lexical_similarity",
    "neighbours",
    "refined_by",
]

logger = logging.getLogger("memlane.pipeline.consolidate")

Action = Literal["ADD", "UPDATE", "DELETE", "NOOP"]

NOOP_COSINE = 0.95
"""Cosine at or above which two facts say the same thing (all-MiniLM-L6-v2 paraphrases of one fact)."""
NOOP_JACCARD = 0.8
"""Share of content words two facts must have in common to be duplicates without an embedder."""
RELATED_COSINE = 0.5
RELATED_JACCARD = 0.25
"""Below these, a stored fact is about something else: the LLM is not asked about it."""
REFINE_COVERAGE = 0.5
"""A stored fact all of whose words are in the candidate, and that makes up at least this share of it,
is refined by the candidate (UPDATE)."""
MakeFact = Callable[[str, int, str], NewFact]
"""Builds the NewFact to store from (content, importance, visibility), provenance already filled in."""


@dataclass(frozen=True, slots=True)
class Decision:
    """What consolidation did with one candidate.

    ``fact``: the fact now holding the information (new for ADD/UPDATE, the existing one for NOOP, None
    for DELETE). ``target``: the stored fact matched (NOOP), replaced (UPDATE) or invalidated (DELETE),
    as it was before. ``decided_by``: "exact", "attribute", "similarity", "llm" or "thresholds".
    """

    action: Action
    fact: Fact | None
    target: Fact | None
    decided_by: str
    reason: str
    similarity: float | None = None


def duplicate_of(content: str, near: Sequence[Neighbour]) -> Decision | None:
    """An exact or near duplicate among the neighbours: a NOOP without asking anyone."""
    key = normalized(content)
    for n in near:
        if normalized(n.fact.content) == key:
            return Decision("NOOP", n.fact, n.fact, "exact", "the same fact is already stored", n.similarity)
    words = term_set(content)
    for n in near:
        if negated(content) != negated(n.fact.content):
            continue
        if n.similarity >= NOOP_COSINE or lexical_similarity(content, n.fact.content) >= NOOP_JACCARD:
            return Decision("NOOP", n.fact, n.fact, "similarity", "a near-identical fact is stored", n.similarity)
        if len(words) >= 2 and words <= term_set(n.fact.content):
            return Decision("NOOP", n.fact, n.fact, "similarity", "a stored fact already says all this", n.similarity)
    return None


def refined_by(content: str, near: Sequence[Neighbour]) -> Neighbour | None:
    """A stored fact the candidate repeats and adds to ("likes jazz" → "likes jazz, above all Coltrane")."""
    words = term_set(content)
    for n in near:
        theirs = term_set(n.fact.content)
        if (
            len(theirs) >= 2
            and theirs < words
            and len(theirs) / len(words) >= REFINE_COVERAGE
            and negated(content) == negated(n.fact.content)
        ):
            return n
    return None


def _related(n: Neighbour, with_vectors: bool) -> bool:
    return n.similarity >= (RELATED_COSINE if with_vectors else RELATED_JACCARD)


def _ask_llm(
    memory: Memory, content: str, category: str, owner: str | None, subject: str | None, shown: Sequence[Neighbour]
) -> ConsolidationDecision:
    """The LLM's decision, checked against the facts it was shown.

    Raises:
        InvalidOutput: the answer is malformed, or names a fact it was not shown.
        ProviderError: the provider failed.
    """
    assert memory.llm is not None
    data = ConsolidateInput(
        content=content,
        category=category,
        existing=[ExistingFact(n.fact.id, n.fact.content, n.fact.category, n.fact.valid_from) for n in shown],
        today=memory._now().date(),
        owner=owner,
        subject=subject,
    )
    decision = ask(memory.llm, CONSOLIDATE_FACT, data, agent=memory.agent)
    ids = {n.fact.id for n in shown}
    if decision.action != "ADD" and decision.target_id not in ids:
        raise InvalidOutput(
            f"consolidate_fact chose {decision.action} of fact {decision.target_id}, not one it was shown"
        )
    return decision


def consolidate(
    memory: Memory,
    candidate: CandidateFact,
    *,
    owner: str | None,
    subject: str | None = None,
    thread: str | None = None,
    from_seq: int | None = None,
    to_seq: int | None = None,
    method: str = "rules",
    visibility: str = "private",
    metadata: Mapping[str, Any] | None = None,
    vector: np.ndarray | EllipsisType | None = ...,
    use_llm: bool = True,
    replaces: int | None = None,
    shown: Collection[int] = (),
    pool: Sequence[Fact] | None = None,
) -> Decision:
    """Fold ``candidate`` into ``owner``'s facts about ``subject`` (default: ``candidate.subject``);
    returns what was done (see the module doc for the order of the rules).

    New facts carry their provenance (``thread``, ``from_seq``..``to_seq``) and ``metadata.method``
    (``"llm"`` or ``"rules"``, how the candidate was extracted). ``vector`` is the candidate's embedding;
    by default it is computed with the memory's embedder, ``None`` searches by keywords instead.
    ``use_llm=False`` decides by thresholds even when an LLM is configured. LLM failures never escape:
    the thresholds decide instead.

    When the candidate comes from an LLM that was shown stored facts while extracting it (``shown``, their
    ids), it is not asked again about those: ``replaces`` (one of them, as that LLM said) is superseded by
    the candidate unless it is a duplicate, and ``consolidate_fact`` is asked only about related facts it
    was not shown. ``pool``, when given, must be every active fact ``owner`` owns: it is searched instead
    of the store.

    Raises:
        InvalidInput: the candidate's content, category or importance is invalid.
        ProviderError: computing the default ``vector`` failed (nothing was written).
        StorageError: the database failed.
    """
    content, subject, category = _checked(memory, candidate, subject)
    if isinstance(vector, EllipsisType):
        vector = memory._embed_one(fact_text(content, subject))
    near = neighbours(memory, content, owner=owner, subject=subject, vector=vector, pool=pool)
    attr = (candidate.attribute, candidate.value) if candidate.attribute and candidate.value else attribute_of(content)
    same_attr = same_attribute(memory, owner, subject, attr[0], content, pool) if attr else []
    extra = _new_metadata(method, metadata, candidate.rule, attr)
    make = _fact_maker(category, owner, subject, extra, thread, from_seq, to_seq)
    if attr is not None and same_attr:
        return _by_attribute(memory, attr, same_attr, make, content, candidate.importance, vector)
    checked = _Candidate(content, category, candidate.importance, owner, subject, visibility, vector, make)
    return _decide(memory, checked, near, replaces=replaces, shown=shown, use_llm=use_llm)


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A validated candidate and what the rules after the attribute rule need to settle it."""

    content: str
    category: str
    importance: int
    owner: str | None
    subject: str | None
    visibility: str
    vector: np.ndarray | None
    make: MakeFact


def _decide(
    memory: Memory,
    candidate: _Candidate,
    near: Sequence[Neighbour],
    *,
    replaces: int | None,
    shown: Collection[int],
    use_llm: bool,
) -> Decision:
    """Rules 2 to 5 of the module doc, in order: duplicate, the extraction's replacement, LLM, thresholds."""
    duplicate = duplicate_of(candidate.content, near)
    if duplicate is not None:
        return duplicate
    if replaces is not None and replaces in shown:
        replaced = _by_replacement(memory, candidate, replaces)
        if replaced is not None:
            return replaced
    related = [n for n in near if _related(n, candidate.vector is not None) and n.fact.id not in shown]
    if use_llm and memory.llm is not None and related:
        decided = _by_llm(memory, candidate, related)
        if decided is not None:
            return decided
    return _by_thresholds(memory, candidate, near)


def _checked(memory: Memory, candidate: CandidateFact, subject: str | None) -> tuple[str, str | None, str]:
    """The candidate's content, subject (``subject`` or the candidate's own) and category, validated.

    Raises:
        InvalidInput: the candidate's content, subject, category or importance is invalid.
    """
    content = check_content(candidate.content, "content", memory.settings.max_content_chars).strip()
    subject = check_optional_key(subject if subject is not None else candidate.subject, "subject")
    category = check_category(candidate.category)
    check_importance(candidate.importance)
    return content, subject, category


def _new_metadata(
    method: str, metadata: Mapping[str, Any] | None, rule: str | None, attr: tuple[str, str] | None
) -> dict[str, Any]:
    """The metadata of a fact stored from the candidate: how it was extracted, by which rule, what it sets."""
    extra: dict[str, Any] = {"method": method, **dict(metadata or {})}
    if rule:
        extra["rule"] = rule
    if attr:
        extra.update(attribute=attr[0], value=attr[1])
    return extra


def _fact_maker(
    category: str,
    owner: str | None,
    subject: str | None,
    extra: dict[str, Any],
    thread: str | None,
    from_seq: int | None,
    to_seq: int | None,
) -> MakeFact:
    """A :data:`MakeFact` filling in the candidate's category, scope, metadata and provenance."""

    def make(text: str, importance: int, shared: str) -> NewFact:
        return NewFact(
            content=text,
            category=category,
            importance=importance,
            owner=owner,
            subject=subject,
            visibility=shared,
            metadata=extra,
            source_thread=thread,
            source_from_seq=from_seq,
            source_to_seq=to_seq,
        )

    return make


def _by_replacement(memory: Memory, candidate: _Candidate, replaces: int) -> Decision | None:
    """Supersede the fact the extracting LLM said the candidate changes, if it is still in scope."""
    replaced = memory.store.get_facts(memory.agent, [replaces])
    if not (replaced and same_scope(replaced[0], candidate.owner, candidate.subject)):
        return None
    old = replaced[0]
    fact = candidate.make(candidate.content, max(candidate.importance, old.importance), old.visibility)
    return _supersede(memory, old, fact, candidate.vector, "llm", "the extraction said it changes this fact")


def _by_llm(memory: Memory, candidate: _Candidate, related: Sequence[Neighbour]) -> Decision | None:
    """Apply ``consolidate_fact``'s decision about the related facts; None when the LLM failed."""
    c = candidate
    try:
        decision = _ask_llm(memory, c.content, c.category, c.owner, c.subject, related)
    except ProviderError as error:  # InvalidOutput included
        logger.warning("consolidate_fact failed (%s: %s); deciding by thresholds", type(error).__name__, error)
        return None
    return _apply_llm(memory, decision, related, c.content, c.importance, c.visibility, c.make, c.vector)


def _by_thresholds(memory: Memory, candidate: _Candidate, near: Sequence[Neighbour]) -> Decision:
    """The last rule: UPDATE a stored fact the candidate refines, else ADD the candidate."""
    c = candidate
    refined = refined_by(c.content, near)
    if refined is not None:
        fact = c.make(c.content, max(c.importance, refined.fact.importance), refined.fact.visibility)
        return _supersede(memory, refined.fact, fact, c.vector, "thresholds", "adds detail to a stored fact")
    stored = _add(memory, c.make(c.content, c.importance, c.visibility), c.vector)
    best = near[0].similarity if near else None
    return Decision("ADD", stored, None, "thresholds", "no stored fact says this", best)


def _apply_llm(
    memory: Memory,
    decision: ConsolidationDecision,
    shown: Sequence[Neighbour],
    content: str,
    importance: int,
    visibility: str,
    make: MakeFact,
    vector: np.ndarray | None,
) -> Decision:
    reason = decision.reason or "decided by the LLM"
    if decision.action == "ADD":
        return Decision("ADD", _add(memory, make(content, importance, visibility), vector), None, "llm", reason)
    target = next(n for n in shown if n.fact.id == decision.target_id)
    if decision.action == "NOOP":
        return Decision("NOOP", target.fact, target.fact, "llm", reason, target.similarity)
    if decision.action == "DELETE":
        _invalidate(memory, target.fact, None, "invalidate")
        return Decision("DELETE", None, target.fact, "llm", reason, target.similarity)
    text = decision.new_content or content
    if text != content and vector is not None:
        try:
            vectors = memory._embed([fact_text(text, target.fact.subject)])
        except ProviderError as error:  # the decision stands; `memlane reindex` embeds it later
            logger.warning("could not embed the merged fact (%s); stored without a vector", error)
            vectors = None
        vector = None if vectors is None else vectors[0]
    fact = make(text, max(importance, target.fact.importance), target.fact.visibility)
    return _supersede(memory, target.fact, fact, vector, "llm", reason)


def _add(memory: Memory, fact: NewFact, vector: np.ndarray | None) -> Fact:
    check_content(fact.content, "content", memory.settings.max_content_chars)
    jobs = memory.pipeline.after_fact_change(fact.owner)
    stored = memory.store.add_fact(memory.agent, fact, actor=fact.owner, now=memory._now(), vector=vector, jobs=jobs)
    memory._enforce_fact_cap(fact.owner, keep=stored.id)  # max_facts_per_user holds for extracted facts too
    return stored


def _invalidate(memory: Memory, old: Fact, by: int | None, action: str) -> Fact:
    changes: dict[str, Any] = {"status": "superseded", "invalid_at": memory._now()}
    if by is not None:
        changes["superseded_by"] = by
    jobs = memory.pipeline.after_fact_change(old.owner)
    return memory.store.update_fact(
        memory.agent, old.id, changes, actor=old.owner, now=memory._now(), action=action, jobs=jobs
    )


def _supersede(
    memory: Memory,
    old: Fact,
    fact: NewFact,
    vector: np.ndarray | None,
    by: str,
    reason: str,
    also: Sequence[Fact] = (),
) -> Decision:
    if _later(old, fact):
        # Older news: a later message of the same conversation already said otherwise (a fact stated as it
        # was written, then a batch extraction reading the earlier messages). The stored fact stands.
        return Decision("NOOP", old, old, by, "a later message of the conversation already says otherwise")
    # Separate transactions (the store has no single call for both): the new fact first, so that a crash
    # in between leaves both facts active rather than losing the new one; the next consolidation of the
    # same attribute supersedes the stale one (see _by_attribute).
    stored = _add(memory, fact, vector)
    for stale in (old, *also):
        _invalidate(memory, stale, stored.id, "supersede")
    return Decision("UPDATE", stored, old, by, reason)


def _later(old: Fact, fact: NewFact) -> bool:
    """Whether ``old`` comes from a later message of the conversation ``fact`` was read from."""
    return (
        old.source_thread is not None
        and old.source_thread == fact.source_thread
        and old.source_to_seq is not None
        and fact.source_to_seq is not None
        and old.source_to_seq > fact.source_to_seq
    )


def _by_attribute(
    memory: Memory,
    attr: tuple[str, str],
    same_attr: Sequence[Fact],
    make: MakeFact,
    content: str,
    importance: int,
    vector: np.ndarray | None,
) -> Decision:
    """Settle a candidate that sets an attribute some stored facts set too."""
    name, value = attr
    keep = next((f for f in same_attr if (stored_attribute(f) or ("", ""))[1] == value), None)
    if keep is not None:
        for stale in same_attr:  # more than one value active: left over from an interrupted update
            if stale.id != keep.id:
                _invalidate(memory, stale, keep.id, "supersede")
        return Decision("NOOP", keep, keep, "attribute", f"{name} is already {value!r}")
    old = same_attr[0]
    before = (stored_attribute(old) or ("", "?"))[1]
    fact = make(content, max(importance, old.importance) if name == "name" else importance, old.visibility)
    return _supersede(
        memory, old, fact, vector, "attribute", f"{name} changed from {before!r} to {value!r}", same_attr[1:]
    )
