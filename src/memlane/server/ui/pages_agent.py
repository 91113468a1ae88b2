"""Sign-in and sign-out, the agents overview, the agent's memories, users' profiles and digests, and
background jobs. Every page is a thin call to the :class:`~memlane.Memory` facade through the server's
ownership checks (:mod:`memlane.server.auth`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from memlane.errors import InvalidInput, Unauthenticated
from memlane.types import UsageDay, UsageTotals

from ..auth import Caller, Scoped, authenticate, bind, reachable_agents, server_state
from ..state import SESSION_LABEL, ServerState
from .session import KEY_COOKIE, Form, UiScope, read_form, render, see_other, set_cookie, ui_caller

__all__ = ["Bar", "router"]

router = APIRouter(prefix="/ui", include_in_schema=False)
State = Annotated[ServerState, Depends(server_state)]
Who = Annotated[Caller, Depends(ui_caller)]
Id = Annotated[int, Path(ge=1, le=2**62)]
UserKey = Annotated[str, Path(description="The user.")]
CHART_WIDTH = 320
DAY_CHART_HEIGHT = 80


# -- signing in -------------------------------------------------------------------------------------
@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, state: State) -> Response:
    return render(request, "login.html", open_mode=state.open)


@router.post("/login")
async def login(request: Request, state: State) -> Response:
    fields = await read_form(request)
    key = fields.get("key", "").strip()
    try:
        if not key:
            raise Unauthenticated("enter an API key")
        who = authenticate(request, state, key, "enter an API key", session=False)
    except Unauthenticated as exc:
        return render(request, "login.html", code=401, open_mode=state.open, error=str(exc))
    assert who.key is not None
    hours = state.settings.session_hours
    session = state.memory.create_api_key(
        who.scope, agent=who.agent, user=who.user, label=f"{SESSION_LABEL}{who.key.id}",
        expires_at=state.memory._now() + timedelta(hours=hours),
    )  # fmt: skip
    response = see_other(request, "/")
    set_cookie(request, response, KEY_COOKIE, session.key, max_age=int(hours * 3600))
    return response


@router.post("/logout")
def logout(request: Request, state: State, _: Form) -> Response:
    session = request.cookies.get(KEY_COOKIE)
    if session:
        try:
            state.memory.revoke_api_key(state.key(session).id)
            state.forget_keys()
        except Unauthenticated:
            pass  # already expired or revoked
    response = see_other(request, "/login", notice="signed out")
    response.delete_cookie(KEY_COOKIE, path="/ui", httponly=True, samesite="strict")
    return response


# -- overview ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of a chart: its label, value and length in pixels."""

    label: str
    value: int
    width: int
    detail: str


@dataclass(frozen=True, slots=True)
class AgentRow:
    """What the overview shows of one agent."""

    agent: str
    counts: dict[str, int]
    memories: int
    cap: int
    pending: int
    dead: int
    bars: list[Bar]
    days: list[Bar]
    spent: int
    limit: int


def usage_bars(totals: list[UsageTotals], width: int = CHART_WIDTH) -> list[Bar]:
    """One bar per operation, its length proportional to the tokens it used."""
    most = max((t.total_tokens for t in totals), default=0)
    return [
        Bar(
            t.operation,
            t.total_tokens,
            round(width * t.total_tokens / most) if most else 0,
            f"{t.calls} calls, {t.failures} failed, {t.prompt_tokens} prompt + {t.completion_tokens} completion tokens",
        )
        for t in totals
    ]


def day_bars(days: list[UsageDay], height: int = DAY_CHART_HEIGHT) -> list[Bar]:
    """One column per day, its height proportional to the tokens used that day."""
    most = max((d.tokens for d in days), default=0)
    return [
        Bar(d.day.strftime("%d %b"), d.tokens, round(height * d.tokens / most) if most else 0, f"{d.calls} calls")
        for d in days
    ]


def _usage_days(s: Scoped) -> list[UsageDay]:
    try:
        return s.memory.usage_by_day(14)
    except InvalidInput:  # a store that keeps no usage records (an in-memory one): no history to chart
        return []


def agent_row(s: Scoped) -> AgentRow:
    """The overview figures of the agent ``s`` is bound to (needs an agent or admin key)."""
    s.require_agent_level()
    m = s.memory
    budget = m.budget()
    return AgentRow(
        agent=m.agent,
        counts=m.status().counts,
        memories=len(m.list_memories()),
        cap=m.memory_cap(),
        pending=len(m.jobs(status="pending", limit=None)),
        dead=len(m.jobs(status="dead", limit=None)),
        bars=usage_bars(m.usage_totals()),
        days=day_bars(_usage_days(s)),
        spent=budget.spent,
        limit=budget.limit,
    )


@router.get("", include_in_schema=False)
def root() -> RedirectResponse:
    return RedirectResponse("/ui/", status_code=307)


@router.get("/", response_class=HTMLResponse)
def overview(request: Request, who: Who, state: State) -> Response:
    if who.scope == "user":
        return render(request, "overview.html", rows=[])
    rows = [agent_row(bind(who, agent, state)) for agent in reachable_agents(who, state)]
    return render(request, "overview.html", rows=rows)


# -- memories -----------------------------------------------------------------------------------
@router.get("/agents/{agent}/memories", response_class=HTMLResponse)
def memories(request: Request, s: UiScope) -> Response:
    s.require_agent_level()
    found = s.memory.list_memories()
    return render(request, "memories.html", agent=s.memory.agent, memories=found, cap=s.memory.memory_cap())


@router.get("/agents/{agent}/memories/purge", response_class=HTMLResponse)
def purge_confirm(request: Request, s: UiScope) -> Response:
    s.require_agent_level()
    count = len(s.memory.list_memories())
    return render(
        request,
        "confirm.html",
        agent=s.memory.agent,
        title="Purge every memory",
        question=f"Delete all {count} memories of agent {s.memory.agent}? This cannot be undone.",
        action=f"/ui/agents/{s.memory.agent}/memories/purge",
        back=f"/ui/agents/{s.memory.agent}/memories",
        button="Purge all memories",
    )


@router.post("/agents/{agent}/memories/purge")
def purge(request: Request, s: UiScope, form: Form) -> Response:
    s.require_agent_level()
    _confirmed(form)
    count = s.memory.purge_memories()
    return see_other(request, f"/agents/{s.memory.agent}/memories", notice=f"purged {count} memories")


@router.get("/agents/{agent}/memories/{memory_id}/delete", response_class=HTMLResponse)
def delete_memory_confirm(request: Request, s: UiScope, memory_id: Id) -> Response:
    s.require_agent_level()
    found = [m for m in s.memory.list_memories() if m.id == memory_id]
    if not found:
        return render(request, "error.html", code=404, status_code=404, detail=f"no memory {memory_id}")
    return render(
        request,
        "confirm.html",
        agent=s.memory.agent,
        title=f"Delete memory {memory_id}",
        question=f"Delete this memory? {found[0].content}",
        action=f"/ui/agents/{s.memory.agent}/memories/{memory_id}/delete",
        back=f"/ui/agents/{s.memory.agent}/memories",
        button="Delete memory",
    )


@router.post("/agents/{agent}/memories/{memory_id}/delete")
def delete_memory(request: Request, s: UiScope, memory_id: Id, form: Form) -> Response:
    s.require_agent_level()
    _confirmed(form)
    s.memory.delete_memory(memory_id)
    return see_other(request, f"/agents/{s.memory.agent}/memories", notice=f"deleted memory {memory_id}")


def _confirmed(form: dict[str, str]) -> None:
    if form.get("confirm") != "yes":
        raise InvalidInput("not confirmed: nothing was deleted")


# -- users: profile and digest ------------------------------------------------------------------
@router.get("/agents/{agent}/users", response_class=HTMLResponse)
def users(request: Request, s: UiScope) -> Response:
    if s.is_user:
        return see_other(request, f"/agents/{s.memory.agent}/users/{quote(s.caller.user or '', safe='')}")
    return render(request, "users.html", agent=s.memory.agent, users=known_users(s))


def known_users(s: Scoped) -> list[str]:
    """The users an agent-level key may look at: those who own facts or wrote in recent threads."""
    if s.is_user:
        return [s.caller.user] if s.caller.user else []
    owners = {f.owner for f in s.memory.facts(all_users=True, limit=2000) if f.owner}
    writers = {u for t in s.memory.threads(limit=500) for u in t.users}
    return sorted(owners | writers)


@router.get("/agents/{agent}/users/{user}", response_class=HTMLResponse)
def user_page(request: Request, s: UiScope, user: UserKey, digest: bool = False) -> Response:
    who = s.acting_for(user)
    assert who is not None
    merged = [p for p in s.memory.summaries(kind="profile") if p.owner == who]  # newest first
    return render(
        request,
        "user.html",
        agent=s.memory.agent,
        user=who,
        profile=s.memory.profile(who),
        profile_made=merged[0].created_at if merged else None,
        digest=s.memory.digest(who) if digest else None,
        digest_made=datetime.now(UTC) if digest else None,
    )


# -- jobs -------------------------------------------------------------------------------------------
@router.get("/agents/{agent}/jobs", response_class=HTMLResponse)
def jobs(
    request: Request, s: UiScope, status: Annotated[str | None, Query(pattern="^(|pending|running|done|dead)$")] = None
) -> Response:
    s.require_agent_level()
    found = s.memory.jobs(status=status or None, limit=200)
    return render(request, "jobs.html", agent=s.memory.agent, jobs=found, status=status or "")


@router.post("/agents/{agent}/jobs/{job_id}/retry")
def retry(request: Request, s: UiScope, job_id: Id, _: Form) -> Response:
    s.require_agent_level()
    s.memory.retry_job(job_id)
    return see_other(request, f"/agents/{s.memory.agent}/jobs", notice=f"job {job_id} is back in the queue")
