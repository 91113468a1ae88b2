"""Every route of ``memlane serve`` through the real app on a real SQLite store (in process), checking what a
bot would see: statuses, bodies in memlane's own shapes, seed 001's admin endpoints and problem details."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from server_helpers import Env, server_env


@pytest.fixture
def env(tmp_path: Path) -> Iterator[Env]:
    with server_env(str(tmp_path / "s.db")) as found:
        yield found


A = "/v1/agents/bot"


def test_threads_and_messages(env: Env) -> None:
    http, h = env.http, env.h("bot")
    r = http.put(f"{A}/threads/t1", headers=h, json={"system_prompt": "Be brief.", "metadata": {"channel": "web"}})
    assert (
        r.status_code == 200 and r.json()["system_prompt"] == "Be brief." and r.json()["metadata"] == {"channel": "web"}
    )
    r = http.post(
        f"{A}/threads/t1/messages", headers=h, json={"role": "user", "content": "I love Python", "user": "alice"}
    )
    assert r.status_code == 201 and r.json()["seq"] == 1 and r.json()["user"] == "alice"
    call = [{"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]
    batch = [
        {"role": "assistant", "content": "", "tool_calls": call},
        {"role": "tool", "content": "42", "tool_call_id": "c1"},
        {"role": "assistant", "content": "The answer is 42."},
    ]
    r = http.post(f"{A}/threads/t1/messages/batch", headers=h, json={"messages": batch})
    assert r.status_code == 201 and [m["seq"] for m in r.json()] == [2, 3, 4] and r.json()[0]["tool_calls"] == call
    assert [m["seq"] for m in http.get(f"{A}/threads/t1/messages", headers=h).json()] == [1, 2, 3, 4]
    several = {"t2": [{"role": "user", "content": "hi", "user": "bob"}], "t3": batch[2:]}
    r = http.post(f"{A}/messages/batch", headers=h, json={"threads": several})
    assert r.status_code == 201 and {k: [m["seq"] for m in ms] for k, ms in r.json().items()} == {"t2": [1], "t3": [1]}
    assert http.get(f"{A}/threads/t3/messages", headers=h).json() == r.json()["t3"]
    page = http.get(f"{A}/threads/t1/messages", headers=h, params={"limit": 2}).json()
    assert [m["seq"] for m in page] == [3, 4]
    back = http.get(f"{A}/threads/t1/messages", headers=h, params={"limit": 2, "before": 3}).json()
    assert [m["seq"] for m in back] == [1, 2]
    assert [m["seq"] for m in http.get(f"{A}/threads/t1/messages", headers=h, params={"after": 3}).json()] == [4]
    listed = http.get(f"{A}/threads", headers=h, params={"user": "alice"}).json()
    assert [t["key"] for t in listed] == ["t1"] and listed[0]["users"] == ["alice"]
    assert http.get(f"{A}/threads/t1", headers=h).json()["message_count"] == 4
    assert http.post(f"{A}/threads/t1/end", headers=h).json()["status"] == "ended"
    assert http.get(f"{A}/threads", headers=h, params={"status": "ended"}).json()[0]["key"] == "t1"
    assert http.post(f"{A}/threads/t1/reset", headers=h).json() == {"cleared": 4}
    assert http.get(f"{A}/threads/t1/messages", headers=h).json() == []
    assert http.delete(f"{A}/threads/t1", headers=h).status_code == 204
    r = http.get(f"{A}/threads/t1", headers=h)
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["status"] == 404 and r.json()["request_id"] == r.headers["x-request-id"]


def test_context_and_recall(env: Env) -> None:
    http, h = env.http, env.h("bot")
    http.put(f"{A}/threads/t1", headers=h, json={"system_prompt": "You are helpful."})
    http.post(
        f"{A}/threads/t1/messages",
        headers=h,
        json={"role": "user", "content": "I adore hiking in the Alps", "user": "alice"},
    )
    http.post(
        f"{A}/facts", headers=h, json={"content": "Alice is vegetarian", "user": "alice", "category": "preference"}
    )
    r = http.post(f"{A}/threads/t1/context", headers=h, json={"query": "food", "user": "alice", "budget": 500})
    body = r.json()
    assert r.status_code == 200 and body["openai_messages"][0]["role"] == "system"
    assert body["openai_messages"][-1] == {"role": "user", "content": "I adore hiking in the Alps"}
    facts = [s for s in body["sections"] if s["title"] == "Remembered facts"]
    assert facts and "vegetarian" in facts[0]["lines"][0] and facts[0]["tokens"] > 0
    assert 0 < body["tokens"] <= 500
    hits = http.post(f"{A}/recall", headers=h, json={"query": "hiking Alps", "user": "alice"}).json()
    # The message, and the fact stated in it ("Alice adores hiking in the Alps"), both answer.
    assert "Alps" in hits[0]["text"] and any(x["kind"] == "message" and "Alps" in x["text"] for x in hits)
    only_facts = http.post(f"{A}/recall", headers=h, json={"query": "vegetarian", "user": "alice", "kinds": ["fact"]})
    assert [x["kind"] for x in only_facts.json()] == ["fact"]
    grouped = http.post(
        f"{A}/recall", headers=h, json={"query": "hiking", "user": "alice", "group_by": "thread"}
    ).json()
    assert grouped[0]["thread"] == "t1" and grouped[0]["hits"]
    future = (datetime.now(UTC) + timedelta(days=1)).isoformat()
    assert http.post(f"{A}/recall", headers=h, json={"query": "hiking", "since": future}).json() == []
    assert http.post(f"{A}/recall", headers=h, json={"query": "hiking", "metadata": {"channel": "x"}}).json() == []
    assert http.post(f"{A}/recall", headers=h, json={"query": "hiking", "preset": "nope"}).status_code == 422


def test_facts(env: Env) -> None:
    http, h = env.http, env.h("bot")
    r = http.post(f"{A}/facts", headers=h, json={"content": "Alice likes tea", "user": "alice", "importance": 4})
    assert r.status_code == 201
    fid = r.json()["id"]
    assert r.json()["visibility"] == "private" and r.json()["owner"] == "alice"
    http.post(f"{A}/facts", headers=h, json={"content": "The shop opens at 9", "category": "fact"})
    assert {f["content"] for f in http.get(f"{A}/facts", headers=h, params={"user": "alice"}).json()} == {
        "Alice likes tea",
        "The shop opens at 9",
    }
    assert [f["content"] for f in http.get(f"{A}/facts", headers=h, params={"user": "bob"}).json()] == [
        "The shop opens at 9"
    ]
    r = http.patch(
        f"{A}/facts/{fid}",
        headers=h,
        json={"content": "Alice likes green tea", "importance": 5, "category": "preference", "user": "alice"},
    )
    assert r.status_code == 200 and (r.json()["content"], r.json()["importance"], r.json()["category"]) == (
        "Alice likes green tea",
        5,
        "preference",
    )
    r = http.patch(f"{A}/facts/{fid}", headers=h, json={"content": "hijack", "user": "bob"})
    assert r.status_code == 403
    assert (
        http.put(f"{A}/facts/{fid}/visibility", headers=h, json={"visibility": "shared", "user": "alice"}).json()[
            "visibility"
        ]
        == "shared"
    )
    assert "Alice likes green tea" in {
        f["content"] for f in http.get(f"{A}/facts", headers=h, params={"user": "bob"}).json()
    }
    got = http.get(f"{A}/facts/{fid}", headers=h).json()
    assert got["fact"]["id"] == fid and [c["action"] for c in got["history"]] == ["create", "update", "update"]
    assert http.delete(f"{A}/facts/{fid}", headers=h, params={"user": "alice"}).json()["id"] == fid
    assert http.get(f"{A}/facts/{fid}", headers=h).status_code == 404
    http.post(f"{A}/facts", headers=h, json={"content": "Bob has a cat", "user": "bob"})
    http.post(f"{A}/facts", headers=h, json={"content": "Bob has a dog", "user": "bob"})
    assert http.delete(f"{A}/facts", headers=h, params={"user": "bob"}).json() == {"forgotten": 2}
    assert len(http.get(f"{A}/facts", headers=h, params={"all_users": True}).json()) == 1


def test_memories_profiles_digests_jobs_usage(env: Env) -> None:
    http, h = env.http, env.h("bot")
    for key in ("a", "b"):
        http.post(
            f"{A}/threads/{key}/messages",
            headers=h,
            json={"role": "user", "content": f"Plan the {key} launch for Friday.", "user": "alice"},
        )
        http.post(f"{A}/threads/{key}/end", headers=h)
    env.mem.run_jobs()
    listed = http.get(f"{A}/memories", headers=h).json()["memories"]
    assert len(listed) == 2 and set(listed[0]) >= {"id", "content", "createdAt", "updatedAt"}
    assert http.delete(f"{A}/memories/{listed[0]['id']}", headers=h).json() == {"success": True, "deletedCount": 1}
    assert http.delete(f"{A}/memories/{listed[0]['id']}", headers=h).status_code == 404
    assert http.delete(f"{A}/memories", headers=h).json() == {"success": True, "deletedCount": 1}
    assert http.get(f"{A}/memories", headers=h).json() == {"memories": [], "cap": 10}
    http.post(f"{A}/facts", headers=h, json={"content": "Alice prefers mornings", "user": "alice"})
    env.mem.run_jobs()
    assert "mornings" in http.get(f"{A}/profiles/alice", headers=h).json()["profile"]
    assert http.get(f"{A}/profiles/nobody", headers=h).json() == {"user": "nobody", "profile": None}
    assert "mornings" in http.get(f"{A}/digests/alice", headers=h).json()["digest"]
    jobs = http.get(f"{A}/jobs", headers=h, params={"status": "done"}).json()
    assert jobs and all(j["agent"] == "bot" and j["status"] == "done" for j in jobs)
    assert http.post(f"{A}/jobs/{jobs[0]['id']}/retry", headers=h).json()["status"] == "pending"
    assert http.post(f"{A}/jobs/999999/retry", headers=h).status_code == 404
    usage = http.get(f"{A}/usage", headers=h, params={"since": "2020-01-01T00:00:00Z"}).json()
    assert usage["agent"] == "bot" and usage["usage"] == [] and usage["budget"]["agent"] == "bot"
    assert http.get(f"{A}/status", headers=h).json()["counts"]["threads"] == 2


def test_export_import_and_db_status(env: Env) -> None:
    http, h = env.http, env.h("bot")
    http.post(f"{A}/threads/t/messages", headers=h, json={"role": "user", "content": "hello there", "user": "alice"})
    http.post(f"{A}/facts", headers=h, json={"content": "Alice speaks French", "user": "alice"})
    exported = r = http.get(f"{A}/export", headers=h)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    lines = r.text.splitlines()
    assert '"type":"header"' in lines[0] and len(lines) >= 4
    other = env.h("other")
    r = http.post(
        "/v1/agents/other/import", headers={**other, "content-type": "application/x-ndjson"}, content=r.content
    )
    assert r.status_code == 200 and r.json()["messages"] == 1 and r.json()["facts"] == 1, r.json()
    jsonl = {**other, "content-type": "application/x-ndjson"}
    again = http.post("/v1/agents/other/import", headers=jsonl, content=exported.content)
    assert again.status_code == 409  # the thread exists (on_conflict=error)
    assert http.post("/v1/agents/other/import", headers=jsonl, content=b'{"a": 1}').status_code == 422
    # An export sent as text/plain (what a page of another site can post without asking) is not read.
    assert http.post("/v1/agents/other/import", headers=other, content=exported.content).status_code == 415
    assert http.get("/v1/agents/other/threads/t/messages", headers=other).json()[0]["content"] == "hello there"
    status = http.get("/v1/db/status", headers=env.h("admin")).json()
    assert status["backend"] == "sqlite" and status["schema_version"] >= 11 and status["counts"]["agents"] == 2
    assert http.get("/v1/db/status", headers=h).status_code == 403
    # usage of every agent: admin keys only
    usage = http.get("/v1/usage", headers=env.h("admin"))
    assert usage.status_code == 200 and isinstance(usage.json()["usage"], list)
    assert http.get("/v1/usage", headers=h).status_code == 403
    assert http.get("/v1/usage", headers=env.h("bot")).status_code == 403


def test_keys_routes_and_operations(env: Env) -> None:
    http, admin = env.http, env.h("admin")
    r = http.post("/v1/keys", headers=admin, json={"scope": "user", "agent": "bot", "user": "carol"})
    assert r.status_code == 201 and r.json()["key"].startswith("ml_")
    new_key, new_id = r.json()["key"], r.json()["record"]["id"]
    assert new_key not in http.get("/v1/keys", headers=admin).text
    carol = {"Authorization": f"Bearer {new_key}"}
    assert http.get(f"{A}/facts", headers=carol).status_code == 200
    assert http.delete(f"/v1/keys/{new_id}", headers=admin).json()["revoked_at"] is not None
    r = http.get(f"{A}/facts", headers=carol)
    assert (
        r.status_code == 401 and "revoked" in r.json()["detail"] and r.headers["www-authenticate"].startswith("Bearer")
    )
    assert http.get("/v1/keys", headers=env.h("bot")).status_code == 403
    assert http.get("/healthz").json() == {"status": "ok"}
    assert http.get("/readyz").json()["status"] == "ready"
    http.post(f"{A}/threads/t/messages", headers=env.h("bot"), json={"role": "user", "content": "hi", "user": "u"})
    text = http.get("/metrics").text
    assert (
        'memlane_http_requests_total{method="POST",route="/v1/agents/{agent}/threads/{thread}/messages",'
        'status="201"} 1.0' in text
    )
    for _ in range(2):  # counted per route and status, again and again (the edge keeps each series at hand)
        http.post(f"{A}/threads/t/messages", headers=env.h("bot"), json={"role": "user", "content": ""})
    repeated = http.get("/healthz", headers=[("x-request-id", "first"), ("X-Request-Id", "second")])
    assert repeated.headers["x-request-id"] == "second"  # of a repeated header, the last
    text = http.get("/metrics").text
    assert (
        'memlane_http_requests_total{method="POST",route="/v1/agents/{agent}/threads/{thread}/messages",'
        'status="201"} 1.0' in text
    )
    assert (
        'memlane_http_requests_total{method="POST",route="/v1/agents/{agent}/threads/{thread}/messages",'
        'status="422"} 2.0' in text
    )
    assert 'memlane_http_requests_total{method="GET",route="/healthz",status="200"} 2.0' in text
    assert (
        'memlane_http_request_duration_seconds_count{method="POST",route="/v1/agents/{agent}/threads/{thread}/'
        'messages"} 3.0' in text
    )
    # /metrics needs no key: it names no agent unless the operator asks (--metrics-per-agent).
    assert "memlane_http_request_duration_seconds_bucket" in text and 'agent="' not in text
    spec = http.get("/openapi.json").json()
    assert all(p.startswith("/v1/") for p in spec["paths"] if p not in ("/healthz", "/readyz", "/metrics"))
    assert http.get("/docs").status_code == 200


def test_request_ids_in_logs_and_memories_injected_metric(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with server_env(str(tmp_path / "m.db"), metrics_per_agent=True) as env:
        _request_ids_and_metrics(env, caplog)


def _request_ids_and_metrics(env: Env, caplog: pytest.LogCaptureFixture) -> None:
    http, h = env.http, env.h("bot")
    http.post(
        f"{A}/threads/old/messages", headers=h, json={"role": "user", "content": "Book the venue for May.", "user": "u"}
    )
    http.post(f"{A}/threads/old/end", headers=h)
    env.mem.run_jobs()
    with caplog.at_level("INFO", logger="memlane.server.access"):
        r = http.post(f"{A}/threads/new/context", headers={**h, "X-Request-ID": "req-42"}, json={"user": "u"})
    assert r.status_code == 200 and r.headers["x-request-id"] == "req-42"
    assert any(t["title"] == "Memories from previous conversations" for t in r.json()["sections"])
    logged = [json.loads(rec.getMessage()) for rec in caplog.records if rec.name == "memlane.server.access"]
    assert logged[-1]["request_id"] == "req-42" and logged[-1]["status"] == 200
    assert logged[-1]["route"] == "/v1/agents/{agent}/threads/{thread}/context"
    text = http.get("/metrics").text
    assert 'memlane_context_memories_injected_total{agent="bot"} 1.0' in text
    assert 'memlane_memories{agent="bot"} 1.0' in text and 'memlane_memory_cap_utilization{agent="bot"} 0.1' in text
    assert http.get(f"{A}/facts", headers={"X-Request-ID": "bad id!"}).headers["x-request-id"] != "bad id!"


def test_the_api_docs_work_offline_and_offer_authorize(env: Env) -> None:
    page = env.http.get("/docs")
    assert page.status_code == 200 and "cdn." not in page.text and "/docs-static/swagger-ui-bundle.js" in page.text
    bundle = env.http.get("/docs-static/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.content) > 100_000
    assert env.http.get("/docs-static/swagger-ui.css").status_code == 200
    spec = env.http.get("/openapi.json").json()
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    assert {"HTTPBearer": []} in spec["paths"]["/v1/agents/{agent}/facts"]["get"]["security"]
