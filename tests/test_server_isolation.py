"""Isolation over HTTP, for every route: a user key never sees or changes another user's private data nor
anything of another agent; an agent key never crosses agents. Refused requests change nothing. On SQLite and
PostgreSQL; plus random request sequences (hypothesis)."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server_helpers import Env, server_env

A = "/v1/agents/bot"


@pytest.fixture
def env(store_url: str) -> Iterator[Env]:
    with server_env(store_url) as found:
        yield found


def _seed(env: Env) -> dict[str, Any]:
    """Alice's private things in agent bot (made with her own key) and an agent memory."""
    http, alice, bot = env.http, env.h("alice"), env.h("bot")
    said = http.post(
        f"{A}/threads/alice-t/messages", headers=alice, json={"role": "user", "content": "my secret-alice plan"}
    ).json()
    fact = http.post(f"{A}/facts", headers=alice, json={"content": "secret-alice diagnosis"}).json()
    http.post(
        f"{A}/threads/done-t/messages",
        headers=bot,
        json={"role": "user", "content": "launch on Friday", "user": "alice"},
    )
    http.post(f"{A}/threads/done-t/end", headers=bot)
    env.mem.run_jobs()
    memory = env.mem.list_memories()[0]
    dead = env.mem.jobs(status="done")[0]
    return {"fact": fact["id"], "memory": memory.id, "job": dead.id, "message": said["id"]}


def _alices(env: Env) -> list[str]:
    """Everything stored of Alice's own (her thread, her facts), to check Bob's requests changed none of it."""
    return [r for r in env.snapshot() if "'alice/alice-t'" in r or "'alice-t'" in r or "secret-alice" in r]


def _routes(ids: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], int]]:
    """(method, path, request options, status Bob's user key must get) for every agent route."""
    f, m, j, msg = ids["fact"], ids["memory"], ids["job"], ids["message"]
    export = '{"type":"header","format":"memlane-export","version":1,"agent":"bot"}\n'
    # Bob naming Alice's thread reaches his own thread of that name ("bob/alice-t"): never hers.
    return [
        ("GET", "/threads", {"params": {"user": "alice"}}, 403),
        ("GET", "/threads/alice-t", {}, 404),
        ("PUT", "/threads/alice-t", {"json": {"system_prompt": "x"}}, 200),
        ("POST", "/threads/alice-t/end", {}, 200),
        ("POST", "/threads/alice-t/reset", {}, 200),
        ("DELETE", "/threads/alice-t", {}, 204),
        ("POST", "/threads/alice-t/messages", {"json": {"role": "user", "content": "hi"}}, 201),
        ("POST", "/threads/alice-t/messages", {"json": {"role": "system", "content": "obey"}}, 403),
        ("POST", "/threads/alice-t/messages/batch", {"json": {"messages": [{"role": "user", "content": "hi"}]}}, 201),
        ("POST", "/messages/batch", {"json": {"threads": {"alice-t": [{"role": "user", "content": "hi"}]}}}, 201),
        ("GET", "/threads/alice-t/messages", {}, 200),
        ("GET", f"/threads/alice-t/messages/{msg}", {}, 404),
        ("PATCH", f"/threads/alice-t/messages/{msg}", {"json": {"content": "changed"}}, 404),
        ("DELETE", f"/threads/alice-t/messages/{msg}", {}, 404),
        ("POST", "/threads/alice-t/messages/delete", {"json": {"ids": [msg]}}, 403),
        ("GET", "/threads/alice-t/external/x", {}, 404),
        ("POST", "/threads/alice-t/context", {"json": {"query": "plan"}}, 200),
        ("POST", "/recall", {"json": {"query": "secret", "user": "alice"}}, 403),
        ("POST", "/facts", {"json": {"content": "planted", "user": "alice"}}, 403),
        ("GET", "/facts", {"params": {"user": "alice"}}, 403),
        ("GET", f"/facts/{f}", {}, 404),
        ("PATCH", f"/facts/{f}", {"json": {"content": "changed"}}, 404),
        ("PUT", f"/facts/{f}/visibility", {"json": {"visibility": "shared"}}, 404),
        ("PATCH", f"/facts/{f}/visibility", {"json": {"visibility": "shared"}}, 404),
        ("DELETE", f"/facts/{f}", {}, 404),
        ("DELETE", "/facts", {"params": {"user": "alice"}}, 403),
        ("GET", "/memories", {}, 403),
        ("DELETE", "/memories", {}, 403),
        ("DELETE", f"/memories/{m}", {}, 403),
        ("GET", "/profiles/alice", {}, 403),
        ("GET", "/digests/alice", {}, 403),
        ("GET", "/jobs", {}, 403),
        ("POST", f"/jobs/{j}/retry", {}, 403),
        ("GET", "/usage", {}, 403),
        ("GET", "/usage/days", {}, 403),
        ("GET", "/status", {}, 403),
        ("GET", "/export", {}, 403),
        ("POST", "/import", {"content": export, "headers": {"content-type": "application/x-ndjson"}}, 403),
        ("POST", "/prune", {"json": {"older_than_days": 0}}, 403),
        ("POST", "/prune/messages", {"json": {"older_than_days": 0}}, 403),
        ("GET", "/summaries", {}, 403),
        ("POST", "/facts/forget-matching", {"json": {"text": "secret-alice diagnosis", "user": "alice"}}, 403),
        ("GET", "/users/alice", {}, 403),
        ("PATCH", "/users/alice", {"json": {"persona": "pirate"}}, 403),
        ("POST", "/tokens", {"json": {"text": "how many tokens"}}, 200),
        ("POST", "/flush", {"json": {}}, 200),
        ("DELETE", "", {}, 403),
    ]


def _templates(env: Env) -> set[tuple[str, str]]:
    """(METHOD, path template) of every agent route, from the OpenAPI document."""
    paths = env.http.get("/openapi.json").json()["paths"]
    return {
        (method.upper(), path) for path, ops in paths.items() if path.startswith("/v1/agents/{agent}") for method in ops
    }


def test_user_and_agent_keys_stay_in_their_lane_on_every_route(env: Env) -> None:
    ids = _seed(env)
    routes = _routes(ids)
    covered = {(method, f"/v1/agents/{{agent}}{_template(path)}") for method, path, _, _ in routes}
    assert covered == _templates(env), "a route has no isolation check"
    before, everything = _alices(env), env.snapshot()
    for method, path, options, expected in routes:
        options = {**options, "headers": {**options.get("headers", {}), **env.h("bob")}}
        r = env.http.request(method, A + path, **options)
        assert r.status_code == expected, (method, path, r.status_code, r.text)
        assert "secret-alice" not in r.text
        assert "secret-alice" not in r.text
    assert _alices(env) == before
    for method, path, options, _ in routes:
        options = {**options, "headers": {**options.get("headers", {}), **env.h("other")}}
        r = env.http.request(method, A + path, **options)
        assert r.status_code == 403, (method, path, r.status_code)
        assert "secret-alice" not in r.text
    assert env.snapshot() != everything and _alices(env) == before
    # What Bob may do shows nothing of Alice's.
    bob = env.h("bob")
    env.http.post(
        f"{A}/threads/bob-t/messages", headers=bob, json={"role": "user", "content": "what is the secret plan"}
    )
    seen = [
        env.http.get(f"{A}/facts", headers=bob).text,
        env.http.post(f"{A}/recall", headers=bob, json={"query": "secret-alice plan diagnosis"}).text,
        env.http.post(f"{A}/threads/bob-t/context", headers=bob, json={"query": "secret plan"}).text,
        env.http.get(f"{A}/threads", headers=bob).text,
    ]
    assert all("secret-alice" not in text for text in seen)
    assert (
        env.http.get(f"{A}/threads/alice-t/messages", headers=env.h("alice")).json()[0]["content"]
        == "my secret-alice plan"
    )


def _template(path: str) -> str:
    parts = []
    for part in path.split("?")[0].split("/"):
        if part.isdigit():
            part = {"facts": "{fact_id}", "memories": "{memory_id}", "jobs": "{job_id}", "messages": "{message_id}"}[
                parts[-1]
            ]
        elif parts and parts[-1] == "external":
            part = "{external_id}"
        elif parts and parts[-1] == "threads" and part:
            part = "{thread}"
        elif parts and parts[-1] in ("profiles", "digests", "users"):
            part = "{user}"
        parts.append(part)
    return "/".join(parts)


# -- random sequences -------------------------------------------------------------------------------
USERS = ("u1", "u2", "u3")
_agents = itertools.count()
Op = st.tuples(
    st.sampled_from(["say", "remember", "share", "recall", "context", "facts", "read_fact", "intrude", "forget"]),
    st.sampled_from(USERS),
    st.sampled_from(USERS),
    st.integers(1, 6),
)


@pytest.fixture(scope="module")
def shared_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    with server_env(str(tmp_path_factory.mktemp("iso") / "h.db")) as found:
        yield found


@settings(
    max_examples=int(os.environ.get("ISO_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(ops=st.lists(Op, min_size=1, max_size=12))
def test_random_request_sequences_never_leak_private_data(
    shared_env: Env, ops: list[tuple[str, str, str, int]]
) -> None:
    env = shared_env
    agent = f"h{next(_agents)}"
    base = f"/v1/agents/{agent}"
    keys = {u: {"Authorization": f"Bearer {env.mem.create_api_key('user', agent=agent, user=u).key}"} for u in USERS}
    shared: set[str] = set()
    for op, user, other, n in ops:
        h = keys[user]
        if op == "say":
            r = env.http.post(
                f"{base}/threads/{user}-t/messages",
                headers=h,
                json={"role": "user", "content": f"private-{user} note {n}"},
            )
            assert r.status_code == 201 and r.json()["thread"] == f"{user}/{user}-t", r.text
        elif op in ("remember", "share"):
            body = (
                {"content": f"private-{user} fact {n}"}
                if op == "remember"
                else {"content": f"open-{user} fact {n}", "visibility": "shared"}
            )
            env.http.post(f"{base}/facts", headers=h, json=body)
            if op == "share":
                shared.add(f"open-{user}")
        elif op == "intrude":
            r = env.http.post(
                f"{base}/threads/{other}-t/messages", headers=h, json={"role": "user", "content": f"private-{user} x"}
            )
            # Naming another user's thread writes into one's own thread of that name, never theirs.
            assert r.status_code == 201 and r.json()["thread"] == f"{user}/{other}-t", r.text
        elif op == "forget":
            env.http.delete(f"{base}/facts/{n}", headers=h)
        texts = [
            env.http.post(f"{base}/recall", headers=h, json={"query": f"private note fact {other}", "limit": 20}).text,
            env.http.get(f"{base}/facts", headers=h).text,
            env.http.post(f"{base}/threads/{user}-t/context", headers=h, json={"query": "private fact note"}).text,
            env.http.get(f"{base}/facts/{n}", headers=h).text,
            env.http.get(f"{base}/threads", headers=h).text,
        ]
        for text in texts:
            for stranger in USERS:
                if stranger != user:
                    assert f"private-{stranger}" not in text, (
                        op,
                        user,
                        json.loads(text) if text.startswith("[") else text,
                    )
