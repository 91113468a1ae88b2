"""The ``/v1`` routes: each checks access (:mod:`.auth`) and calls the facade; no memory logic lives here."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.encoders import jsonable_encoder
from pydantic import BaseModel, ConfigDict, Field

from ..errors import Forbidden, NotFound
from ..memory import Memory
from .auth import acting_user, memory_for, principal_of
from .keys import Principal

__all__ = ["router"]

router = APIRouter()
Caller = Annotated[Principal, Depends(principal_of)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewMessageBody(Body):
    role: str
    content: str | None = None
    user: str | None = None
    name: str | None = None
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    created_at: datetime | None = None
    metadata: dict[str, Any] | None = None
    external_id: str | None = None


class ContextBody(Body):
    query: str | None = None
    user: str | None = None
    budget: int | None = Field(None, ge=1)
    system_prompt: str | None = None


class RecallBody(Body):
    query: str
    user: str | None = None
    thread: str | None = None
    limit: int = Field(5, ge=1, le=200)
    kinds: list[str] | None = None
    since: datetime | None = None
    until: datetime | None = None
    metadata: dict[str, Any] | None = None


class FactBody(Body):
    content: str
    user: str | None = None
    category: str = "fact"
    importance: int = 3
    visibility: str | None = None
    subject: str | None = None
    metadata: dict[str, Any] | None = None
    thread: str | None = None


class FactChangeBody(Body):
    content: str | None = None
    category: str | None = None
    importance: int | None = None
    visibility: str | None = None
    subject: str | None = None
    user: str | None = None


def _json(value: Any) -> Any:
    return jsonable_encoder(value)


def _member(mem: Memory, thread: str, user: str | None, caller: Principal) -> None:
    """A user key reads and changes only threads its user wrote in (or new ones)."""
    if caller.scope != "user":
        return
    try:
        found = mem.thread(thread)
    except NotFound:
        return
    if user not in found.users:
        raise Forbidden(f"user {user!r} did not take part in thread {thread!r}")


@router.get("/healthz", tags=["operations"])
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get("/readyz", tags=["operations"])
def readyz(request: Request) -> dict[str, Any]:
    """The store answers and its schema is current."""
    status = request.app.state.memory.status()
    return {"status": "ready", "backend": status.backend, "schema_version": status.schema_version}


@router.post("/v1/agents/{agent}/threads/{thread}/messages", tags=["threads"], status_code=201)
def add_message(agent: str, thread: str, body: NewMessageBody, caller: Caller, request: Request) -> Any:
    mem = memory_for(request, caller, agent)
    user = acting_user(caller, body.user) if body.role == "user" or body.user else body.user
    _member(mem, thread, caller.user, caller)
    fields = body.model_dump(exclude={"user"})
    return _json(mem.add_message(thread, user=user, **fields))


@router.get("/v1/agents/{agent}/threads/{thread}/messages", tags=["threads"])
def history(agent: str, thread: str, caller: Caller, request: Request, limit: int | None = Query(None, ge=0)) -> Any:
    mem = memory_for(request, caller, agent)
    _member(mem, thread, caller.user, caller)
    return _json(mem.history(thread, limit))


@router.get("/v1/agents/{agent}/threads", tags=["threads"])
def threads(agent: str, caller: Caller, request: Request, user: str | None = None, limit: int | None = None) -> Any:
    mem = memory_for(request, caller, agent)
    return _json(mem.threads(acting_user(caller, user), limit=limit))


@router.post("/v1/agents/{agent}/threads/{thread}/end", tags=["threads"])
def end(agent: str, thread: str, caller: Caller, request: Request) -> Any:
    mem = memory_for(request, caller, agent)
    _member(mem, thread, caller.user, caller)
    return _json(mem.end(thread))


@router.post("/v1/agents/{agent}/threads/{thread}/reset", tags=["threads"])
def reset(agent: str, thread: str, caller: Caller, request: Request) -> dict[str, int]:
    mem = memory_for(request, caller, agent)
    _member(mem, thread, caller.user, caller)
    return {"cleared": mem.reset(thread)}


@router.post("/v1/agents/{agent}/threads/{thread}/context", tags=["context"])
def context(agent: str, thread: str, body: ContextBody, caller: Caller, request: Request) -> Any:
    mem = memory_for(request, caller, agent)
    user = acting_user(caller, body.user)
    _member(mem, thread, user, caller)
    ctx = mem.context(thread, query=body.query, user=user, budget=body.budget, system_prompt=body.system_prompt)
    return {"messages": ctx.to_messages(), "tokens": ctx.tokens, "budget": ctx.budget, "encoding": ctx.encoding}


@router.post("/v1/agents/{agent}/recall", tags=["recall"])
def recall(agent: str, body: RecallBody, caller: Caller, request: Request) -> Any:
    mem = memory_for(request, caller, agent)
    fields = body.model_dump(exclude={"user"})
    return _json(mem.recall(user=acting_user(caller, body.user), **fields))


@router.post("/v1/agents/{agent}/facts", tags=["facts"], status_code=201)
def remember(agent: str, body: FactBody, caller: Caller, request: Request) -> Any:
    mem = memory_for(request, caller, agent)
    fields = body.model_dump(exclude={"user", "content"})
    return _json(mem.remember(body.content, user=acting_user(caller, body.user), **fields))


@router.get("/v1/agents/{agent}/facts", tags=["facts"])
def facts(agent: str, caller: Caller, request: Request, user: str | None = None, limit: int | None = None) -> Any:
    """The facts the user may see: their own, shared ones and the agent's (seed 004's list)."""
    mem = memory_for(request, caller, agent)
    return _json(mem.facts(acting_user(caller, user), limit=limit))


@router.get("/v1/agents/{agent}/facts/{fact_id}", tags=["facts"])
def fact(agent: str, fact_id: int, caller: Caller, request: Request, user: str | None = None) -> Any:
    mem = memory_for(request, caller, agent)
    found = mem.fact(fact_id)
    viewer = acting_user(caller, user)
    if caller.scope == "user" and found.owner not in (None, viewer) and found.visibility != "shared":
        raise NotFound(f"no fact {fact_id} in agent {agent!r}")  # another user's private fact does not exist here
    return {"fact": _json(found), "history": _json(mem.fact_history(fact_id)) if found.owner == viewer else []}


@router.patch("/v1/agents/{agent}/facts/{fact_id}", tags=["facts"])
def update_fact(agent: str, fact_id: int, body: FactChangeBody, caller: Caller, request: Request) -> Any:
    mem = memory_for(request, caller, agent)
    fields = body.model_dump(exclude={"user"}, exclude_none=True)
    return _json(mem.update_fact(fact_id, user=acting_user(caller, body.user), **fields))


@router.delete("/v1/agents/{agent}/facts/{fact_id}", tags=["facts"])
def forget(agent: str, fact_id: int, caller: Caller, request: Request, user: str | None = None) -> Any:
    mem = memory_for(request, caller, agent)
    return {"forgotten": _json(mem.forget(fact_id, user=acting_user(caller, user)))}


def _admin(caller: Principal) -> None:
    if caller.scope == "user":
        raise Forbidden("an agent or admin key is needed")


@router.get("/v1/agents/{agent}/memories", tags=["memories"])
def memories(agent: str, caller: Caller, request: Request, limit: int | None = None) -> Any:
    """Seed 001's ``GET /apps/:appId/memories``."""
    _admin(caller)
    found = memory_for(request, caller, agent).list_memories(limit)
    return {"memories": _json(found), "count": len(found)}


@router.delete("/v1/agents/{agent}/memories", tags=["memories"])
def purge(agent: str, caller: Caller, request: Request) -> dict[str, int]:
    """Seed 001's ``DELETE /apps/:appId/memories``."""
    _admin(caller)
    return {"deletedCount": memory_for(request, caller, agent).purge_memories()}


@router.delete("/v1/agents/{agent}/memories/{memory_id}", tags=["memories"])
def delete_memory(agent: str, memory_id: int, caller: Caller, request: Request) -> dict[str, Any]:
    """Seed 001's ``DELETE /apps/:appId/memories/:memoryId``."""
    _admin(caller)
    return {"success": memory_for(request, caller, agent).delete_memory(memory_id) == 1}


@router.get("/v1/agents/{agent}/usage", tags=["operations"])
def usage(agent: str, caller: Caller, request: Request, since: datetime | None = None) -> Any:
    _admin(caller)
    return _json(memory_for(request, caller, agent).usage_totals(since))
