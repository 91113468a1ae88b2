"""The OpenAPI document is good enough for clients generated in other languages: every route has a summary, an
example of its request and of its answer (each valid against its own schema), its errors as problem details
with their ``type``, and the bearer scheme where a key is needed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest

from memlane import Memory, load_settings
from memlane.server import create_app
from memlane.server.problems import TYPE_PREFIX


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("openapi") / "o.db"
    with Memory(path, settings=load_settings(embedder="none", worker="none"), llm=None) as mem:
        return create_app(mem).openapi()


def _check(spec: dict[str, Any], schema: dict[str, Any], example: Any, where: str) -> None:
    resolver = {"$defs": spec["components"]["schemas"], **schema}
    text = str(resolver).replace("#/components/schemas/", "#/$defs/")
    jsonschema.validate(example, eval(text), cls=jsonschema.Draft202012Validator)


def test_every_route_has_a_summary_examples_errors_and_its_security(spec: dict[str, Any]) -> None:
    missing: list[str] = []
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            where = f"{method.upper()} {path}"
            if not op.get("summary"):
                missing.append(f"{where}: summary")
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None:
                if "example" not in body:
                    missing.append(f"{where}: request example")
                else:
                    _check(spec, body["schema"], body["example"], where)
            answers = op["responses"]
            for status, answer in answers.items():
                json_answer = answer.get("content", {}).get("application/json")
                if status.startswith("2") and json_answer is not None and json_answer.get("schema"):
                    if json_answer.get("example") is None:
                        missing.append(f"{where}: example of {status}")
                    else:
                        _check(spec, json_answer["schema"], json_answer["example"], where)
            if path.startswith("/v1/"):
                problem = answers.get("404", {}).get("content", {}).get("application/problem+json")
                if problem is None or not problem["example"]["type"].startswith(TYPE_PREFIX):
                    missing.append(f"{where}: problem answers")
                if "application/json" in answers.get("404", {}).get("content", {}):
                    missing.append(f"{where}: problems declared as application/json")
                if op.get("security") != [{"HTTPBearer": []}]:
                    missing.append(f"{where}: security")
    assert missing == []


def test_the_schema_examples_are_valid(spec: dict[str, Any]) -> None:
    for name, schema in spec["components"]["schemas"].items():
        if "example" in schema:
            _check(spec, {"$ref": f"#/components/schemas/{name}"}, schema["example"], name)


def test_the_documents_paths_are_those_the_readme_and_clients_use(spec: dict[str, Any]) -> None:
    assert spec["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    assert Path(__file__).parents[1].joinpath("docs", "service.md").read_text().count("urn:memlane:problem:") >= 1


def test_the_bearer_scheme_is_documented_not_run_per_request(spec: dict[str, Any], tmp_path: Path) -> None:
    """The key is read once per request, by the auth dependency itself: FastAPI's HTTPBearer dependency, there
    only for the document, ran for every request of the API and parsed the header again (issue 39). The
    document still names the scheme and every operation that needs it."""
    from fastapi.routing import APIRoute
    from fastapi.security.base import SecurityBase

    assert spec["components"]["securitySchemes"] == {
        "HTTPBearer": {
            "type": "http",
            "description": "An API key: `memlane keys create` (shown once).",
            "scheme": "bearer",
        }
    }
    with Memory(tmp_path / "r.db", settings=load_settings(embedder="none", worker="none"), llm=None) as mem:
        app = create_app(mem)
    run: list[str] = []

    def walk(dependant: Any, path: str) -> None:
        for sub in dependant.dependencies:
            if isinstance(sub.call, SecurityBase):
                run.append(path)
            walk(sub, path)

    routes = [r for r in app.routes if isinstance(r, APIRoute) and r.path.startswith("/v1/")]
    assert len(routes) > 40
    for route in routes:
        walk(route.dependant, route.path)
    assert run == []
