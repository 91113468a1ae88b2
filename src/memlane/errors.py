"""The one exception tree of memlane.

Every error the library raises on purpose is a :class:`MemlaneError`; the CLI and HTTP
edges map the subclasses to exit codes and status codes, never by matching messages::

    MemlaneError
    ├── InvalidInput        bad argument or payload; nothing was written   (HTTP 422)
    ├── NotFound            unknown thread, message, fact, summary or job  (HTTP 404)
    ├── Forbidden           the caller does not own what it tries to change (HTTP 403)
    ├── Unauthenticated     no valid credentials (unknown, revoked or expired API key) (HTTP 401)
    ├── Conflict            the request clashes with stored state           (HTTP 409)
    │   └── ModelMismatch   store was embedded with another model/dimension
    ├── ConfigError         settings or config file are unusable
    ├── StorageError        the database failed (after retries)             (HTTP 503)
    │   └── DatabaseLocked  still locked after every retry
    └── ProviderError       an LLM or embedding provider failed             (HTTP 502)
        ├── ProviderTimeout
        ├── RateLimited     429 after every retry; ``retry_after`` in seconds
        └── InvalidOutput   the model answered, but not in the expected shape
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "Conflict",
    "DatabaseLocked",
    "Forbidden",
    "InvalidInput",
    "InvalidOutput",
    "MemlaneError",
    "ModelMismatch",
    "NotFound",
    "ProviderError",
    "ProviderTimeout",
    "RateLimited",
    "StorageError",
    "Unauthenticated",
]


class MemlaneError(Exception):
    """Base class of every error memlane raises on purpose."""


class InvalidInput(MemlaneError, ValueError):
    """An argument or payload is invalid; the store was not changed."""


class NotFound(MemlaneError, LookupError):
    """The thread, message, fact, summary or job does not exist (in this agent)."""


class Forbidden(MemlaneError):
    """The acting user does not own the object it tries to read or change."""


class Unauthenticated(MemlaneError):
    """No valid credentials: the API key is missing, unknown, revoked or expired."""


class Conflict(MemlaneError):
    """The request clashes with what is stored."""


class ModelMismatch(Conflict):
    """The store holds vectors of another embedding model or dimension."""


class ConfigError(MemlaneError):
    """Settings or the config file are invalid."""


class StorageError(MemlaneError):
    """The database failed; the operation was rolled back."""


class DatabaseLocked(StorageError):
    """The database stayed locked by another writer through every retry."""


class ProviderError(MemlaneError):
    """An LLM or embedding provider failed after its retries."""


class ProviderTimeout(ProviderError):
    """The provider did not answer within the timeout."""


class RateLimited(ProviderError):
    """The provider kept answering 429."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class InvalidOutput(ProviderError):
    """The model answered, but its output did not validate against the expected model."""
