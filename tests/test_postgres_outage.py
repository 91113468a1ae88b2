"""A PostgreSQL outage under a running ``memlane serve``: health tells the truth, requests fail fast with a
503 problem, and the pool recovers without a restart of memlane.

Each test starts its own throwaway server (never the suite's shared one, which other tests use) with
``synchronous_commit=on``, so that an immediate stop cannot lose a commit a client was told about.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import psycopg
import pytest

from memlane import Client, Memory, StorageError, load_settings
from memlane.pipeline.worker import CLAIM_BACKOFF_MAX, Worker
from memlane.store.postgres import PostgresStore
from memlane.testing.postgres import PostgresUnavailable, ThrowawayPostgres
from memlane.types import Job
from memlane.validation import NewJob

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

SRC = str(Path(__file__).resolve().parents[1] / "src")
A = "/v1/agents/bot"
PROBLEM = "urn:memlane:problem:storage-unavailable"


@pytest.fixture
def own_pg() -> Iterator[ThrowawayPostgres]:
    """A throwaway server of this test alone, durable commits on (see the module docstring)."""
    stack = contextlib.ExitStack()
    try:
        server = stack.enter_context(ThrowawayPostgres(settings={"synchronous_commit": "on"}))
    except PostgresUnavailable as exc:
        if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}:
            raise
        pytest.skip(f"throwaway PostgreSQL unavailable: {exc}")
    with stack:
        yield server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(predicate: object, timeout: float, what: str) -> float:
    """Poll ``predicate`` until it is true; the seconds it took. Fails the test after ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if predicate():  # type: ignore[operator]
            return time.monotonic() - started
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout} s")


def test_stop_and_start_keep_the_data_the_port_and_the_url(own_pg: ThrowawayPostgres) -> None:
    url, port = own_pg.url, own_pg.port
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE kept (n int)")
        conn.execute("INSERT INTO kept VALUES (1), (2)")
    own_pg.stop()
    assert not own_pg.running and own_pg.url == url
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=3).close()
    own_pg.stop()  # already stopped: nothing to do
    own_pg.start()
    assert own_pg.running and own_pg.port == port
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM kept").fetchone() == (2,)


def test_store_calls_fail_fast_while_the_server_is_down_and_work_after_its_return(
    own_pg: ThrowawayPostgres,
) -> None:
    store = PostgresStore(own_pg.url, pool_timeout=3.0)
    try:
        assert store.schema_version() > 0
        own_pg.stop()
        timings = []
        for _ in range(3):
            started = time.monotonic()
            with pytest.raises(StorageError):
                store.list_agents()
            timings.append(time.monotonic() - started)
        assert max(timings) < 3.0 + 1.0  # the pool's wait bounds each call; psycopg-pool's default is 30 s
        assert timings[-1] < 1.5  # once the server is known down, a call waits a second at most
        time.sleep(7)  # longer than the pool's background reconnection tries
        own_pg.start()
        took = _wait_for(lambda: _answers(store), 5.0, "the store after the server's return")
        assert took < 5.0
    finally:
        store.close()


def _answers(store: PostgresStore) -> bool:
    try:
        store.list_agents()
    except StorageError:
        return False
    return True


@contextlib.contextmanager
def _serve(url: str, log: Path) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": SRC, "MEMLANE_EMBEDDER": "none", "MEMLANE_PG_POOL_TIMEOUT": "3"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "memlane", "--db", url, "serve", "--port", str(port), "--workers-in-process", "0",
             "--rate-limit", "0", "--no-access-log"],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_for(lambda: proc.poll() is not None or _ready(base) == 200, 90, "memlane serve ready")
            assert proc.poll() is None, log.read_text()
            yield base
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def _ready(base: str, timeout: float = 8.0) -> int | None:
    """/readyz's status, or None when the server does not answer within ``timeout``."""
    try:
        return httpx.get(f"{base}/readyz", timeout=timeout, trust_env=False).status_code
    except httpx.HTTPError:
        return None


def test_serve_on_an_outage_answers_503_problems_and_recovers_without_a_restart(
    own_pg: ThrowawayPostgres, tmp_path: Path
) -> None:
    with Memory(own_pg.url, agent="bot", settings=load_settings(embedder="none", worker="none")) as mem:
        key = mem.create_api_key("agent", agent="bot").key
    headers = {"Authorization": f"Bearer {key}"}
    with (
        _serve(own_pg.url, tmp_path / "serve.log") as base,
        httpx.Client(base_url=base, headers=headers, timeout=10, trust_env=False) as http,
    ):
        before = [f"before {i}" for i in range(3)]
        for text in before:
            assert http.post(f"{A}/threads/t/messages", json={"role": "user", "content": text}).status_code == 201

        own_pg.stop()
        down = _wait_for(lambda: _ready(base) == 503, 10, "/readyz 503 after the stop")
        assert down < 10
        started = time.monotonic()
        r = http.post(f"{A}/threads/t/messages", json={"role": "user", "content": "during"})
        took = time.monotonic() - started
        assert r.status_code == 503, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["type"] == PROBLEM and r.json()["status"] == 503
        assert took < 5, f"a write during the outage took {took:.1f} s to fail"

        own_pg.start()
        back = _wait_for(lambda: _ready(base) == 200, 10, "/readyz 200 after the start")
        assert back < 10
        with Client(base, key, agent="bot", timeout=10) as client:
            client.add_message("t", "user", "after the return")
        assert http.post(f"{A}/threads/t/messages", json={"role": "user", "content": "last"}).status_code == 201
        listed = http.get(f"{A}/threads/t/messages").json()
    assert [m["content"] for m in listed] == [*before, "after the return", "last"]
    assert [m["seq"] for m in listed] == [1, 2, 3, 4, 5]


def test_a_client_write_sent_during_the_outage_is_stored_once_after_the_return(
    own_pg: ThrowawayPostgres, tmp_path: Path
) -> None:
    with Memory(own_pg.url, agent="bot", settings=load_settings(embedder="none", worker="none")) as mem:
        key = mem.create_api_key("agent", agent="bot").key
    with _serve(own_pg.url, tmp_path / "serve.log") as base:
        own_pg.stop()
        _wait_for(lambda: _ready(base) == 503, 10, "/readyz 503 after the stop")
        outcome: list[object] = []

        def write() -> None:
            # Retries 0.25, 0.5, 1, 2, 4, 8 s apart: the write outlives an outage of ~10 s.
            with Client(base, key, agent="bot", timeout=10, retries=6) as client:
                try:
                    outcome.append(client.add_message("t", "user", "sent while down"))
                except StorageError as exc:
                    outcome.append(exc)

        writer = threading.Thread(target=write)
        writer.start()
        time.sleep(3)
        own_pg.start()
        writer.join(60)
        assert len(outcome) == 1 and not isinstance(outcome[0], BaseException), outcome
        messages = httpx.get(f"{base}{A}/threads/t/messages", headers={"Authorization": f"Bearer {key}"}).json()
    assert [m["content"] for m in messages] == ["sent while down"]


def test_a_worker_claims_again_within_seconds_of_the_database_return(own_pg: ThrowawayPostgres) -> None:
    """A long outage makes a worker's failed claims pile up; its pause between them is bounded, so it is at
    work again soon after the database returns (the pause used to double up to a minute)."""
    ran = threading.Event()

    def mark(pipeline: object, job: Job) -> None:
        ran.set()

    mark.uses_llm = False  # type: ignore[attr-defined]
    settings = load_settings(embedder="none", worker="none", pg_pool_timeout=2)
    with Memory(own_pg.url, agent="bot", settings=settings) as mem:
        mem.pipeline.steps = []
        mem.pipeline.handlers = {"test.mark": mark}
        worker = Worker(mem, poll_interval=1.0, lease_seconds=60)
        runner = threading.Thread(target=worker.run_forever)
        runner.start()
        try:
            own_pg.stop()
            time.sleep(40)  # claims fail all along: 2, 4, 8, 16, 32 s pauses before the bound
            own_pg.start()
            back = time.monotonic()
            _wait_for(lambda: _answers(mem.store), 10, "the store after the server's return")  # type: ignore[arg-type]
            mem.store.enqueue_jobs("bot", [NewJob("test.mark", {})], datetime.now(UTC))
            assert ran.wait(CLAIM_BACKOFF_MAX + 5), "the worker did not claim the job after the database returned"
            assert time.monotonic() - back < CLAIM_BACKOFF_MAX + 5
        finally:
            worker.stop_event.set()
            runner.join(15)
