"""Summaries and agent memories worth their tokens without an LLM (issue 38): the extractive path keeps the
informative sentences with their speakers and leaves acknowledgements and filler out."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FakeClock
from memlane import Memory, load_settings
from memlane.pipeline.extractive import Utterance, extractive_summary, is_filler
from memlane.pipeline.memories import list_memories

SAID = {
    3: "I'm planning a trip to Porto in May with my sister.",
    9: "The guesthouse by the river costs 80 euros a night and has a garden.",
    15: "We want to visit the Livraria Lello bookshop and the port cellars in Gaia.",
}


def open_memory(path: Path, clock: FakeClock) -> Memory:
    config = load_settings(worker="none", embedder="none", facts_on_write=False)
    return Memory(path, agent="bot", settings=config, clock=clock)


def converse(mem: Memory, thread: str, turns: int) -> None:
    """Alice acknowledges number after number, the assistant notes each; three turns say something."""
    for n in range(turns):
        mem.add_message(thread, "user", SAID.get(n, f"ok number {n}"), user="alice", name="Alice")
        mem.add_message(thread, "assistant", "Noted.")


@pytest.mark.parametrize(
    "text",
    ["Noted.", "ok number 12", "thanks!", "Hey Mel! Good to see you!", "Sounds good, see you then", "Love it!"],
)
def test_acknowledgements_and_small_talk_are_filler(text: str) -> None:
    assert is_filler(text)


@pytest.mark.parametrize(
    "text",
    ["Alice is allergic to penicillin", "I'm vegan.", "I love jazz", "My locker code is 4512.", SAID[9]],
)
def test_what_says_something_is_not_filler(text: str) -> None:
    assert not is_filler(text)


def test_the_extractive_summary_keeps_the_informative_sentences_and_drops_the_filler(
    tmp_path: Path, clock: FakeClock
) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        converse(mem, "t", 16)  # 32 messages: one batch of 20 is due
        mem.run_jobs()
        [summary] = mem.summaries("t", kind="rolling")
        assert summary.method == "extractive"
        assert "Noted" not in summary.content and "ok number" not in summary.content
        assert f"Alice: {SAID[3]}" in summary.content and SAID[9] in summary.content


def test_an_agent_memory_without_an_llm_is_no_pasted_transcript(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        converse(mem, "t", 16)
        mem.end("t")
        mem.run_jobs()
        [memory] = list_memories(mem)
        assert memory.method == "extractive"
        assert "Noted" not in memory.content and "ok number" not in memory.content
        assert "Alice: " in memory.content and ("Porto" in memory.content or "guesthouse" in memory.content)


def test_a_batch_of_nothing_but_small_talk_says_so_in_one_line() -> None:
    said = [Utterance("Alice", f"ok number {n}") if n % 2 == 0 else Utterance("Assistant", "Noted.") for n in range(20)]
    summary = extractive_summary(said)
    assert "Noted" not in summary and "ok number" not in summary
    assert summary.startswith("Alice and Assistant: 20 short message(s)")
