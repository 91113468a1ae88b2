"""The ASGI app: auth, errors as RFC 9457 problem details, request ids, health, and the routes (:mod:`.routes`)."""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import (
    ConfigError,
    Conflict,
    Forbidden,
    InvalidInput,
    MemlaneError,
    NotFound,
    ProviderError,
    RateLimited,
    StorageError,
)
from ..memory import Memory
from .routes import router

__all__ = ["MAX_BODY_BYTES", "create_app"]

logger = logging.getLogger("memlane.server")
MAX_BODY_BYTES = 1_048_576  # a request body larger than this is refused with 413

_STATUS: tuple[tuple[type[MemlaneError], int], ...] = (
    (InvalidInput, 422),
    (NotFound, 404),
    (Forbidden, 403),
    (Conflict, 409),
    (RateLimited, 429),
    (ProviderError, 503),
    (StorageError, 503),
    (ConfigError, 500),
)


def problem(status: int, title: str, detail: str, request: Request, **extra: Any) -> JSONResponse:
    """One error shape for every failure (RFC 9457), with the request's id."""
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    body["request_id"] = getattr(request.state, "request_id", None)
    body.update(extra)
    return JSONResponse(body, status_code=status, media_type="application/problem+json")


def create_app(memory: Memory, *, open_access: bool = False) -> FastAPI:
    """The app over ``memory`` (its store serves every agent: each request uses ``memory.for_agent``).

    With ``open_access`` (no keys made yet; the CLI then binds loopback only) every request acts as admin.
    """
    app = FastAPI(
        title="memlane",
        version="1",
        description="Long-term memory for LLM chat bots and agents. Send `Authorization: Bearer <key>`.",
    )
    app.state.memory = memory
    app.state.open_access = open_access
    app.state.agents = {}
    app.include_router(router)

    @app.middleware("http")
    async def request_id_and_limits(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        request.state.request_id = request.headers.get("x-request-id") or secrets.token_hex(8)
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
            return problem(413, "Request body too large", f"at most {MAX_BODY_BYTES} bytes", request)
        started = time.perf_counter()
        response = await call_next(request)
        response.headers["x-request-id"] = request.state.request_id
        logger.info(
            "%s %s -> %s in %.1f ms (request %s)",
            request.method,
            request.url.path,
            response.status_code,
            (time.perf_counter() - started) * 1000,
            request.state.request_id,
        )
        return response

    @app.exception_handler(MemlaneError)
    async def memlane_error(request: Request, exc: MemlaneError) -> JSONResponse:
        status = next((code for kind, code in _STATUS if isinstance(exc, kind)), 500)
        headers = {}
        if isinstance(exc, RateLimited) and exc.retry_after is not None:
            headers["Retry-After"] = str(int(exc.retry_after) + 1)
        response = problem(status, type(exc).__name__, " ".join(str(exc).split()), request)
        response.headers.update(headers)
        return response

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{"loc": list(e.get("loc", ())), "msg": str(e.get("msg", ""))} for e in exc.errors()]
        return problem(422, "Invalid request", "the request does not match the API", request, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        response = problem(exc.status_code, "HTTP error", str(exc.detail), request)
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("request %s failed", getattr(request.state, "request_id", "?"))
        return problem(500, "Internal error", "the server failed; see its log for the request id", request)

    return app
