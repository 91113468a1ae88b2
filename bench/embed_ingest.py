"""Embedding ingest: real chat messages through ``Memory`` with the default local MiniLM embedder.

    .venv/bin/python bench/embed_ingest.py bulk   [--messages 10000 --batches 32,64,128,256]
    .venv/bin/python bench/embed_ingest.py single [--calls 500]
    .venv/bin/python bench/embed_ingest.py knobs  [--texts 1000]

``bulk``: for each batch size, a fresh SQLite file and a fresh embedder (empty cache, model loaded and warmed
before the clock starts) take ``--messages`` LoCoMo turns (cycled; the speaker is the user and the name, so
the embedded text is "Speaker: text") through ``Memory.add_messages``, one LoCoMo conversation (~590 turns) per
thread, ``batch`` messages a call. Reports messages/s end to end and where the time went: validation and token
counting, embedding (and, inside it, the model itself), storage.

``single``: ``Memory.add_message`` one at a time into a store that already holds 10,000 messages: p50/p95/p99.

``knobs``: the embedder's own settings on the same unique texts, interleaved round-robin so load hits all
alike: ``batch_size``, ``max_length`` and ``intra_op_num_threads``, plus one-text latency per thread count.

Prints Markdown and writes JSON (with machine, load, date and commit) under ``bench/out/``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from memlane import Memory
from memlane.config import load_settings
from memlane.embeddings import OnnxMiniLMEmbedder
from scale import DATA, OUT, load_avg, machine, pct, rss_mib, stats


# -- data ----------------------------------------------------------------------------------------------
def conversations() -> list[tuple[str, list[dict[str, str]]]]:
    """LoCoMo's ten conversations, each as (sample id, its turns in session order with speaker and text)."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    out = []
    for item in data:
        conv = item["conversation"]
        keys = sorted(
            (k for k in conv if k.startswith("session_") and isinstance(conv[k], list)),
            key=lambda k: int(k.split("_")[1]),
        )
        turns = [
            {"speaker": t["speaker"], "text": t["text"]} for k in keys for t in conv[k] if t.get("text", "").strip()
        ]
        out.append((str(item["sample_id"]), turns))
    return out


def workload(count: int, batch: int) -> list[tuple[str, list[dict[str, Any]]]]:
    """``count`` messages as (thread, items) calls of ``batch`` items; one thread per conversation, cycled."""
    calls: list[tuple[str, list[dict[str, Any]]]] = []
    made, cycle = 0, 0
    convs = conversations()
    while made < count:
        for key, turns in convs:
            items = [
                {"role": "user", "content": t["text"], "user": t["speaker"], "name": t["speaker"]}
                for t in turns[: count - made]
            ]
            calls += [(f"{key}-c{cycle}", items[i : i + batch]) for i in range(0, len(items), batch)]
            made += len(items)
            if made >= count:
                break
        cycle += 1
    return calls


# -- instrumentation -----------------------------------------------------------------------------------
class Clock:
    """Wraps a callable, adding up its wall seconds (and the texts it saw, for the model)."""

    def __init__(self, fn: Callable[..., Any], counts_texts: bool = False) -> None:
        self.fn, self.s, self.texts, self.counts_texts = fn, 0.0, 0, counts_texts

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.counts_texts:
            self.texts += len(args[0])
        t = time.perf_counter()
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.s += time.perf_counter() - t


WORKER = {"mode": "none"}  # the background job worker of each Memory: "none" times add_messages alone


def instrumented(path: Path, embedder: OnnxMiniLMEmbedder) -> tuple[Memory, dict[str, Clock]]:
    """A Memory whose embedding, model, token counting and storage calls are timed (instance wrappers)."""
    settings = load_settings(worker=WORKER["mode"])
    mem = Memory(path, agent="bench", embedder=embedder, settings=settings)
    clocks = {
        "embed": Clock(mem._embed),
        "model": Clock(embedder.embed_batch, counts_texts=True),
        "count": Clock(mem._count),
        "store": Clock(mem.store.add_messages),
    }
    mem._embed = clocks["embed"]  # type: ignore[method-assign]
    mem._count = clocks["count"]  # type: ignore[method-assign]
    embedder.embed_batch = clocks["model"]  # type: ignore[method-assign]
    mem.store.add_messages = clocks["store"]  # type: ignore[method-assign]
    return mem, clocks


def fresh_embedder(**options: Any) -> OnnxMiniLMEmbedder:
    embedder = OnnxMiniLMEmbedder(**options)
    embedder.load()
    embedder.embed(["warm up: the first run of a session allocates its buffers"] * 4)
    embedder.clear_cache()
    return embedder


# -- phases --------------------------------------------------------------------------------------------
def bulk(count: int, batches: list[int], keep: Path | None, options: dict[str, Any]) -> dict[str, Any]:
    """Messages/s through ``add_messages`` per batch size, and the split of the time."""
    rows = []
    for batch in batches:
        calls = workload(count, batch)
        texts = {f"{i['name']}: {i['content']}" for _, items in calls for i in items}
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "ingest.db"
            mem, clocks = instrumented(path, fresh_embedder(**options))
            load0, t, c = load_avg(), time.perf_counter(), time.process_time()
            for thread, items in calls:
                mem.add_messages(thread, items)
            wall, cpu = time.perf_counter() - t, time.process_time() - c
            mem.close()
            if keep is not None and batch == batches[-1]:
                keep.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(path, keep)
        rows.append(
            {
                "batch": batch,
                "calls": len(calls),
                "messages": count,
                "distinct_texts": len(texts),
                "model_texts": clocks["model"].texts,
                "wall_s": round(wall, 1),
                "cpu_s": round(cpu, 1),
                "msgs_per_s": round(count / wall, 1),
                "msgs_per_cpu_s": round(count / cpu, 1),
                "embed_share": round(clocks["embed"].s / wall, 3),
                "model_share": round(clocks["model"].s / wall, 3),
                "store_share": round(clocks["store"].s / wall, 3),
                "count_share": round(clocks["count"].s / wall, 3),
                "load": f"{load0} → {load_avg()}",
                "rss_mib": rss_mib(),
            }
        )
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return {"phase": "bulk", "rows": rows}


def single(calls: int, store: Path, options: dict[str, Any]) -> dict[str, Any]:
    """``add_message`` one at a time into a store holding 10k messages: latency percentiles and split."""
    _, pool = zip(*workload(calls, 1), strict=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "single.db"
        if store.exists():
            path.write_bytes(store.read_bytes())
        mem, clocks = instrumented(path, fresh_embedder(**options))
        wall, cpu, embed, st = [], [], [], []
        load0 = load_avg()
        for i, (item,) in enumerate(pool):
            e0, s0 = clocks["embed"].s, clocks["store"].s
            t, c = time.perf_counter(), time.process_time()
            mem.add_message(f"live-{i // 50}", item["role"], item["content"], user=item["user"], name=item["name"])
            wall.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            embed.append((clocks["embed"].s - e0) * 1000)
            st.append((clocks["store"].s - s0) * 1000)
        messages = mem.status().counts.get("messages", 0)
        mem.close()
    return {
        "phase": "single",
        "calls": calls,
        "store_messages": messages,
        "wall_ms": stats(wall),
        "cpu_p50_ms": round(pct(cpu, 50), 2),
        "embed_ms": stats(embed),
        "store_ms": stats(st),
        "model_texts": clocks["model"].texts,
        "load": f"{load0} → {load_avg()}",
    }


KNOBS = (  # (label, OnnxMiniLMEmbedder options)
    ("default (batch 32, max_length 256, 2 threads)", {}),
    ("batch 8", {"batch_size": 8}),
    ("batch 16", {"batch_size": 16}),
    ("batch 64", {"batch_size": 64}),
    ("batch 128", {"batch_size": 128}),
    ("max_length 128", {"max_length": 128}),
    ("1 thread", {"intra_op_num_threads": 1}),
    ("float32 matmuls (int8_matmul=False)", {"int8_matmul": False}),  # where the embedder has the switch
)


def knobs(count: int, rounds: int, options: dict[str, Any]) -> dict[str, Any]:
    """Embedder settings side by side on the same ``count`` unique texts, interleaved over ``rounds``."""
    texts = sorted({f"{i['name']}: {i['content']}" for _, items in workload(10_000, 256) for i in items})
    rng = np.random.default_rng(7)
    sample = [texts[i] for i in rng.choice(len(texts), count, replace=False)]
    known = inspect.signature(OnnxMiniLMEmbedder).parameters
    embedders = {
        label: fresh_embedder(**{"cache_size": 0, **options, **opts})
        for label, opts in KNOBS
        if all(key in known for key in opts)
    }
    tokenizer = next(iter(embedders.values()))._loaded().tokenizer
    pieces = [len(e.ids) for e in tokenizer.encode_batch(texts)]
    secs: dict[str, list[float]] = {label: [] for label in embedders}
    cpu: dict[str, list[float]] = {label: [] for label in embedders}
    one: dict[str, list[float]] = {label: [] for label in embedders}
    load0 = load_avg()
    for r in range(rounds):
        for label, embedder in embedders.items():
            t, c = time.perf_counter(), time.process_time()
            embedder.embed(sample)
            secs[label].append(time.perf_counter() - t)
            cpu[label].append(time.process_time() - c)
            for text in sample[r * 50 : r * 50 + 50]:  # one-text latency: what add_message and a query pay
                t = time.perf_counter()
                embedder.embed_query(text)
                one[label].append((time.perf_counter() - t) * 1000)
    rows = [
        {
            "setting": label,
            "texts_per_s": round(count / float(np.median(secs[label])), 1),
            "texts_per_cpu_s": round(count / float(np.median(cpu[label])), 1),
            "one_text_ms": stats(one[label]),
        }
        for label in embedders
    ]
    return {
        "phase": "knobs",
        "texts": count,
        "rounds": rounds,
        "rows": rows,
        "load": f"{load0} → {load_avg()}",
        "wordpieces": {
            "p50": pct(pieces, 50),
            "p95": pct(pieces, 95),
            "p99": pct(pieces, 99),
            "max": max(pieces),
            "over_128": sum(p > 128 for p in pieces),
            "texts": len(pieces),
        },
    }


def embedder_source() -> str:
    """Which version of the embedder ran (the working tree may differ from the commit)."""
    import hashlib

    import memlane.embeddings.onnx as module

    return hashlib.sha1(Path(module.__file__).read_bytes()).hexdigest()[:10]


# -- output --------------------------------------------------------------------------------------------
def markdown(result: dict[str, Any]) -> str:
    if result["phase"] == "bulk":
        out = [
            "| batch | calls | msgs/s | msgs per CPU-s | embedding | ↳ model | storage | token count | "
            "texts run by the model | load (1-min, start → end) |\n|---|---|---|---|---|---|---|---|---|---|\n"
        ]
        for r in result["rows"]:
            load = " → ".join(part.split()[0] for part in r["load"].split(" → "))
            out.append(
                f"| {r['batch']} | {r['calls']} | {r['msgs_per_s']:.0f} | {r['msgs_per_cpu_s']:.0f} | "
                f"{r['embed_share']:.0%} | {r['model_share']:.0%} | {r['store_share']:.0%} | "
                f"{r['count_share']:.0%} | {r['model_texts']:,} of {r['messages']:,} "
                f"({r['distinct_texts']:,} distinct) | {load} |\n"
            )
        return "".join(out)
    if result["phase"] == "single":
        w, e, s = result["wall_ms"], result["embed_ms"], result["store_ms"]
        return (
            "| add_message, ms | p50 | p95 | p99 |\n|---|---|---|---|\n"
            f"| end to end (wall) | {w['p50']} | {w['p95']} | {w['p99']} |\n"
            f"| ↳ embedding | {e['p50']} | {e['p95']} | {e['p99']} |\n"
            f"| ↳ storage | {s['p50']} | {s['p95']} | {s['p99']} |\n"
            f"\n{result['calls']} calls into a store of {result['store_messages']:,} messages; "
            f"CPU p50 {result['cpu_p50_ms']} ms; load {result['load']}\n"
        )
    out = [
        f"{result['texts']} unique texts, {result['rounds']} interleaved rounds; load {result['load']}\n\n"
        "| embedder setting | texts/s (median round) | texts per CPU-s | one text p50 ms | one text p95 ms |\n"
        "|---|---|---|---|---|\n"
    ]
    for r in result["rows"]:
        out.append(
            f"| {r['setting']} | {r['texts_per_s']:.0f} | {r['texts_per_cpu_s']:.0f} | {r['one_text_ms']['p50']} | "
            f"{r['one_text_ms']['p95']} |\n"
        )
    wp = result["wordpieces"]
    out.append(
        f"\nWord-pieces per text: p50 {wp['p50']:.0f}, p95 {wp['p95']:.0f}, p99 {wp['p99']:.0f}, "
        f"max {wp['max']}; {wp['over_128']} of {wp['texts']:,} over 128.\n"
    )
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="phase", required=True)
    p = sub.add_parser("bulk")
    p.add_argument("--messages", type=int, default=10_000)
    p.add_argument("--batches", default="32,64,128,256")
    p = sub.add_parser("single")
    p.add_argument("--calls", type=int, default=500)
    p = sub.add_parser("knobs")
    p.add_argument("--texts", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=3)
    for p in sub.choices.values():
        p.add_argument(
            "--worker",
            choices=("none", "thread"),
            default="none",
            help="Memory's background job worker (summaries, facts); default none: ingest alone",
        )
        p.add_argument(
            "--options",
            type=json.loads,
            default={},
            help="JSON keyword arguments for OnnxMiniLMEmbedder, e.g. '{\"batch_size\": 16}'",
        )
    args = parser.parse_args()
    WORKER["mode"] = args.worker
    seed_store = OUT / "ingest-10k.db"
    if args.phase == "bulk":
        result = bulk(args.messages, [int(b) for b in args.batches.split(",")], seed_store, args.options)
    elif args.phase == "single":
        result = single(args.calls, seed_store, args.options)
    else:
        result = knobs(args.texts, args.rounds, args.options)
    result["machine"] = machine()
    result["embedder"] = {"options": args.options, "onnx.py sha1": embedder_source(), "worker": args.worker}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"embed-{args.phase}-worker-{args.worker}.json").write_text(json.dumps(result, indent=1))
    print(markdown(result))


if __name__ == "__main__":
    main()
