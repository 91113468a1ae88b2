"""``memlane.Client`` / ``AsyncClient`` against a real server on loopback: the same scenario through ``Memory``
and through ``Client`` gives the same results (same types, same values), errors come back as memlane errors,
and the async twin matches the sync client."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import io
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import FakeClock
from memlane import AsyncClient, Client, Forbidden, InvalidInput, Memory, NotFound, StorageError, load_settings
from memlane.client.calls import CALLS
from memlane.server import ServerSettings, create_app
from server_helpers import serving

WEATHER_CALL = {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{}"}}


def _memory(path: Path, clock: FakeClock) -> Memory:
    return Memory(path, agent="bot", settings=load_settings(embedder="none", worker="none"), llm=None, clock=clock)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Memory, FakeClock]]:
    clock = FakeClock()
    mem = _memory(tmp_path / "server.db", clock)
    try:
        with serving(create_app(mem, ServerSettings(rate_limit=0, open=True))) as url:
            yield url, mem, clock
    finally:
        mem.close()


def scenario(m: Any, clock: FakeClock) -> list[Any]:
    """A bot's day, through any object with Memory's methods; returns everything it got back."""
    out: list[Any] = []
    out.append(m.set_thread("t1", system_prompt="You are a helpful assistant.", metadata={"channel": "web"}))
    out.append(m.add_message("t1", "user", "Hi, I'm Alice and I love hiking in the Alps", user="alice"))
    clock.advance(minutes=1)
    out.append(m.add_messages("t1", [
        {"role": "assistant", "content": "", "tool_calls": [WEATHER_CALL]},
        {"role": "tool", "content": "sunny", "tool_call_id": "c1"},
        {"role": "assistant", "content": "It will be sunny for your hike."},
    ]))  # fmt: skip
    out.append(m.add_message("t2", "user", "Bob here, I collect stamps", user="bob"))
    out.append(m.add_to_threads({
        "t3": [{"role": "user", "content": "Any tips for sourdough?", "user": "carol"}],
        "t4": [{"role": "user", "content": "Dan here"}, {"role": "assistant", "content": "Hello Dan"}],
    }))  # fmt: skip
    out.append(m.history("t1"))
    out.append(m.history("t1", 2, before=4))
    out.append(m.thread("t1"))
    out.append(m.threads())
    out.append(m.threads("alice"))
    fact = m.remember("Alice is vegetarian", user="alice", category="preference", importance=4)
    out.append(fact)
    out.append(m.remember("The office opens at 9", category="fact"))
    out.append(m.update_fact(fact.id, content="Alice is vegan", user="alice"))
    out.append(m.update_fact(fact.id, visibility="shared", user="alice"))
    out.append(m.fact(fact.id))
    out.append(m.fact_history(fact.id))
    out.append(m.facts("alice"))
    out.append(m.facts("bob"))
    out.append(m.facts(all_users=True))
    out.append(m.recall("hiking Alps", user="alice"))
    out.append(m.recall("vegan", kinds=["fact"], limit=3))
    out.append(m.recall("stamps", user="bob", group_by="thread"))
    ctx = m.context("t1", query="what food", user="alice", budget=800)
    out.append(ctx)
    out.append(ctx.to_messages())
    out.append(m.end("t2"))
    return out


def _normal(value: Any) -> Any:
    """Values with volatile parts (wall-clock times the store adds, access counters) left out."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, {f.name: _normal(getattr(value, f.name)) for f in dataclasses.fields(value)
                                       if f.name not in ("last_accessed_at", "access_count")})  # fmt: skip
    if isinstance(value, list | tuple):
        return [_normal(v) for v in value]
    if isinstance(value, dict):
        # A write through the Client carries its idempotency key as the message's external id (retry-safe).
        return {k: _normal(v) for k, v in value.items() if not (k == "external_id" and str(v).startswith("idem:"))}
    return value


def test_the_same_scenario_through_memory_and_client(served: tuple[str, Memory, FakeClock], tmp_path: Path) -> None:
    url, server_mem, server_clock = served
    with _memory(tmp_path / "embedded.db", FakeClock()) as embedded:
        local = scenario(embedded, FakeClock())
    with Client(url, agent="bot") as client:
        remote = scenario(client, server_clock)
        assert type(remote[-3]).__name__ == "Context" and remote[-3].to_messages()[0]["role"] == "system"
        for got, want in zip(remote, local, strict=True):
            assert type(got) is type(want)
        # Times come from each side's clock; ids, texts, scores, scopes and structure must be the same.
        assert _strip_times(_normal(remote)) == _strip_times(_normal(local))
        server_mem.run_jobs()
        memories = client.list_memories()
        assert [m.thread for m in memories] == ["t2"] and memories == server_mem.list_memories()
        assert client.delete_memory(memories[0].id) == 1 and client.list_memories() == []
        assert client.forget_all("bob") == 0 and client.reset("t2") == 1
        assert client.profile("alice") == server_mem.profile("alice")
        assert client.digest("alice") == server_mem.digest("alice")
        assert client.jobs(status="done") == server_mem.jobs(status="done")
        assert client.usage_totals() == [] and client.budget().agent == "bot"
        assert client.usage_by_day(3) == server_mem.usage_by_day(3) and len(client.usage_by_day()) == 14
        assert client.status().counts == server_mem.status().counts
        exported = io.StringIO()
        assert client.export(exported) == len(list(server_mem.export_records()))
        with Client(url, agent="copy") as copy:
            assert copy.import_(io.StringIO(exported.getvalue()))["threads"] == 4
            assert [m.content for m in copy.history("t1")] == [m.content for m in client.history("t1")]
        with pytest.raises(NotFound):
            client.fact(9999)
        with pytest.raises(InvalidInput):
            client.add_message("t1", "wizard", "hi")
        client.delete_thread("t1")
        with pytest.raises(NotFound):
            client.thread("t1")
    key = server_mem.create_api_key("user", agent="bot", user="bob").key
    with Client(url, key, agent="bot") as bob, pytest.raises(Forbidden):
        bob.facts("alice")


def _strip_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_times(v) for k, v in value.items() if not (k.endswith("_at") or k in ("valid_from", "at"))}
    if isinstance(value, list | tuple):
        return [_strip_times(v) for v in value]
    if isinstance(value, str) and "[20" in value:  # "[2026-01-01] ..." lines of a context section
        return value.split("] ", 1)[-1]
    return value


def test_async_client_is_the_same_calls(served: tuple[str, Memory, FakeClock]) -> None:
    url, server_mem, _ = served

    async def main() -> tuple[Any, ...]:
        async with AsyncClient(url, agent="bot") as client:
            message = await client.add_message("t", "user", "I like jazz", user="carol")
            hits = await client.recall("jazz", user="carol")
            facts = await client.facts("carol")
            records = [r async for r in client.export_records()]
            return message, hits, facts, records

    message, hits, facts, records = asyncio.run(main())
    assert message == server_mem.history("t")[0]
    assert [(h.kind, h.id) for h in hits] == [(h.kind, h.id) for h in server_mem.recall("jazz", user="carol")]
    assert [f.content for f in facts] == ["Carol likes jazz"]  # stated in her message, stored with it
    assert records[0]["type"] == "header" and len(records) == len(list(server_mem.export_records()))
    for name in CALLS:  # one mapping: both clients have each method, with Memory's signature
        assert inspect.iscoroutinefunction(getattr(AsyncClient, name)) and callable(getattr(Client, name))
        want = inspect.signature(getattr(Memory, name))
        got = inspect.signature(getattr(Client, name))
        assert list(got.parameters)[1:] == list(want.parameters)[1:], name


def test_a_server_that_does_not_answer_is_a_storage_error_from_both_clients() -> None:
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    with Client(url, agent="bot", timeout=2) as client, pytest.raises(StorageError, match="cannot reach"):
        client.recall("anything")

    async def remote() -> None:
        async with AsyncClient(url, agent="bot", timeout=2) as client:
            with pytest.raises(StorageError, match="cannot reach"):
                await client.recall("anything")
            with pytest.raises(StorageError, match="cannot reach"):
                [r async for r in client.export_records()]

    asyncio.run(remote())


def test_every_memory_method_is_offered_remotely_or_listed_with_its_reason() -> None:
    from memlane.client.calls import LOCAL_ONLY

    public = {name for name, value in inspect.getmembers(Memory) if not name.startswith("_") and callable(value)}
    streamed = {"export", "export_records", "import_"}  # written in the clients themselves (files, streams)
    assert public - set(CALLS) - set(LOCAL_ONLY) - streamed == set()
    assert set(LOCAL_ONLY) <= public | {"close"} and all(LOCAL_ONLY.values())
    for name, builder in CALLS.items():
        want = inspect.signature(getattr(Memory, name)).parameters
        got = inspect.signature(builder).parameters
        assert [p for p in want if p != "self"] == list(got), name
        for param in got.values():
            assert param.kind == want[param.name].kind and (param.default is inspect.Parameter.empty) == (
                want[param.name].default is inspect.Parameter.empty
            ), (name, param.name)


def test_the_calls_a_bot_needs_beyond_the_scenario(served: tuple[str, Memory, FakeClock]) -> None:
    url, server_mem, _ = served
    key = server_mem.create_api_key("agent", agent="helpdesk").key
    with Client(url, key) as client:  # the key's own agent, no agent= needed
        first = client.add_message("slack/C42", "user", "the printer is jammed", user="U1", external_id="slack:1")
        assert client.agent == "helpdesk" and first.thread == "slack/C42"
        assert client.external_message("slack/C42", "slack:1") == first
        assert client.external_message("slack/C42", "slack:404") is None
        edited = client.edit_message("slack/C42", first.id, "the printer on floor 2 is jammed")
        assert client.message("slack/C42", first.id).content == edited.content == "the printer on floor 2 is jammed"
        second = client.add_message("slack/C42", "user", "fixed it", user="U1")
        assert client.delete_messages("slack/C42", [second.id]) == 1
        assert [m.id for m in client.history("slack/C42")] == [first.id]
        assert client.set_user("U1", persona="brief").persona == "brief" and client.user("U1").interactions == 2
        assert client.count_tokens("hello world") == server_mem.count_tokens("hello world")
        client.remember("U1 sits on floor 2", user="U1")
        assert [f.content for f in client.forget_matching("U1 sits on floor 2", user="U1")] == ["U1 sits on floor 2"]
        assert client.summaries("slack/C42") == [] and client.memory_cap() == server_mem.memory_cap()
        assert client.flush() is True and client.prune_messages(10_000) == 0 and client.prune(10_000) == 0
        with pytest.raises(NotFound):
            client.message("slack/C42", 999_999)
        with pytest.raises(InvalidInput, match="control characters"):
            client.add_message("bad\nname", "user", "x")
    with Client(url) as admin:  # an open server: admin, in agent "default"
        assert "helpdesk" in admin.agents() and admin.agent == "default"
        with pytest.raises(NotFound):
            admin.threads()  # "default" holds nothing: an unknown agent, not an empty one
    assert asyncio.run(_async_agent(url, key)) == "helpdesk"
    with Client(url, agent="helpdesk") as admin:
        assert admin.delete_agent(purge=True)["threads"] == 1
        assert admin.threads() == []
    assert asyncio.run(_async_agent(url, key)) == "helpdesk"


async def _async_agent(url: str, key: str) -> str | None:
    async with AsyncClient(url, key) as client:
        await client.threads()
        return client.agent


def test_a_write_sent_again_with_its_idempotency_key_is_stored_once(served: tuple[str, Memory, FakeClock]) -> None:
    url, server_mem, _ = served
    with httpx.Client(base_url=url, trust_env=False) as http:
        once = {"Idempotency-Key": "7c1f-retry-me"}
        first = http.post("/v1/agents/bot/threads/t/messages", json={"role": "user", "content": "hi"}, headers=once)
        again = http.post("/v1/agents/bot/threads/t/messages", json={"role": "user", "content": "hi"}, headers=once)
        assert first.status_code == again.status_code == 201 and first.json()["id"] == again.json()["id"]
        batch = {"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]}
        ids = [
            [
                m["id"]
                for m in http.post(
                    "/v1/agents/bot/threads/t/messages/batch", json=batch, headers={"Idempotency-Key": "b-1"}
                ).json()
            ]
            for _ in range(2)
        ]
        assert ids[0] == ids[1] and len(ids[0]) == 2
        many = {"threads": {"t": [{"role": "user", "content": "c"}], "u": [{"role": "user", "content": "d"}]}}
        sent = [
            http.post("/v1/agents/bot/messages/batch", json=many, headers={"Idempotency-Key": "m-1"}).json()
            for _ in range(2)
        ]
        assert sent[0] == sent[1]
    assert [m.content for m in server_mem.history("t")] == ["hi", "a", "b", "c"]
    assert [m.content for m in server_mem.history("u")] == ["d"]


class _DroppingProxy:
    """A TCP proxy to ``url`` that hands its first ``drops`` connections' requests to the server, then closes
    them without an answer: the client cannot know whether its write was stored."""

    def __init__(self, url: str, drops: int) -> None:
        self.upstream = httpx.URL(url)
        self.drops = drops
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.sockets: list[socket.socket] = []
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        up = socket.create_connection((self.upstream.host, self.upstream.port))
        self.sockets += [conn, up]
        if self.drops > 0:
            self.drops -= 1
            data = conn.recv(65536)
            up.sendall(data)
            up.recv(65536)  # the server has answered: it stored the write
            conn.close()
            up.close()
            return
        for a, b in ((conn, up), (up, conn)):
            threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                dst.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.listener.close()
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.close()


def test_the_client_retries_a_write_whose_answer_was_lost_and_stores_it_once(
    served: tuple[str, Memory, FakeClock],
) -> None:
    url, server_mem, _ = served
    proxy = _DroppingProxy(url, drops=1)
    try:
        with Client(proxy.url, agent="bot") as client:
            message = client.add_message("lost", "user", "did this arrive?", user="u")
        assert [m.id for m in server_mem.history("lost")] == [message.id]
        proxy.drops = 1
        got = asyncio.run(_async_add(proxy.url))
        assert [m.id for m in server_mem.history("lost")] == [message.id, got]
    finally:
        proxy.close()


async def _async_add(url: str) -> int:
    async with AsyncClient(url, agent="bot") as client:
        return (await client.add_message("lost", "user", "and this one?", user="u")).id
