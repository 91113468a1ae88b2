"""The global options (``--db``, ``--agent``, ``--config``, ``--json``) shared by every command."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from memlane import Memory
from memlane.errors import NotFound
from memlane.store.migrate import sqlite_file

if TYPE_CHECKING:
    from memlane import Settings

__all__ = ["CliState", "get_state", "require_store"]


@dataclass(slots=True)
class CliState:
    """What the root callback parsed; commands open the store through it."""

    db: str | None = None
    agent: str | None = None
    config: Path | None = None
    json: bool = False

    def open(
        self,
        db: str | Path | None = None,
        *,
        check_model: bool = True,
        worker: str | None = "none",
        existing: bool = False,
        reads_only: bool = False,
    ) -> Memory:
        """Open the memory the options point at (``db`` overrides ``--db``); close it when done.

        ``check_model=False`` opens a store whose vectors came from another embedding model (for reindex).
        Short commands run no background worker (``worker="none"``): queued jobs wait for ``memlane worker``,
        a long-lived process, or the next ``Memory`` with a worker thread; ``worker=None`` keeps the setting.
        ``existing=True`` is for commands that only read or change what is stored: a SQLite file that does
        not exist is an error instead of a new empty store (a mistyped ``--db``). Only writes create a store.
        ``reads_only=True`` is for commands that read rows and need no vector (history, threads, facts): the
        messages a stopped process left without their vectors stay for the next process that writes or
        recalls, so such a command never loads the embedding model.

        Raises:
            ConfigError: the settings or config file are invalid. StorageError: the store cannot be opened.
            ModelMismatch: the store was embedded with another model (unless ``check_model`` is false).
            NotFound: ``existing`` and there is no SQLite file at the location.
        """
        from memlane import load_settings  # pydantic: only for a command that opens a store

        location = db if db is not None else self.db
        # embed_behind=False: no helper embeds what a stopped process left (a command that writes nothing
        # embeds nothing either way).
        settings = load_settings(self.config, worker=worker, embed_behind=False if reads_only else None)
        if existing:
            require_store(str(location) if location is not None else settings.database_location())
        memory = Memory(location, agent=self.agent, settings=settings, check_model=check_model)
        if existing and self.agent is not None and not memory.agent_exists():
            known = ", ".join(memory.agents()) or "none yet"
            memory.close()
            raise NotFound(f"no agent {self.agent!r} in this store (check --agent; agents: {known})")
        return memory

    def location(self, settings: Settings) -> str:
        """The store the options name: ``--db``, else the ``database`` setting, else the default file."""
        return self.db if self.db is not None else settings.database_location()


def require_store(location: str) -> None:
    """Fail unless the store at ``location`` exists; PostgreSQL URLs (and ``:memory:``) are not checked.

    Raises:
        NotFound: ``location`` names a SQLite file that does not exist.
    """
    if location == ":memory:":
        return
    path = sqlite_file(location)
    if path is not None and not path.is_file():
        raise NotFound(f"there is no memlane store at {path} (check --db; commands that write, such as add, create it)")


def get_state(ctx: typer.Context) -> CliState:
    """The state the root callback stored (defaults when a command is invoked on its own)."""
    found = ctx.find_object(CliState)
    return found if found is not None else CliState()
