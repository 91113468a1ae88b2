"""Puts ``bench/`` on the import path, so an experiment here can import the benchmarks it builds on
(``locomo``, ``peers``) however it is started: ``python bench/experiments/NAME.py`` from the repository root."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH = str(Path(__file__).resolve().parents[1])
if BENCH not in sys.path:
    sys.path.insert(0, BENCH)
