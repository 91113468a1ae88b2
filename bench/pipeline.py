"""Pipeline benchmark: the background job machinery with a zero-latency scripted LLM.

Three measurements, on a fresh SQLite store each (keyword search only, no embedder, as in ``core.py``):

1. ``throughput`` — jobs/s through :class:`~memlane.pipeline.worker.Worker` (claim, handler, complete):
   ``--threads`` threads of ``--per-thread`` messages each queue one real ``summarize`` job per thread (one
   batch, one LLM call, facts consolidated, summary stored); then the same number of no-op jobs, which is
   the queue's own overhead. The LLM answers instantly, so this is the framework's cost, not the model's.
2. ``ingest`` — LLM calls and tokens per 1,000 ingested messages: the LoCoMo conversations
   (``shared/data/locomo10.json``, one thread per conversation, both speakers as users) written one
   ``add_message`` at a time, a worker draining the queue every ``--drain-every`` messages as the
   background thread would. Tokens are counted with the cl100k tokenizer. The memory's clock is simulated:
   it moves ``--pace`` seconds (30) per message, so jobs put off (profile merges wait up to a day) come due
   as in a live chat of that pace; at the end it jumps past every delay and the queue is drained once more,
   so every put-off merge is counted.
3. ``context`` — ``context(thread, query=, user=, budget=4000)`` latency on the store of (2): every section
   on (system prompt, summaries, facts, recalled items, recent messages, the pipeline's extra sections).

    .venv/bin/python bench/pipeline.py [--threads 500 --per-thread 40 --out bench/out/pipeline.json]

The scripted LLM answers each ``summarize_and_extract`` with a short summary and one fact about the first
speaker of the batch, each ``consolidate_fact`` with ADD, each ``merge_profiles`` with a line per person, and
any other prompt with its schema's required fields filled in (:func:`stub`).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from core import git_commit, load, machine_info, percentile  # bench/core.py
from memlane import Memory, load_settings
from memlane.llm import ChatMessage, RawCompletion
from memlane.pipeline.worker import Worker
from memlane.testing import ScriptedLLM
from memlane.tokens import get_tokenizer
from memlane.validation import NewJob

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo10.json"
_LINE = re.compile(r"^\[#\d+ [^\]]*\] (?P<who>[^:]+): (?P<text>.*)$", re.MULTILINE)


# -- the scripted LLM -------------------------------------------------------------------------------
def stub(schema: type[BaseModel]) -> str:
    """The smallest valid-looking JSON for a prompt this benchmark does not know: each required field."""
    spec = schema.model_json_schema()
    values: dict[str, Any] = {}
    for name in spec.get("required", []):
        prop = spec["properties"][name]
        options = prop.get("anyOf", [prop])
        kind = next((o for o in options if o.get("type") != "null"), {})
        if "enum" in kind or "const" in kind:
            values[name] = kind.get("enum", [kind.get("const")])[0]
        else:
            values[name] = {"string": "scripted text", "integer": 1, "number": 1.0, "boolean": False}.get(
                kind.get("type", ""), [] if kind.get("type") == "array" else {}
            )
    return json.dumps(values)


def answer(messages: Sequence[ChatMessage], schema: type[BaseModel] | None = None) -> str:
    """A valid, instant answer to the pipeline's prompts."""
    system = messages[0].content if messages else ""
    if '"summary"' in system:
        lines = _LINE.findall(messages[-1].content)
        if not lines:
            return json.dumps({"summary": "An empty stretch.", "facts": []})
        words = " ".join(text for _, text in lines).split()
        speaker = lines[0][0].split(" (")[0]
        topic = " ".join(w.strip(".,!?") for w in lines[0][1].split()[:6])
        return json.dumps(
            {
                "summary": "They talked: " + " ".join(words[:40]),
                "facts": [{"content": f"{speaker} talked about {topic}", "speaker": speaker, "category": "topic"}],
            }
        )
    if '"action"' in system:
        return json.dumps({"action": "ADD", "target_id": None, "new_content": None, "reason": "scripted"})
    if '"profiles"' in system:  # merge_profiles: one entry per person shown
        people = re.findall(r"^Person \(user key\): (.+)$", messages[-1].content, re.MULTILINE)
        return json.dumps({"profiles": {p: f"{p} is someone the assistant talks to." for p in people}})
    return stub(schema) if schema is not None else "scripted text"


class CountingLLM(ScriptedLLM):
    """ScriptedLLM answering with :func:`answer` at once.

    With ``exact`` it counts tokens with cl100k; without, it reports words (ScriptedLLM's own count), so the
    throughput run does not time our tokenizer in place of a model's (a real model counts on its side).
    """

    def __init__(self, *, exact: bool) -> None:
        self._asked = threading.local()
        super().__init__(responder=lambda messages: answer(messages, self._asked.schema), model="scripted-zero-latency")
        self.tokenizer = get_tokenizer("cl100k_base") if exact else None
        if self.tokenizer is not None:
            self.tokenizer.count("warm up")  # loads the encoding now, not inside the first job

    def _complete(self, messages: Sequence[ChatMessage], **kwargs: Any) -> RawCompletion:
        self._asked.schema = kwargs.get("schema")  # for the responder, which sees only the messages
        raw = super()._complete(messages, **kwargs)
        if self.tokenizer is None:
            return raw
        prompt = sum(self.tokenizer.count_message({"role": m.role, "content": m.content}) for m in messages)
        return RawCompletion(raw.text, prompt, self.tokenizer.count(raw.text), raw.model)


def open_memory(path: Path, llm: CountingLLM | None, clock: Callable[[], datetime] | None = None) -> Memory:
    settings = load_settings(embedder="none", worker="none", database=str(path))
    return Memory(settings=settings, llm=llm, agent="bench", clock=clock)


class SteppedClock:
    """Simulated time for the ingest run: moves only when told, so delayed jobs (profile merges put off
    for a day) come due as they would in a live chat of that pace."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


# -- data -------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Conversation:
    turns: list[tuple[str, str]]  # (speaker, text), sessions in order
    questions: list[str]


def load_conversations(path: Path) -> list[Conversation]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for item in data:
        conv = item["conversation"]
        sessions = sorted(
            (k for k in conv if k.startswith("session_") and isinstance(conv[k], list)),
            key=lambda k: int(k.split("_")[1]),
        )
        turns = [(t["speaker"], t["text"]) for key in sessions for t in conv[key] if t.get("text", "").strip()]
        out.append(Conversation(turns, [q["question"] for q in item["qa"] if q.get("question", "").strip()]))
    return out


# -- phases -----------------------------------------------------------------------------------------
def drain_timed(mem: Memory, workers: int) -> tuple[int, float, float]:
    """Drain the queue with ``workers`` threads; returns (jobs run, wall seconds, process CPU seconds)."""
    counts = [0] * workers
    pool = [Worker(mem, batch=8) for _ in range(workers)]

    def run(i: int) -> None:
        counts[i] = pool[i].drain(None)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    c0, t0 = time.process_time(), time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts), time.perf_counter() - t0, time.process_time() - c0


def bench_throughput(
    tmp: Path, threads: int, per_thread: int, workers: int, convs: list[Conversation]
) -> dict[str, Any]:
    turns = [t for c in convs for t in c.turns]
    llm = CountingLLM(exact=False)
    with open_memory(tmp / f"throughput-{workers}.db", llm) as mem:
        kinds = sorted(mem.pipeline.handlers)
        offset = 0
        for i in range(threads):
            items = []
            for j in range(per_thread):
                speaker, text = turns[(offset + j) % len(turns)]
                items.append({"role": "user", "content": text, "user": speaker})
            offset += per_thread
            mem.add_messages(f"t{i:05d}", items)
        queued = len(mem.store.list_jobs("bench", status="pending", limit=None))
        ran, wall, cpu = drain_timed(mem, workers)
        summaries = len(mem.summaries())
        calls = len(llm.calls)
        usage = {t.operation: t.calls for t in mem.usage.totals("bench")}
        # The queue alone: no-op jobs.
        mem.pipeline.handlers["bench.noop"] = _noop
        noop_n = max(threads, 1000)
        mem.store.enqueue_jobs("bench", [NewJob("bench.noop", {"i": i}) for i in range(noop_n)], mem.clock())
        noop_ran, noop_wall, noop_cpu = drain_timed(mem, workers)
    return {
        "workers": workers,
        "handlers": kinds,
        "jobs_queued": queued,
        "jobs_run": ran,
        "summaries": summaries,
        "llm_calls": calls,
        "llm_calls_by_operation": usage,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "jobs_per_s": round(ran / wall, 1),
        "ms_per_job": round(wall * 1000 / max(ran, 1), 3),
        "cpu_ms_per_job": round(cpu * 1000 / max(ran, 1), 3),
        "noop_jobs": noop_ran,
        "noop_jobs_per_s": round(noop_ran / noop_wall, 1),
        "noop_cpu_ms_per_job": round(noop_cpu * 1000 / max(noop_ran, 1), 3),
    }


def _noop(pipeline: Any, job: Any) -> None:
    return None


_noop.uses_llm = False  # type: ignore[attr-defined]


def bench_ingest(tmp: Path, convs: list[Conversation], drain_every: int, pace: float) -> tuple[dict[str, Any], Path]:
    llm = CountingLLM(exact=True)
    path = tmp / "ingest.db"
    clock = SteppedClock()
    with open_memory(path, llm, clock) as mem:
        worker = Worker(mem)
        written = 0
        t0 = time.perf_counter()
        for n, conv in enumerate(convs):
            for speaker, text in conv.turns:
                clock.advance(pace)
                mem.add_message(f"conversation-{n}", "user", text, user=speaker)
                written += 1
                if written % drain_every == 0:
                    worker.drain(None)
        worker.drain(None)
        # Flush: let every put-off job come due, so each fact ends up in an LLM-merged profile.
        settings = mem.settings  # getattr: the bench also runs against commits without these settings
        clock.advance(getattr(settings, "profile_merge_delay", 0) + getattr(settings, "profile_merge_max_age", 0) + 1)
        worker.drain(None)
        wall = time.perf_counter() - t0
        totals = mem.usage.totals("bench")
        jobs = mem.store.list_jobs("bench", limit=None)
        status = mem.status().counts
        unsummarized = sum(
            len(mem.store.messages("bench", f"conversation-{n}", unsummarized_only=True)) for n in range(len(convs))
        )
    calls = sum(t.calls for t in totals)
    prompt = sum(t.prompt_tokens for t in totals)
    completion = sum(t.completion_tokens for t in totals)
    per_k = 1000 / written
    return (
        {
            "messages": written,
            "threads": len(convs),
            "drain_every": drain_every,
            "seconds_per_message": pace,
            "simulated_hours": round((clock.now - SteppedClock().now).total_seconds() / 3600, 1),
            "wall_s": round(wall, 2),
            "jobs": len(jobs),
            "jobs_by_status": dict(
                sorted({j.status: sum(1 for x in jobs if x.status == j.status) for j in jobs}.items())
            ),
            "summaries": status.get("summaries"),
            "facts": status.get("facts"),
            "unsummarized_messages_left": unsummarized,
            "llm_calls": calls,
            "llm_calls_by_operation": {t.operation: t.calls for t in totals},
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "calls_per_1000_messages": round(calls * per_k, 2),
            "messages_per_call": round(written / calls, 1) if calls else None,
            "prompt_tokens_per_1000_messages": round(prompt * per_k),
            "completion_tokens_per_1000_messages": round(completion * per_k),
        },
        path,
    )


def bench_context(path: Path, convs: list[Conversation], count: int, budget: int) -> dict[str, Any]:
    import random

    rng = random.Random(7)
    picks = []
    for _ in range(count):
        n = rng.randrange(len(convs))
        speakers = sorted({s for s, _ in convs[n].turns})
        picks.append((f"conversation-{n}", rng.choice(speakers), rng.choice(convs[n].questions)))
    with open_memory(path, None) as mem:
        for thread, user, query in picks[:20]:  # warm-up
            mem.context(thread, query=query, user=user, budget=budget)
        wall, cpu, sizes = [], [], []
        for thread, user, query in picks:
            c0, t0 = time.thread_time(), time.perf_counter()
            ctx = mem.context(thread, query=query, user=user, budget=budget)
            wall.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
            sizes.append((len(ctx.summaries), len(ctx.facts), len(ctx.recalled), len(ctx.messages), ctx.tokens))
    return {
        "calls": count,
        "budget": budget,
        "p50_ms": round(percentile(wall, 50), 2),
        "p95_ms": round(percentile(wall, 95), 2),
        "p99_ms": round(percentile(wall, 99), 2),
        "cpu_p50_ms": round(percentile(cpu, 50), 2),
        "cpu_p95_ms": round(percentile(cpu, 95), 2),
        "avg_summaries": round(statistics.fmean(s[0] for s in sizes), 2),
        "avg_facts": round(statistics.fmean(s[1] for s in sizes), 2),
        "avg_recalled": round(statistics.fmean(s[2] for s in sizes), 2),
        "avg_messages": round(statistics.fmean(s[3] for s in sizes), 2),
        "avg_tokens": round(statistics.fmean(s[4] for s in sizes), 1),
    }


# -- output -----------------------------------------------------------------------------------------
def table(result: dict[str, Any]) -> str:
    lines = [
        "| measurement | result | target |",
        "|---|---:|---|",
    ]
    for tp in result["throughput"]:
        lines.append(
            f"| summarize jobs through the worker, {tp['workers']} worker thread(s) "
            f"({tp['jobs_run']} jobs, {tp['llm_calls']} LLM calls) | **{tp['jobs_per_s']:,.0f} jobs/s** "
            f"({tp['cpu_ms_per_job']:.2f} CPU-ms/job) | ≥ 200 jobs/s |"
        )
        lines.append(
            f"| no-op jobs (queue overhead only), {tp['workers']} worker thread(s) | "
            f"{tp['noop_jobs_per_s']:,.0f} jobs/s ({tp['noop_cpu_ms_per_job']:.2f} CPU-ms/job) | |"
        )
    ing = result["ingest"]
    ops = ", ".join(f"{k} {v}" for k, v in sorted(ing["llm_calls_by_operation"].items()))
    lines += [
        f"| LLM calls per 1,000 ingested messages ({ing['messages']:,} LoCoMo turns; {ops}) | "
        f"**{ing['calls_per_1000_messages']}** (1 call per {ing['messages_per_call']} messages) | "
        "≤ 50 (1 per 20 messages) |",
        f"| LLM tokens per 1,000 ingested messages (prompt + completion) | "
        f"{ing['prompt_tokens_per_1000_messages']:,} + {ing['completion_tokens_per_1000_messages']:,} | |",
    ]
    ctx = result["context"]
    lines.append(
        f"| `context(thread, query=, user=, budget={ctx['budget']})`, all sections on | "
        f"p50 {ctx['p50_ms']} ms, **p95 {ctx['p95_ms']} ms**, p99 {ctx['p99_ms']} ms (CPU p95 {ctx['cpu_p95_ms']} ms) "
        "| p95 ≤ 10 ms |"
    )
    lines += [
        "",
        f"context() returned on average {ctx['avg_summaries']} summaries, {ctx['avg_facts']} facts, "
        f"{ctx['avg_recalled']} recalled items and {ctx['avg_messages']} messages ({ctx['avg_tokens']} tokens). "
        f"Ingest left {ing['summaries']} summaries, {ing['facts']} facts, jobs {ing['jobs_by_status']}. "
        f"Load average before {result['load_before']}, after {result['load_after']}.",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--threads", type=int, default=500, help="threads (= summarize jobs) of the throughput run")
    parser.add_argument("--per-thread", type=int, default=40, help="messages per thread (40: one batch of 20 due)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker thread counts to measure")
    parser.add_argument("--drain-every", type=int, default=10, help="messages between drains during ingest")
    parser.add_argument(
        "--pace", type=float, default=30.0, help="simulated seconds between ingested messages (the jobs' clock)"
    )
    parser.add_argument("--context-calls", type=int, default=300)
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "pipeline.json")
    parser.add_argument(
        "--throughput-only", action="store_true", help="only phase 1 (for quick A/B runs); prints its JSON"
    )
    args = parser.parse_args(argv)

    convs = load_conversations(args.data)
    result: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "commit": git_commit(),
        "machine": machine_info(),
        "load_before": load(),
    }
    with tempfile.TemporaryDirectory(prefix="memlane-bench-") as tmp:
        result["throughput"] = [
            bench_throughput(Path(tmp), args.threads, args.per_thread, w, convs) for w in args.workers
        ]
        if args.throughput_only:
            print(json.dumps({"load": load(), "throughput": result["throughput"]}))
            return 0
        result["ingest"], path = bench_ingest(Path(tmp), convs, args.drain_every, args.pace)
        result["context"] = bench_context(path, convs, args.context_calls, args.budget)
    result["load_after"] = load()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(table(result))
    print(f"\n(raw numbers: {args.out})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
