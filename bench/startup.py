"""Cold start: wall time, CPU time and peak memory of short-lived memlane processes (issue 43).

Each case is a fresh process, run ``--runs`` times (default 5; the median is reported), the cases and the
variants interleaved so that a busy neighbour weighs on all of them alike:

    python -c pass                     the anchor: what any Python program pays
    python -c "import memlane"
    memlane --help
    memlane history t                  read commands: no model
    memlane facts --user u
    memlane add t user "..." --user u  one message stored (and embedded)
    memlane recall "..." --user u      one query embedded and searched

on a SQLite store of 200 messages and 20 facts (the local MiniLM embedder, vectors made) seeded before the
runs. Each variant is a ``src`` folder put first on ``PYTHONPATH`` (so one run can time main beside a branch)
and gets its own store, home and bytecode cache (``PYTHONPYCACHEPREFIX``, written by a warm-up run of every
case, as an installed package has its ``.pyc`` files; ``PYTHONDONTWRITEBYTECODE`` is unset for the children).
The warm-up also leaves whatever a first load caches (the prepared model file) in place: the figures are those
of the second and later processes. Each process is started and timed by a small launcher
(``LAUNCHER``): wall time from its fork to its exit, CPU time and peak memory (``ru_maxrss``) from
``os.wait4``.

Command of record (from a checkout, with the project's virtualenv):

    .venv/bin/python bench/startup.py --variant main=/path/to/main/src --variant branch=src

Without ``--variant`` it times this checkout's ``src`` alone. ``--json FILE`` writes every run.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent

SEED = """
import sys
from memlane import Memory, load_settings
with Memory(sys.argv[1], agent="default", settings=load_settings(worker="none")) as mem:
    topics = ["hiking in the Alps", "the billing service", "my dentist appointment", "sourdough", "Rust and trains"]
    for n in range(200):
        mem.add_message(f"t{n % 5}" if n % 7 else "t", "user", f"note {n}: I talked about {topics[n % 5]} today",
                        user="u")
    for n in range(20):
        mem.remember(f"fact {n}: u likes {topics[n % 5]}", user="u")
"""


@dataclass(frozen=True)
class Case:
    name: str
    argv: list[str]  # "{python}" and "{memlane}" are replaced; "{n}" by the run's number


CASES = [
    Case("python -c pass", ["{python}", "-c", "pass"]),
    Case("import memlane", ["{python}", "-c", "import memlane"]),
    Case("memlane --help", ["{memlane}", "--help"]),
    Case("memlane history", ["{memlane}", "--db", "{db}", "history", "t"]),
    Case("memlane facts", ["{memlane}", "--db", "{db}", "facts", "--user", "u"]),
    Case("memlane add", ["{memlane}", "--db", "{db}", "add", "t", "user", "note {n}: a fresh one", "--user", "u"]),
    Case("memlane recall", ["{memlane}", "--db", "{db}", "recall", "what about the dentist?", "--user", "u"]),
]


@dataclass
class Variant:
    name: str
    src: Path
    work: Path

    @property
    def db(self) -> Path:
        return self.work / "store.db"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_") and k != "PYTHONDONTWRITEBYTECODE"}
        env.update(
            PYTHONPATH=str(self.src),
            PYTHONPYCACHEPREFIX=str(self.work / "pycache"),
            MEMLANE_HOME=str(self.work / "home"),
        )
        return env


def memlane_command() -> list[str]:
    """The ``memlane`` console script beside this interpreter (what a user types), else ``python -m memlane``."""
    script = Path(sys.executable).parent / "memlane"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "memlane"]


def argv_of(case: Case, variant: Variant, n: int) -> list[str]:
    out: list[str] = []
    for part in case.argv:
        if part == "{memlane}":
            out += memlane_command()
        elif part == "{python}":
            out.append(sys.executable)
        else:
            out.append(part.replace("{db}", str(variant.db)).replace("{n}", str(n)))
    return out


#: Times ARGV from a small process and prints its wall seconds, CPU seconds and peak RSS: forked from a
#: larger one, a child's ``ru_maxrss`` would count the pages it shared with its parent until its exec.
LAUNCHER = """
import os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
print(os.waitstatus_to_exitcode(status), wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
"""


def run_once(argv: list[str], env: dict[str, str]) -> dict[str, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MB) of one fresh process."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *argv], env=env, capture_output=True, text=True)
    fields = done.stdout.split()
    if done.returncode != 0 or len(fields) != 4 or fields[0] != "0":
        raise SystemExit(f"{' '.join(argv)} failed: {done.stdout[-500:]} {done.stderr[-2000:]}")
    return {"wall": float(fields[1]), "cpu": float(fields[2]), "peak_mb": float(fields[3])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=SRC")
    parser.add_argument("--json", type=Path, help="write every run's figures here")
    args = parser.parse_args()
    specs = args.variant or [f"this={HERE.parent / 'src'}"]
    root = Path(tempfile.mkdtemp(prefix="memlane-startup-"))
    variants = []
    for spec in specs:
        name, _, src = spec.partition("=")
        variants.append(Variant(name, Path(src).resolve(), root / name))
    try:
        for variant in variants:
            (variant.work / "home").mkdir(parents=True)
            subprocess.run([sys.executable, "-c", SEED, str(variant.db)], env=variant.env(), check=True)
            for case in CASES:  # warm-up: bytecode written, the model's prepared file made
                run_once(argv_of(case, variant, 0), variant.env())
        runs: dict[tuple[str, str], list[dict[str, float]]] = {}
        for n in range(1, args.runs + 1):
            for case in CASES:
                for variant in variants:
                    runs.setdefault((case.name, variant.name), []).append(
                        run_once(argv_of(case, variant, n), variant.env())
                    )
        print_table(runs, variants)
        if args.json:
            args.json.write_text(json.dumps({f"{c} | {v}": r for (c, v), r in runs.items()}, indent=1))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def print_table(runs: dict[tuple[str, str], list[dict[str, float]]], variants: list[Variant]) -> None:
    names = [v.name for v in variants]
    head = " | ".join(f"{n} wall s | {n} CPU s | {n} peak MB" for n in names)
    print(f"| case | {head} |")
    print("|---|" + "---:|" * (3 * len(names)))
    for case in CASES:
        cells = []
        for name in names:
            figures = runs[(case.name, name)]
            cells += [
                f"{statistics.median(r['wall'] for r in figures):.2f}",
                f"{statistics.median(r['cpu'] for r in figures):.2f}",
                f"{statistics.median(r['peak_mb'] for r in figures):.0f}",
            ]
        print(f"| `{case.name}` | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
