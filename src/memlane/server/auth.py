"""Who is asking, and for whom: the one dependency every route uses (the review UI's pages too).

A request carries ``Authorization: Bearer <key>``. The key's scope decides what it reaches:

    admin   every agent, key management
    agent   its own agent only, acting for any of its users (the end user comes from an explicit field)
    user    its own agent and user only: a ``user`` field naming anyone else is refused (403)

While the store holds no active key the server is *open*: requests without a key act as admin (the server
then listens on loopback only). Each key (or, when open, each client address) has a rate limit: 429 with
``Retry-After``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Path, Request

from memlane import Memory
from memlane.errors import Forbidden, NotFound, Unauthenticated
from memlane.types import ApiKey, Fact, Thread

from .state import ServerState

__all__ = [
    "Caller",
    "Scoped",
    "admin_caller",
    "authenticate",
    "bind",
    "caller",
    "reachable_agents",
    "scoped",
    "server_state",
]

AgentPath = Annotated[str, Path(min_length=1, max_length=200, pattern=r"^[^\s/]+$", description="The agent.")]


def server_state(request: Request) -> ServerState:
    """The process's :class:`ServerState`."""
    state: ServerState = request.app.state.memlane
    return state


@dataclass(frozen=True, slots=True)
class Caller:
    """The authenticated caller: its key (None when the server is open) and what it may reach."""

    key: ApiKey | None
    scope: str
    agent: str | None
    user: str | None

    def may_reach(self, agent: str) -> bool:
        """Whether the caller may act in ``agent``."""
        return self.scope == "admin" or self.agent == agent


def caller(request: Request, state: Annotated[ServerState, Depends(server_state)]) -> Caller:
    """Authenticate the request (``Authorization: Bearer <key>``) and apply the key's rate limit.

    Raises:
        Unauthenticated: no key (keys are configured), or a bad, revoked or expired key. 429 when limited.
    """
    header = request.headers.get("authorization")
    secret = None
    if header is not None:
        kind, _, secret = header.partition(" ")
        if kind.lower() != "bearer" or not secret.strip():
            raise Unauthenticated("the Authorization header must be 'Bearer <key>'")
    return authenticate(request, state, secret, "send an API key: Authorization: Bearer <key>")


def authenticate(request: Request, state: ServerState, secret: str | None, missing: str) -> Caller:
    """The caller holding API key ``secret`` (None: no key given; then admin while the server is open),
    with the key's rate limit applied. The one check of a key, for the API's header and the UI's cookie.

    Raises:
        Unauthenticated: no key (``missing`` says how to send one), or a bad, revoked or expired key.
        429 when limited.
    """
    if secret is None:
        if not state.open_mode():
            raise Unauthenticated(missing)
        found = Caller(None, "admin", None, None)
        bucket = f"open:{request.client.host if request.client else '-'}"
    else:
        key = state.memory.authenticate(secret.strip())
        found = Caller(key, key.scope, key.agent, key.user)
        bucket = f"key:{key.id}"
    wait = state.limiter.take(bucket)
    if wait > 0:
        raise HTTPException(429, f"rate limit of this key exceeded; retry in {wait:.2f} s",
                            headers={"Retry-After": str(max(1, math.ceil(wait)))})  # fmt: skip
    request.state.caller = found
    return found


def admin_caller(who: Annotated[Caller, Depends(caller)]) -> Caller:
    """The caller, who must hold an admin key. Raises Forbidden."""
    if who.scope != "admin":
        raise Forbidden("this needs an admin key")
    return who


@dataclass(frozen=True, slots=True)
class Scoped:
    """A request's caller bound to the agent of its path: the memory to call and the user to act for."""

    caller: Caller
    memory: Memory

    @property
    def is_user(self) -> bool:
        """Whether a user key is asking (then everything is limited to that user)."""
        return self.caller.scope == "user"

    def acting_for(self, user: str | None) -> str | None:
        """The end user the request acts for: a user key's own user (naming another is Forbidden), else
        ``user`` as given (None: the agent itself)."""
        if self.is_user:
            if user is not None and user != self.caller.user:
                raise Forbidden(f"this key acts for user {self.caller.user!r} only")
            return self.caller.user
        return user

    def require_agent_level(self) -> None:
        """Refuse user keys (operations on the whole agent: memories, jobs, usage, export ...)."""
        if self.is_user:
            raise Forbidden("this needs an agent or admin key")

    def visible_fact(self, fact: Fact) -> Fact:
        """``fact`` if the caller may see it (a user key: its own, shared or the agent's), else NotFound
        (so that another user's private fact does not even show that it exists)."""
        if self.is_user and fact.owner not in (None, self.caller.user) and fact.visibility != "shared":
            raise NotFound(f"no fact {fact.id} in agent {self.memory.agent!r}")
        return fact

    def fact_actor(self, fact_id: int, user: str | None) -> str | None:
        """The user to act as when changing a fact (the facade then checks ownership); a user key may not
        even learn of another's private fact (NotFound)."""
        acting = self.acting_for(user)
        if self.is_user:
            self.visible_fact(self.memory.fact(fact_id))
        return acting

    def thread_for_user(self, thread: str, *, write: bool = False, must_exist: bool = False) -> Thread | None:
        """Check a user key may use ``thread``: one it took part in (for ``write`` — reset, delete — one
        only it took part in). An unknown thread is free to start (or NotFound with ``must_exist``)."""
        found = self.memory.store.get_thread(self.memory.agent, thread) if self.is_user or must_exist else None
        if found is None:
            if must_exist:
                raise NotFound(f"no thread {thread!r} in agent {self.memory.agent!r}")
            return None
        if self.is_user:
            users = set(found.users)
            mine = users == {self.caller.user} if write else self.caller.user in users
            if not mine and not (users == set() and not write):
                # Not found rather than forbidden: a user key learns nothing of others' threads.
                raise NotFound(f"no thread {thread!r} in agent {self.memory.agent!r}")
        return found


def scoped(
    agent: AgentPath,
    who: Annotated[Caller, Depends(caller)],
    state: Annotated[ServerState, Depends(server_state)],
) -> Scoped:
    """The caller bound to ``agent`` (from the path). Raises Forbidden for another agent's key."""
    return bind(who, agent, state)


def bind(who: Caller, agent: str, state: ServerState) -> Scoped:
    """``who`` bound to ``agent``. Raises Forbidden for another agent's key."""
    if not who.may_reach(agent):
        raise Forbidden(f"this key is for agent {who.agent!r}, not {agent!r}")
    return Scoped(who, state.view(agent))


def reachable_agents(who: Caller, state: ServerState) -> list[str]:
    """The agents ``who`` may open: every agent with anything stored for an admin, else the key's own."""
    if who.scope != "admin":
        return [who.agent] if who.agent else []
    return sorted(state.memory.agents())
