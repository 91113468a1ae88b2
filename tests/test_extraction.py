"""Extraction without an LLM (rules, extractive summaries) and fact consolidation (thresholds and LLM)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from conftest import FakeClock
from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder
from memlane.llm import ChatMessage
from memlane.pipeline.consolidate import consolidate, lexical_similarity
from memlane.pipeline.extractive import (
    Utterance,
    centrality,
    content_terms,
    extractive_summary,
    split_sentences,
    tfidf_vectors,
)
from memlane.pipeline.prompts import (
    CONSOLIDATE_FACT,
    SUMMARIZE_AND_EXTRACT,
    ConsolidationDecision,
    PromptMessage,
    SummarizeInput,
    SummaryAndFacts,
)
from memlane.pipeline.rules import CandidateFact, attribute_of, extract_facts, third_person
from memlane.testing import Fault, ScriptedLLM


def contents(text: str, who: str = "Alice") -> list[str]:
    return [f.content for f in extract_facts(text, who=who)]


# -- rules: what they find --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My name is Alice.", ["The user's name is Alice"]),
        ("my name is alice", ["The user's name is Alice"]),
        ("Call me Al.", ["Alice's name is Al"]),
        ("I live in Lisbon.", ["Alice lives in Lisbon"]),
        ("No, I live in Lisbon, not Porto.", ["Alice lives in Lisbon"]),
        ("I moved to Berlin last year.", ["Alice lives in Berlin"]),
        ("I'm based in Portland, Oregon.", ["Alice lives in Portland, Oregon"]),
        ("I'm from Porto originally.", ["Alice is from Porto"]),
        ("I work as a nurse.", ["Alice works as a nurse"]),
        ("I work at Google.", ["Alice works at Google"]),
        ("I'm a software engineer.", ["Alice is a software engineer"]),
        ("I really like jazz.", ["Alice likes jazz"]),
        ("I love hiking in the mountains!", ["Alice loves hiking in the mountains"]),
        ("Yeah, I love expressing myself through writing.", ["Alice loves expressing themselves through writing"]),
        ("Pizza? Cool, I love pizza too!", ["Alice loves pizza"]),
        ("I prefer tea over coffee.", ["Alice prefers tea over coffee"]),
        ("I hate olives.", ["Alice dislikes olives"]),
        ("I don't like cilantro.", ["Alice dislikes cilantro"]),
        ("I'm not a fan of horror movies.", ["Alice dislikes horror movies"]),
        ("My favourite colour is green.", ["Alice's favourite colour is green"]),
        ("Please remember that my sister is called Jane.", ["Alice's sister is called Jane"]),
        ("Rosey, remember that I have a dog named Rex.", ["Alice has a dog named Rex"]),
        ("I'm allergic to peanuts and shellfish.", ["Alice is allergic to peanuts and shellfish"]),
        ("I have a severe peanut allergy.", ["Alice is allergic to peanut"]),
        ("My birthday is on March 3rd.", ["Alice's birthday is March 3rd"]),
        ("I'm 34 years old.", ["Alice is 34 years old"]),
        ("I'm vegetarian.", ["Alice is vegetarian"]),
    ],
)
def test_rules_find_explicit_statements(text: str, expected: list[str]) -> None:
    assert contents(text) == expected


def test_one_message_can_state_several_facts_in_order() -> None:
    found = extract_facts("My name is Alice and I live in Lisbon. I like jazz but I hate olives.", who="Alice")
    assert [f.content for f in found] == [
        "The user's name is Alice",
        "Alice lives in Lisbon",
        "Alice likes jazz",
        "Alice dislikes olives",
    ]
    assert [f.category for f in found] == ["fact", "fact", "preference", "preference"]


def test_rule_facts_carry_category_importance_attribute_and_rule() -> None:
    (allergy,) = extract_facts("I'm allergic to peanuts.", who="Alice")
    assert (allergy.category, allergy.importance, allergy.rule) == ("fact", 5, "rules:allergy")
    (home,) = extract_facts("I live in Lisbon.", who="Alice")
    assert (home.attribute, home.value) == ("location", "lisbon")
    (taste,) = extract_facts("I don't like jazz.", who="Alice")
    assert (taste.attribute, taste.value) == ("opinion:jazz", "-")


def test_rules_write_the_third_person_with_the_name_given() -> None:
    assert contents("I live in Lisbon.", who="Bob") == ["Bob lives in Lisbon"]
    assert contents("I live in Lisbon.", who="The user") == ["The user lives in Lisbon"]
    assert third_person("I have a dog and my dog likes me", "Alice") == "Alice has a dog and their dog likes them"


# -- rules: what they must not find -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # questions
        "Do you like jazz?",
        "Where do I live?",
        "Is my name Alice?",
        "What if I said my name is Zed?",
        # negations
        "I don't live in Berlin anymore.",
        "It's not true that I live in Rome.",
        "I'm not vegan.",
        "My name is not important.",
        # hypotheticals and wishes
        "If I lived in Paris I would be happy.",
        "If I live in Paris, I'll eat croissants every day.",
        "Hypothetically, my name is Zed.",
        "I would love to live in Tokyo one day.",
        "I'd like a coffee please.",
        "Maybe I like jazz, I'm not sure.",
        # reported and quoted speech
        'She said "my name is Bob".',
        "My brother says I live in a bubble.",
        "He told me I love drama.",
        "Her last text was 'I live in Madrid now'.",
        # vague objects, figures of speech, requests that are not facts
        "I love it!",
        "I love you guys.",
        "I like that idea.",
        "I like to think we are friends.",
        "I live in fear of spiders.",
        "I'm a terrible cook.",
        "call me tomorrow",
        "I remember that day well.",
        "Remember that time we went to Rome?",
        "remember to buy milk",
        "Do you remember that I live in Lisbon?",
        "Bob, remember the vegetarian thing!",
        # not the clause's own statement: a relative clause, or cut off
        "I'm grateful to have a job I enjoy every day.",
        "I love making him happy.",
        "Nature is great, I like to come to",
    ],
)
def test_rules_ignore_questions_negations_hypotheticals_and_quotes(text: str) -> None:
    assert extract_facts(text, who="Alice") == []


def test_a_clause_is_judged_on_its_own() -> None:
    # The question does not hide the statement before it, and vice versa.
    assert contents("I live in Lisbon. Do you know any good bakeries?") == ["Alice lives in Lisbon"]
    assert contents("Do you like jazz? I love it.") == []


def test_the_same_fact_twice_in_a_message_is_returned_once() -> None:
    assert contents("I live in Lisbon. Yes, I live in Lisbon!") == ["Alice lives in Lisbon"]


@pytest.mark.parametrize(
    ("content", "attribute"),
    [
        ("Alice lives in Berlin", ("location", "berlin")),
        ("Alice moved to Paris.", ("location", "paris")),
        ("The user's name is Alice", ("name", "alice")),
        ("Bob works at Acme Corp", ("employer", "acme corp")),
        ("Alice is a software engineer", ("occupation", "software engineer")),
        ("Alice likes jazz", ("opinion:jazz", "+")),
        ("Alice dislikes jazz", ("opinion:jazz", "-")),
        ("Alice's favourite colour is blue", ("favourite:colour", "blue")),
        ("Alice is 34 years old", ("age", "34")),
        ("Alice's sister lives in Rome", None),  # about someone else
        ("The gift is from Bob", None),  # about something else
        ("Alice has a dog", None),
    ],
)
def test_attribute_of_reads_third_person_facts(content: str, attribute: tuple[str, str] | None) -> None:
    assert attribute_of(content) == attribute


# -- extractive summaries ---------------------------------------------------------------------------


def test_split_sentences_keeps_abbreviations_and_breaks_lines() -> None:
    text = "Dr. Smith lives on Baker St. in London. Is he nice? Yes!\nNew line here"
    assert split_sentences(text) == ["Dr. Smith lives on Baker St. in London.", "Is he nice?", "Yes!", "New line here"]
    assert split_sentences("   ") == []


def test_content_terms_drop_stopwords_and_plurals() -> None:
    assert content_terms("The apartments in Alfama are lovely, and I like them") == ["apartment", "alfama", "lovely"]


def test_centrality_prefers_the_sentence_about_the_common_topic() -> None:
    docs = [["lisbon", "flight"], ["lisbon", "trip", "hotel"], ["lisbon", "trip"], ["trip", "hotel"], ["cat"]]
    scores = centrality(tfidf_vectors(docs))
    assert int(np.argmax(scores)) == 1  # the one sentence that mentions every recurring topic
    assert int(np.argmin(scores)) == 4  # off topic


CHAT = [
    Utterance("Alice", "Okay team, the Lisbon trip is happening! Flights to Lisbon are booked for Friday."),
    Utterance("Bob", "Great."),
    Utterance("Chen", "I'll book the Lisbon apartment in Alfama for the trip."),
    Utterance("Assistant", "Alfama is a lovely old quarter of Lisbon, close to the trip's main sights."),
    Utterance("Bob", "lol ok"),
    Utterance("Alice", "Did anyone feed my cat?"),
    Utterance("Chen", "The Alfama apartment in Lisbon is booked for the trip, check-in Friday."),
]


@pytest.mark.parametrize("embedder", [None, FakeEmbedder(64)], ids=["tfidf", "embeddings"])
def test_extractive_summary_picks_central_sentences_in_order_with_speakers(embedder: FakeEmbedder | None) -> None:
    embed = None if embedder is None else (lambda texts: embedder.embed(list(texts), "document"))
    summary = extractive_summary(CHAT, embed=embed, max_chars=260, max_sentences=3)
    for noise in ("lol ok", "Great.", "cat"):
        assert noise not in summary
    assert summary.startswith(("Alice: ", "Chen: ", "Assistant: "))
    assert len(summary) <= 260
    assert summary.count("Lisbon") >= 2
    # Sentences keep their conversation order.
    said = [u.text for u in CHAT]
    positions = [
        next(i for i, text in enumerate(said) if part.split(": ", 1)[-1][:25] in text)
        for part in re.split(r"(?<=[.!?]) (?=[A-Z][a-z]+: )", summary)
    ]
    assert positions == sorted(positions)


def test_extractive_summary_does_not_repeat_itself() -> None:
    same = [Utterance("Alice", "The Lisbon apartment is booked for Friday.")] * 5 + [
        Utterance("Bob", "The flights to Lisbon leave on Friday morning.")
    ]
    summary = extractive_summary(same, max_sentences=2)
    assert summary.count("apartment is booked") == 1
    assert "flights" in summary


def test_extractive_summary_of_nothing_is_still_a_summary() -> None:
    assert extractive_summary([]) == "0 message(s) without text to summarize."
    assert extractive_summary([Utterance("Alice", "   ")]) == "1 message(s) without text to summarize."


# -- prompts ----------------------------------------------------------------------------------------


def test_prompts_are_named_and_take_the_date_as_input() -> None:
    from datetime import UTC, date, datetime

    data = SummarizeInput(
        messages=[
            PromptMessage(3, "user", "I live in Lisbon", datetime(2024, 5, 1, 9, 30, tzinfo=UTC), "alice", "Alice")
        ],
        today=date(2024, 5, 2),
        previous_summary="Earlier: Alice planned a trip.",
        users=["alice"],
    )
    messages = SUMMARIZE_AND_EXTRACT(data)
    assert SUMMARIZE_AND_EXTRACT.name == "summarize_and_extract"
    assert SUMMARIZE_AND_EXTRACT.output is SummaryAndFacts
    assert CONSOLIDATE_FACT.name == "consolidate_fact" and CONSOLIDATE_FACT.output is ConsolidationDecision
    assert all(isinstance(m, ChatMessage) for m in messages)
    assert "Today is 2024-05-02" in messages[0].content
    assert "[#3 2024-05-01 09:30] alice (Alice): I live in Lisbon" in messages[1].content
    assert "Earlier: Alice planned a trip." in messages[1].content


def test_extracted_facts_are_validated_leniently_in_style_strictly_in_substance() -> None:
    parsed = SummaryAndFacts.model_validate(
        {
            "summary": " Talked. ",
            "facts": [{"content": "Alice likes tea", "category": "Food Taste!", "importance": "9", "subject": "null"}],
        }
    )
    fact = parsed.facts[0]
    assert (parsed.summary, fact.category, fact.importance, fact.subject) == ("Talked.", "other", 5, None)
    with pytest.raises(ValueError):
        SummaryAndFacts.model_validate({"summary": "   ", "facts": []})
    with pytest.raises(ValueError):
        SummaryAndFacts.model_validate({"summary": "ok", "facts": [{"content": ""}]})
    assert ConsolidationDecision.model_validate({"action": "noop", "target_id": 3}).action == "NOOP"


# -- consolidation ----------------------------------------------------------------------------------


@pytest.fixture
def memory(tmp_path: Path, clock: FakeClock) -> Iterator[Memory]:
    # Consolidation alone: the messages these tests write store no facts of their own.
    settings = load_settings(worker="none", embedder="none", facts_on_write=False)
    with Memory(tmp_path / "m.db", agent="bot", settings=settings, llm=None, embedder=None, clock=clock) as mem:
        yield mem


def fact(content: str, **kw: object) -> CandidateFact:
    return CandidateFact(content, **kw)  # type: ignore[arg-type]


def test_lexical_similarity() -> None:
    assert lexical_similarity("Alice lives in Lisbon", "alice LIVES in lisbon!") == 1.0
    assert lexical_similarity("Alice lives in Lisbon", "Bob plays chess") == 0.0


def test_new_fact_is_added_with_provenance_and_method(memory: Memory) -> None:
    memory.add_message("t", "user", "I live in Lisbon", user="alice")
    decision = consolidate(memory, fact("Alice lives in Lisbon"), owner="alice", thread="t", from_seq=1, to_seq=1)
    assert decision.action == "ADD" and decision.fact is not None
    stored = memory.fact(decision.fact.id)
    assert (stored.owner, stored.source_thread, stored.source_from_seq, stored.source_to_seq) == ("alice", "t", 1, 1)
    assert stored.metadata["method"] == "rules"
    assert stored.metadata["attribute"] == "location"


def test_exact_and_near_duplicates_never_accumulate(memory: Memory) -> None:
    first = consolidate(memory, fact("Alice is allergic to peanuts"), owner="alice")
    again = consolidate(memory, fact("alice is allergic to peanuts."), owner="alice")
    assert (again.action, again.decided_by) == ("NOOP", "exact")
    contained = consolidate(memory, fact("Alice allergic peanuts"), owner="alice")
    assert contained.action == "NOOP"
    assert [f.id for f in memory.facts("alice")] == [first.fact.id]  # type: ignore[union-attr]


def test_negation_is_not_a_duplicate(memory: Memory) -> None:
    consolidate(memory, fact("Alice is allergic to peanuts"), owner="alice")
    decision = consolidate(memory, fact("Alice is not allergic to peanuts"), owner="alice")
    assert decision.action == "ADD"


def test_duplicates_are_per_owner_and_subject(memory: Memory) -> None:
    consolidate(memory, fact("Likes jazz"), owner="alice")
    assert consolidate(memory, fact("Likes jazz"), owner="bob").action == "ADD"
    assert consolidate(memory, fact("Likes jazz"), owner="alice", subject="chen").action == "ADD"
    assert consolidate(memory, fact("Likes jazz"), owner=None).action == "ADD"
    assert len(memory.facts(all_users=True)) == 4


def test_a_changed_value_supersedes_and_keeps_history(memory: Memory, clock: FakeClock) -> None:
    berlin = consolidate(memory, fact("Alice lives in Berlin"), owner="alice").fact
    assert berlin is not None
    clock.advance(days=30)
    decision = consolidate(memory, fact("Alice moved to Paris"), owner="alice")
    assert (decision.action, decision.decided_by) == ("UPDATE", "attribute")
    assert decision.fact is not None and decision.target is not None and decision.target.id == berlin.id
    old = memory.fact(berlin.id)
    assert old.status == "superseded"
    assert old.invalid_at == clock.now
    assert old.superseded_by == decision.fact.id
    assert [f.content for f in memory.facts("alice")] == ["Alice moved to Paris"]
    assert {f.content for f in memory.facts("alice", include_superseded=True)} == {
        "Alice lives in Berlin",
        "Alice moved to Paris",
    }
    assert [c.action for c in memory.fact_history(berlin.id)] == ["create", "supersede"]
    assert [h.id for h in memory.recall("where does Alice live Berlin", user="alice", kinds=["fact"])] == [
        decision.fact.id
    ]
    history = memory.recall("Alice lives Berlin", user="alice", kinds=["fact"], include_superseded=True)
    assert berlin.id in [h.id for h in history]
    # Saying the current value again changes nothing.
    assert consolidate(memory, fact("Alice lives in Paris"), owner="alice").action == "NOOP"


def test_the_same_attribute_of_another_person_is_no_contradiction(memory: Memory) -> None:
    consolidate(memory, fact("Alice lives in Berlin"), owner="alice")
    assert consolidate(memory, fact("Bob lives in Paris"), owner="alice").action == "ADD"  # subject left out
    # Unnamed, next to two named people: whose home is it? Not settled by the attribute.
    assert consolidate(memory, fact("The user lives in Oslo"), owner="alice").action == "ADD"
    assert len(memory.facts("alice")) == 3


def test_an_unnamed_holder_is_the_owner(memory: Memory) -> None:
    (told,) = extract_facts("My name is Alice.", who="Alice")
    (renamed,) = extract_facts("Call me Al.", who="Alice")
    assert (told.content, renamed.content) == ("The user's name is Alice", "Alice's name is Al")
    consolidate(memory, told, owner="alice")
    assert consolidate(memory, renamed, owner="alice").action == "UPDATE"
    assert [f.content for f in memory.facts("alice")] == ["Alice's name is Al"]


def test_opinions_flip_by_polarity(memory: Memory) -> None:
    (likes,) = extract_facts("I love jazz", who="Alice")
    (dislikes,) = extract_facts("I can't stand jazz", who="Alice")
    consolidate(memory, likes, owner="alice")
    assert consolidate(memory, fact("Alice likes jazz"), owner="alice").action == "NOOP"
    assert consolidate(memory, dislikes, owner="alice").action == "UPDATE"
    assert [f.content for f in memory.facts("alice")] == ["Alice dislikes jazz"]


def test_a_left_over_contradiction_is_healed(memory: Memory) -> None:
    # As after a crash between storing the new value and superseding the old one: both active.
    memory.remember("Alice lives in Berlin", user="alice")
    paris = memory.remember("Alice lives in Paris", user="alice")
    decision = consolidate(memory, fact("Alice lives in Paris"), owner="alice")
    assert (decision.action, decision.fact.id) == ("NOOP", paris.id)  # type: ignore[union-attr]
    assert [f.content for f in memory.facts("alice")] == ["Alice lives in Paris"]


def test_more_detail_updates_by_thresholds(memory: Memory) -> None:
    jazz = consolidate(memory, fact("Alice likes jazz music", importance=2), owner="alice").fact
    decision = consolidate(memory, fact("Alice likes jazz music, especially Coltrane", importance=3), owner="alice")
    assert (decision.action, decision.decided_by) == ("UPDATE", "thresholds")
    assert decision.target.id == jazz.id  # type: ignore[union-attr]
    assert [f.content for f in memory.facts("alice")] == ["Alice likes jazz music, especially Coltrane"]


def test_visibility_of_a_shared_fact_survives_its_update(memory: Memory) -> None:
    memory.remember("Alice lives in Berlin", user="alice", visibility="shared")
    decision = consolidate(memory, fact("Alice lives in Paris"), owner="alice")
    assert decision.fact is not None and decision.fact.visibility == "shared"


def test_consolidation_with_embeddings(tmp_path: Path, clock: FakeClock) -> None:
    settings = load_settings(worker="none", embedder="none")
    with Memory(
        tmp_path / "v.db", agent="bot", settings=settings, llm=None, embedder=FakeEmbedder(64), clock=clock
    ) as mem:
        first = consolidate(mem, fact("Alice is training for the Lisbon marathon"), owner="alice")
        assert first.action == "ADD"
        again = consolidate(mem, fact("Alice is training for the Lisbon marathon!"), owner="alice")
        assert again.action == "NOOP"
        other = consolidate(mem, fact("Alice collects old stamps"), owner="alice")
        assert other.action == "ADD"
        # Stored facts have vectors: semantic recall finds them.
        assert mem.recall("marathon training", user="alice", kinds=["fact"])[0].id == first.fact.id  # type: ignore[union-attr]


# -- consolidation by the LLM -----------------------------------------------------------------------


def llm_memory(tmp_path: Path, clock: FakeClock, llm: ScriptedLLM) -> Memory:
    settings = load_settings(worker="none", embedder="none")
    return Memory(tmp_path / "llm.db", agent="bot", settings=settings, llm=llm, embedder=None, clock=clock)


def test_the_llm_decides_ambiguous_cases(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM()
    with llm_memory(tmp_path, clock, llm) as mem:
        old = mem.remember("Alice is training for the Lisbon marathon", user="alice")
        llm.script(
            ConsolidationDecision(
                action="UPDATE",
                target_id=old.id,
                new_content="Alice is training for the Berlin marathon in May",
                reason="another race",
            )
        )
        decision = consolidate(mem, fact("Alice trains for the Berlin marathon in May"), owner="alice", method="llm")
        assert (decision.action, decision.decided_by, decision.reason) == ("UPDATE", "llm", "another race")
        assert [f.content for f in mem.facts("alice")] == ["Alice is training for the Berlin marathon in May"]
        assert mem.fact(old.id).superseded_by == decision.fact.id  # type: ignore[union-attr]
        call = llm.calls[-1]
        assert call.schema is ConsolidationDecision
        assert "Alice is training for the Lisbon marathon" in call.messages[-1].content
        assert f'"id": {old.id}' in call.messages[-1].content


def test_llm_noop_and_delete(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM()
    with llm_memory(tmp_path, clock, llm) as mem:
        job = mem.remember("Alice works night shifts at the hospital", user="alice")
        llm.script(ConsolidationDecision(action="NOOP", target_id=job.id, reason="same"))
        assert consolidate(mem, fact("Alice does night shifts at the city hospital"), owner="alice").action == "NOOP"
        llm.script(ConsolidationDecision(action="DELETE", target_id=job.id, reason="quit"))
        decision = consolidate(mem, fact("Alice no longer does night shifts at the hospital"), owner="alice")
        assert decision.action == "DELETE" and decision.fact is None
        gone = mem.fact(job.id)
        assert (gone.status, gone.superseded_by) == ("superseded", None)
        assert mem.facts("alice") == []
        assert [c.action for c in mem.fact_history(job.id)] == ["create", "invalidate"]


@pytest.mark.parametrize(
    "reply",
    [
        '{"action": "UPDATE", "target_id": 999, "reason": "a fact it was never shown"}',
        '{"action": "MERGE", "target_id": 1}',
        "not json at all",
        Fault.status(500),
    ],
    ids=["unknown-target", "bad-action", "malformed", "provider-error"],
)
def test_invalid_llm_decisions_fall_back_to_thresholds(tmp_path: Path, clock: FakeClock, reply: str | Fault) -> None:
    llm = ScriptedLLM(default=reply, max_retries=0, repair_retries=0)
    with llm_memory(tmp_path, clock, llm) as mem:
        mem.remember("Alice is training for the Lisbon marathon", user="alice")
        decision = consolidate(mem, fact("Alice trains for the Berlin marathon in May"), owner="alice")
        assert (decision.action, decision.decided_by) == ("ADD", "thresholds")
        assert len(llm.calls) == 1
        assert len(mem.facts("alice")) == 2


def test_the_llm_is_not_asked_when_nothing_is_related_or_the_answer_is_certain(
    tmp_path: Path, clock: FakeClock
) -> None:
    llm = ScriptedLLM()  # any call would fail the test: nothing is scripted
    with llm_memory(tmp_path, clock, llm) as mem:
        consolidate(mem, fact("Alice lives in Berlin"), owner="alice")
        consolidate(mem, fact("Alice collects old stamps"), owner="alice")
        consolidate(mem, fact("Alice lives in Berlin"), owner="alice")  # exact
        consolidate(mem, fact("Alice lives in Paris"), owner="alice")  # same attribute
        assert llm.calls == []


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I keep bees on my roof", "Alice keeps bees on their roof"),  # was "... on Alice's roof"
        ("my sister and my brother live in Oslo", "Alice's sister and their brother live in Oslo"),
        ("Me and my dog went hiking", "Alice and their dog went hiking"),
        ("I told my boss I quit", "Alice told their boss Alice quits"),  # was "Alice tolds"
        ("that book is mine", "That book is Alice's"),
    ],
)
def test_the_name_is_said_once_then_a_pronoun(said: str, stored: str) -> None:
    assert third_person(said, "Alice") == stored
