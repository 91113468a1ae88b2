"""The agent's bookkeeping: the part of :class:`~memlane.Memory` that reads users' profiles and digests,
lists and retries background jobs, and reports the LLM budget and schema versions. The work itself is done
by :mod:`memlane.pipeline`; these methods are the one way edges (CLI, HTTP server, clients) reach it."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, cast

from ..errors import InvalidInput, NotFound
from ..types import Job
from ..validation import check_key
from .base import MemoryBase, aware, check_positive

if TYPE_CHECKING:
    from ..pipeline.usage import BudgetStatus, UsageLedger
    from .facade import Memory

__all__ = ["JOB_STATUSES", "AgentMixin"]

JOB_STATUSES = ("pending", "running", "done", "dead")


class AgentMixin(MemoryBase):
    """:meth:`profile`, :meth:`digest`, :meth:`jobs` / :meth:`retry_job`, :meth:`budget`, :meth:`memory_cap`,
    :meth:`agents` and :meth:`schema_versions`."""

    usage: UsageLedger

    # -- what the agent knows about a user ----------------------------------------------------------
    def profile(self, user: str) -> str | None:
        """What the agent knows about ``user`` as one text (their merged profile, kept current with their
        facts), or None when nothing is known. No LLM call.

        Raises:
            InvalidInput: ``user`` is not a valid key.

        Example:
            >>> print(mem.profile("alice"))
            - Alice loves hiking in the Alps
        """
        from ..pipeline.profile import profile_of

        return profile_of(self._as_memory(), check_key(user, "user"))

    def digest(self, user: str, *, now: datetime | None = None) -> str:
        """The user's profile with today and the last week merged (``""`` when nothing is known). May call the
        LLM; never fails because of it (returns what exists).

        Raises:
            InvalidInput: ``user`` is not a valid key.

        Example:
            >>> print(mem.digest("alice"))
            - Alice loves hiking in the Alps
            Today: Alice: Hi, I'm Alice. I love hiking in the Alps.
        """
        from ..pipeline.digests import digest_for

        return digest_for(self._as_memory(), check_key(user, "user"), None if now is None else aware(now))

    # -- background jobs ----------------------------------------------------------------------------
    def jobs(self, *, status: str | None = None, kind: str | None = None, limit: int | None = 100) -> list[Job]:
        """This agent's background jobs (dead letters included), newest first.

        Raises:
            InvalidInput: unknown ``status`` or a bad ``limit``.

        Example:
            >>> _ = mem.end("general")
            >>> sorted(job.kind for job in mem.jobs(status="pending"))
            ['memory', 'profile', 'summarize']
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

        Example:
            >>> _ = mem.end("general")
            >>> _ = mem.run_jobs()
            >>> done = mem.jobs(status="done")[0]
            >>> mem.retry_job(done.id).status
            'pending'
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

    def budget(self) -> BudgetStatus:
        """Where this agent stands against its LLM token budget.

        Example:
            >>> budget = mem.budget()
            >>> budget.limit, budget.low
            (0, False)
        """
        return self.usage.budget(self.agent)

    def memory_cap(self) -> int:
        """How many memories the agent keeps at most (the ``memory_cap`` setting).

        Example:
            >>> mem.memory_cap()
            10
        """
        from ..pipeline.memories import memory_cap

        return memory_cap(self.settings)

    def agents(self) -> list[str]:
        """Every agent with anything stored in this store.

        Example:
            >>> mem.agents()
            ['my-bot']
        """
        return self.store.list_agents()

    def agent_exists(self) -> bool:
        """Whether this agent is known to the store: it has something stored, or an API key of its own. Reads
        of an unknown agent are a mistyped name to the CLI and the service (NotFound), not an empty memory.

        Example:
            >>> mem.agent_exists()
            True
            >>> mem.for_agent("nosuchbot").agent_exists()
            False
        """
        return self.agent in self.store.list_agents() or any(k.agent == self.agent for k in self.store.list_api_keys())

    # -- readiness --------------------------------------------------------------------------------
    def schema_versions(self) -> tuple[int, int]:
        """(the store's schema version, the newest this memlane knows): equal when migrations are current.

        Raises:
            StorageError: the store cannot be reached.

        Example:
            >>> current, newest = mem.schema_versions()
            >>> current == newest
            True
        """
        if self.store.backend == "postgres":
            from ..store.postgres.schema import MIGRATIONS
        else:
            from ..store.sqlite.schema import MIGRATIONS
        return self.store.schema_version(), MIGRATIONS[-1][0]

    def _as_memory(self) -> Memory:
        return cast("Memory", self)  # the pipeline takes the whole facade, which this is a part of
