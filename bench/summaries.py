"""Are memlane's extractive summaries (used without an LLM) worth their tokens? Measured against LoCoMo's summaries.

Each session of ``../shared/data/locomo10.json`` is summarized as the pipeline summarizes a batch without an
LLM (``memlane.pipeline.extractive.extractive_summary``: the most informative sentences with their speakers,
acknowledgements and filler left out), within as many characters as LoCoMo's own summary of the session
(field ``session_summary``, written by its authors). The baseline, lead-N, is the session's first sentences
with their speakers, as the summary prints them ("Caroline: Hey Mel! …"), cut to the same number of words as
memlane's summary: equal length, so neither wins by saying more.

Scores (written out below, no dependency): ROUGE-1 F (unigram overlap) and ROUGE-L F (longest common
subsequence) of lower-cased words (letters and digits), no stemming, no stopword removal, against the
session's reference summary; mean over sessions. Summaries are made with TF-IDF sentence vectors (no embedder)
and with the local MiniLM embedder (``--no-embedder`` skips the second).

    .venv/bin/python bench/summaries.py [--data PATH] [--out bench/out/summaries.json] [--no-embedder]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memlane.pipeline.extractive import Utterance, extractive_summary, split_sentences

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo10.json"
_TOKEN = re.compile(r"[a-z0-9]+")


# -- ROUGE ------------------------------------------------------------------------------------------
def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _f(overlap: float, made: int, wanted: int) -> float:
    if overlap == 0 or made == 0 or wanted == 0:
        return 0.0
    precision, recall = overlap / made, overlap / wanted
    return 2 * precision * recall / (precision + recall)


def rouge_1(candidate: Sequence[str], reference: Sequence[str]) -> float:
    """ROUGE-1 F: clipped unigram overlap."""
    overlap = sum((Counter(candidate) & Counter(reference)).values())
    return _f(overlap, len(candidate), len(reference))


def lcs(a: Sequence[str], b: Sequence[str]) -> int:
    """Length of the longest common subsequence (dynamic programming, one row kept)."""
    if not a or not b:
        return 0
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal = 0
        for j, y in enumerate(b, start=1):
            above = row[j]
            row[j] = diagonal + 1 if x == y else max(row[j], row[j - 1])
            diagonal = above
    return row[-1]


def rouge_l(candidate: Sequence[str], reference: Sequence[str]) -> float:
    """ROUGE-L F (beta 1): the longest common subsequence over both lengths."""
    return _f(lcs(candidate, reference), len(candidate), len(reference))


# -- data -------------------------------------------------------------------------------------------
def sessions(item: dict[str, Any]) -> list[tuple[int, list[dict[str, Any]], str]]:
    """(number, turns, reference summary) of the conversation's sessions that have both."""
    out = []
    summaries = item.get("session_summary", {}) or {}
    for key, turns in item["conversation"].items():
        match = re.fullmatch(r"session_(\d+)", key)
        reference = summaries.get(f"{key}_summary") if match else None
        if match and isinstance(turns, list) and turns and reference:
            out.append((int(match.group(1)), turns, reference))
    return sorted(out, key=lambda s: s[0])


def lead(utterances: Sequence[Utterance], words: int) -> str:
    """The first sentences with their speakers (as a summary prints them), cut to ``words`` words."""
    parts: list[str] = []
    for u in utterances:
        for sentence in split_sentences(u.text):
            parts.append(f"{u.speaker}: {sentence}")
    return " ".join(" ".join(parts).split()[:words])


def run(data: list[dict[str, Any]], embed: Callable[[Sequence[str]], Any] | None) -> dict[str, Any]:
    rows = []
    for item in data:
        for number, turns, reference in sessions(item):
            utterances = [Utterance(t["speaker"], t["text"]) for t in turns if t.get("text", "").strip()]
            made = extractive_summary(utterances, embed=embed, max_chars=len(reference), max_sentences=100)
            made_tokens = tokens(made)
            base = tokens(lead(utterances, len(made.split())))
            ref = tokens(reference)
            rows.append(
                {
                    "conversation": item["sample_id"],
                    "session": number,
                    "words": len(made.split()),
                    "reference_words": len(reference.split()),
                    "memlane_r1": rouge_1(made_tokens, ref),
                    "memlane_rl": rouge_l(made_tokens, ref),
                    "lead_r1": rouge_1(base, ref),
                    "lead_rl": rouge_l(base, ref),
                }
            )
    mean = {k: round(statistics.fmean(r[k] for r in rows), 4) for k in rows[0] if k.endswith(("_r1", "_rl"))}
    ahead = sum(r["memlane_r1"] > r["lead_r1"] for r in rows)
    return {
        "sessions": len(rows),
        **mean,
        "sessions_ahead_r1": ahead,
        "mean_words": round(statistics.fmean(r["words"] for r in rows), 1),
        "mean_reference_words": round(statistics.fmean(r["reference_words"] for r in rows), 1),
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "summaries.json")
    parser.add_argument("--no-embedder", action="store_true", help="TF-IDF sentence vectors only")
    args = parser.parse_args()
    data = json.loads(args.data.read_text())
    report: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "load_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "machine": platform.platform(),
        "runs": {},
    }
    variants: list[tuple[str, Callable[[Sequence[str]], Any] | None]] = [("tfidf", None)]
    if not args.no_embedder:
        from memlane.embeddings import OnnxMiniLMEmbedder

        embedder = OnnxMiniLMEmbedder()
        variants.append(("minilm", lambda texts: embedder.embed(list(texts), "document")))
    for name, embed in variants:
        result = run(data, embed)
        report["runs"][name] = result
        print(
            f"{name:6s} {result['sessions']} sessions, ~{result['mean_words']} words "
            f"(references ~{result['mean_reference_words']}): "
            f"ROUGE-1 F memlane {result['memlane_r1']:.4f} vs lead {result['lead_r1']:.4f}; "
            f"ROUGE-L F memlane {result['memlane_rl']:.4f} vs lead {result['lead_rl']:.4f}; "
            f"memlane ahead on ROUGE-1 in {result['sessions_ahead_r1']} of {result['sessions']} sessions"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
