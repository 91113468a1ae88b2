"""Seed gaps (issue 15): remembering the same fact twice, ..."""

from __future__ import annotations

from memlane import Memory


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
