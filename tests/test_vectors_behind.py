"""Messages stored before their vectors (memlane.memory.behind).

With a local model a small write commits its messages, records them as waiting for their vectors, and
returns; a helper thread embeds the queued texts together and stores their vectors. The embedder below
holds its document runs until the test lets them go, so what a caller sees in between is checked without
timing anything: the write has returned, the message is stored and pending, the store's keyword search
finds it, and a recall waits for it.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder
from memlane.embeddings.base import EmbedKind, Vectors
from memlane.errors import ProviderError
from memlane.memory.behind import BEHIND, VectorsBehind
from memlane.store import Scope
from memlane.texts import item_text

WAIT = 10.0  # seconds a held run waits to be let go


class GatedEmbedder(FakeEmbedder):
    """The fake model; document runs wait for ``gate`` (queries never wait), and fail while ``fail``."""

    def __init__(self) -> None:
        super().__init__(cache_size=0)
        self.gate = threading.Event()
        self.fail = False
        self.documents: list[list[str]] = []  # the texts of each document run

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        if kind == "document":
            assert self.gate.wait(WAIT), "a document run was never let go"
            self.documents.append(list(texts))
            if self.fail:
                raise ProviderError("model down")
        return super().embed_batch(texts, kind)


@pytest.fixture
def gated() -> GatedEmbedder:
    return GatedEmbedder()


def _memory(location: str, embedder: FakeEmbedder, **settings: object) -> Memory:
    return Memory(
        location, agent="a", settings=load_settings(embedder="none", worker="none", **settings), embedder=embedder
    )


def _vectors(mem: Memory, ids: list[int], agent: str = "a") -> tuple[list[int], np.ndarray]:
    return mem.store.get_vectors(agent, "message", ids)


def _pending_ids(mem: Memory) -> list[int]:
    return [m.id for m in mem.store.pending_vectors(1000)]


def test_a_write_returns_before_its_text_is_embedded_and_its_vector_follows(
    store_url: str, gated: GatedEmbedder
) -> None:
    with _memory(store_url, gated) as mem:
        first = mem.add_message("t", "user", "I've been into sourdough lately", user="ann")
        more = mem.add_messages("t", [{"role": "assistant", "content": f"trail {i}"} for i in range(3)])
        both = mem.add_to_threads(
            {"t": [{"role": "user", "content": "rye"}], "u": [{"role": "user", "content": "oat"}]}
        )
        stored = [first, *more, *both["t"], *both["u"]]
        ids = [m.id for m in stored]
        # Returned with the model still held: the rows are committed, their vectors pending.
        assert [m.content for m in mem.history("t")][:2] == ["I've been into sourdough lately", "trail 0"]
        assert _vectors(mem, ids)[0] == []
        assert _pending_ids(mem) == ids
        assert [c.id for c in mem.store.keyword_search("a", "sourdough", Scope(), 5)] == [first.id]
        gated.gate.set()
        assert mem.flush(WAIT)
        found, vectors = _vectors(mem, ids)
        assert found == ids and _pending_ids(mem) == []
        np.testing.assert_allclose(vectors, FakeEmbedder(cache_size=0).embed([item_text(m) for m in stored]))
        # Queued while the model was held, the texts went to it together, not one run per write.
        assert sum(len(run) for run in gated.documents) == len(ids) and len(gated.documents) < len(ids)


def test_a_recall_waits_for_the_vectors_of_its_agents_earlier_writes(store_url: str, gated: GatedEmbedder) -> None:
    with _memory(store_url, gated) as mem:
        said = mem.add_message("t", "user", "I've been into sourdough lately", user="ann")
        hits: list[list[int]] = []
        asker = threading.Thread(target=lambda: hits.append([h.message_id for h in mem.recall("weekend baking")]))
        asker.start()
        asker.join(0.5)
        assert asker.is_alive(), "the recall did not wait for the pending vector"
        gated.gate.set()
        asker.join(WAIT)
        # "weekend baking" shares no word with the message: only its vector finds it.
        assert hits == [[said.id]]


class SteppedEmbedder(FakeEmbedder):
    """The fake model; each document run waits for one release of ``steps``."""

    def __init__(self) -> None:
        super().__init__(cache_size=0)
        self.steps = threading.Semaphore(0)
        self.started = threading.Semaphore(0)  # released as each document run begins

    def embed_batch(self, texts: Sequence[str], kind: EmbedKind) -> Vectors:
        if kind == "document":
            self.started.release()
            assert self.steps.acquire(timeout=WAIT), "a document run was never let go"
        return super().embed_batch(texts, kind)


def test_a_recall_waits_for_the_writes_before_it_not_for_those_after(store_url: str) -> None:
    stepped = SteppedEmbedder()
    with _memory(store_url, stepped) as mem:
        before = mem.add_message("t", "user", "I've been into sourdough lately", user="ann")
        assert stepped.started.acquire(timeout=WAIT)  # the helper runs the model on it, held
        hits: list[list[int]] = []
        asker = threading.Thread(target=lambda: hits.append([h.message_id for h in mem.recall("weekend baking")]))
        asker.start()
        asker.join(0.3)
        assert asker.is_alive()
        after = mem.add_message("t", "user", "a busy writer keeps writing", user="ann")
        stepped.steps.release()  # the first run ends; the helper takes the later write and is held again
        asker.join(WAIT)
        assert not asker.is_alive(), "the recall waited for a write made after it began"
        assert after.id in _pending_ids(mem)
        assert before.id in hits[0]
        stepped.steps.release()
        assert mem.flush(WAIT) and _pending_ids(mem) == []


def test_a_users_recall_has_their_own_writes_embedded_first(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(VectorsBehind, "BATCH", 1)  # one message a model run: the order is visible
    stepped = SteppedEmbedder()
    with _memory(store_url, stepped) as mem:
        mem.add_message("bob", "user", "bob's first", user="bob")
        assert stepped.started.acquire(timeout=WAIT)  # held on it
        others = [mem.add_message("bob", "user", f"bob again {i}", user="bob") for i in range(3)]
        mine = mem.add_message("ann", "user", "I've been into sourdough lately", user="ann")
        hits: list[list[int]] = []
        asker = threading.Thread(
            target=lambda: hits.append([h.message_id for h in mem.recall("weekend baking", user="ann")])
        )
        asker.start()
        asker.join(0.3)
        assert asker.is_alive()
        stepped.steps.release()  # bob's first ends; ann's message, queued last, goes next
        assert stepped.started.acquire(timeout=WAIT)
        stepped.steps.release()
        asker.join(WAIT)
        assert not asker.is_alive(), "ann's recall waited for bob's writes queued before hers"
        assert hits == [[mine.id]]
        assert {m.id for m in others} <= set(_pending_ids(mem))
        for _ in others:
            stepped.steps.release()
        assert mem.flush(WAIT) and _pending_ids(mem) == []


@pytest.mark.parametrize("many", [False, True])
def test_a_users_recall_waits_for_the_bots_replies_and_others_turns_in_their_threads(
    store_url: str, monkeypatch: pytest.MonkeyPatch, many: bool
) -> None:
    """A user's scope is their threads' messages, whoever wrote them: the bot's reply (no user) in ann's
    thread and bob's turn in a thread ann shares are waited for, though not queued under ann; bob's own
    thread is not. With more threads pending than are looked up one by one, ann's threads are listed."""
    if many:
        monkeypatch.setattr("memlane.memory.base._THREADS_LOOKED_UP", 0)
    monkeypatch.setattr(VectorsBehind, "BATCH", 1)  # one message a model run: the order is visible
    monkeypatch.setattr(VectorsBehind, "URGENT_BATCH", 1)
    stepped = SteppedEmbedder()
    with _memory(store_url, stepped) as mem:
        mem.add_message("trip", "user", "I am flying to Lisbon in June", user="ann")
        mem.add_message("shared", "user", "The team dinner is on Friday", user="ann")
        for _ in range(2):
            stepped.steps.release()
        assert mem.flush(WAIT)
        while stepped.started.acquire(timeout=0):  # forget the runs so far
            pass
        mem.add_message("bob", "user", "bob's first", user="bob")
        assert stepped.started.acquire(timeout=WAIT)  # held on it
        reply = mem.add_message("trip", "assistant", "Lisbon is lovely in early summer")
        cake = mem.add_message("shared", "user", "I will bring a cake", user="bob")
        later = mem.add_message("bob", "user", "bob again", user="bob")
        asker = threading.Thread(target=lambda: mem.recall("flight", user="ann"))
        asker.start()
        asker.join(0.3)
        assert asker.is_alive()
        for _ in range(3):  # bob's first, then the reply and the cake (waited for), not bob's later turn
            stepped.steps.release()
        asker.join(WAIT)
        assert not asker.is_alive(), "ann's recall waited for a thread she is not in"
        assert later.id in _pending_ids(mem)
        assert {reply.id, cake.id}.isdisjoint(_pending_ids(mem))  # stored before the recall searched
        stepped.steps.release()
        assert mem.flush(WAIT) and _pending_ids(mem) == []


def test_a_large_agents_keyword_matches_are_ranked_with_the_vector_of_a_message_written_just_before(
    tmp_path: Path, gated: GatedEmbedder
) -> None:
    """SQLite ranks a large agent's keyword matches by vectors it reads in the same read transaction as the
    matches: the search must begin after the pending vector is stored, not wait for it inside (its snapshot
    would not hold it, and the message would rank last)."""
    query = "kestrels weather talk"
    with _memory(str(tmp_path / "big.db"), gated) as mem:
        gated.gate.set()
        for i in range(40):
            mem.add_message(f"t{i % 4}", "user", f"small talk about the weather, part {i}", user=f"u{i % 3}")
        short = mem.add_message("t5", "user", "kestrels, no idea", user="u1").id
        assert mem.flush(WAIT)
        gated.gate.clear()
        near = mem.add_message("t6", "user", "kestrels hunting in the weather", user="u2").id
        words = mem.store._common_words  # type: ignore[attr-defined]
        words.LARGE_AGENT, words.VECTOR_POSTINGS_BUDGET = 30, 5  # a large agent; 'kestrels' is rare
        hits: list[list[int]] = []
        asker = threading.Thread(
            target=lambda: hits.append([h.id for h in mem.recall(query, limit=2, preset="keyword")])
        )
        asker.start()
        asker.join(0.3)
        assert asker.is_alive()
        gated.gate.set()
        asker.join(WAIT)
        assert hits == [[near, short]]


def test_another_agents_pending_writes_do_not_hold_up_a_recall(store_url: str, gated: GatedEmbedder) -> None:
    with _memory(store_url, gated) as mem:
        gated.gate.set()
        mine = mem.add_message("t", "user", "I've been into sourdough lately", user="ann")
        assert mem.flush(WAIT)
        gated.gate.clear()
        mem.for_agent("b").add_message("t", "user", "held behind the model", user="bob")
        # Returns with agent b's text still held: agent a's recall waits for nothing of b's.
        assert [h.message_id for h in mem.recall("weekend baking")] == [mine.id]
        assert _pending_ids(mem) != []
        gated.gate.set()


def test_a_message_deleted_before_its_vector_gets_none(store_url: str, gated: GatedEmbedder) -> None:
    with _memory(store_url, gated) as mem:
        gone = mem.add_message("t", "user", "delete me", user="ann")
        kept = mem.add_message("u", "user", "keep me", user="ann")
        mem.delete_thread("t")
        gated.gate.set()
        assert mem.flush(WAIT)
        assert _vectors(mem, [gone.id, kept.id])[0] == [kept.id]
        assert _pending_ids(mem) == [] and BEHIND.error is None


def test_an_edit_while_the_old_text_is_queued_keeps_the_new_texts_vector(store_url: str, gated: GatedEmbedder) -> None:
    with _memory(store_url, gated) as mem:
        old = mem.add_message("t", "user", "old words", user="ann")
        editing = threading.Thread(target=mem.edit_message, args=("t", old.id, "new words"))
        editing.start()
        gated.gate.set()
        editing.join(WAIT)
        assert mem.flush(WAIT)
        [edited] = mem.history("t")
        _, [vector] = _vectors(mem, [old.id])
        np.testing.assert_allclose(vector, FakeEmbedder(cache_size=0).embed([item_text(edited)])[0])


def test_an_embedding_error_keeps_the_messages_and_reindex_embeds_them(store_url: str, gated: GatedEmbedder) -> None:
    with _memory(store_url, gated) as mem:
        gated.fail = True
        gated.gate.set()
        said = mem.add_message("t", "user", "sourdough starters", user="ann")
        assert mem.flush(WAIT), "a failed run held up flush"
        assert isinstance(BEHIND.error, ProviderError)
        assert [m.content for m in mem.history("t")] == ["sourdough starters"]
        assert _pending_ids(mem) == [said.id]
        assert [h.message_id for h in mem.recall("sourdough", preset="keyword")] == [said.id]
        gated.fail = False
        assert mem.reindex() == 1
        assert _vectors(mem, [said.id])[0] == [said.id] and _pending_ids(mem) == []


def test_a_write_waits_for_room_in_a_full_queue_and_a_larger_one_embeds_its_own(
    store_url: str, gated: GatedEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(VectorsBehind, "LIMIT", 2)
    with _memory(store_url, gated) as mem:
        queued = mem.add_messages("t", [{"role": "user", "content": "one"}, {"role": "user", "content": "two"}])
        waiting: list[list[int]] = []
        writer = threading.Thread(target=lambda: waiting.append([mem.add_message("t", "user", "three").id]))
        writer.start()
        writer.join(0.5)
        assert writer.is_alive(), "a write past the limit did not wait for room"
        gated.gate.set()
        writer.join(WAIT)
        assert mem.flush(WAIT)
        ids = [m.id for m in queued] + waiting[0]
        assert _vectors(mem, ids)[0] == ids and _pending_ids(mem) == []
        big = mem.add_messages("t", [{"role": "user", "content": f"bulk {i}"} for i in range(3)])
        assert _vectors(mem, [m.id for m in big])[0] == [m.id for m in big], "a write larger than the queue was queued"
        monkeypatch.setattr(VectorsBehind, "LIMIT", 1024)
        monkeypatch.setattr(VectorsBehind, "LARGEST", 2)
        large = mem.add_messages("t", [{"role": "user", "content": f"import {i}"} for i in range(3)])
        assert _vectors(mem, [m.id for m in large])[0] == [m.id for m in large], "an import was queued"


def test_the_queue_can_be_turned_off(store_url: str, gated: GatedEmbedder) -> None:
    gated.gate.set()
    with _memory(store_url, gated, embed_behind=False) as mem:
        said = mem.add_message("t", "user", "embedded before the commit")
        assert _vectors(mem, [said.id])[0] == [said.id] and _pending_ids(mem) == []


def test_a_remote_model_is_not_queued_for(store_url: str, gated: GatedEmbedder) -> None:
    gated.in_process = False
    gated.gate.set()
    with _memory(store_url, gated) as mem:
        said = mem.add_message("t", "user", "embedded before the commit")
        assert _vectors(mem, [said.id])[0] == [said.id] and _pending_ids(mem) == []


_STOPPED_WRITER = """
import os, sys, threading
from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder

class Stuck(FakeEmbedder):
    def embed_batch(self, texts, kind):
        if kind == "document":
            threading.Event().wait()  # never returns: the process stops first
        return super().embed_batch(texts, kind)

mem = Memory(sys.argv[1], agent="a", settings=load_settings(embedder="none", worker="none"), embedder=Stuck())
for i in range(5):
    mem.add_message("t", "user", f"said before the crash {i}", user="ann")
mem.for_agent("b").add_message("t", "user", "another agent's", user="bob")
print(len(mem.store.pending_vectors(100)), flush=True)
os._exit(0)  # as a killed process: no close, no flush
"""


def test_messages_a_stopped_process_left_pending_are_embedded_by_the_next(store_url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_STOPPED_WRITER), store_url],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == "6"
    with _memory(store_url, FakeEmbedder(cache_size=0), embed_behind=False) as mem:  # no recovery: look first
        assert mem.status().counts["pending_vectors"] == 5 and mem.store.status().counts["pending_vectors"] == 6
    with _memory(store_url, FakeEmbedder(cache_size=0)) as mem:
        assert mem.flush(WAIT)
        assert _pending_ids(mem) == []
        history = mem.history("t")
        assert len(history) == 5
        found, vectors = _vectors(mem, [m.id for m in history])
        assert found == [m.id for m in history]
        np.testing.assert_allclose(vectors, FakeEmbedder(cache_size=0).embed([item_text(m) for m in history]))
        [theirs] = mem.for_agent("b").history("t")
        assert _vectors(mem, [theirs.id], agent="b")[0] == [theirs.id]
        assert mem.store.status().counts["pending_vectors"] == 0


def test_close_waits_for_the_queued_vectors(tmp_path: Path, gated: GatedEmbedder) -> None:
    location = str(tmp_path / "m.db")
    mem = _memory(location, gated)
    said = mem.add_message("t", "user", "written just before close")
    threading.Timer(0.2, gated.gate.set).start()
    mem.close()
    with _memory(location, FakeEmbedder(cache_size=0)) as again:
        assert _pending_ids(again) == []
        assert _vectors(again, [said.id])[0] == [said.id]


_SCRIPT_WITHOUT_CLOSE = """
import sys, time
from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder

class Slow(FakeEmbedder):  # a local model's pace, and its batches on its own threads (concurrency 2)
    def embed_batch(self, texts, kind):
        time.sleep(0.05)
        return super().embed_batch(texts, kind)

mem = Memory(sys.argv[1], agent="a", settings=load_settings(embedder="none", worker="none"),
             embedder=Slow(cache_size=0, batch_size=4, concurrency=2))
for i in range(40):
    mem.add_message("t", "user", f"note {i} written by a script that never closes its memory", user="ann")
print(len(mem.store.pending_vectors(100)), flush=True)
"""


def test_a_script_that_exits_without_close_leaves_no_message_without_its_vector(store_url: str) -> None:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_SCRIPT_WITHOUT_CLOSE), store_url],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert int(done.stdout.strip()) > 0  # the script did end with vectors still to embed
    assert done.stderr == ""  # no "cannot schedule new futures after interpreter shutdown"
    assert time.monotonic() - started < VectorsBehind.EXIT_WAIT + 30
    with _memory(store_url, FakeEmbedder(cache_size=0), embed_behind=False) as mem:  # no recovery: look first
        assert mem.store.status().counts["pending_vectors"] == 0
        history = mem.history("t")
        assert len(history) == 40
        assert _vectors(mem, [m.id for m in history])[0] == [m.id for m in history]


_SCRIPT_WITH_A_SLOW_MODEL = """
import sys, time
from memlane import Memory, load_settings
from memlane.embeddings import FakeEmbedder
from memlane.memory.behind import BEHIND

class Crawling(FakeEmbedder):
    def embed_batch(self, texts, kind):
        if kind == "document":
            time.sleep(0.5)
        return super().embed_batch(texts, kind)

BEHIND.EXIT_WAIT = 1.0
BEHIND.BATCH = 2  # one model run per run of the helper
mem = Memory(sys.argv[1], agent="a", settings=load_settings(embedder="none", worker="none"),
             embedder=Crawling(cache_size=0))
for i in range(40):
    mem.add_message("t", "user", f"note {i}", user="ann")
print(time.time(), flush=True)  # the script ends: from here on, its exit
"""


def test_the_exit_waits_a_bounded_time_and_hands_the_rest_to_the_next_process(store_url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_SCRIPT_WITH_A_SLOW_MODEL), store_url],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    exiting = time.time() - float(done.stdout)
    assert exiting < 1.0 + 0.5 + 2.5  # the wait, the run under way, the interpreter's own exit; not 40 x 0.25 s
    assert "stay pending for the next process" in done.stderr and "Traceback" not in done.stderr
    with _memory(store_url, FakeEmbedder(cache_size=0), embed_behind=False) as mem:
        assert mem.store.status().counts["pending_vectors"] > 0
    with _memory(store_url, FakeEmbedder(cache_size=0)) as mem:  # the next process embeds them
        assert mem.flush(WAIT)
        assert mem.store.status().counts["pending_vectors"] == 0
