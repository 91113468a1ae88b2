"""The README and docs/ for a user: their examples run, so they cannot rot; their reference pages cover what the
code has; their links lead somewhere; their figures come from bench/RESULTS.md; and they speak of behaviours,
never of the design documents memlane was built against."""

from __future__ import annotations

import inspect
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.main import get_command

import memlane
import memlane.errors
from memlane import Settings
from memlane.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
RESULTS = ROOT / "bench" / "RESULTS.md"
MEMLANE = Path(sys.executable).parent / "memlane"
FRESH_MACHINE = [
    "python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -e . && .venv/bin/memlane demo",
    "python3 -m venv .venv && .venv/bin/pip install -c constraints.txt -e '.[test]' && .venv/bin/pytest",
]
#: What a user reads: the README, docs/ (but the page that maps the design documents to features), --help and
#: every other text of the edges (CLI, service and its UI templates, chat commands, MCP), the examples, and the
#: facade's docstrings that pydoc shows.
USER_FACING = [
    README,
    *sorted(p for p in DOCS.rglob("*.md") if p.name != "design-coverage.md"),
    *sorted((ROOT / "src" / "memlane").glob("cli/**/*.py")),
    *sorted((ROOT / "src" / "memlane").glob("server/**/*.py")),
    *sorted((ROOT / "src" / "memlane").glob("server/**/*.html")),
    *sorted((ROOT / "src" / "memlane").glob("chat/**/*.py")),
    *sorted((ROOT / "src" / "memlane").glob("mcp/**/*.py")),
    *sorted((ROOT / "src" / "memlane").glob("memory/**/*.py")),
    *[ROOT / "src" / "memlane" / name for name in ("__init__.py", "config.py", "context.py", "types.py")],
    *sorted((ROOT / "examples").glob("*.py")),
]
#: "seed 000", "(seed", "seeds 002 and 003", "the seed's texts": design-document ids. A benchmark's ``--seeds``
#: option (random placements) is not one.
JARGON = re.compile(r"(?<!--)\bseeds?\b", re.IGNORECASE)


def _blocks(path: Path, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", path.read_text(encoding="utf-8"), flags=re.S | re.M)


def _section(title: str, path: Path = README) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _env(tmp_path: Path) -> dict[str, str]:
    """A newcomer's environment: no memlane settings but a home of their own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    env["MEMLANE_HOME"] = str(tmp_path / "home")
    return env


def _run_python(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def _run_memlane_lines(lines: list[str], tmp_path: Path) -> None:
    for line in lines:
        args = shlex.split(line, comments=True)
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
        if args[1:2] == ["recall"] or "recall" in args[1:4]:
            # A recall shown to a newcomer finds what the lines before it stored (it once found nothing).
            assert "Nothing" not in done.stdout, f"{line}\n{done.stdout}"


# -- the README: what, install, first use, the ways in, the figures -------------------------------------------


def test_readme_is_short_and_in_a_newcomers_order() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    titles = re.findall(r"^## (.+)$", text, flags=re.M)
    wanted = ["Quick start on a fresh machine", "Python quick start", "Ways in", "How good, how fast"]
    assert [t for t in titles if t in wanted] == wanted, titles
    ways = _section("Ways in")
    ways_in = ("Command line", "AsyncMemory", "Chat commands", "MCP", "Agent frameworks", "HTTP service", "TypeScript")
    for way in (*ways_in, "UI"):
        heading = re.search(rf"^### .*{re.escape(way)}.*$", ways, flags=re.M)
        assert heading, f"no section for {way}"
        body = ways[heading.end() : ways.find("\n### ", heading.end())]
        assert "](docs/" in body, f"the {way} section links to no page in docs/"
        assert "```" in body or "![" in body, f"the {way} section shows no snippet"


def test_fresh_machine_commands_are_shown_verbatim() -> None:
    section = _section("Quick start on a fresh machine")
    bash = [block.strip() for block in re.findall(r"```bash\n(.*?)```", section, flags=re.S)]
    assert bash == FRESH_MACHINE


def test_python_quick_start_runs(tmp_path: Path) -> None:
    (code,) = [block for block in _blocks(README, "python") if "from memlane import Memory" in block]
    assert len(code.strip().splitlines()) <= 12
    done = _run_python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "fact Alice loves hiking in the Alps" in done.stdout
    assert "'role': 'system'" in done.stdout
    assert (tmp_path / "quickstart.db").is_file()


def _python_examples() -> list[tuple[str, int, str]]:
    pages = [README, *sorted(DOCS.glob("*.md"))]
    found = [(p.relative_to(ROOT).as_posix(), n, code) for p in pages for n, code in enumerate(_blocks(p, "python"))]
    return [example for example in found if "from memlane import Memory\n" not in example[2]]  # the quick start above


EXAMPLES = _python_examples()


@pytest.mark.parametrize(("page", "n", "code"), EXAMPLES, ids=[f"{page}-{n}" for page, n, _ in EXAMPLES])
def test_python_examples_run(page: str, n: int, code: str, tmp_path: Path) -> None:
    """Every ```python block of the README and docs/ runs as shown, offline, in an empty folder."""
    done = _run_python(code, tmp_path)
    assert done.returncode == 0, f"{page}, python block {n}:\n{done.stderr}"
    assert "Traceback" not in done.stderr
    assert done.stdout.strip(), f"{page}, python block {n} shows nothing"


def test_readme_command_line_examples_run(tmp_path: Path) -> None:
    """The README's shell blocks made only of `memlane` commands (not a server or a REPL) run as shown."""
    blocks = [
        [line.strip() for line in block.splitlines() if line.strip() and not line.startswith("#")]
        for block in _blocks(README, "bash")
    ]
    runnable = [
        lines
        for lines in blocks
        if lines
        and all(line.startswith("memlane ") for line in lines)
        and not any(word in shlex.split(line) for line in lines for word in ("serve", "chat", "mcp", "worker"))
    ]
    assert runnable, "the README shows no memlane command that can run"
    for lines in runnable:
        _run_memlane_lines(lines, tmp_path)


# -- docs/cli.md, docs/configuration.md and the README's errors cover what the code has ------------------------


def _tour() -> list[str]:
    (block,) = [b for b in _blocks(DOCS / "cli.md", "bash") if "--db tour.db" in b]
    lines = [line.strip() for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert all(line.startswith("memlane ") for line in lines), lines
    return lines


def test_cli_tour_covers_the_commands() -> None:
    words = {word for line in _tour() for word in shlex.split(line)[1:]}
    wanted = {"add", "remember", "recall", "context", "history", "threads", "forget", "reset", "export", "import"}
    assert wanted | {"db", "status", "--json"} <= words


def test_cli_tour_runs(tmp_path: Path) -> None:
    _run_memlane_lines(_tour(), tmp_path)
    assert (tmp_path / "backup.jsonl").is_file() and (tmp_path / "restored.db").is_file()


def test_every_command_is_in_the_command_table() -> None:
    section = _section("CLI tour", DOCS / "cli.md")
    for name in get_command(app).commands:  # type: ignore[attr-defined]
        assert f"`{name}" in section, f"memlane {name} is missing from docs/cli.md's command table"


@pytest.mark.parametrize("name", sorted(Settings.model_fields))
def test_every_setting_is_documented(name: str) -> None:
    assert f"MEMLANE_{name.upper()}`" in _section("Configuration", DOCS / "configuration.md")


@pytest.mark.parametrize("name", sorted(memlane.errors.__all__))
def test_every_error_is_in_the_tree(name: str) -> None:
    assert re.search(rf"\b{name}\b", _section("Errors"))
    assert re.search(rf"\b{name}\b", (DOCS / "errors.md").read_text(encoding="utf-8"))


def test_every_public_name_is_in_the_api_page() -> None:
    page = (DOCS / "api.md").read_text(encoding="utf-8")
    for name in memlane.__all__:
        assert f"| `{name}` |" in page, f"docs/api.md does not list memlane.{name}"
    for name, _ in inspect.getmembers(memlane.Memory):
        if not name.startswith("_"):
            assert f"`{name}`" in page, f"docs/api.md does not list Memory.{name}"


# -- links and figures ---------------------------------------------------------------------------------------


def _anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a page's headings (code blocks skipped; a repeated heading gets -1, -2 ...)."""
    seen: dict[str, int] = {}
    anchors: set[str] = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
            continue
        heading = None if in_code else re.match(r"^#{1,6} (.*)$", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            anchors.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
            seen[slug] = seen.get(slug, 0) + 1
    return anchors | set(re.findall(r'<a id="([^"]+)"', path.read_text(encoding="utf-8")))


LINKED = [
    README,
    *sorted(DOCS.glob("*.md")),
    ROOT / "bench" / "README.md",
    ROOT / "bench" / "experiments" / "README.md",
]


@pytest.mark.parametrize("page", LINKED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_lead_somewhere(page: Path) -> None:
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith(("http://", "https://")):
            continue
        file, _, anchor = target.partition("#")
        path = (page.parent / file).resolve() if file else page
        assert path.exists(), f"{page.name} links to {target}, which does not exist"
        if anchor:
            assert anchor in _anchors(path), f"{page.name} links to {target}: no such heading"


def test_results_start_with_the_current_figures() -> None:
    text = RESULTS.read_text(encoding="utf-8")
    assert text.index("## Current figures") < text.index("\n## Core")
    for row in re.findall(r"^\|.*\|$", _section("Current figures", RESULTS), flags=re.M)[2:]:
        assert "`" in row.split("|")[4], f"a current figure without its command: {row}"
        assert "](#" in row, f"a current figure that links to no section: {row}"


def test_readme_figures_come_from_the_results() -> None:
    """Each row of "How good, how fast" links to its section of bench/RESULTS.md, and every number in its
    memlane and peer columns is written in RESULTS.md: a figure nobody measured cannot slip in."""
    rows = re.findall(r"^\|.*\|$", _section("How good, how fast"), flags=re.M)[2:]
    assert 1 <= len(rows) <= 12
    results = RESULTS.read_text(encoding="utf-8")
    anchors = _anchors(RESULTS)
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        links = re.findall(r"\]\(bench/RESULTS\.md#([^)]+)\)", cells[0])
        assert links and all(anchor in anchors for anchor in links), row
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", cells[4]), row
        assert cells[3].startswith("`bench/"), row
        for number in re.findall(r"\d[\d,.]*\d|\d", re.sub(r"\]\([^)]*\)", "", cells[1] + " " + cells[2])):
            assert number in results, f"{number} (README, {cells[0][:40]}...) is not in bench/RESULTS.md"


# -- no design-document ids in what a user reads ---------------------------------------------------------------


def test_user_facing_text_names_behaviours_not_design_documents() -> None:
    assert len(USER_FACING) > 40
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in USER_FACING
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if JARGON.search(line)
    ]
    assert not found, "design-document ids in user-facing text:\n" + "\n".join(found)


def test_the_jargon_check_would_catch_one() -> None:
    for line in ("Uninstall an agent (seed 001)", "Seed 000's reply texts", "seeds 000, 002", "the seed's texts"):
        assert JARGON.search(line), line
    assert not JARGON.search("bench/preferences.py --seeds 8")
