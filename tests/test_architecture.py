"""The folders draw the architecture: each layer imports only the layers below it (docs/architecture.md).

Imports are read from the source (not by importing it): every ``import``/``from ... import`` of a memlane
module counts, inside functions too (a lazy import still runs), except those under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "memlane"

# Bottom to top. A module may import its own layer and the layers below it, never one above.
LAYERS: list[tuple[str, set[str]]] = [
    (
        "foundation",
        {"errors", "types", "timestamps", "validation", "texts", "tokens", "config", "context", "exchange", "pools"},
    ),
    ("providers", {"embeddings", "llm"}),
    ("store", {"store"}),
    ("retrieval", {"retrieval"}),
    ("pipeline", {"pipeline"}),
    ("facade", {"memory", "async_memory"}),
]
# Edges call the facade; the core never imports them. `testing` holds test stand-ins (LLM server, PostgreSQL).
EDGES = {"cli", "server", "client", "mcp", "chat", "integrations", "testing", "__main__"}
TOP = {"__init__", "py"}  # memlane/__init__.py re-exports the public API; py.typed is no module


def _layer_of(top: str) -> int | None:
    for index, (_, members) in enumerate(LAYERS):
        if top in members:
            return index
    return None


def _module_name(path: Path) -> list[str]:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level memlane module) of each run-time import in ``path``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name[:-1]
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package[: len(package) - (child.level - 1)]
                    target = [*base, *(child.module.split(".") if child.module else [])]
                else:
                    target = (child.module or "").split(".")
                if target[0] == "memlane":
                    if len(target) > 1:
                        found.append((child.lineno, target[1]))
                    else:  # from memlane import x
                        found.extend((child.lineno, alias.name) for alias in child.names)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    parts = alias.name.split(".")
                    if parts[0] == "memlane" and len(parts) > 1:
                        found.append((child.lineno, parts[1]))
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE or p.stem != "__init__")


def test_every_top_level_module_has_a_place() -> None:
    tops = {p.stem if p.parent == PACKAGE else p.relative_to(PACKAGE).parts[0] for p in PACKAGE.iterdir()}
    tops = {t.removesuffix(".py") for t in tops if not t.startswith((".", "__pycache__"))}
    placed = set().union(*(members for _, members in LAYERS)) | EDGES | TOP
    assert tops - placed == set(), "new top-level modules must be given a layer in this test and in the docs"


def test_layers_import_only_downwards() -> None:
    wrong: list[str] = []
    for path in _sources():
        top = _module_name(path)[1]
        own = _layer_of(top)
        for line, target in _imports(path):
            if target in EDGES and top not in EDGES:
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} imports the edge {target}")
                continue
            if own is None:  # an edge may import any layer
                continue
            theirs = _layer_of(target)
            if theirs is not None and theirs > own:
                wrong.append(
                    f"{path.relative_to(PACKAGE)}:{line} ({LAYERS[own][0]}) imports {target} ({LAYERS[theirs][0]})"
                )
    assert wrong == []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_backends_do_not_import_each_other(backend: str) -> None:
    other = "postgres" if backend == "sqlite" else "sqlite"
    for path in (PACKAGE / "store" / backend).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                assert not (node.level == 2 and module.startswith(other)), path
                assert not module.startswith(f"memlane.store.{other}"), path


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    # The checker must be able to fail: a store module importing the pipeline at run time is found,
    # the same import under TYPE_CHECKING is not.
    bad = PACKAGE / "store" / "_probe_layers.py"
    try:
        bad.write_text("from ..pipeline import Pipeline\n", encoding="utf-8")
        assert _imports(bad) == [(1, "pipeline")]
        bad.write_text(
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..memory import Memory\n", encoding="utf-8"
        )
        assert _imports(bad) == []
        bad.write_text("def f():\n    from memlane.cli import app\n", encoding="utf-8")
        assert _imports(bad) == [(2, "cli")]
    finally:
        bad.unlink()


def test_public_import_paths_still_work() -> None:
    import memlane.store
    from memlane import Memory
    from memlane.memory import Memory as FacadeMemory
    from memlane.store.sqlite import SQLiteStore

    assert Memory is FacadeMemory
    assert memlane.store.SQLiteStore is SQLiteStore
