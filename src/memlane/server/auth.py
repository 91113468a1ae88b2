"""Who is asking, and for whom: the one dependency every route uses (the review UI's pages too).

A request carries ``Authorization: Bearer <key>``. The key's scope decides what it reaches:

    admin   every agent, key management
    agent   its own agent only, acting for any of its users (the end user comes from an explicit field)
    user    its own agent and user only: a ``user`` field naming anyone else is refused (403)

A server started with ``--open`` (loopback only) treats requests without a key as admin; any other server
needs a key for every request, for as long as it runs. Each key (or, when open, each client address) has a
rate limit, and so do failed authentications per client address: 429 with ``Retry-After``.

A user key reaches only the threads its user started or was added to (:meth:`memlane.Memory.user_thread`,
the same rule as the MCP server's), writes only ``user`` messages, and sees the change history of its own
facts only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Path, Request
from starlette.concurrency import run_in_threadpool

from memlane import Memory
from memlane.errors import Forbidden, NotFound, Unauthenticated
from memlane.types import ApiKey, Fact

from .state import SESSION_LABEL, ServerState

__all__ = [
    "Caller",
    "Scoped",
    "admin_caller",
    "authenticate",
    "bearer_secret",
    "bind",
    "caller",
    "reachable_agents",
    "scoped",
    "server_state",
]

AgentPath = Annotated[str, Path(description="The agent (names: docs/service.md).")]


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


#: The API's security scheme, as the OpenAPI document names it (:func:`memlane.server.openapi.install` adds it to
#: every operation that needs a key). Not a dependency of the routes: FastAPI would run it for every request
#: only for :func:`caller` to read the same header again (issue 39: each dependency is a good part of a small
#: request's work on the event loop).
BEARER_SCHEME = {
    "HTTPBearer": {
        "type": "http",
        "description": "An API key: `memlane keys create` (shown once).",
        "scheme": "bearer",
    }
}


async def caller(request: Request) -> Caller:
    """Authenticate the request (``Authorization: Bearer <key>``) and apply the key's rate limit.

    A coroutine, like the other dependencies of the API's routes: a key checked moments ago is known without
    asking the store, and a check on the event loop costs less than a hand-off to a worker thread (the store is
    asked on one, see :meth:`ServerState.knows`). Each route depends on one of :func:`caller`, :func:`scoped`
    or :func:`existing` only, which ask for ``Authorization`` themselves (FastAPI's work per dependency is a
    good part of a small request's, issue 39); a request is authenticated once whatever asks for it.

    Raises:
        Unauthenticated: no key (keys are configured), or a bad, revoked or expired key. 429 when limited.
    """
    known: Caller | None = getattr(request.state, "caller", None)
    if known is not None:
        return known
    state = server_state(request)
    secret = bearer_secret(request)
    missing = "send an API key: Authorization: Bearer <key>"
    if secret is not None and not state.knows(secret.strip()):
        return await run_in_threadpool(authenticate, request, state, secret, missing, session=False)
    return authenticate(request, state, secret, missing, session=False)


def bearer_secret(request: Request) -> str | None:
    """The key of ``Authorization: Bearer <key>``, or None without the header.

    Raises:
        Unauthenticated: an Authorization header of another form.
    """
    header = request.headers.get("authorization")
    if header is None:
        return None
    kind, _, secret = header.partition(" ")
    if kind.lower() != "bearer" or not secret.strip():
        raise Unauthenticated("the Authorization header must be 'Bearer <key>'")
    return secret


def authenticate(
    request: Request, state: ServerState, secret: str | None, missing: str, *, session: bool | None = None
) -> Caller:
    """The caller holding API key ``secret`` (None: no key given; then admin while the server is open),
    with the key's rate limit applied. The one check of a key, for the API's header and the UI's cookie.

    Raises:
        Unauthenticated: no key (``missing`` says how to send one), or a bad, revoked or expired key.
        429 when limited.
    """
    address = request.client.host if request.client else "-"
    if secret is None:
        if not state.open:
            raise Unauthenticated(missing)
        found = Caller(None, "admin", None, None)
        bucket = f"open:{address}"
    else:
        blocked = state.failures.blocked(address)
        if blocked > 0:
            raise _too_many(blocked, "too many failed authentications from this address")
        try:
            key = state.key(secret.strip())
            is_session = bool(key.label and key.label.startswith(SESSION_LABEL))
            if session is not None and is_session != session:
                raise Unauthenticated("a UI session is not an API key" if is_session else "sign in again")
        except Unauthenticated:
            state.failures.take(address)
            raise
        found = Caller(key, key.scope, key.agent, key.user)
        bucket = f"key:{key.id}"
    wait = state.limiter.take(bucket)
    if wait > 0:
        raise _too_many(wait, "rate limit of this key exceeded")
    request.state.caller = found
    return found


def _too_many(wait: float, why: str) -> HTTPException:
    return HTTPException(429, f"{why}; retry in {wait:.2f} s", headers={"Retry-After": str(max(1, math.ceil(wait)))})


async def admin_caller(who: Annotated[Caller, Depends(caller)]) -> Caller:
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

    def sees_history(self, fact: Fact) -> bool:
        """Whether the caller may read the change history of ``fact`` (its earlier, maybe private, texts):
        its owner and agent-level keys only; others who see a shared fact see its current text."""
        return not self.is_user or fact.owner == self.caller.user

    def fact_actor(self, fact_id: int, user: str | None) -> str | None:
        """The user to act as when changing a fact (the facade then checks ownership); a user key may not
        even learn of another's private fact (NotFound)."""
        acting = self.acting_for(user)
        if self.is_user:
            self.visible_fact(self.memory.fact(fact_id))
        return acting

    def thread(self, thread: str, *, manage: bool = False, must_exist: bool = False) -> str:
        """The stored name of ``thread`` for this caller: as given for agent and admin keys; for a user key
        the thread its user means (their own, or a thread they were added to: the ownership rule of
        :meth:`memlane.Memory.user_thread`). ``must_exist``: NotFound for a thread that is not there.

        Raises:
            NotFound: no such thread (``must_exist``). Forbidden: ``manage`` on a thread shared with others.
        """
        if self.is_user:
            assert self.caller.user is not None
            return self.memory.user_thread(thread, self.caller.user, manage=manage, must_exist=must_exist)
        if must_exist:
            self.memory.thread(thread)  # NotFound, for every scope alike
        return thread

    def check_role(self, role: str) -> None:
        """A user key writes its user's own messages only: the bot's replies, system and tool messages come
        from an agent key. Raises Forbidden."""
        if self.is_user and role != "user":
            raise Forbidden(f"a user key writes messages of role 'user' only, not {role!r}")


async def scoped(agent: AgentPath, request: Request) -> Scoped:
    """The caller bound to ``agent`` (from the path). Raises Forbidden for another agent's key (and as
    :func:`caller`)."""
    who, state = await caller(request), server_state(request)
    if state.has_view(agent):
        return bind(who, agent, state)
    return await run_in_threadpool(bind, who, agent, state)  # a new view of the store


def bind(who: Caller, agent: str, state: ServerState) -> Scoped:
    """``who`` bound to ``agent``. Raises Forbidden for another agent's key, InvalidInput for a bad name."""
    if not who.may_reach(agent):
        raise Forbidden(f"this key is for agent {who.agent!r}, not {agent!r}")
    return Scoped(who, state.view(agent))


async def existing(agent: AgentPath, request: Request) -> Scoped:
    """:func:`scoped`, once its agent is known: it has something stored, or an API key of its own (reads of an
    unknown agent are NotFound, as in the CLI; an agent or user key's agent is known by its key)."""
    s = await scoped(agent, request)
    if s.caller.scope != "admin":
        return s
    return await run_in_threadpool(_known, s)


def _known(s: Scoped) -> Scoped:
    if not s.memory.agent_exists():
        raise NotFound(f"no agent {s.memory.agent!r} in this store")
    return s


def reachable_agents(who: Caller, state: ServerState) -> list[str]:
    """The agents ``who`` may open: every agent with anything stored for an admin, else the key's own."""
    if who.scope != "admin":
        return [who.agent] if who.agent else []
    return sorted(state.memory.agents())
