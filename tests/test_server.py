"""The HTTP service (memlane serve): keys and scopes, routes over the facade, problem details, a real server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")  # the server extra; the test extra installs it

from fastapi.testclient import TestClient

from memlane import Memory, load_settings
from memlane.server import create_app, create_key


@pytest.fixture
def service(store_url: str) -> Iterator[tuple[TestClient, dict[str, str]]]:
    settings = load_settings(embedder="none", worker="none")
    with Memory(store_url, agent="bot", settings=settings, llm=None) as mem:
        keys = {
            "admin": create_key(mem.store, "admin")[0],
            "agent": create_key(mem.store, "agent", agent="bot")[0],
            "other_agent": create_key(mem.store, "agent", agent="other")[0],
            "alice": create_key(mem.store, "user", agent="bot", user="alice")[0],
            "bob": create_key(mem.store, "user", agent="bot", user="bob")[0],
        }
        with TestClient(create_app(mem)) as client:
            yield client, keys


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_a_bot_talks_to_memory_over_http_and_users_stay_apart(service: tuple[TestClient, dict[str, str]]) -> None:
    client, keys = service
    base = "/v1/agents/bot"
    sent = client.post(
        f"{base}/threads/dm-alice/messages",
        json={"role": "user", "content": "I love green tea"},
        headers=auth(keys["alice"]),
    )
    assert sent.status_code == 201 and sent.json()["user"] == "alice" and sent.json()["seq"] == 1
    client.post(
        f"{base}/threads/dm-bob/messages",
        json={"role": "user", "content": "my pin is 4821", "user": "bob"},
        headers=auth(keys["agent"]),
    )
    # a user key acts for its own user only
    refused = client.post(f"{base}/facts", json={"content": "x", "user": "bob"}, headers=auth(keys["alice"]))
    assert refused.status_code == 403 and refused.headers["content-type"].startswith("application/problem+json")
    assert refused.json()["status"] == 403 and refused.json()["request_id"]
    mine = client.post(f"{base}/facts", json={"content": "Alice prefers oolong"}, headers=auth(keys["alice"])).json()
    bobs = client.post(f"{base}/facts", json={"content": "Bob's locker is 12"}, headers=auth(keys["bob"])).json()
    listed = client.get(f"{base}/facts", headers=auth(keys["alice"])).json()
    assert [f["content"] for f in listed] == ["Alice prefers oolong"]
    assert client.get(f"{base}/facts/{bobs['id']}", headers=auth(keys["alice"])).status_code == 404
    assert client.delete(f"{base}/facts/{bobs['id']}", headers=auth(keys["alice"])).status_code == 403
    shared = client.patch(f"{base}/facts/{mine['id']}", json={"visibility": "shared"}, headers=auth(keys["alice"]))
    assert shared.status_code == 200 and shared.json()["visibility"] == "shared"
    assert "Alice prefers oolong" in [
        f["content"] for f in client.get(f"{base}/facts", headers=auth(keys["bob"])).json()
    ]
    # threads: a user key reads only its own
    assert client.get(f"{base}/threads/dm-bob/messages", headers=auth(keys["alice"])).status_code == 403
    hits = client.post(f"{base}/recall", json={"query": "pin"}, headers=auth(keys["alice"])).json()
    assert all("4821" not in h["text"] for h in hits)
    ctx = client.post(
        f"{base}/threads/dm-alice/context", json={"query": "tea", "budget": 300}, headers=auth(keys["alice"])
    ).json()
    assert ctx["tokens"] <= 300 and any("green tea" in (m["content"] or "") for m in ctx["messages"])
    # agent keys stay in their agent
    assert client.get(f"{base}/facts", headers=auth(keys["other_agent"])).status_code == 403
    assert client.get("/v1/agents/other/facts", headers=auth(keys["admin"])).status_code == 200


def test_seed_001_memory_endpoints_and_errors(service: tuple[TestClient, dict[str, str]]) -> None:
    client, keys = service
    base = "/v1/agents/bot"
    client.post(
        f"{base}/threads/c1/messages",
        json={"role": "user", "content": "plan a trip", "user": "u"},
        headers=auth(keys["agent"]),
    )
    client.post(f"{base}/threads/c1/end", headers=auth(keys["agent"]))
    client.app.state.memory.run_jobs()  # type: ignore[attr-defined]
    listed = client.get(f"{base}/memories", headers=auth(keys["agent"])).json()
    assert listed["count"] == 1
    assert client.get(f"{base}/memories", headers=auth(keys["alice"])).status_code == 403
    one = listed["memories"][0]["id"]
    assert client.delete(f"{base}/memories/{one}", headers=auth(keys["agent"])).json() == {"success": True}
    assert client.delete(f"{base}/memories", headers=auth(keys["agent"])).json() == {"deletedCount": 0}
    # errors: one shape, never a traceback
    assert client.get(f"{base}/facts").status_code == 401
    assert client.get(f"{base}/facts", headers=auth("mlk_nope")).status_code == 401
    unknown = client.post(f"{base}/facts", json={"content": "x", "colour": "red"}, headers=auth(keys["agent"]))
    assert unknown.status_code == 422 and unknown.json()["title"] == "Invalid request"
    big = client.post(
        f"{base}/facts",
        content=b"{" + b" " * 2_000_000 + b"}",
        headers={**auth(keys["agent"]), "content-type": "application/json"},
    )
    assert big.status_code == 413
    assert client.get(f"{base}/facts/99999", headers=auth(keys["agent"])).status_code == 404
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json()["status"] == "ready"
    assert "/v1/agents/{agent}/recall" in client.get("/openapi.json").json()["paths"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_real_memlane_serve_with_keys_made_on_the_cli(tmp_path: Path) -> None:
    db = str(tmp_path / "served.db")
    env = {**os.environ, "MEMLANE_EMBEDDER": "none", "MEMLANE_HOME": str(tmp_path), "NO_PROXY": "127.0.0.1"}
    made = subprocess.run(
        [sys.executable, "-m", "memlane", "--db", db, "--agent", "bot", "--json", "keys", "create", "--user", "alice"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    key = json.loads(made.stdout)["key"]
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "memlane", "--db", db, "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        added = httpx.post(
            f"{url}/v1/agents/bot/threads/t/messages",
            json={"role": "user", "content": "hello there"},
            headers=auth(key),
            timeout=10,
        )
        assert added.status_code == 201 and added.headers["x-request-id"]
        assert (
            httpx.get(f"{url}/v1/agents/bot/threads/t/messages", headers=auth(key), timeout=10).json()[0]["content"]
            == "hello there"
        )
        listed = subprocess.run(
            [sys.executable, "-m", "memlane", "--db", db, "--json", "keys", "list"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        key_id = json.loads(listed.stdout)["keys"][0]["id"]
        subprocess.run(
            [sys.executable, "-m", "memlane", "--db", db, "keys", "revoke", str(key_id)],
            env=env,
            check=True,
            capture_output=True,
        )
        assert httpx.get(f"{url}/v1/agents/bot/facts", headers=auth(key), timeout=10).status_code == 401
    finally:
        server.terminate()
        server.wait(timeout=20)
