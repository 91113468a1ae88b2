"""API keys: the part of :class:`~memlane.Memory` that creates, lists, revokes and checks the credentials of
the HTTP server (``memlane serve``). Keys belong to the store, not to one agent.

A key is 32 random bytes (``ml_`` + URL-safe text) shown once when created; the store keeps only its
SHA-256, which is enough for a high-entropy random secret (no password hashing needed), and its first
characters to tell keys apart in listings. A key has one scope:

    admin   every agent, and key management
    agent   one agent, acting for any of its users (a bot's backend)
    user    one agent and one user: only what that user may see and change
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from ..errors import InvalidInput, Unauthenticated
from ..types import KEY_SCOPES, ApiKey
from ..validation import check_optional_key
from .base import MemoryBase, aware, check_positive

__all__ = ["KEY_PREFIX", "KeysMixin", "NewApiKey", "hash_key"]

KEY_PREFIX = "ml_"
_SHOWN = 10  # characters of a key kept in clear to tell keys apart ("ml_" + 7)


@dataclass(frozen=True, slots=True)
class NewApiKey:
    """A key just created: its stored record and the secret itself (shown this once, never stored)."""

    record: ApiKey
    key: str


def hash_key(key: str) -> str:
    """The SHA-256 (hex) a key is stored and looked up by."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class KeysMixin(MemoryBase):
    """:meth:`create_api_key`, :meth:`api_keys`, :meth:`revoke_api_key` and :meth:`authenticate`."""

    def create_api_key(
        self,
        scope: str,
        *,
        agent: str | None = None,
        user: str | None = None,
        label: str | None = None,
        expires_at: datetime | None = None,
    ) -> NewApiKey:
        """Create an API key of ``scope`` "admin" (no agent, no user), "agent" (``agent``) or "user"
        (``agent`` and ``user``). The returned ``key`` is the only copy of the secret.

        Raises:
            InvalidInput: unknown scope, or the agent/user do not fit it.

        Example:
            >>> new = mem.create_api_key("agent", agent="my-bot", label="bot backend")
            >>> new.key.startswith("ml_"), new.record.scope
            (True, 'agent')
        """
        if scope not in KEY_SCOPES:
            raise InvalidInput(f"scope must be one of {', '.join(KEY_SCOPES)}, not {scope!r}")
        agent, user = check_optional_key(agent, "agent"), check_optional_key(user, "user")
        if scope == "admin" and (agent is not None or user is not None):
            raise InvalidInput("an admin key has no agent or user")
        if scope == "agent" and (agent is None or user is not None):
            raise InvalidInput("an agent key needs an agent and no user")
        if scope == "user" and (agent is None or user is None):
            raise InvalidInput("a user key needs an agent and a user")
        if label is not None and (not isinstance(label, str) or len(label) > 200):
            raise InvalidInput("label must be text of at most 200 characters")
        if expires_at is not None and not isinstance(expires_at, datetime):
            raise InvalidInput("expires_at must be a datetime")
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        record = self.store.create_api_key(
            hash_key(key),
            key[:_SHOWN],
            scope,
            agent=agent,
            user=user,
            label=label,
            now=self._now(),
            expires_at=None if expires_at is None else aware(expires_at),
        )
        return NewApiKey(record, key)

    def api_keys(self, *, include_revoked: bool = False) -> list[ApiKey]:
        """Every API key of the store (never the secrets), oldest first.

        Example:
            >>> _ = mem.create_api_key("agent", agent="my-bot", label="bot backend")
            >>> [(k.scope, k.agent, k.label) for k in mem.api_keys()]
            [('agent', 'my-bot', 'bot backend')]
        """
        return self.store.list_api_keys(include_revoked=include_revoked)

    def revoke_api_key(self, key_id: int) -> ApiKey:
        """Revoke a key: from now on it authenticates nothing.

        Raises:
            NotFound: no such key. InvalidInput: ``key_id`` is not a positive integer.

        Example:
            >>> new = mem.create_api_key("admin")
            >>> mem.revoke_api_key(new.record.id).revoked_at is not None
            True
        """
        check_positive(key_id, f"a key id must be a positive integer, not {key_id!r}")
        return self.store.revoke_api_key(key_id, self._now())

    def authenticate(self, key: str) -> ApiKey:
        """The active key ``key`` is.

        Raises:
            Unauthenticated: the key is malformed, unknown, revoked or expired.

        Example:
            >>> new = mem.create_api_key("user", agent="my-bot", user="alice")
            >>> mem.authenticate(new.key).user
            'alice'
        """
        if not isinstance(key, str) or not key.startswith(KEY_PREFIX) or len(key) > 200:
            raise Unauthenticated("not a memlane API key")
        # Looked up by its SHA-256: what the lookup's timing could reveal is about the hash of the key sent,
        # never the stored secret, so no separate constant-time comparison is needed (or meaningful).
        found = self.store.api_key_by_hash(hash_key(key))
        if found is None:
            raise Unauthenticated("unknown API key")
        if found.revoked_at is not None:
            raise Unauthenticated(f"API key {found.prefix}… was revoked")
        if not found.active(self._now()):
            raise Unauthenticated(f"API key {found.prefix}… has expired")
        return found
