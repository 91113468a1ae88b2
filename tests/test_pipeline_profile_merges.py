"""Coalesced profile merges: a user's profile is re-merged by the LLM once per burst of facts, once enough
facts are new, or once the oldest new fact is a week old (a day in one test); a forgotten fact reaches it
within the delay.
Reads (``profile_of``, "what do you know about alice") never wait: new facts show as bullets meanwhile.
Time is driven with the injected clock; the LLM is a ScriptedLLM that records its calls."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import FakeClock
from memlane import ConfigError, Memory, load_settings
from memlane.llm import ChatMessage
from memlane.pipeline.profile import profile_of, stored_profiles
from memlane.testing import ScriptedLLM


def merged_text(messages: Sequence[ChatMessage]) -> str:
    """A merge that states every current fact, joined: easy to check against what the prompt listed."""
    facts = messages[1].content.split("Current facts:\n", 1)[1].splitlines()
    return json.dumps({"profile": " ".join(line.split(") ", 1)[1] + "." for line in facts)})


def open_memory(path: Path, clock: FakeClock, llm: ScriptedLLM | None, **settings: Any) -> Memory:
    return Memory(
        path,
        agent="bot",
        settings=load_settings(**{"worker": "none", "embedder": "none", "profile_llm_min_facts": 1, **settings}),
        llm=llm,
        clock=clock,
    )


def merges(llm: ScriptedLLM) -> list[str]:
    return [c.messages[1].content for c in llm.calls if "Current facts:" in c.messages[1].content]


def test_a_few_new_facts_wait_for_one_merge_a_day_later(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM(responder=merged_text)
    with open_memory(tmp_path / "m.db", clock, llm, profile_merge_max_age=86_400) as mem:
        start = clock.now
        mem.remember("Alice lives in Lisbon", user="alice")
        clock.advance(seconds=20)
        mem.remember("Alice loves green tea", user="alice")
        assert mem.run_jobs() == 0  # the job looks profile_merge_delay (60 s) after the first change
        clock.advance(seconds=45)
        mem.remember("Alice plays the cello", user="alice")
        mem.run_jobs()
        assert merges(llm) == []  # 3 new facts < profile_merge_facts: put off
        # Reads are current all the same.
        assert profile_of(mem, "alice") == "- Alice plays the cello\n- Alice loves green tea\n- Alice lives in Lisbon"
        [later] = [j for j in mem.store.list_jobs("bot", status="pending") if j.kind == "profile"]
        assert later.run_after == start + timedelta(days=1)  # a day after the oldest new fact

        clock.advance(hours=23)
        mem.run_jobs()
        assert merges(llm) == []
        clock.advance(hours=1)
        mem.run_jobs()
        [prompt] = merges(llm)  # one merge for all three
        assert all(f in prompt for f in ("Lisbon", "green tea", "cello"))
        assert profile_of(mem, "alice") == "Alice plays the cello. Alice loves green tea. Alice lives in Lisbon."
        assert mem.run_jobs() == 0 and len(merges(llm)) == 1


def test_enough_new_facts_merge_at_once(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM(responder=merged_text)
    with open_memory(tmp_path / "m.db", clock, llm, profile_merge_facts=4) as mem:
        for hobby in ("chess", "cello", "climbing"):
            mem.remember(f"Alice enjoys {hobby}", user="alice")
        clock.advance(minutes=2)
        mem.run_jobs()
        assert merges(llm) == []
        mem.remember("Alice enjoys sailing", user="alice")
        clock.advance(minutes=2)
        mem.run_jobs()
        [prompt] = merges(llm)
        assert all(h in prompt for h in ("chess", "cello", "climbing", "sailing"))
        # The merge put off for a day finds nothing new when it comes: no second call.
        clock.advance(days=2)
        mem.run_jobs()
        assert len(merges(llm)) == 1
        mem.remember("Alice enjoys tango", user="alice")
        # What do you know about alice: the merged text, and the new fact as a bullet until merged.
        assert profile_of(mem, "alice") == (
            "Alice enjoys sailing. Alice enjoys climbing. Alice enjoys cello. Alice enjoys chess.\n- Alice enjoys tango"
        )


def test_a_forgotten_fact_reaches_the_profile_within_the_delay(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM(responder=merged_text)
    with open_memory(tmp_path / "m.db", clock, llm, profile_merge_facts=2) as mem:
        lisbon = mem.remember("Alice lives in Lisbon", user="alice")
        mem.remember("Alice loves green tea", user="alice")
        clock.advance(minutes=2)
        mem.run_jobs()
        assert len(merges(llm)) == 1
        mem.forget(lisbon.id, user="alice")
        assert profile_of(mem, "alice") == "- Alice loves green tea"  # never the forgotten fact
        clock.advance(seconds=61)
        mem.run_jobs()
        assert len(merges(llm)) == 2
        [stored] = stored_profiles(mem, "alice")
        assert (stored.method, stored.content) == ("llm", "Alice loves green tea.")


def test_without_an_llm_the_stored_bullet_list_is_updated_at_once(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, None) as mem:
        mem.remember("Alice lives in Lisbon", user="alice")
        assert mem.run_jobs() == 1  # no delay without an LLM: the bullet list costs nothing
        [stored] = stored_profiles(mem, "alice")
        assert (stored.method, stored.content) == ("list", "- Alice lives in Lisbon")


def test_merge_settings_are_validated() -> None:
    for bad in ({"profile_merge_delay": -1}, {"profile_merge_facts": 0}, {"profile_merge_max_age": -5}):
        with pytest.raises(ConfigError):
            load_settings(**bad)


def test_each_merge_call_holds_one_person(tmp_path: Path, clock: FakeClock) -> None:
    # Users whose merges were put off are no longer merged along in one call: a model that mixed people up
    # would move one user's private facts into another's profile. Each user's merge is a call of its own.
    llm = ScriptedLLM(responder=merged_text)
    with open_memory(tmp_path / "m.db", clock, llm, profile_merge_facts=3) as mem:
        mem.remember("Bob plays chess", user="bob")
        mem.remember("Carol grows tomatoes", user="carol")
        clock.advance(minutes=2)
        mem.run_jobs()
        assert llm.calls == []  # one new fact each: put off
        for hobby in ("cello", "climbing", "sailing"):
            mem.remember(f"Alice enjoys {hobby}", user="alice")
        clock.advance(minutes=2)
        mem.run_jobs()
        [call] = llm.calls  # alice's merge is due; bob's and carol's wait for their own
        prompt = "\n".join(m.content for m in call.messages)
        assert "Alice enjoys" in prompt and "Bob" not in prompt and "Carol" not in prompt
        assert profile_of(mem, "alice") == "Alice enjoys sailing. Alice enjoys climbing. Alice enjoys cello."
        clock.advance(days=8)  # the put-off merges come due, one call each
        mem.run_jobs()
        assert len(llm.calls) == 3
        for call in llm.calls[1:]:
            prompt = "\n".join(m.content for m in call.messages)
            assert ("Bob plays chess" in prompt) != ("Carol grows tomatoes" in prompt)
        assert profile_of(mem, "bob") == "Bob plays chess."
        assert [s.method for u in ("alice", "bob", "carol") for s in stored_profiles(mem, u)] == ["llm"] * 3


def test_a_user_with_few_facts_keeps_the_bullet_list_without_a_call(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM(responder=merged_text)
    with open_memory(tmp_path / "m.db", clock, llm, profile_llm_min_facts=3, profile_merge_facts=1) as mem:
        mem.remember("Bob plays chess", user="bob")
        mem.remember("Bob grows tomatoes", user="bob")
        clock.advance(minutes=2)
        mem.run_jobs()
        assert llm.calls == []
        assert profile_of(mem, "bob") == "- Bob grows tomatoes\n- Bob plays chess"
        mem.remember("Bob sails on Sundays", user="bob")
        clock.advance(minutes=2)
        mem.run_jobs()
        assert len(llm.calls) == 1  # the third fact makes the list long enough for prose
