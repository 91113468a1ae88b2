"""Semantic recall at scale: build large stores once, then time ``Memory.recall`` on them in fresh processes.

Stores are written through the storage contract (``store.add_messages(..., vectors=...)``) with real LoCoMo
chat turns as text (so full-text search sees real vocabulary) and synthetic-but-clustered 384-d vectors:
4,000 random unit centroids; every thread talks about 6 of them; a message is its topic's centroid plus
Gaussian noise, normalised (cosine ~0.7 to its centroid, ~0.5 to a same-topic message, ~0 otherwise). The
stores record the MiniLM model id as their ``embedding_model``, so ``Memory`` with the real default embedder
opens them, embeds the real query text (timed), and searches the synthetic vectors: the hits are
meaningless, the timing is what is measured.

    .venv/bin/python bench/scale.py build  --layout multi    # 10k/100k/300k/1M messages over 1,000 agents
    .venv/bin/python bench/scale.py build  --layout single   # 10k/50k/100k/200k messages in one agent
    .venv/bin/python bench/scale.py curve  --layout multi    # one fresh process per size; table + JSON
    .venv/bin/python bench/scale.py engines --size 200000    # exact NumPy vs HNSW/sqlite-vec on one store

Stores are cached under ``bench/out/scale/`` (git-ignored) and rebuilt only if missing or built with other
parameters. ``engines`` needs the optional engines on ``sys.path``, e.g.
``pip install --target /tmp/memlane-engines --no-deps usearch numkong tqdm hnswlib faiss-cpu packaging apsw
sqlite-vec`` and ``PYTHONPATH=/tmp/memlane-engines``; an engine that does not import is skipped.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "locomo10.json"
OUT = ROOT / "bench" / "out" / "scale"
DIM = 384
SEED = 20261121
BUILD_VERSION = 1  # bump when the generator changes, so cached stores are rebuilt


# -- machine, load, statistics -------------------------------------------------------------------------
def load_avg() -> str:
    """``uptime``'s three load averages."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    cpu = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem_kb = next(int(x.split()[1]) for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal"))
    commit = _git("rev-parse", "--short", "HEAD")
    changed = [line.split(None, 1)[-1] for line in _git("status", "--porcelain", "--", "src").splitlines()]
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gib": round(mem_kb / 1024**2, 1),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "sqlite": sqlite3.sqlite_version,
        "commit": commit + ("+dirty" if changed else ""),
        "src_changed_since_commit": changed,  # others edit the work tree while benchmarks run
        "memlane": str(Path(memlane_file()).parent),
    }


def memlane_file() -> str:
    import memlane

    return str(memlane.__file__)


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def pct(values: list[float], p: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=np.float64), p)) if values else float("nan")


def stats(ms: list[float]) -> dict[str, float]:
    """p50/p95/p99 (and count) of a list of milliseconds."""
    return {"n": len(ms), "p50": round(pct(ms, 50), 2), "p95": round(pct(ms, 95), 2), "p99": round(pct(ms, 99), 2)}


def rss_mib() -> float:
    import psutil

    return round(psutil.Process().memory_info().rss / 1024**2, 1)


def peak_rss_mib() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


# -- the synthetic corpus ------------------------------------------------------------------------------
def locomo() -> tuple[list[str], list[str]]:
    """LoCoMo's chat turns (in order) and its questions."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
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
        questions += [str(q["question"]) for q in item["qa"] if str(q.get("question", "")).strip()]
    return turns, questions


@dataclass(frozen=True)
class Layout:
    """How messages spread over agents, threads and users, and the sizes of the curve."""

    name: str
    agents: int
    threads_per_agent: int
    users_per_agent: int
    sizes: tuple[int, ...]
    centroids: int = 4000
    topics_per_thread: int = 6
    noise: float = 1.0  # norm of the noise added to a unit centroid

    def key(self) -> dict[str, Any]:
        return {**asdict(self), "sizes": None, "seed": SEED, "version": BUILD_VERSION}


LAYOUTS = {
    "multi": Layout(
        "multi", agents=1000, threads_per_agent=10, users_per_agent=20, sizes=(10_000, 100_000, 300_000, 1_000_000)
    ),
    "single": Layout(
        "single", agents=1, threads_per_agent=500, users_per_agent=100, sizes=(10_000, 50_000, 100_000, 200_000)
    ),
    "smoke": Layout("smoke", agents=5, threads_per_agent=4, users_per_agent=6, sizes=(400, 2_000)),  # a quick check
}


class Generator:
    """Deterministic threads, users, texts and clustered vectors for a layout."""

    def __init__(self, layout: Layout, turns: list[str]) -> None:
        self.layout = layout
        self.turns = turns
        self.centroids = unit(np.random.default_rng(SEED).standard_normal((layout.centroids, DIM)))
        self.rng = np.random.default_rng(SEED + 1)
        self.counter = 0  # messages made so far: picks the text and the timestamp
        self.start = datetime(2025, 1, 1, tzinfo=UTC)

    @staticmethod
    def agent(a: int) -> str:
        return f"agent-{a:04d}"

    @staticmethod
    def thread(t: int) -> str:
        return f"thread-{t:04d}"

    def thread_users(self, a: int, t: int) -> tuple[str, str]:
        """The two users who talk in thread ``t`` of agent ``a``."""
        r = random.Random(f"{SEED}/{a}/{t}")
        u1, u2 = r.sample(range(self.layout.users_per_agent), 2)
        return f"user-{u1:03d}", f"user-{u2:03d}"

    def topics(self, a: int, t: int) -> np.ndarray:
        r = np.random.default_rng([SEED, a, t])
        return r.choice(self.layout.centroids, self.layout.topics_per_thread, replace=False)

    def vectors(self, topics: np.ndarray, n: int) -> np.ndarray:
        picked = self.centroids[self.rng.choice(topics, n)]
        noise = self.rng.standard_normal((n, DIM)).astype(np.float32) * (self.layout.noise / np.sqrt(DIM))
        return unit(picked + noise)

    def messages(self, a: int, t: int, first_seq: int, n: int) -> list[Any]:
        """``n`` validated messages for a thread, alternating user and assistant turns."""
        from memlane.validation import new_message

        users = self.thread_users(a, t)
        out = []
        for i in range(n):
            seq = first_seq + i
            text = self.turns[self.counter % len(self.turns)]
            when = self.start + timedelta(seconds=20 * self.counter)
            self.counter += 1
            if seq % 2 == 0:
                out.append(new_message("user", text, user=users[(seq // 2) % 2], created_at=when, max_chars=100_000))
            else:
                out.append(new_message("assistant", text, created_at=when, max_chars=100_000))
        return out


def unit(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


# -- build ---------------------------------------------------------------------------------------------
def store_path(layout: Layout, size: int) -> Path:
    return OUT / f"{layout.name}-{size}.db"


def manifest(path: Path) -> dict[str, Any] | None:
    meta = path.with_suffix(".json")
    return json.loads(meta.read_text()) if meta.exists() and path.exists() else None


def build(layout: Layout) -> None:
    """Build every size of the layout by growing one store and copying it at each size (cached)."""
    from memlane.embeddings.onnx import MINILM_MODEL_ID
    from memlane.store.sqlite import SQLiteStore
    from memlane.tokens import get_tokenizer

    if all((m := manifest(store_path(layout, s))) and m["key"] == layout.key() for s in layout.sizes):
        print(f"{layout.name}: every size is built already ({OUT})")
        return
    OUT.mkdir(parents=True, exist_ok=True)
    work = OUT / f"{layout.name}-work.db"
    for stale in (work, Path(f"{work}-wal"), Path(f"{work}-shm")):
        stale.unlink(missing_ok=True)
    turns, _ = locomo()
    gen = Generator(layout, turns)
    tok = get_tokenizer("o200k_base")
    store = SQLiteStore(work)
    store.set_meta("embedding_model", MINILM_MODEL_ID)
    done, t0 = 0, time.perf_counter()
    per_thread = layout.agents * layout.threads_per_agent
    for size in layout.sizes:
        each = (size - done) // per_thread
        for a in range(layout.agents):
            for t in range(layout.threads_per_agent):
                items = gen.messages(a, t, done // per_thread, each)
                counts = [tok.count_message({"role": m.role, "content": m.content}) for m in items]
                vectors = gen.vectors(gen.topics(a, t), each)
                store.add_messages(gen.agent(a), gen.thread(t), items, counts, items[0].created_at, vectors=vectors)
        done = size
        store.close()  # the last connection checkpoints the WAL into the file
        target = store_path(layout, size)
        shutil.copyfile(work, target)
        elapsed = time.perf_counter() - t0
        info = {
            "key": layout.key(),
            "messages": size,
            "bytes": db_bytes(target),
            "build_s": round(elapsed, 1),
            "load": load_avg(),
        }
        target.with_suffix(".json").write_text(json.dumps(info, indent=1))
        print(
            f"{target.name}: {size:,} messages, {info['bytes'] / 1e6:,.0f} MB, {elapsed:,.0f} s so far "
            f"(load {info['load']})",
            flush=True,
        )
        store = SQLiteStore(work)
    store.close()
    for stale in (work, Path(f"{work}-wal"), Path(f"{work}-shm")):
        stale.unlink(missing_ok=True)


# -- query: one fresh process per store -----------------------------------------------------------------
class Timed:
    """Wraps a callable and keeps the wall milliseconds of its calls since the last ``take``."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn, self.ms = fn, 0.0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return self.fn(*args, **kwargs)
        finally:
            self.ms += (time.perf_counter() - t) * 1000

    def take(self) -> float:
        ms, self.ms = self.ms, 0.0
        return ms


CASES = (  # (label, preset, whether the query is scoped to a user)
    ("keyword, user scope", "keyword", True),
    ("vector, user scope", "vector", True),
    ("hybrid (default), user scope", "default", True),
    ("hybrid (default), whole agent", "default", False),
)


def query(path: Path, queries: int, cold_reps: int) -> dict[str, Any]:
    """Cold and warm ``recall`` timings on one store, with RSS and size (run in a fresh process)."""
    from memlane import Memory
    from memlane.config import load_settings
    from memlane.embeddings import OnnxMiniLMEmbedder
    from memlane.store.sqlite import SQLiteStore

    rng = random.Random(SEED)
    _, questions = locomo()
    rss0 = rss_mib()
    embedder = OnnxMiniLMEmbedder()
    embedder.load()
    embedder.embed(["warm up onnxruntime"], "query")
    store = SQLiteStore(path)
    timers = {"keyword": Timed(store.keyword_search), "vector": Timed(store.vector_search)}
    store.keyword_search, store.vector_search = timers["keyword"], timers["vector"]  # type: ignore[method-assign]
    embed = Timed(embedder.embed_query)
    embedder.embed_query = embed  # type: ignore[method-assign]
    conn = sqlite3.connect(path)
    pairs = conn.execute(
        "SELECT DISTINCT a.name, tu.user_id FROM thread_users tu JOIN agents a ON a.id = tu.agent_id ORDER BY 1, 2"
    ).fetchall()
    conn.close()
    agents = sorted({a for a, _ in pairs})
    settings = load_settings(worker="none")  # no background job worker polling while recall is timed
    base = Memory(store=store, agent=agents[0], embedder=embedder, settings=settings)
    views = {a: base.for_agent(a) for a in agents}
    rss_model = rss_mib()

    def recall(agent: str, user: str | None, preset: str) -> tuple[float, float]:
        embedder.clear_cache()  # every query is embedded for real
        q = rng.choice(questions)
        t, c = time.perf_counter(), time.process_time()
        views[agent].recall(q, user=user, limit=10, preset=preset)
        return (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000

    cold = []
    for _ in range(cold_reps):
        store._vectors.clear()
        agent, user = rng.choice(pairs)
        cold.append(recall(agent, user, "default")[0])
    t = time.perf_counter()
    store._vectors.clear()
    for agent in agents:  # what a server that has answered every agent once holds
        views[agent].recall("warm up", limit=1, preset="vector")
    warm_all_s = time.perf_counter() - t
    for timer in (*timers.values(), embed):
        timer.take()
    rss_warm = rss_mib()
    results: dict[str, dict[str, list[float]]] = {
        c[0]: {"wall": [], "cpu": [], "embed": [], "keyword": [], "vector": []} for c in CASES
    }
    load_start = load_avg()
    for _ in range(queries):  # the cases interleaved, so load changes hit them alike
        for label, preset, scoped in CASES:
            agent, user = rng.choice(pairs)
            wall, cpu = recall(agent, user if scoped else None, preset)
            r = results[label]
            r["wall"].append(wall)
            r["cpu"].append(cpu)
            r["embed"].append(embed.take())
            r["keyword"].append(timers["keyword"].take())
            r["vector"].append(timers["vector"].take())
    cache = sum(v.nbytes for v in store._vectors._agents.values())
    out = {
        "db": path.name,
        "messages": json.loads(path.with_suffix(".json").read_text())["messages"],
        "agents": len(agents),
        "db_mb": round(db_bytes(path) / 1e6, 1),
        "cold_ms": stats(cold),
        "warm_all_agents_s": round(warm_all_s, 2),
        "vector_cache_mb": round(cache / 1e6, 1),
        "rss_mib": {
            "start": rss0,
            "model_loaded": rss_model,
            "agents_warm": rss_warm,
            "end": rss_mib(),
            "peak": peak_rss_mib(),
        },
        "load": {"start": load_start, "end": load_avg()},
        "cases": {},
    }
    for label, r in results.items():
        out["cases"][label] = {
            "wall": stats(r["wall"]),
            "cpu_p50": round(pct(r["cpu"], 50), 2),
            **{f"{k}_p50": round(pct(r[k], 50), 2) for k in ("embed", "keyword", "vector")},
        }
    store.close()
    return out


def curve(layout: Layout, queries: int, cold_reps: int, out: Path) -> None:
    """Build if needed, then query every size in its own process; print tables, write JSON."""
    build(layout)
    info = {"machine": machine(), "layout": asdict(layout), "queries_per_case": queries, "points": []}
    for size in layout.sizes:
        cmd = [
            sys.executable,
            __file__,
            "query",
            "--db",
            str(store_path(layout, size)),
            "--queries",
            str(queries),
            "--cold",
            str(cold_reps),
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        point = json.loads(done.stdout)
        info["points"].append(point)
        print(f"{size:,}: done (load {point['load']['end']})", file=sys.stderr, flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(info, indent=1))
    print(tables(info))


def tables(info: dict[str, Any]) -> str:
    """Markdown: one table, a column per size: latency per case, its parts, cold start, memory, size."""
    pts = info["points"]
    lines = [
        f"{info['layout']['name']} · {info['machine']['date']} · commit {info['machine']['commit']} · "
        f"{info['queries_per_case']} queries per case, cases interleaved · ms unless noted\n\n",
        "| messages | " + " | ".join(f"{p['messages']:,}" for p in pts) + " |\n|---|" + "---:|" * len(pts) + "\n",
    ]

    def row(name: str, fn: Callable[[dict[str, Any]], str]) -> None:
        lines.append(f"| {name} | " + " | ".join(fn(p) for p in pts) + " |\n")

    for label in pts[0]["cases"]:
        row(
            f"**{label}**: p50 / p95 wall",
            lambda p, c=label: f"{p['cases'][c]['wall']['p50']:.1f} / {p['cases'][c]['wall']['p95']:.1f}",
        )
        row("↳ CPU p50 (process)", lambda p, c=label: f"{p['cases'][c]['cpu_p50']:.1f}")
        parts = ("embed", "keyword", "vector") if "hybrid" in label else ()
        for part in parts:
            names = {"embed": "query embedding", "keyword": "keyword retriever", "vector": "vector retriever"}
            row(f"↳ p50 {names[part]}", lambda p, c=label, k=part: f"{p['cases'][c][k + '_p50']:.1f}")
    row("cold first recall p50 / max", lambda p: f"{p['cold_ms']['p50']:.0f} / {max(p['cold_ms'].values()):.0f}")
    row("touch every agent once (s)", lambda p: f"{p['warm_all_agents_s']:.1f}")
    row("vector cache, accounted (MB)", lambda p: f"{p['vector_cache_mb']:,.0f}")
    row(
        "RSS: model loaded → all agents warm (MiB)",
        lambda p: f"{p['rss_mib']['model_loaded']:,.0f} → {p['rss_mib']['agents_warm']:,.0f}",
    )
    row("database on disk (MB)", lambda p: f"{p['db_mb']:,.0f}")
    row("load (1-min) at end", lambda p: p["load"]["end"].split()[0])
    return "".join(lines)


# -- engines: exact NumPy vs ANN indexes on the same vectors ---------------------------------------------
K = 10
HNSW = {"M": 16, "ef_construction": 64, "ef_search": (64, 128)}  # the same graph parameters for every HNSW


class Engine:
    """One way to find the top ``K`` of a query, optionally within a boolean row mask."""

    name = ""
    exact = False

    def build(self, vectors: np.ndarray, threads: np.ndarray) -> None: ...

    def search(self, q: np.ndarray, mask: np.ndarray | None, ef: int) -> np.ndarray: ...


class NumpyExact(Engine):
    """memlane's own engine: ``sqlite_vectors.top_k`` over the agent's matrix, the scope as a mask."""

    name, exact = "NumPy exact (memlane)", True

    def __init__(self, loaded: Any) -> None:
        self.loaded = loaded

    def search(self, q: np.ndarray, mask: np.ndarray | None, ef: int) -> np.ndarray:
        from memlane.store.sqlite.vectors import top_k

        ids = self.loaded.item_ids
        hits = top_k(self.loaded, q, mask, K)
        return np.searchsorted(ids[: self.loaded.size], [h[1] for h in hits])  # back to row numbers


class Usearch(Engine):
    """usearch HNSW; its Python API has no predicate filter, so a filter means over-fetch then filter."""

    name = "usearch HNSW (over-fetch ×100)"

    def build(self, vectors: np.ndarray, threads: np.ndarray) -> None:
        from usearch.index import Index

        self.index = Index(
            ndim=DIM, metric="ip", dtype="f32", connectivity=HNSW["M"], expansion_add=HNSW["ef_construction"]
        )
        self.index.add(np.arange(len(vectors), dtype=np.uint64), vectors, threads=os.cpu_count() or 1)

    def search(self, q: np.ndarray, mask: np.ndarray | None, ef: int) -> np.ndarray:
        self.index.expansion_search = ef
        if mask is None:
            return np.asarray(self.index.search(q, K, threads=1).keys, dtype=np.int64)
        keys = np.asarray(self.index.search(q, K * 100, threads=1).keys, dtype=np.int64)
        return keys[mask[keys]][:K]

    def save_load(self, path: Path) -> float:
        from usearch.index import Index

        self.index.save(str(path))
        t = time.perf_counter()
        Index.restore(str(path))
        return time.perf_counter() - t


class Hnswlib(Engine):
    """hnswlib HNSW; filters with a Python predicate called for every visited node."""

    name = "hnswlib HNSW (predicate filter)"

    def build(self, vectors: np.ndarray, threads: np.ndarray) -> None:
        import hnswlib

        self.index = hnswlib.Index(space="ip", dim=DIM)
        self.index.init_index(max_elements=len(vectors), M=HNSW["M"], ef_construction=HNSW["ef_construction"])
        self.index.add_items(vectors, np.arange(len(vectors)), num_threads=os.cpu_count() or 1)

    def search(self, q: np.ndarray, mask: np.ndarray | None, ef: int) -> np.ndarray:
        self.index.set_ef(ef)
        allowed = None if mask is None else (lambda label: bool(mask[label]))
        labels, _ = self.index.knn_query(q, K, num_threads=1, filter=allowed)
        return np.asarray(labels[0], dtype=np.int64)

    def save_load(self, path: Path) -> float:
        import hnswlib

        self.index.save_index(str(path))
        t = time.perf_counter()
        hnswlib.Index(space="ip", dim=DIM).load_index(str(path))
        return time.perf_counter() - t


class FaissHnsw(Engine):
    """faiss HNSW; filters inside the graph search with an ``IDSelectorBitmap``."""

    name = "faiss HNSW (bitmap filter)"

    def build(self, vectors: np.ndarray, threads: np.ndarray) -> None:
        import faiss

        faiss.omp_set_num_threads(os.cpu_count() or 1)
        self.index = faiss.IndexHNSWFlat(DIM, HNSW["M"], faiss.METRIC_INNER_PRODUCT)
        self.index.hnsw.efConstruction = HNSW["ef_construction"]
        self.index.add(vectors)
        faiss.omp_set_num_threads(1)

    def search(self, q: np.ndarray, mask: np.ndarray | None, ef: int) -> np.ndarray:
        import faiss

        params = faiss.SearchParametersHNSW(efSearch=ef)
        if mask is not None:
            bits = np.packbits(mask, bitorder="little")
            params.sel = faiss.IDSelectorBitmap(len(mask), faiss.swig_ptr(bits))
        _, labels = self.index.search(q[None, :], K, params=params)
        found = labels[0]
        return np.asarray(found[found >= 0], dtype=np.int64)

    def save_load(self, path: Path) -> float:
        import faiss

        faiss.write_index(self.index, str(path))
        t = time.perf_counter()
        faiss.read_index(str(path))
        return time.perf_counter() - t


class SqliteVec(Engine):
    """sqlite-vec ``vec0`` (exact, in SQLite) through apsw; the filter is a metadata column ``IN``."""

    name, exact = "sqlite-vec vec0 via apsw (exact)", True

    def build(self, vectors: np.ndarray, threads: np.ndarray) -> None:
        import apsw
        import sqlite_vec

        self.path = OUT / "engines-vec0.db"
        for stale in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-journal")):
            stale.unlink(missing_ok=True)
        self.conn = apsw.Connection(str(self.path))
        self.conn.enable_load_extension(True)
        self.conn.load_extension(sqlite_vec.loadable_path())
        self.threads = threads
        self.conn.execute(
            f"CREATE VIRTUAL TABLE v USING vec0(thread_id integer, embedding float[{DIM}] distance_metric=cosine)"
        )
        with self.conn:
            self.conn.executemany(
                "INSERT INTO v (rowid, thread_id, embedding) VALUES (?, ?, ?)",
                ((i + 1, int(threads[i]), vectors[i].tobytes()) for i in range(len(vectors))),
            )

    def search(self, q: np.ndarray, mask: np.ndarray | None, ef: int) -> np.ndarray:
        sql = "SELECT rowid FROM v WHERE embedding MATCH ? AND k = ?"
        params: list[Any] = [q.tobytes(), K]
        if mask is not None:
            wanted = sorted({int(t) for t in np.unique(self.threads[mask])})
            sql += f" AND thread_id IN ({','.join('?' * len(wanted))})"
            params += wanted
        return np.asarray([r[0] - 1 for r in self.conn.execute(sql, params)], dtype=np.int64)


def exact_top(vectors: np.ndarray, q: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    rows = np.arange(len(vectors)) if mask is None else np.flatnonzero(mask)
    scores = vectors[rows] @ q
    return rows[np.argsort(-scores, kind="stable")[:K]]


def engine_queries(path: Path, count: int) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], list[str]]:
    """``count`` queries drawn like the messages, and for each a 1% filter (5 of the 500 threads).

    Even queries are on one of the filtered threads' topics ("in-topic"), odd ones on any topic
    ("off-topic": the nearest rows overall are mostly outside the filter, the hard case for an ANN).
    """
    layout = LAYOUTS["single"]
    gen = Generator(layout, [""])
    gen.rng = np.random.default_rng(SEED + 2)
    conn = sqlite3.connect(path)
    thread_of = np.asarray([r[0] for r in conn.execute("SELECT thread_id FROM embeddings ORDER BY id")])
    keys = dict(conn.execute("SELECT id, key FROM threads"))
    conn.close()
    rng = np.random.default_rng(SEED + 3)
    thread_ids = np.unique(thread_of)
    queries, masks, kinds = [], [], []
    for i in range(count):
        chosen = rng.choice(thread_ids, len(thread_ids) // 100, replace=False)
        masks.append(np.isin(thread_of, chosen))
        if i % 2 == 0:
            topics = gen.topics(0, int(keys[int(chosen[0])].split("-")[1]))
            kinds.append("in-topic")
        else:
            topics = rng.choice(layout.centroids, 1)
            kinds.append("off-topic")
        queries.append(gen.vectors(topics, 1)[0])
    return np.asarray(queries), thread_of, masks, kinds


def load_exact(path: Path) -> tuple[Any, list[float], list[float]]:
    """The library's own load of the agent's vectors from the ``embeddings`` BLOBs (3 times): wall, CPU."""
    from memlane.store.sqlite.vectors import VectorCache

    times, cpu, loaded = [], [], None
    for _ in range(3):
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN")
        t, c = time.perf_counter(), time.process_time()
        loaded = VectorCache().get(conn, 1, DIM)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        conn.execute("COMMIT")
        conn.close()
    return loaded, times, cpu


def compare_engines(path: Path, count: int, skip: set[str], out: Path) -> None:
    """Build every engine on the store's vectors, then time them side by side (interleaved per query)."""
    if manifest(path) is None:
        build(LAYOUTS["single"])
    gc.collect()
    rss = rss_mib()
    loaded, load_s, load_cpu = load_exact(path)
    n = loaded.size
    vectors = np.ascontiguousarray(loaded.matrix[:n])
    report: dict[str, Any] = {"machine": machine(), "size": n, "queries": count, "hnsw": HNSW, "engines": {}}
    engines: list[Engine] = [NumpyExact(loaded)]
    report["engines"][engines[0].name] = {
        "build_s": round(float(np.median(load_s)), 2),
        "build": "load from SQLite",
        "build_cpu_s": round(float(np.median(load_cpu)), 2),
        "rss_delta_mib": round(rss_mib() - rss, 0),
        "load": load_avg(),
    }
    queries, thread_of, masks, kinds = engine_queries(path, count)
    for cls in (Usearch, Hnswlib, FaissHnsw, SqliteVec):
        if cls.__name__ in skip:
            continue
        engine = cls()
        gc.collect()
        before, t, cpu = rss_mib(), time.perf_counter(), time.process_time()
        try:
            engine.build(vectors, thread_of)
        except ImportError as exc:
            print(f"skipping {cls.name}: {exc}", file=sys.stderr)
            continue
        info = {
            "build_s": round(time.perf_counter() - t, 1),
            "build_cpu_s": round(time.process_time() - cpu, 1),
            "build": "build from vectors",
            "rss_delta_mib": round(rss_mib() - before, 0),
            "load": load_avg(),
        }
        if hasattr(engine, "save_load"):
            file = OUT / f"engines-{cls.__name__}.index"
            info["load_saved_index_s"] = round(engine.save_load(file), 2)
            info["index_file_mb"] = round(file.stat().st_size / 1e6, 0)
            file.unlink()
        report["engines"][cls.name] = info
        engines.append(engine)
        print(f"built {cls.name}: {info}", file=sys.stderr, flush=True)
    report["results"] = time_engines(engines, vectors, queries, masks, kinds)
    report["load_end"] = load_avg()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    print(engine_table(report))


def time_engines(
    engines: list[Engine], vectors: np.ndarray, queries: np.ndarray, masks: list[np.ndarray], kinds: list[str]
) -> dict[str, dict[str, Any]]:
    """Per engine and case: latency and recall@10 against the exact answer; engines interleaved per query."""
    cases = [("all rows", None, ef) for ef in HNSW["ef_search"]] + [
        ("1% filter, in-topic", "in-topic", HNSW["ef_search"][0]),
        ("1% filter, off-topic", "off-topic", HNSW["ef_search"][0]),
    ]
    acc: dict[str, dict[str, Any]] = {}
    for i, q in enumerate(queries):
        for case, kind, ef in cases:
            if kind is not None and kinds[i] != kind:
                continue
            mask = None if kind is None else masks[i]
            truth = set(exact_top(vectors, q, mask).tolist())
            for engine in engines:
                label = case if engine.exact or kind is not None else f"{case}, ef={ef}"
                if engine.exact and kind is None and ef != HNSW["ef_search"][0]:
                    continue
                slot = acc.setdefault(engine.name, {}).setdefault(label, {"ms": [], "cpu": [], "recall": []})
                t, c = time.perf_counter(), time.process_time()
                found = engine.search(q, mask, ef)
                slot["ms"].append((time.perf_counter() - t) * 1000)
                slot["cpu"].append((time.process_time() - c) * 1000)
                slot["recall"].append(len(truth & set(found.tolist())) / K)
    return {
        e: {
            c: {
                **stats(v["ms"]),
                "cpu_p50": round(pct(v["cpu"], 50), 2),
                "recall": round(float(np.mean(v["recall"])), 3),
            }
            for c, v in cs.items()
        }
        for e, cs in acc.items()
    }


def engine_table(report: dict[str, Any]) -> str:
    lines = [
        f"{report['size']:,} vectors in one agent, {report['queries']} queries · {report['machine']['date']} · "
        f"commit {report['machine']['commit']} · load at end {report['load_end']}\n\n",
        "| engine | case | p50 ms | p95 ms | CPU p50 ms | recall@10 |\n|---|---|---|---|---|---|\n",
    ]
    for engine, cases in report["results"].items():
        for case, s in cases.items():
            cpu = f"{s['cpu_p50']:.2f}" if "cpu_p50" in s else "–"
            lines.append(f"| {engine} | {case} | {s['p50']:.2f} | {s['p95']:.2f} | {cpu} | {s['recall']:.3f} |\n")
    lines.append(
        "\n| engine | build / load, wall s | CPU s | how | RSS added (MiB) | load of a saved index (s) | "
        "index file (MB) |\n|---|---|---|---|---|---|---|\n"
    )
    for engine, info in report["engines"].items():
        lines.append(
            f"| {engine} | {info['build_s']} | {info['build_cpu_s']} | {info['build']} | "
            f"{info['rss_delta_mib']:.0f} | "
            f"{info.get('load_saved_index_s', '–')} | {info.get('index_file_mb', '–')} |\n"
        )
    return "".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("build", "curve"):
        p = sub.add_parser(name)
        p.add_argument("--layout", choices=sorted(LAYOUTS), required=True)
        if name == "curve":
            p.add_argument("--queries", type=int, default=100, help="timed queries per case and size")
            p.add_argument("--cold", type=int, default=5, help="cold first queries per size")
            p.add_argument("--out", type=Path)
    p = sub.add_parser("query")
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--cold", type=int, default=5)
    p = sub.add_parser("table", help="print the table of a curve's JSON again")
    p.add_argument("json", type=Path)
    p = sub.add_parser("engines")
    p.add_argument("--size", type=int, default=200_000)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--skip", default="", help="comma-separated engines to leave out")
    p.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.command == "build":
        build(LAYOUTS[args.layout])
    elif args.command == "query":
        print(json.dumps(query(args.db, args.queries, args.cold)))
    elif args.command == "table":
        data = json.loads(args.json.read_text())
        print(engine_table(data) if "engines" in data else tables(data))
    elif args.command == "curve":
        layout = LAYOUTS[args.layout]
        curve(layout, args.queries, args.cold, args.out or OUT / f"curve-{layout.name}.json")
    else:
        path = store_path(LAYOUTS["single"], args.size)
        compare_engines(
            path, args.queries, set(filter(None, args.skip.split(","))), args.out or OUT / f"engines-{args.size}.json"
        )


if __name__ == "__main__":
    main()
