"""How right are the facts memlane's rules extract without an LLM? Measured against LoCoMo's observations.

Every turn of ``../shared/data/locomo10.json`` is read by the rule-based extractor (``memlane.pipeline.rules.
extract_facts``, as ``add_message`` runs it on a user's message), naming the speaker as LoCoMo does. A session's
facts are compared with the observations LoCoMo's annotators wrote for that session and that speaker (field
``observation``, per session and speaker, e.g. "Caroline attended an LGBTQ support group recently …").

The similarity rule (both must hold): at least half of the fact's content words (the speaker's name aside;
lower-cased, stopwords dropped as ``memlane.pipeline.extractive.content_terms`` drops them, then cut to a stem
by removing the first of the endings "ing", "ed", "es", "s", "e" that leaves three letters) are words of the
observation, and their cosine under the local MiniLM embedder is at least 0.6. Each half alone is printed
too, so the rule's effect can be seen.

- precision: the share of extracted facts (one per distinct text per session) that match an observation;
- recall: the share of observations matched by some extracted fact of their session and speaker.

LoCoMo's observations describe everything a careful reader took from a session; the rules only take plain
first-person statements ("I'm allergic to …", "my birthday is …", "I love …"), so recall stays low by design.

The cost at write: ``--writes N`` (default 1000) writes LoCoMo's first N turns with ``add_message`` into two
fresh SQLite stores without an embedder, one with ``facts_on_write`` off and one with it on, turn by turn
alternately, and prints the p50/p95 of each (the rules' cost on every user message, and the facts' writes).

    .venv/bin/python bench/extraction.py [--data PATH] [--out bench/out/extraction.json] [--show N] [--writes N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from memlane import Memory, load_settings
from memlane.embeddings import OnnxMiniLMEmbedder
from memlane.pipeline.extractive import content_terms
from memlane.pipeline.rules import extract_facts

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo10.json"
MIN_WORDS = 0.5
MIN_COSINE = 0.6


@dataclass(frozen=True, slots=True)
class Extracted:
    conversation: str
    session: int
    speaker: str
    dia_id: str
    rule: str
    content: str
    turn: str


def sessions(item: dict[str, Any]) -> list[tuple[int, list[dict[str, Any]]]]:
    """The conversation's sessions that hold turns, in order."""
    found = []
    for key, turns in item["conversation"].items():
        match = re.fullmatch(r"session_(\d+)", key)
        if match and isinstance(turns, list) and turns:
            found.append((int(match.group(1)), turns))
    return sorted(found)


def observations(item: dict[str, Any], session: int) -> dict[str, list[str]]:
    raw = item.get("observation", {}).get(f"session_{session}_observation", {}) or {}
    return {speaker: [pair[0] for pair in pairs if pair and pair[0]] for speaker, pairs in raw.items()}


def extract(data: list[dict[str, Any]]) -> tuple[list[Extracted], list[float], int]:
    """Every distinct fact per session and speaker, the extraction time of each turn (µs), and the turns read."""
    out: list[Extracted] = []
    times: list[float] = []
    turns_read = 0
    for item in data:
        for number, turns in sessions(item):
            seen: set[tuple[str, str]] = set()
            for turn in turns:
                turns_read += 1
                t0 = time.perf_counter()
                facts = extract_facts(turn["text"], who=turn["speaker"])
                times.append((time.perf_counter() - t0) * 1e6)
                for fact in facts:
                    key = (turn["speaker"], fact.content.lower())
                    if key in seen:
                        continue
                    seen.add(key)
                    rule = (fact.rule or "?").removeprefix("rules:")
                    out.append(
                        Extracted(item["sample_id"], number, turn["speaker"], turn["dia_id"], rule, fact.content,
                                  turn["text"])
                    )  # fmt: skip
    return out, times, turns_read


_ENDINGS = ("ing", "ed", "es", "s", "e")


def stem(word: str) -> str:
    """``word`` without its first ending of "ing", "ed", "es", "s", "e" that leaves at least three letters."""
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def stems(text: str) -> set[str]:
    """The stems of the content words of ``text`` (a possessive "'s" dropped first)."""
    return {stem(w) for w in content_terms(re.sub(r"['’]s\b", "", text))}


def word_share(fact: str, speaker: str, observation: str) -> float:
    """The share of the fact's content words (the speaker's name aside) that are words of the observation."""
    mine = stems(fact) - stems(speaker)
    return len(mine & stems(observation)) / len(mine) if mine else 0.0


def unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


def score(data: list[dict[str, Any]], facts: list[Extracted], embedder: OnnxMiniLMEmbedder) -> dict[str, Any]:
    by_session: dict[tuple[str, int, str], list[int]] = defaultdict(list)
    for i, f in enumerate(facts):
        by_session[(f.conversation, f.session, f.speaker)].append(i)
    total_obs = 0
    matched_obs = 0
    verdicts: list[dict[str, Any]] = [{} for _ in facts]
    for item in data:
        for number, _ in sessions(item):
            for speaker, obs in observations(item, number).items():
                total_obs += len(obs)
                mine = by_session.get((item["sample_id"], number, speaker), [])
                if not mine or not obs:
                    continue
                vectors = unit(embedder.embed([facts[i].content for i in mine] + obs, "document"))
                cos = vectors[: len(mine)] @ vectors[len(mine) :].T
                hit = np.zeros(len(obs), dtype=bool)
                for row, i in enumerate(mine):
                    words = np.array([word_share(facts[i].content, speaker, o) for o in obs])
                    both = (words >= MIN_WORDS) & (cos[row] >= MIN_COSINE)
                    hit |= both
                    best = int(np.argmax(cos[row] + words))
                    verdicts[i] = {
                        "match": bool(both.any()),
                        "words_only": bool((words >= MIN_WORDS).any()),
                        "cosine_only": bool((cos[row] >= MIN_COSINE).any()),
                        "nearest": obs[best],
                        "cosine": round(float(cos[row][best]), 3),
                        "words": round(float(words[best]), 2),
                    }
                matched_obs += int(hit.sum())
    for i in range(len(facts)):  # a speaker without observations in the session: nothing to match
        verdicts[i] = verdicts[i] or {"match": False, "words_only": False, "cosine_only": False, "nearest": None}
    n = len(facts)
    rules: dict[str, dict[str, float]] = {}
    for rule, count in Counter(f.rule for f in facts).most_common():
        good = sum(1 for f, v in zip(facts, verdicts, strict=True) if f.rule == rule and v["match"])
        rules[rule] = {"facts": count, "precision": round(good / count, 3)}
    return {
        "facts": n,
        "precision": round(sum(v["match"] for v in verdicts) / n, 3) if n else None,
        "precision_words_only": round(sum(v["words_only"] for v in verdicts) / n, 3) if n else None,
        "precision_cosine_only": round(sum(v["cosine_only"] for v in verdicts) / n, 3) if n else None,
        "observations": total_obs,
        "observations_matched": matched_obs,
        "recall": round(matched_obs / total_obs, 4) if total_obs else None,
        "by_rule": rules,
        "verdicts": verdicts,
    }


def write_cost(data: list[dict[str, Any]], n: int) -> dict[str, Any]:
    """p50/p95 ms of ``add_message`` for the first ``n`` turns, with ``facts_on_write`` off and on."""
    turns = [(number, t) for item in data for number, ts in sessions(item) for t in ts][:n]
    out: dict[str, Any] = {"writes": len(turns)}
    with tempfile.TemporaryDirectory() as tmp:
        mems = {
            on: Memory(
                Path(tmp) / f"{on}.db",
                agent="bench",
                settings=load_settings(worker="none", embedder="none", facts_on_write=on),
            )
            for on in (False, True)
        }
        times: dict[bool, list[float]] = {False: [], True: []}
        for number, t in turns:
            for on, mem in mems.items():
                t0 = time.perf_counter()
                mem.add_message(f"s{number}", "user", t["text"], user=t["speaker"], name=t["speaker"])
                times[on].append((time.perf_counter() - t0) * 1e3)
        for on, mem in mems.items():
            key = "on" if on else "off"
            ordered = sorted(times[on])
            out[f"add_message_ms_p50_{key}"] = round(statistics.median(ordered), 3)
            out[f"add_message_ms_p95_{key}"] = round(ordered[int(0.95 * (len(ordered) - 1))], 3)
            out[f"facts_stored_{key}"] = len(mem.facts(all_users=True))
            mem.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "extraction.json")
    parser.add_argument("--show", type=int, default=0, help="print this many facts that match no observation")
    parser.add_argument("--writes", type=int, default=1000, help="turns written to measure the cost at write")
    args = parser.parse_args()
    data = json.loads(args.data.read_text())
    started = datetime.now(UTC)
    facts, times, turns = extract(data)
    result = score(data, facts, OnnxMiniLMEmbedder())
    verdicts = result.pop("verdicts")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    report = {
        "date": started.isoformat(timespec="seconds"),
        "load_1min": load,
        "machine": platform.platform(),
        "turns": turns,
        "extract_us_p50": round(statistics.median(times), 1),
        "extract_us_p95": round(sorted(times)[int(0.95 * (len(times) - 1))], 1),
        "rule": f"content words >= {MIN_WORDS} and MiniLM cosine >= {MIN_COSINE}",
        **result,
        "facts_list": [
            {"conversation": f.conversation, "dia_id": f.dia_id, "rule": f.rule, "fact": f.content, **v}
            for f, v in zip(facts, verdicts, strict=True)
        ],
    }
    if args.writes:
        report["write_cost"] = write_cost(data, args.writes)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(f"{turns} turns read, {result['facts']} facts extracted "
          f"(extraction p50 {report['extract_us_p50']} µs, p95 {report['extract_us_p95']} µs a turn)")  # fmt: skip
    print(f"precision {result['precision']} (words only {result['precision_words_only']}, "
          f"cosine only {result['precision_cosine_only']}); recall {result['recall']} "
          f"({result['observations_matched']} of {result['observations']} observations)")  # fmt: skip
    for rule, row in result["by_rule"].items():
        print(f"  {rule:14s} {row['facts']:4d} facts  precision {row['precision']}")
    misses = [r for r in report["facts_list"] if not r["match"]]
    for r in misses[: args.show]:
        print(f"  miss {r['rule']:10s} {r['fact']!r}  ~ {r.get('nearest')!r} ({r.get('cosine')}, {r.get('words')})")
    if args.writes:
        cost = report["write_cost"]
        print(f"add_message over {cost['writes']} turns (SQLite, no embedder): facts_on_write off "
              f"p50 {cost['add_message_ms_p50_off']} / p95 {cost['add_message_ms_p95_off']} ms, on "
              f"p50 {cost['add_message_ms_p50_on']} / p95 {cost['add_message_ms_p95_on']} ms; "
              f"{cost['facts_stored_on']} facts stored with their messages")  # fmt: skip
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
