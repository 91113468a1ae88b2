"""Who a request is (its API key) and what it may touch: the one place the service checks access."""

from __future__ import annotations

from fastapi import Request
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import Forbidden
from ..memory import Memory
from .keys import Principal, hash_key

__all__ = ["acting_user", "memory_for", "principal_of"]


def principal_of(request: Request) -> Principal:
    """The caller, from ``Authorization: Bearer <key>``.

    Raises:
        HTTPException 401: no key, an unknown or a revoked one.
    """
    if request.app.state.open_access:
        return Principal("admin")
    header = request.headers.get("authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise StarletteHTTPException(
            401, "send an API key: Authorization: Bearer <key>", {"WWW-Authenticate": "Bearer"}
        )
    memory: Memory = request.app.state.memory
    found = memory.store.find_api_key(hash_key(key.strip()))
    if found is None or found.revoked_at is not None:
        raise StarletteHTTPException(401, "unknown or revoked API key", {"WWW-Authenticate": "Bearer"})
    return Principal(found.scope, found.agent, found.user, found.id)


def memory_for(request: Request, caller: Principal, agent: str) -> Memory:
    """The memory of ``agent`` if the caller may use it (one ``Memory`` per agent, kept by the app).

    Raises:
        Forbidden: the key is for another agent.
    """
    if not caller.may_use(agent):
        raise Forbidden(f"this key is not for agent {agent!r}")
    agents: dict[str, Memory] = request.app.state.agents
    if agent not in agents:
        agents[agent] = request.app.state.memory.for_agent(agent)
    return agents[agent]


def acting_user(caller: Principal, asked: str | None) -> str | None:
    """The end user a request acts for: a user key's own user (asking for another is refused), else the
    user the request names (agent and admin keys act for any user of their agents).

    Raises:
        Forbidden: a user key asking to act for another user.
    """
    if caller.scope == "user":
        if asked is not None and asked != caller.user:
            raise Forbidden("a user key acts for its own user only")
        return caller.user
    return asked
