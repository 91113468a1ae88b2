"""The pipeline's dispatcher: collects the hooks of its step modules and routes jobs to their handlers.

A step module may define any of::

    HANDLERS: dict[str, Handler]                                     job kind -> handler(pipeline, job)
    def after_messages(pipeline, thread, items) -> list[NewJob]      jobs caused by new messages
    def after_end(pipeline, thread) -> list[NewJob]                  jobs caused by Memory.end()
    def after_fact_change(pipeline, user) -> list[NewJob]            jobs caused by remember/update/forget
    def context_sections(pipeline, thread, user, query) -> list[Section]   extra sections for context()
    def stated_facts(pipeline, thread, items) -> list[StatedFact]   facts stored with new messages
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..context import Section
from ..errors import InvalidInput
from ..store.base import StatedFact
from ..types import Job
from ..validation import NewJob, NewMessage

if TYPE_CHECKING:
    from ..memory import Memory

__all__ = ["Handler", "Pipeline", "Section"]

Handler = Callable[["Pipeline", Job], None]


def _steps() -> list[ModuleType]:
    from . import digests, memories, profile, stated, summarize

    return [stated, summarize, profile, digests, memories]


class Pipeline:
    """The pipeline of one :class:`~memlane.Memory` (one agent)."""

    def __init__(self, memory: Memory) -> None:
        self.memory = memory
        self._steps: list[ModuleType] | None = None
        self._handlers: dict[str, Handler] | None = None

    @property
    def steps(self) -> list[ModuleType]:
        """The step modules, imported on first use (a process that only reads never loads them)."""
        if self._steps is None:
            self._steps = _steps()
        return self._steps

    @steps.setter
    def steps(self, steps: list[ModuleType]) -> None:
        self._steps = steps

    @property
    def handlers(self) -> dict[str, Handler]:
        """Job kind -> the handler of the step that runs it."""
        if self._handlers is None:
            handlers: dict[str, Handler] = {}
            for step in self.steps:
                handlers.update(getattr(step, "HANDLERS", {}))
            self._handlers = handlers
        return self._handlers

    @handlers.setter
    def handlers(self, handlers: dict[str, Handler]) -> None:
        self._handlers = handlers

    def _collect(self, hook: str, *args: Any) -> list[Any]:
        out: list[Any] = []
        for step in self.steps:
            fn = getattr(step, hook, None)
            if fn is not None:
                out.extend(fn(self, *args))
        return out

    def after_messages(self, thread: str, items: Sequence[NewMessage]) -> list[NewJob]:
        """Jobs to queue with new messages."""
        return self._collect("after_messages", thread, items)

    def stated_facts(self, thread: str, items: Sequence[NewMessage]) -> list[StatedFact]:
        """Facts the messages about to be written state, to store in the same transaction."""
        return self._collect("stated_facts", thread, items)

    def after_end(self, thread: str) -> list[NewJob]:
        """Jobs to queue when a conversation ends."""
        return self._collect("after_end", thread)

    def after_fact_change(self, user: str | None) -> list[NewJob]:
        """Jobs to queue when a user's facts change."""
        return self._collect("after_fact_change", user)

    def context_sections(self, thread: str, user: str | None, query: str | None) -> list[Section]:
        """Extra sections for ``context()``, in order."""
        return self._collect("context_sections", thread, user, query)

    def run_job(self, job: Job) -> None:
        """Run one job with its handler (the caller owns leasing, retries and failure recording).

        Raises:
            InvalidInput: no handler for the job's kind.
        """
        handler = self.handlers.get(job.kind)
        if handler is None:
            raise InvalidInput(f"no handler for job kind {job.kind!r}")
        handler(self, job)
