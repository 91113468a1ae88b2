"""Ingest of versions of memlane (and of the peers) side by side: runs taken in turn, differences paired.

A side is a source tree (a ``git archive`` of a commit, or the working tree), optionally followed by
``:SYSTEM``, a system of bench/peers.py (``memlane`` by default; ``langgraph``, ``chroma``, ``mem0`` need the
peers venv). Each round runs every side once, in an order shuffled per round, each run in a fresh process of its
own that imports that side's ``src``: it ingests the first two LoCoMo conversations' turns (788) in batches of
``--batch`` into a fresh store, ``--runs`` times after one untimed run, with the live MiniLM embedder (cache
off), timed until everything added is searchable by its vector (``System.settle``), as bench/peers.py times
ingest. Separate benchmark runs minutes apart drift on this shared machine by more than the changes measured;
runs taken in turn meet the same load. Printed per side: the median turns/s and the median of its per-run
differences to the first side's run of the same round and position.

    .venv-peers/bin/python bench/experiments/ingest_lockstep.py /work/base /work/main /work/main:langgraph [--batch 256]
        [--rounds 6] [--runs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 16
SYSTEMS = ("memlane", "memlane-per-thread", "memlane-inline", "chroma", "langgraph", "mem0", "embedder")  # peers.py's


def child(src: str, system: str, batch: int, runs: int) -> None:
    """One side's runs, in this process: prints the wall seconds of each timed run as a JSON list."""
    sys.path[:0] = [str(Path(src).resolve() / "src"), str(Path(src).resolve() / "bench")]
    import peers
    from locomo import DEFAULT_DATA, load_conversations

    conversations = load_conversations(DEFAULT_DATA)[:2]
    embedder = peers.shared_embedder()
    embedder.embed_query("load the model")
    walls = []
    for run in range(runs + 1):
        workdir = Path(tempfile.mkdtemp(prefix="memlane-ingest-"))
        try:
            memory = peers.SYSTEMS[system](workdir, embedder)
            began = time.perf_counter()
            peers.ingest(memory, conversations, batch)
            wall = time.perf_counter() - began
            memory.close()
        finally:
            shutil.rmtree(workdir)
        if run:  # the first run warms the model and the caches
            walls.append(wall)
    print(json.dumps({"turns": sum(len(c.turns) for c in conversations), "walls": walls}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "sides", nargs="*", metavar="SIDE", help=f"SRC[:SYSTEM]: a source tree; SYSTEM one of {', '.join(SYSTEMS)}"
    )
    parser.add_argument("--batch", type=int, default=256, help="turns a write (default 256)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds of one process per side (default 6)")
    parser.add_argument("--runs", type=int, default=2, help="timed runs of each process (default 2)")
    parser.add_argument("--child", nargs=2, metavar=("SRC", "SYSTEM"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], args.child[1], args.batch, args.runs)
        return 0
    if len(args.sides) < 2:
        parser.error("give at least two sides to compare")
    if args.batch < 1 or args.rounds < 1 or args.runs < 1:
        parser.error("--batch, --rounds and --runs must be at least 1")
    specs = []
    for spec in args.sides:
        src, _, system = spec.partition(":")
        if not (Path(src) / "src" / "memlane" / "__init__.py").is_file():
            parser.error(f"{src} holds no src/memlane: a side is a source tree, e.g. a git archive")
        if not (Path(src) / "bench" / "peers.py").is_file():
            parser.error(f"{src} holds no bench/peers.py")
        if system and system not in SYSTEMS:
            parser.error(f"unknown system {system!r} in {spec}; choose from {', '.join(SYSTEMS)}")
        specs.append((src, system or "memlane"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    rates: list[list[float]] = [[] for _ in specs]
    rng = random.Random(SEED)
    load_before = os.getloadavg()
    for round_ in range(args.rounds):
        order = list(range(len(specs)))
        rng.shuffle(order)
        for i in order:
            src, system = specs[i]
            command = [sys.executable, __file__, "--child", src, system, "--batch", str(args.batch)]
            done = subprocess.run([*command, "--runs", str(args.runs)], env=env, capture_output=True, text=True)
            if done.returncode:
                sys.stderr.write(done.stderr)
                raise SystemExit(f"side {args.sides[i]} failed")
            out = json.loads(done.stdout.strip().splitlines()[-1])
            rates[i] += [out["turns"] / wall for wall in out["walls"]]
        line = ", ".join(f"{spec} {statistics.median(r):.1f}" for spec, r in zip(args.sides, rates, strict=True))
        print(f"round {round_ + 1}: medians so far {line}", file=sys.stderr)
    load_after = os.getloadavg()
    print(
        f"batch {args.batch}, {args.rounds} rounds x {args.runs} runs, load {load_before[0]:.2f} -> {load_after[0]:.2f}"
    )
    print("| side | turns/s median | runs | paired difference to the first side (median) |")
    print("|---|---:|---|---:|")
    for spec, mine in zip(args.sides, rates, strict=True):
        paired = statistics.median(b / a - 1 for a, b in zip(rates[0], mine, strict=True))
        runs = " ".join(f"{r:.0f}" for r in mine)
        print(f"| {spec} | {statistics.median(mine):.1f} | {runs} | {100 * paired:+.2f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
