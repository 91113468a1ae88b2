"""Keyword search of the SQLite backend (a mixin of :class:`~memlane.store.sqlite.SQLiteStore`): FTS5
queries over ``messages_fts``, ``facts_fts`` and ``summaries_fts`` (see :mod:`memlane.store.sqlite.schema`),
ranked by bm25; messages by the IDFs of the query's words they hold (a BM25 of FTS5 weighed to count just
that, ``_HELD``), or, in a large agent's whole-agent search, by their vectors.

Scopes are hard filters of each query: scope tokens in the MATCH expression where the index holds them
(agent, thread, owner, visibility, status), else SQL conditions on the item's table (a user's many threads,
a summary's visibility, time ranges).
"""

from __future__ import annotations

import math
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .._common import bm25_idf, fmt_time, query_terms, rarest_within
from ..base import Candidate, QueryVector, Scope
from .common import SQLiteHost, metadata_where, summary_visibility
from .schema import agent_terms

__all__ = ["SQLiteSearch"]

#: Most thread tokens a user-scoped search puts in its FTS5 query before it filters by SQL instead.
_MAX_SCOPE_TOKENS = 256

#: A message's BM25 score: content words count fully, the speaker's name half, the scope tokens not at all.
_BM25 = "bm25(messages_fts, 1.0, 0.5, 0.0)"
#: The IDFs of the query's words a message holds, times ``_K1_PLUS_1``. FTS5's BM25 gives each word
#: ``IDF * f * (k1 + 1) / (f + k1 * (1 - b + b * length / average))``, ``f`` the word's occurrences times its
#: column's weight: with weights of a million that is ``IDF * (k1 + 1)`` less a part in ~10^6 per average
#: length, whatever the message's length and how often it repeats the word, which then only break ties. BM25
#: itself lets a short message repeating an ordinary word of the question outrank a longer one holding
#: its rarest (LoCoMo and the preference cases: bench/RESULTS.md, round 10).
_HELD = "bm25(messages_fts, 1e6, 5e5, 0.0)"
_K1_PLUS_1 = 2.2  # FTS5's k1 is 1.2


@dataclass(frozen=True, slots=True)
class KeywordPlan:
    """The words of a whole-agent keyword search: ``choose`` picks the messages ranked, ``rank`` ranks them
    (by BM25); ``newest`` when not all the messages holding the chosen words may be ranked, how many (the
    newest) are; ``large`` when the agent is large enough for these rules (else every word does both)."""

    choose: list[str]
    rank: list[str]
    newest: int | None = None
    large: bool = True


class CommonWords:
    """The words of a whole-agent query worth searching a large agent's messages for.

    FTS5 reads and ranks every message holding any word of the query (~1.5 µs a message on these machines),
    and BM25 gives a word in many messages little weight anyway: an agent-wide search at 1M messages took
    ~190 ms median with all the words, most of it ranking messages that hold a common word and nothing
    else the query asks (bench/RESULTS.md, "Whole-agent recall at scale"). So a search over the whole of
    an agent with at least :attr:`LARGE_AGENT` messages ranks only the messages holding one of the query's
    rarest words, rarest first while those messages stay within :attr:`POSTINGS_BUDGET`, by every word of
    the query (ranked by the rare words alone, the shortest messages holding one won and answers were lost).
    When no word fits, the rarest stays if it fits four budgets, and only its newest
    :attr:`NEWEST_RANKED` messages are ranked; past four budgets the messages are searched by vector only
    (``rarest_within``). A word in more than :attr:`RANK_MAX_SHARE` of the agent's messages does not rank
    either. Given the query's vector, the chosen messages are ranked by their vectors instead of BM25, which
    costs less a message and finds more with fewer of them: then the budgets are
    :attr:`VECTOR_POSTINGS_BUDGET` and :attr:`VECTOR_NEWEST_RANKED`. It is approximate, as the vector index of
    such searches is; a scope of a user or a thread searches with every word, its scope token already
    limiting what is ranked. The PostgreSQL backend leaves out common words for its own reason (``ts_rank``
    has no IDF). Counts are taken with the index's own tokenizer (a ``count(*)`` of the word's matches, up to
    the most the rules need to tell apart) and kept :attr:`REFRESH_SECONDS`.
    """

    #: A whole-agent search of an agent with at least this many messages ranks at most about
    #: ``POSTINGS_BUDGET`` messages.
    LARGE_AGENT = 10_000
    POSTINGS_BUDGET = 5_000
    #: Most messages of a rarest word past the budget that are ranked, the newest (ranking all of a word
    #: in 20,000 messages took up to ~50 ms at 1M; 10,000 kept 0.64 of the exact keyword top 10, against
    #: 0.66 with all and 0.59 with 5,000: bench/RESULTS.md).
    NEWEST_RANKED = 10_000
    #: The same two when the messages are ranked by their vectors: at 1M, 2,000 / 4,000 found as many
    #: answers as 5,000 / 10,000 and more than an exact BM25 search, in a third of the time
    #: (bench/RESULTS.md, "Round 3").
    VECTOR_POSTINGS_BUDGET = 2_000
    VECTOR_NEWEST_RANKED = 4_000
    REFRESH_SECONDS = 300.0
    #: A word in more than this share of the agent's messages does not rank them either: BM25 weighs it
    #: little, and counting its messages, which BM25 does on every query, cost up to ~50 ms at 1M.
    RANK_MAX_SHARE = 0.1
    _MAX_WORDS = 50_000  # counts kept before the cache starts over

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # (agent, word) -> (when, messages, cap): a count equal to its cap means "at least"
        self._counts: dict[tuple[int, str], tuple[float, int, int]] = {}
        self._sizes: dict[int, tuple[float, int]] = {}  # agent -> (when, its messages)

    def distinctive(
        self, conn: sqlite3.Connection, agent_id: int, terms: Sequence[str], *, by_vector: bool = False
    ) -> KeywordPlan:
        size = self._size(conn, agent_id)
        if size < self.LARGE_AGENT:
            return KeywordPlan(list(terms), list(terms), large=False)
        budget, newest = self.POSTINGS_BUDGET, self.NEWEST_RANKED
        if by_vector:
            budget, newest = self.VECTOR_POSTINGS_BUDGET, self.VECTOR_NEWEST_RANKED
        # A word past four budgets is never chosen, and (BM25 only) past the share never ranks: counting
        # stops at the larger of the two, so the commonest words cost no more than that to count.
        cap = 4 * budget + 1 if by_vector else int(max(4 * budget, self.RANK_MAX_SHARE * size)) + 1
        counts = {t: self._count(conn, agent_id, t, cap) for t in terms}
        rare = rarest_within(terms, counts.__getitem__, budget)
        rank = [t for t in terms if t in rare or counts[t] <= self.RANK_MAX_SHARE * size]
        return KeywordPlan(rare, rank, newest if sum(counts[t] for t in rare) > newest else None)

    def counts(self, conn: sqlite3.Connection, agent_id: int, terms: Sequence[str]) -> list[int | None]:
        """How many of the agent's messages hold each term, for the terms' IDFs, from the cache (a count
        of a word in 339 messages took ~0.1 ms): counted up to four vector budgets or the agent's size,
        whichever is smaller (the whole-agent search's counts are shared), None for a word past that (its
        IDF is small, and counting all of a word in 500,000 messages took ~45 ms)."""
        cap = min(self._size(conn, agent_id), 4 * self.VECTOR_POSTINGS_BUDGET) + 1
        return [n if (n := self._count(conn, agent_id, t, cap)) < cap else None for t in terms]

    def _size(self, conn: sqlite3.Connection, agent_id: int) -> int:
        now = time.monotonic()
        with self._lock:
            hit = self._sizes.get(agent_id)
        if hit is not None and now - hit[0] < self.REFRESH_SECONDS:
            return hit[1]
        value = _agent_messages(conn, agent_id)
        with self._lock:
            self._sizes[agent_id] = (now, value)
        return value

    def _count(self, conn: sqlite3.Connection, agent_id: int, term: str, cap: int) -> int:
        """How many of the agent's messages hold ``term``, or ``cap`` if at least that many."""
        now = time.monotonic()
        with self._lock:
            hit = self._counts.get((agent_id, term))
        if hit is not None and now - hit[0] < self.REFRESH_SECONDS and (hit[1] < hit[2] or hit[2] >= cap):
            return min(hit[1], cap)
        value = _messages_with(conn, agent_id, term, cap)
        with self._lock:
            if len(self._counts) >= self._MAX_WORDS:
                self._counts.clear()
            self._counts[(agent_id, term)] = (now, value, cap)
        return value


def _agent_messages(conn: sqlite3.Connection, agent_id: int) -> int:
    row = conn.execute("SELECT coalesce(sum(message_count), 0) FROM threads WHERE agent_id = ?", (agent_id,)).fetchone()
    return int(row[0])


def _messages_with(conn: sqlite3.Connection, agent_id: int, term: str, cap: int) -> int:
    """The agent's messages holding ``term``, counted up to ``cap`` (FTS5 stops reading there)."""
    phrase = agent_terms(agent_id, term)
    if not phrase:
        return 0
    match = f'{{content speaker}} : "{phrase}"'
    sql = "SELECT count(*) FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?)"
    return int(conn.execute(sql, (match, cap)).fetchone()[0])


def _indexed_rows(conn: sqlite3.Connection, table: str = "messages_fts") -> int:
    """The rows of an FTS5 index (by default the messages') as its BM25 counts them (all agents'): the first
    varint of FTS5's averages record (``id = 1`` of its data table), 0 when there is none."""
    row = conn.execute(f"SELECT block FROM {table}_data WHERE id = 1").fetchone()  # noqa: S608
    if row is None or not row[0]:
        return 0
    block: bytes = row[0]
    value = 0
    for i, byte in enumerate(block[:9]):  # SQLite's varint: 7 bits a byte, big-endian; a 9th byte gives 8
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            break
    return value


def _idf_sum(rows: int, counts: Sequence[int | None]) -> float:
    """What BM25 gives a message holding each word once at the average length: the sum of the words' IDFs,
    each as FTS5 computes it (``log((N - n + 0.5) / (n + 0.5))``, at least 1e-6); a word not counted (None:
    in too many messages) is left out. A count is at most ``rows``: a cached one may be from before messages
    were deleted."""
    return sum(bm25_idf(rows, n) for n in counts if n is not None)


def _newest_floor(conn: sqlite3.Connection, match: str, budget: int) -> int | None:
    """The rowid of the ``budget``-th newest message matching ``match`` (None when fewer match)."""
    row = conn.execute(
        "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
        (match, budget - 1),
    ).fetchone()
    return None if row is None else int(row[0])


def _scope_token(prefix: str, value: str) -> str:
    return prefix + value.encode("utf-8").hex()


def _time_range(sql: str, params: list[Any], column: str, scope: Scope) -> tuple[str, list[Any]]:
    if scope.since is not None:
        sql += f" AND {column} >= ?"
        params.append(fmt_time(scope.since))
    if scope.until is not None:
        sql += f" AND {column} < ?"
        params.append(fmt_time(scope.until))
    return sql, params


def _any_message_between(conn: sqlite3.Connection, agent_id: int, scope: Scope) -> bool:
    """Whether the agent holds a message created within the scope's time range (``messages_agent_created``)."""
    sql, params = _time_range("SELECT 1 FROM messages m WHERE m.agent_id = ?", [agent_id], "m.created_at", scope)
    return conn.execute(sql + " LIMIT 1", params).fetchone() is not None


def _with_metadata(sql: str, params: list[Any], alias: str, scope: Scope) -> tuple[str, list[Any]]:
    if not scope.metadata:
        return sql, params
    where, extra = metadata_where(alias, scope.metadata)
    return f"{sql} AND {where}", params + extra


def _has_facts_and_summaries(conn: sqlite3.Connection, agent_id: int, scope: Scope) -> tuple[bool, bool]:
    """Whether the scope's kinds include facts / summaries and the agent has any (one query, ~12 µs): an
    FTS5 query still costs 15-30 µs on a table without the agent's rows, and many agents have no facts
    or summaries (those that never ran the pipeline)."""
    fact, summary = "fact" in scope.kinds, "summary" in scope.kinds
    if not (fact or summary):
        return False, False
    row = conn.execute(
        "SELECT ? AND EXISTS (SELECT 1 FROM facts WHERE agent_id = ?), "
        "? AND EXISTS (SELECT 1 FROM summaries WHERE agent_id = ?)",
        (fact, agent_id, summary, agent_id),
    ).fetchone()
    return bool(row[0]), bool(row[1])


class SQLiteSearch(SQLiteHost):
    """Keyword search of the store contract."""

    def keyword_search(
        self, agent: str, query: str, scope: Scope, limit: int, *, query_vector: QueryVector | None = None
    ) -> list[Candidate]:
        agent_id = self._agent_id(agent)
        terms = query_terms(query)
        if agent_id is None or not terms or limit <= 0:
            return []
        text = " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
        results: list[Candidate] = []
        with self._read() as conn:
            thread_id = None
            if scope.thread is not None:
                thread_id = self._thread_id(conn, agent, scope.thread)
                if thread_id is None:
                    return []
            if "message" in scope.kinds:
                results += self._search_messages(conn, agent_id, thread_id, terms, scope, limit, query_vector)
            facts, summaries = _has_facts_and_summaries(conn, agent_id, scope)
            if facts:
                results += self._search_facts(conn, agent_id, text, terms, scope, limit)
            if summaries:
                results += self._search_summaries(conn, agent_id, thread_id, text, terms, scope, limit)
        return results

    def _search_messages(
        self,
        conn: sqlite3.Connection,
        agent_id: int,
        thread_id: int | None,
        terms: list[str],
        scope: Scope,
        limit: int,
        query_vector: QueryVector | None = None,
    ) -> list[Candidate]:
        # Message words are indexed per agent (schema.agent_terms), so the query's terms only reach this
        # agent's postings and the agent needs no scope token of its own. FTS5 walks the whole doclist of every
        # scope token it is given, so a narrower scope matches on the narrowest token there is: the thread's
        # (thread ids are unique across agents), else the tokens of the user's threads. The whole agent has
        # no such token: there, the words common in a large agent are left out (CommonWords), and, given the
        # query's vector, the messages holding its rarest words are ranked by their own vectors, not by BM25
        # (which reads each one's size and counts every query word's messages: ~10 ms at 1M).
        plan: KeywordPlan | None = None
        if thread_id is None and scope.user is None:
            if (scope.since is not None or scope.until is not None) and not _any_message_between(conn, agent_id, scope):
                return []  # a time range of the whole agent with no message in it (an index probe, not a search)
            plan = self._common_words.distinctive(conn, agent_id, terms, by_vector=query_vector is not None)
            if not plan.choose:
                return []
        by_vector = plan is not None and plan.large and query_vector is not None

        def either(words: list[str]) -> str:
            phrases = [agent_terms(agent_id, word) for word in words]
            return " OR ".join(f'"{phrase}"' for phrase in phrases if phrase)  # tags and words hold no quotes

        text = either(terms)
        if not text:
            return []
        floor = None
        if by_vector:
            assert plan is not None
            text = either(plan.choose)  # the messages holding a rare word, ranked by their vectors below
            if not text:
                return []
        elif plan is not None and plan.choose != terms:
            # Only messages holding a rare word are ranked, by every word of the query but the commonest
            # (BM25 counts them, and the others tell the messages holding the rare word apart).
            text = f"({either(plan.choose)}) AND ({either(plan.rank)})"
        if plan is not None and plan.newest is not None:  # the rarest word alone is past the budget
            floor = _newest_floor(conn, f"{{content speaker}} : ({either(plan.choose)})", plan.newest)
        user_filter = False
        match = ""
        if thread_id is not None:
            match = f"scope : t{thread_id} AND "
        elif scope.user is not None:
            threads = [
                int(r[0])
                for r in conn.execute(
                    "SELECT thread_id FROM thread_users WHERE agent_id = ? AND user_id = ?", (agent_id, scope.user)
                )
            ]
            if not threads:
                return []
            if len(threads) <= _MAX_SCOPE_TOKENS:
                match = "scope : (" + " OR ".join(f"t{t}" for t in threads) + ") AND "
            else:
                user_filter = True
        match += f"{{content speaker}} : ({text})"
        # Join the messages table only for a filter on its columns: the lookup costs more than bm25 per row.
        # Ranked by vectors, the matches' times are those kept with their vectors in memory (a lookup per
        # match in the table cost ~10 µs each, 20-40 ms for the few thousand matches of a large agent).
        timed = scope.since is not None or scope.until is not None
        times_in_memory = by_vector and timed and not scope.metadata
        joined = user_filter or (timed and not times_in_memory) or bool(scope.metadata)
        sql = "SELECT f.rowid AS id" + ("" if by_vector else f", {_HELD} AS held, {_BM25} AS rank")
        sql += " FROM messages_fts f "
        if joined:
            sql += "JOIN messages m ON m.id = f.rowid "
        sql += "WHERE messages_fts MATCH ?"
        params: list[Any] = [match]
        if floor is not None:
            sql += " AND f.rowid >= ?"
            params.append(floor)
        if user_filter:
            sql += " AND m.thread_id IN (SELECT thread_id FROM thread_users WHERE agent_id = ? AND user_id = ?)"
            params += [agent_id, scope.user]
        if not times_in_memory:
            sql, params = _time_range(sql, params, "m.created_at", scope)
        sql, params = _with_metadata(sql, params, "m", scope)
        if by_vector:
            assert query_vector is not None
            span = scope if times_in_memory else None
            ranked = self._rank_by_vector(conn, agent_id, sql, params, query_vector, limit, span)
            if ranked is not None:
                return ranked
            return self._search_messages(conn, agent_id, thread_id, terms, scope, limit)  # no vectors: BM25
        sql += " ORDER BY held LIMIT ?"
        params.append(limit)
        found = [(int(r[0]), -float(r[1]) / _K1_PLUS_1, -float(r[2])) for r in conn.execute(sql, params)]
        if not found:
            return []
        # How much of the query each match holds: BM25 sums a score per word of the expression (a word of
        # both halves of a rare-and-ranked match counts twice), so the full score is taken over the same words.
        # The score is the share of the words' IDFs held; the coverage, the BM25 score's share of what a
        # message holding each word once at the average length scores (which weighs lists better: round 10).
        words = [*plan.choose, *plan.rank] if plan is not None and plan.choose != terms else terms
        full = _idf_sum(_indexed_rows(conn), self._common_words.counts(conn, agent_id, words))
        if full <= 0:
            return [Candidate("message", item, held, "keyword") for item, held, _ in found]
        return [Candidate("message", item, held / full, "keyword", bm25 / full) for item, held, bm25 in found]

    def _rank_by_vector(
        self,
        conn: sqlite3.Connection,
        agent_id: int,
        sql: str,
        params: list[Any],
        query_vector: QueryVector,
        limit: int,
        span: Scope | None = None,
    ) -> list[Candidate] | None:
        """The ``limit`` messages of ``sql``'s matches nearest the query's vector (those without a vector
        last, newest first), scored by cosine; None when none of them has a vector of the query's size.
        Given ``span``, only the matches created within its time range (which ``sql`` does not test)."""
        import numpy as np

        # One text of all the ids: a row per match cost ~0.7 µs each in Python (4,000 at most here).
        joined = conn.execute(f"SELECT group_concat(id) FROM ({sql})", params).fetchone()[0]  # noqa: S608
        if not joined:
            return []
        ids = np.fromstring(joined, dtype=np.int64, sep=",")  # text mode: ~6x np.array(joined.split(","))
        query = np.asarray(query_vector(), dtype=np.float32)
        scores = self._message_cosines(conn, agent_id, ids, query, span)
        if scores is None or np.isnan(scores).all():  # no vectors to rank by (e.g. an embedder added later)
            return None
        if span is not None:
            inside = ~np.isneginf(scores)
            unknown = np.flatnonzero(np.isnan(scores))
            if len(unknown):  # messages without a vector: their times are asked of the table
                marks = ",".join("?" * len(unknown))
                check = f"SELECT id FROM messages m WHERE id IN ({marks})"  # noqa: S608
                check, extra = _time_range(check, ids[unknown].tolist(), "m.created_at", span)
                kept = {int(r[0]) for r in conn.execute(check, extra)}
                inside[unknown] = [int(i) in kept for i in ids[unknown]]
            ids, scores = ids[inside], scores[inside]
            if not len(ids):
                return []
        scores = np.nan_to_num(scores, nan=-2.0)  # below any cosine
        order = np.lexsort((-ids, -scores))[:limit]  # best first; ties newest first
        return [
            Candidate("message", item, score if score > -2.0 else -1.0, "keyword")
            for item, score in zip(ids[order].tolist(), scores[order].tolist(), strict=True)
        ]

    def _search_facts(
        self, conn: sqlite3.Connection, agent_id: int, text: str, terms: Sequence[str], scope: Scope, limit: int
    ) -> list[Candidate]:
        visible = "scope : vshared OR scope : onone"
        if scope.user is not None:
            visible += " OR scope : " + _scope_token("o", scope.user)
        match = f"scope : a{agent_id} AND ({visible}) AND {{content subject}} : ({text})"
        if not scope.include_superseded:
            match += " AND scope : sactive"
        sql = (
            "SELECT f.rowid, bm25(facts_fts, 1.0, 0.5, 0.0) AS rank FROM facts_fts f "
            "JOIN facts x ON x.id = f.rowid WHERE facts_fts MATCH ?"
        )
        params: list[Any] = [match]
        sql, params = _time_range(sql, params, "x.created_at", scope)
        sql, params = _with_metadata(sql, params, "x", scope)
        sql += " ORDER BY rank LIMIT ?"
        params.append(limit)
        rows = conn.execute(sql, params).fetchall()
        return _held_share(conn, "fact", rows, agent_id, "{content subject}", terms)

    def _search_summaries(
        self,
        conn: sqlite3.Connection,
        agent_id: int,
        thread_id: int | None,
        text: str,
        terms: Sequence[str],
        scope: Scope,
        limit: int,
    ) -> list[Candidate]:
        match = f"scope : a{agent_id}" + (f" AND scope : t{thread_id}" if thread_id is not None else "")
        match += f" AND content : ({text})"
        sql = (
            "SELECT f.rowid, bm25(summaries_fts, 1.0, 0.0) AS rank FROM summaries_fts f "
            "JOIN summaries s ON s.id = f.rowid WHERE summaries_fts MATCH ?"
        )
        params: list[Any] = [match]
        visible, extra = summary_visibility(agent_id, thread_id, scope.user)
        sql += f" AND {visible}"
        params += extra
        sql, params = _time_range(sql, params, "s.created_at", scope)
        sql, params = _with_metadata(sql, params, "s", scope)
        sql += " ORDER BY rank LIMIT ?"
        params.append(limit)
        rows = conn.execute(sql, params).fetchall()
        return _held_share(conn, "summary", rows, agent_id, "content", terms)


def _held_share(
    conn: sqlite3.Connection,
    kind: Literal["fact", "summary"],
    rows: Sequence[Sequence[Any]],
    agent_id: int,
    columns: str,
    terms: Sequence[str],
) -> list[Candidate]:
    """Fact or summary matches ``(id, bm25)`` as candidates scored by the share of the query's words, by
    their IDFs among the agent's facts (or summaries), that they hold, BM25 breaking ties; their BM25 over
    the IDFs' sum is their coverage. So a match of only a word every fact holds (the name of the person they
    are about, in "what pet does alice have") scores near 0, one of the words that tell facts apart near 1:
    a score that means the same in any query. The IDF is Lucene's, ``log(1 + (N - n + 0.5) / (n + 0.5))``,
    positive for any count: FTS5's own is 0 for a word in half of a handful of facts, which would make a
    small agent's every match worthless."""
    if not rows:
        return []
    table = "facts_fts" if kind == "fact" else "summaries_fts"
    agent = f"scope : a{agent_id}"
    total = _rows_with(conn, table, agent)
    ids = [int(r[0]) for r in rows]
    marks = ",".join("?" * len(ids))
    weights: dict[int, float] = dict.fromkeys(ids, 0.0)
    full = 0.0
    for term in terms:
        phrase = f'{columns} : "{term.replace(chr(34), chr(34) * 2)}"'
        idf = math.log(1 + (total - (n := _rows_with(conn, table, f"{agent} AND {phrase}")) + 0.5) / (n + 0.5))
        full += idf
        if n:
            sql = f"SELECT rowid FROM {table} WHERE {table} MATCH ? AND rowid IN ({marks})"  # noqa: S608
            for (rowid,) in conn.execute(sql, (f"{agent} AND {phrase}", *ids)):
                weights[int(rowid)] += idf
    if full <= 0:
        return [Candidate(kind, int(r[0]), -float(r[1]), "keyword") for r in rows]
    found = [
        Candidate(kind, i, weights[i] / full + 1e-6 * -float(r[1]), "keyword", -float(r[1]) / full)
        for i, r in zip(ids, rows, strict=True)
    ]
    return sorted(found, key=lambda c: -c.score)


def _rows_with(conn: sqlite3.Connection, table: str, match: str) -> int:
    """The rows of an FTS5 table matching ``match``."""
    return int(conn.execute(f"SELECT count(*) FROM {table} WHERE {table} MATCH ?", (match,)).fetchone()[0])  # noqa: S608
