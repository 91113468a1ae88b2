"""Consolidation: what a newly extracted fact does to the facts already stored (ADD/UPDATE/DELETE/NOOP).

A candidate is compared with the nearest active facts of the same owner and subject (by vector search
when an embedder is configured, else by keyword search), then decided in this order:

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
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ..errors import InvalidOutput, ProviderError
from ..memory import _fact_text
from ..store import FactFilter, Scope
from ..types import Fact
from ..validation import NewFact, check_category, check_content, check_importance, check_optional_key
from .extractive import term_set
from .prompts import CONSOLIDATE_FACT, ConsolidateInput, ConsolidationDecision, ExistingFact, ask
from .rules import CandidateFact, attribute_of, holder_of, named_holder, normalize_value, same_holder

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = [
    "NOOP_COSINE",
    "NOOP_JACCARD",
    "RELATED_COSINE",
    "RELATED_JACCARD",
    "Action",
    "Decision",
    "Neighbour",
    "consolidate",
    "lexical_similarity",
    "neighbours",
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
NEIGHBOURS = 5
"""How many nearest facts are compared (and shown to the LLM)."""
_SEARCH = 20  # wider search before narrowing to the owner and subject
_ATTRIBUTE_SCAN = 500  # owned facts scanned for the same attribute

MakeFact = Callable[[str, int, str], NewFact]
"""Builds the NewFact to store from (content, importance, visibility), provenance already filled in."""

_NEGATIONS = frozenset({"not", "never", "no", "no longer", "doesn't", "don't", "isn't", "didn't", "cannot", "can't"})
_WORDS = re.compile(r"[\w']+")


@dataclass(frozen=True, slots=True)
class Neighbour:
    """A stored fact near the candidate and how near (cosine with an embedder, else word overlap)."""

    fact: Fact
    similarity: float


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


def lexical_similarity(a: str, b: str) -> float:
    """Jaccard overlap of the content words of two texts (0 when either has none)."""
    x, y = term_set(a), term_set(b)
    if not x or not y:
        return 0.0
    return len(x & y) / len(x | y)


def _negated(text: str) -> bool:
    lowered = text.lower().replace("’", "'")
    return any(w in _NEGATIONS for w in _WORDS.findall(lowered)) or "no longer" in lowered


def _normalized(text: str) -> str:
    return normalize_value(text.rstrip(".!"))


def _attribute(fact: Fact) -> tuple[str, str] | None:
    attr, value = fact.metadata.get("attribute"), fact.metadata.get("value")
    if isinstance(attr, str) and isinstance(value, str):
        return attr, value
    return attribute_of(fact.content)


def _same_scope(fact: Fact, owner: str | None, subject: str | None) -> bool:
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
        scored = [Neighbour(f, lexical_similarity(content, f.content)) for f in pool if _same_scope(f, owner, subject)]
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
        if fact is None or not _same_scope(fact, owner, subject):
            continue
        lexical = lexical_similarity(content, fact.content)
        out.append(Neighbour(fact, max(float(cand.score), lexical) if vector is not None else lexical))
    out.sort(key=lambda n: n.similarity, reverse=True)
    return out[:limit]


def _same_attribute(
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
        owned = [f for f in pool if _same_scope(f, owner, subject)]
    else:
        owned = memory.store.list_facts(
            memory.agent, FactFilter(user=owner, owned_only=True, subject=subject), limit=_ATTRIBUTE_SCAN
        )
    holder = holder_of(content)
    matches = []
    for fact in owned:
        parsed = _attribute(fact)
        if (
            _same_scope(fact, owner, subject)
            and parsed is not None
            and parsed[0] == attribute
            and same_holder(holder, holder_of(fact.content))
        ):
            matches.append(fact)
    named = {name for name in (named_holder(holder_of(f.content)) for f in matches) if name}
    if named_holder(holder) is None and len(named) > 1:
        return []  # "The user lives in Rome" next to Alice's and Bob's homes: whose is it?
    return matches


def _duplicate(content: str, near: Sequence[Neighbour]) -> Decision | None:
    """An exact or near duplicate among the neighbours: a NOOP without asking anyone."""
    key = _normalized(content)
    for n in near:
        if _normalized(n.fact.content) == key:
            return Decision("NOOP", n.fact, n.fact, "exact", "the same fact is already stored", n.similarity)
    words = term_set(content)
    for n in near:
        if _negated(content) != _negated(n.fact.content):
            continue
        if n.similarity >= NOOP_COSINE or lexical_similarity(content, n.fact.content) >= NOOP_JACCARD:
            return Decision("NOOP", n.fact, n.fact, "similarity", "a near-identical fact is stored", n.similarity)
        if len(words) >= 2 and words <= term_set(n.fact.content):
            return Decision("NOOP", n.fact, n.fact, "similarity", "a stored fact already says all this", n.similarity)
    return None


def _refined(content: str, near: Sequence[Neighbour]) -> Neighbour | None:
    """A stored fact the candidate repeats and adds to ("likes jazz" → "likes jazz, above all Coltrane")."""
    words = term_set(content)
    for n in near:
        theirs = term_set(n.fact.content)
        if (
            len(theirs) >= 2
            and theirs < words
            and len(theirs) / len(words) >= REFINE_COVERAGE
            and _negated(content) == _negated(n.fact.content)
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
    content = check_content(candidate.content, "content", memory.settings.max_content_chars).strip()
    subject = check_optional_key(subject if subject is not None else candidate.subject, "subject")
    category = check_category(candidate.category)
    check_importance(candidate.importance)
    if isinstance(vector, EllipsisType):
        vectors = memory._embed([_fact_text(content, subject)])
        vector = None if vectors is None else vectors[0]
    near = neighbours(memory, content, owner=owner, subject=subject, vector=vector, pool=pool)
    attr = (candidate.attribute, candidate.value) if candidate.attribute and candidate.value else attribute_of(content)
    same_attr = _same_attribute(memory, owner, subject, attr[0], content, pool) if attr else []
    extra: dict[str, Any] = {"method": method, **dict(metadata or {})}
    if candidate.rule:
        extra["rule"] = candidate.rule
    if attr:
        extra.update(attribute=attr[0], value=attr[1])

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

    if attr is not None and same_attr:
        return _by_attribute(memory, attr, same_attr, make, content, candidate.importance, vector)
    duplicate = _duplicate(content, near)
    if duplicate is not None:
        return duplicate

    if replaces is not None and replaces in shown:
        replaced = memory.store.get_facts(memory.agent, [replaces])
        if replaced and _same_scope(replaced[0], owner, subject):
            old = replaced[0]
            fact = make(content, max(candidate.importance, old.importance), old.visibility)
            return _supersede(memory, old, fact, vector, "llm", "the extraction said it changes this fact")

    related = [n for n in near if _related(n, vector is not None) and n.fact.id not in shown]
    if use_llm and memory.llm is not None and related:
        try:
            decision = _ask_llm(memory, content, category, owner, subject, related)
        except ProviderError as error:  # InvalidOutput included
            logger.warning("consolidate_fact failed (%s: %s); deciding by thresholds", type(error).__name__, error)
        else:
            return _apply_llm(memory, decision, related, content, candidate.importance, visibility, make, vector)

    refined = _refined(content, near)
    if refined is not None:
        fact = make(content, max(candidate.importance, refined.fact.importance), refined.fact.visibility)
        return _supersede(memory, refined.fact, fact, vector, "thresholds", "adds detail to a stored fact")
    stored = _add(memory, make(content, candidate.importance, visibility), vector)
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
            vectors = memory._embed([_fact_text(text, target.fact.subject)])
        except ProviderError as error:  # the decision stands; `memlane reindex` embeds it later
            logger.warning("could not embed the merged fact (%s); stored without a vector", error)
            vectors = None
        vector = None if vectors is None else vectors[0]
    fact = make(text, max(importance, target.fact.importance), target.fact.visibility)
    return _supersede(memory, target.fact, fact, vector, "llm", reason)


def _add(memory: Memory, fact: NewFact, vector: np.ndarray | None) -> Fact:
    check_content(fact.content, "content", memory.settings.max_content_chars)
    jobs = memory.pipeline.after_fact_change(fact.owner)
    return memory.store.add_fact(memory.agent, fact, actor=fact.owner, now=memory._now(), vector=vector, jobs=jobs)


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
    # Separate transactions (the store has no single call for both): the new fact first, so that a crash
    # in between leaves both facts active rather than losing the new one; the next consolidation of the
    # same attribute supersedes the stale one (see _by_attribute).
    stored = _add(memory, fact, vector)
    for stale in (old, *also):
        _invalidate(memory, stale, stored.id, "supersede")
    return Decision("UPDATE", stored, old, by, reason)


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
    keep = next((f for f in same_attr if (_attribute(f) or ("", ""))[1] == value), None)
    if keep is not None:
        for stale in same_attr:  # more than one value active: left over from an interrupted update
            if stale.id != keep.id:
                _invalidate(memory, stale, keep.id, "supersede")
        return Decision("NOOP", keep, keep, "attribute", f"{name} is already {value!r}")
    old = same_attr[0]
    before = (_attribute(old) or ("", "?"))[1]
    fact = make(content, max(importance, old.importance) if name == "name" else importance, old.visibility)
    return _supersede(
        memory, old, fact, vector, "attribute", f"{name} changed from {before!r} to {value!r}", same_attr[1:]
    )
