"""The agent's own memory and bookkeeping: the memory admin endpoints (list, delete one, purge), profiles and
digests, jobs, LLM usage, export / import and status. Thin calls to the facade."""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request
from fastapi.responses import StreamingResponse

from memlane.errors import InvalidInput
from memlane.store import StoreStatus
from memlane.types import Job, Summary, UsageDay, UserRecord

from .auth import Scoped, existing, scoped
from .fast import Router
from .schemas import PROBLEMS, Deleted, FlushBody, MemoriesOut, MemoryOut, TextBody, UserPatch

__all__ = ["memory_out", "router"]

router = Router(prefix="/v1/agents/{agent}", tags=["agent"], responses=PROBLEMS)
Scope = Annotated[Scoped, Depends(scoped)]
Known = Annotated[Scoped, Depends(existing)]  # reads: an unknown agent is NotFound
UserKey = Annotated[str, Path(description="The user (names: docs/service.md).")]
Id = Annotated[int, Path(ge=1, le=2**62)]
JSONL = "application/x-ndjson"


def memory_out(s: Summary) -> MemoryOut:
    """A memory in the memory admin endpoints' shape: ``updatedAt`` is when a compaction last rewrote it."""
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


@router.get("/memories", summary="List the agent's memories")
def list_memories(s: Known, limit: Annotated[int | None, Query(ge=1, le=10_000)] = None) -> MemoriesOut:
    s.require_agent_level()
    return MemoriesOut(memories=[memory_out(m) for m in s.memory.list_memories(limit)], cap=s.memory.memory_cap())


@router.delete("/memories", summary="Purge every memory of the agent")
def purge_memories(s: Scope) -> Deleted:
    s.require_agent_level()
    return Deleted(success=True, deletedCount=s.memory.purge_memories())


@router.delete("/memories/{memory_id}", summary="Delete one memory")
def delete_memory(s: Scope, memory_id: Id) -> Deleted:
    s.require_agent_level()
    return Deleted(success=True, deletedCount=s.memory.delete_memory(memory_id))


@router.get("/profiles/{user}", summary="What the agent knows about a user (their merged profile)")
def profile(s: Known, user: UserKey) -> dict[str, Any]:
    who = s.acting_for(user)
    assert who is not None
    return {"user": who, "profile": s.memory.profile(who)}


@router.get("/digests/{user}", summary="A user's profile with today and the last week merged")
def digest(s: Known, user: UserKey) -> dict[str, Any]:
    who = s.acting_for(user)
    assert who is not None
    return {"user": who, "digest": s.memory.digest(who)}


@router.get("/jobs", summary="The agent's background jobs, dead letters included")
def jobs(
    s: Known,
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
def usage(s: Known, since: datetime | None = None) -> dict[str, Any]:
    s.require_agent_level()
    return {"agent": s.memory.agent, "since": since, "usage": s.memory.usage_totals(since),
            "budget": s.memory.budget()}  # fmt: skip


@router.get("/usage/days", summary="LLM calls and tokens per UTC day, the last `days` days, oldest first")
def usage_by_day(s: Known, days: Annotated[int, Query(ge=1, le=366)] = 14) -> list[UsageDay]:
    s.require_agent_level()
    return s.memory.usage_by_day(days)


@router.get("/status", summary="Backend, schema version and this agent's row counts")
def status(s: Known) -> StoreStatus:
    s.require_agent_level()
    found = s.memory.status()
    if s.caller.scope != "admin":  # where the database lives is the operator's business
        found = dataclasses.replace(found, location="")
    return found


@router.get("/export", summary="The agent's memory as a JSON Lines stream", response_class=StreamingResponse,
            responses={200: {"content": {JSONL: {}}}})  # fmt: skip
def export(s: Known, thread: Annotated[list[str] | None, Query()] = None) -> StreamingResponse:
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


@router.get("/users/{user}", summary="What memlane keeps about a user: persona, context, interactions")
def user_record(s: Known, user: UserKey) -> UserRecord:
    who = s.acting_for(user)
    assert who is not None
    return s.memory.user(who)


@router.patch("/users/{user}", summary="Set a user's preferred persona or custom context")
def set_user(s: Scope, user: UserKey, body: UserPatch) -> UserRecord:
    who = s.acting_for(user)
    assert who is not None
    return s.memory.set_user(who, **body.model_dump(exclude_unset=True))


@router.post("/tokens", summary="Count a text's tokens with the agent's tokenizer")
def count_tokens(s: Scope, body: TextBody) -> dict[str, int]:
    return {"tokens": s.memory.count_tokens(body.text)}


@router.post("/flush", summary="Wait for the vectors of the writes already made (at most 30 s)")
def flush(s: Scope, body: FlushBody) -> dict[str, bool]:
    return {"flushed": s.memory.flush(30.0 if body.timeout is None else body.timeout)}


@router.delete("", summary="Delete the agent: its conversations, facts, profiles and digests (memories unless purge)")
def delete_agent(s: Known, purge: bool = False) -> dict[str, int]:
    s.require_agent_level()
    return s.memory.delete_agent(purge=purge)
