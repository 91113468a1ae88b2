"""``memlane.Client`` and ``memlane.AsyncClient``: :class:`~memlane.Memory`'s methods over HTTP.

Both send the calls of :mod:`.calls` (one mapping, shared) with httpx and turn a problem-details error back
into the memlane error the server mapped it from, so code written against ``Memory`` handles the same
exceptions. Moving a bot from embedded to remote is one line::

    mem = Memory("bot.db", agent="my-bot")                        # embedded
    mem = Client("http://127.0.0.1:8080", key, agent="my-bot")    # remote
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

import httpx

from ..errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    MemlaneError,
    NotFound,
    ProviderError,
    RateLimited,
    StorageError,
    Unauthenticated,
)
from .calls import CALLS, Call, import_text

__all__ = ["AsyncClient", "Client"]

_ERRORS: dict[int, type[MemlaneError]] = {
    400: InvalidInput,
    401: Unauthenticated,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: InvalidInput,
    422: InvalidInput,
    502: ProviderError,
    503: StorageError,
}


def _error(response: httpx.Response) -> MemlaneError:
    try:
        detail = str(response.json().get("detail") or response.reason_phrase)
    except (ValueError, AttributeError):
        detail = response.text[:300] or response.reason_phrase
    if response.status_code == 429:
        retry = response.headers.get("retry-after", "")
        return RateLimited(detail, retry_after=float(retry) if retry.replace(".", "", 1).isdigit() else None)
    return _ERRORS.get(response.status_code, MemlaneError)(f"{detail} (HTTP {response.status_code})")


@contextlib.contextmanager
def _reaching(url: str) -> Iterator[None]:
    """The server not answering at all (refused, unreachable, timed out) is a StorageError: the store is
    behind it."""
    try:
        yield
    except httpx.TransportError as exc:
        raise StorageError(f"cannot reach the memlane server at {url}: {type(exc).__name__}: {exc}") from exc


_WHOAMI = Call("GET", "/v1/whoami", lambda d: d, root=True)
RETRIES = 3  # a request the server never answered, or answered 503 (its store unreachable), is sent again
BACKOFF = 0.25  # seconds before the first retry, doubled each time


class _Attempts:
    """The tries of one call: the same ``Idempotency-Key`` on each (so a write the server did receive before
    the connection broke is stored once), and whether to try again after an error or a 503."""

    def __init__(self, call: Call, retries: int) -> None:
        self.idempotency = uuid.uuid4().hex if call.method != "GET" else None
        self.retries, self.tried = retries, 0

    def again(self, error: Exception | None, response: httpx.Response | None) -> float | None:
        """Seconds to wait before the next try, or None to stop here."""
        self.tried += 1
        retryable = isinstance(error, httpx.TransportError) or (response is not None and response.status_code == 503)
        return BACKOFF * 2 ** (self.tried - 1) if retryable and self.tried <= self.retries else None


class _Base:
    def __init__(self, url: str, key: str | None, agent: str | None) -> None:
        self.url = url.rstrip("/")
        self._agent = agent
        self._headers = {"Authorization": f"Bearer {key}"} if key else {}

    def _request(self, call: Call, idempotency: str | None = None) -> dict[str, Any]:
        headers = dict(self._headers)
        if idempotency is not None:
            headers["Idempotency-Key"] = idempotency
        if call.content_type:
            headers["content-type"] = call.content_type
        path = call.path  # its names are quoted by the call (calls._seg)
        if not call.root:
            path = "/v1/agents/" + quote(self._agent or "default", safe="") + path
        return {"method": call.method, "url": self.url + path, "params": call.params, "headers": headers,
                "json": call.body, "content": call.content}  # fmt: skip

    @staticmethod
    def _decode(call: Call, response: httpx.Response) -> Any:
        if response.status_code == 404 and call.missing is not ...:
            return call.missing
        if response.status_code >= 400:
            raise _error(response)
        return call.decode(None if response.status_code == 204 else response.json())

    @staticmethod
    def _agent_of(whoami: dict[str, Any]) -> str:
        """The agent a key belongs to (an admin key, or none on an open server: ``default``)."""
        return str(whoami.get("agent") or "default")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r}, agent={self._agent!r})"


def _sync(name: str, builder: Callable[..., Call]) -> Callable[..., Any]:
    @functools.wraps(builder)
    def method(self: Client, *args: Any, **kwargs: Any) -> Any:
        return self._send(builder(*args, **kwargs))

    method.__doc__ = f"Like :meth:`memlane.Memory.{name}`, over HTTP."
    return _with_self(method, builder)


def _async(name: str, builder: Callable[..., Call]) -> Callable[..., Any]:
    @functools.wraps(builder)
    async def method(self: AsyncClient, *args: Any, **kwargs: Any) -> Any:
        return await self._send(builder(*args, **kwargs))

    method.__doc__ = f"Like :meth:`memlane.Memory.{name}`, over HTTP (a coroutine)."
    return _with_self(method, builder)


def _with_self(method: Callable[..., Any], builder: Callable[..., Call]) -> Callable[..., Any]:
    """Give ``method`` the builder's parameters after ``self`` (what help() and IDEs show)."""
    del method.__wrapped__  # type: ignore[attr-defined]
    own = inspect.signature(builder)
    self_param = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    method.__signature__ = own.replace(  # type: ignore[attr-defined]
        parameters=[self_param, *own.parameters.values()], return_annotation=inspect.Signature.empty
    )
    return method


class Client(_Base):
    """:class:`~memlane.Memory`'s methods, same names, arguments and return types, served by ``memlane serve``.

    Args:
        url: the server, e.g. ``http://127.0.0.1:8080``.
        key: an API key (``memlane keys create``); None for a server without keys.
        agent: the agent whose memory to use; by default the key's own agent (asked of the server once, at
            the first call), or ``default`` for an admin key or a server without keys.
        timeout: seconds per request. http: an httpx.Client to use (e.g. a test client).
        retries: how often a request is sent again when the server did not answer, or answered 503 (its
            store unreachable), waiting 0.25 s, then 0.5 s, 1 s ...; every write carries one
            ``Idempotency-Key`` over its tries, so a message the server did receive is stored once.

    Raises (from every method): the memlane error the server answered with (InvalidInput, NotFound,
    Forbidden, Unauthenticated, Conflict, StorageError, ProviderError, RateLimited); StorageError when the
    server cannot be reached.
    """

    def __init__(
        self, url: str, key: str | None = None, *, agent: str | None = None, timeout: float = 30.0,
        http: httpx.Client | None = None, retries: int = RETRIES,
    ) -> None:  # fmt: skip
        super().__init__(url, key, agent)
        self.retries = retries
        self._owns = http is None
        self.http = http or httpx.Client(timeout=timeout, trust_env=False)

    @property
    def agent(self) -> str:
        """The agent this client acts in."""
        if self._agent is None:
            self._agent = self._agent_of(self._send(_WHOAMI))
        return self._agent

    def _send(self, call: Call) -> Any:
        if not call.root and self._agent is None:
            self._agent = self.agent
        attempts = _Attempts(call, self.retries)
        while True:
            error, response = None, None
            try:
                response = self.http.request(**self._request(call, attempts.idempotency))
            except httpx.TransportError as exc:
                error = exc
            wait = attempts.again(error, response)
            if wait is None:
                break
            time.sleep(wait)
        if error is not None:
            with _reaching(self.url):
                raise error
        assert response is not None
        return self._decode(call, response)

    def export_records(self, threads: Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
        """Like :meth:`memlane.Memory.export_records`: the agent's records, streamed."""
        call = CALLS_EXPORT(threads)
        self._agent = self.agent
        with _reaching(self.url), self.http.stream(**self._request(call)) as response:
            if response.status_code >= 400:
                response.read()
                raise _error(response)
            for line in response.iter_lines():
                if line.strip():
                    yield json.loads(line)

    def export(self, target: str | Path | IO[str], *, threads: Sequence[str] | None = None) -> int:
        """Like :meth:`memlane.Memory.export`: write the JSON Lines export; returns records written."""
        return _write(target, self.export_records(threads))

    def import_(self, source: str | Path | IO[str], *, on_conflict: str = "error") -> dict[str, int]:
        """Like :meth:`memlane.Memory.import_`: load an export into the agent (in one transaction)."""
        result: dict[str, int] = self._send(import_text(_read(source), on_conflict=on_conflict))
        return result

    def close(self) -> None:
        """Close the connection pool (unless ``http`` was handed in)."""
        if self._owns:
            self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncClient(_Base):
    """:class:`Client` with coroutines: the same calls (one shared mapping), sent with ``httpx.AsyncClient``."""

    def __init__(
        self, url: str, key: str | None = None, *, agent: str | None = None, timeout: float = 30.0,
        http: httpx.AsyncClient | None = None, retries: int = RETRIES,
    ) -> None:  # fmt: skip
        super().__init__(url, key, agent)
        self.retries = retries
        self._owns = http is None
        self.http = http or httpx.AsyncClient(timeout=timeout, trust_env=False)

    @property
    def agent(self) -> str | None:
        """The agent this client acts in (None until the first call has asked the server, if not given)."""
        return self._agent

    async def _send(self, call: Call) -> Any:
        if not call.root and self._agent is None:
            self._agent = self._agent_of(await self._send(_WHOAMI))
        attempts = _Attempts(call, self.retries)
        while True:
            error, response = None, None
            try:
                response = await self.http.request(**self._request(call, attempts.idempotency))
            except httpx.TransportError as exc:
                error = exc
            wait = attempts.again(error, response)
            if wait is None:
                break
            await asyncio.sleep(wait)
        if error is not None:
            with _reaching(self.url):
                raise error
        assert response is not None
        return self._decode(call, response)

    async def export_records(self, threads: Sequence[str] | None = None) -> AsyncIterator[dict[str, Any]]:
        """Like :meth:`memlane.Memory.export_records`, as an async iterator."""
        call = CALLS_EXPORT(threads)
        if self._agent is None:
            self._agent = self._agent_of(await self._send(_WHOAMI))
        with _reaching(self.url):
            async with self.http.stream(**self._request(call)) as response:
                if response.status_code >= 400:
                    await response.aread()
                    raise _error(response)
                async for line in response.aiter_lines():
                    if line.strip():
                        yield json.loads(line)

    async def export(self, target: str | Path | IO[str], *, threads: Sequence[str] | None = None) -> int:
        """Like :meth:`memlane.Memory.export`."""
        lines = [record async for record in self.export_records(threads)]
        return _write(target, iter(lines))

    async def import_(self, source: str | Path | IO[str], *, on_conflict: str = "error") -> dict[str, int]:
        """Like :meth:`memlane.Memory.import_`."""
        result: dict[str, int] = await self._send(import_text(_read(source), on_conflict=on_conflict))
        return result

    async def aclose(self) -> None:
        """Close the connection pool (unless ``http`` was handed in)."""
        if self._owns:
            await self.http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _write(target: str | Path | IO[str], records: Iterator[dict[str, Any]]) -> int:
    count = 0
    out = open(target, "w", encoding="utf-8") if isinstance(target, str | Path) else target  # noqa: SIM115
    try:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            count += 1
    finally:
        if out is not target:
            out.close()
    return count


def _read(source: str | Path | IO[str]) -> str:
    if isinstance(source, str | Path):
        try:
            return Path(source).read_text(encoding="utf-8")
        except OSError as exc:
            raise InvalidInput(f"cannot open {source}: {exc}") from exc
    return source.read()


from .calls import export_records as CALLS_EXPORT  # noqa: E402

for _name, _builder in CALLS.items():
    setattr(Client, _name, _sync(_name, _builder))
    setattr(AsyncClient, _name, _async(_name, _builder))
