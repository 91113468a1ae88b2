"""Rolling summaries and the facts extracted with them: thresholds, idempotency, one LLM call per batch,
graceful degradation under every provider fault, and the extractive path without an LLM."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import FakeClock
from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder
from memlane.llm import LLMClient, OpenAICompatibleLLM
from memlane.pipeline.summarize import MAX_BATCHES_PER_RUN, plan_batch, summarize_thread
from memlane.testing import FakeLLMServer, Fault
from memlane.types import Job, Message

FAST: dict[str, Any] = {
    "timeout": 0.3,
    "max_retries": 1,
    "backoff_base": 0.01,
    "backoff_max": 0.02,
    "max_retry_after": 1.0,
}
CHAT = "/v1/chat/completions"
SUMMARY = "Alice and the assistant planned her trip to Porto: a guesthouse by the river, no peanuts."


def answer(summary: str = SUMMARY, facts: list[dict[str, Any]] | None = None) -> str:
    return json.dumps({"summary": summary, "facts": facts or []})


ALICE_FACTS = [
    {"category": "fact", "content": "Alice is allergic to peanuts", "importance": 5, "speaker": "alice"},
    {"category": "fact", "content": "Alice lives in Berlin", "importance": 3, "speaker": "alice", "subject": None},
]
GOOD = answer(facts=ALICE_FACTS)


# -- fixtures and helpers ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http_client() -> Iterator[httpx.Client]:
    with httpx.Client(trust_env=False) as client:  # loopback only, whatever proxies the env names
        yield client


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    """Answers this step's calls with ``default`` (GOOD unless a test changes it); other pipeline steps'
    calls get an empty object, which they handle as they see fit."""
    with FakeLLMServer(default=GOOD) as fake:
        fake.responder = lambda request: fake.default if schema_of(request) in (None, "SummaryAndFacts") else "{}"
        yield fake


def make_llm(server: FakeLLMServer, http_client: httpx.Client, **options: Any) -> LLMClient:
    return OpenAICompatibleLLM(
        server.base_url, "fake-gpt", api_key="sk-test", http_client=http_client, **FAST | options
    )


def open_memory(
    path: Path, clock: FakeClock, *, llm: LLMClient | None = None, embedder: FakeEmbedder | None = None, **settings: Any
) -> Memory:
    # The batch's own extraction is what these tests watch: the messages store no facts when written
    # (tests/test_fact_hygiene.py covers those).
    config = load_settings(worker="none", embedder="none", **{"facts_on_write": False, **settings})
    return Memory(path, agent="bot", settings=config, llm=llm, embedder=embedder, clock=clock)


def chat(mem: Memory, clock: FakeClock, count: int, *, thread: str = "t1", start: int = 1) -> list[Message]:
    """``count`` alternating user/assistant messages; the user states a few facts early on."""
    said = {
        1: "Hi! My name is Alice and I live in Lisbon.",
        3: "I'm planning a trip to Porto next month. I really like old buildings.",
        5: "I'm allergic to peanuts, so please keep restaurants safe.",
    }
    stored = []
    for seq in range(start, start + count):
        clock.advance(minutes=1)
        if seq % 2:
            text = said.get(seq, f"Question number {seq} about the guesthouse by the Douro river in Porto.")
            stored.append(mem.add_message(thread, "user", text, user="alice", name="Alice"))
        else:
            text = f"Answer {seq}: the Ribeira district has historic guesthouses near the river."
            stored.append(mem.add_message(thread, "assistant", text))
    return stored


def snapshot(mem: Memory, thread: str = "t1") -> list[tuple[int, int, str, str, str | None]]:
    """What must never change: every message's id, seq, role, content and user."""
    return [(m.id, m.seq, m.role, m.content, m.user) for m in mem.history(thread)]


def summarized(mem: Memory, thread: str = "t1") -> list[int]:
    return [m.seq for m in mem.history(thread) if m.summarized]


def summarize_jobs(mem: Memory) -> list[Job]:
    return mem.store.list_jobs(mem.agent, kind="summarize")


def retry_later(mem: Memory, clock: FakeClock) -> int:
    """Let every backoff elapse, then run what is ready."""
    clock.advance(hours=3)
    return mem.run_jobs(timeout=30)


def schema_of(body: Any) -> str | None:
    """The output model a chat request asks for (other pipeline steps call the LLM too)."""
    fmt = body.get("response_format") if isinstance(body, dict) else None
    return fmt["json_schema"]["name"] if isinstance(fmt, dict) else None


def calls_for(server: FakeLLMServer, schema: str) -> int:
    return sum(1 for c in server.calls_to(CHAT) if schema_of(c.body) == schema)


def summary_calls(server: FakeLLMServer) -> int:
    return calls_for(server, "SummaryAndFacts")


def rolling(mem: Memory, thread: str = "t1") -> list[Any]:
    return mem.summaries(thread, kind="rolling")


def current(mem: Memory, user: str, *, include_superseded: bool = False) -> list[Any]:
    """The facts of ``user`` this step wrote (other pipeline steps may write facts of their own)."""
    facts = mem.facts(user, include_superseded=include_superseded)
    return [f for f in facts if f.metadata.get("method") in ("llm", "rules")]


def pipeline_facts(mem: Memory, thread: str = "t1") -> list[Any]:
    """Facts this step wrote from ``thread`` (other steps may write facts of their own)."""
    facts = mem.facts(all_users=True, include_superseded=True)
    return [f for f in facts if f.source_thread == thread and f.metadata.get("method") in ("llm", "rules")]


# -- planning ---------------------------------------------------------------------------------------


def msg(seq: int) -> Message:
    from datetime import UTC, datetime

    return Message(seq, "bot", "t", seq, "user", "x", None, None, None, None, 1, {}, datetime(2026, 1, 1, tzinfo=UTC))


def test_plan_batch_takes_the_oldest_beyond_the_recent_window() -> None:
    assert plan_batch([msg(i) for i in range(1, 31)], 30, 20) == []
    assert [m.seq for m in plan_batch([msg(i) for i in range(1, 32)], 30, 20)] == list(range(1, 21))
    # Never the newest summarize_after - batch (here 10) messages.
    assert [m.seq for m in plan_batch([msg(i) for i in range(1, 7)], 5, 20)] == [1, 2, 3, 4, 5]
    assert [m.seq for m in plan_batch([msg(i) for i in range(1, 13)], 10, 2)] == [1, 2]
    # A range never spans a gap (messages summarized some other way).
    gap = [msg(i) for i in (*range(1, 6), *range(9, 40))]
    assert [m.seq for m in plan_batch(gap, 30, 20)] == [1, 2, 3, 4, 5]


# -- thresholds and idempotency ---------------------------------------------------------------------


def test_thirty_messages_no_summary_thirty_one_one_summary(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        chat(mem, clock, 30)
        assert len(summarize_jobs(mem)) == 1  # one pending job per thread, however many messages
        mem.run_jobs()
        assert rolling(mem) == [] and summarized(mem) == []
        before = snapshot(mem)

        chat(mem, clock, 1, start=31)
        mem.run_jobs()
        (summary,) = rolling(mem)
        assert (summary.kind, summary.from_seq, summary.to_seq, summary.method) == ("rolling", 1, 20, "extractive")
        assert summary.metadata["method"] == "extractive" and summary.metadata["messages"] == 20
        assert summarized(mem) == list(range(1, 21))
        assert snapshot(mem) == [*before, snapshot(mem)[-1]]  # nothing lost or altered

        # Running the job again (a retry, a duplicate) stores nothing new.
        mem.store.enqueue_jobs(mem.agent, mem.pipeline.after_messages("t1", []), clock())
        mem.run_jobs()
        assert len(rolling(mem)) == 1
        assert [j.status for j in summarize_jobs(mem)] == ["done", "done", "done"]


def test_a_job_run_twice_by_two_workers_stores_one_summary_and_no_duplicate_facts(
    tmp_path: Path, clock: FakeClock
) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        chat(mem, clock, 31)
        (job,) = mem.store.claim_jobs("w1", clock(), lease_seconds=60, limit=1)
        mem.pipeline.run_job(job)  # w1 does the work, then dies before recording it
        facts = [(f.id, f.content) for f in current(mem, "alice")]
        clock.advance(seconds=61)
        (again,) = mem.store.claim_jobs("w2", clock(), lease_seconds=60, limit=1)
        assert again.id == job.id and again.attempts == 2
        mem.pipeline.run_job(again)
        assert len(rolling(mem)) == 1
        assert [(f.id, f.content) for f in current(mem, "alice")] == facts


def test_summary_is_recallable_and_in_context(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        chat(mem, clock, 31)
        mem.run_jobs()
        (summary,) = rolling(mem)
        hits = mem.recall("Porto guesthouse trip", user="alice", kinds=["summary"])
        assert [h.id for h in hits] == [summary.id]
        assert hits[0].metadata["from_seq"] == 1 and hits[0].metadata["to_seq"] == 20
        mem.settings = mem.settings.model_copy(update={"max_messages_in_context": 10})
        ctx = mem.context("t1", user="alice")  # the window shows seqs 22-31; the summary tells 1-20
        assert ctx.messages[0].seq == 22
        assert [s.id for s in ctx.summaries] == [summary.id]
        assert summary.content in ctx.system_text()
        mem.settings = mem.settings.model_copy(update={"max_messages_in_context": 50})
        roomy = mem.context("t1", user="alice")  # all 31 messages: the summary would only repeat them
        assert roomy.messages[0].seq == 1 and roomy.summaries == []


def test_long_backlogs_are_summarized_in_bounded_runs(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, summarize_after=2, summarize_batch=1) as mem:
        chat(mem, clock, MAX_BATCHES_PER_RUN + 4)  # 12 batches due at once
        mem.run_jobs()
        ranges = sorted((s.from_seq, s.to_seq) for s in rolling(mem))
        assert ranges == [(i, i) for i in range(1, MAX_BATCHES_PER_RUN + 3)]
        assert len(summarize_jobs(mem)) == 2  # the first run queued a follow-up for the rest


def test_threads_and_agents_are_summarized_separately(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        other = mem.for_agent("other-bot")
        chat(mem, clock, 31, thread="a")
        chat(mem, clock, 5, thread="b")
        chat(other, clock, 31, thread="a")  # same thread name, another agent: its own job
        assert len(mem.store.list_jobs(None, kind="summarize")) == 3
        mem.run_jobs()
        assert [(s.thread, s.to_seq) for s in mem.summaries(kind="rolling")] == [("a", 20)]
        assert [(s.thread, s.to_seq) for s in other.summaries(kind="rolling")] == [("a", 20)]


# -- without an LLM: extractive summary, rule-based facts -------------------------------------------


def test_without_llm_rules_extract_facts_owned_by_the_speaker(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        chat(mem, clock, 31)
        mem.add_message("t1", "user", "I live in Madrid now", user="bob")  # after the batch: not read yet
        mem.run_jobs()
        facts = {f.content: f for f in current(mem, "alice")}
        assert set(facts) == {
            "The user's name is Alice",
            "Alice lives in Lisbon",
            "Alice likes old buildings",
            "Alice is allergic to peanuts",
        }
        lisbon = facts["Alice lives in Lisbon"]
        assert (lisbon.owner, lisbon.visibility, lisbon.source_thread) == ("alice", "private", "t1")
        assert (lisbon.source_from_seq, lisbon.source_to_seq) == (1, 1)
        assert lisbon.metadata["method"] == "rules" and lisbon.metadata["rule"] == "rules:lives_in"
        assert facts["Alice is allergic to peanuts"].importance == 5
        assert current(mem, "bob") == []
        hits = mem.recall("Where does Alice live?", user="alice", kinds=["fact"])
        assert hits and hits[0].text == "Alice lives in Lisbon"
        # Private facts stay with their owner.
        assert mem.recall("Alice lives Lisbon", user="bob", kinds=["fact"]) == []


def test_without_llm_with_embeddings(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, embedder=FakeEmbedder(64)) as mem:
        chat(mem, clock, 31)
        mem.run_jobs()
        (summary,) = rolling(mem)
        assert summary.method == "extractive" and summary.content
        hits = mem.recall("allergy peanuts", user="alice", kinds=["fact"])
        assert hits[0].text == "Alice is allergic to peanuts"
        assert mem.store.items_without_vectors("summary", 10) == []
        assert mem.store.items_without_vectors("fact", 10) == []


def test_a_later_contradiction_supersedes_with_history(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        chat(mem, clock, 31)
        mem.run_jobs()
        (lisbon,) = [f for f in current(mem, "alice") if "Lisbon" in f.content]
        for seq in range(32, 52):
            clock.advance(minutes=1)
            text = "Big news: I moved to Paris." if seq == 32 else f"Note {seq} about packing boxes for the move."
            mem.add_message("t1", "user", text, user="alice", name="Alice")
        mem.run_jobs()
        assert [(s.from_seq, s.to_seq) for s in rolling(mem)] == [(21, 40), (1, 20)]
        homes = [f.content for f in current(mem, "alice") if "Lisbon" in f.content or "Paris" in f.content]
        assert homes == ["Alice lives in Paris"]
        old = mem.fact(lisbon.id)
        assert old.status == "superseded" and old.invalid_at is not None and old.superseded_by is not None
        assert mem.fact(old.superseded_by).content == "Alice lives in Paris"
        assert [c.action for c in mem.fact_history(lisbon.id)] == ["create", "supersede"]


# -- with an LLM: one call per batch, consolidation -------------------------------------------------


def test_llm_summary_and_facts_in_one_call_per_batch(
    tmp_path: Path, clock: FakeClock, server: FakeLLMServer, http_client: httpx.Client
) -> None:
    facts = [
        {"category": "preference", "content": "Alice likes old buildings", "importance": 3, "speaker": "alice"},
        {"category": "relationship", "content": "Chen is Alice's cousin", "speaker": "Alice", "subject": "Chen"},
    ]
    server.default = answer(facts=facts)
    with open_memory(tmp_path / "m.db", clock, llm=make_llm(server, http_client)) as mem:
        chat(mem, clock, 51)
        mem.run_jobs()
        assert [(s.from_seq, s.to_seq, s.method) for s in rolling(mem)] == [(21, 40, "llm"), (1, 20, "llm")]
        # Two batches, two calls: summary and facts together, and nothing to consolidate with the LLM.
        assert summary_calls(server) == 2 and calls_for(server, "ConsolidationDecision") == 0
        first = server.calls_to(CHAT)[0].body
        assert "[#1 " in json.dumps(first) and "[#20 " in json.dumps(first) and "[#21 " not in json.dumps(first)
        assert "Today is 2026-01-01" in json.dumps(first)
        assert rolling(mem)[0].metadata["model"] == "fake-gpt"
        stored = {f.content: f for f in current(mem, "alice")}
        assert set(stored) == {"Alice likes old buildings", "Chen is Alice's cousin"}  # the second batch: NOOPs
        assert stored["Chen is Alice's cousin"].subject == "chen"
        assert stored["Alice likes old buildings"].metadata["method"] == "llm"
        assert (
            stored["Alice likes old buildings"].source_from_seq,
            stored["Alice likes old buildings"].source_to_seq,
        ) == (1, 20)
        assert rolling(mem)[-1].metadata["facts"] == {"ADD": 2}
        assert rolling(mem)[0].metadata["facts"] == {"NOOP": 2}


def test_llm_facts_of_several_users_go_to_their_speakers(
    tmp_path: Path, clock: FakeClock, server: FakeLLMServer, http_client: httpx.Client
) -> None:
    server.default = answer(
        facts=[
            {"content": "Bob prefers window seats", "category": "preference", "speaker": "bob"},
            {"content": "Alice is vegetarian", "category": "preference", "speaker": "Alice"},
            {"content": "Somebody is tired", "speaker": None},  # two users could be meant: dropped
        ]
    )
    with open_memory(tmp_path / "m.db", clock, llm=make_llm(server, http_client)) as mem:
        for i in range(31):
            clock.advance(minutes=1)
            user, name = ("alice", "Alice") if i % 2 else ("bob", "Bob")
            mem.add_message("g", "user", f"Message {i} in the group chat.", user=user, name=name)
        mem.run_jobs()
        assert [f.content for f in current(mem, "bob") if f.owner == "bob"] == ["Bob prefers window seats"]
        assert [f.content for f in current(mem, "alice") if f.owner == "alice"] == ["Alice is vegetarian"]
        assert len(pipeline_facts(mem, "g")) == 2


def test_llm_facts_consolidate_noop_update_and_supersede(
    tmp_path: Path, clock: FakeClock, server: FakeLLMServer, http_client: httpx.Client
) -> None:
    def respond(request: dict[str, Any]) -> str:
        if schema_of(request) == "ConsolidationDecision":
            body = request["messages"][-1]["content"]
            target = json.loads(body.split("Existing facts:\n", 1)[1])[0]["id"]
            return json.dumps({"action": "UPDATE", "target_id": target, "reason": "a new race"})
        if schema_of(request) != "SummaryAndFacts":
            return "{}"  # another pipeline step's call: not this test's business
        if summary_calls(server) <= 1:
            return answer(facts=[*ALICE_FACTS, {"content": "Alice is training for the Lisbon marathon"}])
        # The second batch's prompt shows what is already known, with ids the answer may cite.
        known = dict(re.findall(r"^\[id (\d+)\] alice: (.+)$", request["messages"][-1]["content"], re.MULTILINE))
        marathon = next(i for i, text in known.items() if "Lisbon marathon" in text)
        return answer(
            facts=[
                {"content": "Alice is allergic to peanuts", "importance": 5},  # duplicate
                {"content": "Alice moved to Paris", "speaker": "alice"},  # contradiction
                {"content": "Alice trains for the Berlin marathon in May", "replaces": marathon},  # the LLM says
                {"content": "Alice has a cat", "replaces": 999},  # an id it was not shown: ignored
            ]
        )

    server.responder = respond
    server.default = None  # type: ignore[assignment]
    with open_memory(tmp_path / "m.db", clock, llm=make_llm(server, http_client)) as mem:
        chat(mem, clock, 31)
        mem.run_jobs()
        first = {f.content: f for f in current(mem, "alice")}
        assert set(first) == {
            "Alice is allergic to peanuts",
            "Alice lives in Berlin",
            "Alice is training for the Lisbon marathon",
        }
        chat(mem, clock, 20, start=32)
        mem.run_jobs()
        assert summary_calls(server) == 2
        # One LLM call per batch: the extraction saw the stored facts, so no consolidate_fact call is made.
        assert calls_for(server, "ConsolidationDecision") == 0
        now = {f.content: f for f in current(mem, "alice")}
        assert set(now) == {
            "Alice is allergic to peanuts",
            "Alice moved to Paris",
            "Alice trains for the Berlin marathon in May",
            "Alice has a cat",
        }
        assert now["Alice is allergic to peanuts"].id == first["Alice is allergic to peanuts"].id
        for old in ("Alice lives in Berlin", "Alice is training for the Lisbon marathon"):
            gone = mem.fact(first[old].id)
            assert gone.status == "superseded" and gone.superseded_by is not None
            assert [c.action for c in mem.fact_history(gone.id)] == ["create", "supersede"]
        history = {f.content for f in current(mem, "alice", include_superseded=True)}
        assert {"Alice lives in Berlin", "Alice is training for the Lisbon marathon"} <= history
        assert rolling(mem)[0].metadata["facts"] == {"ADD": 1, "NOOP": 1, "UPDATE": 2}


# -- faults: nothing lost, nothing partial, retried until it works ---------------------------------

FAULTS = {  # the fault, and the error the job records once the client's own retries are spent
    "malformed-json": (Fault.malformed_json(), "InvalidOutput"),
    "wrong-schema": (Fault.wrong_schema({"facts": "none", "text": "a summary under the wrong key"}), "InvalidOutput"),
    "429-retry-after": (Fault.status(429, retry_after=0.05), "RateLimited"),
    "500": (Fault.status(500), "ProviderError"),
    "slow": (Fault.slow(1.0, then=GOOD), "ProviderTimeout"),
    "dropped": (Fault.drop(), "ProviderError"),
}


def assert_nothing_written(mem: Memory, before: list[Any]) -> None:
    assert rolling(mem) == []
    assert pipeline_facts(mem) == []
    assert summarized(mem) == []
    assert snapshot(mem) == before


@pytest.mark.parametrize(("fault", "error"), FAULTS.values(), ids=FAULTS.keys())
def test_every_fault_degrades_gracefully_and_the_retry_succeeds(
    tmp_path: Path, clock: FakeClock, server: FakeLLMServer, http_client: httpx.Client, fault: Fault, error: str
) -> None:
    with open_memory(tmp_path / "m.db", clock, llm=make_llm(server, http_client)) as mem:
        chat(mem, clock, 31)
        before = snapshot(mem)
        # Enough of the fault to outlast the client's own retries (a 2nd request, or one repair).
        server.script(fault, fault)
        mem.run_jobs()
        (job,) = summarize_jobs(mem)
        assert (job.status, job.attempts) == ("pending", 1)
        assert (job.last_error or "").startswith(error + ":") and job.run_after > clock()
        assert_nothing_written(mem, before)

        retry_later(mem, clock)  # the provider recovered
        (summary,) = rolling(mem)
        assert (summary.from_seq, summary.to_seq, summary.method) == (1, 20, "llm")
        assert {f.content for f in current(mem, "alice")} == {"Alice is allergic to peanuts", "Alice lives in Berlin"}
        assert [j.status for j in summarize_jobs(mem)] == ["done"]
        assert snapshot(mem) == before and summarized(mem) == list(range(1, 21))


def test_a_long_retry_after_is_honoured_by_the_queue(
    tmp_path: Path, clock: FakeClock, server: FakeLLMServer, http_client: httpx.Client
) -> None:
    with open_memory(tmp_path / "m.db", clock, llm=make_llm(server, http_client)) as mem:
        chat(mem, clock, 31)
        server.script(Fault.status(429, retry_after=7200))
        started = time.monotonic()
        mem.run_jobs()
        assert time.monotonic() - started < 5  # the client did not sleep through it
        (job,) = summarize_jobs(mem)
        assert job.status == "pending" and "RateLimited" in (job.last_error or "")
        assert (job.run_after - clock()).total_seconds() >= 7200
        assert summary_calls(server) == 1


def test_with_fact_visibility_shared_extracted_facts_serve_every_user(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, fact_visibility="shared") as mem:
        chat(mem, clock, 31)
        mem.run_jobs()
        lisbon = {f.content: f for f in current(mem, "alice")}["Alice lives in Lisbon"]
        assert (lisbon.owner, lisbon.visibility) == ("alice", "shared")
        assert [h.text for h in mem.recall("Alice lives Lisbon", user="bob", kinds=["fact"])][:1] == [
            "Alice lives in Lisbon"
        ]


@pytest.mark.parametrize("outage", [Fault.status(500), Fault.malformed_json()], ids=["500", "malformed"])
def test_after_the_last_attempt_the_extractive_summary_is_stored(
    tmp_path: Path, clock: FakeClock, server: FakeLLMServer, http_client: httpx.Client, outage: Fault
) -> None:
    server.default = outage  # an outage that never ends
    with open_memory(tmp_path / "m.db", clock, llm=make_llm(server, http_client)) as mem:
        chat(mem, clock, 31)
        before = snapshot(mem)
        mem.run_jobs()
        (job,) = summarize_jobs(mem)
        for _ in range(job.max_attempts - 2):
            retry_later(mem, clock)
            assert_nothing_written(mem, before)
        retry_later(mem, clock)  # the last attempt
        (summary,) = rolling(mem)
        assert (summary.from_seq, summary.to_seq, summary.method) == (1, 20, "extractive")
        assert summary.metadata["fallback"].startswith(("ProviderError", "InvalidOutput"))
        assert "Alice lives in Lisbon" in {f.content for f in current(mem, "alice")}
        assert all(f.metadata["method"] == "rules" for f in current(mem, "alice"))
        assert [j.status for j in summarize_jobs(mem)] == ["done"]
        assert snapshot(mem) == before and summarized(mem) == list(range(1, 21))


def test_add_message_never_sees_a_provider_failure(
    tmp_path: Path, clock: FakeClock, server: FakeLLMServer, http_client: httpx.Client
) -> None:
    server.default = Fault.status(500)
    config = load_settings(embedder="none", worker="thread", worker_poll_interval=0.02)
    with Memory(tmp_path / "m.db", agent="bot", settings=config, llm=make_llm(server, http_client), clock=clock) as mem:
        chat(mem, clock, 31)  # a background worker runs the jobs meanwhile, and fails
        deadline = time.monotonic() + 10
        while not any(j.last_error for j in summarize_jobs(mem)) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert any(j.last_error for j in summarize_jobs(mem))
        assert len(mem.history("t1")) == 31 and rolling(mem) == []


def test_summarize_thread_can_be_called_directly(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        chat(mem, clock, 51)
        results = summarize_thread(mem, "t1")
        assert [(r.summary.from_seq, r.summary.to_seq) for r in results] == [(1, 20), (21, 40)]
        assert summarize_thread(mem, "t1") == []
        assert summarize_thread(mem, "no-such-thread") == []
