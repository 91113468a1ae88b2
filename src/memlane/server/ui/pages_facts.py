"""Facts: per user, filtered by subject, category and visibility; one fact with its history and an edit
form; delete; make private or shared. The same checks as the REST routes (:class:`~memlane.server.auth.Scoped`):
a user key sees its own, shared and the agent's facts and changes only its own."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from memlane.errors import InvalidInput
from memlane.types import CATEGORIES, Fact

from ..auth import Scoped
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
        history=s.memory.fact_history(fact_id),
        replaced=_replaced(s, fact_id),
        editable=mine,
        categories=CATEGORIES,
    )


def _replaced(s: Scoped, fact_id: int) -> list[Fact]:
    """The superseded versions this fact replaced (among those the caller may see)."""
    older = s.memory.facts(s.acting_for(None), all_users=not s.is_user, include_superseded=True, limit=5000)
    return [f for f in older if f.superseded_by == fact_id]


@router.post("/facts/{fact_id}/edit")
def edit(s: UiScope, fact_id: FactId, form: Form) -> Response:
    user = s.fact_actor(fact_id, None)
    changes: dict[str, Any] = {}
    for name in ("content", "category", "subject"):
        value = form.get(name, "").strip()
        if value:
            changes[name] = value
    if form.get("importance", "").strip():
        try:
            changes["importance"] = int(form["importance"])
        except ValueError as exc:
            raise InvalidInput("importance must be a whole number from 1 to 5") from exc
    s.memory.update_fact(fact_id, user=user, **changes)
    return see_other(f"/agents/{s.memory.agent}/facts/{fact_id}", notice="saved")


@router.post("/facts/{fact_id}/visibility")
def visibility(s: UiScope, fact_id: FactId, form: Form) -> Response:
    user = s.fact_actor(fact_id, None)
    wanted = form.get("visibility", "")
    changed = s.memory.update_fact(fact_id, visibility=wanted, user=user)
    back = form.get("back", "")
    target = back if back.startswith(f"/agents/{s.memory.agent}/facts") else f"/agents/{s.memory.agent}/facts"
    return see_other(target, notice=f"fact {fact_id} is now {changed.visibility}")


@router.post("/facts/{fact_id}/delete")
def delete(s: UiScope, fact_id: FactId, _: Form) -> Response:
    user = s.fact_actor(fact_id, None)
    gone = s.memory.forget(fact_id, user=user)
    return see_other(f"/agents/{s.memory.agent}/facts", notice=f"deleted fact {gone.id}: {gone.content[:60]}")
