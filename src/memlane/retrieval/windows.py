"""Context windows: a message hit shown with its neighbouring turns, overlapping windows merged.

A reply ("Yes, twice — in May and June!") rarely makes sense without the turn before it, and the turn
that answers a question is often the one after the best match. Showing a small window around a hit
costs a few tokens and often carries the answer. Pure functions: the thread's messages around each hit
are fetched by the caller; a turn is a full :class:`Message` or its :class:`MessageHead` (the seq numbers
and token counts are all they look at).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Generic, Protocol, TypeVar

from .rerank import MESSAGE_ITEMS, R

__all__ = ["WindowMerge", "choose_window", "merge_windows"]


class _Turn(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def token_count(self) -> int: ...


T = TypeVar("T", bound=_Turn)


def choose_window(anchor: T, nearby: Mapping[int, T], before: int, after: int, max_tokens: int) -> tuple[T, ...]:
    """The anchor and up to ``before``/``after`` neighbours (``nearby`` maps the thread's seq numbers to
    messages), nearest first, the earlier before the later at equal distance; a neighbour is skipped
    when it would take the window over ``max_tokens`` (0 = no cap) — the anchor itself always stays.
    """
    chosen = {anchor.seq: anchor}
    used = anchor.token_count
    for distance in range(1, max(before, after) + 1):
        for seq, wanted in ((anchor.seq - distance, distance <= before), (anchor.seq + distance, distance <= after)):
            neighbour = nearby.get(seq) if wanted else None
            if neighbour is None or (max_tokens and used + neighbour.token_count > max_tokens):
                continue
            chosen[seq] = neighbour
            used += neighbour.token_count
    return tuple(chosen[s] for s in sorted(chosen))


def merge_windows(found: Sequence[R], limit: int, max_tokens: int = 0) -> list[R]:
    """Up to ``limit`` hits in rank order. A message hit already shown inside a better hit's window is
    dropped; one whose window overlaps or touches a better hit's window of the same thread is merged into
    it (the merged hit keeps the better rank and score), unless the merged window would exceed
    ``max_tokens`` (0 = no cap): then it stays a hit of its own, without the turns already shown."""
    merge = WindowMerge[R](limit, max_tokens)
    for f in found:
        if merge.full:
            break
        merge.add(f)
    return merge.out


class WindowMerge(Generic[R]):
    """:func:`merge_windows` one hit at a time, for a caller that builds windows only until ``limit`` hits
    are filled (``full``); ``out`` holds the hits so far."""

    def __init__(self, limit: int, max_tokens: int = 0) -> None:
        self.limit, self.max_tokens = limit, max_tokens
        self.out: list[R] = []
        self.shown: list[set[int]] = []  # per hit in out: the seq numbers it shows
        self.of_thread: dict[str, list[int]] = {}  # per thread: its message hits' places in out, in rank order
        self.thread_shown: dict[str, set[int]] = {}  # per thread: every seq number its hits show (their union)

    @property
    def full(self) -> bool:
        return len(self.out) >= self.limit

    def add(self, f: R) -> None:
        """The next hit in rank order: kept, merged into a better one or dropped."""
        out, shown = self.out, self.shown
        if not f.window or not isinstance(f.item, MESSAGE_ITEMS):
            out.append(f)
            shown.append(set())
            return
        thread, anchor = f.item.thread, f.item.seq
        mine = self.of_thread.get(thread)
        if mine is None:  # the thread's first hit: nothing to merge with or leave out
            self.of_thread[thread] = [len(out)]
            seqs = {m.seq for m in f.window}
            out.append(f)
            shown.append(seqs)
            self.thread_shown[thread] = set(seqs)
            return
        shown_here = self.thread_shown[thread]  # the turns the thread's better hits show
        if anchor in shown_here:
            return
        touched = {m.seq + d for m in f.window for d in (-1, 0, 1)}  # the window's turns and those next to it
        # The first better hit of the thread whose turns it touches (none when it touches none of them).
        target = None if touched.isdisjoint(shown_here) else next(i for i in mine if not touched.isdisjoint(shown[i]))
        if target is not None:
            kept = out[target]
            merged = {m.seq: m for m in kept.window}
            merged.update((m.seq, m) for m in f.window)
            if not self.max_tokens or sum(m.token_count for m in merged.values()) <= self.max_tokens:
                out[target] = kept.windowed(tuple(merged[s] for s in sorted(merged)))
                shown[target] = set(merged)
                shown_here.update(merged)
                return
        window = tuple(m for m in f.window if m.seq not in shown_here)
        out.append(f if len(window) == len(f.window) else f.windowed(window))
        mine.append(len(shown))
        seqs = {m.seq for m in window}
        shown.append(seqs)
        shown_here.update(seqs)
