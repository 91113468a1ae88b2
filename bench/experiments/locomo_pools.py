"""Where LoCoMo's evidence turns sit before ranking: in each retriever's candidate pool, and in the final hits.

Ranking (fusion, boosts) can only order the candidates the retrievers return, so the share of evidence turns
inside the pools bounds what any re-ranking can reach (loosely: a window also shows a hit's neighbouring turns,
which may lie outside both pools). For every question of categories 1-4
(same store, same questions as ``bench/locomo.py``) each evidence turn's rank is taken in the keyword list
and in the vector list (each asked for ``--pool`` candidates over the whole conversation, no time range, as
``recall(limit=25)`` asks), and in the default ``recall(limit=25)`` (a hit counts for every turn it shows).
Reported per category as ``bench/locomo.py`` scores recall (the share of a question's evidence turns, averaged
over questions): in the top 10 of the final hits (= its R@10), of each list, in each pool, in either pool (the
most any re-ranking of these candidates could find), and in neither.

    PYTHONPATH=src:bench .venv/bin/python bench/experiments/locomo_pools.py [--pool 100] [--conversations N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Sequence

import bench_path  # noqa: F401  (bench/ on the path, for locomo and peers)

from locomo import (
    DEFAULT_DATA,
    OUT_DIR,
    SCORED,
    Covers,
    DiskCachedEmbedder,
    get_preset,
    ingest,
    load_conversations,
    minilm,
    open_memory,
)
from memlane.store.base import Scope

MISSING = 10**9


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=int, default=100, help="candidates asked of each retriever")
    parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
    args = parser.parse_args(argv)
    conversations = load_conversations(DEFAULT_DATA)[: args.conversations]
    embedder = DiskCachedEmbedder(minilm(), OUT_DIR / "locomo-vectors.npz")
    db, _ = ingest(conversations, embedder, fresh=False)
    config = get_preset("default")
    # category -> per question: (keyword, vector, final) rank of each evidence turn
    ranks: dict[int, list[list[tuple[int, int, int]]]] = {}
    for conv in conversations:
        with open_memory(db, conv, embedder) as mem:
            covers = Covers(mem, conv)
            for q in conv.questions:
                if not q.evidence or q.category not in SCORED:
                    continue
                keyword, vector = (
                    {covers.by_id.get(c.id): i for i, c in enumerate(retrieve(mem.agent, q.text, Scope(), args.pool))}
                    for retrieve in (mem.searcher.retrievers["keyword"], mem.searcher.retrievers["vector"])
                )
                final: dict[str, int] = {}
                for i, hit in enumerate(mem.recall(q.text, limit=25, now=conv.now, preset=config)):
                    for dia in covers(hit):
                        final.setdefault(dia, i)
                ranks.setdefault(q.category, []).append(
                    [(keyword.get(d, MISSING), vector.get(d, MISSING), final.get(d, MISSING)) for d in q.evidence]
                )
    embedder.save()
    pool = args.pool
    tests: dict[str, Callable[[tuple[int, int, int]], bool]] = {
        "final top 10": lambda r: r[2] < 10,
        "keyword top 10": lambda r: r[0] < 10,
        "vector top 10": lambda r: r[1] < 10,
        f"keyword pool ({pool})": lambda r: r[0] < pool,
        f"vector pool ({pool})": lambda r: r[1] < pool,
        "either pool": lambda r: min(r[0], r[1]) < pool,
        "neither pool": lambda r: min(r[0], r[1]) >= pool,
    }
    print("| category | questions | " + " | ".join(tests) + " |")
    print("|---|---:|" + "---:|" * len(tests))
    groups = {str(c): questions for c, questions in sorted(ranks.items())}
    groups["1-4"] = [question for questions in ranks.values() for question in questions]
    for name, questions in groups.items():
        cells = [statistics.fmean(sum(map(test, q)) / len(q) for q in questions) for test in tests.values()]
        print(f"| {name} | {len(questions)} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
