"""Moving a whole store between backends (``copy_store``, ``memlane db copy``) and ``memlane db migrate``.

The round trip SQLite → PostgreSQL → SQLite must give back the same exports, byte for byte, for a store
that has a bit of everything: several agents, tool calls, unicode, metadata whose key order matters, facts
that were updated, forgotten, shared and superseded, thread summaries and agent memories, and jobs.
"""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

from conftest import FakeClock
from memlane import Conflict, InvalidInput, Memory, NotFound, StorageError, load_settings
from memlane.cli.app import app
from memlane.store import FactFilter, Store, open_store
from memlane.store.copy import CopyProgress, copy_store, export_digest
from memlane.store.postgres.schema import MIGRATIONS as PG_MIGRATIONS
from memlane.store.sqlite import SQLiteStore
from memlane.store.sqlite.schema import MIGRATIONS as SQLITE_MIGRATIONS
from memlane.validation import NewJob, NewSummary

AGENTS = ("bot", "Zoë-助手")


@pytest.fixture
def settings() -> Any:
    return load_settings(embedder="fake", worker="none")


def populate(mem: Memory, clock: FakeClock) -> None:
    """A store with a bit of everything, written through the public API where there is one."""
    mem.set_thread(
        "support", system_prompt="Be kind.", metadata={"zeta": 1, "alpha": {"b": 2, "a": [1.5, "x", None]}, "e": 1e300}
    )
    mem.add_message(
        "support", "user", "My order is late 📦 — où est-il?", user="alice", name="Alice", metadata={"z": 1}
    )
    clock.advance(seconds=1.5)
    mem.add_message(
        "support",
        "assistant",
        "",
        tool_calls=[{"type": "function", "id": "c1", "function": {"arguments": '{"q": "ü"}', "name": "track"}}],
    )
    mem.add_message(
        "support", "tool", "shipped\u2028today", tool_call_id="c1", created_at="2025-01-02T03:04:05.123456+02:00"
    )
    mem.add_message("support", "user", "مرحبا, thanks! e\u0301", user="bob")
    mem.add_message("サポート", "user", "日本語のスレッド", user="alice")
    stored = mem.store.messages(mem.agent, "support")
    summary = NewSummary("rolling", "Alice's order is late; it shipped.", 1, 3, None, "test", {"n": 3})
    mem.store.add_summary(mem.agent, "support", summary, clock(), mark_summarized=True)
    mine = NewSummary("rolling", "Private note for Alice", 1, 2, "alice", "test", {})
    mem.store.add_summary(mem.agent, "support", mine, clock())
    memory = NewSummary("memory", "We helped Alice with a late order.", None, None, None, "test", {})
    mem.store.add_summary(mem.agent, None, memory, clock())
    assert stored[0].token_count > 0

    fact = mem.remember("Alice prefers email", user="alice", metadata={"source": "chat", "confidence": 0.5})
    clock.advance(minutes=1)
    mem.update_fact(fact.id, content="Alice prefers phone", importance=5, user="alice")
    gone = mem.remember("Alice lives in Paris", user="alice", subject="alice")
    mem.forget(gone.id, user="alice")
    mem.remember("The office opens at 9:30", user="alice", visibility="shared", category="topic")
    old = mem.remember("The bot is called Rosey")
    new = mem.remember("The bot is now called Rowan")
    mem.store.update_fact(
        mem.agent, old.id, {"status": "superseded", "superseded_by": new.id}, actor=None, now=clock(), action="merge"
    )
    mem.end("support")

    now = clock()
    mem.store.enqueue_jobs(mem.agent, [NewJob("summarize", {"thread": "support"}, dedupe_key="s:support")], now)
    mem.store.enqueue_jobs(mem.agent, [NewJob("later", {"n": 1}, run_after=now.replace(year=2027))], now)
    [done] = mem.store.enqueue_jobs(mem.agent, [NewJob("done-one", {})], now)
    for job in mem.store.claim_jobs("w", now, lease_seconds=60, limit=10, kinds=["done-one"]):
        assert mem.store.complete_job(job.id, "w", now)
    assert done.kind == "done-one"


@pytest.fixture
def source(tmp_path: Path, settings: Any) -> Iterator[str]:
    """A SQLite store populated for two agents (plus one that only queued a job)."""
    path = str(tmp_path / "source.db")
    clock = FakeClock()
    with Memory(path, agent=AGENTS[0], settings=settings, clock=clock) as mem:
        populate(mem, clock)
        populate(mem.for_agent(AGENTS[1]), clock)
        mem.store.enqueue_jobs("jobs-only", [NewJob("profile", {"user": "carol"})], clock())
    yield path


def exports(location: str, settings: Any, agents: Sequence[str] = AGENTS) -> dict[str, str]:
    out = {}
    for agent in agents:
        with Memory(location, agent=agent, settings=settings, check_model=False) as mem:
            buffer = io.StringIO()
            mem.export(buffer)
            out[agent] = buffer.getvalue()
    return out


def snapshot(store: Store, agent: str) -> dict[str, Any]:
    """What an export does not show: token counts, thread counters and users, pending jobs."""
    threads = store.list_threads(agent, user=None, status=None, limit=None, offset=0)
    return {
        "threads": threads,
        "messages": {
            t.key: [(m.seq, m.token_count, m.summarized, m.created_at) for m in store.messages(agent, t.key)]
            for t in threads
        },
        "jobs": [
            (j.kind, j.payload, j.status, j.attempts, j.run_after)
            for j in store.list_jobs(agent, status="pending", limit=None)
        ],
    }


@pytest.fixture
def opened() -> Iterator[Callable[[str], Store]]:
    stores: list[Store] = []

    def open_(location: str) -> Store:
        stores.append(open_store(location))
        return stores[-1]

    yield open_
    for store in stores:
        store.close()


# -- the contract addition -------------------------------------------------------------------------
def test_list_agents_names_every_agent_in_code_point_order(store_url: str) -> None:
    store = open_store(store_url)
    try:
        assert store.list_agents() == []
        clock = FakeClock()
        for agent in ("b", "Ä", "a", "Z"):
            store.enqueue_jobs(agent, [NewJob("k", {})], clock())
        assert store.list_agents() == ["Z", "a", "b", "Ä"]
    finally:
        store.close()


# -- copy_store ---------------------------------------------------------------------------------------
@pytest.mark.postgres
def test_round_trip_sqlite_postgres_sqlite_gives_identical_exports(
    source: str, new_pg_database: Callable[[], str], tmp_path: Path, settings: Any, opened: Callable[[str], Store]
) -> None:
    pg_url, back = new_pg_database(), str(tmp_path / "back.db")
    src, pg, lite = opened(source), opened(pg_url), opened(back)
    steps: list[CopyProgress] = []

    there = copy_store(src, pg, progress=steps.append, batch_messages=2)  # several transactions per agent
    again = copy_store(pg, lite)

    original = exports(source, settings)
    assert exports(pg_url, settings) == original
    assert exports(back, settings) == original
    for agent in AGENTS:
        assert snapshot(pg, agent) == snapshot(src, agent) == snapshot(lite, agent)
    pending = len(src.list_jobs(AGENTS[0], status="pending", limit=None))
    assert {j.status for j in pg.list_jobs(AGENTS[0], limit=None)} == {"pending"}  # done ones stay behind
    assert pending >= 2 and len(pg.list_jobs(AGENTS[0], limit=None)) == pending
    assert pg.list_agents() == lite.list_agents() == src.list_agents() == sorted([*AGENTS, "jobs-only"])

    for report in (there, again):
        assert report.identical and not report.merged
        by_agent = {a.agent: a for a in report.agents}
        for agent in AGENTS:
            copied = by_agent[agent]
            assert copied.source_sha256 == copied.target_sha256
            assert copied.source_sha256 == hashlib.sha256(original[agent].encode()).hexdigest()
            assert copied.source_counts == copied.target_counts
            assert copied.source_counts == {
                "threads": 2,
                "messages": 5,
                "summaries": 3,
                "facts": 4,
                "deleted_facts": 1,
                "fact_changes": 8,
                "users": 2,
            }
            assert copied.jobs_copied == len(src.list_jobs(agent, status="pending", limit=None))
        assert by_agent["jobs-only"].jobs_copied == 1
    assert there.agents[0].jobs_not_copied == {"done": 1}
    assert there.embedding_model == "fake-hash-64" == pg.get_meta("embedding_model")
    # Messages and facts were embedded as they were written, and their vectors come along; the summaries
    # were stored without vectors, so there is still something for reindex to do.
    assert there.needs_reindex and again.needs_reindex
    assert there.agents[0].vectors_copied == {"message": 5, "fact": 4, "summary": 0}
    assert vectors(pg, AGENTS[0]) == vectors(src, AGENTS[0]) == vectors(lite, AGENTS[0])

    verify = [s for s in steps if s.stage == "verify"]
    assert steps[0].stage == "copy" and verify and verify[-1].done == verify[-1].total == steps[-1].total
    copy_done = [s.done for s in steps if s.stage == "copy"]
    assert copy_done == sorted(copy_done) and len(copy_done) > len(AGENTS)  # progress within an agent too


def vectors(store: Store, agent: str) -> dict[tuple[Any, ...], tuple[float, ...]]:
    """Every stored vector of the agent, keyed by what identifies its item in any store."""
    out: dict[tuple[Any, ...], tuple[float, ...]] = {}
    threads = store.list_threads(agent, user=None, status=None, limit=None, offset=0)
    by_id: dict[str, dict[int, tuple[Any, ...]]] = {
        "message": {m.id: ("message", t.key, m.seq) for t in threads for m in store.messages(agent, t.key)},
        "fact": {
            f.id: ("fact", f.owner, f.content, f.created_at)
            for f in store.list_facts(agent, FactFilter(all_users=True, include_superseded=True), limit=None)
        },
        "summary": {
            s.id: ("summary", s.thread, s.kind, s.owner, s.content)
            for s in store.summaries(agent, thread=None, kind=None, limit=None)
        },
    }
    for kind, keys in by_id.items():
        found, matrix = store.get_vectors(agent, kind, list(keys))
        out |= {keys[i]: tuple(row.tolist()) for i, row in zip(found, matrix, strict=True)}
    return out


@pytest.mark.postgres
def test_vectors_are_copied_both_ways_so_the_copy_recalls_without_reindex(
    source: str, new_pg_database: Callable[[], str], tmp_path: Path, settings: Any, opened: Callable[[str], Store]
) -> None:
    def found(location: str) -> dict[str, list[tuple[str, str, float]]]:
        with Memory(location, agent="bot", settings=settings) as mem:
            return {
                preset: [
                    (h.kind, h.text, round(h.score, 5))
                    for h in mem.recall("late order shipped", user="alice", limit=4, preset=preset, now=when)
                ]
                for preset in ("vector", "default")
            }

    with Memory(source, agent="bot", settings=settings) as mem:
        assert mem.reindex() == 2 * 3  # the summaries of both agents: now every item has a vector
    when = datetime(2030, 1, 1, tzinfo=UTC)
    pg_url, back = new_pg_database(), str(tmp_path / "back.db")
    src, pg, lite = opened(source), opened(pg_url), opened(back)

    there = copy_store(src, pg, batch_messages=2)
    again = copy_store(pg, lite)

    for report in (there, again):
        assert report.identical and not report.needs_reindex
        for copied in (a for a in report.agents if a.agent in AGENTS):
            assert copied.vectors_copied == {"message": 5, "fact": 4, "summary": 3}
            assert copied.vectors_unmatched == {"message": 0, "fact": 0, "summary": 0}
    for agent in AGENTS:
        expected = vectors(src, agent)
        assert len(expected) == 5 + 4 + 3
        assert vectors(pg, agent) == expected and vectors(lite, agent) == expected  # float32, bit for bit
    assert pg.get_meta("embedding_dim") == lite.get_meta("embedding_dim") == "64"
    with psycopg.connect(pg_url) as conn:  # loaded without the HNSW indexes, which were built at the end
        assert conn.execute("SELECT count(*) FROM pg_indexes WHERE indexdef LIKE '%hnsw%'").fetchone() == (3,)
    original, on_pg, back_again = found(source), found(pg_url), found(back)
    assert len(original["vector"]) == 4
    # Semantic search gives the same hits with the same scores on the copies, without a reindex.
    assert on_pg["vector"] == original["vector"] == back_again["vector"]
    assert back_again["default"] == original["default"]  # same backend: keyword scores agree too
    # Another backend ranks keyword matches its own way (BM25 on SQLite, the IDFs of the words held on
    # PostgreSQL): the same hits, not always in the same order.
    assert sorted(h[:2] for h in on_pg["default"]) == sorted(h[:2] for h in original["default"])
    for location in (pg_url, back):
        with Memory(location, agent="bot", settings=settings) as mem:
            assert mem.reindex() == 0  # nothing left to embed


@pytest.mark.postgres
def test_a_merge_leaves_the_vectors_of_kept_threads_alone(
    source: str, new_pg_database: Callable[[], str], settings: Any, opened: Callable[[str], Store]
) -> None:
    pg_url = new_pg_database()
    with Memory(pg_url, agent="bot", settings=settings) as mem:
        mem.add_message("support", "user", "I was here first", user="dora")
    dst = opened(pg_url)
    before = vectors(dst, "bot")
    assert len(before) == 1

    report = copy_store(opened(source), dst, merge=True)

    after = vectors(dst, "bot")
    assert after[("message", "support", 1)] == before[("message", "support", 1)]
    assert ("message", "サポート", 1) in after and {a.agent: a for a in report.agents}["bot"].vectors_copied[
        "message"
    ] == 1


@pytest.mark.postgres
def test_the_copy_is_recalled_the_same_once_reindexed(
    source: str, new_pg_database: Callable[[], str], settings: Any, opened: Callable[[str], Store]
) -> None:
    pg_url = new_pg_database()
    copy_store(opened(source), opened(pg_url))
    found = []
    for location in (source, pg_url):  # the source's summaries were stored without vectors: embed them too
        with Memory(location, agent="bot", settings=settings) as mem:
            assert mem.reindex() > 0
            hits = mem.recall("late order shipped", user="alice", limit=4)
            found.append(sorted((h.kind, h.text) for h in hits))  # each backend ranks keywords its own way
    assert found[0] == found[1] and len(found[0]) == 4


@pytest.mark.postgres
def test_a_non_empty_destination_is_refused_unless_merging(
    source: str, new_pg_database: Callable[[], str], settings: Any, opened: Callable[[str], Store]
) -> None:
    pg_url = new_pg_database()
    with Memory(pg_url, agent="bot", settings=settings) as mem:
        mem.add_message("support", "user", "I was here first", user="dora")
    before = exports(pg_url, settings, ["bot"])
    src, dst = opened(source), opened(pg_url)

    with pytest.raises(Conflict, match="not empty"):
        copy_store(src, dst)
    assert exports(pg_url, settings, ["bot"]) == before and dst.list_agents() == ["bot"]

    report = copy_store(src, dst, merge=True)
    mine = {a.agent: a for a in report.agents}["bot"]
    assert report.merged and not mine.identical  # the destination keeps its own "support" thread
    assert mine.written["threads"] == 1 and mine.written["messages"] == 1 and mine.written["facts"] == 4
    assert [m.content for m in dst.messages("bot", "support")] == ["I was here first"]
    assert [m.content for m in dst.messages("bot", "サポート")] == ["日本語のスレッド"]
    every = FactFilter(all_users=True, include_superseded=True)
    assert len(dst.list_facts("bot", every, limit=None)) == 4
    again = copy_store(src, dst, merge=True)  # merging again skips everything: nothing is doubled
    assert {a.agent: a for a in again.agents}["bot"].written == dict.fromkeys(mine.written, 0)
    assert len(dst.list_facts("bot", every, limit=None)) == 4


def test_only_the_named_agents_are_copied(source: str, tmp_path: Path, opened: Callable[[str], Store]) -> None:
    dst = opened(str(tmp_path / "one.db"))
    report = copy_store(opened(source), dst, agents=[AGENTS[1]])
    assert [a.agent for a in report.agents] == [AGENTS[1]] and dst.list_agents() == [AGENTS[1]]
    with pytest.raises(NotFound, match="nobody"):
        copy_store(opened(source), opened(str(tmp_path / "two.db")), agents=["nobody"])


def test_a_store_cannot_be_copied_onto_itself(source: str, opened: Callable[[str], Store]) -> None:
    with pytest.raises(InvalidInput, match="same store"):
        copy_store(opened(source), opened(source))


class LossySQLiteStore(SQLiteStore):
    """Drops the last message of every import: a broken destination the verification must catch."""

    def import_records(self, agent: str, records: Sequence[dict[str, Any]], *, on_conflict: str) -> dict[str, int]:
        last = max((i for i, r in enumerate(records) if r["type"] == "message"), default=None)
        kept = [r for i, r in enumerate(records) if i != last]
        return super().import_records(agent, kept, on_conflict=on_conflict)


def test_a_copy_that_differs_from_its_source_is_a_storage_error(
    source: str, tmp_path: Path, opened: Callable[[str], Store]
) -> None:
    lossy = LossySQLiteStore(tmp_path / "lossy.db")
    try:
        with pytest.raises(StorageError, match=r"5 messages in the source, 4 in the copy"):
            copy_store(opened(source), lossy, agents=["bot"])
    finally:
        lossy.close()


def test_export_digest_is_the_sha256_of_memlane_export(
    source: str, settings: Any, opened: Callable[[str], Store]
) -> None:
    digest, counts = export_digest(opened(source), "bot")
    text = exports(source, settings, ["bot"])["bot"]
    assert digest == hashlib.sha256(text.encode()).hexdigest()
    assert counts["messages"] == sum(1 for line in text.splitlines() if '"type":"message"' in line)


# -- the command line ----------------------------------------------------------------------------------
runner = CliRunner()


def cli(*args: str, code: int = 0) -> Any:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    return result


@pytest.mark.postgres
def test_cli_db_copy_end_to_end(
    source: str, new_pg_database: Callable[[], str], tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMLANE_EMBEDDER", "fake")
    pg_url, back = new_pg_database(), str(tmp_path / "back.db")

    first = cli("db", "copy", source, pg_url)
    assert "copying" in first.stderr and "verifying" in first.stderr  # the progress bar is on stderr
    assert "every export is identical" in first.stdout and f"memlane --db {pg_url} reindex" in first.stdout

    refused = cli("db", "copy", source, pg_url, code=4)
    assert refused.stderr.startswith("error: ") and "--yes" in refused.stderr and refused.stdout == ""
    merged = json.loads(cli("--json", "db", "copy", source, pg_url, "--yes").stdout)
    assert merged["merged"] and merged["identical"]  # all there already: nothing written, nothing doubled
    assert {n for a in merged["agents"] for n in a["written"].values()} == {0}
    assert {a["jobs_copied"] for a in merged["agents"]} == {0}  # pending jobs are not queued twice either

    report = json.loads(cli("--json", "db", "copy", pg_url, back, "--agent", "bot").stdout)
    assert report["identical"] and [a["agent"] for a in report["agents"]] == ["bot"]
    assert report["totals"]["messages"] == 5 and report["next_step"] == f"memlane --db {back} reindex"
    exported = cli("--db", back, "--agent", "bot", "export", "-").stdout
    assert exported == exports(source, settings, ["bot"])["bot"]
    assert hashlib.sha256(exported.encode()).hexdigest() == report["agents"][0]["target_sha256"]

    assert "no agent 'nobody'" in cli("db", "copy", source, str(tmp_path / "x.db"), "-a", "nobody", code=3).stderr
    assert "same store" in cli("db", "copy", source, source, code=2).stderr
    missing = tmp_path / "typo.db"
    assert "no store at" in cli("db", "copy", str(missing), str(tmp_path / "y.db"), code=3).stderr
    assert not missing.exists()  # not created by the attempt


# -- db migrate ----------------------------------------------------------------------------------------
def _old_sqlite(path: Path, version: int) -> None:
    """A SQLite store as an older memlane left it: migrations up to ``version`` only."""
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    for number, name, script in SQLITE_MIGRATIONS[:version]:
        db.executescript(script)
        db.execute("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01T00:00:00+00:00')", (number, name))
    db.commit()
    db.close()


def _old_postgres(url: str, version: int) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, "
            "applied_at timestamptz NOT NULL)"
        )
        for number, name, script in PG_MIGRATIONS[:version]:
            if script.strip():
                conn.execute(script)
            conn.execute("INSERT INTO schema_migrations VALUES (%s, %s, now())", (number, name))


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_db_migrate_applies_pending_migrations_and_reports_them(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    newest = SQLITE_MIGRATIONS[-1][0]
    assert newest == PG_MIGRATIONS[-1][0]
    if backend == "sqlite":
        old, new = str(tmp_path / "old.db"), str(tmp_path / "new.db")
        _old_sqlite(Path(old), 2)
        with sqlite3.connect(old) as db:  # the older memlane's data
            db.execute("INSERT INTO agents (name, created_at) VALUES ('bot', '2026-01-01T00:00:00+00:00')")
    else:
        make: Callable[[], str] = request.getfixturevalue("new_pg_database")
        old, new = make(), make()
        _old_postgres(old, 2)
        with psycopg.connect(old, autocommit=True) as conn:
            conn.execute("INSERT INTO agents (name, created_at) VALUES ('bot', now())")

    fresh = json.loads(cli("--json", "db", "migrate", "--db", new).stdout)
    assert (fresh["backend"], fresh["before"], fresh["after"]) == (backend, 0, newest)
    assert [v for v, _ in fresh["applied"]] == list(range(1, newest + 1))

    text = cli("--db", old, "db", "migrate").stdout
    assert f"from version 2 to {newest}: 3 index new messages explicitly, 4 LLM usage events" in " ".join(text.split())
    assert "nothing to do" in cli("db", "migrate", "--db", old).stdout  # --db after the command works too
    with Memory(old, agent="bot", settings=load_settings(embedder="none", worker="none")) as mem:
        assert mem.status().schema_version == newest and mem.store.list_agents() == ["bot"]


def test_db_migrate_refuses_a_store_newer_than_this_memlane(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    _old_sqlite(path, len(SQLITE_MIGRATIONS))
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_migrations VALUES (99, 'from the future', '2030-01-01T00:00:00+00:00')")
    result = cli("db", "migrate", "--db", str(path), code=6)
    assert "newer than this memlane" in result.stderr
