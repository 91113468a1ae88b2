"""Threads and messages: ``/v1/agents/{agent}/threads...``. Thin calls to the facade."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Path, Query, Response

from memlane.errors import Forbidden, NotFound, StorageError
from memlane.types import Message, Summary, Thread

from .auth import Scoped, existing, scoped
from .fast import Router
from .names import THREAD
from .schemas import (
    PROBLEMS,
    EditBody,
    MessageBody,
    MessageIdsBody,
    MessagesBody,
    OneMessageBody,
    PruneBody,
    ThreadBody,
    ThreadsMessagesBody,
)

__all__ = ["router"]

router = Router(prefix="/v1/agents/{agent}", tags=["threads"], responses=PROBLEMS)
Scope = Annotated[Scoped, Depends(scoped)]
Known = Annotated[Scoped, Depends(existing)]  # reads: an unknown agent is NotFound
ThreadKey = Annotated[str, Path(description="The thread; a '/' in it is sent as %2F (names: docs/service.md).")]
MessageId = Annotated[int, Path(ge=1, le=2**62)]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        description="Any unique text per write (a UUID): the same write sent again (a client that timed out and "
        "retries) is stored once, and answers what the first one stored.",
    ),
]


@router.get("/threads", summary="List threads, most recently active first")
def list_threads(
    s: Known,
    user: Annotated[str | None, Query(min_length=1)] = None,
    status: Annotated[str | None, Query(pattern="^(open|ended)$")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> list[Thread]:
    return s.memory.threads(s.acting_for(user), status=status, limit=limit, offset=offset)


@router.get(f"/threads/{THREAD}", summary="One thread")
def get_thread(s: Known, thread: ThreadKey) -> Thread:
    return s.memory.thread(s.thread(thread, must_exist=True))


@router.put(f"/threads/{THREAD}", summary="Create a thread, or set its system prompt and metadata")
def put_thread(s: Scope, thread: ThreadKey, body: ThreadBody) -> Thread:
    key = s.thread(thread, manage=True)
    return s.memory.set_thread(key, system_prompt=body.system_prompt, metadata=body.metadata)


@router.post(f"/threads/{THREAD}/end", summary="End the conversation (queues its memory)")
def end_thread(s: Known, thread: ThreadKey) -> Thread:
    return s.memory.end(s.thread(thread, must_exist=True))


@router.post(f"/threads/{THREAD}/reset", summary="Clear the conversation, keep the facts")
def reset_thread(s: Known, thread: ThreadKey) -> dict[str, int]:
    return {"cleared": s.memory.reset(s.thread(thread, manage=True, must_exist=True))}


@router.delete(f"/threads/{THREAD}", status_code=204, summary="Delete a thread, its messages and summaries")
def delete_thread(s: Known, thread: ThreadKey) -> Response:
    s.memory.delete_thread(s.thread(thread, manage=True, must_exist=True))
    return Response(status_code=204)


def _message_args(s: Scoped, m: MessageBody) -> dict[str, object]:
    s.check_role(m.role)
    args = m.model_dump(exclude_none=True)
    if s.is_user:  # a user key writes as its user
        args["user"] = s.acting_for(m.user)
    return args


@router.post(f"/threads/{THREAD}/messages", status_code=201, summary="Append one message")
def add_message(s: Scope, thread: ThreadKey, body: OneMessageBody, idempotency: IdempotencyKey = None) -> Message:
    args = _message_args(s, body)
    if idempotency is not None and "external_id" not in args:
        args["external_id"] = f"{IDEM}{idempotency}"  # stored once, as a platform's id is (atomic, in the store)
    key = s.thread(thread)
    return s.memory.add_message(key, args.pop("role"), args.pop("content", None), **args)  # type: ignore[arg-type]


IDEM = "idem:"  # the external id a write's Idempotency-Key gives its messages


def _tagged(items: list[dict[str, Any]], idempotency: str | None, prefix: str) -> list[dict[str, Any]]:
    """``items``, each with the external id its place in an idempotent write gives it."""
    if idempotency is None:
        return items
    return [
        {**item, "metadata": {**(item.get("metadata") or {}), "external_id": f"{IDEM}{idempotency}:{prefix}{i}"}}
        for i, item in enumerate(items)
    ]


def _stored_before(s: Scoped, key: str, idempotency: str | None, prefix: str, count: int) -> list[Message] | None:
    """The messages an earlier try of the same idempotent write stored, or None if it stored nothing."""
    if idempotency is None:
        return None
    found = [s.memory.external_message(key, f"{IDEM}{idempotency}:{prefix}{i}") for i in range(count)]
    return None if any(m is None for m in found) else [m for m in found if m is not None]


@router.post(f"/threads/{THREAD}/messages/batch", status_code=201, summary="Append several messages at once")
def add_messages(s: Scope, thread: ThreadKey, body: MessagesBody, idempotency: IdempotencyKey = None) -> list[Message]:
    items = [_message_args(s, m) for m in body.messages]
    key = s.thread(thread)
    earlier = _stored_before(s, key, idempotency, "", len(items))
    if earlier is not None:
        return earlier
    try:
        return s.memory.add_messages(key, _tagged(items, idempotency, ""))
    except StorageError:  # the same write, sent twice at once: the other one stored it
        earlier = _stored_before(s, key, idempotency, "", len(items))
        if earlier is None:
            raise
        return earlier


@router.post("/messages/batch", status_code=201, summary="Append messages to several threads at once")
def add_to_threads(s: Scope, body: ThreadsMessagesBody, idempotency: IdempotencyKey = None) -> dict[str, list[Message]]:
    items = {s.thread(thread): [_message_args(s, m) for m in messages] for thread, messages in body.threads.items()}
    prefixes = {key: f"{n}." for n, key in enumerate(items)}
    earlier = {key: _stored_before(s, key, idempotency, prefixes[key], len(batch)) for key, batch in items.items()}
    if idempotency is not None and all(found is not None for found in earlier.values()):
        return {key: found for key, found in earlier.items() if found is not None}
    tagged = {key: _tagged(batch, idempotency, prefixes[key]) for key, batch in items.items()}
    return s.memory.add_to_threads(tagged)


@router.get(f"/threads/{THREAD}/messages", summary="The thread's messages in order, paged")
def history(
    s: Known,
    thread: ThreadKey,
    limit: Annotated[int, Query(ge=0, le=10_000, description="The last `limit` messages.")] = 1000,
    before: Annotated[
        int | None, Query(ge=0, description="Only messages with a lower seq (the next page back).")
    ] = None,
    after: Annotated[int | None, Query(ge=0, description="Only messages with a higher seq.")] = None,
) -> list[Message]:
    return s.memory.history(s.thread(thread, must_exist=True), limit, before=before, after=after)


@router.get(f"/threads/{THREAD}/messages/{{message_id}}", summary="One message of the thread")
def get_message(s: Known, thread: ThreadKey, message_id: MessageId) -> Message:
    return s.memory.message(s.thread(thread, must_exist=True), message_id)


@router.patch(f"/threads/{THREAD}/messages/{{message_id}}", summary="Edit a message (a platform's edit)")
def edit_message(s: Known, thread: ThreadKey, message_id: MessageId, body: EditBody) -> Message:
    key = s.thread(thread, must_exist=True)
    if s.is_user and s.memory.message(key, message_id).user != s.caller.user:
        raise Forbidden("a user key edits its own messages only")
    return s.memory.edit_message(key, message_id, body.content)


@router.delete(f"/threads/{THREAD}/messages/{{message_id}}", status_code=204, summary="Delete one message")
def delete_message(s: Known, thread: ThreadKey, message_id: MessageId) -> Response:
    key = s.thread(thread, must_exist=True)
    if s.is_user and s.memory.message(key, message_id).user != s.caller.user:
        raise Forbidden("a user key deletes its own messages only")
    s.memory.delete_messages(key, [message_id])
    return Response(status_code=204)


@router.post(f"/threads/{THREAD}/messages/delete", summary="Delete several messages (a platform's deletion)")
def delete_messages(s: Known, thread: ThreadKey, body: MessageIdsBody) -> dict[str, int]:
    s.require_agent_level()
    return {"deleted": s.memory.delete_messages(s.thread(thread, must_exist=True), body.ids)}


@router.get(f"/threads/{THREAD}/external/{{external_id}}", summary="The message a platform id names")
def external_message(s: Known, thread: ThreadKey, external_id: str) -> Message:
    key = s.thread(thread, must_exist=True)
    found = s.memory.external_message(key, external_id)
    if found is None:
        raise NotFound(f"no message {external_id!r} in thread {thread!r}")
    return found


@router.post("/prune", summary="Delete threads idle for a number of days (their facts stay)")
def prune(s: Known, body: PruneBody) -> dict[str, int]:
    s.require_agent_level()
    return {"deleted": s.memory.prune(body.older_than_days)}


@router.post("/prune/messages", summary="Delete messages older than a number of days, keeping their threads")
def prune_messages(s: Known, body: PruneBody) -> dict[str, int]:
    s.require_agent_level()
    return {"deleted": s.memory.prune_messages(body.older_than_days, thread=body.thread)}


@router.get("/summaries", summary="Summaries: a thread's rolling ones, memories, profiles and digests")
def summaries(
    s: Known,
    thread: Annotated[str | None, Query(min_length=1)] = None,
    kind: Annotated[str | None, Query(min_length=1, max_length=50)] = None,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 1000,
) -> list[Summary]:
    if s.is_user and thread is None:
        raise Forbidden("a user key lists the summaries of one of its threads: give thread")
    found = s.memory.summaries(None if thread is None else s.thread(thread, must_exist=True), kind=kind, limit=limit)
    if s.is_user:  # of a thread it takes part in, nothing that belongs to another user
        found = [x for x in found if x.owner in (None, s.caller.user)]
    return found
