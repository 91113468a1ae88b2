"""Whole-agent recall at scale: ``recall()`` without a user on one agent of 1M messages, SQLite and PostgreSQL.

Issue 16 asks for p95 <= 20 ms on both backends with recall@10 >= 0.95 of an exact search, measured on
clustered real text rather than random vectors. The store is ``bench/backends.py``'s layout (one agent, 100
messages a thread, 1,000 users, LoCoMo's real chat turns as text), but every message's vector is the real
MiniLM embedding of its own text plus a little Gaussian noise (norm ``NOISE``: cosine ~0.86 to the text's
vector), so the vectors cluster as real chat does: each of LoCoMo's 5,882 turns occurs ~170 times at 1M,
its copies spread around its embedding, and related turns lie near each other as they do in the model's
space. Queries are LoCoMo's real questions, embedded by the same model.

    .venv/bin/python bench/broad.py run [--size 1000000] [--queries 200] [--out bench/out/broad.json]
    .venv/bin/python bench/broad.py build LOCATION SIZE    # one store (SQLite path or PostgreSQL URL)
    .venv/bin/python bench/broad.py reads LOCATION QUERIES # read it in this process, print JSON
    .venv/bin/python bench/broad.py own LOCATION QUERIES [--rounds 3]    # recall()'s own work
    .venv/bin/python bench/broad.py budgets LOCATION 2000:4000 5000:10000   # keyword budgets (SQLite)
    .venv/bin/python bench/broad.py cells LOCATION 2:0.024 6:0.015 [--rows N] # index cells (SQLite)
    .venv/bin/python bench/broad.py lockstep LOCATION /tmp/base . .:beyond_window=0 [--passes 3]

``lockstep`` compares two or more versions of memlane (or presets) on one store: each side is a source tree
(the folder holding ``src/memlane``, e.g. a ``git archive`` of another commit), optionally followed by ``:``
and preset fields (``field=value,...``), served by a process of its own; every question goes to each side in
turn, the order shuffled per question, so all sides meet the same load at nearly the same moment (separate
runs minutes apart differed by more than the changes measured). It prints each side's recall() p50 / p95 /
mean and, against the first side, the median of the per-question differences.

``reads`` measures, in a fresh process per backend: (1) ``recall(question, limit=10)`` without a user, wall
and CPU, with the query embedded every time, split into embedding / keyword / vector search; (2) the vector
search alone on the whole agent (``store.vector_search`` with the scope recall uses) answered by the
store's approximate index and again exactly (``store.exact_vectors = True``): recall@10 of the approximate
answer against the exact one; (3) how many of ``recall()``'s top 10 are the same as with both halves
exact (vectors without the index, keywords with every word).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import backends

OUT = backends.OUT
NOISE = 0.6  # norm of the noise added to a text's unit vector
SEED = 20261125
WARMUP = 200  # questions asked before the timed ones (other questions)


def text_vectors(texts: list[str], kind: str) -> np.ndarray:
    """MiniLM vectors of ``texts``, cached on disk (``bench/out/broad-vectors.npz``)."""
    from locomo import DiskCachedEmbedder, minilm

    embedder = DiskCachedEmbedder(minilm(), OUT / "broad-vectors.npz")
    vectors = embedder.embed_batch(texts, kind)  # type: ignore[arg-type]
    embedder.save()
    return np.asarray(vectors, dtype=np.float32)


class RealWorkload(backends.Workload):
    """``backends.Workload``'s threads, users, texts and times; vectors from the texts' own embeddings."""

    def __init__(self, turns: list[str]) -> None:
        super().__init__(turns)
        self.turn_vectors = text_vectors(turns, "document")
        self.text_index = {text: i for i, text in enumerate(turns)}  # equal texts share the first one's vector

    def messages(self, t: int) -> tuple[list[Any], list[int], np.ndarray]:
        items, counts, _ = super().messages(t)
        rng = np.random.default_rng([SEED, t])
        rows = np.array([self.text_index[item.content] for item in items])
        noise = rng.normal(size=(len(items), backends.DIM)).astype(np.float32) * (NOISE / np.sqrt(backends.DIM))
        vectors = self.turn_vectors[rows] + noise
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return items, counts, np.ascontiguousarray(vectors, dtype=np.float32)


def build(location: str, size: int) -> dict[str, Any]:
    turns, _ = backends.locomo()
    postgres = location.startswith("postgresql://")
    return backends.ingest(location, RealWorkload(turns), 0, size // backends.PER_THREAD, postgres)


def reads(location: str, queries: int) -> dict[str, Any]:
    """Time whole-agent recall and score the approximate vector search against the exact one."""
    from memlane import Memory, load_settings
    from memlane.embeddings import make_embedder
    from memlane.store import open_store
    from memlane.store.base import Scope

    parts = backends.Parts()
    embedder = make_embedder("minilm")
    embedder.embed_query = parts.wrap("embed", embedder.embed_query)  # type: ignore[method-assign]
    settings = load_settings(worker="none", embedder="minilm")
    _, questions = backends.locomo()
    rng = random.Random(SEED)
    rng.shuffle(questions)
    asked, warm = questions[:queries], questions[queries : queries + WARMUP]
    began = time.perf_counter()
    store = open_store(location)
    store.keyword_search = parts.wrap("keyword", store.keyword_search)  # type: ignore[method-assign]
    store.vector_search = parts.wrap("vector", store.vector_search)  # type: ignore[method-assign]
    mem = Memory(store=store, agent=backends.AGENT, settings=settings, embedder=embedder, llm=None)
    first_ms = _timed(lambda: mem.recall(asked[0], limit=10))[0]
    ready = _wait_for_index(store)
    opened_s = time.perf_counter() - began
    for q in warm:  # other questions, untimed: a server that has answered some before
        mem.recall(q, limit=10)
    parts.take()
    load_start = backends.load_avg()
    wall, cpu, split = [], [], {k: [] for k in ("embed", "keyword", "vector")}
    for q in asked:
        embedder.clear_cache()  # every question is embedded for real
        w, c = _timed(lambda q=q: mem.recall(q, limit=10))
        wall.append(w)
        cpu.append(c)
        spent = parts.take()
        for k in split:
            split[k].append(spent.get(k, 0.0))
    load_end = backends.load_avg()
    # Quality: the approximate index against an exact scan, on the vector search recall() makes.
    scope = Scope()
    vectors = text_vectors(asked, "query")
    overlaps, same_top = [], []
    evidence = evidence_texts()
    found: dict[str, list[bool]] = {"approximate": [], "exact": []}
    for q, vec in zip(asked, vectors, strict=True):
        _exact(store, False)
        approx = {(c.kind, c.id) for c in store.vector_search(backends.AGENT, vec, scope, 10)}
        recalled_approx = mem.recall(q, limit=10)
        _exact(store, True)
        exact = {(c.kind, c.id) for c in store.vector_search(backends.AGENT, vec, scope, 10)}
        recalled_exact = mem.recall(q, limit=10)
        hits_approx = {(h.kind, h.id) for h in recalled_approx}
        hits_exact = {(h.kind, h.id) for h in recalled_exact}
        overlaps.append(len(approx & exact) / max(1, len(exact)))
        same_top.append(len(hits_approx & hits_exact) / max(1, len(hits_exact)))
        if evidence.get(q):  # is a turn the question's answer is in shown in the top 10?
            for mode, hits in (("approximate", recalled_approx), ("exact", recalled_exact)):
                found[mode].append(any(text in h.text for h in hits for text in evidence[q]))
    _exact(store, False)
    parts.take()
    out = {
        "first_recall_ms": round(first_ms, 1),
        "index_ready_s": ready,
        "open_to_ready_s": round(opened_s, 1),
        "load": {"start": load_start, "end": load_end},
        "rss_mib": {"end": backends.rss_mib(), "peak": backends.peak_rss_mib()},
        "recall_agent": {
            "wall": backends.stats(wall),
            "cpu_p50": backends.pct(cpu, 50),
            **{f"{k}_p50": backends.pct(v, 50) for k, v in split.items()},
            **{f"{k}_p95": backends.pct(v, 95) for k, v in split.items()},
        },
        "vector_recall_at_10": round(float(np.mean(overlaps)), 4),
        "vector_recall_at_10_min": round(float(np.min(overlaps)), 2),
        "recall_top10_same": round(float(np.mean(same_top)), 4),
        "evidence_in_top10": {mode: round(float(np.mean(v)), 4) for mode, v in found.items()},
        "evidence_questions": len(found["exact"]),
    }
    mem.close()
    store.close()
    return out


def _warmed(
    location: str, queries: int, preset: Any = None, *, asked_too: bool = True
) -> tuple[list[str], Any, Any, Any]:
    """(the questions to ask, the store, the MiniLM embedder, a ``Memory`` over the store) after the index
    is built and ``WARMUP`` other questions (and, ``asked_too``, every question) were asked once with
    ``preset`` (None: the default): word counts and query vectors cached."""
    from memlane import Memory, load_settings
    from memlane.embeddings import make_embedder
    from memlane.store import open_store

    _, questions = backends.locomo()
    rng = random.Random(SEED)
    rng.shuffle(questions)
    asked, warm = questions[:queries], questions[queries : queries + WARMUP]
    store = open_store(location)
    embedder = make_embedder("minilm")
    settings = load_settings(worker="none", embedder="minilm")
    mem = Memory(store=store, agent=backends.AGENT, settings=settings, embedder=embedder, llm=None)
    mem.recall(asked[0], limit=10, preset=preset)
    _wait_for_index(store)
    for q in warm + (asked if asked_too else []):
        mem.recall(q, limit=10, preset=preset)
    return asked, store, embedder, mem


def own(location: str, queries: int, rounds: int = 3, slowest: int = 10) -> dict[str, Any]:
    """memlane's own CPU per whole-agent ``recall()`` (SQLite): every query's vector embedded once beforehand
    and served from memory, the retrievers one after another on the calling thread (no search threads),
    so the thread CPU of a recall is its own work alone (and its wall time, which on PostgreSQL includes the
    server's work); ``rounds`` rounds of the questions, the median per question; with the keyword and vector
    searches' parts (thread CPU) and the ``slowest`` questions (by thread CPU)."""
    asked, store, embedder, mem = _warmed(location, queries)
    vectors: dict[str, Any] = {}
    embed = embedder.embed_query

    def stored(text: str) -> Any:
        if text not in vectors:
            vectors[text] = embed(text)
        return vectors[text]

    embedder.embed_query = stored  # type: ignore[method-assign]
    for q in asked:
        mem.recall(q, limit=10)
    mem.searcher.concurrent = False
    spent: dict[str, float] = {}

    def timed(name: str, fn: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            began = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + (time.thread_time() - began) * 1000

        return call

    store.keyword_search = timed("keyword", store.keyword_search)  # type: ignore[method-assign]
    store.vector_search = timed("vector", store.vector_search)  # type: ignore[method-assign]
    load_start = backends.load_avg()
    per_question: dict[str, list[tuple[float, float, float, float]]] = {q: [] for q in asked}
    for _ in range(rounds):
        for q in asked:
            spent.clear()
            began, wall = time.thread_time(), time.perf_counter()
            mem.recall(q, limit=10)
            total = (time.thread_time() - began) * 1000
            waited = (time.perf_counter() - wall) * 1000  # PostgreSQL works in its own processes: wall counts it
            per_question[q].append((total, spent.get("keyword", 0.0), spent.get("vector", 0.0), waited))
    load_end = backends.load_avg()
    medians = {q: np.median(np.array(v), axis=0) for q, v in per_question.items()}
    columns = np.array(list(medians.values()))
    out: dict[str, Any] = {"load": {"start": load_start, "end": load_end}, "questions": len(asked)}
    for i, name in enumerate(("recall", "keyword", "vector", "wall")):
        out[name] = {f"p{p}": round(float(np.percentile(columns[:, i], p)), 2) for p in (50, 95, 99)}
    ranked = sorted(medians.items(), key=lambda item: -item[1][-1 if "://" in location else 0])[:slowest]
    out["slowest"] = [[q, *(round(float(x), 2) for x in m)] for q, m in ranked]
    mem.close()
    store.close()
    return out


def budgets(location: str, queries: int, variants: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """The keyword half of a whole-agent search ranked by vectors (SQLite), per (postings budget, newest
    ranked): the share of questions whose answer turn ``recall()`` shows in its top 10, and the time of
    ``keyword_search`` alone (the query's vector given, word counts cached; two rounds, variants in turn)."""
    from memlane.store.base import Scope

    asked, store, embedder, mem = _warmed(location, queries)  # the variants differ in ranking only
    vectors = {q: np.asarray(embedder.embed_query(q), dtype=np.float32) for q in asked}
    evidence = evidence_texts()
    words = store._common_words  # type: ignore[attr-defined]
    found: dict[tuple[int, int], list[bool]] = {v: [] for v in variants}
    spent: dict[tuple[int, int], list[float]] = {v: [] for v in variants}
    for round_ in range(2):
        for variant in variants:
            words.VECTOR_POSTINGS_BUDGET, words.VECTOR_NEWEST_RANKED = variant
            for q in asked:
                began = time.perf_counter()
                store.keyword_search(backends.AGENT, q, Scope(), 40, query_vector=lambda q=q: vectors[q])
                spent[variant].append((time.perf_counter() - began) * 1000)
                if round_ == 0 and evidence.get(q):
                    hits = mem.recall(q, limit=10)
                    found[variant].append(any(text in h.text for h in hits for text in evidence[q]))
    mem.close()
    store.close()
    return [
        {
            "budget": v[0],
            "newest": v[1],
            "evidence_in_top10": round(float(np.mean(found[v])), 4),
            "keyword_ms": backends.stats(spent[v]),
        }
        for v in variants
    ]


def cells(location: str, queries: int, variants: list[tuple[float, float]], rows: int | None) -> list[dict[str, Any]]:
    """The SQLite approximate index with other cell counts (``factor`` sqrt(n) cells, ``share`` of them
    probed), built over the store's agent (or ``rows`` of its rows, drawn at random): recall@10 against an
    exact scan of the same rows, rows scanned and time of a scan, per variant (each question twice)."""
    import math

    from memlane.store import open_store
    from memlane.store.sqlite import ivf

    _, questions = backends.locomo()
    rng = random.Random(SEED)
    rng.shuffle(questions)
    query_vectors = text_vectors(questions[:queries], "query")
    store = open_store(location)
    with store._read() as conn:  # type: ignore[attr-defined]
        entry = store._vectors.get(conn, store._agent_id(backends.AGENT), query_vectors.shape[1])  # type: ignore[attr-defined]
    n = entry.size
    matrix, is_message = entry.matrix[:n], entry.kinds[:n] == 0
    if rows:
        pick = np.sort(np.random.default_rng(5).choice(n, rows, replace=False))
        matrix, is_message, n = np.ascontiguousarray(matrix[pick]), is_message[pick], rows
    exact = np.argsort(-(matrix @ query_vectors.T), axis=0)[:10].T
    out = []
    for factor, share in variants:
        ivf.cells_for = lambda r, f=factor: max(16, round(f * math.sqrt(r)))  # type: ignore[assignment]
        began = time.perf_counter()
        per_root = share * math.sqrt(ivf.cells_for(int(is_message.sum())))  # that share of the cells
        order, index = ivf.build_ivf(matrix, is_message, per_root)
        build_s = time.perf_counter() - began
        reordered = matrix[order]
        where = np.empty(n, dtype=np.int64)
        where[order] = np.arange(n)
        found, scanned, spent = [], [], []
        for round_ in range(2):
            for i, query in enumerate(query_vectors):
                began = time.perf_counter()
                positions, scores = index.scan(reordered, n, query)
                top = positions[np.argpartition(-scores, 9)[:10]]
                spent.append((time.perf_counter() - began) * 1000)
                if round_ == 0:
                    found.append(len(set(top.tolist()) & set(where[exact[i]].tolist())) / 10)
                    scanned.append(len(positions))
        out.append(
            {
                "rows": n,
                "factor": factor,
                "share": share,
                "cells": len(index.centroids),
                "probes": index.probes,
                "build_s": round(build_s, 1),
                "recall_at_10": round(float(np.mean(found)), 3),
                "rows_scanned": int(np.median(scanned)),
                "scan_ms": backends.stats(spent),
            }
        )
        del reordered
    store.close()
    return out


def lockstep(location: str, sides: list[str], queries: int, passes: int) -> dict[str, Any]:
    """recall() of every side (``SRC[:field=value,...]``) in lockstep over the same questions: see the module
    docstring."""
    if not location.startswith(("postgresql://", "postgres://")) and not Path(location).is_file():
        raise SystemExit(f"no store at {location}: make one with `broad.py build LOCATION SIZE`")
    for spec in sides:
        src = Path(spec.partition(":")[0])
        if not (src / "src" / "memlane" / "__init__.py").is_file():
            raise SystemExit(f"{src} holds no src/memlane: a side is a source tree, e.g. a git archive")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    load_start = backends.load_avg()
    with tempfile.TemporaryDirectory(prefix="memlane-bench-home-") as home:
        env["MEMLANE_HOME"] = home
        procs = [
            subprocess.Popen(
                [sys.executable, __file__, "side", location, str(queries), spec],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for spec in sides
        ]
        try:
            for spec, proc in zip(sides, procs, strict=True):
                if proc.stdout is None or proc.stdout.readline().strip() != "ready":
                    raise RuntimeError(f"side {spec} did not start (its error is above)")
            times: list[list[float]] = [[] for _ in sides]
            rng = random.Random(SEED)
            order = list(range(len(sides)))
            for _ in range(passes):
                for i in range(queries):
                    rng.shuffle(order)
                    for k in order:
                        times[k].append(_ask(procs[k], i))
        finally:
            for proc in procs:
                if proc.stdin is not None:
                    proc.stdin.close()
                proc.wait(timeout=60)
    first = times[0]
    out: dict[str, Any] = {"queries": queries, "passes": passes, "load": {"start": load_start}}
    for spec, t in zip(sides, times, strict=True):
        diffs = [b - a for a, b in zip(first, t, strict=True)]
        out[spec] = {
            "p50": backends.pct(t, 50),
            "p95": backends.pct(t, 95),
            "mean": round(float(np.mean(t)), 2),
            "paired_diff_median": round(float(np.median(diffs)), 2),
        }
    out["load"]["end"] = backends.load_avg()
    return out


def _ask(proc: subprocess.Popen[str], index: int) -> float:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{index}\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    if not line:
        raise RuntimeError("a side stopped answering (its error is above)")
    return float(line)


def side(location: str, queries: int, spec: str) -> None:
    """One side of ``lockstep``, in its own process: answers question numbers read from stdin with the ms
    recall() took (the query embedded every time), after warming up as ``reads`` does."""
    src, _, fields = spec.partition(":")
    sys.path.insert(0, str(Path(src).resolve() / "src"))
    from locomo import build_config

    config = build_config("default", [f for f in fields.split(",") if f])
    asked, store, embedder, mem = _warmed(location, queries, config, asked_too=False)
    print("ready", flush=True)
    for line in sys.stdin:
        question = asked[int(line)]
        embedder.clear_cache()
        began = time.perf_counter()
        mem.recall(question, limit=10, preset=config)
        print((time.perf_counter() - began) * 1e3, flush=True)
    mem.close()
    store.close()


def evidence_texts() -> dict[str, set[str]]:
    """LoCoMo question -> the texts of the turns its answer is in (its ``evidence``), over all conversations."""
    from locomo import parse_evidence

    data = json.loads(backends.DATA.read_text(encoding="utf-8"))
    out: dict[str, set[str]] = {}
    for item in data:
        conv = item["conversation"]
        turns = {
            t["dia_id"]: t["text"]
            for key, value in conv.items()
            if key.startswith("session_") and isinstance(value, list)
            for t in value
            if t.get("text", "").strip()
        }
        for qa in item["qa"]:
            texts = {turns[i] for i in parse_evidence(qa.get("evidence") or [], set(turns))}
            if texts:
                out.setdefault(str(qa["question"]), set()).update(texts)
    return out


def _exact(store: Any, on: bool) -> None:
    """Both halves of a whole-agent search exact (``on``) or as the store makes them: vectors without the
    approximate index, keywords with every word of the query (no postings budget)."""
    store.exact_vectors = on
    words = getattr(store, "_common_words", None) or getattr(store, "_terms", None)  # SQLite / PostgreSQL
    for knob in ("LARGE_AGENT", "LARGE_STORE"):
        if hasattr(words, knob):
            setattr(words, knob, 10**12 if on else getattr(type(words), knob))


def _timed(fn: Any) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def _wait_for_index(store: Any) -> float | None:
    """Seconds until the store's approximate index is ready (SQLite builds it in the background)."""
    wait = getattr(store, "wait_for_vector_indexes", None)
    if wait is None:
        return None
    began = time.perf_counter()
    wait()
    return round(time.perf_counter() - began, 1)


def reads_in_child(location: str, queries: int, timeout: float) -> dict[str, Any]:
    return backends.run_child(__file__, ["reads", location, str(queries)], timeout)


def run(
    size: int, queries: int, out: Path, backends_wanted: set[str], keep: Path | None, wait_for: Path | None
) -> None:
    info: dict[str, Any] = {"machine": backends.machine(), "size": size, "noise": NOISE, "queries": queries}
    with tempfile.TemporaryDirectory(prefix="memlane-broad-", dir="/tmp") as tmp:
        lite = str(keep or Path(tmp) / "broad.db")
        with backends.postgres_server() as url:
            for name, location in (("sqlite", lite), ("postgres", url)):
                if name not in backends_wanted:
                    continue
                if name == "sqlite" and keep is not None and keep.exists():
                    result: dict[str, Any] = {"ingest": "kept from an earlier run"}
                else:
                    print(f"{name}: building {size:,} messages ...", file=sys.stderr, flush=True)
                    result = {"ingest": build(location, size)}
                while wait_for is not None and not wait_for.exists():  # e.g. until the machine is quiet
                    time.sleep(5)
                print(f"{name}: reads ...", file=sys.stderr, flush=True)
                result["reads"] = reads_in_child(location, queries, timeout=3600)
                info[name] = result
                print(json.dumps({name: result}, indent=1), file=sys.stderr, flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(info, indent=1))
    print(table(info))


def table(info: dict[str, Any]) -> str:
    lines = [
        "| backend | recall() whole agent p50 / p95 / p99 ms | CPU p50 | embed / keyword / vector p50 ms | "
        "vector p95 ms | vector R@10 vs exact (min) | recall() top 10 same as exact | evidence in top 10: "
        "approximate / exact | load start → end |",
        "|---|---:|---:|---|---:|---:|---:|---:|---|",
    ]
    for name in ("sqlite", "postgres"):
        if name not in info:
            continue
        r = info[name]["reads"]
        a = r["recall_agent"]
        lines.append(
            f"| {name} | {a['wall']['p50']:.1f} / {a['wall']['p95']:.1f} / {a['wall']['p99']:.1f} | {a['cpu_p50']:.1f}"
            f" | {a['embed_p50']:.1f} / {a['keyword_p50']:.1f} / {a['vector_p50']:.1f} | {a['vector_p95']:.1f}"
            f" | {r['vector_recall_at_10']:.3f} ({r['vector_recall_at_10_min']:.1f}) | {r['recall_top10_same']:.3f}"
            f" | {r['evidence_in_top10']['approximate']:.3f} / {r['evidence_in_top10']['exact']:.3f}"
            f" | {r['load']['start']} → {r['load']['end']} |"
        )
    return "\n".join(lines)


def _pairs(parser: argparse.ArgumentParser, values: list[str], kind: Any, form: str) -> list[tuple[Any, Any]]:
    """``A:B`` arguments as pairs of ``kind``; a usage error naming ``form`` otherwise."""
    try:
        pairs = [tuple(kind(x) for x in v.split(":")) for v in values]
    except ValueError:
        pairs = []
    if not pairs or any(len(p) != 2 for p in pairs):
        parser.error(f"variants are {form}")
    return pairs  # type: ignore[return-value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="build both stores and read them, one fresh process per backend")
    p.add_argument("--size", type=int, default=1_000_000)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--backends", default="sqlite,postgres")
    p.add_argument("--keep-sqlite", type=Path, help="build the SQLite store here once and reuse it")
    p.add_argument("--out", type=Path, default=OUT / "broad.json")
    p.add_argument("--wait-for", type=Path, help="build, then read only once this file exists")
    p = sub.add_parser("build")
    p.add_argument("location")
    p.add_argument("size", type=int)
    p = sub.add_parser("reads")
    p.add_argument("location")
    p.add_argument("queries", type=int)
    p = sub.add_parser("own", help="recall()'s own CPU (SQLite): query vectors from memory, no search threads")
    p.add_argument("location")
    p.add_argument("queries", type=int)
    p.add_argument("--rounds", type=int, default=3)
    p = sub.add_parser("budgets", help="keyword budgets of the vector-ranked path: answers found, time")
    p.add_argument("location")
    p.add_argument("variants", nargs="+", help="BUDGET:NEWEST, e.g. 2000:4000 5000:10000")
    p.add_argument("--queries", type=int, default=200)
    p = sub.add_parser("cells", help="SQLite index variants: recall@10 against exact, rows scanned, time")
    p.add_argument("location")
    p.add_argument("variants", nargs="+", help="FACTOR:SHARE, e.g. 2:0.024 6:0.015")
    p.add_argument("--rows", type=int, help="build over this many of the agent's rows, drawn at random")
    p.add_argument("--queries", type=int, default=200)
    p = sub.add_parser("lockstep", help="versions or presets side by side, each question to each in turn")
    p.add_argument("location", help="a store `build` made: SQLite path or PostgreSQL URL")
    p.add_argument("sides", nargs="+", help="SRC[:field=value,...], e.g. /tmp/base . .:beyond_window=0")
    p.add_argument("--queries", type=int, default=200, help="questions asked (default 200)")
    p.add_argument("--passes", type=int, default=3, help="times each side is asked each question (default 3)")
    p = sub.add_parser("side", help=argparse.SUPPRESS)
    p.add_argument("location")
    p.add_argument("queries", type=int)
    p.add_argument("spec")
    p = sub.add_parser("table")
    p.add_argument("json", type=Path)
    args = parser.parse_args()
    if args.command == "run":
        run(args.size, args.queries, args.out, set(args.backends.split(",")), args.keep_sqlite, args.wait_for)
    elif args.command == "build":
        print(json.dumps(build(args.location, args.size)))
    elif args.command == "reads":
        print(json.dumps(reads(args.location, args.queries)))
    elif args.command == "own":
        print(json.dumps(own(args.location, args.queries, args.rounds)))
    elif args.command == "lockstep":
        if len(args.sides) < 2:
            parser.error("lockstep compares at least two sides")
        print(json.dumps(lockstep(args.location, args.sides, args.queries, args.passes)))
    elif args.command == "side":
        side(args.location, args.queries, args.spec)
    elif args.command == "cells":
        specs = _pairs(parser, args.variants, float, "FACTOR:SHARE (numbers), e.g. 6:0.015")
        for row in cells(args.location, args.queries, specs, args.rows):
            print(json.dumps(row))
    elif args.command == "budgets":
        pairs = _pairs(parser, args.variants, int, "BUDGET:NEWEST (whole numbers), e.g. 2000:4000")
        for row in budgets(args.location, args.queries, pairs):
            print(json.dumps(row))
    else:
        print(table(json.loads(args.json.read_text())))


if __name__ == "__main__":
    main()
