"""Errors as RFC 9457 problem details: one JSON shape for every error response, never a traceback.

memlane's exception tree maps to a status (by type, never by message)::

    InvalidInput 422 · Unauthenticated 401 · Forbidden 403 · NotFound 404 · Conflict 409
    StorageError 503 · ProviderError 502 · any other error 500 (logged with its request id)

The server itself adds 400 (malformed JSON, a ``Host`` it does not answer to), 403 (a request from another web
site), 413 (body too large), 415 (a body that is not JSON where JSON is read), 422 (a body or parameter that
does not fit the schema) and 429 (rate limit, with ``Retry-After``).

Each kind of problem has a stable ``type`` URI, ``urn:memlane:problem:<kind>`` (``not-found``, ``forbidden``,
``invalid-input`` ...; the list is :data:`KINDS`), for clients to branch on; ``title`` and ``detail`` are for
people.

A part of the app that answers people rather than programs (the review UI) may set
``app.state.error_pages``: a function ``(request, status, detail) -> Response | None`` asked first.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from memlane.errors import (
    ConfigError,
    Conflict,
    Forbidden,
    InvalidInput,
    MemlaneError,
    NotFound,
    ProviderError,
    StorageError,
    Unauthenticated,
)

__all__ = ["KINDS", "PROBLEM_JSON", "TYPE_PREFIX", "install", "kind_for", "problem", "status_for"]

PROBLEM_JSON = "application/problem+json"
logger = logging.getLogger("memlane.server")

TYPE_PREFIX = "urn:memlane:problem:"
_STATUS: tuple[tuple[type[MemlaneError], int, str], ...] = (
    (InvalidInput, 422, "invalid-input"),
    (ConfigError, 422, "invalid-input"),  # e.g. an unknown search preset named in a request
    (Unauthenticated, 401, "unauthenticated"),
    (Forbidden, 403, "forbidden"),
    (NotFound, 404, "not-found"),
    (Conflict, 409, "conflict"),
    (StorageError, 503, "storage-unavailable"),
    (ProviderError, 502, "provider-error"),
)
#: The problem kind of each status the server answers with, unless a more precise kind is given.
_KIND_OF_STATUS = {
    400: "bad-request",
    401: "unauthenticated",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    413: "body-too-large",
    415: "unsupported-media-type",
    422: "invalid-input",
    429: "rate-limited",
    500: "internal-error",
    502: "provider-error",
    503: "storage-unavailable",
}
#: Every problem kind: its ``type`` is ``TYPE_PREFIX + kind``.
KINDS = frozenset({*_KIND_OF_STATUS.values(), "malformed-json", "host-not-allowed", "cross-origin"})
_TITLES = {
    400: "Bad request",
    401: "Unauthenticated",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request body too large",
    415: "Unsupported media type",
    422: "Invalid input",
    429: "Too many requests",
    500: "Internal error",
    502: "Provider error",
    503: "Storage unavailable",
}


def status_for(exc: MemlaneError) -> int:
    """The HTTP status of a memlane error."""
    for kind, status, _ in _STATUS:
        if isinstance(exc, kind):
            return status
    return 500


def kind_for(exc: MemlaneError) -> str:
    """The problem kind of a memlane error."""
    for kind, _, name in _STATUS:
        if isinstance(exc, kind):
            return name
    return "internal-error"


def problem(
    request: Request | None,
    status: int,
    detail: str,
    *,
    kind: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    """A problem-details response; ``kind`` (default: the status's) makes its ``type``."""
    name = kind or _KIND_OF_STATUS.get(status, "internal-error" if status >= 500 else "bad-request")
    body: dict[str, Any] = {"type": TYPE_PREFIX + name, "title": _TITLES.get(status, "Error"), "status": status}
    body["detail"] = detail
    if request is not None:
        body["instance"] = request.url.path
        request_id = getattr(request.state, "request_id", None)
        if request_id:
            body["request_id"] = request_id
    body.update(extra)
    out = dict(headers or {})
    if status == 401:
        out.setdefault("WWW-Authenticate", 'Bearer realm="memlane"')
    return JSONResponse(body, status_code=status, headers=out, media_type=PROBLEM_JSON)


def install(app: FastAPI) -> None:
    """Map every error the app can raise to a problem-details response (or an error page, see above)."""

    @app.exception_handler(MemlaneError)
    async def memlane_error(request: Request, exc: MemlaneError) -> Response:
        status = status_for(exc)
        if status >= 500:
            logger.warning("request %s failed: %s: %s", _rid(request), type(exc).__name__, exc)
        return _answer(request, status, " ".join(str(exc).split()) or type(exc).__name__, kind=kind_for(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        errors = [
            {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
            for e in exc.errors()
        ]
        if any(e["type"] == "json_invalid" for e in errors):
            return _answer(request, 400, "the request body is not valid JSON", kind="malformed-json", errors=errors)
        first = errors[0] if errors else {"loc": [], "msg": "invalid request"}
        where = ".".join(first["loc"])
        return _answer(request, 422, f"{where}: {first['msg']}" if where else str(first["msg"]), errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return _answer(request, exc.status_code, str(exc.detail), headers=dict(exc.headers or {}))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        logger.exception("request %s raised", _rid(request))
        return _answer(request, 500, "internal error (see the server log for this request id)")


def _answer(
    request: Request,
    status: int,
    detail: str,
    *,
    kind: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    pages = getattr(request.app.state, "error_pages", None)
    if pages is not None:
        page: Response | None = pages(request, status, detail)
        if page is not None:
            if headers:
                page.headers.update(headers)
            return page
    return problem(request, status, detail, kind=kind, headers=headers, **extra)


def _rid(request: Request) -> str:
    return str(getattr(request.state, "request_id", "-"))
