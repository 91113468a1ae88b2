"""Shared set-up of the review UI's browser tests (tests/test_ui.py): a store seeded through :class:`Memory`
(a scripted model makes the summaries, extracted facts, memories and LLM usage), the real ``memlane serve``
over it on a loopback port, and a signed-in browser visitor."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from memlane import Memory, load_settings
from memlane.testing.scripted import ScriptedLLM
from memlane.validation import NewJob

SRC = str(Path(__file__).resolve().parents[1] / "src")
CHROMIUM = os.environ.get("MEMLANE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Unique strings: each user's private facts, to search every page's text for.
ALICE_SECRET = "alice-zebra-7731 is her locker code"
BOB_SECRET = "bob-walrus-4412 is his bank pin"
BOB_SHARED = "bob recommends the ferry to Vila Nova"


def _llm_reply(messages: Any) -> str:
    """The scripted model: a summary of any batch, and the facts a batch states (a move supersedes a home)."""
    text = " ".join(str(m.content) for m in messages)
    facts = []
    summary = "Alice kept comparing quiet guesthouses in the Ribeira district of Porto."
    if "I live in Berlin" in text:
        summary = "Alice introduced herself (she lives in Berlin) and started planning a trip to Porto; no peanuts."
        facts = [
            {"category": "fact", "content": "Alice lives in Berlin", "importance": 3, "speaker": "alice"},
            {"category": "fact", "content": "Alice is allergic to peanuts", "importance": 5, "speaker": "alice"},
        ]
    elif "I live in Lisbon now" in text:
        summary = "Alice said she has moved to Lisbon; she asked for a guesthouse by the Douro river."
        facts = [{"category": "fact", "content": "Alice lives in Lisbon", "importance": 3, "speaker": "alice"}]
    return json.dumps(
        {
            "summary": summary,
            "facts": facts,
            "memory": "Alice planned a trip to Porto and asked for peanut-free restaurants.",
            "summaries": [],
        }
    )


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@dataclass
class Served:
    url: str
    db: Path
    keys: dict[str, str]
    facts: dict[str, int]

    def memory(self) -> Memory:
        """A second handle on the server's store, to check what the UI changed."""
        return Memory(self.db, agent="bot", settings=load_settings(embedder="none", worker="none"))


def _seed(db: Path) -> tuple[dict[str, str], dict[str, int]]:
    llm = ScriptedLLM(responder=_llm_reply)
    settings = load_settings(embedder="none", worker="none", summarize_after=10, summarize_batch=10)
    with Memory(db, agent="bot", settings=settings, llm=llm) as mem:
        for i in range(1, 35):
            if i % 2:
                text = {
                    1: "Hi, I'm Alice. I live in Berlin and I'm planning a trip to Porto next month.",
                    15: "By the way, I moved: I live in Lisbon now.",
                }.get(i, f"Question {i}: which guesthouse by the Douro river is quiet?")
                mem.add_message("trip-porto", "user", text, user="alice", name="Alice")
            else:
                mem.add_message("trip-porto", "assistant", f"Answer {i}: the Ribeira district has quiet guesthouses.")
        mem.add_message(
            "trip-porto",
            "assistant",
            None,
            tool_calls=[{"id": "call-1", "type": "function",
                         "function": {"name": "search_hotels", "arguments": '{"city": "Porto"}'}}],
        )  # fmt: skip
        mem.add_message("trip-porto", "tool", '{"hotels": ["Casa do Rio"]}', tool_call_id="call-1")
        mem.end("trip-porto")
        mem.add_message("bob-chat", "user", "Remind me about my bank appointment.", user="bob", name="Bob")
        mem.end("bob-chat")
        # A dead letter: a job whose payload no handler can use (the worker gives it up at once).
        mem.store.enqueue_jobs("bot", [NewJob("summarize", {"thread": ""})], datetime.now(UTC))
        mem.run_jobs(timeout=60)
        facts = {
            "alice": mem.remember(ALICE_SECRET, user="alice", category="fact", subject="alice").id,
            "alice_tea": mem.remember("Alice drinks green tea every morning", user="alice", category="habit").id,
            "bob": mem.remember(BOB_SECRET, user="bob").id,
            "bob_shared": mem.remember(BOB_SHARED, user="bob", visibility="shared").id,
            "agent": mem.remember("The bot answers in English unless asked otherwise", category="other").id,
            "doomed": mem.remember("Alice owns a purple kayak named Gertrude", user="alice").id,
        }
        mem.for_agent("other").add_message("o1", "user", "a message to another agent", user="carol")
        keys = {
            "admin": mem.create_api_key("admin").key,
            "bot": mem.create_api_key("agent", agent="bot").key,
            "alice": mem.create_api_key("user", agent="bot", user="alice").key,
            "bob": mem.create_api_key("user", agent="bot", user="bob").key,
        }
    return keys, facts


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Visitor:
    """One browser context (its own cookies) signed in with one key, recording CSP violations."""

    page: Any
    url: str
    violations: list[str]

    def go(self, path: str) -> Any:
        response = self.page.goto(self.url + path)
        assert response is not None
        return response

    def text(self) -> str:
        return str(self.page.inner_text("body"))


def sign_in(browser: Any, served: Served, who: str, *, javascript: bool = True) -> Visitor:
    context = browser.new_context(java_script_enabled=javascript, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    visitor = Visitor(page, served.url, violations)
    visitor.go("/ui/login")
    page.get_by_label("API key").fill(served.keys[who])
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Your memory" if who in ("alice", "bob") else "Agents")).to_be_visible()
    return visitor


def _env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a server under test: not the developer's settings, this checkout's source."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    return env | {"PYTHONPATH": SRC, "MEMLANE_HOME": str(home / "home"), **extra}


def _cli(db: Path) -> list[str]:
    return [sys.executable, "-c", "from memlane.cli.app import main; main()", "--db", str(db)]


@contextmanager
def _serving(home: Path, db: Path, env: dict[str, str], *args: str) -> Iterator[str]:
    """``memlane serve`` on a free loopback port over ``db`` until the block ends; yields its URL once ready."""
    port = _free_port()
    log = home / f"serve-{port}.log"
    with log.open("w") as out:
        proc = subprocess.Popen([*_cli(db), "serve", "--port", str(port), "--no-access-log", *args],
                                stdout=out, stderr=subprocess.STDOUT, env=env)  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                assert proc.poll() is None, log.read_text()
                try:
                    if httpx.get(f"{url}/readyz", timeout=1, trust_env=False).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, f"memlane serve did not become ready: {log.read_text()}"
                time.sleep(0.1)
            yield url
        finally:
            proc.terminate()
            proc.wait(timeout=15)


@contextmanager
def serve_seeded(home: Path) -> Iterator[Served]:
    """``memlane serve`` on a free loopback port over a freshly seeded store in ``home``; stopped after."""
    db = home / "ui.db"
    keys, facts = _seed(db)
    env = _env(home, MEMLANE_EMBEDDER="none")
    with _serving(home, db, env, "--rate-limit", "0", "--workers-in-process", "0") as url:
        yield Served(url, db, keys, facts)


@contextmanager
def serve_demo(home: Path) -> Iterator[str]:
    """``memlane serve --open`` over the store ``memlane demo`` makes (its jobs run once, without an LLM):
    the review UI as a new user first sees it. Yields the server's URL."""
    db = home / "demo.db"
    env = _env(home)
    subprocess.run([*_cli(db), "demo"], env=env, check=True, capture_output=True, timeout=300)
    subprocess.run([*_cli(db), "worker", "--once"], env=env, check=True, capture_output=True, timeout=300)
    with _serving(home, db, env, "--open") as url:
        yield url
