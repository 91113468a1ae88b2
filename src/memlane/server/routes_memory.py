"""Context, recall and facts: ``/v1/agents/{agent}/context|recall|facts...``. Thin calls to the facade.

A user key sees and changes only what its user may: its own facts and shared ones, never another
user's private fact (that is *not found*, so its existence does not leak)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from memlane.pipeline.memories import SECTION_TITLE as MEMORIES_TITLE
from memlane.types import Fact, Hit, HitGroup

from .auth import Scoped, scoped, server_state
from .schemas import (
    PROBLEMS,
    ContextBody,
    ContextOut,
    FactBody,
    FactOut,
    FactPatch,
    RecallBody,
    SectionOut,
    VisibilityBody,
)

__all__ = ["router"]

router = APIRouter(prefix="/v1/agents/{agent}", tags=["memory"], responses=PROBLEMS)
Scope = Annotated[Scoped, Depends(scoped)]
ThreadKey = Annotated[str, Path(min_length=1, max_length=200, pattern=r"^[^\s/]+$")]
FactId = Annotated[int, Path(ge=1, le=2**62)]


@router.post("/threads/{thread}/context", summary="The token-budgeted context for the next model call")
def context(s: Scope, thread: ThreadKey, body: ContextBody, request: Request) -> ContextOut:
    s.thread_for_user(thread)
    user = s.acting_for(body.user)
    ctx = s.memory.context(thread, query=body.query, user=user, budget=body.budget, system_prompt=body.system_prompt)
    sections = [
        SectionOut(title=title, lines=lines, tokens=s.memory.count_tokens("\n".join(lines)))
        for title, lines in ctx._sections()
    ]
    injected = sum(len(section.lines) for section in sections if section.title == MEMORIES_TITLE)
    if injected:
        server_state(request).metrics.injected.labels(s.memory.agent).inc(injected)
    return ContextOut(
        openai_messages=ctx.to_messages(),
        sections=sections,
        system_prompt=ctx.system_prompt,
        summaries=ctx.summaries,
        facts=ctx.facts,
        recalled=ctx.recalled,
        messages=ctx.messages,
        budget=ctx.budget,
        encoding=ctx.encoding,
        tokens=ctx.tokens,
        dropped_messages=ctx.dropped_messages,
        extra_sections=ctx.extra_sections,
    )


@router.post("/recall", summary="The memories most relevant to a query, with every filter of Memory.recall")
def recall(s: Scope, body: RecallBody) -> list[Hit] | list[HitGroup]:
    args: dict[str, Any] = body.model_dump(exclude_none=True, exclude={"query", "user"})
    user = s.acting_for(body.user)
    if body.thread is not None:
        s.thread_for_user(body.thread)
    return s.memory.recall(body.query, user=user, **args)


# -- facts ----------------------------------------------------------------------------------------
@router.post("/facts", status_code=201, summary="Remember a fact")
def remember(s: Scope, body: FactBody) -> Fact:
    args: dict[str, Any] = body.model_dump(exclude_none=True, exclude={"content", "user"})
    return s.memory.remember(body.content, user=s.acting_for(body.user), **args)


@router.get("/facts", summary="Facts a user may see (their own, shared and the agent's)")
def list_facts(
    s: Scope,
    user: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    subject: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    category: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    visibility: Annotated[str | None, Query(pattern="^(private|shared)$")] = None,
    thread: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    all_users: bool = False,
    include_superseded: bool = False,
    limit: Annotated[int | None, Query(ge=1, le=10_000)] = None,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> list[Fact]:
    if all_users:
        s.require_agent_level()
    return s.memory.facts(
        s.acting_for(user),
        subject=subject,
        category=category,
        visibility=visibility,
        thread=thread,
        all_users=all_users,
        include_superseded=include_superseded,
        limit=limit,
        offset=offset,
    )


@router.get("/facts/{fact_id}", summary="One fact with its change history")
def get_fact(s: Scope, fact_id: FactId) -> FactOut:
    fact = s.visible_fact(s.memory.fact(fact_id))
    return FactOut(fact=fact, history=s.memory.fact_history(fact_id))


@router.patch("/facts/{fact_id}", summary="Change a fact's content, importance, category ...")
def update_fact(s: Scope, fact_id: FactId, body: FactPatch) -> Fact:
    user = s.fact_actor(fact_id, body.user)
    args: dict[str, Any] = body.model_dump(exclude_none=True, exclude={"user"})
    return s.memory.update_fact(fact_id, user=user, **args)


@router.put("/facts/{fact_id}/visibility", summary="Share a fact, or make it private (owner only)")
def set_visibility(s: Scope, fact_id: FactId, body: VisibilityBody) -> Fact:
    user = s.fact_actor(fact_id, body.user)
    return s.memory.update_fact(fact_id, visibility=body.visibility, user=user)


@router.delete("/facts/{fact_id}", summary="Forget one fact (owner only); returns what it was")
def forget(
    s: Scope,
    fact_id: FactId,
    user: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    purge: bool = False,
) -> Fact:
    return s.memory.forget(fact_id, user=s.fact_actor(fact_id, user), purge=purge)


@router.delete("/facts", summary="Forget every fact a user owns (or the agent's own)")
def forget_all(
    s: Scope,
    user: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    subject: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    category: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    thread: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    purge: bool = False,
) -> dict[str, int]:
    count = s.memory.forget_all(s.acting_for(user), subject=subject, category=category, thread=thread, purge=purge)
    return {"forgotten": count}
