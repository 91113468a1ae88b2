"""What ``recall()`` and ``context()`` return on LoCoMo's first conversations, written whole as JSON, so that two
trees can be checked to return the very same (issue 39: a change of speed must change no result).

Every question is asked with ``recall(question, limit=25, now=...)`` (the default preset; kind, id, score to 9
places, text, message ids and retrievers of each hit), and every fifth also with ``context(thread, query=question,
budget=1500)`` in the thread of its first hit (the messages sent to the model, the recalled hits, the tokens). The
store is built afresh by the tree under test (its own migrations); embeddings come from bench/locomo.py's cache.

    PYTHONPATH=<tree>/src .venv/bin/python bench/experiments/recall_outputs.py OUT.json [--conversations 2]
    cmp base.json branch.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import bench_path  # noqa: F401  (puts bench/ on the path)

from locomo import (
    DEFAULT_DATA,
    OUT_DIR,
    DiskCachedEmbedder,
    build_config,
    ingest,
    load_conversations,
    minilm,
    open_memory,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--conversations", type=int, default=2)
    args = parser.parse_args()
    conversations = load_conversations(DEFAULT_DATA)[: args.conversations]
    embedder = DiskCachedEmbedder(minilm(), OUT_DIR / "locomo-vectors.npz")
    db, _ = ingest(
        conversations, embedder, False, False, str(Path(tempfile.mkdtemp(prefix="memlane-outputs-")) / "s.db")
    )
    config = build_config("default", [])
    rows: list[Any] = []
    for conv in conversations:
        with open_memory(db, conv, embedder) as mem:
            for qi, q in enumerate(conv.questions):
                hits = mem.recall(q.text, limit=25, now=conv.now, preset=config)
                shown = [
                    [h.kind, h.id, round(h.score, 9), h.text, list(h.message_ids), list(h.retrievers)] for h in hits
                ]
                rows.append(["recall", conv.sample_id, qi, shown])
                threads = sorted({h.thread for h in hits if h.thread})
                if qi % 5 == 0 and threads:
                    ctx = mem.context(threads[0], query=q.text, budget=1500)
                    recalled = [[h.id, round(h.score, 9), h.text] for h in ctx.recalled]
                    rows.append(["context", conv.sample_id, qi, ctx.to_messages(), recalled, ctx.tokens])
    embedder.save()
    args.out.write_text(json.dumps(rows))
    print(f"{len(rows)} outputs written to {args.out}")


if __name__ == "__main__":
    main()
