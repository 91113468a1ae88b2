"""A context that keeps what matters (issue 38): the budget goes to facts before agent memories, summaries and
recalled turns; filler never outranks a fact; every memory the cap allows fits the default budget; no turn
is shown twice; facts unused for ``memory_decay_days`` rank lower; private facts are tagged personal."""

from __future__ import annotations

import collections
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import FakeClock
from memlane import Memory, load_settings
from memlane.context import rank_facts
from memlane.embeddings import OnnxMiniLMEmbedder
from memlane.pipeline import memories
from memlane.types import Fact
from memlane.validation import NewSummary

FACTS = [
    "Alice prefers Python",
    "Alice has a cat named Miso",
    "Alice is vegetarian",
    "Alice is allergic to penicillin",
    "Alice lives in Lisbon",
    "Alice works as a nurse",
]


@pytest.fixture(scope="module")
def minilm() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder()


def open_memory(path: Path, clock: FakeClock, embedder: Any = None, **settings: Any) -> Memory:
    config = load_settings(worker="none", embedder="none", **settings)
    return Memory(path, agent="bot", settings=config, embedder=embedder, clock=clock)


@pytest.fixture
def mem(tmp_path: Path, clock: FakeClock, minilm: OnnxMiniLMEmbedder) -> Iterator[Memory]:
    with open_memory(tmp_path / "m.db", clock, minilm) as memory:
        yield memory


def acknowledged(mem: Memory, thread: str, n: int) -> None:
    for i in range(n):
        mem.add_message(thread, "user", f"ok number {i}", user="alice", name="Alice")
        mem.add_message(thread, "assistant", "Noted.")


def test_with_300_tokens_the_allergy_survives_and_the_acknowledgements_go(mem: Memory) -> None:
    for fact in FACTS:
        mem.remember(fact, user="alice")
    acknowledged(mem, "old", 40)
    mem.add_message("t", "user", "what should I cook tonight?", user="alice", name="Alice")
    ctx = mem.context("t", user="alice", query="what should I cook tonight?", budget=300)
    text = ctx.system_text()
    assert "Alice is allergic to penicillin" in text
    assert {f.content for f in ctx.facts} == set(FACTS)  # the facts come first; they all fit
    assert "Noted." not in text and "ok number" not in text and ctx.recalled == []
    assert ctx.tokens <= 300


def test_when_the_budget_is_short_recalled_turns_go_before_facts(mem: Memory) -> None:
    for fact in FACTS:
        mem.remember(fact, user="alice")
    for i in range(12):
        mem.add_message("old", "user", f"The walnut chair order {i} ships to the Lisbon studio.", user="alice")
        mem.add_message("old", "assistant", f"Logged walnut chair order {i} in the workshop ledger.")
    mem.add_message("t", "user", "where does the walnut chair ship?", user="alice")
    roomy = mem.context("t", user="alice", query="where does the walnut chair ship?", budget=2000)
    assert roomy.recalled and len(roomy.facts) == len(FACTS)
    tight = mem.context("t", user="alice", query="where does the walnut chair ship?", budget=180)
    assert len(tight.facts) == len(FACTS) and len(tight.recalled) < len(roomy.recalled)


def test_the_default_budget_shows_every_memory_the_cap_allows(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        mem.add_message("now", "user", "What did we talk about before?", user="alice")
        for n in range(10):  # ten memories of the length an LLM writes them (2-4 sentences)
            text = (
                f"Alice planned stage {n} of the community garden with the assistant. She chose raised beds of "
                f"cedar, drip irrigation on a timer and a rota of {n + 3} neighbours for the summer weeks. "
                "They agreed to check the soil samples before buying compost."
            )
            mem.add_message(f"c{n}", "user", f"stage {n} of the garden", user="alice")
            mem.store.add_summary(
                "bot",
                f"c{n}",
                NewSummary("memory", text, 1, 2, "alice", "llm", {"users": ["alice"]}),
                clock() + timedelta(minutes=n),
            )
        ctx = mem.context("now", user="alice")
        lines = dict(ctx.extra_sections)[memories.SECTION_TITLE]
        assert len(lines) == memories.memory_cap(mem.settings) == 10
        assert ctx.tokens <= mem.settings.max_history_tokens


def test_no_turn_appears_twice_in_the_recalled_windows(mem: Memory) -> None:
    for i in range(40):
        mem.add_message("old", "user", f"I put box {i} of winter clothes in the attic.", user="alice")
        mem.add_message("old", "assistant", f"Box {i} is on the attic list now.")
    mem.add_message("t", "user", "which box did I put in the attic?", user="alice")
    ctx = mem.context("t", user="alice", query="which box did I put in the attic?")
    assert ctx.recalled
    shown = [i for hit in ctx.recalled for i in hit.message_ids] + [m.id for m in ctx.messages]
    assert [i for i, n in collections.Counter(shown).items() if n > 1] == []
    for hit in ctx.recalled:  # each window's text is the turns it lists, once each
        assert len(hit.text.splitlines()) == len(hit.message_ids)


def test_facts_unused_for_memory_decay_days_rank_lower(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, max_history_tokens=4000) as mem:
        used = mem.remember("Alice plays the cello", user="alice")
        clock.advance(minutes=1)
        unused = mem.remember("Alice collects stamps", user="alice")
        clock.advance(days=40)
        assert [h.id for h in mem.recall("cello", user="alice", kinds=["fact"])] == [used.id]  # recalled: fresh
        mem.add_message("t", "user", "hello", user="alice")
        ctx = mem.context("t", user="alice")
        assert [f.id for f in ctx.facts] == [used.id, unused.id]  # the stale one last, newer though it is
    with open_memory(tmp_path / "m.db", clock, memory_decay_days=0) as mem:
        assert [f.id for f in mem.context("t", user="alice").facts] == [unused.id, used.id]  # no decay: newest first


def test_private_facts_are_tagged_personal_and_shared_ones_shared(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        mem.remember("Alice is allergic to penicillin", user="alice")
        mem.remember("Alice sings in the choir", user="alice", visibility="shared")
        mem.remember("The bot answers in English")  # the agent's own: no tag
        mem.add_message("t", "user", "hello", user="alice")
        text = mem.context("t", user="alice").system_text()
        assert "- [fact] Alice is allergic to penicillin (personal)" in text
        assert '- [fact] shared by alice: "Alice sings in the choir"' in text  # shared, and whose words they are
        assert "- [fact] The bot answers in English\n" in text + "\n"


def _fact(i: int, importance: int, accessed_days_ago: float | None, clock: FakeClock) -> Fact:
    now = clock()
    return Fact(
        id=i,
        agent="bot",
        content=f"fact {i}",
        category="fact",
        importance=importance,
        owner="alice",
        subject=None,
        visibility="private",
        source_thread=None,
        source_from_seq=None,
        source_to_seq=None,
        status="active",
        valid_from=now - timedelta(days=100),
        invalid_at=None,
        superseded_by=None,
        metadata={},
        created_at=now - timedelta(days=100),
        updated_at=now - timedelta(days=100),
        last_accessed_at=None if accessed_days_ago is None else now - timedelta(days=accessed_days_ago),
        access_count=0,
    )


def test_rank_facts_puts_what_the_query_is_about_first_then_importance_then_freshness(clock: FakeClock) -> None:
    a, b, c, d = (
        _fact(1, 5, 1, clock),
        _fact(2, 1, 1, clock),
        _fact(3, 3, None, clock),
        _fact(4, 3, 2, clock),
    )
    now = clock()
    assert [f.id for f in rank_facts([a, b, c, d], {}, now=now, decay_days=30)] == [1, 4, 3, 2]
    assert [f.id for f in rank_facts([a, b, c, d], {2: 1.0, 1: 0.3}, now=now, decay_days=30)] == [2, 1, 4, 3]
    assert [f.id for f in rank_facts([a, b, c, d], {}, now=now, decay_days=0)] == [1, 3, 4, 2]
