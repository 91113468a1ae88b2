"""Fact recall on LoCoMo's observations: how well ``Memory.recall(kinds=["fact"])`` finds the facts that
answer a question, beside a plain vector store and BM25 over the same facts, and how often a nonsense or
off-topic query finds no fact at all.

Per conversation of ``shared/data/locomo10.json`` one agent (its own SQLite file); every observation
(field ``observation``: per session and speaker, ``[fact, dia_id]``) is stored with ``remember`` as a shared
fact owned by the speaker it is about, at its session's date, with the turn(s) it came from in its metadata.
Every category 1-4 question whose evidence turns have an observation is asked by a third user ("reader")
with ``kinds=["fact"], limit=10, now=`` a day after the last session. Scored: evidence-fact recall@1/5/10,
the share of the question's evidence turns that have an observation for which a fact made from that turn
is among the first k (a fact counts for the turn it was made from), and the query latency p50 / p95.

In the same run, over the same fact texts: a plain vector store, Chroma (``chromadb.PersistentClient``, a
cosine collection per conversation) fed memlane's own embedder's vectors (the text memlane embeds for a
fact; the question embedded as a query), top 10; and BM25 (``bench/locomo.py``'s, over the fact texts).
Chroma is skipped, with a note, where ``chromadb`` is not importable (it lives in the peers' venv of
``bench/requirements-peers.txt``, pinned there).

Then a fixed set of nonsense and off-topic queries (``OFF_TOPIC``) is asked in every conversation the same
way; reported: the share that return no fact with the default ``min_score``. memlane is asked with the
floor off (``min_score=0``) and every hit's score kept, so the run also gives the calibration table: for a
range of floors, recall@1/5/10 and the share of off-topic queries answered with nothing.

    .venv-peers/bin/python bench/facts.py [--conversations N] [--out bench/out/facts.json]

(run from the repository, with memlane installed in that venv as requirements-peers.txt says, or with
``PYTHONPATH=src``). ``--no-chroma`` scores memlane and BM25 only, in memlane's own venv.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import (
    BM25,
    DEFAULT_DATA,
    OFF_TOPIC,
    OUT_DIR,
    DiskCachedEmbedder,
    _commit,
    _machine,
    build_config,
    minilm,
    parse_evidence,
    parse_session_date,
    percentile,
    top,
)
from memlane import Memory, load_settings
from memlane.embeddings import Embedder
from memlane.texts import fact_text

KS = (1, 5, 10)
SCORED = (1, 2, 3, 4)
ASKER = "reader"  # the third user who asks: not one of the two speakers
#: Floors the calibration table shows (memlane's default is added to them).
FLOORS = (0.0, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4)


@dataclass(frozen=True, slots=True)
class Observation:
    text: str
    speaker: str
    dia_ids: tuple[str, ...]
    session: int


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]  # evidence turns that have an observation


@dataclass(slots=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    dates: dict[int, datetime]
    observations: list[Observation]
    questions: list[Question]
    skipped: int = 0  # category 1-4 questions none of whose evidence turns has an observation

    @property
    def now(self) -> datetime:
        """The moment the questions are asked: a day after the last session."""
        return max(self.dates.values()) + timedelta(days=1)


def load(path: Path) -> list[Conversation]:
    """Every conversation's observations and the category 1-4 questions they can answer."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for item in data:
        conv = item["conversation"]
        dates = {
            int(k.split("_")[1]): parse_session_date(v)
            for k, v in conv.items()
            if k.startswith("session_")
            and k.endswith("_date_time")
            and isinstance(conv.get(k[: -len("_date_time")]), list)
        }
        known = {t["dia_id"] for n in dates for t in conv[f"session_{n}"]}
        observations = []
        for key, per_speaker in item["observation"].items():
            session = int(key.split("_")[1])
            for speaker, facts in per_speaker.items():
                for text, raw in facts:
                    ids = parse_evidence(raw if isinstance(raw, list) else [raw], known)
                    if text.strip() and ids:
                        observations.append(Observation(text.strip(), speaker, ids, session))
        observed = {d for o in observations for d in o.dia_ids}
        questions, skipped = [], 0
        for q in item["qa"]:
            if int(q["category"]) not in SCORED:
                continue
            evidence = tuple(e for e in parse_evidence(q.get("evidence") or [], known) if e in observed)
            if not evidence:
                skipped += 1
                continue
            questions.append(Question(str(q["question"]), int(q["category"]), evidence))
        speakers = (conv["speaker_a"], conv["speaker_b"])
        out.append(Conversation(item["sample_id"], speakers, dates, observations, questions, skipped))
    return out


# -- the systems ------------------------------------------------------------------------------------
def settings() -> Any:
    return load_settings(embedder="none", auto_prune_days=0, worker="none", max_facts_per_user=0)


def takes_min_score() -> bool:
    return "min_score" in inspect.signature(Memory.recall).parameters


def default_min_score(mem: Memory) -> float | None:
    """The floor ``recall`` applies when given none: the ``min_score`` setting, else the calibrated default
    for the model it was calibrated with (as ``Memory.recall`` decides it)."""
    if mem.settings.min_score is not None:
        return float(mem.settings.min_score)
    try:
        from memlane.config import CALIBRATED_MODELS, MIN_SCORE
    except ImportError:  # a memlane from before the calibrated default
        return None
    return MIN_SCORE if getattr(mem.embedder, "model", None) in CALIBRATED_MODELS else None


class Memlane:
    """One conversation's facts in memlane: ``remember``ed at their session's date."""

    def __init__(self, conv: Conversation, embedder: Embedder, workdir: Path, config: Any = None) -> None:
        self.conv = conv
        self.preset = {"preset": config} if config is not None else {}
        self.moment = conv.now
        self.mem = Memory(
            workdir / f"{conv.sample_id}.db",
            agent=conv.sample_id,
            settings=settings(),
            embedder=embedder,
            clock=lambda: self.moment,
        )
        self.turns: dict[int, tuple[str, ...]] = {}
        for obs in conv.observations:
            self.moment = conv.dates[obs.session]
            fact = self.mem.remember(
                obs.text, user=obs.speaker, visibility="shared", metadata={"dia_ids": " ".join(obs.dia_ids)}
            )
            self.turns[fact.id] = obs.dia_ids
        self.moment = conv.now
        self.floor_off = {"min_score": 0.0} if takes_min_score() else {}
        self.default_floor: float | None = None
        if takes_min_score():
            self.default_floor = default_min_score(self.mem)

    def ask(self, question: str) -> tuple[list[tuple[tuple[str, ...], float]], float]:
        t0 = time.perf_counter()
        hits = self.mem.recall(
            question, user=ASKER, kinds=["fact"], limit=max(KS), now=self.conv.now, **self.floor_off, **self.preset
        )
        ms = (time.perf_counter() - t0) * 1e3
        return [(self.turns.get(h.id, ()), h.score) for h in hits], ms

    def close(self) -> None:
        self.mem.close()


class Plain:
    """BM25 and (when importable) Chroma over the same fact texts."""

    def __init__(self, conv: Conversation, embedder: Embedder, workdir: Path, chroma: bool) -> None:
        self.embedder = embedder
        self.texts = [fact_text(o.text, None) for o in conv.observations]
        self.turns = [o.dia_ids for o in conv.observations]
        self.bm25 = BM25(self.texts)
        self.collection: Any = None
        if chroma:
            import chromadb

            client = chromadb.PersistentClient(
                path=str(workdir / "chroma"), settings=chromadb.Settings(anonymized_telemetry=False)
            )
            self.collection = client.create_collection(conv.sample_id, metadata={"hnsw:space": "cosine"})
            vectors = embedder.embed(self.texts, "document")
            for start in range(0, len(self.texts), 1000):
                end = start + 1000
                self.collection.add(
                    ids=[str(i) for i in range(start, min(end, len(self.texts)))],
                    documents=self.texts[start:end],
                    embeddings=[v.tolist() for v in vectors[start:end]],
                )

    def bm25_ask(self, question: str) -> tuple[list[tuple[str, ...]], float]:
        t0 = time.perf_counter()
        order = top(self.bm25.scores(question), max(KS))
        return [self.turns[i] for i in order], (time.perf_counter() - t0) * 1e3

    def chroma_ask(self, question: str) -> tuple[list[tuple[str, ...]], float]:
        t0 = time.perf_counter()
        vector = self.embedder.embed_query(question)
        found = self.collection.query(query_embeddings=[vector.tolist()], n_results=max(KS))
        ms = (time.perf_counter() - t0) * 1e3
        return [self.turns[int(i)] for i in found["ids"][0]], ms


# -- scoring ----------------------------------------------------------------------------------------
def recall_at(ranked: Sequence[tuple[str, ...]], evidence: Sequence[str]) -> dict[str, float]:
    wanted = set(evidence)
    out = {}
    for k in KS:
        seen = {d for turns in ranked[:k] for d in turns}
        out[f"recall@{k}"] = len(wanted & seen) / len(wanted)
    return out


@dataclass(slots=True)
class Tally:
    rows: list[dict[str, float]] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)

    def table(self) -> dict[str, float]:
        out = {key: round(float(np.mean([r[key] for r in self.rows])), 3) for key in self.rows[0]} if self.rows else {}
        out["n"] = len(self.rows)
        if self.ms:
            out["p50_ms"] = round(percentile(self.ms, 50), 2)
            out["p95_ms"] = round(percentile(self.ms, 95), 2)
        return out


def run(conversations: Sequence[Conversation], chroma: bool, progress: Any, config: Any = None) -> dict[str, Any]:
    embedder = DiskCachedEmbedder(minilm(), OUT_DIR / "facts-vectors.npz")
    methods = ["memlane", "bm25", *(["chroma"] if chroma else [])]
    tallies = {m: Tally() for m in methods}
    by_category: dict[str, dict[int, Tally]] = {m: {c: Tally() for c in SCORED} for m in methods}
    # memlane's hits with their scores, per question and per off-topic query: the floors are applied after.
    asked: list[tuple[list[tuple[tuple[str, ...], float]], tuple[str, ...]]] = []
    off_topic: list[list[float]] = []
    default_floor: float | None = None
    with tempfile.TemporaryDirectory(prefix="memlane-facts-") as tmp:
        for conv in conversations:
            workdir = Path(tmp) / conv.sample_id
            workdir.mkdir()
            mine = Memlane(conv, embedder, workdir, config)
            plain = Plain(conv, embedder, workdir, chroma)
            default_floor = mine.default_floor
            mine.ask("warm up")
            for q in conv.questions:
                hits, ms = mine.ask(q.text)
                asked.append((hits, q.evidence))
                results = {"memlane": ([turns for turns, _ in hits], ms), "bm25": plain.bm25_ask(q.text)}
                if chroma:
                    results["chroma"] = plain.chroma_ask(q.text)
                for name, (ranked, took) in results.items():
                    row = recall_at(ranked, q.evidence)
                    for tally in (tallies[name], by_category[name][q.category]):
                        tally.rows.append(row)
                        tally.ms.append(took)
            for query in OFF_TOPIC:
                hits, _ = mine.ask(query)
                off_topic.append([score for _, score in hits])
            mine.close()
            progress(f"{conv.sample_id}: {len(conv.observations)} facts, {len(conv.questions)} questions")
    embedder.save()
    floors = sorted({*FLOORS, *([default_floor] if default_floor is not None else [])})
    calibration = []
    for floor in floors:
        rows = [recall_at([t for t, s in hits if s >= floor], evidence) for hits, evidence in asked]
        calibration.append(
            {
                "min_score": floor,
                **{key: round(float(np.mean([r[key] for r in rows])), 3) for key in rows[0]},
                "off_topic_empty": round(
                    float(np.mean([not any(s >= floor for s in scores) for scores in off_topic])), 3
                ),
            }
        )
    return {
        "conversations": [c.sample_id for c in conversations],
        "facts": sum(len(c.observations) for c in conversations),
        "questions": len(asked),
        "skipped_no_observation": sum(c.skipped for c in conversations),
        "off_topic_queries": len(off_topic),
        "default_min_score": default_floor,
        "results": {m: t.table() for m, t in tallies.items()},
        "by_category": {m: {str(c): t.table() for c, t in cats.items()} for m, cats in by_category.items()},
        "calibration": calibration,
    }


def markdown(report: dict[str, Any]) -> str:
    run = report["run"]
    lines = [
        f"{run['date']} · commit {run['commit']} · {run['machine']} · load {run['load_avg_before']} → "
        f"{run['load_avg_after']} · {run['seconds']} s",
        "",
        f"{len(report['conversations'])} conversations · {report['facts']} facts · {report['questions']} questions "
        f"(category 1-4 with an observed evidence turn; {report['skipped_no_observation']} without one skipped) · "
        f"{report['off_topic_queries']} off-topic queries · default min_score {report['default_min_score']}",
        "",
        "| method | R@1 | R@5 | R@10 | p50 ms | p95 ms |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, row in report["results"].items():
        lines.append(
            f"| {name} | {row['recall@1']:.3f} | {row['recall@5']:.3f} | {row['recall@10']:.3f} | "
            f"{row['p50_ms']:.1f} | {row['p95_ms']:.1f} |"
        )
    lines += ["", "| method | category | n | R@1 | R@5 | R@10 |", "|---|---|---:|---:|---:|---:|"]
    for name, cats in report["by_category"].items():
        for cat, row in cats.items():
            if row["n"]:
                lines.append(
                    f"| {name} | {cat} | {row['n']} | " + " | ".join(f"{row[f'recall@{k}']:.3f}" for k in KS) + " |"
                )
    lines += [
        "",
        "memlane's hits kept above a floor (the default marked *):",
        "",
        "| min_score | R@1 | R@5 | R@10 | off-topic queries with no fact |",
        "|---:|---:|---:|---:|---:|",
    ]
    for row in report["calibration"]:
        mark = "*" if row["min_score"] == report["default_min_score"] else ""
        lines.append(
            f"| {row['min_score']:.2f}{mark} | {row['recall@1']:.3f} | {row['recall@5']:.3f} | "
            f"{row['recall@10']:.3f} | {row['off_topic_empty']:.3f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
    parser.add_argument(
        "--pick", default=None, metavar="A-B", help="only conversations A to B (0-based, inclusive): a held-out split"
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=OUT_DIR / "facts.json")
    parser.add_argument("--preset", default=None, help="memlane's search preset (default: its default)")
    parser.add_argument(
        "--set", dest="overrides", action="append", default=[], metavar="FIELD=VALUE", help="override a preset field"
    )
    parser.add_argument("--no-chroma", action="store_true", help="score memlane and BM25 only")
    args = parser.parse_args(argv)
    chroma = not args.no_chroma
    if chroma:
        try:
            import chromadb  # noqa: F401
        except ImportError:
            print("note: chromadb is not importable here; Chroma is skipped", file=sys.stderr)
            chroma = False
    conversations = load(args.data)[: args.conversations]
    if args.pick:
        first, _, last = args.pick.partition("-")
        conversations = conversations[int(first) : int(last or first) + 1]
    t0, load_before = time.perf_counter(), os.getloadavg()
    config = build_config(args.preset or "default", args.overrides) if args.preset or args.overrides else None
    report = run(conversations, chroma, lambda text: print(text, file=sys.stderr), config)
    report["run"] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": _commit(),
        "python": platform.python_version(),
        "machine": _machine(),
        "load_avg_before": [round(x, 2) for x in load_before],
        "load_avg_after": [round(x, 2) for x in os.getloadavg()],
        "seconds": round(time.perf_counter() - t0, 1),
        "argv": list(argv if argv is not None else sys.argv[1:]),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(markdown(report))
    print(f"\nwritten to {args.out} in {report['run']['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
