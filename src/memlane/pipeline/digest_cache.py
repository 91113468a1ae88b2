"""The in-process caches of :mod:`.digests`: daily summaries, histories, merges and the latest digests.

Plain dicts behind a lock (cachetools is not a dependency), shared by every ``Memory`` of the process and
keyed by the store's location and the agent; :func:`clear_caches` empties them.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Generic, TypeVar

__all__ = [
    "CACHES",
    "TODAY_TTL",
    "DayKey",
    "DigestCaches",
    "LRUCache",
    "TTLCache",
    "clear_caches",
    "hour_bucket",
    "short_hash",
]

K = TypeVar("K")
V = TypeVar("V")

TODAY_TTL = 3600.0
"""Seconds today's daily summaries (and the latest digest of a user) are kept."""


class LRUCache(Generic[K, V]):
    """A thread-safe mapping that forgets the least recently used entry beyond ``maxsize``."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value, or None; a hit makes the entry the most recently used."""
        with self._lock:
            if key not in self._data:
                return None
            self._data.move_to_end(key)
            return self._data[key]

    def set(self, key: K, value: V) -> None:
        """Store ``value``, evicting the least recently used entry when full."""
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)


class TTLCache(Generic[K, V]):
    """An :class:`LRUCache` whose entries also expire ``ttl`` seconds after they were stored, measured
    with the ``now`` the caller passes (the memory's clock, so tests can move time)."""

    def __init__(self, maxsize: int, ttl: float) -> None:
        self.ttl = ttl
        self._lru: LRUCache[K, tuple[datetime, V]] = LRUCache(maxsize)

    def get(self, key: K, now: datetime) -> V | None:
        """The value if stored less than ``ttl`` seconds before ``now``, else None."""
        entry = self._lru.get(key)
        if entry is None or entry[0] <= now:
            return None
        return entry[1]

    def set(self, key: K, value: V, now: datetime) -> None:
        """Store ``value`` until ``now + ttl``."""
        self._lru.set(key, (now + timedelta(seconds=self.ttl), value))

    def clear(self) -> None:
        """Forget everything."""
        self._lru.clear()

    def __len__(self) -> int:
        return len(self._lru)


DayKey = tuple[str, str, str, str]
"""(store location, agent, thread, ISO date)."""


@dataclass(slots=True)
class DigestCaches:
    """Every cache of :mod:`.digests` (one process-wide instance: :data:`CACHES`)."""

    today: TTLCache[tuple[str, str, str, str, str], dict[str, str]] = field(
        default_factory=lambda: TTLCache(1024, TODAY_TTL)
    )
    days: LRUCache[DayKey, dict[str, str]] = field(default_factory=lambda: LRUCache(4096))
    history: LRUCache[tuple[str, ...], str] = field(default_factory=lambda: LRUCache(1024))
    merged: LRUCache[tuple[str, ...], str] = field(default_factory=lambda: LRUCache(1024))
    latest: TTLCache[tuple[str, str, str], tuple[str, str, str, str]] = field(
        default_factory=lambda: TTLCache(1024, TODAY_TTL)
    )
    """(location, agent, user) → (hour bucket, profile hash, digest, its text for context())."""

    def clear(self) -> None:
        """Empty every cache."""
        for cache in (self.today, self.days, self.history, self.merged, self.latest):
            cache.clear()


CACHES = DigestCaches()


def clear_caches() -> None:
    """Empty every digest cache of this process (tests; after editing history in place)."""
    CACHES.clear()


def hour_bucket(now: datetime) -> str:
    """The hour ``now`` falls in, as a cache key: ``2026-01-01T12``."""
    return now.astimezone(UTC).strftime("%Y-%m-%dT%H")


def short_hash(text: str) -> str:
    """A short, stable digest of ``text`` for cache keys."""
    return hashlib.sha256(text.encode()).hexdigest()[:24]
