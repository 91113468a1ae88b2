"""Keys augmented at ingest, measured on LoCoMo by retrievers built beside the cached store (issue 16).

Nothing in the store changes: the messages of the cached LoCoMo store (``bench/locomo.py``) are read once and
other keys are built next to it: an in-memory FTS5 table in the store's own format (words tagged per agent,
porter stemming) whose extra column ``nbr`` holds words added per message, and NumPy vectors of each turn
with its neighbours. They are searched as retrievers registered on each conversation's ``Memory.searcher``
(replacing ``keyword`` / ``vector``, or as a third list fused with a weight), and scored by ``locomo.run``.
The table's ``nbr`` column left empty reproduces the keyword list of a store without migration 14 exactly; every
row replaces the store's own keyword list with it (a store migrated to 14 already holds the neighbours' words).

    PYTHONPATH=src:bench .venv/bin/python bench/experiments/keys_exp.py [--windows] [--pools]

``--windows`` also embeds every turn with the turns before and after it (speaker-prefixed; ~5,900 texts,
cached in ``bench/out/locomo-window-vectors.npz``: ~10 minutes on 2 busy cores) and scores those vectors as
a key; ``--pools`` reports the share of evidence in each retriever's pool of 100 (as bench/experiments/locomo_pools.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import sqlite3
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import bench_path  # noqa: F401  (bench/ on the path, for locomo and peers)
import numpy as np

import locomo
from locomo import DEFAULT_DATA, OUT_DIR, SCORED, Covers, DiskCachedEmbedder, ingest, load_conversations, minilm
from memlane.retrieval import get_preset
from memlane.store._common import fmt_time, query_terms
from memlane.store.base import Candidate, Scope
from memlane.store.sqlite.schema import agent_terms
from memlane.texts import message_text
from memlane.timestamps import parse_time

MISSING = 10**9


@dataclass(frozen=True, slots=True)
class Row:
    id: int
    agent_id: int
    thread_id: int
    seq: int
    speaker: str
    content: str
    created_at: str


class Corpus:
    """The cached store's messages, by agent and by thread (in order)."""

    def __init__(self, db: str) -> None:
        conn = sqlite3.connect(db)
        self.agents = {str(n): int(i) for i, n in conn.execute("SELECT id, name FROM agents")}
        self.rows = [
            Row(int(r[0]), int(r[1]), int(r[2]), int(r[3]), str(r[4] or r[5] or r[6]), str(r[7]), str(r[8]))
            for r in conn.execute(
                "SELECT id, agent_id, thread_id, seq, name, user_id, role, content, created_at FROM messages "
                "ORDER BY id"
            )
        ]
        conn.close()
        self.by_pos = {(r.thread_id, r.seq): r for r in self.rows}

    def around(self, row: Row, before: int, after: int) -> tuple[list[Row], list[Row]]:
        prev = [p for s in range(row.seq - before, row.seq) if (p := self.by_pos.get((row.thread_id, s)))]
        nxt = [p for s in range(row.seq + 1, row.seq + after + 1) if (p := self.by_pos.get((row.thread_id, s)))]
        return prev, nxt


class KeywordKeys:
    """An FTS5 table like ``messages_fts`` plus a column ``nbr`` holding extra words per message."""

    def __init__(self, corpus: Corpus, extra: Callable[[Row], str]) -> None:
        self.corpus = corpus
        self.lock = threading.Lock()
        self.conn = sqlite3.connect(":memory:", check_same_thread=False)
        self.conn.execute(
            "CREATE VIRTUAL TABLE kx USING fts5(content, speaker, nbr, scope, content = '', "
            "tokenize = 'porter unicode61 remove_diacritics 2')"
        )
        self.conn.execute("CREATE TABLE times (id INTEGER PRIMARY KEY, created_at TEXT NOT NULL)")
        self.conn.executemany(
            "INSERT INTO kx (rowid, content, speaker, nbr, scope) VALUES (?, ?, ?, ?, ?)",
            [
                (
                    r.id,
                    agent_terms(r.agent_id, r.content),
                    agent_terms(r.agent_id, r.speaker),
                    agent_terms(r.agent_id, extra(r)),
                    f"a{r.agent_id} t{r.thread_id}",
                )
                for r in corpus.rows
            ],
        )
        self.conn.executemany("INSERT INTO times VALUES (?, ?)", [(r.id, r.created_at) for r in corpus.rows])

    def retriever(self, nbr_weight: float, columns: str = "content speaker nbr") -> Callable[..., list[Candidate]]:
        def search(agent: str, query: str, scope: Scope, limit: int) -> list[Candidate]:
            agent_id = self.corpus.agents[agent]
            terms = query_terms(query)
            phrases = [agent_terms(agent_id, w) for w in terms]
            text = " OR ".join(f'"{p}"' for p in phrases if p)
            if not text:
                return []
            sql = f"SELECT f.rowid, bm25(kx, 1.0, 0.5, {nbr_weight}, 0.0) AS rank FROM kx f "  # noqa: S608
            params: list[object] = [f"{{{columns}}} : ({text})"]
            joined = scope.since is not None or scope.until is not None
            if joined:
                sql += "JOIN times m ON m.id = f.rowid "
            sql += "WHERE kx MATCH ?"
            if scope.since is not None:
                sql += " AND m.created_at >= ?"
                params.append(fmt_time(scope.since))
            if scope.until is not None:
                sql += " AND m.created_at < ?"
                params.append(fmt_time(scope.until))
            sql += " ORDER BY rank LIMIT ?"
            params.append(limit)
            with self.lock:
                rows = self.conn.execute(sql, params).fetchall()
            return [Candidate("message", int(r[0]), -float(r[1]), "keyword") for r in rows]

        return search


class VectorKeys:
    """Extra vectors per message (one row per message), searched exactly like the store's by cosine."""

    def __init__(self, corpus: Corpus, vectors: np.ndarray) -> None:
        self.corpus = corpus
        self.per_agent: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        ids = np.array([r.id for r in corpus.rows])
        agents = np.array([r.agent_id for r in corpus.rows])
        created = np.array([parse_time(r.created_at).timestamp() for r in corpus.rows])
        for a in set(agents.tolist()):
            m = agents == a
            self.per_agent[a] = (vectors[m], ids[m], created[m])

    def retriever(
        self, embedder: object, own: np.ndarray | None = None, mix: str = "only"
    ) -> Callable[..., list[Candidate]]:
        own_per_agent: dict[int, np.ndarray] = {}
        if own is not None:
            agents = np.array([r.agent_id for r in self.corpus.rows])
            own_per_agent = {a: own[agents == a] for a in self.per_agent}

        def search(agent: str, query: str, scope: Scope, limit: int) -> list[Candidate]:
            a = self.corpus.agents[agent]
            matrix, ids, created = self.per_agent[a]
            q = embedder.embed_query(query)  # type: ignore[attr-defined]
            scores = matrix @ q
            if own is not None:
                mine = own_per_agent[a] @ q
                scores = np.maximum(scores, mine) if mix == "max" else (scores + mine) / 2
            mask = np.ones(len(ids), dtype=bool)
            if scope.since is not None:
                mask &= created >= scope.since.timestamp()
            if scope.until is not None:
                mask &= created < scope.until.timestamp()
            idx = np.flatnonzero(mask)
            order = idx[np.argsort(-scores[idx], kind="stable")[:limit]]
            return [Candidate("message", int(ids[i]), float(scores[i]), "vector") for i in order]

        return search


# -- keys ---------------------------------------------------------------------------------------------
def neighbour_words(corpus: Corpus, before: int = 1, after: int = 1) -> Callable[[Row], str]:
    def extra(row: Row) -> str:
        prev, nxt = corpus.around(row, before, after)
        return " ".join(p.content for p in (*prev, *nxt))

    return extra


def window_text(corpus: Corpus, row: Row, before: int = 1, after: int = 1) -> str:
    prev, nxt = corpus.around(row, before, after)
    return "\n".join(message_text("user", p.content, p.speaker, p.speaker, None) for p in (*prev, row, *nxt))


# -- evaluation -----------------------------------------------------------------------------------------
def evaluate(
    conversations: Sequence[locomo.Conversation],
    db: str,
    embedder: DiskCachedEmbedder,
    config: object,
    retrievers: dict[str, Callable[..., list[Candidate]]],
) -> dict[str, dict[str, float]]:
    """locomo.run with ``retrievers`` registered on every conversation's searcher; memlane's table."""
    original = locomo.open_memory

    def patched(db_: object, conv: locomo.Conversation, emb: object) -> object:
        mem = original(db_, conv, emb)  # type: ignore[arg-type]
        mem.searcher.retrievers.update(retrievers)
        return mem

    locomo.open_memory = patched  # type: ignore[assignment]
    try:
        report = locomo.run(conversations, config, baselines=False)  # type: ignore[arg-type]
    finally:
        locomo.open_memory = original
    return report["results"]["memlane"]


def row_of(name: str, table: dict[str, dict[str, float]]) -> str:
    t, mh = table["1-4"], table["1"]
    cells = [t["recall@5"], t["recall@10"], t["recall@25"], t["recall@600tok"]]
    cats = " ".join(f"{table[c]['recall@10']:.3f}/{table[c]['recall@600tok']:.3f}" for c in ("1", "2", "3", "4"))
    return (
        f"| {name} | " + " | ".join(f"{c:.3f}" for c in cells) + f" | {t['tokens@10']:.0f} | "
        f"{mh['recall@10']:.3f} | {mh['recall@600tok']:.3f} | {cats} |"
    )


def pools(
    conversations: Sequence[locomo.Conversation],
    db: str,
    embedder: DiskCachedEmbedder,
    lists: dict[str, Callable[..., list[Candidate]]],
    pool: int = 100,
) -> dict[str, dict[str, float]]:
    """Per category: the share of evidence in each list's pool, in the union of all, and in none."""
    shares: dict[int, list[dict[str, float]]] = {}
    for conv in conversations:
        with locomo.open_memory(db, conv, embedder) as mem:
            covers = Covers(mem, conv)
            for q in conv.questions:
                if not q.evidence or q.category not in SCORED:
                    continue
                ranks = {
                    name: {covers.by_id.get(c.id): i for i, c in enumerate(fn(mem.agent, q.text, Scope(), pool))}
                    for name, fn in lists.items()
                }
                row = {name: sum(d in r for d in q.evidence) / len(q.evidence) for name, r in ranks.items()}
                row["any"] = sum(any(d in r for r in ranks.values()) for d in q.evidence) / len(q.evidence)
                shares.setdefault(q.category, []).append(row)
    out: dict[str, dict[str, float]] = {}
    groups = {str(c): rows for c, rows in sorted(shares.items())}
    groups["1-4"] = [r for rows in shares.values() for r in rows]
    for name, rows in groups.items():
        out[name] = {k: statistics.fmean(r[k] for r in rows) for k in rows[0]}
    return out


def setup() -> tuple[list[locomo.Conversation], str, DiskCachedEmbedder, Corpus]:
    conversations = load_conversations(DEFAULT_DATA)
    embedder = DiskCachedEmbedder(minilm(), OUT_DIR / "locomo-vectors.npz")
    db, _ = ingest(conversations, embedder, fresh=False)
    return conversations, str(db), embedder, Corpus(str(db))


def window_vectors(corpus: Corpus, before: int, after: int) -> np.ndarray:
    cache = DiskCachedEmbedder(minilm(), OUT_DIR / "locomo-window-vectors.npz")
    texts = [window_text(corpus, r, before, after) for r in corpus.rows]
    t0 = time.perf_counter()
    vectors = cache.embed(texts, "document")
    print(
        f"window vectors ({before},{after}): {len(texts)} texts, {cache.computed} computed in "
        f"{time.perf_counter() - t0:.1f} s",
        file=sys.stderr,
    )
    cache.save()
    return np.asarray(vectors, dtype=np.float32)


def own_vectors(corpus: Corpus, embedder: DiskCachedEmbedder) -> np.ndarray:
    texts = [message_text("user", r.content, r.speaker, r.speaker, None) for r in corpus.rows]
    return np.asarray(embedder.embed(texts, "document"), dtype=np.float32)


HEADER = (
    "| variant | R@5 | R@10 | R@25 | R@600tok | tok@10 | MH R@10 | MH R@600tok | R@10/R@600tok by category 1 2 3 4 |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---|"
)


def base_config() -> object:
    return get_preset("default")


def with_(config: object, **changes: object) -> object:
    return dataclasses.replace(config, **changes)  # type: ignore[type-var]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", action="store_true", help="also score a vector of each turn with its neighbours")
    parser.add_argument("--pools", action="store_true", help="also report the evidence in each candidate pool")
    args = parser.parse_args(argv)
    conversations, db, embedder, corpus = setup()
    cfg = base_config()
    own_words = KeywordKeys(corpus, lambda r: "")
    near = KeywordKeys(corpus, neighbour_words(corpus, 1, 1))
    rows: list[tuple[str, object, dict[str, Callable[..., list[Candidate]]]]] = [
        ("own words only (a store before migration 14)", cfg, {"keyword": own_words.retriever(0.0)}),
    ]
    for w in (0.05, 0.07, 0.1, 0.2, 0.3):
        rows.append((f"neighbours' words in the entry, bm25 weight {w}", cfg, {"keyword": near.retriever(w)}))
    for fw in (0.1, 0.2):
        fused = with_(cfg, retrievers=("keyword", "vector", "nbr"), weights={"keyword": 1.0, "vector": 0.5, "nbr": fw})
        rows.append(
            (
                f"neighbours' words as a third list, fused at {fw}",
                fused,
                {"keyword": own_words.retriever(0.0), "nbr": near.retriever(1.0, "nbr")},
            )
        )
    vectors: VectorKeys | None = None
    if args.windows:
        vectors = VectorKeys(corpus, window_vectors(corpus, 1, 1))
        own = own_vectors(corpus, embedder)
        plain = {"keyword": own_words.retriever(0.0)}
        rows.append(("window vector instead of the turn's", cfg, {**plain, "vector": vectors.retriever(embedder)}))
        rows.append(("vector = max(turn, window)", cfg, {**plain, "vector": vectors.retriever(embedder, own, "max")}))
        for fw in (0.15, 0.3):
            fused = with_(
                cfg, retrievers=("keyword", "vector", "wvec"), weights={"keyword": 1.0, "vector": 0.5, "wvec": fw}
            )
            rows.append(
                (f"window vector as a third list, fused at {fw}", fused, {**plain, "wvec": vectors.retriever(embedder)})
            )
    print(HEADER)
    for name, config, retrievers in rows:
        print(row_of(name, evaluate(conversations, db, embedder, config, retrievers)), flush=True)
    if args.pools:
        own_vector = VectorKeys(corpus, own_vectors(corpus, embedder)).retriever(embedder)
        sets = {
            "keyword + vector": {"keyword": own_words.retriever(0.0), "vector": own_vector},
            "keyword with neighbours' words (0.07) + vector": {"keyword": near.retriever(0.07), "vector": own_vector},
        }
        if vectors is not None:
            sets["keyword + vector + window vector"] = {**sets["keyword + vector"], "wvec": vectors.retriever(embedder)}
        print(
            "\n| lists | category | "
            + " | ".join(("in each pool (100)", "in any", "in none"))
            + " |\n|---|---|---|---:|---:|"
        )
        for label, lists in sets.items():
            table = pools(conversations, db, embedder, lists)
            for cat in ("1", "2", "3", "4", "1-4"):
                row = table[cat]
                each = ", ".join(f"{k} {v:.3f}" for k, v in row.items() if k != "any")
                print(f"| {label} | {cat} | {each} | {row['any']:.3f} | {1 - row['any']:.3f} |")
    embedder.save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
