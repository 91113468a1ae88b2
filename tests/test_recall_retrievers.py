"""Each recall hit names the retrievers that found it (``Hit.retrievers``): the review UI's playground shows it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import CountingEmbedder
from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder


def test_hits_name_the_retrievers_that_found_them(tmp_path: Path) -> None:
    settings = load_settings(embedder="none", worker="none")
    with Memory(tmp_path / "r.db", agent="bot", settings=settings, embedder=FakeEmbedder()) as mem:
        mem.remember("Alice keeps bees on her roof", user="alice")
        mem.add_message("t1", "user", "the bees swarmed again today", user="alice")
        hits = mem.recall("bees", user="alice", limit=10)
        assert hits and all(h.retrievers for h in hits)
        assert all(set(h.retrievers) <= {"keyword", "vector"} for h in hits)
        # Both words match, so the keyword retriever found both items (the fake embedder finds them too).
        assert all("keyword" in h.retrievers for h in hits)
        keyword_only = mem.recall("bees", user="alice", limit=10, preset="keyword")
        assert [h.retrievers for h in keyword_only] == [("keyword",)] * len(keyword_only)
        vector_only = mem.recall("honey", user="alice", limit=10, preset="vector")
        assert vector_only and all(h.retrievers == ("vector",) for h in vector_only)
    with Memory(tmp_path / "k.db", agent="bot", settings=settings) as plain:  # no embedder: keyword only
        plain.remember("Bob sails on Sundays", user="bob")
        plain.add_message("t1", "user", "sails need mending", user="bob")
        found = plain.recall("sails", user="bob", limit=10)
        assert {h.kind for h in found} == {"fact", "message"}  # one retriever over two kinds, fused by rank
        assert all(h.retrievers == ("keyword",) for h in found)


def test_a_large_agents_keyword_matches_are_ranked_by_the_one_query_embedding(tmp_path: Path) -> None:
    """A whole-agent recall of a large agent ranks the keyword matches by their vectors (the store asks for
    the query's vector): the query is embedded once for both retrievers, and of the messages holding the
    query's rare word the one nearest the query comes first, where BM25 (a memory without an embedder)
    puts the shorter one first."""
    settings = load_settings(embedder="none", worker="none")
    embedder = CountingEmbedder()
    query = "kestrels weather talk"
    with Memory(tmp_path / "big.db", agent="bot", settings=settings, embedder=embedder) as mem:
        for i in range(40):
            mem.add_message(f"t{i % 4}", "user", f"small talk about the weather, part {i}", user=f"u{i % 3}")
        short = mem.add_message("t5", "user", "kestrels, no idea", user="u1").id
        near = mem.add_message("t6", "user", "kestrels hunting in the weather", user="u2").id
        words = mem.store._common_words  # type: ignore[attr-defined]
        words.LARGE_AGENT, words.VECTOR_POSTINGS_BUDGET = 30, 5  # 42 messages are a large agent; 'kestrels' is rare
        embedder.queries.clear()
        hits = mem.recall(query, limit=3)
        assert embedder.queries == [query]  # once, shared by both retrievers
        assert [h.id for h in mem.recall(query, limit=2, preset="keyword")] == [near, short]
    with Memory(tmp_path / "big.db", agent="bot", settings=settings, embedder=None, check_model=False) as plain:
        words = plain.store._common_words  # type: ignore[attr-defined]
        words.LARGE_AGENT, words.POSTINGS_BUDGET = 30, 5
        assert [h.id for h in plain.recall(query, limit=2)] == [short, near]  # BM25: the shorter first
    assert hits[0].id == near


def test_nested_concurrent_reads_never_wait_for_threads_they_occupy(tmp_path: Path) -> None:
    """A recall's reads run on the process's few search threads, and some of them run reads of their own
    (records, windows). Under load every search thread may be running such a read at once: its inner reads
    must then run on the thread that needs them, not queue for a search thread that never frees up (a server
    under 16 concurrent recalls hung for good that way)."""
    import threading

    from memlane.retrieval.engine import _SEARCH_THREADS, Searcher

    with Memory(tmp_path / "m.db", settings=load_settings(embedder="none", worker="none")) as mem:
        searcher = Searcher(mem.store)
        searcher.concurrent = True  # as on PostgreSQL
        together = threading.Barrier(_SEARCH_THREADS.workers + 1, timeout=20)

        def outer() -> int:
            together.wait()  # every search thread, and the caller's, busy with an outer read at once
            return sum(searcher._all([lambda: 1, lambda: 2, lambda: 3]))

        results: list[list[int]] = []
        caller = threading.Thread(
            target=lambda: results.append(searcher._all([outer] * (_SEARCH_THREADS.workers + 1))), daemon=True
        )
        caller.start()
        caller.join(30)
        assert not caller.is_alive(), "nested reads waited for search threads held by their callers: a deadlock"
        assert results == [[6] * (_SEARCH_THREADS.workers + 1)]


def test_a_search_goes_side_by_side_only_while_its_query_vector_takes_a_while(tmp_path: Path) -> None:
    """Side by side, a search's steps cost more CPU; that pays only while its query's vector is being made. With
    the vector at hand (cached, or an embedder that answers at once) every step runs on the calling thread."""
    import threading

    embedder = FakeEmbedder()
    with Memory(tmp_path / "m.db", settings=load_settings(worker="none"), embedder=embedder) as mem:
        mem.add_message("t", "user", "we adopted a golden retriever puppy", user="u")
        mem.flush()
        threads: list[str] = []
        vector = mem.searcher.retrievers["vector"]

        def noted(*args, **kwargs):  # type: ignore[no-untyped-def]
            threads.append(threading.current_thread().name)
            return vector(*args, **kwargs)

        mem.searcher.retrievers["vector"] = noted
        mem.searcher.concurrent = True  # as on PostgreSQL, or SQLite with a connection per thread
        mem.recall("a new dog?", limit=1)  # the first query: its vector's time is not known yet
        assert embedder.query_wait("some new question") == pytest.approx(embedder._query_seconds)
        assert not mem._query_waits("some new question")  # the stand-in answers in well under a millisecond
        mem.searcher.waits = lambda query: True  # as when making the query's vector takes a while
        mem.recall("is there a dog?", limit=1)
        mem.searcher.waits = lambda query: False
        mem.recall("any pets?", limit=1)
    main = threading.current_thread().name
    assert threads[0] != main and threads[1] != main and threads[2] == main, threads
    assert embedder.query_wait("is there a dog?") == 0.0  # cached now


def test_postgresql_searches_overlap_their_round_trips_whatever_the_embedder(store_url: str) -> None:
    with Memory(store_url, settings=load_settings(worker="none"), embedder=FakeEmbedder()) as mem:
        assert (mem.searcher.waits is None) == (mem.store.backend == "postgres")
