"""A real HTTP server on 127.0.0.1 that speaks the OpenAI and Anthropic wire formats.

It answers with scripted replies, then with a default (or a ``responder``), so tests drive the
real clients through real sockets, including the failures that matter: malformed output,
429s with ``Retry-After``, 5xx, answers slower than the client's timeout, dropped connections,
and 400s for unsupported request fields::

    with FakeLLMServer() as server:
        server.script('{"facts": []}', Fault.status(429, retry_after=0.05), "hello")
        llm = OpenAICompatibleLLM(server.base_url, "fake-model")
        ...
        assert server.calls[0].path == "/v1/chat/completions"

Endpoints: ``POST /v1/chat/completions`` (plain and SSE), ``POST /v1/embeddings`` (deterministic
vectors, see :func:`fake_embedding`), ``POST /v1/messages`` (Anthropic, plain and SSE) and
``GET /v1/models``. Token counts are whitespace-separated words, so tests can predict them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Literal, Self, cast

__all__ = ["FakeLLMServer", "Fault", "RecordedCall", "Reply", "Responder", "fake_embedding", "split_deltas"]

Dialect = Literal["openai", "anthropic"]


@dataclass(frozen=True)
class Fault:
    """A scripted misbehaviour; build one with the class methods, not the constructor."""

    kind: Literal["text", "status", "slow", "drop"]
    text: str = ""
    code: int = 200
    retry_after: float | None = None
    body: str | dict[str, Any] | None = None
    seconds: float = 0.0
    then: str | Fault | None = None

    @classmethod
    def malformed_json(cls, text: str = '{"facts": [{"content": "unterminated') -> Fault:
        """Answer 200 with text that is not valid JSON (as the assistant's content)."""
        return cls("text", text=text)

    @classmethod
    def wrong_schema(cls, obj: Any) -> Fault:
        """Answer 200 with valid JSON of the wrong shape (``obj`` serialized)."""
        return cls("text", text=json.dumps(obj))

    @classmethod
    def status(cls, code: int, *, retry_after: float | None = None, body: str | dict[str, Any] | None = None) -> Fault:
        """Answer with HTTP ``code``, an optional ``Retry-After`` header and an error body.

        Without ``body`` the error object of the endpoint's dialect is sent.
        """
        return cls("status", code=code, retry_after=retry_after, body=body)

    @classmethod
    def slow(cls, seconds: float, then: str | Fault | None = None) -> Fault:
        """Wait ``seconds`` before answering with ``then`` (default reply when ``None``)."""
        return cls("slow", seconds=seconds, then=then)

    @classmethod
    def drop(cls) -> Fault:
        """Read the request, then close the connection without any answer."""
        return cls("drop")


Reply = str | Fault
Responder = Callable[[dict[str, Any]], Reply]


@dataclass(frozen=True)
class RecordedCall:
    """One request as the server saw it (header names lower-cased; ``body`` is ``None`` if not JSON)."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any = None
    at: float = field(default_factory=time.monotonic)


def fake_embedding(text: str, dim: int = 8) -> list[float]:
    """The unit vector the fake server returns for ``text``: stable across runs and machines."""
    digest = hashlib.shake_256(text.encode("utf-8")).digest(4 * dim)
    raw = [n / 2**31 - 1.0 for n in struct.unpack(f"<{dim}I", digest)]
    norm = sum(x * x for x in raw) ** 0.5 or 1.0
    return [x / norm for x in raw]


def split_deltas(text: str) -> list[str]:
    """How fakes stream ``text``: word by word, trailing whitespace kept, so ``"".join`` restores it."""
    return re.findall(r"\s+|\S+\s*", text) if text else []


def _words(value: Any) -> int:
    """Fake token count: words in every string inside ``value``."""
    if isinstance(value, str):
        return len(value.split())
    if isinstance(value, list):
        return sum(_words(v) for v in value)
    if isinstance(value, dict):
        return sum(_words(v) for k, v in value.items() if k in ("content", "text"))
    return 0


_OPENAI_TYPES = {400: "invalid_request_error", 401: "invalid_request_error", 404: "not_found_error"}
_ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}


def _error_body(code: int, message: str, dialect: Dialect) -> dict[str, Any]:
    if dialect == "anthropic":
        kind = _ANTHROPIC_TYPES.get(code, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    kind = "rate_limit_error" if code == 429 else "server_error" if code >= 500 else _OPENAI_TYPES.get(code, "error")
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a handler asleep in Fault.slow must not hold up close()

    def __init__(self, fake: FakeLLMServer) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.fake = fake

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients that time out or hang up mid-answer are the point of these tests, not errors.
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # one request per connection: a drop or a stream ends with it
    timeout = 10.0  # a client that connects and says nothing can't pin a thread forever
    server_version = "memlane-fake-llm"

    @property
    def fake(self) -> FakeLLMServer:
        return cast(_HTTPServer, self.server).fake

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the per-request log on stderr."""

    # ---- plumbing -------------------------------------------------------------------------

    def _send_json(self, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode() if not isinstance(payload, str) else payload.encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _send_error(self, code: int, message: str, dialect: Dialect) -> None:
        self._send_json(code, _error_body(code, message, dialect))

    def _start_sse(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()

    def _sse(self, data: Any, event: str | None = None) -> None:
        chunk = "" if event is None else f"event: {event}\n"
        chunk += f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n"
        self.wfile.write(chunk.encode())
        self.wfile.flush()

    def _resolve(self, reply: Reply, fallback: Callable[[], Reply]) -> Reply | None:
        """Sit out ``slow`` faults; ``None`` when the server is shutting down meanwhile."""
        while isinstance(reply, Fault) and reply.kind == "slow":
            if self.fake._stopping.wait(reply.seconds):
                return None
            reply = reply.then if reply.then is not None else fallback()
        return reply

    def _fault(self, fault: Fault, dialect: Dialect) -> None:
        """Act out a ``status`` or ``drop`` fault."""
        if fault.kind == "drop":
            self.close_connection = True
            return  # the socket is closed without a byte written
        headers = {}
        if fault.retry_after is not None:
            value = fault.retry_after
            headers["Retry-After"] = str(int(value)) if float(value).is_integer() else str(value)
        if fault.body is None:
            payload: Any = _error_body(fault.code, f"scripted HTTP {fault.code}", dialect)
        else:
            payload = fault.body
        self._send_json(fault.code, payload, headers)

    # ---- routes -----------------------------------------------------------------------------

    def do_GET(self) -> None:
        """``GET /v1/models``: the model list some clients probe."""
        self.fake._record(RecordedCall("GET", self.path, {k.lower(): v for k, v in self.headers.items()}))
        if self.path.split("?")[0].rstrip("/") == "/v1/models":
            self._send_json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        else:
            self._send_error(404, f"no route {self.path}", "openai")

    def do_POST(self) -> None:
        """Record the request, then route it."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        self.fake._record(RecordedCall("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body))
        path = self.path.split("?")[0].rstrip("/")
        dialect: Dialect = "anthropic" if path == "/v1/messages" else "openai"
        if not isinstance(body, dict):
            self._send_error(400, "request body must be a JSON object", dialect)
        elif path == "/v1/chat/completions":
            self._chat(body, "openai")
        elif path == "/v1/messages":
            self._chat(body, "anthropic")
        elif path == "/v1/embeddings":
            self._embeddings(body)
        else:
            self._send_error(404, f"no route {path}", dialect)

    def _invalid_request(self, body: dict[str, Any], dialect: Dialect) -> str | None:
        """What a real server would refuse, so tests catch clients that send nonsense."""
        if not isinstance(body.get("model"), str) or not body["model"]:
            return "model is required"
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return "messages must be a non-empty list"
        if dialect == "openai":
            if self.fake.reject_response_format and "response_format" in body:
                return "response_format is not supported by this server"
            return None
        if "x-api-key" not in {k.lower() for k in self.headers}:
            return "x-api-key header is required"
        if not self.headers.get("anthropic-version"):
            return "anthropic-version header is required"
        if not isinstance(body.get("max_tokens"), int):
            return "max_tokens: field required"
        if any(not isinstance(m, dict) or m.get("role") not in ("user", "assistant") for m in messages):
            return "messages: roles must be 'user' or 'assistant' (use the top-level system field)"
        return None

    def _chat(self, body: dict[str, Any], dialect: Dialect) -> None:
        problem = self._invalid_request(body, dialect)
        if problem:
            self._send_error(400, problem, dialect)
            return
        reply = self._resolve(self.fake._next_reply(body), lambda: self.fake._fallback(body))
        if reply is None:
            return
        if isinstance(reply, Fault) and reply.kind in ("status", "drop"):
            self._fault(reply, dialect)
            return
        text = reply.text if isinstance(reply, Fault) else reply
        prompt_tokens = _words(body.get("messages")) + _words(body.get("system"))
        if body.get("stream") is True:
            if dialect == "openai":
                self._openai_stream(body, text, prompt_tokens)
            else:
                self._anthropic_stream(body, text, prompt_tokens)
        elif dialect == "openai":
            self._send_json(200, self._openai_answer(body, text, prompt_tokens))
        else:
            self._send_json(200, self._anthropic_answer(body, text, prompt_tokens))

    def _openai_answer(self, body: dict[str, Any], text: str, prompt_tokens: int) -> dict[str, Any]:
        completion_tokens = _words(text)
        return {
            "id": f"chatcmpl-fake-{self.fake._serial()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }

    def _openai_stream(self, body: dict[str, Any], text: str, prompt_tokens: int) -> None:
        base: dict[str, Any] = {"id": f"chatcmpl-fake-{self.fake._serial()}", "object": "chat.completion.chunk"}
        base |= {"created": int(time.time()), "model": body["model"]}
        self._start_sse()
        self._sse(base | {"choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]})
        for piece in split_deltas(text):
            self._sse(base | {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})
        self._sse(base | {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
        options = body.get("stream_options")
        if isinstance(options, dict) and options.get("include_usage"):
            completion_tokens = _words(text)
            usage = {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            }
            self._sse(base | {"choices": [], "usage": usage})
        self._sse("[DONE]")

    def _anthropic_answer(self, body: dict[str, Any], text: str, prompt_tokens: int) -> dict[str, Any]:
        return {
            "id": f"msg_fake_{self.fake._serial()}",
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": prompt_tokens, "output_tokens": _words(text)},
        }

    def _anthropic_stream(self, body: dict[str, Any], text: str, prompt_tokens: int) -> None:
        message = self._anthropic_answer(body, "", prompt_tokens)
        message["content"], message["stop_reason"] = [], None
        message["usage"] = {"input_tokens": prompt_tokens, "output_tokens": 1}
        self._start_sse()
        self._sse({"type": "message_start", "message": message}, "message_start")
        block = {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
        self._sse(block, "content_block_start")
        self._sse({"type": "ping"}, "ping")
        for piece in split_deltas(text):
            delta = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}
            self._sse(delta, "content_block_delta")
        self._sse({"type": "content_block_stop", "index": 0}, "content_block_stop")
        end = {"stop_reason": "end_turn", "stop_sequence": None}
        self._sse({"type": "message_delta", "delta": end, "usage": {"output_tokens": _words(text)}}, "message_delta")
        self._sse({"type": "message_stop"}, "message_stop")

    def _embeddings(self, body: dict[str, Any]) -> None:
        fault = self._resolve(self.fake._next_embedding_fault(), lambda: "")
        if fault is None:
            return
        if isinstance(fault, Fault) and fault.kind in ("status", "drop"):
            self._fault(fault, "openai")
            return
        if isinstance(fault, Fault):  # malformed_json / wrong_schema: that text is the whole body
            self._send_json(200, fault.text)
            return
        inputs = body.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not inputs or not all(isinstance(t, str) for t in inputs):
            self._send_error(400, "input must be a string or a non-empty list of strings", "openai")
            return
        dim = body.get("dimensions")
        dim = dim if isinstance(dim, int) and dim > 0 else self.fake.embedding_dim
        as_base64 = body.get("encoding_format") == "base64"
        data = []
        for index, text in enumerate(inputs):
            vector = fake_embedding(text, dim)
            encoded: Any = vector
            if as_base64:
                encoded = base64.b64encode(struct.pack(f"<{dim}f", *vector)).decode()
            data.append({"object": "embedding", "index": index, "embedding": encoded})
        tokens = _words(inputs)
        usage = {"prompt_tokens": tokens, "total_tokens": tokens}
        self._send_json(200, {"object": "list", "data": data, "model": body.get("model"), "usage": usage})


class FakeLLMServer:
    """Loopback LLM server for tests; use as a context manager (or ``start()``/``close()``).

    Args:
        default: the reply when the script is empty and there is no ``responder``; may be a
            :class:`Fault` (e.g. ``Fault.status(500)`` for an outage that never ends).
        responder: ``f(request_json) -> reply``, consulted when the script is empty.
        embedding_dim: length of the vectors ``/v1/embeddings`` returns (a request's
            ``dimensions`` wins).
        reject_response_format: answer 400 to any chat request carrying ``response_format``,
            like servers that don't support structured output.
    """

    def __init__(
        self,
        *,
        default: Reply = "ok",
        responder: Responder | None = None,
        embedding_dim: int = 8,
        reject_response_format: bool = False,
    ) -> None:
        self.default = default
        self.responder = responder
        self.embedding_dim = embedding_dim
        self.reject_response_format = reject_response_format
        self._lock = threading.Lock()
        self._replies: deque[Reply] = deque()
        self._embedding_faults: deque[Fault] = deque()
        self._calls: list[RecordedCall] = []
        self._count = 0
        self._stopping = threading.Event()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- lifecycle ------------------------------------------------------------------------------

    def start(self) -> Self:
        """Bind a free port on 127.0.0.1 and serve from a daemon thread. Idempotent."""
        if self._httpd is None:
            self._stopping.clear()
            self._httpd = _HTTPServer(self)
            self._thread = threading.Thread(
                target=self._httpd.serve_forever, kwargs={"poll_interval": 0.01}, name="fake-llm", daemon=True
            )
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving; handlers sleeping in :meth:`Fault.slow` wake up and leave at once."""
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        self._stopping.set()
        httpd.shutdown()
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def port(self) -> int:
        """The bound port.

        Raises:
            RuntimeError: the server is not running.
        """
        if self._httpd is None:
            raise RuntimeError("FakeLLMServer is not running; use it as a context manager or call start()")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (the Anthropic client's base URL)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1`` (the OpenAI-compatible client's base URL)."""
        return f"{self.url}/v1"

    # ---- script -----------------------------------------------------------------------------------

    def script(self, *replies: Reply) -> None:
        """Queue chat replies (text or :class:`Fault`); each request takes the next one."""
        with self._lock:
            self._replies.extend(replies)

    def script_embeddings(self, *faults: Fault) -> None:
        """Queue faults for ``/v1/embeddings``; with none queued it answers normally."""
        with self._lock:
            self._embedding_faults.extend(faults)

    @property
    def pending(self) -> int:
        """Scripted chat replies not yet used."""
        with self._lock:
            return len(self._replies)

    @property
    def calls(self) -> list[RecordedCall]:
        """Every request received so far, in arrival order (a copy)."""
        with self._lock:
            return list(self._calls)

    def calls_to(self, path: str) -> list[RecordedCall]:
        """The recorded requests whose path is ``path`` (e.g. ``"/v1/embeddings"``)."""
        return [call for call in self.calls if call.path.split("?")[0] == path]

    def reset(self) -> None:
        """Forget recorded calls and queued replies."""
        with self._lock:
            self._calls.clear()
            self._replies.clear()
            self._embedding_faults.clear()

    # ---- used by the handler ---------------------------------------------------------------------

    def _record(self, call: RecordedCall) -> None:
        with self._lock:
            self._calls.append(call)

    def _serial(self) -> int:
        with self._lock:
            self._count += 1
            return self._count

    def _fallback(self, request: dict[str, Any]) -> Reply:
        responder = self.responder
        return responder(request) if responder is not None else self.default

    def _next_reply(self, request: dict[str, Any]) -> Reply:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        return self._fallback(request)

    def _next_embedding_fault(self) -> Reply:
        """The next scripted embeddings fault, or ``""`` for a normal answer."""
        with self._lock:
            return self._embedding_faults.popleft() if self._embedding_faults else ""
