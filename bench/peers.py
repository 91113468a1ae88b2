"""Peers side by side on LoCoMo: memlane, Chroma, LangGraph's InMemoryStore and mem0 OSS, one embedder for all.

Each system gets the same MiniLM embedder instance (memlane's ``OnnxMiniLMEmbedder``, its LRU cache off so no
system is served a vector computed earlier), so only the memory systems differ:

- **memlane**: one SQLite file, an agent per conversation, a thread per session (a batch within one session is
  an ``add_messages``, a batch spanning sessions one ``add_to_threads``), searched with ``recall(question,
  limit=25, now=...)``, default preset (as bench/locomo.py). **memlane-per-thread** (not run by default) is the
  same with one ``add_messages`` per session piece of a batch, as this benchmark wrote before ``add_to_threads``.
  A small write returns once its messages are stored and their texts are embedded behind it, together
  (memlane.memory.behind); ingest is timed until ``Memory.flush()`` says every vector is stored.
  **memlane-inline** (not run by default) is memlane with that queue off (``MEMLANE_EMBED_BEHIND=false``).
- **chroma**: ``chromadb.PersistentClient``, a collection per conversation (cosine HNSW), ``add`` of the batch
  with the embedder as the collection's ``EmbeddingFunction``; ``query(query_texts=[q], n_results=25)``.
- **langgraph**: ``InMemoryStore(index={"dims": 384, "embed": ..., "fields": ["text"]})``, a namespace per
  conversation, ``batch`` of ``PutOp`` (``put`` for one); ``search(namespace, query=q, limit=25)``.
- **mem0**: ``mem0.Memory.from_config`` with a local Qdrant path, its embedder object replaced by ours,
  ``add(messages, user_id=<conversation>, infer=False)`` (no LLM); ``search(q, filters={"user_id": ...},
  top_k=25, threshold=0)``. Its BM25 and entity parts need spaCy models, absent here: it searches by vector.

Every system stores the same text for a turn, the one memlane embeds: ``"<speaker>: <words>"`` (image captions
in words, as bench/locomo.py). Peers' hits are single turns; memlane's may be windows of several turns.
mem0 keeps no per-message metadata in a batch, so its hits are mapped back to turns by their text (a text
shared by several turns of a conversation counts for all of them; the run reports how many such turns exist).

Measured, side by side in one run, each figure the median of ``--runs`` repetitions (systems in rotated order):
ingest turns/s at batch sizes 1, 20 and 256 (wall and per CPU-second of the process, embedding included, a
fresh store each time; a batch is that many consecutive turns); query latency p50/p95 (wall and process CPU,
query embedding included) over every category 1-4 question with evidence, on the store of the last batch-256
ingest; recall@5/10/25 and recall within 600 tokens (bench/locomo.py's scoring).

Setup (a venv of its own: the peers' dependencies must not change memlane's pins):

    python3 -m venv .venv-peers
    .venv-peers/bin/pip install -c constraints.txt -e .
    .venv-peers/bin/pip install -r bench/requirements-peers.txt

Run (telemetry of Chroma and mem0 is turned off by this script's environment):

    nice -n 5 .venv-peers/bin/python bench/peers.py [--conversations 2] [--runs 3] [--out bench/out/peers.json]

Where memlane's recall() spends its time on the same store: bench/experiments/recall_steps.py.
"""

from __future__ import annotations

import os

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")  # Chroma
os.environ.setdefault("MEM0_TELEMETRY", "False")

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from locomo import (
    DEFAULT_DATA,
    KS,
    OUT_DIR,
    SCORED,
    TOKEN_BUDGET,
    Conversation,
    Covers,
    DiskCachedEmbedder,
    Ranked,
    Session,
    Turn,
    finish,
    hit_text,
    load_conversations,
    message_items,
    open_memory,
    percentile,
    score,
    settings_for_bench,
    thread_key,
)
from memlane import Memory as MemlaneMemory
from memlane.embeddings import Embedder, OnnxMiniLMEmbedder
from memlane.retrieval import get_preset
from memlane.tokens import get_tokenizer

BATCHES = (1, 20, 256)
DEPTH = max(KS)


def doc_text(turn: Turn) -> str:
    """The text every system stores and embeds for a turn (what memlane embeds for the message)."""
    return f"{turn.speaker}: {turn.text}"


# -- the systems ------------------------------------------------------------------------------------
class System:
    """One memory system holding every conversation of the run in one fresh store under ``workdir``."""

    name = ""

    def __init__(self, workdir: Path, embedder: Embedder) -> None:
        self.workdir, self.embedder = workdir, embedder

    def add(self, conv: Conversation, turns: Sequence[Turn]) -> None:
        raise NotImplementedError

    def search(self, conv: Conversation, question: str) -> Ranked:
        raise NotImplementedError

    def settle(self) -> None:
        """Wait until everything added is searchable by its vector (ingest is timed until it returns)."""

    def close(self) -> None:
        """Release the store (its files are removed by the caller)."""


class Memlane(System):
    name = "memlane"

    def __init__(self, workdir: Path, embedder: Embedder) -> None:
        super().__init__(workdir, embedder)
        self.db = workdir / "memlane.db"
        self.mems: dict[str, Any] = {}
        self.covers: dict[str, Covers] = {}
        self.session_of: dict[str, dict[str, Session]] = {}
        self.config = get_preset("default")

    def _mem(self, conv: Conversation) -> Any:
        if conv.sample_id not in self.mems:
            self.mems[conv.sample_id] = open_memory(self.db, conv, self.embedder)
        return self.mems[conv.sample_id]

    def add(self, conv: Conversation, turns: Sequence[Turn]) -> None:
        pieces = self._pieces(conv, turns)
        if len(pieces) == 1:
            self._mem(conv).add_messages(*next(iter(pieces.items())))
        else:  # a batch spanning sessions (threads): one call, every text embedded together
            self._mem(conv).add_to_threads(pieces)

    def search(self, conv: Conversation, question: str) -> Ranked:
        mem = self._mem(conv)
        hits = mem.recall(question, limit=DEPTH, now=conv.now, preset=self.config)
        if conv.sample_id not in self.covers:
            self.covers[conv.sample_id] = Covers(mem, conv)
        covers = self.covers[conv.sample_id]
        return Ranked([covers(h) for h in hits], [hit_text(h) for h in hits])

    def settle(self) -> None:
        # A small write returns once its messages are stored; their texts are embedded behind it, together.
        for mem in self.mems.values():
            mem.flush()

    def close(self) -> None:
        for mem in self.mems.values():
            mem.close()
        self.mems.clear()

    def _pieces(self, conv: Conversation, turns: Sequence[Turn]) -> dict[str, list[dict[str, Any]]]:
        """The batch's turns as ``add_messages`` items per thread (a thread per session), in order."""
        if conv.sample_id not in self.session_of:  # once per conversation, not per batch: harness, not memlane
            self.session_of[conv.sample_id] = {t.dia_id: s for s in conv.sessions for t in s.turns}
        session_of = self.session_of[conv.sample_id]
        pieces: dict[str, list[dict[str, Any]]] = {}
        start = 0
        while start < len(turns):
            session = session_of[turns[start].dia_id]
            end = start
            while end < len(turns) and session_of[turns[end].dia_id] is session:
                end += 1
            piece = Session(session.number, session.date, list(turns[start:end]))
            pieces.setdefault(thread_key(session), []).extend(message_items(piece))
            start = end
        return pieces


class MemlanePerThread(Memlane):
    """memlane as bench/peers.py called it before ``add_to_threads``: one ``add_messages`` per thread of a batch
    (each embeds its own texts), kept to show what the one call changes."""

    name = "memlane-per-thread"

    def add(self, conv: Conversation, turns: Sequence[Turn]) -> None:
        for thread, items in self._pieces(conv, turns).items():
            self._mem(conv).add_messages(thread, items)


class MemlaneInline(Memlane):
    """memlane with ``MEMLANE_EMBED_BEHIND=false``: every write embeds its texts before it commits (as before
    the queue of memlane.memory.behind), kept to compare the two in one run."""

    name = "memlane-inline"

    def _mem(self, conv: Conversation) -> Any:
        if conv.sample_id not in self.mems:
            last = conv.sessions[-1].date
            settings = settings_for_bench().model_copy(update={"embed_behind": False})
            self.mems[conv.sample_id] = MemlaneMemory(
                self.db, agent=conv.sample_id, settings=settings, embedder=self.embedder, clock=lambda: last
            )
        return self.mems[conv.sample_id]


class Chroma(System):
    name = "chroma"

    def __init__(self, workdir: Path, embedder: Embedder) -> None:
        super().__init__(workdir, embedder)
        import chromadb

        self.client = chromadb.PersistentClient(
            path=str(workdir / "chroma"), settings=chromadb.Settings(anonymized_telemetry=False)
        )
        self.function = _chroma_function(embedder)
        self.collections: dict[str, Any] = {}

    def _collection(self, conv: Conversation) -> Any:
        if conv.sample_id not in self.collections:
            self.collections[conv.sample_id] = self.client.get_or_create_collection(
                conv.sample_id, embedding_function=self.function, configuration={"hnsw": {"space": "cosine"}}
            )
        return self.collections[conv.sample_id]

    def add(self, conv: Conversation, turns: Sequence[Turn]) -> None:
        self._collection(conv).add(
            ids=[t.dia_id for t in turns],
            documents=[doc_text(t) for t in turns],
            metadatas=[{"speaker": t.speaker, "created_at": t.created_at.isoformat()} for t in turns],
        )

    def search(self, conv: Conversation, question: str) -> Ranked:
        found = self._collection(conv).query(query_texts=[question], n_results=DEPTH, include=["documents"])
        return Ranked([{i} for i in found["ids"][0]], list(found["documents"][0]))


def _chroma_function(embedder: Embedder) -> Any:
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    class MemlaneEmbedding(EmbeddingFunction[Documents]):
        def __init__(self) -> None:
            self.embedder = embedder

        def __call__(self, input: Documents) -> Embeddings:
            return list(self.embedder.embed(list(input), "document"))

        def embed_query(self, input: Documents) -> Embeddings:
            return list(self.embedder.embed(list(input), "query"))

        @staticmethod
        def name() -> str:
            return "memlane-minilm"

        def get_config(self) -> dict[str, Any]:
            return {}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> MemlaneEmbedding:
            raise NotImplementedError("the benchmark passes its embedding function explicitly")

    return MemlaneEmbedding()


class LangGraph(System):
    name = "langgraph"

    def __init__(self, workdir: Path, embedder: Embedder) -> None:
        super().__init__(workdir, embedder)
        from langchain_core.embeddings import Embeddings
        from langgraph.store.memory import InMemoryStore

        class MemlaneEmbeddings(Embeddings):
            def embed_documents(self, texts: list[str]) -> list[list[float]]:
                return embedder.embed(texts, "document").tolist()  # type: ignore[no-any-return]

            def embed_query(self, text: str) -> list[float]:
                return embedder.embed_query(text).tolist()  # type: ignore[no-any-return]

        self.store = InMemoryStore(index={"dims": embedder.dim, "embed": MemlaneEmbeddings(), "fields": ["text"]})

    def add(self, conv: Conversation, turns: Sequence[Turn]) -> None:
        from langgraph.store.base import PutOp

        namespace = ("locomo", conv.sample_id)
        values = [{"text": doc_text(t), "speaker": t.speaker, "created_at": t.created_at.isoformat()} for t in turns]
        if len(turns) == 1:
            self.store.put(namespace, turns[0].dia_id, values[0])
        else:
            self.store.batch([PutOp(namespace, t.dia_id, v) for t, v in zip(turns, values, strict=True)])

    def search(self, conv: Conversation, question: str) -> Ranked:
        items = self.store.search(("locomo", conv.sample_id), query=question, limit=DEPTH)
        return Ranked([{i.key} for i in items], [i.value["text"] for i in items])


class Mem0(System):
    name = "mem0"

    def __init__(self, workdir: Path, embedder: Embedder) -> None:
        super().__init__(workdir, embedder)
        from mem0 import Memory as Mem0Memory

        self.memory = Mem0Memory.from_config(
            {
                "vector_store": {
                    "provider": "qdrant",
                    "config": {
                        "collection_name": "locomo",
                        "path": str(workdir / "qdrant"),
                        "embedding_model_dims": embedder.dim,
                        "on_disk": True,
                    },
                },
                # Placeholders that are never called: the embedder is replaced below, infer=False needs no LLM.
                "embedder": {"provider": "openai", "config": {"api_key": "unused", "embedding_dims": embedder.dim}},
                "llm": {"provider": "openai", "config": {"api_key": "unused"}},
                "history_db_path": str(workdir / "history.db"),
            }
        )
        self.memory.embedding_model = _Mem0Embedder(embedder, self.memory.embedding_model.config)
        self.by_text: dict[str, dict[str, set[str]]] = {}

    def add(self, conv: Conversation, turns: Sequence[Turn]) -> None:
        texts = self.by_text.setdefault(conv.sample_id, {})
        for t in turns:
            texts.setdefault(doc_text(t), set()).add(t.dia_id)
        messages = [{"role": "user", "content": doc_text(t), "name": t.speaker} for t in turns]
        self.memory.add(messages, user_id=conv.sample_id, infer=False)

    def search(self, conv: Conversation, question: str) -> Ranked:
        found = self.memory.search(question, filters={"user_id": conv.sample_id}, top_k=DEPTH, threshold=0.0)
        texts = [r["memory"] for r in found["results"]]
        by_text = self.by_text[conv.sample_id]
        return Ranked([set(by_text.get(t, ())) for t in texts], texts)

    def close(self) -> None:
        client = getattr(self.memory.vector_store, "client", None)
        if client is not None:
            client.close()


class _Mem0Embedder:
    """mem0's embedder interface (``embed(text, memory_action)``) over our embedder."""

    def __init__(self, embedder: Embedder, config: Any) -> None:
        self.embedder, self.config = embedder, config

    def embed(self, text: str, memory_action: str | None = None) -> list[float]:
        kind = "query" if memory_action == "search" else "document"
        return self.embedder.embed([text], kind)[0].tolist()  # type: ignore[no-any-return]


class EmbedderOnly(System):
    """No memory system: the batch's texts embedded as the others embed them, and nothing stored. Its turns/s
    is the most any system can ingest with this embedder (``--ingest-only``; it cannot be searched)."""

    name = "embedder"

    def add(self, conv: Conversation, turns: Sequence[Turn]) -> None:
        self.embedder.embed([doc_text(t) for t in turns], "document")


SYSTEMS: dict[str, Callable[[Path, Embedder], System]] = {
    "memlane": Memlane,
    "memlane-per-thread": MemlanePerThread,
    "memlane-inline": MemlaneInline,
    "chroma": Chroma,
    "langgraph": LangGraph,
    "mem0": Mem0,
    "embedder": EmbedderOnly,
}


# -- measuring --------------------------------------------------------------------------------------
def rotated(names: Sequence[str], shift: int) -> list[str]:
    shift %= len(names)
    return [*names[shift:], *names[:shift]]


def ingest(system: System, conversations: Sequence[Conversation], batch: int) -> tuple[float, float]:
    """Wall and process-CPU seconds to add every conversation's turns in batches of ``batch``."""
    wall, cpu = time.perf_counter(), time.process_time()
    for conv in conversations:
        turns = conv.turns
        for start in range(0, len(turns), batch):
            system.add(conv, turns[start : start + batch])
    system.settle()
    return time.perf_counter() - wall, time.process_time() - cpu


def ask_all(system: System, conversations: Sequence[Conversation]) -> tuple[list[Ranked], list[float], list[float]]:
    """Every scored question's ranking, with wall and process-CPU milliseconds per question."""
    ranked, wall_ms, cpu_ms = [], [], []
    for conv in conversations:
        system.search(conv, "warm up")
        for q in questions(conv):
            wall, cpu = time.perf_counter(), time.process_time()
            ranked.append(system.search(conv, q.text))
            wall_ms.append((time.perf_counter() - wall) * 1e3)
            cpu_ms.append((time.process_time() - cpu) * 1e3)
    return ranked, wall_ms, cpu_ms


def questions(conv: Conversation) -> list[Any]:
    return [q for q in conv.questions if q.category in SCORED and q.evidence]


def quality(conversations: Sequence[Conversation], ranked: Sequence[Ranked]) -> dict[str, float]:
    """Mean recall@k, recall within 600 tokens and tokens of the top 10 over the scored questions."""
    tokenizer = get_tokenizer("o200k_base")
    asked = [q for conv in conversations for q in questions(conv)]
    rows = []
    for q, r in zip(asked, ranked, strict=True):
        tokens = [tokenizer.count(t) for t in r.texts]
        row = score(r, q.evidence, tokens)
        row["tokens@10"] = float(sum(tokens[:10]))
        rows.append(row)
    keys = [*(f"recall@{k}" for k in KS), f"recall@{TOKEN_BUDGET}tok", "tokens@10"]
    return {"n": len(rows)} | {k: round(statistics.fmean(r[k] for r in rows), 4) for k in keys}


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values))


MODES = ("live", "stored")  # the embedder runs / every vector is served from memory (the system's own cost)


def shared_embedder(compute: str = "auto") -> Embedder:
    """memlane's MiniLM embedder, LRU cache off, computing as ``compute`` says: ``auto`` (this CPU's default),
    ``float32`` (what a CPU without VNNI gets), or the int8 modes ``block`` and ``row``."""
    if compute == "float32":
        return OnnxMiniLMEmbedder(cache_size=0, int8_matmul=False)
    return OnnxMiniLMEmbedder(cache_size=0, int8_activations=compute)  # type: ignore[arg-type]


def embedders(conversations: Sequence[Conversation], compute: str = "auto") -> dict[str, Embedder]:
    """The live MiniLM embedder (LRU cache off) and one serving the same model's vectors from memory, filled
    here (and kept in ``bench/out/locomo-vectors.npz``, shared with bench/locomo.py) for every turn and question."""
    live = shared_embedder(compute)
    live.embed_query("load the model")
    inner = shared_embedder(compute)
    inner.embed_query("load the model")  # the cache's keys name how the loaded model computes
    stored = DiskCachedEmbedder(inner, OUT_DIR / "locomo-vectors.npz")
    stored.embed([doc_text(t) for c in conversations for t in c.turns], "document")
    stored.embed(["warm up", *(q.text for c in conversations for q in questions(c))], "query")
    stored.save()
    return {"live": live, "stored": stored}


def run(
    names: Sequence[str],
    conversations: Sequence[Conversation],
    runs: int,
    workroot: Path,
    queries: bool = True,
    compute: str = "auto",
) -> dict[str, Any]:
    """Ingest at every batch size ``runs`` times, then (with ``queries``) ask every question ``runs`` times,
    systems interleaved; each with the live embedder and with vectors served from memory."""
    embed = embedders(conversations, compute)
    turns = sum(len(c.turns) for c in conversations)
    ingest_s: dict[tuple[str, str, int], list[tuple[float, float]]] = {}
    kept: dict[tuple[str, str], System] = {}
    for rep in range(runs):
        for b_index, batch in enumerate(BATCHES):
            for mode in MODES:
                for name in rotated(names, rep + b_index):
                    workdir = workroot / f"{name}-{mode}-b{batch}-r{rep}"
                    workdir.mkdir(parents=True)
                    system = SYSTEMS[name](workdir, embed[mode])
                    wall, cpu = ingest(system, conversations, batch)
                    ingest_s.setdefault((name, mode, batch), []).append((wall, cpu))
                    print(f"ingest {name} {mode} b={batch} run {rep + 1}: {turns / wall:.0f} turns/s", file=sys.stderr)
                    if queries and rep == runs - 1 and batch == BATCHES[-1]:
                        kept[(name, mode)] = system
                    else:
                        system.close()
                        shutil.rmtree(workdir)
    latency: dict[tuple[str, str], list[tuple[list[float], list[float]]]] = {}
    first: dict[str, list[Ranked]] = {}
    changed: Counter[str] = Counter()
    # One untimed pass with stored vectors first: a system that embeds a query as another text than the
    # question (memlane leaves the speakers' names out) finds that text's vector stored from then on.
    for (_, mode), system in kept.items() if queries else ():
        if mode == "stored":
            ask_all(system, conversations)
    for rep in range(runs if queries else 0):
        for mode in MODES:
            for name in rotated(names, rep):
                ranked, wall_ms, cpu_ms = ask_all(kept[(name, mode)], conversations)
                latency.setdefault((name, mode), []).append((wall_ms, cpu_ms))
                if name in first:
                    changed[name] += sum(a.covers != b.covers for a, b in zip(first[name], ranked, strict=True))
                else:
                    first[name] = ranked
                print(f"queries {name} {mode} run {rep + 1}: p50 {percentile(wall_ms, 50):.2f} ms", file=sys.stderr)
    for system in kept.values():
        system.close()
    results: dict[str, Any] = {}
    for name in names:
        results[name] = {
            mode: {"ingest": {str(b): _ingest_figures(ingest_s[(name, mode, b)], turns) for b in BATCHES}}
            for mode in MODES
        }
        if queries:
            for mode in MODES:
                results[name][mode]["query_ms"] = _latency_figures(latency[(name, mode)])
            results[name]["quality"] = quality(conversations, first[name])
            results[name]["rankings_changed_between_runs"] = changed[name]
    texts = Counter(doc_text(t) for c in conversations for t in c.turns)
    return {
        "conversations": [c.sample_id for c in conversations],
        "turns": turns,
        "questions": sum(len(questions(c)) for c in conversations),
        "turns_sharing_their_text": sum(n for n in texts.values() if n > 1),
        "runs": runs,
        "embedder": f"{embed['live'].model} ({getattr(embed['live'], 'compute', '?')}), cache off",
        "results": results,
    }


def _ingest_figures(times: Sequence[tuple[float, float]], turns: int) -> dict[str, Any]:
    return {
        "turns_per_s": round(median([turns / w for w, _ in times]), 1),
        "turns_per_cpu_s": round(median([turns / c for _, c in times]), 1),
        "runs_turns_per_s": [round(turns / w, 1) for w, _ in times],
    }


def _latency_figures(runs: Sequence[tuple[list[float], list[float]]]) -> dict[str, Any]:
    return {
        "p50": round(median([percentile(w, 50) for w, _ in runs]), 3),
        "p95": round(median([percentile(w, 95) for w, _ in runs]), 3),
        "cpu_p50": round(median([percentile(c, 50) for _, c in runs]), 3),
        "cpu_p95": round(median([percentile(c, 95) for _, c in runs]), 3),
        "runs_p50": [round(percentile(w, 50), 3) for w, _ in runs],
    }


# -- report -----------------------------------------------------------------------------------------
def markdown(report: dict[str, Any]) -> str:
    """The run's two tables: ingest, then queries and recall."""
    info = report["run"]
    lines = [
        f"{info['date']} · commit {info['commit']} · {info['machine']} · load "
        f"{info['load_avg_before']} → {info['load_avg_after']} · {info['seconds']} s",
        "",
        f"{len(report['conversations'])} conversations ({', '.join(report['conversations'])}), "
        f"{report['turns']} turns, {report['questions']} questions (categories 1-4 with evidence), "
        f"medians of {report['runs']} runs; embedder {report['embedder']}; *stored*: every vector served from "
        "memory (the system's own cost)",
        "",
        "| system | turns/s b=1 | b=20 | b=256 | turns/CPU-s b=1 | b=20 | b=256 | stored: turns/s b=1 | b=20 | b=256 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, res in report["results"].items():
        live, stored = res["live"]["ingest"], res["stored"]["ingest"]
        cells = [live[str(b)]["turns_per_s"] for b in BATCHES]
        cells += [live[str(b)]["turns_per_cpu_s"] for b in BATCHES]
        cells += [stored[str(b)]["turns_per_s"] for b in BATCHES]
        lines.append(f"| {name} | " + " | ".join(f"{c:,.0f}" for c in cells) + " |")
    if not all("quality" in res for res in report["results"].values()):
        return "\n".join(lines)
    lines += [
        "",
        "| system | query p50 ms | p95 | CPU p50 | CPU p95 | stored: p50 | p95 "
        "| R@5 | R@10 | R@25 | R@600tok | tok@10 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, res in report["results"].items():
        live, stored, qual = res["live"]["query_ms"], res["stored"]["query_ms"], res["quality"]
        cells = [live["p50"], live["p95"], live["cpu_p50"], live["cpu_p95"], stored["p50"], stored["p95"]]
        lines.append(
            f"| {name} | "
            + " | ".join(f"{c:.2f}" for c in cells)
            + " | "
            + " | ".join(f"{qual[f'recall@{k}']:.3f}" for k in KS)
            + f" | {qual[f'recall@{TOKEN_BUDGET}tok']:.3f} | {qual['tokens@10']:.0f} |"
        )
    changed = {n: r["rankings_changed_between_runs"] for n, r in report["results"].items()}
    lines += [
        "",
        f"rankings that differed from the first run (any mode): {changed}; turns sharing their text "
        f"with another turn (mem0 credits both): {report['turns_sharing_their_text']}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=2, help="the first N LoCoMo conversations")
    parser.add_argument("--runs", type=int, default=3, help="repetitions of each measurement (medians)")
    parser.add_argument(
        "--systems", default="memlane,chroma,langgraph,mem0", help=f"comma-separated, of: {', '.join(SYSTEMS)}"
    )
    parser.add_argument("--ingest-only", action="store_true", help="measure ingest only, ask no questions")
    parser.add_argument(
        "--compute", choices=("auto", "float32", "block", "row"), default="auto",
        help="how the shared embedder multiplies: this CPU's default, or as another CPU would (float32: x86 "
        "without VNNI; row needs VNNI)",
    )  # fmt: skip
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=OUT_DIR / "peers.json")
    args = parser.parse_args(argv)
    conversations = load_conversations(args.data)[: args.conversations]
    names = [n.strip() for n in args.systems.split(",") if n.strip()]
    unknown = [n for n in names if n not in SYSTEMS]
    if unknown:
        parser.error(f"unknown systems {unknown}; choose from {', '.join(SYSTEMS)}")
    if "embedder" in names and not args.ingest_only:
        parser.error("the 'embedder' system stores nothing to ask: use it with --ingest-only")
    with tempfile.TemporaryDirectory(prefix="memlane-peers-") as tmp:
        t0, load_before = time.perf_counter(), os.getloadavg()
        report = run(names, conversations, args.runs, Path(tmp), queries=not args.ingest_only, compute=args.compute)
    return finish(report, args.out, markdown, t0, load_before, argv, compute=args.compute)


if __name__ == "__main__":
    sys.exit(main())
