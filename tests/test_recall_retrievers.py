"""Each recall hit names the retrievers that found it (``Hit.retrievers``): the review UI's playground shows it."""

from __future__ import annotations

from pathlib import Path

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
