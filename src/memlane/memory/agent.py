"""The agent's own memory and its bookkeeping: the part of :class:`~memlane.Memory` that lists and purges
the agent's memories (seed 001), reads users' profiles and digests, lists and retries background jobs, and
reports LLM usage. The work itself is done by :mod:`memlane.pipeline`; these methods are the one way edges
(CLI, HTTP server, clients) reach it."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, cast

from ..errors import InvalidInput, NotFound
from ..types import Job, Summary, UsageTotals
from ..validation import check_key
from .base import MemoryBase, aware, check_positive

if TYPE_CHECKING:
    from ..pipeline.usage import BudgetStatus, UsageLedger
    from .facade import Memory

__all__ = ["JOB_STATUSES", "AgentMixin"]

JOB_STATUSES = ("pending", "running", "done", "dead")


class AgentMixin(MemoryBase):
    """Agent memories (:meth:`list_memories`, :meth:`purge_memories`), :meth:`profile`, :meth:`digest`,
    :meth:`jobs` / :meth:`retry_job` and :meth:`usage_totals` / :meth:`budget`."""

    usage: UsageLedger

    # -- agent memories (seed 001) ------------------------------------------------------------------
    def list_memories(self, limit: int | None = None) -> list[Summary]:
        """The agent's memories (one per ended conversation, at most ``memory_cap``), newest first.

        Raises:
            InvalidInput: ``limit`` is not a positive integer.
        """
        from ..pipeline.memories import list_memories

        if limit is not None:
            check_positive(limit, "limit must be a positive integer")
        return list_memories(self._as_memory(), limit)

    def purge_memories(self, id: int | None = None) -> int:
        """Delete one memory (``id``) or every memory of the agent; returns how many were deleted.

        Raises:
            NotFound: ``id`` is not a memory of this agent. InvalidInput: ``id`` is not a positive integer.
        """
        from ..pipeline.memories import purge_memories

        if id is not None:
            check_positive(id, f"an id must be a positive integer, not {id!r}")
        return purge_memories(self._as_memory(), id)

    # -- what the agent knows about a user ----------------------------------------------------------
    def profile(self, user: str) -> str | None:
        """What the agent knows about ``user`` as one text (their merged profile, kept current with their
        facts), or None when nothing is known. No LLM call.

        Raises:
            InvalidInput: ``user`` is not a valid key.
        """
        from ..pipeline.profile import profile_of

        return profile_of(self._as_memory(), check_key(user, "user"))

    def digest(self, user: str, *, now: datetime | None = None) -> str:
        """The user's profile with today and the last week merged (``""`` when nothing is known). May call the
        LLM; never fails because of it (returns what exists).

        Raises:
            InvalidInput: ``user`` is not a valid key.
        """
        from ..pipeline.digests import digest_for

        return digest_for(self._as_memory(), check_key(user, "user"), None if now is None else aware(now))

    # -- background jobs ----------------------------------------------------------------------------
    def jobs(self, *, status: str | None = None, kind: str | None = None, limit: int | None = 100) -> list[Job]:
        """This agent's background jobs (dead letters included), newest first.

        Raises:
            InvalidInput: unknown ``status`` or a bad ``limit``.
        """
        if status is not None and status not in JOB_STATUSES:
            raise InvalidInput(f"status must be one of {', '.join(JOB_STATUSES)}, not {status!r}")
        if limit is not None:
            check_positive(limit, "limit must be a positive integer")
        return self.store.list_jobs(self.agent, status=status, kind=kind, limit=limit)

    def retry_job(self, job_id: int) -> Job:
        """Send one of this agent's dead (or done) jobs back to the queue, its attempts reset.

        Raises:
            NotFound: no dead or done job ``job_id`` in this agent.
        """
        check_positive(job_id, f"an id must be a positive integer, not {job_id!r}")
        mine = any(
            j.id == job_id
            for status in ("dead", "done")
            for j in self.store.list_jobs(self.agent, status=status, limit=None)
        )
        if not mine:
            raise NotFound(f"no dead or done job {job_id} in agent {self.agent!r}")
        return self.store.retry_job(job_id, self._now())

    # -- LLM usage (seed 001's energy) --------------------------------------------------------------
    def usage_totals(self, *, since: datetime | None = None) -> list[UsageTotals]:
        """This agent's LLM usage per operation (calls, failures, tokens, latency), sorted by operation;
        with ``since``, only calls at or after it (seed 001's consumption since the last poll).

        Totals span every process sharing the store when it records usage; else this process only, and
        then ``since`` cannot be answered.

        Raises:
            InvalidInput: ``since`` is not a datetime, or the store keeps no usage records to filter.
        """
        if since is None:
            return self.usage.totals(self.agent)
        if not isinstance(since, datetime):
            raise InvalidInput(f"since must be a datetime, not {type(since).__name__}")
        if self.usage.sink is None:
            raise InvalidInput("this store does not record LLM usage, so usage since a time is unknown")
        found = self.usage.sink.usage_totals(self.agent, since=aware(since))
        return sorted(found, key=lambda t: t.operation)

    def budget(self) -> BudgetStatus:
        """Where this agent stands against its LLM token budget."""
        return self.usage.budget(self.agent)

    def memory_cap(self) -> int:
        """How many memories the agent keeps at most (the ``memory_cap`` setting)."""
        from ..pipeline.memories import memory_cap

        return memory_cap(self.settings)

    def agents(self) -> list[str]:
        """Every agent with anything stored in this store."""
        return self.store.list_agents()

    # -- readiness --------------------------------------------------------------------------------
    def schema_versions(self) -> tuple[int, int]:
        """(the store's schema version, the newest this memlane knows): equal when migrations are current.

        Raises:
            StorageError: the store cannot be reached.
        """
        if self.store.backend == "postgres":
            from ..store.postgres.schema import MIGRATIONS
        else:
            from ..store.sqlite.schema import MIGRATIONS
        return self.store.schema_version(), MIGRATIONS[-1][0]

    def _as_memory(self) -> Memory:
        return cast("Memory", self)  # the pipeline takes the whole facade, which this is a part of
