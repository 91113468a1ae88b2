"""``memlane prune``: idle threads (``--older-than-days``) and old messages (``--messages-older-than-days``) on
real SQLite files; and the ``message_retention_days`` setting, which prunes old messages when a store opens."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from memlane import Memory, load_settings

runner = CliRunner()


@pytest.fixture(autouse=True)
def _keyword_recall(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cli.db")


def run(db: str, *args: str, code: int = 0) -> Result:
    from memlane.cli.app import app

    result = runner.invoke(app, ["--db", db, *args])
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    return result


def js(db: str, *args: str) -> Any:
    return json.loads(run(db, "--json", *args).stdout)


def contents(db: str, thread: str) -> list[str]:
    return [m["content"] for m in js(db, "history", thread)["messages"]]


def test_prune_messages_keeps_threads_facts_and_numbering(db: str) -> None:
    run(db, "add", "general", "user", "the walrus from 2001", "--user", "alice", "--created-at", "2001-01-01")
    run(db, "add", "general", "user", "another walrus, 2001", "--user", "alice", "--created-at", "2001-01-02")
    run(db, "add", "general", "user", "fresh news today", "--user", "alice")
    run(db, "add", "random", "user", "a walrus in the random channel", "--created-at", "2001-01-01")
    run(db, "remember", "Alice tells walrus stories", "--user", "alice", "--thread", "general")

    assert js(db, "prune", "--messages-older-than-days", "30", "--thread", "general") == {
        "pruned_messages": 2,
        "messages_older_than_days": 30.0,
        "thread": "general",
    }
    assert contents(db, "general") == ["fresh news today"]
    assert [h["thread"] for h in js(db, "recall", "walrus", "--kinds", "message")["hits"]] == ["random"]
    assert len(js(db, "facts", "--user", "alice")["facts"]) == 1
    assert js(db, "add", "general", "user", "next one")["seq"] == 4

    out = run(db, "prune", "--messages-older-than-days", "30").stdout.strip()
    assert out == "1 message pruned."
    assert contents(db, "random") == []
    threads = {t["key"]: t["message_count"] for t in js(db, "threads")["threads"]}
    assert threads == {"general": 2, "random": 0}


def test_prune_both_ways_and_bad_input(db: str) -> None:
    run(db, "add", "ancient", "user", "long ago", "--created-at", "2001-01-01")
    run(db, "add", "busy", "user", "long ago too", "--created-at", "2001-01-01")
    run(db, "add", "busy", "user", "just now")

    out = run(db, "prune", "--older-than-days", "365", "--messages-older-than-days", "7").stdout
    assert out.splitlines() == ["1 thread pruned.", "1 message pruned."]
    assert [t["key"] for t in js(db, "threads")["threads"]] == ["busy"]
    assert contents(db, "busy") == ["just now"]
    assert js(db, "prune", "--older-than-days", "365") == {"pruned": 0, "older_than_days": 365.0}

    assert "--older-than-days" in run(db, "prune", code=2).stderr
    assert "--thread only narrows" in run(db, "prune", "--older-than-days", "1", "--thread", "busy", code=2).stderr
    assert "non-negative" in run(db, "prune", "--messages-older-than-days", "-1", code=2).stderr
    assert "no thread 'nope'" in run(db, "prune", "--messages-older-than-days", "1", "--thread", "nope", code=3).stderr
    assert contents(db, "busy") == ["just now"]


def test_message_retention_prunes_old_messages_when_a_store_opens(tmp_path: Path) -> None:
    db = tmp_path / "keep.db"
    old = datetime.now(UTC) - timedelta(days=40)
    with Memory(db, settings=load_settings(embedder="none", worker="none")) as mem:
        mem.add_message("channel", "user", "an old message", created_at=old)
        mem.add_message("channel", "user", "a new message")
        mem.remember("the channel likes old jokes")
    settings = load_settings(embedder="none", worker="none", message_retention_days=30)
    with Memory(db, settings=settings) as mem:
        assert [m.content for m in mem.history("channel")] == ["a new message"]
        assert [f.content for f in mem.facts()] == ["the channel likes old jokes"]
        assert [m.seq for m in mem.history("channel")] == [2]
