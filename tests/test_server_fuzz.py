"""The OpenAPI document fuzzed with schemathesis (bounded examples per route, on a real SQLite store):
no response is a 500, and every response matches the schema the document gives for its status."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from memlane import Memory, load_settings
from memlane.server import ServerSettings, create_app

pytestmark = pytest.mark.slow
ADMIN: dict[str, str] = {}
EXAMPLES = 10  # per operation: about 40 operations, a few hundred requests


@pytest.fixture(scope="module")
def fuzzed_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    path = tmp_path_factory.mktemp("fuzz") / "f.db"
    with Memory(path, agent="bot", settings=load_settings(embedder="none", worker="none")) as mem:
        ADMIN["Authorization"] = f"Bearer {mem.create_api_key('admin').key}"
        mem.add_message("t", "user", "hello", user="u")
        mem.remember("a fact", user="u")
        # Large limits: a fuzzed body of a few MB is a 413, not something to wait for.
        yield create_app(mem, ServerSettings(rate_limit=0, max_body_bytes=200_000, max_import_bytes=200_000))


@schemathesis.serializer("application/x-ndjson")
def _ndjson(ctx: object, value: object) -> bytes:
    """An import body: whatever text was generated (mostly not an export: then a 422)."""
    return value.encode("utf-8") if isinstance(value, str) else repr(value).encode("utf-8")


def test_no_500_and_every_response_matches_the_schema(fuzzed_app: FastAPI) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzzed_app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 35
    checks = [not_a_server_error, response_schema_conformance, content_type_conformance]

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def fuzz(case: schemathesis.Case) -> None:
            key = ADMIN
            if case.path.startswith("/v1/keys") and case.method in ("POST", "DELETE"):
                # Creating admin keys or revoking the one in use would change who may call what mid-run.
                key = {"Authorization": "Bearer ml_not_a_key"}
            case.headers = {**(case.headers or {}), **key}
            case.call_and_validate(checks=checks)

        fuzz()
    answered = fuzzed_app.state.memlane.metrics.requests
    counts: dict[str, float] = {}
    for metric in answered.collect():
        for sample in metric.samples:
            if sample.name.endswith("_total"):
                status = sample.labels["status"][0] + "xx"
                counts[status] = counts.get(status, 0) + sample.value
    print("fuzz responses by class:", counts)
    assert counts.get("5xx", 0) == 0 and sum(counts.values()) >= 150 and counts.get("2xx", 0) >= 30, counts


def test_the_document_is_served(fuzzed_app: FastAPI) -> None:
    paths = fuzzed_app.openapi()["paths"]
    assert "/v1/agents/{agent}/threads/{thread}/messages" in paths and len(paths) >= 25
