"""What ``context()`` leaves out: other users' private conversations when no user is given, rolling
summaries that only repeat the recent window, and memories or profiles in the recalled section (they have
sections of their own). Real SQLite files, no LLM (the pipeline's extractive fallbacks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import FakeClock
from memlane import Memory, load_settings


def open_memory(path: Path, clock: FakeClock, **settings: Any) -> Memory:
    return Memory(
        path, agent="bot", settings=load_settings(worker="none", embedder="none", **settings), llm=None, clock=clock
    )


def say(mem: Memory, clock: FakeClock, thread: str, user: str | None, texts: list[str]) -> None:
    for text in texts:
        clock.advance(minutes=1)
        mem.add_message(thread, "user", text, user=user)


FILLER = [f"We chatted about the weather on day {i} and it was fine." for i in range(12)]


def recalled_threads(mem: Memory, thread: str, query: str, user: str | None = None) -> set[str | None]:
    return {h.thread for h in mem.context(thread, query=query, user=user).recalled}


def test_without_a_user_no_other_users_conversation_is_recalled(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        say(mem, clock, "bob-1", "bob", ["My passport number is X1234567, keep it safe.", *FILLER])
        say(mem, clock, "alice-1", "alice", ["I renewed my passport last spring.", *FILLER])
        say(mem, clock, "alice-2", "alice", ["Where did I put my passport?", *FILLER])
        say(mem, clock, "group", "alice", ["Passport photos are due on Friday.", *FILLER])
        say(mem, clock, "group", "carol", ["My passport expired in May.", *FILLER])
        say(mem, clock, "anonymous", None, ["passport office hours", *FILLER])

        # The thread's only user stands in for a missing viewer: the threads she took part in, never bob's.
        assert recalled_threads(mem, "alice-2", "passport number") == {"alice-1", "group"}
        assert recalled_threads(mem, "alice-2", "passport number", user="alice") == {"alice-1", "group"}
        # Several users, or none: only the thread itself.
        assert recalled_threads(mem, "group", "passport number") <= {"group"}
        assert recalled_threads(mem, "anonymous", "passport number") <= {"anonymous"}
        text = mem.context("anonymous", query="passport number").system_text()
        assert "X1234567" not in text and "X1234567" not in mem.context("group", query="passport").system_text()
        # Bob himself gets it.
        assert "X1234567" in mem.context("bob-2", query="passport number", user="bob").system_text()


def test_summaries_the_recent_window_repeats_are_left_out(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        words = "we went over the budget, the venue, the catering, the music and the guest list once more " * 2
        say(mem, clock, "t", "alice", [f"Message {i}: {words}, item {i} is settled." for i in range(1, 61)])
        mem.run_jobs()
        ranges = sorted((s.from_seq, s.to_seq) for s in mem.summaries("t", kind="rolling"))
        assert ranges == [(1, 20), (21, 40)]

        roomy = mem.context("t", budget=20_000)  # the last 50 messages (11-60) all fit
        assert [m.seq for m in roomy.messages] == list(range(11, 61))
        assert [(s.from_seq, s.to_seq) for s in roomy.summaries] == [(1, 20)]  # 21-40 is all in the window

        tight = mem.context("t", budget=2200)  # fewer recent messages: both summaries tell the rest
        assert tight.messages and tight.messages[0].seq > 21
        assert [(s.from_seq, s.to_seq) for s in tight.summaries] == [(1, 20), (21, 40)]
        assert tight.tokens <= 2200


def test_profiles_and_memories_are_not_recalled_again(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        mem.remember("Alice loves green tea from Kyoto", user="alice")
        say(mem, clock, "old", "alice", ["I brewed green tea from Kyoto this morning.", *FILLER])
        mem.end("old")
        mem.run_jobs()  # the bullet-list profile and the memory of "old" are stored as summaries
        kinds = {s.kind for s in mem.summaries()}
        assert {"profile", "memory"} <= kinds
        found = mem.recall("green tea Kyoto", user="alice", kinds=["summary"], limit=10)
        assert {h.metadata["summary_kind"] for h in found} >= {"profile", "memory"}

        say(mem, clock, "new", "alice", ["hello again"])
        ctx = mem.context("new", query="green tea Kyoto", user="alice")
        assert ctx.recalled  # the old conversation itself
        assert all(h.kind == "message" or h.metadata["summary_kind"] == "rolling" for h in ctx.recalled)
        assert any("Kyoto" in line for _, lines in ctx.extra_sections for line in lines)  # the memory section
