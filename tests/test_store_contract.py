"""The storage contract: what a user of ``Memory`` can rely on, whichever backend stores it.

Every test here uses the ``mem`` / ``store_url`` fixtures, so it runs once per backend in
``conftest.BACKENDS``. Nothing here may know which database is underneath: no SQL, no file paths of the
store. SQLite-only behaviour (files, WAL, processes) is tested in ``test_sqlite.py``.
"""

from __future__ import annotations

import io
import json
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from memlane import (
    Conflict,
    Fact,
    Forbidden,
    InvalidInput,
    MemlaneError,
    Memory,
    Message,
    NotFound,
    StorageError,
    load_settings,
)
from memlane.tokens import get_tokenizer
from memlane.validation import NewJob

# The default model (gpt-4o-mini) counts with o200k_base.
ENCODING = "o200k_base"


# -- helpers ----------------------------------------------------------------------------------------
def snapshot(mem: Memory) -> list[dict[str, Any]]:
    """Everything the agent has stored, as its export sees it."""
    return list(mem.export_records())


def count_request(messages: Sequence[dict[str, Any]], encoding: str = ENCODING) -> int:
    """Tokens of a chat request by OpenAI's formula, written here independently of memlane's own counter:
    3 per message + role + content (+ 1 + name) + tool-call JSON + tool_call_id, + 3 to prime the reply."""
    tok = get_tokenizer(encoding)
    total = 3
    for m in messages:
        total += 3 + tok.count(m["role"])
        if m.get("content"):
            total += tok.count(m["content"])
        if m.get("name"):
            total += 1 + tok.count(m["name"])
        if m.get("tool_calls"):
            total += tok.count(json.dumps(m["tool_calls"], ensure_ascii=False, separators=(",", ":")))
        if m.get("tool_call_id"):
            total += tok.count(m["tool_call_id"])
    return total


def conversation_part(ctx: Any) -> list[dict[str, Any]]:
    """The request without the system message memlane writes (prompt and memory sections)."""
    out: list[dict[str, Any]] = ctx.to_messages()
    return out[1:] if ctx.system_text() else out


def assert_tool_integrity(sent: list[dict[str, Any]], history: Sequence[Message]) -> None:
    """A tool result is sent only after the call it answers; a call is sent with every stored result."""
    results_in_history: dict[str, int] = {}
    for m in history:
        if m.role == "tool":
            results_in_history[m.tool_call_id or ""] = results_in_history.get(m.tool_call_id or "", 0) + 1
    open_calls: set[str] = set()
    sent_results: dict[str, int] = {}
    for m in sent:
        if m["role"] == "assistant" and m.get("tool_calls"):
            open_calls |= {call["id"] for call in m["tool_calls"]}
        if m["role"] == "tool":
            assert m["tool_call_id"] in open_calls, f"tool result {m['tool_call_id']} sent without its call"
            sent_results[m["tool_call_id"]] = sent_results.get(m["tool_call_id"], 0) + 1
    for call_id in open_calls:
        assert sent_results.get(call_id, 0) == results_in_history.get(call_id, 0), (
            f"call {call_id} sent with {sent_results.get(call_id, 0)} of its "
            f"{results_in_history.get(call_id, 0)} results"
        )


def check_each(cases: Sequence[tuple[str, Callable[[], object]]]) -> None:
    """Run every case and fail once, naming each case that went wrong (one store serves them all)."""
    problems: list[str] = []
    for case_id, check in cases:
        try:
            check()
        except (Exception, pytest.fail.Exception) as exc:
            problems.append(f"{case_id}: {type(exc).__name__}: {exc}".splitlines()[0])
    assert not problems, "\n".join(problems)


def expect_error_and_no_change(mem: Memory, error: type[MemlaneError], call: Callable[[], object]) -> None:
    """``call`` raises ``error`` and leaves ``mem``'s export exactly as it was."""
    before = snapshot(mem)
    problems = []
    try:
        call()
        problems.append(f"did not raise {error.__name__}")
    except error:
        pass
    except Exception as exc:
        problems.append(f"raised {type(exc).__name__} instead of {error.__name__}: {exc}")
    if snapshot(mem) != before:
        problems.append("the store changed")
    assert not problems, "; ".join(problems)


def weather_call(call_id: str, city: str = "Paris") -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "get_weather", "arguments": json.dumps({"city": city})},
    }


def fact_ids(facts: Sequence[Fact]) -> set[int]:
    return {f.id for f in facts}


# -- messages ---------------------------------------------------------------------------------------
def test_add_message_returns_what_was_stored(mem: Memory, clock: Any) -> None:
    msg = mem.add_message("support", "user", "Hello, my order is late", user="alice", name="Alice", metadata={"n": 1})

    assert msg.id > 0
    assert (msg.thread, msg.seq, msg.role, msg.user, msg.name) == ("support", 1, "user", "alice", "Alice")
    assert msg.content == "Hello, my order is late"
    assert msg.tool_calls is None and msg.tool_call_id is None
    assert msg.metadata == {"n": 1}
    assert msg.created_at == clock.now
    assert msg.token_count > 0
    longer = mem.add_message("support", "user", "Hello, my order is late " * 20, user="alice", name="Alice")
    assert longer.token_count > msg.token_count
    assert mem.history("support") == [msg, longer]


def test_tool_calls_are_stored_and_returned(mem: Memory) -> None:
    calls = [weather_call("call_1"), weather_call("call_2", "Oslo")]
    ask = mem.add_message("t", "user", "Weather in Paris and Oslo?", user="alice")
    call = mem.add_message("t", "assistant", "", tool_calls=calls)
    paris = mem.add_message("t", "tool", '{"temp": 21}', tool_call_id="call_1")
    oslo = mem.add_message("t", "tool", '{"temp": 3}', tool_call_id="call_2")
    as_text = mem.add_message("t2", "assistant", "checking", tool_calls=json.dumps([weather_call("call_9")]))

    assert call.tool_calls == calls and call.content == ""
    assert (paris.tool_call_id, oslo.tool_call_id) == ("call_1", "call_2")
    assert as_text.tool_calls == [weather_call("call_9")]
    assert mem.history("t") == [ask, call, paris, oslo]
    assert [m.seq for m in mem.history("t")] == [1, 2, 3, 4]
    wire = call.to_openai()
    assert wire["tool_calls"] == calls and wire["content"] is None
    assert paris.to_openai() == {"role": "tool", "content": '{"temp": 21}', "tool_call_id": "call_1"}


def test_sequence_numbers_are_per_thread_and_gap_free(mem: Memory) -> None:
    for i in range(5):
        for thread in ("a", "b", "c"):
            if thread == "c" and i % 2:
                continue
            mem.add_message(thread, "user", f"{thread} message {i}")
    mem.add_messages("b", [{"role": "user", "content": "batch 1"}, {"role": "assistant", "content": "batch 2"}])

    assert [m.seq for m in mem.history("a")] == [1, 2, 3, 4, 5]
    assert [m.seq for m in mem.history("b")] == [1, 2, 3, 4, 5, 6, 7]
    assert [m.seq for m in mem.history("c")] == [1, 2, 3]
    ids = [m.id for t in ("a", "b", "c") for m in mem.history(t)]
    assert len(set(ids)) == len(ids)


CREATED_AT_CASES = [
    (datetime(2024, 3, 1, 9, 30, tzinfo=UTC), datetime(2024, 3, 1, 9, 30, tzinfo=UTC)),
    (datetime(2024, 3, 1, 9, 30), datetime(2024, 3, 1, 9, 30, tzinfo=UTC)),  # naive means UTC
    (
        datetime(2024, 3, 1, 11, 30, 0, 123456, tzinfo=timezone(timedelta(hours=2))),
        datetime(2024, 3, 1, 9, 30, 0, 123456, tzinfo=UTC),
    ),
    ("2024-03-01T09:30:00Z", datetime(2024, 3, 1, 9, 30, tzinfo=UTC)),
    ("2024-03-01T04:30:00-05:00", datetime(2024, 3, 1, 9, 30, tzinfo=UTC)),
]


def test_caller_supplied_created_at_is_kept(mem: Memory) -> None:
    def check(thread: str, given_time: Any, expected: datetime) -> None:
        msg = mem.add_message(thread, "user", "an old message", created_at=given_time)
        (stored,) = mem.history(thread)
        for m in (msg, stored):
            assert m.created_at == expected
            assert m.created_at.utcoffset() == timedelta(0)
        assert mem.thread(thread).created_at == expected

    check_each(
        [
            (repr(given), lambda i=i, g=given, e=expected: check(f"t{i}", g, e))
            for i, (given, expected) in enumerate(CREATED_AT_CASES)
        ]
    )


def test_history_keeps_the_order_messages_were_added_in(mem: Memory) -> None:
    mem.add_message("t", "user", "first", created_at=datetime(2024, 5, 1, tzinfo=UTC))
    mem.add_message("t", "user", "second", created_at=datetime(2023, 5, 1, tzinfo=UTC))
    mem.add_message("t", "assistant", "third")
    assert [m.content for m in mem.history("t")] == ["first", "second", "third"]


def test_history_limit_returns_the_newest_in_order(mem: Memory) -> None:
    for i in range(1, 8):
        mem.add_message("t", "user" if i % 2 else "assistant", f"m{i}")
    assert [m.content for m in mem.history("t", limit=3)] == ["m5", "m6", "m7"]
    assert [m.content for m in mem.history("t", limit=100)] == [f"m{i}" for i in range(1, 8)]
    assert mem.history("t", limit=0) == []
    assert mem.history("never-written") == []
    with pytest.raises(InvalidInput):
        mem.history("t", limit=-1)


def test_add_messages_stores_a_batch(mem: Memory, clock: Any) -> None:
    mem.add_message("t", "user", "before")
    stored = mem.add_messages(
        "t",
        [
            {"role": "user", "content": "hi", "user": "alice"},
            {"role": "assistant", "content": "", "tool_calls": [weather_call("c1")]},
            {"role": "tool", "content": "sunny", "tool_call_id": "c1"},
            {"role": "assistant", "content": "It is sunny", "metadata": {"final": True}},
        ],
    )
    assert [m.seq for m in stored] == [2, 3, 4, 5]
    assert mem.history("t")[1:] == stored
    assert stored[3].metadata == {"final": True}
    assert all(m.created_at == clock.now for m in stored)
    assert mem.add_messages("t", []) == []


BAD_ITEMS: list[tuple[Any, int]] = [
    ({"role": "robot", "content": "beep"}, 2),
    ({"role": "user", "content": "   "}, 1),
    ({"role": "tool", "content": "result without call id"}, 2),
    ({"role": "user"}, 0),
    ({"role": "user", "content": "hi", "colour": "blue"}, 1),
    ("just a string", 2),
]


def test_add_messages_with_one_bad_item_stores_nothing(mem: Memory) -> None:
    mem.add_message("t", "user", "already here")

    def check(bad_item: Any, index: int) -> None:
        before = snapshot(mem)
        items: list[Any] = [{"role": "user", "content": f"ok {i}"} for i in range(3)]
        items[index] = bad_item
        with pytest.raises(InvalidInput) as caught:
            mem.add_messages("t", items)
        assert f"item {index}" in str(caught.value)
        assert snapshot(mem) == before
        assert [m.content for m in mem.history("t")] == ["already here"]
        with pytest.raises(InvalidInput):
            mem.add_messages("brand-new", items)
        assert mem.history("brand-new") == []
        assert [t.key for t in mem.threads()] == ["t"]

    check_each([(repr(item), lambda item=item, i=i: check(item, i)) for item, i in BAD_ITEMS])


def test_add_to_threads_appends_to_each_thread_and_embeds_all_texts_in_one_model_run(
    store_url: str, clock: Any
) -> None:
    from memlane.embeddings import FakeEmbedder

    class Recording(FakeEmbedder):
        """The fake model, recording the texts of each run."""

        def __init__(self) -> None:
            super().__init__(cache_size=0)
            self.runs: list[list[str]] = []

        def embed_batch(self, texts: Any, kind: Any) -> Any:
            self.runs.append(list(texts))
            return super().embed_batch(texts, kind)

    embedder = Recording()
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="a", settings=settings, embedder=embedder, clock=clock) as mem:
        mem.add_message("t2", "user", "already here")
        mem.flush()  # its vector is embedded behind the write
        embedder.runs.clear()
        stored = mem.add_to_threads(
            {
                "t1": [{"role": "user", "content": "sourdough starters", "user": "ann"}],
                "t2": [{"role": "user", "content": f"hiking trail {i}"} for i in range(3)],
                "t3": [],
                "t4": [{"role": "assistant", "content": "the train leaves at nine", "metadata": {"k": 1}}],
            }
        )
        assert list(stored) == ["t1", "t2", "t3", "t4"]
        assert [m.seq for m in stored["t2"]] == [2, 3, 4]
        assert mem.history("t2")[1:] == stored["t2"] and mem.history("t1") == stored["t1"]
        assert stored["t3"] == [] and mem.history("t3") == []
        assert stored["t4"][0].metadata == {"k": 1} and stored["t1"][0].user == "ann"
        mem.flush()
        assert len(embedder.runs) == 1 and len(embedder.runs[0]) == 5  # one model run for the four threads
        # Each message got its own text's vector (the rows were not shifted between threads).
        messages = {m.id: m for key in ("t1", "t2", "t4") for m in stored[key]}
        ids, vectors = mem.store.get_vectors("a", "message", list(messages))
        assert sorted(ids) == sorted(messages)
        for message_id, vector in zip(ids, vectors, strict=True):
            (text,) = [t for t in embedder.runs[0] if t.endswith(messages[message_id].content)]
            assert np.allclose(vector, FakeEmbedder(cache_size=0).embed([text])[0], atol=1e-6)


def test_add_to_threads_with_one_bad_item_stores_nothing(mem: Memory) -> None:
    mem.add_message("t1", "user", "already here")
    before = snapshot(mem)
    with pytest.raises(InvalidInput) as caught:
        mem.add_to_threads(
            {
                "t1": [{"role": "user", "content": "fine"}],
                "t2": [{"role": "user", "content": "fine"}, {"role": "robot", "content": "beep"}],
            }
        )
    assert "'t2'" in str(caught.value) and "item 1" in str(caught.value)
    with pytest.raises(InvalidInput):
        mem.add_to_threads({"t1": [{"role": "user", "content": "fine"}], " ": [{"role": "user", "content": "x"}]})
    with pytest.raises(InvalidInput):
        mem.add_to_threads([("t1", [{"role": "user", "content": "fine"}])])  # type: ignore[arg-type]
    assert snapshot(mem) == before
    assert [t.key for t in mem.threads()] == ["t1"]


def test_facts_stated_in_messages_are_stored_with_them_or_not_at_all(mem: Memory, clock: Any) -> None:
    """A :class:`StatedFact` is written in the transaction of its message: its source is that message, the
    facts it supersedes are marked so with it, and a write that fails leaves neither."""
    from memlane.store.base import StatedFact, ThreadAppend
    from memlane.validation import NewFact, new_message

    store = mem.store
    lisbon = NewFact("Alice lives in Lisbon", "fact", 3, "alice", None, "private", {})
    old = store.add_fact("agent-a", lisbon, actor="alice", now=clock())
    porto = NewFact("Alice lives in Porto", "fact", 3, "alice", None, "private", {"method": "rules"})
    said = [
        new_message("user", "hi", user="alice", max_chars=100),
        new_message("user", "I live in Porto", max_chars=100),
    ]
    append = ThreadAppend("t", said, [5, 5], (), [StatedFact(1, porto, None, (old.id,))])

    def embedder_down() -> np.ndarray:
        raise StorageError("the vectors never came")

    with pytest.raises(StorageError):
        store.add_to_threads("agent-a", [append], clock(), embedder_down)
    assert mem.history("t") == [] and [f.content for f in mem.facts("alice")] == ["Alice lives in Lisbon"]
    with pytest.raises(InvalidInput):
        store.add_to_threads("agent-a", [ThreadAppend("t", said, [5, 5], (), [StatedFact(2, porto)])], clock())
    [stored] = store.add_to_threads("agent-a", [append], clock())
    [new] = mem.facts("alice")
    assert new.content == "Alice lives in Porto" and new.metadata == {"method": "rules"}
    assert (new.source_thread, new.source_from_seq, new.source_to_seq) == ("t", stored[1].seq, stored[1].seq)
    replaced = mem.fact(old.id)
    assert replaced.status == "superseded" and replaced.superseded_by == new.id and replaced.invalid_at is not None
    assert [c.action for c in mem.fact_history(old.id)] == ["create", "supersede"]
    assert [c.action for c in mem.fact_history(new.id)] == ["create"]
    # A fact superseded meanwhile is left as it is: the write still goes through.
    again = ThreadAppend("t", said[:1], [5], (), [StatedFact(0, porto, None, (old.id,))])
    store.add_to_threads("agent-a", [again], clock())
    assert [c.action for c in mem.fact_history(old.id)] == ["create", "supersede"]


# -- threads ----------------------------------------------------------------------------------------
def test_thread_is_created_by_its_first_message(mem: Memory, clock: Any) -> None:
    with pytest.raises(NotFound):
        mem.thread("new")
    mem.add_message("new", "user", "hello", user="alice")
    thread = mem.thread("new")
    assert (thread.key, thread.status, thread.message_count, thread.users) == ("new", "open", 1, ("alice",))
    assert thread.created_at == clock.now
    assert thread.system_prompt is None and thread.metadata == {}


def test_threads_most_recently_active_first(mem: Memory, clock: Any) -> None:
    for key in ("t1", "t2", "t3"):
        mem.add_message(key, "user", f"hello from {key}")
        clock.advance(minutes=5)
    assert [t.key for t in mem.threads()] == ["t3", "t2", "t1"]
    mem.add_message("t1", "user", "back again")
    assert [t.key for t in mem.threads()] == ["t1", "t3", "t2"]
    assert [t.key for t in mem.threads(limit=2)] == ["t1", "t3"]
    assert [t.key for t in mem.threads(limit=2, offset=1)] == ["t3", "t2"]


def test_threads_of_a_user_are_those_the_user_wrote_in(mem: Memory, clock: Any) -> None:
    mem.add_message("alice-only", "user", "hi", user="alice")
    clock.advance(seconds=1)
    mem.add_message("bob-only", "user", "hi", user="bob")
    clock.advance(seconds=1)
    mem.add_message("both", "user", "hi", user="bob")
    mem.add_message("both", "assistant", "hello both")
    mem.add_message("both", "user", "me too", user="alice")
    clock.advance(seconds=1)
    mem.add_message("nobody", "assistant", "anyone there?")

    assert [t.key for t in mem.threads(user="alice")] == ["both", "alice-only"]
    assert [t.key for t in mem.threads(user="bob")] == ["both", "bob-only"]
    assert mem.threads(user="carol") == []
    assert mem.thread("both").users == ("alice", "bob")
    assert len(mem.threads()) == 4


def test_set_thread_sets_system_prompt_and_metadata(mem: Memory) -> None:
    created = mem.set_thread("support", system_prompt="You are a helpful support bot.", metadata={"channel": "#help"})
    assert created.system_prompt == "You are a helpful support bot."
    assert created.metadata == {"channel": "#help"}
    mem.set_thread("support", metadata='{"channel": "#help", "lang": "en"}')
    thread = mem.thread("support")
    assert thread.system_prompt == "You are a helpful support bot."  # untouched by the second call
    assert thread.metadata == {"channel": "#help", "lang": "en"}
    mem.add_message("support", "user", "hi")
    first = mem.context("support").to_messages()[0]
    assert first["role"] == "system"
    assert first["content"].startswith("You are a helpful support bot.")


def test_end_marks_the_thread_ended(mem: Memory, clock: Any) -> None:
    mem.add_message("chat", "user", "bye")
    mem.add_message("other", "user", "still here")
    clock.advance(hours=1)
    ended = mem.end("chat")
    assert ended.status == "ended"
    assert ended.ended_at == clock.now
    assert mem.thread("chat").status == "ended"
    assert [t.key for t in mem.threads(status="ended")] == ["chat"]
    assert [t.key for t in mem.threads(status="open")] == ["other"]
    assert [m.content for m in mem.history("chat")] == ["bye"]


def test_reset_clears_messages_keeps_facts_and_continues_seq(mem: Memory) -> None:
    for i in range(3):
        mem.add_message("chat", "user", f"zebra talk {i}", user="alice")
    fact = mem.remember("Alice likes zebras", user="alice", thread="chat")

    assert mem.reset("chat") == 3

    assert mem.history("chat") == []
    assert mem.thread("chat").message_count == 0
    assert mem.fact(fact.id).content == "Alice likes zebras"
    assert [h.kind for h in mem.recall("zebra", user="alice")] == ["fact"]
    again = mem.add_message("chat", "user", "fresh start")
    assert again.seq == 4
    assert mem.reset("chat") == 1


def test_delete_thread_removes_messages_but_facts_stay(mem: Memory) -> None:
    mem.add_message("doomed", "user", "my giraffe is called Gerald", user="alice")
    mem.add_message("kept", "user", "hello", user="alice")
    fact = mem.remember("Alice has a giraffe named Gerald", user="alice", thread="doomed")

    assert mem.delete_thread("doomed") is None

    with pytest.raises(NotFound):
        mem.thread("doomed")
    assert mem.history("doomed") == []
    assert [t.key for t in mem.threads()] == ["kept"]
    assert mem.fact(fact.id).content == "Alice has a giraffe named Gerald"
    assert mem.fact(fact.id).source_thread == "doomed"
    assert [h.kind for h in mem.recall("giraffe Gerald", user="alice")] == ["fact"]
    reused = mem.add_message("doomed", "user", "a new conversation")
    assert reused.seq == 1


def test_prune_deletes_only_idle_threads(mem: Memory, clock: Any) -> None:
    mem.add_message("old", "user", "ancient walrus story", user="alice")
    fact = mem.remember("Alice once saw a walrus", user="alice", thread="old")
    clock.advance(days=20)
    mem.add_message("middle", "user", "a tale from twenty days ago")
    clock.advance(days=20)
    mem.add_message("recent", "user", "today's news")

    assert mem.prune(30) == 1
    assert sorted(t.key for t in mem.threads()) == ["middle", "recent"]
    assert mem.history("old") == []
    assert mem.recall("walrus", kinds=["message"]) == []
    assert mem.fact(fact.id).content == "Alice once saw a walrus"
    assert mem.prune(30) == 0
    assert mem.prune(10) == 1
    assert [t.key for t in mem.threads()] == ["recent"]
    with pytest.raises(InvalidInput):
        mem.prune(-1)


def test_prune_messages_drops_old_messages_and_keeps_what_was_learned(store_url: str, clock: Any) -> None:
    """Seed 003's retention: a busy thread loses its old messages (with their keyword and vector entries),
    keeps its numbering, its summaries and the facts learned from them; other threads and agents are left
    alone unless asked."""
    from memlane.embeddings import FakeEmbedder

    settings = load_settings(embedder="none", worker="none", summarize_after=3, summarize_batch=2)
    with Memory(store_url, agent="a", settings=settings, embedder=FakeEmbedder(), clock=clock) as mem:
        old = [
            mem.add_message("chat", "user", text, user="alice")
            for text in (
                "The walrus at the harbour was huge today.",
                "Everyone watched the walrus sleep on the pier.",
                "The walrus barked at the ferry.",
                "Then the walrus swam away.",
            )
        ]
        side_old = mem.add_message("side", "user", "A walrus story from the side channel.")
        mem.for_agent("b").add_message("chat", "user", "Agent b saw a walrus too.")
        mem.run_jobs()
        fact = mem.remember("Alice watched a walrus at the harbour", user="alice", thread="chat")
        clock.advance(days=20)
        new = [
            mem.add_message("chat", "user", "Penguins arrived at the harbour.", user="alice"),
            mem.add_message("chat", "user", "The penguins like the walrus rock.", user="alice"),
        ]
        side_new = mem.add_message("side", "user", "Penguin news from the side channel.")
        summaries = mem.summaries("chat")
        assert summaries, "the old messages were summarized"

        def message_ids(preset: str) -> set[int]:
            hits = mem.recall("walrus harbour pier ferry", limit=20, kinds=["message"], preset=preset)
            return {i for h in hits for i in (*h.message_ids, h.id)}

        gone = {m.id for m in old}
        assert gone <= message_ids("keyword") and gone <= message_ids("vector")  # (loads any vector cache)

        assert mem.prune_messages(10, thread="chat") == 4

        assert mem.history("chat") == new
        assert mem.thread("chat").message_count == 2
        assert message_ids("keyword").isdisjoint(gone) and message_ids("vector").isdisjoint(gone)
        assert side_old.id in message_ids("keyword") and new[1].id in message_ids("vector")
        assert mem.summaries("chat") == summaries
        assert mem.fact(fact.id).content == "Alice watched a walrus at the harbour"
        assert "walrus" in mem.context("chat", budget=3000).system_text()
        assert mem.add_message("chat", "user", "Still here.").seq == 7

        assert mem.prune_messages(10) == 1  # every thread of the agent: the side channel's old message
        assert mem.prune_messages(10) == 0
        assert mem.history("side") == [side_new]
        assert (mem.thread("side").message_count, mem.thread("chat").message_count) == (1, 3)
        assert [m.content for m in mem.for_agent("b").history("chat")] == ["Agent b saw a walrus too."]

        for bad in (-1, float("nan"), float("inf"), True, "7"):
            expect_error_and_no_change(mem, InvalidInput, lambda bad=bad: mem.prune_messages(bad))  # type: ignore[arg-type]
        expect_error_and_no_change(mem, InvalidInput, lambda: mem.prune_messages(1, thread=""))
        expect_error_and_no_change(mem, NotFound, lambda: mem.prune_messages(1, thread="no-such-thread"))


# -- facts ------------------------------------------------------------------------------------------
def test_remember_and_read_back(mem: Memory, clock: Any) -> None:
    fact = mem.remember(
        "  Alice prefers tea  ",
        user="alice",
        category="preference",
        importance=4,
        subject="alice",
        metadata={"source": "chat"},
    )
    assert fact.content == "Alice prefers tea"
    assert (fact.owner, fact.category, fact.importance, fact.visibility) == ("alice", "preference", 4, "private")
    assert fact.subject == "alice" and fact.metadata == {"source": "chat"}
    assert fact.created_at == clock.now == fact.updated_at
    assert mem.fact(fact.id) == fact
    assert mem.facts(user="alice") == [fact]
    assert mem.facts(user="alice", category="preference") == [fact]
    assert mem.facts(user="alice", category="hobby") == []


def test_custom_category_is_accepted(mem: Memory) -> None:
    fact = mem.remember("Alice is vegetarian", user="alice", category="diet")
    assert mem.facts(user="alice", category="diet") == [fact]
    updated = mem.update_fact(fact.id, category="food_prefs-2", user="alice")
    assert updated.category == "food_prefs-2"


def test_facts_most_important_first(mem: Memory, clock: Any) -> None:
    low = mem.remember("low", importance=1)
    clock.advance(seconds=1)
    high = mem.remember("high", importance=5)
    clock.advance(seconds=1)
    mid = mem.remember("mid", importance=3)
    assert [f.id for f in mem.facts()] == [high.id, mid.id, low.id]
    assert [f.id for f in mem.facts(limit=2)] == [high.id, mid.id]


def test_every_fact_change_is_in_its_history(mem: Memory, clock: Any) -> None:
    fact = mem.remember("Alice lives in Paris", user="alice")
    clock.advance(minutes=1)
    updated = mem.update_fact(fact.id, content="Alice lives in Lyon", importance=5, user="alice")
    clock.advance(minutes=1)
    mem.update_fact(fact.id, visibility="shared")  # the agent itself acts (no user)
    clock.advance(minutes=1)
    gone = mem.forget(fact.id, user="alice")

    assert updated.content == "Alice lives in Lyon" and updated.importance == 5
    assert gone.content == "Alice lives in Lyon" and gone.visibility == "shared"
    with pytest.raises(NotFound):
        mem.fact(fact.id)
    assert mem.facts(user="alice") == []

    history = mem.fact_history(fact.id)
    assert [(h.action, h.actor) for h in history] == [
        ("create", "alice"),
        ("update", "alice"),
        ("update", None),
        ("delete", "alice"),
    ]
    create, move, share, delete = history
    assert (create.old_content, create.new_content) == (None, "Alice lives in Paris")
    assert (move.old_content, move.new_content) == ("Alice lives in Paris", "Alice lives in Lyon")
    assert move.changes["content"] == {"old": "Alice lives in Paris", "new": "Alice lives in Lyon"}
    assert move.changes["importance"] == {"old": 3, "new": 5}
    assert share.changes["visibility"] == {"old": "private", "new": "shared"}
    assert (delete.old_content, delete.new_content) == ("Alice lives in Lyon", None)
    assert [h.at for h in history] == [clock.now - timedelta(minutes=3 - i) for i in range(4)]
    assert all(h.fact_id == fact.id for h in history)


def test_forget_with_purge_removes_the_history_too(mem: Memory) -> None:
    fact = mem.remember("Alice's phone number is 555-0100", user="alice")
    mem.forget(fact.id, user="alice", purge=True)
    with pytest.raises(NotFound):
        mem.fact_history(fact.id)
    assert all(r.get("type") not in ("fact", "fact_change", "deleted_fact") for r in snapshot(mem))
    assert mem.recall("phone number 555") == []


def test_forgotten_fact_is_no_longer_recalled(mem: Memory) -> None:
    fact = mem.remember("Alice's locker code is 4711", user="alice")
    assert [h.id for h in mem.recall("locker code", user="alice")] == [fact.id]
    mem.forget(fact.id, user="alice")
    assert mem.recall("locker code", user="alice") == []


def test_updated_fact_is_recalled_by_its_new_content(mem: Memory) -> None:
    fact = mem.remember("Alice drives a bicycle", user="alice")
    mem.update_fact(fact.id, content="Alice drives a motorbike", user="alice")
    assert [h.text for h in mem.recall("motorbike", user="alice")] == ["Alice drives a motorbike"]
    assert mem.recall("bicycle", user="alice") == []


def test_only_the_owner_may_change_a_fact(mem: Memory) -> None:
    private = mem.remember("Alice's birthday is 3 May", user="alice")
    shared = mem.remember("Alice's shop opens at 9", user="alice", visibility="shared")
    agents_own = mem.remember("The bot's name is Memo")
    changes: list[dict[str, Any]] = [
        {"content": "Bob rewrote this"},
        {"importance": 1},
        {"visibility": "shared"},
        {"category": "hobby"},
    ]
    before = snapshot(mem)

    def check(fact: Fact, change: dict[str, Any]) -> None:
        with pytest.raises(Forbidden):
            mem.update_fact(fact.id, user="bob", **change)
        with pytest.raises(Forbidden):
            mem.forget(fact.id, user="bob")
        assert snapshot(mem) == before

    check_each(
        [
            (f"{fact.content} / {change}", lambda f=fact, c=change: check(f, c))
            for fact in (private, shared, agents_own)
            for change in changes
        ]
    )
    assert mem.fact(private.id) == private
    assert [h.action for h in mem.fact_history(private.id)] == ["create"]
    updated = mem.update_fact(private.id, user="alice", content="Alice's birthday is 4 May", importance=5)
    assert (updated.owner, updated.content, updated.importance) == ("alice", "Alice's birthday is 4 May", 5)


def test_facts_filters(mem: Memory) -> None:
    mem.add_message("trip", "user", "planning", user="alice")
    trip = mem.remember("Alice flies on Friday", user="alice", thread="trip", subject="travel")
    food = mem.remember("Alice is vegetarian", user="alice", category="preference", subject="food")
    shared = mem.remember("Alice's dog is called Rex", user="alice", visibility="shared", category="relationship")

    assert mem.facts(user="alice", thread="trip") == [trip]
    assert mem.facts(user="alice", subject="food") == [food]
    assert mem.facts(user="alice", category="relationship") == [shared]
    assert mem.facts(user="alice", visibility="shared") == [shared]
    assert fact_ids(mem.facts(user="alice", visibility="private")) == {trip.id, food.id}
    assert fact_ids(mem.facts(user="alice", limit=2)) | fact_ids(mem.facts(user="alice", limit=2, offset=2)) == {
        trip.id,
        food.id,
        shared.id,
    }


def test_forget_all_with_filters(mem: Memory) -> None:
    mem.add_message("trip", "user", "planning", user="alice")
    trip = mem.remember("Alice flies on Friday", user="alice", thread="trip")
    food = mem.remember("Alice is vegetarian", user="alice", category="preference", subject="food")
    other = mem.remember("Alice plays chess", user="alice", category="hobby")
    bobs = mem.remember("Bob is vegetarian too", user="bob", category="preference", subject="food")

    assert mem.forget_all(user="alice", category="preference") == 1
    assert mem.forget_all(user="alice", thread="trip") == 1
    assert mem.forget_all(user="alice", subject="nothing-about-this") == 0
    assert fact_ids(mem.facts(all_users=True)) == {other.id, bobs.id}
    with pytest.raises(NotFound):
        mem.fact(food.id)
    with pytest.raises(NotFound):
        mem.fact(trip.id)


def test_recall_and_context_record_that_a_fact_was_used(mem: Memory, clock: Any) -> None:
    fact = mem.remember("Alice's favourite city is Porto", user="alice")
    assert (fact.access_count, fact.last_accessed_at) == (0, None)
    clock.advance(hours=1)
    mem.recall("Porto", user="alice")
    assert (mem.fact(fact.id).access_count, mem.fact(fact.id).last_accessed_at) == (1, clock.now)
    clock.advance(hours=1)
    mem.add_message("chat", "user", "hi", user="alice")
    mem.context("chat", user="alice")
    assert (mem.fact(fact.id).access_count, mem.fact(fact.id).last_accessed_at) == (2, clock.now)


# -- isolation: agents ------------------------------------------------------------------------------
def _plant_secrets(other: Memory) -> dict[str, Any]:
    """Another agent's memory, made of the best possible keyword matches for 'swordfish'."""
    other.add_message("general", "user", "the swordfish password is swordfish", user="alice")
    other.add_message(f"{other.agent}-only", "user", "swordfish swordfish vault", user="alice")
    shared = other.remember("swordfish is Alice's password", user="alice", visibility="shared")
    own = other.remember("swordfish opens the vault")
    return {"thread": f"{other.agent}-only", "facts": [shared, own]}


def test_agent_never_sees_another_agents_memory(mem: Memory, store_url: str, clock: Any, settings: Any) -> None:
    mem.add_message("general", "user", "I had fish tacos for lunch", user="alice")
    mine = mem.remember("Alice likes fish tacos", user="alice", visibility="shared")
    agent_b = mem.for_agent("agent-b")
    with Memory(store_url, agent="agent-c", settings=settings, clock=clock) as agent_c:
        planted = [_plant_secrets(agent_b), _plant_secrets(agent_c)]
        before = snapshot(mem)

        assert [m.content for m in mem.history("general")] == ["I had fish tacos for lunch"]
        assert [t.key for t in mem.threads()] == ["general"]
        assert [t.key for t in mem.threads(user="alice")] == ["general"]
        assert fact_ids(mem.facts(all_users=True)) == {mine.id}
        assert fact_ids(mem.facts(user="alice")) == {mine.id}
        assert mem.recall("swordfish password vault") == []
        assert mem.recall("swordfish password vault", user="alice") == []
        assert [h.id for h in mem.recall("swordfish fish", user="alice", limit=20)] != []
        assert all("swordfish" not in h.text for h in mem.recall("swordfish fish", user="alice", limit=20))
        ctx = mem.context("general", query="swordfish password", user="alice")
        assert "swordfish" not in json.dumps(ctx.to_messages(), ensure_ascii=False)
        for p in planted:
            assert mem.history(p["thread"]) == []
            for call in (mem.reset, mem.end, mem.delete_thread, mem.thread):
                with pytest.raises(NotFound):
                    call(p["thread"])
            for fact in p["facts"]:
                for call in (mem.fact, mem.fact_history, mem.forget):
                    with pytest.raises(NotFound):
                        call(fact.id)
                with pytest.raises(NotFound):
                    mem.update_fact(fact.id, content="hijacked")
        assert mem.forget_all(user="alice") == 1
        assert mem.forget_all() == 0
        assert all("swordfish" not in json.dumps(r) for r in before)

        # the other agents kept everything, and do not see agent-a's memory either
        for other, p in zip((agent_b, agent_c), planted, strict=True):
            assert fact_ids(other.facts(all_users=True)) == {f.id for f in p["facts"]}
            assert [m.content for m in other.history("general")] == ["the swordfish password is swordfish"]
            assert other.recall("fish tacos lunch", user="alice") == []
            assert sorted(t.key for t in other.threads()) == sorted(["general", p["thread"]])


def test_closing_an_agent_view_leaves_the_store_open(mem: Memory) -> None:
    view = mem.for_agent("agent-b")
    view.add_message("t", "user", "from b")
    view.close()
    assert mem.add_message("t", "user", "from a").seq == 1
    assert [m.content for m in mem.for_agent("agent-b").history("t")] == ["from b"]


def test_a_closed_memory_refuses_work(store_url: str, settings: Any) -> None:
    with Memory(store_url, agent="a", settings=settings) as m:
        m.add_message("t", "user", "hello")
    for call in (
        lambda: m.add_message("t", "user", "after close"),
        lambda: m.history("t"),
        lambda: m.recall("hello"),
        lambda: m.remember("x"),
    ):
        with pytest.raises(StorageError):
            call()
    with Memory(store_url, agent="a", settings=settings) as again:
        assert [msg.content for msg in again.history("t")] == ["hello"]


def test_same_thread_key_in_two_agents_are_two_threads(mem: Memory) -> None:
    other = mem.for_agent("agent-b")
    mem.add_message("general", "user", "a1")
    other.add_message("general", "user", "b1")
    mem.add_message("general", "user", "a2")
    assert [(m.content, m.seq) for m in mem.history("general")] == [("a1", 1), ("a2", 2)]
    assert [(m.content, m.seq) for m in other.history("general")] == [("b1", 1)]
    assert mem.reset("general") == 2
    assert [m.content for m in other.history("general")] == ["b1"]
    mem.delete_thread("general")
    assert other.thread("general").message_count == 1


# -- isolation: users -------------------------------------------------------------------------------
@pytest.fixture
def peanut_facts(mem: Memory) -> dict[str, Fact]:
    """Four facts about peanuts; Bob's private one is the best keyword match."""
    mem.add_message("alice-chat", "user", "my peanut allergy is serious", user="alice")
    mem.add_message("bob-chat", "user", "peanuts peanuts peanut butter sandwich", user="bob")
    return {
        "alice_private": mem.remember("Alice is allergic to peanuts", user="alice"),
        "bob_private": mem.remember("Bob peanuts peanuts peanuts secret", user="bob"),
        "bob_shared": mem.remember("Bob's peanut sauce uses lime", user="bob", visibility="shared"),
        "agent_own": mem.remember("The office kiosk sells peanuts"),
    }


def test_user_sees_own_shared_and_agent_facts_only(mem: Memory, peanut_facts: dict[str, Fact]) -> None:
    f = {k: v.id for k, v in peanut_facts.items()}
    assert fact_ids(mem.facts(user="alice")) == {f["alice_private"], f["bob_shared"], f["agent_own"]}
    assert fact_ids(mem.facts(user="bob")) == {f["bob_private"], f["bob_shared"], f["agent_own"]}
    assert fact_ids(mem.facts()) == {f["bob_shared"], f["agent_own"]}
    assert fact_ids(mem.facts(user="carol")) == {f["bob_shared"], f["agent_own"]}
    assert fact_ids(mem.facts(all_users=True)) == set(f.values())


def test_recall_never_returns_another_users_private_facts(mem: Memory, peanut_facts: dict[str, Fact]) -> None:
    f = {k: v.id for k, v in peanut_facts.items()}
    hits = mem.recall("peanuts", user="alice", limit=20)
    assert {h.id for h in hits if h.kind == "fact"} == {f["alice_private"], f["bob_shared"], f["agent_own"]}
    assert {h.thread for h in hits if h.kind == "message"} == {"alice-chat"}

    anonymous = mem.recall("peanuts", limit=20)
    assert {h.id for h in anonymous if h.kind == "fact"} == {f["bob_shared"], f["agent_own"]}

    bob = mem.recall("peanuts", user="bob", limit=20)
    assert f["alice_private"] not in {h.id for h in bob if h.kind == "fact"}
    assert {h.thread for h in bob if h.kind == "message"} == {"bob-chat"}


def test_context_never_shows_another_users_private_facts(mem: Memory, peanut_facts: dict[str, Fact]) -> None:
    text = mem.context("alice-chat", query="peanuts", user="alice", budget=2000).system_text()
    assert "Alice is allergic to peanuts" in text
    assert "Bob's peanut sauce uses lime" in text
    assert "The office kiosk sells peanuts" in text
    assert "secret" not in text
    assert "sandwich" not in text  # Bob's conversation is not recalled for Alice


def test_memories_are_seen_only_by_the_users_of_their_conversation(mem: Memory) -> None:
    """A memory made when a conversation ends reaches the people of that conversation only: in context()
    and in recall(), also after the conversation is deleted; a conversation without users is the agent's."""
    mem.add_message("alice-only", "user", "My locker code is 4512, keep it between us", user="alice")
    mem.add_message("offsite", "user", "Our team offsite is in Porto this May", user="alice")
    mem.add_message("offsite", "user", "I booked the Porto hotel for the offsite", user="bob")
    mem.add_message("kiosk", "user", "The lobby kiosk restarts every night at two")
    for thread in ("alice-only", "offsite", "kiosk"):
        mem.end(thread)
    mem.run_jobs()
    mem.add_message("later", "user", "hello again", user="carol")

    def shown(user: str | None) -> set[str]:
        text = mem.context("later", user=user, budget=3000).system_text()
        return {word for word in ("locker", "Porto", "kiosk") if word in text}

    def recalled(user: str | None) -> set[str]:
        hits = mem.recall("locker code Porto offsite kiosk restarts", user=user, limit=20, kinds=["summary"])
        return {word for word in ("locker", "Porto", "kiosk") for h in hits if word in h.text}

    assert shown("alice") == {"locker", "Porto", "kiosk"}
    assert shown("bob") == {"Porto", "kiosk"}
    assert shown("carol") == shown(None) == {"kiosk"}
    assert recalled("bob") <= {"Porto", "kiosk"} and "Porto" in recalled("bob")
    assert "locker" not in recalled("carol") and "Porto" not in recalled("carol")
    for thread in ("alice-only", "offsite", "kiosk"):
        mem.delete_thread(thread)
    assert shown("alice") == {"locker", "kiosk"}  # the group's memory went with its conversation
    assert shown("bob") == shown("carol") == {"kiosk"}
    assert recalled("alice") == {"locker", "kiosk"}
    assert recalled("bob") == recalled("carol") == {"kiosk"}


def test_forget_all_deletes_only_what_the_user_owns(mem: Memory) -> None:
    other_agent = mem.for_agent("agent-b")
    alice_private = mem.remember("Alice private", user="alice")
    alice_shared = mem.remember("Alice shared", user="alice", visibility="shared")
    bob_private = mem.remember("Bob private", user="bob")
    bob_shared = mem.remember("Bob shared", user="bob", visibility="shared")
    agent_own = mem.remember("Agent's own")
    elsewhere = other_agent.remember("Alice in agent b", user="alice")
    elsewhere_own = other_agent.remember("Agent b's own")

    assert mem.forget_all(user="alice") == 2
    assert fact_ids(mem.facts(all_users=True)) == {bob_private.id, bob_shared.id, agent_own.id}
    assert [h.action for h in mem.fact_history(alice_private.id)] == ["create", "delete"]
    assert [h.action for h in mem.fact_history(alice_shared.id)] == ["create", "delete"]

    assert mem.forget_all() == 1
    assert fact_ids(mem.facts(all_users=True)) == {bob_private.id, bob_shared.id}
    assert fact_ids(other_agent.facts(all_users=True)) == {elsewhere.id, elsewhere_own.id}
    assert mem.forget_all(user="alice") == 0


# -- recall -----------------------------------------------------------------------------------------
def test_recall_matches_word_forms(mem: Memory) -> None:
    running = mem.add_message("t", "user", "I was running in the park")
    dogs = mem.add_message("t", "user", "The dogs barked all night")
    mem.add_message("t", "user", "Completely unrelated sentence")
    assert [h.id for h in mem.recall("run")] == [running.id]
    assert [h.id for h in mem.recall("runs")] == [running.id]
    assert [h.id for h in mem.recall("dog")] == [dogs.id]
    assert [h.id for h in mem.recall("DOGS!")] == [dogs.id]


def test_recall_ranks_more_matching_terms_higher(mem: Memory) -> None:
    for i in range(5):
        mem.add_message("t", "user", f"filler message number {i} about the weather")
    few = mem.add_message("t", "user", "dogs make a lot of noise")
    many = mem.add_message("t", "user", "dogs chase cats chase birds")
    hits = mem.recall("dogs cats birds", kinds=["message"], preset="keyword")
    assert [h.id for h in hits] == [many.id, few.id]
    assert hits[0].score > hits[1].score


def test_recall_returns_provenance(mem: Memory, clock: Any) -> None:
    msg = mem.add_message("trip", "user", "Book the flight to Lisbon", user="alice", metadata={"channel": "dm"})
    fact = mem.remember("Alice flies to Lisbon in June", user="alice", category="milestone", thread="trip")
    hits = {h.kind: h for h in mem.recall("Lisbon flight", user="alice", preset="keyword")}

    m = hits["message"]
    assert (m.id, m.message_id, m.thread, m.text) == (msg.id, msg.id, "trip", "Book the flight to Lisbon")
    assert m.created_at == msg.created_at == clock.now
    assert m.metadata == {"channel": "dm"}
    assert m.score > 0
    f = hits["fact"]
    assert (f.id, f.text, f.thread, f.message_id) == (fact.id, "Alice flies to Lisbon in June", "trip", None)
    assert f.created_at == fact.created_at
    assert f.metadata["category"] == "milestone"


def test_recall_scoped_to_a_thread(mem: Memory) -> None:
    mem.add_message("t1", "user", "the octopus has eight arms", user="alice")
    mem.add_message("t2", "user", "an octopus is clever", user="alice")
    hits = mem.recall("octopus", thread="t1", kinds=["message"], preset="keyword")
    assert [h.thread for h in hits] == ["t1"]
    assert mem.recall("octopus", thread="no-such-thread", kinds=["message"], preset="keyword") == []


def test_recall_scoped_to_a_user(mem: Memory) -> None:
    mem.add_message("alice-t", "user", "my favourite colour is teal", user="alice")
    mem.add_message("bob-t", "user", "teal teal teal is my colour", user="bob")
    mem.add_message("shared-t", "user", "hello", user="alice")
    mem.add_message("shared-t", "user", "teal is nice", user="bob")
    # Messages only: what alice said is also a fact now (stated in her message), found in her thread too.
    assert sorted(h.thread for h in mem.recall("teal colour", user="alice", kinds=["message"], preset="keyword")) == [
        "alice-t",
        "shared-t",
    ]
    by_bob = mem.recall("teal colour", user="bob", kinds=["message"], preset="keyword")
    assert sorted(h.thread for h in by_bob) == ["bob-t", "shared-t"]
    assert mem.recall("teal colour", user="carol", preset="keyword") == []


def test_recall_reads_its_own_writes(mem: Memory) -> None:
    for i in range(20):
        msg = mem.add_message("t", "user", f"note {i}: codeword{i} kumquat")
        assert [h.id for h in mem.recall(f"codeword{i}", preset="keyword")] == [msg.id]
    fact = mem.remember("Alice keeps a kumquat tree", user="alice")
    assert fact.id in {h.id for h in mem.recall("kumquat", user="alice", kinds=["fact"], preset="keyword")}


def test_recall_respects_limit(mem: Memory) -> None:
    for i in range(10):
        mem.add_message("t", "user", f"pineapple number {i}")
        mem.remember(f"pineapple fact {i}", user="carol", visibility="shared")
    assert len(mem.recall("pineapple", limit=3, preset="keyword")) == 3
    assert len(mem.recall("pineapple", limit=1, kinds=["fact"], preset="keyword")) == 1
    assert len(mem.recall("pineapple", limit=50, preset="keyword")) == 20
    for bad in (0, -1, True, "3"):
        with pytest.raises(InvalidInput):
            mem.recall("pineapple", limit=bad, preset="keyword")


def test_recall_within_a_time_window(mem: Memory) -> None:
    old = mem.add_message("t", "user", "mango season", created_at=datetime(2024, 1, 10, tzinfo=UTC))
    mid = mem.add_message("t", "user", "mango smoothie", created_at=datetime(2024, 6, 10, tzinfo=UTC))
    new = mem.add_message("t", "user", "mango chutney", created_at=datetime(2025, 1, 10, tzinfo=UTC))
    since = datetime(2024, 6, 1, tzinfo=UTC)
    until = datetime(2024, 12, 31, tzinfo=UTC)
    assert {h.id for h in mem.recall("mango", since=since, preset="keyword")} == {mid.id, new.id}
    assert {h.id for h in mem.recall("mango", until=until, preset="keyword")} == {old.id, mid.id}
    assert [h.id for h in mem.recall("mango", since=since, until=until, preset="keyword")] == [mid.id]


def test_recall_with_an_empty_query_is_invalid(mem: Memory) -> None:
    mem.add_message("t", "user", "something")
    for query in ("", "   ", "\n\t"):
        with pytest.raises(InvalidInput):
            mem.recall(query)


# -- context ----------------------------------------------------------------------------------------
def _chat(mem: Memory, thread: str = "chat", n: int = 12) -> list[Message]:
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        mem.add_message(
            thread,
            role,
            f"message {i}: " + "lorem ipsum dolor " * (1 + i % 4),
            user="alice" if role == "user" else None,
        )
    return mem.history(thread)


def test_context_keeps_the_threads_system_messages_ahead_of_the_window(mem: Memory) -> None:
    """Seed 002's hybrid strategy (the default): a system message stays in the context after the recent
    window has moved past it, ahead of the recent messages, and is the last thing the budget gives up."""
    mem.add_message("agent", "system", "Tool policy: never run shell commands as root.")
    for n in range(60):
        mem.add_message("agent", "user" if n % 2 == 0 else "assistant", f"step {n} of the deployment went fine")
    assert [m.seq for m in mem.store.messages(mem.agent, "agent", roles=("system",))] == [1]
    assert mem.store.messages(mem.agent, "agent", roles=("tool",)) == []
    with pytest.raises(InvalidInput):
        mem.store.messages(mem.agent, "agent", roles=("robot",))
    ctx = mem.context("agent", budget=4000)
    assert ctx.messages[0].content == "Tool policy: never run shell commands as root."
    assert ctx.messages[-1].content == "step 59 of the deployment went fine"
    first = ctx.to_messages()[0]  # no prompt or memory here: the request starts with the pinned message
    assert (first["role"], first["content"]) == ("system", "Tool policy: never run shell commands as root.")
    tight = mem.context("agent", budget=120)
    assert tight.messages[0].role == "system" and len(tight.messages) < len(ctx.messages) and tight.tokens <= 120


def test_context_to_messages_structure(mem: Memory) -> None:
    mem.set_thread("chat", system_prompt="You are a travel agent.")
    history = _chat(mem)
    mem.remember("Alice is vegetarian", user="alice", category="preference")
    ctx = mem.context("chat", user="alice", budget=4000)
    out = ctx.to_messages()

    assert out[0]["role"] == "system"
    assert out[0]["content"].startswith("You are a travel agent.")
    assert "## Remembered facts" in out[0]["content"]
    assert "Alice is vegetarian" in out[0]["content"]
    assert all(m["role"] != "system" for m in out[1:])
    assert out[1:] == [m.to_openai() for m in history]
    assert ctx.messages == history
    assert ctx.tokens == count_request(out) <= 4000
    assert ctx.encoding == ENCODING
    assert ctx.dropped_messages == 0


def test_context_without_a_system_prompt_or_memory_is_just_the_messages(mem: Memory) -> None:
    history = _chat(mem, n=3)
    out = mem.context("chat", budget=4000).to_messages()
    assert out == [m.to_openai() for m in history]
    assert mem.context("no-such-thread", budget=100).to_messages() == []


def test_context_budget_defaults_to_max_history_tokens(store_url: str, clock: Any) -> None:
    with Memory(
        store_url, agent="a", settings=load_settings(embedder="none", max_history_tokens=100), clock=clock
    ) as m:
        _chat(m, n=30)
        ctx = m.context("chat")
        assert ctx.budget == 100
        assert 50 < ctx.tokens <= 100
        assert 0 < len(ctx.messages) < 30


@pytest.mark.parametrize("system_prompt", [None, "You are terse."])
def test_context_keeps_as_many_newest_messages_as_fit(mem: Memory, system_prompt: str | None) -> None:
    history = _chat(mem, n=14)
    prompt_part = [{"role": "system", "content": system_prompt}] if system_prompt else []
    full = count_request(prompt_part + [m.to_openai() for m in history])
    for budget in range(count_request(prompt_part), full + 5):
        ctx = mem.context("chat", budget=budget, system_prompt=system_prompt)
        out = ctx.to_messages()
        kept = ctx.messages
        assert ctx.tokens == count_request(out) <= budget
        assert kept == history[len(history) - len(kept) :], "not the newest messages"
        assert ctx.dropped_messages == len(history) - len(kept)
        if len(kept) < len(history):
            one_more = [*prompt_part, history[-len(kept) - 1].to_openai(), *conversation_part(ctx)]
            assert count_request(one_more) > budget, f"budget {budget}: one more message would have fit"


def test_context_system_prompt_larger_than_budget_is_invalid(mem: Memory) -> None:
    _chat(mem, n=3)
    with pytest.raises(InvalidInput):
        mem.context("chat", budget=50, system_prompt="You are a very verbose assistant. " * 20)
    mem.set_thread("chat", system_prompt="Stored prompt that is long. " * 20)
    with pytest.raises(InvalidInput):
        mem.context("chat", budget=50)
    for bad in (0, -5, True, 10.5, "100"):
        with pytest.raises(InvalidInput):
            mem.context("chat", budget=bad)


def test_context_prefers_facts_relevant_to_the_query(mem: Memory) -> None:
    _chat(mem, n=4)
    for i in range(15):
        mem.remember(f"Alice mentioned hobby number {i} which involves knitting scarves", user="alice", importance=5)
    mem.remember("Alice's passport expires in May", user="alice", importance=1)
    text = mem.context("chat", user="alice", query="When does my passport expire?", budget=300).system_text()
    assert "## Remembered facts" in text
    assert "Alice's passport expires in May" in text
    without_query = mem.context("chat", user="alice", budget=300).system_text()
    assert "passport" not in without_query  # only the most important fit without a query


def test_context_recalls_older_and_other_conversations(store_url: str, clock: Any) -> None:
    small_window = load_settings(embedder="none", max_messages_in_context=4)
    with Memory(store_url, agent="a", settings=small_window, clock=clock) as m:
        m.add_message("trip", "user", "My passport number ends in 9876", user="alice")
        for i in range(8):
            m.add_message("trip", "user" if i % 2 else "assistant", f"small talk {i}", user="alice" if i % 2 else None)
        m.add_message("earlier", "user", "I renewed my passport last spring", user="alice")
        m.add_message("bobs", "user", "Bob's passport is blue", user="bob")
        m.add_message("trip", "user", "Which passport details do you have?", user="alice")

        ctx = m.context("trip", query="passport", user="alice", budget=2000)
        text = ctx.system_text()
        assert "## Related from past conversations" in text
        assert "My passport number ends in 9876" in text
        assert "I renewed my passport last spring" in text
        assert "Bob's passport" not in text
        assert len(ctx.messages) == 4
        everything = json.dumps(ctx.to_messages(), ensure_ascii=False)
        assert everything.count("Which passport details do you have?") == 1  # recent, so not recalled again
        assert {h.thread for h in ctx.recalled} == {"trip", "earlier"}


def test_tool_calls_travel_with_their_results_at_every_budget(mem: Memory) -> None:
    mem.add_messages(
        "agent",
        [
            {"role": "user", "content": "What's the weather in Paris and Oslo?", "user": "alice"},
            {"role": "assistant", "content": "", "tool_calls": [weather_call("c1"), weather_call("c2", "Oslo")]},
            {"role": "tool", "content": '{"temp": 21, "sky": "clear"}', "tool_call_id": "c1"},
            {"role": "tool", "content": '{"temp": 3, "sky": "snow"}', "tool_call_id": "c2"},
            {"role": "assistant", "content": "Paris is 21°C and clear; Oslo 3°C with snow."},
            {"role": "user", "content": "And Rome?", "user": "alice"},
            {"role": "assistant", "content": "Let me check.", "tool_calls": [weather_call("c3", "Rome")]},
            {"role": "tool", "content": '{"temp": 18}', "tool_call_id": "c3"},
            {"role": "assistant", "content": "Rome is 18°C."},
        ],
    )
    history = mem.history("agent")
    full = count_request([m.to_openai() for m in history])
    sizes = set()
    for budget in range(3, full + 10):
        ctx = mem.context("agent", budget=budget)
        out = ctx.to_messages()
        assert ctx.tokens == count_request(out) <= budget
        assert_tool_integrity(out, history)
        assert ctx.messages == history[len(history) - len(ctx.messages) :]
        sizes.add(len(ctx.messages))
    assert sizes == {0, 1, 3, 4, 5, 8, 9}, "every unit boundary is reached as the budget grows"


def test_window_cut_inside_a_tool_group_sends_no_orphan_results(store_url: str, clock: Any) -> None:
    narrow = load_settings(embedder="none", max_messages_in_context=3)
    with Memory(store_url, agent="a", settings=narrow, clock=clock) as m:
        m.add_message("t", "user", "weather in three cities?")
        m.add_message("t", "assistant", "", tool_calls=[weather_call(f"c{i}") for i in range(3)])
        for i in range(3):
            m.add_message("t", "tool", f"result {i}", tool_call_id=f"c{i}")
        for budget in (20, 100, 1000):
            out = m.context("t", budget=budget).to_messages()
            assert all(msg["role"] != "tool" for msg in out)
            assert_tool_integrity(out, m.history("t"))


def test_context_never_sends_a_message_twice_when_a_shorter_recall_leaves_room_for_it(mem: Memory) -> None:
    """context() fits the window once, then again with the turns the budget left out recallable. The second
    pass may choose shorter recalled items (a long one no longer fits after them), so the window keeps more
    turns, one of them also recalled: that turn must then be left out of the recalled items. Found by
    test_context_fits_any_budget; here at the budgets where it happened."""
    m = mem.for_agent(f"twice-{uuid.uuid4().hex}")

    def filler(n: int, start: int) -> list[dict[str, Any]]:
        return [
            {"role": "user", "content": f"other words number {i} " * 3, "user": "alice"}
            if i % 2 == 0
            else {"role": "assistant", "content": f"other words number {i} " * 3}
            for i in range(start, start + n)
        ]

    m.add_messages(
        "past", [{"role": "user", "content": "tea " + " ".join(f"word{i}" for i in range(40)), "user": "alice"}]
    )
    tea = [{"role": "user", "content": "tea", "user": "alice"}, {"role": "assistant", "content": "tea please"}]
    m.add_messages("t", filler(10, 0) + tea + filler(28, 100))
    rebuilt = 0
    for budget in range(600, 760, 3):
        ctx = m.context("t", budget=budget, query="tea", user="alice")
        sent = {msg.id for msg in ctx.messages}
        recalled = {h.message_id for h in ctx.recalled if h.kind == "message"}
        assert not recalled & sent, f"budget {budget}: a message is sent twice"
        rebuilt += bool(ctx.dropped_messages and ctx.recalled)  # fitted twice: turns left out, items recalled
    assert rebuilt


# -- property: random conversations and budgets -----------------------------------------------------
_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
_WORDS = ["tea", "passport", "running", "dogs", "Paris", "café", "日本語", "weather", "order", "42", "🙂", "the"]
# Word-like text (so that queries find things) or any Unicode text.
_TEXT = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=15).map(" ".join) | st.text(
    _CHARS, min_size=1, max_size=80
).filter(lambda s: s.strip() != "")
# Display names: any text but control characters (refused in names: they could open a line of a prompt).
_NAMES = st.none() | st.text(_CHARS, min_size=1, max_size=12).filter(
    lambda s: s.strip() != "" and not any(ord(c) < 32 or 127 <= ord(c) < 160 for c in s)
)


@st.composite
def conversations(draw: st.DrawFn) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    calls = 0
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["user", "assistant", "system", "tools"]))
        if kind == "tools":
            ids = [f"call_{calls + i}" for i in range(draw(st.integers(1, 3)))]
            calls += len(ids)
            tool_calls = [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": "lookup", "arguments": json.dumps({"q": draw(_TEXT)}, ensure_ascii=False)},
                }
                for call_id in ids
            ]
            items.append({"role": "assistant", "content": draw(st.just("") | _TEXT), "tool_calls": tool_calls})
            items += [{"role": "tool", "content": draw(_TEXT), "tool_call_id": call_id} for call_id in ids]
            continue
        item: dict[str, Any] = {"role": kind, "content": draw(_TEXT)}
        name = draw(_NAMES)
        if name is not None:
            item["name"] = name
        if kind == "user":
            item["user"] = draw(st.sampled_from(["alice", "bob"]))
        items.append(item)
    return items


@hsettings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    conversation=conversations(),
    budget=st.integers(1, 60) | st.integers(60, 400) | st.integers(400, 3000),
    system_prompt=st.none() | _TEXT,
    facts=st.lists(_TEXT, max_size=3),
    past=st.lists(_TEXT, max_size=3),
    query=st.none() | _TEXT | st.integers(0, 10_000),
)
def test_context_fits_any_budget(
    mem: Memory,
    conversation: list[dict[str, Any]],
    budget: int,
    system_prompt: str | None,
    facts: list[str],
    past: list[str],
    query: str | int | None,
) -> None:
    m = mem.for_agent(f"prop-{uuid.uuid4().hex}")
    m.add_messages("t", conversation)
    m.add_messages("past", [{"role": "user", "content": text, "user": "alice"} for text in past])
    for text in facts:
        m.remember(text, user="alice")
    history = m.history("t")
    if isinstance(query, int):  # ask about something that was said, so that recall finds it
        said = [item["content"] for item in conversation if item.get("content")] + past
        query = said[query % len(said)] if said else None
    try:
        ctx = m.context("t", budget=budget, system_prompt=system_prompt, query=query, user="alice")
    except InvalidInput:
        prompt_only = [{"role": "system", "content": system_prompt}] if system_prompt else []
        assert count_request(prompt_only) > budget, "refused a budget the system prompt fits in"
        return
    event("something recalled" if ctx.recalled else "nothing recalled")
    event("messages dropped" if ctx.dropped_messages else "every message fits")
    out = ctx.to_messages()
    exact = count_request(out)
    assert exact <= budget
    assert ctx.tokens == exact
    assert_tool_integrity(out, history)
    if system_prompt:
        assert out[0]["role"] == "system" and out[0]["content"].startswith(system_prompt)
    # what is sent is the newest part of the thread, in order, minus tool results cut from their call
    sent = ctx.messages
    if sent:
        start = next(i for i, msg in enumerate(history) if msg.id == sent[0].id)
        window = history[start:]
        call_ids = {c["id"] for msg in window if msg.tool_calls for c in msg.tool_calls}
        assert sent == [msg for msg in window if msg.role != "tool" or msg.tool_call_id in call_ids]
    assert conversation_part(ctx) == [msg.to_openai() for msg in sent]
    recalled_ids = {h.message_id for h in ctx.recalled if h.kind == "message"}
    assert not recalled_ids & {msg.id for msg in sent}, "a message is sent twice: as itself and as recalled"


# -- bad input --------------------------------------------------------------------------------------
@pytest.fixture
def stocked(mem: Memory) -> dict[str, Any]:
    """Some memory to stay untouched while bad calls fail."""
    mem.set_thread("chat", system_prompt="Be kind.", metadata={"k": "v"})
    mem.add_message("chat", "user", "hello there", user="alice")
    fact = mem.remember("Alice likes jazz", user="alice")
    return {"fact": fact.id}


BAD_CALLS: list[Any] = [
    pytest.param(lambda m, s: m.add_message("chat", "user", ""), InvalidInput, id="empty-content"),
    pytest.param(lambda m, s: m.add_message("chat", "user", " \n\t "), InvalidInput, id="whitespace-content"),
    pytest.param(lambda m, s: m.add_message("chat", "user", None), InvalidInput, id="none-content"),
    pytest.param(lambda m, s: m.add_message("chat", "user", 42), InvalidInput, id="int-content"),
    pytest.param(lambda m, s: m.add_message("chat", "robot", "beep"), InvalidInput, id="unknown-role"),
    pytest.param(lambda m, s: m.add_message("chat", "USER", "hi"), InvalidInput, id="role-wrong-case"),
    pytest.param(lambda m, s: m.add_message("chat", "tool", "42"), InvalidInput, id="tool-without-call-id"),
    pytest.param(
        lambda m, s: m.add_message("chat", "user", "hi", tool_calls=[weather_call("c1")]),
        InvalidInput,
        id="tool-calls-on-user",
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "assistant", "hi", tool_call_id="c1"),
        InvalidInput,
        id="call-id-on-assistant",
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "assistant", "", tool_calls=[{"type": "function"}]),
        InvalidInput,
        id="tool-call-without-id",
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "assistant", "", tool_calls="[oops"), InvalidInput, id="tool-calls-bad-json"
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "assistant", "", tool_calls=[]), InvalidInput, id="tool-calls-empty"
    ),
    pytest.param(lambda m, s: m.add_message("chat", "user", "a\x00b"), InvalidInput, id="nul-content"),
    pytest.param(lambda m, s: m.add_message("chat", "user", "bad \ud800 text"), InvalidInput, id="surrogate-content"),
    pytest.param(lambda m, s: m.add_message("ch\x00at", "user", "hi"), InvalidInput, id="nul-thread"),
    pytest.param(lambda m, s: m.add_message("\udfff", "user", "hi"), InvalidInput, id="surrogate-thread"),
    pytest.param(lambda m, s: m.add_message("  ", "user", "hi"), InvalidInput, id="blank-thread"),
    pytest.param(lambda m, s: m.add_message("x" * 256, "user", "hi"), InvalidInput, id="long-thread"),
    pytest.param(lambda m, s: m.add_message("chat", "user", "hi", user="al\x00ice"), InvalidInput, id="nul-user"),
    pytest.param(lambda m, s: m.add_message("chat", "user", "hi", user=""), InvalidInput, id="empty-user"),
    pytest.param(lambda m, s: m.add_message("chat", "user", "hi", name="\ud83d"), InvalidInput, id="surrogate-name"),
    pytest.param(
        lambda m, s: m.add_message("chat", "user", "hi", metadata="{not json"), InvalidInput, id="metadata-bad-json"
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "user", "hi", metadata="[1, 2]"), InvalidInput, id="metadata-json-list"
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "user", "hi", metadata=[("a", 1)]), InvalidInput, id="metadata-list"
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "user", "hi", metadata={"x": float("nan")}), InvalidInput, id="metadata-nan"
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "user", "hi", metadata={"x": {1, 2}}), InvalidInput, id="metadata-set"
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "user", "hi", metadata={"x": "\x00"}), InvalidInput, id="metadata-nul"
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "user", "hi", metadata={"\ud800": 1}), InvalidInput, id="metadata-surrogate"
    ),
    pytest.param(
        lambda m, s: m.add_message("chat", "user", "hi", created_at="yesterday"), InvalidInput, id="bad-created-at"
    ),
    pytest.param(lambda m, s: m.add_message("chat", "user", "hi", created_at=12345), InvalidInput, id="int-created-at"),
    pytest.param(lambda m, s: m.remember(""), InvalidInput, id="remember-empty"),
    pytest.param(lambda m, s: m.remember("x\x00y"), InvalidInput, id="remember-nul"),
    pytest.param(lambda m, s: m.remember("x", importance=0), InvalidInput, id="importance-0"),
    pytest.param(lambda m, s: m.remember("x", importance=6), InvalidInput, id="importance-6"),
    pytest.param(lambda m, s: m.remember("x", importance="3"), InvalidInput, id="importance-str"),
    pytest.param(lambda m, s: m.remember("x", importance=True), InvalidInput, id="importance-bool"),
    pytest.param(lambda m, s: m.remember("x", importance=3.0), InvalidInput, id="importance-float"),
    pytest.param(lambda m, s: m.remember("x", visibility="public"), InvalidInput, id="visibility-unknown"),
    pytest.param(lambda m, s: m.remember("x", category="Not A Category!"), InvalidInput, id="category-bad"),
    pytest.param(lambda m, s: m.remember("x", metadata="[]"), InvalidInput, id="remember-metadata-list"),
    pytest.param(lambda m, s: m.update_fact(s["fact"], importance=0), InvalidInput, id="update-importance-0"),
    pytest.param(lambda m, s: m.update_fact(s["fact"], visibility="everyone"), InvalidInput, id="update-visibility"),
    pytest.param(lambda m, s: m.update_fact(s["fact"], content="  "), InvalidInput, id="update-blank-content"),
    pytest.param(lambda m, s: m.update_fact(s["fact"], metadata="{x"), InvalidInput, id="update-bad-metadata"),
    pytest.param(lambda m, s: m.update_fact("1", content="x"), InvalidInput, id="fact-id-str"),
    pytest.param(lambda m, s: m.fact(0), InvalidInput, id="fact-id-0"),
    pytest.param(lambda m, s: m.fact(999_999), NotFound, id="fact-unknown"),
    pytest.param(lambda m, s: m.update_fact(999_999, content="x"), NotFound, id="update-unknown"),
    pytest.param(lambda m, s: m.forget(999_999), NotFound, id="forget-unknown"),
    pytest.param(lambda m, s: m.fact_history(999_999), NotFound, id="history-unknown"),
    pytest.param(lambda m, s: m.forget(s["fact"], user="bob"), Forbidden, id="forget-not-owner"),
    pytest.param(lambda m, s: m.update_fact(s["fact"], content="x", user="bob"), Forbidden, id="update-not-owner"),
    pytest.param(lambda m, s: m.reset("no-such-thread"), NotFound, id="reset-unknown"),
    pytest.param(lambda m, s: m.end("no-such-thread"), NotFound, id="end-unknown"),
    pytest.param(lambda m, s: m.delete_thread("no-such-thread"), NotFound, id="delete-unknown"),
    pytest.param(lambda m, s: m.thread("no-such-thread"), NotFound, id="thread-unknown"),
    pytest.param(lambda m, s: m.set_thread("chat", metadata="[1]"), InvalidInput, id="thread-metadata-list"),
    pytest.param(lambda m, s: m.set_thread("chat", system_prompt="a\x00"), InvalidInput, id="system-prompt-nul"),
    pytest.param(lambda m, s: m.threads(status="closed"), InvalidInput, id="threads-bad-status"),
    pytest.param(lambda m, s: m.recall(""), InvalidInput, id="recall-empty"),
    pytest.param(lambda m, s: m.for_agent(" ").add_message("chat", "user", "hi"), InvalidInput, id="blank-agent"),
    pytest.param(lambda m, s: m.recall("jazz", kinds=["song"]), InvalidInput, id="recall-bad-kind"),
    pytest.param(lambda m, s: m.context("chat", budget=0), InvalidInput, id="context-budget-0"),
    pytest.param(lambda m, s: m.import_(io.StringIO("not an export\n")), InvalidInput, id="import-garbage"),
    pytest.param(lambda m, s: m.import_(io.StringIO(""), on_conflict="merge"), InvalidInput, id="import-bad-mode"),
]


def test_bad_input_raises_the_right_error_and_changes_nothing(mem: Memory, stocked: dict[str, Any]) -> None:
    def check(call: Callable[[Memory, dict[str, Any]], Any], error: type[MemlaneError]) -> None:
        expect_error_and_no_change(mem, error, lambda: call(mem, stocked))

    check_each([(str(p.id), lambda v=p.values: check(*v)) for p in BAD_CALLS])


def test_content_longer_than_the_limit_is_refused(store_url: str, clock: Any) -> None:
    small = load_settings(embedder="none", max_content_chars=50)
    with Memory(store_url, agent="small", settings=small, clock=clock) as m:
        m.add_message("t", "user", "x" * 50)
        m.remember("y" * 50)
        before = snapshot(m)
        for call in (
            lambda: m.add_message("t", "user", "x" * 51),
            lambda: m.add_message("t", "user", "é" * 51),
            lambda: m.add_messages("t", [{"role": "user", "content": "ok"}, {"role": "user", "content": "x" * 51}]),
            lambda: m.remember("y" * 51),
            lambda: m.update_fact(m.facts()[0].id, content="z" * 51),
            lambda: m.set_thread("t", system_prompt="p" * 51),
        ):
            with pytest.raises(InvalidInput):
                call()
        assert snapshot(m) == before


# -- unicode ----------------------------------------------------------------------------------------
WEIRD = [
    "family 👨\u200d👩\u200d👧\u200d👦 flag 🏳️\u200d🌈 🇯🇵",
    "مرحبا بالعالم — שלום עולם",
    "e\u0301 is not \u00e9; Z\u0351\u0300a\u0308lgo",
    "中文 日本語 한국어",
    "astral 𝄞 𓀀 𠜎 \U0001f9ec \U0010fffd",
    "line one\r\nline two\ttabbed\r\n",
    "zero\u200bwidth\u2028line\u2029para\ufeffbom\u202eoverride\u202c",
    "\x01\x1f\x7f\x85 control",
]


def test_unicode_round_trips_byte_for_byte(mem: Memory, tmp_path: Path) -> None:
    thread = "线程 🧵 مرحبا β/x"
    user = "用户-👤-שלום"
    name = "Zoë 👩\u200d💻"
    metadata = {"emoji 🎉": "ünïcødé\r\n", "rtl": "مرحبا", "nested": {"汉字": ["e\u0301", "\U0001f600"]}}
    for text in WEIRD:
        mem.add_message(thread, "user", text, user=user, name=name, metadata=metadata)
    mem.set_thread(thread, system_prompt=WEIRD[0], metadata=metadata)
    fact = mem.remember(WEIRD[2], user=user, subject=name, metadata=metadata)

    def check(m: Memory) -> None:
        stored = m.history(thread)
        assert [s.content.encode("utf-8") for s in stored] == [t.encode("utf-8") for t in WEIRD]
        assert all(s.user == user and s.name == name and s.metadata == metadata for s in stored)
        assert [t.key for t in m.threads(user=user)] == [thread]
        assert m.thread(thread).system_prompt == WEIRD[0]
        assert m.thread(thread).metadata == metadata
        (f,) = m.facts(user=user)
        assert (f.content, f.subject, f.owner, f.metadata) == (WEIRD[2], name, user, metadata)
        assert json.dumps(m.context(thread, user=user).to_messages()[-1], ensure_ascii=False) == json.dumps(
            {"role": "user", "content": WEIRD[-1], "name": name}, ensure_ascii=False
        )

    check(mem)
    assert mem.fact(fact.id).content.encode("utf-8") == WEIRD[2].encode("utf-8")
    path = tmp_path / "weird.jsonl"
    mem.export(path)
    copy = mem.for_agent("copy ✓")
    copy.import_(path)
    assert snapshot(copy)[1:] == snapshot(mem)[1:]
    check(copy)


def test_thread_keys_and_user_ids_are_compared_exactly(mem: Memory) -> None:
    keys = ["café", "cafe\u0301", "Café", "ca fé", "ﬁle", "file"]  # NFC, NFD, case, inner space, ligature
    for key in keys:
        mem.add_message(key, "user", f"in {key!r}", user=key)
    assert sorted(t.key for t in mem.threads()) == sorted(keys)
    for key in keys:
        assert [m.content for m in mem.history(key)] == [f"in {key!r}"]
        assert [t.key for t in mem.threads(user=key)] == [key]


def test_unicode_words_are_recalled(mem: Memory) -> None:
    msg = mem.add_message("t", "user", "Ich wohne in München und esse gern Käse")
    mem.add_message("t", "user", "nothing to see here")
    assert [h.id for h in mem.recall("München")] == [msg.id]
    assert [h.id for h in mem.recall("käse")] == [msg.id]


# -- export / import --------------------------------------------------------------------------------
def _populate(mem: Memory, clock: Any) -> dict[str, Fact]:
    mem.set_thread("support", system_prompt="You are a support bot.", metadata={"channel": "#help"})
    mem.add_message("support", "user", "My order 42 is late", user="alice", name="Alice", metadata={"ticket": 42})
    clock.advance(minutes=1)
    mem.add_messages(
        "support",
        [
            {"role": "assistant", "content": "", "tool_calls": [weather_call("call_1", "Order 42")]},
            {"role": "tool", "content": '{"status": "shipped"}', "tool_call_id": "call_1"},
            {"role": "assistant", "content": "It shipped yesterday."},
        ],
    )
    clock.advance(minutes=1)
    mem.end("support")
    clock.advance(minutes=1)
    mem.add_message(
        "smalltalk",
        "user",
        "Is the green tea in stock?",
        user="bob",
        created_at=datetime(2025, 5, 1, 8, 30, tzinfo=UTC),
    )
    mem.add_message("smalltalk", "assistant", "Nice!")
    facts = {
        "pref": mem.remember(
            "Alice prefers email", user="alice", category="preference", importance=4, thread="support"
        ),
        "updated": mem.remember("Bob drinks tea", user="bob"),
        "shared": mem.remember(
            "Bob's shop opens at 9", user="bob", visibility="shared", subject="bob-shop", metadata={"src": "chat"}
        ),
        "gone": mem.remember("Alice lives in Paris", user="alice"),
        "agent": mem.remember("Support hours are 9 to 17", category="business_hours"),
    }
    clock.advance(minutes=1)
    mem.update_fact(facts["updated"].id, content="Bob drinks green tea", importance=5, user="bob")
    mem.forget(facts["gone"].id, user="alice")
    return facts


def _export_lines(mem: Memory) -> list[str]:
    buf = io.StringIO()
    mem.export(buf)
    return buf.getvalue().splitlines()


def test_export_import_round_trip(mem: Memory, clock: Any, tmp_path: Path) -> None:
    facts = _populate(mem, clock)
    path = tmp_path / "memory.jsonl"
    written = mem.export(path)
    original = path.read_text(encoding="utf-8").splitlines()
    assert written == len(original)
    kinds = [json.loads(line)["type"] for line in original]
    assert kinds.count("thread") == 2 and kinds.count("message") == 6
    assert kinds.count("fact") == 4 and kinds.count("deleted_fact") == 1

    copy = mem.for_agent("agent-copy")
    counts = copy.import_(path)
    assert counts == {
        "threads": 2,
        "messages": 6,
        "facts": 4,
        "fact_changes": kinds.count("fact_change"),
        "summaries": 0,
        "users": kinds.count("user"),
    }

    again = _export_lines(copy)
    assert again[1:] == original[1:]
    assert json.loads(again[0]) == {**json.loads(original[0]), "agent": "agent-copy"}

    # and the copy behaves like the original
    for key in ("support", "smalltalk"):
        ours, theirs = mem.history(key), copy.history(key)
        assert [
            (m.seq, m.role, m.content, m.user, m.name, m.tool_calls, m.tool_call_id, m.metadata, m.created_at)
            for m in ours
        ] == [
            (m.seq, m.role, m.content, m.user, m.name, m.tool_calls, m.tool_call_id, m.metadata, m.created_at)
            for m in theirs
        ]
        a, b = mem.thread(key), copy.thread(key)
        assert (
            a.status,
            a.system_prompt,
            a.metadata,
            a.created_at,
            a.updated_at,
            a.ended_at,
            a.users,
            a.message_count,
        ) == (b.status, b.system_prompt, b.metadata, b.created_at, b.updated_at, b.ended_at, b.users, b.message_count)
    assert copy.thread("support").status == "ended"
    assert sorted(f.content for f in copy.facts(user="bob")) == sorted(f.content for f in mem.facts(user="bob"))
    (green,) = [f for f in copy.facts(all_users=True) if f.content == "Bob drinks green tea"]
    assert [(h.action, h.old_content, h.new_content) for h in copy.fact_history(green.id)] == [
        (h.action, h.old_content, h.new_content) for h in mem.fact_history(facts["updated"].id)
    ]
    found = copy.recall("order late", kinds=["message"])
    assert found[0].text == "My order 42 is late"
    assert [(h.text, h.score) for h in found] == [
        (h.text, h.score) for h in mem.recall("order late", kinds=["message"])
    ]
    assert copy.add_message("support", "user", "any news?").seq == 5
    assert copy.fact_history(green.id)[-1].action == "update"


def test_export_of_selected_threads(mem: Memory, clock: Any) -> None:
    _populate(mem, clock)
    records = list(mem.export_records(threads=["smalltalk"]))
    assert {r["thread"] for r in records if r["type"] in ("thread", "message")} == {"smalltalk"}


def test_import_into_an_existing_thread_conflicts(mem: Memory, clock: Any) -> None:
    _populate(mem, clock)
    lines = _export_lines(mem)
    target = mem.for_agent("agent-t")
    target.add_message("smalltalk", "user", "local only")
    for m in (mem, target):
        before = snapshot(m)
        with pytest.raises(Conflict):
            m.import_(io.StringIO("\n".join(lines) + "\n"))
        assert snapshot(m) == before
    assert [m.content for m in target.history("smalltalk")] == ["local only"]
    assert target.facts(all_users=True) == []


def test_import_skip_keeps_existing_threads(mem: Memory, clock: Any) -> None:
    _populate(mem, clock)
    lines = "\n".join(_export_lines(mem)) + "\n"
    target = mem.for_agent("agent-t")
    target.add_message("smalltalk", "user", "local only")

    counts = target.import_(io.StringIO(lines), on_conflict="skip")

    assert counts["threads"] == 1 and counts["messages"] == 4
    assert [m.content for m in target.history("smalltalk")] == ["local only"]
    assert [m.content for m in target.history("support")] == [m.content for m in mem.history("support")]
    assert len(target.facts(all_users=True)) == 4


def test_import_replace_overwrites_existing_threads(mem: Memory, clock: Any) -> None:
    _populate(mem, clock)
    lines = _export_lines(mem)
    target = mem.for_agent("agent-t")
    target.add_message("support", "user", "local only")
    target.add_message("support", "user", "local two")

    target.import_(io.StringIO("\n".join(lines) + "\n"), on_conflict="replace")

    assert [m.content for m in target.history("support")] == [m.content for m in mem.history("support")]
    assert target.thread("support").status == "ended"
    assert _export_lines(target)[1:] == lines[1:]


@pytest.mark.parametrize("mode", ["skip", "replace"])
def test_importing_the_same_export_twice_changes_nothing(mem: Memory, clock: Any, mode: str) -> None:
    """Restoring a backup twice must not double the facts a user sees in every context."""
    _populate(mem, clock)
    lines = "\n".join(_export_lines(mem)) + "\n"
    target = mem.for_agent("agent-t")
    target.import_(io.StringIO(lines), on_conflict=mode)
    once = snapshot(target)
    target.import_(io.StringIO(lines), on_conflict=mode)
    assert len(target.facts(all_users=True)) == 4
    assert snapshot(target) == once


@pytest.mark.parametrize(("mode", "kept"), [("replace", "Bob drinks green tea"), ("skip", "Bob drinks coffee")])
def test_restoring_a_backup_after_a_fact_was_edited_keeps_one_version(
    mem: Memory, clock: Any, mode: str, kept: str
) -> None:
    """A fact edited after the backup is the same fact: restoring must not add its old wording beside it."""
    mem.add_message("t", "user", "I drink green tea", user="bob")
    fact = mem.remember("Bob drinks green tea", user="bob")
    backup = "\n".join(_export_lines(mem)) + "\n"
    clock.advance(days=1)
    mem.update_fact(fact.id, content="Bob drinks coffee", user="bob")

    mem.import_(io.StringIO(backup), on_conflict=mode)

    assert [f.content for f in mem.facts(user="bob")] == [kept]
    assert mem.context("t", user="bob").system_text().count("Bob drinks") == 1


def _mutations() -> list[Any]:
    def drop_header(records: list[Any]) -> list[Any]:
        return records[1:]

    def future_version(records: list[Any]) -> list[Any]:
        return [{**records[0], "version": 99}, *records[1:]]

    def not_json(records: list[Any]) -> list[Any]:
        return [*records[:3], "{this is not json", *records[3:]]

    def list_line(records: list[Any]) -> list[Any]:
        return [*records[:3], [1, 2, 3], *records[3:]]

    def first(kind: str) -> Callable[[list[Any], dict[str, Any]], list[Any]]:
        def apply(records: list[Any], patch: dict[str, Any]) -> list[Any]:
            out, done = [], False
            for r in records:
                if not done and isinstance(r, dict) and r.get("type") == kind:
                    r = {k: v for k, v in {**r, **patch}.items() if v is not _DROP}
                    done = True
                out.append(r)
            return out

        return apply

    def duplicate_seq(records: list[Any]) -> list[Any]:
        messages = [i for i, r in enumerate(records) if r.get("type") == "message"]
        out = list(records)
        out[messages[1]] = {**out[messages[1]], "seq": out[messages[0]]["seq"]}
        return out

    def message_before_thread(records: list[Any]) -> list[Any]:
        return first("message")(records, {"thread": "ghost"})

    return [
        pytest.param(drop_header, id="no-header"),
        pytest.param(future_version, id="future-version"),
        pytest.param(not_json, id="line-not-json"),
        pytest.param(list_line, id="line-not-object"),
        pytest.param(lambda r: [*r, {"type": "mystery"}], id="unknown-type"),
        pytest.param(lambda r: first("message")(r, {"seq": _DROP}), id="message-missing-seq"),
        pytest.param(lambda r: first("message")(r, {"seq": "first"}), id="message-seq-not-int"),
        pytest.param(lambda r: first("message")(r, {"role": "robot"}), id="message-unknown-role"),
        pytest.param(lambda r: first("message")(r, {"content": "a\x00b"}), id="message-nul"),
        pytest.param(lambda r: first("message")(r, {"created_at": "yesterday"}), id="message-bad-time"),
        pytest.param(lambda r: first("message")(r, {"metadata": [1, 2]}), id="message-metadata-list"),
        pytest.param(message_before_thread, id="message-without-thread"),
        pytest.param(duplicate_seq, id="duplicate-seq"),
        pytest.param(lambda r: first("thread")(r, {"status": "paused"}), id="thread-bad-status"),
        pytest.param(lambda r: first("thread")(r, {"created_at": "last week"}), id="thread-bad-time"),
        pytest.param(lambda r: first("fact")(r, {"importance": 9}), id="fact-bad-importance"),
        pytest.param(lambda r: first("fact")(r, {"visibility": "public"}), id="fact-bad-visibility"),
        pytest.param(lambda r: first("fact")(r, {"owner": 7}), id="fact-owner-not-text"),
        pytest.param(lambda r: first("fact_change")(r, {"fact": 999}), id="history-of-unknown-fact"),
    ]


_DROP = object()


def test_malformed_import_writes_nothing(mem: Memory, clock: Any) -> None:
    _populate(mem, clock)
    records: list[Any] = [json.loads(line) for line in _export_lines(mem)]

    def check(n: int, mutate: Callable[[list[Any]], list[Any]]) -> None:
        broken = mutate([dict(r) for r in records])
        text = "".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in broken)
        target = mem.for_agent(f"agent-t{n}")  # a fresh agent per case
        target.add_message("mine", "user", "pre-existing")
        expect_error_and_no_change(target, InvalidInput, lambda: target.import_(io.StringIO(text)))
        assert [t.key for t in target.threads()] == ["mine"]
        assert target.facts(all_users=True) == []

    check_each([(str(p.id), lambda n=n, v=p.values: check(n, *v)) for n, p in enumerate(_mutations())])


def test_import_from_a_missing_file_is_invalid(mem: Memory, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput):
        mem.import_(tmp_path / "nope.jsonl")


# ---- metadata filters: inside the search, on every retriever -------------------------------------------


def _tagged(mem: Memory) -> dict[str, tuple[str, int]]:
    """Messages and facts about walruses whose metadata differ in type and value (a thread each, so that no
    hit shows up only inside another's context window)."""
    added = {
        "slack": mem.add_message(
            "t-slack", "user", "walrus walrus walrus tusks", user="al", metadata={"src": "slack"}
        ).id,
        "mail": mem.add_message(
            "t-mail", "user", "a walrus on the ice", user="al", metadata={"src": "mail", "n": 1}
        ).id,
        "float": mem.add_message("t-float", "user", "walrus count", user="al", metadata={"n": 1.0, "ok": True}).id,
        "true": mem.add_message("t-true", "user", "walrus yes", user="al", metadata={"ok": True, "none": None}).id,
        "one": mem.add_message("t-one", "user", "walrus one", user="al", metadata={"ok": 1}).id,
        "bare": mem.add_message("t-bare", "user", "walrus without metadata", user="al").id,
    }
    ids = {name: ("message", id_) for name, id_ in added.items()}
    ids["fact"] = ("fact", mem.remember("Al counts walrus pups", user="al", metadata={"src": "slack"}).id)
    return ids


@pytest.mark.parametrize("preset", ["keyword", "vector", "default"])
def test_recall_filters_on_metadata_inside_the_search(store_url: str, preset: str) -> None:
    from memlane.embeddings import FakeEmbedder

    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="a", settings=settings, embedder=FakeEmbedder()) as mem:
        ids = _tagged(mem)

        def found(**metadata: Any) -> set[tuple[str, int]]:
            return {(h.kind, h.id) for h in mem.recall("walrus", user="al", limit=20, preset=preset, metadata=metadata)}

        # the best keyword match is filtered out, not ranked out: a limit of 1 still finds the other one
        best = mem.recall("walrus", limit=1, kinds=["message"], preset=preset, metadata={"src": "mail"})
        assert [(h.kind, h.id) for h in best] == [ids["mail"]]
        assert found(src="slack") == {ids["slack"], ids["fact"]}
        assert found(src="slack", n=1) == set()
        assert found(n=1) == {ids["mail"], ids["float"]}  # 1 is 1.0
        assert found(ok=True) == {ids["float"], ids["true"]}  # True is not 1
        assert found(ok=1) == {ids["one"]}
        assert found(none=None) == {ids["true"]}
        assert found(src="nowhere") == set()
        assert len(found()) == 7  # an empty filter filters nothing


def test_a_bad_metadata_filter_is_invalid_input(mem: Memory) -> None:
    mem.add_message("t", "user", "walrus")
    for bad in ({"a b": 1}, {"": 1}, {"k": [1]}, {"k": {"x": 1}}, {"k": float("nan")}, {1: "x"}, ["k"], "k=v"):
        with pytest.raises(InvalidInput):
            mem.recall("walrus", metadata=bad)  # type: ignore[arg-type]


def test_a_job_of_an_exclusive_kind_waits_while_one_of_the_same_payload_runs(mem: Memory) -> None:
    """Two workers must not summarize one thread at once: the next job of a thread is queued as soon as the
    last one is claimed, so it is ready while that one runs; it is claimed once that one ended or its lease
    ran out. Jobs of other payloads and kinds are claimed meanwhile."""
    store, now, minute = mem.store, mem._now(), timedelta(minutes=1)
    store.enqueue_jobs("agent-a", [NewJob("sum", {"thread": "t"}, dedupe_key="sum:t")], now)
    [first] = store.claim_jobs("w1", now, lease_seconds=60, limit=5, exclusive=["sum"])
    again, elsewhere, other = NewJob("sum", {"thread": "t"}, "sum:t"), NewJob("sum", {"thread": "u"}), NewJob("x", {})
    store.enqueue_jobs("agent-a", [again, elsewhere, other], now)
    others = store.claim_jobs("w2", now, lease_seconds=60, limit=5, exclusive=["sum"])
    assert sorted((j.kind, j.payload.get("thread")) for j in others) == [("sum", "u"), ("x", None)]
    assert store.claim_jobs("w2", now, lease_seconds=60, limit=5, exclusive=["sum"]) == []
    assert store.complete_job(first.id, "w1", now)
    [second] = store.claim_jobs("w2", now, lease_seconds=60, limit=5, exclusive=["sum"])
    assert second.payload == {"thread": "t"} and second.id != first.id
    [third] = store.enqueue_jobs("agent-a", [NewJob("sum", {"thread": "t"}, dedupe_key="sum:t")], now)
    assert store.claim_jobs("w3", now + minute / 2, lease_seconds=60, limit=5, exclusive=["sum"]) == []
    late = store.claim_jobs("w3", now + 2 * minute, lease_seconds=60, limit=9, exclusive=["sum"])
    assert {second.id, third.id} <= {j.id for j in late}  # the second's lease ran out: it holds nothing back
    store.enqueue_jobs("agent-a", [NewJob("sum", {"thread": "t"}, dedupe_key="sum:t")], now)
    assert len(store.claim_jobs("w4", now + 2 * minute, lease_seconds=60, limit=5)) == 1  # not exclusive: claimed
