"""``memlane jobs``, ``memlane worker`` and ``memlane stats`` on real SQLite files (in-process, and the installed
script for signals)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner, Result

from memlane import InvalidInput, Memory, load_settings
from memlane.pipeline import digests
from memlane.testing import FakeLLMServer
from memlane.types import Job
from memlane.validation import NewJob

runner = CliRunner()


@pytest.fixture(autouse=True)
def _keyword_recall(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cli.db")


def run(*args: str, code: int = 0) -> Result:
    from memlane.cli.app import app

    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    return result


def js(*args: str) -> Any:
    return json.loads(run(*args).stdout)


def open_memory(db: str, agent: str = "default") -> Memory:
    return Memory(db, agent=agent, settings=load_settings(embedder="none", worker="none"))


def echo(pipeline: Any, job: Job) -> None:
    """test.echo: append the job's id and agent to a file; a payload asking to fail is invalid."""
    if job.payload.get("fail"):
        raise InvalidInput("this payload is invalid")
    with open(job.payload["file"], "a", encoding="utf-8") as out:
        out.write(f"{job.id} {pipeline.memory.agent}\n")


def ask(pipeline: Any, job: Job) -> None:
    """test.ask: one LLM call."""
    from memlane.llm import ChatMessage

    pipeline.memory.llm.complete([ChatMessage.user("say something")], operation="test.ask")


@pytest.fixture
def test_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Handlers for test kinds in every pipeline the CLI builds: added to a step module's ``HANDLERS`` hook
    (which a step may or may not define), restored after the test."""
    handlers = {**getattr(digests, "HANDLERS", {}), "test.echo": echo, "test.ask": ask}
    monkeypatch.setattr(digests, "HANDLERS", handlers, raising=False)


def test_the_commands_have_help_and_examples() -> None:
    from memlane.cli.app import app

    commands = get_command(app).commands  # type: ignore[attr-defined]
    for name in ("jobs", "worker", "stats"):
        assert (commands[name].help or "").strip()
        assert all((getattr(p, "help", None) or "").strip() for p in commands[name].params), name
        out = run(name, "--help").stdout
        assert "Examples" in out and f"memlane {name}" in out.replace("memlane --json", "memlane")


def test_jobs_lists_filters_and_retries_dead_letters(db: str, tmp_path: Path) -> None:
    assert "there is no memlane store" in run("--db", db, "jobs", code=3).stderr  # reads create nothing
    assert not Path(db).exists()
    with open_memory(db):
        pass
    assert "No jobs for agent 'default'" in run("--db", db, "jobs").stdout
    with open_memory(db) as mem:
        now = mem.clock()
        mem.store.enqueue_jobs("default", [NewJob("test.echo", {"n": 1}), NewJob("other.kind", {})], now)
        mem.store.enqueue_jobs("bot-2", [NewJob("test.echo", {"n": 2})], now)
        [claimed] = mem.store.claim_jobs("w", now, lease_seconds=60, limit=1)
        mem.store.fail_job(claimed.id, "w", "InvalidInput: payload lacks 'file'", now, None)

    table = run("--db", db, "jobs").stdout
    assert "test.echo" in table and "other.kind" in table and "dead" in table and "payload" in table
    assert "bot-2" not in table
    assert {j["agent"] for j in js("--db", db, "--json", "jobs", "--all-agents")["jobs"]} == {"default", "bot-2"}
    [dead] = js("--db", db, "jobs", "--status", "dead", "--json")["jobs"]
    assert (dead["id"], dead["kind"], dead["attempts"]) == (claimed.id, "test.echo", 1)
    assert [j["kind"] for j in js("--db", db, "--json", "jobs", "--kind", "other.kind")["jobs"]] == ["other.kind"]

    assert (
        f"Job {claimed.id} (test.echo, agent default) is pending again"
        in run("--db", db, "jobs", "--retry", str(claimed.id)).stdout
    )
    assert js("--db", db, "--json", "jobs", "--status", "dead")["jobs"] == []
    assert "no dead or done job 999" in run("--db", db, "jobs", "--retry", "999", code=3).stderr
    assert "--status must be one of" in run("--db", db, "jobs", "--status", "stuck", code=2).stderr


def test_worker_once_runs_every_agents_ready_jobs_with_one_line_each(db: str, tmp_path: Path, test_kinds: None) -> None:
    out = tmp_path / "effects"
    with open_memory(db) as mem:
        now = mem.clock()
        mem.store.enqueue_jobs("default", [NewJob("test.echo", {"file": str(out)}) for _ in range(3)], now)
        mem.store.enqueue_jobs("bot-2", [NewJob("test.echo", {"file": str(out)})], now)
        mem.store.enqueue_jobs("bot-2", [NewJob("test.echo", {"fail": True})], now)
    result = run("--db", db, "worker", "--once", "--concurrency", "2")
    logged = [line for line in result.stderr.splitlines() if " job " in line]
    assert len(logged) == 5 and sum(": done after " in line for line in logged) == 4
    assert any(
        "(agent bot-2, attempt 1/5): dead after" in line and "InvalidInput: this payload is invalid" in line
        for line in logged
    )
    assert "ran 5 jobs (1 dead, 4 done)" in result.stderr
    assert sorted(line.split()[1] for line in out.read_text().splitlines()) == [
        "bot-2",
        "default",
        "default",
        "default",
    ]
    assert js("--db", db, "worker", "--once", "--json") == {"jobs": 0, "outcomes": {}, "usage": []}


def test_worker_reports_the_llm_usage_of_its_jobs(db: str, monkeypatch: pytest.MonkeyPatch, test_kinds: None) -> None:
    with FakeLLMServer(default="four words of answer") as server:
        for name, value in {"PROVIDER": "openai", "BASE_URL": server.base_url, "MODEL": "fake-model"}.items():
            monkeypatch.setenv(f"MEMLANE_LLM_{name}", value)
        with open_memory(db, agent="bot") as mem:
            mem.store.enqueue_jobs("bot", [NewJob("test.ask", {}), NewJob("test.ask", {})], mem.clock())
        doc = js("--db", db, "--json", "worker", "--once")
        assert len(server.calls) == 2
    assert doc["outcomes"] == {"done": 2}
    [usage] = doc["usage"]
    assert (usage["agent"], usage["operation"], usage["calls"], usage["failures"]) == ("bot", "test.ask", 2, 0)
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (4, 8)


def test_worker_once_runs_the_real_summarize_step(db: str) -> None:
    """What a user sees: a long conversation written with `memlane add` is summarized by `memlane worker`."""
    with open_memory(db) as mem:
        mem.add_messages("chat", [{"role": "user", "content": f"I like topic number {i}."} for i in range(40)])
        assert [j.kind for j in mem.store.list_jobs("default", status="pending")] == ["summarize"]
    run("--db", db, "worker", "--once")
    with open_memory(db) as mem:
        assert mem.summaries("chat") and mem.store.list_jobs("default", status="pending") == []


def test_stats_shows_usage_and_budget(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_LLM_BUDGET_TOKENS", "5000")
    with open_memory(db):
        pass
    doc = js("--db", db, "--json", "stats")
    assert doc["persisted"] is True and doc["usage"] == []
    assert (doc["budget"]["agent"], doc["budget"]["limit"], doc["budget"]["spent"], doc["budget"]["low"]) == (
        "default",
        5000,
        0,
        False,
    )
    result = run("--db", db, "stats", "--all-agents")
    assert "No LLM calls recorded" in result.stdout and "0 of 5,000 tokens spent in the last 24 h" in result.stdout
    assert "does not record LLM usage" not in result.stderr  # the store keeps usage for every process


def test_the_worker_process_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "memlane"
    env = {**os.environ, "MEMLANE_HOME": str(tmp_path / "home"), "MEMLANE_EMBEDDER": "none"}
    with subprocess.Popen(
        [str(script), "--db", str(tmp_path / "w.db"), "worker", "--poll", "0.05", "--concurrency", "2"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    ) as proc:
        try:
            assert proc.stderr is not None
            first = proc.stderr.readline()  # printed once the worker runs
            assert first.startswith("memlane worker: 2 threads running jobs until stopped"), first
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            rest = proc.stderr.read()
            assert proc.wait(timeout=10) == 0
            assert time.monotonic() - started < 5
            assert "ran 0 jobs" in rest
        finally:
            proc.kill()
