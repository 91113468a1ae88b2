"""A write of a few messages embeds their texts while it stores the rows (memlane.memory.base.Embedding).

With a model that runs in this process, ``add_message``, ``add_messages`` and ``add_to_threads`` start the
embedding on a helper thread, write the messages, and wait for the vectors inside the same transaction; a
larger write, or one with a remote model, embeds first. Either way messages and vectors are stored together
or not at all. The embedder below holds its run until the store asks for the vectors, so on code that embeds
before it writes it waits in vain (and the test fails); no timing is measured.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder
from memlane.embeddings.base import EmbedKind, Vectors
from memlane.errors import ProviderError
from memlane.memory.base import OVERLAP_ROUNDS
from memlane.store import base as store_base
from memlane.store.postgres import threads as pg_threads
from memlane.store.sqlite import threads as sqlite_threads
from memlane.texts import item_text

WAIT = 5.0  # seconds a held run waits for the store to ask for its vectors


class HeldEmbedder(FakeEmbedder):
    """The fake model; a run waits until the store asks for the vectors (``asked``), noting whether it was
    asked before the run ended and on which thread the run went."""

    def __init__(self, *, batch_size: int = 256, concurrency: int = 1, in_process: bool = True) -> None:
        super().__init__(cache_size=0, batch_size=batch_size, concurrency=concurrency)
        self.in_process = in_process
        self.asked = threading.Event()
        self.hold = True
        self.fail = False
        self.gate = threading.Event()  # a run of the text "blocker" waits for it
        self.runs: list[tuple[str, bool]] = []  # (thread name, the store had asked before the run ended)

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        if "blocker" in texts:
            self.gate.wait(WAIT)
            return super().embed_batch(texts, kind)
        asked = self.asked.wait(WAIT) if self.hold else self.asked.is_set()
        self.runs.append((threading.current_thread().name, asked))
        if self.fail:
            raise ProviderError("model down")
        return super().embed_batch(texts, kind)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldEmbedder]:
    embedder = HeldEmbedder()

    def noting(vectors: store_base.WriteVectors) -> np.ndarray:
        embedder.asked.set()
        return store_base.vectors_now(vectors)

    for module in (sqlite_threads, pg_threads):
        monkeypatch.setattr(module, "vectors_now", noting)
    yield embedder


def _memory(store_url: str, embedder: FakeEmbedder) -> Memory:
    # The queue of memlane.memory.behind off: what is tested here is a write's own embedding, which a write
    # makes when the queue is off or full (tests/test_vectors_behind.py tests the queue).
    settings = load_settings(embedder="none", worker="none", embed_behind=False)
    return Memory(store_url, agent="a", settings=settings, embedder=embedder)


def _stored_vectors(mem: Memory, ids: list[int]) -> np.ndarray:
    found, vectors = mem.store.get_vectors("a", "message", ids)
    assert found == ids, "a message was stored without its vector"
    return vectors


@pytest.mark.parametrize(
    "write",
    [
        pytest.param(lambda mem: [mem.add_message("t", "user", "sourdough starters", user="ann")], id="add_message"),
        pytest.param(
            lambda mem: mem.add_messages("t", [{"role": "user", "content": f"trail {i}"} for i in range(5)]),
            id="add_messages",
        ),
        pytest.param(
            lambda mem: [
                m
                for ms in mem.add_to_threads(
                    {"t": [{"role": "user", "content": "bread"}], "u": [{"role": "assistant", "content": "rye"}]}
                ).values()
                for m in ms
            ],
            id="add_to_threads",
        ),
    ],
)
def test_a_small_write_stores_its_rows_while_its_texts_are_embedded(
    store_url: str, held: HeldEmbedder, write: Callable[[Memory], list]
) -> None:
    with _memory(store_url, held) as mem:
        stored = write(mem)
        assert held.runs, "nothing was embedded"
        assert all(asked for _, asked in held.runs), "the texts were embedded before the rows were written"
        assert all(name != threading.current_thread().name for name, _ in held.runs)
        vectors = _stored_vectors(mem, [m.id for m in stored])
        np.testing.assert_allclose(vectors, FakeEmbedder(cache_size=0).embed([item_text(m) for m in stored]))


def test_an_embedding_error_after_the_rows_are_written_stores_nothing(store_url: str, held: HeldEmbedder) -> None:
    with _memory(store_url, held) as mem:
        held.fail = True
        with pytest.raises(ProviderError):
            mem.add_message("t", "user", "lost", user="ann")
        with pytest.raises(ProviderError):
            mem.add_to_threads({"t": [{"role": "user", "content": "one"}], "u": [{"role": "user", "content": "two"}]})
        assert all(asked for _, asked in held.runs)  # the rows were written, then rolled back
        assert mem.threads() == []
        assert mem.history("t") == [] and mem.history("u") == []
        assert mem.recall("lost", preset="keyword") == []
        held.fail = False
        [kept] = [mem.add_message("t", "user", "kept")]
        assert kept.seq == 1, "the failed writes took sequence numbers"
        assert [m.content for m in mem.history("t")] == ["kept"]


def test_a_large_write_and_a_remote_model_embed_before_writing(store_url: str, held: HeldEmbedder) -> None:
    held.hold = False  # a run that waited for the store would wait in vain here
    held.batch_size = 2
    limit = held.batch_size * held.concurrency * OVERLAP_ROUNDS
    with _memory(store_url, held) as mem:
        mem.add_messages("t", [{"role": "user", "content": f"line {i}"} for i in range(limit + 1)])
        assert held.runs and not any(asked for _, asked in held.runs)
        assert {name for name, _ in held.runs} == {threading.current_thread().name}
        held.runs.clear()
        held.asked.clear()
        held.in_process = False
        mem.add_message("t", "user", "remote")
        assert held.runs == [(threading.current_thread().name, False)]
        assert len(_stored_vectors(mem, [m.id for m in mem.history("t")])) == limit + 2


def test_a_write_that_finds_the_model_busy_embeds_before_writing(store_url: str, held: HeldEmbedder) -> None:
    """Under concurrent writes a transaction waiting for its texts behind others' would hold up every writer:
    a write that finds an embedding under way embeds first, on its own thread."""
    held.hold = False
    with _memory(store_url, held) as mem:
        busy = threading.Thread(target=held.embed, args=(["blocker"],))
        busy.start()
        for _ in range(500):
            if not held.idle:
                break
            threading.Event().wait(0.01)
        assert not held.idle
        threading.Timer(0.2, held.gate.set).start()  # the model is free again in a moment
        stored = mem.add_message("t", "user", "written while the model was busy")
        busy.join(WAIT)
        assert held.runs == [(threading.current_thread().name, False)]
        assert held.idle
        _stored_vectors(mem, [stored.id])


def _child(path: str, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    with Memory(path, agent="a", settings=load_settings(embedder="fake", worker="none")) as mem:
        mem.add_message("t", "user", "written in the child about rye bread")
        out.put([h.text for h in mem.recall("rye bread", limit=3)])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork only")
def test_a_forked_child_writes_and_recalls_with_threads_of_its_own(tmp_path: Path) -> None:
    """Helper and search threads started in the parent do not exist in a forked child: it starts its own."""
    path = str(tmp_path / "fork.db")
    with Memory(path, agent="a", settings=load_settings(embedder="fake", worker="none")) as mem:
        mem.add_message("t", "user", "written in the parent about sourdough")  # starts the helper threads
        assert mem.recall("sourdough", limit=3)  # and the search threads
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_child, args=(path, out))
    child.start()
    child.join(30)
    if child.is_alive():
        child.kill()
        pytest.fail("the forked child hung")
    assert child.exitcode == 0
    assert any("rye bread" in text for text in out.get(timeout=5))
