"""The UI's session: who is signed in, the CSRF token every POST form carries, notices, form parsing, and page
rendering with the security headers every UI response gets.

Signing in with an API key makes a server-side session: a key of the same scope, labelled
``ui-session:<id of the key signed in with>``, that expires after ``session_hours`` and is revoked on sign-out
(or with the key it came from). Only the session's secret sits in the browser, in an HttpOnly,
SameSite=Strict cookie (Secure over HTTPS or with an ``https`` public URL); a session is not accepted as a
bearer key by the API, nor an API key as a session.

CSRF: each browser gets a random nonce in a cookie; a form's token is an HMAC of that nonce and the session,
keyed by the store's server secret (so every server process sharing a store computes the same token, and a
page of another site, or of another port of this host, cannot). Form posts from another origin are refused
too (``Origin`` / ``Sec-Fetch-Site``, checked at the server's edge). Notices shown at the top of a page are
signed the same way: a link cannot make the UI say something it did not.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import parse_qsl, quote, urlencode

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memlane.errors import Forbidden, InvalidInput, Unauthenticated
from memlane.memory.keys import hash_key

from ..auth import AgentPath, Caller, Scoped, authenticate, bind, reachable_agents, server_state
from ..state import ServerState

__all__ = [
    "KEY_COOKIE",
    "PREFIX",
    "Form",
    "SecurityHeaders",
    "UiScope",
    "error_page",
    "read_form",
    "render",
    "see_other",
    "ui_caller",
    "ui_scoped",
]

PREFIX = "/ui"
KEY_COOKIE = "memlane_ui_key"
SESSION_COOKIE = "memlane_ui_session"
MAX_FIELDS = 50
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))


def _when(moment: datetime | None) -> str:
    """A stored time as people read it, in UTC to the minute."""
    return "" if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


templates.env.filters["when"] = _when
templates.env.filters["seg"] = lambda name: quote(str(name), safe="")  # a name as one URL path segment


def _state(request: Request) -> ServerState:
    state: ServerState = request.app.state.memlane
    return state


def _sign(request: Request, *parts: str) -> str:
    """An HMAC of ``parts`` under the store's server secret."""
    return hmac.new(_state(request).secret, "\0".join(parts).encode(), hashlib.sha256).hexdigest()


def _token(request: Request, nonce: str) -> str:
    """The CSRF token of ``nonce`` for this browser's session (none: the sign-in form, or an open server)."""
    session = request.cookies.get(KEY_COOKIE, "")
    return _sign(request, "csrf", nonce, hash_key(session) if session else "")


def _nonce(request: Request) -> str:
    """This browser's session nonce: from its cookie, else a new one (set on the response by :func:`render`)."""
    given = request.cookies.get(SESSION_COOKIE, "")
    if len(given) == 43 and given.replace("-", "").replace("_", "").isalnum():
        return given
    fresh: str | None = getattr(request.state, "ui_new_nonce", None)
    if fresh is None:
        fresh = secrets.token_urlsafe(32)
        request.state.ui_new_nonce = fresh
    return fresh


def csrf_token(request: Request) -> str:
    """The token a form of this browser must send back."""
    return _token(request, _nonce(request))


def ui_caller(request: Request, state: Annotated[ServerState, Depends(server_state)]) -> Caller:
    """The signed-in caller (the key in the cookie; admin while the server is open).

    Raises:
        Unauthenticated: not signed in, or the key is no longer valid (the UI then shows the sign-in page).
    """
    key = request.cookies.get(KEY_COOKIE) or None
    if key is None and not state.open:
        raise Unauthenticated("sign in with an API key")
    return authenticate(request, state, key, "sign in with an API key", session=True)


def ui_scoped(
    agent: AgentPath,
    who: Annotated[Caller, Depends(ui_caller)],
    state: Annotated[ServerState, Depends(server_state)],
) -> Scoped:
    """The signed-in caller bound to the agent of the path. Raises Forbidden for another agent's key."""
    return bind(who, agent, state)


UiScope = Annotated[Scoped, Depends(ui_scoped)]


async def read_form(request: Request) -> dict[str, str]:
    """The POSTed form's fields, once its CSRF token has been checked.

    Raises:
        Forbidden: the token is missing or does not match this browser's session. InvalidInput: not a form.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise InvalidInput("send the form as application/x-www-form-urlencoded")
    try:
        text = (await request.body()).decode("utf-8")
        pairs = parse_qsl(text, keep_blank_values=True, max_num_fields=MAX_FIELDS, strict_parsing=False)
    except (UnicodeDecodeError, ValueError) as exc:
        raise InvalidInput("the form could not be read") from exc
    fields = dict(pairs)
    given = fields.pop("csrf", "")
    nonce = request.cookies.get(SESSION_COOKIE, "")
    if not nonce or not hmac.compare_digest(given.encode(), _token(request, nonce).encode()):
        raise Forbidden("the form's security token is missing or out of date: reload the page and try again")
    return fields


Form = Annotated[dict[str, str], Depends(read_form)]


def render(request: Request, template: str, code: int = 200, **context: Any) -> HTMLResponse:
    """``template`` rendered with the caller, its agents and this browser's CSRF token."""
    who: Caller | None = getattr(request.state, "caller", None)
    state: ServerState = request.app.state.memlane
    agents = reachable_agents(who, state) if who is not None else []
    token = csrf_token(request)
    response = templates.TemplateResponse(
        request,
        template,
        {"who": who, "agents": agents, "csrf": token, "notice": _notice(request), **context},
        status_code=code,
    )
    # Set here too, not only by SecurityHeaders: an error page made outside the middleware (500) has them.
    response.headers.update({name.decode(): value.decode() for name, value in SecurityHeaders.HEADERS})
    fresh = getattr(request.state, "ui_new_nonce", None)
    if fresh is not None:
        set_cookie(request, response, SESSION_COOKIE, fresh)
    return response


def set_cookie(request: Request, response: Response, name: str, value: str, max_age: int | None = None) -> None:
    """An HttpOnly, SameSite=Strict cookie for the UI's paths (Secure over HTTPS or an https public URL)."""
    public = _state(request).settings.public_url or ""
    secure = request.url.scheme == "https" or public.startswith("https://")
    response.set_cookie(name, value, path=PREFIX, httponly=True, samesite="strict", secure=secure, max_age=max_age)


def see_other(request: Request, path: str, notice: str | None = None, **query: Any) -> RedirectResponse:
    """POST-redirect-GET: 303 to ``path`` (under the UI), with an optional notice, signed, to show there."""
    params = {k: v for k, v in query.items() if v not in (None, "")}
    if notice:
        params["notice"] = notice
        params["sig"] = _sign(request, "notice", notice)
    sep = "&" if "?" in path else "?"
    url = PREFIX + path + (f"{sep}{urlencode(params)}" if params else "")
    return RedirectResponse(url, status_code=303)


def _notice(request: Request) -> str | None:
    """The notice to show: only one the server signed (see :func:`see_other`)."""
    notice, sig = request.query_params.get("notice"), request.query_params.get("sig", "")
    if not notice or not hmac.compare_digest(sig.encode(), _sign(request, "notice", notice).encode()):
        return None
    return notice


def error_page(request: Request, status: int, detail: str) -> Response | None:
    """The UI's answer to an error under ``/ui`` (None elsewhere: the API answers problem details).
    Unauthenticated goes to the sign-in page."""
    if not request.url.path.startswith(PREFIX + "/") and request.url.path != PREFIX:
        return None
    if status == 401:
        return see_other(request, "/login", notice=detail)
    return render(request, "error.html", code=status, status_code=status, detail=detail)


class SecurityHeaders:
    """Pure ASGI middleware: every response under ``/ui`` gets the Content-Security-Policy and friends."""

    HEADERS = (
        (b"content-security-policy", CSP.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not (path == PREFIX or path.startswith(PREFIX + "/")):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                missing = [(name, value) for name, value in self.HEADERS if name not in present]
                message["headers"] = [*message.get("headers", []), *missing]
                if not path.startswith(PREFIX + "/static/"):
                    message["headers"].append((b"cache-control", b"no-store"))
            await send(message)

        await self.app(scope, receive, with_headers)
