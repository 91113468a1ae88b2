"""PostgreSQL before ANALYZE: a recall's time with the query's words counted in the messages, against every
word alike (the cost behind ``CommonTerms.COUNTED_ROWS``).

A throwaway PostgreSQL (the suite's), one agent of 4,800 messages written 10 at a time without embeddings,
then 40 recalls of a 4-word question by rotating users in each mode; prints the recall p50 of each.

    PYTHONPATH=src .venv/bin/python bench/experiments/pg_counted_weights.py
"""

from __future__ import annotations

import random
import statistics
import time

from memlane import Memory, load_settings
from memlane.testing.postgres import ThrowawayPostgres

WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "trip",
    "lisbon",
    "train",
    "coffee",
    "dinner",
    "weekend",
    "pack",
    "jacket",
    "rain",
    "museum",
    "tram",
    "tickets",
    "seafood",
    "hike",
    "alps",
    "python",
    "cat",
    "dog",
]


def main() -> None:
    settings = load_settings(embedder="none", worker="none")
    rnd = random.Random(1)
    with ThrowawayPostgres(timeout=120) as pg:
        url = pg.create_database("counted")
        with Memory(url, agent="bot", settings=settings) as mem:
            for i in range(480):
                batch = [
                    {"role": "user", "content": " ".join(rnd.choice(WORDS) for _ in range(12)), "user": f"u{i % 20}"}
                    for _ in range(10)
                ]
                mem.add_messages(f"t{i % 50}", batch)
            terms = mem.store._terms  # type: ignore[attr-defined]
            for label, counted_rows in (("counted (no statistics)", 10_000), ("every word alike", 10)):
                terms.COUNTED_ROWS = counted_rows
                terms.forget()
                times = []
                for i in range(40):
                    t0 = time.perf_counter()
                    mem.recall("lisbon trip coffee museum", user=f"u{i % 20}")
                    times.append((time.perf_counter() - t0) * 1e3)
                print(f"{label}: recall p50 {statistics.median(times):.2f} ms")


if __name__ == "__main__":
    main()
