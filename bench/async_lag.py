"""Does AsyncMemory block the event loop? An asyncio loop's lag while 32 tasks add messages and recall.

A ticker task sleeps 1 ms at a time and records how late each wake-up is (the loop's lag); meanwhile 32
tasks, each its own user and thread, alternate ``add_message`` and ``recall`` on one AsyncMemory with the
default local embedder (a SQLite file in a temp dir). Target (issue: async API): lag p99 < 5 ms.

    .venv/bin/python bench/async_lag.py [--tasks 32] [--seconds 20] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from memlane import AsyncMemory, Memory, load_settings
from memlane.async_memory import DEFAULT_THREADS

TEXTS = [
    "I went hiking in the Alps last weekend with my sister",
    "Our team ships the new billing service on Thursday",
    "Can you remind me what my dentist appointment time was?",
    "The sourdough starter needs feeding twice a day",
    "I've been learning Rust for a side project about trains",
]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def one_run(path: Path, tasks: int, seconds: float, threads: int) -> dict[str, float]:
    settings = load_settings(worker="none")
    async with AsyncMemory.wrap(Memory(path, agent="bench", settings=settings), max_workers=threads) as mem:
        await mem.add_message("warm", "user", "warming up the model", user="warm")
        stop = time.perf_counter() + seconds
        lags: list[float] = []
        ops = 0

        async def ticker() -> None:
            while time.perf_counter() < stop:
                before = time.perf_counter()
                await asyncio.sleep(0.001)
                lags.append((time.perf_counter() - before - 0.001) * 1000)

        async def client(n: int) -> None:
            nonlocal ops
            i = 0
            while time.perf_counter() < stop:
                await mem.add_message(f"t{n}", "user", f"{TEXTS[i % len(TEXTS)]} ({n}.{i})", user=f"u{n}")
                await mem.recall(TEXTS[(i + 2) % len(TEXTS)], user=f"u{n}")
                ops += 2
                i += 1

        await asyncio.gather(ticker(), *(client(n) for n in range(tasks)))
        return {
            "lag_p50_ms": statistics.median(lags),
            "lag_p99_ms": _pct(lags, 0.99),
            "lag_max_ms": max(lags),
            "ops_per_s": ops / seconds,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="AsyncMemory's worker threads (default: its own)")
    parser.add_argument("--switch-interval", type=float, default=None, help="sys.setswitchinterval, seconds")
    args = parser.parse_args()
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    print(
        f"load before: {os.getloadavg()}, threads {args.threads or DEFAULT_THREADS}, switch {sys.getswitchinterval()}"
    )
    results = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            result = asyncio.run(
                one_run(Path(tmp) / "lag.db", args.tasks, args.seconds, args.threads or DEFAULT_THREADS)
            )
        results.append(result)
        print(f"run {run + 1}: " + ", ".join(f"{k} {v:.2f}" for k, v in result.items()))
    print("median of runs: " + ", ".join(f"{k} {statistics.median(r[k] for r in results):.2f}" for k in results[0]))
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
