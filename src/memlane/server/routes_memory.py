"""Context, recall and facts: ``/v1/agents/{agent}/context|recall|facts...``. Thin calls to the facade.

A user key sees and changes only what its user may: its own facts and shared ones, never another user's
private fact (that is *not found*, so its existence does not leak), and only its own facts' change history.
With the ``share_needs_approval`` setting (on by default) a fact a user key asks to share stays private, marked
``share_requested`` in its metadata, until an agent key shares it: a shared fact reaches every other user's
prompt, so the agent decides what does."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request

from memlane.pipeline.memories import SECTION_TITLE as MEMORIES_TITLE
from memlane.types import Fact, Hit, HitGroup

from .auth import Scoped, existing, scoped, server_state
from .fast import Router
from .names import THREAD
from .schemas import (
    PROBLEMS,
    ContextBody,
    ContextOut,
    FactBody,
    FactOut,
    FactPatch,
    ForgetMatchingBody,
    RecallBody,
    SectionOut,
    VisibilityBody,
)

__all__ = ["SHARE_REQUESTED", "needs_approval", "router"]

router = Router(prefix="/v1/agents/{agent}", tags=["memory"], responses=PROBLEMS)
Scope = Annotated[Scoped, Depends(scoped)]
Known = Annotated[Scoped, Depends(existing)]  # reads: an unknown agent is NotFound
ThreadKey = Annotated[str, Path(description="The thread; a '/' in it is sent as %2F (names: docs/service.md).")]
Name = Annotated[str | None, Query(min_length=1)]
FactId = Annotated[int, Path(ge=1, le=2**62)]


@router.post(f"/threads/{THREAD}/context", summary="The token-budgeted context for the next model call")
def context(s: Scope, thread: ThreadKey, body: ContextBody, request: Request) -> ContextOut:
    thread = s.thread(thread)
    user = s.acting_for(body.user)
    ctx = s.memory.context(thread, query=body.query, user=user, budget=body.budget, system_prompt=body.system_prompt)
    sections = [
        SectionOut(title=title, lines=lines, tokens=s.memory.count_tokens("\n".join(lines)))
        for title, lines in ctx._sections()
    ]
    injected = sum(len(section.lines) for section in sections if section.title == MEMORIES_TITLE)
    if injected:
        server_state(request).metrics.memories_injected(s.memory.agent, injected)
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
def recall(s: Known, body: RecallBody) -> list[Hit] | list[HitGroup]:
    args: dict[str, Any] = body.model_dump(exclude_none=True, exclude={"query", "user"})
    user = s.acting_for(body.user)
    if body.thread is not None:
        args["thread"] = s.thread(body.thread)
    return s.memory.recall(body.query, user=user, **args)


# -- facts ----------------------------------------------------------------------------------------
@router.post("/facts", status_code=201, summary="Remember a fact")
def remember(s: Scope, body: FactBody) -> Fact:
    args: dict[str, Any] = body.model_dump(exclude_none=True, exclude={"content", "user"})
    if body.thread is not None:
        args["thread"] = s.thread(body.thread)
    if needs_approval(s, body.visibility):
        args["visibility"] = "private"
        args["metadata"] = {**(body.metadata or {}), SHARE_REQUESTED: True}
    return s.memory.remember(body.content, user=s.acting_for(body.user), **args)


SHARE_REQUESTED = "share_requested"


def needs_approval(s: Scoped, visibility: str | None) -> bool:
    """Whether a user key's wish to share waits for an agent key (the ``share_needs_approval`` setting)."""
    return s.is_user and visibility == "shared" and s.memory.settings.share_needs_approval


@router.get("/facts", summary="Facts a user may see (their own, shared and the agent's)")
def list_facts(
    s: Known,
    user: Name = None,
    subject: Name = None,
    category: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    visibility: Annotated[str | None, Query(pattern="^(private|shared)$")] = None,
    thread: Name = None,
    all_users: bool = False,
    include_superseded: bool = False,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> list[Fact]:
    if all_users:
        s.require_agent_level()
    return s.memory.facts(
        s.acting_for(user),
        subject=subject,
        category=category,
        visibility=visibility,
        thread=None if thread is None else s.thread(thread),
        all_users=all_users,
        include_superseded=include_superseded,
        limit=limit,
        offset=offset,
    )


@router.get("/facts/{fact_id}", summary="One fact with its change history")
def get_fact(s: Known, fact_id: FactId) -> FactOut:
    fact = s.visible_fact(s.memory.fact(fact_id))
    return FactOut(fact=fact, history=s.memory.fact_history(fact_id) if s.sees_history(fact) else [])


@router.patch("/facts/{fact_id}", summary="Change a fact's content, importance, category ...")
def update_fact(s: Scope, fact_id: FactId, body: FactPatch) -> Fact:
    user = s.fact_actor(fact_id, body.user)
    args: dict[str, Any] = body.model_dump(exclude_none=True, exclude={"user"})
    if needs_approval(s, body.visibility):
        return _request_share(s, fact_id, user, args)
    return s.memory.update_fact(fact_id, user=user, **args)


def _request_share(s: Scoped, fact_id: int, user: str | None, args: dict[str, Any]) -> Fact:
    """A user key's wish to share: the fact stays private, marked for an agent key to approve."""
    fact = s.memory.fact(fact_id)
    args.pop("visibility", None)
    args["metadata"] = {**(args.get("metadata") or fact.metadata), SHARE_REQUESTED: True}
    return s.memory.update_fact(fact_id, user=user, **args)


@router.put("/facts/{fact_id}/visibility", summary="Share a fact, or make it private (owner only)")
@router.patch("/facts/{fact_id}/visibility", summary="Share a fact, or make it private (owner only; as PUT)")
def set_visibility(s: Scope, fact_id: FactId, body: VisibilityBody) -> Fact:
    user = s.fact_actor(fact_id, body.user)
    if needs_approval(s, body.visibility):
        return _request_share(s, fact_id, user, {})
    fact = s.memory.update_fact(fact_id, visibility=body.visibility, user=user)
    if SHARE_REQUESTED in fact.metadata and not s.is_user:  # approved (or refused) by the agent
        meta = {k: v for k, v in fact.metadata.items() if k != SHARE_REQUESTED}
        fact = s.memory.update_fact(fact_id, metadata=meta, user=user)
    return fact


@router.delete("/facts/{fact_id}", summary="Forget one fact (owner only); returns what it was")
def forget(
    s: Scope,
    fact_id: FactId,
    user: Name = None,
    purge: bool = False,
) -> Fact:
    return s.memory.forget(fact_id, user=s.fact_actor(fact_id, user), purge=purge)


@router.delete("/facts", summary="Forget every fact a user owns (or the agent's own)")
def forget_all(
    s: Scope,
    user: Name = None,
    subject: Name = None,
    category: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    thread: Name = None,
    purge: bool = False,
) -> dict[str, int]:
    where = None if thread is None else s.thread(thread)
    count = s.memory.forget_all(s.acting_for(user), subject=subject, category=category, thread=where, purge=purge)
    return {"forgotten": count}


@router.post("/facts/forget-matching", summary="Forget the user's facts that say a text")
def forget_matching(s: Known, body: ForgetMatchingBody) -> list[Fact]:
    return s.memory.forget_matching(body.text, user=s.acting_for(body.user), purge=body.purge)
