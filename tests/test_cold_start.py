"""A short-lived process pays only for what it uses (issue 43): `import memlane`, `memlane --help` and the
read commands load no model, no service and no async machinery; `memlane add` stores its message with its
vector; a one-shot recall stays small. Each case is a fresh interpreter, as a user's shell would start it.
Timings are not asserted here (a shared machine's load would make them flaky): bench/startup.py measures them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memlane import Memory, load_settings

#: Third-party packages `import memlane` may load (the token counter's module; its vocabulary loads on first
#: count). NumPy comes with a store's backend, pydantic with the settings: both with the first Memory(...).
CORE_PACKAGES = {"quicktok"}
#: What the interpreter's start-up may load, and ``org`` (the standard library's ``copy`` probes for Jython's
#: ``org.python.core``, which ``-X importtime`` lists).
STARTUP = {"sitecustomize", "usercustomize", "_distutils_hack", "org"}
#: Standard-library packages the core must not need at import: the async machinery, TLS and HTTP, email
#: (pulled in by pydantic's plugin loader), process pools.
NOT_AT_IMPORT = {"asyncio", "ssl", "http", "email", "multiprocessing", "concurrent.futures.process"}
#: memlane's modules `import memlane` may load: the foundation the facade needs, the facade, retrieval, the
#: store's contract, and the pipeline's dispatcher, job worker and usage ledger (not its steps and prompts).
CORE_MODULES = {
    "memlane",
    "memlane.context",
    "memlane.errors",
    "memlane.exchange",
    "memlane.pools",
    "memlane.texts",
    "memlane.timestamps",
    "memlane.tokens",
    "memlane.types",
    "memlane.validation",
    "memlane.pipeline",
    "memlane.pipeline.core",
    "memlane.pipeline.extractive",
    "memlane.pipeline.usage",
    "memlane.pipeline.worker",
    "memlane.store",
    "memlane.store.base",
}
CORE_PACKAGES_OF_MEMLANE = ("memlane.memory", "memlane.retrieval")
#: Never in a process that does not use them: models, providers' HTTP, the service and MCP edges.
HEAVY = {"onnxruntime", "onnx", "tokenizers", "httpx", "fastapi", "uvicorn", "starlette", "mcp", "pydantic_settings"}


def _imported(args: list[str], env: dict[str, str] | None = None) -> set[str]:
    """Every module a fresh ``python -X importtime ARGS`` imported."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "imported package" not in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


def _top(names: set[str]) -> set[str]:
    return {name.split(".")[0] for name in names}


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    return {**env, "MEMLANE_HOME": str(home), **extra}


def test_import_memlane_loads_only_the_core(tmp_path: Path) -> None:
    names = _imported(["-c", "import memlane"], _env(tmp_path))
    outside = {
        top for top in _top(names) if top not in sys.stdlib_module_names and top not in CORE_PACKAGES | STARTUP
    } - {"memlane"}
    assert not outside, f"import memlane loaded packages outside the allowed list: {sorted(outside)}"
    stdlib = {name for name in NOT_AT_IMPORT if name in names}
    assert not stdlib, f"import memlane loaded {sorted(stdlib)}"
    ours = {
        name
        for name in names
        if name.startswith("memlane")
        and name not in CORE_MODULES
        and not name.startswith(tuple(f"{p}" for p in CORE_PACKAGES_OF_MEMLANE))
    }
    assert not ours, f"import memlane loaded memlane modules outside the allowed list: {sorted(ours)}"
    assert "memlane.memory.facade" in names  # the facade itself is there, ready for Memory(...)


def test_what_loads_on_first_use_still_imports_by_name(tmp_path: Path) -> None:
    code = textwrap.dedent(
        """
        import sys
        import memlane
        assert "asyncio" not in sys.modules and "pydantic" not in sys.modules
        from memlane import AsyncMemory, Settings, load_settings
        assert AsyncMemory.__module__ == "memlane.async_memory" and "asyncio" in sys.modules
        assert isinstance(load_settings(agent="x"), Settings) and memlane.Settings is Settings
        import memlane.llm
        assert "httpx" not in sys.modules
        assert memlane.llm.make_llm.__module__ == "memlane.llm.factory" and "httpx" in sys.modules
        print("ok")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=_env(tmp_path), check=False
    )
    assert done.stdout.strip() == "ok", done.stderr[-3000:]


def test_help_loads_no_settings_no_model_and_no_service(tmp_path: Path) -> None:
    names = _imported(["-m", "memlane", "--help"], _env(tmp_path))
    loaded = _top(names) & (HEAVY | {"pydantic", "asyncio", "yaml", "numpy"})
    assert not loaded, f"memlane --help loaded {sorted(loaded)}"
    assert "memlane.config" not in names and "memlane.embeddings" not in names


_STOPPED_WRITER = """
import os, sys, threading
from memlane import Memory, load_settings
from memlane.embeddings import OnnxMiniLMEmbedder

class Stuck(OnnxMiniLMEmbedder):  # the local model's name and kind, but it never finishes
    def embed_batch(self, texts, kind):
        threading.Event().wait()

mem = Memory(sys.argv[1], settings=load_settings(worker="none"), embedder=Stuck())
mem.add_message("t", "user", "left without its vector by a crash", user="u")
os._exit(0)  # as a killed process: the message stays in the store's pending vectors
"""


def _store_left_pending(folder: Path) -> Path:
    """A store the local model wrote, one message of which a stopped process left without its vector."""
    db = folder / "m.db"
    with Memory(db, settings=load_settings(worker="none")) as mem:  # real MiniLM vectors first
        mem.add_message("t", "user", "hello from before", user="u")
        mem.remember("u likes green tea", user="u")
    done = subprocess.run(
        [sys.executable, "-c", _STOPPED_WRITER, str(db)], capture_output=True, text=True, timeout=120, env=_env(folder)
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return db


@pytest.fixture(scope="module")
def left_pending(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _store_left_pending(tmp_path_factory.mktemp("cold"))


def _pending(db: Path) -> int:
    with Memory(db, settings=load_settings(worker="none", embedder="none")) as mem:
        return mem.status().counts["pending_vectors"]


@pytest.mark.parametrize(
    "command", [["history", "t"], ["facts", "--user", "u"], ["threads"]], ids=["history", "facts", "threads"]
)
def test_read_commands_load_no_model_and_leave_pending_vectors_to_the_next_writer(
    left_pending: Path, command: list[str], tmp_path: Path
) -> None:
    assert _pending(left_pending) == 1
    names = _imported(["-m", "memlane", "--db", str(left_pending), *command], _env(tmp_path))
    loaded = _top(names) & (HEAVY | {"asyncio", "numpy"})
    assert not loaded, f"memlane {command[0]} loaded {sorted(loaded)}"
    assert _pending(left_pending) == 1  # not embedded by a command that only reads


def test_a_recall_embeds_what_a_stopped_process_left_and_add_stores_its_vector(tmp_path: Path) -> None:
    db = _store_left_pending(tmp_path)
    assert _pending(db) == 1
    cli = [sys.executable, "-m", "memlane", "--db", str(db)]
    subprocess.run([*cli, "recall", "tea", "--user", "u"], check=True, capture_output=True, env=_env(tmp_path))
    assert _pending(db) == 0  # the recall's process embedded the leftover before it exited
    subprocess.run(
        [*cli, "add", "t", "user", "a brand new message", "--user", "u"],
        check=True,
        capture_output=True,
        env=_env(tmp_path),
    )
    assert _pending(db) == 0  # `memlane add` returns once its message has its vector
    with Memory(db, settings=load_settings(worker="none")) as mem:
        newest = mem.history("t")[-1]
        assert newest.content == "a brand new message"
        assert mem.store.get_vectors(mem.agent, "message", [newest.id])[0] == [newest.id]


#: Runs ARGV from a small process and prints the peak memory (MB) of that process alone: measured from the
#: test's own process, a child's ``ru_maxrss`` would include the pages it shared with pytest before its exec.
_PEAK = """
import os, sys
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024)
"""


def _peak_mb(argv: list[str], env: dict[str, str]) -> float:
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *argv], capture_output=True, text=True, timeout=120, env=env, check=True
    )
    code, peak = done.stdout.split()
    assert code == "0", done.stderr[-3000:]
    return float(peak)


def test_a_one_shot_recall_peaks_under_200_mb(tmp_path: Path) -> None:
    db = _store_left_pending(tmp_path)
    argv = [sys.executable, "-m", "memlane", "--db", str(db), "recall", "green tea", "--user", "u"]
    _peak_mb(argv, _env(tmp_path))  # the first load may prepare the model file
    assert _peak_mb(argv, _env(tmp_path)) < 200  # was ~360 MB: the token table in float32, the rewrite's copies
