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

import contextlib
import json
import logging
import os
import re
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memlane import Memory, __version__

from . import fast, mcp_http, openapi, problems, routes_admin, routes_agent, routes_memory, routes_threads, ui
from .names import keep_encoded_slashes
from .settings import LOOPBACK_NAMES, ServerSettings
from .state import ServerState

__all__ = ["create_app"]

access_log = logging.getLogger("memlane.server.access")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The request headers the edge reads (the app reads the others itself, from the scope).
_READ = frozenset({b"host", b"origin", b"sec-fetch-site", b"content-length", b"content-type", b"x-request-id"})
_MAX_CHILDREN = 4096  # metrics children kept at hand (methods and statuses are the client's to choose)
_JSON_LINES = frozenset({"application/x-ndjson", "application/jsonl", "application/json-lines", "application/json"})


class _Edge:
    """Pure ASGI middleware, the server's front door. For each request: a request id; the ``Host`` check (an
    open server answers loopback names only, so a DNS-rebinding page cannot reach it; others the configured
    ``allowed_hosts``); no cross-origin browser requests to the API, nor cross-origin form posts to the UI
    (``Origin`` / ``Sec-Fetch-Site``); the body read whole, within its size limit (413, chunked or not), and
    of a JSON or JSON Lines type where the API reads one (415); then the access log and metrics."""

    def __init__(self, app: ASGIApp, state: ServerState) -> None:
        self.app, self.state = app, state
        self._children: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        keep_encoded_slashes(scope)
        headers = _headers(scope)
        given = headers.get("x-request-id", "")
        request_id = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status = 500
        tag = (b"x-request-id", request_id.encode())

        async def tagged_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), tag]
            await send(message)

        try:
            refused = self._refusal(scope, headers)
            if refused is None:
                body = await self._body(scope, receive, headers)
                if isinstance(body, tuple):
                    refused = body
                else:
                    await self.app(scope, _replay(body, receive), tagged_send)
            if refused is not None:
                await self._problem(scope, tagged_send, *refused)
        finally:
            elapsed = time.perf_counter() - started
            route = scope.get("route")
            template = getattr(route, "path_format", None) or getattr(route, "path", None) or "unmatched"
            method = scope.get("method", "-")
            self._observe(method, template, status, elapsed)
            if access_log.isEnabledFor(logging.INFO):
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

    def _observe(self, method: str, template: str, status: int, elapsed: float) -> None:
        """Count the request and its latency (the metrics' children of each route and status are kept: looking
        them up by their labels each time is most of what metrics cost per request)."""
        children = self._children.get((method, template, status))
        if children is None:
            metrics = self.state.metrics
            children = metrics.requests.labels(method, template, str(status)), metrics.latency.labels(method, template)
            if len(self._children) < _MAX_CHILDREN:
                self._children[(method, template, status)] = children
        children[0].inc()
        children[1].observe(elapsed)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str] | None:
        """(status, problem kind, detail) of a request refused before it is read, or None."""
        host = headers.get("host", "")
        name = _host_name(host)
        settings = self.state.settings
        if self.state.open:
            if name not in LOOPBACK_NAMES and not name.endswith(".localhost"):
                return 400, "host-not-allowed", f"this open server answers loopback names only, not {host!r}"
        elif settings.allowed_hosts and not _host_allowed(name, settings.allowed_hosts):
            return 400, "host-not-allowed", f"host {host!r} is not one this server answers to"
        path, method = scope["path"], scope.get("method", "GET")
        api = path.startswith("/v1/") or path in ("/v1", "/mcp")
        ui_post = path.startswith("/ui") and method not in ("GET", "HEAD", "OPTIONS")
        if (api or ui_post) and _cross_origin(headers, host, settings.public_url):
            return 403, "cross-origin", "requests from other web sites are refused"
        return None

    async def _body(self, scope: Scope, receive: Receive, headers: dict[str, str]) -> bytes | tuple[int, str, str]:
        """The request's whole body, or why it is refused (too large, or not JSON where JSON is read)."""
        if scope.get("method") not in _BODY_METHODS:
            return b""
        path = scope["path"]
        limit = self.state.settings.max_import_bytes if path.endswith("/import") else self.state.settings.max_body_bytes
        declared = headers.get("content-length", "")
        too_large = 413, "body-too-large", f"the request body exceeds {limit} bytes"
        if declared.isdigit() and int(declared) > limit:
            return too_large
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return too_large
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body and path.startswith("/v1/"):
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            wanted = _JSON_LINES if path.endswith("/import") else None
            if not (kind in wanted if wanted else kind == "application/json" or kind.endswith("+json")):
                return (
                    415,
                    "unsupported-media-type",
                    ("send the export as application/x-ndjson" if wanted else "send the body as application/json")
                    + (f", not {kind!r}" if kind else ""),
                )
        return body

    async def _problem(self, scope: Scope, send: Send, status: int, kind: str, detail: str) -> None:
        from starlette.requests import Request

        response = problems.problem(Request(scope), status, detail, kind=kind)
        await response(scope, _drain, send)


def _headers(scope: Scope) -> dict[str, str]:
    """The request headers the edge reads (:data:`_READ`), by lower-case name (of a repeated one, the last, as
    before). Decoding every header into a dict was a good part of the edge's own work per request."""
    found: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        name = name.lower()
        if name in _READ:
            found[name.decode("latin-1")] = value.decode("latin-1")
    return found


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the app the body already read, then waits for the client as usual."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port (``[::1]:8080`` -> ``::1``), lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _host_allowed(name: str, allowed: tuple[str, ...]) -> bool:
    """``name`` matches an entry of ``allowed``: exactly, ``*`` for any, or ``.example.com`` for subdomains."""
    for entry in allowed:
        entry = entry.lower()
        if entry == "*" or entry == name or (entry.startswith(".") and (name.endswith(entry) or name == entry[1:])):
            return True
    return False


def _cross_origin(headers: dict[str, str], host: str, public_url: str | None) -> bool:
    """Whether a browser sent this request from another site (fetch metadata, else the ``Origin`` header)."""
    site = headers.get("sec-fetch-site")
    if site in ("cross-site", "same-site"):
        return True
    origin = headers.get("origin")
    if origin is None:
        return False
    mine = {host.lower()}
    if public_url:
        mine.add(urlsplit(public_url).netloc.lower())
    return urlsplit(origin).netloc.lower() not in mine


async def _drain() -> Message:
    return {"type": "http.disconnect"}


def _offline_docs(app: FastAPI) -> None:
    """Interactive docs at ``/docs`` from Swagger UI files shipped in the package (no CDN: they work offline)."""
    from fastapi.openapi.docs import get_swagger_ui_html
    from fastapi.responses import HTMLResponse
    from fastapi.staticfiles import StaticFiles

    app.mount("/docs-static", StaticFiles(directory=Path(__file__).parent / "docs_static"), name="docs-static")

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="memlane API",
            swagger_js_url="/docs-static/swagger-ui-bundle.js",
            swagger_css_url="/docs-static/swagger-ui.css",
            swagger_favicon_url="/docs-static/favicon-32x32.png",
            swagger_ui_parameters={"persistAuthorization": True},
        )


def create_app(memory: Memory, settings: ServerSettings | None = None) -> FastAPI:
    """The server app over ``memory``'s store (``memory`` stays the caller's to close).

    Every route is under ``/v1``; the OpenAPI document is at ``/openapi.json``, interactive docs at ``/docs``.
    """
    state = ServerState(memory, settings or ServerSettings())
    app = FastAPI(
        title="memlane",
        version=__version__,
        description="Long-term memory for LLM chat bots and agents, over HTTP. Send `Authorization: Bearer <key>` "
        "(see `memlane keys create`; in these docs: Authorize). Errors are RFC 9457 problem details whose `type` "
        "is `urn:memlane:problem:<kind>`.",
        docs_url=None,
        redoc_url=None,
    )
    _offline_docs(app)
    app.state.memlane = state
    problems.install(app)
    openapi.install(app)
    for module in (routes_threads, routes_memory, routes_agent, routes_admin):
        fast.include(app, module.router)
    mcp_http.install(app, state)
    fast.include(app, routes_admin.ops)
    ui.install(app)
    app.add_middleware(_Edge, state=state)  # type: ignore[arg-type]
    threads = state.settings.request_threads or default_request_threads(getattr(state.memory.store, "backend", ""))
    if threads > 0:
        _limit_threads(app, threads)
    return app


def default_request_threads(backend: str) -> int:
    """Worker threads answering requests at once when ``--request-threads`` is not given: on SQLite one per core
    (at least 2): a request's work there is Python under one interpreter lock, and 32 clients with the local
    embedder were served fastest by 2 threads on 2 cores (225-228 requests/s, against 198-199 with 1, 200-202
    with 4 and 135-141 with 40; bench/RESULTS.md, "Worker threads and steps side by side"); 0 elsewhere (the
    framework's 40: on PostgreSQL the rate was level and writes waited longer behind reads with fewer)."""
    return max(2, os.cpu_count() or 2) if backend == "sqlite" else 0


def _limit_threads(app: FastAPI, threads: int) -> None:
    """At most ``threads`` worker threads answer requests at once (the limiter is the event loop's own: set
    when the app starts, on the loop that serves it)."""
    before = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_: Any) -> AsyncIterator[Any]:
        from anyio import to_thread

        to_thread.current_default_thread_limiter().total_tokens = threads
        async with before(app_) as value:
            yield value

    app.router.lifespan_context = lifespan
