"""The recall playground: a question asked as a user, the ranked hits (score, kind, which retrievers found
each) and the context :meth:`memlane.Memory.context` assembles for it, with each section's tokens against
the budget. A user key asks as its own user only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from memlane.errors import InvalidInput
from memlane.retrieval import PRESETS
from memlane.types import Hit

from ..auth import Scoped
from .session import UiScope, render

__all__ = ["Section", "router"]

router = APIRouter(prefix="/ui/agents/{agent}", include_in_schema=False)
Text = Annotated[str, Query(max_length=200)]
PLAYGROUND_THREAD = "ui-playground"  # a thread no one wrote in: the context then holds memory only
BAR_WIDTH = 240


@dataclass(frozen=True, slots=True)
class Section:
    """One part of the assembled context, its tokens and its share of the budget as a bar length."""

    title: str
    lines: list[str]
    tokens: int
    width: int


def context_sections(
    s: Scoped, thread: str, query: str, user: str | None, budget: int | None
) -> tuple[list[Section], int, int, int]:
    """The context's sections (system prompt, memory sections, recent messages) with their token counts,
    the total, the budget and how many messages the budget left out."""
    ctx = s.memory.context(thread, query=query, user=user, budget=budget)
    count = s.memory.count_tokens
    parts: list[tuple[str, list[str]]] = []
    if ctx.system_prompt:
        parts.append(("System prompt", [ctx.system_prompt]))
    parts.extend(ctx._sections())  # the same sections the REST context route reports
    if ctx.messages:
        parts.append(("Recent messages", [f"{m.name or m.user or m.role}: {m.content}" for m in ctx.messages]))
    sections = []
    for title, lines in parts:
        tokens = sum(m.token_count for m in ctx.messages) if title == "Recent messages" else count("\n".join(lines))
        sections.append(Section(title, lines, tokens, min(BAR_WIDTH, round(BAR_WIDTH * tokens / ctx.budget))))
    return sections, ctx.tokens, ctx.budget, ctx.dropped_messages


def _number(text: str, name: str, low: int, high: int) -> int | None:
    """A whole number typed into a form field, or None for an empty field.

    Raises:
        InvalidInput: not a whole number from ``low`` to ``high``.
    """
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        raise InvalidInput(f"{name} must be a whole number from {low} to {high}, or empty for the default")
    return int(text)


@router.get("/recall", response_class=HTMLResponse)
def recall(
    request: Request,
    s: UiScope,
    q: Annotated[str, Query(max_length=2000)] = "",
    user: Text = "",
    thread: Text = "",
    limit: Annotated[str, Query(max_length=10)] = "",
    budget: Annotated[str, Query(max_length=10)] = "",
    preset: Annotated[str, Query(max_length=50)] = "",
) -> Response:
    # A field left empty means its default: the form sends every field, filled or not.
    wanted = _number(limit, "limit", 1, 50) or 8
    given_budget = _number(budget, "budget", 50, 200_000)
    acting = s.acting_for(user.strip() or None)
    thread = thread.strip()
    hits: list[Hit] = []
    sections: list[Section] = []
    total, used_budget, dropped = 0, given_budget, 0
    if q.strip():
        # A user key asks in its own threads only: the playground's empty thread is theirs too.
        where = s.thread(thread) if thread else None
        hits = s.memory.recall(q, user=acting, thread=where, limit=wanted, preset=preset or None)
        playground = where or s.thread(PLAYGROUND_THREAD)
        sections, total, used_budget, dropped = context_sections(s, playground, q, acting, given_budget)
    return render(
        request,
        "recall.html",
        agent=s.memory.agent,
        q=q,
        user="" if s.is_user else user,
        thread=thread,
        limit=wanted,
        budget=used_budget,
        preset=preset,
        presets=sorted(PRESETS),
        hits=hits,
        sections=sections,
        total=total,
        dropped=dropped,
        asked=bool(q.strip()),
    )
