"""``memlane chat``: scripted sessions through stdin, against a real HTTP fake LLM and without any LLM."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from memlane import Memory, load_settings
from memlane.cli.app import app
from memlane.pipeline.memories import list_memories
from memlane.testing import FakeLLMServer, Fault

runner = CliRunner()
CHAT = "/v1/chat/completions"
ANSWER = "Hello Alice! Green tea it is."


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keyword recall, no background worker (jobs stay queued), loopback without proxies."""
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")
    monkeypatch.setenv("MEMLANE_WORKER", "none")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "chat.db")


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLMServer]:
    with FakeLLMServer(default=ANSWER) as fake:
        monkeypatch.setenv("MEMLANE_LLM_PROVIDER", "openai")
        monkeypatch.setenv("MEMLANE_LLM_BASE_URL", fake.base_url)
        monkeypatch.setenv("MEMLANE_LLM_MODEL", "fake-gpt")
        monkeypatch.setenv("MEMLANE_LLM_TIMEOUT", "5")
        yield fake


def chat(db: str, stdin: str, *args: str, code: int = 0) -> Result:
    result = runner.invoke(app, ["--db", db, "chat", *args], input=stdin)
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result


def open_db(db: str) -> Memory:
    return Memory(db, settings=load_settings(worker="none", embedder="none"), llm=None)


def test_a_turn_streams_the_answer_with_memory_and_stores_both_messages(db: str, server: FakeLLMServer) -> None:
    out = chat(db, "/remember Alice loves green tea\nHi! What should I drink?\n/quit\n", "--user", "alice", "-t", "t1")
    assert "Talking to fake-gpt." in out.stdout
    assert ANSWER in out.stdout
    [request] = server.calls_to(CHAT)
    assert request.body["stream"] is True
    system, *rest = request.body["messages"]
    assert system["role"] == "system" and "Alice loves green tea" in system["content"]  # facts in the context
    assert rest[-1] == {"role": "user", "content": "Hi! What should I drink?"}
    with open_db(db) as mem:
        stored = [(m.role, m.content, m.user) for m in mem.history("t1")]
        assert stored == [("user", "Hi! What should I drink?", "alice"), ("assistant", ANSWER, None)]

    server.script("You said you love green tea.")
    out = chat(db, "What did you just tell me?\n", "--user", "alice", "-t", "t1")  # ends at end of input
    assert "You said you love green tea." in out.stdout and out.stdout.rstrip().endswith("Bye.")
    contents = [m["content"] for m in server.calls_to(CHAT)[-1].body["messages"][1:]]
    assert contents == ["Hi! What should I drink?", ANSWER, "What did you just tell me?"]  # the conversation so far


def test_the_system_prompt_option_is_stored_with_the_thread(db: str, server: FakeLLMServer) -> None:
    chat(db, "hello\n", "-t", "t1", "--system-prompt", "You are Rosey, a terse robot.")
    assert server.calls_to(CHAT)[-1].body["messages"][0]["content"].startswith("You are Rosey, a terse robot.")
    chat(db, "again\n", "-t", "t1")
    assert server.calls_to(CHAT)[-1].body["messages"][0]["content"].startswith("You are Rosey, a terse robot.")


def test_a_failing_model_is_reported_and_the_session_goes_on(db: str, server: FakeLLMServer) -> None:
    server.default = Fault.status(400)  # not retried (a 5xx is, with backoff)
    out = chat(db, "Hi there\n/history\n/quit\n", "-t", "t1")
    assert "error: the model did not finish" in out.stdout
    assert "Hi there" in out.stdout.split("error:")[1]  # /history still ran
    with open_db(db) as mem:
        assert [m.role for m in mem.history("t1")] == ["user"]


def test_without_an_llm_every_command_works(db: str) -> None:
    script = "\n".join(
        [
            "Hello, I'm Alice and I love green tea.",
            "/remember Alice loves green tea",
            "/facts",
            "/recall green tea",
            "/profile",
            "/history",
            "/save",
            "/context",
            "/sessions",
            "/bogus",
            "/help",
            "/end",
            "/memories",
            "/quit",
        ]
    )
    out = chat(db, script + "\n", "--user", "alice", "--thread", "t1").stdout
    assert "No LLM is configured" in out and "MEMLANE_LLM_PROVIDER" in out
    assert "(stored; no LLM is configured, so nobody answers)" in out
    assert "Remembered fact #1 (owner alice)." in out
    assert "Recall: green tea" in out
    assert "- Alice loves green tea" in out  # /profile: the bullet list without an LLM
    assert "t1: 1 message stored in" in out
    assert "Remembered facts (1)" in out and "Current: t1" in out
    assert "Unknown command /bogus" in out and "/remember TEXT" in out
    assert "Ended t1; a memory of it is queued (run `memlane worker`)." in out
    assert "No memories yet" in out
    with open_db(db) as mem:
        assert [m.content for m in mem.history("t1")] == ["Hello, I'm Alice and I love green tea."]
        assert mem.store.get_thread(mem.agent, "t1").status == "ended"  # type: ignore[union-attr]
        mem.run_jobs()
        [memory] = list_memories(mem)
        assert "green tea" in memory.content
    assert "[Created: " in chat(db, "/memories\n", "--user", "alice").stdout
    assert "No memories yet" in chat(db, "/memories\n", "--user", "bob").stdout  # alice's conversation, hers


def test_sessions_load_clear_and_forget(db: str) -> None:
    out = chat(db, "first thread message\n/clear\nsecond thread message\n/sessions\n", "-t", "one").stdout
    new = re.search(r"Started (chat-[\w-]+)\. one stays stored: /load one to go back\.", out)
    assert new is not None
    second = new[1]
    with open_db(db) as mem:
        assert [m.content for m in mem.history("one")] == ["first thread message"]
        assert [m.content for m in mem.history(second)] == ["second thread message"]

    out = chat(db, f"/load {second}\n/history\n/load nope\n/forget\n/sessions\n").stdout
    assert f"Continuing {second}." in out and "second thread message" in out
    assert "No conversation 'nope'" in out
    assert f"Deleted {second} and its messages from memory." in out
    with open_db(db) as mem:
        assert [t.key for t in mem.threads()] == ["one"]


def test_forget_a_fact_by_id_only_your_own(db: str) -> None:
    with open_db(db) as mem:
        bobs = mem.remember("Bob plays chess", user="bob")
        alices = mem.remember("Alice plays go", user="alice")
    out = chat(db, f"/forget {bobs.id}\n/forget {alices.id}\n/forget x\n/facts\n", "-u", "alice").stdout
    assert "belongs to 'bob', not to 'alice'" in out  # a memlane error is shown; the session goes on
    assert f"Forgot fact #{alices.id}: Alice plays go" in out
    assert "Usage: /forget" in out and "No facts yet" in out


def test_bad_options_exit_with_a_usage_error(db: str) -> None:
    result = chat(db, "", "--thread", "  ", code=2)
    assert "thread" in result.stderr


def test_the_readme_llm_example_runs_without_an_llm(tmp_path: Path) -> None:
    """The python block of docs/llm.md ("Using an LLM"), as a newcomer without an LLM runs it."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "llm.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"^```python\n(.*?)^```", page, flags=re.S | re.M)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    env |= {"MEMLANE_HOME": str(tmp_path / "home"), "MEMLANE_EMBEDDER": "none"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    profile, memory, *digest = done.stdout.strip().splitlines()
    assert profile == "- Alice has a cat called Miso"
    assert "Miso" in memory
    assert digest == [profile, "Today: alice: I'm Alice. I just adopted a cat called Miso."]
