"""A query's vector is made without the names of the agent's speakers (memlane.retrieval.names): the store
keeps the names messages were spoken under, on both backends, and recall embeds the query without them."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from conftest import CountingEmbedder
from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder
from memlane.retrieval.names import Names
from memlane.store.sqlite.schema import MIGRATIONS

# -- finding names in a query ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What does Melanie do to destress?", "What does do to destress?"),
        ("What is Melanie's favourite book?", "What is favourite book?"),
        ("What is Melanie\u2019s favourite book?", "What is favourite book?"),
        ("When did Caroline and Melanie meet?", "When did and meet?"),
        ("What did Ana Lima paint?", "What did paint?"),  # a name of two words, whole
        ("What did Ana paint?", "What did paint?"),  # its first word alone
        ("What did Lima paint?", "What did Lima paint?"),  # not its last word alone
        ("what does melanie like?", "what does melanie like?"),  # no capital: a word like any other
        ("Will it rain in May?", "Will it rain in May?"),  # not speakers' names
        ("Melanie", "Melanie"),  # nothing but a name: the query stays as it is
        ("What did Melanies say?", "What did Melanies say?"),  # another word
        ("Where is Ana Lima's studio?", "Where is studio?"),
        ("Did O'Brien call?", "Did call?"),
        ("What did User 0163 say?", "What did User 0163 say?"),  # an id's words name nobody
    ],
)
def test_names_are_taken_out_where_the_query_spells_them_with_a_capital(query: str, expected: str) -> None:
    names = Names(["Melanie", "Caroline", "Ana Lima", "O'Brien", "U42", "user-0163", "7", "x"])
    assert names.without(query) == expected


def test_ids_and_one_letter_names_name_nobody() -> None:
    assert Names(["U42", "42", "X"]).without("What did U42 and X say about 42?") == "What did U42 and X say about 42?"


# -- the store keeps the names -----------------------------------------------------------------------


def test_the_store_keeps_the_names_and_user_ids_messages_are_spoken_under(mem: Memory) -> None:
    mem.add_message("t1", "user", "hi", user="u-7", name="Alice")
    mem.add_messages("t2", [{"role": "user", "content": "hey", "user": "bob"}, {"role": "assistant", "content": "yo"}])
    mem.add_to_threads({"t3": [{"role": "assistant", "content": "hello", "name": "Rosey"}]})
    assert mem.store.speakers("agent-a") == ["Alice", "Rosey", "bob", "u-7"]
    assert mem.store.speakers("another-agent") == []
    mem.delete_thread("t1")
    assert "Alice" in mem.store.speakers("agent-a")  # kept once seen


def test_an_imported_agent_brings_its_speakers(mem: Memory, store_url: str) -> None:
    mem.add_message("t1", "user", "hi", user="u-7", name="Alice")
    exported = io.StringIO()
    mem.export(exported)
    with Memory(store_url, agent="copy") as other:
        other.import_(io.StringIO(exported.getvalue()))
        assert other.store.speakers("copy") == ["Alice", "u-7"]


def test_the_migration_fills_the_names_of_the_messages_already_stored(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Memory(path, agent="bot", settings=load_settings(embedder="none", worker="none")) as mem:
        mem.add_message("t1", "user", "hi", user="u-7", name="Alice")
    speakers = next(version for version, name, _ in MIGRATIONS if name == "speakers' names")
    with sqlite3.connect(path) as conn:  # as a store of the version before would be
        conn.execute("DROP TABLE speakers")
        conn.execute("DELETE FROM schema_migrations WHERE version >= ?", (speakers,))
    with Memory(path, agent="bot", settings=load_settings(embedder="none", worker="none")) as mem:
        assert mem.store.speakers("bot") == ["Alice", "u-7"]


# -- recall embeds the query without them ------------------------------------------------------------


def test_recall_embeds_the_query_without_the_speakers_names(store_url: str) -> None:
    embedder = CountingEmbedder()
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="bot", settings=settings, embedder=embedder) as mem:
        mem.add_message("t1", "user", "I just signed up for a pottery class", user="mel", name="Melanie")
        hits = mem.recall("What does Melanie do to destress?", limit=5)
        assert embedder.queries == ["What does do to destress?"]  # once, for both retrievers
        assert hits and "pottery" in hits[0].text  # the keyword half still matches the name
        mem.recall("What does Caroline do to destress?", limit=5)  # nobody's name yet: kept
        assert embedder.queries[-1] == "What does Caroline do to destress?"
        mem.add_message("t1", "user", "I paint", user="caro", name="Caroline")  # a new speaker, known at once
        mem.recall("What does Caroline do for fun?", limit=5)
        assert embedder.queries[-1] == "What does do for fun?"


def test_another_process_s_new_speaker_is_known_after_the_refresh(tmp_path: Path) -> None:
    embedder = CountingEmbedder()
    settings = load_settings(embedder="none", worker="none")
    path = tmp_path / "shared.db"
    with Memory(path, agent="bot", settings=settings, embedder=embedder) as reader:
        reader.add_message("t1", "user", "hello", name="Ana")
        reader.recall("What did Bo say?", limit=1)
        with Memory(path, agent="bot", settings=settings, embedder=FakeEmbedder()) as writer:
            writer.add_message("t1", "user", "I sail", name="Bo")
        reader.recall("What did Bo say?", limit=1)
        assert embedder.queries[-1] == "What did Bo say?"  # read a moment ago: not yet
        reader._speakers.REFRESH_SECONDS = 0.0
        reader.recall("What did Bo say?", limit=1)
        assert embedder.queries[-1] == "What did say?"
