"""What is left between LoCoMo's recall at 10 and within 600 tokens: windows chosen per turn, query feedback.

Two measurements on the cached LoCoMo store of ``bench/locomo.py`` (categories 1-4), neither of which changes
memlane (issue 16, round 16):

- **Windows** (``windows``): every question is asked once with the default preset; the hits are then shown
  again with fewer of their window's turns, keeping each hit's rank, and scored as ``bench/locomo.py`` scores
  them (recall@10, recall within 600 tokens, tokens of the top 10). Rules: a window's other turns kept only
  when their cosine to the query's vector reaches a threshold; windows only for the best N hits; and an
  *oracle* that keeps, besides a hit's own turn, exactly the window turns that are evidence, the most any rule
  choosing among a window's turns could reach with the same ranking.
- **Keyword feedback** (``feedback``): a third list fused with the default's two. It takes the best ``k``
  messages of each of the keyword and vector lists, the ``n`` words of theirs (not the query's, not
  stopwords or chat filler) weighted by how many of them hold the word times its IDF in the conversation,
  and searches the keyword index for those words (RM3-style pseudo-relevance feedback). The IDFs come from
  the conversation's turns, counted here (a prototype: memlane's stores keep their own counts); words are
  split as ``bench/locomo.py``'s BM25 baseline splits them.

    PYTHONPATH=src:bench .venv/bin/python bench/experiments/frontier.py windows
    PYTHONPATH=src:bench .venv/bin/python bench/experiments/frontier.py feedback [--k 3] [--n 5] [--weight 0.3]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import bench_path  # noqa: F401  (bench/ on the path, for locomo and peers)
import numpy as np

import locomo
from locomo import (
    DEFAULT_DATA,
    OUT_DIR,
    SCORED,
    TOKEN_BUDGET,
    Covers,
    DiskCachedEmbedder,
    bm25_tokens,
    build_config,
    hit_text,
    ingest,
    load_conversations,
    minilm,
    recall_memlane,
    thread_key,
)
from memlane.retrieval import get_preset
from memlane.store.base import Candidate, Scope
from memlane.texts import message_text
from memlane.tokens import get_tokenizer


# -- windows ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Turn:
    dia: str | None
    cost: int  # o200k tokens of "speaker: words", as a window line
    vector: np.ndarray


@dataclass(frozen=True, slots=True)
class Shown:
    """One hit of a question: its own message, the messages it shows, the cost of a non-message hit."""

    kind: str
    own: int
    ids: tuple[int, ...]
    cost: int
    covers: frozenset[str]


@dataclass(frozen=True, slots=True)
class Asked:
    category: int
    evidence: frozenset[str]
    query: np.ndarray
    hits: tuple[Shown, ...]
    turns: dict[int, Turn]


Keep = Callable[[Asked, int, Shown, int], bool]  # (question, rank, hit, message id) -> shown?


def ask_all(overrides: Sequence[str]) -> list[Asked]:
    """Every scored question asked once with the default preset, with the vectors the rules look at."""
    tokenizer = get_tokenizer("o200k_base")
    conversations = load_conversations(DEFAULT_DATA)
    embedder = DiskCachedEmbedder(minilm(), OUT_DIR / "locomo-vectors.npz")
    db, _ = ingest(conversations, embedder, False, False, None)
    config = build_config("default", overrides)
    last: dict[str, np.ndarray] = {}
    embed_batch = embedder.embed_batch

    def keeping_the_query(texts: Sequence[str], kind: Any) -> np.ndarray:
        out = embed_batch(texts, kind)
        if kind == "query":
            last["query"] = out[0]
        return out

    embedder.embed_batch = keeping_the_query  # type: ignore[method-assign]
    asked = []
    for conv in conversations:
        with locomo.open_memory(db, conv, embedder) as mem:
            covers = Covers(mem, conv)
            turns: dict[int, Turn] = {}
            for session in conv.sessions:
                messages = mem.history(thread_key(session))
                texts = [message_text(m.role, m.content, m.user, m.name, m.tool_calls) for m in messages]
                for m, vector in zip(messages, embedder.embed(texts, "document"), strict=True):
                    cost = tokenizer.count(f"{m.name or m.user}: {m.content}")
                    turns[m.id] = Turn(covers.by_id.get(m.id), cost, vector)
            for q in conv.questions:
                if q.category not in SCORED or not q.evidence:
                    continue
                last.clear()
                hits = recall_memlane(mem, q.text, conv.now, config)
                shown = tuple(
                    Shown(
                        h.kind,
                        h.id,
                        tuple(h.message_ids or (h.id,)),
                        tokenizer.count(hit_text(h)),
                        frozenset(covers(h)),
                    )
                    for h in hits
                )
                asked.append(Asked(q.category, frozenset(q.evidence), last["query"], shown, turns))
    return asked


def score(asked: Sequence[Asked], keep: Keep) -> dict[str, float]:
    """Mean recall@10, recall within 600 tokens and tokens of the top 10 with only the turns ``keep`` shows."""
    at10, within, tokens, multi_hop = [], [], [], []
    for a in asked:
        seen10: set[str | None] = set()
        seen: set[str | None] = set()
        used = top10 = 0
        for rank, hit in enumerate(a.hits):
            if hit.kind == "message":
                ids = [i for i in hit.ids if keep(a, rank, hit, i)]
                cost, found = sum(a.turns[i].cost for i in ids), {a.turns[i].dia for i in ids}
            else:
                cost, found = hit.cost, set(hit.covers)
            if rank < 10:
                seen10 |= found
                top10 += cost
            used += cost
            if used <= TOKEN_BUDGET:
                seen |= found
        at10.append(len(a.evidence & seen10) / len(a.evidence))
        within.append(len(a.evidence & seen) / len(a.evidence))
        tokens.append(top10)
        if a.category == 1:
            multi_hop.append(within[-1])
    return {
        "R@10": statistics.fmean(at10),
        "R@600tok": statistics.fmean(within),
        "tok@10": statistics.fmean(tokens),
        "MH R@600tok": statistics.fmean(multi_hop),
    }


def windows(overrides: Sequence[str]) -> None:
    asked = ask_all(overrides)

    def cosine(a: Asked, i: int) -> float:
        return float(a.turns[i].vector @ a.query)

    rules: list[tuple[str, Keep]] = [
        ("as shown (default)", lambda a, r, h, i: True),
        (
            "oracle: own turn + the window's evidence turns",
            lambda a, r, h, i: i == h.own or a.turns[i].dia in a.evidence,
        ),
        ("own turn only", lambda a, r, h, i: i == h.own),
    ]
    for t in (0.05, 0.1, 0.2, 0.3):
        rules.append((f"other turns with cosine >= {t}", lambda a, r, h, i, t=t: i == h.own or cosine(a, i) >= t))
    for n in (3, 5, 8):
        rules.append((f"windows for the best {n} hits only", lambda a, r, h, i, n=n: r < n or i == h.own))
    evidence = [
        cosine(a, i) for a in asked for h in a.hits[:10] for i in h.ids if i != h.own and a.turns[i].dia in a.evidence
    ]
    others = [
        cosine(a, i)
        for a in asked
        for h in a.hits[:10]
        for i in h.ids
        if i != h.own and a.turns[i].dia not in a.evidence
    ]
    print(f"{len(asked)} questions; the top 10's window turns other than the hit's own: {len(evidence)} evidence, "
          f"cosine to the query mean {np.mean(evidence):.3f} (quartiles {np.percentile(evidence, 25):.3f}-"
          f"{np.percentile(evidence, 75):.3f}); {len(others)} others, mean {np.mean(others):.3f} "
          f"({np.percentile(others, 25):.3f}-{np.percentile(others, 75):.3f})")  # fmt: skip
    print("\n| rule | R@10 | R@600tok | tok@10 | multi-hop R@600tok |\n|---|---:|---:|---:|---:|")
    for name, keep in rules:
        s = score(asked, keep)
        print(f"| {name} | {s['R@10']:.3f} | {s['R@600tok']:.3f} | {s['tok@10']:.0f} | {s['MH R@600tok']:.3f} |")


# -- keyword feedback -------------------------------------------------------------------------------
#: Chat filler that ``bench/locomo.py``'s BM25 stopwords let through: never a word to search again by.
_FILLER = """been being him us them these those whose have having not no yes too very just really can could should
    shall may might must im don't i've you're oh wow yeah hey hi thanks thank great good cool awesome nice love like
    lot lots also one get got go going know think make made much more some any all there here then than now well out
    up sure gonna new time things thing way feel something amazing"""
FILLER = frozenset(_FILLER.split())


def words(text: str) -> set[str]:
    """A text's words as ``bench/locomo.py``'s BM25 baseline takes them (its stopwords left out)."""
    return set(bm25_tokens(text))


def feedback(k: int, n: int, weight: float) -> None:
    conversations = load_conversations(DEFAULT_DATA)
    opened = locomo.open_memory

    def with_feedback(db: Any, conv: Any, embedder: Any) -> Any:
        mem = opened(db, conv, embedder)
        counts: Counter[str] = Counter()
        total = 0
        for session in conv.sessions:
            for m in mem.history(thread_key(session)):
                counts.update(words(m.content))
                total += 1
        vector = mem.searcher.retrievers["vector"]

        def retriever(agent: str, text: str, scope: Scope, pool: int) -> list[Candidate]:
            first = [*mem.store.keyword_search(agent, text, scope, pool)[:k], *vector(agent, text, scope, pool)[:k]]
            ids = list(dict.fromkeys(c.id for c in first if c.kind == "message"))
            asked = words(text)
            held: Counter[str] = Counter()
            for m in mem.store.get_messages(agent, ids):
                held.update(w for w in words(m.content) if w not in FILLER and w not in asked and len(w) > 2)
            terms = sorted(held, key=lambda w: -held[w] * math.log(total / (1 + counts[w])))[:n]
            return mem.store.keyword_search(agent, " ".join(terms), scope, pool) if terms else []

        mem.searcher.retrievers["feedback"] = retriever
        return mem

    base = get_preset("default")
    config = replace(base, retrievers=(*base.retrievers, "feedback"), weights={**base.weights, "feedback": weight})
    locomo.open_memory = with_feedback  # type: ignore[assignment]
    try:
        table = locomo.run(conversations, config, baselines=False)["results"]["memlane"]
    finally:
        locomo.open_memory = opened
    t, mh = table["1-4"], table["1"]
    print(
        f"| k={k}, n={n}, fused at {weight} | {t['recall@10']:.3f} | {t['recall@600tok']:.3f} | "
        f"{t['tokens@10']:.0f} | {mh['recall@10']:.3f} | {mh['recall@600tok']:.3f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", metavar="{windows,feedback}", required=True)
    w = sub.add_parser("windows", help="hits shown with fewer of their window's turns, and the oracle")
    w.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="a default preset field")
    f = sub.add_parser("feedback", help="keyword pseudo-relevance feedback as a third list")
    f.add_argument("--k", type=int, default=3, help="best messages of each list the words come from")
    f.add_argument("--n", type=int, default=5, help="words searched")
    f.add_argument("--weight", type=float, default=0.3, help="the third list's fusion weight")
    args = parser.parse_args(argv)
    if args.what == "windows":
        windows(args.set)
    else:
        feedback(args.k, args.n, args.weight)
    return 0


if __name__ == "__main__":
    sys.exit(main())
