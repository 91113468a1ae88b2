"""How the local MiniLM computes: float32, int8 per block, int8 per row, side by side on the same texts.

    .venv/bin/python bench/experiments/embed_variants.py [--texts 300 --rounds 4 --threads 1]

Each variant is an ``OnnxMiniLMEmbedder`` (no cache, ``concurrency=1``, ``--threads`` intra-op threads); the
rounds run the variants interleaved so that load hits all alike. Prints texts per second, texts per
CPU-second and the mean/min cosine of each variant's vectors to the float32 ones.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

from memlane.embeddings import OnnxMiniLMEmbedder

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo10.json"


def turns(limit: int) -> list[str]:
    texts: list[str] = []
    for conv in json.loads(DATA.read_text("utf-8")):
        for key, session in conv["conversation"].items():
            if key.startswith("session_") and isinstance(session, list):
                texts += [f"{t['speaker']}: {t['text']}" for t in session]
    return texts[:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--texts", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    texts = turns(args.texts)
    common = {"cache_size": 0, "concurrency": 1, "intra_op_num_threads": args.threads}
    variants = {
        "float32": OnnxMiniLMEmbedder(int8_matmul=False, **common),
        "int8 block": OnnxMiniLMEmbedder(int8_activations="block", **common),
        "int8 row": OnnxMiniLMEmbedder(int8_activations="row", **common),
    }
    for embedder in variants.values():
        embedder.load()
    exact = variants["float32"].embed(texts)
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    cosines: dict[str, np.ndarray] = {}
    load = os.getloadavg()
    for _ in range(args.rounds):
        for name, embedder in variants.items():
            wall, cpu = time.perf_counter(), time.process_time()
            vectors = embedder.embed(texts)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rates[name].append((len(texts) / wall, len(texts) / cpu))
            cosines[name] = np.sum(vectors * exact, axis=1)
    print(
        f"{len(texts)} texts, {args.rounds} rounds, {args.threads} intra-op thread(s); load {load} -> {os.getloadavg()}"
    )
    print("| compute | actual | texts/s (median) | texts per CPU-s (median) | mean / min cosine to float32 |")
    print("|---|---|---:|---:|---:|")
    for name, embedder in variants.items():
        per_s = statistics.median(r[0] for r in rates[name])
        per_cpu = statistics.median(r[1] for r in rates[name])
        c = cosines[name]
        print(f"| {name} | {embedder.compute} | {per_s:.0f} | {per_cpu:.0f} | {c.mean():.4f} / {c.min():.4f} |")


if __name__ == "__main__":
    main()
