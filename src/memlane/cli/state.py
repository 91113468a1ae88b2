"""The global options (``--db``, ``--agent``, ``--config``, ``--json``) shared by every command."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import typer

from memlane import Memory, load_settings

__all__ = ["CliState", "get_state"]


@dataclass(slots=True)
class CliState:
    """What the root callback parsed; commands open the store through it."""

    db: str | None = None
    agent: str | None = None
    config: Path | None = None
    json: bool = False

    def open(self, db: str | Path | None = None, *, check_model: bool = True, worker: str = "none") -> Memory:
        """Open the memory the options point at (``db`` overrides ``--db``); close it when done.

        ``check_model=False`` opens a store whose vectors came from another embedding model (for reindex).
        Short commands run no background worker (``worker="none"``): queued jobs wait for ``memlane worker``,
        a long-lived process, or the next ``Memory`` with a worker thread.

        Raises:
            ConfigError: the settings or config file are invalid. StorageError: the store cannot be opened.
            ModelMismatch: the store was embedded with another model (unless ``check_model`` is false).
        """
        location = db if db is not None else self.db
        settings = load_settings(self.config, worker=worker)
        return Memory(location, agent=self.agent, settings=settings, check_model=check_model)


def get_state(ctx: typer.Context) -> CliState:
    """The state the root callback stored (defaults when a command is invoked on its own)."""
    found = ctx.find_object(CliState)
    return found if found is not None else CliState()
