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
from urllib.parse import quote

from pydantic import TypeAdapter

from ..context import Context
from ..memory.keys import NewApiKey
from ..pipeline.usage import BudgetStatus
from ..store import StoreStatus
from ..types import (
    ApiKey,
    Fact,
    FactChange,
    Hit,
    HitGroup,
    Job,
    Message,
    Summary,
    Thread,
    UsageDay,
    UsageTotals,
    UserRecord,
)

__all__ = ["CALLS", "LOCAL_ONLY", "Call"]


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
    missing: Any = ...  # what a 404 means, if not NotFound (``external_message`` answers None)


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _as(kind: Any) -> Callable[[Any], Any]:
    adapter = _ADAPTERS.get(kind)
    if adapter is None:
        adapter = _ADAPTERS[kind] = TypeAdapter(kind)
    return adapter.validate_python


def _none(_: Any) -> None:
    return None


def _seg(name: str) -> str:
    """A name as one URL path segment (a thread named ``alice/notes`` is ``alice%2Fnotes``)."""
    if not isinstance(name, str):
        raise TypeError(f"a name must be a string, not {type(name).__name__}")
    return quote(name, safe="")


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
    return Call("POST", f"/threads/{_seg(thread)}/messages", _as(Message), body=body)


def add_messages(thread: str, items: Iterable[Mapping[str, Any]]) -> Call:
    body = {"messages": _message_bodies(items)}
    return Call("POST", f"/threads/{_seg(thread)}/messages/batch", _as(list[Message]), body=body)


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
        f"/threads/{_seg(thread)}/messages",
        _as(list[Message]),
        params=_params(limit=limit, before=before, after=after),
    )


def thread(thread: str) -> Call:
    return Call("GET", f"/threads/{_seg(thread)}", _as(Thread))


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
        "PUT",
        f"/threads/{_seg(thread)}",
        _as(Thread),
        body=_body(system_prompt=system_prompt, metadata=_metadata(metadata)),
    )


def reset(thread: str) -> Call:
    return Call("POST", f"/threads/{_seg(thread)}/reset", lambda d: int(d["cleared"]))


def delete_thread(thread: str) -> Call:
    return Call("DELETE", f"/threads/{_seg(thread)}", _none)


def end(thread: str) -> Call:
    return Call("POST", f"/threads/{_seg(thread)}/end", _as(Thread))


def message(thread: str, message_id: int) -> Call:
    return Call("GET", f"/threads/{_seg(thread)}/messages/{int(message_id)}", _as(Message))


def edit_message(thread: str, message_id: int, content: str) -> Call:
    return Call("PATCH", f"/threads/{_seg(thread)}/messages/{int(message_id)}", _as(Message), body={"content": content})


def delete_messages(thread: str, ids: Iterable[int]) -> Call:
    if isinstance(ids, str | bytes):
        raise TypeError("ids must be a list of message ids")
    body = {"ids": list(ids)}
    return Call("POST", f"/threads/{_seg(thread)}/messages/delete", lambda d: int(d["deleted"]), body=body)


def external_message(thread: str, external_id: str) -> Call:
    return Call("GET", f"/threads/{_seg(thread)}/external/{_seg(external_id)}", _as(Message), missing=None)


def prune(older_than_days: float) -> Call:
    body = {"older_than_days": older_than_days}
    return Call("POST", "/prune", lambda d: int(d["deleted"]), body=body)


def prune_messages(older_than_days: float, *, thread: str | None = None) -> Call:
    body = _body(older_than_days=older_than_days, thread=thread)
    return Call("POST", "/prune/messages", lambda d: int(d["deleted"]), body=body)


def user(user: str) -> Call:
    return Call("GET", f"/users/{_seg(user)}", _as(UserRecord))


_UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET"})()


def set_user(user: str, *, persona: str | None = _UNSET, custom_context: str | None = _UNSET) -> Call:
    body = {k: v for k, v in (("persona", persona), ("custom_context", custom_context)) if v is not _UNSET}
    return Call("PATCH", f"/users/{_seg(user)}", _as(UserRecord), body=body)


def count_tokens(text: str) -> Call:
    return Call("POST", "/tokens", lambda d: int(d["tokens"]), body={"text": text})


def flush(timeout: float | None = None) -> Call:
    return Call("POST", "/flush", lambda d: bool(d["flushed"]), body=_body(timeout=timeout))


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
    return Call("POST", f"/threads/{_seg(thread)}/context", _context, body=body)


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


def forget_matching(text: str, *, user: str | None = None, purge: bool = False) -> Call:
    body = _body(text=text, user=user, purge=purge or None)
    return Call("POST", "/facts/forget-matching", _as(list[Fact]), body=body)


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
    return Call("GET", f"/profiles/{_seg(user)}", lambda d: d["profile"])


def digest(user: str, *, now: datetime | None = None) -> Call:
    if now is not None:
        raise TypeError("a remote digest is made at the server's time")
    return Call("GET", f"/digests/{_seg(user)}", lambda d: str(d["digest"]))


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


def summaries(thread: str | None = None, *, kind: str | None = None, limit: int | None = None) -> Call:
    return Call("GET", "/summaries", _as(list[Summary]), params=_params(thread=thread, kind=kind, limit=limit))


def memory_cap() -> Call:
    return Call("GET", "/memories", lambda d: int(d["cap"]), params={"limit": 1})


def delete_agent(*, purge: bool = False) -> Call:
    return Call("DELETE", "", lambda d: {k: int(v) for k, v in d.items()}, params=_params(purge=purge))


def agents() -> Call:
    return Call("GET", "/v1/agents", _as(list[str]), root=True)


def api_keys(*, include_revoked: bool = False) -> Call:
    return Call("GET", "/v1/keys", _as(list[ApiKey]), params=_params(include_revoked=include_revoked), root=True)


def revoke_api_key(key_id: int) -> Call:
    return Call("DELETE", f"/v1/keys/{int(key_id)}", _as(ApiKey), root=True)


def export_records(threads: Sequence[str] | None = None) -> Call:
    params = {} if threads is None else {"thread": list(threads)}
    return Call("GET", "/export", lambda d: d, params=params, stream=True)


def import_text(text: str, *, on_conflict: str = "error") -> Call:
    return Call("POST", "/import", lambda d: {k: int(v) for k, v in d.items()}, params={"on_conflict": on_conflict},
                content=text.encode("utf-8"), content_type="application/x-ndjson")  # fmt: skip


def create_api_key(
    scope: str,
    *,
    agent: str | None = None,
    user: str | None = None,
    label: str | None = None,
    expires_at: datetime | None = None,
) -> Call:
    body = _body(scope=scope, agent=agent, user=user, label=label, expires_at=expires_at)
    return Call("POST", "/v1/keys", lambda d: NewApiKey(_as(ApiKey)(d["record"]), str(d["key"])), body=body, root=True)


#: name -> call builder, for the operations both clients offer with Memory's names.
CALLS: dict[str, Callable[..., Call]] = {
    f.__name__: f
    for f in (
        add_message, add_messages, add_to_threads, history, thread, threads, set_thread, reset, delete_thread, end,
        message, edit_message, delete_messages, external_message, prune, prune_messages, user, set_user,
        count_tokens, flush, context, recall, remember, fact, fact_history, facts, update_fact, forget, forget_all,
        forget_matching, list_memories, purge_memories, delete_memory, profile, digest, jobs, retry_job,
        usage_totals, usage_by_day, budget, status, summaries, memory_cap, delete_agent, agents, api_keys,
        revoke_api_key, create_api_key,
    )
}  # fmt: skip

#: The public methods of ``Memory`` that the clients do not offer, and why (docs/service.md lists them too).
#: A test fails when a new ``Memory`` method is in neither this nor :data:`CALLS`.
LOCAL_ONLY: dict[str, str] = {
    "authenticate": "the server's own check of a key: a client sends its key with every request",
    "for_agent": "make another Client with agent=...",
    "reindex": "an operator's task on the store: memlane reindex",
    "run_jobs": "the server's workers run jobs (memlane serve --workers-in-process, memlane worker)",
    "schema_versions": "GET /readyz tells whether the schema is current",
    "user_thread": "the server applies the thread ownership rule to every user key's request",
    "agent_exists": "a call on an unknown agent answers NotFound",
    "close": "Client.close() closes the connection pool",
}
