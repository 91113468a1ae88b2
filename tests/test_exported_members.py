"""``memlane.__all__`` is the public API: sorted, complete, and every name in it importable."""

from __future__ import annotations

import ast
import inspect
import types
from pathlib import Path

import memlane
import memlane.errors

INIT = Path(inspect.getfile(memlane))
PRIVATE_BUT_PUBLIC = {"__version__"}


def _names_bound_in_init() -> set[str]:
    """Names ``memlane/__init__.py`` itself binds at top level: imports, assignments, defs, classes."""
    names: set[str] = set()
    for node in ast.parse(INIT.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module != "__future__":
            names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
    return {n for n in names if not n.startswith("_") or n in PRIVATE_BUT_PUBLIC}


def test_all_is_sorted() -> None:
    assert memlane.__all__ == sorted(memlane.__all__)
    assert len(set(memlane.__all__)) == len(memlane.__all__)


def test_all_lists_every_public_name_of_the_package() -> None:
    assert set(memlane.__all__) == _names_bound_in_init() - {"importlib"} | set(memlane._EDGES)
    # nothing public reaches the package namespace without being exported (submodules aside)
    public = {
        name
        for name, value in vars(memlane).items()
        if (not name.startswith("_") or name in PRIVATE_BUT_PUBLIC)
        and not isinstance(value, types.ModuleType)
        and name != "annotations"  # from __future__ import annotations
    }
    assert public == set(memlane.__all__) - set(memlane._EDGES) - {n for n in memlane._EDGES if n in vars(memlane)} | {
        n for n in memlane._EDGES if n in vars(memlane)
    }


def test_edges_load_on_first_use_only() -> None:
    import subprocess
    import sys

    code = "import sys, memlane; assert 'memlane.chat' not in sys.modules; memlane.ChatCommands; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "ok"


def test_every_exported_name_exists() -> None:
    for name in memlane.__all__:
        assert getattr(memlane, name, None) is not None, name
    namespace: dict[str, object] = {}
    exec("from memlane import *", namespace)  # what `import *` gives a user
    assert set(memlane.__all__) <= set(namespace)


def test_every_error_a_user_may_catch_is_exported() -> None:
    assert set(memlane.errors.__all__) <= set(memlane.__all__)
    for name in memlane.errors.__all__:
        error = getattr(memlane, name)
        assert issubclass(error, memlane.MemlaneError)
        assert error is getattr(memlane.errors, name)


def test_version_is_the_package_version() -> None:
    from importlib.metadata import version

    assert memlane.__version__ == version("memlane")


def test_import_memlane_does_not_load_the_edges() -> None:
    import subprocess
    import sys

    code = "import sys, memlane; print(sorted(m for m in sys.modules if m.startswith('memlane.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "memlane.client" not in out and "memlane.server" not in out
    assert memlane.Client.__module__ == "memlane.client.base"
