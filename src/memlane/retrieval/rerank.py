"""Re-ranking steps: pure functions over found items (fused candidates with their stored records).

Each boost adds ``weight * signal * best score`` to an item's fused score (signal in [0, 1]) and returns
the items re-sorted, best first; a weight of 0 changes nothing. The steps take :class:`Found` items (full
records, what a search returns) or :class:`Ranked` ones (a message's light :class:`MessageHead`, what a
search ranks by before it reads the turns it shows) and return items of the kind they were given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import attrgetter
from typing import TypeVar

from ..types import Fact, Message, MessageHead, Summary, fast_init
from .timeparse import TimeRange

__all__ = [
    "FIRST_PERSON",
    "Found",
    "Ranked",
    "boost",
    "boost_importance",
    "boost_neighbours",
    "boost_recency",
    "boost_speaker",
    "boost_time",
    "dedup",
    "query_words",
    "without_repeated_profiles",
    "words",
]

_WORD = re.compile(r"\w+", re.UNICODE)
_score = attrgetter("score")
#: What a message item is: the full message or its light part.
MESSAGE_ITEMS = (Message, MessageHead)


def _names(item: Message | MessageHead | Fact | Summary) -> tuple[str, ...]:
    """Who an item is by or about (spelled out: the speaker boost asks this of every candidate)."""
    if isinstance(item, MessageHead) or isinstance(item, Message):  # noqa: SIM101  # the usual case first
        name, user = item.name, item.user
        if name:
            return (name, user) if user else (name,)
        return (user,) if user else ()
    if isinstance(item, Fact):
        return tuple(n for n in (item.owner, item.subject) if n)
    return (item.owner,) if item.owner else ()


@fast_init
@dataclass(frozen=True, slots=True)
class Found:
    """A ranked search result with its stored record; ``window`` holds the messages a message hit shows
    (itself and its neighbours, in thread order), empty when no window was asked for."""

    kind: str
    id: int
    score: float
    source: str
    item: Message | Fact | Summary
    window: tuple[Message, ...] = ()

    @property
    def created_at(self) -> datetime:
        return self.item.created_at

    @property
    def text(self) -> str:
        return self.item.content

    def names(self) -> tuple[str, ...]:
        """Who the item is by or about: a message's speaker, a fact's owner and subject, a summary's owner."""
        return _names(self.item)

    def rescored(self, score: float) -> Found:
        return Found(self.kind, self.id, score, self.source, self.item, self.window)

    def windowed(self, window: tuple[Message, ...]) -> Found:
        return Found(self.kind, self.id, self.score, self.source, self.item, window)


@fast_init
@dataclass(frozen=True, slots=True)
class Ranked:
    """A fused candidate while a search ranks it: like :class:`Found`, but a message may be only its
    :class:`MessageHead` (its place, speaker, time and size), in the item and in the window. The boosts and
    the windows need no more; the search then reads in full only the turns it shows and returns them as
    :class:`Found`. A message is a full :class:`Message` here where the search read it anyway (the turns
    of a window the candidates did not hold) or needs its text (:func:`dedup`)."""

    kind: str
    id: int
    score: float
    source: str
    item: Message | MessageHead | Fact | Summary
    window: tuple[Message | MessageHead, ...] = ()

    @property
    def created_at(self) -> datetime:
        return self.item.created_at

    @property
    def text(self) -> str:
        """The item's text. Raises ValueError for a message read as its head only."""
        item = self.item
        if isinstance(item, MessageHead):
            raise ValueError(f"message {item.id} was read without its text (a MessageHead)")
        return item.content

    def names(self) -> tuple[str, ...]:
        """As :meth:`Found.names`."""
        return _names(self.item)

    def rescored(self, score: float) -> Ranked:
        return Ranked(self.kind, self.id, score, self.source, self.item, self.window)

    def windowed(self, window: tuple[Message | MessageHead, ...]) -> Ranked:
        return Ranked(self.kind, self.id, self.score, self.source, self.item, window)


#: The steps take either kind of item and return the kind they were given.
R = TypeVar("R", Found, Ranked)


def words(text: str) -> set[str]:
    """The lower-cased words of ``text``."""
    return set(_WORD.findall(text.lower()))


def query_words(query: str) -> set[str]:
    """The words of a query (the set :func:`boost_speaker` matches names against)."""
    return words(query)


def boost(found: Sequence[R], weight: float, signal: Callable[[R], float]) -> list[R]:
    """Each score raised by ``weight * signal(item)`` times the best score, re-sorted best first (stable).

    Relative to the best score, so a boost means the same under any fusion; added rather than
    multiplied, so an item at the bottom of a normalised list (score 0) can still rise.
    """
    if weight == 0 or not found:
        return list(found)
    top = max(map(_score, found))
    unit = top if top > 0 else 1.0
    scored = []
    for f in found:
        lift = signal(f)
        # Most items get no lift: they are kept as they are rather than copied (a search boosts a few
        # dozen items several times over; dataclasses.replace was ~1 ms of a context() call).
        scored.append(f if lift == 0 else f.rescored(f.score + unit * weight * lift))
    return sorted(scored, key=_score, reverse=True)  # stable in reverse too: ties keep their order


def _name_in(query: set[str], name: str) -> bool:
    parts = [p for p in _WORD.findall(name.lower()) if len(p) > 1]
    return bool(parts) and (all(p in query for p in parts) or parts[0] in query)


#: Words by which a query names the one asking ("any tips for my baking?").
FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"})


def boost_speaker(found: Sequence[R], query: set[str], weight: float, asker: str | None = None) -> list[R]:
    """Favour items by or about someone the query names ("what did Ana say about ..."); a query in the first
    person ("any tips for my weekend baking?") names ``asker``, the user the search is for."""
    # A search's candidates share a handful of names: each is matched against the query once.
    named: dict[str, bool] = {}
    if asker is not None and not query.isdisjoint(FIRST_PERSON):
        named[asker] = True

    def signal(f: R) -> float:
        for name in f.names():
            hit = named.get(name)
            if hit is None:
                hit = named[name] = _name_in(query, name)
            if hit:
                return 1.0
        return 0.0

    return boost(found, weight, signal)


def boost_time(found: Sequence[R], when: TimeRange | None, weight: float, slack_days: float = 0.0) -> list[R]:
    """Favour items created in the time the query names (the range extended by ``slack_days`` after its
    end: people mention events after they happened)."""
    if when is None:
        return list(found)
    end = when.end + timedelta(days=slack_days)
    return boost(found, weight, lambda f: float(when.start <= f.created_at < end))


def boost_recency(found: Sequence[R], now: datetime, weight: float, half_life_days: float) -> list[R]:
    """Favour recent items: the signal halves every ``half_life_days`` of age."""

    def fresh(f: R) -> float:
        age = max((now - f.created_at).total_seconds() / 86400.0, 0.0)
        return float(0.5 ** (age / half_life_days))

    return boost(found, weight, fresh)


def boost_importance(found: Sequence[R], weight: float) -> list[R]:
    """Favour important facts: importance 1..5 maps to a signal 0..1 (other kinds get the neutral 0.5)."""
    return boost(found, weight, lambda f: (f.item.importance - 1) / 4 if isinstance(f.item, Fact) else 0.5)


def dedup(found: Sequence[R], threshold: float) -> list[R]:
    """Drop items whose words overlap a better item's by at least ``threshold`` (Jaccard); at 1.0 only
    items with the very same words go."""
    kept: list[R] = []
    seen: list[set[str]] = []
    for f in found:
        mine = words(f.text)
        if any(mine == other or (mine and len(mine & other) / len(mine | other) >= threshold) for other in seen):
            continue
        kept.append(f)
        seen.append(mine)
    return kept


def boost_neighbours(found: Sequence[R], weight: float, radius: int = 3, decay: float = 0.7) -> list[R]:
    """Favour messages near other good matches of the same thread: a question and its answer, a story
    told over several turns. The signal is the best score of a message at most ``radius`` turns away,
    discounted by ``decay`` for each turn beyond the first, over the best score."""
    if weight == 0 or not found:
        return list(found)
    # Scores by thread, then seq: int probes into a small dict, no tuple built per probe.
    at: dict[str, dict[int, float]] = {}
    for f in found:
        if isinstance(f.item, MESSAGE_ITEMS):
            at.setdefault(f.item.thread, {})[f.item.seq] = f.score
    top = max(map(_score, found)) or 1.0
    factors = [(d, decay ** (d - 1)) for d in range(1, radius + 1)]

    def signal(f: R) -> float:
        item = f.item
        if not isinstance(item, MESSAGE_ITEMS):
            return 0.0
        score_at, seq = at[item.thread].get, item.seq
        best = 0.0
        for d, factor in factors:  # max() spelled out: its calls cost more than the comparisons
            before, after = score_at(seq - d, 0.0), score_at(seq + d, 0.0)
            near = factor * (before if before >= after else after)
            if near > best:
                best = near
        return best / top

    return boost(found, weight, signal)


def without_repeated_profiles(found: Sequence[Found]) -> list[Found]:
    """The results less a user's profile (a thread-less summary of kind "profile", merged from their facts,
    its metadata listing the facts it covers) that only repeats a fact found beside it: next to one of its
    facts it says nothing the fact does not, and it would take a place (and the top score) from the fact."""
    facts = {str(f.id) for f in found if f.kind == "fact"}
    if not facts:
        return list(found)
    kept = []
    for f in found:
        item = f.item
        covered = item.metadata.get("covered") if isinstance(item, Summary) and item.kind == "profile" else None
        if isinstance(covered, dict) and facts.intersection(covered):
            continue
        kept.append(f)
    return kept
