"""Concurrent embed calls go to the model together (memlane.embeddings.coalesce), each caller getting its own rows."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import numpy as np
import pytest

from memlane.embeddings import FakeEmbedder
from memlane.embeddings.base import EmbedKind, Vectors
from memlane.errors import ProviderError


class SlowEmbedder(FakeEmbedder):
    """The fake model, taking ``delay`` seconds per batch, recording each batch it ran."""

    def __init__(self, delay: float, **kwargs: int) -> None:
        super().__init__(cache_size=0, **kwargs)
        self.delay, self.fail = delay, False
        self.batches: list[list[str]] = []
        self.kinds: list[str] = []

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        self.batches.append(list(texts))
        self.kinds.append(kind)
        time.sleep(self.delay)
        if self.fail:
            raise ProviderError("model down")
        return super().embed_batch(texts, kind)


def _concurrently(embedder: SlowEmbedder, texts: list[str]) -> dict[str, object]:
    results: dict[str, object] = {}
    start = threading.Barrier(len(texts))

    def one(text: str) -> None:
        start.wait()
        try:
            results[text] = embedder.embed([text])
        except ProviderError as error:
            results[text] = error

    threads = [threading.Thread(target=one, args=(t,)) for t in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return results


def test_calls_arriving_during_a_batch_go_together_and_each_gets_its_own_rows() -> None:
    slow = SlowEmbedder(0.05)
    texts = [f"message number {i} about topic {i * 7}" for i in range(16)]
    results = _concurrently(slow, texts)
    reference = FakeEmbedder(cache_size=0)
    for text in texts:
        assert np.array_equal(results[text], reference.embed([text]))  # type: ignore[arg-type]
    # the first caller runs alone; everyone who arrived meanwhile goes in the next batch(es), not one by one
    assert len(slow.batches) < len(texts) / 2, slow.batches
    assert sorted(t for batch in slow.batches for t in batch) == sorted(texts)


def test_a_call_on_an_idle_model_runs_at_once() -> None:
    slow = SlowEmbedder(0.0)
    slow.embed(["alone"])
    assert slow.batches == [["alone"]]


def test_batches_never_exceed_the_batch_size() -> None:
    slow = SlowEmbedder(0.02, batch_size=4)
    _concurrently(slow, [f"text {i}" for i in range(12)])
    assert max(len(b) for b in slow.batches) <= 4 and sum(len(b) for b in slow.batches) == 12


def test_the_models_error_reaches_every_caller_of_the_batch_and_the_next_call_works() -> None:
    slow = SlowEmbedder(0.02)
    slow.fail = True
    results = _concurrently(slow, [f"text {i}" for i in range(6)])
    assert all(isinstance(r, ProviderError) for r in results.values())
    slow.fail = False
    assert slow.embed(["after"]).shape == (1, slow.dim)


@pytest.mark.parametrize("kind", ["query", "document"])
def test_kinds_are_never_mixed_in_one_batch(kind: EmbedKind) -> None:
    slow = SlowEmbedder(0.02)
    other: EmbedKind = "document" if kind == "query" else "query"
    threads = [threading.Thread(target=slow.embed, args=([f"t{i}"], kind if i % 2 else other)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert sum(len(b) for b in slow.batches) == 8
    for batch, batch_kind in zip(slow.batches, slow.kinds, strict=True):
        assert {kind if int(t[1:]) % 2 else other for t in batch} == {batch_kind}
