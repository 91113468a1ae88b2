"""Threads: a filtered list, and one thread with its messages (tool calls folded), its rolling summaries
with the ranges they cover, and its users. A user key sees only the threads it took part in."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, Response

from memlane.types import Summary

from ..auth import Scoped
from ..names import THREAD
from .session import UiScope, render

__all__ = ["router"]

router = APIRouter(prefix="/ui/agents/{agent}", include_in_schema=False)
ThreadKey = Annotated[str, Path(description="The thread.")]
Text = Annotated[str, Query(max_length=200)]
PAGE = 50
MESSAGES = 200
SEARCH_HITS = 100  # messages searched for the threads that said something


@router.get("/threads", response_class=HTMLResponse)
def threads(
    request: Request,
    s: UiScope,
    q: Text = "",
    said: Text = "",
    user: Text = "",
    status: Annotated[str, Query(pattern="^(|open|ended)$")] = "",
    offset: Annotated[int, Query(ge=0)] = 0,
) -> Response:
    acting = s.acting_for(user.strip() or None)
    searching = bool(q.strip() or said.strip())
    found = s.memory.threads(acting, status=status or None, limit=None if searching else PAGE + 1,
                             offset=0 if searching else offset)  # fmt: skip
    if q.strip():  # narrow by key; the store lists by activity, so the page is cut after filtering
        needle = q.strip().lower()
        found = [t for t in found if needle in t.key.lower()]
    if said.strip():  # threads whose messages match, best match first (recall keeps to the user's threads)
        hits = s.memory.recall(said, user=acting, kinds=["message"], limit=SEARCH_HITS)
        rank = {key: i for i, key in reversed(list(enumerate(h.thread for h in hits)))}
        found = sorted((t for t in found if t.key in rank), key=lambda t: rank[t.key])
    if searching:
        found = found[offset : offset + PAGE + 1]
    more = len(found) > PAGE
    return render(
        request,
        "threads.html",
        agent=s.memory.agent,
        threads=found[:PAGE],
        q=q,
        said=said,
        user="" if s.is_user else user,
        status=status,
        offset=offset,
        next_offset=offset + PAGE if more else None,
        prev_offset=max(0, offset - PAGE) if offset else None,
    )


@router.get(f"/threads/{THREAD}", response_class=HTMLResponse)
def thread(
    request: Request,
    s: UiScope,
    thread: ThreadKey,
    before: Annotated[int | None, Query(ge=1)] = None,
) -> Response:
    thread = s.thread(thread, must_exist=True)
    info = s.memory.thread(thread)
    messages = s.memory.history(thread, MESSAGES, before=before)
    return render(
        request,
        "thread.html",
        agent=s.memory.agent,
        thread=info,
        messages=messages,
        earlier=messages[0].seq if messages and messages[0].seq > 1 else None,
        summaries=thread_summaries(s, thread),
    )


def thread_summaries(s: Scoped, thread: str) -> list[Summary]:
    """The thread's summaries: rolling ones by the range they cover, then the others (the conversation's
    memory ...); a user key sees none that belongs to another user."""
    found = s.memory.summaries(thread)
    if s.is_user:
        found = [x for x in found if x.owner in (None, s.caller.user)]
    return sorted(found, key=lambda x: (x.kind != "rolling", x.from_seq or 0, x.created_at))
