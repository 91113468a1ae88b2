"""Threads and messages: ``/v1/agents/{agent}/threads...``. Thin calls to the facade."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Response

from memlane.types import Message, Thread

from .auth import Scoped, scoped
from .schemas import PROBLEMS, MessageBody, MessagesBody, OneMessageBody, ThreadBody, ThreadsMessagesBody

__all__ = ["router"]

router = APIRouter(prefix="/v1/agents/{agent}", tags=["threads"], responses=PROBLEMS)
Scope = Annotated[Scoped, Depends(scoped)]
ThreadKey = Annotated[str, Path(min_length=1, max_length=200, pattern=r"^[^\s/]+$")]


@router.get("/threads", summary="List threads, most recently active first")
def list_threads(
    s: Scope,
    user: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    status: Annotated[str | None, Query(pattern="^(open|ended)$")] = None,
    limit: Annotated[int | None, Query(ge=1, le=1000)] = None,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> list[Thread]:
    return s.memory.threads(s.acting_for(user), status=status, limit=limit, offset=offset)


@router.get("/threads/{thread}", summary="One thread")
def get_thread(s: Scope, thread: ThreadKey) -> Thread:
    s.thread_for_user(thread, must_exist=True)
    return s.memory.thread(thread)


@router.put("/threads/{thread}", summary="Create a thread, or set its system prompt and metadata")
def put_thread(s: Scope, thread: ThreadKey, body: ThreadBody) -> Thread:
    s.thread_for_user(thread, write=s.is_user and s.memory.store.get_thread(s.memory.agent, thread) is not None)
    return s.memory.set_thread(thread, system_prompt=body.system_prompt, metadata=body.metadata)


@router.post("/threads/{thread}/end", summary="End the conversation (queues its memory)")
def end_thread(s: Scope, thread: ThreadKey) -> Thread:
    s.thread_for_user(thread, must_exist=True)
    return s.memory.end(thread)


@router.post("/threads/{thread}/reset", summary="Clear the conversation, keep the facts")
def reset_thread(s: Scope, thread: ThreadKey) -> dict[str, int]:
    s.thread_for_user(thread, write=True, must_exist=True)
    return {"cleared": s.memory.reset(thread)}


@router.delete("/threads/{thread}", status_code=204, summary="Delete a thread, its messages and summaries")
def delete_thread(s: Scope, thread: ThreadKey) -> Response:
    s.thread_for_user(thread, write=True, must_exist=True)
    s.memory.delete_thread(thread)
    return Response(status_code=204)


def _message_args(s: Scoped, m: MessageBody) -> dict[str, object]:
    args = m.model_dump(exclude_none=True)
    if s.is_user:  # a user key writes as its user; other roles (the bot's replies) name no user
        args["user"] = s.acting_for(m.user) if m.role == "user" or m.user is not None else None
        if args["user"] is None:
            args.pop("user")
    return args


@router.post("/threads/{thread}/messages", status_code=201, summary="Append one message")
def add_message(s: Scope, thread: ThreadKey, body: OneMessageBody) -> Message:
    s.thread_for_user(thread)
    args = _message_args(s, body)
    return s.memory.add_message(thread, args.pop("role"), args.pop("content", None), **args)  # type: ignore[arg-type]


@router.post("/threads/{thread}/messages/batch", status_code=201, summary="Append several messages at once")
def add_messages(s: Scope, thread: ThreadKey, body: MessagesBody) -> list[Message]:
    s.thread_for_user(thread)
    return s.memory.add_messages(thread, [_message_args(s, m) for m in body.messages])


@router.post("/messages/batch", status_code=201, summary="Append messages to several threads at once")
def add_to_threads(s: Scope, body: ThreadsMessagesBody) -> dict[str, list[Message]]:
    for thread in body.threads:
        s.thread_for_user(thread)
    return s.memory.add_to_threads(
        {thread: [_message_args(s, m) for m in messages] for thread, messages in body.threads.items()}
    )


@router.get("/threads/{thread}/messages", summary="The thread's messages in order, paged")
def history(
    s: Scope,
    thread: ThreadKey,
    limit: Annotated[int | None, Query(ge=0, le=10_000)] = None,
    before: Annotated[
        int | None, Query(ge=0, description="Only messages with a lower seq (the next page back).")
    ] = None,
    after: Annotated[int | None, Query(ge=0, description="Only messages with a higher seq.")] = None,
) -> list[Message]:
    s.thread_for_user(thread)
    return s.memory.history(thread, limit, before=before, after=after)
