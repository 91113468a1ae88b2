"""What one server process holds: the store's root :class:`~memlane.Memory`, a view per agent, and the
rate limiter. Routes reach it through :func:`memlane.server.auth.scoped`."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from memlane import Memory

from .metrics import Metrics
from .settings import ServerSettings

__all__ = ["RateLimiter", "ServerState", "is_open"]


class RateLimiter:
    """A token bucket per key: ``rate`` requests a second, bursts of ``burst``; ``rate <= 0`` never limits."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, max(1, burst), clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """0 if the request may go ahead, else the seconds until it may."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate


class ServerState:
    """The root memory (its agent is the settings' default) and cached per-agent views of the same store."""

    def __init__(self, memory: Memory, settings: ServerSettings) -> None:
        self.memory = memory
        self.settings = settings
        self.limiter = RateLimiter(settings.rate_limit, settings.rate_burst)
        self._views: dict[str, Memory] = {memory.agent: memory}
        self._lock = threading.Lock()
        self.metrics = Metrics()
        self.metrics.attach(self)

    def view(self, agent: str) -> Memory:
        """The memory of ``agent`` (sharing the store, embedder, LLM and usage ledger)."""
        found = self._views.get(agent)
        if found is None:
            with self._lock:
                found = self._views.get(agent)
                if found is None:
                    found = self.memory.for_agent(agent)
                    self._views[agent] = found
        return found

    def open_mode(self) -> bool:
        """True while the store has no active API key: then every request acts as admin (loopback only)."""
        return is_open(self.memory)


def is_open(memory: Memory) -> bool:
    """Whether ``memory``'s store has no active API key (the server then runs open, on loopback only)."""
    now = memory._now()
    return not any(k.active(now) for k in memory.api_keys())
