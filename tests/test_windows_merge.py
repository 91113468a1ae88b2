"""``merge_windows`` against the plain statement of its rule (the version before the per-thread index).

What a user would notice if this broke: a turn shown twice, a window merged into the wrong hit, or hits in
another order than before an optimisation.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from memlane.retrieval import Found
from memlane.retrieval.windows import merge_windows
from memlane.types import Message

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def reference(found: Sequence[Found], limit: int, max_tokens: int = 0) -> list[Found]:
    out: list[Found] = []
    spans: list[tuple[str, set[int]]] = []
    for f in found:
        if len(out) >= limit:
            break
        if not f.window or not isinstance(f.item, Message):
            out.append(f)
            spans.append(("", set()))
            continue
        thread, anchor = f.item.thread, f.item.seq
        if any(t == thread and anchor in shown for t, shown in spans):
            continue
        seqs = {m.seq for m in f.window}
        target = next(
            (
                i
                for i, (t, shown) in enumerate(spans)
                if t == thread and any(s + d in shown for s in seqs for d in (-1, 0, 1))
            ),
            None,
        )
        if target is not None:
            merged = {m.seq: m for m in (*out[target].window, *f.window)}
            if not max_tokens or sum(m.token_count for m in merged.values()) <= max_tokens:
                kept = out[target]
                window = tuple(merged[s] for s in sorted(merged))
                out[target] = Found(kept.kind, kept.id, kept.score, kept.source, kept.item, window)
                spans[target] = (thread, set(merged))
                continue
        shown_here = set().union(*(shown for t, shown in spans if t == thread))
        window = tuple(m for m in f.window if m.seq not in shown_here)
        out.append(Found(f.kind, f.id, f.score, f.source, f.item, window))
        spans.append((thread, {m.seq for m in window}))
    return out


def turn(thread: str, seq: int, tokens: int) -> Message:
    mid = (ord(thread) << 16) + seq
    return Message(mid, "a", thread, seq, "user", f"{thread}{seq}", None, None, None, None, tokens, {}, NOW)


@st.composite
def hits(draw: st.DrawFn) -> list[Found]:
    tokens = draw(st.lists(st.integers(1, 40), min_size=60, max_size=60))
    out: list[Found] = []
    for rank in range(draw(st.integers(0, 25))):
        if draw(st.integers(0, 9)) == 0:  # a fact: no window
            out.append(Found("fact", rank, 1.0 - rank / 100, "keyword", turn("f", rank, 1)))
            continue
        thread = draw(st.sampled_from("xyz"))
        seq = draw(st.integers(1, 20))
        before, after = draw(st.integers(0, 2)), draw(st.integers(0, 2))
        base = "xyz".index(thread) * 20
        window = tuple(
            turn(thread, s, tokens[base + s - 1]) for s in range(max(1, seq - before), min(20, seq + after) + 1)
        )
        anchor = next(m for m in window if m.seq == seq)
        out.append(Found("message", anchor.id, 1.0 - rank / 100, "keyword", anchor, window))
    return out


def shape(found: Sequence[Found]) -> list[tuple[str, int, float, tuple[int, ...]]]:
    return [(f.kind, f.id, f.score, tuple(m.id for m in f.window)) for f in found]


@given(hits(), st.integers(1, 12), st.sampled_from([0, 30, 80, 200]))
def test_merge_windows_keeps_the_rule(found: list[Found], limit: int, max_tokens: int) -> None:
    assert shape(merge_windows(found, limit, max_tokens)) == shape(reference(found, limit, max_tokens))
