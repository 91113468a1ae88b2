"""The CLI as the README and `--help` present it (issue 37): the global --agent counts for `keys create`,
help pages never cut an option's name at 80 columns, and `import` puts an export where its agent was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner, Result

from memlane import Memory, load_settings
from memlane.cli.app import app
from memlane.cli.group import _walk

runner = CliRunner()


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")
    monkeypatch.setenv("MEMLANE_HOME", str(tmp_path / "home"))


def run(*args: str, code: int = 0, env: dict[str, str] | None = None, stdin: str | None = None) -> Result:
    result = runner.invoke(app, list(args), env=env, input=stdin)
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    return result


def js(*args: str, stdin: str | None = None) -> Any:
    return json.loads(run(*args, stdin=stdin).stdout)


def _memory(db: Path | str, agent: str = "default") -> Memory:
    return Memory(db, agent=agent, settings=load_settings(embedder="none", worker="none"), llm=None)


# -- keys create and the global --agent ------------------------------------------------------------
def test_the_readme_key_command_makes_a_user_key_for_the_global_agent(tmp_path: Path) -> None:
    db = str(tmp_path / "bot.db")
    user_key = js("--db", db, "--agent", "support-bot", "--json", "keys", "create", "--user", "alice")
    assert (user_key["scope"], user_key["agent"], user_key["user"]) == ("user", "support-bot", "alice")
    agent_key = js("--db", db, "--json", "keys", "create", "--agent", "support-bot")
    assert (agent_key["scope"], agent_key["agent"], agent_key["user"]) == ("agent", "support-bot", None)
    behind = js("--db", db, "--json", "keys", "create", "--label", "backend", "-a", "helpdesk")
    assert (behind["scope"], behind["agent"]) == ("agent", "helpdesk")
    with _memory(db) as mem:
        assert mem.authenticate(user_key["key"]).agent == "support-bot"
    # still refused: no scope at all, and an admin key tied to an agent
    run("--db", db, "keys", "create", code=2)
    run("--db", db, "keys", "create", "--user", "alice", code=2)
    run("--db", db, "keys", "create", "--admin", "--agent", "bot", code=2)


# -- help at 80 columns ----------------------------------------------------------------------------
def test_no_help_page_cuts_an_option_name_at_80_columns() -> None:
    cut = []
    for path, command in _walk(get_command(app)):
        out = run(*path, "--help", env={"COLUMNS": "80"}).stdout
        panels = "\n".join(line for line in out.splitlines() if line.startswith("│"))
        assert max(len(line) for line in out.splitlines()) <= 80
        for param in command.params:
            for flag in (*param.opts, *param.secondary_opts):
                if flag.startswith("--") and flag not in panels:
                    cut.append((" ".join(path), flag))
    assert cut == []
    assert "--workers-in-process" in run("serve", "--help", env={"COLUMNS": "80"}).stdout.split("Options")[1]


# -- import puts an export where its agent was -----------------------------------------------------
def test_import_goes_to_the_agent_named_in_the_export_and_says_so(tmp_path: Path) -> None:
    source = str(tmp_path / "g.db")
    run("--db", source, "--agent", "g", "add", "general", "user", "hello from g", "--user", "alice")
    backup = tmp_path / "backup.jsonl"
    run("--db", source, "--agent", "g", "export", str(backup))

    fresh = str(tmp_path / "new.db")
    said = run("--db", fresh, "import", str(backup)).stdout
    assert said.strip().count("\n") == 0 and "agent 'g'" in said, said
    with _memory(fresh, "g") as mem:
        assert [m.content for m in mem.history("general")] == ["hello from g"]
    with _memory(fresh) as mem:
        assert mem.threads() == []  # nothing went to agent 'default'

    other = js("--db", str(tmp_path / "other.db"), "--json", "--agent", "h", "import", str(backup))
    assert other["agent"] == "h" and other["imported"]["messages"] == 1
    moved = run("--db", str(tmp_path / "moved.db"), "import", str(backup), "--agent", "h").stdout
    assert "agent 'h'" in moved and "'g'" in moved  # where it went, and that the export was of another agent
    piped = js("--db", str(tmp_path / "piped.db"), "--json", "import", "-", stdin=backup.read_text())
    assert piped["agent"] == "g" and piped["imported"]["messages"] == 1


def test_a_mistyped_agent_is_an_error_not_an_empty_memory(tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    cli = [str(Path(sys.executable).parent / "memlane"), "--db", db]
    env = {**os.environ, "MEMLANE_EMBEDDER": "none"}
    subprocess.run([*cli, "--agent", "bot", "remember", "the sky is blue"], check=True, env=env, capture_output=True)
    wrong = subprocess.run([*cli, "--agent", "nosuchbot", "facts"], env=env, capture_output=True, text=True)
    assert wrong.returncode == 3 and "no agent 'nosuchbot'" in wrong.stderr and "bot" in wrong.stderr
    right = subprocess.run([*cli, "--agent", "bot", "facts"], env=env, capture_output=True, text=True)
    assert right.returncode == 0 and "the sky is blue" in right.stdout
