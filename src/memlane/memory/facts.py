"""Remembered facts: the part of :class:`~memlane.Memory` that stores, lists, changes and forgets them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import Forbidden, InvalidInput, NotFound
from ..pipeline.extractive import term_set
from ..store import FactFilter
from ..types import Fact, FactChange
from ..validation import (
    NewFact,
    check_category,
    check_content,
    check_importance,
    check_key,
    check_metadata,
    check_optional_key,
    check_visibility,
)
from .base import MemoryBase, check_count, check_positive, fact_text

if TYPE_CHECKING:  # numpy loads with a store's backend, not with `import memlane`
    import numpy as np

__all__ = ["FactsMixin"]


MERGE_MIN_COSINE = 0.9
"""Cosine (MiniLM) two facts need, besides containing one another's words, to be merged by :meth:`remember`."""
MERGE_EXTRA_WORDS = 1
"""Without an embedder, the most words the longer of two facts may add to the shorter to be merged."""
_ARTICLES = frozenset({"a", "an", "the"})
_TOKENS = re.compile(r"[\w']+")
_FIRST_PERSON = re.compile(r"\b(?:I|i|I'm|I’m|i'm|I've|I’ve|my|My|me|Me|mine|myself)\b(?!-)")  # not "me-time"
FORGET_MIN_COSINE = 0.84
"""Similarity :meth:`FactsMixin.forget_matching` needs between what to forget and a fact (MiniLM)."""
_FORGET_LEAD = re.compile(r"^\s*(?:please\s+)?(?:forget\s+)?(?:that\s+|about\s+)?", re.IGNORECASE)


class FactsMixin(MemoryBase):
    """Facts owned by a user (private or shared) or by the agent itself, each with its change history."""

    def remember(
        self,
        content: str,
        *,
        user: str | None = None,
        category: str = "fact",
        importance: int = 3,
        visibility: str | None = None,
        subject: str | None = None,
        metadata: Mapping[str, Any] | str | None = None,
        thread: str | None = None,
    ) -> Fact:
        """Store a fact owned by ``user`` (None: the agent's own memory, shared with all its users);
        ``visibility`` "private" (only its owner sees it) or "shared", by default the ``fact_visibility``
        setting ("private").

        A fact in the first person is stored in the third person when its owner is known, named by their
        display name: ``remember("I like tea", user="alice")`` stores "Alice likes tea" (the name given with
        her messages, else the one her facts tell, else her id; see
        :func:`memlane.pipeline.stated.display_name`), which reads right in any prompt.

        Remembering what the owner already has (the same text and subject, active, and no metadata key
        saying otherwise) stores nothing new: the existing fact is returned, updated with any category,
        importance, visibility or metadata that differ (its history records the change). A near duplicate
        is merged into the fact it repeats ("bob likes jazz music" after "Bob likes jazz"): the words of
        one, articles, case and punctuation aside, are all words of the other, neither negates what the
        other says, and their cosine is at least ``MERGE_MIN_COSINE`` (0.9; without an embedder, the longer
        adds at most ``MERGE_EXTRA_WORDS`` word). The merged fact keeps the longer text; its history keeps
        both (a 'merge' entry: the text it had and the text it took, or the repeated text in
        ``metadata["merged"]``).

        Raises:
            InvalidInput: a field is invalid.

        Example:
            >>> fact = mem.remember("Alice is vegetarian", user="alice", category="diet", importance=4)
            >>> fact.owner, fact.visibility
            ('alice', 'private')
        """
        owner = check_optional_key(user, "user")
        text = self._as_stored(check_content(content, "content", self.settings.max_content_chars).strip(), owner)
        fact = NewFact(
            content=text,
            category=check_category(category),
            importance=check_importance(importance),
            owner=owner,
            subject=check_optional_key(subject, "subject"),
            # The agent's own facts are seen by every user of the agent: they are shared, whatever is asked.
            visibility=_visibility_of(
                user, check_visibility(self.settings.fact_visibility if visibility is None else visibility)
            ),
            metadata=check_metadata(metadata),
            source_thread=check_optional_key(thread, "thread"),
        )
        owned = self.store.list_facts(
            self.agent, FactFilter(user=fact.owner, owned_only=True, subject=fact.subject), limit=None
        )
        same = self._same_fact(fact, owned)
        if same is not None:
            changes = _changed_fields(same, fact)
            return self.update_fact(same.id, user=fact.owner, **changes) if changes else same
        vector = self._embed_one(fact_text(fact.content, fact.subject))
        near = self._near_fact(fact, owned, vector)
        if near is not None:
            return self._merge(near, fact, vector)
        jobs = self.pipeline.after_fact_change(fact.owner)
        stored = self.store.add_fact(self.agent, fact, actor=fact.owner, now=self._now(), vector=vector, jobs=jobs)
        self._enforce_fact_cap(fact.owner, keep=stored.id)
        return stored

    def _enforce_fact_cap(self, owner: str | None, *, keep: int) -> int:
        """Forget the owner's facts beyond ``max_facts_per_user``: the least important first, then those
        recalled least recently (never recalled counts as their creation), never ``keep`` (the fact just
        stored); returns how many went. The agent's own facts have no cap."""
        cap = self.settings.max_facts_per_user
        if not cap or owner is None:
            return 0
        owned = self.store.list_facts(self.agent, FactFilter(user=owner, owned_only=True), limit=None)
        if len(owned) <= cap:
            return 0
        order = sorted(
            (f for f in owned if f.id != keep),
            key=lambda f: (f.importance, f.last_accessed_at or f.created_at, f.id),
        )
        evicted = [f.id for f in order[: len(owned) - cap]]
        jobs = self.pipeline.after_fact_change(owner)
        return self.store.delete_facts(self.agent, evicted, actor=None, now=self._now(), purge_history=False, jobs=jobs)

    def _same_fact(self, fact: NewFact, owned: Sequence[Fact]) -> Fact | None:
        """The owner's active fact (of ``owned``) that ``fact`` repeats word for word, if any (see
        :meth:`remember`)."""
        for existing in owned:
            if existing.content == fact.content and existing.subject == fact.subject and not _clash(existing, fact):
                return existing
        return None

    def _near_fact(self, fact: NewFact, owned: Sequence[Fact], vector: np.ndarray | None) -> Fact | None:
        """The owner's active fact (of ``owned``) that ``fact`` nearly repeats, if any (the rule is in
        :meth:`remember`): the one whose text is closest."""
        from ..pipeline.nearest import negated  # the pipeline loads when it is used

        mine = _merge_tokens(fact.content)
        close = []
        for existing in owned:
            theirs = _merge_tokens(existing.content)
            if existing.subject != fact.subject or _clash(existing, fact) or not mine or not theirs:
                continue
            if not (mine <= theirs or theirs <= mine) or negated(existing.content) != negated(fact.content):
                continue
            if any(any(c.isdigit() for c in word) for word in mine ^ theirs):
                continue  # a number more or less is another fact ("room 4" is not "room 4 12")
            close.append(existing)
        if not close:
            return None
        if vector is None or self.embedder is None:
            fits = [f for f in close if len(_merge_tokens(f.content) ^ mine) <= MERGE_EXTRA_WORDS]
            return fits[0] if fits else None
        found, matrix = self.store.get_vectors(self.agent, "fact", [f.id for f in close])
        if not found:
            return None
        import numpy as np  # loaded with the store's backend already

        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        cosines = (matrix @ query) / np.maximum(np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(query)), 1e-12)
        best = int(np.argmax(cosines))
        if float(cosines[best]) < MERGE_MIN_COSINE:
            return None
        return next(f for f in close if f.id == found[best])

    def _merge(self, existing: Fact, fact: NewFact, vector: np.ndarray | None) -> Fact:
        """Merge ``fact`` into the near duplicate ``existing``: the longer text stays, the history keeps both."""
        changes = _changed_fields(existing, fact)
        if len(_merge_tokens(fact.content)) > len(_merge_tokens(existing.content)):
            changes["content"] = fact.content  # it says more: it becomes the fact's text
        else:
            merged = existing.metadata.get("merged")
            said = [*(merged if isinstance(merged, list) else []), fact.content]
            changes["metadata"] = {**changes.get("metadata", existing.metadata), "merged": said[-10:]}
        jobs = self.pipeline.after_fact_change(existing.owner)
        return self.store.update_fact(
            self.agent,
            existing.id,
            changes,
            actor=fact.owner,
            now=self._now(),
            action="merge",
            vector=vector if "content" in changes else None,
            jobs=jobs,
        )

    def _no_fact(self, fact_id: int) -> NotFound:
        return NotFound(f"no fact {fact_id} in agent {self.agent!r}")

    def fact(self, fact_id: int) -> Fact:
        """One fact by id.

        Raises:
            NotFound: no such fact in this agent.

        Example:
            >>> mem.fact(1).content
            'Alice loves hiking in the Alps'
        """
        found = self.store.get_facts(self.agent, [_check_id(fact_id)])
        if not found:
            raise self._no_fact(fact_id)
        return found[0]

    def facts(
        self,
        user: str | None = None,
        *,
        subject: str | None = None,
        category: str | None = None,
        visibility: str | None = None,
        thread: str | None = None,
        all_users: bool = False,
        include_superseded: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Fact]:
        """Facts ``user`` may see: their own, shared ones and the agent's own (``user=None``: the last two).

        ``all_users=True`` lists every user's facts (an admin view). Most important first.

        Example:
            >>> [fact.content for fact in mem.facts("alice")]
            ['Alice loves hiking in the Alps']
        """
        flt = FactFilter(
            user=check_optional_key(user, "user"),
            all_users=all_users,
            subject=check_optional_key(subject, "subject"),
            category=None if category is None else check_category(category),
            visibility=None if visibility is None else check_visibility(visibility),
            thread=check_optional_key(thread, "thread"),
            include_superseded=include_superseded,
        )
        return self.store.list_facts(
            self.agent, flt, limit=check_count(limit, "limit"), offset=check_count(offset, "offset") or 0
        )

    def _owned(self, fact_id: int, user: str | None) -> Fact:
        fact = self.fact(fact_id)
        if user is not None and fact.owner != user:
            raise Forbidden(f"fact {fact_id} belongs to {fact.owner or 'the agent'!r}, not to {user!r}")
        return fact

    def update_fact(
        self,
        fact_id: int,
        *,
        content: str | None = None,
        category: str | None = None,
        importance: int | None = None,
        visibility: str | None = None,
        subject: str | None = None,
        metadata: Mapping[str, Any] | str | None = None,
        user: str | None = None,
    ) -> Fact:
        """Change a fact; the change is recorded in its history. ``user`` acts as the owner (checked).

        Raises:
            NotFound: no such fact. Forbidden: ``user`` does not own it. InvalidInput: a bad value.

        Example:
            >>> mem.update_fact(1, visibility="shared", user="alice").visibility
            'shared'
        """
        changes: dict[str, Any] = {}
        if content is not None:
            changes["content"] = check_content(content, "content", self.settings.max_content_chars).strip()
        if category is not None:
            changes["category"] = check_category(category)
        if importance is not None:
            changes["importance"] = check_importance(importance)
        if visibility is not None:
            changes["visibility"] = check_visibility(visibility)
        if subject is not None:
            changes["subject"] = check_key(subject, "subject")
        if metadata is not None:
            changes["metadata"] = check_metadata(metadata)
        before = self._owned(_check_id(fact_id), check_optional_key(user, "user"))
        if before.owner is None and changes.get("visibility", "shared") != "shared":
            raise InvalidInput("the agent's own facts are seen by every user of the agent: they cannot be private")
        vector = None
        if "content" in changes or "subject" in changes:
            vector = self._embed_one(
                fact_text(changes.get("content", before.content), changes.get("subject", before.subject))
            )
        jobs = self.pipeline.after_fact_change(before.owner)
        return self.store.update_fact(
            self.agent, fact_id, changes, actor=user, now=self._now(), action="update", vector=vector, jobs=jobs
        )

    def forget(self, fact_id: int, *, user: str | None = None, purge: bool = False) -> Fact:
        """Delete a fact and return what it was. Its history keeps a 'delete' entry unless ``purge``.

        Raises:
            NotFound: no such fact. Forbidden: ``user`` does not own it.

        Example:
            >>> mem.forget(1, user="alice").content
            'Alice loves hiking in the Alps'
        """
        fact = self._owned(_check_id(fact_id), check_optional_key(user, "user"))
        jobs = self.pipeline.after_fact_change(fact.owner)
        self.store.delete_facts(self.agent, [fact.id], actor=user, now=self._now(), purge_history=purge, jobs=jobs)
        return fact

    def forget_matching(self, text: str, *, user: str | None = None, purge: bool = False) -> list[Fact]:
        """Forget the facts ``user`` owns that say what ``text`` says ("forget that Bob likes pizza");
        returns them (empty: nothing matched). Never touches another user's facts.

        A fact matches when every content word of ``text`` is in it and, with an embedder, their cosine
        similarity is at least ``FORGET_MIN_COSINE`` (0.84); without one, when it also holds no more than
        twice the words of ``text``. Measured on hand-made cases (``bench/forget_by_text.py``): 10 of 14 (9 without
        an embedder) rephrasings found, 1 of 12 near misses ("Bob prefers coffee" vs "Bob prefers tea over coffee")
        taken; the forgotten facts stay in their history unless ``purge``.

        Raises:
            InvalidInput: empty text or a bad user.

        Example:
            >>> [fact.content for fact in mem.forget_matching("Alice loves hiking in the Alps", user="alice")]
            ['Alice loves hiking in the Alps']
        """
        owner = check_optional_key(user, "user")
        wanted = _FORGET_LEAD.sub("", check_content(text, "text", self.settings.max_content_chars)).strip()
        wanted = self._as_stored(wanted, owner)  # "forget that I keep bees" is about "Alice keeps bees"
        words = term_set(wanted)
        if not words:
            raise InvalidInput("say what to forget: the text has no content words")
        owned = self.store.list_facts(self.agent, FactFilter(user=owner, owned_only=True), limit=None)
        candidates = [f for f in owned if words <= term_set(f.content)]
        if candidates and self.embedder is not None:
            import numpy as np  # loaded with the store's backend already; `import memlane` needs none

            query = np.asarray(self.embedder.embed_query(wanted), dtype=np.float32).reshape(-1)
            found, matrix = self.store.get_vectors(self.agent, "fact", [f.id for f in candidates])
            norms = np.linalg.norm(matrix, axis=1) * float(np.linalg.norm(query)) if len(found) else np.array([])
            close = {
                fid
                for fid, sim in zip(found, (matrix @ query) / np.maximum(norms, 1e-12), strict=True)
                if sim >= FORGET_MIN_COSINE
            }
            candidates = [f for f in candidates if f.id in close]
        elif candidates:
            candidates = [f for f in candidates if len(term_set(f.content)) <= 2 * len(words)]
        if candidates:
            jobs = self.pipeline.after_fact_change(owner)
            ids = [f.id for f in candidates]
            self.store.delete_facts(self.agent, ids, actor=owner, now=self._now(), purge_history=purge, jobs=jobs)
        return candidates

    def _as_stored(self, text: str, owner: str | None) -> str:
        """``text`` as a fact of ``owner`` is stored: a first-person statement in the third person, with the
        owner's display name (the agent's own facts, ``owner=None``, as written)."""
        if owner is None or not _FIRST_PERSON.search(text):
            return text
        from ..pipeline.attributes import third_person  # the pipeline loads when it is used
        from ..pipeline.stated import display_name

        name = display_name(self, owner)
        text = third_person(text, name, capitalize=False)
        return text if text.startswith(name) else text[:1].upper() + text[1:]  # "u7 likes tea" stays

    def forget_all(
        self,
        user: str | None = None,
        *,
        subject: str | None = None,
        category: str | None = None,
        thread: str | None = None,
        purge: bool = False,
    ) -> int:
        """Delete the facts ``user`` owns (``user=None``: the agent's own facts); returns how many.

        Never touches another agent, nor facts another user owns, shared or not.

        Example:
            >>> mem.forget_all("alice")
            1
        """
        flt = FactFilter(
            user=check_optional_key(user, "user"),
            owned_only=True,
            subject=check_optional_key(subject, "subject"),
            category=None if category is None else check_category(category),
            thread=check_optional_key(thread, "thread"),
            include_superseded=True,
        )
        ids = [f.id for f in self.store.list_facts(self.agent, flt, limit=None)]
        jobs = self.pipeline.after_fact_change(flt.user)
        return self.store.delete_facts(self.agent, ids, actor=user, now=self._now(), purge_history=purge, jobs=jobs)

    def fact_history(self, fact_id: int) -> list[FactChange]:
        """Every change made to a fact, oldest first (kept after the fact is forgotten).

        Raises:
            NotFound: the fact never existed in this agent.

        Example:
            >>> _ = mem.update_fact(1, importance=5, user="alice")
            >>> [change.action for change in mem.fact_history(1)]   # stated in her message, remembered, changed
            ['create', 'update', 'update']
        """
        changes = self.store.fact_history(self.agent, _check_id(fact_id))
        if not changes:
            raise self._no_fact(fact_id)
        return changes


def _clash(existing: Fact, fact: NewFact) -> bool:
    """Whether ``fact`` gives a metadata key of ``existing`` another value (then it is another fact)."""
    return any(k in fact.metadata and fact.metadata[k] != v for k, v in existing.metadata.items())


def _changed_fields(existing: Fact, fact: NewFact) -> dict[str, Any]:
    """The category, importance, visibility and metadata ``fact`` gives differently from ``existing``."""
    changes: dict[str, Any] = {
        name: getattr(fact, name)
        for name in ("category", "importance", "visibility")
        if getattr(fact, name) != getattr(existing, name)
    }
    if any(existing.metadata.get(k) != v for k, v in fact.metadata.items()):
        changes["metadata"] = {**existing.metadata, **fact.metadata}
    return changes


def _merge_tokens(text: str) -> frozenset[str]:
    """The words of ``text`` as near duplicates are compared: lower-cased, curly apostrophes straightened,
    punctuation and articles left out ("Bob likes jazz." and "bob likes the jazz" have the same)."""
    words = _TOKENS.findall(text.lower().replace("’", "'"))
    return frozenset(w for w in words if w not in _ARTICLES)


def _check_id(value: Any) -> int:
    return check_positive(value, f"an id must be a positive integer, not {value!r}")


def _visibility_of(owner: str | None, asked: str) -> str:
    """The visibility a new fact gets: as asked, but the agent's own facts (no owner) are always shared."""
    return "shared" if owner is None else asked
