"""Crash safety: a writer killed with SIGKILL in the middle of writing loses no accepted write and leaves the
store consistent, on SQLite and on PostgreSQL (there the client dies; the server must roll its work back).

Each round forks a writer that appends messages (single ones and batches, to several threads, from two users,
with metadata) and now and then remembers a fact, until the test kills it at a random moment. The writer logs
each call before making it and again once it returned, fsynced, so the test knows what was accepted and which
one call was in flight when the kill came. That call may or may not be stored, but never in part. After the
rounds the store must hold every accepted write exactly once and in order, with gap-free sequence numbers,
counts that agree, and a keyword index entry and a vector for every message and fact.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memlane import Fact, Memory, Message, Settings, load_settings
from memlane.store import Scope
from memlane.store.sqlite.schema import register_functions
from memlane.texts import item_text
from memlane.tokens import get_tokenizer

AGENT = "crash-bot"
THREADS = ("support", "sales", "ops")
USERS = ("alice", "bob")
WORDS = ("owls", "trains", "coffee", "invoices", "gardens", "servers", "tickets", "pianos")
ROUNDS = 8
SEED = 20260101
KILL_AFTER = (0.05, 0.6)  # seconds after the writer started writing


def _settings() -> Settings:
    return load_settings(embedder="fake", worker="none")


# -- the writer process ---------------------------------------------------------------------------------
def _calls(round_no: int) -> Iterator[dict[str, Any]]:
    """The seeded, endless writes of one round. Every content starts with a code word found nowhere else."""
    rng = random.Random(f"{SEED}-{round_no}")
    op = 0
    while True:
        code = f"cr{round_no}o{op}"
        if rng.random() < 0.1:
            owner = rng.choice(USERS)
            item = {"content": f"{code} {owner} cares about {rng.choice(WORDS)}", "user": owner}
            yield {"round": round_no, "op": op, "kind": "fact", "thread": None, "items": [item]}
        else:
            size = 1 if rng.random() < 0.5 else rng.randint(2, 8)
            items = []
            for part in range(size):
                user = rng.choice(USERS) if rng.random() < 0.6 else None
                items.append(
                    {
                        "role": "user" if user else "assistant",
                        "content": f"{code}p{part} talks about {rng.choice(WORDS)} and {rng.choice(WORDS)}",
                        "user": user,
                        "name": None if user or rng.random() < 0.5 else "helper",
                        "metadata": {"round": round_no, "op": op, "part": part},
                    }
                )
            yield {"round": round_no, "op": op, "kind": "messages", "thread": rng.choice(THREADS), "items": items}
        op += 1


def _log(fd: int, record: dict[str, Any]) -> None:
    os.write(fd, (json.dumps(record) + "\n").encode())
    os.fsync(fd)


def _make(mem: Memory, call: dict[str, Any]) -> None:
    items, thread = call["items"], call["thread"]
    if call["kind"] == "fact":
        mem.remember(items[0]["content"], user=items[0]["user"], metadata={"round": call["round"]})
    elif len(items) == 1:
        one = items[0]
        mem.add_message(
            thread, one["role"], one["content"], user=one["user"], name=one["name"], metadata=one["metadata"]
        )
    else:
        mem.add_messages(thread, items)


def _write_until_killed(url: str, round_no: int, log: str, started: Any) -> None:
    """The writer: log each call before and after it (fsynced), and keep writing until killed."""
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        mem = Memory(url, agent=AGENT, settings=_settings())
        started.set()
        for call in _calls(round_no):
            _log(fd, {"try": call})
            _make(mem, call)
            _log(fd, {"ok": call["op"]})
    except BaseException as exc:  # shown by the test: a writer must only ever stop by being killed
        _log(fd, {"error": repr(exc)})
        raise


# -- what the writers did --------------------------------------------------------------------------------
@dataclass
class Call:
    """One write a writer made: ``accepted`` if it returned; otherwise it was in flight when the kill came."""

    round: int
    op: int
    kind: str
    thread: str | None
    items: list[dict[str, Any]]
    accepted: bool = False

    @property
    def contents(self) -> list[str]:
        return [item["content"] for item in self.items]


def _run_round(ctx: Any, url: str, round_no: int, log: Path, delay: float) -> list[Call]:
    """Fork a writer, kill it ``delay`` seconds after it started writing; the calls it logged."""
    started = ctx.Event()
    proc = ctx.Process(target=_write_until_killed, args=(url, round_no, str(log), started))
    proc.start()
    try:
        deadline = time.monotonic() + 60
        while not started.wait(0.05) and proc.is_alive() and time.monotonic() < deadline:
            pass
        if started.is_set():
            time.sleep(delay)
    finally:
        proc.kill()
        proc.join(timeout=30)
    calls: dict[int, Call] = {}
    for line in log.read_text().split("\n")[:-1]:  # a line the kill cut short has no newline: left out
        record = json.loads(line)
        assert "error" not in record, f"writer {round_no} failed before the kill: {record['error']}"
        if "try" in record:
            calls[record["try"]["op"]] = Call(**record["try"])
        else:
            calls[record["ok"]].accepted = True
    assert started.is_set(), f"writer {round_no} did not start"
    assert proc.exitcode == -signal.SIGKILL, f"writer {round_no} stopped by itself ({proc.exitcode})"
    in_flight = [c.op for c in calls.values() if not c.accepted]
    assert in_flight in ([], [max(calls, default=-1)]), f"only a writer's last call can be unanswered: {in_flight}"
    return list(calls.values())


def _stored_calls(calls: list[Call], stored: Counter[str]) -> list[Call]:
    """The calls the store must hold: every accepted one, and each one in flight that was stored whole."""
    kept = []
    for call in calls:
        present = [c for c in call.contents if c in stored]
        if not call.accepted:
            assert present in ([], call.contents), f"a batch was stored in part: {present} of {call.contents}"
            if not present:
                continue
        kept.append(call)
    return kept


# -- the checks ------------------------------------------------------------------------------------------
def _check_messages(mem: Memory, calls: list[Call]) -> list[Message]:
    """Every accepted message once, in order, with gap-free seqs, thread counts and users that agree."""
    history = {key: mem.history(key) for key in THREADS}
    stored = Counter(m.content for messages in history.values() for m in messages)
    assert [c for c, n in stored.items() if n > 1] == [], "messages stored twice"
    kept = _stored_calls([c for c in calls if c.kind == "messages"], stored)
    lost = [text for c in kept for text in c.contents if text not in stored]
    assert lost == [], f"{len(lost)} accepted messages lost"
    unknown = set(stored) - {text for c in kept for text in c.contents}
    assert unknown == set(), "messages nobody wrote"
    threads = {t.key: t for t in mem.threads()}
    assert set(threads) == {key for key, messages in history.items() if messages}
    for key, messages in history.items():
        expected = [item for c in kept if c.thread == key for item in c.items]
        assert [(m.content, m.role, m.user, m.name, m.metadata) for m in messages] == [
            (i["content"], i["role"], i["user"], i["name"], i["metadata"]) for i in expected
        ], f"thread {key} does not hold its messages in the order they were written"
        assert [m.seq for m in messages] == list(range(1, len(messages) + 1)), f"seq gaps in {key}"
        if messages:
            assert threads[key].message_count == len(messages)
            assert sorted(threads[key].users) == sorted({m.user for m in messages if m.user})
    return [m for messages in history.values() for m in messages]


def _check_facts(mem: Memory, calls: list[Call]) -> list[Fact]:
    """Every accepted fact once; an unanswered one is there or not."""
    facts = mem.facts(all_users=True)
    stored = Counter(f.content for f in facts)
    assert [c for c, n in stored.items() if n > 1] == [], "facts stored twice"
    kept = _stored_calls([c for c in calls if c.kind == "fact"], stored)
    assert sorted(stored) == sorted(c.contents[0] for c in kept)
    assert {(f.content, f.owner) for f in facts} == {(c.contents[0], c.items[0]["user"]) for c in kept}
    return facts


def _check_indexes(mem: Memory, messages: list[Message], facts: list[Fact]) -> None:
    """Each message and fact is found by keyword search and has its own vector; recall (by keyword) and
    vector search find the newest message of each thread."""
    assert mem.embedder is not None
    store = mem.store
    for m in messages:
        scope = Scope(thread=m.thread, kinds=("message",))
        found = [c.id for c in store.keyword_search(AGENT, m.content.split()[0], scope, 5)]
        assert m.id in found, f"keyword search misses message {m.content!r}"
    for f in facts:
        scope = Scope(user=f.owner, kinds=("fact",))
        found = [c.id for c in store.keyword_search(AGENT, f.content.split()[0], scope, 5)]
        assert f.id in found, f"keyword search misses fact {f.content!r}"
    for kind, items in (("message", messages), ("fact", facts)):
        ids, vectors = store.get_vectors(AGENT, kind, [x.id for x in items])
        assert ids == [x.id for x in items], f"{kind}s without a vector"
        np.testing.assert_allclose(vectors, mem.embedder.embed([item_text(x) for x in items]), atol=1e-6)
    newest = {m.thread: m for m in sorted(messages, key=lambda m: m.seq)}
    for key, m in newest.items():
        recalled = mem.recall(m.content.split()[0], thread=key, kinds=["message"], limit=1, preset="keyword")
        assert [h.message_id for h in recalled] == [m.id], f"recall misses the newest message of {key}"
        [vector] = mem.embedder.embed([item_text(m)])
        hits = store.vector_search(AGENT, vector, Scope(thread=key, kinds=("message",)), 1)
        assert [c.id for c in hits] == [m.id], f"vector search misses the newest message of {key}"


def _check_sqlite_file(path: Path, message_ids: set[int]) -> None:
    """The file passes SQLite's and FTS5's integrity checks, and the message index holds exactly the messages."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        register_functions(conn)  # the schema's triggers call it
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        for check in (  # each raises if its index is corrupt
            "INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)",
            "INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 1)",
            "INSERT INTO summaries_fts (summaries_fts, rank) VALUES ('integrity-check', 1)",
        ):
            conn.execute(check)
        assert {r[0] for r in conn.execute("SELECT rowid FROM messages_fts")} == message_ids
    finally:
        conn.close()


def _wait_for_no_other_sessions(url: str) -> None:
    """The server ended the killed writers' sessions (so their open transactions are rolled back)."""
    import psycopg

    deadline = time.monotonic() + 10
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            others = conn.execute(
                "SELECT pid, state FROM pg_stat_activity WHERE datname = current_database() "
                "AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
            ).fetchall()
            if not others:
                return
            assert time.monotonic() < deadline, f"sessions of killed writers live on: {others}"
            time.sleep(0.05)


# -- the test --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_writers_killed_mid_write_lose_no_accepted_write(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Kill a writer with SIGKILL at a random moment, round after round, each new writer continuing the same
    threads; then every accepted write is there once, and the store and its indexes are consistent."""
    url = str(tmp_path / "crash.db") if backend == "sqlite" else request.getfixturevalue("new_pg_database")()
    Memory(url, agent=AGENT, settings=_settings()).close()  # migrated before the first writer starts
    get_tokenizer("o200k_base").load()  # the default model's encoding: loaded here, not by each writer
    ctx = multiprocessing.get_context("fork")
    delays = random.Random(SEED)
    calls: list[Call] = []
    for round_no in range(ROUNDS):
        log = tmp_path / f"writer-{round_no}.jsonl"
        calls += _run_round(ctx, url, round_no, log, delays.uniform(*KILL_AFTER))
    assert sum(len(c.items) for c in calls if c.accepted and c.kind == "messages") >= 20, "the writers wrote little"
    assert any(not c.accepted for c in calls), "no kill came in the middle of a write"
    if backend == "postgres":
        _wait_for_no_other_sessions(url)

    with Memory(url, agent=AGENT, settings=_settings()) as mem:
        messages = _check_messages(mem, calls)
        facts = _check_facts(mem, calls)
        counts = mem.status().counts
        assert (counts["messages"], counts["facts"], counts["threads"]) == (
            len(messages),
            len(facts),
            len({m.thread for m in messages}),
        )
        _check_indexes(mem, messages, facts)
        last = mem.add_message(THREADS[0], "user", "written after the crashes", user="alice")
        assert last.seq == len([m for m in messages if m.thread == THREADS[0]]) + 1
    if backend == "sqlite":
        _check_sqlite_file(Path(url), {m.id for m in messages} | {last.id})
