"""The CLI as a newcomer meets it (issue 15): global options anywhere, reads that create nothing, one-line
usage errors, help without noise, wide piped tables, tool calls shown, progress, and seed 002's chat."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner, Result

from memlane.cli.app import app

runner = CliRunner()
MEMLANE = Path(sys.executable).parent / "memlane"
TOOL_CALLS = json.dumps(
    [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]
)


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")
    monkeypatch.setenv("MEMLANE_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COLUMNS", raising=False)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "n.db")


def run(*args: str, code: int = 0, stdin: str | None = None, env: dict[str, str] | None = None) -> Result:
    result = runner.invoke(app, list(args), input=stdin, env=env)
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    return result


def js(*args: str) -> Any:
    return json.loads(run(*args).stdout)


# -- global options after the command name ---------------------------------------------------------
def test_global_options_work_after_the_command_name(db: str, tmp_path: Path) -> None:
    added = js("add", "general", "user", "hello", "--db", db, "--agent", "bot", "--json")
    assert (added["agent"], added["thread"]) == ("bot", "general")
    assert js("threads", "--json", "--db", db, "-a", "bot")["threads"][0]["key"] == "general"
    assert js("threads", "--json", "--db", db)["threads"] == []  # the default agent has none
    # after the command name wins over before it, as the later option does
    assert js("--agent", "default", "threads", "--agent", "bot", "--db", db, "--json")["threads"]
    # the example `memlane stats --help` shows
    assert js("--json", "stats", "--agent", "my-bot", "--db", db)["budget"]["agent"] == "my-bot"
    assert js("db", "status", "--db", db, "--json", "--agent", "bot")["counts"]["messages"] == 1
    assert js("db", "--json", "status", "--db", db)["agent"] == "default"  # on a sub-group too
    config = tmp_path / "c.toml"
    config.write_text('agent = "bot"\n')
    assert js("history", "general", "--config", str(config), "--db", db, "--json")["messages"][0]["content"] == "hello"


def test_a_command_keeps_its_own_option_of_the_same_name(db: str, tmp_path: Path) -> None:
    run("--db", db, "--agent", "a1", "add", "t", "user", "one")
    run("--db", db, "--agent", "a2", "add", "t", "user", "two")
    copy = json.loads(run("db", "copy", db, str(tmp_path / "c.db"), "--agent", "a1", "--json").stdout)
    assert [a["agent"] for a in copy["agents"]] == ["a1"]  # db copy's own --agent: which agents to copy
    migrated = json.loads(run("db", "migrate", "--db", db, "--json").stdout)  # db migrate's own --db
    assert Path(migrated["location"]) == Path(db).resolve()


def test_a_command_registered_later_gets_the_global_options(db: str) -> None:
    """The mechanism is generic: nothing per command (as `serve`, `keys`, `mcp` will be added)."""
    group = get_command(app)
    for path, command in _leaves(group):
        flags = {flag for p in command.get_params(_context(group)) for flag in p.opts}
        assert {"--db", "--agent", "--config", "--json"} <= flags, path


def _leaves(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    subs = getattr(command, "commands", None)
    if not subs:
        return [(path, command)]
    return [leaf for name, sub in subs.items() for leaf in _leaves(sub, (*path, name))]


def _context(group: Any) -> Any:
    return group.make_context("memlane", ["--help"], resilient_parsing=True)


# -- reads on what does not exist --------------------------------------------------------------------
READS = [
    ["threads"],
    ["history", "general"],
    ["context", "general"],
    ["recall", "hello"],
    ["facts"],
    ["memories"],
    ["reset", "general"],
    ["end", "general"],
    ["forget", "1"],
    ["prune", "--older-than-days", "1"],
    ["export", "out.jsonl"],
    ["reindex"],
    ["db", "status"],
    ["jobs"],
    ["stats"],
]


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a))
def test_a_read_on_a_missing_store_says_so_and_creates_nothing(tmp_path: Path, args: list[str]) -> None:
    missing = tmp_path / "typo" / "bot.db"
    result = run("--db", str(missing), *args, code=3)
    assert result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()] and "no memlane store at" in result.stderr
    assert not missing.parent.exists()


def test_the_default_store_is_not_created_by_a_read(tmp_path: Path) -> None:
    assert "no memlane store at" in run("threads", code=3).stderr
    assert not (tmp_path / "home").exists()
    run("add", "t", "user", "hi")  # a write creates it
    assert (tmp_path / "home" / "memlane.db").is_file()
    assert "t" in run("threads").stdout


@pytest.mark.parametrize(
    "args",
    [
        ["context", "NOSUCH"],
        ["history", "NOSUCH"],
        ["recall", "hi", "--thread", "NOSUCH"],
        ["export", "-", "-t", "NOSUCH"],
    ],
    ids=lambda a: a[0],
)
def test_an_unknown_thread_is_not_found(db: str, args: list[str]) -> None:
    run("--db", db, "add", "general", "user", "hi")
    result = run("--db", db, *args, code=3)
    assert result.stdout == "" and result.stderr.startswith("error: no thread 'NOSUCH'")


def test_import_of_a_missing_file_creates_no_store(db: str) -> None:
    assert "cannot open nope.jsonl" in run("--db", db, "import", "nope.jsonl", code=2).stderr
    assert not Path(db).exists()


# -- usage errors and help ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["add"], "Missing argument"),
        (["threads", "--agnet", "x"], "No such option: --agnet"),
        (["no-such-command"], "No such command"),
        (["--no-such-option"], "No such option"),
        (["remember", "x", "--importance", "high"], "Invalid value for '--importance' "),
        (["forget"], "FACT_ID or --all"),
        (["stats", "--db"], "requires an argument"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(db: str, args: list[str], needle: str) -> None:
    result = run(*args, code=2)
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and needle in line and "--help" in line, line
    assert "╭" not in result.stderr


def test_the_installed_script_prints_usage_errors_on_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "MEMLANE_HOME": str(tmp_path), "MEMLANE_EMBEDDER": "none"}
    done = subprocess.run([str(MEMLANE), "add", "t"], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "error: Missing argument 'role'. (see 'memlane add --help')\n"


def test_help_shows_flags_without_a_placeholder_and_the_global_options() -> None:
    for args in (["--help"], ["stats", "--help"], ["forget", "--help"], ["db", "copy", "--help"]):
        text = run(*args).stdout
        assert "<bool>" not in text, args
        assert "--json" in text, args
    stats = run("stats", "--help").stdout
    assert "Global options" in stats and "--agent" in stats
    # a paragraph wrapped in the docstring is one paragraph on screen
    assert "process that made the calls knows it" in " ".join(stats.replace("│", " ").split())
    assert "Usage" in runner.invoke(app, []).stdout  # bare `memlane` still shows the help
    assert "copy" in runner.invoke(app, ["db"]).stdout  # and so does a bare group


# -- output -----------------------------------------------------------------------------------------------
def test_piped_tables_are_not_cut_at_80_columns(db: str) -> None:
    long_key = "a-thread-with-a-rather-long-name-" + "x" * 40
    run("--db", db, "add", long_key, "user", "hi", "--user", "someone-with-a-long-user-name")
    table = run("--db", db, "threads").stdout
    assert long_key in table and "someone-with-a-long-user-name" in table
    assert max(len(line) for line in table.splitlines()) > 80
    text = "word " * 60
    run("--db", db, "add", long_key, "user", text.strip())
    history = run("--db", db, "history", long_key).stdout
    assert text.strip() in history  # on one line, not folded at 80 columns
    narrow = run("--db", db, "threads", env={"COLUMNS": "60"}).stdout  # an explicit width is kept
    assert max(len(line) for line in narrow.splitlines()) <= 60


def test_a_tool_call_only_message_shows_what_it_called(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDER", "fake")
    run("--db", db, "add", "w", "assistant", "", "--tool-calls", TOOL_CALLS)
    run("--db", db, "add", "x", "user", "I like bananas")
    hits = js("--db", db, "--json", "recall", "get_weather Paris")["hits"]
    [hit] = [h for h in hits if h["thread"] == "w"]
    assert hit["text"] == '→ calls get_weather({"city": "Paris"})'
    assert '→ calls get_weather({"city": "Paris"})' in run("--db", db, "recall", "get_weather Paris").stdout
    assert "→ calls get_weather" in run("--db", db, "history", "w").stdout


def test_progress_is_shown_on_a_terminal_only(db: str, tmp_path: Path) -> None:
    run("--db", db, "add", "t", "user", "hello")
    backup = str(tmp_path / "b.jsonl")
    quiet = run("--db", db, "export", backup)
    assert quiet.stderr == ""  # not a terminal: no bar
    terminal = {"TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "0"}
    assert "exporting" in run("--db", db, "export", backup, env=terminal).stderr
    imported = run("--db", str(tmp_path / "r.db"), "import", backup, env=terminal)
    assert "importing 3 lines in one transaction" in imported.stderr and "Imported 1 thread" in imported.stdout
    assert "embedding" in run("--db", db, "reindex", env={**terminal, "MEMLANE_EMBEDDER": "fake"}).stderr
    # --json and the export itself stay clean on stdout
    assert json.loads(run("--db", db, "--json", "export", backup, env=terminal).stdout)["records"] == 3
    lines = run("--db", db, "export", "-", env=terminal).stdout.splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["header", "thread", "message"]


def test_json_context_is_the_documented_object(db: str) -> None:
    run("--db", db, "add", "general", "user", "hello", "--user", "alice")
    doc = js("--db", db, "context", "general", "--user", "alice", "--json")
    assert doc["messages"][-1]["role"] == "user" and doc["messages"][-1]["content"] == "hello"
    assert {"tokens", "budget", "encoding", "dropped_messages", "sections"} <= set(doc)
    page = (Path(__file__).parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if line.startswith("| `context THREAD`"))
    assert "`messages` is the `to_messages()` list" in row and "`sections`" in row


# -- memlane chat -------------------------------------------------------------------------------------------
def test_chat_runs_the_jobs_itself_so_a_memory_follows_end(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMLANE_WORKER", raising=False)
    script = "I'm Alice and I adopted a cat called Miso\n/end\n/memories\n"
    out = run("--db", db, "chat", "--user", "alice", "-t", "t1", stdin=script).stdout
    assert "Ended t1; making a memory of it" in out
    assert "No memories yet" not in out
    assert re.search(r"#\d+ \[Created: .*Miso", out), out


SEED_002_CONFIG = """\
memory:
  enabled: true # Enable conversation memory
  storage_path: ~/.harombe/memory.db # SQLite database location
  max_history_tokens: 4096 # Token limit for context
  auto_prune_days: 30 # Auto-delete old sessions
  strategy: simple # simple, summarization, hybrid
"""
SEED_002_COMMANDS = ["/sessions", "/load", "/save", "/history", "/clear", "/forget"]


def test_seed_002_config_block_and_chat_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    config = tmp_path / "harombe.yaml"
    config.write_text(SEED_002_CONFIG)
    run("--config", str(config), "add", "s1", "user", "hello from the seed")
    store = tmp_path / ".harombe" / "memory.db"
    assert store.is_file()  # storage_path, ~ expanded
    context = js("--config", str(config), "--json", "context", "s1")
    assert context["budget"] == 4096 and context["sections"]["facts"] == []  # strategy simple
    listed = run("--config", str(config), "chat", stdin="/help\n").stdout
    assert all(re.search(rf"^{command}\b", listed, re.M) for command in SEED_002_COMMANDS), listed
    script = "/sessions\n/load s1\n/save\n/history\n/clear\n/load s1\n/forget\n/sessions\n"
    out = run("--config", str(config), "chat", stdin=script).stdout
    assert "Continuing s1." in out and f"s1: 1 message stored in {store}" in out
    assert "hello from the seed" in out and "s1 stays stored: /load s1 to go back" in out
    assert "Deleted s1 and its messages from memory" in out
    assert "No conversations stored yet." in out  # /sessions after /forget
