"""What one server process holds: the store's root :class:`~memlane.Memory`, a bounded cache of views per
agent, the rate limiters (per key, and of failed sign-ins per client address), a short-lived cache of checked
keys, and the store's server secret (CSRF tokens and signed notices of the UI). Routes reach it through
:func:`memlane.server.auth.scoped`."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

from memlane import Memory
from memlane.errors import Unauthenticated
from memlane.memory.keys import hash_key
from memlane.types import ApiKey

from .metrics import Metrics
from .settings import ServerSettings

__all__ = ["SESSION_LABEL", "RateLimiter", "ServerState", "has_active_key"]

KEY_TTL = 2.0  # seconds a checked key is trusted before the store is asked again (revocation elsewhere)
MAX_VIEWS = 256  # per-agent views kept; the least recently used goes first
SESSION_LABEL = "ui-session:"  # label of the keys the UI mints at sign-in: "ui-session:<id of the key signed in with>"
_SECRET_META = "secret:server"  # never shown by Memory.status()


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

    def blocked(self, key: str) -> float:
        """Like :meth:`take`, but takes nothing: the seconds until ``key`` has a token again (0: it has)."""
        if self.rate <= 0:
            return 0.0
        with self._lock:
            tokens, then = self._buckets.get(key, (float(self.burst), self.clock()))
        tokens = min(float(self.burst), tokens + (self.clock() - then) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate


class ServerState:
    """The root memory (its agent is the settings' default) and cached per-agent views of the same store.

    ``open`` is decided once, at start (``ServerSettings.open``): an open server treats keyless requests as
    admin; a closed one never becomes open, whatever happens to its keys.
    """

    def __init__(self, memory: Memory, settings: ServerSettings) -> None:
        self.memory = memory
        self.settings = settings
        self.open = settings.open
        self.limiter = RateLimiter(settings.rate_limit, settings.rate_burst)
        self.failures = RateLimiter(settings.failed_auth_rate, settings.failed_auth_burst)
        self._views: OrderedDict[str, Memory] = OrderedDict()
        self._keys: dict[str, tuple[ApiKey, float]] = {}
        self._lock = threading.Lock()
        self._secret: bytes | None = None
        self.metrics = Metrics(per_agent=settings.metrics_per_agent)
        self.metrics.attach(self)

    def view(self, agent: str) -> Memory:
        """The memory of ``agent`` (sharing the store, embedder, LLM and usage ledger)."""
        if agent == self.memory.agent:
            return self.memory
        with self._lock:
            found = self._views.get(agent)
            if found is not None:
                self._views.move_to_end(agent)
                return found
        fresh = self.memory.for_agent(agent)
        with self._lock:
            found = self._views.setdefault(agent, fresh)
            while len(self._views) > MAX_VIEWS:
                self._views.popitem(last=False)
        return found

    def has_view(self, agent: str) -> bool:
        """Whether :meth:`view` has ``agent``'s memory at hand (else it makes one, which may read the store)."""
        return agent == self.memory.agent or agent in self._views

    def knows(self, secret: str) -> bool:
        """Whether :meth:`key` answers for ``secret`` without asking the store (checked less than ``KEY_TTL``
        seconds ago)."""
        cached = self._keys.get(hash_key(secret))
        return cached is not None and time.monotonic() - cached[1] < KEY_TTL

    def key(self, secret: str) -> ApiKey:
        """The active key ``secret`` is (checked against the store at most every ``KEY_TTL`` seconds).

        Raises:
            Unauthenticated: malformed, unknown, revoked or expired; or a UI session whose key is no longer
            active.
        """
        digest, now = hash_key(secret), time.monotonic()
        cached = self._keys.get(digest)
        if cached is not None and now - cached[1] < KEY_TTL:
            key = cached[0]
            if not key.active(self.memory._now()):
                raise Unauthenticated(f"API key {key.prefix}… has expired")
            return key
        key = self.memory.authenticate(secret)
        if key.label and key.label.startswith(SESSION_LABEL):
            parent = key.label.removeprefix(SESSION_LABEL)
            if not any(k.active(self.memory._now()) for k in self.memory.api_keys() if str(k.id) == parent):
                raise Unauthenticated("this session's API key was revoked or has expired: sign in again")
        if len(self._keys) > 4096:
            self._keys.clear()
        self._keys[digest] = (key, now)
        return key

    def forget_keys(self) -> None:
        """Drop the checked keys (a key was revoked through this process: no grace period for it)."""
        self._keys.clear()

    @property
    def secret(self) -> bytes:
        """The store's server secret: made once, kept in the store, so every process sharing it agrees."""
        if self._secret is None:
            store = self.memory.store
            value = store.get_meta(_SECRET_META)
            if value is None:
                store.set_meta(_SECRET_META, secrets.token_hex(32))
                value = store.get_meta(_SECRET_META)
            self._secret = bytes.fromhex(value or secrets.token_hex(32))
        return self._secret


def has_active_key(memory: Memory) -> bool:
    """Whether ``memory``'s store holds an active API key."""
    now = memory._now()
    return any(k.active(now) for k in memory.api_keys())
