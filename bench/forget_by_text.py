"""How well does `Memory.forget_matching` ("forget that Bob likes pizza") find the right fact?

Hand-made cases, not from any benchmark: 10 facts about Bob; 14 ways of naming one of them (should be
forgotten) and 12 near misses (should not). Each query runs on a fresh copy of the facts, with the local
MiniLM embedder and without an embedder (keyword rule only). Prints found / taken counts.

    .venv/bin/python bench/forget_by_text.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from memlane import Memory, load_settings

FACTS = [
    "Bob likes pizza",
    "Bob lives in Lisbon",
    "Bob is allergic to peanuts",
    "Bob plays the cello on weekends",
    "Bob's sister is called Maria",
    "Bob works as a nurse at the city hospital",
    "Bob prefers tea over coffee",
    "Bob is training for a marathon in May",
    "Bob has a dog named Rex",
    "Bob drives a red Volvo",
]
MEANT = [
    ("Bob likes pizza", 0),
    ("forget that bob likes pizza", 0),
    ("Bob loves pizza", 0),
    ("that Bob is into pizza", 0),
    ("Bob lives in Lisbon", 1),
    ("Bob's home is Lisbon", 1),
    ("Bob is allergic to peanuts", 2),
    ("Bob has a peanut allergy", 2),
    ("Bob plays cello", 3),
    ("Bob's sister Maria", 4),
    ("Bob is a nurse", 5),
    ("Bob prefers tea", 6),
    ("Bob's dog Rex", 8),
    ("Bob drives a Volvo", 9),
]
NEAR_MISSES = [
    "Bob likes pasta",
    "Bob lives in Porto",
    "Bob is allergic to cats",
    "Bob plays the piano",
    "Bob's brother is called Maria",
    "Bob works as a teacher",
    "Bob prefers coffee",
    "Bob is training for a triathlon",
    "Bob has a cat named Rex",
    "Bob drives a blue bike",
    "Alice likes pizza",
    "pizza",
]


def run(embedder: str) -> None:
    found = wrong_meant = taken = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, query in enumerate([q for q, _ in MEANT] + NEAR_MISSES):
            settings = load_settings(embedder=embedder, worker="none")
            with Memory(Path(tmp) / f"{n}.db", agent="a", settings=settings, llm=None) as mem:
                ids = [mem.remember(text, user="bob").id for text in FACTS]
                gone = {f.id for f in mem.forget_matching(query, user="bob")}
                if n < len(MEANT):
                    target = ids[MEANT[n][1]]
                    found += target in gone
                    wrong_meant += len(gone - {target})
                else:
                    taken += bool(gone)
                    if gone:
                        print(f"  near miss taken ({embedder}): {query!r}")
    print(
        f"{embedder}: meant facts forgotten {found}/{len(MEANT)}, other facts forgotten with them {wrong_meant}, "
        f"near misses that forgot something {taken}/{len(NEAR_MISSES)}"
    )


if __name__ == "__main__":
    run("minilm")
    run("none")
