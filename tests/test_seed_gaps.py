"""Seed gaps (issue 15): remembering the same fact twice, ..."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import FakeClock
from memlane import ConfigError, InvalidInput, Memory, load_settings
from memlane.cli.app import app


def test_remembering_the_same_fact_twice_keeps_one(mem: Memory) -> None:
    first = mem.remember("Alice prefers Python", user="alice", category="preference")
    again = mem.remember("Alice prefers Python", user="alice", category="preference")
    assert again.id == first.id and len(mem.facts(user="alice")) == 1
    assert [c.action for c in mem.fact_history(first.id)] == ["create"]  # an exact repeat writes nothing
    raised = mem.remember("Alice prefers Python", user="alice", category="preference", importance=5)
    assert raised.id == first.id and raised.importance == 5  # what differs is updated, with history
    assert [c.action for c in mem.fact_history(first.id)][-1] == "update"
    other_owner = mem.remember("Alice prefers Python", user="bob")
    assert other_owner.id != first.id  # another owner's fact is never touched
    keyed = mem.remember("Alice prefers Python", user="alice", metadata={"key": "k2"})
    assert keyed.id == first.id  # metadata that adds to the fact: the same fact
    clash = mem.remember("Alice prefers Python", user="alice", metadata={"key": "k3"})
    assert clash.id != first.id  # metadata that says otherwise: another fact
    assert len(mem.context("t", user="alice").facts) == 2


def test_usage_consumed_since_a_time_for_a_poller(tmp_path: Path, clock: FakeClock) -> None:
    from memlane.llm import ChatMessage
    from memlane.testing.scripted import ScriptedLLM

    llm = ScriptedLLM(default="ok")
    settings = load_settings(embedder="none", worker="none")
    with Memory(tmp_path / "u.db", agent="app", settings=settings, llm=llm, clock=clock) as mem:
        mem.llm.complete([ChatMessage.user("hi")], operation="chat", agent="app")  # type: ignore[union-attr]
        clock.advance(hours=2)
        checkpoint = clock()
        for _ in range(2):
            mem.llm.complete([ChatMessage.user("again")], operation="chat", agent="app")  # type: ignore[union-attr]
        assert [t.calls for t in mem.usage_totals()] == [3]
        assert [t.calls for t in mem.usage_totals(checkpoint)] == [2]
        assert mem.usage_totals(checkpoint + timedelta(minutes=1)) == []
        with pytest.raises(InvalidInput):
            mem.usage_totals("yesterday")  # type: ignore[arg-type]
    result = CliRunner().invoke(
        app,
        [
            "--db",
            str(tmp_path / "u.db"),
            "--agent",
            "app",
            "--json",
            "stats",
            "--since",
            checkpoint.strftime("%Y-%m-%dT%H:%M:%S"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert [u["calls"] for u in json.loads(result.stdout)["usage"]] == [2]


def test_forget_a_fact_by_what_it_says_only_the_users_own(mem: Memory) -> None:
    pizza = mem.remember("Bob likes pizza", user="bob")
    mem.remember("Bob lives in Lisbon", user="bob")
    alices = mem.remember("Bob likes pizza with extra olives", user="alice")
    assert mem.forget_matching("Alice likes pizza", user="bob") == []  # a word that is not in it
    gone = mem.forget_matching("forget that Bob likes pizza", user="bob")
    assert [f.id for f in gone] == [pizza.id]
    assert [f.content for f in mem.facts(user="bob")] == ["Bob lives in Lisbon"]
    assert mem.fact(alices.id).status == "active"  # alice's fact saying the same is hers: untouched
    with pytest.raises(InvalidInput):
        mem.forget_matching("the and of", user="bob")


def test_cli_forget_matching(tmp_path: Path) -> None:
    db = str(tmp_path / "f.db")
    runner = CliRunner()
    assert runner.invoke(app, ["--db", db, "remember", "Bob likes pizza", "--user", "bob"]).exit_code == 0
    result = runner.invoke(app, ["--db", db, "--json", "forget", "--matching", "Bob likes pizza", "--user", "bob"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["forgotten"] == 1
    again = runner.invoke(app, ["--db", db, "forget", "--matching", "Bob likes pizza", "--user", "bob"])
    assert "No fact matches" in again.stdout


def test_seed_000_config_names_are_accepted(tmp_path: Path) -> None:
    config = tmp_path / "bot.yaml"
    config.write_text("memory:\n  max_tokens_in_context: 1500\n  summarize_after_messages: 40\n  max_context: 12\n")
    settings = load_settings(config)
    assert (settings.max_history_tokens, settings.summarize_after, settings.max_messages_in_context) == (1500, 40, 12)
    clash = tmp_path / "clash.yaml"
    clash.write_text("max_context: 12\nmax_messages_in_context: 20\n")
    with pytest.raises(ConfigError):
        load_settings(clash)


def test_uninstalling_an_agent_keeps_or_purges_its_memories(store_url: str, clock: FakeClock) -> None:
    settings = load_settings(embedder="none", worker="none")
    with (
        Memory(store_url, agent="app", settings=settings, clock=clock, llm=None) as mem,
        Memory(store_url, agent="other", settings=settings, clock=clock, llm=None) as other,
    ):
        mem.add_message("c1", "user", "I want to plan a trip to Kyoto", user="alice")
        mem.remember("Alice likes temples", user="alice")
        mem.end("c1")
        mem.run_jobs()
        other.add_message("x", "user", "unrelated", user="zed")
        assert len(mem.list_memories()) == 1
        counts = mem.delete_agent()
        assert counts["threads"] == 1 and counts["facts"] == 1 and counts["memories"] == 0
        assert mem.threads() == [] and mem.facts(all_users=True) == [] and len(mem.list_memories()) == 1
        assert other.history("x")  # another agent is untouched
        # a second handle on the same agent (another process) keeps working on the now empty agent
        with Memory(store_url, agent="app", settings=settings, clock=clock, llm=None) as late:
            late.add_message("c2", "user", "back again", user="alice")
            assert [t.key for t in late.threads()] == ["c2"]
        assert mem.delete_agent(purge=True)["memories"] == 1
        assert mem.list_memories() == [] and mem.threads() == []


def test_cli_delete_agent_needs_yes(tmp_path: Path) -> None:
    db = str(tmp_path / "d.db")
    runner = CliRunner()
    assert runner.invoke(app, ["--db", db, "--agent", "app", "add", "t", "user", "hi"]).exit_code == 0
    refused = runner.invoke(app, ["--db", db, "--agent", "app", "delete-agent"])
    assert refused.exit_code == 2 and "--yes" in refused.output
    done = runner.invoke(app, ["--db", db, "--agent", "app", "--json", "delete-agent", "--yes"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["deleted"]["threads"] == 1


def test_a_users_facts_are_capped_least_important_least_recalled_first(tmp_path: Path, clock: FakeClock) -> None:
    settings = load_settings(embedder="none", worker="none", max_facts_per_user=3)
    with Memory(tmp_path / "cap.db", agent="bot", settings=settings, clock=clock, llm=None) as mem:
        tea = mem.remember("Alice drinks green tea", user="alice", importance=2)
        clock.advance(minutes=1)
        cello = mem.remember("Alice plays the cello", user="alice", importance=2)
        clock.advance(minutes=1)
        name = mem.remember("Alice's surname is Moreau", user="alice", importance=5)
        clock.advance(minutes=1)
        assert mem.recall("green tea", user="alice")  # recalling tea makes it the more recently used
        clock.advance(minutes=1)
        mem.remember("Alice moved to Lyon", user="alice", importance=3)
        kept = {f.content for f in mem.facts(user="alice")}
        assert len(kept) == 3 and cello.content not in kept and {tea.content, name.content} <= kept
        mem.remember("Bob likes chess", user="bob")  # another user's facts are counted apart
        assert len(mem.facts(user="alice")) == 3
        assert mem.fact_history(cello.id)[-1].action == "delete"  # forgotten, its history kept


def test_seed_000_memory_cap_name(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("max_memories_per_channel: 100\n")
    assert load_settings(config).max_facts_per_user == 100


def test_per_user_records_count_interactions_and_reach_the_context(mem: Memory, clock: FakeClock) -> None:
    assert mem.user("alice").interactions == 0
    mem.add_message("general", "user", "hi all", user="alice")
    mem.add_messages(
        "general",
        [
            {"role": "user", "content": "lunch?", "user": "alice"},
            {"role": "assistant", "content": "noon works"},
            {"role": "user", "content": "sure", "user": "bob"},
        ],
    )
    alice = mem.user("alice")
    assert (alice.interactions, alice.last_interaction) == (2, clock())
    mem.set_user("alice", persona="pirate", custom_context="Alice is vegetarian; answer in French.")
    system = mem.context("general", user="alice").system_text()
    assert "Preferred persona: pirate" in system and "Alice is vegetarian" in system
    assert "vegetarian" not in mem.context("general", user="bob").system_text()  # alice's, not bob's
    assert mem.set_user("alice", custom_context=None).custom_context is None
    assert mem.user("alice").persona == "pirate"  # not given: unchanged


def test_user_records_travel_in_exports_and_copies(store_url: str, tmp_path: Path, clock: FakeClock) -> None:
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="bot", settings=settings, clock=clock, llm=None) as mem:
        mem.add_message("t", "user", "hello", user="alice")
        mem.set_user("alice", persona="pirate", custom_context="likes short answers")
        records = list(mem.export_records())
        assert [r for r in records if r["type"] == "user"] == [
            {
                "type": "user",
                "user": "alice",
                "persona": "pirate",
                "custom_context": "likes short answers",
                "interactions": 1,
                "last_interaction": records[1]["created_at"],
            }
        ]
        mem.export(tmp_path / "e.jsonl")
    with Memory(tmp_path / "restored.db", agent="bot", settings=settings, clock=clock, llm=None) as other:
        assert other.import_(tmp_path / "e.jsonl")["users"] == 1
        restored = other.user("alice")
        assert (restored.persona, restored.custom_context, restored.interactions) == (
            "pirate",
            "likes short answers",
            1,
        )
        assert list(other.export_records())[1:] == records[1:]
