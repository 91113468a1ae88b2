"""API keys: made here, stored only as a SHA-256 hash (a key is 32 random bytes, so a plain hash is enough),
and resolved into a :class:`Principal` that says which agent and user a request may act for."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from ..errors import InvalidInput
from ..store import Store
from ..types import ApiKey

__all__ = ["SCOPES", "Principal", "create_key", "hash_key"]

SCOPES = ("admin", "agent", "user")
PREFIX = "mlk_"


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a request is: an admin (every agent), an agent (one agent, any of its users) or one user."""

    scope: str
    agent: str | None = None
    user: str | None = None
    key_id: int | None = None

    def may_use(self, agent: str) -> bool:
        return self.scope == "admin" or self.agent == agent


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def create_key(
    store: Store, scope: str, *, agent: str | None = None, user: str | None = None, label: str | None = None
) -> tuple[str, ApiKey]:
    """Make a new key; returns it (shown once, never stored) and its stored record.

    Raises:
        InvalidInput: a scope without the agent/user it needs, or with one it must not have.
    """
    if scope not in SCOPES:
        raise InvalidInput(f"scope must be one of {', '.join(SCOPES)}")
    if scope == "admin" and (agent or user):
        raise InvalidInput("an admin key is for every agent: give no agent or user")
    if scope in ("agent", "user") and not agent:
        raise InvalidInput(f"a {scope} key needs an agent")
    if scope == "user" and not user:
        raise InvalidInput("a user key needs a user")
    if scope == "agent" and user:
        raise InvalidInput("an agent key acts for any user of its agent: give no user (or make a user key)")
    key = PREFIX + secrets.token_urlsafe(32)
    record = store.add_api_key(hash_key(key), scope, agent, user, label, datetime.now(UTC))
    return key, record
