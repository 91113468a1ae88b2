"""Ingest with and without the queue of vectors behind the write (memlane.memory.behind), on SQLite and
PostgreSQL, side by side in one process.

The first two LoCoMo conversations' turns (788) go into a fresh store per run with ``add_to_threads`` in
batches of 1, 20 and 256 consecutive turns (a thread per session), the local MiniLM model embedding them
(its cache off), until ``Memory.flush()`` returns: every vector is stored. The queue on and off alternate
within each round; each figure is the median of ``--rounds`` runs. PostgreSQL is a throwaway server
(``memlane.testing.postgres``) on the same machine.

    PYTHONPATH=src:bench .venv/bin/python bench/experiments/ingest_queue.py [--backends sqlite,postgres] [--rounds 3]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from typing import Any

import bench_path  # noqa: F401  (bench/ on the path, for locomo and peers)

from locomo import DEFAULT_DATA, load_conversations, message_items, thread_key
from memlane import Memory, load_settings
from memlane.embeddings import OnnxMiniLMEmbedder

BATCHES = (1, 20, 256)


def turns(conversations: int) -> list[tuple[str, dict[str, Any]]]:
    """(thread, message item) of every turn, in order."""
    found = []
    for conv in load_conversations(DEFAULT_DATA)[:conversations]:
        for session in conv.sessions:
            found += [(thread_key(session), item) for item in message_items(session)]
    return found


def ingest(
    location: str, embedder: OnnxMiniLMEmbedder, items: Sequence[tuple[str, Any]], batch: int, queue: bool
) -> float:
    """Turns a second of one run: every batch written, then every vector stored."""
    settings = load_settings(embedder="none", worker="none", embed_behind=queue)
    with Memory(location, agent="bench", settings=settings, embedder=embedder) as mem:
        start = time.perf_counter()
        for at in range(0, len(items), batch):
            chunk = items[at : at + batch]
            threads = dict.fromkeys(thread for thread, _ in chunk)
            mem.add_to_threads({t: [item for thread, item in chunk if thread == t] for t in threads})
        mem.flush()
        return len(items) / (time.perf_counter() - start)


@contextlib.contextmanager
def locations(backend: str) -> Iterator[Any]:
    """A call returning a fresh, empty store location on ``backend``."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory() as workdir:
            count = iter(range(1_000_000))
            yield lambda: os.path.join(workdir, f"run{next(count)}.db")
    else:
        from memlane.testing import postgres as pgtest

        with pgtest.ThrowawayPostgres(timeout=120) as server:
            count = iter(range(1_000_000))
            yield lambda: server.create_database(f"run{next(count)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="sqlite,postgres")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--conversations", type=int, default=2)
    args = parser.parse_args()
    items = turns(args.conversations)
    embedder = OnnxMiniLMEmbedder(cache_size=0)
    print(f"{len(items)} turns; {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}; load {os.getloadavg()}")
    print("| backend | queue | b=1 turns/s | b=20 | b=256 |\n|---|---|---:|---:|---:|")
    for backend in args.backends.split(","):
        figures: dict[tuple[bool, int], list[float]] = {}
        with locations(backend) as fresh:
            for round_ in range(args.rounds):
                for batch in BATCHES:
                    for queue in (True, False) if round_ % 2 == 0 else (False, True):
                        figures.setdefault((queue, batch), []).append(ingest(fresh(), embedder, items, batch, queue))
        for queue in (True, False):
            cells = " | ".join(f"{statistics.median(figures[(queue, b)]):.0f}" for b in BATCHES)
            print(f"| {backend} | {'on' if queue else 'off'} | {cells} |", flush=True)
    print(f"load after {os.getloadavg()}")


if __name__ == "__main__":
    main()
