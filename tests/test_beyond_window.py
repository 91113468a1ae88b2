"""The turn just beyond a good match's window joins the candidates (``SearchConfig.beyond_window``).

The answer to a question is often the same speaker's next turn after the best match ("I need a way to
destress" ... "I signed up for a pottery class"): no word of the question is in it, and a window of one
turn each side stops short of it. Both backends; keyword search only, so which turns match is certain.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memlane import Memory
from memlane.errors import ConfigError
from memlane.retrieval import SearchConfig, get_preset

START = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
TURNS = [
    ("ana", "How was your weekend?"),
    ("bo", "Busy. I needed a way to destress after such a long week."),
    ("ana", "What did you try?"),
    ("bo", "I signed up for a pottery class, it is like therapy."),
    ("ana", "Sounds lovely."),
    ("bo", "The weather was bad though."),
    ("ana", "Tell me about it."),
]
QUERY = "a way to destress"
KEYWORD = replace(get_preset("default"), name="keyword-default", retrievers=("keyword",))
#: No merging of touching windows, so a joined turn shows as a hit of its own.
APART = replace(KEYWORD, name="apart", window_merge_max_tokens=1)


def _talk(mem: Memory, thread: str = "t", metadata: dict[int, dict[str, Any]] | None = None) -> list[int]:
    items = [
        {
            "role": "user",
            "content": text,
            "user": who,
            "name": who,
            "created_at": START + timedelta(minutes=i),
            "metadata": (metadata or {}).get(i, {}),
        }
        for i, (who, text) in enumerate(TURNS)
    ]
    return [m.id for m in mem.add_messages(thread, items)]


def test_the_turn_beyond_the_best_matchs_window_is_found_too(mem: Memory) -> None:
    ids = _talk(mem)

    plain = mem.recall(QUERY, limit=5, preset=replace(APART, beyond_window=0))
    hits = mem.recall(QUERY, limit=5, preset=APART)

    assert plain[0].message_id == hits[0].message_id == ids[1]  # the match itself, first either way
    assert ids[3] not in {i for h in plain for i in h.message_ids}  # the answer: two turns on, no word matched
    (joined,) = [h for h in hits if h.message_id == ids[3]]
    assert joined.retrievers == ("nearby",)  # found by no retriever
    assert joined.message_ids == (ids[3], ids[4])  # turn 3 is in the match's window already
    assert 0 < joined.score < hits[0].score
    # Merged into the match's hit when the windows touch (the default): one hit, from the question to the answer.
    (merged, *_) = mem.recall(QUERY, limit=5, preset=KEYWORD)
    assert merged.message_ids[:4] == (ids[0], ids[1], ids[2], ids[3]) and merged.retrievers == ("keyword",)


def test_only_the_best_candidates_bring_their_neighbours_and_each_joins_once(mem: Memory) -> None:
    ids = _talk(mem)
    ids += _talk(mem, "u")  # a second thread: the same words, its turns are other ids

    one = mem.recall(QUERY, limit=10, preset=replace(APART, beyond_window=1))
    both = mem.recall(QUERY, limit=10, preset=replace(APART, beyond_window=2))

    assert len([h for h in one if h.retrievers == ("nearby",)]) == 1
    joined = [h.message_id for h in both if h.retrievers == ("nearby",)]
    assert len(joined) == len(set(joined)) == 2
    assert set(joined) == {ids[3], ids[len(TURNS) + 3]}


def test_a_turn_outside_the_scopes_time_never_joins(mem: Memory) -> None:
    ids = _talk(mem)
    until = START + timedelta(minutes=3)  # turns 0..2 only

    hits = mem.recall(QUERY, limit=5, preset=APART, until=until)

    assert hits and all(h.created_at < until for h in hits)
    assert {i for h in hits for i in h.message_ids} <= set(ids[:3])


def test_a_scope_with_a_metadata_filter_joins_no_turn(mem: Memory) -> None:
    # Only the match carries the tag: the answer beyond its window does not, and must not become a hit.
    ids = _talk(mem, metadata={1: {"topic": "health"}})

    hits = mem.recall(QUERY, limit=5, preset=APART, metadata={"topic": "health"})

    assert [h.message_id for h in hits] == [ids[1]]
    assert all(h.retrievers != ("nearby",) for h in hits)


def test_without_windows_the_next_turn_joins(mem: Memory) -> None:
    ids = _talk(mem)
    turns = replace(get_preset("turns"), name="kw-turns", retrievers=("keyword",))

    hits = mem.recall(QUERY, limit=5, preset=turns)

    assert [h.message_id for h in hits][:1] == [ids[1]]
    assert {h.message_id for h in hits if h.retrievers == ("nearby",)} == {ids[0], ids[2]}


def test_the_settings_are_checked() -> None:
    with pytest.raises(ConfigError, match="beyond_window must not be negative"):
        SearchConfig(name="bad", beyond_window=-1)
    with pytest.raises(ConfigError, match=r"beyond_window_score must be in \[0, 1\]"):
        SearchConfig(name="bad", beyond_window_score=1.5)
    assert get_preset("default").beyond_window == 10
