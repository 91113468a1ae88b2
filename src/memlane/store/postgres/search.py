"""Full-text search and scopes of the PostgreSQL backend (a mixin of :class:`~memlane.store.postgres.PostgresStore`).

A scope becomes conditions in the query's WHERE clause (never a filter after ranking), the same for the
keyword and the vector retriever, and the same as the SQLite backend's.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from psycopg import sql

from .._common import bm25_idf, query_terms, rarest_within
from ..base import Candidate, FactFilter, QueryVector, Scope
from .common import SEARCH_TABLES, Conn, Ids, PostgresHost, Vector, Where, as_json

__all__ = ["PostgresSearch"]

_FTS_CONFIG = "memlane_english"


# ts_rank weights in the order {D, C, B, A}: content (A) counts fully, speaker/subject (B) half, as the
# SQLite backend's bm25 column weights do.
_RANK_WEIGHTS = [0.0, 0.0, 0.5, 1.0]


# A lexeme is too common to search messages by when ANALYZE's statistics put it in at least this share of
# the messages and at least this many of them (see CommonTerms).
COMMON_SHARE = 0.01
COMMON_ROWS = 10_000
#: A whole-agent search of a large store given the query's vector takes this many times its limit of the
#: messages best by ``ts_rank`` and ranks them by their vectors (at 1M: 10 found the answer in the top 10
#: for 0.236 of the questions, against 0.206 by ``ts_rank`` alone; bench/RESULTS.md, "Round 6").
PRESELECT = 10
#: The most words of a query its message matches are ranked by (``query_terms`` gives at most 32), and the
#: numbers of words the statement is made for.
_HELD_WORDS = 32
_HELD_SLOTS = (4, 8, 16, _HELD_WORDS)


class CommonTerms:
    """The words of a query worth searching the messages for: those not among the most common lexemes.

    ``ts_rank`` has no corpus statistics: a word in half the messages weighs as much as a name in ten, so a
    question's common words ("time", "great", "really") decide the ranking, and every message holding one
    must be fetched and ranked (an agent-wide search at 1M messages: 130 ms median with them, 17 ms without,
    in bench/RESULTS.md). BM25 (the SQLite backend) gives such words little weight; here they are left out
    of the message search when ANALYZE's statistics of the ``search`` column (``pg_stats``, refreshed by
    autovacuum) say a lexeme is in at least :data:`COMMON_SHARE` of the messages and at least
    :data:`COMMON_ROWS` of them, so a store below ~10,000 messages or without statistics searches with every
    word. A word stays if any of its lexemes is not common; of a query made only of common words the
    :data:`KEEP_WHEN_ALL_COMMON` least common stay (all of them: 476 ms for one question at 1M). Facts and
    summaries are searched with every word. The statistics are read again after
    :data:`REFRESH_SECONDS`; the lexemes of each word (the server's stemmer) are asked once and kept.

    A search over a whole agent (no user, no thread) of a store with at least :data:`LARGE_STORE` messages
    also keeps only the rarest words whose messages, estimated from the same statistics, stay within
    :data:`POSTINGS_BUDGET` (a word missing from the statistics counts as half as common as the rarest one
    listed) to choose the messages ranked — those holding one of them, still ranked by every word — so a
    budget of them bounds the search,
    as the SQLite backend bounds its own (``CommonWords``, whose rule this is: when no word fits, the rarest
    stays if it fits four budgets, else the messages are searched by vector only). That holds for a query
    left with one word as well: a name in 1 % of a million messages ranked ~10,000 of them (~20 ms), the
    slowest whole-agent searches at 1M (bench/RESULTS.md, "Round 6"). Given the query's vector, no word
    past the budget stays (:data:`RAREST_ALONE_BUDGETS` is for searches without one): ranking all of one
    word's 2,000-8,000 messages, which SQLite bounds to the newest but PostgreSQL cannot cheaply, made the
    slowest tenth of whole-agent recalls at 1M and found fewer answers than the vector half alone
    (bench/RESULTS.md, "Round 10"). Given the query's vector, the best
    :data:`PRESELECT` times the limit of those messages by ``ts_rank`` are ranked again by their vectors'
    cosine to the query, which finds more answers (``ts_rank`` weighs every word alike). Other message
    searches rank their matches by the IDFs of the query's words they hold, estimated from the same
    statistics (:meth:`weights`; on LoCoMo R@10 0.753 -> 0.788, bench/RESULTS.md "Round 9").
    """

    LARGE_STORE = 10_000
    POSTINGS_BUDGET = 2_000  # ~5 µs a message fetched and ranked (bench/RESULTS.md): ~10 ms
    #: When no word fits the budget, the rarest alone stays if its messages fit this many budgets, in a
    #: search without the query's vector (with one, none stays).
    RAREST_ALONE_BUDGETS = 4.0

    REFRESH_SECONDS = 300.0
    #: Without statistics, the messages counted for the words' weights (above it, every word alike).
    COUNTED_ROWS = 1_000
    KEEP_WHEN_ALL_COMMON = 2
    _MAX_WORDS = 50_000  # lexemes kept per word before the cache starts over

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._common: dict[str, float] = {}  # common lexeme -> its share of the messages
        self._shares: dict[str, float] = {}  # every lexeme in the statistics -> its share of the messages
        self._rows = 0.0  # the messages the statistics describe
        self._read_at: float | None = None
        self._uncounted_at: float | None = None  # when the messages were found too many to count
        self._lexemes: dict[str, tuple[str, ...]] = {}

    def distinctive(self, conn: Conn, terms: Sequence[str]) -> list[str]:
        """``terms`` without those made only of common lexemes (the least common of them if every one is)."""
        common = self._common_lexemes(conn)
        if not common:
            return list(terms)
        lexemes = self.lexemes_of(conn, terms)

        def share(term: str) -> float:  # a word is as rare as its rarest lexeme (0: not common)
            return min((common.get(lexeme, 0.0) for lexeme in lexemes[term]), default=0.0)

        kept = [t for t in terms if share(t) == 0.0]
        if kept:
            return kept
        rarest = sorted(terms, key=share)[: self.KEEP_WHEN_ALL_COMMON]
        return [t for t in terms if t in rarest]

    def within_budget(self, conn: Conn, terms: Sequence[str], *, by_vector: bool = False) -> list[str]:
        """The rarest of ``terms`` whose estimated messages stay within :data:`POSTINGS_BUDGET`; without
        ``by_vector`` (the messages have no other half to be found by), the rarest alone when within
        :data:`RAREST_ALONE_BUDGETS` of them."""
        rows, estimate = self._estimator(conn)
        if rows < self.LARGE_STORE or not terms:
            return list(terms)
        lexemes = self.lexemes_of(conn, terms)
        alone = 1.0 if by_vector else self.RAREST_ALONE_BUDGETS
        return rarest_within(terms, lambda term: estimate(lexemes[term]), self.POSTINGS_BUDGET, alone)

    def weights(self, conn: Conn, lexemes: Mapping[str, Sequence[str]]) -> list[float]:
        """Each word's weight in a message match's rank and coverage (:attr:`.Candidate.coverage`), given
        the words with their lexemes (:meth:`lexemes_of`, none empty): its IDF as BM25 computes it
        (``log((N - n + 0.5) / (n + 0.5))``, at least 1e-6), N and n estimated from the same statistics of
        the messages as the budget (a word is as common as its rarest lexeme; one missing from the
        statistics counts as half as common as the rarest listed); while there are none, counted in the
        messages (:meth:`_counted_weights`).

        The statistics are the whole table's, all agents', as FTS5's BM25 counts every agent's rows: a
        word's weight says how ordinary it is, and reveals nothing of any one agent's messages."""
        rows, estimate = self._estimator(conn)
        if rows <= 0:
            return self._counted_weights(conn, lexemes)
        return [bm25_idf(rows, estimate(forms)) for forms in lexemes.values()]

    def _counted_weights(self, conn: Conn, lexemes: Mapping[str, Sequence[str]]) -> list[float]:
        """The weights of :meth:`weights` while there are no statistics (ANALYZE has not run: autovacuum
        leaves a table of fewer than ~50 rows unanalysed), counted in the messages themselves when they are
        at most :data:`COUNTED_ROWS`, else every word alike (1.0). A new store is small: without the counts
        a word every message holds (its user's name) weighed as much as the word that tells them apart."""
        with self._lock:
            too_many = self._uncounted_at is not None and time.monotonic() - self._uncounted_at < self.REFRESH_SECONDS
        if too_many or not lexemes:
            return [1.0] * len(lexemes)
        counts = sql.SQL(", ").join(sql.SQL("count(*) FILTER (WHERE m.search @@ %s::tsquery)") for _ in lexemes)
        statement = sql.SQL("SELECT count(*), {counts} FROM (SELECT search FROM messages LIMIT %s) m").format(
            counts=counts
        )
        params = [*(_held_query(forms) for forms in lexemes.values()), self.COUNTED_ROWS + 1]
        row = conn.execute(statement, params).fetchone()
        assert row is not None  # an aggregate always has its row
        total = float(row[0])
        if total > self.COUNTED_ROWS:
            with self._lock:
                self._uncounted_at = time.monotonic()
            return [1.0] * len(lexemes)
        return [bm25_idf(total, float(n)) for n in row[1:]]

    def _estimator(self, conn: Conn) -> tuple[float, Callable[[Sequence[str]], float]]:
        """The messages the statistics describe (0 without statistics) and an estimate of how many of them
        hold a word, given its lexemes: as many as hold its rarest lexeme, one missing from the statistics
        counting as half as common as the rarest listed (0 for a word of no lexeme)."""
        self._common_lexemes(conn)
        with self._lock:
            shares, rows = self._shares, self._rows
        unlisted = min(shares.values(), default=0.0) / 2

        def estimate(forms: Sequence[str]) -> float:
            return rows * min((shares.get(lexeme, unlisted) for lexeme in forms), default=0.0)

        return (rows if shares else 0.0), estimate

    def large(self, conn: Conn) -> bool:
        """Whether the statistics describe at least :data:`LARGE_STORE` messages (the budget applies)."""
        self._common_lexemes(conn)
        with self._lock:
            return self._rows >= self.LARGE_STORE

    def forget(self) -> None:
        """Read the statistics again on the next search (after ANALYZE, in tests and benchmarks)."""
        with self._lock:
            self._read_at = self._uncounted_at = None

    def _common_lexemes(self, conn: Conn) -> dict[str, float]:
        now = time.monotonic()
        with self._lock:
            if self._read_at is not None and now - self._read_at < self.REFRESH_SECONDS:
                return self._common
        row = conn.execute(
            "SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs, c.reltuples "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = 'search' "
            "WHERE c.oid = 'messages'::regclass"
        ).fetchone()
        common: dict[str, float] = {}
        every: dict[str, float] = {}
        rows = 0.0
        if row is not None and row[0] is not None and row[1] is not None and float(row[2]) > 0:
            rows = float(row[2])
            least = max(COMMON_SHARE, COMMON_ROWS / rows)  # the share of the messages that is common
            # The frequencies end with three figures of their own (min, max, nulls): one per lexeme first.
            every = dict(zip(row[0], row[1][: len(row[0])], strict=True))
            common = {lexeme: share for lexeme, share in every.items() if share >= least}
        with self._lock:
            self._common, self._shares, self._rows, self._read_at = common, every, rows, now
        return common

    def lexemes_of(self, conn: Conn, terms: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """Each term's lexemes as its messages' ``search`` column holds them (the server's stemmer), asked
        once and kept."""
        with self._lock:
            found = {t: self._lexemes[t] for t in terms if t in self._lexemes}
        missing = [t for t in terms if t not in found]
        if missing:
            rows = conn.execute(
                "SELECT t, tsvector_to_array(to_tsvector(%s::regconfig, memlane_fts_text(t))) "
                "FROM unnest(%s::text[]) t",
                (_FTS_CONFIG, missing),
            ).fetchall()
            fresh = {str(r[0]): tuple(r[1]) for r in rows}
            found.update(fresh)
            with self._lock:
                if len(self._lexemes) + len(fresh) > self._MAX_WORDS:
                    self._lexemes.clear()
                self._lexemes.update(fresh)
        return found


def _quoted(text: str) -> str:
    """``text`` as one quoted ``tsquery`` operand."""
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def _tsquery_text(terms: Sequence[str]) -> str:
    """The terms OR-ed as ``to_tsquery`` input, each quoted (a term of several words is a phrase)."""
    return " | ".join(_quoted(term) for term in terms)


def _held_query(lexemes: Sequence[str]) -> str:
    """A word's lexemes as ``tsquery`` input, a phrase when several (as ``to_tsquery`` makes of the word)."""
    return " <-> ".join(_quoted(lexeme) for lexeme in lexemes)


def _held_weight(alias: str, slots: int) -> sql.Composable:
    """The sum of the weights of the words a match holds: ``slots`` pairs of parameters, a word's ``tsquery``
    and its weight (NULL and 0 for an empty slot)."""
    return sql.SQL(" + ").join(
        sql.SQL("coalesce(({}.search @@ %s::tsquery)::int, 0) * %s::float8").format(sql.Identifier(alias))
        for _ in range(slots)
    )


# The messages preselected by ts_rank, ranked again by their vectors' cosine to the query (one without a vector
# last): parameters the query's vector, the ids, the limit.
_BY_VECTOR = (
    "SELECT m.id, 1 - coalesce(v.embedding <=> %s::vector, 2) AS rank FROM unnest(%s::bigint[]) m(id) "
    "LEFT JOIN message_vectors v ON v.message_id = m.id ORDER BY rank DESC, m.id LIMIT %s"
)


class PostgresSearch(PostgresHost):
    """Keyword search and the scope conditions shared with vector search and fact listing."""

    @staticmethod
    def _fact_where(agent_id: int, flt: FactFilter) -> Where:
        """The facts a filter allows, as in the SQLite backend (``f`` is the facts table)."""
        where = Where()
        where.add("f.agent_id = %s", agent_id)
        if flt.owned_only:
            if flt.user is None:
                where.add("f.owner IS NULL")
            else:
                where.add("f.owner = %s", flt.user)
        elif not flt.all_users:
            if flt.user is None:
                where.add("(f.owner IS NULL OR f.visibility = 'shared')")
            else:
                where.add("(f.owner IS NULL OR f.owner = %s OR f.visibility = 'shared')", flt.user)
        for column, value in (
            ("subject", flt.subject),
            ("category", flt.category),
            ("visibility", flt.visibility),
            ("source_thread", flt.thread),
        ):
            if value is not None:
                where.add(sql.SQL("{} = %s").format(sql.Identifier("f", column)), value)
        if not flt.include_superseded:
            where.add("f.status = 'active'")
        return where

    def _scope_where(self, kind: str, agent_id: int, thread_id: int | None, scope: Scope) -> Where:
        """The scope of one kind as conditions on its table (aliases m, f, s), metadata filter included.

        The metadata filter is jsonb containment of the scope's ``key: value`` pairs: scalar values, so a
        pair matches only an equal value of the same JSON type (``1`` matches ``1.0``, ``true`` does not
        match ``1``), as the SQLite backend compares them.
        """
        where = self._visible_where(kind, agent_id, thread_id, scope)
        if scope.metadata:
            alias = SEARCH_TABLES[kind][1]
            where.add(
                sql.SQL("({}.metadata)::jsonb @> %s::jsonb").format(sql.Identifier(alias)),
                as_json(dict(scope.metadata)),
            )
        return where

    def _visible_where(self, kind: str, agent_id: int, thread_id: int | None, scope: Scope) -> Where:
        """The scope of one kind as conditions on its table (aliases m, f, s), as the SQLite backend has it.

        Messages: the thread's, else those of the user's threads, else the agent's. Facts: see
        :meth:`_fact_where` (threads do not narrow them). Summaries: a thread scope sees that thread's
        owner-less ones and the user's own; a user sees their own and the owner-less ones of their threads
        or of no thread (the agent's memories); without a user only owner-less ones are visible.
        """
        if kind == "fact":
            where = self._fact_where(agent_id, FactFilter(user=scope.user, include_superseded=scope.include_superseded))
            where.time_range("f.created_at", scope)
            return where
        where = Where()
        mine = "SELECT thread_id FROM thread_users WHERE agent_id = %s AND user_id = %s"
        if kind == "message":
            where.add("m.agent_id = %s", agent_id)
            if thread_id is not None:
                where.add("m.thread_id = %s", thread_id)
            elif scope.user is not None:
                where.add("m.thread_id IN (" + mine + ")", agent_id, scope.user)
            where.time_range("m.created_at", scope)
            return where
        where.add("s.agent_id = %s", agent_id)
        if thread_id is not None:
            where.add("s.thread_id = %s AND (s.owner IS NULL OR s.owner = %s)", thread_id, scope.user)
        elif scope.user is not None:
            where.add(
                "(s.owner = %s OR (s.owner IS NULL AND (s.thread_id IS NULL OR s.thread_id IN (" + mine + "))))",
                scope.user,
                agent_id,
                scope.user,
            )
        else:
            where.add("s.owner IS NULL")
        where.time_range("s.created_at", scope)
        return where

    # -- search -------------------------------------------------------------------------------------
    def keyword_search(
        self, agent: str, query: str, scope: Scope, limit: int, *, query_vector: QueryVector | None = None
    ) -> list[Candidate]:
        terms = query_terms(query)
        if not terms or limit <= 0:
            return []
        text = _tsquery_text(terms)

        def read(conn: Conn) -> list[Candidate]:
            agent_id = self._agent_id(conn, agent)
            if agent_id is None:
                return []
            words = self._terms.distinctive(conn, terms)
            message_text = _tsquery_text(words)
            again: QueryVector | None = None  # set: the messages are ranked again by their vectors (CommonTerms)
            if scope.thread is None and scope.user is None:
                rare = self._terms.within_budget(conn, words, by_vector=query_vector is not None)
                if not rare:
                    message_text = ""
                elif len(rare) < len(words):  # only messages with a rare word, ranked by every word
                    message_text = f"({_tsquery_text(rare)}) & ({message_text})"
                if message_text and self._terms.large(conn):
                    again = query_vector
            texts = {"message": message_text, "fact": text, "summary": text}
            # Messages are ranked by the IDFs of the query's words they hold (ts_rank weighs every word
            # alike), ts_rank breaking ties; that sum over all of theirs is how much of the query a match
            # holds. Those of a large store's whole-agent search are ranked again by their vectors instead.
            held_words: list[str] = []
            weights: list[float] = []
            lexemes: dict[str, tuple[str, ...]] = {}
            if again is None and message_text:
                lexemes = self._terms.lexemes_of(conn, words)  # kept: asked of the server once a word
                held_words = [w for w in words if lexemes[w]][:_HELD_WORDS]  # a word with none matches nothing
                weights = self._terms.weights(conn, {w: lexemes[w] for w in held_words})
            # Facts and summaries are ranked the same way, by the IDFs of the words among the agent's facts
            # (summaries), so that their scores too mean the same in any query (see _item_weights).
            own: dict[str, tuple[list[str], list[float]]] = {"message": (held_words, weights)}
            for kind in ("fact", "summary"):
                if kind in scope.kinds:
                    own[kind] = self._item_weights(conn, kind, agent_id, terms)
            thread_id = None
            if scope.thread is not None:
                thread_id = self._thread_id(conn, agent_id, scope.thread)
                if thread_id is None:
                    return []
            branches: list[sql.Composable] = []
            params: list[Any] = []
            for order, kind in enumerate(("message", "fact", "summary")):
                if kind not in scope.kinds or not texts[kind]:  # no message words left: vector search only
                    continue
                table, alias = SEARCH_TABLES[kind]
                where = self._scope_where(kind, agent_id, thread_id, scope)
                kind_words, kind_weights = own[kind]
                held = bool(kind_words)
                # Slots for 4, 8, 16 or 32 words, the rest empty: a few statements to prepare, not one a length.
                slots = next(n for n in _HELD_SLOTS if n >= len(kind_words)) if held else 0
                branches.append(
                    sql.SQL(
                        "(SELECT {order} AS kind_order, {kind}::text AS kind, {alias}.id, "
                        "ts_rank(%s::float4[], {alias}.search, q.query, 1) AS rank, {held} AS held "
                        "FROM {table} {alias}, to_tsquery({config}::regconfig, %s) q(query) "
                        "WHERE {alias}.search @@ q.query AND {where} "
                        "ORDER BY held DESC NULLS LAST, rank DESC, {alias}.id LIMIT %s)"
                    ).format(
                        order=sql.Literal(order),
                        kind=sql.Literal(kind),
                        alias=sql.Identifier(alias),
                        table=sql.Identifier(table),
                        config=sql.Literal(_FTS_CONFIG),
                        where=where.sql(),
                        held=_held_weight(alias, slots) if held else sql.SQL("NULL::float8"),
                    )
                )
                preselect = PRESELECT * limit if kind == "message" and again is not None else limit
                params.append(_RANK_WEIGHTS)
                if held:
                    for word, weight in zip(kind_words, kind_weights, strict=True):
                        params += [_held_query(self._terms.lexemes_of(conn, [word])[word]), weight]
                    params += [None, 0.0] * (slots - len(kind_words))
                params += [texts[kind], *where.params, preselect]
            if not branches:
                return []
            statement = sql.SQL(
                "SELECT kind, id, rank, held FROM ({}) r ORDER BY kind_order, held DESC NULLS LAST, rank DESC, id"
            ).format(sql.SQL(" UNION ALL ").join(branches))
            # A custom plan of this statement takes longer to make than to run (the planner reads the
            # tsvector column's statistics for every query's terms: 3-12 ms at 300k messages against ~1.5 ms
            # of execution). Full-text matching is exact whatever the plan, so the statement runs with a
            # generic plan, made once per pooled connection and number of word slots (psycopg prepares a
            # statement on its fifth use).
            # One round trip: the pipeline sends BEGIN, the setting, the query and COMMIT together.
            with conn.pipeline(), conn.transaction():
                conn.execute("SET LOCAL plan_cache_mode = force_generic_plan")
                cur = conn.execute(statement, params)
            rows = cur.fetchall()
            if again is not None:
                return self._again_by_vector(conn, rows, again, limit)
            fulls = {kind: sum(w) for kind, (_, w) in own.items()}
            return [
                Candidate(r[0], r[1], r[2], "keyword")
                if r[3] is None or fulls[r[0]] <= 0
                # the score: how much of the query it holds, and a thousandth of its ts_rank
                else Candidate(r[0], r[1], r[3] / fulls[r[0]] + 1e-3 * r[2], "keyword", r[3] / fulls[r[0]])
                for r in rows
            ]

        return self._run("keyword search", read, write=False)

    def _item_weights(
        self, conn: Conn, kind: str, agent_id: int, terms: Sequence[str]
    ) -> tuple[list[str], list[float]]:
        """The query's words a fact or summary match is ranked by, and each one's weight: its IDF among the
        agent's facts (summaries), Lucene's ``log(1 + (N - n + 0.5) / (n + 0.5))`` (as the SQLite backend
        counts them: positive for any count, so a small agent's matches keep their worth). One statement
        counts them all."""
        lexemes = self._terms.lexemes_of(conn, terms)
        words = [w for w in terms if lexemes[w]][:_HELD_WORDS]
        if not words:
            return [], []
        table, alias = SEARCH_TABLES[kind]
        counts = sql.SQL(", ").join(
            sql.SQL("count(*) FILTER (WHERE {}.search @@ %s::tsquery)").format(sql.Identifier(alias)) for _ in words
        )
        statement = sql.SQL("SELECT count(*), {counts} FROM {table} {alias} WHERE {alias}.agent_id = %s").format(
            counts=counts, table=sql.Identifier(table), alias=sql.Identifier(alias)
        )
        row = conn.execute(statement, [*(_held_query(lexemes[w]) for w in words), agent_id]).fetchone()
        assert row is not None  # an aggregate always has its row
        total = float(row[0])
        return words, [math.log(1 + (total - n + 0.5) / (n + 0.5)) for n in row[1:]]

    def _again_by_vector(
        self, conn: Conn, rows: list[tuple[Any, ...]], query_vector: QueryVector, limit: int
    ) -> list[Candidate]:
        """The keyword statement's ``rows`` (kind, id, ts_rank, NULL) as candidates, its messages (the first
        ``PRESELECT * limit`` by ``ts_rank``) ranked again by their vectors, the best ``limit`` kept. The
        statement ran while the query was embedded; this one waits for its vector. No candidate is made of
        the messages left out (a few hundred, at ~1 µs each)."""
        messages = [r[1] for r in rows if r[0] == "message"]
        others = [Candidate(r[0], r[1], r[2], "keyword") for r in rows if r[0] != "message"]
        if not messages:
            return others
        vector = np.asarray(query_vector(), dtype=np.float32)
        if vector.shape != (self._known_dim(conn),):  # the best by ts_rank
            return [Candidate(r[0], r[1], r[2], "keyword") for r in rows[:limit] if r[0] == "message"] + others
        ranked = conn.execute(_BY_VECTOR, (Vector(vector), Ids(messages), limit)).fetchall()
        return [Candidate("message", r[0], r[1], "keyword") for r in ranked] + others
