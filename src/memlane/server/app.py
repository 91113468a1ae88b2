"""The ASGI app of ``memlane serve``: :func:`create_app` wires the routes (each a thin call to the
:class:`~memlane.Memory` facade), the one auth dependency (:mod:`.auth`), problem details (:mod:`.problems`),
request ids, body size limits, structured access logs and metrics.

Routes::

    /v1/agents/{agent}/threads ...      threads and messages        (routes_threads)
    /v1/agents/{agent}/context|recall|facts ...                     (routes_memory)
    /v1/agents/{agent}/memories|profiles|digests|jobs|usage|export|import|status   (routes_agent)
    /v1/keys, /v1/db/status             admin                       (routes_admin)
    /healthz /readyz /metrics           operations, no key
    /ui                                 the review web UI (ui/), signed in with a key in a cookie
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memlane import Memory, __version__

from . import problems, routes_admin, routes_agent, routes_memory, routes_threads, ui
from .settings import ServerSettings
from .state import ServerState

__all__ = ["create_app"]

access_log = logging.getLogger("memlane.server.access")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class _Edge:
    """Pure ASGI middleware: request id, body size limit (413), access log and metrics for each request."""

    def __init__(self, app: ASGIApp, state: ServerState) -> None:
        self.app, self.state = app, state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        given = headers.get("x-request-id", "")
        request_id = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        limit = self.state.settings.max_body_bytes
        if scope["path"].endswith("/import"):
            limit = self.state.settings.max_import_bytes
        started = time.perf_counter()
        status = 500
        too_large = False

        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            too_large = True
        received = 0

        async def limited_receive() -> Message:
            nonlocal received, too_large
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    too_large = True
                    raise _TooLarge
            return message

        async def tagged_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            if too_large:
                await self._problem_413(scope, send, tagged_send, limit)
            else:
                try:
                    await self.app(scope, limited_receive, tagged_send)
                except _TooLarge:
                    await self._problem_413(scope, send, tagged_send, limit)
        finally:
            elapsed = time.perf_counter() - started
            route = scope.get("route")
            template = getattr(route, "path", None) or "unmatched"
            method = scope.get("method", "-")
            self.state.metrics.requests.labels(method, template, str(status)).inc()
            self.state.metrics.latency.labels(method, template).observe(elapsed)
            caller = (scope.get("state") or {}).get("caller")
            access_log.info(
                json.dumps(
                    {
                        "event": "request",
                        "request_id": request_id,
                        "method": method,
                        "route": template,
                        "path": scope["path"],
                        "status": status,
                        "ms": round(elapsed * 1000, 2),
                        "key": getattr(getattr(caller, "key", None), "id", None),
                    }
                )
            )

    async def _problem_413(self, scope: Scope, send: Send, tagged_send: Send, limit: int) -> None:
        from starlette.requests import Request

        response = problems.problem(Request(scope), 413, f"the request body exceeds {limit} bytes")
        await response(scope, _drain, tagged_send)


class _TooLarge(Exception):
    """The body grew past the limit while being read."""


async def _drain() -> Message:
    return {"type": "http.disconnect"}


def create_app(memory: Memory, settings: ServerSettings | None = None) -> FastAPI:
    """The server app over ``memory``'s store (``memory`` stays the caller's to close).

    Every route is under ``/v1``; the OpenAPI document is at ``/openapi.json``, interactive docs at ``/docs``.
    """
    state = ServerState(memory, settings or ServerSettings())
    app = FastAPI(
        title="memlane",
        version=__version__,
        description="Long-term memory for LLM chat bots and agents, over HTTP. Send `Authorization: Bearer <key>` "
        "(see `memlane keys create`). Errors are RFC 9457 problem details.",
    )
    app.state.memlane = state
    problems.install(app)
    for module in (routes_threads, routes_memory, routes_agent, routes_admin):
        app.include_router(module.router)
    app.include_router(routes_admin.ops)
    ui.install(app)
    app.add_middleware(_Edge, state=state)  # type: ignore[arg-type]
    return app
