"""The TypeScript client (clients/typescript) stays in step with the server: its generated types are those of
the server's current OpenAPI document, it calls every agent route, and it offers every call of the Python
client. (Its own tests, against a real ``memlane serve``, run with ``npm test``; ``.ci/run`` runs them.)"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from memlane import Memory, load_settings
from memlane.client.calls import CALLS
from memlane.memory.keys import NewApiKey
from memlane.pipeline.usage import BudgetStatus
from memlane.server import create_app
from memlane.types import UsageTotals

PACKAGE = Path(__file__).resolve().parents[1] / "clients" / "typescript"
GENERATOR = PACKAGE / "node_modules" / "openapi-typescript"
GENERATED = PACKAGE / "src" / "generated" / "openapi.ts"
CLIENT = (PACKAGE / "src" / "client.ts").read_text(encoding="utf-8")
TYPES = (PACKAGE / "src" / "types.ts").read_text(encoding="utf-8")

#: Python client calls whose TypeScript name is not simply their camelCase.
RENAMED = {"end": "endThread", "reset": "resetThread", "list_memories": "memories", "usage_totals": "usage"}
#: Routes the TypeScript client leaves out on purpose, and why.
NOT_CALLED = {
    ("patch", "/v1/agents/{agent}/facts/{fact_id}/visibility"): "the same as PUT, which setVisibility sends",
}


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _document(tmp_path: Path) -> dict[str, object]:
    with Memory(tmp_path / "doc.db", settings=load_settings(embedder="none", worker="none"), llm=None) as mem:
        document: dict[str, object] = create_app(mem).openapi()
    return document


def test_the_generated_types_are_those_of_the_servers_current_document(tmp_path: Path) -> None:
    node = shutil.which("node")
    needed = {
        "node": node is not None,
        "npm": shutil.which("npm") is not None,
        "clients/typescript/node_modules (run `npm ci` there)": GENERATOR.is_dir(),
    }
    missing = [what for what, ok in needed.items() if not ok]
    if missing:
        if _in_ci():
            pytest.fail(f"CI must check the TypeScript client's types, but {', '.join(missing)} is missing")
        pytest.skip(f"cannot regenerate the TypeScript client's types: {', '.join(missing)} missing")
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(_document(tmp_path)), encoding="utf-8")
    fresh = tmp_path / "openapi.ts"
    subprocess.run([str(node or "node"), "scripts/gen.mjs", "--spec", str(spec), "--out", str(fresh)], cwd=PACKAGE,
                   check=True, capture_output=True, timeout=120)  # fmt: skip
    committed, current = GENERATED.read_text(encoding="utf-8"), fresh.read_text(encoding="utf-8")
    diff = "".join(list(difflib.unified_diff(committed.splitlines(True), current.splitlines(True),
                                             "committed", "from the server now"))[:60])  # fmt: skip
    assert committed == current, f"{GENERATED} is out of date: run `npm run gen` in clients/typescript\n{diff}"


def _routes_called() -> set[tuple[str, str]]:
    calls = set(re.findall(r'#call\(\s*"(\w+)",\s*"([^"]+)"', CLIENT))
    calls |= {(m.lower(), p) for m, p in re.findall(r'method: "(\w+)",\s*path: this\.#path\("([^"]+)"\)', CLIENT)}
    return calls


def test_the_client_calls_every_route_of_an_agent(tmp_path: Path) -> None:
    paths = _document(tmp_path)["paths"]
    assert isinstance(paths, dict)
    served = {(method, path) for path, ops in paths.items() if path.startswith("/v1/") for method in ops}
    called = _routes_called()
    assert called - served == set(), "the client calls routes the server does not have"
    assert served - called - set(NOT_CALLED) == set(), "routes the TypeScript client does not offer yet"
    assert set(NOT_CALLED) <= served - called, "NOT_CALLED lists a route the server dropped or the client calls"
    assert ("post", "/v1/agents/{agent}/import") in called and ("get", "/v1/agents/{agent}/export") in called


def test_the_client_has_every_call_of_the_python_client() -> None:
    methods = set(re.findall(r"^  (?:async \*?|\*)?([a-zA-Z]\w*)\(", CLIENT, flags=re.MULTILINE))
    wanted = {RENAMED.get(name) or re.sub(r"_(\w)", lambda m: m.group(1).upper(), name) for name in CALLS}
    wanted |= {"export", "exportRecords", "import"}
    assert wanted - methods == set()


@pytest.mark.parametrize("kind", [UsageTotals, BudgetStatus, NewApiKey])
def test_hand_written_types_have_the_fields_the_server_sends(kind: type) -> None:
    """The few shapes the OpenAPI document leaves untyped are written by hand in types.ts; they must list the
    dataclass's fields (what the server serializes), no more and no fewer."""
    body = re.search(rf"export interface {kind.__name__} \{{(.*?)\n\}}", TYPES, flags=re.DOTALL)
    assert body, f"no interface {kind.__name__} in types.ts"
    fields = re.findall(r"^\s+(\w+)\??:", body.group(1), flags=re.MULTILINE)
    assert fields == [f.name for f in dataclasses.fields(kind)]
