"""Where a request's CPU goes (issue 39): the steps of the edge and of the core, one at a time, in process.

With the stand-in embedder (``fake``) on a small store (``--messages`` messages over 8 users' threads):

1. **The edge, step by step**: each piece a request goes through, timed alone in a loop (CPU per call): the
   request body's validation, the key check and rate limit, metrics, the access log line, a hand-off to a
   worker thread, the answer's validation and JSON encoding, route matching.
2. **Whole requests through the ASGI app** (no socket): CPU per request, split into the event loop's thread
   (HTTP framework, routing, dependencies, the edge middleware) and the others (the route and the core).
   ``bench/service.py`` adds uvicorn's HTTP parsing on top (its per-route phase).
3. **The core's stages** of ``recall()`` and ``context()`` (thread CPU, inclusive, each stage counted once):
   the keyword (FTS5) and vector searches, the reads of records and windows, the query's embedding, fusion,
   re-ranking, windows, token counting and the context's assembly.

    PYTHONPATH=src .venv/bin/python bench/service_steps.py [--messages 300] [--calls 400]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import json
import logging
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from starlette.concurrency import run_in_threadpool
from starlette.routing import Match

sys.path.insert(0, str(Path(__file__).resolve().parent))
from memlane import Memory, load_settings
from memlane.server import ServerSettings, create_app
from memlane.server.schemas import ContextOut, OneMessageBody
from memlane.types import Hit, Message
from service import AGENT, sentence

USERS = 8


def per_call(f: Callable[[], object], n: int) -> float:
    """CPU microseconds per call of ``f``."""
    for _ in range(max(5, n // 20)):
        f()
    started = time.process_time()
    for _ in range(n):
        f()
    return (time.process_time() - started) / n * 1e6


def edge_steps(mem: Memory, app: Any, key: str, rng: random.Random, n: int) -> dict[str, float]:
    state = app.state.memlane
    message = mem.add_message("u0/c0", "user", sentence(rng), user="u0")
    hits = mem.recall(sentence(rng), user="u0", limit=5)
    ctx = mem.context("u0/c0", query=sentence(rng), user="u0", budget=2000)
    context_out = ContextOut(
        openai_messages=ctx.to_messages(), sections=[], system_prompt=ctx.system_prompt, summaries=ctx.summaries,
        facts=ctx.facts, recalled=ctx.recalled, messages=ctx.messages, budget=ctx.budget, encoding=ctx.encoding,
        tokens=ctx.tokens, dropped_messages=ctx.dropped_messages, extra_sections=ctx.extra_sections,
    )  # fmt: skip
    body = json.dumps({"role": "user", "content": sentence(rng)}).encode()
    line = {"event": "request", "request_id": uuid.uuid4().hex, "method": "POST", "route": "/v1/agents/{agent}/recall",
            "path": "/v1/agents/bench/recall", "status": 200, "ms": 4.21, "key": 3}  # fmt: skip
    log = logging.getLogger("memlane.bench.access")
    log.addHandler(logging.StreamHandler(open(os.devnull, "w")))  # noqa: SIM115 (the process's lifetime)
    log.setLevel(logging.INFO)
    log.propagate = False
    messages, hit_list, context = TypeAdapter(Message), TypeAdapter(list[Hit]), TypeAdapter(ContextOut)

    def matched(path: str) -> Callable[[], object]:
        scope = {"type": "http", "path": path, "method": "POST", "root_path": ""}
        return lambda: next(r for r in app.router.routes if r.matches(scope)[0] == Match.FULL)

    async def hops() -> float:
        for _ in range(50):
            await run_in_threadpool(lambda: None)
        started = time.process_time()
        for _ in range(n):
            await run_in_threadpool(lambda: None)
        return (time.process_time() - started) / n * 1e6

    return {
        "request body: JSON + pydantic validation (a message)": per_call(
            lambda: OneMessageBody.model_validate_json(body).model_dump(exclude_none=True), n
        ),
        "key check, cached (SHA-256 + dict)": per_call(lambda: state.key(key), n),
        "rate limit (token bucket)": per_call(lambda: state.limiter.take("key:1"), n),
        "metrics (counter + histogram)": per_call(
            lambda: (
                state.metrics.requests.labels("POST", "/r", "200").inc(),
                state.metrics.latency.labels("POST", "/r").observe(0.004),
            ),
            n,
        ),
        "access log line (json.dumps + logging)": per_call(lambda: log.info(json.dumps(line)), n),
        "request id (uuid4)": per_call(lambda: uuid.uuid4().hex, n),
        "hand-off to a worker thread and back (at rest)": asyncio.run(hops()),
        "answer: Message validated + JSON": per_call(lambda: messages.dump_json(messages.validate_python(message)), n),
        "answer: 5 Hits validated + JSON": per_call(lambda: hit_list.dump_json(hit_list.validate_python(hits)), n),
        f"answer: a context ({len(ctx.messages)} messages) validated + JSON": per_call(
            lambda: context.dump_json(context.validate_python(context_out)), n // 4
        ),
        "route matching: add (9th route)": per_call(matched("/v1/agents/bench/threads/c1/messages"), n),
        "route matching: recall (22nd route)": per_call(matched("/v1/agents/bench/recall"), n),
    }


def asgi_requests(app: Any, keys: list[str], rng: random.Random, n: int) -> dict[str, tuple[float, float]]:
    """CPU ms per request through the app, (total, the event loop's thread)."""

    async def call(method: str, path: str, body: object, key: str | None) -> None:
        raw = json.dumps(body).encode() if body is not None else b""
        headers = [(b"host", b"127.0.0.1:8080"), (b"content-type", b"application/json"),
                   (b"content-length", str(len(raw)).encode())]  # fmt: skip
        if key:
            headers.append((b"authorization", f"Bearer {key}".encode()))
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": headers, "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8080)}  # fmt: skip
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        status = []

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])

        await app(scope, receive, send)
        assert status and status[0] < 300, status

    base = f"/v1/agents/{AGENT}"

    def request(op: str, i: int) -> tuple[str, str, object, str | None]:
        key = keys[i % USERS]
        if op == "healthz":
            return "GET", "/healthz", None, None
        if op == "add":
            return "POST", f"{base}/threads/c{i % USERS}/messages", {"role": "user", "content": sentence(rng)}, key
        if op == "recall":
            return "POST", f"{base}/recall", {"query": sentence(rng), "limit": 5}, key
        return "POST", f"{base}/threads/c{i % USERS}/context", {"query": sentence(rng), "budget": 2000}, key

    async def run() -> dict[str, tuple[float, float]]:
        out = {}
        for op in ("healthz", "add", "recall", "context"):
            for i in range(30):
                await call(*request(op, i))
            total, loop = time.process_time(), time.thread_time()
            for i in range(n):
                await call(*request(op, i))
            out[op] = ((time.process_time() - total) / n * 1000, (time.thread_time() - loop) / n * 1000)
        return out

    return asyncio.run(run())


def core_stages(mem: Memory, op: str, rng: random.Random, n: int) -> tuple[float, dict[str, tuple[float, float]]]:
    """CPU ms per call of ``op`` (all threads) and, per stage, (thread CPU ms per call, calls per call)."""
    import memlane.retrieval.engine as engine
    import memlane.retrieval.rerank as rerank
    from memlane.memory import recall as recall_module

    spent: dict[str, float] = collections.defaultdict(float)
    calls: collections.Counter[str] = collections.Counter()
    inside = threading.local()
    undo: list[tuple[object, str, object]] = []

    def timed(owner: object, attr: str, name: str, static: bool = False) -> None:
        original = getattr(owner, attr)
        f = original.__func__ if isinstance(original, staticmethod) else original

        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if getattr(inside, "on", False):  # inside another timed stage: counted there
                return f(*args, **kwargs)
            inside.on, started = True, time.thread_time()
            try:
                return f(*args, **kwargs)
            finally:
                spent[name] += time.thread_time() - started
                calls[name] += 1
                inside.on = False

        undo.append((owner, attr, original))
        setattr(owner, attr, staticmethod(wrapper) if static else wrapper)

    store = mem.store
    for attr, name in [("keyword_search", "keyword search (FTS5)"), ("vector_search", "vector search"),
                       ("message_windows", "read: turns around the candidates"), ("get_messages", "read: messages"),
                       ("message_heads", "read: message heads"), ("messages", "read: the thread's recent messages"),
                       ("get_thread", "read: the thread"), ("list_facts", "read: facts"),
                       ("summaries", "read: summaries"), ("get_facts", "read: facts"),
                       ("get_summaries", "read: summaries")]:  # fmt: skip
        timed(store, attr, name)
    assert mem.embedder is not None
    timed(mem.embedder, "embed_query", "the query's embedding (stand-in)")
    timed(engine.Searcher, "_fuse", "fusion", static=True)
    timed(engine.Searcher, "_windows", "windows (merge, choose)")
    timed(engine, "_relevance", "calibration (relevance)")
    timed(engine, "_beyond_windows", "turns beyond windows")
    timed(engine, "find_time_range", "time expressions in the query")
    for attr in ("boost_speaker", "boost_time", "boost_recency", "boost_importance", "boost_neighbours"):
        timed(rerank, attr, "re-ranking (boosts)")
    timed(recall_module, "assemble", "context: assembly to the budget (token counts)")
    timed(type(mem), "_hydrate", "hits from records")
    timed(mem.pipeline, "context_sections", "context: the pipeline's sections")
    user = lambda i: f"u{i % USERS}"  # noqa: E731
    f = {
        "recall": lambda i: mem.recall(sentence(rng), user=user(i), limit=5),
        "context": lambda i: mem.context(f"{user(i)}/c{i % USERS}", query=sentence(rng), user=user(i), budget=2000),
    }[op]
    try:
        for i in range(30):
            f(i)
        spent.clear()
        calls.clear()
        started = time.process_time()
        for i in range(n):
            f(i)
        total = (time.process_time() - started) / n * 1000
    finally:
        for owner, attr, original in reversed(undo):
            setattr(owner, attr, original)
    return total, {name: (spent[name] / n * 1000, calls[name] / n) for name in spent}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    scratch = tempfile.mkdtemp(prefix="memlane-steps-")
    with Memory(f"{scratch}/s.db", agent=AGENT, settings=load_settings(worker="none", embedder="fake")) as mem:
        keys = [mem.create_api_key("user", agent=AGENT, user=f"u{i}").key for i in range(USERS)]
        for i in range(args.messages):
            mem.add_message(f"u{i % USERS}/c{i % USERS}", "user", sentence(rng), user=f"u{i % USERS}")
        mem.flush()
        app = create_app(mem, ServerSettings(log_json=False))
        print("## The edge, one step at a time (CPU µs per call)\n\n| step | µs |\n|---|---:|")
        for name, us in edge_steps(mem, app, keys[0], rng, args.calls * 5).items():
            print(f"| {name} | {us:.1f} |")
        print("\n## Whole requests through the ASGI app, no socket (CPU ms per request)\n")
        print("| route | total | event loop's thread | other threads (route, core) |\n|---|---:|---:|---:|")
        for op, (total, loop) in asgi_requests(app, keys, rng, args.calls).items():
            print(f"| {op} | {total:.2f} | {loop:.2f} | {total - loop:.2f} |")
        mem.searcher.concurrent = False  # stages on one thread: each is timed where it runs
        for op in ("recall", "context"):
            total, stages = core_stages(mem, op, rng, args.calls)
            print(f"\n## `{op}()` in process, one thread: {total:.2f} ms CPU per call\n")
            print("| stage | ms per call | times per call |\n|---|---:|---:|")
            for name, (ms, times) in sorted(stages.items(), key=lambda item: -item[1][0]):
                print(f"| {name} | {ms:.3f} | {times:.1f} |")
            print(f"| the rest (engine glue, checks) | {total - sum(ms for ms, _ in stages.values()):.3f} | |")


if __name__ == "__main__":
    main()
