"""The ``memlane`` command line, end to end on real SQLite files (in-process, plus the installed script)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner, Result

from memlane import (
    ConfigError,
    Conflict,
    DatabaseLocked,
    Forbidden,
    InvalidInput,
    MemlaneError,
    ModelMismatch,
    NotFound,
    ProviderError,
    RateLimited,
    StorageError,
)
from memlane.cli.app import app
from memlane.cli.exitcodes import exit_code_for

runner = CliRunner()

EXPECTED_COMMANDS = {
    "add",
    "history",
    "threads",
    "remember",
    "facts",
    "forget",
    "memories",
    "recall",
    "context",
    "reset",
    "end",
    "prune",
    "export",
    "import",
    "reindex",
    "db",
    "db status",
    "demo",
}


@pytest.fixture(autouse=True)
def _keyword_recall(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keyword recall only: fast and deterministic. The embedders have their own tests."""
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cli.db")


def run(*args: str, code: int = 0, stdin: str | None = None) -> Result:
    """Invoke the CLI in-process and check its exit code."""
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    return result


def js(db: str, *args: str, stdin: str | None = None) -> Any:
    """Run a command with ``--json`` and parse its one JSON document."""
    return json.loads(run("--db", db, "--json", *args, stdin=stdin).stdout)


def _walk(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found = [(path, command)]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        found += _walk(sub, (*path, name))
    return found


# -- help ----------------------------------------------------------------------------------------------
def test_every_command_and_parameter_has_help() -> None:
    tree = _walk(get_command(app))
    assert {" ".join(path) for path, _ in tree if path} >= EXPECTED_COMMANDS
    for path, command in tree:
        assert (command.help or "").strip(), f"`memlane {' '.join(path)}` has no help text"
        for param in command.params:
            assert (getattr(param, "help", None) or "").strip(), f"{param.name} of {path} has no help"
        result = run(*path, "--help")
        assert "Usage" in result.stdout
        if path and not getattr(command, "commands", None):
            assert "memlane" in result.stdout and "Examples" in result.stdout, path


def test_version_and_bare_invocation() -> None:
    assert run("--version").stdout.startswith("memlane ")
    result = runner.invoke(app, [])
    assert "Usage" in result.stdout and "demo" in result.stdout


# -- conversations --------------------------------------------------------------------------------------
def test_add_history_threads(db: str) -> None:
    first = js(db, "add", "general", "user", "I'm Alice and I love Python", "--user", "alice", "--name", "Alice")
    assert (first["seq"], first["thread"], first["user"], first["name"]) == (1, "general", "alice", "Alice")
    assert first["token_count"] > 0 and first["id"] >= 1
    piped = js(db, "add", "general", "assistant", "-", stdin="Nice to meet you!\n")
    assert (piped["seq"], piped["content"], piped["role"]) == (2, "Nice to meet you!", "assistant")
    old = js(db, "add", "general", "user", "old", "--created-at", "2020-01-02T03:04:05Z", "--metadata", '{"k": 1}')
    assert old["created_at"].startswith("2020-01-02T03:04:05") and old["metadata"] == {"k": 1}

    history = js(db, "history", "general")
    assert [m["seq"] for m in history["messages"]] == [1, 2, 3]
    assert [m["content"] for m in js(db, "history", "general", "--limit", "1")["messages"]] == ["old"]
    table = run("--db", db, "history", "general").stdout
    assert "I'm Alice and I love Python" in table and "Alice" in table

    (thread,) = js(db, "threads")["threads"]
    assert (thread["key"], thread["message_count"], thread["users"], thread["status"]) == (
        "general",
        3,
        ["alice"],
        "open",
    )
    assert js(db, "threads", "--user", "bob")["threads"] == []
    assert js(db, "threads", "--status", "ended")["threads"] == []
    assert "general" in run("--db", db, "threads").stdout
    human = run("--db", db, "add", "general", "user", "hello again").stdout
    assert "Stored message #4" in human and "seq 4" in human


def test_tool_call_and_result(db: str) -> None:
    calls = json.dumps([{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}])
    js(db, "add", "t", "user", "Weather?", "--user", "u")
    call = js(db, "add", "t", "assistant", "", "--tool-calls", calls)
    assert call["tool_calls"][0]["id"] == "c1"
    js(db, "add", "t", "tool", '{"sunny": true}', "--tool-call-id", "c1")
    assert "get_weather" in run("--db", db, "history", "t").stdout
    messages = js(db, "context", "t", "--budget", "500")["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool"]


def test_reset_end_prune(db: str) -> None:
    js(db, "add", "general", "user", "hello", "--user", "alice")
    js(db, "add", "general", "user", "again", "--user", "alice")
    js(db, "remember", "Alice says hello a lot", "--user", "alice")
    assert run("--db", db, "reset", "general").stdout.strip() == "2 messages cleared; facts are kept."
    assert js(db, "history", "general")["messages"] == []
    assert len(js(db, "facts", "--user", "alice")["facts"]) == 1
    assert js(db, "reset", "general") == {"thread": "general", "cleared": 0}

    ended = js(db, "end", "general")
    assert ended["status"] == "ended" and ended["ended_at"]
    assert [t["key"] for t in js(db, "threads", "--status", "ended")["threads"]] == ["general"]

    js(db, "add", "ancient", "user", "long ago", "--created-at", "2001-01-01T00:00:00")
    assert js(db, "prune", "--older-than-days", "365")["pruned"] == 1
    assert [t["key"] for t in js(db, "threads")["threads"]] == ["general"]
    assert run("--db", db, "prune", "--older-than-days", "365").stdout.strip() == "0 threads pruned."


# -- facts, recall, context -------------------------------------------------------------------------------
def test_memories_lists_deletes_and_purges_the_agents_memories(db: str) -> None:
    """Seed 001's admin list and purge: a memory per ended conversation (extractive without an LLM)."""
    for thread, text in (
        ("t1", "My sister Maria moves to Porto in March."),
        ("t2", "I am training for the Lisbon marathon."),
    ):
        js(db, "add", thread, "user", text, "--user", "alice")
        js(db, "end", thread)
    assert js(db, "memories") == {"memories": []}  # made by the job that ending a conversation queued
    run("--db", db, "worker", "--once")
    listed = js(db, "memories")["memories"]
    assert [m["method"] for m in listed] == ["extractive", "extractive"]
    assert "Lisbon marathon" in listed[0]["content"] and "Maria moves to Porto" in listed[1]["content"]  # newest first
    assert "Maria moves to Porto" in run("--db", db, "memories").stdout
    assert [m["id"] for m in js(db, "memories", "--limit", "1")["memories"]] == [listed[0]["id"]]

    assert js(db, "memories", "--delete", str(listed[0]["id"])) == {"deleted": 1}
    assert [m["id"] for m in js(db, "memories")["memories"]] == [listed[1]["id"]]
    run("--db", db, "memories", "--delete", str(listed[0]["id"]), code=exit_code_for(NotFound("x")))
    assert js(db, "memories", "--purge") == {"deleted": 1}
    assert run("--db", db, "memories").stdout.strip() == "No memories yet."
    run("--db", db, "memories", "--delete", "1", "--purge", code=2)


def test_remember_facts_forget(db: str) -> None:
    private = js(db, "remember", "Alice is allergic to peanuts", "--user", "alice", "--importance", "5")
    assert (private["owner"], private["visibility"], private["importance"], private["category"]) == (
        "alice",
        "private",
        5,
        "fact",
    )
    shared = js(db, "remember", "Stand-up is at 9:30", "--user", "alice", "--visibility", "shared", "--subject", "team")
    bob = js(db, "remember", "Bob prefers tea", "--user", "bob", "--category", "preference")
    agent = js(db, "remember", "The office is in Lisbon")
    assert agent["owner"] is None

    def ids(*args: str) -> set[int]:
        return {f["id"] for f in js(db, "facts", *args)["facts"]}

    assert ids("--user", "bob") == {shared["id"], bob["id"], agent["id"]}
    assert ids("--user", "alice") == {private["id"], shared["id"], agent["id"]}
    assert ids() == {shared["id"], agent["id"]}
    assert ids("--all-users") == {private["id"], shared["id"], bob["id"], agent["id"]}
    assert ids("--all-users", "--category", "preference") == {bob["id"]}
    assert ids("--all-users", "--subject", "team") == {shared["id"]}
    assert "peanuts" in run("--db", db, "facts", "--all-users").stdout

    forgotten = js(db, "forget", str(bob["id"]), "--user", "bob")
    assert forgotten["forgotten"] == 1 and forgotten["fact"]["content"] == "Bob prefers tea"
    assert js(db, "forget", "--all", "--user", "alice") == {
        "forgotten": 2,
        "user": "alice",
        "subject": None,
        "category": None,
        "thread": None,
    }
    assert ids("--all-users") == {agent["id"]}
    assert "forgot 1 fact" in run("--db", db, "forget", "--all").stdout
    assert ids("--all-users") == set()


def test_facts_filter_on_visibility_and_thread(db: str) -> None:
    private = js(db, "remember", "Alice is vegan", "--user", "alice", "--thread", "dinner")
    shared = js(db, "remember", "Dinner is at 8", "--user", "alice", "--visibility", "shared", "--thread", "dinner")
    elsewhere = js(db, "remember", "Alice runs on Sundays", "--user", "alice", "--thread", "sport")

    def ids(*args: str) -> set[int]:
        return {f["id"] for f in js(db, "facts", "--user", "alice", *args)["facts"]}

    assert ids() == {private["id"], shared["id"], elsewhere["id"]}
    assert ids("--visibility", "shared") == {shared["id"]}
    assert ids("--visibility", "private") == {private["id"], elsewhere["id"]}
    assert ids("--thread", "dinner") == {private["id"], shared["id"]}
    assert ids("--thread", "dinner", "--visibility", "private") == {private["id"]}
    assert ids("--thread", "nowhere") == set()
    human = run("--db", db, "facts", "--user", "alice", "--thread", "sport").stdout
    assert "Alice runs on Sundays" in human and "vegan" not in human


def test_forget_all_narrowed_by_subject_category_and_thread(db: str) -> None:
    def remember(text: str, *args: str) -> int:
        fact: dict[str, Any] = js(db, "remember", text, "--user", "alice", *args)
        return int(fact["id"])

    tea = remember("Alice prefers tea", "--category", "preference", "--thread", "cafe")
    coffee = remember("Alice hates coffee", "--category", "preference", "--thread", "office")
    sister = remember("Maria moves to Porto", "--subject", "maria", "--thread", "cafe")
    job = remember("Alice is a nurse", "--thread", "office")
    bobs = js(db, "remember", "Bob prefers tea", "--user", "bob", "--category", "preference", "--thread", "cafe")

    def left() -> set[int]:
        return {f["id"] for f in js(db, "facts", "--all-users")["facts"]}

    narrowed = js(db, "forget", "--all", "--user", "alice", "--category", "preference", "--thread", "cafe")
    assert narrowed == {"forgotten": 1, "user": "alice", "subject": None, "category": "preference", "thread": "cafe"}
    assert left() == {coffee, sister, job, bobs["id"]}
    assert js(db, "forget", "--all", "--user", "alice", "--subject", "maria")["forgotten"] == 1
    assert left() == {coffee, job, bobs["id"]}
    human = run("--db", db, "forget", "--all", "--user", "alice", "--thread", "office").stdout
    assert "forgot 2 facts owned by alice (thread office)" in human
    assert left() == {bobs["id"]}  # Bob's fact in the same thread and category is untouched
    assert tea not in left()


def test_recall_filters_on_kinds_and_time(db: str) -> None:
    # Two threads, so each message is a hit of its own (not a neighbour shown with the other).
    old = js(db, "add", "t1", "user", "Python in 2021", "--user", "alice", "--created-at", "2021-06-01T12:00:00Z")
    new = js(db, "add", "t2", "user", "Python in 2023", "--user", "alice", "--created-at", "2023-06-01T12:00:00")
    fact = js(db, "remember", "Alice codes in Python", "--user", "alice")

    def hits(*args: str) -> set[tuple[str, int]]:
        return {(h["kind"], h["id"]) for h in js(db, "recall", "python", "--user", "alice", *args)["hits"]}

    everything = {("message", old["id"]), ("message", new["id"]), ("fact", fact["id"])}
    assert hits() == everything
    assert hits("--kinds", "fact") == {("fact", fact["id"])}
    assert hits("--kinds", "message", "--kinds", "summary") == everything - {("fact", fact["id"])}
    assert hits("--kinds", "message, fact") == everything
    assert hits("--since", "2022-01-01") == {("message", new["id"]), ("fact", fact["id"])}
    assert hits("--until", "2022-01-01") == {("message", old["id"])}
    assert hits("--since", "2021-06-01T12:00:00+00:00", "--until", "2023-06-01T12:00:00Z") == {("message", old["id"])}
    assert hits("--kinds", "fact", "--until", "2022-01-01") == set()
    human = run("--db", db, "recall", "python", "--user", "alice", "--kinds", "fact").stdout
    assert "Alice codes in Python" in human and "Python in 2021" not in human


def test_recall_respects_scope(db: str) -> None:
    js(db, "add", "dm-alice", "user", "My secret: I adore Python", "--user", "alice")
    js(db, "add", "dm-bob", "user", "I write Rust, not Python", "--user", "bob")
    secret = js(db, "remember", "Alice adores Python", "--user", "alice")

    alice = js(db, "recall", "python", "--user", "alice")
    assert alice["query"] == "python" and alice["hits"]
    assert {(h["kind"], h["thread"]) for h in alice["hits"]} >= {("message", "dm-alice")}
    assert secret["id"] in {h["id"] for h in alice["hits"] if h["kind"] == "fact"}
    bob = js(db, "recall", "python", "--user", "bob")["hits"]
    assert [h["thread"] for h in bob] == ["dm-bob"]
    assert all(h["id"] != secret["id"] or h["kind"] != "fact" for h in bob)
    assert len(js(db, "recall", "python", "--user", "alice", "--limit", "1")["hits"]) == 1
    assert [h["thread"] for h in js(db, "recall", "python", "--thread", "dm-bob")["hits"]] == ["dm-bob"]
    assert "Alice adores Python" in run("--db", db, "recall", "python", "--user", "alice").stdout
    assert "Nothing relevant found" in run("--db", db, "recall", "zebra").stdout


def test_recall_filters_on_metadata(db: str) -> None:
    js(db, "add", "t1", "user", "Python Python Python", "--metadata", '{"src": "slack"}')
    mail = js(db, "add", "t2", "user", "Python by mail", "--metadata", '{"src": "mail"}')
    hits = js(db, "recall", "python", "--limit", "1", "--metadata", '{"src": "mail"}')["hits"]
    assert [(h["kind"], h["id"]) for h in hits] == [("message", mail["id"])]
    assert "metadata" in run("--db", db, "recall", "python", "--metadata", '{"src": [1]}', code=2).stderr


def test_context(db: str) -> None:
    for i in range(30):
        js(db, "add", "general", "user" if i % 2 == 0 else "assistant", f"message number {i} about gardens " * 3)
    js(db, "remember", "Alice grows tomatoes", "--user", "alice", "--category", "hobby")
    doc = js(db, "context", "general", "--user", "alice", "--query", "tomatoes", "--budget", "200")
    assert doc["budget"] == 200 and 0 < doc["tokens"] <= 200
    assert doc["dropped_messages"] > 0
    system = doc["messages"][0]
    assert system["role"] == "system" and "Alice grows tomatoes" in system["content"]
    assert [f["content"] for f in doc["sections"]["facts"]] == ["Alice grows tomatoes"]
    assert len(doc["messages"]) == 1 + len(doc["sections"]["messages"])

    prompted = js(db, "context", "general", "--system-prompt", "You are a gardener.", "--budget", "300")
    assert prompted["messages"][0]["content"].startswith("You are a gardener.")
    assert "Alice grows tomatoes" not in prompted["messages"][0]["content"]  # no user: private facts stay out

    human = run("--db", db, "context", "general", "--user", "alice", "--budget", "200").stdout
    count = re.search(r"(\d+)/200 tokens", human)
    assert count and int(count.group(1)) <= 200
    assert "Remembered facts" in human and "Recent messages" in human


# -- data ------------------------------------------------------------------------------------------------
def test_export_import_round_trip(db: str, tmp_path: Path) -> None:
    js(db, "add", "general", "user", "hello", "--user", "alice")
    js(db, "add", "other", "user", "bye", "--user", "bob")
    js(db, "remember", "Alice says hello", "--user", "alice")
    backup = tmp_path / "backup.jsonl"
    assert js(db, "export", str(backup))["records"] == len(backup.read_text().splitlines())

    stdout = run("--db", db, "export", "-", "--thread", "general").stdout.splitlines()
    assert json.loads(stdout[0])["format"] == "memlane-export"
    assert {json.loads(line).get("thread") for line in stdout[1:] if json.loads(line)["type"] == "message"} == {
        "general"
    }

    copy = str(tmp_path / "copy.db")
    imported = js(copy, "import", str(backup))["imported"]
    assert (imported["threads"], imported["messages"], imported["facts"]) == (2, 2, 1)
    assert [m["content"] for m in js(copy, "history", "general")["messages"]] == ["hello"]
    again = run("--db", copy, "import", str(backup), code=4)
    assert again.stderr.startswith("error: ") and "already exists" in again.stderr
    assert js(copy, "import", str(backup), "--on-conflict", "skip")["imported"]["threads"] == 0
    assert js(copy, "import", str(backup), "--on-conflict", "replace")["imported"]["threads"] == 2
    assert "Imported 2 threads, 2 messages" in run("--db", str(tmp_path / "c2.db"), "import", str(backup)).stdout
    piped = run("--db", str(tmp_path / "c3.db"), "--json", "import", "-", stdin=backup.read_text()).stdout
    assert json.loads(piped)["imported"]["messages"] == 2


def test_db_status_agent_and_config(db: str, tmp_path: Path) -> None:
    js(db, "add", "general", "user", "hello")
    status = js(db, "db", "status")
    assert status["backend"] == "sqlite" and Path(status["location"]) == Path(db).resolve()
    assert status["schema_version"] >= 1 and status["agent"] == "default"
    assert status["counts"]["threads"] == 1 and status["counts"]["messages"] == 1
    assert "schema version" in run("--db", db, "db", "status").stdout

    # A mistyped agent is an error (exit 3), not an empty memory.
    assert "no agent 'other-bot'" in run("--db", db, "--agent", "other-bot", "--json", "db", "status", code=3).stderr
    assert "no agent 'other-bot'" in run("--db", db, "--agent", "other-bot", "threads", code=3).stderr

    config = tmp_path / "memlane.toml"
    config.write_text(f'database = "{tmp_path / "from-config.db"}"\nagent = "configured"\n')
    run("--config", str(config), "remember", "configured facts go to the configured store")
    configured = json.loads(run("--config", str(config), "--json", "db", "status").stdout)
    assert configured["agent"] == "configured"
    assert Path(configured["location"]) == (tmp_path / "from-config.db").resolve()


def test_reindex_after_a_model_change(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDER", "fake")
    js(db, "add", "t", "user", "hello world")
    js(db, "remember", "Alice says hello", "--user", "alice")
    monkeypatch.setenv("MEMLANE_EMBEDDER", "minilm")
    mismatch = run("--db", db, "threads", code=4)
    assert len(mismatch.stderr.splitlines()) == 1 and "memlane reindex" in mismatch.stderr
    done = js(db, "reindex")
    assert done["embedded"] == 2 and "MiniLM" in done["model"]
    assert [h["kind"] for h in js(db, "recall", "greetings", "--user", "alice")["hits"]]
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")
    assert "no embedder" in run("--db", db, "reindex", code=2).stderr


# -- errors ----------------------------------------------------------------------------------------------
ERROR_CASES = [
    pytest.param(["remember", "x", "--importance", "9"], 2, "importance", id="bad-importance"),
    pytest.param(["forget", "999"], 3, "no fact 999", id="unknown-fact"),
    pytest.param(["add", "t", "user", "   "], 2, "content", id="empty-content"),
    pytest.param(["reset", "nope"], 3, "no thread 'nope'", id="reset-unknown-thread"),
    pytest.param(["history", "nope"], 3, "no thread 'nope'", id="history-unknown-thread"),
    pytest.param(["add", "t", "robot", "hi"], 2, "role", id="bad-role"),
    pytest.param(["add", "t", "user", "hi", "--metadata", "{oops"], 2, "metadata", id="bad-metadata"),
    pytest.param(["threads", "--status", "closed"], 2, "status", id="bad-status"),
    pytest.param(["context", "general", "--budget", "0"], 2, "budget", id="bad-budget"),
    pytest.param(["recall", "x", "--kinds", "message,memo"], 2, "unknown kinds ['memo']", id="recall-bad-kind"),
    pytest.param(["recall", "x", "--since", "yesterday"], 2, "--since is not an ISO-8601", id="recall-bad-since"),
    pytest.param(["recall", "x", "--until", "2024-13-01"], 2, "--until is not an ISO-8601", id="recall-bad-until"),
    pytest.param(["facts", "--visibility", "public"], 2, "visibility must be", id="facts-bad-visibility"),
    pytest.param(["facts", "--thread", " "], 2, "--thread must not be empty", id="facts-bad-thread"),
    pytest.param(["forget", "--all", "--category", "Bad Cat"], 2, "category must be", id="forget-bad-category"),
    pytest.param(["forget", "--all", "--subject", ""], 2, "--subject must not be empty", id="forget-bad-subject"),
    pytest.param(["forget", "--all", "--thread", " "], 2, "--thread must not be empty", id="forget-bad-thread"),
    pytest.param(["import", "missing.jsonl"], 2, "cannot open", id="missing-import-file"),
    pytest.param(["--config", "missing.toml", "threads"], 5, "missing.toml", id="missing-config"),
]


@pytest.mark.parametrize(("args", "code", "needle"), ERROR_CASES)
def test_errors_are_one_line_with_a_typed_exit_code(db: str, args: list[str], code: int, needle: str) -> None:
    run("--db", db, "add", "general", "user", "hello")  # the store exists: these errors are about the arguments
    result = run("--db", db, *args, code=code)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr
    assert "Traceback" not in result.output


def test_forbidden_and_storage_errors(db: str, tmp_path: Path) -> None:
    fact = js(db, "remember", "Alice's secret", "--user", "alice")
    forbidden = run("--db", db, "forget", str(fact["id"]), "--user", "bob", code=4)
    assert forbidden.stderr.startswith("error: fact") and len(forbidden.stderr.splitlines()) == 1
    garbage = tmp_path / "not-a-db.db"
    garbage.write_bytes(b"this is not a SQLite database, just some bytes" * 100)
    broken = run("--db", str(garbage), "threads", code=6)
    assert broken.stderr.startswith("error: ") and len(broken.stderr.splitlines()) == 1


def test_usage_errors_exit_2(db: str) -> None:
    assert "FACT_ID or --all" in run("--db", db, "forget", code=2).stderr
    assert "FACT_ID or --all" in run("--db", db, "forget", "1", "--all", code=2).stderr
    assert "only narrow --all" in run("--db", db, "forget", "1", "--category", "fact", code=2).stderr
    run("--db", db, "add", "only-thread", code=2)
    run("--db", db, "remember", "x", "--importance", "high", code=2)
    run("--db", db, "no-such-command", code=2)


def test_exit_code_table() -> None:
    expected = {
        InvalidInput: 2,
        NotFound: 3,
        Conflict: 4,
        ModelMismatch: 4,
        Forbidden: 4,
        ConfigError: 5,
        StorageError: 6,
        DatabaseLocked: 6,
        ProviderError: 7,
        MemlaneError: 1,
    }
    for kind, code in expected.items():
        assert exit_code_for(kind("x")) == code, kind
    assert exit_code_for(RateLimited("slow down", retry_after=1.0)) == 7


def test_installed_script_maps_errors(tmp_path: Path) -> None:
    """The console script (``main``) behaves like the in-process app: one line, typed exit code."""
    script = Path(sys.executable).parent / "memlane"
    env = {"MEMLANE_HOME": str(tmp_path / "home"), "MEMLANE_EMBEDDER": "none", "PATH": str(script.parent)}
    done = subprocess.run(
        [str(script), "--db", str(tmp_path / "s.db"), "reset", "nope"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 3  # a read of a store that does not exist: NotFound, and nothing is created
    assert done.stderr.startswith("error: there is no memlane store at ") and done.stdout == ""
    assert done.stderr.count("\n") == 1 and not (tmp_path / "s.db").exists()


# -- demo ------------------------------------------------------------------------------------------------
def test_demo_tour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMLANE_EMBEDDER")  # what a newcomer gets: hybrid recall with the local model
    location = str(tmp_path / "demo.db")
    doc = js(location, "demo")
    assert doc["db"] == str(Path(location).resolve()) and doc["temporary"] is False
    assert doc["loaded"] == {"threads": 3, "messages": 51, "facts": 7}
    # 6 facts remembered by the sample, and "Alice is allergic to peanut", stated in a message as it was written
    assert sum(t["message_count"] for t in doc["threads"]) == 51 and len(doc["facts"]) == 7
    stay, rain = doc["recall"]
    assert any("We're staying in an apartment" in h["text"] for h in stay["hits"])
    assert any("The forecast" in h["text"] for h in rain["hits"])  # hits show their context window
    assert 0 < doc["context"]["tokens"] <= doc["context"]["budget"] == 600
    assert doc["context"]["messages"][0]["role"] == "system"
    iso = doc["isolation"]
    assert iso["leaked"] is False
    assert any(h["kind"] == "fact" and h["id"] == iso["private_fact_id"] for h in iso["owner_hits"])
    assert all(not (h["kind"] == "fact" and h["id"] == iso["private_fact_id"]) for h in iso["other_hits"])

    # Running it again on its own store reloads the sample instead of doubling it (keyword recall: faster).
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")
    out = run("demo", "--db", location).stdout
    assert location in out
    assert "chen asks: Where are we staying in Lisbon?" in out and "Booked it! We're staying" in out
    assert "alice asks: Will it rain on Saturday?" in out
    tokens = re.search(r"(\d+)/600 tokens", out)
    assert tokens and 0 < int(tokens.group(1)) <= 600
    assert "Remembered facts" in out and "Recent messages" in out
    assert "✓ bob's private fact" in out and "absent from chen's" in out
    assert f"memlane --db {location} threads" in out
    assert len(js(location, "threads")["threads"]) == 3


def test_demo_defaults_to_a_temporary_store_and_spares_real_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    doc = json.loads(run("--json", "demo").stdout)
    assert doc["temporary"] is True
    assert Path(doc["db"]).parent.parent == tmp_path.resolve() and Path(doc["db"]).parent.name.startswith(
        "memlane-demo-"
    )

    real = str(tmp_path / "real.db")
    js(real, "add", "general", "user", "my own data")
    refused = run("--db", real, "demo", code=4)
    assert "fresh store" in refused.stderr and len(refused.stderr.splitlines()) == 1
    assert [m["content"] for m in js(real, "history", "general")["messages"]] == ["my own data"]


def test_a_clipped_window_keeps_the_turn_that_matched() -> None:
    # The demo's "chen recalls: Saturday birthday dinner" showed three answers whose windows opened with long
    # assistant turns: clipped from the start, the turn that matched ("Bob: Saturday dinner: ...") was cut off
    # and the table read as three unrelated answers.
    from datetime import UTC, datetime

    from rich.console import Console

    from memlane.cli.render import hits_table
    from memlane.types import Hit

    window = "\n".join(
        [
            "assistant: " + "Sintra works well on a Sunday if you take a train before 9:00. " * 4,
            "Alice: Booking Pena Palace tickets for 10:00 then.",
            "Bob: Saturday dinner: I'll take care of it, I've got a place in mind.",
            "Chen: ok",
        ]
    )
    hit = Hit("message", 33, window, 0.42, "trip", 33, datetime(2026, 1, 1, tzinfo=UTC), message_ids=(31, 32, 33, 34))
    console = Console(width=200, record=True)
    console.print(hits_table([hit], max_chars=160))
    shown = console.export_text()
    assert "Bob: Saturday dinner" in shown and "Sintra works well" not in shown, shown
    console = Console(width=200, record=True)
    console.print(hits_table([hit]))  # no clip: every turn
    everything = console.export_text()
    assert "Sintra works well" in everything and "Chen: ok" in everything
