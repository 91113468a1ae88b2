"""bench/peers.py's memlane system answers through the public API (its search once went missing unnoticed)."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memlane.embeddings.fake import FakeEmbedder

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture
def peers(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(BENCH))
    import locomo
    import peers

    yield peers, locomo
    for name in ("peers", "locomo"):
        sys.modules.pop(name, None)


def test_memlane_in_the_peer_benchmark_stores_searches_and_closes(peers, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bench, locomo = peers
    day = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    said = [("D1:1", "Ana", "I adopted a puppy named Biscuit"), ("D1:2", "Ben", "Congrats, what breed?")]
    turns = [locomo.Turn(i, who, text, day + timedelta(seconds=10 * n)) for n, (i, who, text) in enumerate(said)]
    later = [locomo.Turn("D2:1", "Ana", "We hiked to the lake on Sunday", day + timedelta(days=7))]
    conv = locomo.Conversation(
        "conv-test",
        ("Ana", "Ben"),
        [locomo.Session(1, day, turns), locomo.Session(2, day + timedelta(days=7), later)],
        [locomo.Question("What is the puppy called?", 4, ("D1:1",), ("D1:1",))],
    )
    system = bench.Memlane(tmp_path, FakeEmbedder())
    system.add(conv, conv.turns)  # one batch spanning both sessions (threads)
    found = system.search(conv, "What is the puppy called?")
    assert found.covers and "D1:1" in found.covers[0]
    assert any("Biscuit" in text for text in found.texts)
    system.close()
    assert system.mems == {}
