"""Recall and context: the part of :class:`~memlane.Memory` that finds what is relevant and assembles
the token-budgeted context for the next model call."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, overload

from ..context import ABOUT, Context, Section, assemble, rank_facts
from ..errors import InvalidInput, StorageError
from ..pipeline.extractive import is_filler
from ..retrieval import Found, SearchConfig, get_preset
from ..store import FactFilter, Scope
from ..texts import shown_text
from ..types import Fact, Hit, HitGroup, Message, Summary, Thread
from ..validation import check_content, check_key, check_metadata_filter, check_optional_key
from .base import KINDS, MemoryBase, aware, check_positive

__all__ = ["RecallMixin"]

log = logging.getLogger(__name__)

_CONTEXT_SUMMARIES = 3  # rolling summaries context() shows at most
_CONTEXT_RECALL = 8  # items context() recalls for a query at most
_CONTEXT_PINNED = 20  # system messages older than the window that context() keeps at most


class RecallMixin(MemoryBase):
    """Search the memory (:meth:`recall`) and build what the model sees next (:meth:`context`)."""

    @overload
    def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: None = None,
        min_score: float | None = None,
    ) -> list[Hit]: ...

    @overload
    def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: Literal["thread"],
        min_score: float | None = None,
    ) -> list[HitGroup]: ...

    def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: Literal["thread"] | None = None,
        min_score: float | None = None,
    ) -> list[Hit] | list[HitGroup]:
        """The ``limit`` memories most relevant to ``query``: messages, facts and summaries the scope allows,
        best first, each with its provenance (thread, message ids, created_at, metadata).

        Search follows ``preset`` (a name from :data:`memlane.retrieval.PRESETS` or a
        :class:`~memlane.retrieval.SearchConfig`; default: the ``search_preset`` setting). The default
        fuses keyword (BM25) and semantic search, favours items by or about a person the query names
        (a query in the first person, "what do I like?", names ``user``), and shows each message with its
        neighbouring turns (see :class:`~memlane.types.Hit`).

        A time the query names ("last week", "yesterday", "in May", "two days ago", "in 2023") is read
        relative to ``now`` (default: the memory's clock) and favours items of that time. ``since`` /
        ``until`` are hard limits on when items were created.

        ``user`` limits facts to the user's own, shared and agent-level ones, and messages and thread
        summaries to the threads the user wrote in; naming a ``thread`` the user never wrote in does not
        widen that (its messages and summaries are not returned, only the facts the user may see).
        ``kinds`` picks among "message", "fact", "summary".
        ``metadata`` keeps only items whose metadata holds each ``key: value`` given (top-level keys,
        string/number/boolean/None values; e.g. ``{"channel": "#general"}``), inside the search.
        A message is found as soon as :meth:`add_message` has returned.

        A hit's ``score`` means the same in every query under the default preset: about 0 when nothing of
        the query matched, near 1 when all of its words and meaning did (boosts for a named person, time or
        neighbouring turn may lift it a little beyond). Hits scoring below ``min_score`` are left out, so a
        query nothing answers returns ``[]``; default: the ``min_score`` setting, unset: 0.08 with the local
        model it was calibrated with (another embedder, or none, has no default floor), which applies to
        presets whose scores are calibrated (:attr:`SearchConfig.calibrated`; a given ``min_score`` applies to
        any preset). ``min_score=0`` turns the floor off. Only the facts returned count as recalled (their
        access count and time).

        ``group_by="thread"`` returns the same hits as :class:`~memlane.types.HitGroup` objects, one per
        thread (facts without a thread form a group with ``thread=None``), best group first, each
        group's hits in the order they happened.

        Raises:
            InvalidInput: empty query, bad limit, kind, metadata filter, group_by or min_score (a number in
                [0, 1]); ``since`` not before ``until``. ConfigError: unknown preset.

        Example:
            >>> for hit in mem.recall("Where does Alice like hiking?", user="alice"):
            ...     print(hit.kind, hit.text)
            fact Alice loves hiking in the Alps
            message Alice: Hi, I'm Alice. I love hiking in the Alps.
            assistant: Nice to meet you, Alice! Which trail is your favourite?
        """
        return self._recall(
            query,
            user=user,
            thread=thread,
            limit=limit,
            kinds=kinds,
            since=since,
            until=until,
            include_superseded=include_superseded,
            metadata=metadata,
            preset=preset,
            now=now,
            group_by=group_by,
            min_score=min_score,
        )

    def _recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: Literal["thread"] | None = None,
        min_score: float | None = None,
        turns: dict[int, Message] | None = None,
    ) -> list[Hit] | list[HitGroup]:
        """:meth:`recall`; given ``turns``, the messages the hits show (each hit's own and its window's) are
        added to it by id, as read for the search (``context()`` tidies the hits with them, not read again)."""
        text = check_content(query, "query", self.settings.max_content_chars)
        check_positive(limit, "limit must be a positive integer")
        if group_by not in (None, "thread"):
            raise InvalidInput(f"group_by must be 'thread' or None, not {group_by!r}")
        floor = _check_min_score(min_score)
        wanted = tuple(kinds) if kinds is not None else KINDS
        bad = [k for k in wanted if k not in KINDS]
        if bad:
            raise InvalidInput(f"unknown kinds {bad}; use {', '.join(KINDS)}")
        for name, moment in (("since", since), ("until", until)):
            if moment is not None and not isinstance(moment, datetime):
                raise InvalidInput(f"{name} must be a datetime, not {type(moment).__name__}")
        since, until = (None if since is None else aware(since)), (None if until is None else aware(until))
        if since is not None and until is not None and since >= until:
            raise InvalidInput(f"since ({since.isoformat()}) must be before until ({until.isoformat()})")
        user, thread = check_optional_key(user, "user"), check_optional_key(thread, "thread")
        if user is not None and thread is not None and wanted != ("fact",):
            found_thread = self.store.get_thread(self.agent, thread)
            if found_thread is None or user not in found_thread.users:  # not the user's conversation
                wanted = tuple(k for k in wanted if k == "fact")
                if not wanted:
                    return []
        scope = Scope(
            user=user,
            thread=thread,
            kinds=wanted,
            since=since,
            until=until,
            include_superseded=include_superseded,
            metadata=check_metadata_filter(metadata),
        )
        config = preset if isinstance(preset, SearchConfig) else get_preset(preset or self.settings.search_preset)
        at = self._now() if now is None else aware(now)
        found = self.searcher.search(self.agent, text, scope, limit, config, now=at)
        if floor is None and config.calibrated:
            from ..config import CALIBRATED_MODELS, MIN_SCORE  # loaded with the first Memory's settings

            floor = self.settings.min_score
            if floor is None and getattr(self.embedder, "model", None) in CALIBRATED_MODELS:
                floor = MIN_SCORE
        if floor:
            found = [f for f in found if f.score >= floor]
        hits = self._hydrate(found)
        if turns is not None:
            for f in found:
                if isinstance(f.item, Message):
                    turns[f.item.id] = f.item
                turns.update((m.id, m) for m in f.window)
        self._touch_facts([h.id for h in hits if h.kind == "fact"])
        return _group_by_thread(hits) if group_by == "thread" else hits

    def _hydrate(self, found: Sequence[Found]) -> list[Hit]:
        hits: list[Hit] = []
        for f in found:
            retrievers = tuple(s for s in f.source.split("+") if s)
            if isinstance(f.item, Message):
                hit = _message_hit(f.item, f.score, f.window, retrievers)
            elif isinstance(f.item, Fact):
                hit = _fact_hit(f.item, f.score, retrievers)
            else:
                hit = _summary_hit(f.item, f.score, retrievers)
            hits.append(hit)
        return hits

    def context(
        self,
        thread: str,
        *,
        query: str | None = None,
        user: str | None = None,
        budget: int | None = None,
        system_prompt: str | None = None,
    ) -> Context:
        """Assemble what to send to the model next, never more than ``budget`` tokens (default
        ``max_history_tokens``): system prompt (given, else the thread's), the latest rolling summaries
        of what the recent window does not show, facts ``user`` may see (the most relevant to ``query``
        first), messages and rolling summaries recalled for ``query`` from outside the recent window (from
        the threads ``user`` took part in; without ``user``, those of the thread's only user, else from
        this thread alone), the pipeline's sections, the thread's system messages older than the recent
        window (the newest 20, kept ahead of the recent messages), and as many recent messages as fit. The
        ``strategy`` setting trims this: ``summarization`` keeps the prompt, the summaries and the recent
        messages, ``simple`` the prompt and the recent messages only (a plain window).

        Raises:
            InvalidInput: bad budget, or the system prompt alone exceeds it.

        Example:
            >>> ctx = mem.context("general", query="Plan a weekend for me", user="alice", budget=500)
            >>> ctx.tokens <= 500
            True
            >>> [m["role"] for m in ctx.to_messages()]
            ['system', 'user', 'assistant']
        """
        key = check_key(thread, "thread")
        budget = check_positive(
            self.settings.max_history_tokens if budget is None else budget, "budget must be a positive integer"
        )
        viewer = check_optional_key(user, "user")
        info = self.store.get_thread(self.agent, key)
        prompt = system_prompt if system_prompt is not None else (info.system_prompt if info else "") or ""
        recent = self.store.messages(self.agent, key, limit=self.settings.max_messages_in_context)
        # A few more than shown: those the recent window repeats word for word are left out below.
        strategy = self.settings.strategy
        summaries = (
            []
            if strategy == "simple"
            else self.store.summaries(self.agent, thread=key, kind="rolling", limit=2 * _CONTEXT_SUMMARIES)
        )
        full = strategy == "hybrid"
        # The hybrid strategy keeps the thread's system messages always: those older than the window are pinned.
        pinned = (
            self.store.messages(self.agent, key, before_seq=recent[0].seq, roles=("system",), limit=_CONTEXT_PINNED)
            if full and recent
            else []
        )
        facts = self._context_facts(viewer, query) if full else []
        hits = self._context_recall(query, key, viewer, info, summaries, recent) if full else []
        sections = self.pipeline.context_sections(key, viewer, query) if full else []
        about = self._user_section(viewer)
        if about is not None:
            sections = [about, *sections]

        def build(exclude: set[int], window_from: int | None) -> Context:
            # A summary whose whole range is in the recent window says again what the window shows.
            shown = [s for s in summaries if window_from is None or s.from_seq is None or s.from_seq < window_from]
            return assemble(
                tokenizer=self.tokenizer,
                budget=budget,
                system_prompt=prompt,
                summaries=list(reversed(shown[:_CONTEXT_SUMMARIES])),
                facts=facts,
                recalled=[h for h in hits if h.message_id not in exclude],
                recent=recent,
                extra_sections=sections,
                counts=self._token_counts,
                pinned=pinned,
            )

        # Recalled messages already in the window are not repeated; but a recent message the budget
        # left out may come back as a recalled item, and what the budget keeps of the window decides
        # which summaries repeat it: fit once, then again against what was kept.
        first = recent[0].seq if recent else None
        ctx = build({m.id for m in recent}, first)
        window = [m for m in ctx.messages if first is not None and m.seq >= first]  # the pinned ones are older
        kept = window[0].seq if window else None
        skipped = first is not None and any(
            s.from_seq is not None and s.from_seq >= first and (kept is None or s.from_seq < kept) for s in summaries
        )  # a summary left out as repeating the window, whose messages the budget then left out too
        if (hits and ctx.dropped_messages) or skipped:
            # The recalled items chosen now may take fewer tokens than before (a short one may now come
            # first and a long one no longer fit), so the window may keep more of its turns, one of them
            # recalled too: those are excluded in turn until none is shown twice (each round excludes at
            # least one more hit, so this ends).
            exclude = {m.id for m in ctx.messages}
            for _ in range(len(hits) + 1):
                ctx = build(exclude, kept)
                shown = {m.id for m in ctx.messages}
                if not any(h.message_id in shown for h in ctx.recalled):
                    break
                exclude |= shown
        self._touch_facts([f.id for f in ctx.facts])
        return ctx

    def _touch_facts(self, ids: Sequence[int]) -> None:
        """Record that facts were used (their access count and time). A read must not fail for want of this
        bookkeeping write (a full disk, a store locked by a long write): it is logged and skipped."""
        if not ids:
            return
        try:
            self.store.touch_facts(self.agent, ids, self._now())
        except StorageError as exc:
            log.warning("could not record that %d facts were used: %s", len(ids), exc)

    def _context_recall(
        self,
        query: str | None,
        key: str,
        viewer: str | None,
        info: Thread | None,
        summaries: Sequence[Summary],
        recent: Sequence[Message] = (),
    ) -> list[Hit]:
        """Messages and rolling summaries ``context()`` recalls for ``query`` (none without a query)."""
        if not query or not query.strip():
            return []
        # Without a viewer, the thread's only user stands in; with none or several, only this thread
        # is searched (any other may be some other user's private conversation). Memories and
        # profiles have sections of their own: only messages and rolling summaries are recalled.
        owner = viewer or (info.users[0] if info is not None and len(info.users) == 1 else None)
        turns: dict[int, Message] = {}
        found = self._recall(
            query,
            user=owner,
            thread=None if owner else key,
            limit=_CONTEXT_RECALL + 2,
            kinds=("message", "summary"),
            turns=turns,
        )
        recalled = [h for h in found if isinstance(h, Hit) and _recallable(h, summaries)]
        return self._tidy_recalled(recalled, recent, turns)[:_CONTEXT_RECALL]

    def _tidy_recalled(
        self, hits: Sequence[Hit], recent: Sequence[Message], turns: dict[int, Message] | None = None
    ) -> list[Hit]:
        """The recalled hits without filler and without repeats: a turn that is filler ("Noted.", "ok number
        12") or already shown (in the recent window or a better hit's window) leaves its window, and a hit
        whose own turn goes goes with it. Windows are rebuilt from their remaining turns. ``turns``: the
        hits' messages as the search read them (those missing are read)."""
        shown = {m.id for m in recent}
        ids = [i for h in hits if h.kind == "message" for i in (h.message_ids or (h.id,))]
        turns = dict(turns or {})
        missing = [i for i in ids if i not in turns]
        if missing:
            turns.update((m.id, m) for m in self.store.get_messages(self.agent, missing))
        out: list[Hit] = []
        for hit in hits:
            if hit.kind != "message":
                out.append(hit)
                continue
            window = [turns[i] for i in (hit.message_ids or (hit.id,)) if i in turns]
            kept = [m for m in window if m.id not in shown and (m.tool_calls or not is_filler(m.content))]
            shown.update(m.id for m in window)
            anchor = turns.get(hit.id)
            if anchor is None or all(m.id != anchor.id for m in kept):
                continue  # its own turn is filler, or shown already
            if len(kept) == len(window):
                out.append(hit)
            else:
                out.append(_message_hit(anchor, hit.score, kept, hit.retrievers))
        return out

    def _context_facts(self, viewer: str | None, query: str | None) -> list[Fact]:
        """The facts ``viewer`` may see, in the order ``context()`` gives them its budget
        (:func:`~memlane.context.rank_facts`: importance, relevance to ``query``, decay)."""
        listed = self.store.list_facts(self.agent, FactFilter(user=viewer), limit=50)
        if not listed:
            return listed  # no fact the viewer may see: none to search for (a new user's every context)
        ranked: list[Fact] = []
        scores: dict[int, float] = {}
        if query and query.strip():
            relevant = self.searcher.search(
                self.agent,
                query,
                Scope(user=viewer, kinds=("fact",)),
                20,
                get_preset(self.settings.search_preset),
                now=self._now(),
            )
            ranked = [f.item for f in relevant if isinstance(f.item, Fact)]
            best = max((f.score for f in relevant if isinstance(f.item, Fact)), default=0.0)
            if best > 0:
                scores = {f.item.id: max(0.0, f.score / best) for f in relevant if isinstance(f.item, Fact)}
        first = {f.id for f in ranked}
        return rank_facts(
            ranked + [f for f in listed if f.id not in first],
            scores,
            now=self._now(),
            decay_days=self.settings.memory_decay_days,
        )

    def _user_section(self, user: str | None) -> Section | None:
        """What the user asked the bot to keep in mind (their user record), for the system message."""
        record = self.store.get_user(self.agent, user) if user is not None else None
        if record is None or not (record.persona or record.custom_context):
            return None
        lines = []
        if record.persona:
            lines.append(f"Preferred persona: {record.persona}")
        if record.custom_context:
            lines.append(record.custom_context)
        return Section(f"About {user}", lines, share=0.05, priority=ABOUT)

    def summaries(
        self, thread: str | None = None, *, kind: str | None = None, limit: int | None = None
    ) -> list[Summary]:
        """Stored summaries, newest first.

        Example:
            >>> mem.summaries("general")
            []
        """
        return self.store.summaries(self.agent, thread=check_optional_key(thread, "thread"), kind=kind, limit=limit)


def _check_min_score(value: float | None) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise InvalidInput(f"min_score must be a number in [0, 1], not {value!r}")
    return float(value)


def _recallable(hit: Hit, summaries: Sequence[Summary]) -> bool:
    """Whether ``context()`` shows a recalled hit: messages, and rolling summaries it does not show as
    such already (memories and profiles have sections of their own)."""
    if hit.kind != "summary":
        return True
    return hit.metadata.get("summary_kind") == "rolling" and all(s.id != hit.id for s in summaries)


def _message_hit(m: Message, score: float, window: Sequence[Message] = (), retrievers: tuple[str, ...] = ()) -> Hit:
    """A message hit; with a window of several turns, one ``speaker: content`` line per turn."""
    shown = tuple(window) or (m,)
    if len(shown) == 1:
        text = shown_text(m.content, m.tool_calls)
    else:
        text = "\n".join(f"{_speaker(w)}: {shown_text(w.content, w.tool_calls)}" for w in shown)
    return Hit(
        kind="message",
        id=m.id,
        text=text,
        score=score,
        thread=m.thread,
        message_id=m.id,
        created_at=m.created_at,
        metadata=m.metadata,
        user=(m.name or m.user) if len(shown) == 1 else None,
        seq=m.seq,
        message_ids=tuple(w.id for w in shown),
        retrievers=retrievers,
    )


def _speaker(m: Message) -> str:
    return m.name or m.user or m.role


def _group_by_thread(hits: Sequence[Hit]) -> list[HitGroup]:
    """Hits gathered per thread, groups in order of their best hit, hits in the order they happened."""
    groups: dict[str | None, list[Hit]] = {}
    for hit in hits:
        groups.setdefault(hit.thread, []).append(hit)
    return [
        HitGroup(
            thread=thread,
            score=max(h.score for h in members),
            hits=tuple(sorted(members, key=lambda h: (h.created_at, h.seq or 0, h.id))),
        )
        for thread, members in groups.items()
    ]


def _fact_hit(f: Fact, score: float, retrievers: tuple[str, ...] = ()) -> Hit:
    return Hit(
        kind="fact",
        id=f.id,
        text=f.content,
        score=score,
        thread=f.source_thread,
        message_id=None,
        created_at=f.created_at,
        metadata={
            **f.metadata,
            "category": f.category,
            "importance": f.importance,
            "visibility": f.visibility,
            "from_seq": f.source_from_seq,
            "to_seq": f.source_to_seq,
        },
        user=f.owner,
        retrievers=retrievers,
    )


#: What a profile's metadata holds for the pipeline only (which facts it covers), never shown in a hit.
_PROFILE_INTERNALS = frozenset({"signature", "covered"})


def _is_profile(item: object) -> bool:
    return isinstance(item, Summary) and item.kind == "profile" and item.thread is None


def _summary_hit(s: Summary, score: float, retrievers: tuple[str, ...] = ()) -> Hit:
    if _is_profile(s):
        # A profile's from_seq / to_seq are keys the store dedupes it by (hashes), not a range of turns.
        shown = {k: v for k, v in s.metadata.items() if k not in _PROFILE_INTERNALS}
        metadata = {**shown, "summary_kind": s.kind}
    else:
        metadata = {**s.metadata, "from_seq": s.from_seq, "to_seq": s.to_seq, "summary_kind": s.kind}
    return Hit(
        kind="summary",
        id=s.id,
        text=s.content,
        score=score,
        thread=s.thread,
        message_id=None,
        created_at=s.created_at,
        metadata=metadata,
        user=s.owner,
        retrievers=retrievers,
    )
