"""What a recall returns is relevant: facts ranked for the question, scores that mean the same in every
query, a floor below which nothing is returned, a profile hit that shows only its text, and access counts
kept for what was really returned (issue 38; figures in bench/RESULTS.md, "Fact recall and the score floor").

These use the local MiniLM embedder, as a new user's memory does: what is relevant is a matter of meaning.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from typer.testing import CliRunner

from memlane import AsyncMemory, Memory, load_settings
from memlane.cli.app import app
from memlane.config import MIN_SCORE
from memlane.embeddings import OnnxMiniLMEmbedder
from memlane.errors import InvalidInput

NOW = datetime(2025, 6, 11, 18, 0, tzinfo=UTC)
ALICE = ("Alice prefers Python", "Alice has a cat named Miso", "Alice is vegetarian")


@pytest.fixture(scope="module")
def minilm() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder()


@pytest.fixture
def alice(store_url: str, minilm: OnnxMiniLMEmbedder) -> Iterator[Memory]:
    """Alice's three facts, on each backend."""
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="bot", settings=settings, embedder=minilm, clock=lambda: NOW) as mem:
        for text in ALICE:
            mem.remember(text, user="alice")
        yield mem


def _texts(hits: list) -> list[str]:  # type: ignore[type-arg]
    return [h.text for h in hits]


def test_the_fact_that_answers_the_question_ranks_first(alice: Memory) -> None:
    # Every fact holds "alice": matching that word says nothing of which one is meant (it ranked the cat last).
    for query in ("what pet does alice have", "What pet does Alice have?"):
        hits = alice.recall(query, user="alice", kinds=["fact"])
        assert hits[0].text == "Alice has a cat named Miso", _texts(hits)


def test_a_query_nothing_answers_returns_nothing(alice: Memory) -> None:
    assert alice.recall("zzzz", user="alice") == []
    assert alice.recall("What is the boiling point of mercury in kelvin?", user="alice", kinds=["fact"]) == []


def test_scores_mean_the_same_in_every_query(alice: Memory) -> None:
    # With the floor off, nonsense still finds the facts, each scoring below the default floor: the best of a
    # nonsense list is no longer stretched to the top of the scale (it scored 0.72, above a real answer).
    nonsense = alice.recall("zzzz", user="alice", kinds=["fact"], min_score=0)
    assert len(nonsense) == 3
    assert max(h.score for h in nonsense) < MIN_SCORE
    answer = alice.recall("what pet does alice have", user="alice", kinds=["fact"], min_score=0)
    assert answer[0].score > MIN_SCORE > max(h.score for h in nonsense)
    assert all(0.0 <= h.score <= 1.5 for h in [*nonsense, *answer])


def test_min_score_is_checked(alice: Memory) -> None:
    for bad in (-0.1, 1.5, True, "0.2"):
        with pytest.raises(InvalidInput, match="min_score"):
            alice.recall("python", user="alice", min_score=bad)  # type: ignore[arg-type]
    # The whole scale is allowed: 1 keeps only perfect matches (every word of the query, the best of them).
    assert _texts(alice.recall("python", user="alice", min_score=1.0)) == ["Alice prefers Python"]


def test_only_facts_returned_count_as_recalled(alice: Memory) -> None:
    alice.recall("zzzz", user="alice")
    alice.recall("zzzz", user="alice", kinds=["fact"])
    assert [f.access_count for f in alice.facts(user="alice")] == [0, 0, 0]
    hits = alice.recall("what pet does alice have", user="alice", kinds=["fact"], limit=1)
    counts = {f.content: f.access_count for f in alice.facts(user="alice")}
    assert _texts(hits) == ["Alice has a cat named Miso"]
    assert counts == {"Alice has a cat named Miso": 1, "Alice prefers Python": 0, "Alice is vegetarian": 0}


def test_the_profile_hit_shows_its_text_only_when_it_answers(alice: Memory) -> None:
    alice.run_jobs()  # the profile: a summary merged from Alice's facts
    profiles = alice.recall("Alice cat Miso Python vegetarian", user="alice", kinds=["summary"])
    assert len(profiles) == 1
    profile = profiles[0]
    assert profile.metadata["summary_kind"] == "profile"
    assert "Alice has a cat named Miso" in profile.text
    # Its internal fields and the keys the store files it by (no range of turns) are not shown.
    for internal in ("signature", "covered", "from_seq", "to_seq"):
        assert internal not in profile.metadata
    # Nothing relevant: no profile. Beside a fact it merges, it only repeats it: no profile either.
    assert alice.recall("zzzz", user="alice") == []
    mixed = alice.recall("what pet does alice have", user="alice")
    assert "Alice has a cat named Miso" in _texts(mixed)
    assert all(h.kind == "fact" for h in mixed), [(h.kind, h.text) for h in mixed]


def test_async_recall_takes_the_floor(tmp_path, minilm: OnnxMiniLMEmbedder) -> None:  # type: ignore[no-untyped-def]
    settings = load_settings(embedder="none", worker="none")

    async def scenario() -> tuple[list, list]:  # type: ignore[type-arg]
        async with AsyncMemory(tmp_path / "a.db", agent="bot", settings=settings, embedder=minilm) as mem:
            for text in ALICE:
                await mem.remember(text, user="alice")
            return await mem.recall("zzzz", user="alice"), await mem.recall("zzzz", user="alice", min_score=0)

    floored, everything = asyncio.run(scenario())
    assert floored == []
    assert len(everything) == 3


def test_cli_recall_min_score(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    for text in ALICE:
        assert runner.invoke(app, ["--db", db, "remember", text, "--user", "alice"]).exit_code == 0
    query = "alice zebra"  # keyword recall (no embedder): "alice", a word of every fact, tells none apart
    found = runner.invoke(app, ["--db", db, "--json", "recall", query, "--user", "alice", "--min-score", "0"])
    assert found.exit_code == 0, found.output
    assert found.output.count('"kind": "fact"') == 3
    floor = runner.invoke(app, ["--db", db, "recall", query, "--user", "alice", "--min-score", "0.15"])
    assert floor.exit_code == 0 and "--min-score 0 shows every hit" in floor.output
    bad = runner.invoke(app, ["--db", db, "recall", "alice", "--min-score", "2"])
    assert bad.exit_code != 0 and "min_score" in bad.output


def test_a_fact_that_answers_outranks_a_lone_message(alice: Memory) -> None:
    # Each kind is ranked against its own: a store's only message was its kind's best, so it came first for
    # any question ("what pet does alice have" → "Hi, I'm Alice and I love Python", above the cat).
    alice.add_message("general", "user", "Hi, I'm Alice and I love Python", user="alice", name="Alice")
    for query in ("what pet do I have?", "what pet does alice have"):
        # PostgreSQL weighed every word alike in a store too small for its statistics: "alice", in every
        # message, counted as much as "pet"; its words are now counted in the messages.
        hits = alice.recall(query, user="alice", min_score=0)
        assert hits[0].text == "Alice has a cat named Miso", [(h.kind, h.text, h.score) for h in hits]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_every_hit_that_matches_scores_as_it_matches(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Keyword search alone: two facts hold the query's only word. The second scored ~0 (min-max puts the last
    # of a list at the bottom), so any floor dropped a fact that matches as well as the first.
    settings = load_settings(embedder="none", worker="none")
    with Memory(tmp_path / "k.db", agent="bot", settings=settings, clock=lambda: NOW) as mem:
        mem.remember("Bob plays chess on Sundays", user="bob", visibility="shared")
        mem.remember("Carol plays chess with her grandfather", user="carol", visibility="shared")
        mem.remember("Dave collects stamps", user="dave", visibility="shared")
        hits = mem.recall("chess", kinds=["fact"], min_score=0)
    assert len(hits) == 2, [(h.text, h.score) for h in hits]
    assert hits[1].score >= 0.5 * hits[0].score > 0, [(h.text, h.score) for h in hits]


def test_a_match_of_the_query_never_scores_near_zero_with_keyword_search_alone(store_url: str) -> None:
    # No embedder: the keyword half alone. Both facts hold the query's only word; min-max put the second of the
    # two at 0.0 (and a floor then dropped it), though it matches the query as fully as the first.
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="bot", settings=settings, embedder=None, clock=lambda: NOW) as mem:
        mem.remember("Bob read a book about bees and bees and honey", user="bob", visibility="shared")
        mem.remember("Alice keeps bees on her roof", user="alice", visibility="shared")
        mem.remember("Bob likes jazz", user="bob", visibility="shared")
        hits = mem.recall("bees", kinds=["fact"], min_score=0)
        assert sorted(_texts(hits)) == ["Alice keeps bees on her roof", "Bob read a book about bees and bees and honey"]
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert min(h.score for h in hits) > 0.9, [(h.text, h.score) for h in hits]
        assert len(mem.recall("bees", kinds=["fact"], min_score=0.5)) == 2


def test_facts_weigh_their_halves_by_their_own_weights(alice: Memory) -> None:
    from dataclasses import replace

    from memlane.errors import ConfigError
    from memlane.retrieval import get_preset

    default = get_preset("default")
    assert default.weights_of("fact") == {"keyword": 1.0, "vector": 1.0}
    assert default.weights_of("message") == default.weights
    alice.add_message("t1", "user", "My cat Miso sleeps on the piano all day", user="alice")
    alice.add_message("t1", "user", "I prefer cooking vegetarian lasagna for dinner", user="alice")
    query = "prefers a kitten"  # the word "prefers" says Python; the meaning says the cat
    first = alice.recall(query, user="alice", kinds=["fact"], min_score=0)[0]
    assert first.text == "Alice has a cat named Miso"
    # Facts by their keyword half alone: the word decides. Messages keep the shared weights: the same scores.
    by_keyword = replace(default, kind_weights={"fact": {"keyword": 1.0, "vector": 0.0}})
    assert alice.recall(query, user="alice", kinds=["fact"], min_score=0, preset=by_keyword)[0].text == (
        "Alice prefers Python"
    )
    messages = alice.recall(query, user="alice", kinds=["message"], min_score=0, limit=2)
    again = alice.recall(query, user="alice", kinds=["message"], min_score=0, preset=by_keyword, limit=2)
    assert [(h.text, h.score) for h in again] == [(h.text, h.score) for h in messages]
    with pytest.raises(ConfigError, match="kind_weights"):
        replace(default, kind_weights={"fact": {"vector": -1.0}})


def test_a_list_whose_first_hits_match_nothing_scores_as_they_do() -> None:
    # Measured on LoCoMo: "How many moons does Neptune have?" ranked messages that match nothing (cosines under
    # that of unrelated texts) first, and "I'm over the moon" (half the question's words, by rarity) further
    # down; the first hit was shown that far match's relevance, so no floor could say "nothing relevant".
    # The scale now comes from the leading hits; a list whose leading hit matches shows its own relevance.
    from memlane.retrieval.engine import LEADING_HITS, _scaled
    from memlane.retrieval.rerank import Found

    found = [Found("message", i, score, "vector", None) for i, score in enumerate((0.9, 0.8, 0.7, 0.6))]  # type: ignore[arg-type]
    over_the_moon = {("message", 3): 0.47}
    scores = [f.score for f in _scaled(found, over_the_moon)]
    assert LEADING_HITS < 4 and max(scores) < MIN_SCORE, scores
    answered = {("message", 0): 0.47, ("message", 3): 0.2}
    scores = [f.score for f in _scaled(found, answered)]
    assert scores[0] == pytest.approx(0.47) and scores == sorted(scores, reverse=True), scores


def test_forgetting_a_fact_said_in_the_first_person(store_url: str, minilm: OnnxMiniLMEmbedder) -> None:
    # remember() stores "I keep bees on my roof" as "Bob keeps bees on their roof"; forget_matching compared the
    # words as said with the stored text, so with the local model the same sentence forgot nothing.
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="bot", settings=settings, embedder=minilm, clock=lambda: NOW) as mem:
        bees = mem.remember("I keep bees on my roof", user="bob")
        tea = mem.remember("my favourite tea is oolong", user="bob")
        assert [f.id for f in mem.forget_matching("forget that I keep bees on my roof", user="bob")] == [bees.id]
        assert [f.id for f in mem.facts(user="bob")] == [tea.id]
