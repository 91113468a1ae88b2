"""``AsyncMemory``: the whole :class:`~memlane.Memory` API as coroutines, for asyncio bots.

It is a thin layer: every coroutine runs the one synchronous implementation in a worker thread, so the event
loop never waits on the database, the embedding model or an LLM call, and there is no second code path to
keep in step (``tests/test_async_memory.py`` compares both public surfaces, name by name and signature by
signature)::

    async with AsyncMemory("bot.db", agent="my-bot") as mem:
        await mem.add_message("general", "user", "I love Python", user="alice")
        ctx = await mem.context("general", query="What does Alice like?", user="alice")

The threads come from a pool of its own (one per core, up to 8), not from asyncio's default executor,
so a burst of memory calls does not starve other ``to_thread`` users. SQLite readers run in parallel (each
thread has its own connection); writes are serialised by the store as in the synchronous API.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import os
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, ParamSpec, TypeVar, overload

from .memory import Memory
from .memory.facade import DEFAULT
from .memory.threads import UNSET

if TYPE_CHECKING:
    from .config import Settings
    from .context import Context
    from .embeddings import Embedder
    from .llm import LLMClient
    from .memory.keys import NewApiKey
    from .pipeline.usage import BudgetStatus
    from .retrieval import SearchConfig
    from .store import Store, StoreStatus
    from .tokens import Tokenizer
    from .types import (
        ApiKey,
        Fact,
        FactChange,
        Hit,
        HitGroup,
        Job,
        Message,
        Summary,
        Thread,
        UsageDay,
        UsageTotals,
        UserRecord,
    )

__all__ = ["AsyncMemory"]

P = ParamSpec("P")
R = TypeVar("R")
# Worker threads of an AsyncMemory (wrap(max_workers=) to choose): one per core. More threads than cores only
# queue on the GIL and make the event loop wait for it (bench/async_lag.py: on 2 cores, 16 threads gave a loop
# lag p99 of 70 ms and fewer calls per second than 2 threads at 4 ms).
DEFAULT_THREADS = min(8, os.cpu_count() or 2)
_EXPORT_CHUNK = 256  # records fetched from the sync export per hop to the worker thread


class AsyncMemory:
    """:class:`~memlane.Memory` for asyncio: the same methods, names and arguments, each awaited.

    Build it with ``Memory``'s arguments, or wrap an existing ``Memory`` with :meth:`wrap` (both then share the
    store). The wrapped object is :attr:`sync`.
    """

    def __init__(
        self,
        path_or_url: str | Path | None = None,
        *,
        agent: str | None = None,
        settings: Settings | None = None,
        store: Store | None = None,
        tokenizer: Tokenizer | None = None,
        embedder: Embedder | None = DEFAULT,
        llm: LLMClient | None = DEFAULT,
        clock: Callable[[], datetime] | None = None,
        config_file: str | Path | None = None,
        check_model: bool = True,
    ) -> None:
        memory = Memory(
            path_or_url,
            agent=agent,
            settings=settings,
            store=store,
            tokenizer=tokenizer,
            embedder=embedder,
            llm=llm,
            clock=clock,
            config_file=config_file,
            check_model=check_model,
        )
        self._adopt(memory, owns=True)

    @classmethod
    def wrap(cls, memory: Memory, *, max_workers: int = DEFAULT_THREADS) -> AsyncMemory:
        """An ``AsyncMemory`` over an open ``Memory`` (closing it closes ``memory`` too)."""
        self = cls.__new__(cls)
        self._adopt(memory, owns=True, max_workers=max_workers)
        return self

    def _adopt(self, memory: Memory, *, owns: bool, max_workers: int = DEFAULT_THREADS) -> None:
        self.sync = memory
        self.agent = memory.agent
        self.settings = memory.settings
        self._owns = owns
        self._pool = ThreadPoolExecutor(
            max_workers=max_workers, thread_name_prefix="memlane-async", initializer=_yield_to_the_loop
        )

    async def _run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        loop = asyncio.get_running_loop()
        call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
        return await loop.run_in_executor(self._pool, call)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"AsyncMemory({self.sync!r})"

    # -- lifecycle ------------------------------------------------------------------------------------

    async def close(self) -> None:
        """Close the memory (and its store, if it opened it); waits for calls in flight."""
        try:
            if self._owns:
                await self._run(self.sync.close)
        finally:
            self._pool.shutdown(wait=False)

    async def for_agent(self, agent: str) -> AsyncMemory:
        """The same store, bound to another agent (see :meth:`Memory.for_agent`)."""
        return AsyncMemory.wrap(await self._run(self.sync.for_agent, agent))

    async def run_jobs(self, timeout: float | None = 60.0) -> int:
        return await self._run(self.sync.run_jobs, timeout)

    async def flush(self, timeout: float | None = None) -> bool:
        return await self._run(self.sync.flush, timeout)

    async def count_tokens(self, text: str) -> int:
        return await self._run(self.sync.count_tokens, text)

    # -- threads and messages -------------------------------------------------------------------------

    async def add_message(
        self,
        thread: str,
        role: str,
        content: str | None,
        *,
        user: str | None = None,
        name: str | None = None,
        tool_calls: list[dict[str, Any]] | str | None = None,
        tool_call_id: str | None = None,
        created_at: datetime | str | None = None,
        metadata: Mapping[str, Any] | str | None = None,
        external_id: str | None = None,
    ) -> Message:
        return await self._run(
            self.sync.add_message,
            thread,
            role,
            content,
            user=user,
            name=name,
            tool_calls=tool_calls,
            tool_call_id=tool_call_id,
            created_at=created_at,
            metadata=metadata,
            external_id=external_id,
        )

    async def edit_message(self, thread: str, message_id: int, content: str) -> Message:
        return await self._run(self.sync.edit_message, thread, message_id, content)

    async def user(self, user: str) -> UserRecord:
        return await self._run(self.sync.user, user)

    async def set_user(
        self, user: str, *, persona: str | None = UNSET, custom_context: str | None = UNSET
    ) -> UserRecord:
        return await self._run(self.sync.set_user, user, persona=persona, custom_context=custom_context)

    async def external_message(self, thread: str, external_id: str) -> Message | None:
        return await self._run(self.sync.external_message, thread, external_id)

    async def add_messages(self, thread: str, items: Iterable[Mapping[str, Any]]) -> list[Message]:
        return await self._run(self.sync.add_messages, thread, list(items))

    async def add_to_threads(self, messages: Mapping[str, Iterable[Mapping[str, Any]]]) -> dict[str, list[Message]]:
        # Lists made here, on the loop's thread, as add_messages does: a generator is read before the worker runs.
        given = {key: list(items) for key, items in messages.items()} if isinstance(messages, Mapping) else messages
        return await self._run(self.sync.add_to_threads, given)

    async def history(
        self, thread: str, limit: int | None = None, *, before: int | None = None, after: int | None = None
    ) -> list[Message]:
        return await self._run(self.sync.history, thread, limit, before=before, after=after)

    async def thread(self, thread: str) -> Thread:
        return await self._run(self.sync.thread, thread)

    async def threads(
        self, user: str | None = None, *, status: str | None = None, limit: int | None = None, offset: int = 0
    ) -> list[Thread]:
        return await self._run(self.sync.threads, user, status=status, limit=limit, offset=offset)

    async def set_thread(
        self, thread: str, *, system_prompt: str | None = None, metadata: Mapping[str, Any] | str | None = None
    ) -> Thread:
        return await self._run(self.sync.set_thread, thread, system_prompt=system_prompt, metadata=metadata)

    async def user_thread(self, thread: str, user: str, *, manage: bool = False, must_exist: bool = False) -> str:
        return await self._run(self.sync.user_thread, thread, user, manage=manage, must_exist=must_exist)

    async def message(self, thread: str, message_id: int) -> Message:
        return await self._run(self.sync.message, thread, message_id)

    async def reset(self, thread: str) -> int:
        return await self._run(self.sync.reset, thread)

    async def delete_thread(self, thread: str) -> None:
        await self._run(self.sync.delete_thread, thread)

    async def end(self, thread: str) -> Thread:
        return await self._run(self.sync.end, thread)

    async def delete_messages(self, thread: str, ids: Iterable[int]) -> int:
        return await self._run(self.sync.delete_messages, thread, list(ids))

    async def prune(self, older_than_days: float) -> int:
        return await self._run(self.sync.prune, older_than_days)

    async def prune_messages(self, older_than_days: float, *, thread: str | None = None) -> int:
        return await self._run(self.sync.prune_messages, older_than_days, thread=thread)

    # -- facts ----------------------------------------------------------------------------------------

    async def remember(
        self,
        content: str,
        *,
        user: str | None = None,
        category: str = "fact",
        importance: int = 3,
        visibility: str | None = None,
        subject: str | None = None,
        metadata: Mapping[str, Any] | str | None = None,
        thread: str | None = None,
    ) -> Fact:
        return await self._run(
            self.sync.remember,
            content,
            user=user,
            category=category,
            importance=importance,
            visibility=visibility,
            subject=subject,
            metadata=metadata,
            thread=thread,
        )

    async def fact(self, fact_id: int) -> Fact:
        return await self._run(self.sync.fact, fact_id)

    async def facts(
        self,
        user: str | None = None,
        *,
        subject: str | None = None,
        category: str | None = None,
        visibility: str | None = None,
        thread: str | None = None,
        all_users: bool = False,
        include_superseded: bool = False,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Fact]:
        return await self._run(
            self.sync.facts,
            user,
            subject=subject,
            category=category,
            visibility=visibility,
            thread=thread,
            all_users=all_users,
            include_superseded=include_superseded,
            limit=limit,
            offset=offset,
        )

    async def update_fact(
        self,
        fact_id: int,
        *,
        content: str | None = None,
        category: str | None = None,
        importance: int | None = None,
        visibility: str | None = None,
        subject: str | None = None,
        metadata: Mapping[str, Any] | str | None = None,
        user: str | None = None,
    ) -> Fact:
        return await self._run(
            self.sync.update_fact,
            fact_id,
            content=content,
            category=category,
            importance=importance,
            visibility=visibility,
            subject=subject,
            metadata=metadata,
            user=user,
        )

    async def forget(self, fact_id: int, *, user: str | None = None, purge: bool = False) -> Fact:
        return await self._run(self.sync.forget, fact_id, user=user, purge=purge)

    async def forget_matching(self, text: str, *, user: str | None = None, purge: bool = False) -> list[Fact]:
        return await self._run(self.sync.forget_matching, text, user=user, purge=purge)

    async def forget_all(
        self,
        user: str | None = None,
        *,
        subject: str | None = None,
        category: str | None = None,
        thread: str | None = None,
        purge: bool = False,
    ) -> int:
        return await self._run(
            self.sync.forget_all, user, subject=subject, category=category, thread=thread, purge=purge
        )

    async def fact_history(self, fact_id: int) -> list[FactChange]:
        return await self._run(self.sync.fact_history, fact_id)

    # -- recall and context ---------------------------------------------------------------------------

    @overload
    async def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: None = None,
        min_score: float | None = None,
    ) -> list[Hit]: ...

    @overload
    async def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: Literal["thread"],
        min_score: float | None = None,
    ) -> list[HitGroup]: ...

    async def recall(
        self,
        query: str,
        *,
        user: str | None = None,
        thread: str | None = None,
        limit: int = 5,
        kinds: Sequence[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        include_superseded: bool = False,
        metadata: Mapping[str, Any] | None = None,
        preset: str | SearchConfig | None = None,
        now: datetime | None = None,
        group_by: Literal["thread"] | None = None,
        min_score: float | None = None,
    ) -> list[Hit] | list[HitGroup]:
        recall: Callable[..., list[Hit] | list[HitGroup]] = self.sync.recall
        return await self._run(
            recall,
            query,
            user=user,
            thread=thread,
            limit=limit,
            kinds=kinds,
            since=since,
            until=until,
            include_superseded=include_superseded,
            metadata=metadata,
            preset=preset,
            now=now,
            group_by=group_by,
            min_score=min_score,
        )

    async def context(
        self,
        thread: str,
        *,
        query: str | None = None,
        user: str | None = None,
        budget: int | None = None,
        system_prompt: str | None = None,
    ) -> Context:
        return await self._run(
            self.sync.context, thread, query=query, user=user, budget=budget, system_prompt=system_prompt
        )

    async def summaries(
        self, thread: str | None = None, *, kind: str | None = None, limit: int | None = None
    ) -> list[Summary]:
        return await self._run(self.sync.summaries, thread, kind=kind, limit=limit)

    # -- administration -------------------------------------------------------------------------------

    async def reindex(self, *, batch_size: int = 256, progress: Callable[[int, int], None] | None = None) -> int:
        return await self._run(self.sync.reindex, batch_size=batch_size, progress=progress)

    async def usage_totals(self, since: datetime | None = None, *, all_agents: bool = False) -> list[UsageTotals]:
        return await self._run(self.sync.usage_totals, since, all_agents=all_agents)

    async def usage_by_day(self, days: int = 14) -> list[UsageDay]:
        return await self._run(self.sync.usage_by_day, days)

    async def list_memories(self, limit: int | None = None) -> list[Summary]:
        return await self._run(self.sync.list_memories, limit)

    async def purge_memories(self) -> int:
        return await self._run(self.sync.purge_memories)

    async def delete_memory(self, memory_id: int) -> int:
        return await self._run(self.sync.delete_memory, memory_id)

    async def delete_agent(self, *, purge: bool = False) -> dict[str, int]:
        return await self._run(self.sync.delete_agent, purge=purge)

    async def status(self, *, all_agents: bool = False) -> StoreStatus:
        return await self._run(self.sync.status, all_agents=all_agents)

    # -- profiles, digests, jobs, budget (memory/agent.py) --------------------------------------------
    async def profile(self, user: str) -> str | None:
        return await self._run(self.sync.profile, user)

    async def digest(self, user: str, *, now: datetime | None = None) -> str:
        return await self._run(self.sync.digest, user, now=now)

    async def jobs(self, *, status: str | None = None, kind: str | None = None, limit: int | None = 100) -> list[Job]:
        return await self._run(self.sync.jobs, status=status, kind=kind, limit=limit)

    async def retry_job(self, job_id: int) -> Job:
        return await self._run(self.sync.retry_job, job_id)

    async def budget(self) -> BudgetStatus:
        return await self._run(self.sync.budget)

    async def memory_cap(self) -> int:
        return await self._run(self.sync.memory_cap)

    async def agents(self) -> list[str]:
        return await self._run(self.sync.agents)

    async def agent_exists(self) -> bool:
        return await self._run(self.sync.agent_exists)

    async def schema_versions(self) -> tuple[int, int]:
        return await self._run(self.sync.schema_versions)

    # -- API keys of the HTTP service (memory/keys.py) -----------------------------------------------
    async def create_api_key(
        self,
        scope: str,
        *,
        agent: str | None = None,
        user: str | None = None,
        label: str | None = None,
        expires_at: datetime | None = None,
    ) -> NewApiKey:
        return await self._run(
            self.sync.create_api_key, scope, agent=agent, user=user, label=label, expires_at=expires_at
        )

    async def api_keys(self, *, include_revoked: bool = False) -> list[ApiKey]:
        return await self._run(self.sync.api_keys, include_revoked=include_revoked)

    async def revoke_api_key(self, key_id: int) -> ApiKey:
        return await self._run(self.sync.revoke_api_key, key_id)

    async def authenticate(self, key: str) -> ApiKey:
        return await self._run(self.sync.authenticate, key)

    async def export_records(self, threads: Sequence[str] | None = None) -> AsyncIterator[dict[str, Any]]:
        """The export's records, fetched a few hundred at a time by one thread of their own (the export reads
        one database snapshot, on one connection)."""
        loop = asyncio.get_running_loop()
        reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memlane-export")
        try:
            records = await loop.run_in_executor(reader, self.sync.export_records, threads)
            while True:
                chunk = await loop.run_in_executor(reader, _take, records, _EXPORT_CHUNK)
                for record in chunk:
                    yield record
                if len(chunk) < _EXPORT_CHUNK:
                    return
        finally:
            reader.shutdown(wait=False)

    async def export(self, target: str | Path | IO[str], *, threads: Sequence[str] | None = None) -> int:
        return await self._run(self.sync.export, target, threads=threads)

    async def import_(self, source: str | Path | IO[str], *, on_conflict: str = "error") -> dict[str, int]:
        return await self._run(self.sync.import_, source, on_conflict=on_conflict)


def _yield_to_the_loop() -> None:
    """Run this worker thread at a lower CPU priority than the event loop's (Linux: a thread is a task with
    its own nice value), so that when the cores are busy the loop still wakes on time. Elsewhere a no-op."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


def _take(records: Any, n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for record in records:
        out.append(record)
        if len(out) == n:
            break
    return out
