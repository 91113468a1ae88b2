"""Routes whose answer is made into JSON on the request's worker thread.

FastAPI runs a plain (``def``) route on a worker thread, then validates its return value against the response
model on a worker thread again, then turns it into JSON on the event loop. Each hand-off to a worker thread
costs ~60 µs of CPU at rest and more under load (a wake-up, the interpreter lock passed twice), a sizeable
share of a request whose own work is 1-3 ms (bench/RESULTS.md, issue 39). A :class:`Router` route validates
and encodes its return value where it was made, with the same type adapter, options and result as FastAPI's
(the OpenAPI document is unchanged: the response model is still the route's return annotation), and hands
FastAPI a finished :class:`~starlette.responses.Response`, which it sends as it is.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.datastructures import DefaultPlaceholder
from fastapi.exceptions import ResponseValidationError
from pydantic import TypeAdapter, ValidationError
from starlette.responses import Response

__all__ = ["Router", "encoded", "include"]


class Router(APIRouter):
    """An :class:`~fastapi.APIRouter` whose plain routes answer JSON they encode themselves (see the module).

    A route is left as FastAPI makes it when it is a coroutine, takes a ``Response`` to set headers on, gives
    a ``response_model`` or ``response_class`` of its own, or has no return annotation (or a Response one).
    """

    def add_api_route(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().add_api_route(path, encoded(endpoint, kwargs), **kwargs)


def include(app: FastAPI, router: APIRouter) -> None:
    """Add ``router``'s routes to ``app`` as routes of its own (each already holds its full path, tags and
    answers). ``FastAPI.include_router`` keeps a router as one more layer, which matches a request against
    every route of the router twice (to choose the router, then the route): ~40 % of the CPU of a small
    request in the profile of issue 39, where the routes of the app itself are matched once."""
    app.router.routes.extend(router.routes)


def encoded(endpoint: Callable[..., Any], options: dict[str, Any]) -> Callable[..., Any]:
    """``endpoint``, wrapped to return its answer as a JSON Response (or as it is when it cannot be)."""
    own = any(_given(options.get(option)) for option in ("response_model", "response_class"))
    if own or inspect.iscoroutinefunction(endpoint):
        return endpoint
    signature = inspect.signature(endpoint, eval_str=True)
    answer = signature.return_annotation
    if answer is inspect.Signature.empty or answer is None or _is_response(answer):
        return endpoint
    if any(_is_response(p.annotation) for p in signature.parameters.values()):
        return endpoint
    adapter: TypeAdapter[Any] = TypeAdapter(answer)
    status = options.get("status_code") or 200

    @functools.wraps(endpoint)
    def route(*args: Any, **kwargs: Any) -> Any:
        value = endpoint(*args, **kwargs)
        if isinstance(value, Response):
            return value
        try:  # as FastAPI's response field validates (a dataclass of the right type passes as it is)
            value = adapter.validate_python(value, from_attributes=True)
        except ValidationError as exc:
            errors = [{**e, "loc": ("response", *e["loc"])} for e in exc.errors(include_url=False)]
            raise ResponseValidationError(errors, body=value) from None
        return Response(adapter.dump_json(value, by_alias=True), status_code=status, media_type="application/json")

    return route


def _given(option: Any) -> bool:
    return option is not None and not isinstance(option, DefaultPlaceholder)


def _is_response(annotation: Any) -> bool:
    return inspect.isclass(annotation) and issubclass(annotation, Response)
