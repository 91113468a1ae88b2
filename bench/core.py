"""Core benchmark: bulk and single ingest, ``context()`` and ``recall()`` on a store of 100k messages.

Messages are the real chat turns of LoCoMo (``shared/data/locomo10.json``), cycled over the threads so that
lengths and vocabulary are real; queries are the data set's questions. Keyword search only unless
``--embedder`` names one (the library's own default is the local MiniLM model).

    .venv/bin/python bench/core.py [--messages 100000 --threads 1000 --out bench/out/core.json]

Prints a Markdown table and writes the numbers, with the machine, load, date and commit, as JSON. Every call
is timed by the wall clock and by the CPU time of its thread: on a shared machine the first includes waiting
for a core, the second does not. ``--runs N`` repeats the whole benchmark in N processes and reports medians;
``--merge`` takes the medians of earlier runs' files; ``--profile PHASE`` runs one phase under cProfile.
Results that matter go into ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
import os
import platform
import pstats
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import memlane
from memlane import Memory

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo10.json"
PHASES = ("ingest", "single", "reads")


# -- data -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Corpus:
    turns: list[str]
    questions: list[str]


def load_corpus(path: Path) -> Corpus:
    """Every chat turn's text, in conversation and session order, and every question."""
    data = json.loads(path.read_text(encoding="utf-8"))
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
        questions += [q["question"] for q in item["qa"] if q.get("question", "").strip()]
    return Corpus(turns, questions)


@dataclass(slots=True)
class Workload:
    """Threads, their users and the messages each thread receives (deterministic for a seed)."""

    threads: list[str]
    users_of: dict[str, list[str]]
    plan: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def build_workload(corpus: Corpus, messages: int, threads: int, users: int, rng: random.Random) -> Workload:
    """Split ``messages`` over ``threads``; each thread is a run of consecutive real turns (so it reads as one
    conversation), written alternately by one of its 2-4 users and the assistant."""
    keys = [f"thread-{i:05d}" for i in range(threads)]
    people = [f"user-{i:04d}" for i in range(users)]
    work = Workload(keys, {k: rng.sample(people, rng.randint(2, min(4, users))) for k in keys})
    per_thread = [messages // threads + (1 if i < messages % threads else 0) for i in range(threads)]
    n = len(corpus.turns)
    for i, key in enumerate(keys):
        start = rng.randrange(n)
        items = []
        for j in range(per_thread[i]):
            text = corpus.turns[(start + j) % n]
            if j % 2 == 0:
                items.append({"role": "user", "content": text, "user": rng.choice(work.users_of[key])})
            else:
                items.append({"role": "assistant", "content": text})
        work.plan[key] = items
    return work


def open_memory(path: Path, embedder: str) -> Memory:
    """``Memory(path, agent="bench")`` with the named embedder ("none": keyword search only) and no LLM."""
    chosen = None
    if embedder != "none":
        from memlane.embeddings import make_embedder

        chosen = make_embedder(embedder)
    return Memory(path, agent="bench", embedder=chosen, llm=None)


# -- measuring --------------------------------------------------------------------------------------
def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (no interpolation: every reported value was observed)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def latency_stats(ms: list[float]) -> dict[str, float]:
    return {
        "n": len(ms),
        "p50_ms": round(percentile(ms, 50), 3),
        "p95_ms": round(percentile(ms, 95), 3),
        "p99_ms": round(percentile(ms, 99), 3),
        "mean_ms": round(statistics.fmean(ms), 3),
        "max_ms": round(max(ms), 3),
    }


@dataclass(slots=True)
class Timings:
    wall_ms: list[float]  # each call, wall clock
    cpu_ms: list[float]  # each call, CPU time of this thread
    cpu_s: float  # CPU time of the whole process over all calls


def timed_calls(calls: list[Callable[[], Any]], warmup: int) -> Timings:
    """Time each call after ``warmup`` untimed ones.

    On a shared machine a call's wall time includes waiting for a core; its CPU time does not, so it is
    what the call would take on an idle machine (plus I/O waits, small with a warm page cache).
    """
    for call in calls[:warmup]:
        call()
    wall, cpu = [], []
    cpu0 = time.process_time()
    for call in calls[warmup:]:
        c0, t0 = time.thread_time(), time.perf_counter()
        call()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
    return Timings(wall, cpu, time.process_time() - cpu0)


def call_stats(t: Timings) -> dict[str, float]:
    return {
        **latency_stats(t.wall_ms),
        "cpu_p50_ms": round(percentile(t.cpu_ms, 50), 3),
        "cpu_p95_ms": round(percentile(t.cpu_ms, 95), 3),
        "cpu_ms_per_call": round(t.cpu_s * 1000 / len(t.wall_ms), 3),
    }


@contextmanager
def maybe_profile(phase: str, wanted: str | None, out_dir: Path) -> Iterator[None]:
    if phase != wanted:
        yield
        return
    prof = cProfile.Profile()
    prof.enable()
    try:
        yield
    finally:
        prof.disable()
        out_dir.mkdir(parents=True, exist_ok=True)
        target = out_dir / f"core-{phase}.pstats"
        prof.dump_stats(target)
        print(f"\n--- cProfile of {phase} (saved to {target}) ---", file=sys.stderr)
        stats = pstats.Stats(prof, stream=sys.stderr)
        stats.sort_stats("cumulative").print_stats(30)
        stats.sort_stats("tottime").print_stats(20)


# -- the phases -------------------------------------------------------------------------------------
def bench_ingest(mem: Memory, work: Workload, batch: int) -> dict[str, Any]:
    """``add_messages`` in batches of ``batch``, round-robin over the threads (each thread grows over time)."""
    batches: list[tuple[str, list[dict[str, Any]]]] = []
    offset = 0
    while True:
        round_ = [(k, work.plan[k][offset : offset + batch]) for k in work.threads if len(work.plan[k]) > offset]
        if not round_:
            break
        batches += round_
        offset += batch
    total = sum(len(b) for _, b in batches)
    calls = [lambda k=key, b=items: mem.add_messages(k, b) for key, items in batches]
    t0 = time.perf_counter()
    t = timed_calls(calls, warmup=0)
    wall = time.perf_counter() - t0
    return {
        "messages": total,
        "batches": len(batches),
        "batch_size": batch,
        "wall_s": round(wall, 3),
        "cpu_s": round(t.cpu_s, 3),
        "messages_per_s": round(total / wall, 1),
        "messages_per_cpu_s": round(total / t.cpu_s, 1),
        "batch_latency": call_stats(t),
    }


def bench_single(mem: Memory, work: Workload, corpus: Corpus, count: int, rng: random.Random) -> dict[str, Any]:
    """``add_message`` one call at a time (each its own transaction), random threads, real turns."""
    calls = []
    for i in range(count):
        key = rng.choice(work.threads)
        text = corpus.turns[rng.randrange(len(corpus.turns))]
        if i % 2 == 0:
            user = rng.choice(work.users_of[key])
            calls.append(lambda k=key, t=text, u=user: mem.add_message(k, "user", t, user=u))
        else:
            calls.append(lambda k=key, t=text: mem.add_message(k, "assistant", t))
    t0 = time.perf_counter()
    t = timed_calls(calls, warmup=0)
    wall = time.perf_counter() - t0
    return {
        "messages": count,
        "wall_s": round(wall, 3),
        "cpu_s": round(t.cpu_s, 3),
        "messages_per_s": round(count / wall, 1),
        "messages_per_cpu_s": round(count / t.cpu_s, 1),
        **call_stats(t),
    }


def bench_reads(
    mem: Memory, work: Workload, corpus: Corpus, count: int, budget: int, rng: random.Random
) -> dict[str, Any]:
    """``context()`` with and without a query, ``recall()`` by user, by thread and over the whole agent;
    ``count`` calls of each, on the same random (thread, user, question) picks."""
    picks = []
    for _ in range(count):
        key = rng.choice(work.threads)
        picks.append((key, rng.choice(work.users_of[key]), rng.choice(corpus.questions)))
    warm = min(20, count // 10)
    shapes: dict[str, list[Callable[[], Any]]] = {
        "context_query": [lambda k=k, u=u, q=q: mem.context(k, query=q, user=u, budget=budget) for k, u, q in picks],
        "context_plain": [lambda k=k, u=u: mem.context(k, user=u, budget=budget) for k, u, _ in picks],
        "recall_user": [lambda u=u, q=q: mem.recall(q, user=u, limit=10) for _, u, q in picks],
        "recall_thread": [lambda k=k, q=q: mem.recall(q, thread=k, limit=10) for k, _, q in picks],
        "recall_agent": [lambda q=q: mem.recall(q, limit=10) for _, _, q in picks],
    }
    results: dict[str, Any] = {}
    for name, calls in shapes.items():
        results[name] = call_stats(timed_calls(calls, warmup=warm))
    # What the calls returned, so a fast but empty answer cannot pass unnoticed.
    sample = picks[: min(50, count)]
    ctxs = [mem.context(k, query=q, user=u, budget=budget) for k, u, q in sample]
    results["context_query"]["avg_tokens"] = round(statistics.fmean(c.tokens for c in ctxs), 1)
    results["context_query"]["avg_messages"] = round(statistics.fmean(len(c.messages) for c in ctxs), 1)
    results["context_query"]["avg_recalled"] = round(statistics.fmean(len(c.recalled) for c in ctxs), 2)
    results["recall_user"]["avg_hits"] = round(
        statistics.fmean(len(mem.recall(q, user=u, limit=10)) for _, u, q in sample), 2
    )
    results["recall_thread"]["avg_hits"] = round(
        statistics.fmean(len(mem.recall(q, thread=k, limit=10)) for k, _, q in sample), 2
    )
    return results


# -- environment ------------------------------------------------------------------------------------
def machine_info() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram_gib = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram_gib = round(int(line.split()[1]) / 1024**2, 1)
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gib": ram_gib,
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
    }


def git_commit() -> str:
    """The repository's HEAD, marked ``+dirty`` if the memlane being measured is this work tree's ``src``
    and has uncommitted changes. (To measure a commit exactly while others edit the tree, import a
    snapshot: ``git archive HEAD src | tar -x -C /tmp/snap`` and ``PYTHONPATH=/tmp/snap/src``.)"""
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        if not Path(memlane.__file__).resolve().is_relative_to(ROOT / "src"):
            return head
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def db_size(path: Path) -> dict[str, float]:
    sizes: dict[str, float] = {}
    for suffix in ("", "-wal"):
        part = path.with_name(path.name + suffix)
        if part.exists():
            sizes[f"{suffix.strip('-') or 'db'}_mib"] = round(part.stat().st_size / 1024**2, 1)
    return sizes


# -- output -----------------------------------------------------------------------------------------
def describe_load(result: dict[str, Any]) -> str:
    before, after = result["load_before"], result["load_after"]
    if before and isinstance(before[0], list):  # several runs: the 1-minute average of each
        pairs = ", ".join(f"{b[0]}→{a[0]}" for b, a in zip(before, after, strict=True))
        return f"1-min load average per run (before→after) {pairs}"
    return f"load average before {before}, after {after}"


def table(result: dict[str, Any]) -> str:
    """The results as a Markdown table (wall-clock latency; CPU per call shows what load added)."""
    r = result["results"]
    ing, one = r["ingest"], r["single"]
    rows = [
        (
            f"bulk ingest `add_messages`, batches of {ing['batch_size']}",
            f"{ing['messages_per_s']:,.0f} msg/s ({ing['messages_per_cpu_s']:,.0f}/CPU-s)",
            f"{ing['batch_latency']['p50_ms']:.1f}",
            f"{ing['batch_latency']['p95_ms']:.1f}",
            f"{ing['batch_latency']['p99_ms']:.1f}",
            f"{ing['batch_latency']['cpu_p50_ms']:.1f}",
            f"{ing['batch_latency']['cpu_p95_ms']:.1f}",
            "≥ 20,000 msg/s",
        ),
        (
            "single `add_message`",
            f"{one['messages_per_s']:,.0f} msg/s ({one['messages_per_cpu_s']:,.0f}/CPU-s)",
            f"{one['p50_ms']:.2f}",
            f"{one['p95_ms']:.2f}",
            f"{one['p99_ms']:.2f}",
            f"{one['cpu_p50_ms']:.2f}",
            f"{one['cpu_p95_ms']:.2f}",
            "",
        ),
    ]
    for key, label, target in (
        ("context_query", "`context(thread, query=, user=, budget=4000)`", "p95 ≤ 10 ms"),
        ("context_plain", "`context(thread, user=, budget=4000)` (no query)", "p95 ≤ 10 ms"),
        ("recall_user", "`recall(query, user=, limit=10)`", ""),
        ("recall_thread", "`recall(query, thread=, limit=10)`", ""),
        ("recall_agent", "`recall(query, limit=10)` (whole agent)", ""),
    ):
        if key in r:
            x = r[key]
            rows.append(
                (
                    label,
                    "",
                    f"{x['p50_ms']:.1f}",
                    f"{x['p95_ms']:.1f}",
                    f"{x['p99_ms']:.1f}",
                    f"{x['cpu_p50_ms']:.1f}",
                    f"{x['cpu_p95_ms']:.1f}",
                    target,
                )
            )
    lines = [
        "| operation | throughput | p50 ms | p95 ms | p99 ms | CPU p50 ms | CPU p95 ms | target |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
        *(f"| {' | '.join(row)} |" for row in rows),
        "",
        f"Stored {result['stored_messages']:,} messages; database {result['db_size'].get('db_mib')} MiB; "
        f"peak RSS {result['peak_rss_mib']} MiB; {describe_load(result)}.",
    ]
    if "runs" in result:
        lines[-1] += f" Median of {len(result['runs'])} runs (each its own process and fresh database)."
    return "\n".join(lines)


def median_of(runs: list[Any]) -> Any:
    """Element-wise median of equally shaped JSON values (numbers); other values are taken from the first run."""
    first = runs[0]
    if isinstance(first, dict):
        return {k: median_of([r[k] for r in runs]) for k in first}
    if isinstance(first, bool) or not isinstance(first, int | float):
        return first
    middle = statistics.median(runs)
    if all(isinstance(r, int) for r in runs) and middle == int(middle):
        return int(middle)
    return round(middle, 3)


def run_many(args: argparse.Namespace, argv: list[str]) -> int:
    """Run the benchmark ``--runs`` times, each in its own process, and write the medians."""
    passthrough: list[str] = []
    skip = False
    for arg in argv:  # every argument but --runs and --out goes to each run
        if skip or arg.startswith(("--runs=", "--out=")):
            skip = False
        elif arg in ("--runs", "--out"):
            skip = True
        else:
            passthrough.append(arg)
    runs = []
    for n in range(args.runs):
        out = args.out.with_name(f"{args.out.stem}.run{n + 1}{args.out.suffix}")
        subprocess.run([sys.executable, __file__, *passthrough, "--out", str(out)], check=True)
        runs.append(out)
    return merge(runs, args.out)


def merge(runs: list[Path], out: Path) -> int:
    """Write the medians of several runs' JSON files to ``out`` and print their table."""
    results = [json.loads(path.read_text(encoding="utf-8")) for path in runs]
    merged = median_of(results)
    merged["load_before"] = [r["load_before"] for r in results]
    merged["load_after"] = [r["load_after"] for r in results]
    merged["date"] = results[0]["date"]
    merged["runs"] = [str(path) for path in runs]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(merged, indent=2) + "\n", encoding="utf-8")
    print("\n" + table(merged))
    print(f"\n(medians written to {out})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000, help="messages to bulk-ingest")
    parser.add_argument("--threads", type=int, default=1_000)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--batch", type=int, default=100, help="messages per add_messages call")
    parser.add_argument("--single", type=int, default=2_000, help="add_message calls after the bulk ingest")
    parser.add_argument("--queries", type=int, default=500, help="calls of each context/recall shape")
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument(
        "--embedder",
        default="none",
        choices=("none", "fake", "minilm"),
        help="none: keyword search only (default here); minilm: the library's default (embeds on every write)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "core.json")
    parser.add_argument("--keep", type=Path, help="build the store here and keep it (default: a temp dir)")
    parser.add_argument("--profile", choices=PHASES, help="run this phase under cProfile")
    parser.add_argument("--runs", type=int, default=1, help="run N times (separate processes), report medians")
    parser.add_argument("--merge", type=Path, nargs="+", help="only merge these runs' JSON files into --out")
    args = parser.parse_args(argv)
    if args.merge:
        return merge(args.merge, args.out)
    if args.runs > 1:
        return run_many(args, sys.argv[1:] if argv is None else argv)

    rng = random.Random(args.seed)
    corpus = load_corpus(args.data)
    work = build_workload(corpus, args.messages, args.threads, args.users, rng)
    result: dict[str, Any] = {
        "benchmark": "core",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "memlane_source": str(Path(memlane.__file__).parent),
        "machine": machine_info(),
        "params": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "corpus": {"turns": len(corpus.turns), "questions": len(corpus.questions)},
        "search": "keyword only (SQLite FTS5 bm25)" if args.embedder == "none" else f"hybrid, embedder {args.embedder}",
        "load_before": load(),
    }
    profile_dir = args.out.parent
    with tempfile.TemporaryDirectory(prefix="memlane-bench-") as tmp:
        path = (args.keep or Path(tmp)) / "bench.db"
        if path.exists():
            parser.error(f"{path} exists; give --keep an empty directory")
        mem = open_memory(path, args.embedder)
        try:
            res: dict[str, Any] = {}
            with maybe_profile("ingest", args.profile, profile_dir):
                res["ingest"] = bench_ingest(mem, work, args.batch)
            print(f"ingest: {res['ingest']['messages_per_s']:,.0f} msg/s", file=sys.stderr)
            with maybe_profile("single", args.profile, profile_dir):
                res["single"] = bench_single(mem, work, corpus, args.single, rng)
            print(f"single: {res['single']['messages_per_s']:,.0f} msg/s", file=sys.stderr)
            reads_rng = random.Random(args.seed + 1)
            with maybe_profile("reads", args.profile, profile_dir):
                res.update(bench_reads(mem, work, corpus, args.queries, args.budget, reads_rng))
            result["results"] = res
            result["stored_messages"] = mem.status().counts["messages"]
            result["db_size_open"] = db_size(path)
        finally:
            mem.close()
        result["db_size"] = db_size(path)  # after close: the WAL is checkpointed into the file
    result["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    result["load_after"] = load()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))
    print(f"\n(written to {args.out})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
