"""MCP over HTTP at ``/mcp``: the MCP tools of ``memlane mcp`` (:mod:`memlane.mcp.server`) on the SDK's streamable
HTTP transport, for agents on other machines. Authenticated like the REST API, by the same key check and scopes
(:func:`memlane.server.auth.authenticate`): a user key's tools act for its user only (its own threads, its own
and shared facts); an agent key's tools take the user as an argument; an admin key (or an open server) names
the agent with ``?agent=NAME`` (default: the server's default agent).

Each request is answered on its own (stateless mode, JSON answers): the caller is known for the duration of
that request only, through a context variable the tools read, so no session outlives its key. Needs the
``mcp`` package (``pip install 'memlane[server]'`` brings it); without it ``/mcp`` is not served.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextvars import ContextVar
from typing import Any

from fastapi import FastAPI, HTTPException
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from memlane.errors import MemlaneError

from . import problems
from .auth import Scoped, authenticate, bearer_secret, bind
from .state import ServerState

__all__ = ["PATH", "install"]

PATH = "/mcp"
_scoped: ContextVar[Scoped] = ContextVar("memlane_mcp_caller")


def install(app: FastAPI, state: ServerState) -> bool:
    """Serve MCP at ``/mcp`` on ``app`` (and run its session manager with the app); False without ``mcp``."""
    try:
        from mcp.server.transport_security import TransportSecuritySettings

        from memlane.async_memory import AsyncMemory
        from memlane.mcp.server import Acting, build_acting_server
    except ImportError:
        return False
    wrapped: dict[str, AsyncMemory] = {}

    def acting() -> Acting:
        s = _scoped.get()
        memory = wrapped.get(s.memory.agent)
        if memory is None or memory.sync is not s.memory:
            memory = wrapped[s.memory.agent] = AsyncMemory.wrap(s.memory)
        return Acting(memory, s.caller.user if s.is_user else None, s.is_user)

    server = build_acting_server(acting)
    # The server's own edge checks Host and Origin (open mode: loopback names only), as for every route.
    inner = server.streamable_http_app(
        streamable_http_path=PATH,
        stateless_http=True,
        json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    app.router.add_route(PATH, _Authenticated(inner, state), methods=["GET", "POST", "DELETE"], include_in_schema=False)
    before = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_: Any) -> AsyncIterator[Any]:
        async with before(app_) as value, server.session_manager.run():
            yield value

    app.router.lifespan_context = lifespan
    return True


class _Authenticated:
    """Authenticate the request (``Authorization: Bearer``), bind it to its agent, then hand it to MCP."""

    def __init__(self, app: ASGIApp, state: ServerState) -> None:
        self.app, self.state = app, state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        try:
            missing = "send an API key: Authorization: Bearer <key>"
            # On a worker thread: a key not checked moments ago, or a new agent's view, asks the store.
            who = await run_in_threadpool(
                authenticate, request, self.state, bearer_secret(request), missing, session=False
            )
            agent = who.agent or request.query_params.get("agent") or self.state.memory.agent
            bound = await run_in_threadpool(bind, who, agent, self.state)
            token = _scoped.set(bound)
        except MemlaneError as exc:
            refused = problems.problem(request, problems.status_for(exc), str(exc), kind=problems.kind_for(exc))
            await refused(scope, receive, send)
            return
        except HTTPException as exc:  # 429
            limited = problems.problem(request, exc.status_code, str(exc.detail), headers=dict(exc.headers or {}))
            await limited(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            _scoped.reset(token)
