"""Exit codes of the ``memlane`` command, one per kind of :class:`~memlane.errors.MemlaneError`.

Usage errors found by the argument parser also exit with 2, like an invalid value found by the core.
"""

from __future__ import annotations

from memlane.errors import (
    ConfigError,
    Conflict,
    Forbidden,
    InvalidInput,
    MemlaneError,
    NotFound,
    ProviderError,
    StorageError,
)

__all__ = ["EXIT_CODES", "GENERIC_ERROR", "USAGE_ERROR", "exit_code_for"]

#: Checked in order, so a subclass listed before its base wins.
EXIT_CODES: tuple[tuple[type[MemlaneError], int], ...] = (
    (InvalidInput, 2),
    (NotFound, 3),
    (Conflict, 4),
    (Forbidden, 4),
    (ConfigError, 5),
    (StorageError, 6),
    (ProviderError, 7),
)

#: Any other :class:`MemlaneError`.
GENERIC_ERROR = 1

#: A command line the parser rejects (unknown option, missing argument, bad value).
USAGE_ERROR = 2


def exit_code_for(exc: MemlaneError) -> int:
    """The process exit code for ``exc``."""
    for kind, code in EXIT_CODES:
        if isinstance(exc, kind):
            return code
    return GENERIC_ERROR
