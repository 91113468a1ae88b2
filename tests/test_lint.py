"""The quality gates run with the suite: ruff over the code, tests and benchmarks; mypy (strict) on the core."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)


def test_ruff_finds_nothing() -> None:
    result = _run(str(BIN / "ruff"), "check", "src", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_core_finds_nothing() -> None:
    result = _run(str(BIN / "mypy"))  # files and strictness come from pyproject.toml
    assert result.returncode == 0, result.stdout + result.stderr
