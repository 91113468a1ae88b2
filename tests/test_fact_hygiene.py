"""Facts kept clean without an LLM (issue 38): near duplicates merge into one fact, first-person facts read
in the third person, and what a user plainly states becomes a fact as soon as their message is stored, in the
same transaction, while the LLM's extraction stays batched."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import FakeClock
from memlane import ChatCommands, Memory, ProviderError, load_settings
from memlane.embeddings import FakeEmbedder, OnnxMiniLMEmbedder
from memlane.embeddings.base import EmbedKind
from memlane.pipeline.attributes import third_person
from memlane.pipeline.rules import extract_facts
from memlane.testing import ScriptedLLM


@pytest.fixture(scope="module")
def minilm() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder()


def open_memory(path: Path, clock: FakeClock, embedder: Any = None, llm: Any = None, **settings: Any) -> Memory:
    config = load_settings(worker="none", embedder="none", **settings)
    return Memory(path, agent="bot", settings=config, embedder=embedder, llm=llm, clock=clock)


@pytest.fixture
def mem(tmp_path: Path, clock: FakeClock, minilm: OnnxMiniLMEmbedder) -> Iterator[Memory]:
    with open_memory(tmp_path / "m.db", clock, minilm) as memory:
        yield memory


@pytest.fixture
def bare(tmp_path: Path, clock: FakeClock) -> Iterator[Memory]:
    with open_memory(tmp_path / "bare.db", clock) as memory:  # no embedder
        yield memory


def contents(mem: Memory, user: str) -> list[str]:
    return sorted(f.content for f in mem.facts(user))


# -- near duplicates ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, second", [("Bob likes jazz", "bob likes jazz music"), ("bob likes jazz music", "Bob likes jazz")]
)
@pytest.mark.parametrize("memory", ["mem", "bare"])
def test_near_duplicates_merge_into_one_fact_whose_history_keeps_both_texts(
    first: str, second: str, memory: str, request: pytest.FixtureRequest
) -> None:
    m: Memory = request.getfixturevalue(memory)
    kept = m.remember(first, user="bob")
    merged = m.remember(second, user="bob")
    assert merged.id == kept.id
    assert contents(m, "bob") == ["bob likes jazz music"]  # the longer text says all the shorter does
    history = m.fact_history(kept.id)
    assert [c.action for c in history] == ["create", "merge"]
    written = {c.old_content for c in history} | {c.new_content for c in history}
    said = written | set(merged.metadata.get("merged", []))
    assert {first, second} <= said


@pytest.mark.parametrize(
    "stored, new",
    [
        ("Alice likes coffee", "Alice likes coffee ice cream"),  # containment, but another thing (cosine 0.87)
        ("Alice went to Rome", "Alice never went to Rome"),  # one negates the other
        ("Alice has a cat", "Alice had a cat"),  # the tense is a word too
        ("Alice likes tea", "Alice's mother likes tea"),  # someone else's taste
        ("Alice lives in Paris", "Alice used to live in Paris"),
    ],
)
def test_facts_that_differ_are_not_merged(mem: Memory, stored: str, new: str) -> None:
    mem.remember(stored, user="alice")
    mem.remember(new, user="alice")
    assert contents(mem, "alice") == sorted([stored, new])


def test_a_near_duplicate_of_another_owner_or_subject_is_its_own_fact(mem: Memory) -> None:
    mem.remember("Bob likes jazz", user="bob")
    mem.remember("bob likes jazz music", user="carol")
    mem.remember("bob likes jazz music", user="bob", subject="dad")
    assert contents(mem, "bob") == ["Bob likes jazz", "bob likes jazz music"]
    assert contents(mem, "carol") == ["bob likes jazz music"]


# -- third person ------------------------------------------------------------------------------------


def test_first_person_facts_are_stored_in_the_third_person_with_the_display_name(mem: Memory) -> None:
    mem.add_message("t", "user", "hello", user="u42", name="Alice")
    assert mem.remember("I like tea", user="u42").content == "Alice likes tea"
    assert mem.remember("my birthday is May 3", user="u42").content == "Alice's birthday is May 3"
    assert mem.remember("I don't eat meat", user="u42").content == "Alice doesn't eat meat"
    assert mem.remember("I like tea", user="alice").content == "Alice likes tea"  # no name given: the id
    assert mem.remember("I like tea", user="u7").content == "u7 likes tea"
    assert mem.remember("I am a helpful assistant").content == "I am a helpful assistant"  # no owner: as said
    assert mem.remember("Bob prefers aisle seats", user="u42").content == "Bob prefers aisle seats"
    assert mem.remember("Mel carves out me-time daily", user="u42").content == "Mel carves out me-time daily"


def test_the_name_a_user_told_names_their_facts(bare: Memory) -> None:
    bare.remember("The user's name is Alice", user="u9")
    assert bare.remember("I like tea", user="u9").content == "Alice likes tea"


def test_chat_remember_stores_the_fact_in_the_third_person(bare: Memory) -> None:
    bot = ChatCommands(bare, None)
    asyncio.run(bot.handle("#general", "alice", "!chat remember I like tea"))
    assert contents(bare, "alice") == ["Alice likes tea"]


def test_third_person_keeps_contractions_and_reads_a_lower_case_i() -> None:
    assert third_person("I don't like rain", "Alice") == "Alice doesn't like rain"
    assert third_person("I haven't been to Peru", "Alice") == "Alice hasn't been to Peru"
    assert third_person("I won't fly", "Alice") == "Alice won't fly"
    assert third_person("i like tea", "Alice") == "Alice likes tea"
    assert third_person("I take me-time on Sundays", "Alice") == "Alice takes me-time on Sundays"


# -- facts stated in a message -----------------------------------------------------------------------


def test_explicit_statements_become_facts_when_the_message_is_added(bare: Memory) -> None:
    message = bare.add_message(
        "t",
        "user",
        "Please remember that my locker code is 4512. I'm allergic to penicillin. My birthday is May 3.",
        user="alice",
        name="Alice",
    )
    facts = bare.facts("alice")  # no job has run
    assert sorted(f.content for f in facts) == [
        "Alice is allergic to penicillin",
        "Alice's birthday is May 3",
        "Alice's locker code is 4512",
    ]
    assert all(f.source_thread == "t" and f.source_from_seq == message.seq for f in facts)
    assert all(f.metadata["method"] == "rules" for f in facts)
    assert bare.recall("penicillin", user="alice", kinds=["fact"])[0].text == "Alice is allergic to penicillin"


def test_a_name_told_in_the_message_names_its_other_facts(bare: Memory) -> None:
    bare.add_message("t", "user", "My name is Alice and I live in Lisbon.", user="u5")
    assert contents(bare, "u5") == ["Alice lives in Lisbon", "The user's name is Alice"]
    bare.add_message("t", "user", "I'm allergic to penicillin.", user="u5")
    assert "Alice is allergic to penicillin" in contents(bare, "u5")


def test_a_statement_said_again_or_found_again_by_the_batch_is_one_fact(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, summarize_after=4, summarize_batch=3) as m:
        for text in ["I'm allergic to penicillin.", "ok", "I'm allergic to penicillin!", "fine", "cool"]:
            m.add_message("t", "user", text, user="alice", name="Alice")
        m.run_jobs()  # the batch reads the same messages with the same rules
        assert m.summaries("t")  # the batch ran
        assert contents(m, "alice") == ["Alice is allergic to penicillin"]


def test_a_changed_attribute_supersedes_the_old_fact_at_once(bare: Memory) -> None:
    bare.add_message("t", "user", "I live in Lisbon.", user="alice", name="Alice")
    bare.add_message("t", "user", "I live in Porto now.", user="alice", name="Alice")
    assert contents(bare, "alice") == ["Alice lives in Porto"]
    [old] = [f for f in bare.facts("alice", include_superseded=True) if f.status == "superseded"]
    assert old.content == "Alice lives in Lisbon" and old.superseded_by == bare.facts("alice")[0].id
    assert [c.action for c in bare.fact_history(old.id)] == ["create", "supersede"]


def test_the_llm_extraction_stays_batched(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM()
    with open_memory(tmp_path / "m.db", clock, llm=llm) as m:
        m.add_message("t", "user", "I'm allergic to penicillin.", user="alice", name="Alice")
        assert contents(m, "alice") == ["Alice is allergic to penicillin"]
        assert llm.calls == []  # the rules found it; no model was asked


def test_facts_on_write_off_leaves_the_facts_to_the_batch(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, facts_on_write=False) as m:
        m.add_message("t", "user", "I'm allergic to penicillin.", user="alice", name="Alice")
        assert m.facts("alice") == []


def test_facts_are_stated_through_every_way_of_writing_messages(bare: Memory) -> None:
    bare.add_messages("a", [{"role": "user", "content": "My birthday is May 3.", "user": "ann", "name": "Ann"}])
    bare.add_to_threads({"b": [{"role": "user", "content": "I live in Lisbon.", "user": "ben", "name": "Ben"}]})
    bare.add_message("c", "assistant", "I'm allergic to penicillin.")  # the assistant states nothing of a user
    assert contents(bare, "ann") == ["Ann's birthday is May 3"]
    assert contents(bare, "ben") == ["Ben lives in Lisbon"]
    assert len(bare.facts(all_users=True)) == 2


class FailingOnMessages(FakeEmbedder):
    """Embeds facts, fails on messages (their text starts with the speaker's name)."""

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> np.ndarray:
        if any(t.startswith("Alice:") for t in texts):
            raise ProviderError("the embedder is down")
        return super().embed_batch(texts, kind)


def test_a_message_that_cannot_be_stored_leaves_no_fact(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, FailingOnMessages(), embed_behind=False) as m:
        with pytest.raises(ProviderError):
            m.add_message("t", "user", "I'm allergic to penicillin.", user="alice", name="Alice")
        assert m.history("t") == [] and m.facts("alice") == []


# -- the rules themselves ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Remember that you're not alone in this!",  # advice to the listener
        "Remember that staying positive is very important.",  # a maxim, about no one
        "I love the way the sunlight hits this.",  # a reaction to something shown
        "Wow, I love all the yellow leaves!",
        "I love getting lost in a good book.",  # a feeling described
        "I like to go.",  # a bare verb
    ],
)
def test_what_is_not_a_fact_about_the_speaker_yields_none(text: str) -> None:
    assert extract_facts(text, who="Alice") == []


@pytest.mark.parametrize(
    "text, fact",
    [
        ("Remember that Bob is vegan.", "Bob is vegan"),
        ("I love the ocean.", "Alice loves the ocean"),
        ("I love hiking - check out this photo", "Alice loves hiking"),
    ],
)
def test_what_the_speaker_states_still_yields_a_fact(text: str, fact: str) -> None:
    assert [f.content for f in extract_facts(text, who="Alice")] == [fact]


def test_a_number_more_is_another_fact_not_a_near_duplicate(tmp_path: Path) -> None:
    with Memory(tmp_path / "n.db", agent="a", settings=load_settings(embedder="none", worker="none")) as mem:
        mem.remember("fact 0", user="u")
        mem.remember("fact 0-25", user="u")
        mem.remember("the locker code is 4821", user="u")
        mem.remember("the locker code is 4821 or 1234", user="u")
        assert len(mem.facts(user="u")) == 4
