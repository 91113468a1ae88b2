"""Where a request's server CPU goes over HTTP, by thread (issue 39): a real ``memlane serve`` (stand-in
embedder, the tree of ``--src``), ``--clients`` keep-alive clients, ~300 messages added, then each route alone
``--requests`` times; the server's CPU per request from ``/proc/<pid>/task/*/stat``, split into the event
loop's thread (uvicorn, Starlette/FastAPI, the edge middleware, the dependencies, the hand-off's loop side)
and the other threads (the route on its worker thread: the core, the answer's validation and JSON; the
embedder's and the store's own threads). With ``--threads N`` the server's worker threads for routes are
limited to N (anyio's default limiter, set at startup; the server's default is anyio's 40).

    PYTHONPATH=src .venv/bin/python bench/experiments/edge_split.py [--src src] [--clients 8] [--requests 1000]
        [--routes healthz,add,recall,context] [--threads N] [--rounds 1]

``in-process OP``: the same calls in process from ``--clients`` threads on the store ``bench/service_steps.py``
builds (CPU ms per call), to compare one thread with several:

    PYTHONPATH=src .venv/bin/python bench/experiments/edge_split.py --in-process recall [--clients 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import bench_path  # noqa: F401  (puts bench/ on the path)

import service as S
from memlane import Memory, load_settings

USERS = 8


def threads_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each thread of process ``pid``."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(task.name)] = (int(fields[11]) + int(fields[12])) / S.TICK
    return out


async def phase(conns: list[S.Connection], keys: list[str], op: str, count: int, rng: random.Random) -> None:
    left = [count]

    async def client(i: int) -> None:
        while left[0] > 0:
            left[0] -= 1
            status, data = await S.request(conns[i], op, rng, f"c{i}", keys[i])
            if status >= 300:
                raise RuntimeError(f"{op}: {status} {data[:200]!r}")

    await asyncio.gather(*(client(i) for i in range(len(conns))))


async def over_http(server: S.Server, keys: list[str], args: argparse.Namespace) -> None:
    rng = random.Random(7)
    conns = [S.Connection(server.url) for _ in keys]
    await phase(conns, keys, "add", 300, rng)
    print("| route | server CPU ms/req | event loop's thread | other threads | req/s |\n|---|---:|---:|---:|---:|")
    for _ in range(args.rounds):
        for op in args.routes.split(","):
            await phase(conns, keys, op, 40, rng)
            before, started = threads_cpu(server.pid), time.perf_counter()
            await phase(conns, keys, op, args.requests, rng)
            elapsed, after = time.perf_counter() - started, threads_cpu(server.pid)
            loop = after.get(server.pid, 0.0) - before.get(server.pid, 0.0)
            total = sum(after.values()) - sum(before.get(t, 0.0) for t in after)
            n = args.requests
            print(f"| {op} | {total / n * 1000:.2f} | {loop / n * 1000:.2f} | {(total - loop) / n * 1000:.2f} | "
                  f"{n / elapsed:.0f} |", flush=True)  # fmt: skip
    for conn in conns:
        conn.close()


def in_process(op: str, clients: int, calls: int) -> None:
    rng = random.Random(7)
    scratch = tempfile.mkdtemp(prefix="memlane-edge-")
    with Memory(f"{scratch}/s.db", agent=S.AGENT, settings=load_settings(worker="none", embedder="fake")) as mem:
        for i in range(300):
            mem.add_message(f"u{i % USERS}/c{i % USERS}", "user", S.sentence(rng), user=f"u{i % USERS}")
        mem.flush()

        def call(i: int, r: random.Random) -> None:
            user = f"u{i % USERS}"
            if op == "recall":
                mem.recall(S.sentence(r), user=user, limit=5)
            else:
                mem.context(f"{user}/c{i % USERS}", query=S.sentence(r), user=user, budget=2000)

        for i in range(30):
            call(i, rng)
        per = calls // clients

        def client(c: int) -> None:
            r = random.Random(c)
            for i in range(per):
                call(c + i, r)

        workers = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
        started, wall = time.process_time(), time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        cpu, wall = time.process_time() - started, time.perf_counter() - wall
        print(f"{op}, {clients} threads: {cpu / (per * clients) * 1000:.2f} ms CPU per call, "
              f"{per * clients / wall:.0f} calls/s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(Path(__file__).resolve().parents[2] / "src"))
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--routes", default="healthz,add,recall,context")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0, help="limit the server's worker threads (0: as served)")
    parser.add_argument("--in-process", choices=["recall", "context"])
    args = parser.parse_args()
    if args.in_process:
        in_process(args.in_process, args.clients, args.requests)
        return
    src = args.src
    if args.threads:  # the tree's app, with anyio's limiter set at startup (a wrapper module on the path)
        shim = Path(tempfile.mkdtemp(prefix="memlane-edge-shim-"))
        (shim / "sitecustomize.py").write_text(
            textwrap.dedent(f"""
            import memlane.server.app as _app
            _create = _app.create_app
            def create_app(*a, **k):
                app = _create(*a, **k)
                @app.on_event("startup")
                async def _limit():
                    from anyio import to_thread
                    to_thread.current_default_thread_limiter().total_tokens = {args.threads}
                return app
            _app.create_app = create_app
            import memlane.server.run as _run
            _run.create_app = create_app
        """)
        )
        src = f"{src}{os.pathsep}{shim}"
    location = tempfile.mkdtemp(prefix="memlane-edge-") + "/s.db"
    keys = S.make_keys(location, args.clients)
    with S.served(location, "fake", argparse.Namespace(src=src, processes=1, workers=0, request_threads=0)) as server:
        asyncio.run(over_http(server, keys, args))


if __name__ == "__main__":
    sys.exit(main())
