"""Facts: per user, filtered by subject, category and visibility; a form to add one; one fact with its history
and an edit form; delete (after a confirmation page); make private or shared (a user key's wish to share waits
for an agent key when the ``share_needs_approval`` setting is on, as in the REST API). The same checks as the
REST routes (:class:`~memlane.server.auth.Scoped`):
a user key sees its own, shared and the agent's facts and changes only its own."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from memlane.errors import InvalidInput
from memlane.types import CATEGORIES, Fact

from ..auth import Scoped
from ..routes_memory import SHARE_REQUESTED, needs_approval
from .session import Form, UiScope, render, see_other

__all__ = ["router"]

router = APIRouter(prefix="/ui/agents/{agent}", include_in_schema=False)
FactId = Annotated[int, Path(ge=1, le=2**62)]
Text = Annotated[str, Query(max_length=200)]
LIMIT = 500


@router.get("/facts", response_class=HTMLResponse)
def facts(
    request: Request,
    s: UiScope,
    user: Text = "",
    subject: Text = "",
    category: Text = "",
    visibility: Annotated[str, Query(pattern="^(|private|shared)$")] = "",
    superseded: bool = False,
) -> Response:
    acting = s.acting_for(user.strip() or None)
    everyone = not s.is_user and acting is None
    found = s.memory.facts(
        acting,
        subject=subject.strip() or None,
        category=category.strip() or None,
        visibility=visibility or None,
        all_users=everyone,
        include_superseded=superseded,
        limit=LIMIT,
    )
    return render(
        request,
        "facts.html",
        agent=s.memory.agent,
        facts=found,
        user="" if s.is_user else user,
        subject=subject,
        category=category,
        visibility=visibility,
        superseded=superseded,
        categories=CATEGORIES,
        limit=LIMIT,
    )


@router.get("/facts/{fact_id}", response_class=HTMLResponse)
def fact(request: Request, s: UiScope, fact_id: FactId) -> Response:
    found = s.visible_fact(s.memory.fact(fact_id))
    mine = not s.is_user or found.owner == s.caller.user
    return render(
        request,
        "fact.html",
        agent=s.memory.agent,
        fact=found,
        requested=bool(found.metadata.get(SHARE_REQUESTED)),
        history=s.memory.fact_history(fact_id) if s.sees_history(found) else [],
        replaced=_replaced(s, fact_id),
        editable=mine,
        categories=CATEGORIES,
    )


def _replaced(s: Scoped, fact_id: int) -> list[Fact]:
    """The superseded versions this fact replaced (among those the caller may see)."""
    older = s.memory.facts(s.acting_for(None), all_users=not s.is_user, include_superseded=True, limit=5000)
    return [f for f in older if f.superseded_by == fact_id]


@router.post("/facts/new")
def add(request: Request, s: UiScope, form: Form) -> Response:
    content = form.get("content", "").strip()
    if not content:
        raise InvalidInput("write the fact to remember")
    owner = s.acting_for(form.get("user", "").strip() or None)
    wanted = form.get("visibility", "").strip() or None
    args: dict[str, Any] = {"category": form.get("category", "").strip() or "fact"}
    if form.get("subject", "").strip():
        args["subject"] = form["subject"].strip()
    if form.get("importance", "").strip():
        args["importance"] = _importance(form["importance"])
    if needs_approval(s, wanted):
        args["metadata"] = {SHARE_REQUESTED: True}
        wanted = "private"
    made = s.memory.remember(content, user=owner, visibility=wanted, **args)
    return see_other(request, f"/agents/{s.memory.agent}/facts/{made.id}", notice="remembered")


def _importance(text: str) -> int:
    try:
        return int(text)
    except ValueError as exc:
        raise InvalidInput("importance must be a whole number from 1 to 5") from exc


@router.post("/facts/{fact_id}/edit")
def edit(request: Request, s: UiScope, fact_id: FactId, form: Form) -> Response:
    user = s.fact_actor(fact_id, None)
    changes: dict[str, Any] = {}
    for name in ("content", "category", "subject"):
        value = form.get(name, "").strip()
        if value:
            changes[name] = value
    if form.get("importance", "").strip():
        changes["importance"] = _importance(form["importance"])
    s.memory.update_fact(fact_id, user=user, **changes)
    return see_other(request, f"/agents/{s.memory.agent}/facts/{fact_id}", notice="saved")


@router.post("/facts/{fact_id}/visibility")
def visibility(request: Request, s: UiScope, fact_id: FactId, form: Form) -> Response:
    user = s.fact_actor(fact_id, None)
    wanted = form.get("visibility", "")
    back = form.get("back", "")
    target = back if back.startswith(f"/agents/{s.memory.agent}/facts") else f"/agents/{s.memory.agent}/facts"
    if needs_approval(s, wanted):
        current = s.memory.fact(fact_id)
        s.memory.update_fact(fact_id, metadata={**current.metadata, SHARE_REQUESTED: True}, user=user)
        return see_other(request, target, notice=f"fact {fact_id} will be shared once the agent approves")
    changed = s.memory.update_fact(fact_id, visibility=wanted, user=user)
    if SHARE_REQUESTED in changed.metadata and not s.is_user:
        meta = {k: v for k, v in changed.metadata.items() if k != SHARE_REQUESTED}
        changed = s.memory.update_fact(fact_id, metadata=meta, user=user)
    return see_other(request, target, notice=f"fact {fact_id} is now {changed.visibility}")


@router.get("/facts/{fact_id}/delete", response_class=HTMLResponse)
def delete_confirm(request: Request, s: UiScope, fact_id: FactId) -> Response:
    found = s.visible_fact(s.memory.fact(fact_id))
    s.fact_actor(fact_id, None)
    return render(
        request,
        "confirm.html",
        agent=s.memory.agent,
        title=f"Delete fact {fact_id}",
        question=f"Forget this fact? {found.content}",
        action=f"/ui/agents/{s.memory.agent}/facts/{fact_id}/delete",
        back=f"/ui/agents/{s.memory.agent}/facts/{fact_id}",
        button="Delete fact",
    )


@router.post("/facts/{fact_id}/delete")
def delete(request: Request, s: UiScope, fact_id: FactId, form: Form) -> Response:
    if form.get("confirm") != "yes":
        raise InvalidInput("not confirmed: nothing was deleted")
    user = s.fact_actor(fact_id, None)
    gone = s.memory.forget(fact_id, user=user)
    return see_other(request, f"/agents/{s.memory.agent}/facts", notice=f"deleted fact {gone.id}: {gone.content[:60]}")
