"""Faults under load (issue 41): 2 servers and 2 workers on one PostgreSQL, killed and restarted, checked for
anything lost or doubled.

On its own throwaway PostgreSQL (``synchronous_commit=on``: an immediate stop must not lose a commit a client
was told about), it starts 2 ``memlane serve`` processes (``--workers-in-process 0``; the API key made with
``memlane keys create``) and 2 ``memlane worker`` processes, an LLM stand-in on loopback
(:class:`memlane.testing.FakeLLMServer`, answering every pipeline prompt) and the fake embedder. 32 clients
(:class:`memlane.AsyncClient`, half on each server, each its own user) write tagged messages, recall and build
contexts, in threads of 16 to 24 messages that they then end, so summaries, fact extraction, memories and
their compaction run all along. A write carries its tag as ``external_id``; one that fails (the client's own
retries used up) is sent again, to the other server, until it is acknowledged.

During the run, in a schedule drawn from ``--seed``:

    server    SIGKILL one server, start it again at once
    worker    SIGKILL a worker while it holds a job, start it again
    database  stop PostgreSQL with ``-m immediate`` for a few seconds, start it again
    lease     hold one summarize call of the LLM stand-in past the workers' lease (another worker takes the job)

Afterwards the workers drain the queue and the database is checked: every acknowledged message present exactly
once, at the seq it was acknowledged with, in order, every thread's seqs gap-free; no job lost (dead) or stuck
(ready or leased but not done); no summary range summarised twice (ranges of a thread do not overlap); no memory
or fact duplicated; each user's memories within the cap; no fact a user saw in recall or context owned by another
user. Time to recover is measured per fault (see ``FAULTS`` in the output).

    PYTHONPATH=src .venv/bin/python bench/chaos.py --seed 1 [--duration 180] [--clients 32]
        [--out bench/out/chaos-1.json]

Prints a summary and a Markdown row for ``bench/RESULTS.md``; exits 1 when a check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg

import memlane
from memlane import AsyncClient, MemlaneError
from memlane.testing import FakeLLMServer, Fault
from memlane.testing.postgres import ThrowawayPostgres

ROOT = Path(__file__).resolve().parents[1]
AGENT = "chaos"
LEASE = 20.0  # seconds: short, so that a killed worker's jobs come back within the run
MEMORY_CAP = 3
WORDS = [
    *("hiking", "coffee", "python", "garden", "budget", "travel", "music", "guitar", "piano", "dinner", "recipe"),
    *("weekend", "meeting", "project", "doctor", "running", "marathon", "novel", "movie", "camera", "beach"),
    *("winter", "summer", "train", "flight", "hotel", "birthday", "sister", "office", "holiday", "cooking", "bread"),
]
TAG = re.compile(r"\[(u\d+\.t\d+\.m\d+)\]")
LINE = re.compile(r"^\[#(\d+) [^\]]*\] ([^:]+): (.*)$")


# -- the LLM stand-in -----------------------------------------------------------------------------------------
class Responder:
    """Answers every prompt of the pipeline: a summary and a fact for each "I really like X" line of the
    batch, a memory, and a schema-shaped answer to anything else. :meth:`stall_next` holds the next summarize
    call for ``seconds`` (past the lease)."""

    def __init__(self) -> None:
        self._stall: float | None = None
        self._lock = threading.Lock()
        self.stalled_at: float | None = None
        self.calls: Counter[str] = Counter()

    def stall_next(self, seconds: float) -> None:
        with self._lock:
            self._stall = seconds

    def __call__(self, request: dict[str, Any]) -> str | Fault:
        fmt = request.get("response_format") or {}
        schema = fmt.get("json_schema", {}) if isinstance(fmt, dict) else {}
        name = schema.get("name")
        self.calls[str(name)] += 1
        prompt = "\n".join(str(m.get("content", "")) for m in request.get("messages", []))
        if name == "SummaryAndFacts":
            reply = json.dumps(_summary_and_facts(prompt))
            with self._lock:
                stall, self._stall = self._stall, None
            if stall is not None:
                self.stalled_at = time.monotonic()
                return Fault.slow(stall, then=reply)
            return reply
        if name == "MemoryText":
            tags = TAG.findall(prompt)
            return json.dumps({"memory": f"A conversation covering {len(tags)} messages, from {tags[:1]} on."})
        return json.dumps(_fill(schema.get("schema") or {}, schema.get("schema") or {}))


def _summary_and_facts(prompt: str) -> dict[str, Any]:
    conversation = prompt.split("Conversation:", 1)[-1]
    facts, seqs = [], []
    for line in conversation.splitlines():
        match = LINE.match(line.strip())
        if match is None:
            continue
        seqs.append(int(match.group(1)))
        speaker, text = match.group(2).split(" (")[0].strip(), match.group(3)
        liked = re.search(r"I really like (\w+)", text)
        tag = TAG.search(text)
        if liked and tag:
            content = f"{speaker} likes {liked.group(1)} (said in {tag.group(1)})"
            facts.append({"category": "preference", "content": content, "importance": 3, "speaker": speaker})
    span = f"#{min(seqs)}-#{max(seqs)}" if seqs else "nothing"
    return {"summary": f"The user and the assistant talked about plans ({span}).", "facts": facts}


def _fill(schema: dict[str, Any], root: dict[str, Any]) -> Any:
    """A minimal value of a JSON schema (first enum value, empty lists, "ok" strings, 1 for numbers)."""
    if "$ref" in schema:
        return _fill(root.get("$defs", {}).get(schema["$ref"].rsplit("/", 1)[-1], {}), root)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return _fill(options[0], root)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {name: _fill(props[name], root) for name in schema.get("required", list(props))}
    return {"array": [], "string": "ok", "integer": 1, "number": 1, "boolean": False, "null": None}.get(kind, "ok")


# -- processes ------------------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Proc:
    """A ``memlane`` process started again on the same arguments after a kill."""

    name: str
    args: list[str]
    env: dict[str, str]
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def start(self) -> None:
        self.starts += 1
        with self.log.open("ab") as out:
            out.write(f"\n=== start {self.starts} at {datetime.now(UTC).isoformat()} ===\n".encode())
            out.flush()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "memlane", *self.args], env=self.env, stdout=out, stderr=subprocess.STDOUT
            )

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.kill()


def ready(url: str) -> bool:
    try:
        return httpx.get(f"{url}/readyz", timeout=3, trust_env=False).status_code == 200
    except httpx.HTTPError:
        return False


def wait_until(predicate: Any, timeout: float, poll: float = 0.1) -> float | None:
    """Seconds until ``predicate()`` held, or None if it did not within ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if predicate():
            return round(time.monotonic() - started, 2)
        time.sleep(poll)
    return None


# -- the clients ----------------------------------------------------------------------------------------------
@dataclass
class Tally:
    """What the clients did and saw."""

    acked: dict[str, list[tuple[str, int]]] = field(default_factory=lambda: defaultdict(list))  # thread -> tags
    ack_times: list[float] = field(default_factory=list)
    sends: Counter[str] = field(default_factory=Counter)  # HTTP requests per tag (the client's own retries too)
    app_retries: int = 0
    read_errors: int = 0
    reads: int = 0
    ended: list[str] = field(default_factory=list)
    seen_facts: set[tuple[str, int]] = field(default_factory=set)  # (user, fact id) in recall or context
    errors: Counter[str] = field(default_factory=Counter)
    finished: float | None = None  # when the last client stopped


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14))).capitalize() + "."


async def run_clients(urls: list[str], key: str, clients: int, until: float, seed: int, tally: Tally) -> None:
    async def count_send(request: httpx.Request) -> None:
        if request.method == "POST" and request.url.path.endswith("/messages"):
            with contextlib.suppress(ValueError, KeyError, TypeError):
                tally.sends[json.loads(request.content)["external_id"]] += 1

    https = [
        httpx.AsyncClient(timeout=15, trust_env=False, event_hooks={"request": [count_send]},
                          limits=httpx.Limits(max_connections=clients + 8))
        for _ in urls
    ]  # fmt: skip
    servers = [AsyncClient(url, key, agent=AGENT, http=http) for url, http in zip(urls, https, strict=True)]
    try:
        await asyncio.gather(*(client(i, servers, until, seed, tally) for i in range(clients)))
    finally:
        tally.finished = time.monotonic()
        for http in https:
            await http.aclose()


async def client(i: int, servers: list[AsyncClient], until: float, seed: int, tally: Tally) -> None:
    rng = random.Random(seed * 1000 + i)
    user, side = f"u{i}", i % len(servers)
    number, sent, length = 0, 0, rng.randint(16, 24)
    thread = f"{user}.t{number}"

    async def with_failover(what: str, call: Any) -> Any:
        """Run ``call(server)`` until it succeeds, on the other server after a failure (backoff to 2 s)."""
        nonlocal side
        pause = 0.2
        while True:
            try:
                return await call(servers[side])
            except MemlaneError as exc:
                tally.app_retries += 1
                tally.errors[f"{what}: {type(exc).__name__}"] += 1
                if time.monotonic() > until + 180:
                    raise
                side = (side + 1) % len(servers)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)

    async def write(role: str, text: str) -> None:
        nonlocal sent
        sent += 1
        tag = f"{thread}.m{sent}"
        body = f"{text} [{tag}]"
        message = await with_failover(
            "write",
            lambda s: s.add_message(thread, role, body, user=user if role == "user" else None, external_id=tag),
        )
        tally.acked[thread].append((tag, message.seq))
        tally.ack_times.append(time.monotonic())

    while time.monotonic() < until:
        r = rng.random()
        if r < 0.6:
            if rng.random() < 0.3:
                await write("user", f"I really like {rng.choice(WORDS)}. {sentence(rng)}")
            else:
                await write("user", sentence(rng))
            await write("assistant", f"Noted. {sentence(rng)}")
        else:
            tally.reads += 1
            try:
                if r < 0.8:
                    hits = await servers[side].recall(sentence(rng), user=user, limit=5)
                    tally.seen_facts.update((user, h.id) for h in hits if h.kind == "fact")
                else:
                    ctx = await servers[side].context(thread, query=sentence(rng), user=user, budget=1500)
                    tally.seen_facts.update((user, f.id) for f in ctx.facts)
                    tally.seen_facts.update((user, h.id) for h in ctx.recalled if h.kind == "fact")
            except MemlaneError as exc:
                tally.read_errors += 1
                tally.errors[f"read: {type(exc).__name__}"] += 1
                side = (side + 1) % len(servers)
                await asyncio.sleep(0.2)
        if sent >= length:
            await with_failover("end", lambda s, ending=thread: s.end(ending))
            tally.ended.append(thread)
            number, sent, length = number + 1, 0, rng.randint(16, 24)
            thread = f"{user}.t{number}"


# -- the faults -----------------------------------------------------------------------------------------------
def schedule(seed: int, duration: float) -> list[tuple[float, str]]:
    """When each fault starts (seconds into the load), in an order and at times drawn from ``seed``."""
    rng = random.Random(seed)
    kinds = ["server", "worker", "database", "lease"]
    rng.shuffle(kinds)
    slot = (duration - 30) / len(kinds)
    return [(round(15 + n * slot + rng.uniform(0, slot * 0.4), 1), kind) for n, kind in enumerate(kinds)]


class Faults:
    def __init__(self, pg: ThrowawayPostgres, servers: list[Proc], urls: list[str], workers: list[Proc],
                 llm: Responder, tally: Tally, rng: random.Random) -> None:  # fmt: skip
        self.pg, self.servers, self.urls, self.workers, self.llm = pg, servers, urls, workers, llm
        self.tally, self.rng = tally, rng
        self.report: list[dict[str, Any]] = []

    def jobs(self, query: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.pg.url, connect_timeout=5) as conn:
            return conn.execute(query, params).fetchall()

    def done(self, ids: list[int]) -> bool:
        with contextlib.suppress(psycopg.Error):
            rows = self.jobs("SELECT count(*) FROM jobs WHERE id = ANY(%s) AND status IN ('done', 'dead')", (ids,))
            return int(rows[0][0]) == len(ids)
        return False

    def finished_since(self, since: datetime) -> bool:
        with contextlib.suppress(psycopg.Error):
            return bool(self.jobs("SELECT 1 FROM jobs WHERE status = 'done' AND updated_at > %s LIMIT 1", (since,)))
        return False

    def attempts(self, ids: list[int]) -> list[int]:
        with contextlib.suppress(psycopg.Error):
            return [int(r[0]) for r in self.jobs("SELECT attempts FROM jobs WHERE id = ANY(%s) ORDER BY id", (ids,))]
        return []

    def acked_between(self, start: float, end: float) -> int:
        return sum(1 for t in self.tally.ack_times if start <= t < end)

    def longest_gap(self, start: float, end: float) -> float:
        times = sorted(t for t in self.tally.ack_times if start - 5 <= t <= end)
        gaps = [b - a for a, b in itertools.pairwise(times) if b >= start]
        return round(max(gaps, default=0.0), 2)

    def run(self, kind: str) -> None:
        began = time.monotonic()
        entry: dict[str, Any] = {"fault": kind, "at_s": None}
        getattr(self, kind)(entry)
        entry["fault_s"] = round(time.monotonic() - began, 2)
        self.report.append(entry)
        print(f"  fault {kind}: {entry}", flush=True)

    def server(self, entry: dict[str, Any]) -> None:
        n = self.rng.randrange(len(self.servers))
        killed = time.monotonic()
        self.servers[n].kill()
        self.servers[n].start()
        entry["server"] = n
        entry["recover_s"] = wait_until(lambda: ready(self.urls[n]), 120, 0.2)  # the restarted process answers
        entry["acked_meanwhile"] = self.acked_between(killed, time.monotonic())
        entry["longest_ack_gap_s"] = self.longest_gap(killed, time.monotonic())

    def worker(self, entry: dict[str, Any]) -> None:
        n = self.rng.randrange(len(self.workers))
        target = self.workers[n]
        owner = f"%:{target.pid}:%"
        held: list[int] = []
        missed = 0
        for _ in range(5):  # until the kill lands while the worker holds a job
            query = "SELECT id FROM jobs WHERE status = 'running' AND lease_owner LIKE %s"
            entry["waited_for_a_job_s"] = wait_until(lambda q=query, o=owner: bool(self.jobs(q, (o,))), 60, 0.02)
            killed = time.monotonic()
            target.kill()
            held = [int(r[0]) for r in self.jobs(query, (owner,))]  # what it held when it died
            target.start()
            owner = f"%:{target.pid}:%"
            if held:
                break
            missed += 1  # it finished its job between the look and the kill
        entry.update(worker=n, jobs_held=held, kills_between_jobs=missed)
        # Its jobs come back when their lease expires (LEASE s), and run again.
        entry["recover_s"] = wait_until(lambda: self.done(held), 180, 0.5) if held else None
        entry["attempts"] = self.attempts(held)
        entry["acked_meanwhile"] = self.acked_between(killed, time.monotonic())

    def database(self, entry: dict[str, Any]) -> None:
        down = round(self.rng.uniform(4, 12), 1)
        stopped = time.monotonic()
        self.pg.stop()
        time.sleep(down)
        self.pg.start()
        back, back_at = time.monotonic(), datetime.now(UTC)
        entry["down_s"] = down
        entry["recover_s"] = wait_until(lambda: all(ready(u) for u in self.urls), 60, 0.2)
        wait_until(lambda: self.acked_between(back, time.monotonic()) > 0, 60)
        first_ack = min((t for t in list(self.tally.ack_times) if t >= back), default=None)
        entry["first_ack_after_start_s"] = None if first_ack is None else round(first_ack - back, 2)
        wait_until(lambda: self.finished_since(back_at), 60, 0.2)
        first_done = self.jobs("SELECT min(updated_at) FROM jobs WHERE status = 'done' AND updated_at > %s", (back_at,))
        done_at = first_done[0][0] if first_done else None
        after = None if done_at is None else (done_at - back_at).total_seconds()
        entry["first_job_done_after_start_s"] = None if after is None else round(after, 2)
        entry["acked_during_outage"] = self.acked_between(stopped + 1, back)
        entry["longest_ack_gap_s"] = self.longest_gap(stopped, time.monotonic())

    def lease(self, entry: dict[str, Any]) -> None:
        hold = LEASE + 10
        self.llm.stalled_at = None
        self.llm.stall_next(hold)
        started = wait_until(lambda: self.llm.stalled_at is not None, 60, 0.05)
        time.sleep(0.5)
        rows: list[tuple[Any, ...]] = []
        with contextlib.suppress(psycopg.Error):
            rows = self.jobs("SELECT id FROM jobs WHERE status = 'running' AND kind = 'summarize'")
        held = [int(r[0]) for r in rows]
        entry.update(held_for_s=hold, waited_for_a_call_s=started, jobs_running=held)
        # A summarize job whose lease ran out while its LLM call hung is taken and finished by another worker.
        entry["recover_s"] = wait_until(lambda: self.done(held), 180, 0.5) if held else None
        entry["attempts"] = self.attempts(held)


# -- the checks -----------------------------------------------------------------------------------------------
def check(url: str, tally: Tally) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with psycopg.connect(url) as conn:
        agent = conn.execute("SELECT id FROM agents WHERE name = %s", (AGENT,)).fetchone()
        assert agent is not None, "the agent was never written"
        agent_id = int(agent[0])
        rows = conn.execute(
            "SELECT t.key, m.seq, m.metadata->>'external_id', m.content FROM messages m JOIN threads t "
            "ON t.id = m.thread_id WHERE m.agent_id = %s ORDER BY t.key, m.seq",
            (agent_id,),
        ).fetchall()
        by_thread: dict[str, list[tuple[int, str | None, str]]] = defaultdict(list)
        for key, seq, external, content in rows:
            by_thread[key].append((int(seq), external, content))
        stored = Counter(external for key in by_thread for _, external, _ in by_thread[key])
        in_content = Counter(tag for items in by_thread.values() for _, _, text in items for tag in TAG.findall(text))
        acked = [(thread, tag, seq) for thread, tags in tally.acked.items() for tag, seq in tags]
        lost = [tag for _, tag, _ in acked if stored[tag] == 0]
        duplicated = [tag for _, tag, _ in acked if stored[tag] > 1 or in_content[tag] > 1]
        at_seq = {(key, ext): seq for key, items in by_thread.items() for seq, ext, _ in items}
        moved = [tag for thread, tag, seq in acked if at_seq.get((thread, tag)) not in (None, seq)]
        gaps = [key for key, items in by_thread.items() if [s for s, _, _ in items] != list(range(1, len(items) + 1))]
        out_of_order = [
            thread for thread, tags in tally.acked.items() if [s for _, s in tags] != sorted(s for _, s in tags)
        ]
        acked_set = {tag for _, tag, _ in acked}
        out["messages"] = {
            "acknowledged": len(acked),
            "stored": len(rows),
            "stored_not_acknowledged": sum(1 for tag in stored if tag not in acked_set),
            "lost": len(lost),
            "duplicated": len(duplicated),
            "at_another_seq": len(moved),
            "threads": len(by_thread),
            "threads_with_seq_gaps": len(gaps),
            "threads_out_of_order": len(out_of_order),
            "examples": (lost + duplicated + moved + gaps + out_of_order)[:5],
        }
        jobs = conn.execute(
            "SELECT kind, status, count(*), count(*) FILTER (WHERE attempts > 1) FROM jobs WHERE agent_id = %s "
            "GROUP BY kind, status ORDER BY kind, status",
            (agent_id,),
        ).fetchall()
        stuck = conn.execute(
            "SELECT count(*) FROM jobs WHERE agent_id = %s AND ((status = 'pending' AND run_after <= now()) OR "
            "(status = 'running' AND lease_expires_at <= now()))",
            (agent_id,),
        ).fetchone()
        out["jobs"] = {
            "by_kind_and_status": {f"{k}/{s}": int(n) for k, s, n, _ in jobs},
            "run_more_than_once": sum(int(r) for *_, r in jobs),
            "dead": sum(int(n) for _, s, n, _ in jobs if s == "dead"),
            "ready_or_running": _busy(conn),
            "scheduled_later": int(
                one(conn, "SELECT count(*) FROM jobs WHERE status = 'pending' AND run_after > now()")
            ),
            "stuck": int(stuck[0]) if stuck else -1,
            "last_errors": [
                str(r[0])[:160]
                for r in conn.execute(
                    "SELECT DISTINCT last_error FROM jobs WHERE agent_id = %s AND status <> 'done' LIMIT 5", (agent_id,)
                )
            ],
        }
        summaries = conn.execute(
            "SELECT t.key, s.kind, s.from_seq, s.to_seq, s.owner FROM summaries s JOIN threads t ON t.id = s.thread_id "
            "WHERE s.agent_id = %s ORDER BY t.key, s.kind, s.from_seq",
            (agent_id,),
        ).fetchall()
        ranges: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
        for key, kind, low, high, _ in summaries:
            ranges[(key, kind)].append((int(low), int(high)))
        overlaps = [
            f"{key} {kind} {a}-{b}"
            for (key, kind), spans in ranges.items()
            for a, b in itertools.pairwise(spans)
            if b[0] <= a[1]
        ]
        rolling_not_from_start = [
            key for (key, kind), spans in ranges.items() if kind == "rolling" and spans and spans[0][0] != 1
        ]
        memories = Counter(owner for _, kind, _, _, owner in summaries if kind == "memory")
        out["summaries"] = {
            "rolling": sum(1 for s in summaries if s[1] == "rolling"),
            "memories": sum(memories.values()),
            "ranges_summarised_twice": len(overlaps),
            "rolling_not_from_seq_1": len(rolling_not_from_start),
            "users_over_memory_cap": sum(1 for n in memories.values() if n > MEMORY_CAP),
            "most_memories_of_a_user": max(memories.values(), default=0),
            "examples": overlaps[:5],
        }
        facts = conn.execute(
            "SELECT owner, lower(content), count(*) FROM facts WHERE agent_id = %s AND status = 'active' "
            "GROUP BY owner, lower(content)",
            (agent_id,),
        ).fetchall()
        owners = dict(
            conn.execute(
                "SELECT id, CASE WHEN visibility = 'shared' THEN '*' ELSE owner END FROM facts WHERE agent_id = %s",
                (agent_id,),
            ).fetchall()
        )
        leaks = [(user, fid) for user, fid in tally.seen_facts if owners.get(fid) not in (user, "*", None)]
        out["facts"] = {
            "active": sum(int(n) for *_, n in facts),
            "duplicated": sum(int(n) - 1 for *_, n in facts if int(n) > 1),
            "seen_by_their_users": len(tally.seen_facts),
            "seen_by_another_user": len(leaks),
            "examples": [f"{o}: {c}" for o, c, n in facts if int(n) > 1][:5],
        }
    return out


def failures(result: dict[str, Any]) -> list[str]:
    m, j, s, f = result["messages"], result["jobs"], result["summaries"], result["facts"]
    checks = {
        "acknowledged messages lost": m["lost"],
        "acknowledged messages duplicated": m["duplicated"],
        "messages at another seq than acknowledged": m["at_another_seq"],
        "threads with seq gaps": m["threads_with_seq_gaps"],
        "threads out of order": m["threads_out_of_order"],
        "jobs dead": j["dead"],
        "jobs stuck": j["stuck"],
        "jobs ready or running after the drain": j["ready_or_running"],
        "summary ranges summarised twice": s["ranges_summarised_twice"],
        "rolling summaries not starting at seq 1": s["rolling_not_from_seq_1"],
        "users over the memory cap": s["users_over_memory_cap"],
        "facts duplicated": f["duplicated"],
        "facts seen by another user": f["seen_by_another_user"],
        "no summaries, facts or memories made": int(not (s["rolling"] and s["memories"] and f["active"])),
        "faults not recovered from": sum(1 for fault in result["faults"] if fault.get("recover_s") is None),
        "clients stuck past the load's end by more than 60 s": int(result["clients_overran_s"] > 60),
    }
    return [f"{what}: {n}" for what, n in checks.items() if n]


# -- one run --------------------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duration", type=float, default=180.0, help="seconds of load (the faults fall in it)")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--drain", type=float, default=240.0, help="most seconds to wait for the queue to empty")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    out = Path(args.out or ROOT / "bench" / "out" / f"chaos-{args.seed}.json")
    logs = out.parent / f"chaos-{args.seed}-logs"
    logs.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    plan = schedule(args.seed, args.duration)
    print(f"chaos seed {args.seed}: {args.clients} clients for {args.duration:.0f} s; faults {plan}", flush=True)
    tally = Tally()
    llm = Responder()
    procs: list[Proc] = []
    with ThrowawayPostgres(settings={"synchronous_commit": "on"}) as pg, FakeLLMServer(responder=llm) as fake:
        env = {**os.environ, "PYTHONPATH": str(Path(memlane.__file__).parents[1]), "MEMLANE_DATABASE": pg.url,
               "MEMLANE_AGENT": AGENT, "MEMLANE_EMBEDDER": "fake", "MEMLANE_WORKER": "none",
               "MEMLANE_LLM_PROVIDER": "openai", "MEMLANE_LLM_BASE_URL": fake.base_url,
               "MEMLANE_LLM_MODEL": "fake-gpt", "MEMLANE_LLM_TIMEOUT": "60",
               "MEMLANE_WORKER_LEASE_SECONDS": str(LEASE), "MEMLANE_WORKER_POLL_INTERVAL": "0.5",
               "MEMLANE_SUMMARIZE_AFTER": "12", "MEMLANE_SUMMARIZE_BATCH": "8",
               "MEMLANE_MEMORY_CAP": str(MEMORY_CAP), "MEMLANE_PROFILE_MERGE_DELAY": "5"}  # fmt: skip
        made = subprocess.run([sys.executable, "-m", "memlane", "--json", "keys", "create", "--agent", AGENT,
                               "--label", "chaos"], env=env, capture_output=True, text=True, check=True)  # fmt: skip
        key = json.loads(made.stdout)["key"]
        ports = [free_port() for _ in range(2)]
        urls = [f"http://127.0.0.1:{p}" for p in ports]
        servers = [Proc(f"server{n}", ["serve", "--port", str(p), "--workers-in-process", "0", "--rate-limit", "0",
                                       "--no-access-log"], env, logs / f"server{n}.log")
                   for n, p in enumerate(ports)]  # fmt: skip
        workers = [Proc(f"worker{n}", ["worker", "--batch", "2"], env, logs / f"worker{n}.log") for n in range(2)]
        procs = servers + workers
        try:
            for p in procs:
                p.start()
            for url in urls:
                if wait_until(lambda u=url: ready(u), 180, 0.2) is None:
                    raise SystemExit(f"{url} did not become ready; see {logs}")
            setup_s = round(time.monotonic() - started, 1)
            print(f"  ready after {setup_s} s", flush=True)
            begin = time.monotonic()
            until = begin + args.duration
            loop = asyncio.new_event_loop()
            load = threading.Thread(
                target=loop.run_until_complete,
                args=(run_clients(urls, key, args.clients, until, args.seed, tally),),
                name="chaos-clients",
            )
            load.start()
            faults = Faults(pg, servers, urls, workers, llm, tally, random.Random(args.seed))
            for at, kind in plan:  # faults run from this thread: it started PostgreSQL (parent-death signal)
                time.sleep(max(0.0, begin + at - time.monotonic()))
                faults.run(kind)
                faults.report[-1]["at_s"] = at
            load.join()
            load_s = round(time.monotonic() - begin, 1)
            print(f"  load ended after {load_s} s; draining the queue", flush=True)
            drained = wait_until(lambda: _queue_empty(pg.url), args.drain, 1.0)
            result = check(pg.url, tally)
        finally:
            for p in procs:
                p.stop()
    total = sum(tally.sends.values())
    result.update(
        seed=args.seed,
        schedule=plan,
        faults=faults.report,
        clients=args.clients,
        duration_s=args.duration,
        setup_s=setup_s,
        load_s=load_s,
        clients_overran_s=round((tally.finished or time.monotonic()) - until, 1),
        drain_s=drained,
        wall_s=round(time.monotonic() - started, 1),
        requests={
            "write_sends": total,
            "writes_resent": total - len(tally.sends),
            "app_retries": tally.app_retries,
            "reads": tally.reads,
            "read_errors": tally.read_errors,
            "errors": dict(tally.errors),
        },
        llm_calls=dict(llm.calls),
        restarts={p.name: p.starts - 1 for p in procs},
        load_average=os.getloadavg(),
        date=datetime.now(UTC).isoformat(timespec="seconds"),
    )
    failed = failures(result)
    result["failed"] = failed
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps({k: result[k] for k in ("messages", "jobs", "summaries", "facts", "requests")}, indent=2))
    print(row(result))
    print("FAILED: " + "; ".join(failed) if failed else "all checks passed", flush=True)
    if failed:
        raise SystemExit(1)


def one(conn: psycopg.Connection[Any], query: str) -> Any:
    found = conn.execute(query).fetchone()
    return None if found is None else found[0]


def _busy(conn: psycopg.Connection[Any]) -> int:
    """Jobs a worker could run now or is running (a job scheduled for later, e.g. a profile merge a week off,
    is not work left)."""
    return int(
        one(conn, "SELECT count(*) FROM jobs WHERE status = 'running' OR (status = 'pending' AND run_after <= now())")
    )


def _queue_empty(url: str) -> bool:
    with contextlib.suppress(psycopg.Error), psycopg.connect(url, connect_timeout=5) as conn:
        return _busy(conn) == 0
    return False


def row(r: dict[str, Any]) -> str:
    """One Markdown row: seed, acknowledged, resent, lost, duplicated, and recovery per fault."""
    m = r["messages"]
    rec = {f["fault"]: f.get("recover_s") for f in r["faults"]}
    return (
        f"| {r['seed']} | {m['acknowledged']} | {r['requests']['writes_resent']} + {r['requests']['app_retries']} | "
        f"{m['lost']} | {m['duplicated']} | {rec.get('server')} | {rec.get('worker')} | {rec.get('database')} | "
        f"{rec.get('lease')} | {r['summaries']['rolling']} / {r['facts']['active']} / {r['summaries']['memories']} | "
        f"{r['wall_s']} |"
    )


if __name__ == "__main__":
    main()
