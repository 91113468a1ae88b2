"""Bad input gets a clear 4xx and leaves the store unchanged; rate limits answer 429 with Retry-After; the real
``memlane serve`` process starts, says when it is open, and refuses a public address without keys."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from memlane import Memory, load_settings
from server_helpers import Env, server_env

A = "/v1/agents/bot"
SRC = str(Path(__file__).resolve().parents[1] / "src")


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    with server_env(str(tmp_path / "s.db"), max_body_bytes=10_000) as found:
        yield found


def test_bad_input_is_a_clear_4xx_and_changes_nothing(env: Env) -> None:
    http, h = env.http, env.h("bot")
    http.post(f"{A}/threads/t/messages", headers=h, json={"role": "user", "content": "keep me", "user": "alice"})
    before = env.snapshot()
    json_headers = {**h, "content-type": "application/json"}
    cases = [
        (http.post(f"{A}/threads/t/messages", headers=h, json={"role": "user", "content": "x" * 20_000}), 413),
        (http.post(f"{A}/threads/t/messages", headers=json_headers, content=b'{"role": "user", "content": '), 400),
        (http.post(f"{A}/threads/t/messages", headers=h, json={"role": "user", "content": "hi", "colour": 1}), 422),
        (http.post(f"{A}/threads/t/messages", headers=h, json={"role": "wizard", "content": "hi"}), 422),
        (http.post(f"{A}/threads/t/messages", headers=h, json={"role": "user", "content": ""}), 422),
        (
            http.post(
                f"{A}/threads/t/messages/batch",
                headers=h,
                json={"messages": [{"role": "user", "content": "ok"}, {"role": "user"}]},
            ),
            422,
        ),
        (
            http.post(
                f"{A}/messages/batch",
                headers=h,
                json={"threads": {"t": [{"role": "user", "content": "ok"}], "u": [{"role": "robot", "content": "x"}]}},
            ),
            422,
        ),
        (
            http.post(
                f"{A}/messages/batch", headers=h, json={"threads": {"a\u0007b": [{"role": "user", "content": "x"}]}}
            ),
            422,
        ),
        (
            http.post(f"{A}/threads/t/messages", headers=h, json={"role": "user", "content": "x", "user": "ali\nce"}),
            422,
        ),
        (http.post(f"{A}/threads/%2E%2E/messages", headers=h, json={"role": "user", "content": "x"}), 422),
        (http.post(f"{A}/threads/t/messages", headers={**h, "content-type": "text/plain"}, content=b"{}"), 415),
        (http.get(f"{A}/facts/abc", headers=h), 422),
        (http.get(f"{A}/facts/0", headers=h), 422),
        (http.get(f"{A}/facts/99", headers=h), 404),
        (http.patch(f"{A}/facts/1", headers=h, json={"importance": 99}), 422),
        (http.post(f"{A}/facts", headers=h, json={"content": "x", "importance": 99}), 422),
        (http.post(f"{A}/recall", headers=h, json={"query": ""}), 422),
        (
            http.post(
                f"{A}/recall",
                headers=h,
                json={"query": "x", "since": "2026-01-02T00:00:00Z", "until": "2026-01-01T00:00:00Z"},
            ),
            422,
        ),
        (http.get(f"{A}/threads", headers=h, params={"limit": -1}), 422),
        (http.get(f"{A}/threads/t/messages", headers={"Authorization": "Bearer ml_nope"}), 401),
        (http.get(f"{A}/threads/t/messages", headers={"Authorization": "Basic abc"}), 401),
        (http.get(f"{A}/threads/t/messages"), 401),
        (http.delete(f"{A}/threads/nope", headers=h), 404),
        (http.post("/v1/agents/bad%09agent/recall", headers=env.h("admin"), json={"query": "x"}), 422),
        (http.get("/v1/agents/nosuchbot/facts", headers=env.h("admin")), 404),
        (http.get(f"{A}/threads/nope/messages", headers=h), 404),
    ]
    for number, (response, status) in enumerate(cases):
        assert response.status_code == status, (number, response.status_code, response.text)
        body = response.json()
        assert response.headers["content-type"] == "application/problem+json"
        assert body["status"] == status and body["detail"] and "Traceback" not in response.text
    assert env.snapshot() == before


def test_a_chunked_body_over_the_limit_is_413_not_400(env: Env) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"role": "user", "content": "'
        for _ in range(40):
            yield b"x" * 50_000
        yield b'"}'

    r = env.http.post(
        f"{A}/threads/t/messages", headers={**env.h("bot"), "content-type": "application/json"}, content=chunks()
    )
    assert r.status_code == 413 and r.json()["type"] == "urn:memlane:problem:body-too-large"
    assert env.http.get(f"{A}/threads", headers=env.h("bot")).json() == []


def test_a_batch_for_several_threads_carries_at_most_1000_messages() -> None:
    from pydantic import ValidationError

    from memlane.server.schemas import ThreadsMessagesBody

    one = {"role": "user", "content": "x"}
    assert len(ThreadsMessagesBody(threads={"t": [one] * 500, "u": [one] * 500}).threads) == 2
    with pytest.raises(ValidationError, match="at most 1000 messages"):
        ThreadsMessagesBody(threads={"t": [one] * 500, "u": [one] * 501})


def test_expired_keys_are_refused(env: Env) -> None:
    key = env.mem.create_api_key("agent", agent="bot", expires_at=env.mem._now() + timedelta(seconds=1)).key
    h = {"Authorization": f"Bearer {key}"}
    assert env.http.get(f"{A}/facts", headers=h).status_code == 200
    time.sleep(1.1)
    r = env.http.get(f"{A}/facts", headers=h)
    assert r.status_code == 401 and "expired" in r.json()["detail"]


def test_rate_limit_per_key(tmp_path: Path) -> None:
    with server_env(str(tmp_path / "r.db"), rate_limit=2.0, rate_burst=3) as env:
        codes = [env.http.get(f"{A}/facts", headers=env.h("bot")).status_code for _ in range(5)]
        assert codes[:3] == [200, 200, 200] and codes[-1] == 429
        r = env.http.get(f"{A}/facts", headers=env.h("bot"))
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1 and r.json()["status"] == 429
        assert env.http.get(f"{A}/facts", headers=env.h("alice")).status_code == 200  # another key, its own bucket


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": SRC, "MEMLANE_EMBEDDER": "none"}
    return subprocess.Popen(
        [sys.executable, "-c", "from memlane.cli.app import main; main()", "--db", str(db), "serve", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.terminate()
    _, err = proc.communicate(timeout=15)
    return err


def _wait_ready(url: str, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1]
        try:
            if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise AssertionError("server not ready")


def test_memlane_serve_process(tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    refused = _serve(db, "--open", "--host", "0.0.0.0", "--port", str(_free_port()))
    _, err = refused.communicate(timeout=30)
    assert refused.returncode != 0 and "loopback" in err
    port = _free_port()
    proc = _serve(db, "--open", "--port", str(port))  # one in-process worker by default
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, proc)
        with httpx.Client(base_url=url, trust_env=False) as http:
            r = http.post(f"{A}/threads/t/messages", json={"role": "user", "content": "plan the launch", "user": "u"})
            assert r.status_code == 201 and r.headers["x-request-id"]
            assert http.post(f"{A}/threads/t/end").status_code == 200
            deadline = time.monotonic() + 20  # the in-process worker makes the memory
            while not http.get(f"{A}/memories").json()["memories"] and time.monotonic() < deadline:
                time.sleep(0.2)
            assert http.get(f"{A}/memories").json()["memories"]
    finally:
        err = _stop(proc)
    assert "OPEN mode" in err and "1 in-process worker" in err
    with Memory(db, settings=load_settings(embedder="none", worker="none")) as mem:
        key = mem.create_api_key("agent", agent="bot").key
    port = _free_port()
    proc = _serve(db, "--port", str(port))
    try:
        _wait_ready(f"http://127.0.0.1:{port}", proc)
        assert httpx.get(f"http://127.0.0.1:{port}{A}/facts", trust_env=False).status_code == 401
        ok = httpx.get(f"http://127.0.0.1:{port}{A}/facts", headers={"Authorization": f"Bearer {key}"}, trust_env=False)
        assert ok.status_code == 200
    finally:
        _stop(proc)


def test_request_threads_limit_the_worker_threads(tmp_path: Path) -> None:
    """``request_threads`` (``memlane serve --request-threads``) sets how many worker threads answer at once,
    on the loop that serves the app; 0 takes the default: one per core (at least 2) on SQLite, the framework's
    40 on PostgreSQL (whose default leaves the limiter as it is)."""
    import os

    from anyio import to_thread
    from fastapi.testclient import TestClient

    from memlane.server import ServerSettings, create_app
    from memlane.server.app import default_request_threads

    per_core = max(2, os.cpu_count() or 2)
    assert default_request_threads("sqlite") == per_core and default_request_threads("postgres") == 0
    with Memory(tmp_path / "t.db", settings=load_settings(embedder="none", worker="none"), llm=None) as mem:
        for threads, expected in ((3, 3), (0, per_core)):
            app = create_app(mem, ServerSettings(open=True, request_threads=threads))
            with TestClient(app, base_url="http://127.0.0.1") as http:
                assert http.portal is not None
                limit = http.portal.call(lambda: to_thread.current_default_thread_limiter().total_tokens)
                assert limit == expected
                http.put(f"{A}/threads/t", json={})
                answers = [
                    http.post(f"{A}/threads/t/messages", json={"role": "user", "content": f"m{i}"}) for i in range(3)
                ]
                assert [r.status_code for r in answers] == [201] * 3
                assert http.get(f"{A}/threads/t/messages").json()[-1]["content"] == "m2"
