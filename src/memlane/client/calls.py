"""The one request/response mapping of :class:`~memlane.client.Client` and :class:`~memlane.client.AsyncClient`.

Each function here has the signature of the :class:`~memlane.Memory` method of the same name (without
``self``) and returns a :class:`Call`: the HTTP request to make and how to turn its JSON answer into the
type ``Memory`` returns. The two clients only send calls; neither holds a mapping of its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import TypeAdapter

from ..context import Context
from ..pipeline.usage import BudgetStatus
from ..store import StoreStatus
from ..types import Fact, FactChange, Hit, HitGroup, Job, Message, Summary, Thread, UsageDay, UsageTotals

__all__ = ["CALLS", "Call"]


@dataclass(frozen=True, slots=True)
class Call:
    """One HTTP request (path relative to ``/v1/agents/{agent}``) and the decoder of its JSON answer."""

    method: str
    path: str
    decode: Callable[[Any], Any]
    params: dict[str, Any] = field(default_factory=dict)
    body: Any = None
    content: bytes | None = None
    content_type: str | None = None
    stream: bool = False
    root: bool = False  # path from the server's root, not from the agent's


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _as(kind: Any) -> Callable[[Any], Any]:
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    return adapter.validate_python


def _none(_: Any) -> None:
    return None


def _params(**values: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in values.items():
        if value is None or value is False:
            continue
        out[name] = value.isoformat() if isinstance(value, datetime) else value
    return out


def _body(**values: Any) -> dict[str, Any]:
    return {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in values.items() if v is not None}


def _metadata(value: Mapping[str, Any] | str | None) -> Any:
    return json.loads(value) if isinstance(value, str) else (dict(value) if value is not None else None)


def _tool_calls(value: list[dict[str, Any]] | str | None) -> Any:
    return json.loads(value) if isinstance(value, str) else value


# -- threads and messages -----------------------------------------------------------------------------
def add_message(
    thread: str,
    role: str,
    content: str | None,
    *,
    user: str | None = None,
    name: str | None = None,
    tool_calls: list[dict[str, Any]] | str | None = None,
    tool_call_id: str | None = None,
    created_at: datetime | str | None = None,
    metadata: Mapping[str, Any] | str | None = None,
    external_id: str | None = None,
) -> Call:
    body = _body(role=role, content=content, user=user, name=name, tool_calls=_tool_calls(tool_calls),
                 tool_call_id=tool_call_id, created_at=created_at, metadata=_metadata(metadata),
                 external_id=external_id)  # fmt: skip
    return Call("POST", f"/threads/{thread}/messages", _as(Message), body=body)


def add_messages(thread: str, items: Iterable[Mapping[str, Any]]) -> Call:
    body = {"messages": _message_bodies(items)}
    return Call("POST", f"/threads/{thread}/messages/batch", _as(list[Message]), body=body)


def _message_bodies(items: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [
        _body(
            **{**item, "tool_calls": _tool_calls(item.get("tool_calls")), "metadata": _metadata(item.get("metadata"))}
        )
        for item in items
    ]


def add_to_threads(messages: Mapping[str, Iterable[Mapping[str, Any]]]) -> Call:
    threads = {thread: _message_bodies(items) for thread, items in messages.items()}
    return Call("POST", "/messages/batch", _as(dict[str, list[Message]]), body={"threads": threads})


def history(thread: str, limit: int | None = None, *, before: int | None = None, after: int | None = None) -> Call:
    return Call(
        "GET",
        f"/threads/{thread}/messages",
        _as(list[Message]),
        params=_params(limit=limit, before=before, after=after),
    )


def thread(thread: str) -> Call:
    return Call("GET", f"/threads/{thread}", _as(Thread))


def threads(user: str | None = None, *, status: str | None = None, limit: int | None = None, offset: int = 0) -> Call:
    return Call(
        "GET",
        "/threads",
        _as(list[Thread]),
        params=_params(user=user, status=status, limit=limit, offset=offset or None),
    )


def set_thread(
    thread: str, *, system_prompt: str | None = None, metadata: Mapping[str, Any] | str | None = None
) -> Call:
    return Call(
        "PUT", f"/threads/{thread}", _as(Thread), body=_body(system_prompt=system_prompt, metadata=_metadata(metadata))
    )


def reset(thread: str) -> Call:
    return Call("POST", f"/threads/{thread}/reset", lambda d: int(d["cleared"]))


def delete_thread(thread: str) -> Call:
    return Call("DELETE", f"/threads/{thread}", _none)


def end(thread: str) -> Call:
    return Call("POST", f"/threads/{thread}/end", _as(Thread))


# -- context and recall -------------------------------------------------------------------------------
_CONTEXT_FIELDS = ("system_prompt", "summaries", "facts", "recalled", "messages", "budget", "encoding", "tokens",
                   "dropped_messages", "extra_sections")  # fmt: skip


def _context(data: Any) -> Context:
    decoded: Context = _as(Context)({name: data[name] for name in _CONTEXT_FIELDS})
    return decoded


def context(
    thread: str,
    *,
    query: str | None = None,
    user: str | None = None,
    budget: int | None = None,
    system_prompt: str | None = None,
) -> Call:
    body = _body(query=query, user=user, budget=budget, system_prompt=system_prompt)
    return Call("POST", f"/threads/{thread}/context", _context, body=body)


def recall(
    query: str,
    *,
    user: str | None = None,
    thread: str | None = None,
    limit: int = 5,
    kinds: Sequence[str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    include_superseded: bool = False,
    metadata: Mapping[str, Any] | None = None,
    preset: str | None = None,
    now: datetime | None = None,
    group_by: Literal["thread"] | None = None,
    min_score: float | None = None,
) -> Call:
    if preset is not None and not isinstance(preset, str):
        raise TypeError("a remote recall takes a preset by name")
    body = _body(query=query, user=user, thread=thread, limit=limit, kinds=None if kinds is None else list(kinds),
                 since=since, until=until, include_superseded=include_superseded or None,
                 metadata=None if metadata is None else dict(metadata), preset=preset, now=now,
                 group_by=group_by, min_score=min_score)  # fmt: skip
    return Call("POST", "/recall", _as(list[HitGroup] if group_by == "thread" else list[Hit]), body=body)


# -- facts --------------------------------------------------------------------------------------------
def remember(
    content: str,
    *,
    user: str | None = None,
    category: str = "fact",
    importance: int = 3,
    visibility: str | None = None,
    subject: str | None = None,
    metadata: Mapping[str, Any] | str | None = None,
    thread: str | None = None,
) -> Call:
    body = _body(content=content, user=user, category=category, importance=importance, visibility=visibility,
                 subject=subject, metadata=_metadata(metadata), thread=thread)  # fmt: skip
    return Call("POST", "/facts", _as(Fact), body=body)


def fact(fact_id: int) -> Call:
    return Call("GET", f"/facts/{fact_id}", lambda d: _as(Fact)(d["fact"]))


def fact_history(fact_id: int) -> Call:
    return Call("GET", f"/facts/{fact_id}", lambda d: _as(list[FactChange])(d["history"]))


def facts(
    user: str | None = None,
    *,
    subject: str | None = None,
    category: str | None = None,
    visibility: str | None = None,
    thread: str | None = None,
    all_users: bool = False,
    include_superseded: bool = False,
    limit: int | None = None,
    offset: int = 0,
) -> Call:
    params = _params(user=user, subject=subject, category=category, visibility=visibility, thread=thread,
                     all_users=all_users, include_superseded=include_superseded, limit=limit,
                     offset=offset or None)  # fmt: skip
    return Call("GET", "/facts", _as(list[Fact]), params=params)


def update_fact(
    fact_id: int,
    *,
    content: str | None = None,
    category: str | None = None,
    importance: int | None = None,
    visibility: str | None = None,
    subject: str | None = None,
    metadata: Mapping[str, Any] | str | None = None,
    user: str | None = None,
) -> Call:
    body = _body(content=content, category=category, importance=importance, visibility=visibility, subject=subject,
                 metadata=_metadata(metadata), user=user)  # fmt: skip
    return Call("PATCH", f"/facts/{fact_id}", _as(Fact), body=body)


def forget(fact_id: int, *, user: str | None = None, purge: bool = False) -> Call:
    return Call("DELETE", f"/facts/{fact_id}", _as(Fact), params=_params(user=user, purge=purge))


def forget_all(
    user: str | None = None,
    *,
    subject: str | None = None,
    category: str | None = None,
    thread: str | None = None,
    purge: bool = False,
) -> Call:
    params = _params(user=user, subject=subject, category=category, thread=thread, purge=purge)
    return Call("DELETE", "/facts", lambda d: int(d["forgotten"]), params=params)


# -- the agent's own memory and bookkeeping -----------------------------------------------------------
def list_memories(limit: int | None = None) -> Call:
    return Call(
        "GET", "/memories", lambda d: [_as(Summary)(m["summary"]) for m in d["memories"]], params=_params(limit=limit)
    )


def purge_memories() -> Call:
    return Call("DELETE", "/memories", lambda d: int(d["deletedCount"]))


def delete_memory(memory_id: int) -> Call:
    return Call("DELETE", f"/memories/{memory_id}", lambda d: int(d["deletedCount"]))


def profile(user: str) -> Call:
    return Call("GET", f"/profiles/{user}", lambda d: d["profile"])


def digest(user: str, *, now: datetime | None = None) -> Call:
    if now is not None:
        raise TypeError("a remote digest is made at the server's time")
    return Call("GET", f"/digests/{user}", lambda d: str(d["digest"]))


def jobs(*, status: str | None = None, kind: str | None = None, limit: int | None = 100) -> Call:
    return Call("GET", "/jobs", _as(list[Job]), params=_params(status=status, kind=kind, limit=limit))


def retry_job(job_id: int) -> Call:
    return Call("POST", f"/jobs/{job_id}/retry", _as(Job))


def usage_totals(since: datetime | None = None, *, all_agents: bool = False) -> Call:
    if all_agents:
        return Call("GET", "/v1/usage", lambda d: _as(list[UsageTotals])(d["usage"]), params=_params(since=since),
                    root=True)  # fmt: skip
    return Call("GET", "/usage", lambda d: _as(list[UsageTotals])(d["usage"]), params=_params(since=since))


def usage_by_day(days: int = 14) -> Call:
    return Call("GET", "/usage/days", _as(list[UsageDay]), params=_params(days=days))


def budget() -> Call:
    return Call("GET", "/usage", lambda d: _as(BudgetStatus)(d["budget"]))


def status(*, all_agents: bool = False) -> Call:
    if all_agents:
        return Call("GET", "/v1/db/status", _as(StoreStatus), root=True)
    return Call("GET", "/status", _as(StoreStatus))


def export_records(threads: Sequence[str] | None = None) -> Call:
    params = {} if threads is None else {"thread": list(threads)}
    return Call("GET", "/export", lambda d: d, params=params, stream=True)


def import_text(text: str, *, on_conflict: str = "error") -> Call:
    return Call("POST", "/import", lambda d: {k: int(v) for k, v in d.items()}, params={"on_conflict": on_conflict},
                content=text.encode("utf-8"), content_type="application/x-ndjson")  # fmt: skip


#: name -> call builder, for the operations both clients offer with Memory's names.
CALLS: dict[str, Callable[..., Call]] = {
    f.__name__: f
    for f in (
        add_message, add_messages, add_to_threads, history, thread, threads, set_thread, reset, delete_thread, end,
        context, recall, remember, fact, fact_history, facts, update_fact, forget, forget_all, list_memories,
        purge_memories, delete_memory, profile,
        digest, jobs, retry_job, usage_totals, usage_by_day, budget, status,
    )
}  # fmt: skip
