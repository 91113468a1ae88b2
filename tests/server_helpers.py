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
