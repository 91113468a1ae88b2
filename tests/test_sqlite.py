"""The SQLite backend on real files: migrations, bad files, several processes and threads, and settings.

Backend-neutral behaviour lives in ``test_store_contract.py``; here is only what needs a SQLite file.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memlane import ConfigError, InvalidInput, Memory, StorageError, load_settings
from memlane.store.sqlite.schema import MIGRATIONS
from memlane.tokens import get_tokenizer

NEWEST = MIGRATIONS[-1][0]
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def open_memory(path: Path, agent: str = "agent-a", clock: Any = None, **settings: Any) -> Memory:
    return Memory(path, agent=agent, settings=load_settings(embedder="none", **settings), clock=clock)


def run_python(code: str, *args: str, timeout: float = 120) -> str:
    """Run ``code`` in a fresh interpreter (a separate process with its own connections); returns stdout."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "MEMLANE_EMBEDDER": "none"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def applied_migrations(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT version, name, applied_at FROM schema_migrations ORDER BY version").fetchall()


# -- migrations and opening -------------------------------------------------------------------------
def test_new_file_is_created_and_migrated(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "memory.db"
    with open_memory(path) as mem:
        assert mem.status().schema_version == NEWEST
        assert mem.status().backend == "sqlite"
        mem.add_message("t", "user", "hello")
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        journal = conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert {"agents", "threads", "messages", "facts", "fact_history", "summaries", "meta"} <= tables
    assert [v for v, _, _ in applied_migrations(path)] == [v for v, _, _ in MIGRATIONS]
    assert journal == "wal"


def test_reopening_keeps_data_and_does_not_migrate_again(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with open_memory(path) as mem:
        mem.add_message("t", "user", "remember me", user="alice")
        fact = mem.remember("Alice likes owls", user="alice")
    first = applied_migrations(path)

    time.sleep(0.01)
    with open_memory(path) as mem:
        assert [m.content for m in mem.history("t")] == ["remember me"]
        assert mem.fact(fact.id).content == "Alice likes owls"
        assert mem.add_message("t", "user", "again").seq == 2
        assert [h.id for h in mem.recall("owls", user="alice")] == [fact.id]
    assert applied_migrations(path) == first


def test_sqlite_url_opens_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with open_memory(path) as mem:
        mem.add_message("t", "user", "via path")
    with Memory(f"sqlite:///{path}", agent="agent-a", settings=load_settings(embedder="none")) as mem:
        assert [m.content for m in mem.history("t")] == ["via path"]


def test_in_memory_database_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput):
        Memory(":memory:", settings=load_settings(embedder="none"))


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"this is a text file, not a database\n" * 200, id="text"),
        pytest.param(bytes(range(256)) * 16, id="binary"),
        pytest.param(b"SQLite format 3\x00" + b"\xff" * 4080, id="broken-header"),
    ],
)
def test_a_file_that_is_not_a_database_is_a_storage_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "not-a-db.db"
    path.write_bytes(content)
    with pytest.raises(StorageError):
        open_memory(path)
    assert path.read_bytes() == content  # and it is left as it was


def test_a_directory_is_a_storage_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError):
        open_memory(tmp_path)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with open_memory(path) as mem:
        mem.add_message("t", "user", "from the future")
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from a newer memlane', ?)",
            (NEWEST + 1, T0.isoformat()),
        )
    with pytest.raises(StorageError, match="newer"):
        open_memory(path)
    with sqlite3.connect(path) as conn:  # untouched
        assert conn.execute("SELECT count(*) FROM messages").fetchone()[0] == 1


# -- processes --------------------------------------------------------------------------------------
WRITER = """
import sys
from memlane import Memory, load_settings
with Memory(sys.argv[1], agent="agent-a", settings=load_settings(embedder="none")) as mem:
    mem.add_message("t", "user", "written by process one", user="alice")
    mem.remember("Alice's cat is called Miso", user="alice")
"""

READER = """
import json, sys
from memlane import Memory, load_settings
with Memory(sys.argv[1], agent="agent-a", settings=load_settings(embedder="none")) as mem:
    print(json.dumps({
        "history": [m.content for m in mem.history("t")],
        "facts": [f.content for f in mem.facts(user="alice")],
        "recall": [h.text for h in mem.recall("Miso cat", user="alice")],
    }))
"""


def test_memory_persists_across_processes(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    run_python(WRITER, str(path))
    seen = json.loads(run_python(READER, str(path)))
    assert seen == {
        "history": ["written by process one"],
        "facts": ["Alice's cat is called Miso"],
        "recall": ["Alice's cat is called Miso"],
    }
    with open_memory(path) as mem:
        assert [m.content for m in mem.history("t")] == ["written by process one"]
        assert [f.content for f in mem.facts(user="alice")] == ["Alice's cat is called Miso"]
        assert mem.add_message("t", "assistant", "written by the test process").seq == 2


def _write_concurrently(path: str, worker: int, per_worker: int, ready: Any, go: Any, open_first: bool) -> None:
    """One writer process: half its messages go to its own thread, half to the thread all share."""
    if not open_first:
        ready.release()
        go.wait()
    mem = Memory(path, agent="agent-a", settings=load_settings(embedder="none"))
    if open_first:
        ready.release()
        go.wait()
    if worker % 3 == 2:  # batches of 5, alternating between its own thread and the shared one
        for j in range(0, per_worker, 5):
            thread = "shared" if (j // 5) % 2 else f"own-{worker}"
            mem.add_messages(
                thread,
                [{"role": "user", "content": f"w{worker} m{k}", "user": f"u{worker}"} for k in range(j, j + 5)],
            )
    else:
        for j in range(per_worker):
            thread = "shared" if j % 2 else f"own-{worker}"
            mem.add_message(thread, "user", f"w{worker} m{j}", user=f"u{worker}")
    mem.close()


def _run_writers(path: Path, workers: int, per_worker: int, *, open_first: bool) -> None:
    """Start ``workers`` processes, release them at once, and wait for every one to succeed.

    The processes are forked (after this process loaded the tokenizer) so that 2 shared cores spend their time
    on the concurrent writes rather than on starting interpreters; each opens its own connections."""
    get_tokenizer("o200k_base").load()
    ctx = multiprocessing.get_context("fork")
    ready, go = ctx.Semaphore(0), ctx.Event()
    procs = [
        ctx.Process(target=_write_concurrently, args=(str(path), w, per_worker, ready, go, open_first))
        for w in range(workers)
    ]
    for p in procs:
        p.start()
    try:
        for _ in procs:
            assert ready.acquire(timeout=60), "a writer did not start"
        go.set()
        for p in procs:
            p.join(timeout=120)
        assert [p.exitcode for p in procs] == [0] * workers
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
                p.join()


def _assert_every_message_once(path: Path, workers: int, per_worker: int) -> list[str | None]:
    """Check every message is stored once with gap-free seqs; returns who wrote the shared thread, in order."""
    with open_memory(path) as mem:
        threads = {t.key: t for t in mem.threads()}
        assert set(threads) == {"shared"} | {f"own-{w}" for w in range(workers)}
        contents: Counter[str] = Counter()
        for key, thread in threads.items():
            history = mem.history(key)
            assert [m.seq for m in history] == list(range(1, len(history) + 1)), f"gaps in {key}"
            assert thread.message_count == len(history)
            contents.update(m.content for m in history)
        expected = {f"w{w} m{j}" for w in range(workers) for j in range(per_worker)}
        assert set(contents) == expected
        assert all(n == 1 for n in contents.values()), [c for c, n in contents.items() if n > 1][:5]
        assert mem.status().counts["messages"] == workers * per_worker
        assert sorted(mem.thread("shared").users) == sorted(f"u{w}" for w in range(workers))
        return [m.user for m in mem.history("shared")]


def _switches(writers: list[str | None]) -> int:
    return sum(1 for a, b in itertools.pairwise(writers) if a != b)


def test_concurrent_writer_processes_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    open_memory(path).close()
    _run_writers(path, workers=6, per_worker=200, open_first=True)
    writers = _assert_every_message_once(path, workers=6, per_worker=200)
    assert _switches(writers) > 6, "the writers ran one after another, not at the same time"


def test_processes_opening_a_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    _run_writers(path, workers=6, per_worker=10, open_first=False)
    _assert_every_message_once(path, workers=6, per_worker=10)
    assert [v for v, _, _ in applied_migrations(path)] == [v for v, _, _ in MIGRATIONS]


def test_threads_sharing_one_memory_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "threads.db"
    workers, per_worker = 8, 100
    errors: list[BaseException] = []
    start = threading.Barrier(workers)
    with open_memory(path) as mem:

        def work(w: int) -> None:
            try:
                start.wait()
                for j in range(per_worker):
                    thread = "shared" if w < 4 else f"own-{w}"
                    mem.add_message(thread, "user", f"w{w} m{j}", user=f"u{w}")
                    if j % 25 == 0:
                        mem.remember(f"fact {w}-{j}", user=f"u{w}")
                        mem.recall(f"m{j}", user=f"u{w}")
            except BaseException as exc:  # reported below, in the test's thread
                errors.append(exc)

        pool = [threading.Thread(target=work, args=(w,)) for w in range(workers)]
        for t in pool:
            t.start()
        for t in pool:
            t.join(timeout=120)
        assert not errors, errors[0]
        contents: Counter[str] = Counter()
        for key in ["shared"] + [f"own-{w}" for w in range(4, workers)]:
            history = mem.history(key)
            assert [m.seq for m in history] == list(range(1, len(history) + 1))
            contents.update(m.content for m in history)
        assert set(contents) == {f"w{w} m{j}" for w in range(workers) for j in range(per_worker)}
        assert max(contents.values()) == 1
        assert len(mem.facts(all_users=True)) == workers * 4


# -- export / import between files --------------------------------------------------------------------
def test_export_to_another_file_round_trips_exactly(tmp_path: Path) -> None:
    clock_now = [T0]
    source = open_memory(tmp_path / "a.db", clock=lambda: clock_now[0])
    source.set_thread("support", system_prompt="Be brief.", metadata={"team": "🛟"})
    source.add_message("support", "user", "Help!\r\nNow.", user="alice", name="Alice")
    source.add_message(
        "support",
        "assistant",
        "",
        tool_calls=[{"id": "c1", "type": "function", "function": {"name": "page", "arguments": "{}"}}],
    )
    source.add_message("support", "tool", "paged", tool_call_id="c1")
    clock_now[0] += timedelta(minutes=1)
    source.end("support")
    fact = source.remember("Alice is on call", user="alice", visibility="shared")
    source.update_fact(fact.id, content="Alice is on call on Mondays", user="alice")
    gone = source.remember("Alice's pager code is 12", user="alice")
    source.forget(gone.id, user="alice")
    source.export(tmp_path / "a.jsonl")
    source.close()

    with open_memory(tmp_path / "b.db") as target:
        target.import_(tmp_path / "a.jsonl")
        target.export(tmp_path / "b.jsonl")
    assert (tmp_path / "b.jsonl").read_bytes() == (tmp_path / "a.jsonl").read_bytes()


# -- settings ---------------------------------------------------------------------------------------
def test_environment_overrides_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")
    monkeypatch.setenv("MEMLANE_DATABASE", str(tmp_path / "from-env.db"))
    monkeypatch.setenv("MEMLANE_AGENT", "env-bot")
    monkeypatch.setenv("MEMLANE_MAX_HISTORY_TOKENS", "321")
    with Memory() as mem:
        assert mem.agent == "env-bot"
        assert Path(mem.store.location) == (tmp_path / "from-env.db").resolve()
        mem.add_message("t", "user", "hi")
        assert mem.context("t").budget == 321
    assert (tmp_path / "from-env.db").is_file()


def test_default_database_lives_in_memlane_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMLANE_HOME", str(tmp_path / "somewhere"))
    with Memory(settings=load_settings(embedder="none")) as mem:
        mem.add_message("t", "user", "hi")
    assert (tmp_path / "somewhere" / "memlane.db").is_file()


def test_toml_config_in_home_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(
        f'agent = "toml-bot"\nembedder = "none"\nmax_history_tokens = 2048\ndatabase = "{tmp_path / "toml.db"}"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("MEMLANE_HOME", str(home))
    with Memory() as mem:
        assert (mem.agent, mem.settings.max_history_tokens) == ("toml-bot", 2048)
        mem.add_message("t", "user", "hi")
        assert mem.context("t").budget == 2048
    assert (tmp_path / "toml.db").is_file()


SEED_002_YAML = """\
memory:
  enabled: true # Enable conversation memory
  storage_path: ~/.harombe/memory.db # SQLite database location
  max_history_tokens: 4096 # Token limit for context
  auto_prune_days: 30 # Auto-delete old sessions
  strategy: simple # simple, summarization, hybrid
"""


def test_seed_002_yaml_config_works_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user_home = tmp_path / "user"
    user_home.mkdir()
    monkeypatch.setenv("HOME", str(user_home))
    monkeypatch.setenv("MEMLANE_EMBEDDER", "none")
    config = tmp_path / "harombe.yaml"
    config.write_text(SEED_002_YAML, encoding="utf-8")

    with Memory(config_file=config) as mem:
        assert mem.settings.max_history_tokens == 4096
        assert mem.settings.auto_prune_days == 30
        assert Path(mem.store.location) == user_home / ".harombe" / "memory.db"
        mem.add_message("session", "user", "hello")
        assert mem.context("session").budget == 4096
        assert mem.settings.strategy == "simple"
    assert (user_home / ".harombe" / "memory.db").is_file()

    monkeypatch.setenv("MEMLANE_CONFIG", str(config))  # the same file found through the environment
    assert load_settings().max_history_tokens == 4096


@pytest.mark.parametrize("strategy", ["simple", "summarization", "hybrid"])
def test_the_strategy_decides_what_context_holds_besides_the_newest_messages(tmp_path: Path, strategy: str) -> None:
    """Seed 002: simple = the newest messages that fit (no summaries are even made), summarization = with
    the rolling summaries, hybrid (memlane's default) = with facts, recalled items and memories too."""
    settings = load_settings(
        embedder="none",
        worker="none",
        strategy=strategy,
        summarize_after=4,
        summarize_batch=2,
        max_messages_in_context=3,
    )
    with Memory(tmp_path / "m.db", settings=settings) as mem:
        for n in range(8):
            mem.add_message("s", "user", f"note {n} about the garden shed", user="ann")
        mem.remember("Ann's shed is green", user="ann")
        mem.run_jobs()
        ctx = mem.context("s", query="garden shed", user="ann", budget=2000)
        made = mem.summaries("s", kind="rolling")
        assert bool(made) == (strategy != "simple")
        assert bool(ctx.summaries) == (strategy != "simple")
        assert bool(ctx.facts) == (strategy == "hybrid")
        mem.add_message("p", "system", "Always answer in French.")
        for n in range(5):
            mem.add_message("p", "user", f"question {n}")
        pinned = [m.content for m in mem.context("p", budget=2000).messages if m.role == "system"]
        assert pinned == (["Always answer in French."] if strategy == "hybrid" else [])  # out of the window of 3
        assert [m.content for m in ctx.messages][-1] == "note 7 about the garden shed"


def test_a_config_that_turns_memory_off_or_names_an_unknown_strategy_is_refused(tmp_path: Path) -> None:
    off = tmp_path / "off.yaml"
    off.write_text("memory:\n  enabled: false\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="enabled"):
        load_settings(off)
    bogus = tmp_path / "bogus.yaml"
    bogus.write_text("memory:\n  strategy: clever\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="strategy"):
        load_settings(bogus)


def test_precedence_code_then_env_then_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("memlane:\n  max_history_tokens: 1000\n  max_messages_in_context: 7\n  agent: file-bot\n")
    monkeypatch.setenv("MEMLANE_MAX_HISTORY_TOKENS", "2000")
    monkeypatch.setenv("MEMLANE_AGENT", "env-bot")
    loaded = load_settings(config, agent="code-bot")
    assert (loaded.agent, loaded.max_history_tokens, loaded.max_messages_in_context) == ("code-bot", 2000, 7)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        pytest.param("c.yaml", "memory:\n  max_history_tokens: lots\n", id="not-a-number"),
        pytest.param("c.yaml", "memory:\n  max_history_tokens: 10\n", id="budget-too-small"),
        pytest.param("c.yaml", "memory:\n  auto_prune_days: -3\n", id="negative-prune"),
        pytest.param("c.yaml", "memory:\n  max_histroy_tokens: 4096\n", id="misspelt-key"),
        pytest.param("c.yaml", "memory: [unclosed\n", id="broken-yaml"),
        pytest.param("c.yaml", "- a\n- b\n", id="yaml-list"),
        pytest.param("c.toml", "max_history_tokens = \n", id="broken-toml"),
        pytest.param("c.toml", 'max_history_tokens = "many"\n', id="toml-string"),
    ],
)
def test_invalid_config_file_is_a_config_error(tmp_path: Path, name: str, text: str) -> None:
    config = tmp_path / name
    config.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError):
        load_settings(config)
    with pytest.raises(ConfigError):
        Memory(tmp_path / "never.db", config_file=config)
    assert not (tmp_path / "never.db").exists()


@pytest.mark.parametrize(
    ("var", "value"),
    [
        ("MEMLANE_MAX_HISTORY_TOKENS", "abc"),
        ("MEMLANE_AUTO_PRUNE_DAYS", "-1"),
        ("MEMLANE_MAX_CONTENT_CHARS", "0"),
        ("MEMLANE_CONFIG", "/definitely/not/here.toml"),
    ],
)
def test_invalid_environment_is_a_config_error(monkeypatch: pytest.MonkeyPatch, var: str, value: str) -> None:
    monkeypatch.setenv(var, value)
    with pytest.raises(ConfigError):
        load_settings()


def test_missing_config_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        load_settings(tmp_path / "missing.toml")


def _aged_store(path: Path) -> None:
    clock_now = [T0]
    with open_memory(path, clock=lambda: clock_now[0]) as mem:
        mem.add_message("ancient", "user", "from long ago")
        mem.remember("a fact from long ago")
        clock_now[0] = T0 + timedelta(days=20)
        mem.add_message("recent", "user", "from last week")


def test_auto_prune_days_prunes_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "aged.db"
    _aged_store(path)
    later = T0 + timedelta(days=40)
    with open_memory(path, clock=lambda: later) as mem:  # auto_prune_days defaults to 0: keep all
        assert sorted(t.key for t in mem.threads()) == ["ancient", "recent"]
    with open_memory(path, clock=lambda: later, auto_prune_days=30) as mem:
        assert [t.key for t in mem.threads()] == ["recent"]
        assert [f.content for f in mem.facts()] == ["a fact from long ago"]


def test_auto_prune_days_from_a_config_file(tmp_path: Path) -> None:
    path = tmp_path / "aged.db"
    _aged_store(path)
    config = tmp_path / "c.toml"
    config.write_text(f'embedder = "none"\nauto_prune_days = 30\ndatabase = "{path}"\n', encoding="utf-8")
    later = T0 + timedelta(days=40)
    with Memory(config_file=config, agent="agent-a", clock=lambda: later) as mem:
        assert [t.key for t in mem.threads()] == ["recent"]


def test_a_recall_reads_on_several_threads_and_finds_what_one_thread_finds(tmp_path: Path) -> None:
    """The retrievers of one recall (and the loads after them) run at the same time, each thread on its
    own connection; the hits are those of the same searches one after another."""
    with Memory(tmp_path / "m.db", agent="bot", settings=load_settings(embedder="fake", worker="none")) as mem:
        mem.add_message("trip", "user", "I am flying to Lisbon in June", user="alice")
        mem.add_message("trip", "assistant", "Lisbon is lovely in early summer")
        mem.add_message("pets", "user", "My cat Tom hates the vet", user="bob")
        mem.add_message("shared", "user", "The team dinner is on Friday", user="alice")
        mem.add_message("shared", "user", "I will bring a cake", user="bob")
        mem.remember("Alice is afraid of flying", user="alice")
        mem.remember("Bob's cat is called Tom", user="bob", visibility="shared")
        assert mem.store.concurrent_reads and mem.searcher.concurrent
        mem.flush()  # the messages' vectors are stored by a helper thread, on a connection of its own
        connections = mem.store._all  # type: ignore[attr-defined]  # one per thread that used the store
        before = len(connections)
        queries = [("flight to Lisbon last week", "alice"), ("cat at the vet", "bob"), ("dinner cake", None)]
        when = datetime(2030, 1, 1, tzinfo=UTC)
        found = []
        for concurrent in (True, False):
            mem.searcher.concurrent = concurrent
            found.append(
                [
                    [(h.kind, h.text, round(h.score, 6)) for h in mem.recall(q, user=u, limit=6, now=when)]
                    for q, u in queries
                ]
            )
            if concurrent:
                assert len(connections) > before  # the searches ran on threads of their own
        assert found[0] == found[1] and all(found[0])


def test_fact_visibility_shared_lets_a_group_use_what_anyone_said_about_a_person(tmp_path: Path) -> None:
    """Seed 003: in a group chat, a fact one member states about another serves everyone once facts are
    shared by default; the default stays private, and an explicit visibility always wins."""
    for setting, seen_by_bob in (("private", False), ("shared", True)):
        settings = load_settings(embedder="none", worker="none", fact_visibility=setting)
        with Memory(tmp_path / f"{setting}.db", settings=settings) as mem:
            said = mem.remember("gruzilkin likes pizza", user="alice", subject="gruzilkin")
            assert said.visibility == setting
            assert mem.remember("alice keeps a diary", user="alice", visibility="private").visibility == "private"
            mem.add_message("chat", "user", "what should we order for gruzilkin?", user="bob")
            text = mem.context("chat", query="gruzilkin pizza", user="bob").system_text()
            assert ("gruzilkin likes pizza" in text) == seen_by_bob
            assert "diary" not in text
