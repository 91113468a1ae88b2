"""How fast the default embedder (MiniLM on onnxruntime) turns real chat turns into vectors.

    .venv/bin/python bench/embed_throughput.py            # ~2 minutes on 2 idle cores
    .venv/bin/python bench/embed_throughput.py --quick    # fewer texts, for a smoke run

Data: the 5,882 turns of LoCoMo (``/work/shared/data/locomo10.json``, or ``--data``), the text of
each turn and nothing else. Every figure goes through :meth:`Embedder.embed` (tokenise, sort by
length, run, pool, normalise, cache) except the one marked as a reference. The machine is shared:
the load average is printed with the results, and figures taken under load are lower.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from memlane.embeddings import OnnxMiniLMEmbedder

DEFAULT_DATA = Path("/work/shared/data/locomo10.json")


def chat_turns(path: Path) -> tuple[list[str], list[str]]:
    """Every turn's text in conversation order, and every QA question, from a LoCoMo file."""
    conversations = json.loads(path.read_text(encoding="utf-8"))
    turns: list[str] = []
    questions: list[str] = []
    for item in conversations:
        sessions = item["conversation"]
        numbers = sorted(
            int(key.removeprefix("session_"))
            for key, value in sessions.items()
            if key.startswith("session_") and isinstance(value, list)
        )
        for number in numbers:
            turns.extend(turn["text"] for turn in sessions[f"session_{number}"])
        questions.extend(qa["question"] for qa in item.get("qa", []) if isinstance(qa.get("question"), str))
    return turns, questions


def rate(texts: Sequence[str], embed: Callable[[Sequence[str]], object]) -> float:
    """Texts per second of one ``embed(texts)`` call."""
    started = time.perf_counter()
    embed(texts)
    return len(texts) / (time.perf_counter() - started)


def sharing(base: OnnxMiniLMEmbedder, **options: int) -> OnnxMiniLMEmbedder:
    """A cache-less embedder with ``options`` that reuses ``base``'s loaded model (same truncation)."""
    embedder = OnnxMiniLMEmbedder(
        cache_size=0, int8_matmul=base.int8_matmul, int8_activations=base.int8_activations, **options
    )
    embedder._runtime = base._loaded()
    return embedder


def unsorted_reference(base: OnnxMiniLMEmbedder, texts: Sequence[str], batch_size: int) -> float:
    """Texts/s when batches are taken in input order (no length sort): what sorting saves."""
    runtime = base._loaded()
    started = time.perf_counter()
    encodings = runtime.tokenizer.encode_batch(list(texts))
    for start in range(0, len(encodings), batch_size):
        ids = [e.ids for e in encodings[start : start + batch_size]]
        base._run(runtime, ids, max(len(i) for i in ids))
    return len(texts) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="LoCoMo JSON file")
    parser.add_argument("--quick", action="store_true", help="smaller samples (a smoke run)")
    parser.add_argument("--threads", type=int, default=None, help="intra_op_num_threads (default: all cores)")
    args = parser.parse_args()

    turns, questions = chat_turns(args.data)
    sample = turns[: 400 if args.quick else 1000]
    import onnxruntime

    print(f"onnxruntime {onnxruntime.__version__}, cores {os.cpu_count()}, load average {os.getloadavg()}")
    started = time.perf_counter()
    default = OnnxMiniLMEmbedder(intra_op_num_threads=args.threads, cache_size=8192)  # room for every turn
    default.load()
    print(f"model load (sha256 check, int8 rewrite, session): {time.perf_counter() - started:.2f}s")
    float32 = OnnxMiniLMEmbedder(intra_op_num_threads=args.threads, int8_matmul=False, cache_size=0)
    float32.load()
    rows = OnnxMiniLMEmbedder(intra_op_num_threads=args.threads, int8_activations="row", cache_size=0)
    rows.load()

    lengths = [len(e.ids) for e in default._loaded().tokenizer.encode_batch(turns)]
    print(
        f"LoCoMo: {len(turns)} turns, {len(set(turns))} distinct; word-pieces per turn (with [CLS]/[SEP]) "
        f"median {statistics.median(lengths):.0f}, p95 {np.percentile(lengths, 95):.0f}, max {max(lengths)}"
    )

    print("\n## All LoCoMo turns through embed() (defaults: int8-block, batch 32, max_length 256; cache 8192)")
    whole = turns[: len(sample)] if args.quick else turns
    print(f"| cold cache | {rate(whole, default.embed):.0f} msg/s |")
    print(f"| warm cache (the same texts again, all cached) | {rate(whole, default.embed):.0f} msg/s |")
    print(f"| cold, int8_activations='row' ({rows.compute}) | {rate(whole, sharing(rows).embed):.0f} msg/s |")

    print(f"\n## Batch size × compute, first {len(sample)} turns, cache off (msg/s)")
    print(f"| batch | {default.compute} (default) | {rows.compute} | float32 |")
    for batch in (8, 16, 32, 64, 128):
        block = rate(sample, sharing(default, batch_size=batch).embed)
        row = rate(sample, sharing(rows, batch_size=batch).embed)
        slow = rate(sample, sharing(float32, batch_size=batch).embed)
        print(f"| {batch} | {block:.0f} | {row:.0f} | {slow:.0f} |")
    unsorted = [unsorted_reference(embedder, sample, 32) for embedder in (default, rows, float32)]
    print(
        "| 32, batches in input order (reference, no length sort) | " + " | ".join(f"{r:.0f}" for r in unsorted) + " |"
    )

    windows = [" ".join(turns[i : i + 8]) for i in range(0, len(turns) - 8, 8)][: 100 if args.quick else 200]
    print(f"\n## Truncation (max_length), int8, batch 32, cache off (msg/s); long = {len(windows)} 8-turn windows")
    print("| max_length | LoCoMo turns | long texts |")
    for max_length in (128, 256, 512):
        embedder = OnnxMiniLMEmbedder(intra_op_num_threads=args.threads, max_length=max_length, cache_size=0)
        embedder.load()
        print(f"| {max_length} | {rate(sample, embedder.embed):.0f} | {rate(windows, embedder.embed):.0f} |")

    print(f"\n## Per CPU-second, one thread (robust to other load), first {len(sample)} turns, cache off")
    print("| compute | msg per CPU-second | msg/s wall |")
    for options in ({}, {"int8_activations": "row"}, {"int8_matmul": False}):
        single = OnnxMiniLMEmbedder(intra_op_num_threads=1, cache_size=0, **options)
        single.load()
        cpu, wall = time.process_time(), time.perf_counter()
        single.embed(sample)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"| {single.compute} | {len(sample) / cpu:.0f} | {len(sample) / wall:.0f} |")

    print("\n## One query at a time (embed_query), int8-block")
    probe = OnnxMiniLMEmbedder(intra_op_num_threads=args.threads)
    probe._runtime = default._loaded()
    asked = questions[: 100 if args.quick else 200]
    timings = []
    for question in asked:
        started = time.perf_counter()
        probe.embed_query(question)
        timings.append((time.perf_counter() - started) * 1000)
    cached = []
    for question in asked[:100]:
        started = time.perf_counter()
        probe.embed_query(question)
        cached.append((time.perf_counter() - started) * 1000)
    print(
        f"| {len(asked)} LoCoMo questions | p50 {np.percentile(timings, 50):.2f} ms | "
        f"p95 {np.percentile(timings, 95):.2f} ms | cached p50 {np.percentile(cached, 50):.3f} ms |"
    )
    print(f"\nload average at the end {os.getloadavg()}")


if __name__ == "__main__":
    main()
