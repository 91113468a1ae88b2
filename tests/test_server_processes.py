"""``memlane serve --processes N``: several server processes on one address and one store (SQLite and
PostgreSQL), the job workers beside them; and the answers the routes encode themselves (``server/fast.py``)."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import socket
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import httpx
import pytest
from fastapi import APIRouter, FastAPI
from fastapi.testclient import TestClient

from memlane import Memory, load_settings
from memlane.server.fast import Router, include
from memlane.types import Message, Thread

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started with multiprocessing (not its resource tracker)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            command = (entry / "cmdline").read_bytes() if int(stat.rsplit(")", 1)[1].split()[1]) == pid else b""
            if b"spawn_main" in command and b"resource_tracker" not in command:
                found.add(int(entry.name))
    return found


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_several_processes_share_one_store_and_lose_nothing(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    location = str(tmp_path / "p.db") if backend == "sqlite" else request.getfixturevalue("new_pg_database")()
    with Memory(location, agent="bot", settings=load_settings(embedder="fake", worker="none")) as mem:
        keys = [mem.create_api_key("user", agent="bot", user=f"u{i}").key for i in range(4)]
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": SRC, "MEMLANE_EMBEDDER": "fake"}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from memlane.cli.app import main; main()", "--db", location, "serve",
         "--port", str(port), "--processes", "2", "--rate-limit", "0", "--no-access-log"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, proc.communicate()[1]
            try:
                if httpx.get(f"{url}/readyz", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "server not ready"
            time.sleep(0.2)
        assert len(_children(proc.pid)) == 2  # the server processes; the supervisor runs the job worker

        def write(i: int) -> list[str]:
            sent = []
            with httpx.Client(base_url=f"{url}/v1/agents/bot", trust_env=False) as http:
                h = {"Authorization": f"Bearer {keys[i]}"}
                for n in range(15):
                    text = f"note {n} of client {i} about hiking"
                    r = http.post("/threads/t/messages", headers=h, json={"role": "user", "content": text})
                    assert r.status_code == 201, r.text
                    sent.append(text)
                r = http.post("/recall", headers=h, json={"query": f"note of client {i}", "limit": 3})
                assert r.status_code == 200 and r.json(), r.text
                assert {hit["thread"] for hit in r.json()} == {f"u{i}/t"}  # each user reaches their own only
            return sent

        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            sent = dict(enumerate(pool.map(write, range(4))))
        with httpx.Client(base_url=f"{url}/v1/agents/bot", trust_env=False) as http:
            for i, texts in sent.items():
                r = http.get("/threads/t/messages", headers={"Authorization": f"Bearer {keys[i]}"})
                assert [m["content"] for m in r.json()] == texts  # each once, in order
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "2 server processes" in err and "1 in-process worker" in err
    with Memory(location, agent="bot", settings=load_settings(embedder="none", worker="none")) as mem:
        assert mem.status().counts["messages"] == 60
        assert mem.store.pending_vectors(100) == []  # each process wrote its queued vectors as it stopped


def test_a_route_answers_the_json_fastapi_would(tmp_path: Path) -> None:
    """The answer a :class:`Router` route encodes on its worker thread is FastAPI's, byte for byte, with the
    route's status; a Response, a coroutine and a route with its own response class are left as they are."""
    with Memory(tmp_path / "a.db", agent="bot", settings=load_settings(embedder="none", worker="none")) as mem:
        message = mem.add_message("t", "user", "héllo <b> \u2028", created_at=datetime(2026, 1, 2, 3, 4, 5, 678))
        thread = mem.thread("t")
    fast, plain = Router(), APIRouter()
    for router in (fast, plain):

        @router.post("/m", status_code=201)
        def m() -> tuple[Message, Thread, dict[str, float]]:
            return (message, thread, {"n": 1.5})

        @router.get("/missing")
        def missing() -> dict[str, int]:
            return {"n": "not a number"}  # type: ignore[dict-item]

    apps = []
    for router in (fast, plain):
        app = FastAPI()
        include(app, router) if router is fast else app.include_router(router)
        apps.append(TestClient(app, raise_server_exceptions=False))
    ours, theirs = (c.post("/m") for c in apps)
    assert (ours.status_code, ours.content, ours.headers["content-type"]) == (
        theirs.status_code,
        theirs.content,
        theirs.headers["content-type"],
    )
    assert ours.status_code == 201 and b"2026-01-02T03:04:05.000678" in ours.content
    assert [c.get("/missing").status_code for c in apps] == [500, 500]  # an answer that is not its model
    assert apps[0].app.openapi() == apps[1].app.openapi()
