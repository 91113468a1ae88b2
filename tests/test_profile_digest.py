"""Per-user profiles merged from facts (seed 003's factual memory) and digests of the last 7 days (seed
003's transient memory): LLM merges at temperature 0, bullet-list fallback, one LLM call per thread-day for
all its users, TTL/LRU/hash caches, the fallback order profile → today → history, and context sections."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import FakeClock
from memlane import Memory, ProviderError, load_settings
from memlane.llm import LLMClient, OpenAICompatibleLLM
from memlane.pipeline.digests import (
    CACHES,
    LRUCache,
    TTLCache,
    cached_digest,
    clear_caches,
    digest_for,
)
from memlane.pipeline.profile import profile_of, rebuild_profile, stored_profiles
from memlane.testing import FakeLLMServer, Fault, ScriptedLLM

FAST: dict[str, Any] = {"timeout": 2.0, "max_retries": 1, "backoff_base": 0.01, "backoff_max": 0.02}
CHAT = "/v1/chat/completions"
NOON = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)


def open_memory(
    path: Path, clock: FakeClock, *, llm: LLMClient | None = None, agent: str = "bot", **settings: Any
) -> Memory:
    """A memory whose profile jobs merge at once, one LLM merge per change (the coalescing defaults are
    tested on their own below)."""
    options: dict[str, Any] = {"profile_merge_delay": 0, "profile_merge_facts": 1, **settings}
    return Memory(
        path,
        agent=agent,
        settings=load_settings(**{"worker": "none", "embedder": "none", "profile_llm_min_facts": 1, **options}),
        llm=llm,
        clock=clock,
    )


def profile_json(text: str) -> str:
    return json.dumps({"profile": text})


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    clear_caches()
    yield
    clear_caches()


@pytest.fixture(scope="module")
def http_client() -> Iterator[httpx.Client]:
    with httpx.Client(trust_env=False) as client:
        yield client


# -- profiles ---------------------------------------------------------------------------------------


def test_remember_and_forget_merge_the_profile_at_temperature_zero(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM(profile_json("Alice lives in Lisbon."))
    with open_memory(tmp_path / "m.db", clock, llm=llm) as mem:
        assert profile_of(mem, "alice") is None
        lisbon = mem.remember("Alice lives in Lisbon", user="alice")
        mem.run_jobs()
        assert profile_of(mem, "alice") == "Alice lives in Lisbon."
        [call] = llm.calls
        assert call.temperature == 0.0
        assert "Previous profile:\n(none)" in call.messages[1].content
        assert "Alice lives in Lisbon" in call.messages[1].content

        clock.advance(minutes=5)
        mem.remember("Alice loves green tea", user="alice", category="preference")
        # Until the job runs, the new fact is appended to the merged profile.
        assert profile_of(mem, "alice") == "Alice lives in Lisbon.\n- Alice loves green tea"
        llm.script(profile_json("Alice lives in Lisbon and loves green tea."))
        mem.run_jobs()
        assert profile_of(mem, "alice") == "Alice lives in Lisbon and loves green tea."
        merge = llm.calls[-1]
        assert merge.temperature == 0.0 and "Previous profile:\nAlice lives in Lisbon." in merge.messages[1].content

        mem.forget(lisbon.id, user="alice")
        # A forgotten fact is never served, not even before the job has run.
        assert profile_of(mem, "alice") == "- Alice loves green tea"
        llm.script(profile_json("Alice loves green tea."))
        mem.run_jobs()
        assert profile_of(mem, "alice") == "Alice loves green tea."
        forget = llm.calls[-1].messages[1].content
        assert "Current facts:\n- [2026-01-01] (preference) Alice loves green tea" in forget
        assert "Alice lives in Lisbon" in forget.split("Current facts:")[0]  # the previous profile, to rewrite
        assert len(stored_profiles(mem, "alice")) == 1
        assert len(llm.calls) == 3


def test_without_an_llm_the_profile_is_a_maintained_bullet_list(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock) as mem:
        tea = mem.remember("Alice loves green tea", user="alice")
        mem.remember("Alice is allergic to peanuts", user="alice", importance=5)
        mem.remember("Bob plays chess", user="bob")
        mem.remember("Alice's nickname is Ali", subject="alice")  # the agent's own fact about her
        mem.run_jobs()
        expected = "- Alice is allergic to peanuts\n- Alice loves green tea\n- Alice's nickname is Ali"
        assert profile_of(mem, "alice") == expected
        [stored] = stored_profiles(mem, "alice")
        assert (stored.method, stored.owner, stored.thread, stored.content) == ("list", "alice", None, expected)
        assert profile_of(mem, "bob") == "- Bob plays chess"
        assert profile_of(mem, "carol") is None
        mem.forget(tea.id, user="alice")
        mem.forget_all("alice")
        mem.run_jobs()
        assert profile_of(mem, "alice") == "- Alice's nickname is Ali"


def test_profiles_are_isolated_per_agent(tmp_path: Path, clock: FakeClock) -> None:
    with open_memory(tmp_path / "m.db", clock, agent="app-a") as a, a.for_agent("app-b") as b:
        a.remember("Alice lives in Lisbon", user="alice")
        b.remember("Alice lives in Lisbon", user="alice")
        b.remember("Alice works nights", user="alice")
        a.run_jobs()
        assert profile_of(a, "alice") == "- Alice lives in Lisbon"
        assert profile_of(b, "alice") == "- Alice works nights\n- Alice lives in Lisbon"  # newest first
        assert [s.agent for s in stored_profiles(a, "alice")] == ["app-a"]
        assert [s.agent for s in stored_profiles(b, "alice")] == ["app-b"]


def test_llm_failure_stores_the_bullet_list_then_retries(
    tmp_path: Path, clock: FakeClock, http_client: httpx.Client
) -> None:
    with FakeLLMServer(default=Fault.status(500)) as server:
        llm = OpenAICompatibleLLM(server.base_url, "fake-gpt", http_client=http_client, **FAST)
        with open_memory(tmp_path / "m.db", clock, llm=llm) as mem:
            mem.remember("Alice lives in Lisbon", user="alice")
            [job] = mem.store.claim_jobs("w", clock(), lease_seconds=60, limit=5, kinds=["profile"])
            with pytest.raises(ProviderError):
                mem.pipeline.run_job(job)  # the worker retries the merge later ...
            assert profile_of(mem, "alice") == "- Alice lives in Lisbon"  # ... the facts are served meanwhile
            assert "ProviderError" in stored_profiles(mem, "alice")[0].metadata["fallback"]
            mem.pipeline.run_job(dataclasses.replace(job, attempts=job.max_attempts))  # last attempt: no raise
            server.default = profile_json("Alice lives in Lisbon.")
            rebuild_profile(mem, "alice")
            assert profile_of(mem, "alice") == "Alice lives in Lisbon."
            assert len(stored_profiles(mem, "alice")) == 1


def test_context_shows_the_merged_profile_to_its_owner_only(tmp_path: Path, clock: FakeClock) -> None:
    llm = ScriptedLLM(profile_json("Alice is a nurse in Lisbon. She loves green tea."))
    with open_memory(tmp_path / "m.db", clock, llm=llm) as mem:
        mem.add_message("general", "user", "Morning all", user="alice")
        mem.add_message("general", "user", "Hi", user="bob")
        mem.remember("Alice is a nurse in Lisbon", user="alice")
        assert "What you know about alice" not in mem.context("general", user="alice").system_text()  # bullets only
        mem.run_jobs()
        text = mem.context("general", user="alice").system_text()
        assert "## What you know about alice\n- Alice is a nurse in Lisbon. She loves green tea.\n" in text
        assert "nurse" not in mem.context("general", user="bob").system_text()
        assert "nurse" not in mem.context("general").system_text()


# -- digests ----------------------------------------------------------------------------------------


class Replies:
    """A FakeLLMServer responder playing every digest prompt; each answer carries a version number, so a
    recomputation shows. ``fail`` names prompts that answer HTTP 500."""

    def __init__(self, fail: tuple[str, ...] = ()) -> None:
        self.serial = itertools.count(1)
        self.fail = fail

    def __call__(self, body: dict[str, Any]) -> str | Fault:
        system, text = body["messages"][0]["content"], body["messages"][-1]["content"]
        kind = operation(system)
        if kind in self.fail:
            return Fault.status(500)
        n = next(self.serial)
        if kind == "daily":
            thread = re.search(r"Conversation: (\S+)", text)
            day = re.search(r"Date: (\S+)", text)
            assert thread and day
            users = re.findall(r"^- (\S+)", text.split("Users:\n")[1].split("\n\n")[0], flags=re.M)
            return json.dumps({"summaries": {u: f"{u} in {thread[1]} on {day[1]} (v{n})." for u in users}})
        if kind == "history":
            return json.dumps({"summary": f"History (v{n})."})
        if kind == "merge":
            return json.dumps({"context": f"Merged digest (v{n}). It is short."})
        return profile_json(f"Profile (v{n}).")


def operation(system: str) -> str:
    for prefix, kind in (("You summarize one day", "daily"), ("You are given one person", "history")):
        if system.startswith(prefix):
            return kind
    return "merge" if system.startswith("Merge what") else "profile"


def calls(server: FakeLLMServer) -> list[str]:
    return [operation(c.body["messages"][0]["content"]) for c in server.calls_to(CHAT)]


def daily_requests(server: FakeLLMServer) -> list[str]:
    return [
        c.body["messages"][-1]["content"]
        for c in server.calls_to(CHAT)
        if operation(c.body["messages"][0]["content"]) == "daily"
    ]


def say(mem: Memory, thread: str, user: str, text: str, at: datetime) -> None:
    mem.add_message(thread, "user", text, user=user, name=user.capitalize(), created_at=at)


def week_of_chat(mem: Memory) -> None:
    """alice: general today, 2 and 5 days ago; dm today; a thread older than the window. bob and carol too."""
    say(mem, "general", "alice", "Big news: I got the job at the hospital!", NOON - timedelta(hours=2))
    say(mem, "general", "bob", "Congrats Alice! Drinks tonight?", NOON - timedelta(hours=1))
    say(mem, "general", "alice", "Two days until my interview, so nervous.", NOON - timedelta(days=2))
    say(mem, "general", "bob", "You'll do great.", NOON - timedelta(days=2, hours=-1))
    say(mem, "general", "carol", "Good luck from me too!", NOON - timedelta(days=2, hours=-2))
    say(mem, "general", "alice", "Went hiking in Sintra, legs are sore.", NOON - timedelta(days=5))
    say(mem, "dm", "alice", "Can you help me plan my first week at work?", NOON - timedelta(hours=3))
    say(mem, "old", "alice", "This is from last month.", NOON - timedelta(days=21))
    say(mem, "bob-only", "bob", "Chess club is on Friday.", NOON - timedelta(hours=4))


@pytest.fixture
def digest_env(tmp_path: Path, http_client: httpx.Client) -> Iterator[tuple[Memory, FakeLLMServer, FakeClock]]:
    clock = FakeClock(NOON)
    with FakeLLMServer(responder=Replies()) as server:
        llm = OpenAICompatibleLLM(server.base_url, "fake-gpt", http_client=http_client, **FAST)
        with open_memory(tmp_path / "m.db", clock, llm=llm) as mem:
            week_of_chat(mem)
            yield mem, server, clock


def test_one_llm_call_per_thread_day_for_all_its_users(digest_env: tuple[Memory, FakeLLMServer, FakeClock]) -> None:
    mem, server, _ = digest_env
    digest = digest_for(mem, "alice")
    assert digest == "Merged digest (v6). It is short."
    # general today, 2 and 5 days ago, dm today; not the thread older than the window, not bob's own thread.
    assert sorted(calls(server)) == ["daily"] * 4 + ["history", "merge"]
    [two_days_ago] = [r for r in daily_requests(server) if "Date: 2026-01-08" in r]
    assert "Users:\n- alice\n- bob\n- carol\n" in two_days_ago  # one call covers every user of that day
    assert not any("from last month" in r or "Chess club" in r for r in daily_requests(server))
    merge = server.calls_to(CHAT)[-1].body["messages"][-1]["content"]
    today = merge.split("<today>\n")[1].split("\n</today>")[0]
    assert "In dm: alice in dm on 2026-01-10" in today and "In general: alice in general on 2026-01-10" in today
    assert "<history>\nHistory (v" in merge

    server.reset()
    digest_for(mem, "bob")  # general's days are cached from alice's digest: only bob's own thread is new
    assert sorted(calls(server)) == ["daily", "history", "merge"]
    assert "Conversation: bob-only" in daily_requests(server)[0]


def test_caches_today_per_hour_and_past_days_for_ever(digest_env: tuple[Memory, FakeLLMServer, FakeClock]) -> None:
    mem, server, clock = digest_env
    first = digest_for(mem, "alice")
    server.reset()
    assert digest_for(mem, "alice") == first  # same hour: everything cached
    assert calls(server) == []

    clock.advance(minutes=59, seconds=59)  # 12:59:59, still the same hour bucket
    assert digest_for(mem, "alice") == first and calls(server) == []

    clock.advance(seconds=1)  # 13:00: a new hour recomputes today's two thread-days, nothing in the past
    second = digest_for(mem, "alice")
    assert sorted(calls(server)) == ["daily", "daily", "merge"]  # history inputs unchanged: cached
    assert all("Date: 2026-01-10" in r for r in daily_requests(server))
    assert second != first

    server.reset()
    clock.advance(days=1)  # 2026-01-11: yesterday becomes a past day, computed once ...
    digest_for(mem, "alice")
    assert sorted(calls(server)) == ["daily", "daily", "history", "merge"]
    server.reset()
    clock.advance(hours=3)  # ... and never again
    digest_for(mem, "alice")
    assert calls(server) == []


@pytest.mark.parametrize("fail", ["daily", "history", "merge"])
def test_llm_failure_returns_what_exists_profile_then_today_then_history(
    tmp_path: Path, http_client: httpx.Client, fail: str
) -> None:
    clock = FakeClock(NOON)
    with FakeLLMServer(responder=Replies(fail=(fail,))) as server:
        llm = OpenAICompatibleLLM(server.base_url, "fake-gpt", http_client=http_client, **FAST)
        with open_memory(tmp_path / "m.db", clock, llm=llm) as mem:
            week_of_chat(mem)
            mem.remember("Alice is a nurse", user="alice")
            mem.run_jobs()  # the profile merge works
            profile = profile_of(mem, "alice")
            assert profile is not None and profile.startswith("Profile (v")
            digest = digest_for(mem, "alice")  # never raises
            assert digest.startswith(profile + "\nToday: ")
            today, history = digest.split("\nToday: ")[1].split("\nEarlier this week:\n")
            if fail == "daily":  # extractive from the first failure on: alice's own sentences, by day
                assert "hospital" in today and "first week" in today and "Congrats" not in today
                assert history == (
                    "2026-01-05: Alice: Went hiking in Sintra, legs are sore.\n"
                    "2026-01-08: Alice: Two days until my interview, so nervous."
                )
            else:
                assert "alice in general on 2026-01-10" in today and "alice in dm on 2026-01-10" in today
            if fail == "history":
                assert re.fullmatch(
                    r"2026-01-05: alice in general on 2026-01-05 \(v\d+\)\.\n"
                    r"2026-01-08: alice in general on 2026-01-08 \(v\d+\)\.",
                    history,
                )
            if fail == "merge":
                assert re.fullmatch(r"History \(v\d+\)\.", history)
            attempts = [c for c in calls(server) if c == fail]
            assert len(attempts) == 2  # one call and its retry; the failing LLM is not asked again
            server.responder = Replies()
            assert digest_for(mem, "alice").startswith("Merged digest")  # failures were not cached


def test_without_an_llm_the_digest_is_extractive(tmp_path: Path) -> None:
    clock = FakeClock(NOON)
    with open_memory(tmp_path / "m.db", clock) as mem:
        week_of_chat(mem)
        digest = digest_for(mem, "alice")
        assert digest.startswith("Today: ")
        assert "hospital" in digest and "first week" in digest
        assert "\n2026-01-05: Alice: Went hiking in Sintra, legs are sore.\n2026-01-08: Alice: Two days" in digest
        assert "Congrats" not in digest and "from last month" not in digest
        assert digest_for(mem, "nobody") == ""


def test_context_uses_the_cached_digest_and_never_calls_the_llm(
    digest_env: tuple[Memory, FakeLLMServer, FakeClock],
) -> None:
    mem, server, clock = digest_env
    before = len(server.calls_to(CHAT))
    assert "What you know about alice" not in mem.context("general", user="alice").system_text()
    digest = digest_for(mem, "alice")
    after = len(server.calls_to(CHAT))
    text = mem.context("general", user="alice").system_text()
    assert digest == "Merged digest (v6). It is short."
    assert text.endswith("## What you know about alice\n- Merged digest (v6). It is short.")
    assert "Merged digest" not in mem.context("general", user="bob").system_text()
    assert len(server.calls_to(CHAT)) == after > before  # context() made no call
    assert cached_digest(mem, "alice") == digest
    mem.remember("Alice moved to Porto", user="alice")  # the profile changed: the digest is stale
    assert cached_digest(mem, "alice") is None
    assert "Merged digest" not in mem.context("general", user="alice").system_text()
    clock.advance(hours=1)
    assert cached_digest(mem, "alice") is None


# -- the caches themselves --------------------------------------------------------------------------


def test_lru_cache_evicts_the_least_recently_used() -> None:
    cache: LRUCache[str, int] = LRUCache(2)
    cache.set("a", 1)
    cache.set("b", 2)
    assert cache.get("a") == 1  # a is now the most recent
    cache.set("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c"), len(cache)) == (1, None, 3, 2)


def test_ttl_cache_expires_by_the_given_clock() -> None:
    cache: TTLCache[str, int] = TTLCache(10, 3600)
    cache.set("k", 1, NOON)
    assert cache.get("k", NOON + timedelta(minutes=59)) == 1
    assert cache.get("k", NOON + timedelta(hours=1)) is None
    CACHES.today.set(("x", "y", "z", "d", "h"), {"u": "s"}, NOON)
    clear_caches()
    assert len(CACHES.today) == 0
