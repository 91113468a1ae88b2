"""Preferences mentioned in passing: does ``recall()`` find the turn a question silently depends on?

A user says once, in passing, "I've been really into sourdough lately"; many turns later they ask "any tips
for my weekend baking?". The question shares no word with the turn that answers it, and the conversation is
full of turns that share words with the question. Plain dense search often finds such a turn; keyword
matches on the question's ordinary words can push it out of a hybrid ranking.

The cases below are this project's own (not a published benchmark's questions). Each goes into a fresh
thread of its own agent: ``--distractors`` real chat turns of other people (LoCoMo's, from
``/work/shared/data/locomo10.json``) with the user's one preference turn at a seeded random place, then the
user's question is asked with ``recall(question, limit=10)``. Scored: the rank of the preference turn (hit@1,
hit@5, hit@10, mean reciprocal rank) for memlane with a preset, and for plain dense search (cosine top-k over
the same turns with the same embedder) in the same run. With ``--asker`` memlane knows who asks, as a bot
does: the first speaker of the distractor stretch is the user too (about half the thread is then the user's own
turns, the preference one of them) and the question is asked with ``recall(question, limit=10, user=...)``.
With ``--postgres`` each case is an agent of its own in one throwaway PostgreSQL + pgvector server
(``memlane.testing.postgres``) instead of a SQLite file of its own; ``--analyze`` runs ANALYZE before each
question, so PostgreSQL weighs the question's words by statistics, as in a store in use (a fresh server has
none until autovacuum runs, and weighs every word alike). ``--cases held-out`` asks the cases written
after the default's ``keyword_coverage`` was chosen on the others.

    PYTHONPATH=src:bench .venv/bin/python bench/preferences.py [--distractors 60] [--seeds 3]
        [--preset default] [--set field=value ...] [--asker] [--cases tuned] [--postgres [--analyze]]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from locomo import DEFAULT_DATA, build_config, load_conversations, minilm
from memlane import Memory, load_settings
from memlane.embeddings import Embedder
from memlane.retrieval import SearchConfig

#: (the preference, said in passing; the later question that depends on it)
CASES: tuple[tuple[str, str], ...] = (
    ("I've been really into sourdough lately, I feed my starter every morning.", "Any tips for my weekend baking?"),
    ("Honestly I can't stand cilantro, it tastes like soap to me.", "What should I put in the salsa for the party?"),
    ("My knee acts up since the marathon, so I avoid stairs.", "Can you suggest a workout plan for next week?"),
    ("We just adopted a greyhound named Pixel!", "What should I pack for the road trip with the family?"),
    ("I switched to a plant-based diet last month.", "Recommend a restaurant for my birthday dinner."),
    ("I've started learning the cello, I practice every evening.", "What could I play at the open mic night?"),
    ("I get seasick pretty easily, even on short ferries.", "Should we book the whale watching tour in Iceland?"),
    ("I'm trying to cut back on caffeine after 2pm.", "What should I order at the café this afternoon?"),
    ("Gardening is my new thing: tomatoes and basil on the balcony.", "What can I do on my free Saturday mornings?"),
    ("I'm allergic to cats, sadly.", "Should I stay at Mia's place? She has two kittens."),
    ("My daughter just turned six and she is obsessed with dinosaurs.", "What theme should the birthday party have?"),
    ("I always take a window seat, I love watching the clouds.", "Book me a flight to Denver next Friday."),
    ("Lately I've been reading a lot of Japanese crime novels.", "Any book recommendations for my vacation?"),
    ("I go bouldering at the climbing gym twice a week now.", "Suggest some fun activities for the weekend."),
    ("We're saving for a house, so I'm cutting down on eating out.", "Where should we go for dinner on Friday?"),
    ("I sleep terribly when it's hot, so I bring a fan everywhere.", "What should I pack for the summer cabin trip?"),
)  # fmt: skip

#: Written after ``keyword_coverage`` was chosen on ``CASES`` (bench/RESULTS.md), to check it on cases it was
#: not tuned on: ``--cases held-out``.
HELD_OUT: tuple[tuple[str, str], ...] = (
    ("I'm lactose intolerant, so no milk for me.", "What dessert should I make for the potluck?"),
    ("My back has been killing me since I started working from home.", "Any advice for setting up my new office?"),
    ("I'm training for a half marathon in April.", "What should I eat before my long run on Sunday?"),
    ("I only drink decaf these days.", "Can you pick up something for me at Starbucks?"),
    ("Our toddler naps from one to three every day.", "When should we schedule the plumber's visit?"),
    ("I'm vegetarian, but I still eat fish sometimes.", "What should I order at the sushi place?"),
    ("My husband is gluten-free, which makes takeout tricky.", "What should we cook for our anniversary?"),
    ("I've gotten into birdwatching, I just bought binoculars.", "What should I bring on the hike tomorrow?"),
    ("I'm afraid of heights, glass floors terrify me.", "Should we visit the CN Tower in Toronto?"),
    ("I've been knitting a lot, mostly scarves for friends.", "What gift should I give my sister for Christmas?"),
    ("I play in a five-a-side football league on Tuesdays.", "Can you book my dentist appointment early next week?"),
    ("Spicy food gives me heartburn, unfortunately.", "Which Thai dishes should we order tonight?"),
)  # fmt: skip

USER = "sam"


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where the preference turn came in one case (None: not in the top 10)."""

    memlane: int | None
    dense: int | None


def distractor_pool(path: Path) -> list[tuple[str, str]]:
    """Every LoCoMo turn as (speaker, text)."""
    return [(t.speaker, t.text) for c in load_conversations(path) for s in c.sessions for t in s.turns]


def run_case(
    embedder: Embedder,
    config: SearchConfig,
    case: tuple[str, str],
    turns: Sequence[tuple[str, str]],
    seed: int,
    asker: bool = False,
    store: str | None = None,
    agent: str = "bench",
    analyze: bool = False,
) -> Outcome:
    preference, question = case
    rng = random.Random(seed)
    own = turns[0][0] if asker else None  # this speaker's turns become the user's own
    items = [
        {"role": "user", "content": text, "user": USER, "name": "Sam"}
        if speaker == own
        else {"role": "user", "content": text, "user": speaker, "name": speaker}
        for speaker, text in turns
    ]
    where = rng.randrange(len(items) // 4, len(items) - len(items) // 4)  # not at either edge of the thread
    items.insert(where, {"role": "user", "content": preference, "user": USER, "name": "Sam"})
    start = datetime(2026, 3, 1, 9, tzinfo=UTC)
    for i, item in enumerate(items):
        item["created_at"] = start + timedelta(minutes=i)
    settings = load_settings(worker="none", llm_provider="none")
    with (
        tempfile.TemporaryDirectory() as tmp,
        Memory(store or Path(tmp) / "p.db", agent=agent, settings=settings, embedder=embedder, llm=None) as mem,
    ):
        stored = mem.add_messages("chat", items)
        target = stored[where].id
        if analyze and store is not None:  # the statistics autovacuum keeps in a store in use, now
            import psycopg

            with psycopg.connect(store, autocommit=True) as conn:
                conn.execute("ANALYZE messages")
            mem.store._terms.forget()  # type: ignore[attr-defined]
        at = start + timedelta(days=30)
        hits = mem.recall(question, limit=10, preset=config, now=at, user=USER if asker else None)
        ranked = [h.message_ids or (h.id,) for h in hits if h.kind == "message"]
        mine = next((rank for rank, ids in enumerate(ranked, 1) if target in ids), None)
    vectors = embedder.embed([str(item["content"]) for item in items], "document")
    order = np.argsort(-(vectors @ embedder.embed_query(question)))[:10]
    dense = next((rank for rank, index in enumerate(order.tolist(), 1) if index == where), None)
    return Outcome(mine, dense)


def scores(ranks: Sequence[int | None]) -> dict[str, float]:
    return {
        "hit@1": sum(r == 1 for r in ranks) / len(ranks),
        "hit@5": sum(r is not None and r <= 5 for r in ranks) / len(ranks),
        "hit@10": sum(r is not None for r in ranks) / len(ranks),
        "MRR@10": statistics.fmean(1 / r if r else 0.0 for r in ranks),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--distractors", type=int, default=60, help="other people's turns in each thread")
    parser.add_argument("--seeds", type=int, default=3, help="placements and distractor draws per case")
    parser.add_argument("--preset", default="default")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="override a preset field")
    parser.add_argument(
        "--cases", choices=("tuned", "held-out", "all"), default="tuned",
        help="the cases the default was tuned on, those written after (held-out), or both",
    )  # fmt: skip
    parser.add_argument(
        "--postgres", action="store_true", help="a throwaway PostgreSQL (an agent per case), not SQLite files"
    )
    parser.add_argument("--asker", action="store_true", help="half the turns are the user's; recall(user=the user)")
    parser.add_argument(
        "--analyze", action="store_true",
        help="with --postgres: ANALYZE before each question, so word weights come from statistics, as in a "
        "store autovacuum has counted (without it a fresh server has none: every word weighs alike)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.analyze and not args.postgres:
        parser.error("--analyze needs --postgres")
    config = build_config(args.preset, args.set)
    embedder = minilm()
    pool = distractor_pool(args.data)
    cases = {"tuned": CASES, "held-out": HELD_OUT, "all": CASES + HELD_OUT}[args.cases]
    outcomes: list[tuple[int, Outcome]] = []
    with contextlib.ExitStack() as stack:
        store = None
        if args.postgres:
            from memlane.testing.postgres import ThrowawayPostgres

            store = stack.enter_context(ThrowawayPostgres(timeout=120)).create_database("memlane_preferences")
        for seed in range(args.seeds):
            rng = random.Random(1000 + seed)
            for n, case in enumerate(cases):
                start = rng.randrange(len(pool) - args.distractors)
                turns = pool[start : start + args.distractors]
                agent = f"case-{seed}-{n}"  # a store of its own, or an agent of its own on PostgreSQL
                outcome = run_case(embedder, config, case, turns, seed, args.asker, store, agent, args.analyze)
                outcomes.append((n, outcome))
    mine, dense = scores([o.memlane for _, o in outcomes]), scores([o.dense for _, o in outcomes])
    print(f"{len(cases)} {args.cases} cases x {args.seeds} seeds, {args.distractors} distractor turns each; "
          f"preset {config.name}{' ' + ' '.join(args.set) if args.set else ''}"
          f"{'; the asker known' if args.asker else ''}{'; PostgreSQL' if args.postgres else ''}"
          f"{', analyzed' if args.analyze else ''}")  # fmt: skip
    print("| system | " + " | ".join(mine) + " |")
    print("|---|" + "---:|" * len(mine))
    print("| memlane recall() | " + " | ".join(f"{v:.3f}" for v in mine.values()) + " |")
    print("| dense cosine | " + " | ".join(f"{v:.3f}" for v in dense.values()) + " |")
    missed = sorted({cases[n][1] for n, o in outcomes if o.memlane is None and o.dense is not None})
    if missed:
        print("found by dense search but not by memlane (any seed): " + "; ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
