"""``Store.message_heads`` (the light part of messages a search ranks by) on each backend, and a search that
reads in full only the turns it shows.

The ``mem`` fixture runs every test once per backend in ``conftest.BACKENDS``.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memlane import Memory, load_settings
from memlane.retrieval import get_preset
from memlane.retrieval.rerank import Ranked
from memlane.store.base import Candidate, Store
from memlane.types import Message, MessageHead

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def _items(texts: list[str], *, start: datetime = START) -> list[dict[str, Any]]:
    """Turns of ana (user, named) and the assistant (no user, no name), one minute apart."""
    out: list[dict[str, Any]] = []
    for i, text in enumerate(texts):
        turn: dict[str, Any] = {"role": "assistant", "content": text, "created_at": start + timedelta(minutes=i)}
        if i % 2 == 0:
            turn.update(role="user", user="ana", name="Ana Lopez" if i % 4 == 0 else None)
        out.append(turn)
    return out


def _head(m: Message) -> MessageHead:
    return MessageHead(m.id, m.thread, m.seq, m.user, m.name, m.token_count, m.created_at)


def test_message_heads_are_the_light_part_of_the_agents_messages(mem: Memory) -> None:
    a = mem.add_messages("trip", _items(["We fly to Lisbon on Friday.", "Nice!", "I booked the hotel.", "Good"]))
    b = mem.add_messages("work", _items(["The report is late.", "Why?"], start=START + timedelta(days=3)))
    other = mem.for_agent("other").add_messages("trip", _items(["someone else's turn"]))
    ids = [b[1].id, a[2].id, 999_999, other[0].id, a[0].id, b[0].id, a[3].id]

    heads = mem.store.message_heads(mem.agent, ids)

    expected = sorted([b[1], a[2], a[0], b[0], a[3]], key=lambda m: m.id)
    assert heads == [_head(m) for m in expected]  # in id order; other agents' and unknown ids skipped
    assert heads == [_head(m) for m in mem.store.get_messages(mem.agent, ids)]
    assert heads == Store.message_heads(mem.store, mem.agent, ids)  # the portable default agrees
    by_id = {h.id: h for h in heads}
    assert (by_id[a[0].id].user, by_id[a[0].id].name) == ("ana", "Ana Lopez")
    assert (by_id[a[2].id].user, by_id[a[2].id].name) == ("ana", None)
    assert (by_id[a[3].id].user, by_id[a[3].id].name) == (None, None)
    assert by_id[b[0].id].created_at == START + timedelta(days=3)
    assert by_id[b[0].id].created_at.utcoffset() == timedelta(0)
    assert (by_id[b[1].id].thread, by_id[b[1].id].seq) == ("work", 2)
    assert all(h.token_count > 0 for h in heads)
    assert mem.store.message_heads(mem.agent, []) == []
    assert mem.store.message_heads("nobody", ids) == []


def test_recall_reads_each_turn_in_full_once_and_by_id_only_turns_it_shows(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = [f"turn {i} about the garden and the roses" if i % 3 == 0 else f"turn {i} small talk" for i in range(60)]
    mem.add_messages("t", _items(texts))
    store = mem.store
    by_id: list[int] = []
    around: list[int] = []
    reach: list[tuple[int, int]] = []
    real_get, real_windows = store.get_messages, store.message_windows

    def get_messages(agent: str, ids: Any) -> list[Message]:
        by_id.extend(ids)
        return real_get(agent, ids)

    def message_windows(agent: str, ids: Any, **kwargs: Any) -> list[Message]:
        found = real_windows(agent, ids, **kwargs)
        around.extend(m.id for m in found)
        reach.append((kwargs["before"], kwargs["after"]))
        return found

    monkeypatch.setattr(store, "get_messages", get_messages)
    monkeypatch.setattr(store, "message_windows", message_windows)

    hits = mem.recall("what about the garden roses?", limit=3)

    shown = {i for h in hits for i in h.message_ids}
    assert len(hits) == 3 and len(shown) > 3  # windows around the hits
    # 20 turns match. The best candidates come in full with the turns around them (a window and one turn
    # more on each side); other turns are read in full only when shown. No turn is read in full twice.
    assert around and set(by_id) <= shown and reach[0] == (2, 2)
    assert len(by_id) + len(around) == len(set(by_id) | set(around))
    assert shown <= set(by_id) | set(around)
    for hit in hits:  # and each hit is built from the full rows
        (message,) = real_get(mem.agent, [hit.id])
        assert (hit.text.count(message.content), hit.seq, hit.created_at) == (1, message.seq, message.created_at)
    light = replace(get_preset("default"), beyond_window=0)
    by_id.clear()
    reach.clear()
    hits = mem.recall("what about the garden roses?", limit=3, preset=light)
    # Without the turns beyond, only the windows (one turn each side) are read around the candidates.
    assert reach and set(reach) == {(1, 1)} and set(by_id) <= {i for h in hits for i in h.message_ids}


def test_context_reads_each_recalled_turn_in_full_once(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    # The turns context() recalls were read in full by the search: tidying the hits (filler, repeats of the
    # recent window) takes them from there, not from the store again.
    texts = [f"turn {i} about the garden and the roses" if i % 3 == 0 else f"turn {i} small talk" for i in range(60)]
    mem.add_messages("t", _items(texts))
    mem.add_messages("now", _items(["hello", "what about the garden roses?"], start=START + timedelta(days=1)))
    store = mem.store
    read: list[int] = []
    around: list[int] = []
    real_get, real_windows = store.get_messages, store.message_windows

    def get_messages(agent: str, ids: Any) -> list[Message]:
        read.extend(ids)
        return real_get(agent, ids)

    def message_windows(agent: str, ids: Any, **kwargs: Any) -> list[Message]:
        found = real_windows(agent, ids, **kwargs)
        around.extend(m.id for m in found)
        return found

    monkeypatch.setattr(store, "get_messages", get_messages)
    monkeypatch.setattr(store, "message_windows", message_windows)
    ctx = mem.context("now", query="what about the garden roses?", user="ana", budget=4000)
    recalled = {i for h in ctx.recalled for i in h.message_ids}
    assert recalled and recalled <= set(read) | set(around)
    assert len(read) == len(set(read)) and not set(read) & set(around)  # none read twice


def test_a_message_deleted_after_ranking_leaves_the_results(mem: Memory) -> None:
    stored = mem.add_messages("t", _items(["one", "two", "three", "four"]))
    fused = [Candidate("message", m.id, 1.0 - i / 10, "keyword") for i, m in enumerate(stored)]
    ranked = mem.searcher._load(mem.agent, fused)
    assert [type(r.item) for r in ranked] == [MessageHead] * 4
    first, second = ranked[0].item, ranked[1].item
    assert isinstance(first, MessageHead) and isinstance(second, MessageHead)
    windowed = [ranked[0].windowed((first, second)), ranked[1], ranked[3]]

    mem.delete_messages("t", [stored[1].id])
    found = mem.searcher._show(mem.agent, windowed)

    assert [f.id for f in found] == [stored[0].id, stored[3].id]  # the deleted hit is dropped ...
    assert found[0].window == (stored[0],)  # ... and so is the deleted turn of a window
    assert found[0].item == stored[0] and found[0].window[0] is found[0].item  # one object per message
    assert found[1].item == stored[3] and found[1].window == ()


def test_dedup_reads_the_texts_it_compares(mem: Memory) -> None:
    mem.add_messages(
        "t",
        _items(["the cabin at the lake is booked", "the cabin at the lake is booked!", "the lake cabin has a dock"]),
    )
    config = replace(get_preset("default"), dedup_similarity=0.9, window_before=0, window_after=0)

    hits = mem.recall("cabin at the lake", limit=5, preset=config)
    plain = mem.recall("cabin at the lake", limit=5, preset=replace(config, dedup_similarity=1.0))

    assert len(plain) == 3 and len(hits) == 2  # the near-copy went
    assert {h.text for h in hits} < {h.text for h in plain}
    head = Ranked("message", 1, 1.0, "keyword", MessageHead(1, "t", 1, None, None, 3, START))
    with pytest.raises(ValueError, match="without its text"):
        _ = head.text


def test_windows_built_a_chunk_at_a_time_still_fill_the_limit(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    # Matching turns come in pairs (seqs 4k+2, 4k+3): the second of a pair is shown in the first's window
    # and dropped, so filling 4 hits takes about 8 ranked items, more than the first chunk (4 + 4 // 4 + 1
    # = 6) holds; the small talk around them is no candidate and comes from the store, chunk by chunk.
    texts = [f"turn {i} about the garden roses" if i % 4 in (1, 2) else f"turn {i} small talk" for i in range(40)]
    mem.add_messages("t", _items(texts))
    calls: list[int] = []
    real_windows = mem.store.message_windows

    def message_windows(agent: str, ids: Any, **kwargs: Any) -> list[Message]:
        calls.append(len(ids))
        return real_windows(agent, ids, **kwargs)

    monkeypatch.setattr(mem.store, "message_windows", message_windows)
    # (The turns beyond the best candidates' windows would be read in one call first: not here.)
    hits = mem.recall("garden roses", limit=4, preset=replace(get_preset("default"), beyond_window=0))

    assert len(hits) == 4
    shown = [i for h in hits for i in h.message_ids]
    assert len(shown) == len(set(shown)) == 12  # four windows of three turns, none shown twice
    assert len(calls) >= 2  # a second chunk was needed


def test_the_calling_thread_reads_ahead_while_the_vector_search_runs(
    store_url: str, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keyword search runs on the calling thread, the vector search (which waits for the query's embedding)
    on another. While that one still runs, the calling thread reads the keyword candidates' records and the
    windows of the best of them; the results are those of the searches one after another, and what was read
    ahead is not read again."""
    settings = load_settings(embedder="fake", worker="none")
    with Memory(store_url, agent="agent-a", clock=clock, settings=settings) as mem:
        texts = [f"turn {i} about the garden roses" if i % 5 == 0 else f"turn {i} small talk" for i in range(50)]
        mem.add_messages("t", _items(texts))
        assert mem.searcher.concurrent
        store = mem.store
        read_ahead = threading.Event()
        vector_done = threading.Event()
        vector = mem.searcher.retrievers["vector"]

        def slow_vector(*args: Any) -> list[Candidate]:
            read_ahead.wait(10)  # as a query's embedding would take a while (bounded: fails, never hangs)
            try:
                return vector(*args)
            finally:
                vector_done.set()

        windows: list[tuple[bool, list[int]]] = []  # (while the vector search ran, anchors)
        read_in_full: list[int] = []
        real_windows, real_get = store.message_windows, store.get_messages

        def message_windows(agent: str, ids: Any, **kwargs: Any) -> list[Message]:
            windows.append((not vector_done.is_set(), list(ids)))
            found = real_windows(agent, ids, **kwargs)
            read_ahead.set()
            return found

        def get_messages(agent: str, ids: Any) -> list[Message]:
            read_in_full.extend(ids)
            return real_get(agent, ids)

        monkeypatch.setattr(store, "message_windows", message_windows)
        monkeypatch.setattr(store, "get_messages", get_messages)
        mem.searcher.retrievers["vector"] = slow_vector
        ahead = mem.recall("what about the garden roses?", limit=4)
        ahead_windows, ahead_full = list(windows), list(read_in_full)
        mem.searcher.concurrent = False
        read_ahead.set()
        plain = mem.recall("what about the garden roses?", limit=4)

    def shown(hits: list[Any]) -> list[tuple[Any, ...]]:
        return [(h.kind, h.id, round(h.score, 9), h.message_ids, h.text) for h in hits]

    assert len(ahead) == 4 and shown(ahead) == shown(plain)
    assert ahead_windows and ahead_windows[0][0]  # read while the vector search still ran ...
    first = ahead_windows[0][1]
    assert len(first) == 6  # the first chunk of a search for 4: the 6 best keyword matches
    assert not set(first) & {i for _, ids in ahead_windows[1:] for i in ids}  # ... and not asked again
    kept = {i for h in ahead for i in h.message_ids}
    assert kept & set(first)
    assert not set(ahead_full) & set(first)  # the windows' turns came in full: not read again to be shown
