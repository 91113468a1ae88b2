"""The programs in examples/ run as their docstrings say, offline: the suite runs each one (a smoke test of
what a user copies first). The `!chat` bot on stdin is run by tests/test_chat_commands.py."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import httpx
import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    return env | {"MEMLANE_HOME": str(tmp_path / "home"), "NO_PROXY": "127.0.0.1,localhost"}


def _run(name: str, tmp_path: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), "--db", str(tmp_path / "example.db"), *args],
        cwd=tmp_path,
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def test_every_example_is_run_here() -> None:
    ran = {"chat_bot.py", "agents_session.py", "langgraph_agent.py", "fastapi_app.py"}
    assert {path.name for path in EXAMPLES.glob("*.py")} == ran


def test_agents_session_answers_from_the_session_and_keeps_it_in_memlane(tmp_path: Path) -> None:
    pytest.importorskip("agents")
    out = _run("agents_session.py", tmp_path)
    assert "agent: Order 7731 ships tomorrow." in out and "agent: You asked about order 7731." in out
    assert "thread support-42 holds 4 messages" in out
    assert "recalled: alice: Where is my order 7731?" in out
    assert "second request held 4 messages" in out  # instructions, the first turn's two messages, the question


def test_langgraph_agent_remembers_across_runs(tmp_path: Path) -> None:
    pytest.importorskip("langgraph")
    first = _run("langgraph_agent.py", tmp_path)
    assert "agent: Noted: I am vegetarian" in first
    assert "agent: Keeping in mind:" in first and "Ana lives in Porto" in first.splitlines()[-2]
    second = _run("langgraph_agent.py", tmp_path, "--user", "bob")  # another user: sees nothing of alice's
    # kept in the third person, so they read right in any prompt
    assert """facts memlane keeps for bob: ["Bob's sister Ana lives in Porto", 'Bob is vegetarian']""" in second
    assert "facts memlane keeps for alice" not in second


def _fastapi_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fastapi_example", EXAMPLES / "fastapi_app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fastapi_app_endpoints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEMLANE_HOME", str(tmp_path / "home"))
    with TestClient(_fastapi_example().create_app(str(tmp_path / "app.db"))) as client:
        said = client.post("/channels/general/messages", json={"user": "alice", "text": "I love sourdough"})
        assert said.status_code == 201 and said.json()["seq"] == 1
        fact = client.post("/facts", json={"user": "alice", "text": "Alice bakes on weekends"})
        assert fact.status_code == 201 and fact.json()["visibility"] == "private"
        ctx = client.get("/channels/general/context", params={"user": "alice", "query": "baking tips"}).json()
        assert ctx["messages"][-1] == {"role": "user", "content": "I love sourdough"}
        assert "Alice bakes on weekends" in ctx["messages"][0]["content"]
        hits = client.get("/recall", params={"q": "baking", "user": "alice"}).json()
        assert "Alice bakes on weekends" in [hit["text"] for hit in hits]
        assert client.get("/recall", params={"q": "baking", "user": "bob"}).json() == []  # alice's are private
        assert client.get("/channels/general").json() == {"users": ["alice"], "messages": 1}
        assert client.get("/channels/nowhere").status_code == 404
        assert client.post("/facts", json={"user": "alice", "text": "  "}).status_code == 422


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_fastapi_app_serves_on_loopback(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, str(EXAMPLES / "fastapi_app.py"), "--db", str(tmp_path / "app.db"), "--port", str(port)],
        cwd=tmp_path,
        env=_env(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                said = httpx.post(f"{url}/channels/general/messages", json={"user": "alice", "text": "hi"}, timeout=30)
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() < deadline, "the example did not start"
                time.sleep(0.2)
        assert said.status_code == 201
    finally:
        server.terminate()
        server.wait(timeout=30)
