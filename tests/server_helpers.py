"""Shared set-up of the HTTP server tests: a store with keys of each scope and an in-process client."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient

from memlane import Memory, load_settings
from memlane.server import ServerSettings, create_app


@dataclass
class Env:
    mem: Memory
    http: TestClient
    keys: dict[str, str]
    app: Any = None

    def h(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[who]}"}

    def snapshot(self) -> list[str]:
        """Everything stored, of every agent: to check a refused request changed nothing."""
        out: list[str] = []
        for agent in sorted(self.mem.agents()):
            out.extend(repr(r) for r in self.mem.for_agent(agent).export_records())
        return out


@contextmanager
def server_env(location: str, **settings: object) -> Iterator[Env]:
    options = {"rate_limit": 0.0, **settings}
    with Memory(location, agent="bot", settings=load_settings(embedder="none", worker="none")) as mem:
        keys = {
            "admin": mem.create_api_key("admin").key,
            "bot": mem.create_api_key("agent", agent="bot").key,
            "other": mem.create_api_key("agent", agent="other").key,
            "alice": mem.create_api_key("user", agent="bot", user="alice").key,
            "bob": mem.create_api_key("user", agent="bot", user="bob").key,
        }
        app = create_app(mem, ServerSettings(**options))  # type: ignore[arg-type]
        with TestClient(app, raise_server_exceptions=False) as http:
            yield Env(mem, http, keys, app)


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on a free loopback port, in a thread, until the block ends; yields its URL."""
    import socket
    import threading
    import time

    import httpx
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/readyz", trust_env=False).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.05)
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(10)
