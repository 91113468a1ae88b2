"""Where memlane's ``recall()`` spends its time on a small store: the LoCoMo store of bench/peers.py.

The first conversations are ingested (batches of 256) into a fresh SQLite store with every vector served from
memory, so the query embedding costs ~nothing and what is left is memlane's own work. Then every category 1-4
question is asked ``--passes`` times, ``recall(question, limit=25, now=...)`` with the default preset, and
the time of each step of the search is summed by wrapping it (a few microseconds of overhead per step):

- the retrievers as called by ``Searcher._retrieve`` (keyword and vector search, in the scope and, when the
  query names a time, inside that range too; on the search threads when the store takes concurrent reads),
- ``Searcher._retrieve`` (their wall time together), ``_fuse``, ``_load_around`` (the fused candidates' records,
  the best ones' with the turns around them), ``_load`` (inside it: the records still missing),
  ``_beyond_windows`` (joining the turns beyond the best candidates' windows, read by ``_load_around``), each
  boost of ``rerank``, ``_windows`` (the neighbouring turns), ``Memory._hydrate``,
- the store calls those steps make (``get_messages``, ``message_heads``, ``message_windows``).

    .venv/bin/python bench/experiments/recall_steps.py [--conversations 2] [--passes 3] [--sequential]
    .venv-peers/bin/python bench/experiments/recall_steps.py --pyinstrument     # also a pyinstrument tree (peers venv)

``--sequential`` runs the retrievers one after another on the calling thread (the search threads off).
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import bench_path  # noqa: F401  (bench/ on the path, for locomo and peers)

from locomo import DEFAULT_DATA, Conversation, load_conversations, percentile
from memlane.retrieval import engine, rerank
from peers import BATCHES, DEPTH, Memlane, embedders, ingest, questions


class Steps:
    """Sums the wall time of wrapped callables per label (thread-safe enough: one add per call)."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self.cpu: Counter[str] = Counter()  # CPU seconds of the thread that ran the step
        self.items: Counter[str] = Counter()  # for the store loads: how many ids they were asked for
        self._undo: list[Callable[[], None]] = []

    def wrap(self, owner: Any, attr: str, label: str, *, static: bool = False, ids: bool = False) -> None:
        mapping = owner if isinstance(owner, dict) else None
        original = mapping[attr] if mapping is not None else (owner.__dict__ if static else vars(owner)).get(attr)
        if original is None:  # inherited or bound: wrap what the attribute resolves to
            original = getattr(owner, attr)
        inner = original.__func__ if static else original

        def timed(*args: Any, **kwargs: Any) -> Any:
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                return inner(*args, **kwargs)
            finally:
                self.seconds[label] += time.perf_counter() - start
                self.cpu[label] += time.thread_time() - cpu
                self.calls[label] += 1
                if ids:  # (agent, ids, ...)
                    self.items[label] += len(args[1])

        if mapping is not None:
            mapping[attr] = timed
            self._undo.append(lambda: mapping.__setitem__(attr, original))
            return
        setattr(owner, attr, staticmethod(timed) if static else timed)
        self._undo.append(lambda: setattr(owner, attr, original))

    def undo(self) -> None:
        while self._undo:
            self._undo.pop()()


def instrument(steps: Steps, mems: Sequence[Any]) -> None:
    """Wrap the search steps: the searcher's retrievers and the store's loads of each memory, the searcher's
    steps, the rerank functions and the hydration (these once)."""
    for mem in mems:
        for name in list(mem.searcher.retrievers):
            steps.wrap(mem.searcher.retrievers, name, f"  retriever {name}")
        for attr in ("get_messages", "message_heads", "message_windows"):
            steps.wrap(mem.store, attr, f"  store.{attr}", ids=True)
    for attr in ("_retrieve", "_load_around", "_load", "_windows"):
        if hasattr(engine.Searcher, attr):  # _load_around since round 12
            steps.wrap(engine.Searcher, attr, f"Searcher.{attr}")
    if hasattr(engine, "_beyond_windows"):  # since round 11
        steps.wrap(engine, "_beyond_windows", "_beyond_windows")
    steps.wrap(engine.Searcher, "_fuse", "Searcher._fuse", static=True)
    steps.wrap(engine, "find_time_range", "find_time_range")
    for attr in ("boost_speaker", "boost_time", "boost_recency", "boost_importance", "dedup", "boost_neighbours"):
        steps.wrap(rerank, attr, f"rerank.{attr}")
    steps.wrap(type(mems[0]), "_hydrate", "Memory._hydrate")


def digest(system: Memlane, asked: Sequence[tuple[Conversation, str]]) -> str:
    """A hash of every hit of every question (kind, id, score, the turns shown): equal before and after a
    change of the search code means the change left the results alone."""
    h = hashlib.sha256()
    for conv, text in asked:
        for hit in system._mem(conv).recall(text, limit=DEPTH, now=conv.now, preset=system.config):
            h.update(f"{hit.kind}|{hit.id}|{hit.score!r}|{hit.message_ids}\n".encode())
    return h.hexdigest()[:16]


def measure(
    system: Memlane, asked: Sequence[tuple[Conversation, str]], passes: int
) -> tuple[Steps, list[float], list[float]]:
    steps, totals, cpus = Steps(), [], []
    instrument(steps, [system._mem(conv) for conv in {id(c): c for c, _ in asked}.values()])
    try:
        for _ in range(passes):
            for conv, text in asked:
                start, cpu = time.perf_counter(), time.process_time()
                system._mem(conv).recall(text, limit=DEPTH, now=conv.now, preset=system.config)
                totals.append(time.perf_counter() - start)
                cpus.append(time.process_time() - cpu)
    finally:
        steps.undo()
    return steps, totals, cpus


def report(steps: Steps, totals: Sequence[float], cpus: Sequence[float]) -> str:
    n = len(totals)
    mean, cpu_mean = statistics.fmean(totals) * 1e3, statistics.fmean(cpus) * 1e3
    lines = [
        f"{n} recalls: wall p50 {percentile([t * 1e3 for t in totals], 50):.2f} ms, mean {mean:.2f} ms; "
        f"process CPU p50 {percentile([t * 1e3 for t in cpus], 50):.2f} ms, mean {cpu_mean:.2f} ms",
        "",
        "| step | wall ms per recall (mean) | share | thread CPU ms per recall | calls per recall | ids per call |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for label in sorted(steps.seconds, key=lambda k: -steps.seconds[k]):
        ms, cpu = steps.seconds[label] / n * 1e3, steps.cpu[label] / n * 1e3
        per_call = f"{steps.items[label] / steps.calls[label]:.0f}" if steps.items[label] else ""
        lines.append(
            f"| {label.strip()} | {ms:.3f} | {ms / mean:.0%} | {cpu:.3f} | {steps.calls[label] / n:.1f} | {per_call} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=2)
    parser.add_argument("--passes", type=int, default=3, help="times every question is asked")
    parser.add_argument("--sequential", action="store_true", help="no search threads: retrievers one by one")
    parser.add_argument("--pyinstrument", action="store_true", help="also print a pyinstrument call tree")
    parser.add_argument("--live", action="store_true", help="embed every question for real (the cache off)")
    args = parser.parse_args(argv)
    conversations = load_conversations(DEFAULT_DATA)[: args.conversations]
    with tempfile.TemporaryDirectory(prefix="memlane-steps-") as tmp:
        system = Memlane(Path(tmp), embedders(conversations)["live" if args.live else "stored"])
        ingest(system, conversations, BATCHES[-1])
        asked = [(c, q.text) for c in conversations for q in questions(c)]
        for conv, text in asked:  # warm: connections, page cache, the search threads
            system.search(conv, text)
            system._mem(conv).searcher.concurrent &= not args.sequential
        steps, totals, cpus = measure(system, asked, args.passes)
        print(report(steps, totals, cpus))
        print(f"\nresults digest {digest(system, asked)} (the hits of every question)")
        if args.pyinstrument:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.0005)
            with profiler:
                for conv, text in asked:
                    system._mem(conv).recall(text, limit=DEPTH, now=conv.now, preset=system.config)
            print(profiler.output_text(unicode=False, color=False))
        system.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
