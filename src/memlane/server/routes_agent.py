"""The agent's own memory and bookkeeping: the admin endpoints of its memories, profiles and digests,
jobs, LLM usage, export / import and status. Thin calls to the facade."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import StreamingResponse

from memlane.errors import InvalidInput
from memlane.store import StoreStatus
from memlane.types import Job, Summary, UsageDay

from .auth import Scoped, scoped
from .schemas import PROBLEMS, Deleted, MemoryOut

__all__ = ["memory_out", "router"]

router = APIRouter(prefix="/v1/agents/{agent}", tags=["agent"], responses=PROBLEMS)
Scope = Annotated[Scoped, Depends(scoped)]
UserKey = Annotated[str, Path(min_length=1, max_length=200, pattern=r"^[^\s/]+$")]
Id = Annotated[int, Path(ge=1, le=2**62)]
JSONL = "application/x-ndjson"


def memory_out(s: Summary) -> MemoryOut:
    """A memory as the admin endpoints show it: ``updatedAt`` is when a compaction last rewrote it."""
    updated = s.metadata.get("updated_at")
    try:
        updated_at = datetime.fromisoformat(updated) if isinstance(updated, str) else s.created_at
    except ValueError:
        updated_at = s.created_at
    return MemoryOut(
        id=s.id,
        content=s.content,
        createdAt=s.created_at,
        updatedAt=updated_at,
        sourceConversationId=s.thread,
        metadata=s.metadata,
        summary=s,
    )


@router.get("/memories", summary="List the agent's memories, newest first")
def list_memories(s: Scope, limit: Annotated[int | None, Query(ge=1, le=10_000)] = None) -> dict[str, list[MemoryOut]]:
    s.require_agent_level()
    return {"memories": [memory_out(m) for m in s.memory.list_memories(limit)]}


@router.delete("/memories", summary="Purge every memory of the agent")
def purge_memories(s: Scope) -> Deleted:
    s.require_agent_level()
    return Deleted(success=True, deletedCount=s.memory.purge_memories())


@router.delete("/memories/{memory_id}", summary="Delete one memory of the agent")
def delete_memory(s: Scope, memory_id: Id) -> Deleted:
    s.require_agent_level()
    return Deleted(success=True, deletedCount=s.memory.delete_memory(memory_id))


@router.get("/profiles/{user}", summary="What the agent knows about a user (their merged profile)")
def profile(s: Scope, user: UserKey) -> dict[str, Any]:
    who = s.acting_for(user)
    assert who is not None
    return {"user": who, "profile": s.memory.profile(who)}


@router.get("/digests/{user}", summary="A user's profile with today and the last week merged")
def digest(s: Scope, user: UserKey) -> dict[str, Any]:
    who = s.acting_for(user)
    assert who is not None
    return {"user": who, "digest": s.memory.digest(who)}


@router.get("/jobs", summary="The agent's background jobs, dead letters included")
def jobs(
    s: Scope,
    status: Annotated[str | None, Query(pattern="^(pending|running|done|dead)$")] = None,
    kind: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 100,
) -> list[Job]:
    s.require_agent_level()
    return s.memory.jobs(status=status, kind=kind, limit=limit)


@router.post("/jobs/{job_id}/retry", summary="Send a dead job back to the queue")
def retry_job(s: Scope, job_id: Id) -> Job:
    s.require_agent_level()
    return s.memory.retry_job(job_id)


@router.get("/usage", summary="LLM usage per operation, since a time")
def usage(s: Scope, since: datetime | None = None) -> dict[str, Any]:
    s.require_agent_level()
    return {"agent": s.memory.agent, "since": since, "usage": s.memory.usage_totals(since),
            "budget": s.memory.budget()}  # fmt: skip


@router.get("/usage/days", summary="LLM calls and tokens per UTC day, the last `days` days, oldest first")
def usage_by_day(s: Scope, days: Annotated[int, Query(ge=1, le=366)] = 14) -> list[UsageDay]:
    s.require_agent_level()
    return s.memory.usage_by_day(days)


@router.get("/status", summary="Backend, schema version and this agent's row counts")
def status(s: Scope) -> StoreStatus:
    s.require_agent_level()
    return s.memory.status()


@router.get("/export", summary="The agent's memory as a JSON Lines stream", response_class=StreamingResponse,
            responses={200: {"content": {JSONL: {}}}})  # fmt: skip
def export(s: Scope, thread: Annotated[list[str] | None, Query()] = None) -> StreamingResponse:
    s.require_agent_level()
    records = s.memory.export_records(thread)

    def lines() -> Iterator[bytes]:
        for record in records:
            yield (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")

    return StreamingResponse(lines(), media_type=JSONL)


@router.post(
    "/import",
    summary="Load a JSON Lines export into the agent, in one transaction",
    openapi_extra={"requestBody": {"required": True, "content": {JSONL: {"schema": {"type": "string"}}}}},
)
async def import_(
    s: Scope, request: Request, on_conflict: Annotated[str, Query(pattern="^(error|skip|replace)$")] = "error"
) -> dict[str, int]:
    s.require_agent_level()
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput("the export must be UTF-8 text") from exc
    from starlette.concurrency import run_in_threadpool

    result: dict[str, int] = await run_in_threadpool(s.memory.import_, io.StringIO(text), on_conflict=on_conflict)
    return result
