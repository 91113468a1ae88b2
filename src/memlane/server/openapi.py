"""The OpenAPI document as a product: what FastAPI derives from the routes, plus what makes generated clients
in other languages usable: an example of every request body and every answer (each checked against its schema
by ``tests/test_openapi.py``), error answers as ``application/problem+json`` with their stable ``type``, and the
bearer scheme on every route that needs a key.

Examples are by schema (``Message``, ``Fact`` ...), so a new route answering a known type has its example at
once; a route answering an ad-hoc object names its example in :data:`ROUTE_EXAMPLES`.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from .auth import BEARER_SCHEME
from .problems import TYPE_PREFIX

__all__ = ["EXAMPLES", "ROUTE_EXAMPLES", "install"]

_AT = "2026-11-24T09:31:00Z"
_MESSAGE = {
    "id": 12,
    "agent": "support-bot",
    "thread": "lisbon-trip",
    "seq": 12,
    "role": "user",
    "content": "Alice is vegetarian, so no seafood place for her",
    "user": "bob",
    "name": "Bob",
    "tool_calls": None,
    "tool_call_id": None,
    "token_count": 16,
    "metadata": {},
    "created_at": _AT,
    "summarized": False,
}
_THREAD = {
    "agent": "support-bot",
    "key": "lisbon-trip",
    "status": "open",
    "system_prompt": "You plan trips.",
    "metadata": {"channel": "C042"},
    "created_at": "2026-11-23T18:02:00Z",
    "updated_at": _AT,
    "ended_at": None,
    "message_count": 40,
    "users": ["alice", "bob", "chen"],
}
_FACT = {
    "id": 2,
    "agent": "support-bot",
    "content": "Alice is vegetarian",
    "category": "preference",
    "importance": 4,
    "owner": "alice",
    "subject": None,
    "visibility": "private",
    "source_thread": "lisbon-trip",
    "source_from_seq": 12,
    "source_to_seq": 12,
    "metadata": {},
    "created_at": _AT,
    "updated_at": _AT,
    "last_accessed_at": None,
    "access_count": 0,
    "status": "active",
    "valid_from": None,
    "invalid_at": None,
    "superseded_by": None,
}
_HIT = {
    "kind": "fact",
    "id": 2,
    "text": "Alice is vegetarian",
    "score": 0.82,
    "thread": "lisbon-trip",
    "message_id": None,
    "created_at": _AT,
    "metadata": {},
    "user": "alice",
    "seq": None,
    "message_ids": [],
    "retrievers": ["keyword", "vector"],
}
_SUMMARY = {
    "id": 7,
    "agent": "support-bot",
    "thread": "lisbon-trip",
    "kind": "rolling",
    "content": "Bob: the budget is about 120 euros a day. Chen booked an apartment in Alfama.",
    "from_seq": 1,
    "to_seq": 20,
    "owner": None,
    "method": "extractive",
    "metadata": {},
    "created_at": _AT,
}
_JOB = {
    "id": 31,
    "agent": "support-bot",
    "kind": "summarize",
    "payload": {"thread": "lisbon-trip"},
    "status": "dead",
    "attempts": 5,
    "max_attempts": 5,
    "run_after": _AT,
    "lease_owner": None,
    "lease_expires_at": None,
    "last_error": "ProviderError: the LLM answered 503",
    "created_at": _AT,
    "updated_at": _AT,
}
_KEY = {
    "id": 3,
    "prefix": "ml_Xk2p9aQ",
    "scope": "user",
    "agent": "support-bot",
    "user": "alice",
    "label": "alice's phone",
    "created_at": _AT,
    "expires_at": None,
    "revoked_at": None,
}
_FACT_CHANGE = {
    "id": 5,
    "fact_id": 2,
    "action": "update",
    "actor": "alice",
    "old_content": "Alice eats fish",
    "new_content": "Alice is vegetarian",
    "changes": {"content": ["Alice eats fish", "Alice is vegetarian"]},
    "at": _AT,
}
_MEMORY_OUT = {
    "id": 9,
    "content": "The Lisbon trip is planned: Alfama apartment, 120 euros a day, no seafood for Alice.",
    "createdAt": _AT,
    "updatedAt": _AT,
    "sourceConversationId": "lisbon-trip",
    "metadata": {},
    "summary": {**_SUMMARY, "id": 9, "kind": "memory", "content": "The Lisbon trip is planned."},
}

#: An example of each schema, by its name in ``components.schemas``.
EXAMPLES: dict[str, Any] = {
    "Message": _MESSAGE,
    "Thread": _THREAD,
    "Fact": _FACT,
    "Hit": _HIT,
    "HitGroup": {"thread": "lisbon-trip", "score": 0.82, "hits": [_HIT]},
    "Summary": _SUMMARY,
    "Job": _JOB,
    "ApiKey": _KEY,
    "UserRecord": {
        "user": "alice",
        "persona": "brief and friendly",
        "custom_context": "I'm vegetarian",
        "interactions": 14,
        "last_interaction": _AT,
    },
    "StoreStatus": {
        "backend": "sqlite",
        "location": "",
        "schema_version": 15,
        "counts": {"threads": 3, "messages": 51, "facts": 6},
        "meta": {"embedding_model": "minilm"},
    },
    "UsageDay": {"day": "2026-11-24", "calls": 12, "tokens": 5400},
    "FactChange": _FACT_CHANGE,
    "FactOut": {"fact": _FACT, "history": [_FACT_CHANGE]},
    "MemoryOut": _MEMORY_OUT,
    "MemoriesOut": {"memories": [_MEMORY_OUT], "cap": 10},
    "Deleted": {"success": True, "deletedCount": 8},
    "SectionOut": {"title": "Remembered facts", "lines": ["[preference] Alice is vegetarian"], "tokens": 9},
    "ContextOut": {
        "openai_messages": [
            {"role": "system", "content": "You plan trips.\n\n## Remembered facts\n- [preference] Alice is vegetarian"},
            {"role": "user", "content": "Bob: where do we eat tonight?"},
        ],
        "sections": [{"title": "Remembered facts", "lines": ["[preference] Alice is vegetarian"], "tokens": 9}],
        "system_prompt": "You plan trips.",
        "summaries": [],
        "facts": [_FACT],
        "recalled": [],
        "messages": [_MESSAGE],
        "budget": 4000,
        "encoding": "o200k_base",
        "tokens": 61,
        "dropped_messages": 0,
        "extra_sections": [],
    },
    "Problem": {
        "type": TYPE_PREFIX + "not-found",
        "title": "Not found",
        "status": 404,
        "detail": "no fact 99 in agent 'support-bot'",
        "instance": "/v1/agents/support-bot/facts/99",
        "request_id": "3f2c9e0d8b7a4c61",
    },
    # request bodies
    "MessageBody": {"role": "user", "content": "I'm vegetarian, by the way", "user": "alice", "name": "Alice"},
    "OneMessageBody": {
        "role": "user",
        "content": "I'm vegetarian, by the way",
        "user": "alice",
        "name": "Alice",
        "external_id": "slack:1716912345.000100",
    },
    "MessagesBody": {
        "messages": [
            {"role": "user", "content": "Where do we eat?", "user": "bob"},
            {"role": "assistant", "content": "Try Ao 26, it is vegan."},
        ]
    },
    "ThreadsMessagesBody": {
        "threads": {
            "lisbon-trip": [{"role": "user", "content": "Hi all", "user": "chen"}],
            "dm-bob": [{"role": "user", "content": "Keep it secret", "user": "bob"}],
        }
    },
    "ThreadBody": {"system_prompt": "You plan trips.", "metadata": {"channel": "C042"}},
    "ContextBody": {"query": "where do we eat tonight?", "user": "alice", "budget": 1000},
    "RecallBody": {"query": "what does Alice eat?", "user": "alice", "limit": 5, "kinds": ["fact", "message"]},
    "FactBody": {"content": "Alice is vegetarian", "user": "alice", "category": "preference", "importance": 4},
    "FactPatch": {"content": "Alice is vegan", "importance": 5},
    "VisibilityBody": {"visibility": "shared"},
    "KeyBody": {"scope": "user", "agent": "support-bot", "user": "alice", "label": "alice's phone"},
    "EditBody": {"content": "the printer on floor 2 is jammed"},
    "MessageIdsBody": {"ids": [41, 42]},
    "PruneBody": {"older_than_days": 90},
    "UserPatch": {"persona": "brief and friendly"},
    "TextBody": {"text": "How many tokens is this?"},
    "FlushBody": {"timeout": 5},
    "ForgetMatchingBody": {"text": "Bob likes pizza", "user": "bob"},
}

_USAGE = [
    {
        "agent": "support-bot",
        "operation": "summarize",
        "calls": 4,
        "failures": 0,
        "prompt_tokens": 3100,
        "completion_tokens": 420,
        "latency_s": 3.2,
        "p95_latency_s": 1.1,
    }
]
_BUDGET = {
    "agent": "support-bot",
    "limit": 0,
    "spent": 3520,
    "window_s": 86400.0,
    "reserve": 0.1,
    "low": False,
    "resume_at": None,
}

#: Examples of answers that are not one of the schemas above, by (method, path).
ROUTE_EXAMPLES: dict[tuple[str, str], Any] = {
    ("get", "/healthz"): {"status": "ok"},
    ("get", "/readyz"): {"status": "ready", "schema_version": 15, "backend": "sqlite"},
    ("get", "/v1/whoami"): {"scope": "agent", "agent": "support-bot", "user": None},
    ("get", "/v1/agents"): ["support-bot", "family-memorial"],
    ("post", "/v1/keys"): {"record": _KEY, "key": "ml_Xk2p9aQ…(shown once)"},
    ("get", "/v1/usage"): {"since": None, "usage": _USAGE},
    ("get", "/v1/agents/{agent}/usage"): {"agent": "support-bot", "since": None, "usage": _USAGE, "budget": _BUDGET},
    ("get", "/v1/agents/{agent}/profiles/{user}"): {
        "user": "alice",
        "profile": "Alice is vegetarian and loves hiking.",
    },
    ("get", "/v1/agents/{agent}/digests/{user}"): {"user": "alice", "digest": "Today: asked about dinner places."},
    ("post", "/v1/agents/{agent}/threads/{thread}/reset"): {"cleared": 40},
    ("delete", "/v1/agents/{agent}/facts"): {"forgotten": 3},
    ("post", "/v1/agents/{agent}/import"): {"threads": 3, "messages": 51, "facts": 6, "summaries": 2},
    ("post", "/v1/agents/{agent}/prune"): {"deleted": 2},
    ("post", "/v1/agents/{agent}/prune/messages"): {"deleted": 120},
    ("post", "/v1/agents/{agent}/threads/{thread}/messages/delete"): {"deleted": 2},
    ("post", "/v1/agents/{agent}/tokens"): {"tokens": 7},
    ("post", "/v1/agents/{agent}/flush"): {"flushed": True},
    ("delete", "/v1/agents/{agent}"): {"threads": 3, "messages": 51, "facts": 6, "summaries": 2, "memories": 0},
    ("post", "/v1/agents/{agent}/messages/batch"): {"lisbon-trip": [_MESSAGE]},
}

_OPEN = {"/healthz", "/readyz", "/metrics"}  # answered without a key


def _example_of(schema: dict[str, Any]) -> Any:
    """The example of a response schema built from known schemas (a ref, a list or a union of them), or None."""
    ref = schema.get("$ref")
    if ref:
        return EXAMPLES.get(ref.rsplit("/", 1)[-1])
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        item = _example_of(schema["items"])
        return None if item is None else [item]
    for option in schema.get("anyOf", []):
        found = _example_of(option)
        if found is not None:
            return found
    return None


def _complete(spec: dict[str, Any]) -> dict[str, Any]:
    """Add the examples, problem answers and security to the document FastAPI made."""
    schemas = spec.get("components", {}).get("schemas", {})
    for name, example in EXAMPLES.items():
        if name in schemas:
            schemas[name]["example"] = example
    for path, operations in spec.get("paths", {}).items():
        for method, op in operations.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None and "example" not in body:
                found = _example_of(body.get("schema", {}))
                if found is not None:
                    body["example"] = found
            for status, answer in op.get("responses", {}).items():
                content = answer.get("content", {})
                if status.startswith("2"):
                    json_answer = content.get("application/json")
                    if json_answer is not None and "example" not in json_answer:
                        found = ROUTE_EXAMPLES.get((method, path))
                        json_answer["example"] = found if found is not None else _example_of(json_answer["schema"])
                elif status[0] in "45" and "application/problem+json" in content:
                    schema = content.pop("application/json", {}).get("schema", {"$ref": "#/components/schemas/Problem"})
                    kind = {
                        "401": "unauthenticated",
                        "403": "forbidden",
                        "404": "not-found",
                        "409": "conflict",
                        "413": "body-too-large",
                        "415": "unsupported-media-type",
                        "422": "invalid-input",
                        "429": "rate-limited",
                        "400": "malformed-json",
                        "502": "provider-error",
                        "503": "storage-unavailable",
                    }.get(status, "internal-error")
                    content["application/problem+json"] = {
                        "schema": schema,
                        "example": {
                            "type": TYPE_PREFIX + kind,
                            "title": answer.get("description", ""),
                            "status": int(status),
                            "detail": answer.get("description", ""),
                        },
                    }
            if path not in _OPEN:
                op.setdefault("security", [{"HTTPBearer": []}])
    spec.setdefault("components", {}).setdefault("securitySchemes", dict(BEARER_SCHEME))
    return spec


def install(app: FastAPI) -> None:
    """Make ``app.openapi()`` return the completed document (built once, on first use)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            app.openapi_schema = _complete(spec)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
