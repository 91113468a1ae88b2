"""The search pipeline: understand the query, retrieve inside the scope, fuse, re-rank, show windows.

1. The query: a time expression ("last week", "in May") becomes a range relative to ``now`` and is taken out
   of the text the retrievers see (the words "last week" in an old message are about another week).
2. Every configured retriever returns a pool of candidates; all scope filters are applied inside the
   store, never after ranking. With a time range in ``soft`` mode each retriever also searches inside the
   range, so items of that time enter the pool even when others outrank them; ``hard`` mode searches only
   inside it. When the store takes concurrent reads (it has ``concurrent_reads = True``, as both built-in
   stores do: PostgreSQL from its connection pool, SQLite on a connection per thread), the retrievers'
   searches run at the same time on a small shared thread pool, and so do the loads of the fused
   candidates' records, while the search is the only one under way in the process; otherwise one after
   another. The results are the same. (Side by side, a search answers sooner on an idle process, but costs
   more CPU: its threads hand work over, and the calling thread reads ahead while the others run. Under load
   the other requests keep the cores busy anyway: one after another, a recall took 1.9 ms of CPU instead of
   2.4-2.9, bench/RESULTS.md, issue 39.)
3. The lists are fused (:mod:`.fusion`), the records loaded (the best message candidates' with the turns
   around them, the others' beside them), the turns just beyond those candidates' windows joined as
   candidates (``SearchConfig.beyond_window``), boosts applied (:mod:`.rerank`), near-copies dropped, and
   message hits widened into context windows (:mod:`.windows`). Messages are ranked and windowed by their
   light part (:class:`~memlane.types.MessageHead`: place, speaker, time, size); only the turns around the
   best candidates (read with their records, or ahead by the calling thread while the other searches still
   run, see ``Searcher._retrieve``) and the turns finally shown are read in full (a few dozen of the ~150
   candidates a recall ranks).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from operator import attrgetter
from typing import Any, TypeVar, cast

from ..errors import ConfigError
from ..pools import LazyPool
from ..store.base import Candidate, Scope, Store
from ..types import Fact, Message, MessageHead, Summary
from . import rerank
from .config import SearchConfig
from .fusion import NORMALIZERS, absolute, by_kind, linear, normalize_minmax, rrf
from .rerank import MESSAGE_ITEMS, Found, Ranked
from .timeparse import TimeRange, find_time_range
from .windows import WindowMerge, choose_window

__all__ = ["OPTIONAL_RETRIEVERS", "Retriever", "Searcher"]

#: Retrievers a config may name that exist only with the right dependency (an embedder).
OPTIONAL_RETRIEVERS = frozenset({"vector"})

#: A retriever: (agent, query, scope, limit) -> candidates, best first.
Retriever = Callable[[str, str, Scope, int], list[Candidate]]

T = TypeVar("T")
Record = Message | MessageHead | Fact | Summary
#: Records read for a search, by kind and id.
Records = dict[str, dict[int, Record]]
KINDS = ("message", "fact", "summary")
_score = attrgetter("score")
#: The process's search threads: the searches of one recall, two retrievers, twice with a time range.
_SEARCH_THREADS = LazyPool(4, "memlane-search")


class _Searches:
    """How many searches this process runs now (a search's steps go side by side only while it runs alone)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.running = 0

    @contextmanager
    def one(self) -> Iterator[None]:
        with self._lock:
            self.running += 1
        try:
            yield
        finally:
            with self._lock:
                self.running -= 1


_SEARCHES = _Searches()


def _start(calls: Sequence[Callable[[], T]]) -> list[Future[T] | None]:
    """Each call started on a free search thread, or None where none was free (the caller runs it itself).

    Never queued: the search threads' own reads run reads of their own (records, windows), and under load
    every search thread may be such a read waiting for its inner ones; queued behind them, those would never
    run (a server under 16 concurrent recalls hung that way).
    """
    return [_SEARCH_THREADS.try_submit(call) for call in calls]


def _run_unstarted(calls: Sequence[Callable[[], T]], futures: Sequence[Future[T] | None]) -> list[T | None]:
    """The results of the calls :func:`_start` found no thread for, run here in order (None for the others)."""
    return [call() if future is None else None for call, future in zip(calls, futures, strict=True)]


def _wait(futures: Sequence[Future[Any] | None]) -> None:
    for future in futures:
        if future is not None:
            future.exception()  # waits


def _result(future: Future[T] | None, found: T | None) -> T:
    return cast(T, found) if future is None else future.result()


class Searcher:
    """Runs a :class:`SearchConfig` against a store; new retrievers are registered by name."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.retrievers: dict[str, Retriever] = {"keyword": store.keyword_search}
        # A store that serves several reads at once says so; SQLite reads one at a time per store.
        self.concurrent = store.concurrent_reads
        #: Whether a search for a query will wait for something (its query's vector) long enough for its other
        #: steps to run meanwhile; None: assume it will. Side by side, a search's steps cost more CPU (~0.45 ms
        #: a recall), which pays only where there is a wait to hide (bench/RESULTS.md, issue 39).
        self.waits: Callable[[str], bool] | None = None
        self._local = threading.local()  # this thread's search: whether its steps may go side by side

    def search(
        self,
        agent: str,
        query: str,
        scope: Scope,
        limit: int,
        config: SearchConfig,
        *,
        now: datetime | None = None,
    ) -> list[Found]:
        """The best ``limit`` results for ``query`` within ``scope``, with their stored records.

        ``now`` anchors relative times in the query (default: the current time).

        Raises:
            ConfigError: the config names a retriever that is not registered.
        """
        with _SEARCHES.one():
            self._local.overlap = self.waits is None or self.waits(query)
            return self._search(agent, query, scope, limit, config, now)

    def _side_by_side(self) -> bool:
        """Whether a search's steps run at the same time: the store allows it, no other search is under way, and
        this one will wait for its query's vector (see :attr:`waits`)."""
        return self.concurrent and _SEARCHES.running <= 1 and getattr(self._local, "overlap", True)

    def _search(
        self, agent: str, query: str, scope: Scope, limit: int, config: SearchConfig, now: datetime | None
    ) -> list[Found]:
        now = now or datetime.now(UTC)
        if scope.metadata is not None and config.beyond_window:
            # No turn joins from beyond a window under a metadata filter, which is the store's to apply, never
            # the ranking's (a joined turn need not match it); nor is the turn beyond read.
            config = replace(config, beyond_window=0)
        when, text = (None, query) if config.time_mode == "off" else find_time_range(query, now)
        if not text.strip():
            text = query
        if when is not None and config.time_mode == "hard":
            narrowed = _narrow(scope, when)
            if narrowed is None:
                return []
            scope, when = narrowed, None
        scopes = [scope]
        if when is not None:
            inside = _narrow(scope, when)
            if inside is not None:
                scopes.append(inside)
        # Near-copies are found by their words: with dedup on, messages are read in full from the start.
        read = _Read(full=config.dedup_similarity < 1.0)
        lists: dict[str, list[Candidate]] = {}
        for name, found in self._retrieve(agent, text, scopes, limit, config, read):
            lists[name] = _union(lists[name], found) if name in lists else found
        if not lists:
            return []
        fused = self._fuse(lists, config)
        relevance = _relevance(lists, config) if config.calibrate else None
        ranked = self._load_around(agent, fused, limit, config, scope, read)
        if config.beyond_window:
            ranked = _beyond_windows(ranked, config, read)
        ranked = rerank.boost_speaker(ranked, rerank.query_words(query), config.speaker_boost, scope.user)
        ranked = rerank.boost_time(ranked, when, config.time_boost, config.time_slack_days)
        ranked = rerank.boost_recency(ranked, now, config.recency_weight, config.recency_half_life_days)
        ranked = rerank.boost_importance(ranked, config.importance_weight)
        if config.dedup_similarity < 1.0:
            ranked = rerank.dedup(ranked, config.dedup_similarity)
        ranked = rerank.boost_neighbours(
            ranked, config.neighbour_boost, config.neighbour_radius, config.neighbour_decay
        )
        if relevance is not None:
            ranked = _by_kind_relevance(ranked, relevance)
        if config.window_before or config.window_after:
            results = self._windows(agent, ranked, limit, config, scope, read)
        else:
            results = self._show(agent, ranked[:limit])
        results = rerank.without_repeated_profiles(results)
        return results if relevance is None else _scaled(results, relevance)

    # -- steps --------------------------------------------------------------------------------------
    def _retrieve(
        self, agent: str, text: str, scopes: Sequence[Scope], limit: int, config: SearchConfig, read: _Read
    ) -> list[tuple[str, list[Candidate]]]:
        """Each configured retriever's candidates for a search of ``limit`` results in each scope, in config
        order (scopes inner).

        With concurrent reads, the first search runs on this thread, the others on the pool. While they still
        run (the vector search waits for the query's embedding, ~8 ms of a small store's ~14), this thread
        reads ahead, into ``read``, what the rest of the search would read after them: the windows of the
        first search's candidates (with the candidates themselves, in full), best first, a chunk at a time
        until the others are done; without windows, its candidates' records. Only this thread reads ahead
        (measured: the search threads reading their own candidates' records made a recall slower, as two
        threads building records at once wait for each other's turn with the interpreter).
        """
        pool = config.pool_size(limit)
        calls: list[tuple[str, Callable[[], list[Candidate]]]] = []
        for name in config.retrievers:
            retriever = self.retrievers.get(name)
            if retriever is None:
                if name in OPTIONAL_RETRIEVERS:
                    continue  # e.g. no embedder configured: search with what there is
                raise ConfigError(f"search config {config.name!r} uses unknown retriever {name!r}")
            calls += [(name, partial(retriever, agent, text, scope, pool)) for scope in scopes]
        if len(calls) < 2 or not self._side_by_side():
            return [(name, call()) for name, call in calls]
        # Every call is waited for (so none outlives a failure of another) and the first failure is raised.
        # A call no search thread is free for runs on this thread after the first (see _start).
        futures = _start([call for _, call in calls[1:]])
        started = [future for future in futures if future is not None]

        def waiting() -> bool:
            return not all(future.done() for future in started)

        try:
            first = calls[0][1]()
            if waiting():
                if not any(_reach(config)):
                    self._read_records(agent, first, read.full, read.records)
                else:
                    step = _first_chunk(limit)  # the chunks the windows are built in: best first
                    for start in range(0, len(first), step):
                        if not waiting():
                            break
                        chunk = first[start : start + step]
                        self._read_windows(agent, [c.id for c in chunk if c.kind == "message"], config, scopes[0], read)
            here = _run_unstarted([call for _, call in calls[1:]], futures)
        finally:
            _wait(futures)
        results = [first, *(_result(future, found) for future, found in zip(futures, here, strict=True))]
        return [(name, found) for (name, _), found in zip(calls, results, strict=True)]

    def _read_windows(
        self, agent: str, anchors: Sequence[int], config: SearchConfig, scope: Scope, read: _Read
    ) -> None:
        """Read in full, into ``read``, the turns of ``scope`` around the messages ``anchors`` (their windows'
        and, with ``beyond_window``, one more on each side) and those messages themselves."""
        if not anchors:
            return
        before, after = _reach(config)
        records = read.records["message"]
        for m in self.store.message_windows(agent, anchors, before=before, after=after):
            if _in_time(m.created_at, scope):
                read.turns[(m.thread, m.seq)] = m
                # A candidate's record, should it be one (of any list): read in full, it is not read again to
                # be ranked or shown. A turn that is no candidate is never looked up there.
                records[m.id] = m
        read.windowed.update(anchors)

    def _read_records(self, agent: str, found: Sequence[Candidate], full: bool, records: Records) -> Records:
        """Add to ``records`` those of the candidates it lacks (a store call per kind, at the same time if
        the store allows it)."""
        ids: dict[str, list[int]] = {kind: [] for kind in KINDS}
        for cand in found:
            if cand.id not in records[cand.kind]:
                ids[cand.kind].append(cand.id)
        kinds = [kind for kind in KINDS if ids[kind]]
        loaded = self._all([partial(self._getter(kind, full), agent, ids[kind]) for kind in kinds])
        for kind, items in zip(kinds, loaded, strict=True):
            kept = records[kind]
            for item in items:
                kept.setdefault(item.id, item)  # a message read in full meanwhile (a window's turn) stays so
        return records

    def _getter(self, kind: str, full: bool) -> Callable[[str, Sequence[int]], Sequence[Record]]:
        if kind == "message":
            return self.store.get_messages if full else self.store.message_heads
        return self.store.get_facts if kind == "fact" else self.store.get_summaries

    def _all(self, calls: Sequence[Callable[[], T]]) -> list[T]:
        """The calls' results in order: at the same time if the store allows it, else one by one."""
        if len(calls) < 2 or not self._side_by_side():
            return [call() for call in calls]
        # The first call runs on this thread, the others on free search threads (else here, after it); every
        # call is waited for (so none outlives a failure of another) and the first failure is raised.
        futures = _start(calls[1:])
        try:
            first = calls[0]()
            here = _run_unstarted(calls[1:], futures)
        finally:
            _wait(futures)
        return [first, *(_result(future, found) for future, found in zip(futures, here, strict=True))]

    @staticmethod
    def _fuse(lists: dict[str, list[Candidate]], config: SearchConfig) -> list[Candidate]:
        if len(lists) == 1 and config.fusion == "rrf":
            (only,) = lists.values()
            # One retriever over several kinds: scores of different tables are not comparable, so each
            # kind is ranked on its own and the kinds are fused by rank.
            kinds = by_kind(only)
            if len(kinds) <= 1:
                return sorted(only, key=lambda c: -c.score)
            fused = rrf({k: sorted(v, key=lambda c: -c.score) for k, v in kinds.items()}, k=config.rrf_k)
            return [replace(c, source=only[0].source) for c in fused]  # found by the one retriever, not by a kind
        if config.fusion == "linear" and config.normalization == "absolute":
            # Scores that mean the same in every query: a keyword list of weak matches is weak by its own
            # scores (the share of the query it holds), so coverage needs no weighing of its own here.
            return linear(
                lists,
                weights=config.weights,
                kind_weights=config.kind_weights,
                scores_of=partial(absolute, cosine_floor=config.cosine_floor),
            )
        if config.fusion == "linear":
            normalize = NORMALIZERS[config.normalization]
            if config.normalization == "minmax":
                normalize = partial(normalize_minmax, min_spread=config.min_spread)
            return linear(
                lists,
                weights=config.weights,
                kind_weights=config.kind_weights,
                normalize=normalize,
                coverage=config.keyword_coverage,
            )
        return rrf(lists, k=config.rrf_k, weights=config.weights)

    def _load(
        self, agent: str, fused: Sequence[Candidate], *, full: bool = False, records: Records | None = None
    ) -> list[Ranked]:
        """The candidates with their records (those ``records`` lacks are read), messages as their heads
        unless ``full``; an item deleted meanwhile is skipped."""
        records = self._read_records(agent, fused, full, records or {kind: {} for kind in KINDS})
        return [
            Ranked(c.kind, c.id, c.score, c.source, item)
            for c in fused
            if (item := records[c.kind].get(c.id)) is not None
        ]

    def _load_around(
        self,
        agent: str,
        fused: Sequence[Candidate],
        limit: int,
        config: SearchConfig,
        scope: Scope,
        read: _Read,
    ) -> list[Ranked]:
        """The candidates with their records, as :meth:`_load`, and the turns around the best message
        candidates read in full in the same round: those the windows of the first hits need (the first
        ``_first_chunk(limit)``) and those just beyond the best ``config.beyond_window`` candidates' windows. Those
        candidates' own records come with their turns; the others' are read beside them (at the same time
        when the store allows it). So on PostgreSQL one round trip after the searches reads what used to
        take three (records, windows, then the shown turns in full)."""
        windowed = config.window_before or config.window_after
        count = max(config.beyond_window, _first_chunk(limit) if windowed else 0)
        anchors = _unread_anchors(fused, count, read)
        if anchors:
            ids = set(anchors)
            rest = [c for c in fused if c.kind != "message" or c.id not in ids]
            reads: list[Callable[[], object]] = [
                partial(self._read_windows, agent, anchors, config, scope, read),
                partial(self._read_records, agent, rest, read.full, read.records),
            ]
            self._all(reads)
        return self._load(agent, fused, full=read.full, records=read.records)

    def _show(self, agent: str, shown: Sequence[Ranked]) -> list[Found]:
        """The results with full records: the messages held as heads (items and window turns) read in
        one call. A hit whose message was deleted since it was ranked is dropped, and so is such a turn
        from a window."""
        heads = {t.id for r in shown for t in (r.item, *r.window) if isinstance(t, MessageHead)}
        full = {m.id: m for m in self.store.get_messages(agent, sorted(heads))} if heads else {}
        lost = len(full) < len(heads)
        out: list[Found] = []
        for r in shown:
            item = full.get(r.item.id) if isinstance(r.item, MessageHead) else r.item
            if item is None:
                continue
            if lost:
                window = tuple(
                    w for t in r.window if (w := full.get(t.id) if isinstance(t, MessageHead) else t) is not None
                )
            else:
                window = tuple([full[t.id] if isinstance(t, MessageHead) else t for t in r.window])
            out.append(Found(r.kind, r.id, r.score, r.source, item, window))
        return out

    def _windows(
        self,
        agent: str,
        ranked: list[Ranked],
        limit: int,
        config: SearchConfig,
        scope: Scope,
        read: _Read | None = None,
    ) -> list[Found]:
        """Widen message hits into windows, merging overlaps, until ``limit`` hits are filled; then the
        shown turns are read in full."""
        before, after = config.window_before, config.window_after
        # Neighbours already loaded as candidates are taken from there (the same rows: same agent, same
        # thread, in the scope); the store is asked only for the windows that still miss a turn, and
        # only for the turns of those windows not known yet.
        bounded = scope.since is not None or scope.until is not None
        nearby: dict[tuple[str, int], Message | MessageHead] = dict(read.turns) if read is not None else {}
        nearby.update(
            ((f.item.thread, f.item.seq), f.item)
            for f in ranked
            if isinstance(f.item, MESSAGE_ITEMS) and (not bounded or _in_time(f.item.created_at, scope))
        )
        windowed = read.windowed if read is not None else set()
        merge = WindowMerge[Ranked](limit, config.window_merge_max_tokens)
        # Windows are built a chunk of hits at a time (a store call per chunk at most), only until ``limit`` hits
        # are filled: merging makes that take a few more hits than ``limit`` (on LoCoMo, 31 for 25 at the
        # median), so the first chunk is a quarter larger and the next ones small.
        start, step = 0, _first_chunk(limit)
        while start < len(ranked) and not merge.full:
            batch = ranked[start : start + step]
            start, step = start + step, max(limit // 4, 4)
            self._fetch_windows(agent, batch, nearby, before, after, scope, windowed)
            for f in batch:
                if merge.full:
                    break
                if isinstance(f.item, MESSAGE_ITEMS):
                    item = f.item
                    around = {
                        s: turn
                        for s in range(item.seq - before, item.seq + after + 1)
                        if (turn := nearby.get((item.thread, s))) is not None
                    }
                    f = f.windowed(choose_window(item, around, before, after, config.window_max_tokens))
                merge.add(f)
        return self._show(agent, merge.out)

    def _fetch_windows(
        self,
        agent: str,
        batch: Sequence[Ranked],
        nearby: dict[tuple[str, int], Message | MessageHead],
        before: int,
        after: int,
        scope: Scope,
        windowed: Collection[int] = (),
    ) -> None:
        """Add to ``nearby`` the turns in the scope of the batch's windows that it misses (one store call,
        none when every window is known or was read already: ``windowed``, anchor ids)."""
        missing = [
            f.item
            for f in batch
            if isinstance(f.item, MESSAGE_ITEMS)
            and f.item.id not in windowed
            and not _covered(f.item, nearby, before, after)
        ]
        if not missing:
            return
        have = {
            nearby[(a.thread, s)].id
            for a in missing
            for s in range(a.seq - before, a.seq + after + 1)
            if (a.thread, s) in nearby
        }
        ids = [a.id for a in missing]
        for m in self.store.message_windows(agent, ids, before=before, after=after, skip=have):
            if _in_time(m.created_at, scope):
                nearby[(m.thread, m.seq)] = m


@dataclass
class _Read:
    """What one search has read of the store before it ranks: the candidates' records by kind and id
    (messages as heads unless ``full``), and turns read in full ahead of the windows, by (thread, seq),
    with the ids of the anchors whose whole windows they hold."""

    full: bool = False
    records: Records = field(default_factory=lambda: {kind: {} for kind in KINDS})
    turns: dict[tuple[str, int], Message] = field(default_factory=dict)
    windowed: set[int] = field(default_factory=set)


def _first_chunk(limit: int) -> int:
    """How many hits the windows are first built for: merging makes a search take a few more hits than
    ``limit`` (on LoCoMo, 31 for 25 at the median), so a quarter more."""
    return limit + limit // 4 + 1


def _unread_anchors(fused: Sequence[Candidate], count: int, read: _Read) -> list[int]:
    """The best ``count`` message candidates whose turns around them were not read yet."""
    best = [c.id for c in fused if c.kind == "message"][:count]
    return [i for i in best if i not in read.windowed]


def _beyond_windows(ranked: list[Ranked], config: SearchConfig, read: _Read) -> list[Ranked]:
    """``ranked`` with the turns just beyond the windows of its best ``config.beyond_window`` message
    candidates joined as candidates (see ``SearchConfig``), best first, from the turns ``read`` holds (those
    read around the best candidates, in the scope's time) and the candidates themselves.

    A joined turn is in the scope as its candidate is: the same thread (so the same user's threads),
    inside the scope's time.
    """
    top = [(r.score, r.item) for r in ranked if isinstance(r.item, MESSAGE_ITEMS)][: config.beyond_window]
    if not top:
        return ranked
    before, after = _reach(config)
    known: dict[tuple[str, int], Message | MessageHead] = dict(read.turns)
    known.update(((r.item.thread, r.item.seq), r.item) for r in ranked if isinstance(r.item, MESSAGE_ITEMS))
    ids = {r.id for r in ranked if r.kind == "message"}
    joined: list[Ranked] = []
    for score, item in top:
        for seq in (item.seq - before, item.seq + after):
            turn = known.get((item.thread, seq))
            if turn is None or turn.id in ids:
                continue
            ids.add(turn.id)
            joined.append(Ranked("message", turn.id, config.beyond_window_score * score, "nearby", turn))
    if not joined:
        return ranked
    return sorted([*ranked, *joined], key=_score, reverse=True)  # stable: ties keep their order


def _reach(config: SearchConfig) -> tuple[int, int]:
    """How many turns before and after a message candidate a search reads: its window's, and with
    ``beyond_window`` the turn just beyond it on each side."""
    beyond = 1 if config.beyond_window else 0
    return config.window_before + beyond, config.window_after + beyond


def _narrow(scope: Scope, when: TimeRange) -> Scope | None:
    """The scope limited to the range (None when the two do not overlap)."""
    since = max(scope.since, when.start) if scope.since else when.start
    until = min(scope.until, when.end) if scope.until else when.end
    if since >= until:
        return None
    return replace(scope, since=since, until=until)


def _covered(
    anchor: Message | MessageHead, known: dict[tuple[str, int], Message | MessageHead], before: int, after: int
) -> bool:
    """Whether every turn of the anchor's window is already known: loaded and in the scope, or before
    the thread's first turn (seq numbers start at 1). A turn not loaded may exist: the anchor then goes
    to the store."""
    return all(
        s < 1 or (anchor.thread, s) in known
        for s in range(anchor.seq - before, anchor.seq + after + 1)
        if s != anchor.seq
    )


def _relevance(lists: dict[str, list[Candidate]], config: SearchConfig) -> dict[tuple[str, int], float]:
    """How well each candidate matches the query, on a scale that means the same in every query: the best of
    its absolute scores (:func:`.fusion.absolute`) in the lists, each times its list's weight (for its kind) over the
    largest weight. The best, not the sum: a paraphrase holding no word of the query ("is there a dog in the
    family?" for "we adopted a golden retriever puppy") answers it as well as a match of its words does."""
    best: dict[tuple[str, int], float] = {}
    for name, found in lists.items():
        for kind, group in by_kind(found).items():
            weights = config.weights_of(kind)
            top = max((weights.get(other, 1.0) for other in lists), default=1.0) or 1.0
            weight = weights.get(name, 1.0) / top
            for cand, value in zip(group, absolute(name, group, config.cosine_floor), strict=True):
                key = (cand.kind, cand.id)
                best[key] = max(best.get(key, 0.0), weight * value)
    return best


def _by_kind_relevance(ranked: list[Ranked], relevance: dict[tuple[str, int], float]) -> list[Ranked]:
    """The candidates of every kind on one scale: each kind's scores scaled so that its best shows the best
    absolute relevance among that kind's candidates, then all of them in that order. Each kind is ranked
    within itself (its scores min-max normalised against its own); which kind comes first is a matter of
    how well each answers the query, so that a lone message of a small store, its kind's best by default,
    does not outrank the fact that answers the question."""
    kinds = {r.kind for r in ranked}
    if len(kinds) < 2:
        return ranked
    factors: dict[str, float] = {}
    for kind in kinds:
        top = max((r.score for r in ranked if r.kind == kind), default=0.0)
        best = max((v for (k, _), v in relevance.items() if k == kind), default=0.0)
        factors[kind] = best / top if top > 0 else 0.0
    scaled = [r.rescored(r.score * factors[r.kind]) for r in ranked]
    return sorted(scaled, key=lambda r: r.score, reverse=True)  # stable: ties keep their order


#: How many of the first hits set the scale of a result's scores (:func:`_scaled`).
LEADING_HITS = 2


def _scaled(found: list[Found], relevance: dict[tuple[str, int], float]) -> list[Found]:
    """The results with scores that mean the same in every query, best first: the first shows the better
    absolute relevance of the first :data:`LEADING_HITS` hits, each other the larger of its share of the
    ranking's score (min-max normalised, boosted) on that scale and its own relevance, but never more than
    the hit before it. The ranking's own scores tell hits of one query apart, not how well any of them answers
    it; and min-max puts the last of a kind at about 0 even when it matches the query as well as the first.

    The scale comes from the leading hits, not from the best match anywhere in the list: a list whose first
    hits match nothing is a list for a query nothing answers, even when a hit further down happens to hold one
    of its words ("over the moon" for "How many moons does Neptune have?"); taking the best anywhere gave that
    word's share to the first hit, so no floor could leave the list out (bench/RESULTS.md, issue 38)."""
    top = max((f.score for f in found), default=0.0)
    best = max((relevance.get((f.kind, f.id), 0.0) for f in found[:LEADING_HITS]), default=0.0)
    factor = best / top if top > 0 else 0.0
    out: list[Found] = []
    before = best
    for f in found:
        score = min(before, max(f.score * factor, relevance.get((f.kind, f.id), 0.0)))
        out.append(f.rescored(score))
        before = score
    return out


def _in_time(moment: datetime, scope: Scope) -> bool:
    return (scope.since is None or moment >= scope.since) and (scope.until is None or moment < scope.until)


def _union(first: list[Candidate], second: list[Candidate]) -> list[Candidate]:
    """One retriever's two lists as one, best score first (a retriever scores an item the same in both)."""
    seen = {(c.kind, c.id) for c in first}
    return sorted([*first, *(c for c in second if (c.kind, c.id) not in seen)], key=lambda c: -c.score)
