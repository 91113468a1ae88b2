"""Store-wide routes: API keys and ``db status`` (admin keys), and the operations endpoints
``/healthz``, ``/readyz`` and ``/metrics`` (no key needed)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, Path, Response

from memlane.store import StoreStatus
from memlane.types import ApiKey

from .auth import Caller, admin_caller, caller, server_state
from .fast import Router
from .metrics import render_metrics
from .schemas import PROBLEMS, KeyBody
from .state import ServerState

__all__ = ["ops", "router"]

logger = logging.getLogger("memlane.server")

router = Router(prefix="/v1", tags=["admin"], responses=PROBLEMS)
ops = Router(tags=["operations"])
Admin = Annotated[Caller, Depends(admin_caller)]
State = Annotated[ServerState, Depends(server_state)]


@router.get("/whoami", summary="The caller's scope, agent and user (what a key may reach)")
def whoami(who: Annotated[Caller, Depends(caller)]) -> dict[str, str | None]:
    return {"scope": who.scope, "agent": who.agent, "user": who.user}


@router.get("/agents", summary="Every agent with anything stored (admin keys)")
def agents(_: Admin, state: State) -> list[str]:
    return state.memory.agents()


@router.get("/keys", summary="Every API key (never the keys themselves)")
def list_keys(_: Admin, state: State, include_revoked: bool = False) -> list[ApiKey]:
    return state.memory.api_keys(include_revoked=include_revoked)


@router.post("/keys", status_code=201, summary="Create an API key; the response holds it, once, in `key`")
def create_key(_: Admin, state: State, body: KeyBody) -> dict[str, Any]:
    new = state.memory.create_api_key(
        body.scope, agent=body.agent, user=body.user, label=body.label, expires_at=body.expires_at
    )
    return {"record": new.record, "key": new.key}


@router.delete("/keys/{key_id}", summary="Revoke an API key")
def revoke_key(_: Admin, state: State, key_id: Annotated[int, Path(ge=1, le=2**62)]) -> ApiKey:
    revoked = state.memory.revoke_api_key(key_id)
    state.forget_keys()  # no grace period in this process (others see it within a few seconds)
    return revoked


@router.get("/usage", summary="LLM usage of every agent per operation, since a time (admin keys)")
def all_usage(_: Admin, state: State, since: datetime | None = None) -> dict[str, Any]:
    return {"since": since, "usage": state.memory.usage_totals(since, all_agents=True)}


@router.get("/db/status", summary="The store: backend, location, schema version, row counts (memlane db status)")
def db_status(_: Admin, state: State) -> StoreStatus:
    return state.memory.status(all_agents=True)


@ops.get("/healthz", summary="The process is up")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@ops.get(
    "/readyz", summary="The store answers and its schema is current", responses={503: {"description": "Not ready"}}
)
def readyz(state: State, response: Response) -> dict[str, Any]:
    try:
        version, newest = state.memory.schema_versions()
    except Exception as exc:  # any failure to reach the store means not ready
        # The reason (which may name the database's host and user) goes to the log, not to the caller.
        logger.warning("not ready: %s: %s", type(exc).__name__, exc)
        response.status_code = 503
        return {"status": "unavailable", "detail": "the store cannot be reached (see the server log)"}
    if version != newest:
        response.status_code = 503
        return {"status": "migrations pending", "schema_version": version, "expected": newest}
    return {"status": "ready", "schema_version": version, "backend": state.memory.store.backend}


@ops.get(
    "/metrics", summary="Prometheus metrics", response_class=Response, responses={200: {"content": {"text/plain": {}}}}
)
def metrics(state: State) -> Response:
    body, content_type = render_metrics(state)
    return Response(body, media_type=content_type)
