"""The README's examples run, so they cannot rot; its reference sections cover what the code has."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command

import memlane.errors
from memlane import Settings
from memlane.cli.app import app

README = Path(__file__).resolve().parent.parent / "README.md"
MEMLANE = Path(sys.executable).parent / "memlane"
FRESH_MACHINE = [
    "python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -e . && .venv/bin/memlane demo",
    "python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -e '.[test]' && .venv/bin/pytest",
]


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.S | re.M)


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _env(tmp_path: Path) -> dict[str, str]:
    """A newcomer's environment: no memlane settings but a home of their own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    env["MEMLANE_HOME"] = str(tmp_path / "home")
    return env


def test_fresh_machine_commands_are_shown_verbatim() -> None:
    section = _section("Quick start on a fresh machine")
    bash = [block.strip() for block in re.findall(r"```bash\n(.*?)```", section, flags=re.S)]
    assert bash == FRESH_MACHINE


def test_python_quick_start_runs(tmp_path: Path) -> None:
    (code,) = [block for block in _blocks("python") if "from memlane import Memory" in block]
    assert len(code.strip().splitlines()) <= 12
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "fact Alice loves hiking in the Alps" in done.stdout
    assert "'role': 'system'" in done.stdout
    assert (tmp_path / "quickstart.db").is_file()


def _tour() -> list[str]:
    (block,) = [b for b in _blocks("bash") if "--db tour.db" in b]
    lines = [line.strip() for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert all(line.startswith("memlane ") for line in lines), lines
    return lines


def test_cli_tour_covers_the_commands() -> None:
    words = {word for line in _tour() for word in shlex.split(line)[1:]}
    wanted = {"add", "remember", "recall", "context", "history", "threads", "forget", "reset", "export", "import"}
    assert wanted | {"db", "status", "--json"} <= words


def test_cli_tour_runs(tmp_path: Path) -> None:
    for line in _tour():
        args = shlex.split(line)
        done = subprocess.run(
            [str(MEMLANE), *args[1:]],
            cwd=tmp_path,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr
    assert (tmp_path / "backup.jsonl").is_file() and (tmp_path / "restored.db").is_file()


def test_every_command_is_in_the_command_table() -> None:
    section = _section("CLI tour")
    for name in get_command(app).commands:  # type: ignore[attr-defined]
        assert f"`{name}" in section, f"memlane {name} is missing from the README's command table"


@pytest.mark.parametrize("name", sorted(Settings.model_fields))
def test_every_setting_is_documented(name: str) -> None:
    assert f"MEMLANE_{name.upper()}`" in _section("Configuration")


@pytest.mark.parametrize("name", sorted(memlane.errors.__all__))
def test_every_error_is_in_the_tree(name: str) -> None:
    assert re.search(rf"\b{name}\b", _section("Errors"))
