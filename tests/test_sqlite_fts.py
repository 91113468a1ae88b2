"""Full-text search of messages in the SQLite backend: words indexed per agent (schema migration 5).

What a user would notice if this broke: a search that finds another agent's messages, misses its own
after an upgrade, or finds a message that was deleted.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from memlane.store.base import Scope
from memlane.store.sqlite import SQLiteStore
from memlane.store.sqlite.schema import MIGRATIONS, agent_terms
from memlane.store.sqlite.search import KeywordPlan
from memlane.validation import NewFact, NewSummary, new_message

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
MESSAGES = Scope(kinds=("message",))


def say(store: SQLiteStore, agent: str, thread: str, *texts: str, user: str = "ann") -> list[int]:
    items = [new_message("user", text, user=user, max_chars=1000) for text in texts]
    return [m.id for m in store.add_messages(agent, thread, items, [1] * len(items), T0)]


def found(store: SQLiteStore, agent: str, query: str, scope: Scope = MESSAGES, limit: int = 50) -> list[int]:
    return sorted(c.id for c in store.keyword_search(agent, query, scope, limit))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "fts.db")
    yield s
    s.close()


def test_an_agent_never_finds_another_agents_words(store: SQLiteStore) -> None:
    # Agent ids 1 and 12: agent 1's word "2cats" must not read as agent 12's "cats" (or the reverse).
    names = [f"agent-{i}" for i in range(1, 13)]
    for name in names:
        say(store, name, "t", "hello")
    [one] = say(store, "agent-1", "t", "my 2cats are asleep")
    [twelve] = say(store, "agent-12", "t", "cats everywhere")
    assert store._agent_id("agent-1") == 1 and store._agent_id("agent-12") == 12
    assert found(store, "agent-12", "cats") == [twelve]
    assert found(store, "agent-1", "2cats") == [one]
    assert found(store, "agent-12", "2cats") == [] and found(store, "agent-1", "cats") == []
    assert found(store, "agent-12", "cats", Scope(kinds=("message",), user="ann")) == [twelve]


def test_words_are_stemmed_and_speakers_searchable(store: SQLiteStore) -> None:
    [runs] = say(store, "a", "t", "She runs every morning", user="Zoë")
    say(store, "a", "t", "Nothing to see here", user="bob")
    assert found(store, "a", "running") == [runs]
    assert found(store, "a", "zoe") == [runs]  # the speaker column, diacritics folded
    assert found(store, "a", "RUNS", Scope(kinds=("message",), thread="t")) == [runs]


def test_facts_and_summaries_are_searched_in_the_agents_that_have_them(store: SQLiteStore) -> None:
    # Keyword search skips the fact and summary indexes of an agent without facts or summaries: each agent
    # here has only one of the two, and another agent has the other.
    fact = store.add_fact("a", NewFact("Lisbon trip in May", "trip", 3, None, None, "shared", {}), actor=None, now=T0)
    say(store, "b", "t", "hello")
    summary, _ = store.add_summary("b", "t", NewSummary("rolling", "They planned Lisbon", 1, 1, None, "x", {}), T0)
    everything = Scope()
    assert [(c.kind, c.id) for c in store.keyword_search("a", "lisbon", everything, 10)] == [("fact", fact.id)]
    assert [(c.kind, c.id) for c in store.keyword_search("b", "lisbon", everything, 10)] == [("summary", summary.id)]
    assert store.keyword_search("a", "lisbon", Scope(kinds=("summary",)), 10) == []
    assert store.keyword_search("b", "lisbon", Scope(kinds=("fact", "message")), 10) == []


def test_deleted_messages_leave_the_index_and_their_ids_are_not_reused(store: SQLiteStore) -> None:
    say(store, "a", "keep", "an ordinary day")
    [zebra] = say(store, "a", "gone", "a zebra crossed")
    store.delete_thread("a", "gone")
    [lion] = say(store, "a", "new", "a lion roared")
    assert lion > zebra  # the freed id is not given again (migration 9's id_floor)
    assert found(store, "a", "zebra") == []
    assert found(store, "a", "lion") == [lion]
    store.clear_thread("a", "new")
    assert found(store, "a", "lion") == []


def _version_4_store(path: Path) -> None:
    """A store as memlane left it before migration 5: plain words in the message index."""
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    for number, name, script in MIGRATIONS[:4]:
        db.executescript(script)
        db.execute("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01T00:00:00+00:00')", (number, name))
    stamp = "2026-01-01T12:00:00.000000+00:00"
    for agent_id, text in ((1, "penguins love the cold sea"), (2, "penguins in the zoo")):
        db.execute("INSERT INTO agents (id, name, created_at) VALUES (?, ?, ?)", (agent_id, f"bot{agent_id}", stamp))
        db.execute(
            "INSERT INTO threads (id, agent_id, key, created_at, updated_at, next_seq, message_count) "
            "VALUES (?, ?, 't', ?, ?, 2, 1)",
            (agent_id, agent_id, stamp, stamp),
        )
        db.execute(
            "INSERT INTO messages (id, agent_id, thread_id, seq, role, user_id, content, token_count, created_at) "
            "VALUES (?, ?, ?, 1, 'user', 'ann', ?, 5, ?)",
            (agent_id, agent_id, agent_id, text, stamp),
        )
        db.execute(
            "INSERT INTO messages_fts (rowid, content, speaker, scope) VALUES (?, ?, 'ann', ?)",
            (agent_id, text, f"a{agent_id} t{agent_id}"),
        )
    db.commit()
    db.close()


def test_opening_a_version_4_store_reindexes_its_messages_per_agent(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _version_4_store(path)
    store = SQLiteStore(path)
    try:
        assert store.schema_version() == MIGRATIONS[-1][0] >= 5
        assert found(store, "bot1", "penguin") == [1]  # stemmed, and only its own
        assert found(store, "bot2", "zoo") == [2] and found(store, "bot1", "zoo") == []
        store.delete_thread("bot1", "t")  # the rebuilt index deletes what it indexed
        assert found(store, "bot1", "penguins") == [] and found(store, "bot2", "penguins") == [2]
    finally:
        store.close()
    with sqlite3.connect(path) as db:  # what is indexed now: tagged words
        assert db.execute(
            "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?", (f'"{agent_terms(2, "zoo")}"',)
        ).fetchall() == [(2,)]


def test_agent_terms_tag_every_word_and_nothing_else() -> None:
    assert agent_terms(12, "Hello, wörld_2!") == "q212hello q212wörld q2122"
    assert agent_terms(1, "") == "" and agent_terms(1, None) == "" and agent_terms(1, "?!") == ""


def test_whole_agent_searches_of_a_large_agent_rank_only_its_rarest_words(store: SQLiteStore) -> None:
    """CommonWords: past LARGE_AGENT messages, a whole-agent search keeps the rarest words within the budget
    (lowered here so 60 messages are a large agent), the rarest alone if it fits four budgets, else none;
    a user's scope and a small agent keep every word."""
    plain = say(store, "a", "t1", *[f"weather talk {i}" for i in range(50)], user="ann")
    rare = say(store, "a", "t2", *[f"weather and owls {i}" for i in range(5)], user="bob")
    rarer = say(store, "a", "t3", *[f"kestrels {i}" for i in range(3)], user="bob")
    small = say(store, "b", "t1", "weather talk", "owls", user="ann")
    query = "weather owls kestrels"
    assert found(store, "a", query, limit=100) == sorted(plain + rare + rarer)  # 58 messages: not large yet
    store._common_words.LARGE_AGENT = 50
    store._common_words.POSTINGS_BUDGET = 10
    assert found(store, "a", query, limit=100) == sorted(rare + rarer)  # 'weather' (55 messages) left out
    assert found(store, "a", query, Scope(kinds=("message",), user="ann"), 100) == sorted(plain)  # scoped: every word
    assert found(store, "a", "weather talk", limit=100) == []  # both past four budgets: vector search only
    store._common_words.POSTINGS_BUDGET = store._common_words.NEWEST_RANKED = 4
    # 'owls' (5 messages) is past one budget, within four: the newest 4 of its messages are ranked.
    assert found(store, "a", "weather owls", limit=100) == sorted(rare)[1:]
    assert found(store, "b", query) == sorted(small)  # a small agent: every word


def test_the_commonest_words_of_a_large_agent_do_not_rank_its_messages(store: SQLiteStore) -> None:
    """A word in more than RANK_MAX_SHARE of a large agent's messages is left out of the ranking as well
    (BM25 would count its messages on every query, for a weight near nothing)."""
    say(store, "a", "t1", *[f"weather talk {i}" for i in range(50)])
    say(store, "a", "t2", *[f"weather owls talk {i}" for i in range(5)])
    say(store, "a", "t3", "owls in the weather")
    words = store._common_words
    words.LARGE_AGENT, words.POSTINGS_BUDGET, words.RANK_MAX_SHARE = 50, 10, 0.5
    with store._read() as conn:
        plan = words.distinctive(conn, store._agent_id("a"), ["weather", "owls", "talk"])
    assert plan == KeywordPlan(choose=["owls"], rank=["owls"])  # 'weather' 56, 'talk' 55 of 56
    words.RANK_MAX_SHARE = 1.0
    with store._read() as conn:
        plan = words.distinctive(conn, store._agent_id("a"), ["weather", "owls", "talk"])
    assert plan == KeywordPlan(choose=["owls"], rank=["weather", "owls", "talk"])
    assert found(store, "a", "weather owls talk", limit=100) == found(store, "a", "owls", limit=100)  # 6 messages


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def _never() -> np.ndarray:
    raise AssertionError("the query's vector was asked for")


def test_a_large_agents_whole_agent_matches_are_ranked_by_their_vectors(store: SQLiteStore) -> None:
    """Given the query's vector, a whole-agent search of a large agent ranks the messages holding the rarest
    words by cosine to it (BM25 would read every match's size and count every word's messages); scoped
    searches, small agents and a vector of another size keep BM25, and the vector is not even asked for."""
    filler = [new_message("user", f"weather talk {i}", user="ann", max_chars=1000) for i in range(50)]
    store.add_messages("a", "t1", filler, [1] * 50, T0, vectors=np.tile(_unit(0, 0, 0, 1), (50, 1)))
    texts = ["owls", "owls at dusk", "owls hunting in the old barn", "owls nesting in the church tower at night"]
    vectors = np.stack([_unit(0, 1, 0, 0), _unit(1, 2, 0, 0), _unit(2, 1, 0, 0), _unit(1, 0, 0, 0)])
    owls = [
        m.id
        for m in store.add_messages(
            "a", "t2", [new_message("user", t, user="bob", max_chars=1000) for t in texts], [1] * 4, T0, vectors
        )
    ]
    [plain] = say(store, "a", "t3", "owls and weather, no vector", user="bob")
    query, toward = "owls weather", _unit(1, 0, 0, 0)
    words = store._common_words
    words.LARGE_AGENT, words.POSTINGS_BUDGET, words.VECTOR_POSTINGS_BUDGET = 50, 10, 10

    def ranked(scope: Scope = MESSAGES, vector: object = lambda: toward, agent: str = "a") -> list[int]:
        return [c.id for c in store.keyword_search(agent, query, scope, 10, query_vector=vector)]  # type: ignore[arg-type]

    bm25 = [c.id for c in store.keyword_search("a", query, MESSAGES, 10)]
    assert bm25[0] == owls[0]  # BM25: the shortest message holding 'owls' first
    assert ranked() == [owls[3], owls[2], owls[1], owls[0], plain]  # nearest first, no vector last
    scores = [c.score for c in store.keyword_search("a", query, MESSAGES, 10, query_vector=lambda: toward)]
    assert scores[:4] == pytest.approx([1.0, float(_unit(2, 1, 0, 0)[0]), float(_unit(1, 2, 0, 0)[0]), 0.0], abs=1e-6)
    assert scores[4] == -1.0
    assert ranked(limit_scope := Scope(kinds=("message",), user="bob"), _never) == [  # a user's scope: BM25
        c.id for c in store.keyword_search("a", query, limit_scope, 10)
    ]
    assert ranked(vector=lambda: _unit(1, 0, 0)) == bm25  # a vector of another size: BM25
    later = Scope(kinds=("message",), since=T0 + timedelta(seconds=1))
    assert ranked(later) == []  # the time range still holds
    say(store, "c", "t1", *[f"weather talk {i}" for i in range(50)], "owls", "owls at dusk")  # no vectors
    assert ranked(agent="c") == [c.id for c in store.keyword_search("c", query, MESSAGES, 10)]  # so: BM25
    small = say(store, "b", "t1", "owls", "weather owls")
    assert sorted(ranked(vector=_never, agent="b")) == sorted(small)  # a small agent: BM25, vector not asked


def test_matches_ranked_by_their_vectors_keep_a_time_range_by_the_times_kept_with_the_vectors(
    store: SQLiteStore,
) -> None:
    """Ranked by vectors, a whole-agent search does not join the messages table to test a time range (a
    lookup per match): the times kept with the vectors in memory decide, and a match without a vector is
    asked of the table. The matches in range are exactly those BM25 finds with the same scope."""
    filler = [new_message("user", f"weather talk {i}", user="ann", max_chars=1000) for i in range(50)]
    store.add_messages("a", "t1", filler, [1] * 50, T0, vectors=np.tile(_unit(0, 0, 0, 1), (50, 1)))
    ids: dict[str, int] = {}
    for hour, text, vector in (
        (1, "owls at dusk", _unit(1, 2, 0, 0)),
        (1, "owls nesting in the tower", _unit(1, 0, 0, 0)),
        (2, "owls hunting in the barn", _unit(1, 0, 0, 0)),
        (1, "owls, a message without a vector", None),
        (3, "owls again, without a vector", None),
    ):
        at = T0 + timedelta(hours=hour)
        item = new_message("user", text, user="bob", created_at=at, max_chars=1000)
        given = None if vector is None else vector[None, :]
        [message] = store.add_messages("a", f"h{hour}", [item], [1], at, vectors=given)
        ids[text] = message.id
    words = store._common_words
    words.LARGE_AGENT, words.POSTINGS_BUDGET, words.VECTOR_POSTINGS_BUDGET = 50, 10, 10
    toward = _unit(1, 0, 0, 0)

    def ranked(scope: Scope) -> list[int]:
        return [c.id for c in store.keyword_search("a", "owls weather", scope, 10, query_vector=lambda: toward)]

    first_hour = Scope(kinds=("message",), since=T0 + timedelta(minutes=30), until=T0 + timedelta(minutes=90))
    assert ranked(first_hour) == [
        ids["owls nesting in the tower"],
        ids["owls at dusk"],
        ids["owls, a message without a vector"],  # no vector: last, its time read from the table
    ]
    for scope in (
        first_hour,
        Scope(kinds=("message",), since=T0 + timedelta(minutes=90)),
        Scope(kinds=("message",), until=T0 + timedelta(hours=2)),  # the end is excluded
        Scope(kinds=("message",), since=T0 + timedelta(hours=5)),
    ):
        assert sorted(ranked(scope)) == found(store, "a", "owls weather", scope)
    # a range with no message at all is answered by an index probe: no word is counted, nothing searched
    words.distinctive = _never  # type: ignore[method-assign,assignment]
    assert ranked(Scope(kinds=("message",), since=T0 + timedelta(hours=5))) == []


def test_word_counts_stop_at_what_the_rules_need_and_are_taken_again_when_more_is_needed(
    store: SQLiteStore,
) -> None:
    say(store, "a", "t1", *[f"weather talk {i}" for i in range(55)])
    words, agent = store._common_words, store._agent_id("a")
    assert agent is not None
    with store._read() as conn:
        assert words._count(conn, agent, "weather", 11) == 11  # at least 11: counting stopped there
        assert words._count(conn, agent, "weather", 5) == 5  # the cached "at least 11" answers a smaller cap
        assert words._count(conn, agent, "weather", 100) == 55  # a larger cap counts again
        assert words._count(conn, agent, "weather", 11) == 11 and words._count(conn, agent, "owls", 11) == 0


def test_bm25_matches_say_how_much_of_the_query_they_hold(store: SQLiteStore) -> None:
    from memlane.store.sqlite.search import _indexed_rows

    say(store, "other", "t", *(f"filler number {i}" for i in range(30)))  # BM25 counts every agent's rows
    common = say(store, "a", "t", *(f"we could go out on day {i}" for i in range(12)))
    [rare] = say(store, "a", "t", "the zebra went home early")
    [both] = say(store, "a", "t", "should we go see the zebra")
    with store._read() as conn:
        assert _indexed_rows(conn) == 44
    store.delete_thread("other", "t")
    with store._read() as conn:
        assert _indexed_rows(conn) == 14  # FTS5's own row count follows deletes
    for scope in (MESSAGES, Scope(kinds=("message",), thread="t"), Scope(kinds=("message",), user="ann")):
        held = {c.id: c.coverage for c in store.keyword_search("a", "go zebra", scope, 50)}
        assert set(held) == {*common, rare, both}
        assert all(value is not None and value > 0 for value in held.values())
        # "go" is in 13 of 14 messages: a match of it alone holds almost nothing of the query; a match of
        # the rare word holds about all of it (the IDF of "go" is near 0), whatever else it holds.
        assert max(held[i] for i in common) < 0.05  # type: ignore[operator]
        assert 0.8 < held[rare] < 1.5 and 0.8 < held[both] < 1.5  # type: ignore[operator]


def test_message_matches_are_ranked_by_the_words_they_hold_not_by_bm25(store: SQLiteStore) -> None:
    """BM25 lets a short message repeating an ordinary word of the question outrank a longer one holding its
    rarest word; matches are ranked by the IDFs of the words they hold (BM25 breaking ties), in every scope.
    The score is that share of the query; the coverage stays BM25's."""
    say(store, "other", "t", *(f"filler number {i}" for i in range(30)))
    chatter = say(store, "a", "t", "go go, go!", "go go go", "go, go, go")
    long = "the zebra went home early, and the evening after that was a long quiet one for everyone"
    [rare] = say(store, "a", "t", long)
    [both] = say(store, "a", "t", "should we go see the zebra")
    with store._read() as conn:  # BM25 alone: the zebra's long message after every repeated "go"
        match = " OR ".join(f'"{agent_terms(store._agent_id("a") or 0, w)}"' for w in ("go", "zebra", "moon"))
        by_bm25 = [
            r[0]
            for r in conn.execute(
                "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY bm25(messages_fts, 1.0, 0.5, 0.0)",
                (match,),
            )
        ]
    assert by_bm25[-1] == rare and set(by_bm25[1:-1]) == set(chatter)
    for scope in (MESSAGES, Scope(kinds=("message",), thread="t"), Scope(kinds=("message",), user="ann")):
        hits = store.keyword_search("a", "go zebra moon", scope, 50)
        assert [c.id for c in hits][:2] == [both, rare]
        assert {c.id for c in hits[2:]} == set(chatter)
        score = {c.id: c.score for c in hits}
        zebra, go, moon = _idf(35, 2), _idf(35, 4), _idf(35, 0)  # "moon", in no message, is the rarest word
        assert score[both] == pytest.approx((zebra + go) / (zebra + go + moon), rel=1e-4)
        assert score[rare] == pytest.approx(zebra / (zebra + go + moon), rel=1e-4)
        assert all(score[i] == pytest.approx(go / (zebra + go + moon), rel=1e-4) for i in chatter)
        coverage = {c.id: c.coverage for c in hits}  # BM25's: the repeated word counts more than once
        assert all(coverage[i] > score[i] for i in chatter)  # type: ignore[operator]
        # Limited: the best by the words held, not BM25's best.
        assert [c.id for c in store.keyword_search("a", "go zebra moon", scope, 2)] == [both, rare]


def test_a_word_counted_past_its_cap_is_left_out_of_the_full_score(store: SQLiteStore) -> None:
    """Counts for the coverage come from CommonWords' cache, up to four vector budgets: a word in more
    messages than that (here 'weather', with the budget lowered) adds nothing to the full score, so a match
    of the rare word alone holds all of the query."""
    say(store, "a", "t", *(f"weather talk {i}" for i in range(10)), *(f"other chatter {i}" for i in range(20)))
    [owls] = say(store, "a", "t", "owls in the barn")
    words = store._common_words
    with store._read() as conn:
        assert words.counts(conn, store._agent_id("a"), ["weather", "owls", "zebra"]) == [10, 1, 0]
    before = {c.id: c.coverage for c in store.keyword_search("a", "weather owls", MESSAGES, 50)}
    words.VECTOR_POSTINGS_BUDGET = 2  # a cap of 9 messages
    words._counts.clear()
    with store._read() as conn:
        assert words.counts(conn, store._agent_id("a"), ["weather", "owls", "zebra"]) == [None, 1, 0]
    after = {c.id: c.coverage for c in store.keyword_search("a", "weather owls", MESSAGES, 50)}
    assert after[owls] > before[owls]  # type: ignore[operator]
    assert after[owls] == pytest.approx(before[owls] * (1 + _idf(31, 10) / _idf(31, 1)))  # type: ignore[operator]


def _idf(rows: int, n: int) -> float:
    import math

    return max(math.log((rows - n + 0.5) / (n + 0.5)), 1e-6)


def _segments(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f"SELECT count(DISTINCT segid) FROM {table}_idx").fetchone()[0])  # noqa: S608
    finally:
        conn.close()


def test_a_store_written_a_message_at_a_time_keeps_its_keyword_index_in_few_segments(tmp_path: Path) -> None:
    # Every query word is looked up in every segment of the index: a store written one message per
    # transaction (a chat bot's, a service's) had ~15 segments at 300 messages under FTS5's default merging,
    # which made a user's keyword search ~3x slower than over one segment (bench/RESULTS.md, issue 39).
    store = SQLiteStore(tmp_path / "segments.db")
    try:
        ids = [say(store, "a", "t", f"message {i} about hiking and coffee number{i}")[0] for i in range(300)]
        assert found(store, "a", "hiking", limit=500) == ids  # every message still found
        assert found(store, "a", "number123") == [ids[123]]
    finally:
        store.close()
    assert _segments(tmp_path / "segments.db", "messages_fts") <= 6


def test_upgrading_a_store_sets_its_keyword_indexes_to_merge_sooner(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)")
    for version, name, sql in MIGRATIONS:
        if version >= 16:
            break
        conn.executescript(sql)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01')", (version, name))
    conn.commit()
    conn.close()
    SQLiteStore(path).close()
    conn = sqlite3.connect(path)
    try:
        for table in ("messages_fts", "facts_fts", "summaries_fts"):
            config = dict(conn.execute(f"SELECT k, v FROM {table}_config"))  # noqa: S608
            assert config.get("automerge") == 2 and config.get("crisismerge") == 4, (table, config)
    finally:
        conn.close()
