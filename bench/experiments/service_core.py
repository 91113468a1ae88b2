"""The core of a service request, in process, one thread (issue 39): CPU per call of ``recall``, ``context`` and
``add_message`` with the stand-in embedder on the store ``bench/service_steps.py`` builds (300 messages of the
service mix's sentences over 8 users' threads, one message per write), and what the FTS5 index costs.

    PYTHONPATH=src .venv/bin/python bench/experiments/service_core.py calls recall [--calls 400] [--profile]
    PYTHONPATH=src .venv/bin/python bench/experiments/service_core.py segments [--messages 3000] [--set automerge=2 ...]
    PYTHONPATH=src .venv/bin/python bench/experiments/service_core.py fts [--queries 200]

- ``calls OP``: CPU ms (and wall ms) per call of ``OP`` (``recall``, ``context`` or ``add``) after 30 to warm up,
  a search's steps one after another on the calling thread (as under load), or with ``--side-by-side`` on the
  search threads (as a search alone in the process runs them); with ``--profile``, a cProfile of as many more
  calls (by own time, then cumulative). Run it with two trees'
  ``PYTHONPATH`` in turn to compare them.
- ``segments``: ``--messages`` messages added one at a time to a fresh store with the FTS5 options ``--set``
  (e.g. ``crisismerge=4``) applied to ``messages_fts`` first: CPU per add (mean, p99, max after the first 50),
  and the index's segments (``count(DISTINCT segid)`` of ``messages_fts_idx``) every 10 messages. A store from
  migration 16 on merges with ``automerge=2 crisismerge=4``; FTS5's own defaults are ``automerge=4 crisismerge=16``.
- ``fts``: the keyword queries ``recall()`` sends for ``--queries`` of the mix's questions, replayed with
  ``sqlite3`` on the same file, with and without the two ``bm25()`` columns, before and after
  ``'optimize'`` (one segment): µs per query.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import re
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bench_path  # noqa: F401  (puts bench/ on the path)

from memlane import Memory, load_settings
from service import AGENT, sentence

USERS = 8


def fresh(messages: int, rng: random.Random, options: list[str] | None = None) -> tuple[Memory, Path]:
    path = Path(tempfile.mkdtemp(prefix="memlane-core-")) / "s.db"
    mem = Memory(path, agent=AGENT, settings=load_settings(worker="none", embedder="fake"))
    if options:
        conn = sqlite3.connect(path, isolation_level=None)
        for option in options:
            key, _, value = option.partition("=")
            conn.execute("INSERT INTO messages_fts (messages_fts, rank) VALUES (?, ?)", (key, int(value)))
        conn.close()
    for i in range(messages):
        mem.add_message(f"u{i % USERS}/c{i % USERS}", "user", sentence(rng), user=f"u{i % USERS}")
    mem.flush()
    return mem, path


def segments(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(DISTINCT segid) FROM messages_fts_idx").fetchone()[0])
    finally:
        conn.close()


def calls(op: str, n: int, profile: bool, side_by_side: bool = False) -> None:
    rng = random.Random(7)
    mem, path = fresh(300, rng)
    with mem:
        # One after another on this thread, as under load; or side by side, as a search alone in the process runs.
        mem.searcher.concurrent = side_by_side

        def user(i: int) -> str:
            return f"u{i % USERS}"

        f: Callable[[int], object] = {
            "recall": lambda i: mem.recall(sentence(rng), user=user(i), limit=5),
            "context": lambda i: mem.context(f"{user(i)}/c{i % USERS}", query=sentence(rng), user=user(i), budget=2000),
            "add": lambda i: mem.add_message(f"{user(i)}/c{i % USERS}", "user", sentence(rng), user=user(i)),
        }[op]
        for i in range(30):
            f(i)
        started, wall = time.process_time(), time.perf_counter()
        for i in range(n):
            f(i)
        cpu, elapsed = (time.process_time() - started) / n * 1000, (time.perf_counter() - wall) / n * 1000
        print(f"{op}: {cpu:.3f} ms CPU per call, {elapsed:.3f} ms wall; {segments(path)} segments")
        if profile:
            profiler = cProfile.Profile()
            profiler.enable()
            for i in range(n):
                f(i)
            profiler.disable()
            stats = pstats.Stats(profiler)
            stats.sort_stats("tottime").print_stats(30)
            stats.sort_stats("cumulative").print_stats(50)


def segment_counts(messages: int, options: list[str]) -> None:
    rng = random.Random(7)
    mem, path = fresh(0, rng, options)
    spent: list[float] = []
    counts: list[int] = []
    with mem:
        for i in range(messages):
            started = time.process_time()
            mem.add_message(f"u{i % USERS}/c{i % USERS}", "user", sentence(rng), user=f"u{i % USERS}")
            spent.append(time.process_time() - started)
            if i % 10 == 0:
                counts.append(segments(path))
    tail = sorted(spent[50:])
    mean, p99, worst = sum(spent) / len(spent) * 1000, tail[int(0.99 * len(tail))] * 1000, tail[-1] * 1000
    print(f"{options or 'as created'}: add {mean:.3f} ms, p99 {p99:.2f}, max {worst:.1f}", end="; ")
    print(f"segments mean {sum(counts) / len(counts):.1f}, max {max(counts)}, last {counts[-1]}")


def fts(queries: int) -> None:
    rng = random.Random(7)
    mem, path = fresh(300, rng)
    seen: list[str] = []
    with mem:
        for o in gc.get_objects():  # the store's connections: their statements, with their values
            if isinstance(o, sqlite3.Connection):
                try:
                    o.set_trace_callback(seen.append)
                except sqlite3.ProgrammingError:
                    continue
        for i in range(queries):
            mem.recall(sentence(rng), user=f"u{i % USERS}", limit=5)
    sent = [s for s in seen if "messages_fts MATCH" in s and "bm25" in s]
    without = [re.sub(r", bm25\(.*?AS held, bm25\(.*?AS rank", "", s).replace(" ORDER BY held", "") for s in sent]

    def per_query(statements: list[str]) -> float:
        conn = sqlite3.connect(path)
        started = time.process_time()
        for _ in range(3):
            for s in statements:
                conn.execute(s).fetchall()
        conn.close()
        return (time.process_time() - started) / 3 / len(statements) * 1e6

    for label in ("as stored", "optimized"):
        with_bm25, without_bm25 = per_query(sent), per_query(without)
        print(f"{label} ({segments(path)} segments): {with_bm25:.0f} µs a query, {without_bm25:.0f} without bm25")
        conn = sqlite3.connect(path)
        conn.execute("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')")
        conn.commit()
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["calls", "segments", "fts"])
    parser.add_argument("op", nargs="?", default="recall", choices=["recall", "context", "add"])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--side-by-side", action="store_true", help="a search's steps on the search threads")
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--set", action="append", default=[], help="an FTS5 option of messages_fts, e.g. crisismerge=4")
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    if args.what == "calls":
        calls(args.op, args.calls, args.profile, args.side_by_side)
    elif args.what == "segments":
        segment_counts(args.messages, args.set)
    else:
        fts(args.queries)


if __name__ == "__main__":
    main()
